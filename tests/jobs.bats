#!/usr/bin/env bats
# pc-run-bub --jobs N: workloads side by side in worker processes, records
# in selection order, a batch's shared trial in one worker, stop
# signals and dying workers (docs/DESIGN.md §5.12), against a real
# PowerContext Server and the ACP test peer.  --jobs 1 is every other
# suite.

load test_helper
load exec_helper

ID=project-database-decision
# a workload in no batch: beside ID it runs on its own
OTHER=locomo-support-group

setup_file() {
	exec_setup_file server
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
}

# select_ids FILE ID...: the selections of the IDs, in catalog order, into FILE.
select_ids() {
	local file=$1 id
	local -a args=()
	shift
	for id in "$@"; do
		args+=(--id "$id")
	done
	run --separate-stderr pc-select --manifests "$REPO/manifests" --root "$REPO" "${args[@]}"
	assert_exit 0
	save_stdout "$file"
}

# started_bg SELECTION [PC-RUN-BUB ARGS...]: pc-run-bub --output "$OUT" in
# the background (records in $T/records.jsonl, stderr in $T/stderr.txt), its
# pid in RUN_PID.
started_bg() {
	local sel=$1
	shift
	PC_E2E_PROGRESS=1 pc-run-bub --output "$OUT" "$@" <"$sel" >"$T/records.jsonl" 2>"$T/stderr.txt" &
	RUN_PID=$!
}

# finished_bg: waits for RUN_PID; its exit status in $status, stderr in $stderr.
finished_bg() {
	status=0
	wait "$RUN_PID" || status=$?
	stderr=$(cat "$T/stderr.txt")
	output=$(cat "$T/records.jsonl")
}

# prompts_seen N: waits until N capture steps' agents have their prompt (the
# peer logs each one in the step's acp.txt).
prompts_seen() {
	local i n=0
	for ((i = 0; i < 600; i++)); do
		n=$(find "$OUT" -name acp.txt -path '*capture/*' -exec grep -l 'session/prompt in mode' {} + 2>/dev/null | wc -l)
		[[ $n -ge $1 ]] && return 0
		sleep 0.1
	done
	fail "$n of $1 prompts reached the agents: $(cat "$T/stderr.txt")"
}

# assert_no_worker_left: no process of pc-run-bub (parent or worker) on $OUT is left.
assert_no_worker_left() {
	! pgrep -f -- "--output $OUT" >/dev/null || fail "pc-run-bub processes left: $(pgrep -af -- "--output $OUT")"
}

@test "--jobs takes a whole number of workloads from 1 to 256" {
	exec_select "$ID"
	for bad in 0 -1 abc 2x '' ' 2' 257; do
		exec_run_bub "$T/selection.jsonl" --jobs "$bad"
		assert_exit 64
		assert_stdout_empty
		assert_stderr_contains "--jobs must be a whole number of workloads from 1 to 256"
	done
	[[ ! -e $OUT ]] || fail "pc-run-bub created $OUT"
	# the run asks pc-run-bub, before anything runs
	run --separate-stderr env JOBS=0 OUTPUT="$OUT" "$REPO/pipelines/acceptance"
	assert_exit 64
	assert_equal "$stderr" "acceptance: JOBS=0: --jobs must be a whole number of workloads from 1 to 256"
	[[ ! -e $OUT ]] || fail "acceptance created $OUT"
}

@test "--jobs 2: two workloads run at once, and the records keep selection order when the later one ends first" {
	select_ids "$T/two.jsonl" "$ID" "$OTHER"
	# the first workload's prompts wait 4 s, the second's are answered at once
	exec_peer echo PEER_DELAY_ON=OceanBase PEER_DELAY=4
	PC_E2E_PROGRESS=1 exec_run_bub "$T/two.jsonl" --agent "$PEER_AGENT" --jobs 2
	assert_exit 0
	run rec '[.workload.id, .status]'
	assert_output '["project-database-decision","completed"]
["locomo-support-group","completed"]'
	# overlapping intervals, the second ending first
	run jq -sr '(.[0].environment | [.started_at, .finished_at]) as [$s0, $f0] |
		(.[1].environment | [.started_at, .finished_at]) as [$s1, $f1] |
		[$s0 < $f1 and $s1 < $f0, $f1 < $f0] | @text' "$T/records.jsonl"
	assert_output '[true,true]'
	# each its own run, scope and job
	[[ $(jq -s '[.[].run_id] + [.[].scope_id] + [.[].job_dir] | unique | length' "$T/records.jsonl") == 6 ]] ||
		fail "shared run ids, scopes or job directories: $(rec '[.run_id, .scope_id, .job_dir]')"
	assert_json_files "$(trial_dir 0)/result.json" "$(trial_dir 1)/result.json"
	# every progress line is whole: workers side by side do not mix them
	while IFS= read -r line; do
		[[ $line =~ ^pc-run-bub:\ (workload\ [12]/2:\ |\[($ID|$OTHER)\ [0-9.]+s\]\ ) ]] ||
			fail "mixed or foreign progress line: $line"
	done <<<"$stderr"
	assert_stderr_contains "workload 1/2: $ID" "workload 2/2: $OTHER" "[$OTHER " "] completed"
	assert_peer_gone
}

@test "--jobs 2 under fail-fast: the batch's shared trial runs in one worker, beside a workload outside it" {
	select_ids "$T/mixed.jsonl" "$ID" failure-policy-timeout failure-policy-followup "$OTHER"
	exec_peer echo
	exec_run_bub "$T/mixed.jsonl" --agent "$PEER_AGENT" --jobs 2 --failure-policy fail-fast
	assert_exit 0
	run rec '[.workload.id, .status, .failure_policy]'
	assert_output '["project-database-decision","completed","fail-fast"]
["failure-policy-timeout","failed","fail-fast"]
["failure-policy-followup","skipped","fail-fast"]
["locomo-support-group","completed","fail-fast"]'
	# the batch's members share one trial; the workload outside it started
	# before that trial ended
	run jq -sr '[(.[0:3] | map(.trial_dir) | unique | length), .[3].environment.started_at < .[0].environment.finished_at] | @text' "$T/records.jsonl"
	assert_output '[1,true]'
	run rec 'select(.status == "skipped") | [.errors, .powercontext.memory_after]'
	assert_output '[[],null]'
	[[ ! -e $OUT/failure-policy-followup ]] || fail "a batch member left files outside its batch: $(find "$OUT/failure-policy-followup")"
}

@test "--jobs 2: a stop with two workloads running finishes both, writes both records, starts nothing more, exits 128+signal" {
	exec_select "$OTHER"
	cat "$T/selection.jsonl" "$T/selection.jsonl" "$T/selection.jsonl" >"$T/three.jsonl"
	exec_peer hang
	started_bg "$T/three.jsonl" --agent "$PEER_AGENT" --jobs 2
	prompts_seen 2
	kill -TERM "$RUN_PID"
	finished_bg
	assert_exit 143
	schema_ok e2e-run "$T/records.jsonl"
	run rec '[.status, (.errors[] | select(contains("CancelledError")) | contains("pc-run-bub received SIGTERM"))]'
	assert_output '["failed",true]
["failed",true]'
	[[ $(rec '[.[].run_id] | unique | length' -s) == 2 ]] || fail "not two runs: $(rec .run_id)"
	assert_stderr_contains "stopped by SIGTERM"
	# the third workload never started
	[[ $(find "$OUT/$OTHER/harbor-jobs" -mindepth 1 -maxdepth 1 | wc -l) == 2 ]] ||
		fail "job directories: $(ls "$OUT/$OTHER/harbor-jobs")"
	assert_peer_gone
	assert_no_worker_left
}

@test "--jobs 2: a worker stopped by another stop signal than pc-run-bub's ends its batch as a stop does, not as a death" {
	select_ids "$T/batch.jsonl" "$ID" failure-policy-followup
	exec_peer hang
	started_bg "$T/batch.jsonl" --agent "$PEER_AGENT" --jobs 2 --failure-policy fail-fast
	prompts_seen 1
	local i worker
	worker=$(pgrep -P "$RUN_PID") || true
	[[ $(wc -w <<<"$worker") == 1 ]] || fail "workers: $worker"
	# the worker stops on SIGINT and ends before pc-run-bub, held stopped,
	# can pass it a SIGTERM of its own or reap it
	kill -STOP "$RUN_PID"
	kill -INT "$worker"
	for ((i = 0; i < 600; i++)); do
		[[ $(cut -d' ' -f3 "/proc/$worker/stat") == Z ]] && break
		sleep 0.1
	done
	kill -TERM "$RUN_PID"
	kill -CONT "$RUN_PID"
	finished_bg
	assert_exit 143
	schema_ok e2e-run "$T/records.jsonl"
	# the batch's trial ended at the stop: its later member never ran
	run rec '[.workload.id, .status, .errors]'
	assert_output '["project-database-decision","failed",["step project-database-decision-capture: CancelledError: stopped waiting for session/prompt: pc-run-bub received SIGINT","the shared trial did not run its steps [\"project-database-decision-recall\"]"]]
["failure-policy-followup","skipped",[]]'
	assert_peer_gone
	assert_no_worker_left
}

@test "--jobs 2: a worker killed mid-workload leaves it a failed record naming the signal; the other workload's record stands" {
	select_ids "$T/two.jsonl" "$ID" "$OTHER"
	exec_peer echo PEER_DELAY_ON=OceanBase PEER_DELAY=100
	started_bg "$T/two.jsonl" --agent "$PEER_AGENT" --jobs 2
	prompts_seen 1
	# once the other worker is done, the one left runs the first workload
	local i workers
	for ((i = 0; i < 600; i++)); do
		workers=$(pgrep -P "$RUN_PID") || true
		[[ $(wc -w <<<"$workers") == 1 ]] && break
		sleep 0.1
	done
	[[ $(wc -w <<<"$workers") == 1 ]] || fail "workers: $workers"
	kill -KILL "$workers"
	finished_bg
	assert_exit 0
	schema_ok e2e-run "$T/records.jsonl"
	run rec '[.workload.id, .status, .errors, .job_dir == null]'
	assert_output '["project-database-decision","failed",["the pc-run-bub worker process running this workload ended (signal 9 (Killed)) before writing its record"],true]
["locomo-support-group","completed",[],false]'
	run rec 'select(.fault) | .fault'
	assert_output '{"class":"infrastructure","kind":"unit-lost","transient":true,"step":null,"status":null,"retry_after":null,"words":"the pc-run-bub worker process running this workload ended (signal 9 (Killed)) before writing its record"}'
	assert_stderr_contains "[$ID " "failed: infrastructure unit-lost: the pc-run-bub worker process running this workload ended (signal 9 (Killed))"
	assert_peer_gone
	assert_no_worker_left
}

@test "make acceptance JOBS=2: the leg's pc-run-bub runs two workloads at once" {
	exec_peer echo PEER_DELAY_ON=OceanBase PEER_DELAY=4
	run --separate-stderr timeout -k 10 "$EXEC_LIMIT" env JOBS=2 PC_E2E_AGENT="$PEER_AGENT" OUTPUT="$T/acceptance" \
		"$REPO/pipelines/acceptance" --id "$ID" --id "$OTHER"
	# the echo peer leaves no Memory, so the first workload fails its evaluation
	assert_exit 2
	assert_stderr_contains "workload 2/2: $OTHER"
	run jq -sr '(.[0].environment | [.started_at, .finished_at]) as [$s0, $f0] |
		(.[1].environment | [.started_at, .finished_at]) as [$s1, $f1] |
		[$s0 < $f1 and $s1 < $f0, $f1 < $f0] | @text' "$T/acceptance/$ID/replay.json" "$T/acceptance/$OTHER/replay.json"
	assert_output '[true,true]'
	assert_peer_gone
}

@test "--jobs 2 writing to a closed pipe: the running workers are stopped and waited for, exit 1 naming the write error" {
	# the first workload's record comes at once, the second's agent would take 100 s
	exec_select "$OTHER" "$T/first.jsonl"
	exec_select "$ID" "$T/second.jsonl"
	cat "$T/first.jsonl" "$T/second.jsonl" >"$T/two.jsonl"
	exec_peer echo PEER_DELAY_ON=OceanBase PEER_DELAY=100
	pc-run-bub --output "$OUT" --agent "$PEER_AGENT" --jobs 2 <"$T/two.jsonl" 2>"$T/stderr.txt" | true
	status=${PIPESTATUS[0]}
	stderr=$(cat "$T/stderr.txt")
	assert_exit 1
	assert_stderr_contains "pc-run-bub: write error"
	assert_peer_gone
	assert_no_worker_left
}

@test "--jobs 2: a worker killed mid-workload takes down what it started, a Harbor CLI that ignores stop signals too" {
	exec_select "$ID"
	# a Harbor CLI only SIGKILL ends; a unique duration marks it (sleep takes no other argument)
	local marker="300.$RANDOM$RANDOM" i workers left
	mkdir -p "$T/stubborn-harbor/bin"
	printf '#!/bin/sh\ntrap "" INT TERM HUP\nsleep %s\n' "$marker" >"$T/stubborn-harbor/bin/harbor"
	chmod +x "$T/stubborn-harbor/bin/harbor"
	export POWERCONTEXT_E2E_HARBOR=$T/stubborn-harbor
	started_bg "$T/selection.jsonl" --runner harbor --agent true --jobs 2
	for ((i = 0; i < 600; i++)); do
		pgrep -f "sleep $marker" >/dev/null && break
		sleep 0.1
	done
	workers=$(pgrep -P "$RUN_PID") || true
	[[ $(wc -w <<<"$workers") == 1 ]] || fail "workers: $workers; $(cat "$T/stderr.txt")"
	kill -KILL "$workers"
	finished_bg
	assert_exit 0
	run rec '[.workload.id, .status, .errors]'
	assert_output '["project-database-decision","failed",["the pc-run-bub worker process running this workload ended (signal 9 (Killed)) before writing its record"]]'
	left=$(pgrep -f "sleep $marker") || true
	[[ -z $left ]] || {
		kill -KILL $left
		fail "the killed worker's Harbor CLI outlived pc-run-bub: $left"
	}
	assert_no_worker_left
}
