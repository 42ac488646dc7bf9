#!/usr/bin/env bats
# pc-evaluate against PowerContext's own offline evaluator.
#
# tests/fixtures/reference/replays.jsonl holds replays serialized by
# PowerContext's replay model; evaluations.jsonl, line for line, holds what
# PowerContext's evaluator wrote for each of them (see the README there).
# Every line must evaluate to the same document: same assertion, score,
# label, metric and attribute names in the same order, the same values
# (numbers compared numerically, so 1 == 1.0) and byte-identical reasons.

setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	REPO="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
	PC_BIN="${PC_BIN:-$REPO/bin}"
	FIXTURES="$REPO/tests/fixtures/reference"
	CASES=71
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

# The exit status a single-case evaluation implies.
EXIT_STATUS='.cases[0].assertions
	| if all(.[]; .value == true) then 0
	  elif .collection_completed.value == false then 3
	  else 2 end'

# check_case LINE WORKLOAD_ID: evaluate replay LINE alone and compare it with
# the reference evaluation on the same line.
check_case() {
	local n=$1 name=$2 dir=$BATS_TEST_TMPDIR rc=0
	sed -n "${n}p" "$FIXTURES/replays.jsonl" >"$dir/replay.json"
	sed -n "${n}p" "$FIXTURES/evaluations.jsonl" >"$dir/expected.json"
	run jq -r '.task.id' "$dir/replay.json"
	assert_success
	assert_output "$name"

	"$PC_BIN/pc-evaluate" --experiment-prefix offline \
		<"$dir/replay.json" >"$dir/actual.json" 2>"$dir/stderr" || rc=$?
	if [ -s "$dir/stderr" ]; then
		echo "pc-evaluate stderr:"
		cat "$dir/stderr"
	fi

	run wc -l <"$dir/actual.json"
	assert_output 1

	run diff -u <(jq -S "$NORMALIZE" "$dir/expected.json") <(jq -S "$NORMALIZE" "$dir/actual.json")
	assert_success

	run diff -u <(jq "$ORDER" "$dir/expected.json") <(jq "$ORDER" "$dir/actual.json")
	assert_success

	assert_equal "$rc" "$(jq "$EXIT_STATUS" "$dir/expected.json")"
}

@test "reference fixtures: one evaluation per replay, one test per line" {
	run wc -l <"$FIXTURES/replays.jsonl"
	assert_output "$CASES"
	run wc -l <"$FIXTURES/evaluations.jsonl"
	assert_output "$CASES"
	run diff <(jq -r '.task.id' "$FIXTURES/replays.jsonl") \
		<(jq -r '.cases[0].name' "$FIXTURES/evaluations.jsonl")
	assert_success
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

@test "reference replays: pc-evaluate | pc-report --format json counts every verdict" {
	local rc=0
	"$PC_BIN/pc-evaluate" --experiment-prefix offline \
		<"$FIXTURES/replays.jsonl" >"$BATS_TEST_TMPDIR/evaluations.jsonl" || rc=$?
	assert_equal "$rc" 2
	run wc -l <"$BATS_TEST_TMPDIR/evaluations.jsonl"
	assert_output "$CASES"

	rc=0
	"$PC_BIN/pc-report" --format json \
		<"$BATS_TEST_TMPDIR/evaluations.jsonl" >"$BATS_TEST_TMPDIR/report.json" || rc=$?
	assert_equal "$rc" 2
	run jq -c '{accepted, failed, inconclusive, cases: (.cases | length)}' "$BATS_TEST_TMPDIR/report.json"
	assert_output '{"accepted":35,"failed":34,"inconclusive":2,"cases":71}'
	run jq -r '.cases[] | "\(.name) \(.verdict)"' "$BATS_TEST_TMPDIR/report.json"
	assert_output "$(jq -r '.cases[0] | "\(.name) \(
		if all(.assertions[]; .value == true) then "accepted"
		elif .assertions.collection_completed.value == false then "inconclusive"
		else "failed" end)"' "$FIXTURES/evaluations.jsonl")"
}

@test "reference case 1: accepted-basic" {
	check_case 1 accepted-basic
}

@test "reference case 2: failed-with-errors" {
	check_case 2 failed-with-errors
}

@test "reference case 3: failed-without-errors" {
	check_case 3 failed-without-errors
}

@test "reference case 4: completed-with-errors" {
	check_case 4 completed-with-errors
}

@test "reference case 5: checksum-mismatch" {
	check_case 5 checksum-mismatch
}

@test "reference case 6: checksum-null" {
	check_case 6 checksum-null
}

@test "reference case 7: checksum-single-quote" {
	check_case 7 checksum-single-quote
}

@test "reference case 8: checksum-both-quotes" {
	check_case 8 checksum-both-quotes
}

@test "reference case 9: checksum-double-quote-only" {
	check_case 9 checksum-double-quote-only
}

@test "reference case 10: checksum-control-chars" {
	check_case 10 checksum-control-chars
}

@test "reference case 11: checksum-unicode-printable" {
	check_case 11 checksum-unicode-printable
}

@test "reference case 12: checksum-unicode-nonprintable" {
	check_case 12 checksum-unicode-nonprintable
}

@test "reference case 13: checksum-nul" {
	check_case 13 checksum-nul
}

@test "reference case 14: checksum-empty" {
	check_case 14 checksum-empty
}

@test "reference case 15: native-missing-all" {
	check_case 15 native-missing-all
}

@test "reference case 16: native-missing-some" {
	check_case 16 native-missing-some
}

@test "reference case 17: native-missing-case-sensitive" {
	check_case 17 native-missing-case-sensitive
}

@test "reference case 18: native-root-names" {
	check_case 18 native-root-names
}

@test "reference case 19: native-path-double-slash" {
	check_case 19 native-path-double-slash
}

@test "reference case 20: native-path-trailing-slash" {
	check_case 20 native-path-trailing-slash
}

@test "reference case 21: native-path-trailing-dot" {
	check_case 21 native-path-trailing-dot
}

@test "reference case 22: native-backslash-names" {
	check_case 22 native-backslash-names
}

@test "reference case 23: instructions-mismatch" {
	check_case 23 instructions-mismatch
}

@test "reference case 24: instructions-missing-one" {
	check_case 24 instructions-missing-one
}

@test "reference case 25: instructions-duplicate-artifact" {
	check_case 25 instructions-duplicate-artifact
}

@test "reference case 26: instructions-without-summaries" {
	check_case 26 instructions-without-summaries
}

@test "reference case 27: capture-mix-two-thirds-vs-067" {
	check_case 27 capture-mix-two-thirds-vs-067
}

@test "reference case 28: capture-two-thirds-exact" {
	check_case 28 capture-two-thirds-exact
}

@test "reference case 29: capture-two-thirds-next-up" {
	check_case 29 capture-two-thirds-next-up
}

@test "reference case 30: capture-nine-tenths" {
	check_case 30 capture-nine-tenths
}

@test "reference case 31: capture-one-sixteenth" {
	check_case 31 capture-one-sixteenth
}

@test "reference case 32: capture-three-sixteenths" {
	check_case 32 capture-three-sixteenths
}

@test "reference case 33: capture-none-eligible" {
	check_case 33 capture-none-eligible
}

@test "reference case 34: capture-null-source-ids" {
	check_case 34 capture-null-source-ids
}

@test "reference case 35: groundedness-partial" {
	check_case 35 groundedness-partial
}

@test "reference case 36: groundedness-with-memory-before" {
	check_case 36 groundedness-with-memory-before
}

@test "reference case 37: duplicate-entry-ids" {
	check_case 37 duplicate-entry-ids
}

@test "reference case 38: no-new-memory" {
	check_case 38 no-new-memory
}

@test "reference case 39: empty-memory-after" {
	check_case 39 empty-memory-after
}

@test "reference case 40: require-checkpoint-none-completed" {
	check_case 40 require-checkpoint-none-completed
}

@test "reference case 41: require-checkpoint-completed" {
	check_case 41 require-checkpoint-completed
}

@test "reference case 42: require-checkpoint-no-memory" {
	check_case 42 require-checkpoint-no-memory
}

@test "reference case 43: in-run-contexts-meets-minimum" {
	check_case 43 in-run-contexts-meets-minimum
}

@test "reference case 44: in-run-contexts-below-minimum" {
	check_case 44 in-run-contexts-below-minimum
}

@test "reference case 45: expected-memory-empty" {
	check_case 45 expected-memory-empty
}

@test "reference case 46: expected-memory-blank-fragment-no-entries" {
	check_case 46 expected-memory-blank-fragment-no-entries
}

@test "reference case 47: expected-memory-casefold" {
	check_case 47 expected-memory-casefold
}

@test "reference case 48: expected-memory-casefold-miss" {
	check_case 48 expected-memory-casefold-miss
}

@test "reference case 49: expected-memory-reprs" {
	check_case 49 expected-memory-reprs
}

@test "reference case 50: expected-memory-nul" {
	check_case 50 expected-memory-nul
}

@test "reference case 51: probes-missing" {
	check_case 51 probes-missing
}

@test "reference case 52: probes-status-empty" {
	check_case 52 probes-status-empty
}

@test "reference case 53: probes-blank-unicode" {
	check_case 53 probes-blank-unicode
}

@test "reference case 54: probe-content-nul" {
	check_case 54 probe-content-nul
}

@test "reference case 55: probes-casefold" {
	check_case 55 probes-casefold
}

@test "reference case 56: probes-duplicate-observed-ids" {
	check_case 56 probes-duplicate-observed-ids
}

@test "reference case 57: probes-extra-and-partial" {
	check_case 57 probes-extra-and-partial
}

@test "reference case 58: rewards-several-unsorted" {
	check_case 58 rewards-several-unsorted
}

@test "reference case 59: rewards-one-below" {
	check_case 59 rewards-one-below
}

@test "reference case 60: rewards-odd-values" {
	check_case 60 rewards-odd-values
}

@test "reference case 61: rewards-none" {
	check_case 61 rewards-none
}

@test "reference case 62: exception-with-rewards" {
	check_case 62 exception-with-rewards
}

@test "reference case 63: exception-empty-type" {
	check_case 63 exception-empty-type
}

@test "reference case 64: registry-dataset" {
	check_case 64 registry-dataset
}

@test "reference case 65: registry-dataset-empty-name" {
	check_case 65 registry-dataset-empty-name
}

@test "reference case 66: local-dataset-odd-path" {
	check_case 66 local-dataset-odd-path
}

@test "reference case 67: thresholds-all-one-perfect" {
	check_case 67 thresholds-all-one-perfect
}

@test "reference case 68: thresholds-format-rounding" {
	check_case 68 thresholds-format-rounding
}

@test "reference case 69: everything-odd-strings" {
	check_case 69 everything-odd-strings
}

@test "reference case 70: time-formats" {
	check_case 70 time-formats
}

@test "reference case 71: harbor-time-without-offset" {
	check_case 71 harbor-time-without-offset
}
