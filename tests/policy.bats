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
# and the follow-up's scores 1 when it runs.
batch_run() {
	run --separate-stderr pc-select --manifests "$REPO/manifests" --root "$REPO" --category batch:acceptance
	assert_exit 0
	save_stdout "$T/batch.jsonl"
	exec_peer echo
	exec_run_bub "$T/batch.jsonl" --agent "$PEER_AGENT" --failure-policy "$1"
	assert_exit 0
}

@test "collect-all runs every workload of a batch, whatever failed before" {
	batch_run collect-all
	run rec '[.workload.id, .status, .failure_policy]'
	assert_output '["project-database-decision","completed","collect-all"]
["failure-policy-timeout","failed","collect-all"]
["failure-policy-followup","completed","collect-all"]'
}

@test "fail-fast stops a batch at its first failure and records the rest as skipped" {
	batch_run fail-fast
	run rec '[.workload.id, .status, .failure_policy]'
	assert_output '["project-database-decision","completed","fail-fast"]
["failure-policy-timeout","failed","fail-fast"]
["failure-policy-followup","skipped","fail-fast"]'
	# nothing ran for the skipped workload: no job, no Server call, no error
	run rec 'select(.status == "skipped") | [.job_dir, .trial_dir, .errors, .powercontext.readiness, .powercontext.memory_before, .powercontext.memory_after, .powercontext.probes]'
	assert_output '[null,null,[],null,null,null,[]]'
	[[ ! -e $OUT/failure-policy-followup ]] || fail "a skipped workload left files: $(find "$OUT/failure-policy-followup")"
	exec_normalize
	exec_evaluate --failure-policy fail-fast
	# the timeout and the skip are what the fixtures expect; the first
	# workload's Memory is not there (the peer only echoes), so that fails
	assert_exit 2
	run jq -c '[.cases[0].name, (.cases[0].assertions.execution_outcome.value // "memory")]' "$T/evals.jsonl"
	assert_output '["project-database-decision","memory"]
["failure-policy-timeout",true]
["failure-policy-followup",true]'
}

@test "fail-fast leaves workloads outside the failed batch alone" {
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

@test "paired workloads are refused before anything runs" {
	run --separate-stderr pc-select --manifests "$FIXTURES_MANIFESTS" --root "$REPO" --category paired
	assert_exit 0
	save_stdout "$T/paired.jsonl"
	exec_run_bub "$T/paired.jsonl"
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "paired-continuation" "OFF/ON" "paired run"
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
