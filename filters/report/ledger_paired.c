/* ledger_paired: a paired run's arms in the ledger (ledger_paired.h). */
#include "ledger_paired.h"

#include <string.h>

#include "hash.h"
#include "json.h"
#include "ledger_record.h"

/* The verdict column holds 16 bytes: the two outcomes longer than that
 * are recorded by their first word. */
static const char *arm_verdict(const char *outcome)
{
	if (!strcmp(outcome, "integration_failed"))
		return "integration";
	if (!strcmp(outcome, "cross_scope_access"))
		return "cross_scope";
	return outcome;
}

/* The experiment column: the report's experiment, "PREFIX:paired:HOST:"
 * and its workload ids; when that is longer than the column (a run of
 * fifty dialogues), its workload ids give way to the sha256 of the whole,
 * which the arms' key (pc_e2e_keys) holds in full. */
static jv experiment_column(const char *experiment)
{
	size_t n = strlen(experiment);
	char hex[SHA256_HEX_LEN + 1];

	if (n <= LEDGER_KEY_MAX)
		return jv_string(experiment);
	sha256_hex(experiment, n, hex);
	const char *paired = strstr(experiment, ":paired:");
	const char *ids = paired ? strchr(paired + strlen(":paired:"), ':') : NULL;
	size_t head = ids ? (size_t)(ids - experiment) : 0;
	if (head + strlen(":sha256:") + SHA256_HEX_LEN > LEDGER_KEY_MAX)
		head = 0;
	return head ? jv_string_fmt("%.*s:sha256:%s", (int)head, experiment, hex)
		    : jv_string_fmt("sha256:%s", hex);
}

/* An arm's comparability key: never equal to an acceptance case's, and
 * one series per arm of an experiment on one model configuration. */
static jv arm_key(jv observation, const char *experiment)
{
	jv env = json_get(observation, "environment");
	jv key = JV_OBJECT(jv_string("paired"), jv_true(), jv_string("experiment"),
			   jv_string(experiment), jv_string("arm"), json_get(observation, "arm"));
	static const char *const from_env[] = { "database", "adapter", "adapter_version",
						"adapter_protocol_version", "agent_model" };

	for (size_t i = 0; i < sizeof from_env / sizeof *from_env; i++)
		key = jv_object_set(key, jv_string(from_env[i]), json_at(env, from_env[i]));
	jv_free(env);
	return key;
}

/* The account (owned, null when none) in accounts (borrowed) of run_id. */
static jv account_of(jv accounts, const char *run_id)
{
	jv_array_foreach(accounts, i, account) {
		const char *id = json_str(account, "run_id");
		if (id && !strcmp(id, run_id))
			return account;
		jv_free(account);
	}
	return jv_null();
}

/* The spend's figures, by role then in all, as pc_e2e_values names them. */
static const char *const spend_names[] = {
	"agent.input_tokens", "agent.cached_tokens", "agent.output_tokens",
	"agent.usd", "extraction.input_tokens", "extraction.output_tokens",
	"extraction.usd", "usd"
};

/* The fault's fields; its words are the first one's reason. */
static const char *const fault_names[] = { "class", "kind", "step",
					   "status", "transient", "retry_after" };

static void record_account(struct ledger_pass *p, jv run_id, jv experiment, jv account)
{
	jv spend = json_get(account, "spend"), fault = json_get(account, "fault");
	int seq = 0;

	for (size_t i = 0; i < sizeof spend_names / sizeof *spend_names; i++)
		ledger_put_value(p, run_id, experiment, "spend", (int)i,
				 jv_string(spend_names[i]), json_at(spend, spend_names[i]),
				 jv_null());
	for (size_t i = 0; jv_get_kind(fault) == JV_KIND_OBJECT && i < 6; i++) {
		jv value = jv_object_get(jv_copy(fault), jv_string(fault_names[i]));
		if (!jv_is_valid(value)) {
			jv_free(value);
			continue;
		}
		jv words = i ? jv_null() : json_string_or_null(json_str(fault, "words"));
		ledger_put_value(p, run_id, experiment, "fault", seq++, jv_string(fault_names[i]),
				 value, words);
	}
	jv_free(spend);
	jv_free(fault);
}

/* The arms' names of their columns, as an error says them. */
static const char *const arm_named[] = { "its run_id", "the paired report's experiment",
					 "its task_id", "its environment.commit",
					 "its environment.finished_at" };

struct arms {
	jv report, observations, accounts; /* borrowed */
};

static void record_arm(struct ledger_pass *p, const char *experiment, jv observation,
		       jv accounts)
{
	const char *run_id = json_str(observation, "run_id");
	jv env = json_get(observation, "environment");
	struct ledger_case row = { jv_string(run_id),
				   experiment_column(experiment),
				   json_get(observation, "task_id"),
				   json_string_or_null(json_str(env, "finished_at")),
				   json_string_or_null(json_str(env, "commit")),
				   arm_key(observation, experiment),
				   arm_verdict(json_str(observation, "outcome")),
				   arm_named };
	jv id = jv_copy(row.run_id), column = jv_copy(row.experiment);

	jv_free(env);
	ledger_put_case(p, &row);
	jv account = account_of(accounts, run_id);
	if (jv_get_kind(account) == JV_KIND_OBJECT)
		record_account(p, id, column, account);
	if (p->rc != 0)
		pc_wrap(p->e, "arm %s: ", run_id);
	jv_free(account);
	jv_free(id);
	jv_free(column);
}

static void record_arms(struct ledger_pass *p, void *ctx)
{
	struct arms *a = ctx;
	const char *experiment = json_str(a->report, "experiment");

	jv_array_foreach(a->observations, i, observation) {
		if (p->rc == 0)
			record_arm(p, experiment, observation, a->accounts);
		jv_free(observation);
	}
}

int ledger_write_paired(const struct ledger_url *u, jv report, jv observations, jv accounts,
			struct pc_err *e)
{
	struct arms a = { report, observations, accounts };

	if (jv_array_length(jv_copy(observations)) == 0)
		return pc_fail(e, "ledger %s: no arm followed the report: nothing was recorded",
			       u->shown);
	struct ledger *l = ledger_open(u, e);
	int rc = !l || ledger_record(l, record_arms, &a, e) != 0 ? -1 : 0;

	ledger_close(l);
	return rc;
}
