#!/usr/bin/env bats
# Retries by pair and the spend cap of a paired run's units (pipelines/units,
# pipelines/unit-run, docs/units.md): RETRY=N runs a unit again, both arms
# on a new Server, when an arm ended in a transient fault, and keeps every
# attempt; BUDGET_USD (with PRICES) starts no unit once the spend would pass
# it, and RESUME=1 with a new budget completes the run. The real Bub on the
# scripted model, whose FAULT=KIND@N plays the provider's fault in a unit's
# first attempt only (docs/scripted-model.md).

load test_helper

ID=api-version-continuation

setup() {
	[[ -z ${PC_SANITIZED:-} ]] || skip "real Bub through pipelines/paired: the C it reaches is covered by other suites"
	pc_setup
	OUT=$T/out
}

# paired [VAR=VALUE…]: pipelines/paired on $ID, one trial unless told, on
# the scripted model, into $OUT; its status and streams as run's.
paired() {
	run --separate-stderr env OUTPUT="$OUT" MODEL=scripted TRIALS=1 RETRY_BACKOFF=1 PC_E2E_PROGRESS=0 "$@" \
		timeout -k 10 900 "$REPO/pipelines/paired" --id "$ID"
}

# unit K FILTER: jq FILTER on unit K's line of units.jsonl, compact.
unit() {
	jq -c "$2" <<<"$(sed -n "$(($1 + 1))p" "$OUT/units/units.jsonl")"
}

# outcomes: "<trial> <arm> <outcome>" of each observation, sorted.
outcomes() {
	jq -r '"\(.trial) \(.arm) \(.outcome)"' "$OUT/$ID"/trial-*/*/observation.json | sort
}

@test "RETRY=1 FAULT=429@3: the pair that met the 429 runs again, both arms; both attempts kept, only the last summarized; exit 0" {
	paired RETRY=1 FAULT=429@3
	assert_exit 0
	assert_equal "$(unit 0 '[.attempts, .retried, .state, .lost]')" '[2,1,"done",false]'
	assert_equal "$(unit 0 .faults)" '[{"attempt":1,"arm":"off","class":"provider","kind":"rate-limit"}]'
	assert_stderr_contains "units: round 1: 1 unit(s) again, both arms, after 1 s"
	assert_stderr_contains "units: 1 of 1 unit(s) retried, 0 lost"
	[[ $output == *$'\npairs retried 1, lost 0\n'* ]] || fail "the report does not say the retry: $output"
	# the first attempt's evidence moved aside, whole: both arms' own files
	local first=$OUT/units/0/attempt-1 second=$OUT/units/0/attempt-2
	[[ -d $first/evidence/off && -d $first/evidence/on ]] || fail "$(find "$first" -maxdepth 3)"
	[[ ! -e $second/evidence ]] || fail "the last attempt's evidence is not where the report reads it"
	# each attempt on a Server of its own: every run id differs
	assert_equal "$(cat "$first/records.jsonl" "$second/records.jsonl" | jq -r .run_id | sort -u | wc -l)" 4
	# the report reads the last attempt alone, its arms served normally
	assert_equal "$(outcomes)" $'1 off failed\n1 on passed'
	assert_equal "$(jq -r .run_id "$OUT/$ID"/trial-1/{off,on}/observation.json)" \
		"$(jq -r .run_id "$second/records.jsonl")"
	run "$REPO/tests/reference/paired-check" --run "$OUT"
	assert_success
}

@test "RETRY=1 FAULT=429-quota@3: an exhausted quota is not transient; the pair is lost, not retried, exit 2" {
	paired RETRY=1 FAULT=429-quota@3
	assert_exit 2
	assert_equal "$(unit 0 '[.attempts, .retried, .state, .lost]')" '[1,0,"done",true]'
	assert_equal "$(unit 0 .faults)" '[{"attempt":1,"arm":"off","class":"provider","kind":"quota"}]'
	assert_stderr_contains "units: 0 of 1 unit(s) retried, 1 lost (provider/quota 1)"
	[[ $output == *$'\npairs retried 0, lost 1\n'* ]] || fail "the report does not say the loss: $output"
	refute_stderr_contains "round 1"
}

@test "RETRY=1 with a Retry-After beyond RETRY_MAX_WAIT: not waited for, the pair is lost, exit 2" {
	# Claude Code says the provider's Retry-After (1 s) in its words
	paired HOST=claude-code CLAUDE_CODE_MAX_RETRIES=1 RETRY=1 RETRY_MAX_WAIT=0 FAULT=429@3
	assert_exit 2
	assert_stderr_contains "units: unit $ID/trial-1: retry-after 1 s beyond RETRY_MAX_WAIT (0 s): not run again, the pair is lost"
	assert_equal "$(unit 0 '[.attempts, .retried, .lost, .faults[0].kind]')" '[1,0,true,"rate-limit"]'
}

@test "RETRY=1: a unit whose attempt never finished (its records unit-lost) runs again, and its second attempt is the one summarized" {
	mkdir -p "$T/bin"
	local f
	for f in pc-select pc-normalize pc-evaluate pc-report; do ln -s "$PC_BIN/$f" "$T/bin/$f"; done
	# the first attempt's run dies before writing its records, as on a lost node
	printf '#!/bin/sh\ncase " $* " in *" --plan "* | *" --unrun "*) ;; *) [ -e "%s" ] || { : >"%s"; exit 137; } ;; esac\nexec "%s" "$@"\n' \
		"$T/died" "$T/died" "$PC_BIN/pc-run-bub" >"$T/bin/pc-run-bub"
	chmod +x "$T/bin/pc-run-bub"
	PC_BIN=$T/bin paired RETRY=1
	assert_exit 0
	assert_equal "$(unit 0 '[.attempts, .retried, .state, .lost]')" '[2,1,"done",false]'
	assert_equal "$(unit 0 '[.faults[] | [.attempt, .arm, .class, .kind]]')" \
		'[[1,"off","infrastructure","unit-lost"],[1,"on","infrastructure","unit-lost"]]'
	assert_stderr_contains "units: unit $ID/trial-1: no done attempt after 1 attempt(s)"
	assert_stderr_contains "units: round 1: 1 unit(s) again, both arms, after 1 s"
	[[ -d $OUT/units/0/attempt-1.partial && -d $OUT/units/0/attempt-2 ]] || fail "$(ls "$OUT/units/0")"
	assert_equal "$(outcomes)" $'1 off failed\n1 on passed'
}

@test "BUDGET_USD stops starting units at the budget, exit 3; RESUME=1 with a new budget runs only the rest" {
	printf '{"*": {"input": 2, "cached_input": 0.5, "output": 8}}\n' >"$T/prices.json"
	# the first unit runs alone (nothing says yet what a unit costs), and its spend is known
	paired TRIALS=3 PRICES="$T/prices.json" BUDGET_USD=0.000001
	assert_exit 3
	local one
	one=$(jq .spent_usd "$OUT/units/budget.json")
	[[ $(jq -n "$one > 0") == true ]] || fail "no spend: $(cat "$OUT/units/budget.json")"
	# 1.5 units: a second would pass it, so none starts (exit 3, nothing run)
	paired TRIALS=3 PRICES="$T/prices.json" RESUME=1 BUDGET_USD="$(jq -n "$one * 1.5")"
	assert_exit 3
	assert_equal "$(jq -c '.state' "$OUT/units/units.jsonl" | paste -sd' ')" '"done" "budget" "budget"'
	[[ $(jq -n --argjson s "$(jq .spent_usd "$OUT/units/budget.json")" --argjson one "$one" '$s == $one') == true ]] ||
		fail "spent again: $(cat "$OUT/units/budget.json")"
	# 2.5 units: the second unit fits, a third would pass it
	paired TRIALS=3 PRICES="$T/prices.json" RESUME=1 BUDGET_USD="$(jq -n "$one * 2.5")"
	assert_exit 3
	assert_equal "$(jq -c '.state' "$OUT/units/units.jsonl" | paste -sd' ')" '"done" "done" "budget"'
	assert_equal "$(jq -c '[.units, .units_not_run, .stopped]' "$OUT/units/budget.json")" '[3,1,true]'
	# dollars to four places, as the report prints them (not jq's 0.026550000000000004)
	[[ $stderr =~ units:\ stopped\ at\ its\ budget:\ \$[0-9]+\.[0-9]{4}\ spent\ of\ \$[0-9]+\.[0-9]{4}\; ]] ||
		fail "$stderr"
	assert_stderr_contains "; 1 of 3 unit(s) not run (RESUME=1 BUDGET_USD=… runs them)"
	[[ $output == *'; 1 of 3 units not run (RESUME=1 BUDGET_USD=… runs them)'* ]] ||
		fail "the report does not say the stop: $output"
	assert_equal "$(outcomes | wc -l)" 4
	[[ -e $OUT/units/2/budget && ! -e $OUT/units/2/attempt-1.partial ]] || fail "$(ls "$OUT/units/2")"
	# a new budget caps the whole OUTPUT's spend; nothing runs twice
	paired TRIALS=3 PRICES="$T/prices.json" RESUME=1 BUDGET_USD=100
	assert_exit 0
	assert_equal "$(jq -c '[.state, .attempts]' "$OUT/units/units.jsonl" | paste -sd' ')" \
		'["done",1] ["done",1] ["done",1]'
	assert_equal "$(find "$OUT/units" -maxdepth 2 -name 'attempt-*' | sort | sed "s|$OUT/units/||" | paste -sd' ')" \
		'0/attempt-1 1/attempt-1 2/attempt-1'
	assert_equal "$(jq -c '[.stopped, .units_not_run, .spent_usd > 0]' "$OUT/units/budget.json")" '[false,0,true]'
	assert_equal "$(outcomes | wc -l)" 6
}

@test "BUDGET_USD with JOBS=2: until a unit is done and priced, the next waits for it rather than start blind" {
	printf '{"*": {"input": 2, "cached_input": 0.5, "output": 8}}\n' >"$T/prices.json"
	paired TRIALS=2 JOBS=2 PRICES="$T/prices.json" BUDGET_USD=100
	assert_exit 0
	local done_at started
	done_at=$(stat -c %Y "$OUT/units/0/attempt-1/status")
	started=$(date -d "$(cat "$OUT/units/1/attempt-1/started")" +%s)
	((started >= done_at)) || fail "unit 1 started at $started, before unit 0 was done at $done_at"
}

@test "RETRY, RETRY_BACKOFF and RETRY_MAX_WAIT that are not whole numbers are refused with 64 before OUTPUT" {
	local bad
	for bad in RETRY=x RETRY=-1 RETRY_BACKOFF=1.5 RETRY_MAX_WAIT=1234567; do
		paired "$bad"
		[[ $status == 64 && ${stderr_lines[0]} == "paired: ${bad%%=*} must be a whole number of at most 6 digits, got '${bad#*=}'" ]] ||
			fail "$bad: $status $stderr"
		[[ ! -e $OUT ]] || fail "$bad: OUTPUT made"
	done
}
