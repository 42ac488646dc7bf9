#include "memory.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "probe.h"
#include "text.h"

int memory_record_eligible(struct view rec)
{
	struct view event = view_get(rec, "event");

	return view_str_is(event, "user_prompt") || view_str_is(event, "llm_result") ||
	       view_str_is(event, "tool_result");
}

void source_ids_free(struct source_ids *s)
{
	free(s->ids);
	*s = (struct source_ids){ 0 };
}

int memory_captured(const struct source_ids *captured, const char *id)
{
	for (size_t i = 0; id && i < captured->n; i++)
		if (!strcmp(captured->ids[i], id))
			return 1;
	return 0;
}

static int number(struct view rec, const char *key, double *x)
{
	return view_num(view_get(rec, key), x);
}

void memory_count_captures(struct view replay, struct capture_facts *c,
			   struct source_ids *captured)
{
	struct view_items records = view_items(view_get(replay, "capture_records"));
	struct view rec;

	captured->ids = pc_xmalloc((records.n + 1) * sizeof *captured->ids);
	captured->n = 0;
	while (view_next(&records, &rec)) {
		double cur, target, bytes;
		struct view event = view_get(rec, "event"), status = view_get(rec, "status");
		if (memory_record_eligible(rec)) {
			c->eligible++;
			if (view_str_is(status, "captured")) {
				c->captured++;
				const char *sid = view_cstr(view_get(rec, "source_id"));
				if (sid && !memory_captured(captured, sid))
					captured->ids[captured->n++] = sid;
			}
		}
		if (view_str_is(event, "context") && view_str_is(status, "ready") &&
		    number(rec, "content_bytes", &bytes) && bytes > 0)
			c->in_run_contexts++;
		if (view_str_is(event, "checkpoint") && !view_str_is(status, "failed") &&
		    number(rec, "current_cursor", &cur) &&
		    number(rec, "target_position", &target) &&
		    cur >= target)
			c->completed_checkpoints++;
	}
	c->coverage = c->eligible ? (double)c->captured / c->eligible : 0.0;
}

/* (family, artifact id) of an atomic entry, ("memory", entry id) of a
 * legacy one: revisions and states of one entry are the same Memory. */
struct identity {
	const char *family, *id;
};

static struct identity identity_of(struct view entry)
{
	struct view artifact = view_get(entry, "artifact");

	if (view_is_object(artifact))
		return (struct identity){ view_cstr(view_get(artifact, "family")),
					  view_cstr(view_get(artifact, "artifact_id")) };
	return (struct identity){ "memory", view_cstr(view_get(entry, "entry_id")) };
}

static int same_identity(struct identity a, struct identity b)
{
	return !strcmp(a.family, b.family) && !strcmp(a.id, b.id);
}

struct view memory_entry_sources(struct view entry)
{
	int atomic = view_is_object(view_get(entry, "artifact"));

	return view_get(entry, atomic ? "sources" : "source_refs");
}

int memory_entry_grounded(struct view entry, const struct source_ids *captured)
{
	struct view_items refs = view_items(memory_entry_sources(entry));
	struct view ref;
	int ok = refs.n > 0;

	while (ok && view_next(&refs, &ref))
		ok = memory_captured(captured, view_cstr(view_get(ref, "source_id")));
	return ok;
}

struct view *memory_created_entries(struct view replay, size_t *n)
{
	struct view_items before = view_items(view_at(replay, "memory_before.entries"));
	struct view_items after = view_items(view_at(replay, "memory_after.entries"));
	struct identity *before_ids = pc_xmalloc((before.n + 1) * sizeof *before_ids);
	struct view *created = pc_xmalloc((after.n + 1) * sizeof *created), entry;
	size_t n_before = 0;

	while (view_next(&before, &entry))
		before_ids[n_before++] = identity_of(entry);
	*n = 0;
	while (view_next(&after, &entry)) {
		struct identity id = identity_of(entry);
		size_t i = 0;
		while (i < n_before && !same_identity(before_ids[i], id))
			i++;
		if (i == n_before)
			created[(*n)++] = entry;
	}
	free(before_ids);
	return created;
}

int memory_holds(enum text_fold how, struct view text, struct view fragment)
{
	size_t hlen, flen;
	const char *hay = view_str(text, &hlen), *frag = view_str(fragment, &flen);

	return hay && frag && text_contains_folded(how, hay, hlen, frag, flen);
}

int memory_holds_all(enum text_fold how, struct view text, struct view fragments)
{
	struct view_items items = view_items(fragments);
	struct view frag;
	int all = 1;

	while (all && view_next(&items, &frag))
		all = memory_holds(how, text, frag);
	return all;
}

/* Whether each expected fragment is in the text of some entry. */
static int fragments_in_entries(struct view fragments, struct view entries)
{
	struct view_items frags = view_items(fragments);
	struct view frag, entry;
	int ok = 1;

	while (ok && view_next(&frags, &frag)) {
		struct view_items items = view_items(entries);
		int found = 0;
		while (!found && view_next(&items, &entry))
			found = memory_holds(TEXT_FOLD, view_get(entry, "text"), frag);
		ok = found;
	}
	return ok;
}

static void count_memory(const struct facts *f, const struct source_ids *captured,
			 struct memory_facts *m)
{
	struct view replay = f->replay;
	struct view after = view_at(replay, "memory_after.entries");
	size_t n;
	struct view *created = memory_created_entries(replay, &n);

	for (size_t i = 0; i < n; i++)
		m->grounded += memory_entry_grounded(created[i], captured);
	free(created);
	m->created = (int)n;
	m->before = (int)view_items(view_at(replay, "memory_before.entries")).n;
	m->after = (int)view_items(after).n;
	m->groundedness = m->created ? (double)m->grounded / m->created : 0.0;
	m->expected = view_get(f->evaluation, "expected_memory");
	m->expected_found = fragments_in_entries(m->expected, after);
}

struct view memory_find_probe(struct view observed, struct view id)
{
	struct view_items probes = view_items(observed);
	struct view probe, found = { NULL, NULL, observed.index };
	size_t want_len, got_len;
	const char *want = view_str(id, &want_len);

	while (view_next(&probes, &probe)) {
		const char *got = view_str(view_get(probe, "id"), &got_len);
		if (want && got && got_len == want_len && !memcmp(got, want, got_len))
			found = probe;
	}
	return found;
}

/* probe.h's rule: the content holds one of the forbidden fragments. */
static int probe_content_forbidden(struct view content, struct view forbidden)
{
	struct view_items items = view_items(forbidden);
	struct view frag;
	size_t n, fn;
	const char *text = view_str(content, &n), *f;
	int matched = 0;

	while (text && !matched && view_next(&items, &frag))
		matched = (f = view_str(frag, &fn)) && probe_fragment_in(text, n, f, fn);
	return matched;
}

/* A ready probe matched a forbidden fragment of its spec: as the run
 * recorded it, or, in replays that did not record it, by its content. */
static int probe_forbidden(struct view spec, struct view probe)
{
	struct view forbidden = view_get(spec, "forbidden_context");
	struct view recorded = view_get(probe, "forbidden_context_matched");

	if (view_items(forbidden).n == 0)
		return 0;
	if (!view_is_null(recorded))
		return view_is_true(recorded);
	return probe_content_forbidden(view_at(probe, "prepared_context.content"), forbidden);
}

static int probe_supported(struct view spec, struct view probe, int forbidden)
{
	struct view content = view_at(probe, "prepared_context.content");
	size_t n;
	const char *c = view_str(content, &n);

	return !forbidden && n > 0 && !text_is_blank(c, n) &&
	       memory_holds_all(TEXT_FOLD_NFC, content, view_get(spec, "expected_context"));
}

/* Probes with expected context are positive; one that only forbids context
 * (an abstention probe) counts toward forbidden_context_absent alone. */
static void count_probes(const struct facts *f, struct probe_facts *p)
{
	struct view_items specs = view_items(view_get(f->evaluation, "probes"));
	struct view observed = view_get(f->replay, "probes"), spec;

	p->forbidden_matched = pc_xmalloc((specs.n + 1) * sizeof *p->forbidden_matched);
	p->n_forbidden_matched = 0;
	while (view_next(&specs, &spec)) {
		struct view id = view_get(spec, "id");
		struct view probe = memory_find_probe(observed, id);
		int positive = view_items(view_get(spec, "expected_context")).n > 0;
		int ready = view_str_is(view_at(probe, "prepared_context.status"), "ready");
		int forbidden = ready && probe_forbidden(spec, probe);

		if (forbidden)
			p->forbidden_matched[p->n_forbidden_matched++] = id;
		p->forbids = p->forbids || view_items(view_get(spec, "forbidden_context")).n > 0;
		p->positive += positive;
		p->supported += positive && ready && probe_supported(spec, probe, forbidden);
	}
	p->coverage = p->positive ? (double)p->supported / p->positive : 1.0;
}

void memory_count(const struct facts *f, struct capture_facts *c, struct memory_facts *m,
		  struct probe_facts *p)
{
	struct source_ids captured;

	memory_count_captures(f->replay, c, &captured);
	count_memory(f, &captured, m);
	count_probes(f, p);
	source_ids_free(&captured);
}
