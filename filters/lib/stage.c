#include "stage.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "choice.h"
#include "io.h"

int stage_die(const char *prog, const struct redactor *r, int code,
	      const char *msg)
{
	char *safe = redact_string(r, msg);

	fprintf(stderr, "%s: %s\n", prog, safe);
	free(safe);
	return code;
}

/* A descriptor that is closed would be handed to the next file the filter
 * opens: stdout's lines would go into a spool file, stdin's reads come from
 * a task file. */
static int stream_closed(int fd)
{
	return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

int stage_open_streams(const char *prog, int reads_stdin)
{
	signal(SIGPIPE, SIG_IGN);
	if (stream_closed(STDIN_FILENO)) {
		if (reads_stdin) {
			fprintf(stderr, "%s: stdin: read error: %s\n", prog, strerror(EBADF));
			return EXIT_INVALID;
		}
		if (open("/dev/null", O_RDONLY) != STDIN_FILENO) {
			fprintf(stderr, "%s: stdin is closed; /dev/null cannot stand in\n", prog);
			return EXIT_INVALID;
		}
	}
	if (stream_closed(STDOUT_FILENO))
		return stage_write_error(prog, EBADF);
	return 0;
}

int stage_write_error(const char *prog, int err)
{
	fprintf(stderr, "%s: write error: %s\n", prog, strerror(err));
	return EXIT_INVALID;
}

int stage_usage_error(const char *prog, const char *usage, const char *msg)
{
	const char *end = strchr(usage, '\n');

	while (end && end[1] == ' ')
		end = strchr(end + 1, '\n');
	fprintf(stderr, "%s: %s\n%.*s\nTry '%s --help', or man %s, for more.\n", prog, msg,
		end ? (int)(end - usage) : (int)strlen(usage), usage, prog, prog);
	return EXIT_USAGE;
}

/* The long option named by arg ("--name" or "--name=value"), exactly; NULL
 * when none is. */
static const struct option *long_option(const struct option *longs, const char *arg)
{
	size_t n = strcspn(arg + 2, "=");

	for (; longs->name; longs++)
		if (strlen(longs->name) == n && !strncmp(longs->name, arg + 2, n))
			return longs;
	return NULL;
}

/* How many long options begin with arg's name: getopt_long takes a unique
 * abbreviation and refuses one that fits several. */
static int prefix_matches(const struct option *longs, const char *arg)
{
	size_t n = strcspn(arg + 2, "=");
	int count = 0;

	for (; longs->name; longs++)
		count += !strncmp(longs->name, arg + 2, n);
	return count;
}

/* What was wrong with the option getopt_long refused, in words naming it. */
static int refused_option(const struct stage_cli *cli)
{
	const char *arg = cli->argv[optind - 1];
	char msg[256];

	if (!strncmp(arg, "--", 2)) {
		int n = (int)strcspn(arg, "=");
		if (long_option(cli->longs, arg))
			snprintf(msg, sizeof msg, "option %.*s needs a value", n, arg);
		else if (prefix_matches(cli->longs, arg) > 1)
			snprintf(msg, sizeof msg,
				 "ambiguous option %.*s: more than one option begins so", n, arg);
		else
			snprintf(msg, sizeof msg, "unknown option %.*s", n, arg);
	} else if (optopt && strchr(cli->shortopts, optopt))
		snprintf(msg, sizeof msg, "option -%c needs a value", optopt);
	else
		snprintf(msg, sizeof msg, "unknown option -%c", optopt ? optopt : '?');
	return stage_usage_error(cli->prog, cli->usage, msg);
}

/* The usage error for an option that holds one value given again. */
static int repeated_option(const struct stage_cli *cli, int c)
{
	const struct option *o = cli->longs;
	char msg[256];

	while (o->name && o->val != c)
		o++;
	snprintf(msg, sizeof msg,
		 "--%s given twice: it takes one value, and a second would replace the first",
		 o->name ? o->name : "?");
	return stage_usage_error(cli->prog, cli->usage, msg);
}

static int takes_value(const struct stage_cli *cli, int c)
{
	for (const struct option *o = cli->longs; o->name; o++)
		if (o->val == c)
			return o->has_arg == required_argument;
	return 0;
}

int stage_option(struct stage_cli *cli)
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
		refused_option(cli);
		return STAGE_USAGE;
	case -1:
		if (optind < cli->argc) {
			char msg[256];
			snprintf(msg, sizeof msg, "unexpected argument '%.200s'",
				 cli->argv[optind]);
			stage_usage_error(cli->prog, cli->usage, msg);
			return STAGE_USAGE;
		}
		return STAGE_END;
	default:
		if (c > 0 && c <= UCHAR_MAX && takes_value(cli, c) &&
		    !(cli->repeatable && strchr(cli->repeatable, c)) && cli->seen[c]++) {
			repeated_option(cli, c);
			return STAGE_USAGE;
		}
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

static int next_document(struct stage_input *s, jv *out, long *line, struct pc_err *e)
{
	jv doc;
	int rc = json_reader_next(&s->reader, &doc, line, e);

	if (rc <= 0)
		return rc;
	const char *named = jv_get_kind(doc) == JV_KIND_OBJECT ? json_str(doc, "schema") : NULL;
	if (s->then_schema && named && !strcmp(named, s->then_schema)) {
		s->schema = s->then_schema;
		s->shape = s->then_shape;
		s->then_schema = NULL;
	}
	return stage_check_document(&s->reader, *line, s->schema, s->shape, doc, out, e) == 0 ? 1
											      : -1;
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
	s->then_schema = NULL;
	s->then_shape = NULL;
	s->status = EXIT_OK;
	s->count = 0;
}

int stage_input_next(struct stage_input *s, jv *doc)
{
	struct pc_err e;
	long line;
	int got;

	while ((got = next_document(s, doc, &line, &e)) < 0) {
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

int stage_count(const struct stage_cli *cli, const char *option, const char *what,
		const char *text, int lo, int hi, int *n)
{
	size_t digits = strspn(text, "0123456789");
	long value = digits && !text[digits] && digits <= 9 ? strtol(text, NULL, 10) : -1;

	if (value >= lo && value <= hi) {
		*n = (int)value;
		return 0;
	}
	char *msg = text_fmt("%s must be %s from %d to %d", option, what, lo, hi);
	stage_usage_error(cli->prog, cli->usage, msg);
	free(msg);
	return STAGE_USAGE;
}

int stage_check_policy(const char *prog, const char *usage, const char *policy)
{
	static const char *const policies[] = { "collect-all", "fail-fast", NULL };

	for (size_t i = 0; policies[i]; i++)
		if (!strcmp(policy, policies[i]))
			return 0;
	char *msg = choice_refusal("--failure-policy", choice_string_at, policies);
	stage_usage_error(prog, usage, msg);
	free(msg);
	return STAGE_USAGE;
}
