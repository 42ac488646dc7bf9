/* harbor_trial: what a run record's Harbor trial says of the run, as its
 * replay and its paired arm's observation carry it: the job id from the
 * job's result.json; the trial name, URI, task checksum, times, rewards
 * and exception from the trial's; for a member of a merged batch, its own
 * steps' rewards and exception in place of the trial's.
 */
#ifndef PC_NORMALIZE_HARBOR_TRIAL_H
#define PC_NORMALIZE_HARBOR_TRIAL_H

#include <jv.h>

/* The trial's Harbor result.json under trial (NULL: no trial directory),
 * a new reference; an empty object when there is none, or it holds no
 * object. */
jv harbor_trial_result(const char *trial);

/* The record's (borrowed) Harbor observation, from the trial's result
 * (borrowed) and its job's. */
jv harbor_trial_observation(jv record, jv result);

#endif
