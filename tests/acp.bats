#!/usr/bin/env bats
# pc-run-bub's ACP client (filters/run-bub/base/acp.c) against the independent peer
# built on the official ACP SDK (tests/peers/acp_peer.py), through the local
# runner with one-workload selections (docs/DESIGN.md
# §5.5, §5.6).

load test_helper
load exec_helper

ID=project-database-decision
TASK="$EXEC_TASKS/$ID"
STEPS=(capture recall)

setup_file() {
	exec_setup_file server
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
}

# peer_run MODE [SELECTION]: the workload of SELECTION (default: $ID) on the
# peer in MODE; the run must complete.
peer_run() {
	local sel="${2:-$T/selection.jsonl}"
	[[ -n ${2:-} ]] || exec_select "$ID"
	exec_peer "$1"
	exec_run_bub "$sel" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == completed ]] || fail "run not completed: $(rec .errors)"
	[[ $(rec_r .environment.adapter_version) == "pc-e2e-acp-peer 0.1.0" ]] ||
		fail "adapter_version: $(rec_r .environment.adapter_version)"
	assert_peer_gone
}

# chunks STEP: the texts of the agent_message_chunk updates of STEP, as a JSON array.
chunks() {
	jq -sc '[.[] | select(.event_type == "session_update" and .payload.update.sessionUpdate == "agent_message_chunk")
		| .payload.update.content.text]' "$(trial_dir)/steps/$1/agent/acp-events.jsonl"
}

# agent_messages STEP: the messages of the agent steps of STEP's trajectory.
agent_messages() {
	jq -c '[.steps[] | select(.source == "agent") | .message]' "$(trial_dir)/steps/$1/agent/trajectory.json"
}

# make_task DIR ID INSTRUCTION_FILE: a one-step local Harbor task and its
# manifest under DIR (use --manifests DIR/manifests --root DIR).
make_task() {
	local dir=$1 id=$2 instruction=$3 task="$1/tasks/$2"
	mkdir -p "$task/environment" "$task/steps/only/tests" "$dir/manifests"
	printf 'FROM python:3.12-slim-bookworm\n' >"$task/environment/Dockerfile"
	cat >"$task/task.toml" <<-'EOF'
		version = "1.3"
		multi_step_reward_strategy = "final"

		[agent]
		timeout_sec = 120.0

		[verifier]
		timeout_sec = 60.0

		[[steps]]
		name = "only"
	EOF
	cp "$instruction" "$task/steps/only/instruction.md"
	printf '#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n' >"$task/steps/only/tests/test.sh"
	cat >"$dir/manifests/$id.yaml" <<-EOF
		schema: powercontext.e2e-task/v1
		id: $id
		categories: [test]
		dataset:
		  path: tasks
		  task_id: $id
		  checksum: $(harbor_checksum "$task")
		execution:
		  type: bub
		  model: false
		evaluation:
		  probes:
		    - id: probe
		      query: "anything"
	EOF
}

@test "echo: each step's agent_message_chunk and trajectory message equal the instruction" {
	peer_run echo
	local step want
	for step in "${STEPS[@]}"; do
		# byte for byte, trailing newline included, as Harbor sends it
		want=$(jq -nc --rawfile t "$TASK/steps/$step/instruction.md" '[$t]')
		[[ $(chunks "$step") == "$want" ]] ||
			fail "$step: chunks $(chunks "$step"), expected the instruction: $want"
		[[ $(agent_messages "$step") == "$want" ]] ||
			fail "$step: trajectory agent messages $(agent_messages "$step")"
		[[ $(jq -c '[.instruction]' "$(trial_dir)/steps/$step/agent/acp-summary.json") == "$want" ]] ||
			fail "$step: acp-summary.json instruction"
		[[ $(jq -r '.prompt_response.stopReason' "$(trial_dir)/steps/$step/agent/acp-summary.json") == end_turn ]] ||
			fail "$step: stopReason"
		[[ $(jq -r '.agent_info.name' "$(trial_dir)/steps/$step/agent/acp-summary.json") == pc-e2e-acp-peer ]] ||
			fail "$step: agent_info"
	done
	# one ACP session per step
	[[ $(jq -sr '[.[].session.sessionId] | unique | length' "$(trial_dir)"/steps/*/agent/acp-summary.json) == 2 ]] ||
		fail "the steps shared an ACP session"
}

@test "echo: canary lines and the blank lines after them are stripped as Harbor strips them; CRLF becomes LF; the rest survives byte for byte" {
	printf '%s\r\n' \
		'<!-- harbor canary GUID 5e1c0a2f-canary -->' \
		'# canary string: do not train on this' \
		$'\u00a0# CANARY behind a no-break space, which Python strips too' \
		'' \
		"Grüße, 世界 — \"quoted\", 'single', back\\slash and	tab" \
		'second line, {"json": [1, 2]}' \
		'' >"$T/instruction.md"
	local want
	want=$(printf '%s\n%s\n\nx' "Grüße, 世界 — \"quoted\", 'single', back\\slash and	tab" 'second line, {"json": [1, 2]}')
	want=${want%x}
	make_task "$T/cat" acp-echo-task "$T/instruction.md"
	run --separate-stderr pc-select --manifests "$T/cat/manifests" --root "$T/cat" --id acp-echo-task
	assert_exit 0
	save_stdout "$T/echo-selection.jsonl"
	peer_run echo "$T/echo-selection.jsonl"
	[[ $(chunks only) == "$(jq -nc --arg t "$want" '[$t]')" ]] || fail "chunks $(chunks only), expected [$want]"
	[[ $(agent_messages only) == "$(jq -nc --arg t "$want" '[$t]')" ]] || fail "trajectory $(agent_messages only)"
	[[ $(jq -c '[.instruction]' "$(trial_dir)/steps/only/agent/acp-summary.json") == "$(jq -nc --arg t "$want" '[$t]')" ]] ||
		fail "acp-summary.json instruction: $(jq .instruction "$(trial_dir)/steps/only/agent/acp-summary.json")"
	# acp-events.jsonl keeps non-ASCII unescaped (docs/DESIGN.md §5.6)
	grep -qF '世界' "$(trial_dir)/steps/only/agent/acp-events.jsonl" || fail "non-ASCII escaped in acp-events.jsonl"
}

@test "permission: the request is recorded and answered with the first allow option" {
	peer_run permission
	local step events
	for step in "${STEPS[@]}"; do
		events="$(trial_dir)/steps/$step/agent/acp-events.jsonl"
		[[ $(jq -sc '[.[] | select(.event_type == "request_permission")] | length' "$events") == 1 ]] ||
			fail "$step: no request_permission event: $(cat "$events")"
		[[ $(jq -sr '.[] | select(.event_type == "request_permission") | .payload.tool_call.toolCallId' "$events") == peer-call-1 ]] ||
			fail "$step: request_permission payload"
		[[ $(jq -sc '[.[] | select(.event_type == "request_permission") | .payload.options[].optionId]' "$events") == '["ok","no"]' ]] ||
			fail "$step: request_permission options"
		[[ $(chunks "$step") == '["permission: selected ok"]' ]] || fail "$step: reply $(chunks "$step")"
		[[ $(jq .permissions_requested "$(trial_dir)/steps/$step/agent/acp-summary.json") == 1 ]] ||
			fail "$step: permissions_requested $(jq .permissions_requested "$(trial_dir)/steps/$step/agent/acp-summary.json")"
	done
}

@test "permission: trajectory.json's agent step counts the permission request (Harbor ATIF extra)" {
	peer_run permission
	local step
	for step in "${STEPS[@]}"; do
		[[ $(jq -c '[.steps[] | select(.source == "agent") | .extra.permissions_requested]' \
			"$(trial_dir)/steps/$step/agent/trajectory.json") == '[1]' ]] ||
			fail "$step: agent step extra: $(jq -c '[.steps[] | select(.source == "agent") | .extra]' "$(trial_dir)/steps/$step/agent/trajectory.json")"
	done
}

@test "client methods: fs/read_text_file is refused with -32601; terminal/* run in the step's sandbox" {
	peer_run client-methods
	local step agent
	for step in "${STEPS[@]}"; do
		[[ $(chunks "$step") == '["fs/read_text_file: error -32601\nterminal/create true: ok\nterminal/create sh: ok, output '"'hi\\\\n'"', exit 3"]' ]] ||
			fail "$step: reply $(chunks "$step")"
		agent="$(trial_dir)/steps/$step/agent"
		# the command ran in the workspace the verifier sees, its output kept as evidence
		assert_files "$(trial_dir)/workspace/pc-e2e-peer-terminal-ran" "$agent/terminal-2.txt"
		[[ $(<"$agent/terminal-2.txt") == hi ]] || fail "terminal-2.txt: $(<"$agent/terminal-2.txt")"
		[[ $(jq -sc '[.[] | select(.event_type | test("terminal")) | .event_type]' "$agent/acp-events.jsonl") == \
			'["create_terminal","create_terminal","terminal_output","wait_for_terminal_exit","release_terminal"]' ]] ||
			fail "$step: terminal events $(jq -sc '[.[] | .event_type]' "$agent/acp-events.jsonl")"
		[[ $(jq -sc '[.[] | select(.event_type == "wait_for_terminal_exit") | .payload.exit_code]' "$agent/acp-events.jsonl") == '[3]' ]] ||
			fail "$step: exit code not recorded"
	done
}

@test "stderr flood past the cap: acp.txt keeps the first 16 MiB and a note of the rest, and the run completes" {
	local flood=$((40 * 1024 * 1024)) cap=$((16 * 1024 * 1024)) step log note
	exec_select "$ID"
	exec_peer stderr-flood PEER_FLOOD_BYTES=$flood
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == completed ]] || fail "run not completed: $(rec .errors)"
	for step in "${STEPS[@]}"; do
		log="$(trial_dir)/steps/$step/agent/acp.txt"
		note=$(tail -n 1 "$log")
		[[ $note =~ ^\[pc-e2e:\ the\ agent\'s\ stderr\ was\ cut\ at\ $cap\ bytes\;\ ([0-9]+)\ more\ were\ discarded\]$ ]] ||
			fail "$step: no cap note at the end of acp.txt: ${note:0:200}"
		[[ ${BASH_REMATCH[1]} -ge $((flood - cap)) ]] || fail "$step: only ${BASH_REMATCH[1]} bytes counted as discarded"
		[[ $(stat -c %s "$log") -eq $((cap + ${#note} + 2)) ]] || fail "$step: acp.txt is $(stat -c %s "$log") bytes"
		[[ $(chunks "$step") == "$(jq -nc --rawfile t "$TASK/steps/$step/instruction.md" '[$t]')" ]] ||
			fail "$step: the echo after the flood was lost: $(chunks "$step")"
	done
	assert_peer_gone
}

@test "stderr flood: 1 MiB of agent stderr neither deadlocks the run nor gets lost" {
	peer_run stderr-flood
	local step log
	for step in "${STEPS[@]}"; do
		log="$(trial_dir)/steps/$step/agent/acp.txt"
		assert_files "$log"
		[[ $(stat -c %s "$log") -ge 1048576 ]] || fail "$step: acp.txt has only $(stat -c %s "$log") bytes"
		[[ $(jq -Rn '[inputs | select(length == 1048575 and test("^x+$"))] | length' "$log") == 1 ]] ||
			fail "$step: acp.txt does not hold the flood line"
		[[ $(chunks "$step") == "$(jq -nc --rawfile t "$TASK/steps/$step/instruction.md" '[$t]')" ]] ||
			fail "$step: the echo after the flood was lost: $(chunks "$step")"
	done
}
