/* case: the evaluation document of one replay (docs/DESIGN.md §2.5): its
 * one case, judged from the replay's facts, and the attributes pc-report's
 * ledger compares runs by, written as one compact line.
 */
#ifndef PC_EVALUATE_CASE_H
#define PC_EVALUATE_CASE_H

#include <jv.h>

#include "facts.h"
#include "hash.h"
#include "json_out.h"
#include "redact.h"
#include "verdict.h"

/* What a case is written with beside its facts (all borrowed). */
struct case_input {
	const struct facts *f;
	const char *policy, *prefix; /* --failure-policy, --experiment-prefix */
	const struct redactor *red;
	jv stale;                     /* freshness.h's "stale" attribute, or null (borrowed) */
	struct sha256_hasher *hasher; /* the manifest digest's */
};

/* The powercontext.e2e-evaluation/v1 document of the case, in the
 * experiment "<prefix>:<workload id>", appended to o; its verdict's exit
 * code in *code. */
void case_write(struct json_out *o, const struct case_input *in, int *code);

#endif
