/* arm: one arm of a paired OFF/ON comparison, as one run of its workload
 * (docs/DESIGN.md §11.5).  OFF runs the agent as a user without
 * PowerContext has it; ON runs it with the plugin, bound to a Scope of its
 * own, and settles that Scope after each session (server/settle.h).  What the arm
 * saw goes into its record's "arm" block, from which pc-normalize makes the
 * arm's observation.
 */
#ifndef PC_RUN_BUB_ARM_H
#define PC_RUN_BUB_ARM_H

#include <jv.h>

#include "clock.h"
#include "err.h"
#include "server/pcclient.h"

struct arm {
	int trial;    /* 1…N */
	int position; /* 1: the trial's first arm, 2: its second */
	int on;       /* 1: ON; 0: OFF */
	/* the 0-based session whose reward decides the arm, and the step
	 * holding that reward (NULL: the trial's, for a task-outcome workload;
	 * borrowed from the workload's selection) */
	int scored_session;
	const char *scored_step;
	int settled;                      /* sessions settled so far, failed ones included */
	jv snapshots;                     /* owned: the Server's SessionSnapshot after each */
	jv settle_failures;               /* owned: why a session could not be settled */
	jv outside_scope;                 /* owned: the audit's decisions outside the arm's Scope */
	char window_start[CLOCK_UTC_LEN]; /* the audit window, from after the Scope; "" */
};

/* "on" or "off". */
const char *arm_name(const struct arm *a);

void arm_begin(struct arm *a, int trial, int position, int scored_session,
	       const char *scored_step);
void arm_end(struct arm *a);

/* Settle scope after agent session `session` (0-based), flushing first
 * when flush: {session, snapshot}, or {session, error} (owned). */
jv arm_settle(const struct pc_client *c, const char *scope, int session, int flush);

/* A settled session (consumed) into the arm: its snapshot, or the failure
 * it is recorded as, never raised. */
void arm_take_settled(struct arm *a, jv settled);

/* After each agent session of the arm's run in scope (NULL: it has none)
 * the local runner calls this, through the run's session hook (run/run.h): an
 * ON arm settles its Scope on c (the flush only before a later session). */
void arm_session_ended(struct arm *a, const struct pc_client *c, const char *scope);

/* The sessions a Harbor job settled (pc-run-bub --settle, one line each in
 * path, python/pc_e2e_harbor/settle.py) into the arm; no file, none. */
int arm_read_settled(struct arm *a, const char *path, struct pc_err *e);

/* The record's "arm" block (owned). */
jv arm_block(const struct arm *a);

#endif
