/* diagnosis: EXPECTED and ACTUAL of each assertion, and the evidence of one
 * that does not hold (diagnosis.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "entry.h"
#include "err.h"
#include "memory.h"
#include "text.h"

/* ---- bounded text ---- */

/* Back from i to the start of a UTF-8 character. */
static size_t char_start(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
		i--;
	return i;
}

/* s[from, to) as a JSON string with "…" where it was cut, at most
 * DIAGNOSIS_TEXT_MAX bytes of s, cut on character boundaries. */
static void write_window(struct json_out *o, const char *s, size_t n, size_t from, size_t to)
{
	static const char ellipsis[] = "…";
	char text[DIAGNOSIS_TEXT_MAX + 2 * sizeof ellipsis];
	size_t len = 0;

	if (to > n)
		to = n;
	if (to - from > DIAGNOSIS_TEXT_MAX)
		to = from + DIAGNOSIS_TEXT_MAX;
	from = char_start(s, from);
	to = to < n ? char_start(s, to) : n;
	if (from > 0)
		memcpy(text, ellipsis, sizeof ellipsis - 1), len += sizeof ellipsis - 1;
	memcpy(text + len, s + from, to - from);
	len += to - from;
	if (to < n)
		memcpy(text + len, ellipsis, sizeof ellipsis - 1), len += sizeof ellipsis - 1;
	json_out_string(o, text, len);
}

/* The text (a string, read to its first NUL), redacted, then cut to its
 * start; null for anything else. */
static void write_clipped(struct json_out *o, const struct redactor *red, struct view text)
{
	const char *s = view_cstr(text);

	if (!s) {
		json_out_bytes(o, "null", 4);
		return;
	}
	char *plain = redact_string(red, s);
	write_window(o, plain, strlen(plain), 0, DIAGNOSIS_TEXT_MAX);
	free(plain);
}

static int same_folded(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* Where needle first is in hay, ASCII case folded; n when it is not. */
static size_t find_folded(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; k && i + k <= n; i++) {
		size_t j = 0;
		while (j < k && same_folded(hay[i + j], needle[j]))
			j++;
		if (j == k)
			return i;
	}
	return n;
}

/* The redacted text around the first of the n fragments found in it, else
 * its start: a third of the window before the match; null for no text. */
static void write_excerpt(struct json_out *o, const struct redactor *red, struct view text,
			  const struct view *fragments, size_t count)
{
	const char *s = view_cstr(text);

	if (!s) {
		json_out_bytes(o, "null", 4);
		return;
	}
	char *plain = redact_string(red, s);
	size_t n = strlen(plain), at = n;

	for (size_t i = 0; i < count && at == n; i++)
		if (view_cstr(fragments[i]))
			at = find_folded(plain, n, view_cstr(fragments[i]));
	size_t from = at == n || at < DIAGNOSIS_TEXT_MAX / 3 ? 0 : at - DIAGNOSIS_TEXT_MAX / 3;
	write_window(o, plain, n, from, from + DIAGNOSIS_TEXT_MAX);
	free(plain);
}

/* ---- lists of at most DIAGNOSIS_LIST_MAX items ---- */

/* key: the first DIAGNOSIS_LIST_MAX items, and when there were more,
 * "<key>_more": their count.  Each item is offered (capped_item says
 * whether to write it) and counted. */
struct capped {
	struct json_out *o;
	const char *key;
	int *members; /* of the object the list is in */
	int count;
};

static struct capped capped_open(struct json_out *o, const char *key, int *members)
{
	json_out_key(o, key, members);
	json_out_bytes(o, "[", 1);
	return (struct capped){ o, key, members, 0 };
}

/* Whether the next item is written: a comma is then written before it. */
static int capped_item(struct capped *c)
{
	if (c->count++ >= DIAGNOSIS_LIST_MAX)
		return 0;
	if (c->count > 1)
		json_out_bytes(c->o, ",", 1);
	return 1;
}

static void capped_close(struct capped *c)
{
	json_out_bytes(c->o, "]", 1);
	if (c->count <= DIAGNOSIS_LIST_MAX)
		return;
	char key[64];
	snprintf(key, sizeof key, "%s_more", c->key);
	json_out_key(c->o, key, c->members);
	json_out_number(c->o, c->count - DIAGNOSIS_LIST_MAX);
}

/* ---- the parts of a diagnosis ---- */

static void key_value(struct json_out *o, const char *key, struct view v, int *members)
{
	json_out_key(o, key, members);
	view_write(o, v, JSON_COMPACT);
}

static void key_number(struct json_out *o, const char *key, double x, int *members)
{
	json_out_key(o, key, members);
	json_out_number(o, x);
}

/* {"<key>": x} */
static void one_number(struct json_out *o, const char *key, double x)
{
	int members = 0;

	json_out_bytes(o, "{", 1);
	key_number(o, key, x, &members);
	json_out_bytes(o, "}", 1);
}

/* {"<key>": v} */
static void one_value(struct json_out *o, const char *key, struct view v)
{
	int members = 0;

	json_out_bytes(o, "{", 1);
	key_value(o, key, v, &members);
	json_out_bytes(o, "}", 1);
}

/* A diagnosis is {"expected": …, "actual": …[, "evidence": {…}]}: these
 * open it and write its parts in turn. */
static void expected(struct json_out *o)
{
	json_out_bytes(o, "{\"expected\":", 12);
}

static void actual(struct json_out *o)
{
	json_out_bytes(o, ",\"actual\":", 10);
}

/* Opens the evidence, 1, when the assertion does not hold; else closes
 * the diagnosis, 0. */
static int evidence(struct json_out *o, const struct diagnosis_input *in)
{
	if (in->held) {
		json_out_bytes(o, "}", 1);
		return 0;
	}
	json_out_bytes(o, ",\"evidence\":{", 13);
	return 1;
}

static void evidence_close(struct json_out *o)
{
	json_out_bytes(o, "}}", 2);
}

/* ---- outcome and skipped cases ---- */

/* What Harbor recorded of the run: its rewards and its exception. */
static void harbor_evidence(struct json_out *o, const struct diagnosis_input *in, int *members)
{
	struct view harbor = in->f->harbor;

	key_value(o, "rewards", view_get(harbor, "rewards"), members);
	key_value(o, "exception_type", view_get(harbor, "exception_type"), members);
	json_out_key(o, "exception_message", members);
	write_clipped(o, in->red, view_get(harbor, "exception_message"));
}

void diagnose_execution_outcome(struct json_out *o, const struct diagnosis_input *in)
{
	const struct outcome_facts *out = &in->f->outcome;
	int skip = view_str_is(out->expected_status, "skipped");
	int want = view_str_is(out->expected_status, "completed"), members = 0;

	expected(o);
	json_out_bytes(o, "{", 1);
	key_value(o, "status", out->expected_status, &members);
	json_out_key(o, "reward", &members);
	if (skip)
		json_out_bytes(o, "null", 4);
	else
		json_out_number(o, want);
	json_out_bytes(o, "}", 1);
	actual(o);
	members = 0;
	json_out_bytes(o, "{", 1);
	key_value(o, "status", in->f->status, &members);
	key_value(o, "reward", out->reward, &members);
	json_out_bytes(o, "}", 1);
	if (!evidence(o, in))
		return;
	members = 0;
	harbor_evidence(o, in, &members);
	key_value(o, "policy", view_get(in->f->evaluation, "expected_execution"),
		  &members);
	evidence_close(o);
}

void diagnose_execution_completed(struct json_out *o, const struct diagnosis_input *in)
{
	expected(o);
	json_out_bytes(o, "\"completed\"", 11);
	actual(o);
	view_write(o, in->f->status, JSON_COMPACT);
	if (!evidence(o, in))
		return;
	json_out_bytes(o, "\"why\":", 6);
	json_out_cstring(o, "an earlier task of its batch stopped the shared Harbor trial "
			    "(fail-fast)");
	evidence_close(o);
}

/* ---- Memory cases ---- */

void diagnose_collection_completed(struct json_out *o, const struct diagnosis_input *in)
{
	struct view_items errors = view_items(in->f->errors);
	struct view err;
	int members = 0;

	expected(o);
	json_out_bytes(o, "{\"status\":\"completed\"}", 22);
	actual(o);
	one_value(o, "status", in->f->status);
	if (!evidence(o, in))
		return;
	harbor_evidence(o, in, &members);
	struct capped list = capped_open(o, "errors", &members);
	while (view_next(&errors, &err))
		if (capped_item(&list))
			write_clipped(o, in->red, err);
	capped_close(&list);
	evidence_close(o);
}

void diagnose_task_provenance(struct json_out *o, const struct diagnosis_input *in)
{
	expected(o);
	one_value(o, "checksum", in->f->dataset_checksum);
	actual(o);
	one_value(o, "checksum", in->f->observed_checksum);
	if (!evidence(o, in))
		return;
	json_out_bytes(o, "\"task\":", 7);
	view_write(o, in->f->dataset, JSON_COMPACT);
	evidence_close(o);
}

void diagnose_native_acp(struct json_out *o, const struct diagnosis_input *in)
{
	const struct native_facts *n = &in->f->native;
	struct view_items artifacts = view_items(view_get(in->replay, "native_artifacts"));
	struct view a;
	int members = 0;

	expected(o);
	json_out_bytes(o, "{\"missing\":[]}", 14);
	actual(o);
	json_out_bytes(o, "{\"missing\":[", 12);
	for (int i = 0; i < n->n_missing; i++) {
		if (i)
			json_out_bytes(o, ",", 1);
		json_out_cstring(o, n->missing[i]);
	}
	json_out_bytes(o, "]}", 2);
	if (!evidence(o, in))
		return;
	struct capped list = capped_open(o, "recorded", &members);
	while (view_next(&artifacts, &a))
		if (capped_item(&list))
			view_write(o, view_get(a, "name"), JSON_COMPACT);
	capped_close(&list);
	evidence_close(o);
}

void diagnose_instructions(struct json_out *o, const struct diagnosis_input *in)
{
	const struct native_facts *n = &in->f->native;
	int members = 0;

	expected(o);
	one_number(o, "instructions", n->summaries);
	actual(o);
	json_out_bytes(o, "{", 1);
	key_number(o, "instructions", n->instructions, &members);
	key_number(o, "entries", n->instruction_entries, &members);
	json_out_bytes(o, "}}", 2);
}

void diagnose_capture_coverage(struct json_out *o, const struct diagnosis_input *in)
{
	const struct capture_facts *c = &in->f->captures;
	struct view_items records = view_items(view_get(in->replay, "capture_records"));
	struct view rec;
	int members = 0;

	expected(o);
	one_number(o, "coverage", in->f->thresholds.capture_coverage);
	actual(o);
	json_out_bytes(o, "{", 1);
	key_number(o, "coverage", c->coverage, &members);
	key_number(o, "captured", c->captured, &members);
	key_number(o, "eligible", c->eligible, &members);
	json_out_bytes(o, "}", 1);
	if (!evidence(o, in))
		return;
	members = 0;
	struct capped list = capped_open(o, "not_captured", &members);
	while (view_next(&records, &rec))
		if (memory_record_eligible(rec) &&
		    !view_str_is(view_get(rec, "status"), "captured") &&
		    capped_item(&list)) {
			int fields = 0;
			json_out_bytes(o, "{", 1);
			key_value(o, "event", view_get(rec, "event"), &fields);
			key_value(o, "sequence", view_get(rec, "sequence"), &fields);
			key_value(o, "status", view_get(rec, "status"), &fields);
			json_out_bytes(o, "}", 1);
		}
	capped_close(&list);
	evidence_close(o);
}

void diagnose_memory_created(struct json_out *o, const struct diagnosis_input *in)
{
	const struct facts *f = in->f;
	int members = 0;

	expected(o);
	json_out_bytes(o, "{", 1);
	key_number(o, "created_at_least", 1, &members);
	key_number(o, "checkpoints_at_least", f->thresholds.require_checkpoint ? 1 : 0, &members);
	json_out_bytes(o, "}", 1);
	actual(o);
	members = 0;
	json_out_bytes(o, "{", 1);
	key_number(o, "created", f->memory.created, &members);
	key_number(o, "checkpoints", f->captures.completed_checkpoints, &members);
	key_number(o, "entries_before", f->memory.before, &members);
	key_number(o, "entries_after", f->memory.after, &members);
	json_out_bytes(o, "}}", 2);
}

/* Whether captured holds the id, the whole string (a jv key lookup). */
static int captured_whole(const struct source_ids *captured, struct view id)
{
	size_t n;
	const char *s = view_str(id, &n);

	return s && strlen(s) == n && memory_captured(captured, s);
}

/* An entry's cited Sources, those of them no captured record has, and its
 * text. */
static void write_citations(struct json_out *o, const struct diagnosis_input *in,
			    struct view entry, const struct source_ids *captured)
{
	struct view sources = memory_entry_sources(entry), ref;
	struct view_items refs = view_items(sources);
	int first = 1;

	json_out_bytes(o, "{\"cites\":[", 10);
	while (view_next(&refs, &ref)) {
		if (!first)
			json_out_bytes(o, ",", 1);
		first = 0;
		view_write(o, view_get(ref, "source_id"), JSON_COMPACT);
	}
	json_out_bytes(o, "],\"not_captured\":[", 18);
	first = 1;
	for (refs = view_items(sources); view_next(&refs, &ref);) {
		struct view id = view_get(ref, "source_id");
		if (!view_cstr(id) || captured_whole(captured, id))
			continue;
		if (!first)
			json_out_bytes(o, ",", 1);
		first = 0;
		view_write(o, id, JSON_COMPACT);
	}
	json_out_bytes(o, "],\"text\":", 9);
	write_clipped(o, in->red, view_get(entry, "text"));
	json_out_bytes(o, "}", 1);
}

void diagnose_memory_grounded(struct json_out *o, const struct diagnosis_input *in)
{
	const struct memory_facts *m = &in->f->memory;
	int members = 0;

	expected(o);
	one_number(o, "groundedness", in->f->thresholds.groundedness);
	actual(o);
	json_out_bytes(o, "{", 1);
	key_number(o, "groundedness", m->groundedness, &members);
	key_number(o, "grounded", m->grounded, &members);
	key_number(o, "created", m->created, &members);
	json_out_bytes(o, "}", 1);
	if (!evidence(o, in))
		return;
	/* the entries the groundedness counted: created ones, by its rule */
	struct capture_facts counted = { 0 };
	struct source_ids captured;
	size_t n;
	struct view *created = memory_created_entries(in->replay, &n);
	memory_count_captures(in->replay, &counted, &captured);
	members = 0;
	struct capped list = capped_open(o, "ungrounded", &members);
	for (size_t i = 0; i < n; i++)
		if (!memory_entry_grounded(created[i], &captured) && capped_item(&list))
			write_citations(o, in, created[i], &captured);
	capped_close(&list);
	evidence_close(o);
	source_ids_free(&captured);
	free(created);
}

/* One probe as its evidence, when keep says so: its query, the context's
 * status and size, which of the spec's fragments under spec_key it holds
 * (under key) and which not, and an excerpt around the first found (or its
 * start).  Keep is told the counts of both and whether the context is
 * ready. */
struct probe_lists {
	const char *spec_key, *key;
	int (*keep)(size_t found, size_t missing, int ready);
};

static void offer_probe(struct json_out *o, const struct diagnosis_input *in, struct view spec,
			const struct probe_lists *how, struct capped *list)
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
	if (how->keep(found, n - found, view_str_is(status, "ready")) && capped_item(list)) {
		size_t bytes;
		int members = 0;
		json_out_bytes(o, "{", 1);
		key_value(o, "id", id, &members);
		json_out_key(o, "query", &members);
		write_clipped(o, in->red, view_get(probe, "query"));
		key_value(o, "status", status, &members);
		key_number(o, "bytes", view_str(content, &bytes) ? (double)bytes : 0, &members);
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
		json_out_key(o, "excerpt", &members);
		write_excerpt(o, in->red, content, fragments, n);
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
	struct capped list = capped_open(o, "probes", &members);

	while (view_next(&specs, &spec))
		offer_probe(o, in, spec, how, &list);
	capped_close(&list);
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
	int members = 0;

	expected(o);
	one_number(o, "coverage", in->f->thresholds.probe_coverage);
	actual(o);
	json_out_bytes(o, "{", 1);
	key_number(o, "coverage", p->coverage, &members);
	key_number(o, "supported", p->supported, &members);
	key_number(o, "positive", p->positive, &members);
	json_out_bytes(o, "}", 1);
	if (!evidence(o, in))
		return;
	probes_evidence(o, in, &how);
	evidence_close(o);
}

void diagnose_recalled_during_run(struct json_out *o, const struct diagnosis_input *in)
{
	struct view_items records = view_items(view_get(in->replay, "capture_records"));
	struct view rec;
	int members = 0;

	expected(o);
	one_number(o, "in_run_contexts", in->f->thresholds.in_run_contexts);
	actual(o);
	one_number(o, "in_run_contexts", in->f->captures.in_run_contexts);
	if (!evidence(o, in))
		return;
	struct capped list = capped_open(o, "contexts", &members);
	while (view_next(&records, &rec))
		if (view_str_is(view_get(rec, "event"), "context") && capped_item(&list)) {
			int fields = 0;
			json_out_bytes(o, "{", 1);
			key_value(o, "status", view_get(rec, "status"), &fields);
			key_value(o, "bytes", view_get(rec, "content_bytes"), &fields);
			json_out_bytes(o, "}", 1);
		}
	capped_close(&list);
	evidence_close(o);
}

void diagnose_scope_empty(struct json_out *o, const struct diagnosis_input *in)
{
	expected(o);
	one_number(o, "entries_before", 0);
	actual(o);
	one_number(o, "entries_before", in->f->memory.before);
	json_out_bytes(o, "}", 1);
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
		shared += k > 2 && find_folded(text, n, word) < n;
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
	key_value(o, "fragment", fragment, &members);
	json_out_key(o, "entry", &members);
	if (holder.v)
		write_excerpt(o, in->red, holder, &fragment, 1);
	else
		json_out_bytes(o, "null", 4);
	if (!holder.v) {
		json_out_key(o, "nearest", &members);
		write_clipped(o, in->red, nearest);
	}
	json_out_bytes(o, "}", 1);
}

void diagnose_expected_memory(struct json_out *o, const struct diagnosis_input *in)
{
	struct view expected_memory = in->f->memory.expected, frag;
	struct view entries = view_at(in->replay, "memory_after.entries");
	struct view_items fragments = view_items(expected_memory);
	int members = 0;

	expected(o);
	one_value(o, "fragments", expected_memory);
	actual(o);
	json_out_bytes(o, "{", 1);
	struct capped list = capped_open(o, "fragments", &members);
	while (view_next(&fragments, &frag))
		if (capped_item(&list))
			write_holder(o, in, frag, entries);
	capped_close(&list);
	json_out_bytes(o, "}}", 2);
}

void diagnose_forbidden_context(struct json_out *o, const struct diagnosis_input *in)
{
	static const struct probe_lists how = { "forbidden_context", "matched",
						matched_forbidden };
	const struct probe_facts *p = &in->f->probes;

	expected(o);
	json_out_bytes(o, "{\"matched\":[]}", 14);
	actual(o);
	json_out_bytes(o, "{\"matched\":[", 12);
	for (size_t i = 0; i < p->n_forbidden_matched; i++) {
		if (i)
			json_out_bytes(o, ",", 1);
		view_write(o, p->forbidden_matched[i], JSON_COMPACT);
	}
	json_out_bytes(o, "]}", 2);
	if (!evidence(o, in))
		return;
	probes_evidence(o, in, &how);
	evidence_close(o);
}

/* ---- identity ---- */

void diagnosis_identity(struct json_out *o, const struct facts *f)
{
	struct view replay = f->replay, env = f->environment, harbor = f->harbor;
	int members = 0;

	json_out_bytes(o, "{", 1);
	key_value(o, "run_id", view_get(replay, "run_id"), &members);
	key_value(o, "workload", view_get(f->task, "id"), &members);
	key_value(o, "task_checksum", view_get(harbor, "task_checksum"), &members);
	key_value(o, "adapter_version", view_get(env, "adapter_version"), &members);
	key_value(o, "adapter_protocol_version", view_get(env, "adapter_protocol_version"),
		  &members);
	key_value(o, "powercontext", view_get(env, "commit"), &members);
	key_value(o, "database", view_get(env, "database"), &members);
	key_value(o, "job_id", view_get(harbor, "job_id"), &members);
	key_value(o, "trial_uri", view_get(harbor, "trial_uri"), &members);
	json_out_bytes(o, "}", 1);
}
