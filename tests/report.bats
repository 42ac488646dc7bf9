#!/usr/bin/env bats
# pc-report: evaluations in, verdicts for people and CI out (docs/DESIGN.md §1, §3, §4).
#
# The evaluations are produced once per file by pc-evaluate from replays
# derived from the accepted fixture (test_helper's verdict_evaluations),
# and validated against the schema:
#   accepted.jsonl      project-database-decision, every assertion true
#   failed.jsonl        wl-failed: scope_started_empty false
#   inconclusive.jsonl  wl-incon: collection failed ("server down; timeout <5s> & "x"")
# Skipped workloads (PowerContext 1.4.1's fail-fast policy) are written by
# hand in fixtures/evaluations/ after 1.4.1's evaluations, and validated too:
#   skipped-memory.jsonl      wl-skipped: a Memory workload that never ran
#                             (execution_completed false)
#   skipped-expected.jsonl    wl-skip-expected: an outcome workload that
#                             expected the skip (execution_outcome true)
#   skipped-unexpected.jsonl  wl-skip-unexpected: an outcome workload that
#                             expected to complete (execution_outcome false)

load test_helper

setup_file() {
	local dir="$BATS_FILE_TMPDIR"
	verdict_evaluations "$dir"
	cat "$FIXTURES"/evaluations/*.jsonl >"$dir/skipped-all.jsonl"
	schema_ok e2e-evaluation "$dir/skipped-all.jsonl"
}

setup() {
	pc_setup
	E="$BATS_FILE_TMPDIR"
	S="$FIXTURES/evaluations"
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

# incon_outcome: the task_outcome label pc-evaluate gave wl-incon (its
# policy for a failed run, not pc-report's), which the report shows as is.
incon_outcome() {
	jq -r '.cases[0].labels.task_outcome.value' "$E/inconclusive.jsonl"
}

# summary_counts FILE: the counts of a text or markdown summary line, as
# "accepted failed inconclusive skipped"; the line names skips only when
# there are some.
summary_counts() {
	local line re='^[0-9]+ workloads?: ([0-9]+) accepted, ([0-9]+) failed, ([0-9]+) inconclusive(, ([0-9]+) skipped)?\.?$'
	while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]} ${BASH_REMATCH[5]:-0}"
		fi
	done <"$1"
}

# shown FORMAT FILE: a report in FORMAT read back as one "name verdict" line
# per case and a last line of counts "accepted failed inconclusive skipped"
# (junit: verdicts from the elements, counts from the testsuite's
# attributes), so one expectation holds for every format.
shown() {
	case "$1" in
	text)
		awk '/^[a-z]/ && NF == 2 { print $2, $1 }' "$2"
		summary_counts "$2" ;;
	markdown)
		sed -nE 's/^\| `([^`]+)` \| ([a-z]+) \|.*/\1 \2/p' "$2"
		summary_counts "$2" ;;
	json)
		jq -r '(.cases[] | "\(.name) \(.verdict)"), "\(.accepted) \(.failed) \(.inconclusive) \(.skipped)"' "$2" ;;
	junit)
		python3 -c '
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
suite = doc.getElementsByTagName("testsuite")[0]
verdicts = {"failure": "failed", "error": "inconclusive", "skipped": "skipped"}
for case in suite.getElementsByTagName("testcase"):
    tags = [n.tagName for n in case.childNodes if n.nodeType == n.ELEMENT_NODE]
    print(case.getAttribute("name"), verdicts[tags[0]] if tags else "accepted")
tests, failures, errors, skipped = (int(suite.getAttribute(a)) for a in ("tests", "failures", "errors", "skipped"))
print(tests - failures - errors - skipped, failures, errors, skipped)' "$2" ;;
	esac
}

# assert_shown EXPECTED STATUS: in every format the report of $T/in.jsonl
# exits STATUS and shows EXPECTED (see shown).
assert_shown() {
	local f
	for f in text markdown json junit; do
		run --separate-stderr pc-report --format "$f" <"$T/in.jsonl"
		assert_status "$2"
		save_stdout "$T/report.$f"
		run shown "$f" "$T/report.$f"
		assert_success
		assert_output "$1" || fail "in the $f format"
	done
}

# ---- exit codes ----

@test "accepted evaluations exit 0" {
	report "$E/accepted.jsonl" -- --format text
	assert_status 0
	assert_output "accepted     project-database-decision
assertions: 11 of 11 passing
  project-database-decision      ###########     11 of 11
1 workload: 1 accepted, 0 failed, 0 inconclusive"
	[[ -z "$stderr" ]]
}

@test "a failed case exits 2 and lists each false assertion with its reason, EXPECTED and ACTUAL" {
	report "$E/failed.jsonl" -- --format text
	assert_status 2
	assert_output "failed       wl-failed
    FAIL scope_started_empty: Scope started with 1 Memory entries.
        EXPECTED entries_before 0
        ACTUAL   entries_before 1
assertions: 10 of 11 passing
  wl-failed                      #########.#     10 of 11
1 workload: 0 accepted, 1 failed, 0 inconclusive"
}

@test "an inconclusive case exits 3" {
	report "$E/inconclusive.jsonl" -- --format text
	assert_status 3
	assert_output 'inconclusive wl-incon
    FAIL collection_completed: server down; timeout <5s> & "x"
        EXPECTED status "completed"
        ACTUAL   status "failed"
        rewards {"reward":1}, exception_type none, exception_message none
        errors: "server down"
        errors: "timeout <5s> & \"x\""
assertions: 10 of 11 passing
  wl-incon                       .##########     10 of 11
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
        EXPECTED entries_before 0
        ACTUAL   entries_before 1
inconclusive wl-incon
    FAIL collection_completed: server down; timeout <5s> & "x"
        EXPECTED status "completed"
        ACTUAL   status "failed"
        rewards {"reward":1}, exception_type none, exception_message none
        errors: "server down"
        errors: "timeout <5s> & \"x\""
assertions: 31 of 33 passing
  project-database-decision      ###########     11 of 11
  wl-failed                      #########.#     10 of 11
  wl-incon                       .##########     10 of 11
3 workloads: 1 accepted, 1 failed, 1 inconclusive'
}

@test "text -v lists pass lines, scores, labels and metrics" {
	report "$E/failed.jsonl" -- --format text -v
	assert_status 2
	assert_line --index 0 "failed       wl-failed"
	assert_line '    pass collection_completed · status "completed"'
	assert_line '    pass native_acp_evidence_recorded: All required native ACP artifacts were recorded. · missing []'
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
	assert_line "    pass scope_started_empty: Scope started with 0 Memory entries. · entries_before 0"
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
	local outcome
	outcome=$(incon_outcome)
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format markdown
	assert_status 2
	assert_line "3 workloads: 1 accepted, 1 failed, 1 inconclusive."
	assert_line "| Workload | Verdict | Native task outcome | Database | Run |"
	assert_line '| `project-database-decision` | accepted | passed | sqlite | `project-database-decision-0123456789ab` |'
	assert_line '| `wl-failed` | failed | passed | sqlite | `project-database-decision-0123456789ab` |'
	assert_line '| `wl-incon` | inconclusive | '"$outcome"' | sqlite | `project-database-decision-0123456789ab` |'
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
	assert_line --index 0 "# PowerContext end-to-end evaluation"
	assert_line '- Workload: `project-database-decision`'
	assert_line '- Execution adapter: `bub`'
	assert_line '- Harbor dataset: `manifests/harbor-tasks`'
	assert_line '- Collection status: `completed`'
	assert_line '- Native task outcome: `passed` (diagnostic only)'
	assert_line '## Harbor reward'
	# the replay (written by jq) has the int 1, which Python prints as 1
	assert_line '- `reward`: `1`'
	assert_line '## Evaluation'
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

# outcome_replay ID STATUS REWARD: the real run's outcome member
# failure-policy-timeout as workload ID, which ended with STATUS and Harbor
# reward REWARD (a JSON number, written as given) and expects to complete.
outcome_replay() {
	jq -c --arg id "$1" --arg status "$2" '.task.id = $id | .task.dataset.task_id = $id | .status = $status
		| .errors = [] | .harbor.exception_type = null | .harbor.exception_message = null
		| .harbor.rewards = {reward: "@REWARD@"}
		| .task.evaluation.expected_execution = {"collect-all": "completed", "fail-fast": "completed"}' \
		"$FIXTURES/replays/real/failure-policy-timeout.json" | sed "s/\"@REWARD@\"/$3/"
}

@test "an accepted outcome workload's report.md is 1.4.1's: the replay's own status and Harbor reward" {
	outcome_replay failure-policy-followup completed 1 | pc-evaluate >"$T/e.jsonl"
	schema_ok e2e-evaluation "$T/e.jsonl"
	report "$T/e.jsonl" -- --format text --output "$T/out"
	assert_status 0
	run cat "$T/out/batch-acceptance/tasks/failure-policy-followup/report.md"
	assert_output "# PowerContext end-to-end evaluation

- Workload: \`failure-policy-followup\`
- Execution adapter: \`bub\`
- Harbor dataset: \`manifests/harbor-tasks\`
- Collection status: \`completed\`
- Native task outcome: \`completed\` (diagnostic only)

## Harbor reward

- \`reward\`: \`1\`

## Evaluation

\`\`\`text
failure-policy-followup
  [PASS] execution_outcome — Expected 'completed' with Harbor reward 1; observed 'completed' with Harbor reward 1.
  [LABEL] task_outcome: completed
\`\`\`"
	# the markdown report on stdout says the same of the run
	report "$T/e.jsonl" -- --format markdown
	assert_line '- Collection status: `completed`'
	assert_line '- `reward`: `1`'
	refute_line --partial 'No native reward'
}

@test "report.md shows each Harbor reward as the replay wrote it, as Python prints it, names sorted" {
	replay '.harbor.rewards = {"z": 1, "a.b": 2, "m": 0.1}' -c | sed 's/"z":1/"z":1.0/; s/"m":0.1/"m":1e-07/' >"$T/r.json"
	outcome_replay failure-policy-followup failed 0.0 >>"$T/r.json"
	pc-evaluate <"$T/r.json" >"$T/e.jsonl" || true
	report "$T/e.jsonl" -- --format json --output "$T/out"
	run sed -n '/^## Harbor reward$/,/^## Evaluation$/p' "$T/out/project-database-decision/report.md"
	assert_output '## Harbor reward

- `a.b`: `2`
- `m`: `1e-07`
- `z`: `1.0`

## Evaluation'
	run cat "$T/out/batch-acceptance/tasks/failure-policy-followup/report.md"
	assert_line '- Collection status: `failed`'
	assert_line '- `reward`: `0.0`'
}

@test "a merged batch's report.md is 1.4.1's summary: every member's evaluation in one block" {
	{
		outcome_replay failure-policy-followup completed 1
		outcome_replay failure-policy-second failed 0
	} | pc-evaluate >"$T/e.jsonl" || true
	report "$T/e.jsonl" -- --format json --output "$T/out"
	run cat "$T/out/batch-acceptance/report.md"
	assert_output "# PowerContext end-to-end evaluation

\`\`\`text
failure-policy-followup
  [PASS] execution_outcome — Expected 'completed' with Harbor reward 1; observed 'completed' with Harbor reward 1.
  [LABEL] task_outcome: completed
failure-policy-second
  [FAIL] execution_outcome — Expected 'completed' with Harbor reward 1; observed 'failed' with Harbor reward 0.
  [LABEL] task_outcome: failed
\`\`\`"
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

@test "a score past a double's range reads inf in every pass, as Python's str() has it" {
	sed 's/"harbor_reward_reward":{"value":[^,]*/"harbor_reward_reward":{"value":1e999/' \
		"$E/accepted.jsonl" >"$T/huge.jsonl"
	report "$T/huge.jsonl" -- --format markdown --output "$T/out"
	assert_status 0
	assert_line '  [SCORE] harbor_reward_reward: inf'
	grep -qxF -- '  [SCORE] harbor_reward_reward: inf' "$T/out/project-database-decision/report.md"
	report "$T/huge.jsonl" -- --format text -v
	assert_line '    score harbor_reward_reward = inf'
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
	# the text report shows each case as it comes; no summary follows an error
	refute_line --partial "workloads:"
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
	local outcome
	outcome=$(incon_outcome)
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format json
	assert_status 2
	[[ $(wc -l <<<"$output") -eq 1 ]]
	run jq -c '[.accepted, .failed, .inconclusive, .skipped, (.cases | length)]' <<<"$output"
	assert_output '[1,1,1,0,3]'
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format json
	run jq -c '.cases[]' <<<"$output"
	assert_output '{"name":"project-database-decision","experiment":"e2e:project-database-decision","verdict":"accepted","task_outcome":"passed","failed_assertions":[]}
{"name":"wl-failed","experiment":"e2e:wl-failed","verdict":"failed","task_outcome":"passed","failed_assertions":[{"name":"scope_started_empty","reason":"Scope started with 1 Memory entries."}]}
{"name":"wl-incon","experiment":"e2e:wl-incon","verdict":"inconclusive","task_outcome":"'"$outcome"'","failed_assertions":[{"name":"collection_completed","reason":"server down; timeout <5s> & \"x\""}]}'
}

# ---- junit ----

@test "junit is well-formed XML with failure and error counts" {
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" -- --format junit
	assert_status 2
	save_stdout "$T/junit.xml"
	python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$T/junit.xml"
	assert_line '<testsuites name="pc-e2e" tests="3" failures="1" errors="1">'
	assert_line '  <testsuite name="pc-e2e" tests="3" failures="1" errors="1" skipped="0">'
	assert_line '    <testcase classname="e2e:project-database-decision" name="project-database-decision"/>'
	# the message names the first false assertion's EXPECTED and ACTUAL, the
	# body opens each one's diagnosis
	assert_line '      <failure type="failed" message="1 assertion false: scope_started_empty: EXPECTED entries_before 0 → ACTUAL entries_before 1">scope_started_empty: Scope started with 1 Memory entries.'
	assert_line '  ACTUAL   entries_before 1'
	assert_line '      <error type="inconclusive" message="1 assertion false: collection_completed: EXPECTED status &quot;completed&quot; → ACTUAL status &quot;failed&quot;">collection_completed: server down; timeout &lt;5s&gt; &amp; &quot;x&quot;'
	assert_line '  errors: &quot;timeout &lt;5s&gt; &amp; \&quot;x\&quot;&quot;'
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
print("\n".join(l for l in doc.getElementsByTagName("error")[0].firstChild.data.splitlines() if not l.startswith("  ")))' "$T/junit.xml"
	assert_success
	assert_output "1 0 1
collection_completed: bell? <tag> ]]> &amp;; line
break
scope_started_empty: Scope started with 1 Memory entries."
}

# ---- skipped workloads ----
#
# Under PowerContext 1.4.1's fail-fast policy the workloads of a batch after
# the first failure are not run.  A skip is counted apart from the other
# verdicts; it passes when the policy expected it and is inconclusive when a
# Memory workload was left with nothing collected.

@test "a skipped Memory workload alone exits 3 and is skipped in every format" {
	report "$S/skipped-memory.jsonl"
	assert_shown "wl-skipped skipped
0 0 0 1" 3
}

@test "an expected skip exits 0 and is counted skipped, not accepted, in every format" {
	report "$S/skipped-expected.jsonl"
	assert_shown "wl-skip-expected skipped
0 0 0 1" 0
}

@test "an outcome workload skipped when it expected to complete fails (2) in every format" {
	report "$S/skipped-unexpected.jsonl"
	assert_shown "wl-skip-unexpected failed
0 1 0 0" 2
}

@test "skips keep the exit precedence 2 over 3 over 0 in every format" {
	report "$S/skipped-memory.jsonl" "$E/failed.jsonl"
	assert_shown "wl-skipped skipped
wl-failed failed
0 1 0 1" 2
	report "$E/accepted.jsonl" "$S/skipped-memory.jsonl" "$S/skipped-expected.jsonl"
	assert_shown "project-database-decision accepted
wl-skipped skipped
wl-skip-expected skipped
1 0 0 2" 3
	report "$S/skipped-expected.jsonl" "$E/accepted.jsonl"
	assert_shown "wl-skip-expected skipped
project-database-decision accepted
1 0 0 1" 0
	report "$E/accepted.jsonl" "$E/failed.jsonl" "$E/inconclusive.jsonl" \
		"$S/skipped-memory.jsonl" "$S/skipped-expected.jsonl" "$S/skipped-unexpected.jsonl"
	assert_shown "project-database-decision accepted
wl-failed failed
wl-incon inconclusive
wl-skipped skipped
wl-skip-expected skipped
wl-skip-unexpected failed
1 2 1 2" 2
}

@test "text: a skipped case shows its false assertion and the summary counts skips" {
	report "$S/skipped-memory.jsonl" "$S/skipped-expected.jsonl" -- --format text
	assert_status 3
	assert_output "skipped      wl-skipped
    FAIL execution_completed: Skipped after an earlier task stopped the shared Harbor trial.
skipped      wl-skip-expected
assertions: 1 of 2 passing
  wl-skipped                     .               0 of 1
  wl-skip-expected               #               1 of 1
2 workloads: 0 accepted, 0 failed, 0 inconclusive, 2 skipped"
}

@test "markdown: a skipped workload's collection status is skipped, not failed" {
	report "$S/skipped-memory.jsonl" "$S/skipped-expected.jsonl" -- --format markdown --output "$T/out"
	assert_status 3
	assert_line "2 workloads: 0 accepted, 0 failed, 0 inconclusive, 2 skipped."
	assert_line '| `wl-skipped` | skipped | skipped | sqlite | `wl-skipped-0123456789ab` |'
	assert_line '## `wl-skipped`: skipped'
	assert_line '## `wl-skip-expected`: skipped'
	[[ $(grep -cxF -- '- Collection status: `skipped`' <<<"$output") -eq 2 ]]
	refute_line --partial 'Collection status: `failed`'
	run cat "$T/out/wl-skipped/report.md"
	assert_line '- Collection status: `skipped`'
	assert_line '- Native task outcome: `skipped` (diagnostic only)'
	assert_line '  [FAIL] execution_completed — Skipped after an earlier task stopped the shared Harbor trial.'
}

@test "json: skipped cases have the verdict skipped and a top-level count" {
	report "$S/skipped-memory.jsonl" "$S/skipped-expected.jsonl" "$S/skipped-unexpected.jsonl" -- --format json
	assert_status 2
	run jq -c 'keys_unsorted' <<<"$output"
	assert_output '["accepted","failed","inconclusive","skipped","stale","cases"]'
	report "$S/skipped-memory.jsonl" "$S/skipped-expected.jsonl" "$S/skipped-unexpected.jsonl" -- --format json
	run jq -c '.cases[]' <<<"$output"
	assert_output '{"name":"wl-skipped","experiment":"e2e:wl-skipped","verdict":"skipped","task_outcome":"skipped","failed_assertions":[{"name":"execution_completed","reason":"Skipped after an earlier task stopped the shared Harbor trial."}]}
{"name":"wl-skip-expected","experiment":"e2e:wl-skip-expected","verdict":"skipped","task_outcome":"skipped","failed_assertions":[]}
{"name":"wl-skip-unexpected","experiment":"e2e:wl-skip-unexpected","verdict":"failed","task_outcome":"skipped","failed_assertions":[{"name":"execution_outcome","reason":"Expected '"'completed'; observed 'skipped'"'."}]}'
}

@test "junit: a skipped case carries <skipped message> and the testsuite counts it" {
	report "$E/accepted.jsonl" "$S/skipped-memory.jsonl" "$S/skipped-expected.jsonl" -- --format junit
	assert_status 3
	save_stdout "$T/junit.xml"
	python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$T/junit.xml"
	assert_line '<testsuites name="pc-e2e" tests="3" failures="0" errors="0">'
	assert_line '  <testsuite name="pc-e2e" tests="3" failures="0" errors="0" skipped="2">'
	assert_line '    <testcase classname="e2e:wl-skipped" name="wl-skipped">'
	# the reason of the false assertion, else the task outcome
	assert_line '      <skipped message="Skipped after an earlier task stopped the shared Harbor trial."/>'
	assert_line '      <skipped message="skipped"/>'
	[[ $(grep -c '<skipped ' <<<"$output") -eq 2 ]]
	refute_line --partial '<error'
	refute_line --partial '<failure'
}

@test "junit escapes a skip reason in its message attribute" {
	jq -c '.cases[0].assertions.execution_completed.reason = "stopped <trial> & \"x\""' \
		"$S/skipped-memory.jsonl" >"$T/in.jsonl"
	schema_ok e2e-evaluation "$T/in.jsonl"
	# well-formed (shown parses the XML), and escaped to the letter
	assert_shown "wl-skipped skipped
0 0 0 1" 3
	grep -qxF '      <skipped message="stopped &lt;trial&gt; &amp; &quot;x&quot;"/>' "$T/report.junit" ||
		fail "$(cat "$T/report.junit")"
}

@test "the task_outcome label, not the assertions alone, makes a case skipped" {
	# every assertion true: skipped instead of accepted, still exit 0
	jq -c '.cases[0].labels.task_outcome.value = "skipped"' "$E/accepted.jsonl" >"$T/in.jsonl"
	schema_ok e2e-evaluation "$T/in.jsonl"
	assert_shown "project-database-decision skipped
0 0 0 1" 0
	# execution_completed false without the label: inconclusive, like collection
	jq -c '.cases[0].labels.task_outcome.value = "error:RuntimeError"' "$S/skipped-memory.jsonl" >"$T/in.jsonl"
	schema_ok e2e-evaluation "$T/in.jsonl"
	assert_shown "wl-skipped inconclusive
0 0 1 0" 3
	# the label with an ordinary false assertion: failed
	jq -c '.cases[0].labels.task_outcome.value = "skipped"' "$E/failed.jsonl" >"$T/in.jsonl"
	schema_ok e2e-evaluation "$T/in.jsonl"
	assert_shown "wl-failed failed
0 1 0 0" 2
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
assertions: 11 of 11 passing
  wl-failed                      ###########     11 of 11
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

@test "malformed input names the line and reports nothing after it: no summary, exit 1" {
	{ cat "$E/accepted.jsonl" "$E/failed.jsonl"; echo '{"schema": "powercontext.e2e-evaluation/v1",'; } >"$T/in.jsonl"
	run --separate-stderr pc-report --format text <"$T/in.jsonl"
	assert_status 1
	# text shows each case as it arrives: the two read before the broken text
	assert_line --index 0 "accepted     project-database-decision"
	assert_line "failed       wl-failed"
	refute_line --partial "workloads:"
	run --separate-stderr pc-report --format markdown <"$T/in.jsonl"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "stdin:4:0: malformed JSON (in the text starting on line 3): Unfinished JSON term at EOF"
}

@test "a replay instead of an evaluation is rejected naming the expected schema" {
	{ cat "$E/accepted.jsonl"; jq -c . "$ACCEPTED"; } >"$T/in.jsonl"
	run --separate-stderr pc-report --format json <"$T/in.jsonl"
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
	run ! grep -F sk-report-secret "$T/out/wl-incon/report.md"
	grep -F '[FAIL] collection_completed — token [REDACTED] leaked' "$T/out/wl-incon/report.md"
}

@test "a provider's API key is redacted too, but a placeholder under 8 bytes is left alone" {
	jq -c '.cases[0].assertions.collection_completed.reason = "key sk-provider-0123456789 leaked; EMPTY"' \
		"$E/inconclusive.jsonl" >"$T/in.jsonl"
	OPENAI_API_KEY=sk-provider-0123456789 run --separate-stderr pc-report --format text --output "$T/out" <"$T/in.jsonl"
	assert_status 3
	assert_line "    FAIL collection_completed: key [REDACTED] leaked; EMPTY"
	run ! grep -rF sk-provider-0123456789 "$T/out"
	# regression: OPENAI_API_KEY=EMPTY (a local model server's placeholder) blanked every "EMPTY"
	# and a one-letter key every such letter, in every sink
	OPENAI_API_KEY=EMPTY DAYTONA_API_KEY=k run --separate-stderr pc-report --format text <"$T/in.jsonl"
	assert_status 3
	assert_line "    FAIL collection_completed: key sk-provider-0123456789 leaked; EMPTY"
	assert_line --partial "inconclusive wl-incon"
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
	assert_line --index 0 "usage: pc-report [--format text|markdown|json|junit|html] [--output DIR] [-v|--verbose]"
}

@test "a misspelt option is named, with the synopsis and where the rest is, not the whole help" {
	run --separate-stderr pc-report --fromat html </dev/null
	assert_status 64
	assert_stdout_empty
	[[ ${stderr_lines[0]} == "pc-report: unknown option --fromat" ]] || fail "$stderr"
	[[ ${stderr_lines[1]} == "usage: pc-report "* ]] || fail "$stderr"
	[[ ${stderr_lines[-1]} == "Try 'pc-report --help', or man pc-report, for more." ]] || fail "$stderr"
	# the message, the synopsis of its three forms (five lines) and where the rest is
	((${#stderr_lines[@]} <= 7)) || fail "${#stderr_lines[@]} lines of usage: $stderr"
	run --separate-stderr pc-report --tre </dev/null
	assert_status 64
	[[ ${stderr_lines[0]} == "pc-report: ambiguous option --tre: more than one option begins so" ]] || fail "$stderr"
	run --separate-stderr pc-report --format </dev/null
	assert_status 64
	[[ ${stderr_lines[0]} == "pc-report: option --format needs a value" ]] || fail "$stderr"
	run --separate-stderr pc-report -x </dev/null
	assert_status 64
	[[ ${stderr_lines[0]} == "pc-report: unknown option -x" ]] || fail "$stderr"
}

@test "an option that holds one value given twice is a usage error, not a silent replacement" {
	run --separate-stderr pc-report --format text --format json <"$E/accepted.jsonl"
	assert_status 64
	assert_stdout_empty
	[[ ${stderr_lines[0]} == "pc-report: --format given twice: it takes one value, and a second would replace the first" ]] || fail "$stderr"
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
	assert_stderr_contains "--format must be text, markdown, json, junit or html"
	run --separate-stderr pc-report --colour <"$E/accepted.jsonl"
	assert_status 64
	assert_stdout_empty
	run --separate-stderr pc-report --format <"$E/accepted.jsonl"
	assert_status 64
	run --separate-stderr pc-report stray <"$E/accepted.jsonl"
	assert_status 64
	assert_stdout_empty
}

@test "text shows each workload as its evaluation arrives, the summary once stdin ends" {
	mkfifo "$T/in"
	pc-report --format text <"$T/in" >"$T/out.txt" 2>"$T/err" &
	local report=$! i early
	exec 4>"$T/in"
	cat "$E/failed.jsonl" >&4
	for ((i = 0; i < 200; i++)); do
		grep -q 'wl-failed' "$T/out.txt" && break
		sleep 0.05
	done
	early=$(cat "$T/out.txt")
	cat "$E/accepted.jsonl" >&4
	exec 4>&-
	wait "$report" || true
	[[ $early == *"failed       wl-failed"* && $early != *"workload"* ]] ||
		fail "the first workload's lines did not come out while stdin was open: '$early' $(cat "$T/err")"
	[[ $(tail -n 1 "$T/out.txt") == "2 workloads: 1 accepted, 1 failed, 0 inconclusive" ]] ||
		fail "$(cat "$T/out.txt")"
}

@test "text: more workloads than bars fit get the assertions' totals alone" {
	for i in $(seq 41); do jq -c ".cases[0].name = \"wl-$i\"" "$E/accepted.jsonl"; done >"$T/many.jsonl"
	report "$T/many.jsonl" -- --format text
	assert_status 0
	assert_line --index 41 "assertions: 451 of 451 passing"
	assert_line --index 42 "41 workloads: 41 accepted, 0 failed, 0 inconclusive"
	[[ ${#lines[@]} -eq 43 ]] || fail "${#lines[@]} lines"
}
