/* diagnosis: EXPECTED and ACTUAL of each assertion, and the evidence of one
 * that does not hold (diagnosis.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "json.h"
#include "memory.h"
#include "probe.h"
#include "text.h"

/* ---- bounded text ---- */

/* Back from i to the start of a UTF-8 character. */
static size_t char_start(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
		i--;
	return i;
}

/* s[from, to) with "…" where it was cut, at most DIAGNOSIS_TEXT_MAX bytes
 * of s, cut on character boundaries. */
static jv window(const char *s, size_t n, size_t from, size_t to)
{
	if (to > n)
		to = n;
	if (to - from > DIAGNOSIS_TEXT_MAX)
		to = from + DIAGNOSIS_TEXT_MAX;
	from = char_start(s, from);
	to = to < n ? char_start(s, to) : n;
	jv out = jv_string_fmt("%s%.*s%s", from > 0 ? "…" : "", (int)(to - from), s + from,
			       to < n ? "…" : "");
	return out;
}

/* The text (borrowed, a JSON string), redacted, then cut to its start; null
 * for anything else. */
static jv clipped(const struct redactor *red, jv text)
{
	if (jv_get_kind(text) != JV_KIND_STRING)
		return jv_null();
	char *plain = redact_string(red, jv_string_value(text));
	jv out = window(plain, strlen(plain), 0, DIAGNOSIS_TEXT_MAX);
	free(plain);
	return out;
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

/* Whether the JSON string text (borrowed) holds fragment (borrowed). */
static int holds(enum text_fold how, jv text, jv fragment)
{
	jv one = JV_ARRAY(jv_copy(fragment));
	int found =
		jv_get_kind(text) == JV_KIND_STRING && text_fragments_found(how, text, one) == 1;

	jv_free(one);
	return found;
}

/* The redacted text (borrowed) around the first of fragments (borrowed)
 * found in it, else its start: a third of the window before the match. */
static jv excerpt_around(const struct redactor *red, jv text, jv fragments)
{
	if (jv_get_kind(text) != JV_KIND_STRING)
		return jv_null();
	char *plain = redact_string(red, jv_string_value(text));
	size_t n = strlen(plain), at = n;

	jv_array_foreach(fragments, i, frag) {
		if (at == n && jv_get_kind(frag) == JV_KIND_STRING)
			at = find_folded(plain, n, jv_string_value(frag));
		jv_free(frag);
	}
	size_t from = at == n || at < DIAGNOSIS_TEXT_MAX / 3 ? 0 : at - DIAGNOSIS_TEXT_MAX / 3;
	jv out = window(plain, n, from, from + DIAGNOSIS_TEXT_MAX);
	free(plain);
	return out;
}

/* obj with key set to the first DIAGNOSIS_LIST_MAX items of list
 * (consumed) and, when there were more, "<key>_more" to their count. */
static jv set_capped(jv obj, const char *key, jv list)
{
	int n = jv_array_length(jv_copy(list));

	if (n <= DIAGNOSIS_LIST_MAX)
		return jv_object_set(obj, jv_string(key), list);
	obj = jv_object_set(obj, jv_string(key), jv_array_slice(list, 0, DIAGNOSIS_LIST_MAX));
	return jv_object_set(obj, jv_string_fmt("%s_more", key), jv_number(n - DIAGNOSIS_LIST_MAX));
}

static jv diagnosis(jv expected, jv actual)
{
	return JV_OBJECT(jv_string("expected"), expected, jv_string("actual"), actual);
}

static jv with_evidence(const struct diagnosis_input *in, jv d, jv evidence)
{
	if (in->held) {
		jv_free(evidence);
		return d;
	}
	return jv_object_set(d, jv_string("evidence"), evidence);
}

static jv number(double x)
{
	return jv_number(x);
}

/* ---- outcome and skipped cases ---- */

/* What Harbor recorded of the run: its rewards and its exception. */
static jv harbor_evidence(const struct diagnosis_input *in)
{
	jv harbor = json_get(in->replay, "harbor");
	jv message = json_get(harbor, "exception_message");
	jv out = JV_OBJECT(jv_string("rewards"), json_get(harbor, "rewards"),
			   jv_string("exception_type"), json_get(harbor, "exception_type"),
			   jv_string("exception_message"), clipped(in->red, message));

	jv_free(message);
	jv_free(harbor);
	return out;
}

static jv errors_clipped(const struct diagnosis_input *in, jv errors)
{
	jv out = jv_array();

	jv_array_foreach(errors, i, err) {
		out = jv_array_append(out, clipped(in->red, err));
		jv_free(err);
	}
	return out;
}

jv diagnose_execution_outcome(const struct diagnosis_input *in)
{
	const struct outcome_facts *o = &in->f->outcome;
	int skip = !strcmp(jv_string_value(o->expected_status), "skipped");
	int want = !strcmp(jv_string_value(o->expected_status), "completed");
	jv expected = JV_OBJECT(jv_string("status"), jv_copy(o->expected_status),
				jv_string("reward"), skip ? jv_null() : number(want));
	jv actual = JV_OBJECT(jv_string("status"), jv_copy(in->f->status),
			      jv_string("reward"), jv_copy(o->reward));
	jv evidence = jv_object_set(harbor_evidence(in), jv_string("policy"),
				    json_at(in->replay, "task.evaluation.expected_execution"));

	return with_evidence(in, diagnosis(expected, actual), evidence);
}

jv diagnose_execution_completed(const struct diagnosis_input *in)
{
	jv evidence = JV_OBJECT(jv_string("why"),
				jv_string("an earlier task of its batch stopped the shared "
					  "Harbor trial (fail-fast)"));

	return with_evidence(in, diagnosis(jv_string("completed"), jv_copy(in->f->status)),
			     evidence);
}

/* ---- Memory cases ---- */

jv diagnose_collection_completed(const struct diagnosis_input *in)
{
	jv expected = JV_OBJECT(jv_string("status"), jv_string("completed"));
	jv actual = JV_OBJECT(jv_string("status"), jv_copy(in->f->status));
	jv evidence = set_capped(harbor_evidence(in), "errors", errors_clipped(in, in->f->errors));

	return with_evidence(in, diagnosis(expected, actual), evidence);
}

jv diagnose_task_provenance(const struct diagnosis_input *in)
{
	jv evidence = JV_OBJECT(jv_string("task"), json_at(in->replay, "task.dataset"));

	return with_evidence(in,
			     diagnosis(JV_OBJECT(jv_string("checksum"),
						 jv_copy(in->f->dataset_checksum)),
				       JV_OBJECT(jv_string("checksum"),
						 jv_copy(in->f->observed_checksum))),
			     evidence);
}

jv diagnose_native_acp(const struct diagnosis_input *in)
{
	jv recorded = jv_array();
	jv artifacts = json_at(in->replay, "native_artifacts");

	jv_array_foreach(artifacts, i, a) {
		recorded = jv_array_append(recorded, json_get(a, "name"));
		jv_free(a);
	}
	jv_free(artifacts);
	return with_evidence(in,
			     diagnosis(JV_OBJECT(jv_string("missing"), jv_array()),
				       JV_OBJECT(jv_string("missing"),
						 jv_copy(in->f->native.missing))),
			     set_capped(jv_object(), "recorded", recorded));
}

jv diagnose_instructions(const struct diagnosis_input *in)
{
	const struct native_facts *n = &in->f->native;

	return diagnosis(JV_OBJECT(jv_string("instructions"), number(n->summaries)),
			 JV_OBJECT(jv_string("instructions"), number(n->instructions),
				   jv_string("entries"), number(n->instruction_entries)));
}

jv diagnose_capture_coverage(const struct diagnosis_input *in)
{
	const struct capture_facts *c = &in->f->captures;
	jv records = json_at(in->replay, "capture_records"), missed = jv_array();

	jv_array_foreach(records, i, rec) {
		if (memory_record_eligible(rec) && !json_str_is(rec, "status", "captured"))
			missed = jv_array_append(
				missed, JV_OBJECT(jv_string("event"), json_get(rec, "event"),
						  jv_string("sequence"), json_get(rec, "sequence"),
						  jv_string("status"), json_get(rec, "status")));
		jv_free(rec);
	}
	jv_free(records);
	jv actual = JV_OBJECT(jv_string("coverage"), number(c->coverage),
			      jv_string("captured"), number(c->captured),
			      jv_string("eligible"), number(c->eligible));
	return with_evidence(in,
			     diagnosis(JV_OBJECT(jv_string("coverage"),
						 number(in->f->thresholds.capture_coverage)),
				       actual),
			     set_capped(jv_object(), "not_captured", missed));
}

jv diagnose_memory_created(const struct diagnosis_input *in)
{
	const struct facts *f = in->f;
	jv expected = JV_OBJECT(jv_string("created_at_least"), number(1),
				jv_string("checkpoints_at_least"),
				number(f->thresholds.require_checkpoint ? 1 : 0));
	jv actual = JV_OBJECT(jv_string("created"), number(f->memory.created),
			      jv_string("checkpoints"), number(f->captures.completed_checkpoints),
			      jv_string("entries_before"), number(f->memory.before),
			      jv_string("entries_after"), number(f->memory.after));

	return diagnosis(expected, actual);
}

/* An entry's cited Sources, and those of them no captured record has. */
static jv entry_citations(jv entry, jv captured)
{
	jv refs = memory_entry_sources(entry), cited = jv_array(), uncaptured = jv_array();

	jv_array_foreach(refs, i, ref) {
		jv id = json_get(ref, "source_id");
		if (jv_get_kind(id) == JV_KIND_STRING &&
		    !jv_object_has(jv_copy(captured), jv_copy(id)))
			uncaptured = jv_array_append(uncaptured, jv_copy(id));
		cited = jv_array_append(cited, id);
		jv_free(ref);
	}
	jv_free(refs);
	return JV_OBJECT(jv_string("cites"), cited, jv_string("not_captured"), uncaptured);
}

jv diagnose_memory_grounded(const struct diagnosis_input *in)
{
	const struct memory_facts *m = &in->f->memory;
	struct capture_facts counted = { 0 };
	jv created = memory_created_entries(in->replay), captured, ungrounded = jv_array();

	/* the entries the groundedness counted: created ones, by its rule */
	memory_count_captures(in->replay, &counted, &captured);
	jv_array_foreach(created, i, entry) {
		if (!memory_entry_grounded(entry, captured)) {
			jv text = json_get(entry, "text");
			jv c = jv_object_set(entry_citations(entry, captured), jv_string("text"),
					     clipped(in->red, text));
			ungrounded = jv_array_append(ungrounded, c);
			jv_free(text);
		}
		jv_free(entry);
	}
	jv_free(created);
	jv_free(captured);
	jv actual = JV_OBJECT(jv_string("groundedness"), number(m->groundedness),
			      jv_string("grounded"), number(m->grounded),
			      jv_string("created"), number(m->created));
	return with_evidence(in,
			     diagnosis(JV_OBJECT(jv_string("groundedness"),
						 number(in->f->thresholds.groundedness)),
				       actual),
			     set_capped(jv_object(), "ungrounded", ungrounded));
}

/* One probe as its evidence: its query, the context's status and size,
 * which of the fragments (borrowed) it holds and which not, and an
 * excerpt around the first found (or its start). */
static jv probe_evidence(const struct diagnosis_input *in, jv spec, jv fragments, const char *key)
{
	jv id = json_get(spec, "id"), observed = json_at(in->replay, "probes");
	jv probe = memory_find_probe(observed, id);
	jv content = json_at(probe, "prepared_context.content");
	jv found = jv_array(), missing = jv_array();

	jv_array_foreach(fragments, i, frag) {
		if (holds(TEXT_FOLD_NFC, content, frag))
			found = jv_array_append(found, frag);
		else
			missing = jv_array_append(missing, frag);
	}
	jv query = json_get(probe, "query");
	jv out = JV_OBJECT(jv_string("id"), id,
			   jv_string("query"), clipped(in->red, query),
			   jv_string("status"), json_at(probe, "prepared_context.status"),
			   jv_string("bytes"),
			   jv_get_kind(content) == JV_KIND_STRING
				   ? number(jv_string_length_bytes(jv_copy(content)))
				   : number(0),
			   jv_string(key), found);
	if (!strcmp(key, "found"))
		out = jv_object_set(out, jv_string("missing"), missing);
	else
		jv_free(missing);
	out = jv_object_set(out, jv_string("excerpt"), excerpt_around(in->red, content, fragments));
	jv_free(query);
	jv_free(content);
	jv_free(probe);
	jv_free(observed);
	return out;
}

/* Each probe whose spec (borrowed) has fragments under key and that keep
 * is true of, as evidence. */
static jv probes_evidence(const struct diagnosis_input *in, const char *spec_key,
			  const char *evidence_key, int (*keep)(jv evidence))
{
	jv specs = json_at(in->replay, "task.evaluation.probes"), out = jv_array();

	jv_array_foreach(specs, i, spec) {
		jv fragments = json_get(spec, spec_key);
		if (jv_get_kind(fragments) == JV_KIND_ARRAY &&
		    jv_array_length(jv_copy(fragments)) > 0) {
			jv e = probe_evidence(in, spec, fragments, evidence_key);
			if (keep(e))
				out = jv_array_append(out, e);
			else
				jv_free(e);
		}
		jv_free(fragments);
		jv_free(spec);
	}
	jv_free(specs);
	return out;
}

/* A probe is unsupported when a fragment is missing or its context is not
 * ready (a forbidden match also unsupports it: forbidden_context_absent
 * says which). */
static int unsupported(jv e)
{
	return jv_array_length(json_get(e, "missing")) > 0 || !json_str_is(e, "status", "ready");
}

static int matched_forbidden(jv e)
{
	return jv_array_length(json_get(e, "matched")) > 0;
}

jv diagnose_probes_supported(const struct diagnosis_input *in)
{
	const struct probe_facts *p = &in->f->probes;
	jv actual = JV_OBJECT(jv_string("coverage"), number(p->coverage),
			      jv_string("supported"), number(p->supported),
			      jv_string("positive"), number(p->positive));
	jv d = diagnosis(JV_OBJECT(jv_string("coverage"), number(in->f->thresholds.probe_coverage)),
			 actual);

	if (in->held)
		return d;
	return with_evidence(in, d,
			     set_capped(jv_object(), "probes",
					probes_evidence(in, "expected_context", "found",
							unsupported)));
}

jv diagnose_recalled_during_run(const struct diagnosis_input *in)
{
	jv records = json_at(in->replay, "capture_records"), contexts = jv_array();

	jv_array_foreach(records, i, rec) {
		if (json_str_is(rec, "event", "context")) {
			jv context = JV_OBJECT(jv_string("status"), json_get(rec, "status"),
					       jv_string("bytes"), json_get(rec, "content_bytes"));
			contexts = jv_array_append(contexts, context);
		}
		jv_free(rec);
	}
	jv_free(records);
	return with_evidence(in,
			     diagnosis(JV_OBJECT(jv_string("in_run_contexts"),
						 number(in->f->thresholds.in_run_contexts)),
				       JV_OBJECT(jv_string("in_run_contexts"),
						 number(in->f->captures.in_run_contexts))),
			     set_capped(jv_object(), "contexts", contexts));
}

jv diagnose_scope_empty(const struct diagnosis_input *in)
{
	return diagnosis(JV_OBJECT(jv_string("entries_before"), number(0)),
			 JV_OBJECT(jv_string("entries_before"), number(in->f->memory.before)));
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

/* Each expected fragment (borrowed) and the entry that holds it, else the
 * nearest entry's text. */
static jv fragment_holder(const struct diagnosis_input *in, jv fragment, jv entries)
{
	jv holder = jv_null(), nearest = jv_null();
	int best = 0;

	jv_array_foreach(entries, i, entry) {
		jv text = json_get(entry, "text");
		if (jv_get_kind(text) == JV_KIND_STRING) {
			int held = jv_get_kind(holder) == JV_KIND_NULL &&
				   holds(TEXT_FOLD, text, fragment);
			int shared = shared_words(jv_string_value(fragment), jv_string_value(text),
						  (size_t)jv_string_length_bytes(jv_copy(text)));
			if (held) {
				jv one = JV_ARRAY(jv_copy(fragment));
				holder = excerpt_around(in->red, text, one);
				jv_free(one);
			} else if (shared > best) {
				best = shared;
				jv_free(nearest);
				nearest = clipped(in->red, text);
			}
		}
		jv_free(text);
		jv_free(entry);
	}
	jv out = JV_OBJECT(jv_string("fragment"), jv_copy(fragment), jv_string("entry"), holder);
	if (jv_get_kind(holder) == JV_KIND_NULL)
		out = jv_object_set(out, jv_string("nearest"), nearest);
	else
		jv_free(nearest);
	return out;
}

jv diagnose_expected_memory(const struct diagnosis_input *in)
{
	jv expected = in->f->memory.expected;
	jv entries = json_at(in->replay, "memory_after.entries"), held = jv_array();

	jv_array_foreach(expected, i, frag) {
		held = jv_array_append(held, fragment_holder(in, frag, entries));
		jv_free(frag);
	}
	jv_free(entries);
	jv d = diagnosis(JV_OBJECT(jv_string("fragments"), jv_copy(expected)),
			 set_capped(jv_object(), "fragments", held));
	return d;
}

jv diagnose_forbidden_context(const struct diagnosis_input *in)
{
	jv d = diagnosis(JV_OBJECT(jv_string("matched"), jv_array()),
			 JV_OBJECT(jv_string("matched"), jv_copy(in->f->probes.forbidden_matched)));

	if (in->held)
		return d;
	return with_evidence(in, d,
			     set_capped(jv_object(), "probes",
					probes_evidence(in, "forbidden_context", "matched",
							matched_forbidden)));
}

/* ---- identity ---- */

jv diagnosis_identity(jv replay)
{
	jv env = json_get(replay, "environment"), harbor = json_get(replay, "harbor");
	jv out = JV_OBJECT(jv_string("run_id"), json_get(replay, "run_id"),
			   jv_string("workload"), json_at(replay, "task.id"),
			   jv_string("task_checksum"), json_get(harbor, "task_checksum"),
			   jv_string("adapter_version"), json_get(env, "adapter_version"),
			   jv_string("adapter_protocol_version"),
			   json_get(env, "adapter_protocol_version"),
			   jv_string("powercontext"), json_get(env, "commit"),
			   jv_string("database"), json_get(env, "database"),
			   jv_string("job_id"), json_get(harbor, "job_id"));

	out = jv_object_set(out, jv_string("trial_uri"), json_get(harbor, "trial_uri"));
	jv_free(env);
	jv_free(harbor);
	return out;
}
