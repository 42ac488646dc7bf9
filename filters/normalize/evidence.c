/* evidence: the files under a trial directory (evidence.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docs.h"
#include "evidence.h"
#include "harbor_layout.h"
#include "hash.h"
#include "io.h"
#include "json.h"
#include "text.h"

static void add_error(jv *errors, char *msg)
{
	*errors = jv_array_append(*errors, jv_string(msg));
	free(msg);
}

/* The files named names under the trial directory, relative to it, sorted:
 * every one, or when steps (borrowed) is an array, those under each of
 * these steps' directories, step by step (a merged batch's member owns its
 * own steps only). */
static jv evidence_files(const char *trial, jv steps, const char *const *names)
{
	if (jv_get_kind(steps) != JV_KIND_ARRAY)
		return io_find_files(trial, names);
	jv out = jv_array();
	jv_array_foreach(steps, i, step) {
		char *rel = text_fmt("steps/%s", jv_string_value(step));
		char *root = io_join(trial, rel);
		jv files = io_find_files(root, names);
		jv_array_foreach(files, j, f) {
			out = jv_array_append(out, jv_string_fmt("%s/%s", rel, jv_string_value(f)));
			jv_free(f);
		}
		jv_free(files);
		free(root);
		free(rel);
		jv_free(step);
	}
	return out;
}

jv evidence_capture_records(const char *trial, jv steps, jv *errors)
{
	static const char *const names[] = { "powercontext-capture.jsonl", NULL };
	jv files = evidence_files(trial, steps, names), out = jv_array();

	jv_array_foreach(files, i, rel) {
		char *full = io_join(trial, jv_string_value(rel));
		FILE *f = fopen(full, "rb");
		struct json_reader in;
		struct pc_err e;
		struct shape_error se = { { 0 }, { 0 } };
		long line;
		jv rec, norm;
		int got;

		json_reader_init(&in, f, full);
		while (f && (got = json_reader_next(&in, &rec, &line, &e)) != 0) {
			if (got < 0) {
				add_error(errors, text_fmt("capture log %s", e.msg));
				break;
			}
			if (shape_normalize(doc_capture, rec, &norm, &se) != 0)
				add_error(errors,
					  text_fmt("capture log %s:%ld: %s: %s", full, line,
						   se.path[0] ? se.path : "record", se.why));
			else
				out = jv_array_append(out, norm);
			jv_free(rec);
			se.path[0] = '\0';
		}
		if (!f)
			add_error(errors, text_fmt("capture log %s: cannot open", full));
		else
			fclose(f);
		json_reader_free(&in);
		free(full);
		jv_free(rel);
	}
	jv_free(files);
	return out;
}

jv evidence_native_artifacts(const char *trial, jv steps, jv *errors)
{
	static const char *const names[] = { HARBOR_ACP_SUMMARY_FILE, HARBOR_ACP_EVENTS_FILE,
					     HARBOR_TRAJECTORY_FILE, NULL };
	jv files = evidence_files(trial, steps, names), out = jv_array();

	jv_array_foreach(files, i, rel) {
		char *full = io_join(trial, jv_string_value(rel)), hex[SHA256_HEX_LEN + 1];
		long long size;
		struct pc_err e;
		if (sha256_file_hex(full, hex, &size, &e) != 0)
			add_error(errors, text_fmt("%s", e.msg));
		else {
			jv artifact = JV_OBJECT(jv_string("name"), jv_copy(rel),
						jv_string("sha256"), jv_string(hex),
						jv_string("bytes"), jv_number((double)size));
			out = jv_array_append(out, artifact);
		}
		free(full);
		jv_free(rel);
	}
	jv_free(files);
	return out;
}

jv evidence_resolved_instructions(const char *trial, jv steps)
{
	static const char *const names[] = { HARBOR_ACP_SUMMARY_FILE, NULL };
	jv files = evidence_files(trial, steps, names), out = jv_array();

	jv_array_foreach(files, i, rel) {
		char *full = io_join(trial, jv_string_value(rel)), hex[SHA256_HEX_LEN + 1];
		struct pc_err e;
		jv summary;
		const char *r = jv_string_value(rel);
		if (json_read_file(full, &summary, &e) == 0) {
			const char *instruction = json_str(summary, "instruction");
			if (instruction && !text_is_blank(instruction, strlen(instruction))) {
				jv step = jv_null();
				const char *slash = strchr(r, '/');
				if (!strncmp(r, "steps/", 6) && strchr(r + 6, '/')) {
					slash = strchr(r + 6, '/');
					step = jv_string_sized(r + 6, (int)(slash - r - 6));
				}
				sha256_hex(instruction, strlen(instruction), hex);
				jv resolved = JV_OBJECT(
					jv_string("step"), step,
					jv_string("artifact"), jv_copy(rel),
					jv_string("content"), jv_string(instruction),
					jv_string("sha256"), jv_string(hex));
				out = jv_array_append(out, resolved);
			}
			jv_free(summary);
		}
		free(full);
		jv_free(rel);
	}
	jv_free(files);
	return out;
}
