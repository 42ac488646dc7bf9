#!/usr/bin/env bats
# PowerContext 1.4.1's execution contract in pc-run-bub: the failure policy
# over batch:<name> groups, skipped records, outcome workloads, Harbor's
# min_reward gate, forbidden context in probes and the refusal of paired
# workloads (docs/DESIGN.md §5), against a real PowerContext Server.

load test_helper
load exec_helper

FIXTURES_MANIFESTS="$REPO/tests/fixtures/policy-manifests"

setup_file() {
	exec_setup_file server
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
}

# batch_run POLICY: the repository's batch:acceptance group on the echo peer,
# which answers every prompt at once: project-database-decision completes
# (its Memory is not judged here), the timeout fixture's verifier scores 0,
# and the follow-up's scores 1 when it runs.  Each invocation notes the Scope
# and model it was bound to in its step's agent/env-seen.txt.
batch_run() {
	run --separate-stderr pc-select --manifests "$REPO/manifests" --root "$REPO" --category batch:acceptance
	assert_exit 0
	save_stdout "$T/batch.jsonl"
	exec_peer echo PEER_ENV_SEEN=/logs/agent/env-seen.txt
	exec_run_bub "$T/batch.jsonl" --agent "$PEER_AGENT" --failure-policy "$1"
	assert_exit 0
}

# pinned ID: the checksum the repository's manifest of workload ID pins.
pinned() {
	grep -h -A4 "task_id: $1\$" "$REPO"/manifests/*.yaml | sed -n 's/^ *checksum: //p'
}

@test "collect-all: a batch's workloads share one trial, each step bound to its member's Scope, every member run" {
	batch_run collect-all
	run rec '[.workload.id, .status, .failure_policy]'
	assert_output '["project-database-decision","completed","collect-all"]
["failure-policy-timeout","failed","collect-all"]
["failure-policy-followup","completed","collect-all"]'
	# one run, one job, one trial; a Scope per member
	run jq -sc '[(map(.run_id) | unique | length), (map(.job_dir) | unique | length), (map(.trial_dir) | unique | length), (map(.scope_id) | unique | length)]' "$T/records.jsonl"
	assert_output '[1,1,1,3]'
	[[ $(rec_r '.run_id' | head -1) =~ ^batch-acceptance-[0-9a-f]{12}$ ]] || fail "run id: $(rec_r .run_id)"
	[[ $(rec_r .job_dir | head -1) == "$OUT"/batch-acceptance/harbor-jobs/batch-acceptance-* ]] || fail "job dir: $(rec_r .job_dir)"
	# the merged task: the members' steps, prefixed, in order, none gated
	run jq -c '[.step_results[].step_name]' "$(trial_dir)/result.json"
	assert_output '["project-database-decision-capture","project-database-decision-recall","failure-policy-timeout-run","failure-policy-followup-run"]'
	run rec '.batch.steps'
	assert_output '["project-database-decision-capture","project-database-decision-recall"]
["failure-policy-timeout-run"]
["failure-policy-followup-run"]'
	task=$(echo "$OUT"/batch-acceptance/harbor-runtime-dataset/batch-acceptance-*)
	assert_files "$task/task.toml" "$task/environment/Dockerfile" "$task/steps/failure-policy-timeout-run/instruction.md"
	run grep -c min_reward "$task/task.toml"
	assert_output 0
	# each member's own checksum
	for id in project-database-decision failure-policy-timeout failure-policy-followup; do
		[[ $(rec_r "select(.workload.id == \"$id\") | .batch.source_task_checksum") == "$(pinned "$id")" ]] ||
			fail "$id: source_task_checksum $(rec_r "select(.workload.id == \"$id\") | .batch.source_task_checksum"), pinned $(pinned "$id")"
	done
	# each invocation on its member's Scope (the timeout fixture's agent may
	# be stopped before it answers, so it is not asked)
	assert_scopes_bound project-database-decision failure-policy-followup
}

@test "a merged batch's evidence is laid out as PowerContext 1.4.1 lays it out, each member with its own steps" {
	batch_run collect-all
	exec_normalize --output "$OUT"
	exec_evaluate --output "$OUT"
	exec_report --output "$OUT"
	for id in project-database-decision failure-policy-timeout failure-policy-followup; do
		assert_files "$OUT/batch-acceptance/tasks/$id/replay.json" "$OUT/batch-acceptance/tasks/$id/eval-report.json" \
			"$OUT/batch-acceptance/tasks/$id/report.md"
		[[ ! -e $OUT/$id ]] || fail "a member wrote $OUT/$id"
	done
	assert_files "$OUT/batch-acceptance/eval-report.json" "$OUT/batch-acceptance/report.md"
	run jq -c '[.experiment, [.cases[].name], [.cases[].attributes.batch]]' "$OUT/batch-acceptance/eval-report.json"
	assert_output '["e2e:batch:acceptance",["project-database-decision","failure-policy-timeout","failure-policy-followup"],["acceptance","acceptance","acceptance"]]'
	# the batch's report.md is 1.4.1's summary: every member's evaluation in one block
	run grep -cxE 'project-database-decision|failure-policy-timeout|failure-policy-followup' "$OUT/batch-acceptance/report.md"
	assert_output 3
	# the accepted outcome member reads as it ran (issue 36)
	grep -qxF -- '- Collection status: `completed`' "$OUT/batch-acceptance/tasks/failure-policy-followup/report.md"
	grep -qxF -- '- `reward`: `1`' "$OUT/batch-acceptance/tasks/failure-policy-followup/report.md"
	# a member's replay holds its own steps' evidence and rewards only
	run jq -c '[.harbor.source_task_checksum == .task.dataset.checksum, .harbor.rewards, ([.native_artifacts[].name | split("/")[1]] | unique)]' \
		"$OUT/batch-acceptance/tasks/failure-policy-timeout/replay.json"
	assert_output '[true,{"reward":0},["failure-policy-timeout-run"]]'
	run jq -c '[.harbor.rewards, ([.native_artifacts[].name | split("/")[1]] | unique)]' "$OUT/batch-acceptance/tasks/project-database-decision/replay.json"
	assert_output '[{"reward":1},["project-database-decision-capture","project-database-decision-recall"]]'
	# the task Harbor ran is the merged one, the same for every member
	run jq -sc 'map(.harbor.task_checksum) | unique | length' "$OUT"/batch-acceptance/tasks/*/replay.json
	assert_output 1
}

@test "fail-fast stops a batch's shared trial at its first step below 1 and records the members after it as skipped" {
	batch_run fail-fast
	run rec '[.workload.id, .status, .failure_policy]'
	assert_output '["project-database-decision","completed","fail-fast"]
["failure-policy-timeout","failed","fail-fast"]
["failure-policy-followup","skipped","fail-fast"]'
	# Harbor's own gate: every merged step at min_reward 1, the trial ended at the timeout's
	task=$(echo "$OUT"/batch-acceptance/harbor-runtime-dataset/batch-acceptance-*)
	run grep -c '^min_reward = 1$' "$task/task.toml"
	assert_output 4
	run jq -c '[.step_results[].step_name]' "$(trial_dir)/result.json"
	assert_output '["project-database-decision-capture","project-database-decision-recall","failure-policy-timeout-run"]'
	# the skipped member ran nothing and has no final Memory, but had its Scope and baseline
	run rec 'select(.status == "skipped") | [.errors, .powercontext.memory_after, .powercontext.probes, (.job_dir != null)]'
	assert_output '[[],null,[],true]'
	exec_normalize
	exec_evaluate --failure-policy fail-fast
	# the timeout and the skip are what the fixtures expect; the first
	# workload's Memory is not there (the peer only echoes), so that fails
	assert_exit 2
	run jq -c '[.cases[0].name, (.cases[0].assertions.execution_outcome.value // "memory")]' "$T/evals.jsonl"
	assert_output '["project-database-decision","memory"]
["failure-policy-timeout",true]
["failure-policy-followup",true]'
	# rescored without its policy, the skipped member fails, and says how to rescore it
	exec_evaluate
	run jq -r 'select(.cases[0].name == "failure-policy-followup") | .cases[0].attributes.diagnosis.assertions.execution_outcome.evidence.hint' "$T/evals.jsonl"
	assert_output "only a fail-fast run skips this workload: rescore it with --failure-policy fail-fast"
	exec_report --format text
	run grep -c "only a fail-fast run skips this workload: rescore it with --failure-policy fail-fast" "$T/report.txt"
	assert_output 1
}

@test "fail-fast leaves workloads outside the stopped batch alone" {
	run --separate-stderr pc-select --manifests "$REPO/manifests" --root "$REPO" \
		--id failure-policy-timeout --id failure-policy-followup --id locomo-support-group
	assert_exit 0
	save_stdout "$T/mixed.jsonl"
	exec_peer echo
	exec_run_bub "$T/mixed.jsonl" --agent "$PEER_AGENT" --failure-policy fail-fast
	assert_exit 0
	run rec '[.workload.id, .status]'
	assert_output '["failure-policy-timeout","failed"]
["failure-policy-followup","skipped"]
["locomo-support-group","completed"]'
}

@test "a batch whose workloads cannot share a trial is refused before anything runs, naming the workload and what differs" {
	mkdir -p "$T/catalog/manifests" "$T/catalog/tasks"
	cp -r "$REPO/manifests/harbor-tasks/failure-policy-followup" "$REPO/manifests/harbor-tasks/failure-policy-timeout" "$T/catalog/tasks/"
	sed -i 's/^timeout_sec = 60.0/timeout_sec = 61.0/' "$T/catalog/tasks/failure-policy-followup/task.toml"
	for f in acceptance-02-failure-policy-timeout acceptance-03-failure-policy-followup; do
		sed 's#path: manifests/harbor-tasks#path: tasks#' "$REPO/manifests/$f.yaml" >"$T/catalog/manifests/$f.yaml"
	done
	sum=$(harbor_checksum "$T/catalog/tasks/failure-policy-followup")
	sed -i "s/checksum: .*/checksum: $sum/" "$T/catalog/manifests/acceptance-03-failure-policy-followup.yaml"
	run --separate-stderr pc-select --manifests "$T/catalog/manifests" --root "$T/catalog" --category batch:acceptance
	assert_exit 0
	save_stdout "$T/incompatible.jsonl"
	exec_peer echo
	exec_run_bub "$T/incompatible.jsonl" --agent "$PEER_AGENT"
	assert_exit 1
	assert_stderr_contains "batch acceptance: workload failure-policy-followup cannot share a trial with failure-policy-timeout: their harbor differ"
	run cat "$T/records.jsonl"
	assert_output ""
	[[ ! -e $OUT/batch-acceptance ]] || fail "a refused batch left $(find "$OUT/batch-acceptance" | head)"
}

@test "an outcome workload asks nothing of the Server: it runs with none listening" {
	exec_select failure-policy-followup
	exec_peer echo
	POWERCONTEXT_CLIENT_SERVER_URL=$(exec_closed_url)
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	run rec '[.status, .errors, .powercontext.readiness, .powercontext.memory_before, .powercontext.memory_after, .powercontext.probes]'
	assert_output '["completed",[],null,null,null,[]]'
}

@test "a step's own agent timeout in task.toml ([steps.agent]) is honoured" {
	# regression: a [steps.agent] table after [[steps]] aborted pc-run-bub
	exec_select failure-policy-timeout
	exec_peer hang
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec .)"
	assert_contains "$(rec_r '.errors[0]')" "step run: AgentTimeoutError" "first error"
	# as under Harbor, whose ACP runner is killed before it writes them: no
	# summary and no trajectory, the step's exception and events remain
	[[ ! -e "$(trial_dir)/steps/run/agent/acp-summary.json" && ! -e "$(trial_dir)/steps/run/agent/trajectory.json" ]] ||
		fail "a stopped agent left an ACP summary or trajectory: $(ls "$(trial_dir)/steps/run/agent")"
	[[ $(jq -c '.step_results[0] | [.exception_info.exception_type, .agent_result.metadata]' "$(trial_dir)/result.json") == '["AgentTimeoutError",null]' ]] ||
		fail "step result: $(jq -c '.step_results[0]' "$(trial_dir)/result.json")"
	assert_files "$(trial_dir)/steps/run/agent/acp-events.jsonl"
	# the verifier still ran and scored the step
	[[ $(jq -c .verifier_result.rewards "$(trial_dir)/result.json") == '{"reward":0}' ]] ||
		fail "trial rewards: $(jq -c .verifier_result "$(trial_dir)/result.json")"
	assert_peer_gone
}

@test "a step below its min_reward stops the trial: later steps never run" {
	run --separate-stderr pc-select --manifests "$FIXTURES_MANIFESTS" --root "$REPO" --id min-reward-gate
	assert_exit 0
	save_stdout "$T/gate.jsonl"
	exec_peer echo
	exec_run_bub "$T/gate.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec .)"
	[[ $(jq -c '[.step_results[].step_name]' "$(trial_dir)/result.json") == '["first"]' ]] ||
		fail "steps run: $(jq -c '[.step_results[].step_name]' "$(trial_dir)/result.json")"
	[[ ! -e "$(trial_dir)/steps/second" ]] || fail "the second step ran"
}

@test "forbidden context: a matched probe is recorded as matched with its content blanked" {
	run --separate-stderr pc-select --manifests "$FIXTURES_MANIFESTS" --root "$REPO" --id forbidden-oceanbase
	assert_exit 0
	save_stdout "$T/forbidden.jsonl"
	exec_run_bub "$T/forbidden.jsonl"
	assert_exit 0
	[[ $(rec_r .status) == completed ]] || fail "run: $(rec .errors)"
	run rec '.powercontext.probes[] | [.id, .forbidden_context_matched, .response.status, .response.content]'
	assert_output '["database-decision",true,"ready",""]'
	exec_normalize
	run jq -c '.probes[] | [.forbidden_context_matched, .prepared_context.content]' "$T/replays.jsonl"
	assert_output '[true,""]'
	exec_evaluate
	assert_exit 2
	run jq -c '.cases[0].assertions | [.forbidden_context_absent, .recall_probes_supported.value]' "$T/evals.jsonl"
	assert_output "[{\"value\":false,\"reason\":\"Forbidden context matched for probes: ['database-decision'].\"},false]"
}

@test "a probe whose context holds no forbidden fragment is recorded as not matched" {
	exec_select project-database-decision
	exec_run_bub "$T/selection.jsonl"
	assert_exit 0
	run rec '.powercontext.probes[] | [.id, .forbidden_context_matched, (.response.content | contains("OceanBase"))]'
	assert_output '["database-decision",false,true]'
}

@test "paired workloads are refused before anything runs, without --paired" {
	run --separate-stderr pc-select --manifests "$FIXTURES_MANIFESTS" --root "$REPO" --category paired
	assert_exit 0
	save_stdout "$T/paired.jsonl"
	exec_run_bub "$T/paired.jsonl"
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "paired-continuation" "OFF/ON" "under --paired"
	[[ ! -e $OUT ]] || fail "pc-run-bub created $OUT: $(find "$OUT")"
}

@test "--failure-policy takes collect-all or fail-fast only" {
	exec_select failure-policy-followup
	exec_run_bub "$T/selection.jsonl" --failure-policy sometimes
	assert_exit 64
	assert_stdout_empty
	assert_stderr_contains "--failure-policy must be collect-all or fail-fast"
}

@test "1.4.1's own project-database-decision: a failed agent session leaves the step-failure marker and its verifier scores 0 (local runner)" {
	# regression: the marker was never made, so a failed session scored 1
	exec_assert_step_failure_marker local
}

@test "1.4.1's own batch:acceptance is one shared trial on the local runner, and a failed first session stops it under fail-fast" {
	exec_assert_release_batch local
}
