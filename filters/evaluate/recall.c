/* recall: the diagnoses of what a Memory run recalled (recall.h). */
#include "recall.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "entry.h"
#include "err.h"
#include "excerpt.h"
#include "frame.h"
#include "memory.h"

/* One probe as its evidence, when keep says so: its query, the context's
 * status and size, which of the spec's fragments under spec_key it holds
 * (under key) and which not, an excerpt around the first found (else of
 * the items it recalled) and the whole context.  Keep is told the counts of
 * both and whether the context is ready. */
struct probe_lists {
	const char *spec_key, *key;
	int (*keep)(size_t found, size_t missing, int ready);
};

static void offer_probe(struct json_out *o, const struct diagnosis_input *in, struct view spec,
			const struct probe_lists *how, struct frame_list *list)
{
	struct view spec_fragments = view_get(spec, how->spec_key);
	size_t n, found = 0;

	if (!view_items(spec_fragments).n)
		return;
	struct view *fragments = entry_items(spec_fragments, &n);
	struct view id = view_get(spec, "id");
	struct view probe = memory_find_probe(view_get(in->replay, "probes"), id);
	struct view content = view_at(probe, "prepared_context.content");
	struct view status = view_at(probe, "prepared_context.status");
	char *held = pc_xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		found += held[i] = (char)memory_holds(TEXT_FOLD_NFC, content, fragments[i]);
	if (how->keep(found, n - found, view_str_is(status, "ready")) && frame_list_item(list)) {
		size_t bytes;
		int members = 0;
		json_out_bytes(o, "{", 1);
		view_write_member(o, "id", id, &members);
		json_out_key(o, "query", &members);
		excerpt_clipped(o, in->red, view_get(probe, "query"));
		view_write_member(o, "status", status, &members);
		frame_number(o, "bytes", view_str(content, &bytes) ? (double)bytes : 0, &members);
		for (int want = 1; want >= 0; want--) {
			if (!want && strcmp(how->key, "found"))
				break;
			json_out_key(o, want ? how->key : "missing", &members);
			json_out_bytes(o, "[", 1);
			for (size_t i = 0, first = 1; i < n; i++)
				if (held[i] == want) {
					if (!first)
						json_out_bytes(o, ",", 1);
					first = 0;
					view_write(o, fragments[i], JSON_COMPACT);
				}
			json_out_bytes(o, "]", 1);
		}
		excerpt_context(o, in->red, content, fragments, n, &members);
		json_out_bytes(o, "}", 1);
	}
	free(held);
	free(fragments);
}

/* Each probe whose spec has fragments under how->spec_key, kept by
 * how->keep, as the evidence's "probes". */
static void probes_evidence(struct json_out *o, const struct diagnosis_input *in,
			    const struct probe_lists *how)
{
	struct view_items specs = view_items(view_get(in->f->evaluation, "probes"));
	struct view spec;
	int members = 0;
	struct frame_list list = frame_list_open(o, "probes", &members);

	while (view_next(&specs, &spec))
		offer_probe(o, in, spec, how, &list);
	frame_list_close(&list);
}

/* A probe is unsupported when a fragment is missing or its context is not
 * ready (a forbidden match also unsupports it: forbidden_context_absent
 * says which). */
static int unsupported(size_t found, size_t missing, int ready)
{
	(void)found;
	return missing > 0 || !ready;
}

static int matched_forbidden(size_t found, size_t missing, int ready)
{
	(void)missing, (void)ready;
	return found > 0;
}

void diagnose_probes_supported(struct json_out *o, const struct diagnosis_input *in)
{
	static const struct probe_lists how = { "expected_context", "found", unsupported };
	const struct probe_facts *p = &in->f->probes;

	frame_ratio(o, &(struct frame_ratio){ "coverage", in->f->thresholds.probe_coverage,
					      p->coverage, "supported", p->supported, "positive",
					      p->positive });
	if (!frame_evidence(o, in->held))
		return;
	probes_evidence(o, in, &how);
	frame_close(o);
}

void diagnose_recalled_during_run(struct json_out *o, const struct diagnosis_input *in)
{
	struct view_items records = view_items(view_get(in->replay, "capture_records"));
	struct view rec;
	int members = 0;

	frame_expected(o);
	frame_one_number(o, "in_run_contexts", in->f->thresholds.in_run_contexts);
	frame_actual(o);
	frame_one_number(o, "in_run_contexts", in->f->captures.in_run_contexts);
	if (!frame_evidence(o, in->held))
		return;
	struct frame_list list = frame_list_open(o, "contexts", &members);
	while (view_next(&records, &rec))
		if (view_str_is(view_get(rec, "event"), "context") && frame_list_item(&list)) {
			int fields = 0;
			json_out_bytes(o, "{", 1);
			view_write_member(o, "status", view_get(rec, "status"), &fields);
			view_write_member(o, "bytes", view_get(rec, "content_bytes"), &fields);
			json_out_bytes(o, "}", 1);
		}
	frame_list_close(&list);
	frame_close(o);
}

/* How many of the words of fragment (ASCII, folded) text holds: the
 * nearest entry to a fragment no entry holds is the one with the most. */
static int shared_words(const char *fragment, const char *text, size_t n)
{
	int shared = 0;
	char word[64];

	for (const char *p = fragment; *p;) {
		size_t k = 0;
		while (*p && !isalnum((unsigned char)*p))
			p++;
		while (*p && isalnum((unsigned char)*p) && k < sizeof word - 1)
			word[k++] = *p++;
		while (*p && isalnum((unsigned char)*p))
			p++;
		word[k] = '\0';
		shared += k > 2 && excerpt_find(text, n, word) < n;
	}
	return shared;
}

/* An expected fragment and the entry that holds it, else the nearest
 * entry's text. */
static void write_holder(struct json_out *o, const struct diagnosis_input *in,
			 struct view fragment, struct view entries)
{
	struct view_items items = view_items(entries);
	struct view entry, holder = { 0 }, nearest = { 0 };
	int best = 0, members = 0;
	size_t n;

	/* the nearest entry is written only when none holds the fragment */
	while (!holder.v && view_next(&items, &entry)) {
		struct view text = view_get(entry, "text");
		const char *t = view_str(text, &n);
		if (!t)
			continue;
		if (memory_holds(TEXT_FOLD, text, fragment)) {
			holder = text;
			continue;
		}
		int shared = shared_words(view_cstr(fragment), view_cstr(text), n);
		if (shared > best) {
			best = shared;
			nearest = text;
		}
	}
	json_out_bytes(o, "{", 1);
	view_write_member(o, "fragment", fragment, &members);
	json_out_key(o, "entry", &members);
	if (holder.v)
		excerpt_around(o, in->red, holder, &fragment, 1);
	else
		json_out_bytes(o, "null", 4);
	if (!holder.v) {
		json_out_key(o, "nearest", &members);
		excerpt_clipped(o, in->red, nearest);
	}
	json_out_bytes(o, "}", 1);
}

void diagnose_expected_memory(struct json_out *o, const struct diagnosis_input *in)
{
	struct view expected_memory = in->f->memory.expected, frag;
	struct view entries = view_at(in->replay, "memory_after.entries");
	struct view_items fragments = view_items(expected_memory);
	int members = 0;

	frame_expected(o);
	frame_one_value(o, "fragments", expected_memory);
	frame_actual(o);
	json_out_bytes(o, "{", 1);
	struct frame_list list = frame_list_open(o, "fragments", &members);
	while (view_next(&fragments, &frag))
		if (frame_list_item(&list))
			write_holder(o, in, frag, entries);
	frame_list_close(&list);
	json_out_bytes(o, "}}", 2);
}

void diagnose_forbidden_context(struct json_out *o, const struct diagnosis_input *in)
{
	static const struct probe_lists how = { "forbidden_context", "matched",
						matched_forbidden };
	const struct probe_facts *p = &in->f->probes;

	frame_expected(o);
	json_out_bytes(o, "{\"matched\":[]}", 14);
	frame_actual(o);
	json_out_bytes(o, "{\"matched\":[", 12);
	for (size_t i = 0; i < p->n_forbidden_matched; i++) {
		if (i)
			json_out_bytes(o, ",", 1);
		view_write(o, p->forbidden_matched[i], JSON_COMPACT);
	}
	json_out_bytes(o, "]}", 2);
	if (!frame_evidence(o, in->held))
		return;
	probes_evidence(o, in, &how);
	frame_close(o);
}
