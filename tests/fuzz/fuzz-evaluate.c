/* libFuzzer target: a byte stream read as pc-evaluate reads replays
 * (yyjson and accept.c, or libjq and shape_normalize for a text they
 * cannot vouch for), each replay's facts read and its evaluation written.
 * Nothing here may crash, leak or hang whatever the bytes are, and every
 * evaluation written must be one JSON text (libjq reads it back). */
#include <stdio.h>
#include <stdlib.h>

#include "case.h"
#include "facts.h"
#include "json_out.h"
#include "redact.h"
#include "replays.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	FILE *in = fmemopen((void *)data, size, "rb");
	struct redactor red = { 0 };
	struct json_out line = { 0 };
	struct sha256_hasher hasher;
	struct replays replays;
	struct view replay;

	if (!in)
		return 0;
	sha256_hasher_init(&hasher);
	replays_open(&replays, in, "fuzz", "fuzz-evaluate", &red);
	while (replays_next(&replays, &replay)) {
		struct facts f;
		struct pc_err e;
		int code;
		struct view_text text = replays_text(&replays);
		if (facts_read(replay, &text, "collect-all",
			       &f, &e) < 0)
			continue;
		const struct case_input kase = { &f, "collect-all", "fuzz",
						 &red, jv_null(), &hasher };
		line.len = 0;
		case_write(&line, &kase, &code);
		facts_free(&f);
		jv back = jv_parse_sized(line.text, (int)line.len);
		if (!jv_is_valid(back))
			abort();
		jv_free(back);
	}
	replays_close(&replays);
	sha256_hasher_free(&hasher);
	json_out_free(&line);
	fclose(in);
	return 0;
}
