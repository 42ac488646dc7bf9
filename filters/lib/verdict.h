/* verdict: the one definition of a case's verdict and its exit code.
 *
 * A verdict is read from an evaluation case's assertion values and its
 * task_outcome label, never from replay evidence, so pc-evaluate (which
 * writes the case) and pc-report (which reads it back) cannot disagree.
 */
#ifndef PC_VERDICT_H
#define PC_VERDICT_H

#include <jv.h>

enum verdict {
	VERDICT_ACCEPTED,
	VERDICT_FAILED,
	VERDICT_INCONCLUSIVE,
	VERDICT_SKIPPED,
	VERDICT_STALE
};

/* How many verdicts there are, for tables indexed by verdict. */
enum {
	VERDICTS = VERDICT_STALE + 1
};

/* The verdict of kase (borrowed), a case of a powercontext.e2e-evaluation/v1
 * document; *exit_code receives the case's exit code (stage.h's EXIT_*):
 *   skipped       the workload was not run (task_outcome "skipped") and either
 *                 every assertion is true (0: the failure policy expected the
 *                 skip) or collection/execution did not complete (3)
 *   accepted      every assertion is true (0)
 *   inconclusive  collection_completed or execution_completed is false (3)
 *   failed        any other assertion is false (2)
 *   stale         pc-evaluate --catalog found its manifest changed or gone
 *                 (the case's "stale" attribute) and it did not fail (4):
 *                 never counted as passed */
enum verdict verdict_judge(jv kase, int *exit_code);

/* What verdict_judge reads of a case, for a filter that wrote the case
 * itself (pc-evaluate): every assertion holds; collection_completed or
 * execution_completed is present and false; the label task_outcome is
 * "skipped"; the case is marked stale. */
struct verdict_facts {
	int accepted, uncollected, skipped, stale;
};
enum verdict verdict_of(const struct verdict_facts *v, int *exit_code);

/* "accepted", "failed", "inconclusive", "skipped" or "stale". */
const char *verdict_name(enum verdict v);

/* The exit code of an OFF/ON comparison's powercontext.e2e-paired-report/v4
 * (borrowed), as PowerContext 1.4.1's paired command exits: 2 when its
 * total holds an arm that errored, or an ON arm that failed integration or
 * reached another Scope (the run is then no result), else 0, whatever the
 * arms scored. */
int verdict_paired_exit(jv report);

#endif
