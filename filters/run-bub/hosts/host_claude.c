/* host_claude: Claude Code as Harbor's ClaudeCode agent and PowerContext
 * 1.4.1's PowerContextClaudeCodeAgent run it for one step (cli_host.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hosts/cli_host.h"
#include "hosts/cli_usage.h"
#include "json.h"
#include "text.h"

/* the per-step home: Harbor moves /logs/agent into the step's agent/ */
#define CONFIG_DIR "/logs/agent/sessions"
#define LOCAL_BIN  "export PATH=\"$HOME/.local/bin:$PATH\""

static const char *const plugin_paths[] = { ".claude-plugin/marketplace.json",
					    "integrations/claude-code", NULL };
/* what Harbor's ClaudeCode reads from its own environment for the model
 * (the base URL and the output cap from there only) */
static const char *const model_env[] = { "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
					 "ANTHROPIC_BASE_URL", "CLAUDE_CODE_MAX_OUTPUT_TOKENS", NULL };

static char *setup_command(const struct cli_step *s)
{
	struct sbuf b = { 0 };

	sbuf_add(
		&b,
		"mkdir -p $CLAUDE_CONFIG_DIR/debug $CLAUDE_CONFIG_DIR/projects/-app $CLAUDE_CONFIG_DIR/shell-snapshots $CLAUDE_CONFIG_DIR/statsig $CLAUDE_CONFIG_DIR/todos $CLAUDE_CONFIG_DIR/skills && if [ -d ~/.claude/skills ]; then cp -r ~/.claude/skills/. $CLAUDE_CONFIG_DIR/skills/ 2>/dev/null || true; fi");
	if (s->on) {
		/* the plugin's MCP connection reads the Server only from this option */
		size_t n = strlen(s->server_url);
		while (n > 0 && s->server_url[n - 1] == '/')
			n--;
		char *option = text_fmt("server_url=%.*s", (int)n, s->server_url);
		char *quoted = cli_quote(option);
		sbuf_addf(
			&b,
			" && (set -e; %s; claude plugin marketplace add %s --scope user >/dev/null; claude plugin install powercontext@powercontext --scope user --config %s >/dev/null)",
			LOCAL_BIN, CLI_PLUGIN_SOURCE, quoted);
		free(option);
		free(quoted);
	}
	return sbuf_take(&b);
}

static void claude_commands(const struct cli_step *s, int first, struct cli_commands *out)
{
	char *effort = cli_quote(cli_reasoning_effort(&cli_claude_code));
	char *instruction = cli_quote(s->instruction);

	(void)first;
	out->install = NULL;
	out->setup = setup_command(s);
	out->run = text_fmt(
		"%s; claude --verbose --output-format=stream-json --effort %s --permission-mode=bypassPermissions --print -- %s 2>&1 </dev/null | tee /logs/agent/claude-code.txt",
		LOCAL_BIN, effort, instruction);
	out->finally = NULL;
	free(effort);
	free(instruction);
}

static void claude_env(const struct cli_step *s, struct envv *e)
{
	const char *key = getenv("ANTHROPIC_API_KEY"), *base = getenv("ANTHROPIC_BASE_URL");
	static const char *const aliases[] = { "ANTHROPIC_DEFAULT_SONNET_MODEL",
					       "ANTHROPIC_DEFAULT_OPUS_MODEL",
					       "ANTHROPIC_DEFAULT_HAIKU_MODEL",
					       "CLAUDE_CODE_SUBAGENT_MODEL" };
	const char *slash = strrchr(s->model, '/');

	if (!key || !*key)
		key = getenv("ANTHROPIC_AUTH_TOKEN");
	if (key && *key)
		env_set(e, "ANTHROPIC_API_KEY", key);
	env_forward(e, "ANTHROPIC_BASE_URL");
	env_forward(e, "CLAUDE_CODE_MAX_OUTPUT_TOKENS");
	env_set(e, "FORCE_AUTO_BACKGROUND_TASKS", "1");
	env_set(e, "ENABLE_BACKGROUND_TASKS", "1");
	/* a custom endpoint keeps the whole model name, and every alias is it */
	env_set(e, "ANTHROPIC_MODEL", base && *base ? s->model : slash ? slash + 1
								       : s->model);
	for (size_t i = 0; base && *base && i < sizeof aliases / sizeof *aliases; i++)
		env_set(e, aliases[i], s->model);
	env_set(e, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
	env_set(e, "IS_SANDBOX", "1");
	/* no telemetry left behind by `claude plugin` offline */
	env_set(e, "DISABLE_TELEMETRY", "1");
	/* tests bound the CLI's retries of a failing model, and its wait for a
	 * stalled one (a stall is then an error, not the agent's timeout) */
	env_forward(e, "CLAUDE_CODE_MAX_RETRIES");
	env_forward(e, "API_TIMEOUT_MS");
	env_set(e, "CLAUDE_CONFIG_DIR", CONFIG_DIR);
}

/* Harbor's reading of the session: events deduplicated by uuid, each
 * assistant message's last usage by message id. */
struct session_usage {
	jv uuids;   /* {uuid: true} */
	jv by_id;   /* {message id: usage} */
	jv without; /* usages of messages without an id */
};

static void take_usage(void *ctx, jv line)
{
	struct session_usage *u = ctx;
	const char *uuid = json_str(line, "uuid"), *type = json_str(line, "type");

	if (uuid && *uuid) {
		if (json_has_true(u->uuids, uuid))
			return;
		u->uuids = jv_object_set(u->uuids, jv_string(uuid), jv_true());
	}
	jv usage = json_at(line, "message.usage");
	jv id = json_at(line, "message.id");
	if (!type || strcmp(type, "assistant") || jv_get_kind(usage) == JV_KIND_NULL)
		jv_free(usage);
	else if (jv_get_kind(id) == JV_KIND_STRING && jv_string_length_bytes(jv_copy(id)) > 0)
		u->by_id = jv_object_set(u->by_id, jv_copy(id), usage);
	else
		u->without = jv_array_append(u->without, usage);
	jv_free(id);
}

static double field(jv usage, const char *key)
{
	jv v = cli_count(json_get(usage, key));
	double n = jv_number_value(v);

	jv_free(v);
	return n;
}

/* The first result line's total_cost_usd, as Harbor reads claude-code.txt. */
static void take_cost(void *ctx, jv line)
{
	jv *cost = ctx;
	const char *type = json_str(line, "type");

	if (jv_is_valid(*cost) || !type || strcmp(type, "result"))
		return;
	jv v = json_get(line, "total_cost_usd");
	*cost = jv_get_kind(v) == JV_KIND_NUMBER ? v : (jv_free(v), jv_null());
}

static jv claude_usage(const char *agent_dir)
{
	struct session_usage u = { jv_object(), jv_object(), jv_array() };
	char *projects = text_fmt("%s/sessions/projects", agent_dir);
	char *stream = text_fmt("%s/claude-code.txt", agent_dir);
	double prompt = 0, cached = 0, completion = 0;
	jv cost = jv_invalid();

	cli_each_line(projects, 1, take_usage, &u);
	jv_object_foreach(u.by_id, id, usage) {
		u.without = jv_array_append(u.without, usage);
		jv_free(id);
	}
	int n = jv_array_length(jv_copy(u.without));
	jv_array_foreach(u.without, i, usage) {
		cached += field(usage, "cache_read_input_tokens");
		prompt += field(usage, "input_tokens") + field(usage, "cache_read_input_tokens") +
			  field(usage, "cache_creation_input_tokens");
		completion += field(usage, "output_tokens");
		jv_free(usage);
	}
	cli_file_lines(stream, take_cost, &cost);
	free(projects);
	free(stream);
	jv_free(u.uuids);
	jv_free(u.by_id);
	jv_free(u.without);
	if (n == 0) {
		jv_free(cost);
		return cli_figures(jv_null(), jv_null(), jv_null(), jv_null());
	}
	return cli_figures(jv_number(prompt), jv_number(cached), jv_number(completion), cost);
}

const struct cli_host cli_claude_code = {
	.name = "claude-code",
	.plugin_prefix = "POWERCONTEXT_CLAUDE_",
	.settings_prefix = "POWERCONTEXT_E2E_CLAUDE_CODE_",
	.output_file = "claude-code.txt",
	.bin_depth = 0,
	.plugin_paths = plugin_paths,
	.plugin_uv = 0,
	.harbor_agent = "pc_e2e_harbor.hosts:ClaudeCodeAgent",
	.model_env = model_env,
	.commands = claude_commands,
	.env = claude_env,
	.usage = claude_usage,
};
