#!/usr/bin/env bats
# The JSON text stream every filter reads (docs/DESIGN.md §1): any
# whitespace-separated sequence of JSON texts, pretty-printed or compact;
# errors name the line where the offending text starts.

load test_helper

setup() {
	pc_setup
	LINES_PRETTY=$(wc -l <"$ACCEPTED")   # the fixture is pretty-printed
}

# evaluate_stream FILE: pc-evaluate over FILE; its stdout in $T/out.jsonl.
evaluate_stream() {
	run --separate-stderr pc-evaluate <"$1"
	save_stdout "$T/out.jsonl"
}

names() {
	jq -r '.cases[0].name' "$T/out.jsonl"
}

@test "pretty-printed and compact texts mix freely" {
	{
		replay '.task.id = "one"'
		replay '.task.id = "two"' -c
		replay '.task.id = "three"' -c
		printf '\n\n   \t\n'
		replay '.task.id = "four"' --tab
		replay '.task.id = "five"' -c | tr -d '\n'
	} >"$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 0
	[[ -z "$stderr" ]]
	schema_ok e2e-evaluation "$T/out.jsonl"
	run names
	assert_output "one
two
three
four
five"
}

@test "the same stream evaluates the same whatever its layout" {
	# compacted by Python, which keeps each number's text (jq's 1.6 writes 1.0
	# as 1, another document for Python and so for the release's report.md)
	python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin), separators=(",", ":")))' \
		<"$ACCEPTED" >"$T/compact.json"
	evaluate_stream "$T/compact.json"
	mv "$T/out.jsonl" "$T/from-compact.jsonl"
	evaluate_stream "$ACCEPTED"
	assert_status 0
	schema_ok e2e-evaluation "$T/out.jsonl"
	cmp "$T/out.jsonl" "$T/from-compact.jsonl"
}

@test "top-level scalars and arrays are rejected with their line numbers" {
	{
		replay . -c
		printf '42\n"{\\"}"\n[1,\n2]\nnull\ntrue\n'
		cat "$ACCEPTED"
	} >"$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 1
	local what="expected a $EVIDENCE document, got a non-object"
	assert_stderr_contains "stdin:2: $what" "stdin:3: $what" "stdin:4: $what" \
		"stdin:6: $what" "stdin:7: $what"
	refute_stderr_contains "stdin:5:" "stdin:1:" "stdin:8:"
	[[ $(grep -c . <<<"$stderr") -eq 5 ]] || fail "expected 5 errors: $stderr"
	# the replays around them are still evaluated
	schema_ok e2e-evaluation "$T/out.jsonl"
	[[ $(wc -l <"$T/out.jsonl") -eq 2 ]]
}

@test "braces and escaped quotes inside strings do not confuse the reader" {
	replay '.task.id = "tricky" | .status = "failed" |
		.errors = ["{\"}", "}}]]", "[{", "\\", "\\\"{"] |
		.memory_after.entries[0].text += " {\"nested\": [\"}\"]}"' >"$T/in.json"
	replay '.task.id = "after"' -c >>"$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 3
	schema_ok e2e-evaluation "$T/out.jsonl"
	run names
	assert_output "tricky
after"
	run jq -r 'select(.cases[0].name == "tricky") | .cases[0].assertions.collection_completed.reason' "$T/out.jsonl"
	assert_output '{"}; }}]]; [{; \; \"{'
}

@test "a top-level string holding braces is one text" {
	{ printf '"{\\"} {"\n'; replay . -c; } >"$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: expected a $EVIDENCE document, got a non-object"
	schema_ok e2e-evaluation "$T/out.jsonl"
	[[ $(wc -l <"$T/out.jsonl") -eq 1 ]]
}

@test "CRLF line endings are whitespace" {
	{ replay '.task.id = "crlf-pretty"'; replay '.task.id = "crlf-compact"' -c; } | sed 's/$/\r/' >"$T/in.json"
	grep -q $'\r$' "$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 0
	schema_ok e2e-evaluation "$T/out.jsonl"
	run names
	assert_output "crlf-pretty
crlf-compact"
}

@test "line numbers stay right after CRLF lines" {
	{ sed 's/$/\r/' "$ACCEPTED"; printf '{"schema": nope}\r\n'; } >"$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:$((LINES_PRETTY + 1)):16: malformed JSON (in the text starting on line $((LINES_PRETTY + 1))): Invalid literal"
	schema_ok e2e-evaluation "$T/out.jsonl"
}

@test "a malformed text is not quoted back in the error (it may be large or secret)" {
	{ replay . -c; printf '{"schema": "x", "secret": "do-not-echo", "n": tru}\n'; } >"$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:2:"
	[[ $stderr != *do-not-echo* ]]
}

@test "a truncated last document names its starting line" {
	{ replay . -c; cat "$ACCEPTED"; head -c 2000 "$ACCEPTED"; } >"$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 1
	assert_stderr_contains "malformed JSON (in the text starting on line $((LINES_PRETTY + 2))): Unfinished string at EOF"
	schema_ok e2e-evaluation "$T/out.jsonl"
	[[ $(wc -l <"$T/out.jsonl") -eq 2 ]]
}

@test "a truncated string at the end is malformed, not a hang" {
	{ replay . -c; printf '"unterminated {'; } >"$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:2:15: malformed JSON (in the text starting on line 2): Unfinished string at EOF"
	schema_ok e2e-evaluation "$T/out.jsonl"
	[[ $(wc -l <"$T/out.jsonl") -eq 1 ]]
}

@test "an invalid pretty document is named by the line where it starts" {
	{ cat "$ACCEPTED"; echo; replay '.harbor.extra = 1'; } >"$T/in.json"
	evaluate_stream "$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:$((LINES_PRETTY + 2)): harbor.extra: unknown field"
	schema_ok e2e-evaluation "$T/out.jsonl"
}

@test "documents larger than the read buffer, with escapes across its boundaries" {
	{
		replay '.task.id = "huge" | .status = "failed" | .errors = [("{\\\"}" * 40000), "end"]'
		replay '.task.id = "big-text" | .memory_after.entries[0].text += ("]" * 150000)' -c
		replay '.task.id = "small"' -c
	} >"$T/in.json"
	[[ $(wc -c <"$T/in.json") -gt 300000 ]]
	evaluate_stream "$T/in.json"
	assert_status 3
	schema_ok e2e-evaluation "$T/out.jsonl"
	run names
	assert_output "huge
big-text
small"
	run jq -r 'select(.cases[0].name == "huge") | .cases[0].assertions.collection_completed.reason | length' "$T/out.jsonl"
	assert_output $((4 * 40000 + 5))
}

@test "pc-report reads the same kind of stream" {
	jq -c . "$ACCEPTED" | pc-evaluate >"$T/eval.jsonl"
	schema_ok e2e-evaluation "$T/eval.jsonl"
	{ jq . "$T/eval.jsonl"; sed 's/$/\r/' "$T/eval.jsonl"; printf '  \n'; cat "$T/eval.jsonl"; printf '[]\n'; } >"$T/in.json"
	local last
	last=$(wc -l <"$T/in.json")
	run --separate-stderr pc-report --format text <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:$last: expected a $EVALUATION document, got a non-object"
	head -n -1 "$T/in.json" >"$T/ok.json"
	run --separate-stderr pc-report --format text <"$T/ok.json"
	assert_status 0
	assert_line "3 workloads: 3 accepted, 0 failed, 0 inconclusive"
}

@test "a document is handled as soon as it arrives on a pipe, not when the pipe ends" {
	# the writer holds the pipe open until the first evaluation came out:
	# a reader that waits for a full buffer (or for the end) never answers
	mkfifo "$T/in"
	pc-evaluate <"$T/in" >"$T/out.jsonl" 2>"$T/err" &
	local filter=$! i
	exec 4>"$T/in"
	replay '.task.id = "first"' -c >&4
	for ((i = 0; i < 200; i++)); do
		[[ -s $T/out.jsonl ]] && break
		sleep 0.05
	done
	local early
	early=$(jq -r '.cases[0].name' "$T/out.jsonl")
	replay '.task.id = "second"' -c >&4
	exec 4>&-
	wait "$filter" || true
	[[ $early == first ]] ||
		fail "the first evaluation did not come out while the pipe was still open: '$early' $(cat "$T/err")"
	[[ $(wc -l <"$T/out.jsonl") == 2 ]] || fail "$(wc -l <"$T/out.jsonl") evaluations of 2"
}
