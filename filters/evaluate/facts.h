/* facts: what a replay says about its run, read once (docs/DESIGN.md §3).
 *
 * The assertions, scores, labels and metrics of a case are computed from
 * struct facts alone, so each rule reads a named, typed field instead of
 * walking the replay by path, and the counts they share are made once.
 * Only the fields its kind of case needs are read: an outcome workload's
 * manifest has no probes to count, and a skipped run left nothing to judge.
 */
#ifndef PC_EVALUATE_FACTS_H
#define PC_EVALUATE_FACTS_H

#include <stddef.h>

#include "err.h"
#include "view.h"

/* Which case a replay makes: decided by its manifest's kind, then status. */
enum case_kind {
	CASE_OUTCOME,
	CASE_SKIPPED,
	CASE_MEMORY
};

/* What an outcome workload is judged on. */
struct outcome_facts {
	struct view expected_status; /* expected_execution[policy], a string */
	struct view reward;          /* harbor.rewards.reward, a number or null */
	const char *reward_literal;  /* the reward as the replay's text writes it
				      * (Python prints 1 and 1.0 apart), or NULL
				      * when it cannot be found */
	size_t reward_literal_len;
	char reward_digits[DECIMAL_MAX]; /* the literal's room when the view gives it */
};

/* Counts over capture_records. */
struct capture_facts {
	int eligible;              /* user prompts, LLM and tool results */
	int captured;              /* eligible records with status captured */
	int in_run_contexts;       /* ready contexts with content */
	int completed_checkpoints; /* not failed, cursor at or past target */
	double coverage;           /* captured / eligible, 0 when none */
};

struct memory_facts {
	int before, after;    /* entries in memory_before, memory_after */
	int created;          /* entries of after whose identity is not in before */
	int grounded;         /* created entries citing only captured sources */
	double groundedness;  /* grounded / created, 0 when none */
	struct view expected; /* task.evaluation.expected_memory, strings */
	int expected_found;   /* every expected fragment is in some entry of after */
};

struct probe_facts {
	int positive;                   /* specs with expected context */
	int supported;                  /* positive probes whose context holds it all */
	double coverage;                /* supported / positive, 1 when none */
	int forbids;                    /* some spec declares forbidden context */
	struct view *forbidden_matched; /* owned array: the ids of the probes
					 * that matched it, in spec order */
	size_t n_forbidden_matched;
};

/* The base names of Harbor's native ACP files a run must record. */
#define NATIVE_REQUIRED 3

struct native_facts {
	const char *missing[NATIVE_REQUIRED]; /* static names not recorded, in
					       * the required order */
	int n_missing;
	int summaries;             /* distinct acp-summary.json artifact names */
	int instructions;          /* distinct artifacts of resolved_instructions */
	int instructions_recorded; /* summaries and the two sets equal */
	int instruction_entries;   /* entries of resolved_instructions */
};

/* The thresholds of task.evaluation, 0 where a number is missing. */
struct thresholds {
	double capture_coverage, groundedness, probe_coverage;
	double in_run_contexts;
	int require_checkpoint;
};

/* The fields a kind of case does not need are left 0 or null views, so
 * facts_free can free them all whatever the kind.  Views borrow from the
 * replay, which outlives the facts. */
struct facts {
	enum case_kind kind;
	struct view replay;
	struct view_text text; /* the replay's text, for what only it tells */
	/* parts of it read often: the manifest it ran (task) and its parts,
	 * the environment and Harbor's record */
	struct view task, dataset, execution, evaluation, environment, harbor;
	struct view status;           /* a string */
	struct view dataset_checksum; /* task.dataset.checksum, a string or null */
	struct view rewards;          /* harbor.rewards, name to number */
	const char *batch;            /* the merged batch it ran in, or NULL (outdir.h) */
	struct outcome_facts outcome;

	/* Memory cases only */
	struct view errors;            /* the replay's errors, strings */
	struct view observed_checksum; /* of the task that ran, a string or null */
	struct view exception_type;    /* harbor.exception_type, a string or null */
	struct capture_facts captures;
	struct memory_facts memory;
	struct probe_facts probes;
	struct native_facts native;
	struct thresholds thresholds;
};

/* Fill *f from replay (borrowed, a powercontext.e2e-evidence/v1
 * document), the text it was read from and policy, the failure policy it
 * ran under.  -1 with e filled, and nothing to free, for a replay one run
 * cannot judge: a paired workload's.  *f is not to be copied: it may point
 * into itself. */
int facts_read(struct view replay, const struct view_text *text, const char *policy,
	       struct facts *f, struct pc_err *e);

void facts_free(struct facts *f);

/* Whether the replay ended with this status. */
int facts_status_is(const struct facts *f, const char *status);

#endif
