#!/usr/bin/env bats
# The execution stage against a real PowerContext Server: pc-run-bub (local
# runner, the release's Bub or the ACP test peer), pc-normalize, and the whole
# pipeline (docs/DESIGN.md §1, §2.3–2.4, §4, §5).

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

# pc-run-bub on one workload must leave exactly one completed record.
run_completed() {
	exec_run_bub "$@"
	assert_exit 0
	[[ $(rec_r .status) == completed ]] || fail "run not completed: $(rec '.errors')
--- stderr ---
$stderr"
}

@test "no agent: without POWERCONTEXT_E2E_BUB, bub-acp-server on PATH or --agent, pc-run-bub refuses before anything runs" {
	unset POWERCONTEXT_E2E_BUB
	exec_select "$ID"
	PATH="$PC_BIN:/usr/bin:/bin"
	command -v bub-acp-server >/dev/null && skip "bub-acp-server is on PATH"
	exec_run_bub "$T/selection.jsonl"
	assert_exit 1
	assert_output ""
	assert_contains "$stderr" "no agent: set POWERCONTEXT_E2E_BUB" "stderr"
	[[ ! -e $OUT/$ID ]] || fail "a workload directory was made: $(ls "$OUT/$ID")"
}

@test "a POWERCONTEXT_E2E_BUB without Bub in it is refused, naming the directory" {
	export POWERCONTEXT_E2E_BUB="$T/not-bub"
	mkdir -p "$POWERCONTEXT_E2E_BUB"
	exec_select "$ID"
	exec_run_bub "$T/selection.jsonl"
	assert_exit 1
	assert_output ""
	assert_contains "$stderr" "POWERCONTEXT_E2E_BUB=$T/not-bub: $T/not-bub/pc-e2e-adapter.json" "stderr"
}

@test "a pc-e2e-adapter.json holding two JSON texts, or a command word that is not a string, is refused naming the file" {
	# regression: the two texts were freed twice (a crash under ASan)
	export POWERCONTEXT_E2E_BUB="$T/bad-bub"
	mkdir -p "$POWERCONTEXT_E2E_BUB"
	printf '{"command": ["bin/bub"]}\n{}\n' >"$POWERCONTEXT_E2E_BUB/pc-e2e-adapter.json"
	exec_select "$ID"
	exec_run_bub "$T/selection.jsonl"
	assert_exit 1
	assert_output ""
	assert_contains "$stderr" "$T/bad-bub/pc-e2e-adapter.json:2: more than one JSON text" "stderr"
	printf '{"command": [7]}\n' >"$POWERCONTEXT_E2E_BUB/pc-e2e-adapter.json"
	exec_run_bub "$T/selection.jsonl"
	assert_exit 1
	assert_contains "$stderr" "pc-e2e-adapter.json names no command" "stderr"
}

@test "full pipeline: project-database-decision runs, leaves a Harbor job, and is accepted" {
	exec_select "$ID"
	local want_sum
	want_sum=$(jq -r .task.checksum "$T/selection.jsonl")
	[[ $want_sum == "$(harbor_checksum "$TASK")" ]] || fail "selection checksum is not the task's"
	POWERCONTEXT_E2E_DATABASE_IDENTITY="sqlite 3.0.0-test" run_completed "$T/selection.jsonl"

	# the record
	[[ $(rec_r .schema) == powercontext.e2e-run/v1 ]] || fail "record schema: $(rec_r .schema)"
	local run_id scope job trial
	run_id=$(rec_r .run_id)
	scope=$(rec_r .scope_id)
	[[ $run_id =~ ^$ID-[0-9a-f]{12}$ ]] || fail "run id: $run_id"
	if exec_creates_scopes; then
		[[ $scope == scp_* ]] || fail "scope id is not one the Server chose: $scope"
	else
		[[ $scope == "e2e:$run_id" ]] || fail "scope id: $scope"
	fi
	[[ $(rec_r .powercontext.server_version) == "$(exec_release)" ]] ||
		fail "server_version $(rec_r .powercontext.server_version), expected $(exec_release)"
	[[ $(rec_r .powercontext.database) == "sqlite 3.0.0-test" ]] ||
		fail "the Server's database identity is not recorded: $(rec .powercontext.database)"
	[[ $(rec_r .runner) == local ]] || fail "runner: $(rec_r .runner)"
	[[ $(rec .errors) == '[]' ]] || fail "errors: $(rec .errors)"

	# the Harbor layout
	job="$OUT/$ID/harbor-jobs/$run_id"
	trial=$(trial_dir)
	[[ $(rec_r .job_dir) == "$job" ]] || fail "job dir $(rec_r .job_dir), expected $job"
	[[ $(dirname "$trial") == "$job" ]] || fail "trial dir $trial is not in $job"
	[[ $(basename "$trial") =~ ^${ID}__[2-9A-HJ-NP-Za-km-z]{7}$ ]] || fail "trial name: $(basename "$trial")"
	assert_json_files "$job/result.json" "$trial/result.json" "$trial/config.json"
	[[ $(jq -r .n_total_trials "$job/result.json") == 1 ]] || fail "job result.json: n_total_trials"
	local step
	for step in "${STEPS[@]}"; do
		assert_files "$trial/steps/$step/agent/acp-events.jsonl" \
			"$trial/steps/$step/verifier/test-stdout.txt" "$trial/steps/$step/verifier/reward.txt"
		assert_json_files "$trial/steps/$step/agent/acp-summary.json" "$trial/steps/$step/agent/trajectory.json"
		[[ $(tr -d '[:space:]' <"$trial/steps/$step/verifier/reward.txt") == 1 ]] || fail "$step reward.txt"
		[[ $(jq -r .instruction "$trial/steps/$step/agent/acp-summary.json") == "$(<"$TASK/steps/$step/instruction.md")" ]] ||
			fail "$step: acp-summary.json instruction is not the task's"
	done
	[[ $(jq -r .task_checksum "$trial/result.json") == "$want_sum" ]] ||
		fail "trial task_checksum $(jq -r .task_checksum "$trial/result.json"), selection computed $want_sum"
	[[ $(jq -r .trial_name "$trial/result.json") == "$(basename "$trial")" ]] || fail "trial_name"
	[[ $(jq -c '[.step_results[].step_name]' "$trial/result.json") == '["capture","recall"]' ]] || fail "step_results"
	[[ $(jq -c .verifier_result.rewards "$trial/result.json") == '{"reward":1}' ]] || fail "rewards"

	# the replay
	exec_normalize
	[[ $(jq -r .run_id "$T/replays.jsonl") == "$run_id" ]] || fail "replay run_id"
	[[ $(jq -r .status "$T/replays.jsonl") == completed ]] || fail "replay status"
	[[ $(jq -r .environment.adapter_version "$T/replays.jsonl") == "$(jq -r .adapter_version "$POWERCONTEXT_E2E_BUB/pc-e2e-adapter.json")" ]] ||
		fail "adapter_version does not name the provisioned Bub: $(jq -r .environment.adapter_version "$T/replays.jsonl")"
	[[ $(jq -r .environment.commit "$T/replays.jsonl") == "$(exec_release)" ]] ||
		fail "environment.commit does not name the PowerContext under test: $(jq -r .environment.commit "$T/replays.jsonl")"
	[[ $(jq -r .harbor.task_checksum "$T/replays.jsonl") == "$want_sum" ]] || fail "replay task_checksum"
	[[ $(jq -c '[.native_artifacts[].name]' "$T/replays.jsonl") == \
		'["steps/capture/agent/acp-events.jsonl","steps/capture/agent/acp-summary.json","steps/capture/agent/trajectory.json","steps/recall/agent/acp-events.jsonl","steps/recall/agent/acp-summary.json","steps/recall/agent/trajectory.json"]' ]] ||
		fail "native artifacts: $(jq -c '[.native_artifacts[].name]' "$T/replays.jsonl")"
	[[ $(jq -c '[.resolved_instructions[].step]' "$T/replays.jsonl") == '["capture","recall"]' ]] ||
		fail "resolved instructions"

	# the verdict
	exec_assert_accepted
}

@test "isolation: two runs of one workload get their own run and scope, each starting empty" {
	exec_select_alone "$ID"
	cat "$T/selection.jsonl" "$T/selection.jsonl" >"$T/twice.jsonl"
	exec_run_bub "$T/twice.jsonl"
	assert_exit 0
	[[ $(rec 'length' -s) == 2 ]] || fail "expected two records: $output"
	[[ $(rec '[.[].status]' -s) == '["completed","completed"]' ]] || fail "statuses: $(rec '[.[].errors]' -s)"
	[[ $(rec '[.[].run_id] | unique | length' -s) == 2 ]] || fail "run ids repeat: $(rec '[.[].run_id]' -s)"
	[[ $(rec '[.[].scope_id] | unique | length' -s) == 2 ]] || fail "scope ids repeat: $(rec '[.[].scope_id]' -s)"
	[[ $(rec '[.[].trial_dir] | unique | length' -s) == 2 ]] || fail "trial dirs repeat"
	assert_json_files "$(trial_dir 0)/result.json" "$(trial_dir 1)/result.json"
	exec_normalize
	[[ $(jq -sc '[.[].memory_before.entries]' "$T/replays.jsonl") == '[[],[]]' ]] ||
		fail "a scope did not start empty: $(jq -sc '[.[].memory_before]' "$T/replays.jsonl")"
	[[ $(jq -sc '[.[].memory_after.entries | length]' "$T/replays.jsonl") == '[1,1]' ]] ||
		fail "memory_after: $(jq -sc '[.[].memory_after]' "$T/replays.jsonl")"
	[[ $(jq -sc '[.[].memory_after.entries[0] | .artifact.artifact_id // .entry_id] | unique | length' "$T/replays.jsonl") == 2 ]] ||
		fail "both runs see the same Memory entry"
	exec_evaluate
	assert_exit 0
}

@test "pc-normalize is deterministic: the same record gives byte-identical replays" {
	exec_select "$ID"
	run_completed "$T/selection.jsonl"
	pc-normalize <"$T/records.jsonl" >"$T/first.jsonl"
	pc-normalize <"$T/records.jsonl" >"$T/second.jsonl"
	schema_ok e2e-evidence "$T/first.jsonl"
	cmp "$T/first.jsonl" "$T/second.jsonl" || fail "two normalizations differ:
$(diff <(jq -S . "$T/first.jsonl") <(jq -S . "$T/second.jsonl"))"
	# and from another working directory (the record names absolute paths)
	(cd "$T" && pc-normalize <"$T/records.jsonl" >"$T/third.jsonl")
	cmp "$T/first.jsonl" "$T/third.jsonl" || fail "normalizing from another directory differs"
}

@test "a Memory listing whose entry is no object, or lacks fields, still normalizes to JSON: the missing fields are null" {
	exec_select "$ID"
	run_completed "$T/selection.jsonl"
	jq -c '.powercontext.memory_after.entries = ["not an entry", {"text": "only its text"}]' \
		"$T/records.jsonl" >"$T/odd.jsonl"
	run --separate-stderr pc-normalize <"$T/odd.jsonl"
	assert_exit 0
	# pc-normalize once wrote "version":<invalid> here, which no JSON reader takes
	jq -e . <<<"$output" >/dev/null || fail "not JSON: $output"
	assert_equal "$(jq -c '[.memory_after.entries[] | [.text, .version, .kind]]' <<<"$output")" \
		'[[null,null,null],["only its text",null,null]]'
}

@test "a relative --output still records absolute job and trial directories" {
	exec_select "$ID"
	mkdir -p "$T/work"
	cd "$T/work"
	run --separate-stderr timeout -k 10 "$EXEC_LIMIT" pc-run-bub --output rel-out <"$T/selection.jsonl"
	assert_exit 0
	save_stdout "$T/records.jsonl"
	[[ $(rec_r .status) == completed ]] || fail "run failed: $(rec .errors)"
	local trial
	trial=$(trial_dir)
	[[ $trial == /* ]] || fail "trial_dir is relative: $trial"
	[[ $(rec_r .job_dir) == /* ]] || fail "job_dir is relative: $(rec_r .job_dir)"
	[[ -d $trial ]] || fail "no trial directory at $trial"
	# The Harbor contract: trial_uri is the file:// URI of the resolved trial dir.
	local uri
	uri=$(jq -r .trial_uri "$T/work/rel-out/$ID/harbor-jobs"/*/*/result.json)
	[[ $uri == file:///* ]] || fail "trial_uri is not an absolute file URI: $uri"
	# A saved record normalizes from anywhere.
	cd "$T"
	exec_normalize
	[[ $(jq -r .harbor.trial_name "$T/replays.jsonl") != null ]] || fail "replay lost the Harbor trial result"
	[[ $(jq '.native_artifacts | length' "$T/replays.jsonl") == 6 ]] || fail "replay lost the native ACP artifacts"
}

@test "task_checksum is computed from the task directory as run, not copied from the selection" {
	copy_catalog "$T/cat"
	run --separate-stderr pc-select --manifests "$T/cat/manifests" --root "$T/cat" --id "$ID"
	assert_exit 0
	save_stdout "$T/selection.jsonl"
	local task="$T/cat/manifests/harbor-tasks/$ID" pinned now
	pinned=$(jq -r .task.checksum "$T/selection.jsonl")
	# The task changes between selection and run.
	echo "changed after selection" >"$task/steps/capture/notes.txt"
	now=$(harbor_checksum "$task")
	[[ $now != "$pinned" ]] || fail "the change did not change the checksum"
	exec_run_bub "$T/selection.jsonl"
	assert_exit 0
	[[ $(jq -r .task_checksum "$(trial_dir)/result.json") == "$now" ]] ||
		fail "trial result.json task_checksum is $(jq -r .task_checksum "$(trial_dir)/result.json"); the task as run hashes to $now (the selection said $pinned)"
	exec_normalize
	exec_evaluate
	[[ $(jq -c '.cases[0].assertions.task_provenance_matches.value' "$T/evals.jsonl") == false ]] ||
		fail "task_provenance_matches holds for a task that changed"
}

@test "secrets: an agent that prints 1.4.1's credentials, raw, JSON-escaped, base64 and URL-encoded, leaves none in any file or stream" {
	# regression: GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, POWERCONTEXT_BUB_AUTHORIZATION and *_TOKEN_* were no secrets
	export GITHUB_TOKEN=ghp-e2e/github+token-01 AWS_SECRET_ACCESS_KEY=aws/e2e+secret-access-02
	export POWERCONTEXT_BUB_AUTHORIZATION=bearer/e2e+authorization-03 CI_TOKEN_VALUE=ci/e2e+token-value-04
	local forms
	forms=$(python3 -c '
import base64, json, os, urllib.parse
for name in ("GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "POWERCONTEXT_BUB_AUTHORIZATION", "CI_TOKEN_VALUE"):
    s = os.environ[name]
    for form in (s, json.dumps(s)[1:-1], base64.b64encode(s.encode()).decode(), urllib.parse.quote(s, safe="")):
        print(form)')
	exec_select "$ID"
	exec_peer echo "PEER_SAY=$(paste -sd, <<<"$forms")"
	run_completed "$T/selection.jsonl" --agent "$PEER_AGENT"
	printf '%s\n%s\n' "$output" "$stderr" >"$T/streams.txt"
	exec_normalize --output "$OUT"
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	exec_evaluate --output "$OUT"
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	exec_report --output "$OUT"
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	assert_files "$OUT/$ID/replay.json" "$OUT/$ID/eval-report.json" "$OUT/$ID/report.md"
	local form
	while read -r form; do
		refute_secret "$form" "$OUT" "$T/streams.txt"
	done <<<"$forms"
	# and the agent did print them: its message is in the trial's files, redacted
	grep -rqF '[REDACTED]' "$(trial_dir 0)" || fail "the peer's message reached no file"
}

@test "secrets: BUB_API_KEY and the PowerContext token reach no artifact and no stream" {
	local key=sk-test-secret-123
	exec_select "$ID"
	POWERCONTEXT_CLIENT_SERVER_URL=$(exec_server_url auth)
	export POWERCONTEXT_CLIENT_API_TOKEN="$AUTH_TOKEN" BUB_API_KEY="$key"
	run_completed "$T/selection.jsonl"
	printf '%s\n%s\n' "$output" "$stderr" >"$T/streams.txt"
	exec_normalize --output "$OUT"
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	exec_evaluate --output "$OUT"
	assert_exit 0
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	exec_report --output "$OUT"
	assert_exit 0
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	assert_files "$OUT/$ID/replay.json" "$OUT/$ID/eval-report.json" "$OUT/$ID/report.md"
	refute_secret "$key" "$OUT" "$T/streams.txt"
	refute_secret "$AUTH_TOKEN" "$OUT" "$T/streams.txt"
}

@test "model-backed workload without BUB_MODEL: refused before anything runs" {
	exec_select terminal-bench-db-wal-recovery
	exec_run_bub "$T/selection.jsonl"
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains terminal-bench-db-wal-recovery BUB_MODEL
	[[ ! -e $OUT ]] || fail "pc-run-bub created $OUT: $(find "$OUT")"
	[[ -z $(ls -A "$TMPDIR") ]] || fail "pc-run-bub left files in TMPDIR: $(ls -A "$TMPDIR")"
}

@test "pc-run-bub usage and input errors" {
	exec_select "$ID"
	exec_run_bub "$T/selection.jsonl" --runner bogus
	assert_exit 64
	assert_stdout_empty
	assert_stderr_contains "--runner"

	# nan, inf, hex and out of range: tests/plan.bats
	exec_run_bub "$T/selection.jsonl" --agent-timeout soon
	assert_exit 64
	assert_stderr_contains '--agent-timeout must be a positive number of seconds up to 1000000000, not "soon"'

	exec_run_bub /dev/null
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "no selections"

	# A run record is not a selection (made without a server: it fails fast).
	POWERCONTEXT_CLIENT_SERVER_URL=$(exec_closed_url)
	exec_run_bub "$T/selection.jsonl"
	assert_exit 0
	cp "$T/records.jsonl" "$T/a-record.jsonl"
	exec_run_bub "$T/a-record.jsonl"
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "stdin:1" "powercontext.e2e-selection/v1"
	[[ -z $(ls -A "$TMPDIR") ]] || fail "pc-run-bub left files in TMPDIR: $(ls -A "$TMPDIR")"
}

@test "a task.toml with arrays nested 100,000 deep fails the record with its file and line, not a stack overflow" {
	# regression: pc-run-bub crashed (SIGSEGV) in the recursive TOML reader
	cp -R "$TASK" "$T/deep-task"
	python3 -c "print('version = \"1.3\"'); print('x = ' + '[' * 100000 + ']' * 100000)" >"$T/deep-task/task.toml"
	exec_select "$ID"
	jq -c --arg d "$T/deep-task" '.task.dir = $d' "$T/selection.jsonl" >"$T/deep.jsonl"
	exec_peer echo
	exec_run_bub "$T/deep.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	assert_contains "$(rec_r '.errors[]')" "$T/deep-task/task.toml:2: unsupported or invalid TOML: arrays nested deeper than 64 levels" "errors"
}

@test "the verifier runs with the sandbox's base environment, none of pc-run-bub's variables or secrets" {
	# regression: the verifier inherited the whole host environment, secrets included
	cp -R "$TASK" "$T/env-task"
	printf '#!/bin/sh\nenv > /logs/verifier/env.txt\necho 1 > /logs/verifier/reward.txt\n' >"$T/env-task/steps/capture/tests/test.sh"
	exec_select "$ID"
	jq -c --arg d "$T/env-task" '.task.dir = $d' "$T/selection.jsonl" >"$T/env.jsonl"
	exec_peer echo
	OPENAI_API_KEY=pc-e2e-test-key-1 AWS_SECRET_ACCESS_KEY=pc-e2e-test-key-2 \
		exec_run_bub "$T/env.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	local dump
	dump="$(trial_dir)/steps/capture/verifier/env.txt"
	assert_files "$dump"
	! grep -qE '^(OPENAI_API_KEY|AWS_SECRET_ACCESS_KEY|POWERCONTEXT_CLIENT_SERVER_URL|PC_E2E_[A-Z_]*)=' "$dump" ||
		fail "the verifier saw pc-run-bub's environment: $(grep -E '^(OPENAI|AWS|POWERCONTEXT|PC_E2E)' "$dump")"
	grep -qx 'PATH=/usr/local/bin:/usr/bin:/bin' "$dump" || fail "the verifier has no sandbox PATH: $(cat "$dump")"
	grep -qx 'HOME=/tmp' "$dump" || fail "the verifier has no sandbox HOME: $(cat "$dump")"
}
