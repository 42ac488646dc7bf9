/* paired_main: pc-report --paired's input, its report.md and its stdout
 * (paired_main.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docs_paired.h"
#include "io.h"
#include "json.h"
#include "ledger_paired.h"
#include "page_facts.h"
#include "paired.h"
#include "paired_html.h"
#include "paired_main.h"
#include "run_account.h"
#include "stage.h"
#include "verdict.h"

/* What stdin holds after the report: the arm observations, whose
 * PowerContext and times make the page's facts, and their accounts. */
struct arms {
	struct page_facts facts;
	jv observations, accounts;
};

/* An observation (consumed, redacted) adds its PowerContext and its
 * times to the page's facts. */
static void add_observation(struct arms *arms, jv observation)
{
	jv env = json_get(observation, "environment");

	page_facts_add(&arms->facts, json_str(env, "commit"), json_str(env, "started_at"),
		       json_str(env, "finished_at"));
	jv_free(env);
	arms->observations = jv_array_append(arms->observations, observation);
}

/* *report (owned) the one paired report, arms what follows it; the
 * input's exit status. */
static int read_input(const char *prog, const struct redactor *red, jv *report,
		      struct arms *arms)
{
	struct stage_input in;
	jv doc;

	stage_input_open(&in, prog, red, SCHEMA_PAIRED_REPORT, &doc_paired_report);
	while (stage_input_next(&in, &doc)) {
		if (!jv_is_valid(*report)) {
			*report = redact_jv(red, doc);
			/* whatever follows the report is an arm observation, then
			 * an account */
			in.schema = SCHEMA_PAIRED_ARM;
			in.shape = &doc_paired_arm;
			in.then_schema = SCHEMA_PAIRED_ACCOUNT;
			in.then_shape = &doc_paired_account;
		} else if (in.then_schema) {
			add_observation(arms, redact_jv(red, doc));
		} else { /* the input switched to accounts */
			arms->accounts = jv_array_append(arms->accounts, redact_jv(red, doc));
		}
	}
	stage_input_close(&in);
	if (in.status == EXIT_OK && !jv_is_valid(*report))
		return stage_die(prog, red, EXIT_INVALID, "no paired report on stdin");
	return in.status;
}

/* text (consumed) as output/name. */
static int write_file(const char *prog, const char *output, const char *name, char *text,
		      const struct redactor *red)
{
	struct pc_err e;
	int status = EXIT_OK;

	if (io_write_artifact(output, name, text, strlen(text), &e) != 0)
		status = stage_die(prog, red, EXIT_INVALID, e.msg);
	free(text);
	return status;
}

/* report.md under output: 1.4.1's file, whatever format stdout gets; and
 * beside it pc-e2e's run.md, when it has an account of the run. */
static int write_markdown(const char *prog, const char *output, jv report, jv account,
			  const struct redactor *red)
{
	struct sbuf b = { 0 }, run = { 0 };

	paired_add_markdown(&b, report);
	int status = write_file(prog, output, "report.md", sbuf_take(&b), red);
	if (status == EXIT_OK && run_account_any(account)) {
		sbuf_add(&run, "# pc-e2e's account of the run\n");
		run_account_add_text(&run, account);
		status = write_file(prog, output, "run.md", sbuf_take(&run), red);
	}
	return status;
}

static int write_stdout(const char *prog, const struct report_format *format, jv report,
			jv account, const struct page_facts *facts)
{
	struct sbuf b = { 0 };
	const char *no_color = getenv("NO_COLOR");
	int status = EXIT_OK;

	format->paired(&b, report, account, facts, !(no_color && *no_color));
	char *text = sbuf_take(&b);
	if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
		status = stage_write_error(prog, errno);
	free(text);
	return status;
}

int paired_main(const char *prog, const struct report_format *format, const char *output,
		const struct ledger_url *ledger, const struct redactor *red)
{
	struct arms arms = { .observations = jv_array(), .accounts = jv_array() };
	struct pc_err e;
	jv report = jv_invalid(), account = jv_null();

	page_facts_init(&arms.facts);
	int status = read_input(prog, red, &report, &arms);
	if (status == EXIT_OK && run_account_load(output, &account, &e) != 0)
		status = stage_die(prog, red, EXIT_INVALID, e.msg);
	account = redact_jv(red, account);
	if (status == EXIT_OK) {
		if (output)
			status = write_markdown(prog, output, report, account, red);
		status = stage_worst(status,
				     write_stdout(prog, format, report, account, &arms.facts));
		status = stage_worst(status, verdict_paired_exit(report));
		/* a ledger that cannot be written still leaves the report, and exit 1 */
		if (ledger && ledger_write_paired(ledger, report, arms.observations, arms.accounts,
						  &e) != 0)
			status = stage_worst(status, stage_die(prog, red, EXIT_INVALID, e.msg));
	}
	jv_free(account);
	jv_free(report);
	jv_free(arms.observations);
	jv_free(arms.accounts);
	page_facts_free(&arms.facts);
	return status;
}
