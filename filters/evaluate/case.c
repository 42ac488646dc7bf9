#include "case.h"

#include <stdlib.h>
#include <string.h>

#include "assertions.h"
#include "diagnosis.h"
#include "docs_names.h"
#include "hash.h"
#include "outdir.h"
#include "rewards.h"
#include "scores.h"
#include "text.h"
#include "view.h"

/* What makes two runs comparable (pc-report's ledger keys its trends by
 * it, docs/ledger.md): only fields that hold no secret.  The manifest digest
 * stands for the whole workload as it ran (its steps, probes, budget and
 * expectations): the sha256 of the manifest's canonical JSON.  The fields
 * beside it say which of them changed.  The PowerContext under test is left
 * out: a trend is there to show what a new release changed. */
static void comparability(struct json_out *o, const struct case_input *in)
{
	const struct facts *f = in->f;
	struct view environment = f->environment;
	struct json_out canonical = { 0 };
	char digest[SHA256_HEX_LEN + 1];
	int members = 0;

	view_write(&canonical, f->task, JSON_CANONICAL);
	sha256_hasher_hex(in->hasher, canonical.text, canonical.len, digest);
	json_out_free(&canonical);
	json_out_bytes(o, "{", 1);
	json_out_key(o, "manifest_digest", &members);
	json_out_cstring(o, digest);
	view_write_member(o, "dataset_checksum", f->dataset_checksum, &members);
	view_write_member(o, "database", view_get(environment, "database"), &members);
	view_write_member(o, "adapter_version", view_get(environment, "adapter_version"), &members);
	view_write_member(o, "adapter_protocol_version",
			  view_get(environment, "adapter_protocol_version"), &members);
	view_write_member(o, "agent_model", view_get(environment, "agent_model"), &members);
	view_write_member(o, "max_steps", view_get(f->execution, "max_steps"), &members);
	view_write_member(o, "max_tokens", view_get(f->execution, "max_tokens"), &members);
	json_out_key(o, "failure_policy", &members);
	json_out_cstring(o, in->policy);
	json_out_bytes(o, "}", 1);
}

/* The reference writes `name or str(path)`: an empty name falls back too,
 * and a missing path prints as "None". */
static void dataset_name(struct json_out *o, struct view dataset)
{
	struct view name = view_get(dataset, "name");
	struct view path = view_get(dataset, "path");
	size_t n;

	if (view_str(name, &n) && n > 0)
		view_write(o, name, JSON_COMPACT);
	else if (view_str(path, &n))
		view_write(o, path, JSON_COMPACT);
	else
		json_out_cstring(o, "None");
}

/* The reference harness's attributes, then pc-e2e's own: comparability,
 * the run's time (the replay's, so a rescore records the same one), the
 * replay's status and rewards as its report.md shows them (rewards.h), the
 * diagnosis, for a member of a batch merged into one trial the batch's
 * name, which says where its files go (outdir.h), and whether it is stale
 * (freshness.h). */
static void attributes(struct json_out *o, const struct case_input *in,
		       const struct judgement *judged, size_t n)
{
	const struct facts *f = in->f;
	struct view replay = f->replay;
	int members = 0;

	json_out_bytes(o, "{", 1);
	view_write_member(o, "commit", view_get(f->environment, "commit"), &members);
	view_write_member(o, "database", view_get(f->environment, "database"), &members);
	json_out_key(o, "dataset", &members);
	dataset_name(o, f->dataset);
	view_write_member(o, "execution_adapter", view_get(f->execution, "type"), &members);
	view_write_member(o, "harbor_task_id", view_get(f->dataset, "task_id"), &members);
	view_write_member(o, "run_id", view_get(replay, "run_id"), &members);
	view_write_member(o, "workload_id", view_get(f->task, "id"), &members);
	json_out_key(o, "comparability", &members);
	comparability(o, in);
	view_write_member(o, "finished_at", view_get(f->environment, "finished_at"), &members);
	view_write_member(o, CASE_REPLAY_STATUS, f->status, &members);
	json_out_key(o, CASE_HARBOR_REWARDS, &members);
	rewards_write_shown(o, f);
	json_out_key(o, CASE_DIAGNOSIS, &members);
	json_out_bytes(o, "{\"assertions\":", 14);
	assertions_diagnose(o, f, judged, n, in->red);
	json_out_bytes(o, ",\"identity\":", 12);
	diagnosis_identity(o, f);
	json_out_bytes(o, "}", 1);
	if (f->batch) {
		json_out_key(o, OUTDIR_CASE_BATCH, &members);
		json_out_cstring(o, f->batch);
	}
	if (jv_get_kind(in->stale) == JV_KIND_OBJECT) {
		json_out_key(o, CASE_STALE, &members);
		json_out_value(o, in->stale, JSON_COMPACT);
	}
	json_out_bytes(o, "}", 1);
}

/* verdict.h's judgement of the case's assertions and label. */
static int exit_code(const struct facts *f, const struct judgement *judged, size_t n, jv stale)
{
	struct verdict_facts v = { .accepted = 1, .stale = jv_get_kind(stale) == JV_KIND_OBJECT };
	int code;

	for (size_t i = 0; i < n; i++) {
		v.accepted = v.accepted && judged[i].held;
		int collects = !strcmp(judged[i].name, "collection_completed") ||
			       !strcmp(judged[i].name, "execution_completed");
		v.uncollected = v.uncollected || (!judged[i].held && collects);
	}
	/* the label task_outcome is "skipped" for a skipped case, and for an
	 * outcome workload whose status is "skipped" */
	v.skipped = f->kind == CASE_SKIPPED ||
		    (f->kind == CASE_OUTCOME && view_str_is(f->status, "skipped"));
	verdict_of(&v, &code);
	return code;
}

void case_write(struct json_out *o, const struct case_input *in, int *code)
{
	const struct facts *f = in->f;
	struct judgement judged[ASSERTIONS_MAX];
	struct view id = view_get(f->task, "id");
	int members = 0;

	json_out_bytes(o, "{\"schema\":", 10);
	json_out_cstring(o, SCHEMA_EVALUATION);
	json_out_bytes(o, ",\"experiment\":", 14);
	struct sbuf experiment = { 0 };
	sbuf_add(&experiment, in->prefix);
	sbuf_add(&experiment, ":");
	sbuf_add(&experiment, view_cstr(id));
	json_out_string(o, experiment.s, experiment.len);
	free(experiment.s);
	json_out_bytes(o, ",\"cases\":[{", 11);
	view_write_member(o, "name", id, &members);
	json_out_key(o, "assertions", &members);
	size_t n = assertions_write(o, f, judged);
	json_out_key(o, "scores", &members);
	scores_write(o, f);
	json_out_key(o, "labels", &members);
	labels_write(o, f);
	json_out_key(o, "metrics", &members);
	metrics_write(o, f);
	json_out_key(o, "attributes", &members);
	attributes(o, in, judged, n);
	json_out_bytes(o, "}]}", 3);
	*code = exit_code(f, judged, n, in->stale);
}
