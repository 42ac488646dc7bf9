/* diagnosis: a case's diagnosis for people (diagnosis.h). */
#include <stdlib.h>
#include <string.h>

#include "diagnosis.h"
#include "docs.h"
#include "json.h"

jv diagnosis_of(const struct report_case *c, const char *name)
{
	const char *d = spool_get(spool_get(c->kase, "attributes"), CASE_DIAGNOSIS);

	d = spool_get(spool_get(d, "assertions"), name);
	return d && *d == JV_KIND_OBJECT ? spool_jv(d) : jv_null();
}

/* A value as a line shows it: a string quoted, null as "none", a list or
 * an object compact. */
static void add_value(struct sbuf *b, jv v)
{
	if (jv_get_kind(v) == JV_KIND_NULL) {
		sbuf_add(b, "none");
		return;
	}
	jv text = jv_dump_string(jv_copy(v), 0);
	sbuf_add(b, jv_string_value(text));
	jv_free(text);
}

/* Whether v is a list shown one item a line: a non-empty list of objects,
 * or in the evidence (any) any non-empty list. */
static int item_list(jv v, int any)
{
	if (jv_get_kind(v) != JV_KIND_ARRAY || jv_array_length(jv_copy(v)) == 0)
		return 0;
	jv first = jv_array_get(jv_copy(v), 0);
	int objects = jv_get_kind(first) == JV_KIND_OBJECT;

	jv_free(first);
	return any || objects;
}

/* The count a capped list left out ("<list>_more"). */
static int is_more(const char *key)
{
	size_t n = strlen(key);

	return n > 5 && !strcmp(key + n - 5, "_more");
}

/* "key value, key value" of an object's (borrowed) fields but its item
 * lists and counts left out. */
static void add_fields(struct sbuf *b, jv obj, int any)
{
	int first = 1;

	jv_object_foreach(obj, key, v) {
		if (!item_list(v, any) && !is_more(jv_string_value(key))) {
			sbuf_addf(b, "%s%s ", first ? "" : ", ", jv_string_value(key));
			add_value(b, v);
			first = 0;
		}
		jv_free(key);
		jv_free(v);
	}
}

/* A probe's context: its status, size and excerpt, which is of the items
 * it recalled when it holds no fragment expected. */
static void add_context(struct sbuf *b, jv item)
{
	const char *status = json_str(item, "status"), *of = json_str(item, "excerpt_of");
	jv excerpt = json_get(item, "excerpt");

	sbuf_addf(b, "prepared context (%s, %.0f bytes)%s: ", status ? status : "none",
		  json_number_at(item, "bytes", 0),
		  of && !strcmp(of, "items") ? ", its recalled items" : "");
	add_value(b, excerpt);
	jv_free(excerpt);
}

/* A probe's whole context, a line of it a line below indent; its control
 * characters escaped, as the context is untrusted text and this goes to a
 * terminal. */
static void add_whole_context(struct sbuf *b, jv item, const char *indent)
{
	const char *p = json_str(item, "context");

	if (!p)
		return;
	sbuf_addf(b, "%s  context\n", indent);
	while (*p) {
		if (*p != '\n')
			sbuf_addf(b, "%s    ", indent);
		for (; *p && *p != '\n'; p++)
			if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
				sbuf_addf(b, "\\x%02x", (unsigned char)*p);
			else
				sbuf_addn(b, p, 1);
		sbuf_add(b, "\n");
		p += *p == '\n';
	}
}

/* A probe's evidence: the fragments it misses (or the forbidden ones it
 * holds) and its context, EXPECTED → ACTUAL, and with whole its whole
 * context. */
static void add_probe(struct sbuf *b, jv item, const char *indent, int whole)
{
	jv missing = json_get(item, "missing"), matched = json_get(item, "matched");
	jv found = json_get(item, "found");
	int forbidden = jv_get_kind(matched) == JV_KIND_ARRAY;

	sbuf_addf(b, "%sprobe %s · ", indent, json_str(item, "id") ? json_str(item, "id") : "?");
	if (forbidden) {
		sbuf_add(b, "recalled forbidden context\n");
		sbuf_addf(b, "%s  EXPECTED none of ", indent);
		add_value(b, matched);
	} else {
		int m = jv_array_length(jv_copy(missing)), f = jv_array_length(jv_copy(found));
		sbuf_addf(b, "missing %d of %d fragments\n", m, m + f);
		sbuf_addf(b, "%s  EXPECTED ", indent);
		add_value(b, m ? missing : found);
	}
	sbuf_addf(b, "\n%s  ACTUAL   ", indent);
	add_context(b, item);
	sbuf_addf(b, "\n%s  query    ", indent);
	jv query = json_get(item, "query");
	add_value(b, query);
	sbuf_add(b, "\n");
	if (whole)
		add_whole_context(b, item, indent);
	jv_free(query);
	jv_free(missing);
	jv_free(matched);
	jv_free(found);
}

/* An expected Memory fragment: the entry holding it, or the nearest one. */
static void add_fragment(struct sbuf *b, jv item, const char *indent)
{
	jv fragment = json_get(item, "fragment"), entry = json_get(item, "entry");
	jv nearest = json_get(item, "nearest");

	sbuf_addf(b, "%sfragment ", indent);
	add_value(b, fragment);
	if (jv_get_kind(entry) == JV_KIND_STRING) {
		sbuf_add(b, " · in entry ");
		add_value(b, entry);
	} else {
		sbuf_add(b, " · in no Memory entry; nearest: ");
		add_value(b, nearest);
	}
	sbuf_add(b, "\n");
	jv_free(fragment);
	jv_free(entry);
	jv_free(nearest);
}

static void add_item(struct sbuf *b, const char *list, jv item, const char *indent, int whole)
{
	if (!strcmp(list, "probes"))
		add_probe(b, item, indent, whole);
	else if (!strcmp(list, "fragments"))
		add_fragment(b, item, indent);
	else {
		sbuf_addf(b, "%s%s: ", indent, list);
		if (jv_get_kind(item) == JV_KIND_OBJECT)
			add_fields(b, item, 0);
		else
			add_value(b, item);
		sbuf_add(b, "\n");
	}
}

/* Each item list of an object (borrowed), one item a line, and what a
 * capped one left out. */
static void add_lists(struct sbuf *b, jv obj, const char *indent, int any, int whole)
{
	jv_object_foreach(obj, key, v) {
		const char *k = jv_string_value(key);
		if (item_list(v, any))
			jv_array_foreach(v, i, item) {
				add_item(b, k, item, indent, whole);
				jv_free(item);
			}
		else if (is_more(k) && jv_get_kind(v) == JV_KIND_NUMBER)
			sbuf_addf(b, "%sand %.0f more %.*s\n", indent, jv_number_value(v),
				  (int)(strlen(k) - 5), k);
		jv_free(key);
		jv_free(v);
	}
}

/* An EXPECTED or ACTUAL value (borrowed) on one line. */
static void add_side(struct sbuf *b, jv side)
{
	if (jv_get_kind(side) == JV_KIND_OBJECT)
		add_fields(b, side, 0);
	else
		add_value(b, side);
}

void diagnosis_add_lines(struct sbuf *b, jv d, const char *indent, int whole)
{
	jv expected = json_get(d, "expected"), actual = json_get(d, "actual");
	jv evidence = json_get(d, "evidence");

	sbuf_addf(b, "%sEXPECTED ", indent);
	add_side(b, expected);
	sbuf_addf(b, "\n%sACTUAL   ", indent);
	add_side(b, actual);
	sbuf_add(b, "\n");
	if (jv_get_kind(actual) == JV_KIND_OBJECT)
		add_lists(b, actual, indent, 0, whole);
	if (jv_get_kind(evidence) == JV_KIND_OBJECT) {
		struct sbuf fields = { 0 };
		add_fields(&fields, evidence, 1);
		char *line = sbuf_take(&fields);
		if (*line)
			sbuf_addf(b, "%s%s\n", indent, line);
		free(line);
		add_lists(b, evidence, indent, 1, whole);
	}
	jv_free(expected);
	jv_free(actual);
	jv_free(evidence);
}

void diagnosis_add_summary(struct sbuf *b, jv d)
{
	jv expected = json_get(d, "expected"), actual = json_get(d, "actual");

	sbuf_add(b, "EXPECTED ");
	add_side(b, expected);
	sbuf_add(b, " → ACTUAL ");
	add_side(b, actual);
	jv_free(expected);
	jv_free(actual);
}

void diagnosis_add_actual(struct sbuf *b, jv d)
{
	jv actual = json_get(d, "actual");

	add_side(b, actual);
	jv_free(actual);
}

void diagnosis_add_identity(struct sbuf *b, const struct report_case *c, const char *indent)
{
	jv attributes = report_section(c, "attributes");
	jv identity = jv_getpath(jv_copy(attributes), JV_ARRAY(jv_string(CASE_DIAGNOSIS),
							       jv_string("identity")));
	jv digest = jv_getpath(attributes, JV_ARRAY(jv_string("comparability"),
						    jv_string("manifest_digest")));

	if (jv_get_kind(identity) == JV_KIND_OBJECT)
		jv_object_foreach(identity, key, v) {
			sbuf_addf(b, "%s%s: ", indent, jv_string_value(key));
			add_value(b, v);
			sbuf_add(b, "\n");
			jv_free(key);
			jv_free(v);
		}
	if (jv_get_kind(digest) == JV_KIND_STRING)
		sbuf_addf(b, "%smanifest_digest: %s\n", indent, jv_string_value(digest));
	if (c->dir)
		sbuf_addf(b, "%sevidence: %s/replay.json, %s/eval-report.json\n", indent, c->dir,
			  c->dir);
	jv_free(identity);
	jv_free(digest);
}
