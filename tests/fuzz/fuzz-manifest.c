/* libFuzzer target: bytes loaded as a YAML manifest and checked as one, the
 * way pc-select reads the catalog.  The loaders take paths, so the input
 * goes through a file of this process's own. */
#include <unistd.h>

#include "docs.h"
#include "fuzz-input.h"
#include "yamldoc.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char path[64];
	struct yaml_marks marks;
	struct pc_err e;
	jv doc;

	if (fuzz_input_file(data, size, ".yaml", path, sizeof path) != 0)
		return 0;
	if (yamldoc_load(path, &doc, &marks, &e) == 0) {
		struct shape_error se = { { 0 }, { 0 } };
		jv out;
		if (shape_normalize(&doc_manifest, doc, &out, &se) == 0)
			jv_free(out);
		jv_free(doc);
		yaml_marks_free(&marks);
	}
	unlink(path);
	return 0;
}
