#!/usr/bin/env bats
# How pc-run-bub meets the Server's API (docs/DESIGN.md §5.9): a full Memory
# listing across pages on a real Server of the release under test, and the
# failed records a Server answering in unknown shapes gets
# (tests/peers/fake_server.py).

load test_helper
load exec_helper

ID=project-database-decision

setup_file() {
	exec_setup_file server
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
	exec_select "$ID"
}

teardown() {
	exec_fake_server_stop
}

# unknown_shape MODE WHAT: against the fake Server in MODE, a Memory workload
# ends in one failed record whose first error names the release (9.9.9) and
# WHAT, before any agent ran; the verdict is inconclusive.
unknown_shape() {
	exec_fake_server "$1"
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	assert_contains "$(rec_r '.errors[0]')" "POST /v1/memory/entries/list: PowerContext 9.9.9 " "first error"
	assert_contains "$(rec_r '.errors[0]')" "$2" "first error"
	[[ $(rec_r .powercontext.server_version) == 9.9.9 ]] || fail "server_version: $(rec_r .powercontext.server_version)"
	[[ $(rec .powercontext.memory_before) == null ]] || fail "memory_before is not null: $(rec .powercontext.memory_before)"
	[[ ! -e "$(trial_dir)/steps" ]] || fail "the agent ran against a Server pc-e2e does not understand"
	exec_assert_inconclusive
}

@test "a scope with 60 Memory entries is listed completely, each entry with its sources" {
	# the workload has two steps, so two prompts of 30 remembers each
	exec_peer remember PEER_REMEMBER=30
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == completed ]] || fail "run not completed: $(rec .errors)"
	[[ $(rec '.powercontext.memory_after.entries | length') == 60 ]] ||
		fail "listed $(rec '.powercontext.memory_after.entries | length') of 60 entries"
	if [[ $(printf '%s\n' 1.3.0 "$(exec_release)" | sort -V | head -n 1) == 1.3.0 ]]; then
		# 1.3.0+ pages by 50 by default: the second page was followed
		[[ $(rec '.powercontext.memory_after.pages') == 2 ]] ||
			fail "pages: $(rec '.powercontext.memory_after.pages')"
	fi
	exec_normalize
	[[ $(jq -c '[.memory_after.entries[].text] | sort' "$T/replays.jsonl") == \
		"$(jq -cn '[range(1; 31), range(1; 31) | "peer fact \(.)"] | sort')" ]] ||
		fail "the replay's entries are not the 60 remembered facts: $(jq -c '[.memory_after.entries[].text]' "$T/replays.jsonl")"
	[[ $(jq -c '[.memory_after.entries[] | (.sources // .source_refs) | length > 0] | all' "$T/replays.jsonl") == true ]] ||
		fail "an entry has no sources: $(jq -c '[.memory_after.entries[] | .sources // .source_refs]' "$T/replays.jsonl")"
}

@test "an entry that is neither atomic Memory nor a Memory entry: a failed record naming the release and the field" {
	unknown_shape unknown-entry "entries[0] has neither artifact (atomic Memory) nor citation (a Memory entry)"
}

@test "a listing without an entries array: a failed record naming the release and the field" {
	unknown_shape no-entries "no entries array (page 1)"
}

@test "a cursor that does not advance ends the listing with an error, not a loop" {
	exec_fake_server same-cursor
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	assert_contains "$(rec_r '.errors[0]')" "PowerContext 9.9.9 returned the cursor it was given" "first error"
}

@test "a Server without /openapi.json: every Memory workload fails naming the question it could not answer" {
	exec_fake_server no-openapi
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	[[ $(rec_r '.errors[0]') == "cannot tell which PowerContext the Server is: GET /openapi.json: HTTP 404 not_found: no /openapi.json here" ]] ||
		fail "first error: $(rec_r '.errors[0]')"
	[[ $(rec .powercontext.server_version) == null ]] || fail "server_version: $(rec .powercontext.server_version)"
	[[ $(rec_r .environment.commit) == unknown ]] || fail "environment.commit: $(rec_r .environment.commit)"
}

@test "a readiness answer that is not JSON fails the record cleanly, before the agent runs" {
	# regression: pc-run-bub aborted (jv_dump_term: Invalid value, rc 134) and wrote no record
	exec_fake_server text-ready
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	assert_contains "$(rec_r '.errors[0]')" "readiness: GET /health/ready: the response is not JSON: <html>502" "first error"
	[[ $(rec .powercontext.readiness) == null ]] || fail "readiness: $(rec .powercontext.readiness)"
}

@test "a probe answer that is not JSON fails the record cleanly and keeps the agent's evidence" {
	# regression: the same abort after the agent ran, so its evidence was lost
	exec_fake_server text-prepare
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "status: $(rec_r .status)"
	assert_contains "$(rec_r '.errors[]')" "POST /v1/context/prepare: the response is not JSON: <html>502" "errors"
	[[ $(rec '.powercontext.probes[0].response') == null ]] || fail "probe: $(rec '.powercontext.probes[0]')"
	assert_json_files "$(trial_dir)/result.json" "$(trial_dir)/steps/capture/agent/acp-summary.json"
}
