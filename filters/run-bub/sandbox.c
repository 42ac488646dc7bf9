#include "sandbox.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

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

char **sandbox_argv(const struct sandbox *sb, char *const cmd[])
{
	static const char *const links[][2] = {
		{ "usr/bin", "/bin" },
		{ "usr/lib", "/lib" },
		{ "usr/lib64", "/lib64" },
		{ "usr/sbin", "/sbin" },
	};
	struct argv_builder b = { NULL, 0 };

	add(&b, "bwrap");
	add(&b, "--die-with-parent");
	/* its own PID namespace: when the sandbox ends, so does everything the
	 * task started in it, setsid children included */
	add(&b, "--unshare-pid");
	add3(&b, "--tmpfs", "/", NULL);
	/* before the binds: a project or output directory under /tmp must not
	 * be hidden by this mount */
	add3(&b, "--tmpfs", "/tmp", NULL);
	add3(&b, "--ro-bind", "/usr", "/usr");
	for (size_t i = 0; i < sizeof links / sizeof *links; i++)
		add3(&b, "--symlink", links[i][0], links[i][1]);
	add3(&b, "--ro-bind", "/etc", "/etc");
	add3(&b, "--ro-bind-try", "/opt", "/opt");
	add3(&b, "--ro-bind", sb->project, sb->project);
	if (sb->extra_binds && *sb->extra_binds) {
		char *copy = pc_xstrdup(sb->extra_binds), *save = NULL;
		for (char *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save))
			add3(&b, "--ro-bind-try", p, p);
		free(copy);
	}
	add3(&b, "--dev", "/dev", NULL);
	add3(&b, "--proc", "/proc", NULL);
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
