#!/usr/bin/env bats
# pc-evaluate against PowerContext's own evaluator.
#
# tests/fixtures/reference/replays.jsonl holds replays serialized by
# PowerContext's replay model; evaluations.jsonl, line for line, holds what
# PowerContext's evaluator returned for each of them under the failure
# policy on the same line of policies.txt (see the README there; the files
# are rebuilt by tests/reference/generate). Every line must evaluate to the
# same document: same assertion, score, label, metric and attribute names in
# the same order, the same values (numbers compared numerically, so
# 1 == 1.0) and byte-identical reasons.

REPO="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
PC_BIN="${PC_BIN:-$REPO/bin}"
FIXTURES="$REPO/tests/fixtures/reference"
CASES=157

setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	# The filters redact every configured secret: a caller's secrets must
	# not rewrite the strings under comparison.
	local name
	while read -r name; do
		case "$name" in
		BUB_API_KEY | BUB_*_API_KEY | POWERCONTEXT_CLIENT_API_TOKEN | POWERCONTEXT_E2E_AGENT_PROXY_URL)
			unset "$name" ;;
		esac
	done < <(compgen -e)
}

# Every number as a float, so an integral score written as 1 equals 1.0.
NORMALIZE='walk(if type == "number" then . * 1.0 else . end)'

# Names of every map of every case, in document order.
ORDER='.cases | map({name,
	assertions: (.assertions | keys_unsorted), scores: (.scores | keys_unsorted),
	labels: (.labels | keys_unsorted), metrics: (.metrics | keys_unsorted),
	attributes: (.attributes | keys_unsorted)})'

# The exit status a single-case evaluation implies: 3 when the run did not
# complete (collection_completed or execution_completed false).
EXIT_STATUS='.cases[0].assertions
	| if all(.[]; .value == true) then 0
	  elif .collection_completed.value == false or .execution_completed.value == false then 3
	  else 2 end'

# The exit status of a stream of evaluations (jq -s): its worst case.
WORST_EXIT="map($EXIT_STATUS) | if any(. == 2) then 2 elif any(. == 3) then 3 else 0 end"

# jq's verdict of one case: skipped when the workload was not run and nothing
# but execution_completed is false.
VERDICT='def verdict:
	if .labels.task_outcome.value == "skipped"
	    and all(.assertions | to_entries[]; .value.value == true or .key == "execution_completed") then "skipped"
	  elif all(.assertions[]; .value == true) then "accepted"
	  elif .assertions.collection_completed.value == false
	    or .assertions.execution_completed.value == false then "inconclusive"
	  else "failed" end;'

# The verdict counts of a stream of evaluations (jq -s), as pc-report has them.
COUNTS="$VERDICT"' map(.cases[0] | verdict) as $v
	| reduce ("accepted", "failed", "inconclusive", "skipped") as $k ({}; .[$k] = ($v | map(select(. == $k)) | length))
	| .cases = ($v | length)'

# lines_for POLICY FILE: the lines of fixture FILE evaluated under POLICY.
lines_for() {
	LC_ALL=C awk -v policy="$1" 'NR == FNR { p[FNR] = $0; next } p[FNR] == policy' \
		"$FIXTURES/policies.txt" "$FIXTURES/$2"
}

# The reference side of every case, once per suite run: line N of each
# fixture in $BATS_FILE_TMPDIR/case-N.{replay,policy,id,expected,order,exit}
# (the replay and its policy; the replay's workload id; the reference
# evaluation normalized (sorted keys, numbers as floats), its names in
# document order, and the exit status it implies; each one compact line).
# Every line is read on its own (jq -R, fromjson), so that line N is always
# case N, and a line that is not one JSON text stops the suite here.
setup_file() {
	local dir=$BATS_FILE_TMPDIR
	# split_cases "SUFFIX...": stdin's lines into case-N.SUFFIX, one suffix
	# after the other (one line a case for one suffix, three for three)
	split_cases() {
		awk -v dir="$dir" -v suffixes="$1" 'BEGIN { k = split(suffixes, s, " ") }
			{ f = dir "/case-" int((FNR - 1) / k) + 1 "." s[(FNR - 1) % k + 1]; print > f; close(f) }'
	}
	split_cases replay <"$FIXTURES/replays.jsonl"
	split_cases policy <"$FIXTURES/policies.txt"
	jq -Rr 'fromjson | .task.id' "$FIXTURES/replays.jsonl" | split_cases id
	jq -RcS "fromjson | ($NORMALIZE), ($ORDER), ($EXIT_STATUS)" "$FIXTURES/evaluations.jsonl" |
		split_cases "expected order exit"
}

# check_case LINE WORKLOAD_ID POLICY: evaluate replay LINE alone under its
# failure policy and compare it with the reference evaluation on the same line.
check_case() {
	local n=$1 name=$2 policy=$3 dir=$BATS_TEST_TMPDIR case=$BATS_FILE_TMPDIR/case-$1 rc=0
	local -a ours
	assert_equal "$(<"$case.id")" "$name"
	assert_equal "$(<"$case.policy")" "$policy"

	"$PC_BIN/pc-evaluate" --experiment-prefix offline --failure-policy "$policy" \
		<"$case.replay" >"$dir/actual.json" 2>"$dir/stderr" || rc=$?
	if [ -s "$dir/stderr" ]; then
		echo "pc-evaluate stderr:"
		cat "$dir/stderr"
	fi

	assert_equal "$(wc -l <"$dir/actual.json")" 1

	# pc-evaluate's own attributes, for pc-report's ledger (docs/ledger.md)
	# and its diagnosis, are there and are the only keys the release does not
	# have: whether they are there, then the rest normalized and its names in
	# document order, as the reference side is (setup_file).
	mapfile -t ours < <(jq -cS '(.cases | all(.attributes | (.comparability | type == "object") and has("finished_at")
		and (.diagnosis.assertions | type == "object") and (.replay_status | type == "string")
		and (.harbor_rewards | type == "object"))),
		(.cases[].attributes |= del(.comparability, .finished_at, .diagnosis, .replay_status, .harbor_rewards)
		 | ('"$NORMALIZE"'), ('"$ORDER"'))' "$dir/actual.json")
	assert_equal "${ours[0]}" true

	if [[ ${ours[1]} != "$(<"$case.expected")" ]]; then
		diff -u <(jq -S . "$case.expected") <(jq -S . <<<"${ours[1]}")
		fail "pc-evaluate's evaluation of case $n differs from the reference (above: - reference, + pc-evaluate)"
	fi
	if [[ ${ours[2]} != "$(<"$case.order")" ]]; then
		diff -u <(jq . "$case.order") <(jq . <<<"${ours[2]}")
		fail "pc-evaluate's names of case $n are not in the reference's order (above: - reference, + pc-evaluate)"
	fi

	assert_equal "$rc" "$(<"$case.exit")"
}

@test "reference fixtures: one evaluation and one policy per replay, one test per line" {
	local file repeated
	for file in replays.jsonl evaluations.jsonl policies.txt; do
		run wc -l <"$FIXTURES/$file"
		assert_output "$CASES"
	done
	run diff <(jq -r '.task.id' "$FIXTURES/replays.jsonl") \
		<(jq -r '.cases[0].name' "$FIXTURES/evaluations.jsonl")
	assert_success
	run diff <(jq -r '"offline:" + .task.id' "$FIXTURES/replays.jsonl") \
		<(jq -r '.experiment' "$FIXTURES/evaluations.jsonl")
	assert_success
	run grep -cvxE 'collect-all|fail-fast' "$FIXTURES/policies.txt"
	assert_output 0
	# A workload id repeats only for the same replay under the other policy.
	repeated=$(paste -d ' ' <(jq -r '.task.id' "$FIXTURES/replays.jsonl") "$FIXTURES/policies.txt" | sort | uniq -d)
	assert_equal "$repeated" ""
	run jq -sc 'group_by(.task.id) | map(select(map(tojson) | unique | length > 1) | .[0].task.id)' \
		"$FIXTURES/replays.jsonl"
	assert_output '[]'
	run grep -c '^@test "reference case ' "$BATS_TEST_FILENAME"
	assert_output "$CASES"
}

@test "reference evaluations validate against the evaluation schema" {
	run "$REPO/tests/bin/check-schema" e2e-evaluation "$FIXTURES/evaluations.jsonl"
	assert_success
}

@test "reference replays: pc-evaluate output validates against the evaluation schema" {
	"$PC_BIN/pc-evaluate" --experiment-prefix offline \
		<"$FIXTURES/replays.jsonl" >"$BATS_TEST_TMPDIR/evaluations.jsonl" || true
	run "$REPO/tests/bin/check-schema" e2e-evaluation "$BATS_TEST_TMPDIR/evaluations.jsonl"
	assert_success
}

@test "reference replays PowerContext's replay model refuses: pc-evaluate refuses them too" {
	local rc=0
	"$PC_BIN/pc-evaluate" --experiment-prefix offline \
		<"$FIXTURES/rejected.jsonl" >"$BATS_TEST_TMPDIR/evaluations.jsonl" 2>"$BATS_TEST_TMPDIR/stderr" || rc=$?
	assert_equal "$rc" 1
	run wc -l <"$BATS_TEST_TMPDIR/stderr"
	assert_output "$(wc -l <"$FIXTURES/rejected.jsonl")"
	run cat "$BATS_TEST_TMPDIR/evaluations.jsonl"
	assert_output ''
}

@test "reference replays: pc-evaluate | pc-report --format json counts every verdict" {
	local dir=$BATS_TEST_TMPDIR policy rc
	: >"$dir/evaluations.jsonl"
	: >"$dir/expected.jsonl"
	# One pc-evaluate per failure policy; the reference lines in the same order.
	for policy in collect-all fail-fast; do
		lines_for "$policy" replays.jsonl >"$dir/replays-$policy.jsonl"
		lines_for "$policy" evaluations.jsonl >"$dir/expected-$policy.jsonl"
		rc=0
		"$PC_BIN/pc-evaluate" --experiment-prefix offline --failure-policy "$policy" \
			<"$dir/replays-$policy.jsonl" >>"$dir/evaluations.jsonl" || rc=$?
		assert_equal "$rc" "$(jq -s "$WORST_EXIT" "$dir/expected-$policy.jsonl")"
		cat "$dir/expected-$policy.jsonl" >>"$dir/expected.jsonl"
	done
	run wc -l <"$dir/evaluations.jsonl"
	assert_output "$CASES"

	rc=0
	"$PC_BIN/pc-report" --format json <"$dir/evaluations.jsonl" >"$dir/report.json" || rc=$?
	assert_equal "$rc" "$(jq -s "$WORST_EXIT" "$dir/expected.jsonl")"
	run jq -c '{accepted, failed, inconclusive, skipped, cases: (.cases | length)}' "$dir/report.json"
	assert_output "$(jq -sc "$COUNTS" "$dir/expected.jsonl")"
	run jq -r '.cases[] | "\(.name) \(.verdict)"' "$dir/report.json"
	assert_output "$(jq -r "$VERDICT"' .cases[0] | "\(.name) \(verdict)"' "$dir/expected.jsonl")"
}

# acceptance_output DIR RELEASE: the reference replays (their commit set to
# RELEASE, as a run against it records) and the real run's merged batch
# (tests/fixtures/replays/real: its Memory and outcome members, and an
# outcome member that completed) laid out as make acceptance lays out its
# output, each leg evaluated and reported by pc-e2e with --output.
acceptance_output() {
	local out=$1 release=$2 policy leg id replay
	local real=$REPO/tests/fixtures/replays/real
	for policy in collect-all fail-fast; do
		leg=$out
		[[ $policy == collect-all ]] || leg=$out/fail-fast
		mkdir -p "$leg"
		lines_for "$policy" replays.jsonl | jq -c --arg r "$release" '.environment.commit = $r' >"$leg.replays"
		if [[ $policy == collect-all ]]; then
			jq -c . "$real/project-database-decision.json" "$real/failure-policy-timeout.json" >>"$leg.replays"
			jq -c '.task.id = "failure-policy-followup" | .task.dataset.task_id = .task.id
				| .status = "completed" | .harbor.rewards.reward = 1
				| .harbor.exception_type = null | .harbor.exception_message = null | .errors = []
				| .task.evaluation.expected_execution = {"collect-all": "completed", "fail-fast": "completed"}' \
				"$real/failure-policy-timeout.json" >>"$leg.replays"
		fi
		"$PC_BIN/pc-evaluate" --failure-policy "$policy" --output "$leg" <"$leg.replays" >"$leg.evaluations" || true
		"$PC_BIN/pc-report" --format json --output "$leg" <"$leg.evaluations" >/dev/null || true
		# each replay beside its evaluation, where pc-evaluate put it
		while IFS= read -r replay; do
			id=$(jq -r .task.id <<<"$replay")
			find "$leg" -path "*/$id/eval-report.json" ! -path "$leg/fail-fast/*" |
				while IFS= read -r at; do printf '%s\n' "$replay" >"${at%/*}/replay.json"; done
		done <"$leg.replays"
	done
}

@test "make crosscheck: every report.md is the release's own rendering of its replay and evaluation, byte for byte" {
	local out=$BATS_TEST_TMPDIR/out release
	"$REPO/pipelines/pc-powercontext" reference >/dev/null
	release=$("$REPO/pipelines/pc-powercontext" commit)
	acceptance_output "$out" "$release"
	run --separate-stderr env PC_BIN="$PC_BIN" "$REPO/tests/reference/crosscheck" "$out"
	# every line of this output passes: the evaluations, the catalog, every report.md
	[[ -z $(grep -v '^ok ' <<<"$output") ]] || fail "$(grep -v '^ok ' <<<"$output" | head -5)"
	assert_success
	assert_line --regexp "^ok crosscheck collect-all batch-acceptance/report.md: $release's render_evaluation_summary writes the same [0-9]+ bytes$"
	run grep -c "^ok crosscheck [a-z-]* .*/report.md: $release's render_report writes the same" <<<"$output"
	assert_output "$((CASES + 3))"
	# the accepted outcome member reads as it ran: completed, with reward 1
	grep -qxF -- '- Collection status: `completed`' "$out/batch-acceptance/tasks/failure-policy-followup/report.md"
	grep -qxF -- '- `reward`: `1`' "$out/batch-acceptance/tasks/failure-policy-followup/report.md"
}

@test "reference case 1: accepted-basic (collect-all)" {
	check_case 1 accepted-basic collect-all
}

@test "reference case 2: failed-with-errors (collect-all)" {
	check_case 2 failed-with-errors collect-all
}

@test "reference case 3: failed-without-errors (collect-all)" {
	check_case 3 failed-without-errors collect-all
}

@test "reference case 4: completed-with-errors (collect-all)" {
	check_case 4 completed-with-errors collect-all
}

@test "reference case 5: checksum-mismatch (collect-all)" {
	check_case 5 checksum-mismatch collect-all
}

@test "reference case 6: checksum-null (collect-all)" {
	check_case 6 checksum-null collect-all
}

@test "reference case 7: checksum-single-quote (collect-all)" {
	check_case 7 checksum-single-quote collect-all
}

@test "reference case 8: checksum-both-quotes (collect-all)" {
	check_case 8 checksum-both-quotes collect-all
}

@test "reference case 9: checksum-double-quote-only (collect-all)" {
	check_case 9 checksum-double-quote-only collect-all
}

@test "reference case 10: checksum-control-chars (collect-all)" {
	check_case 10 checksum-control-chars collect-all
}

@test "reference case 11: checksum-unicode-printable (collect-all)" {
	check_case 11 checksum-unicode-printable collect-all
}

@test "reference case 12: checksum-unicode-nonprintable (collect-all)" {
	check_case 12 checksum-unicode-nonprintable collect-all
}

@test "reference case 13: checksum-nul (collect-all)" {
	check_case 13 checksum-nul collect-all
}

@test "reference case 14: checksum-empty (collect-all)" {
	check_case 14 checksum-empty collect-all
}

@test "reference case 15: native-missing-all (collect-all)" {
	check_case 15 native-missing-all collect-all
}

@test "reference case 16: native-missing-some (collect-all)" {
	check_case 16 native-missing-some collect-all
}

@test "reference case 17: native-missing-case-sensitive (collect-all)" {
	check_case 17 native-missing-case-sensitive collect-all
}

@test "reference case 18: native-root-names (collect-all)" {
	check_case 18 native-root-names collect-all
}

@test "reference case 19: native-path-double-slash (collect-all)" {
	check_case 19 native-path-double-slash collect-all
}

@test "reference case 20: native-path-trailing-slash (collect-all)" {
	check_case 20 native-path-trailing-slash collect-all
}

@test "reference case 21: native-path-trailing-dot (collect-all)" {
	check_case 21 native-path-trailing-dot collect-all
}

@test "reference case 22: native-backslash-names (collect-all)" {
	check_case 22 native-backslash-names collect-all
}

@test "reference case 23: instructions-mismatch (collect-all)" {
	check_case 23 instructions-mismatch collect-all
}

@test "reference case 24: instructions-missing-one (collect-all)" {
	check_case 24 instructions-missing-one collect-all
}

@test "reference case 25: instructions-duplicate-artifact (collect-all)" {
	check_case 25 instructions-duplicate-artifact collect-all
}

@test "reference case 26: instructions-without-summaries (collect-all)" {
	check_case 26 instructions-without-summaries collect-all
}

@test "reference case 27: capture-mix-two-thirds-vs-067 (collect-all)" {
	check_case 27 capture-mix-two-thirds-vs-067 collect-all
}

@test "reference case 28: capture-two-thirds-exact (collect-all)" {
	check_case 28 capture-two-thirds-exact collect-all
}

@test "reference case 29: capture-two-thirds-next-up (collect-all)" {
	check_case 29 capture-two-thirds-next-up collect-all
}

@test "reference case 30: capture-nine-tenths (collect-all)" {
	check_case 30 capture-nine-tenths collect-all
}

@test "reference case 31: capture-one-sixteenth (collect-all)" {
	check_case 31 capture-one-sixteenth collect-all
}

@test "reference case 32: capture-three-sixteenths (collect-all)" {
	check_case 32 capture-three-sixteenths collect-all
}

@test "reference case 33: capture-none-eligible (collect-all)" {
	check_case 33 capture-none-eligible collect-all
}

@test "reference case 34: capture-null-source-ids (collect-all)" {
	check_case 34 capture-null-source-ids collect-all
}

@test "reference case 35: groundedness-partial (collect-all)" {
	check_case 35 groundedness-partial collect-all
}

@test "reference case 36: groundedness-with-memory-before (collect-all)" {
	check_case 36 groundedness-with-memory-before collect-all
}

@test "reference case 37: duplicate-entry-ids (collect-all)" {
	check_case 37 duplicate-entry-ids collect-all
}

@test "reference case 38: no-new-memory (collect-all)" {
	check_case 38 no-new-memory collect-all
}

@test "reference case 39: empty-memory-after (collect-all)" {
	check_case 39 empty-memory-after collect-all
}

@test "reference case 40: require-checkpoint-none-completed (collect-all)" {
	check_case 40 require-checkpoint-none-completed collect-all
}

@test "reference case 41: require-checkpoint-completed (collect-all)" {
	check_case 41 require-checkpoint-completed collect-all
}

@test "reference case 42: require-checkpoint-no-memory (collect-all)" {
	check_case 42 require-checkpoint-no-memory collect-all
}

@test "reference case 43: in-run-contexts-meets-minimum (collect-all)" {
	check_case 43 in-run-contexts-meets-minimum collect-all
}

@test "reference case 44: in-run-contexts-below-minimum (collect-all)" {
	check_case 44 in-run-contexts-below-minimum collect-all
}

@test "reference case 45: expected-memory-empty (collect-all)" {
	check_case 45 expected-memory-empty collect-all
}

@test "reference case 46: expected-memory-blank-fragment-no-entries (collect-all)" {
	check_case 46 expected-memory-blank-fragment-no-entries collect-all
}

@test "reference case 47: expected-memory-casefold (collect-all)" {
	check_case 47 expected-memory-casefold collect-all
}

@test "reference case 48: expected-memory-casefold-miss (collect-all)" {
	check_case 48 expected-memory-casefold-miss collect-all
}

@test "reference case 49: expected-memory-reprs (collect-all)" {
	check_case 49 expected-memory-reprs collect-all
}

@test "reference case 50: expected-memory-nul (collect-all)" {
	check_case 50 expected-memory-nul collect-all
}

@test "reference case 51: probes-missing (collect-all)" {
	check_case 51 probes-missing collect-all
}

@test "reference case 52: probes-status-empty (collect-all)" {
	check_case 52 probes-status-empty collect-all
}

@test "reference case 53: probes-blank-unicode (collect-all)" {
	check_case 53 probes-blank-unicode collect-all
}

@test "reference case 54: probe-content-nul (collect-all)" {
	check_case 54 probe-content-nul collect-all
}

@test "reference case 55: probes-casefold (collect-all)" {
	check_case 55 probes-casefold collect-all
}

@test "reference case 56: probes-duplicate-observed-ids (collect-all)" {
	check_case 56 probes-duplicate-observed-ids collect-all
}

@test "reference case 57: rewards-several-unsorted (collect-all)" {
	check_case 57 rewards-several-unsorted collect-all
}

@test "reference case 58: rewards-one-below (collect-all)" {
	check_case 58 rewards-one-below collect-all
}

@test "reference case 59: rewards-odd-values (collect-all)" {
	check_case 59 rewards-odd-values collect-all
}

@test "reference case 60: rewards-none (collect-all)" {
	check_case 60 rewards-none collect-all
}

@test "reference case 61: exception-with-rewards (collect-all)" {
	check_case 61 exception-with-rewards collect-all
}

@test "reference case 62: exception-empty-type (collect-all)" {
	check_case 62 exception-empty-type collect-all
}

@test "reference case 63: registry-dataset (collect-all)" {
	check_case 63 registry-dataset collect-all
}

@test "reference case 64: registry-dataset-empty-name (collect-all)" {
	check_case 64 registry-dataset-empty-name collect-all
}

@test "reference case 65: local-dataset-odd-path (collect-all)" {
	check_case 65 local-dataset-odd-path collect-all
}

@test "reference case 66: thresholds-all-one-perfect (collect-all)" {
	check_case 66 thresholds-all-one-perfect collect-all
}

@test "reference case 67: thresholds-format-rounding (collect-all)" {
	check_case 67 thresholds-format-rounding collect-all
}

@test "reference case 68: everything-odd-strings (collect-all)" {
	check_case 68 everything-odd-strings collect-all
}

@test "reference case 69: time-formats (collect-all)" {
	check_case 69 time-formats collect-all
}

@test "reference case 70: harbor-time-without-offset (collect-all)" {
	check_case 70 harbor-time-without-offset collect-all
}

@test "reference case 71: atomic-grounded (collect-all)" {
	check_case 71 atomic-grounded collect-all
}

@test "reference case 72: atomic-ungrounded (collect-all)" {
	check_case 72 atomic-ungrounded collect-all
}

@test "reference case 73: atomic-partially-grounded-at-threshold (collect-all)" {
	check_case 73 atomic-partially-grounded-at-threshold collect-all
}

@test "reference case 74: atomic-grounded-two-thirds-below-0667 (collect-all)" {
	check_case 74 atomic-grounded-two-thirds-below-0667 collect-all
}

@test "reference case 75: atomic-artifacts-never-ground (collect-all)" {
	check_case 75 atomic-artifacts-never-ground collect-all
}

@test "reference case 76: atomic-source-ids-empty-and-case (collect-all)" {
	check_case 76 atomic-source-ids-empty-and-case collect-all
}

@test "reference case 77: atomic-same-id-new-revision-not-new (collect-all)" {
	check_case 77 atomic-same-id-new-revision-not-new collect-all
}

@test "reference case 78: atomic-same-id-other-family-is-new (collect-all)" {
	check_case 78 atomic-same-id-other-family-is-new collect-all
}

@test "reference case 79: atomic-duplicate-entries-after (collect-all)" {
	check_case 79 atomic-duplicate-entries-after collect-all
}

@test "reference case 80: atomic-and-legacy-mixed (collect-all)" {
	check_case 80 atomic-and-legacy-mixed collect-all
}

@test "reference case 81: atomic-family-memory-matches-legacy-id (collect-all)" {
	check_case 81 atomic-family-memory-matches-legacy-id collect-all
}

@test "reference case 82: atomic-memory-before-nonempty (collect-all)" {
	check_case 82 atomic-memory-before-nonempty collect-all
}

@test "reference case 83: atomic-merged-and-superseded (collect-all)" {
	check_case 83 atomic-merged-and-superseded collect-all
}

@test "reference case 84: checkpoint-cursor-flags (collect-all)" {
	check_case 84 checkpoint-cursor-flags collect-all
}

@test "reference case 85: checkpoint-any-status-but-failed (collect-all)" {
	check_case 85 checkpoint-any-status-but-failed collect-all
}

@test "reference case 86: in-run-contexts-at-minimum (collect-all)" {
	check_case 86 in-run-contexts-at-minimum collect-all
}

@test "reference case 87: capture-coverage-statuses-half (collect-all)" {
	check_case 87 capture-coverage-statuses-half collect-all
}

@test "reference case 88: probes-positive-and-abstention (collect-all)" {
	check_case 88 probes-positive-and-abstention collect-all
}

@test "reference case 89: probes-abstention-only (collect-all)" {
	check_case 89 probes-abstention-only collect-all
}

@test "reference case 90: probe-missing-from-observation-half (collect-all)" {
	check_case 90 probe-missing-from-observation-half collect-all
}

@test "reference case 91: probes-not-ready-statuses (collect-all)" {
	check_case 91 probes-not-ready-statuses collect-all
}

@test "reference case 92: probe-coverage-one-third-vs-03335 (collect-all)" {
	check_case 92 probe-coverage-one-third-vs-03335 collect-all
}

@test "reference case 93: forbidden-flag-true-abstention (collect-all)" {
	check_case 93 forbidden-flag-true-abstention collect-all
}

@test "reference case 94: forbidden-flag-false-content-has-it (collect-all)" {
	check_case 94 forbidden-flag-false-content-has-it collect-all
}

@test "reference case 95: forbidden-flag-null-content-decides (collect-all)" {
	check_case 95 forbidden-flag-null-content-decides collect-all
}

@test "reference case 96: forbidden-not-ready-probe (collect-all)" {
	check_case 96 forbidden-not-ready-probe collect-all
}

@test "reference case 97: forbidden-match-on-positive-probe (collect-all)" {
	check_case 97 forbidden-match-on-positive-probe collect-all
}

@test "reference case 98: forbidden-several-probes-in-spec-order (collect-all)" {
	check_case 98 forbidden-several-probes-in-spec-order collect-all
}

@test "reference case 99: forbidden-flag-without-forbidden-spec (collect-all)" {
	check_case 99 forbidden-flag-without-forbidden-spec collect-all
}

@test "reference case 100: forbidden-nfc-fragment-nfd-content (collect-all)" {
	check_case 100 forbidden-nfc-fragment-nfd-content collect-all
}

@test "reference case 101: probes-nfc-expected-nfd-content (collect-all)" {
	check_case 101 probes-nfc-expected-nfd-content collect-all
}

@test "reference case 102: probes-nfd-expected-nfc-content (collect-all)" {
	check_case 102 probes-nfd-expected-nfc-content collect-all
}

@test "reference case 103: probes-nfd-content-hides-base-letter (collect-all)" {
	check_case 103 probes-nfd-content-hides-base-letter collect-all
}

@test "reference case 104: probes-casefold-sharp-s (collect-all)" {
	check_case 104 probes-casefold-sharp-s collect-all
}

@test "reference case 105: probes-casefold-greek-sigma (collect-all)" {
	check_case 105 probes-casefold-greek-sigma collect-all
}

@test "reference case 106: probes-casefold-turkish-i (collect-all)" {
	check_case 106 probes-casefold-turkish-i collect-all
}

@test "reference case 107: probes-casefold-then-nfc (collect-all)" {
	check_case 107 probes-casefold-then-nfc collect-all
}

@test "reference case 108: probes-unicode-whitespace-content (collect-all)" {
	check_case 108 probes-unicode-whitespace-content collect-all
}

@test "reference case 109: expected-memory-nfc-fragment-nfd-text (collect-all)" {
	check_case 109 expected-memory-nfc-fragment-nfd-text collect-all
}

@test "reference case 110: expected-memory-nfd-fragment-nfc-text (collect-all)" {
	check_case 110 expected-memory-nfd-fragment-nfc-text collect-all
}

@test "reference case 111: expected-memory-casefold-sharp-s (collect-all)" {
	check_case 111 expected-memory-casefold-sharp-s collect-all
}

@test "reference case 112: expected-memory-atomic-and-legacy-not-new (collect-all)" {
	check_case 112 expected-memory-atomic-and-legacy-not-new collect-all
}

@test "reference case 113: expected-memory-only-before (collect-all)" {
	check_case 113 expected-memory-only-before collect-all
}

@test "reference case 114: memory-skipped-either-policy (collect-all)" {
	check_case 114 memory-skipped-either-policy collect-all
}

@test "reference case 115: memory-skipped-either-policy (fail-fast)" {
	check_case 115 memory-skipped-either-policy fail-fast
}

@test "reference case 116: memory-skipped-with-evidence (collect-all)" {
	check_case 116 memory-skipped-with-evidence collect-all
}

@test "reference case 117: memory-failed-reward-one (collect-all)" {
	check_case 117 memory-failed-reward-one collect-all
}

@test "reference case 118: memory-failed-exception (collect-all)" {
	check_case 118 memory-failed-exception collect-all
}

@test "reference case 119: memory-rewards-int-sorted (collect-all)" {
	check_case 119 memory-rewards-int-sorted collect-all
}

@test "reference case 120: memory-reward-negative-zero (collect-all)" {
	check_case 120 memory-reward-negative-zero collect-all
}

@test "reference case 121: source-checksum-matches-task-differs (collect-all)" {
	check_case 121 source-checksum-matches-task-differs collect-all
}

@test "reference case 122: source-checksum-mismatches-task-matches (collect-all)" {
	check_case 122 source-checksum-mismatches-task-matches collect-all
}

@test "reference case 123: source-checksum-empty-falls-back (collect-all)" {
	check_case 123 source-checksum-empty-falls-back collect-all
}

@test "reference case 124: source-checksum-empty-task-null (collect-all)" {
	check_case 124 source-checksum-empty-task-null collect-all
}

@test "reference case 125: environment-adapter-settings (collect-all)" {
	check_case 125 environment-adapter-settings collect-all
}

@test "reference case 126: outcome-completed-reward-int (collect-all)" {
	check_case 126 outcome-completed-reward-int collect-all
}

@test "reference case 127: outcome-completed-reward-int (fail-fast)" {
	check_case 127 outcome-completed-reward-int fail-fast
}

@test "reference case 128: outcome-completed-reward-float (collect-all)" {
	check_case 128 outcome-completed-reward-float collect-all
}

@test "reference case 129: outcome-completed-reward-float (fail-fast)" {
	check_case 129 outcome-completed-reward-float fail-fast
}

@test "reference case 130: outcome-completed-reward-half (collect-all)" {
	check_case 130 outcome-completed-reward-half collect-all
}

@test "reference case 131: outcome-completed-reward-half (fail-fast)" {
	check_case 131 outcome-completed-reward-half fail-fast
}

@test "reference case 132: outcome-completed-reward-missing (collect-all)" {
	check_case 132 outcome-completed-reward-missing collect-all
}

@test "reference case 133: outcome-completed-reward-missing (fail-fast)" {
	check_case 133 outcome-completed-reward-missing fail-fast
}

@test "reference case 134: outcome-completed-extra-reward (collect-all)" {
	check_case 134 outcome-completed-extra-reward collect-all
}

@test "reference case 135: outcome-completed-extra-reward (fail-fast)" {
	check_case 135 outcome-completed-extra-reward fail-fast
}

@test "reference case 136: outcome-completed-reward-just-below-one (collect-all)" {
	check_case 136 outcome-completed-reward-just-below-one collect-all
}

@test "reference case 137: outcome-completed-reward-just-below-one (fail-fast)" {
	check_case 137 outcome-completed-reward-just-below-one fail-fast
}

@test "reference case 138: outcome-failed-reward-int-zero (collect-all)" {
	check_case 138 outcome-failed-reward-int-zero collect-all
}

@test "reference case 139: outcome-failed-reward-int-zero (fail-fast)" {
	check_case 139 outcome-failed-reward-int-zero fail-fast
}

@test "reference case 140: outcome-failed-reward-float-zero (collect-all)" {
	check_case 140 outcome-failed-reward-float-zero collect-all
}

@test "reference case 141: outcome-failed-reward-float-zero (fail-fast)" {
	check_case 141 outcome-failed-reward-float-zero fail-fast
}

@test "reference case 142: outcome-failed-reward-negative-zero (collect-all)" {
	check_case 142 outcome-failed-reward-negative-zero collect-all
}

@test "reference case 143: outcome-failed-reward-negative-zero (fail-fast)" {
	check_case 143 outcome-failed-reward-negative-zero fail-fast
}

@test "reference case 144: outcome-failed-reward-tiny (collect-all)" {
	check_case 144 outcome-failed-reward-tiny collect-all
}

@test "reference case 145: outcome-failed-reward-tiny (fail-fast)" {
	check_case 145 outcome-failed-reward-tiny fail-fast
}

@test "reference case 146: outcome-failed-reward-one (collect-all)" {
	check_case 146 outcome-failed-reward-one collect-all
}

@test "reference case 147: outcome-failed-reward-one (fail-fast)" {
	check_case 147 outcome-failed-reward-one fail-fast
}

@test "reference case 148: outcome-failed-with-exception (collect-all)" {
	check_case 148 outcome-failed-with-exception collect-all
}

@test "reference case 149: outcome-failed-with-exception (fail-fast)" {
	check_case 149 outcome-failed-with-exception fail-fast
}

@test "reference case 150: outcome-fail-fast-skips-observed-completed (collect-all)" {
	check_case 150 outcome-fail-fast-skips-observed-completed collect-all
}

@test "reference case 151: outcome-fail-fast-skips-observed-completed (fail-fast)" {
	check_case 151 outcome-fail-fast-skips-observed-completed fail-fast
}

@test "reference case 152: outcome-fail-fast-skips-observed-skipped (collect-all)" {
	check_case 152 outcome-fail-fast-skips-observed-skipped collect-all
}

@test "reference case 153: outcome-fail-fast-skips-observed-skipped (fail-fast)" {
	check_case 153 outcome-fail-fast-skips-observed-skipped fail-fast
}

@test "reference case 154: outcome-skipped-with-reward (collect-all)" {
	check_case 154 outcome-skipped-with-reward collect-all
}

@test "reference case 155: outcome-skipped-with-reward (fail-fast)" {
	check_case 155 outcome-skipped-with-reward fail-fast
}

@test "reference case 156: outcome-expected-failed-or-completed (collect-all)" {
	check_case 156 outcome-expected-failed-or-completed collect-all
}

@test "reference case 157: outcome-expected-failed-or-completed (fail-fast)" {
	check_case 157 outcome-expected-failed-or-completed fail-fast
}
