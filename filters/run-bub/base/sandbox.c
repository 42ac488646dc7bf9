#include "base/sandbox.h"

#include <dirent.h>
#include <jv.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "io.h"
#include "text.h"

struct argv_builder {
	char **v;
	int n;
};

static void add(struct argv_builder *b, const char *s)
{
	b->v = pc_xrealloc(b->v, (size_t)(b->n + 2) * sizeof *b->v);
	b->v[b->n++] = pc_xstrdup(s);
	b->v[b->n] = NULL;
}

static void add3(struct argv_builder *b, const char *opt, const char *a, const char *c)
{
	add(b, opt);
	add(b, a);
	if (c)
		add(b, c);
}

/* /opt a tmpfs holding each of this machine's /opt entries read-only, not
 * /opt itself: the Harbor environment binds its runner's venv at
 * /opt/harbor-acp-venv, which a read-only /opt could not hold. */
static void add_opt(struct argv_builder *b)
{
	struct dirent **names;
	int n = scandir("/opt", &names, NULL, alphasort);

	add3(b, "--tmpfs", "/opt", NULL);
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, "..")) {
			char *path = text_fmt("/opt/%s", names[i]->d_name);
			add3(b, "--ro-bind-try", path, path);
			free(path);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* The interpreter a venv runs on: the directory above its pyvenv.cfg's
 * "home = DIR/bin" (the path its bin/python links through), or NULL. */
static char *venv_interpreter(const char *venv)
{
	char *cfg = io_join(venv, "pyvenv.cfg"), *text = NULL, *home = NULL;
	size_t len;
	struct pc_err e;

	if (io_read_text(cfg, &text, &len, &e) == 0)
		for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && !home;
		     line = strtok_r(NULL, "\n", &save)) {
			int at = -1;
			if (sscanf(line, " home =%n", &at) != 0 || at < 0)
				continue;
			const char *value = line + at;
			size_t n = text_strip(&value, strlen(value));
			if (n > 4 && !strncmp(value + n - 4, "/bin", 4))
				home = text_fmt("%.*s", (int)(n - 4), value);
		}
	free(text);
	free(cfg);
	return home;
}

static void add_bind(struct sbuf *out, const char *path)
{
	if (path && *path)
		sbuf_addf(out, "%s%s", out->len ? ":" : "", path);
}

char *sandbox_binds(const char *const venvs[], size_t n, const char *more)
{
	struct sbuf out = { 0 };

	for (size_t i = 0; i < n; i++) {
		if (!venvs[i])
			continue;
		char *interpreter = venv_interpreter(venvs[i]);
		add_bind(&out, venvs[i]);
		add_bind(&out, interpreter);
		free(interpreter);
	}
	add_bind(&out, more);
	return sbuf_take(&out);
}

/* What every sandbox of either runner binds from this machine: a fresh
 * tmpfs root and /tmp, the system read-only (/opt's entries too: a Python
 * that pipelines/pc-python found there is what the venvs' interpreters
 * point at) and the binds, read-only at their own paths. */
static void add_base(struct argv_builder *b, const char *binds)
{
	static const char *const links[][2] = {
		{ "usr/bin", "/bin" },
		{ "usr/lib", "/lib" },
		{ "usr/lib64", "/lib64" },
		{ "usr/sbin", "/sbin" },
	};

	add(b, "--die-with-parent");
	/* its own PID namespace: when the sandbox ends, so does everything the
	 * task started in it, setsid children included */
	add(b, "--unshare-pid");
	add3(b, "--tmpfs", "/", NULL);
	/* before the binds: a project or output directory under /tmp must not
	 * be hidden by this mount */
	add3(b, "--tmpfs", "/tmp", NULL);
	add3(b, "--ro-bind", "/usr", "/usr");
	for (size_t i = 0; i < sizeof links / sizeof *links; i++)
		add3(b, "--symlink", links[i][0], links[i][1]);
	add3(b, "--ro-bind", "/etc", "/etc");
	add_opt(b);
	if (binds && *binds) {
		char *copy = pc_xstrdup(binds), *save = NULL;
		for (char *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save))
			add3(b, "--ro-bind-try", p, p);
		free(copy);
	}
	add3(b, "--dev", "/dev", NULL);
	add3(b, "--proc", "/proc", NULL);
}

char *sandbox_base_json(const char *binds)
{
	struct argv_builder b = { NULL, 0 };
	jv args = jv_array();

	add_base(&b, binds);
	for (char **a = b.v; a && *a; a++)
		args = jv_array_append(args, jv_string(*a));
	sandbox_argv_free(b.v);
	jv text = jv_dump_string(args, 0);
	char *out = pc_xstrdup(jv_string_value(text));
	jv_free(text);
	return out;
}

char **sandbox_argv(const struct sandbox *sb, char *const cmd[])
{
	struct argv_builder b = { NULL, 0 };

	add(&b, "bwrap");
	add_base(&b, sb->binds);
	add3(&b, "--dir", "/logs", NULL);
	add3(&b, "--bind", sb->agent_dir, "/logs/agent");
	add3(&b, "--bind", sb->verifier_dir, "/logs/verifier");
	if (sb->tests_dir)
		add3(&b, "--ro-bind", sb->tests_dir, "/tests");
	add3(&b, "--bind", sb->workspace, "/workspace");
	if (sb->acp_dir) {
		add3(&b, "--dir", "/run", NULL);
		add3(&b, "--bind", sb->acp_dir, "/run/acp");
	}
	for (const struct sandbox_mount *m = sb->mounts; m && m->from; m++)
		add3(&b, m->writable ? "--bind" : "--ro-bind", m->from, m->to);
	add3(&b, "--chdir", "/workspace", NULL);
	add(&b, "--");
	for (; *cmd; cmd++)
		add(&b, *cmd);
	return b.v;
}

void sandbox_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}
