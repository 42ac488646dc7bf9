/* fuzz-input: the fuzzer's bytes as a file of this process's own, for the
 * loaders that read a path (YAML manifests, task.toml). */
#ifndef PC_FUZZ_INPUT_H
#define PC_FUZZ_INPUT_H

#include <stdio.h>
#include <unistd.h>

/* Write data to /tmp/pc-e2e-fuzz-<pid><suffix> into path; 0, or -1 when the
 * file cannot be written (the input is then skipped). */
static inline int fuzz_input_file(const unsigned char *data, size_t size, const char *suffix,
				  char *path, size_t pathlen)
{
	FILE *f;

	snprintf(path, pathlen, "/tmp/pc-e2e-fuzz-%ld%s", (long)getpid(), suffix);
	if (!(f = fopen(path, "wb")))
		return -1;
	fwrite(data, 1, size, f);
	return fclose(f) == 0 ? 0 : -1;
}

#endif
