/* stage: what every filter shares around its own logic.
 *
 * Exit codes (docs/DESIGN.md §4), the standard --help/--version handling, reading the
 * documents of one schema from stdin with the stream line in every error, and
 * emitting documents through the redactor so no secret reaches stdout.
 */
#ifndef PC_STAGE_H
#define PC_STAGE_H

#include <jv.h>
#include <limits.h>
#include <stdio.h>

#include "err.h"
#include "json.h"
#include "redact.h"
#include "shape.h"

enum {
	EXIT_OK = 0,
	EXIT_INVALID = 1,
	EXIT_FAILED = 2,
	EXIT_INCONCLUSIVE = 3,
	/* nothing failed or was invalid, but a result is stale (freshness.h):
	 * worse than inconclusive, better than failed */
	EXIT_STALE = 4,
	EXIT_USAGE = 64,
};

#ifndef PC_VERSION
#define PC_VERSION "0.0.0"
#endif

/* Command lines.  Each filter lists its own long options followed by
 * STAGE_STANDARD_OPTIONS and reads them with stage_option, which answers
 * --help and --version, rejects unknown options and operands, and returns:
 * the option's val, STAGE_END when the options are done, STAGE_DONE after
 * --help/--version (exit 0) or STAGE_USAGE after a usage error (exit 64). */
/* clang-format off */
#define STAGE_STANDARD_OPTIONS \
	{ "help", no_argument, NULL, 'h' }, { "version", no_argument, NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }
/* clang-format on */

enum {
	STAGE_END = -1,
	STAGE_DONE = -2,
	STAGE_USAGE = -3
};

struct option;
struct stage_cli {
	const char *prog, *usage, *shortopts;
	const struct option *longs;
	int argc;
	char **argv;
	/* the vals of the options that take a value and may be given more
	 * than once (pc-select's --id); any other is refused the second time,
	 * where a later one would silently replace the first */
	const char *repeatable;
	unsigned char seen[UCHAR_MAX + 1]; /* stage_option's, zero at first */
};

/* A stage_cli with nothing seen yet and no repeatable option. */
#define STAGE_CLI(prog_, usage_, shortopts_, longs_, argc_, argv_)                                \
	{                                                                                         \
		.prog = (prog_), .usage = (usage_), .shortopts = (shortopts_), .longs = (longs_), \
		.argc = (argc_), .argv = (argv_)                                                  \
	}

int stage_option(struct stage_cli *cli);

/* An option's value as a whole number from lo to hi, digits only (strtol
 * would also take a sign, spaces and 0x): 0 with *n set, or the usage
 * error "OPTION must be WHAT from LO to HI" (STAGE_USAGE), what saying what
 * the number counts ("a whole number of trials"). */
int stage_count(const struct stage_cli *cli, const char *option, const char *what,
		const char *text, int lo, int hi, int *n);

/* The trials of a paired run, wherever --trials is read. */
enum {
	STAGE_TRIALS_MAX = 10000
};

/* The exit code for a stage_option result that ended parsing early. */
int stage_option_exit(int result);

/* The standard streams, checked before a filter does anything: a closed
 * stdout (and a closed stdin, when reads_stdin) is told once and gives
 * EXIT_INVALID; a closed stdin the filter does not read is opened on
 * /dev/null, so no file it opens takes descriptor 0.  SIGPIPE is ignored
 * from here on: a reader that went away is a write error with its message,
 * not a silent death by signal. */
int stage_open_streams(const char *prog, int reads_stdin);

/* Print "prog: write error: <strerror(err)>" and return EXIT_INVALID: the
 * words every filter uses for a stdout it cannot write. */
int stage_write_error(const char *prog, int err);

/* Print "prog: message" to stderr (redacted) and return code. */
int stage_die(const char *prog, const struct redactor *r, int code,
	      const char *msg);

/* 0 when policy names a failure policy (collect-all or fail-fast), else a
 * usage error of prog (STAGE_USAGE). */
int stage_check_policy(const char *prog, const char *usage, const char *policy);

/* Print "prog: msg", the synopsis (usage's first line and the indented
 * lines after it) and where the rest is, and return EXIT_USAGE. */
int stage_usage_error(const char *prog, const char *usage, const char *msg);

/* The documents of one schema on stdin.  An invalid document is reported
 * on stderr with its stream line and skipped, setting status to
 * EXIT_INVALID; malformed JSON ends the stream (no next document can be
 * found reliably after it). */
struct stage_input {
	struct json_reader reader;
	const char *prog, *schema;
	const struct shape *shape;
	const struct redactor *red;
	/* documents of another schema that may follow (NULL: none): the first
	 * that names it switches the input to it and its shape for good */
	const char *then_schema;
	const struct shape *then_shape;
	int status; /* EXIT_OK, or EXIT_INVALID once anything was rejected */
	int count;  /* valid documents returned */
};

void stage_input_open(struct stage_input *s, const char *prog,
		      const struct redactor *red, const char *schema,
		      const struct shape *shape);
/* A document (consumed) read from in at line: *out (owned) the normalized
 * document of that schema and shape, or -1 with e naming the line and the
 * field that is wrong. */
int stage_check_document(const struct json_reader *in, long line, const char *schema,
			 const struct shape *shape, jv doc, jv *out, struct pc_err *e);

/* 1 with *doc (normalized, owned) set; 0 at the end. */
int stage_input_next(struct stage_input *s, jv *doc);
void stage_input_close(struct stage_input *s);

/* A stage that turns each input document into one output document: make
 * gets the normalized input (borrowed) and the reader, whose text field is
 * the input as written, and returns 0 with *out (owned) and *code (the
 * case's exit code, EXIT_OK when it has none) set, or -1 with e filled,
 * which skips that input and ends in exit 1. */
struct stage_pass {
	const char *prog, *schema;
	const struct shape *shape;
	/* the directory under outdir (owned; outdir.h) of the input
	 * (borrowed), where the artifact goes */
	char *(*dir_of)(jv in);
	const char *artifact; /* its file name there */
	const char *none;     /* the error when stdin holds no document */
	int (*make)(void *ctx, jv in, const struct json_reader *raw, jv *out, int *code,
		    struct pc_err *e);
	void *ctx;
};

/* Run the pass over stdin, delivering to outdir (NULL: stdout only); the
 * exit code folds every case's with the input's (stage_worst). */
int stage_run_pass(const struct stage_pass *p, const char *outdir, const struct redactor *red);

/* Deliver one result document (consumed): to outdir/dir/name when outdir
 * is set, then as a line on stdout, both redacted. */
int stage_deliver(const char *outdir, const char *dir, const char *name,
		  const struct redactor *r, jv doc, struct pc_err *e);

/* Write doc (consumed, redacted first) indented to outdir/dir/name
 * atomically. */
int stage_write_artifact(const char *outdir, const char *dir, const char *name,
			 const struct redactor *r, jv doc, struct pc_err *e);

/* Redact then write v (consumed) as one line on stdout. */
int stage_emit(const struct redactor *r, jv v, struct pc_err *e);

/* Fold one case's outcome into the run's exit code, the worse winning
 * (1 > 2 > 4 > 3 > 0): the one statement of the order, which docs/DESIGN.md
 * §4 gives and tests/bin/check-docs holds it to; everywhere else cites §4. */
int stage_worst(int current, int next);

#endif
