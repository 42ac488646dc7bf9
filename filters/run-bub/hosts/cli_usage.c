/* cli_usage: a host's session files read as Harbor reads them (cli_usage.h). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hosts/cli_usage.h"
#include "io.h"
#include "text.h"

void cli_file_lines(const char *path, void (*fn)(void *ctx, jv line), void *ctx)
{
	char *text = NULL, *save = NULL;
	size_t len;
	struct pc_err e;

	if (io_read_text(path, &text, &len, &e) != 0)
		return;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		jv v = jv_parse(line);
		if (jv_get_kind(v) == JV_KIND_OBJECT)
			fn(ctx, v);
		jv_free(v);
	}
	free(text);
}

static int is_jsonl(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, ".jsonl");
}

void cli_each_line(const char *dir, int depth, void (*fn)(void *ctx, jv line), void *ctx)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *path = io_join(dir, name);
		struct stat st;
		if (name[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth > 0)
				cli_each_line(path, depth - 1, fn, ctx);
			else if (S_ISREG(st.st_mode) && is_jsonl(name))
				cli_file_lines(path, fn, ctx);
		}
		free(path);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

jv cli_count(jv v)
{
	double n = jv_get_kind(v) == JV_KIND_NUMBER ? jv_number_value(v) : 0;

	jv_free(v);
	return jv_number(n > 0 && n < 1e15 ? (double)(long long)n : 0);
}

static jv or_null(jv v)
{
	if (jv_is_valid(v))
		return v;
	jv_free(v);
	return jv_null();
}

jv cli_figures(jv input, jv cache, jv output, jv cost)
{
	return JV_OBJECT(jv_string("n_input_tokens"), or_null(input),
			 jv_string("n_cache_tokens"), or_null(cache),
			 jv_string("n_output_tokens"), or_null(output),
			 jv_string("cost_usd"), or_null(cost));
}
