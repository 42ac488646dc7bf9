#!/usr/bin/env bats
# Codex and Claude Code as paired hosts on the local runner (docs/DESIGN.md
# §5.5, "A command-line host"): each arm's steps run the host's own CLI in
# the sandbox, against a real Server of the release under test (access mode
# enforced, authenticated) and tests/peers/cli_model_peer.py as the model.
# The hosts come from pipelines/pc-powercontext codex and claude-code (the
# directory holding host.json); POWERCONTEXT_E2E_HOST_DIR_CODEX and
# POWERCONTEXT_E2E_HOST_DIR_CLAUDE_CODE name another provisioned one.

load test_helper
load exec_helper

ID=api-version-continuation
TOKEN=pc-e2e-hosts-test-token-5b1e93a7
KEY=pc-e2e-hosts-test-model-key-2f7c

setup_file() {
	exec_setup_file
	# the extractor's endpoint is never called: these arms' checks read
	# the Server's figures, not Memory
	env POWERCONTEXT_CLIENT_API_TOKEN=$TOKEN POWERCONTEXT_E2E_ACCESS_MODE=enforced \
		POWERCONTEXT_SERVER_INFERENCE_GENERATION_MODEL=openai-chat:pc-e2e-scripted/extractor \
		OPENAI_BASE_URL=http://127.0.0.1:9/v1 OPENAI_API_KEY=scripted-model-takes-no-key \
		"$REPO/pipelines/pc-server" start "$BATS_FILE_TMPDIR/server" \
		>"$BATS_FILE_TMPDIR/server.start.out" 2>"$BATS_FILE_TMPDIR/server.start.err" 3>&-
	echo server >"$BATS_FILE_TMPDIR/servers"
	[[ -s $BATS_FILE_TMPDIR/server/url ]] || {
		cat "$BATS_FILE_TMPDIR/server.start.err" >&2
		return 1
	}
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_paired_setup "$TOKEN"
	# the hosts' pins, which --host reads (pipelines/paired sets it)
	POWERCONTEXT_E2E_HOSTS=$("$REPO/pipelines/pc-powercontext" hosts 3>&-)
	export POWERCONTEXT_E2E_HOSTS
}

teardown() {
	if [[ -n ${MODEL_PID:-} ]]; then kill "$MODEL_PID" 2>/dev/null || true; fi
}

# host_dir HOST: the provisioned host's directory.
host_dir() {
	local var=POWERCONTEXT_E2E_HOST_DIR_${1^^}
	var=${var//-/_}
	if [[ -n ${!var:-} ]]; then
		echo "${!var}"
	else
		"$REPO/pipelines/pc-powercontext" "$1" 3>&-
	fi
}

# model [--fail STATUS]: the test peer model, its endpoints exported as
# both hosts read them.
model() {
	"$EXEC_PYTHON" "$REPO/tests/peers/cli_model_peer.py" --port-file "$T/model.port" \
		--log "$T/model.log" "$@" 3>&- &
	MODEL_PID=$!
	local i
	for ((i = 0; i < 100; i++)); do
		[[ -s $T/model.port ]] && break
		sleep 0.1
	done
	local url
	url=http://127.0.0.1:$(<"$T/model.port")
	export OPENAI_BASE_URL=$url/v1 OPENAI_API_KEY=$KEY ANTHROPIC_BASE_URL=$url \
		ANTHROPIC_API_KEY=$KEY CLAUDE_CODE_MAX_RETRIES=1
}

# paired HOST: both arms of one trial on HOST, observed into $OUT.
paired() {
	POWERCONTEXT_E2E_HOST_DIR=$(host_dir "$1") || fail "no provisioned $1"
	export POWERCONTEXT_E2E_HOST_DIR
	exec_run_bub "$T/selection.jsonl" --paired --trials 1 --host "$1"
	assert_exit 0
	[[ $(wc -l <"$T/records.jsonl") == 2 ]] || fail "$(cat "$T/records.jsonl")"
	run --separate-stderr timeout -k 10 "$EXEC_LIMIT" pc-normalize --paired --output "$OUT" \
		<"$T/records.jsonl"
	assert_exit 0
	save_stdout "$T/observations.jsonl"
	schema_ok e2e-paired-arm "$T/observations.jsonl"
}

# trial ARM: the arm's trial directory.
trial() {
	jq -r --arg arm "$1" 'select(.run_id | contains("-" + $arm + "-")) | .trial_dir' \
		"$T/records.jsonl"
}

# arm ARM FILTER: FILTER over ARM's observation, raw.
arm() {
	jq -r "$2" "$OUT/$ID/trial-1/$1/observation.json"
}

# the Server's figure PATH of the ON arm's Scope
on_figure() {
	local scope
	scope=$(jq -r 'select(.scope_id != null) | .scope_id' "$T/records.jsonl")
	curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
		-d "{\"selection\": {\"mode\": \"exact\", \"scope_ids\": [\"$scope\"]}}" \
		"$(exec_server_url server)/v1/stats" | jq -r "$1"
}

# arms_ran HOST FILE: each arm's steps left Harbor's files for HOST (its
# output FILE), their figures are non-zero, the ON arm's plugin reached the
# Server and the OFF arm's sandbox held nothing of PowerContext.
arms_ran() {
	local a step dir
	for a in off on; do
		dir=$(trial "$a")
		for step in capture recall; do
			assert_files "$dir/steps/$step/agent/$2"
			[[ -n $(find "$dir/steps/$step/agent/sessions" -name '*.jsonl') ]] ||
				fail "$a $step: no session in agent/sessions"
		done
		jq -e '[.step_results[] | .exception_info == null and .agent_result.n_input_tokens > 0
			and .agent_result.n_output_tokens > 0] | all' "$dir/result.json" >/dev/null ||
			fail "$a: $(jq -c '.step_results[] | [.agent_result, .exception_info]' "$dir/result.json")"
		[[ $(arm "$a" '[.steps[].input_tokens > 0] | all') == true ]] ||
			fail "$a observation: $(arm "$a" -c .steps)"
	done
	assert_contains "$(<"$(trial on)/workspace/cli-peer.txt")" "${3}SCOPE_ID" "ON sandbox"
	assert_contains "$(<"$(trial on)/workspace/cli-peer.txt")" /opt/powercontext "ON sandbox"
	[[ $(grep -v -c '^cli-peer-ran$' "$(trial off)/workspace/cli-peer.txt") == 0 ]] ||
		fail "OFF sandbox: $(cat "$(trial off)/workspace/cli-peer.txt")"
	[[ $(on_figure .inventory.sources.total) -gt 0 ]] || fail "the ON arm captured no Source"
	[[ $(on_figure .recall.totals.preparations) -gt 0 ]] || fail "the ON arm prepared no context"
	! grep -rqF -e "$TOKEN" -e "$KEY" "$OUT" "$T/records.jsonl" || fail "a secret in $(grep -rlF -e "$TOKEN" -e "$KEY" "$OUT")"
}

@test "codex: each arm's steps run Codex in the sandbox; ON's plugin reaches the Server, OFF has nothing of it; token figures are Codex's" {
	model
	paired codex
	arms_ran codex codex.txt POWERCONTEXT_CODEX_
}

@test "claude-code: each arm's steps run Claude Code in the sandbox; ON's plugin reaches the Server, OFF has nothing of it; token figures are Claude's" {
	model
	paired claude-code
	arms_ran claude-code claude-code.txt POWERCONTEXT_CLAUDE_
	[[ $(arm on '.steps[0].cost_usd > 0') == true ]] || fail "$(arm on -c .steps)"
}

@test "a model request that fails is an error of the arm on both hosts, typed as Harbor types it" {
	model --fail 500
	paired claude-code
	[[ $(arm off .outcome) == error && $(arm on .outcome) == error ]] ||
		fail "$(arm off .outcome) $(arm on .outcome)"
	jq -e '.step_results[0].exception_info.exception_type == "NonZeroAgentExitCodeError"' \
		"$(trial on)/result.json" >/dev/null || fail "$(jq -c .step_results[0].exception_info "$(trial on)/result.json")"
	kill "$MODEL_PID"
	rm -rf "$OUT" "$T/model.port"
	# a 429 ends Codex's turn at once (a 500 is retried for about 25 s)
	model --fail 429
	paired codex
	[[ $(arm off .outcome) == error && $(arm on .outcome) == error ]] ||
		fail "$(arm off .outcome) $(arm on .outcome)"
	jq -e '.step_results[0].exception_info.exception_type == "ApiRateLimitError"' \
		"$(trial off)/result.json" >/dev/null || fail "$(jq -c .step_results[0].exception_info "$(trial off)/result.json")"
}

@test "--host codex without a provisioned host, or in a --harbor-env sandbox, is refused before anything runs" {
	POWERCONTEXT_E2E_HOST_DIR=
	exec_run_bub "$T/selection.jsonl" --paired --trials 1 --host codex
	assert_exit 1
	assert_stderr_contains "--host codex needs POWERCONTEXT_E2E_HOST_DIR"
	[[ ! -e $OUT/$ID ]] || fail "an arm ran"
	POWERCONTEXT_E2E_HOST_DIR=$(host_dir codex)
	export POWERCONTEXT_E2E_HOST_DIR
	exec_run_bub "$T/selection.jsonl" --paired --trials 1 --host codex --runner harbor --harbor-env daytona
	assert_exit 1
	assert_stderr_contains "--host codex runs the host provisioned on this machine (pipelines/pc-powercontext codex), which a --harbor-env daytona sandbox cannot bind"
	[[ ! -e $OUT/$ID ]] || fail "an arm ran"
}
