#!/usr/bin/env bats
# pc-report: evaluations in, verdicts for people and CI out (DESIGN §1, §3, §4).
#
# The evaluations are produced once per file by pc-evaluate from replays
# derived from the accepted fixture, and validated against the schema:
#   accepted.jsonl      project-database-decision, every assertion true
#   failed.jsonl        wl-failed: scope_started_empty false
#   inconclusive.jsonl  wl-incon: collection failed ("server down; timeout <5s> & "x"")

load test_helper

setup_file() {
	local dir="$BATS_FILE_TMPDIR"
	{
		replay . -c
		replay '.task.id = "wl-failed" | .memory_before.entries = [entry("old"; [])]' -c
		replay '.task.id = "wl-incon" | .status = "failed" |
			.errors = ["server down", "timeout <5s> & \"x\""]' -c
	} >"$dir/replays.jsonl"
	# 2: one case failed; the verdicts are the point of these fixtures.
	"$PC_BIN/pc-evaluate" <"$dir/replays.jsonl" >"$dir/all.jsonl" || [[ $? -eq 2 ]]
	schema_ok e2e-evaluation "$dir/all.jsonl"
	sed -n 1p "$dir/all.jsonl" >"$dir/accepted.jsonl"
	sed -n 2p "$dir/all.jsonl" >"$dir/failed.jsonl"
	sed -n 3p "$dir/all.jsonl" >"$dir/inconclusive.jsonl"
}

setup() {
	pc_setup
	E="$BATS_FILE_TMPDIR"
}

# report FILE... [-- ARGS...]: pc-report over the concatenated files.
report() {
	local files=()
	while [[ $# -gt 0 && "$1" != -- ]]; do
		files+=("$1")
		shift
	done
	[[ "${1:-}" == -- ]] && shift
	cat "${files[@]}" >"$T/in.jsonl"
	run --separate-stderr pc-report "$@" <"$T/in.jsonl"
}

# ---- exit codes ----

@test "accepted evaluations exit 0" {
	report "$E/accepted.jsonl" -- --format text
	assert_status 0
	assert_output "accepted     project-database-decision
1 workload: 1 accepted, 0 failed, 0 inconclusive"
	[[ -z "$stderr" ]]
}

@test "a failed case exits 2 and lists each false assertion with its reason" {
	report "$E/failed.jsonl" -- --format text
	assert_status 2
	assert_output "failed       wl-failed
    FAIL scope_started_empty: Scope started with 1 Memory entries.
1 workload: 0 accepted, 1 failed, 0 inconclusive"
}

@test "an inconclusive case exits 3" {
	report "$E/inconclusive.jsonl" -- --format text
	assert_status 3
	assert_output 'inconclusive wl-incon
    FAIL collection_completed: server down; timeout <5s> & "x"
1 workload: 0 accepted, 0 failed, 1 inconclusive'
}

@test "a failure takes precedence over an inconclusive case (2 over 3)" {
	report "$E/inconclusive.jsonl" "$E/failed.jsonl" -- --format text
	assert_status 2
	assert_line "2 workloads: 0 accepted, 1 failed, 1 inconclusive"
	report "$E/accepted.jsonl" "$E/inconclusive.jsonl" -- --format json
	assert_status 3
}

@test "every format exits with the verdict" {
	local f
	for f in text markdown json junit; do
		report "$E/accepted.jsonl" -- --format "$f"
		assert_status 0
		report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format "$f"
		assert_status 2
		report "$E/inconclusive.jsonl" "$E/accepted.jsonl" -- --format "$f"
		assert_status 3
	done
}

# ---- text ----

@test "text lists workloads in input order with the summary line" {
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format text
	assert_status 2
	assert_output 'accepted     project-database-decision
failed       wl-failed
    FAIL scope_started_empty: Scope started with 1 Memory entries.
inconclusive wl-incon
    FAIL collection_completed: server down; timeout <5s> & "x"
3 workloads: 1 accepted, 1 failed, 1 inconclusive'
}

@test "text -v lists pass lines, scores, labels and metrics" {
	report "$E/failed.jsonl" -- --format text -v
	assert_status 2
	assert_line --index 0 "failed       wl-failed"
	assert_line "    pass collection_completed"
	assert_line "    pass native_acp_evidence_recorded: All required native ACP artifacts were recorded."
	assert_line "    FAIL scope_started_empty: Scope started with 1 Memory entries."
	assert_line "    score capture_coverage = 0.0"
	assert_line "    score probe_coverage = 1.0"
	assert_line "    score harbor_reward_reward = 1.0"
	assert_line "    label task_outcome = passed"
	assert_line "    metric memory_entries_created = 1"
	assert_line "    metric resolved_instructions = 2"
	assert_line "1 workload: 0 accepted, 1 failed, 0 inconclusive"
	[[ $(grep -c '^    pass ' <<<"$output") -eq 10 ]]
	[[ $(grep -c '^    metric ' <<<"$output") -eq 8 ]]
}

@test "--verbose is -v" {
	report "$E/accepted.jsonl" -- --format text --verbose
	assert_status 0
	assert_line "    pass scope_started_empty: Scope started with 0 Memory entries."
}

@test "text without -v shows no pass lines" {
	report "$E/accepted.jsonl" "$E/failed.jsonl" -- --format text
	refute_line --partial "pass "
	refute_line --partial "score "
}

# ---- markdown ----

@test "the default format when stdout is not a terminal is markdown" {
	report "$E/accepted.jsonl" "$E/failed.jsonl"
	assert_status 2
	local default="$output"
	report "$E/accepted.jsonl" "$E/failed.jsonl" -- --format markdown
	assert_status 2
	assert_equal "$default" "$output"
	assert_line --index 0 "# PowerContext end-to-end Memory evaluation"
}

@test "markdown: summary, table and one section per workload" {
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format markdown
	assert_status 2
	assert_line "3 workloads: 1 accepted, 1 failed, 1 inconclusive."
	assert_line "| Workload | Verdict | Native task outcome | Database | Run |"
	assert_line '| `project-database-decision` | accepted | passed | sqlite | `project-database-decision-0123456789ab` |'
	assert_line '| `wl-failed` | failed | passed | sqlite | `project-database-decision-0123456789ab` |'
	assert_line '| `wl-incon` | inconclusive | passed | sqlite | `project-database-decision-0123456789ab` |'
	assert_line '## `wl-failed`: failed'
	assert_line '## `wl-incon`: inconclusive'
	assert_line '- Collection status: `failed`'
	assert_line '  [FAIL] scope_started_empty — Scope started with 1 Memory entries.'
	assert_line '  [FAIL] collection_completed — server down; timeout <5s> & "x"'
	assert_line '### Harbor reward'
	assert_line '### Memory evaluation'
}

@test "markdown --output DIR writes DIR/<id>/report.md per workload" {
	report "$E/accepted.jsonl" "$E/inconclusive.jsonl" -- --format json --output "$T/out"
	assert_status 3
	# stdout keeps the chosen format
	jq -e '.accepted == 1 and .inconclusive == 1' <<<"$output"
	run find "$T/out" -type f
	assert_output "$(printf '%s\n' "$T/out/project-database-decision/report.md" "$T/out/wl-incon/report.md" | sort)"
	run cat "$T/out/project-database-decision/report.md"
	assert_line --index 0 "# PowerContext end-to-end Memory evaluation"
	assert_line '- Workload: `project-database-decision`'
	assert_line '- Execution adapter: `bub`'
	assert_line '- Harbor dataset: `manifests/harbor-tasks`'
	assert_line '- Collection status: `completed`'
	assert_line '- Native task outcome: `passed` (diagnostic only)'
	assert_line '## Harbor reward'
	assert_line '- `reward`: `1.0`'
	assert_line '## Memory evaluation'
	assert_line '  [PASS] collection_completed'
	assert_line '  [PASS] scope_started_empty — Scope started with 0 Memory entries.'
	assert_line '  [SCORE] probe_coverage: 1.0'
	assert_line '  [LABEL] task_outcome: passed'
	refute_line --partial '[FAIL]'
	run cat "$T/out/wl-incon/report.md"
	assert_line '- Workload: `wl-incon`'
	assert_line '- Collection status: `failed`'
	assert_line '  [FAIL] collection_completed — server down; timeout <5s> & "x"'
	assert_line '  [PASS] task_provenance_matches — '"Expected '$PINNED'; observed '$PINNED'."
}

@test "report.md without rewards says so and shows the label" {
	replay '.harbor.rewards = {} | .harbor.exception_type = "AgentTimeoutError"' >"$T/r.json"
	pc-evaluate <"$T/r.json" >"$T/e.jsonl"
	schema_ok e2e-evaluation "$T/e.jsonl"
	report "$T/e.jsonl" -- --output "$T/out"
	assert_status 0
	run cat "$T/out/project-database-decision/report.md"
	assert_line "- No native reward was recorded."
	assert_line '- Native task outcome: `error:AgentTimeoutError` (diagnostic only)'
}

@test "--output leaves no temporary file and replaces an older report" {
	mkdir -p "$T/out/wl-failed"
	echo stale >"$T/out/wl-failed/report.md"
	report "$E/failed.jsonl" -- --output "$T/out"
	assert_status 2
	run find "$T/out" -mindepth 1
	assert_output "$(printf '%s\n' "$T/out/wl-failed" "$T/out/wl-failed/report.md")"
	run grep -c stale "$T/out/wl-failed/report.md"
	assert_output 0
	grep -qxF '  [FAIL] scope_started_empty — Scope started with 1 Memory entries.' "$T/out/wl-failed/report.md"
}

@test "--output refuses a case name that is not a workload id (no path escapes)" {
	{ cat "$E/accepted.jsonl"; jq -c '.cases[0].name = "../escape"' "$E/accepted.jsonl"; } >"$T/e.jsonl"
	report "$T/e.jsonl" -- --format text --output "$T/out/inner"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains 'case "../escape" is not a workload id'
	[[ ! -e "$T/out/escape" && ! -e "$T/out/inner" ]] || fail "something was written"
}

@test "an --output that cannot be written is an error (1)" {
	echo "a file" >"$T/blocker"
	report "$E/accepted.jsonl" -- --output "$T/blocker"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "$T/blocker"
}

# ---- json ----

@test "json: summary counts and one entry per case with its false assertions" {
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format json
	assert_status 2
	[[ $(wc -l <<<"$output") -eq 1 ]]
	run jq -c '[.accepted, .failed, .inconclusive, (.cases | length)]' <<<"$output"
	assert_output '[1,1,1,3]'
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format json
	run jq -c '.cases[]' <<<"$output"
	assert_output '{"name":"project-database-decision","experiment":"e2e:project-database-decision","verdict":"accepted","task_outcome":"passed","failed_assertions":[]}
{"name":"wl-failed","experiment":"e2e:wl-failed","verdict":"failed","task_outcome":"passed","failed_assertions":[{"name":"scope_started_empty","reason":"Scope started with 1 Memory entries."}]}
{"name":"wl-incon","experiment":"e2e:wl-incon","verdict":"inconclusive","task_outcome":"passed","failed_assertions":[{"name":"collection_completed","reason":"server down; timeout <5s> & \"x\""}]}'
}

# ---- junit ----

@test "junit is well-formed XML with failure and error counts" {
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format junit
	assert_status 2
	save_stdout "$T/junit.xml"
	python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$T/junit.xml"
	assert_line '<testsuites name="pc-e2e" tests="3" failures="1" errors="1">'
	assert_line '  <testsuite name="pc-e2e" tests="3" failures="1" errors="1">'
	assert_line '    <testcase classname="e2e:project-database-decision" name="project-database-decision"/>'
	assert_line '      <failure type="failed" message="1 assertion false">scope_started_empty: Scope started with 1 Memory entries.'
	assert_line '      <error type="inconclusive" message="1 assertion false">collection_completed: server down; timeout &lt;5s&gt; &amp; &quot;x&quot;'
}

@test "junit stays well-formed with control characters and markup in reasons" {
	replay '.task.id = "wl-ctrl" | .status = "failed" | .errors = ["bell\u0007 <tag> ]]> &amp;", "line\nbreak"] |
		.memory_before.entries = [entry("old"; [])]' >"$T/r.json"
	run --separate-stderr pc-evaluate <"$T/r.json"
	assert_status 3
	save_stdout "$T/e.jsonl"
	schema_ok e2e-evaluation "$T/e.jsonl"
	report "$T/e.jsonl" -- --format junit
	assert_status 3
	save_stdout "$T/junit.xml"
	run python3 -c '
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
suite = doc.getElementsByTagName("testsuites")[0]
print(suite.getAttribute("tests"), suite.getAttribute("failures"), suite.getAttribute("errors"))
print(doc.getElementsByTagName("error")[0].firstChild.data)' "$T/junit.xml"
	assert_success
	assert_output "1 0 1
collection_completed: bell? <tag> ]]> &amp;; line
break
scope_started_empty: Scope started with 1 Memory entries."
}

# ---- pc-report reads, never recalculates ----

@test "a hand-flipped assertion decides the verdict: true to false" {
	jq -c '.cases[0].assertions.scope_started_empty.value = false' "$E/accepted.jsonl" >"$T/edited.jsonl"
	schema_ok e2e-evaluation "$T/edited.jsonl"
	report "$T/edited.jsonl" -- --format text
	assert_status 2
	assert_line "failed       project-database-decision"
	assert_line "    FAIL scope_started_empty: Scope started with 0 Memory entries."
}

@test "a hand-flipped assertion decides the verdict: false to true" {
	# The metrics and the reason still describe a non-empty scope.
	jq -c '.cases[0].assertions.scope_started_empty.value = true' "$E/failed.jsonl" >"$T/edited.jsonl"
	schema_ok e2e-evaluation "$T/edited.jsonl"
	report "$T/edited.jsonl" -- --format text
	assert_status 0
	assert_output "accepted     wl-failed
1 workload: 1 accepted, 0 failed, 0 inconclusive"
}

@test "a hand-flipped collection_completed makes the case inconclusive" {
	jq -c '.cases[0].assertions.collection_completed = {value: false, reason: "edited"}' "$E/accepted.jsonl" >"$T/edited.jsonl"
	schema_ok e2e-evaluation "$T/edited.jsonl"
	report "$T/edited.jsonl" -- --format json
	assert_status 3
	run jq -c '.cases[0] | [.verdict, .failed_assertions]' <<<"$output"
	assert_output '["inconclusive",[{"name":"collection_completed","reason":"edited"}]]'
}

@test "every case of a multi-case evaluation is reported" {
	jq -sc '{schema: .[0].schema, experiment: "batch", cases: map(.cases[0])}' \
		"$E/accepted.jsonl" "$E/failed.jsonl" >"$T/batch.jsonl"
	schema_ok e2e-evaluation "$T/batch.jsonl"
	report "$T/batch.jsonl" -- --format json
	assert_status 2
	run jq -c '[.accepted, .failed, (.cases | map(.experiment))]' <<<"$output"
	assert_output '[1,1,["batch","batch"]]'
}

@test "pretty-printed evaluation files are read like lines" {
	jq . "$E/accepted.jsonl" >"$T/pretty.json"
	jq . "$E/failed.jsonl" >>"$T/pretty.json"
	report "$T/pretty.json" -- --format text
	assert_status 2
	assert_line "2 workloads: 1 accepted, 1 failed, 0 inconclusive"
}

# ---- invalid input ----

@test "empty input is an error: no evaluations" {
	run --separate-stderr pc-report --format text </dev/null
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "no evaluations"
}

@test "malformed input names the line and reports nothing" {
	{ cat "$E/accepted.jsonl" "$E/failed.jsonl"; echo '{"schema": "powercontext.e2e-evaluation/v1",'; } >"$T/in.jsonl"
	run --separate-stderr pc-report --format text <"$T/in.jsonl"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "stdin:4:0: malformed JSON (in the text starting on line 3): Unfinished JSON term at EOF"
}

@test "a replay instead of an evaluation is rejected naming the expected schema" {
	{ cat "$E/accepted.jsonl"; jq -c . "$ACCEPTED"; } >"$T/in.jsonl"
	run --separate-stderr pc-report --format text <"$T/in.jsonl"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "stdin:2: expected a $EVALUATION document, got \"$EVIDENCE\""
}

@test "an evaluation with an unknown field or a wrong value is rejected" {
	jq -c '.cases[0].extra = 1' "$E/accepted.jsonl" >"$T/in.jsonl"
	run --separate-stderr pc-report --format text <"$T/in.jsonl"
	assert_status 1
	assert_stderr_contains "stdin:1: cases[0].extra: unknown field"
	jq -c '.cases[0].assertions.scope_started_empty.value = "yes"' "$E/accepted.jsonl" >"$T/in.jsonl"
	run --separate-stderr pc-report --format text <"$T/in.jsonl"
	assert_status 1
	assert_stderr_contains "stdin:1: cases[0].assertions.scope_started_empty.value: must be a boolean, not a string"
	jq -c '.cases = []' "$E/accepted.jsonl" >"$T/in.jsonl"
	run --separate-stderr pc-report --format text <"$T/in.jsonl"
	assert_status 1
	assert_stderr_contains "stdin:1: cases: must be at least 1 items"
}

# ---- secrets and colour ----

@test "secrets are redacted from the report and report.md" {
	jq -c '.cases[0].assertions.collection_completed.reason = "token sk-report-secret leaked"' \
		"$E/inconclusive.jsonl" >"$T/in.jsonl"
	BUB_API_KEY=sk-report-secret run --separate-stderr pc-report --format text --output "$T/out" <"$T/in.jsonl"
	assert_status 3
	assert_line "    FAIL collection_completed: token [REDACTED] leaked"
	refute_output --partial sk-report-secret
	! grep -F sk-report-secret "$T/out/wl-incon/report.md"
	grep -F '[FAIL] collection_completed — token [REDACTED] leaked' "$T/out/wl-incon/report.md"
}

@test "on a terminal the default format is coloured text, and NO_COLOR turns colour off" {
	command -v script >/dev/null || skip "script(1) is not installed: no way to give pc-report a terminal"
	cat "$E/accepted.jsonl" "$E/failed.jsonl" >"$T/in.jsonl"
	run script -qec "pc-report <'$T/in.jsonl'" /dev/null </dev/null
	assert_failure 2
	[[ "$output" == *$'\e[32maccepted'* ]] || fail "no colour on a terminal: $output"
	[[ "$output" == *$'\e[31mfailed'* ]] || fail "no colour on a terminal: $output"
	assert_output --partial "FAIL scope_started_empty"
	NO_COLOR=1 run script -qec "pc-report <'$T/in.jsonl'" /dev/null </dev/null
	assert_failure 2
	[[ "$output" != *$'\e'* ]] || fail "colour despite NO_COLOR: $output"
	assert_output --partial "failed       wl-failed"
}

# ---- command line ----

@test "--help prints the usage on stdout and exits 0" {
	run --separate-stderr pc-report --help </dev/null
	assert_status 0
	assert_line --index 0 "usage: pc-report [--format text|markdown|json|junit] [--output DIR] [-v]"
}

@test "--version prints the version" {
	run --separate-stderr pc-report --version </dev/null
	assert_status 0
	assert_output --regexp '^pc-report [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "an unknown format, an unknown flag or a stray argument exit 64" {
	run --separate-stderr pc-report --format bogus <"$E/accepted.jsonl"
	assert_status 64
	assert_stdout_empty
	assert_stderr_contains "--format must be text, markdown, json or junit"
	run --separate-stderr pc-report --colour <"$E/accepted.jsonl"
	assert_status 64
	assert_stdout_empty
	run --separate-stderr pc-report --format <"$E/accepted.jsonl"
	assert_status 64
	run --separate-stderr pc-report stray <"$E/accepted.jsonl"
	assert_status 64
	assert_stdout_empty
}
