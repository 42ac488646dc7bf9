/* settle: the ON arm's Scope between agent sessions (settle.h). */
#include <string.h>
#include <time.h>

#include "json.h"
#include "server/settle.h"

static void pause_seconds(int s)
{
	struct timespec ts = { .tv_sec = s };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* POST path with body (consumed), tried again while the Server says an
 * artifact's owner is pending. */
static int post_when_owned(const struct pc_client *c, const char *path, jv body, jv *out,
			   struct pc_err *e)
{
	static const int pauses[] = SETTLE_OWNER_PENDING_PAUSES;
	struct pc_answer a;

	for (size_t i = 0;; i++) {
		int rc = pc_call(c, "POST", path, jv_copy(body), out, &a, e);
		int pending =
			rc != 0 && a.status == 503 && !strcmp(a.code, "artifact_owner_pending");
		if (!pending || i == sizeof pauses / sizeof *pauses) {
			jv_free(body);
			return rc;
		}
		pause_seconds(pauses[i]);
	}
}

static int flush(const struct pc_client *c, const char *scope, int *rounds, struct pc_err *e)
{
	for (*rounds = 0; *rounds < SETTLE_FLUSH_ROUNDS_MAX;) {
		jv out;
		jv body = JV_OBJECT(jv_string("scope_id"), jv_string(scope));
		if (post_when_owned(c, "/v1/memory/flush", body, &out, e) != 0)
			return -1;
		++*rounds;
		double current = json_number_at(out, "current_cursor", 0);
		int done = current >= json_number_at(out, "high_watermark", 0) ||
			   current <= json_number_at(out, "previous_cursor", 0);
		jv_free(out);
		if (done)
			break;
	}
	return 0;
}

/* A count the statistics hold at dotted, else fallback (null: a figure
 * the Server does not know). */
static jv figure(jv stats, const char *dotted, jv fallback)
{
	jv v = json_at(stats, dotted);

	if (jv_get_kind(v) == JV_KIND_NUMBER) {
		jv_free(fallback);
		return v;
	}
	jv_free(v);
	return fallback;
}

static jv snapshot_of(jv stats, int session, int rounds)
{
	static const struct {
		const char *key, *path;
		int nullable;
	} figures[] = {
		{ "sources", "inventory.sources.total", 0 },
		{ "memory_pending", "inventory.sources.memory_pending", 0 },
		{ "memory_entries", "inventory.memory.entries.total", 0 },
		{ "preparations", "recall.totals.preparations", 0 },
		{ "ready_preparations", "recall.totals.ready_preparations", 0 },
		{ "generation_requests", "usage.totals.generation.requests", 0 },
		{ "generation_input_tokens", "usage.totals.generation.input_tokens", 1 },
		{ "generation_output_tokens", "usage.totals.generation.output_tokens", 1 },
		{ "embedding_requests", "usage.totals.embedding.requests", 0 },
		{ "embedding_input_tokens", "usage.totals.embedding.input_tokens", 1 },
		{ "recalled_tokens", "recall.totals.recalled_tokens", 0 },
	};
	jv out = JV_OBJECT(jv_string("session"), jv_number(session),
			   jv_string("flush_rounds"), jv_number(rounds));

	for (size_t i = 0; i < sizeof figures / sizeof *figures; i++)
		out = jv_object_set(out, jv_string(figures[i].key),
				    figure(stats, figures[i].path,
					   figures[i].nullable ? jv_null() : jv_number(0)));
	return out;
}

int settle_session(const struct pc_client *c, const char *scope, int session, int flush_first,
		   jv *snapshot, struct pc_err *e)
{
	int rounds = 0;
	jv stats;

	if (flush_first && flush(c, scope, &rounds, e) != 0)
		return -1;
	jv selection = JV_OBJECT(jv_string("mode"), jv_string("exact"),
				 jv_string("scope_ids"), JV_ARRAY(jv_string(scope)));
	if (post_when_owned(c, "/v1/stats", JV_OBJECT(jv_string("selection"), selection), &stats,
			    e) != 0)
		return -1;
	*snapshot = snapshot_of(stats, session, rounds);
	jv_free(stats);
	return 0;
}
