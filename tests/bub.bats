#!/usr/bin/env bats
# The real Bub (bub-acp-server with the release's own PowerContext plugin,
# provisioned by pipelines/pc-powercontext bub) under pc-run-bub's local runner,
# against a real PowerContext Server: agent resolution and the replay's
# adapter fields, comma-command replies, and how the failures of a comma
# command reach the record, the ACP evidence and the verdict
# (docs/DESIGN.md §5.7).
#
# Every test runs pc-run-bub's default agent resolution (PC_E2E_AGENT unset,
# no --agent), so each run is checked to have been Bub's.  Each workload
# costs Bub's start-up (a few seconds per step): keep the runs few.
# Do not add `,powercontext.context` without arguments: bub-acp-server 0.0.2
# hangs on it.

load test_helper
load exec_helper

ID=project-database-decision
TASK="$EXEC_TASKS/$ID"
# One-step tasks whose capture step fails in Bub, with their manifests.
BUB_TASKS="$REPO/tests/fixtures/bub-tasks"
ERROR_CHUNK="An error occurred at stage 'turn': "

# exec_setup_file provisions Bub (a missing Bub is a failure, not a skip).
setup_file() {
	exec_setup_file server
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
	BUB_ADAPTER=$POWERCONTEXT_E2E_BUB/pc-e2e-adapter.json
}

# bub_run SELECTION [PC-RUN-BUB ARGS...]: pc-run-bub (default agent) on one
# workload, which must exit 0 with one record of a run on the provisioned Bub.
bub_run() {
	exec_run_bub "$@"
	assert_exit 0
	[[ $(rec 'length' -s) == 1 ]] || fail "expected one record, got: $output"
	[[ $(rec_r .agent.info.name) == bub ]] ||
		fail "the agent was not Bub: $(rec .agent)
--- stderr ---
$stderr"
}

# bub_select ID: the selection of fixture workload ID in $T/selection.jsonl.
bub_select() {
	run --separate-stderr pc-select --manifests "$BUB_TASKS" --root "$REPO" --id "$1"
	assert_exit 0
	save_stdout "$T/selection.jsonl"
}

# chunks STEP: the texts of STEP's agent_message_chunk updates, a JSON array.
chunks() {
	jq -sc '[.[] | select(.event_type == "session_update" and .payload.update.sessionUpdate == "agent_message_chunk")
		| .payload.update.content.text]' "$(trial_dir)/steps/$1/agent/acp-events.jsonl"
}

# bub_failure ID STEP CAUSE...: the fixture workload ID, whose step STEP fails
# in Bub: pc-run-bub exits 0 with one failed record whose only error names
# STEP and every CAUSE; the step's evidence is on disk (acp-events.jsonl
# holds exactly Bub's one error chunk, acp-summary.json the error and no
# prompt response); nothing reached Memory; the verdict is inconclusive.
# The chunk's text is left in $CHUNK.
bub_failure() {
	local id=$1 step=$2 cause agent
	shift 2
	bub_select "$id"
	bub_run "$T/selection.jsonl"
	[[ $(rec_r .status) == failed ]] || fail "status is not failed: $(rec .errors)"
	[[ $(rec '.errors | length') == 1 ]] || fail "expected one error: $(rec .errors)"
	assert_contains "$(rec_r '.errors[0]')" "step $step: " "the error"
	for cause in "$@"; do
		assert_contains "$(rec_r '.errors[0]')" "$cause" "the error"
	done
	[[ $(rec .powercontext.memory_after.entries) == '[]' ]] ||
		fail "Memory is not empty: $(rec .powercontext.memory_after.entries)"

	agent="$(trial_dir)/steps/$step/agent"
	assert_files "$agent/acp-events.jsonl"
	assert_json_files "$agent/acp-summary.json"
	[[ $(jq -c .prompt_response "$agent/acp-summary.json") == null ]] ||
		fail "acp-summary.json has a prompt response: $(jq -c .prompt_response "$agent/acp-summary.json")"
	for cause in "$@"; do
		assert_contains "$(jq -r .error.message "$agent/acp-summary.json")" "$cause" "acp-summary.json error"
	done
	[[ $(chunks "$step" | jq length) == 1 ]] || fail "expected one chunk: $(chunks "$step")"
	CHUNK=$(chunks "$step" | jq -r '.[0]')
	[[ $CHUNK == "$ERROR_CHUNK"* ]] || fail "the chunk is not Bub's turn error: $CHUNK"

	exec_assert_inconclusive
	exec_report
	assert_exit 3
	assert_contains "$output" "inconclusive" "report"
}

@test "default agent: the release's Bub runs project-database-decision, records its installed versions, and is accepted" {
	exec_select "$ID"
	bub_run "$T/selection.jsonl"
	[[ $(rec_r .status) == completed ]] || fail "run not completed: $(rec .errors)"
	local want_cmd
	want_cmd=$(jq -r --arg d "$POWERCONTEXT_E2E_BUB" '[("\($d)/\(.command[0])"), .command[1:][]] | map("'"'"'\(.)'"'"'") | join(" ")' "$BUB_ADAPTER")
	[[ $(rec_r .agent.command) == "$want_cmd" ]] ||
		fail "not the provisioned Bub: $(rec_r .agent.command), expected $want_cmd"

	local want_adapter want_protocol
	want_adapter=$(jq -r .adapter_version "$BUB_ADAPTER")
	want_protocol=$(jq -r .adapter_protocol_version "$BUB_ADAPTER")
	[[ $want_adapter == "bub "*" + powercontext-bub "* && $want_protocol == "bub-acp-server "* ]] ||
		fail "unexpected $BUB_ADAPTER: $(jq -c . "$BUB_ADAPTER")"
	[[ $(rec_r .environment.adapter_version) == "$want_adapter" ]] ||
		fail "record adapter_version: $(rec_r .environment.adapter_version), expected $want_adapter"

	exec_normalize
	[[ $(jq -r .status "$T/replays.jsonl") == completed ]] || fail "replay status"
	[[ $(jq -r .environment.adapter_version "$T/replays.jsonl") == "$want_adapter" ]] ||
		fail "replay adapter_version: $(jq -r .environment.adapter_version "$T/replays.jsonl"), expected $want_adapter"
	[[ $(jq -r .environment.adapter_protocol_version "$T/replays.jsonl") == "$want_protocol" ]] ||
		fail "replay adapter_protocol_version: $(jq -r .environment.adapter_protocol_version "$T/replays.jsonl"), expected $want_protocol"

	exec_assert_accepted
}

@test "comma commands: remember replies 'Remembered <kind>: <text>', context replies with the prepared context" {
	local want text step
	# The reply Bub's plugin builds from the capture instruction's arguments,
	# split with shell-word rules as Bub does.
	want=$(python3 - "$TASK/steps/capture/instruction.md" <<-'EOF'
		import shlex, sys
		words = shlex.split(open(sys.argv[1], encoding="utf-8").read().strip().lstrip(","))
		args = dict(w.split("=", 1) for w in words[1:])
		print(f"Remembered {args['kind']}: {args['text']}")
	EOF
	)
	text=${want#*: }
	[[ $want == "Remembered project-decision: "*OceanBase* ]] || fail "unexpected capture instruction: $want"

	exec_select "$ID"
	bub_run "$T/selection.jsonl"
	[[ $(rec_r .status) == completed ]] || fail "run not completed: $(rec .errors)"

	[[ $(chunks capture) == "$(jq -cn --arg t "$want" '[$t]')" ]] ||
		fail "capture chunks: $(chunks capture)
expected exactly: [\"$want\"]"

	[[ $(chunks recall | jq length) == 1 ]] || fail "expected one recall chunk: $(chunks recall)"
	local recall
	recall=$(chunks recall | jq -r '.[0]')
	[[ $recall == "PowerContext prepared untrusted historical context."* ]] ||
		fail "recall chunk does not start with the prepared-context header: $recall"
	assert_contains "$recall" "OceanBase" "recall chunk"
	assert_contains "$recall" "BEGIN_POWERCONTEXT_PREPARED_CONTEXT_V1" "recall chunk"
	assert_contains "$recall" "$(jq -cn --arg t "$text" '$t')" "recall chunk"

	for step in capture recall; do
		[[ $(jq -r .prompt_response.stopReason "$(trial_dir)/steps/$step/agent/acp-summary.json") == end_turn ]] ||
			fail "$step stopReason: $(jq -c .prompt_response "$(trial_dir)/steps/$step/agent/acp-summary.json")"
	done
}

@test "unknown tool: the line falls through to the shell, run through the client's terminal: command not found, inconclusive" {
	bub_failure bub-unknown-tool capture "-32603" "powercontext_remember: command not found"
	assert_contains "$CHUNK" "command exited with code 127" "chunk"
	# the shell ran in the step's sandbox through terminal/create, its output kept
	grep -q "powercontext_remember: command not found" "$(trial_dir)/steps/capture/agent/terminal-1.txt" ||
		fail "terminal-1.txt: $(cat "$(trial_dir)/steps/capture/agent/terminal-1.txt")"
}

@test "malformed arguments: an unbalanced quote fails the turn with 'No closing quotation', inconclusive" {
	bub_failure bub-malformed-args capture "-32603" "No closing quotation"
	[[ $CHUNK == "${ERROR_CHUNK}No closing quotation" ]] || fail "chunk: $CHUNK"
}

@test "missing required argument: remember without text fails with -32602 Invalid params, inconclusive" {
	bub_failure bub-missing-arg capture "-32602" "Invalid params" '"loc":["text"]'
	assert_contains "$CHUNK" "Field required" "chunk"
}

@test "PowerContext stopped for the agent: the tools raise, nothing is remembered, inconclusive" {
	# The harness's own server stays up (readiness, Memory, probes); only
	# the agent's tools point at a closed port.
	local dead step agent
	dead=$(exec_closed_url)
	export POWERCONTEXT_BUB_BASE_URL="$dead"
	exec_select "$ID"
	bub_run "$T/selection.jsonl"
	[[ $(rec_r .status) == failed ]] || fail "status is not failed: $(rec .errors)"
	[[ $(rec .powercontext.readiness) != null ]] || fail "no readiness: the harness's server was not reached"
	[[ $(rec '[.errors[] | select(contains("readiness"))] | length') == 0 ]] ||
		fail "an error names readiness: $(rec .errors)"
	# Which request fails first is the plugin's business (1.4.1's resolves
	# the scope binding before it remembers); that one failed is the finding.
	[[ $(rec '[.errors[] | select(startswith("step capture: ") and contains("-32603")
		and test("request to /v1/[a-z/-]+ failed"))] | length') == 1 ]] ||
		fail "no error names step capture and a failed PowerContext request: $(rec .errors)"
	[[ $(rec .powercontext.memory_after.entries) == '[]' ]] ||
		fail "Memory is not empty: $(rec .powercontext.memory_after.entries)"

	for step in capture recall; do
		agent="$(trial_dir)/steps/$step/agent"
		assert_files "$agent/acp-events.jsonl"
		assert_json_files "$agent/acp-summary.json"
		[[ $(jq -r '.error.message | type' "$agent/acp-summary.json") == string ]] ||
			fail "$agent/acp-summary.json has no error: $(jq -c .error "$agent/acp-summary.json")"
	done
	[[ $(chunks capture | jq -r --arg e "$ERROR_CHUNK" 'length == 1 and (.[0] | startswith($e) and test("request to /v1/[a-z/-]+ failed$"))') == true ]] ||
		fail "capture chunks: $(chunks capture)"

	exec_normalize
	exec_evaluate
	assert_exit 3
	[[ $(jq -c '.cases[0].assertions.memory_created_during_run.value' "$T/evals.jsonl") == false ]] ||
		fail "memory_created_during_run is not false: $(jq -c '.cases[0].assertions.memory_created_during_run' "$T/evals.jsonl")"
	[[ $(jq -c '.cases[0].assertions.collection_completed.value' "$T/evals.jsonl") == false ]] ||
		fail "collection_completed is not false"
	[[ $(jq -r '.cases[0].assertions.collection_completed.reason' "$T/evals.jsonl") =~ request\ to\ /v1/[a-z/-]+\ failed ]] ||
		fail "collection_completed reason: $(jq -r '.cases[0].assertions.collection_completed.reason' "$T/evals.jsonl")"
}

@test "the OFF arm's Bub (pipelines/pc-powercontext bub-off): the same Bub without PowerContext, whose remember falls through to the shell" {
	local off
	off=$("$REPO/pipelines/pc-powercontext" bub-off 3>&-) || fail "pipelines/pc-powercontext bub-off failed"
	# the same Bub and ACP server, no plugin and no PowerContext package
	[[ $(jq -r .adapter_version "$off/pc-e2e-adapter.json") == "$(jq -r '.adapter_version | split(" + ")[0]' "$BUB_ADAPTER")" ]] ||
		fail "not the ON arm's Bub: $(jq -c . "$off/pc-e2e-adapter.json"), ON $(jq -c . "$BUB_ADAPTER")"
	[[ $(jq -c '[.plugin, .powercontext_client, .adapter_protocol_version]' "$off/pc-e2e-adapter.json") == \
		"$(jq -c '[null, null, .adapter_protocol_version]' "$BUB_ADAPTER")" ]] || fail "$(jq -c . "$off/pc-e2e-adapter.json")"
	run "$off/bin/python" -I -c 'import importlib.util, sys; sys.exit(any(importlib.util.find_spec(n) for n in ("powercontext", "powercontext_bub")))'
	assert_exit 0
	# project-database-decision on it: its comma command finds no such tool,
	# and nothing reaches Memory
	exec_select "$ID"
	POWERCONTEXT_E2E_BUB=$off bub_run "$T/selection.jsonl"
	[[ $(rec_r .environment.adapter_version) == "$(jq -r .adapter_version "$off/pc-e2e-adapter.json")" ]] ||
		fail "record adapter_version: $(rec_r .environment.adapter_version)"
	grep -q "command not found" "$(trial_dir)/steps/capture/agent/terminal-1.txt" ||
		fail "the remember line did not fall through to the shell: $(cat "$(trial_dir)/steps/capture/agent/"*.txt)"
	[[ $(rec '.powercontext.memory_after | [type, (.entries // .items | length)]') == '["object",0]' ]] ||
		fail "Memory: $(rec .powercontext.memory_after)"
}
