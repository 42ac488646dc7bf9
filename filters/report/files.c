/* files: the report.md files --output writes (files.h). */
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "io.h"
#include "outdir.h"
#include "report_md.h"

/* One pass writing every file; outdir and e borrowed. */
struct files_pass {
	const char *outdir;
	struct pc_err *e;
	int failed;
	/* the merged batch whose members are being read: its name and run id
	 * (owned, NULL for none) and its members' lines so far */
	char *batch, *run_id;
	struct sbuf batch_lines;
};

static void write_report_md(struct files_pass *f, const char *rel, char *text)
{
	char *dir = io_join(f->outdir, rel);

	if (!f->failed)
		f->failed = io_write_artifact(dir, "report.md", text, strlen(text), f->e) != 0;
	free(dir);
	free(text);
}

/* The open batch's report.md, 1.4.1's render_evaluation_summary, once its
 * last member was read. */
static void close_batch(struct files_pass *f)
{
	if (f->batch) {
		char *lines = sbuf_take(&f->batch_lines), *rel = outdir_batch(f->batch);
		write_report_md(f, rel, report_md_batch(lines));
		free(rel);
		free(lines);
	}
	free(f->batch);
	free(f->run_id);
	f->batch = f->run_id = NULL;
}

static void write_case_file(void *ctx, const struct report_case *c)
{
	struct files_pass *f = ctx;
	const char *batch =
		spool_str(spool_get(spool_get(c->kase, "attributes"), OUTDIR_CASE_BATCH));
	const char *run_id = report_attribute(c, "run_id");

	write_report_md(f, c->dir, report_md_workload(c));
	if (f->batch && (!batch || strcmp(f->batch, batch) || strcmp(f->run_id, run_id)))
		close_batch(f);
	if (batch) {
		if (!f->batch) {
			f->batch = pc_xstrdup(batch);
			f->run_id = pc_xstrdup(run_id);
		}
		report_md_add_case_lines(&f->batch_lines, c);
	}
}

int files_write_all(struct cases *cs, const char *outdir, struct pc_err *e)
{
	struct files_pass f = { .outdir = outdir, .e = e };

	if (cs->bad_name)
		return pc_fail(e, "%s; cannot write %s/<id>/report.md", cs->bad_name, outdir);
	report_each_case(cs, write_case_file, &f);
	close_batch(&f);
	if (f.failed)
		return -1;
	if (cs->read_failed)
		return pc_fail(e, "cannot read back the spool file");
	return 0;
}
