/* arm: one arm of a paired OFF/ON comparison (arm.h). */
#include <stdlib.h>

#include <stdio.h>

#include "json.h"
#include "paired/arm.h"
#include "server/settle.h"
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

jv arm_settle(const struct pc_client *c, const char *scope, int session, int flush)
{
	struct pc_err e;
	jv snapshot;

	if (settle_session(c, scope, session, flush, &snapshot, &e) == 0)
		return JV_OBJECT(jv_string("session"), jv_number(session),
				 jv_string("snapshot"), snapshot);
	return JV_OBJECT(jv_string("session"), jv_number(session),
			 jv_string("error"), jv_string(e.msg));
}

void arm_take_settled(struct arm *a, jv settled)
{
	jv snapshot = json_get(settled, "snapshot");

	if (jv_get_kind(snapshot) == JV_KIND_OBJECT)
		a->snapshots = jv_array_append(a->snapshots, snapshot);
	else {
		const char *why = json_str(settled, "error");
		char *failure = text_fmt("Settling the Scope after session %.0f failed: %s",
					 json_number_at(settled, "session", 0),
					 why ? why : "no answer");
		a->settle_failures = jv_array_append(a->settle_failures, jv_string(failure));
		free(failure);
		jv_free(snapshot);
	}
	jv_free(settled);
}

void arm_session_ended(struct arm *a, const struct pc_client *c, const char *scope)
{
	if (!a->on || !scope)
		return;
	int session = a->settled++;
	arm_take_settled(a, arm_settle(c, scope, session, session < a->scored_session));
}

int arm_read_settled(struct arm *a, const char *path, struct pc_err *e)
{
	FILE *f = fopen(path, "r");
	struct json_reader in;
	jv line;
	long at;
	int rc = 0;

	/* no file: no session ended, which the treatment check reports */
	if (!f)
		return 0;
	json_reader_init(&in, f, path);
	while (rc == 0 && (rc = json_reader_next(&in, &line, &at, e)) > 0) {
		arm_take_settled(a, line);
		rc = 0;
	}
	json_reader_free(&in);
	fclose(f);
	return rc < 0 ? -1 : 0;
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
