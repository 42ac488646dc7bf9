#!/usr/bin/env bats
# make acceptance's pipeline (pipelines/acceptance) on pc-e2e's whole catalog
# through the release's real Bub, on a Server of its own: both legs, and
# rescore (docs/DESIGN.md §1, §5). A suite of its own, beside tests/run.bats,
# because it is the longest test: make test runs the two side by side.

load test_helper
load exec_helper

# No Server of the file's own: the pipeline starts its own.
setup_file() {
	exec_setup_file
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
}

@test "acceptance: both legs pass, fail-fast skips the follow-up, and rescore reproduces them" {
	# its C is the "full pipeline" test's and the policy suite's, which the
	# sanitizer run keeps; its 100 s are Bub's, and CI's acceptance legs run it again
	[[ -z ${PC_SANITIZED:-} ]] || skip "the whole catalog through real Bub: not again under the sanitizers"
	local -a ids members
	mapfile -t ids < <(pc-select --manifests "$REPO/manifests" --root "$REPO" | jq -r .workload.id)
	[[ ${#ids[@]} -eq 7 ]] || fail "expected 7 acceptance workloads, got: ${ids[*]}"
	mapfile -t members < <(pc-select --manifests "$REPO/manifests" --root "$REPO" --category batch:acceptance | jq -r .workload.id)
	# a hang guard for both legs of the whole catalog (ten workloads), not for
	# one run: about 85 s on two idle cores, but Bub's start-up, a few seconds
	# a step, took it past 300 s on a loaded machine (make test runs suites side by side)
	run --separate-stderr env OUTPUT="$T/acc" timeout -k 10 "$((EXEC_LIMIT * 3))" "$REPO/pipelines/acceptance" 3>&-
	assert_exit 0
	# where a workload's files are: a member of the merged batch in the batch's tasks/
	dir_of() {
		if [[ " ${members[*]} " == *" $1 "* ]]; then echo "batch-acceptance/tasks/$1"; else echo "$1"; fi
	}
	local id dir
	for id in "${ids[@]}"; do
		dir=$(dir_of "$id")
		assert_files "$T/acc/$dir/replay.json" "$T/acc/$dir/eval-report.json" "$T/acc/$dir/report.md"
		schema_ok e2e-evidence "$T/acc/$dir/replay.json"
		schema_ok e2e-evaluation "$T/acc/$dir/eval-report.json"
		[[ $(jq -r .experiment "$T/acc/$dir/eval-report.json") == "e2e:$id" ]] || fail "$id: experiment"
	done
	for leg in "" fail-fast/; do
		[[ $(jq -c '[.experiment, [.cases[].name]]' "$T/acc/${leg}batch-acceptance/eval-report.json") == \
			"$(printf '%s\n' "${members[@]}" | jq -Rsc '["e2e:batch:acceptance", split("\n")[:-1]]')" ]] ||
			fail "${leg}batch-acceptance/eval-report.json: $(jq -c '[.experiment, [.cases[].name]]' "$T/acc/${leg}batch-acceptance/eval-report.json")"
		run find "$T/acc/${leg}batch-acceptance/harbor-jobs" -mindepth 1 -maxdepth 1
		[[ ${#lines[@]} -eq 1 ]] || fail "${leg}batch-acceptance is not one job: $output"
	done
	# the collect-all leg ran the follow-up; the fail-fast leg stopped at the timeout
	local member=$T/acc/batch-acceptance/tasks fast=$T/acc/fail-fast/batch-acceptance/tasks
	[[ $(jq -r .status "$member/failure-policy-followup/replay.json") == completed ]] || fail "collect-all skipped the follow-up"
	[[ $(jq -r .status "$fast/failure-policy-timeout/replay.json") == failed ]] || fail "the timeout did not fail"
	[[ $(jq -c '[.status, .errors, .memory_after.entries, .probes, .native_artifacts]' "$fast/failure-policy-followup/replay.json") == '["skipped",[],[],[],[]]' ]] ||
		fail "fail-fast ran the follow-up: $(jq -c . "$fast/failure-policy-followup/replay.json")"
	[[ $(jq -c '.cases[0].assertions.execution_outcome.value' "$fast/failure-policy-followup/eval-report.json") == true ]] ||
		fail "the expected skip was not accepted"

	run --separate-stderr env OUTPUT="$T/rescored" "$REPO/pipelines/rescore" "$T/acc"
	assert_exit 0
	local cases='[.cases[] | {name, assertions, scores, labels, metrics}]'
	for id in "${ids[@]}"; do
		dir=$(dir_of "$id")
		assert_files "$T/rescored/$dir/eval-report.json"
		[[ $(jq -r .experiment "$T/rescored/$dir/eval-report.json") == "offline:$id" ]] || fail "$id: rescored experiment"
		[[ $(jq -cS "$cases" "$T/rescored/$dir/eval-report.json") == "$(jq -cS "$cases" "$T/acc/$dir/eval-report.json")" ]] ||
			fail "$id: rescore differs:
$(diff <(jq -S "$cases" "$T/acc/$dir/eval-report.json") <(jq -S "$cases" "$T/rescored/$dir/eval-report.json"))"
	done
	# the fail-fast leg is rescored under its own policy, beside the other, its batch's aggregate too
	[[ $(jq -cS "$cases" "$T/rescored/fail-fast/batch-acceptance/tasks/failure-policy-followup/eval-report.json") == \
		"$(jq -cS "$cases" "$fast/failure-policy-followup/eval-report.json")" ]] || fail "fail-fast rescore differs"
	[[ $(jq -r .experiment "$T/rescored/fail-fast/batch-acceptance/eval-report.json") == offline:batch:acceptance ]] ||
		fail "rescored aggregate: $(jq -r .experiment "$T/rescored/fail-fast/batch-acceptance/eval-report.json")"
}
