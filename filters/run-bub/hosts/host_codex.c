/* host_codex: the Codex CLI as Harbor's Codex agent and PowerContext
 * 1.4.1's PowerContextCodexAgent run it for one step (cli_host.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hosts/cli_host.h"
#include "hosts/cli_usage.h"
#include "json.h"
#include "text.h"

#define CODEX_HOME "/tmp/codex-home"
#define SECRETS    "/tmp/codex-secrets"
/* where the plugin's runtime outlives CODEX_HOME, which each step removes */
#define PLUGIN_ENV       CLI_INSTALLED_AGENT "/codex-plugin-env"
#define MARKETPLACE      CLI_PLUGIN_SOURCE "/integrations/codex"
#define MARKETPLACE_NAME "powercontext-local"

static const char *const plugin_paths[] = { "integrations/codex", NULL };
/* Harbor's Codex takes the key from the agent's environment or its own,
 * the base URL likewise */
static const char *const model_env[] = { "OPENAI_API_KEY", "OPENAI_BASE_URL", NULL };

/* Once per trial, ON only: the plugin's locked dependencies synced from a
 * writable copy of the provisioned cache, offline (uv cannot lock a
 * read-only cache). */
static char *install_command(void)
{
	return text_fmt(
		"set -eu; cp -a %s %s/uv-cache; UV_OFFLINE=1 UV_PYTHON_DOWNLOADS=never UV_CACHE_DIR=%s/uv-cache UV_PROJECT_ENVIRONMENT=%s UV_PYTHON_INSTALL_DIR=%s/uv-python uv sync --quiet --frozen --no-install-project --project %s/plugins/powercontext; mkdir -p %s/uv-python",
		CLI_UV_CACHE, CLI_INSTALLED_AGENT, CLI_INSTALLED_AGENT, PLUGIN_ENV,
		CLI_INSTALLED_AGENT, MARKETPLACE, CLI_INSTALLED_AGENT);
}

/* Sets the MCP server's URL in the installed plugin's .mcp.json:
 * python -c REWRITE_MCP_URL PATH URL. */
static const char REWRITE_MCP_URL[] = "import json, sys\n"
				      "mcp, url = sys.argv[1], sys.argv[2]\n"
				      "with open(mcp, encoding='utf-8') as f:\n"
				      "    doc = json.load(f)\n"
				      "doc['mcpServers']['powercontext']['url'] = url\n"
				      "with open(mcp, 'w', encoding='utf-8') as f:\n"
				      "    json.dump(doc, f, indent=2)\n";

/* ON: the plugin added to this step's CODEX_HOME, its copy's environment
 * linked to the synced one, its .mcp.json pointed at the Server (the only
 * place the plugin reads the Server's URL from). */
static void add_plugin(struct sbuf *b, const char *server_url)
{
	size_t n = strlen(server_url);
	while (n > 0 && server_url[n - 1] == '/')
		n--;
	char *url = text_fmt("%.*s/mcp/", (int)n, server_url), *quoted = cli_quote(url);
	char *program = cli_quote(REWRITE_MCP_URL);

	sbuf_add(b, "\nset -eu\n");
	sbuf_addf(b, "codex plugin marketplace add %s >/dev/null\n", MARKETPLACE);
	sbuf_addf(b, "codex plugin add powercontext@%s >/dev/null\n", MARKETPLACE_NAME);
	sbuf_addf(b, "for plugin_root in \"$CODEX_HOME\"/plugins/cache/%s/powercontext/*; do\n",
		  MARKETPLACE_NAME);
	sbuf_add(b, "  rm -rf \"$plugin_root/.venv\"\n");
	sbuf_addf(b, "  ln -s %s \"$plugin_root/.venv\"\n", PLUGIN_ENV);
	sbuf_addf(b, "  %s/bin/python -c %s \"$plugin_root/.mcp.json\" %s\ndone", PLUGIN_ENV,
		  program, quoted);
	free(program);
	free(url);
	free(quoted);
}

static char *setup_command(const struct cli_step *s)
{
	struct sbuf b = { 0 };
	const char *base = getenv("OPENAI_BASE_URL");

	sbuf_add(&b, "mkdir -p \"$CODEX_HOME\" " SECRETS " /logs/agent\n"
		     "cat >" SECRETS "/auth.json <<EOF\n{\n  \"OPENAI_API_KEY\": \"${OPENAI_API_KEY}\"\n}\n"
		     "EOF\nln -sf " SECRETS "/auth.json \"$CODEX_HOME/auth.json\"\n");
	if (base && *base)
		sbuf_add(&b, "\ncat >>\"$CODEX_HOME/config.toml\" <<TOML\n"
			     "openai_base_url = \"${OPENAI_BASE_URL}\"\nTOML");
	if (s->on)
		add_plugin(&b, s->server_url);
	return sbuf_take(&b);
}

static char *run_command(const struct cli_step *s)
{
	const char *slash = strrchr(s->model, '/');
	char *model = cli_quote(slash ? slash + 1 : s->model);
	char *effort = cli_quote(cli_reasoning_effort(&cli_codex));
	char *instruction = cli_quote(s->instruction);
	char *cmd = text_fmt(
		"codex exec --dangerously-bypass-approvals-and-sandbox --skip-git-repo-check --model %s --json --enable unified_exec -c model_reasoning_effort=%s %s-- %s 2>&1 </dev/null | tee /logs/agent/codex.txt",
		model, effort, s->on ? "--enable plugins --dangerously-bypass-hook-trust " : "",
		instruction);

	free(model);
	free(effort);
	free(instruction);
	return cmd;
}

static void codex_commands(const struct cli_step *s, int first, struct cli_commands *out)
{
	out->install = first && s->on ? install_command() : NULL;
	out->setup = setup_command(s);
	out->run = run_command(s);
	out->finally = pc_xstrdup("mkdir -p /logs/agent\n"
				  "if [ -d \"$CODEX_HOME/sessions\" ]; then\n"
				  "  rm -rf /logs/agent/sessions\n"
				  "  cp -R \"$CODEX_HOME/sessions\" /logs/agent/sessions\n"
				  "fi; rm -rf " SECRETS " \"$CODEX_HOME\"");
}

static void codex_env(const struct cli_step *s, struct envv *e)
{
	const char *key = getenv("OPENAI_API_KEY");

	(void)s;
	env_set(e, "CODEX_HOME", CODEX_HOME);
	env_set(e, "OPENAI_API_KEY", key ? key : "");
	env_forward(e, "OPENAI_BASE_URL");
}

/* The last token_count event that has totals, in the rollout line (borrowed). */
static void take_token_count(void *ctx, jv line)
{
	jv *last = ctx;
	jv info = json_at(line, "payload.info");
	jv payload = json_at(line, "payload.type");
	const char *type = json_str(line, "type");
	jv totals = json_get(info, "total_token_usage");

	if (type && !strcmp(type, "event_msg") && jv_get_kind(payload) == JV_KIND_STRING &&
	    !strcmp(jv_string_value(payload), "token_count") &&
	    jv_get_kind(totals) == JV_KIND_OBJECT) {
		jv_free(*last);
		*last = jv_copy(info);
	}
	jv_free(payload);
	jv_free(totals);
	jv_free(info);
}

/* Harbor's Codex figures: the session's last token totals; its cost is
 * the CLI's own when it gives one, else LiteLLM's price, which the local
 * runner has not (null). */
static jv codex_usage(const char *agent_dir)
{
	char *sessions = text_fmt("%s/sessions", agent_dir);
	jv info = jv_null();

	/* sessions/YYYY/MM/DD/rollout-….jsonl */
	cli_each_line(sessions, 8, take_token_count, &info);
	free(sessions);
	if (jv_get_kind(info) != JV_KIND_OBJECT) {
		jv_free(info);
		return cli_figures(jv_null(), jv_null(), jv_null(), jv_null());
	}
	jv totals = json_get(info, "total_token_usage");
	jv cost = json_get(info, "total_cost");
	if (jv_get_kind(cost) == JV_KIND_NULL || !jv_is_valid(cost))
		jv_free(cost), cost = json_get(info, "cost_usd");
	jv figures = cli_figures(cli_count(json_get(totals, "input_tokens")),
				 cli_count(json_get(totals, "cached_input_tokens")),
				 cli_count(json_get(totals, "output_tokens")), cost);
	jv_free(totals);
	jv_free(info);
	return figures;
}

const struct cli_host cli_codex = {
	.name = "codex",
	.plugin_prefix = "POWERCONTEXT_CODEX_",
	.settings_prefix = "POWERCONTEXT_E2E_CODEX_",
	.output_file = "codex.txt",
	.bin_depth = 1,
	.plugin_paths = plugin_paths,
	.plugin_uv = 1,
	.harbor_agent = "pc_e2e_harbor.hosts:CodexAgent",
	.model_env = model_env,
	.commands = codex_commands,
	.env = codex_env,
	.usage = codex_usage,
};
