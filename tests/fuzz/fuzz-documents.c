/* libFuzzer target: a byte stream read as pc-e2e's JSON document stream,
 * each text checked against every document shape a filter reads and
 * written back by json_out as jq writes it (a difference aborts).  Nothing
 * here may crash, leak or hang whatever the bytes are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docs.h"
#include "json.h"
#include "json_out.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* json_out's compact and canonical texts of doc (borrowed) are jq's. */
static void check_writer(jv doc)
{
	static const int flags[] = { 0, JV_PRINT_SORTED };
	static const enum json_layout layouts[] = { JSON_COMPACT, JSON_CANONICAL };

	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
		struct json_out o = { 0 };
		jv want = jv_dump_string(jv_copy(doc), flags[i]);
		json_out_value(&o, doc, layouts[i]);
		if (o.len != (size_t)jv_string_length_bytes(jv_copy(want)) ||
		    memcmp(o.text, jv_string_value(want), o.len) != 0)
			abort();
		json_out_free(&o);
		jv_free(want);
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const struct shape *const shapes[] = {
		&doc_manifest,
		&doc_selection,
		&doc_run,
		&doc_replay,
		&doc_evaluation,
	};
	FILE *in = fmemopen((void *)data, size, "rb");
	struct json_reader reader;
	struct pc_err e;
	long line;
	jv doc;

	if (!in)
		return 0;
	json_reader_init(&reader, in, "fuzz");
	while (json_reader_next(&reader, &doc, &line, &e) == 1) {
		check_writer(doc);
		for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
			struct shape_error se = { { 0 }, { 0 } };
			jv out;
			if (shape_normalize(shapes[i], doc, &out, &se) == 0)
				jv_free(out);
		}
		jv_free(doc);
	}
	json_reader_free(&reader);
	fclose(in);
	return 0;
}
