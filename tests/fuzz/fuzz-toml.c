/* libFuzzer target: bytes read as a Harbor task.toml by the local runner's
 * TOML subset, which must refuse what it cannot read, never crash. */
#include <unistd.h>

#include "base/toml.h"
#include "fuzz-input.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char path[64];
	struct pc_err e;
	jv doc;

	if (fuzz_input_file(data, size, ".toml", path, sizeof path) != 0)
		return 0;
	if (toml_load(path, &doc, &e) == 0)
		jv_free(doc);
	unlink(path);
	return 0;
}
