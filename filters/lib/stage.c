#include "stage.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

int stage_die(const char *prog, const struct redactor *r, int code,
	      const char *msg)
{
	char *safe = redact_string(r, msg);

	fprintf(stderr, "%s: %s\n", prog, safe);
	free(safe);
	return code;
}

int stage_usage_error(const char *prog, const char *usage, const char *msg)
{
	fprintf(stderr, "%s: %s\n%s", prog, msg, usage);
	return EXIT_USAGE;
}

int stage_option(const struct stage_cli *cli)
{
	int c;

	opterr = 0;
	c = getopt_long(cli->argc, cli->argv, cli->shortopts, cli->longs, NULL);
	switch (c) {
	case 'h':
		fputs(cli->usage, stdout);
		return STAGE_DONE;
	case 'V':
		printf("%s %s\n", cli->prog, PC_VERSION);
		return STAGE_DONE;
	case '?':
	case ':':
		stage_usage_error(cli->prog, cli->usage,
				  "unknown option or missing option argument");
		return STAGE_USAGE;
	case -1:
		if (optind < cli->argc) {
			stage_usage_error(cli->prog, cli->usage, "unexpected argument");
			return STAGE_USAGE;
		}
		return STAGE_END;
	default:
		return c;
	}
}

int stage_option_exit(int result)
{
	return result == STAGE_DONE ? EXIT_OK : EXIT_USAGE;
}

int stage_write_artifact(const char *outdir, const char *dir, const char *name,
			 const struct redactor *r, jv doc, struct pc_err *e)
{
	char *path = io_join(outdir, dir);
	char *text = json_pretty(redact_jv(r, doc));
	int rc = io_write_artifact(path, name, text, strlen(text), e);

	free(text);
	free(path);
	return rc;
}

/* Next document of the given schema and shape, normalized: 1, 0 at end, -1. */
int stage_check_document(const struct json_reader *in, long line, const char *schema,
			 const struct shape *shape, jv doc, jv *out, struct pc_err *e)
{
	struct shape_error se = { { 0 }, { 0 } };
	const char *got = json_str(doc, "schema");

	if (jv_get_kind(doc) != JV_KIND_OBJECT || !got || strcmp(got, schema)) {
		const char *unnamed = jv_get_kind(doc) == JV_KIND_OBJECT
					      ? "an object without a schema field"
					      : "a non-object";

		pc_fail(e, "%s:%ld: expected a %s document, got %s%s%s", in->name, line, schema,
			got ? "\"" : "", got ? got : unnamed, got ? "\"" : "");
		jv_free(doc);
		return -1;
	}
	int rc = shape_normalize(shape, doc, out, &se);
	jv_free(doc);
	if (rc != 0)
		return pc_fail(e, "%s:%ld: %s: %s", in->name, line,
			       se.path[0] ? se.path : "document",
			       se.why);
	return 0;
}

static int next_document(struct json_reader *in, const char *schema,
			 const struct shape *shape, jv *out, long *line, struct pc_err *e)
{
	jv doc;
	int rc = json_reader_next(in, &doc, line, e);

	if (rc <= 0)
		return rc;
	return stage_check_document(in, *line, schema, shape, doc, out, e) == 0 ? 1 : -1;
}

int stage_emit(const struct redactor *r, jv v, struct pc_err *e)
{
	return json_write_line(stdout, redact_jv(r, v), e);
}

static int severity(int code)
{
	switch (code) {
	case EXIT_INVALID: return 4;
	case EXIT_FAILED: return 3;
	case EXIT_STALE: return 2;
	case EXIT_INCONCLUSIVE: return 1;
	default: return 0;
	}
}

int stage_worst(int current, int next)
{
	return severity(next) > severity(current) ? next : current;
}

void stage_input_open(struct stage_input *s, const char *prog,
		      const struct redactor *red, const char *schema,
		      const struct shape *shape)
{
	json_reader_init(&s->reader, stdin, "stdin");
	s->prog = prog;
	s->red = red;
	s->schema = schema;
	s->shape = shape;
	s->status = EXIT_OK;
	s->count = 0;
}

int stage_input_next(struct stage_input *s, jv *doc)
{
	struct pc_err e;
	long line;
	int got;

	while ((got = next_document(&s->reader, s->schema, s->shape, doc, &line, &e)) < 0) {
		s->status = stage_die(s->prog, s->red, EXIT_INVALID, e.msg);
		if (s->reader.eof)
			return 0;
	}
	s->count += got;
	return got;
}

void stage_input_close(struct stage_input *s)
{
	json_reader_free(&s->reader);
}

int stage_deliver(const char *outdir, const char *dir, const char *name,
		  const struct redactor *r, jv doc, struct pc_err *e)
{
	if (outdir && stage_write_artifact(outdir, dir, name, r, jv_copy(doc), e) != 0) {
		jv_free(doc);
		return -1;
	}
	return stage_emit(r, doc, e);
}

int stage_run_pass(const struct stage_pass *p, const char *outdir, const struct redactor *red)
{
	struct stage_input in;
	struct pc_err e;
	int status = EXIT_OK;
	jv doc;

	stage_input_open(&in, p->prog, red, p->schema, p->shape);
	while (stage_input_next(&in, &doc)) {
		jv out;
		char *dir = p->dir_of(doc);
		int code = EXIT_OK, failed = 0;
		if (p->make(p->ctx, doc, &in.reader, &out, &code, &e) != 0)
			status = stage_die(p->prog, red, EXIT_INVALID, e.msg);
		else if (stage_deliver(outdir, dir, p->artifact, red, out, &e) != 0)
			failed = 1;
		else
			status = stage_worst(status, code);
		free(dir);
		jv_free(doc);
		/* a sink that cannot be written ends the stream: later
		 * documents would fail the same way */
		if (failed) {
			status = stage_die(p->prog, red, EXIT_INVALID, e.msg);
			break;
		}
	}
	status = stage_worst(status, in.status);
	if (in.count == 0 && status == EXIT_OK)
		status = stage_die(p->prog, red, EXIT_INVALID, p->none);
	stage_input_close(&in);
	return status;
}

int stage_check_policy(const char *prog, const char *usage, const char *policy)
{
	if (!strcmp(policy, "collect-all") || !strcmp(policy, "fail-fast"))
		return 0;
	stage_usage_error(prog, usage, "--failure-policy must be collect-all or fail-fast");
	return STAGE_USAGE;
}
