/* plan_main: pc-report --plan (plan_main.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docs_paired.h"
#include "plan.h"
#include "plan_expected.h"
#include "plan_main.h"
#include "sign_power.h"
#include "stage.h"

/* An option's value as a rate: digits and a point only (strtod would also
 * take a sign, spaces, exponents, nan and inf), from 0 to 1. */
static int rate_option(const struct stage_cli *cli, const char *option, const char *text,
		       double *rate)
{
	size_t n = strspn(text, "0123456789.");
	char *end = (char *)text;

	*rate = n && !text[n] ? strtod(text, &end) : -1;
	if (*end == '\0' && *rate >= 0 && *rate <= 1)
		return 0;
	char *msg = text_fmt("%s must be a rate from 0 to 1 (a share of workloads)", option);
	stage_usage_error(cli->prog, cli->usage, msg);
	free(msg);
	return STAGE_USAGE;
}

/* The command line: the rates given (-1 when not), and the format. */
struct plan_options {
	struct plan_request r;
	const char *pilot_dir; /* --pilot: the pilot run's OUTPUT, or NULL */
	int json;
};

static int parse(int argc, char **argv, const char *prog, const char *usage,
		 struct plan_options *o)
{
	static const struct option longs[] = {
		{ "plan", no_argument, NULL, 'p' },
		{ "help-rate", required_argument, NULL, 'H' },
		{ "hurt-rate", required_argument, NULL, 'U' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "trials", required_argument, NULL, 't' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "pilot", required_argument, NULL, 'P' },
		{ "format", required_argument, NULL, 'f' },
		STAGE_STANDARD_OPTIONS,
	};
	struct stage_cli cli = STAGE_CLI(prog, usage, "", longs, argc, argv);
	struct plan_request *r = &o->r;
	int c, rc = 0;

	while (rc == 0 && (c = stage_option(&cli)) >= 0) {
		switch (c) {
		case 'p': break;
		case 'H': rc = rate_option(&cli, "--help-rate", optarg, &r->help); break;
		case 'U': rc = rate_option(&cli, "--hurt-rate", optarg, &r->hurt); break;
		case 'w':
			rc = stage_count(&cli, "--workloads", "a whole number of workloads", optarg,
					 1, SIGN_WORKLOADS_CAP, &r->workloads);
			break;
		case 't':
			rc = stage_count(&cli, "--trials", "a whole number of trials", optarg, 1,
					 STAGE_TRIALS_MAX, &r->trials);
			break;
		case 'n':
			rc = stage_count(&cli, "--nodes", "a whole number of nodes", optarg, 1,
					 10000, &r->nodes);
			break;
		case 'P': o->pilot_dir = optarg; break;
		default:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return stage_usage_error(prog, usage,
							 "--format must be text or json with --plan"),
				       STAGE_USAGE;
			o->json = !strcmp(optarg, "json");
		}
	}
	if (rc != 0)
		return rc;
	if (c != STAGE_END)
		return c;
	const char *alone = "--help-rate and --hurt-rate go together, or neither (a pilot)";
	if ((r->help < 0) != (r->hurt < 0))
		return stage_usage_error(prog, usage, alone), STAGE_USAGE;
	if (r->help + r->hurt > 1)
		return stage_usage_error(prog, usage,
					 "--help-rate and --hurt-rate add up to more than 1"),
		       STAGE_USAGE;
	return 0;
}

/* The pilot's sample from its paired report on stdin; the exit status. */
static int read_pilot(const char *prog, const struct redactor *red, struct plan_sample *s)
{
	struct stage_input in;
	jv doc;
	int n = 0;

	stage_input_open(&in, prog, red, SCHEMA_PAIRED_REPORT, &doc_paired_report);
	while (stage_input_next(&in, &doc)) {
		if (n++ == 0)
			*s = plan_sample_of(doc);
		jv_free(doc);
	}
	stage_input_close(&in);
	if (in.status != EXIT_OK)
		return in.status;
	if (n != 1)
		return stage_die(prog, red, EXIT_INVALID,
				 n ? "more than one paired report on stdin"
				   : "no paired report on stdin, nor --help-rate and --hurt-rate");
	if (s->scored == 0)
		return stage_die(prog, red, EXIT_INVALID,
				 "the paired report has no workload with a scored pair");
	return EXIT_OK;
}

int plan_main(const char *prog, const char *usage, int argc, char **argv,
	      const struct redactor *red)
{
	struct plan_options o = { { -1, -1, 50, 0, 1, NULL, NULL }, NULL, 0 };
	struct plan_sample pilot;
	struct plan_pilot_unit unit;
	struct pc_err e;
	int rc = parse(argc, argv, prog, usage, &o);

	if (rc != 0)
		return stage_option_exit(rc);
	if ((rc = stage_open_streams(prog, o.r.help < 0)) != 0)
		return rc;
	if (o.r.help < 0) {
		if ((rc = read_pilot(prog, red, &pilot)) != EXIT_OK)
			return rc;
		o.r.pilot = &pilot;
		o.r.help = (double)pilot.helped / pilot.scored;
		o.r.hurt = (double)pilot.hurt / pilot.scored;
		if (!o.r.trials)
			o.r.trials = pilot.trials;
	}
	if (o.pilot_dir) {
		if (plan_pilot_load(o.pilot_dir, &unit, &e) != 0)
			return stage_die(prog, red, EXIT_INVALID, e.msg);
		o.r.pilot_unit = &unit;
	}
	if (!o.r.trials)
		o.r.trials = 1;

	struct sbuf b = { 0 };
	plan_add(&b, &o.r, o.json);
	char *text = sbuf_take(&b);
	rc = fputs(text, stdout) == EOF || fflush(stdout) != 0 ? stage_write_error(prog, errno)
							       : EXIT_OK;
	free(text);
	return rc;
}
