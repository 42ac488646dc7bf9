#!/usr/bin/env bats
# Faults, injected: a Server that is gone, refuses, fails, hangs, truncates
# or dies mid-run (tests/peers/fake_server.py); agents that crash, hang,
# print garbage, close their output, answer errors, cannot start, fork
# away or flood (tests/peers/acp_peer.py); a stop signal mid-run; an
# oversized error.  Each case checks the record, the exit status, what is on
# disk, and that no process is left.

load test_helper
load exec_helper

# The bearer token of this file's auth-enabled server.
AUTH_TOKEN=pc-e2e-auth-tok-4b7d19e2
ID=project-database-decision
TASK="$EXEC_TASKS/$ID"
STEPS=(capture recall)

setup_file() {
	exec_setup_file server "auth=$AUTH_TOKEN"
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
}

teardown() {
	exec_fake_server_stop
}

# peer_failure MODE CAUSE [PC-RUN-BUB ARGS...]: with the ACP peer in MODE,
# pc-run-bub still exits 0 with one failed record whose errors name the
# step and CAUSE; the evidence so far is on disk; the verdict is inconclusive.
peer_failure() {
	local mode=$1 cause=$2 step agent
	shift 2
	exec_select "$ID"
	exec_peer "$mode"
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT" "$@"
	assert_exit 0
	[[ $(rec 'length' -s) == 1 ]] || fail "expected one record, got: $output"
	[[ $(rec_r .status) == failed ]] || fail "status is not failed: $output"
	# the agent's own failure, at the first step it failed (docs/DESIGN.md §2.3)
	[[ $(rec_r '.fault | "\(.class) \(.kind) \(.transient) \(.step)"') == \
		"infrastructure agent-exit false ${STEPS[0]}" ]] || fail "fault: $(rec .fault)"
	# Every step that ran failed the same way, and its error says so.
	for step in "${STEPS[@]}"; do
		[[ $(rec '[.errors[] | select(startswith($p) and contains($c))] | length' \
			--arg p "step $step: " --arg c "$cause") -ge 1 ]] ||
			fail "no error names step $step and '$cause': $(rec .errors)"
		agent="$(trial_dir)/steps/$step/agent"
		assert_files "$agent/acp-events.jsonl"
		[[ $(jq -c --arg s "$step" --arg c "$cause" '.step_results[] | select(.step_name == $s) |
			(.exception_info.exception_type | endswith("Error")) and (.exception_info.exception_message | contains($c))' \
			"$(trial_dir)/result.json") == true ]] ||
			fail "step $step's result has no Harbor exception naming '$cause': $(jq -c .step_results "$(trial_dir)/result.json")"
		# an agent stopped at its deadline leaves no summary, as under Harbor (docs/DESIGN.md §5.6)
		[[ $mode == hang ]] && continue
		assert_json_files "$agent/acp-summary.json"
		[[ $(jq -c --arg c "$cause" '(.error | type) == "object" and (.error.message | contains($c))' \
			"$agent/acp-summary.json") == true ]] ||
			fail "$agent/acp-summary.json has no error naming '$cause': $(jq -c .error "$agent/acp-summary.json")"
	done
	assert_peer_gone
	exec_assert_inconclusive
	assert_contains "$(jq -r '.cases[0].assertions.collection_completed.reason' "$T/evals.jsonl")" \
		"$cause" "collection_completed reason"
}

# server_fault MODE CAUSE: against the fake Server in MODE, whose fault comes
# after the agent ran, pc-run-bub exits 0 with one failed record naming
# CAUSE for the final Memory; the agent's evidence is on disk; no probe was
# asked; the verdict is inconclusive.
server_fault() {
	exec_select "$ID"
	exec_fake_server "$1"
	exec_peer echo
	POWERCONTEXT_CLIENT_TIMEOUT=2 exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec 'length' -s) == 1 ]] || fail "expected one record: $output"
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	assert_contains "$(rec_r '.errors[]')" "final Memory: POST /v1/memory/entries/list" "errors"
	assert_contains "$(rec_r '.errors[]')" "$2" "errors"
	[[ $(rec_r '.fault | "\(.class) \(.kind) \(.transient) \(.step)"') == "infrastructure server true null" ]] ||
		fail "fault: $(rec .fault)"
	[[ $(rec .powercontext.memory_after) == null && $(rec .powercontext.probes) == '[]' ]] ||
		fail "after a failed final listing: $(rec '.powercontext | {memory_after, probes}')"
	local step
	for step in "${STEPS[@]}"; do
		assert_json_files "$(trial_dir)/steps/$step/agent/acp-summary.json"
	done
	assert_json_files "$(trial_dir)/result.json" "$(rec_r .job_dir)/result.json"
	assert_peer_gone
	exec_assert_inconclusive
}

@test "Server failing (503 on every call): a failed record naming the status, before any agent ran" {
	exec_select "$ID"
	exec_fake_server error-5xx
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	assert_contains "$(rec_r '.errors[0]')" "HTTP 503 unavailable: the fake Server is failing on purpose" "first error"
	[[ ! -e "$(trial_dir)/steps" ]] || fail "the agent ran against a failing Server"
	exec_assert_inconclusive
}

@test "Server hanging on the final listing: the client's timeout ends it, the agent's evidence is kept" {
	server_fault hang-final "Timeout was reached"
}

@test "Server truncating the final listing: a failed record naming the short transfer, the agent's evidence kept" {
	server_fault truncate-final "Transferred a partial file"
}

@test "Server dying mid-run: a failed record naming the empty answer, the agent's evidence kept" {
	server_fault die-final "Server returned nothing (no headers, no data)"
	! kill -0 "$FAKE_PID" 2>/dev/null || fail "the fake Server did not die as told"
}

@test "stopped server: a failed record naming the unreachable Server, and an inconclusive verdict" {
	exec_select "$ID"
	POWERCONTEXT_CLIENT_SERVER_URL=$(exec_closed_url)
	exec_run_bub "$T/selection.jsonl"
	assert_exit 0
	[[ $(rec 'length' -s) == 1 ]] || fail "expected one record: $output"
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	# the first question to the Server is what it is (GET /openapi.json)
	assert_contains "$(rec_r '.errors[0]')" "cannot tell which PowerContext the Server is" "first error"
	assert_contains "$(rec_r '.errors[0]')" "cannot reach PowerContext at $POWERCONTEXT_CLIENT_SERVER_URL" "first error"
	exec_normalize
	exec_evaluate
	assert_exit 3
	exec_report
	assert_exit 3
	assert_contains "$output" "inconclusive" "report"
	assert_contains "$output" "cannot reach PowerContext" "report"
}

@test "server answering 401: a failed record naming HTTP 401, and the token appears nowhere" {
	exec_select "$ID"
	POWERCONTEXT_CLIENT_SERVER_URL=$(exec_server_url auth)
	export POWERCONTEXT_CLIENT_API_TOKEN=wrong
	exec_run_bub "$T/selection.jsonl"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	[[ $(rec '[.errors[] | select(contains("HTTP 401"))] | length') -ge 1 ]] || fail "no HTTP 401 error: $(rec .errors)"
	printf '%s\n%s\n' "$output" "$stderr" >"$T/streams.txt"
	exec_normalize --output "$OUT"
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	exec_evaluate --output "$OUT"
	assert_exit 3
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	[[ -d $OUT ]] || fail "no output directory"
	refute_secret wrong "$OUT" "$T/streams.txt"
}

@test "agent crash: failed record naming the step and the exit status" {
	peer_failure crash "exit 3"
	[[ $(jq -r '.payload.update.content.text' "$(trial_dir)/steps/capture/agent/acp-events.jsonl") == "peer crashing" ]] ||
		fail "the chunk sent before the crash was not recorded"
}

@test "agent hang past --agent-timeout: failed record naming the timeout, no peer left behind" {
	peer_failure hang "timed out" --agent-timeout 3
	[[ $(jq -r '.step_results[0].exception_info.exception_type' "$(trial_dir)/result.json") == AgentTimeoutError ]] ||
		fail "exception type: $(jq -c '.step_results[0].exception_info' "$(trial_dir)/result.json")"
	[[ ! -e "$(trial_dir)/steps/capture/agent/acp-summary.json" ]] || fail "a stopped agent left an ACP summary"
}

@test "agent past its deadline: stopped with everything it started, setsid children too (the sandbox has its own PID namespace)" {
	exec_assert_orphan_stopped
}

# stop_mid_prompt SIGNAL: pc-run-bub on two workloads whose agent hangs,
# sent SIGNAL once the first one's prompt is out; $status is its exit.
stop_mid_prompt() {
	local pid i log
	exec_select_alone "$ID"
	cat "$T/selection.jsonl" "$T/selection.jsonl" >"$T/two.jsonl"
	exec_peer hang
	pc-run-bub --output "$OUT" --agent "$PEER_AGENT" <"$T/two.jsonl" >"$T/records.jsonl" 2>"$T/stderr.txt" &
	pid=$!
	# the peer logs each prompt it gets on its stderr, the step's acp.txt
	for ((i = 0; i < 600; i++)); do
		log=$(find "$OUT" -name acp.txt -path '*/capture/*' 2>/dev/null | head -n 1)
		[[ -n $log ]] && grep -q 'session/prompt in mode hang' "$log" && break
		sleep 0.1
	done
	grep -q 'session/prompt in mode hang' "$log" || fail "the prompt never reached the agent: $(cat "$T/stderr.txt")"
	kill "-$1" "$pid"
	status=0
	wait "$pid" || status=$?
	stderr=$(cat "$T/stderr.txt")
}

@test "SIGTERM or SIGINT mid-run: the interrupted workload's failed record and trial result, no FIFO left, exit 128+signal, nothing more run" {
	local sig code
	for sig in TERM INT; do
		rm -rf "$OUT" "$T/records.jsonl"
		stop_mid_prompt "$sig"
		code=$((128 + $(kill -l "$sig")))
		assert_exit "$code"
		[[ $(rec 'length' -s) == 1 ]] || fail "SIG$sig: expected the interrupted workload's record alone: $(cat "$T/records.jsonl")"
		schema_ok e2e-run "$T/records.jsonl"
		[[ $(rec_r .status) == failed ]] || fail "SIG$sig: status $(rec_r .status)"
		assert_contains "$(rec_r '.errors[]')" "step capture: CancelledError: stopped waiting for session/prompt: pc-run-bub received SIG$sig"
		[[ $(rec_r '.fault | "\(.class) \(.kind) \(.transient) \(.step)"') == "infrastructure stopped false capture" ]] ||
			fail "SIG$sig: fault $(rec .fault)"
		assert_stderr_contains "stopped by SIG$sig"
		# the trial is complete on disk: its result names the cancelled step, the next never ran
		assert_json_files "$(trial_dir)/result.json" "$(rec_r .job_dir)/result.json"
		[[ $(jq -c '[.step_results[] | [.step_name, .exception_info.exception_type]]' "$(trial_dir)/result.json") == \
			'[["capture","CancelledError"]]' ]] || fail "SIG$sig: $(jq -c .step_results "$(trial_dir)/result.json")"
		[[ ! -e "$(trial_dir)/steps/recall" ]] || fail "SIG$sig: the next step ran"
		[[ -z $(find "$TMPDIR" -name 'pc-acp-*') ]] || fail "SIG$sig: FIFO directory left: $(find "$TMPDIR" -name 'pc-acp-*')"
		assert_peer_gone
		exec_assert_inconclusive
	done
}

@test "a 10 MB error string in a record is capped in the replay at 64 KiB, with a note of its size" {
	exec_select "$ID"
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	python3 -c 'import json, sys
r = json.loads(open(sys.argv[1]).read())
r["status"] = "failed"
r["errors"] = ["step capture: boom: " + "\u00e9" * 5000000]
print(json.dumps(r))' "$T/records.jsonl" >"$T/big.jsonl"
	cp "$T/big.jsonl" "$T/records.jsonl"
	exec_normalize
	[[ $(stat -c %s "$T/replays.jsonl") -lt 1000000 ]] || fail "replay is $(stat -c %s "$T/replays.jsonl") bytes"
	local err
	err=$(jq -r '.errors[0]' "$T/replays.jsonl")
	[[ $err == "step capture: boom: "* && $err == *" [pc-e2e: truncated to 65536 of its 10000020 bytes]" ]] ||
		fail "error not capped with its note: ${err:0:60}…${err: -80}"
	# cut on a character boundary: still valid UTF-8 of whole characters
	[[ $(jq -r '.errors[0] | test("^step capture: boom: é+ \\[pc-e2e")' "$T/replays.jsonl") == true ]] || fail "cut inside a character"
}

@test "agent printing non-JSON: failed record naming the non-JSON line" {
	peer_failure garbage "non-JSON"
	assert_contains "$(rec_r '.errors[0]')" "this is not json" "first error"
}

@test "agent closing its stdout: failed record naming the closed output" {
	# The peer then sleeps without exiting: only the closed pipe tells.
	# A generous --agent-timeout keeps a missed close from stalling the suite.
	peer_failure close "closed" --agent-timeout 5
}

@test "agent answering with a JSON-RPC error: failed record naming the code" {
	peer_failure error "-32603"
	assert_contains "$(rec_r '.errors[0]')" "session/prompt" "first error"
}

@test "agent that cannot start: failed record naming initialize" {
	exec_select "$ID"
	exec_run_bub "$T/selection.jsonl" --agent "$T/no-such-agent"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	assert_contains "$(rec_r '.errors[0]')" "step capture: " "first error"
	assert_contains "$(rec_r '.errors[0]')" "initialize" "first error"
	assert_contains "$(rec_r '.environment.adapter_version')" "unknown" "adapter_version"
	assert_json_files "$(trial_dir)/steps/capture/agent/acp-summary.json"
	exec_normalize
	exec_evaluate
	assert_exit 3
}

