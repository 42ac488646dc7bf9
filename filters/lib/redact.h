/* redact: keeping configured secrets out of every sink.
 *
 * Secrets are the non-empty values of pc-e2e's own settings (BUB_API_KEY,
 * every BUB_*_API_KEY, POWERCONTEXT_CLIENT_API_TOKEN,
 * POWERCONTEXT_E2E_AGENT_PROXY_URL, PC_E2E_LEDGER_PASSWORD), and the values
 * of 8 bytes or more of every variable PowerContext 1.4.1's harness counts
 * as a credential (named *_API_KEY, *_AUTHORIZATION, *_TOKEN,
 * *_SECRET_ACCESS_KEY or holding _TOKEN_, case ignored, unless it ends in
 * _FILE, _PATH or _URL; never its placeholders 1, true, none, null, empty,
 * dummy, ollama, lm-studio) and of POWERCONTEXT_SERVER_INFERENCE_*_HEADERS.
 * Each is replaced by "[REDACTED]", longest first, as written, JSON-escaped,
 * base64-encoded (standard and URL-safe, at any alignment in a longer
 * encoded text) and percent-encoded, in every string of a document before it
 * is written.  The same rule names the secrets a scheduler must not be given
 * (redact_secret_names).
 */
#ifndef PC_REDACT_H
#define PC_REDACT_H

#include <jv.h>

#include "err.h"

#define REDACTED "[REDACTED]"

struct redactor {
	char **needles; /* secrets and their escaped forms, longest first */
	int n;
};

/* Collect secrets from an environment array (main's environ). */
void redactor_init(struct redactor *r, char *const *env);
void redactor_free(struct redactor *r);

/* The names of the variables of env whose values redactor_init takes as
 * secrets, in env's order: what must not leave this host but through a
 * channel of its own (pipelines/units, docs/units.md). */
jv redact_secret_names(char *const *env);

/* Malloc'd copy of s with every secret replaced. */
char *redact_string(const struct redactor *r, const char *s);

/* Deep copy of v (consumed) with every string and key redacted. */
jv redact_jv(const struct redactor *r, jv v);

/* Whether redact_jv could change the document that the JSON text (n
 * bytes, as json_out writes it) holds: a secret in any of the forms sought
 * occurs in the text, or a string holds a NUL (which redaction, reading C
 * strings, cuts).  No: the text is already what redaction would write. */
int redact_text_may_change(const struct redactor *r, const char *text, size_t n);

/* Rewrite the file at path (atomically) if it holds a secret; byte-exact
 * otherwise.  For evidence written by other processes (agent logs, capture
 * logs, verifier output). */
int redact_file(const struct redactor *r, const char *path, struct pc_err *e);

#endif
