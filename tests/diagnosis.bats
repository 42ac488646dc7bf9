#!/usr/bin/env bats
# Why a workload failed (issue 24, docs/DESIGN.md §3.6): pc-evaluate's
# diagnosis beside each case and pc-report's EXPECTED → ACTUAL, on replays of
# real runs (tests/fixtures/replays/real/, 1.4.1 on SQLite, real Bub) each
# changed in one way: the plain text report shows the failing assertion with
# its EXPECTED and ACTUAL values and the evidence that decides it, and
# nothing of the passing ones; -v and -vv add what they promise.

load test_helper

REAL="$FIXTURES/replays/real"

setup() {
	pc_setup
}

# diagnose FIXTURE FILTER [PC-REPORT ARGS...]: the fixture changed by FILTER,
# evaluated, then the text report; the evaluation in $T/eval.json, the
# report in $output.
diagnose() {
	local fixture=$1 filter=$2
	shift 2
	jq "$filter" "$REAL/$fixture.json" >"$T/replay.json"
	run --separate-stderr pc-evaluate <"$T/replay.json"
	save_stdout "$T/eval.json"
	schema_ok e2e-evaluation "$T/eval.json"
	run --separate-stderr pc-report --format text "$@" <"$T/eval.json"
}

# only_failing NAME: the report's assertion lines are NAME's FAIL line alone.
only_failing() {
	[[ $(grep -cE '^    (FAIL|pass) ' <<<"$output") == 1 ]] || fail "other assertions shown: $output"
	assert_line --partial "    FAIL $1"
}

@test "the real replays are accepted as they ran" {
	local f
	for f in scripted-release-window failure-policy-timeout project-database-decision; do
		run --separate-stderr pc-evaluate <"$REAL/$f.json"
		assert_status 0
	done
}

@test "a probe missing one fragment: the probe, the fragment, and the context it got" {
	diagnose scripted-release-window \
		'.task.evaluation.probes[0].expected_context += ["00:15 UTC"]'
	assert_status 2
	only_failing recall_probes_supported
	assert_line '        EXPECTED coverage 1'
	assert_line '        ACTUAL   coverage 0.5, supported 1, positive 2'
	assert_line '        probe release-window · missing 1 of 2 fragments'
	assert_line '          EXPECTED ["00:15 UTC"]'
	assert_line --regexp '^          ACTUAL   prepared context \(ready, [0-9]+ bytes\): "….*22:00 and 23:30 UTC.*"$'
	assert_line '          query    "When may the ledger service be released tonight?"'
}

@test "a probe missing every fragment: the excerpt shows the items it recalled, not the preamble; -vv the whole context" {
	diagnose project-database-decision '.task.evaluation.probes[0].expected_context = ["PostgreSQL"]'
	assert_status 2
	only_failing recall_probes_supported
	assert_line '        probe database-decision · missing 1 of 1 fragments'
	assert_line --regexp '^          ACTUAL   prepared context \(ready, [0-9]+ bytes\), its recalled items: "Project decision: the project selected OceanBase as its database because shared agent context needs MySQL-compatible, multi-node persistent storage\."$'
	refute_output --partial 'PowerContext prepared untrusted historical context'
	refute_line '          context'
	run --separate-stderr pc-report --format text -v <"$T/eval.json"
	refute_line '          context'
	run --separate-stderr pc-report --format text -vv <"$T/eval.json"
	assert_status 2
	local whole
	whole=$(jq -r '.probes[0].prepared_context.content' "$T/replay.json" | sed 's/^./            &/')
	[[ $output == *$'\n          query    "Which project decision selected multi-node persistent storage?"\n          context\n'"$whole"$'\n    pass '* ]] ||
		fail "no whole context under the probe: $output"
}

@test "a probe's whole context under -vv: its control characters escaped, not sent to the terminal" {
	diagnose scripted-release-window \
		'.task.evaluation.probes[0].expected_context = ["00:15 UTC"] | .probes[0].prepared_context.content |= . + "\u001b[2J\u0007"' -vv
	assert_status 2
	assert_line '            END_POWERCONTEXT_PREPARED_CONTEXT_V1\x1b[2J\x07'
	[[ $output != *$'\e'* && $output != *$'\a'* ]] || fail "a control character reached the report"
}

@test "a forbidden fragment recalled: the probe, the fragment, and where the context holds it" {
	diagnose scripted-release-window \
		'.task.evaluation.probes[0].forbidden_context = ["ledger service"] | .probes[0].forbidden_context_matched = null'
	assert_status 2
	assert_line --partial '    FAIL forbidden_context_absent'
	assert_line '        EXPECTED matched []'
	assert_line '        ACTUAL   matched ["release-window"]'
	assert_line '        probe release-window · recalled forbidden context'
	assert_line '          EXPECTED none of ["ledger service"]'
	assert_line --regexp '^          ACTUAL   prepared context \(ready, [0-9]+ bytes\): ".*ledger service.*"$'
	refute_line --partial '    pass '
}

@test "an expected Memory fragment in no entry: the fragment and the nearest entry" {
	diagnose scripted-release-window '.task.evaluation.expected_memory += ["5 database replicas"]'
	assert_status 2
	only_failing expected_memory_recorded
	assert_line --regexp '^        fragment "3 database replicas" · in entry ".*3 database replicas.*"$'
	assert_line --regexp '^        fragment "5 database replicas" · in no Memory entry; nearest: "Tonight.s release of the ledger service needs 3 database replicas.*"$'
}

@test "an ungrounded entry: its text and the Sources it cites that were never captured" {
	diagnose scripted-release-window \
		'.memory_after.entries[0].sources = [{"name": "content", "source_id": "bub-event:never-captured"}]'
	assert_status 2
	only_failing memory_grounded
	assert_line '        EXPECTED groundedness 0.8'
	assert_line '        ACTUAL   groundedness 0.5, grounded 1, created 2'
	assert_line --regexp '^        ungrounded: cites \["bub-event:never-captured"\], not_captured \["bub-event:never-captured"\], text "Tonight.s release.*"$'
}

@test "capture below its threshold: the coverage and the events not captured" {
	diagnose scripted-release-window \
		'.capture_records |= (map(if .event == "llm_result" then .status = "failed" else . end))'
	assert_status 2
	assert_line --partial '    FAIL capture_coverage_accepted'
	assert_line '        EXPECTED coverage 0.9'
	assert_line --regexp '^        ACTUAL   coverage 0\.[0-9]+, captured [0-9]+, eligible [0-9]+$'
	assert_line --regexp '^        not_captured: event "llm_result", sequence [0-9]+, status "failed"$'
}

@test "a checksum mismatch: the pinned checksum and the one that ran" {
	diagnose scripted-release-window '.harbor.task_checksum = ("0" * 64)'
	assert_status 2
	only_failing task_provenance_matches
	assert_line "        EXPECTED checksum \"$(jq -r .task.dataset.checksum "$REAL/scripted-release-window.json")\""
	assert_line "        ACTUAL   checksum \"$(printf '0%.0s' {1..64})\""
}

@test "a skipped member: EXPECTED completed, ACTUAL skipped, and why" {
	diagnose project-database-decision '.status = "skipped"'
	assert_status 3
	only_failing execution_completed
	assert_line '        EXPECTED "completed"'
	assert_line '        ACTUAL   "skipped"'
	assert_line '        why "an earlier task of its batch stopped the shared Harbor trial (fail-fast)"'
}

@test "an outcome workload whose step timed out: the status and reward, and Harbor's exception" {
	diagnose failure-policy-timeout '.task.evaluation.expected_execution["collect-all"] = "completed"'
	assert_status 2
	only_failing execution_outcome
	assert_line '        EXPECTED status "completed", reward 1'
	assert_line '        ACTUAL   status "failed", reward 0'
	assert_line --regexp '^        rewards \{"reward":0\}, exception_type "AgentTimeoutError", exception_message ".+", policy \{"collect-all":"completed","fail-fast":"failed"\}$'
}

@test "-v adds every assertion with its actual values; -vv the identities behind the result" {
	diagnose scripted-release-window '.task.evaluation.expected_memory += ["5 database replicas"]' -v
	assert_line '    pass scope_started_empty: Scope started with 0 Memory entries. · entries_before 0'
	assert_line --regexp '^    pass memory_created_during_run: .* · created 2, checkpoints [0-9]+, entries_before 0, entries_after 2$'
	refute_line --partial 'run_id: '
	run --separate-stderr pc-report --format text -vv <"$T/eval.json"
	assert_line "    run_id: \"$(jq -r .run_id "$REAL/scripted-release-window.json")\""
	assert_line "    task_checksum: \"$(jq -r .harbor.task_checksum "$REAL/scripted-release-window.json")\""
	assert_line '    adapter_version: "bub 0.5.1 + powercontext-bub 0.0.1"'
	assert_line '    powercontext: "1.4.1"'
	assert_line '    database: "sqlite"'
	assert_line --regexp '^    manifest_digest: [0-9a-f]{64}$'
	assert_line --regexp '^    trial_uri: "file:///srv/pc-e2e/out/harbor-jobs/.*"$'
}

@test "a 10 MB prepared context keeps the diagnosis bounded (-vv its first 32 KiB), and a secret in it never reaches it, cut or whole" {
	export PC_E2E_DIAGNOSIS_API_KEY=sk-diagnosis-secret-0123456789abcdef
	# the secret sits where the excerpt is cut, around the fragment it must
	# show, and where the whole context is cut, 32 KiB in
	diagnose scripted-release-window "
		.task.evaluation.probes[0].expected_context += [\"00:15 UTC\"] |
		.probes[0].prepared_context.content = (\"x\" * 32750) + \" $PC_E2E_DIAGNOSIS_API_KEY \" + (\"x\" * 10000000) + \" key $PC_E2E_DIAGNOSIS_API_KEY 22:00 and 23:30 UTC \" + (\"y\" * 100)" -vv
	assert_status 2
	local size
	size=$(jq -c '.cases[0].attributes.diagnosis' "$T/eval.json" | wc -c)
	[[ $size -lt 36864 ]] || fail "the diagnosis is $size bytes"
	! grep -q 'sk-diagnosis' "$T/eval.json" <<<"" || fail "a piece of the secret reached the evaluation"
	! grep -q 'sk-diagnosis' <<<"$output" || fail "a piece of the secret reached the report"
	assert_line --regexp '^          ACTUAL   prepared context \(ready, 100[0-9]+ bytes\): "…x+ key \[REDACTED\] 22:00 and 23:30 UTC y+"$'
	assert_line --regexp '^            x{32750} \[REDACTED\] x+…$'
}

# ---- freshness ----

@test "make rescore after editing one probe of one workload: that workload is stale (4), the others as before; reverted, as before" {
	mkdir -p "$T/replays/a" "$T/replays/b"
	cp "$REAL/scripted-release-window.json" "$T/replays/a/replay.json"
	cp "$REAL/project-database-decision.json" "$T/replays/b/replay.json"
	cp -r "$REPO/manifests" "$T/catalog"
	run --separate-stderr env CATALOG="$T/catalog" CATALOG_ROOT="$REPO" PC_BIN="$PC_BIN" "$REPO/pipelines/rescore" "$T/replays"
	assert_status 0
	sed -i 's/When may the ledger service be released tonight?/When can the ledger service be released tonight?/' \
		"$T/catalog/scripted-release-window.yaml"
	run --separate-stderr env CATALOG="$T/catalog" CATALOG_ROOT="$REPO" PC_BIN="$PC_BIN" "$REPO/pipelines/rescore" "$T/replays"
	assert_status 4
	assert_output --partial "stale: the catalog changed evaluation.probes since it ran"
	run --separate-stderr bash -c 'cat "$1"/*/replay.json | "$2/pc-evaluate" --catalog "$3" --root "$4" | "$2/pc-report" --format text' \
		_ "$T/replays" "$PC_BIN" "$T/catalog" "$REPO"
	assert_status 4
	assert_line "stale        scripted-release-window"
	assert_line "accepted     project-database-decision"
	assert_line "2 workloads: 1 accepted, 0 failed, 0 inconclusive, 1 stale"
	cp "$REPO/manifests/scripted-release-window.yaml" "$T/catalog/"
	run --separate-stderr env CATALOG="$T/catalog" CATALOG_ROOT="$REPO" PC_BIN="$PC_BIN" "$REPO/pipelines/rescore" "$T/replays"
	assert_status 0
}

@test "a workload the catalog no longer has is stale; a stale failure is still a failure (2 over 4)" {
	mkdir -p "$T/catalog"
	cp "$REPO/manifests/acceptance-01-project-database-decision.yaml" "$T/catalog/"
	jq -c . "$REAL/scripted-release-window.json" "$REAL/project-database-decision.json" >"$T/in.jsonl"
	run --separate-stderr pc-evaluate --catalog "$T/catalog" --root "$REPO" <"$T/in.jsonl"
	assert_status 4
	[[ $(jq -c 'select(.cases[0].name == "scripted-release-window") | .cases[0].attributes.stale' <<<"$output") == '{"removed":true}' ]] ||
		fail "$output"
	jq -c '.harbor.task_checksum = ("0" * 64)' "$REAL/scripted-release-window.json" >"$T/bad.json"
	run --separate-stderr pc-evaluate --catalog "$T/catalog" --root "$REPO" <"$T/bad.json"
	assert_status 2
	run --separate-stderr pc-evaluate --root "$REPO" <"$T/bad.json"
	assert_status 64
	assert_stderr_contains "--root needs --catalog"
}
