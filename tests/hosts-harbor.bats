#!/usr/bin/env bats
# Codex and Claude Code as paired hosts on the Harbor runner (docs/DESIGN.md
# §5.11): `pipelines/paired RUNNER=harbor HOST=…` hands each arm to the real
# Harbor CLI, which runs PowerContext 1.4.1's own PowerContextCodexAgent or
# PowerContextClaudeCodeAgent (python/pc_e2e_harbor/hosts.py: only their
# download replaced by the provisioned wheel's binary) in the bubblewrap
# environment, against the scripted model and a Server of the release with
# access enforced. The same workload on the local runner observes the same.

load test_helper
load exec_helper

ID=api-version-continuation
TOKEN=pc-e2e-hosts-harbor-token-61c2d8e4

setup_file() {
	# the Harbor venv, built before the suites run (tests/bin/provision reads this line)
	"$REPO/pipelines/pc-powercontext" harbor >/dev/null 3>&-
}

setup() {
	pc_setup
	[[ -z ${PC_SANITIZED:-} ]] || skip "paired runs through the real hosts: their C is covered by hosts-local.bats"
}

# paired RUNNER HOST: one trial of $ID on HOST through pipelines/paired,
# into $T/RUNNER; the caller's token, so the test knows what must not leak.
paired() {
	run --separate-stderr env OUTPUT="$T/$1" TRIALS=1 RUNNER="$1" HOST="$2" \
		POWERCONTEXT_CLIENT_API_TOKEN=$TOKEN timeout -k 10 900 "$REPO/pipelines/paired" --id "$ID"
	assert_exit 0
}

# config ARM: the JobConfig Harbor recorded for ARM's job; trial ARM: its trial.
config() {
	find "$T/harbor/$ID/trial-1/$1/harbor-jobs" -mindepth 2 -maxdepth 2 -name config.json
}
trial() {
	dirname "$(find "$T/harbor/$ID/trial-1/$1/harbor-jobs" -mindepth 3 -maxdepth 3 -name result.json)"
}

# figures RUNNER ARM: what the arm observed, as both runners must agree on it.
figures() {
	jq -c '[.outcome, .step_rewards, [.steps[] | [.input_tokens, .cache_tokens, .output_tokens, .cost_usd]]]' \
		"$T/$1/$ID/trial-1/$2/observation.json"
}

# harbor_ran HOST CLASS OUTPUT PIN: both arms ran 1.4.1's agent class for
# HOST, wrapped by pc-e2e's, on the provisioned host at its pin; each step
# left the host's OUTPUT; ON passed and OFF failed; ON had the plugin's
# settings, the token only by reference, and the release's plugin bound;
# OFF had nothing of PowerContext.
harbor_ran() {
	local arm dir
	for arm in off on; do
		dir=$(trial "$arm")
		assert_equal "$(jq -r '.agents[0].import_path' "$(config "$arm")")" "pc_e2e_harbor.hosts:$2"
		assert_equal "$(jq -r '.agent_info | "\(.name) \(.version)"' "$dir/result.json")" "$1 $4"
		jq -e '[.step_results[] | .exception_info == null and .agent_result.n_input_tokens > 0] | all' \
			"$dir/result.json" >/dev/null || fail "$arm: $(jq -c '[.step_results[] | .exception_info]' "$dir/result.json")"
		assert_files "$dir/steps/capture/agent/$3" "$dir/steps/recall/agent/$3"
		# /tmp lasts for the trial only, as a deleted container's
		[[ ! -e $dir/sandbox/tmp ]] || fail "$arm: the sandbox's /tmp outlived the trial"
	done
	assert_equal "$(jq -r .outcome "$T/harbor/$ID/trial-1/off/observation.json")" failed
	assert_equal "$(jq -r .outcome "$T/harbor/$ID/trial-1/on/observation.json")" passed
	jq -e '.agents[0] | .kwargs.powercontext == true and (.env | to_entries
		| any(.value | test("^[$][{]POWERCONTEXT_E2E_AGENT_SECRET_[A-Z]+_AUTHORIZATION[}]$"))
		and any(.key | endswith("_SCOPE_ID")))' "$(config on)" >/dev/null || fail "ON agent: $(jq -c .agents "$(config on)")"
	jq -e '[.environment.mounts[].target] | any(startswith("/opt/powercontext/source/"))' "$(config on)" >/dev/null ||
		fail "ON mounts: $(jq -c .environment.mounts "$(config on)")"
	jq -e '.agents[0] | .kwargs.powercontext == false and .env == {}' "$(config off)" >/dev/null ||
		fail "OFF agent: $(jq -c .agents "$(config off)")"
	jq -e --arg host "/opt/pc-e2e-host/$1" '[.environment.mounts[].target] == [$host]' "$(config off)" >/dev/null ||
		fail "OFF mounts: $(jq -c .environment.mounts "$(config off)")"
	! grep -rlF "$TOKEN" "$T/harbor/$ID" || fail "the token is in a file of the arms above"
}

# agree HOST: the local runner's arms of the same trial observe what Harbor's did.
agree() {
	paired local "$1"
	local arm
	for arm in off on; do
		assert_equal "$(figures local "$arm")" "$(figures harbor "$arm")"
	done
}

@test "codex on the Harbor runner: 1.4.1's PowerContextCodexAgent on the provisioned Codex; ON passes with its plugin synced offline, OFF fails without it; the local runner agrees" {
	paired harbor codex
	harbor_ran codex CodexAgent codex.txt "$(jq -r .version "$("$REPO/pipelines/pc-powercontext" codex)/host.json")"
	# the plugin's runtime, synced once per trial in ON only
	[[ -x $(trial on)/sandbox/installed-agent/codex-plugin-env/bin/python ]] || fail "ON synced no plugin runtime"
	[[ ! -e $(trial off)/sandbox/installed-agent/codex-plugin-env ]] || fail "OFF has the plugin's runtime"
	agree codex
}

@test "claude-code on the Harbor runner: 1.4.1's PowerContextClaudeCodeAgent on the Agent SDK's Claude Code; ON passes with its plugin, OFF fails without it; the local runner agrees" {
	paired harbor claude-code
	harbor_ran claude-code ClaudeCodeAgent claude-code.txt \
		"$(jq -r .version "$("$REPO/pipelines/pc-powercontext" claude-code)/host.json")"
	# the plugin, installed into each ON session's home only
	jq -e '.enabledPlugins["powercontext@powercontext"] == true' \
		"$(trial on)/steps/recall/agent/sessions/settings.json" >/dev/null || fail "ON has no plugin enabled"
	! grep -rqs powercontext "$(trial off)/steps/recall/agent/sessions/settings.json" || fail "OFF has the plugin"
	agree claude-code
}
