#!/usr/bin/env bats
# A paired run's arms in the ledger (docs/ledger.md, "A paired run's
# arms"): pc-report --paired --ledger records each arm observation as a
# case, with its account's spend and fault as values, in a real SQLite file
# and on a real MariaDB server (tests/mariadb_helper.bash; skipped only when
# mariadbd is not installed). The run is built by hand as tests/spend.bats
# builds it.

load test_helper
load mariadb_helper

RATE_LIMIT='{"class": "provider", "kind": "rate-limit", "transient": true, "step": "capture", "status": 429, "retry_after": 2, "words": "Rate limit reached"}'

setup_file() {
	mariadb_start "$BATS_FILE_TMPDIR/mariadb"
	if [[ -z "$MARIADB_SKIP$MARIADB_FAILED" ]]; then
		mariadb_sql "CREATE USER 'pc'@'%' IDENTIFIED BY 'pw'; GRANT ALL ON \`t%\`.* TO 'pc'@'%'"
	fi
}

teardown_file() {
	mariadb_stop
}

setup() {
	pc_setup
	unset PC_E2E_LEDGER_PASSWORD
}

# a_run [OFF_USD]: two trials of workload w, trial 1's OFF arm errored on
# a 429 (its agent at OFF_USD, default 0.002), trial 2's ON arm failed
# integration; the report, then the observations, then the accounts, in
# $T/input.jsonl.
a_run() {
	{
		paired_arm w 1 off 1 error
		paired_arm w 1 on 2 passed
		paired_arm w 2 on 1 integration_failed
		paired_arm w 2 off 2 failed
	} >"$T/arms.jsonl"
	{
		paired_account w 1 off "${1:-0.002}" "$RATE_LIMIT"
		paired_account w 1 on 0.004
		paired_account w 2 on 0.004
		paired_account w 2 off 0.002
	} >"$T/accounts.jsonl"
	pc-evaluate --paired <"$T/arms.jsonl" >"$T/paired.json" || true
	cat "$T/paired.json" "$T/arms.jsonl" "$T/accounts.jsonl" >"$T/input.jsonl"
}

sql() {
	sqlite3 "$T/l.db" "$@"
}

@test "SQLite: each arm a case with its outcome, its account's spend and fault as values; recorded again, replaced" {
	a_run
	run --separate-stderr pc-report --paired --format text --ledger "sqlite:$T/l.db" <"$T/input.jsonl"
	assert_exit 2
	assert_equal "$stderr" ""
	assert_output --partial '- OFF: 0/1 passed'
	run sql "SELECT run_id, experiment, workload_id, verdict, finished_at, powercontext_commit FROM pc_e2e_cases ORDER BY id"
	assert_output 'w-t1-off-0123456789ab|e2e:paired:bub:w|w|error|2026-12-02T10:01:00Z|1.4.1
w-t1-on-0123456789ab|e2e:paired:bub:w|w|passed|2026-12-02T10:01:00Z|1.4.1
w-t2-on-0123456789ab|e2e:paired:bub:w|w|integration|2026-12-02T10:01:00Z|1.4.1
w-t2-off-0123456789ab|e2e:paired:bub:w|w|failed|2026-12-02T10:01:00Z|1.4.1'
	run sql "SELECT group_concat(name || '=' || value_json, ' ') FROM pc_e2e_values WHERE kind = 'spend' GROUP BY run_id ORDER BY run_id"
	assert_output 'agent.input_tokens=1000 agent.cached_tokens=200 agent.output_tokens=100 agent.usd=0.002 extraction.input_tokens=0 extraction.output_tokens=0 extraction.usd=0 usd=0.002
agent.input_tokens=1000 agent.cached_tokens=200 agent.output_tokens=100 agent.usd=0.004 extraction.input_tokens=900 extraction.output_tokens=30 extraction.usd=0.01 usd=0.014
agent.input_tokens=1000 agent.cached_tokens=200 agent.output_tokens=100 agent.usd=0.002 extraction.input_tokens=0 extraction.output_tokens=0 extraction.usd=0 usd=0.002
agent.input_tokens=1000 agent.cached_tokens=200 agent.output_tokens=100 agent.usd=0.004 extraction.input_tokens=900 extraction.output_tokens=30 extraction.usd=0.01 usd=0.014'
	run sql "SELECT SUM(value_number) FROM pc_e2e_values WHERE kind = 'spend' AND name = 'usd'"
	assert_output 0.032
	run sql "SELECT run_id, seq, name, value_json, value_number, reason FROM pc_e2e_values WHERE kind = 'fault' ORDER BY run_id, seq"
	assert_output 'w-t1-off-0123456789ab|0|class|"provider"||Rate limit reached
w-t1-off-0123456789ab|1|kind|"rate-limit"||
w-t1-off-0123456789ab|2|step|"capture"||
w-t1-off-0123456789ab|3|status|429|429.0|
w-t1-off-0123456789ab|4|transient|true|1.0|
w-t1-off-0123456789ab|5|retry_after|2|2.0|'
	# each arm's key is a paired one, ON and OFF apart
	run sql "SELECT DISTINCT json_extract(fields, '$.paired') || ' ' || json_extract(fields, '$.arm') || ' ' || json_extract(fields, '$.experiment') FROM pc_e2e_cases JOIN pc_e2e_keys USING (key_digest) ORDER BY 1"
	assert_output $'1 off e2e:paired:bub:w\n1 on e2e:paired:bub:w'
	# the same run again, its OFF arm's figure changed: replaced, not duplicated
	a_run 0.5
	run --separate-stderr pc-report --paired --format markdown --ledger "sqlite:$T/l.db" <"$T/input.jsonl"
	assert_exit 2
	run sql "SELECT (SELECT COUNT(*) FROM pc_e2e_cases), (SELECT COUNT(*) FROM pc_e2e_values), (SELECT COUNT(*) FROM pc_e2e_keys)"
	assert_output '4|38|2'
	run sql "SELECT value_number FROM pc_e2e_values WHERE run_id = 'w-t1-off-0123456789ab' AND name = 'agent.usd'"
	assert_output 0.5
}

@test "an arm without an account is recorded without values; no arm at all is an error after the report, nothing recorded" {
	a_run
	cat "$T/paired.json" "$T/arms.jsonl" >"$T/input.jsonl"
	run --separate-stderr pc-report --paired --format text --ledger "sqlite:$T/l.db" <"$T/input.jsonl"
	assert_exit 2
	run sql "SELECT (SELECT COUNT(*) FROM pc_e2e_cases), (SELECT COUNT(*) FROM pc_e2e_values)"
	assert_output '4|0'
	run --separate-stderr pc-report --paired --format text --ledger "sqlite:$T/none.db" <"$T/paired.json"
	assert_exit 1
	assert_output --partial '- OFF: 0/1 passed'
	assert_equal "$stderr" "pc-report: ledger sqlite:$T/none.db: no arm followed the report: nothing was recorded"
	[[ ! -e $T/none.db ]] || fail "a ledger was made"
}

@test "--paired takes --ledger but no trend: --trend and --trend-runs are usage errors" {
	run --separate-stderr pc-report --paired --ledger "sqlite:$T/l.db" --trend </dev/null
	assert_exit 64
	assert_stderr_contains "--paired takes --format text, markdown or html, --output and --ledger only"
	run --separate-stderr pc-report --paired --ledger "sqlite:$T/l.db" --trend-runs 3 </dev/null
	assert_exit 64
	[[ ! -e $T/l.db ]] || fail "a ledger was made"
}

@test "an experiment over 255 bytes is recorded by its prefix and digest, the key's fields holding it whole" {
	a_run
	local long
	long="e2e:paired:bub:$(printf 'memorycode-%d,' {1..30})w"
	jq -c --arg e "$long" '.experiment = $e' "$T/paired.json" | cat - "$T/arms.jsonl" "$T/accounts.jsonl" |
		pc-report --paired --format text --ledger "sqlite:$T/l.db" >/dev/null || true
	run sql "SELECT DISTINCT experiment FROM pc_e2e_cases"
	assert_output "e2e:paired:bub:sha256:$(printf '%s' "$long" | sha256sum | cut -d' ' -f1)"
	run sql "SELECT DISTINCT json_extract(fields, '$.experiment') FROM pc_e2e_keys"
	assert_output "$long"
}

@test "MariaDB: the arms, their spend and fault, recorded again without a duplicate" {
	need_mariadb
	mariadb_sql "CREATE DATABASE t$BATS_TEST_NUMBER"
	local url="mysql://pc:pw@127.0.0.1:$MARIADB_PORT/t$BATS_TEST_NUMBER"
	a_run
	run --separate-stderr pc-report --paired --format text --ledger "$url" <"$T/input.jsonl"
	assert_exit 2
	assert_equal "$stderr" ""
	pc-report --paired --format text --ledger "$url" <"$T/input.jsonl" >/dev/null || true
	run mariadb_sql "USE t$BATS_TEST_NUMBER; SELECT verdict, COUNT(*) FROM pc_e2e_cases GROUP BY verdict ORDER BY verdict"
	assert_output $'error\t1\nfailed\t1\nintegration\t1\npassed\t1'
	run mariadb_sql "USE t$BATS_TEST_NUMBER; SELECT COUNT(*), SUM(value_number) FROM pc_e2e_values WHERE kind = 'spend' AND name = 'usd'"
	assert_output $'4\t0.032'
	run mariadb_sql "USE t$BATS_TEST_NUMBER; SELECT name, reason FROM pc_e2e_values WHERE kind = 'fault' AND seq = 0"
	assert_output $'class\tRate limit reached'
}
