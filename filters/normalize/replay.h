/* replay: a run record made into its replay, powercontext.e2e-evidence/v1
 * (docs/DESIGN.md §2.4), deterministically: the record's run id,
 * environment, task, status, errors and the Server's answers (Memory
 * before and after: memory.h; probes), the Harbor trial's observation
 * (harbor_trial.h) and the evidence under the trial directory
 * (evidence.h).  Evidence that cannot be read fails a run that completed.
 * Redaction is the sink's (stage.h).
 */
#ifndef PC_NORMALIZE_REPLAY_H
#define PC_NORMALIZE_REPLAY_H

#include <jv.h>

/* The replay of record (borrowed). */
jv replay_of(jv record);

#endif
