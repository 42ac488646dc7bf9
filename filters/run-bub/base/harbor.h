/* harbor: the documents of Harbor's job and trial layout, as pc-run-bub's
 * runners make and read them (docs/DESIGN.md §5.5, §5.6).
 *
 * Trial names and ids, the verifier's reward files, the multi-step reward
 * strategy, the ACP runner's summary and trajectory, and the files' writer.
 * The files' names are lib/harbor_layout.h's, which pc-normalize and
 * pc-evaluate read the layout by too.
 */
#ifndef PC_HARBOR_H
#define PC_HARBOR_H

#include <jv.h>

#include "err.h"

/* In a paired ON arm's job directory: each session's settling, one JSON
 * line each, written by the Harbor runner's settle plugin and read into the
 * arm (paired/). */
#define HARBOR_SETTLED_SESSIONS_FILE "pc-e2e-sessions.jsonl"

/* Random lowercase hex (n chars) and a random UUID v4, from /dev/urandom. */
void harbor_random_hex(char *out, int n);
void harbor_uuid(char out[37]);

/* "<short task name>__<7 ShortUUID chars>" */
char *harbor_trial_name(const char *task_name);

/* Harbor's exception_info object, stamped now. */
jv harbor_exception(const char *type, const char *message);

/* Harbor's timing object, from started to now. */
jv harbor_timing(const char *started);

/* Rewards of a verifier dir: reward.json, else reward.txt; -1 with the
 * Harbor exception type in *type (RewardFileNotFoundError, …). */
int harbor_read_rewards(const char *verifier_dir, jv *rewards,
			const char **type, struct pc_err *e);

/* Trial rewards from step results by strategy "final" or "mean". */
jv harbor_trial_rewards(jv step_results, const char *strategy);

/* The ACP runner's summary of one prompt. */
jv harbor_acp_summary(const char *instruction, jv initialize, jv session,
		      jv prompt_response, const char *error_type,
		      const char *error_message, int permissions_requested);

/* ATIF trajectory from the instruction and the session updates, which
 * prog's local runner converted. */
jv harbor_trajectory(const char *prog, const char *session_id, jv agent_info,
		     const char *instruction, jv updates, int permissions_requested);

/* Write v (consumed) as dir/name, indented, atomically: a job or trial file. */
int harbor_write_json(const char *dir, const char *name, jv v, struct pc_err *e);

/* "file://" URI of an absolute path, percent-encoded. */
char *harbor_file_uri(const char *path);

#endif
