/* libFuzzer target: a byte stream read as pc-e2e's JSON document stream,
 * each text checked against every document shape a filter reads.  Nothing
 * here may crash, leak or hang whatever the bytes are. */
#include <stdio.h>

#include "docs.h"
#include "json.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

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
