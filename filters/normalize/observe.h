/* observe: a paired arm's record and its Harbor trial made into the arm's
 * observation, PowerContext 1.4.1's powercontext.e2e-paired-arm/v3
 * (docs/DESIGN.md §11.5): its steps' rewards and figures, the Server's
 * snapshots, the treatment check, the Access audit's verdict and the
 * outcome, each by 1.4.1's rules.
 */
#ifndef PC_NORMALIZE_OBSERVE_H
#define PC_NORMALIZE_OBSERVE_H

#include <jv.h>

/* record: a run record with an "arm" block (borrowed); harbor: the trial's
 * observation as replays carry it (consumed); result: the trial's Harbor
 * result.json, or an empty object (borrowed). */
jv observe_arm(jv record, jv harbor, jv result);

#endif
