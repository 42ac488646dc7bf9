#include "memory.h"

#include <string.h>

#include "entry.h"
#include "json.h"
#include "probe.h"
#include "text.h"

int memory_record_eligible(jv rec)
{
	return json_str_is(rec, "event", "user_prompt") ||
	       json_str_is(rec, "event", "llm_result") || json_str_is(rec, "event", "tool_result");
}

static int nonnull_num(jv rec, const char *key, double *x)
{
	jv v = jv_object_get(jv_copy(rec), jv_string(key));
	int ok = jv_get_kind(v) == JV_KIND_NUMBER;

	if (ok)
		*x = jv_number_value(v);
	jv_free(v);
	return ok;
}

void memory_count_captures(jv replay, struct capture_facts *c, jv *captured_ids)
{
	jv records = json_at(replay, "capture_records");

	*captured_ids = jv_object();
	jv_array_foreach(records, i, rec) {
		double cur, target, bytes;
		if (memory_record_eligible(rec)) {
			c->eligible++;
			if (json_str_is(rec, "status", "captured")) {
				c->captured++;
				const char *sid = json_str(rec, "source_id");
				if (sid)
					*captured_ids = jv_object_set(*captured_ids, jv_string(sid),
								      jv_true());
			}
		}
		if (json_str_is(rec, "event", "context") && json_str_is(rec, "status", "ready") &&
		    nonnull_num(rec, "content_bytes", &bytes) && bytes > 0)
			c->in_run_contexts++;
		if (json_str_is(rec, "event", "checkpoint") &&
		    !json_str_is(rec, "status", "failed") &&
		    nonnull_num(rec, "current_cursor", &cur) &&
		    nonnull_num(rec, "target_position", &target) && cur >= target)
			c->completed_checkpoints++;
		jv_free(rec);
	}
	jv_free(records);
	c->coverage = c->eligible ? (double)c->captured / c->eligible : 0.0;
}

static int is_atomic(jv entry)
{
	jv artifact = json_at(entry, "artifact");
	int atomic = jv_get_kind(artifact) == JV_KIND_OBJECT;

	jv_free(artifact);
	return atomic;
}

/* (family, artifact id) of an atomic entry, ("memory", entry id) of a
 * legacy one: revisions and states of one entry are the same Memory.  A
 * family is printable ASCII, so the newline cannot be ambiguous. */
static jv memory_identity(jv entry)
{
	if (is_atomic(entry)) {
		jv artifact = json_at(entry, "artifact");
		jv id = jv_string_fmt("%s\n%s", json_str(artifact, "family"),
				      json_str(artifact, "artifact_id"));
		jv_free(artifact);
		return id;
	}
	return jv_string_fmt("memory\n%s", json_str(entry, "entry_id"));
}

jv memory_entry_sources(jv entry)
{
	const char *key = is_atomic(entry) ? "sources" : "source_refs";

	return jv_object_get(jv_copy(entry), jv_string(key));
}

int memory_entry_grounded(jv entry, jv captured_ids)
{
	jv refs = memory_entry_sources(entry);
	int n = jv_array_length(jv_copy(refs)), ok = n > 0;

	jv_array_foreach(refs, i, ref) {
		jv has =
			jv_object_get(jv_copy(captured_ids), jv_string(json_str(ref, "source_id")));
		ok = ok && jv_is_valid(has);
		jv_free(has);
		jv_free(ref);
	}
	jv_free(refs);
	return ok;
}

/* Whether the string content (borrowed) holds every fragment (consumed). */
static int all_fragments(enum text_fold how, jv content, jv fragments)
{
	int all = text_fragments_found(how, content, fragments) ==
		  jv_array_length(jv_copy(fragments));

	jv_free(fragments);
	return all;
}

/* Whether each fragment (borrowed) is in the text of some entry (borrowed). */
static int fragments_in_entries(jv fragments, jv entries)
{
	int ok = 1;

	jv_array_foreach(fragments, i, frag) {
		int found = 0;
		jv_array_foreach(entries, j, entry) {
			(void)j;
			jv text = jv_object_get(entry, jv_string("text"));
			found = found || all_fragments(TEXT_FOLD, text, JV_ARRAY(jv_copy(frag)));
			jv_free(text);
		}
		ok = ok && found;
		jv_free(frag);
	}
	return ok;
}

jv memory_created_entries(jv replay)
{
	jv before = json_at(replay, "memory_before.entries");
	jv after = json_at(replay, "memory_after.entries");
	jv before_ids = jv_object(), created = jv_array();

	jv_array_foreach(before, i, entry) {
		before_ids = jv_object_set(before_ids, memory_identity(entry), jv_true());
		jv_free(entry);
	}
	jv_array_foreach(after, i, entry) {
		jv seen = jv_object_get(jv_copy(before_ids), memory_identity(entry));
		if (!jv_is_valid(seen))
			created = jv_array_append(created, entry);
		else
			jv_free(entry);
		jv_free(seen);
	}
	jv_free(before_ids);
	jv_free(before);
	jv_free(after);
	return created;
}

static void count_memory(jv replay, jv captured_ids, struct memory_facts *m)
{
	jv after = json_at(replay, "memory_after.entries");
	jv created = memory_created_entries(replay);

	jv_array_foreach(created, i, entry) {
		m->grounded += memory_entry_grounded(entry, captured_ids);
		jv_free(entry);
	}
	m->created = jv_array_length(created);
	m->before = jv_array_length(json_at(replay, "memory_before.entries"));
	m->after = jv_array_length(jv_copy(after));
	m->groundedness = m->created ? (double)m->grounded / m->created : 0.0;
	m->expected = json_at(replay, "task.evaluation.expected_memory");
	m->expected_found = fragments_in_entries(m->expected, after);
	jv_free(after);
}

jv memory_find_probe(jv observed, jv id)
{
	jv found = jv_invalid();

	jv_array_foreach(observed, i, probe) {
		if (jv_equal(jv_object_get(jv_copy(probe), jv_string("id")), jv_copy(id))) {
			jv_free(found);
			found = probe;
		} else
			jv_free(probe);
	}
	return found;
}

/* A ready probe (borrowed) matched a forbidden fragment of its spec: as the
 * run recorded it, or, in replays that did not record it, by its content. */
static int probe_forbidden(jv spec, jv probe)
{
	jv forbidden = json_at(spec, "forbidden_context");
	jv recorded = json_at(probe, "forbidden_context_matched");
	jv content = json_at(probe, "prepared_context.content");
	int matched = 0;

	if (jv_get_kind(forbidden) != JV_KIND_ARRAY || jv_array_length(jv_copy(forbidden)) == 0)
		matched = 0;
	else if (jv_get_kind(recorded) != JV_KIND_NULL)
		matched = jv_get_kind(recorded) == JV_KIND_TRUE;
	else
		matched = probe_context_forbidden(spec, content);
	jv_free(content);
	jv_free(recorded);
	jv_free(forbidden);
	return matched;
}

static int probe_supported(jv spec, jv probe, int forbidden)
{
	jv content = json_at(probe, "prepared_context.content");
	jv expected = json_at(spec, "expected_context");
	size_t n;
	const char *c =
		jv_get_kind(content) == JV_KIND_STRING ? string_bytes(content, &n) : (n = 0, "");
	int ok = !forbidden && n > 0 && !text_is_blank(c, n) &&
		 all_fragments(TEXT_FOLD_NFC, content, jv_copy(expected));

	jv_free(content);
	jv_free(expected);
	return ok;
}

static int declares_forbidden(jv specs)
{
	int any = 0;

	jv_array_foreach(specs, i, spec) {
		any = any || jv_array_length(json_at(spec, "forbidden_context")) > 0;
		jv_free(spec);
	}
	return any;
}

/* Probes with expected context are positive; one that only forbids context
 * (an abstention probe) counts toward forbidden_context_absent alone. */
static void count_probes(jv replay, struct probe_facts *p)
{
	jv specs = json_at(replay, "task.evaluation.probes");
	jv observed = json_at(replay, "probes");

	p->forbidden_matched = jv_array();
	jv_array_foreach(specs, i, spec) {
		jv id = json_get(spec, "id");
		jv probe = memory_find_probe(observed, id);
		jv prepared = json_at(probe, "prepared_context");
		int positive = jv_array_length(json_at(spec, "expected_context")) > 0;
		int ready = json_str_is(prepared, "status", "ready");
		int forbidden = ready && probe_forbidden(spec, probe);

		if (forbidden)
			p->forbidden_matched = jv_array_append(p->forbidden_matched, jv_copy(id));
		p->positive += positive;
		p->supported += positive && ready && probe_supported(spec, probe, forbidden);
		jv_free(prepared);
		jv_free(probe);
		jv_free(id);
		jv_free(spec);
	}
	p->coverage = p->positive ? (double)p->supported / p->positive : 1.0;
	p->forbids = declares_forbidden(specs);
	jv_free(specs);
	jv_free(observed);
}

void memory_count(jv replay, struct capture_facts *c, struct memory_facts *m,
		  struct probe_facts *p)
{
	jv captured_ids;

	memory_count_captures(replay, c, &captured_ids);
	count_memory(replay, captured_ids, m);
	count_probes(replay, p);
	jv_free(captured_ids);
}
