/* arm: one arm of a paired OFF/ON comparison (arm.h). */
#include <stdlib.h>

#include "arm.h"
#include "run.h"
#include "settle.h"
#include "text.h"

const char *arm_name(const struct arm *a)
{
	return a->on ? "on" : "off";
}

void arm_begin(struct arm *a, int trial, int position, int scored_session,
	       const char *scored_step)
{
	/* odd trials run OFF first, even ones ON first, as 1.4.1 orders them */
	*a = (struct arm){ .trial = trial,
			   .position = position,
			   .on = (trial % 2 == 1) == (position == 2),
			   .scored_session = scored_session,
			   .scored_step = scored_step,
			   .snapshots = jv_array(),
			   .settle_failures = jv_array(),
			   .outside_scope = jv_array() };
}

void arm_end(struct arm *a)
{
	jv_free(a->snapshots);
	jv_free(a->settle_failures);
	jv_free(a->outside_scope);
}

void arm_session_ended(struct arm *a, const struct run *r)
{
	struct pc_err e;
	jv snapshot;

	if (!a->on || !r->scope)
		return;
	int session = a->settled++;
	if (settle_session(r->fleet->client, r->scope, session, session < a->scored_session,
			   &snapshot, &e) == 0)
		a->snapshots = jv_array_append(a->snapshots, snapshot);
	else {
		char *why =
			text_fmt("Settling the Scope after session %d failed: %s", session, e.msg);
		a->settle_failures = jv_array_append(a->settle_failures, jv_string(why));
		free(why);
	}
}

jv arm_block(const struct arm *a)
{
	return JV_OBJECT(jv_string("trial"), jv_number(a->trial),
			 jv_string("arm"), jv_string(arm_name(a)),
			 jv_string("position"), jv_number(a->position),
			 jv_string("scored_session"), jv_number(a->scored_session),
			 jv_string("scored_step"),
			 a->scored_step ? jv_string(a->scored_step) : jv_null(),
			 jv_string("sessions"), jv_copy(a->snapshots),
			 jv_string("settle_failures"), jv_copy(a->settle_failures),
			 jv_string("outside_scope"), jv_copy(a->outside_scope));
}
