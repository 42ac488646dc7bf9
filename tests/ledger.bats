#!/usr/bin/env bats
# pc-report's ledger and trends (docs/ledger.md): the SQLite file here, a
# real MariaDB server in tests/ledger-mariadb.bats.
#
# Evaluations come from pc-evaluate on the accepted fixture; each run below
# is that evaluation with its run id, its time and, for a failed run, one
# assertion changed, as a later run of the same workload would be.

load test_helper

setup_file() {
	local dir="$BATS_FILE_TMPDIR"
	"$PC_BIN/pc-evaluate" <"$ACCEPTED" >"$dir/base.json"
	schema_ok e2e-evaluation "$dir/base.json"
}

setup() {
	pc_setup
	unset PC_E2E_LEDGER_PASSWORD
	B="$BATS_FILE_TMPDIR/base.json"
	L="sqlite:$T/ledger.db"
}

# run_of ID TIME VERDICT [JQ]: the base evaluation as run ID finished at
# TIME (day N of 2030 when TIME is a number), accepted or failed
# (memory_grounded false), with an optional further jq filter.
run_of() {
	local time=$2
	[[ $time =~ ^[0-9]+$ ]] && time=$(printf '2030-01-%02dT00:00:00Z' "$time")
	jq -c --arg id "$1" --arg t "$time" --arg v "$3" '.cases[0].attributes.run_id = $id
		| .cases[0].attributes.finished_at = $t
		| if $v == "failed" then .cases[0].assertions.memory_grounded.value = false else . end
		| '"${4:-.}" "$B"
}

# record ID TIME VERDICT [PC-REPORT ARGS...]: report one run into $L
# ($EDIT: a further jq filter of the evaluation).
record() {
	local id=$1 time=$2 verdict=$3
	shift 3
	run_of "$id" "$time" "$verdict" "${EDIT:-.}" >"$T/$id.json"
	run --separate-stderr pc-report --ledger "$L" "$@" <"$T/$id.json"
}

sql() {
	sqlite3 "$T/ledger.db" "$@"
}

@test "two runs in a SQLite ledger: the second's trend shows the regression, in every format" {
	record r1 1 accepted --format text --trend
	assert_success
	assert_output --partial "    trend: A (new)"
	record r2 2 failed --format text --trend
	assert_failure 2
	assert_line --index 0 --regexp '^failed +project-database-decision$'
	assert_line --index 1 "    trend: A F (regression)"
	assert_equal "$stderr" ""

	run --separate-stderr pc-report --ledger "$L" --trend --format json <"$T/r2.json"
	assert_failure 2
	save_stdout "$T/r2.out"
	run jq -c '.cases[0] | [.change, (.trend | map([.run_id, .finished_at, .verdict]))]' "$T/r2.out"
	assert_output '["regression",[["r1","2030-01-01T00:00:00Z","accepted"],["r2","2030-01-02T00:00:00Z","failed"]]]'
	run jq -c '.cases[0].trend | map(.scores)' "$T/r2.out"
	assert_output "$(jq -c '.cases[0].scores | map_values(.value) | [., .]' "$B")"
	run --separate-stderr pc-report --ledger "$L" --trend --format markdown <"$T/r2.json"
	assert_line "| Workload | Verdict | Native task outcome | Database | Run | Trend |"
	assert_line '| `project-database-decision` | failed | passed | sqlite | `r2` | A F (regression) |'
	run --separate-stderr pc-report --ledger "$L" --trend --format junit <"$T/r2.json"
	assert_line '        <property name="trend" value="A F"/>'
	assert_line '        <property name="trend_change" value="regression"/>'
}

@test "the ledger holds each case's verdict, values, time and key, and a rescore replaces its run" {
	record r1 1 accepted
	assert_success
	record r1 1 failed # the same run, rescored
	assert_failure 2
	run sql "SELECT run_id, experiment, workload_id, finished_at, verdict FROM pc_e2e_cases"
	assert_output "r1|e2e:project-database-decision|project-database-decision|2030-01-01T00:00:00Z|failed"
	run sql "SELECT value_json, value_number FROM pc_e2e_values WHERE kind = 'assertions' AND name = 'memory_grounded'"
	assert_output "false|0.0"
	# every assertion, score, label and metric, once
	run sql "SELECT count(*) FROM pc_e2e_values"
	assert_output "$(jq '.cases[0] | [.assertions, .scores, .labels, .metrics | length] | add' "$B")"
	# the key is the digest of the comparability fields, which are kept
	run sql "SELECT k.fields FROM pc_e2e_keys k JOIN pc_e2e_cases c USING (key_digest)"
	assert_output "$(jq -cS '.cases[0].attributes.comparability' "$B")"
	run sql "SELECT key_digest FROM pc_e2e_keys"
	assert_output "$(jq -cS '.cases[0].attributes.comparability' "$B" | tr -d '\n' | sha256sum | cut -d' ' -f1)"
	run sql "SELECT value FROM pc_e2e_meta WHERE name = 'schema_version'"
	assert_output 1
}

@test "change marks: stable, recovered, flaky; skipped runs are left out; --trend-runs keeps the last N" {
	record a1 1 accepted
	record a2 2 accepted --trend --format text
	assert_line --index 1 "    trend: A A (stable)"
	record a3 3 failed
	record a4 4 accepted --trend --format text
	assert_line --index 1 "    trend: A A F A (flaky)"
	record a5 5 accepted --trend --trend-runs 2 --format text
	assert_line --index 1 "    trend: A A (stable)"
	record a6 6 accepted --trend --trend-runs 3 --format json
	run jq -r '.cases[0] | "\(.change) \(.trend | map(.run_id) | join(" "))"' <<<"$output"
	assert_output "stable a4 a5 a6"
	record a7 7 accepted --trend --trend-runs 4 --format text
	assert_line --index 1 "    trend: A A A A (stable)"
	# a skip between a failure and an acceptance is not a change of its own
	L="sqlite:$T/other.db"
	record s1 1 failed
	EDIT='.cases[0].labels.task_outcome.value = "skipped"' record s2 2 accepted
	record s3 3 accepted --trend --format text
	assert_line --index 1 "    trend: F S A (recovered)"
}

@test "only comparable runs make a trend: another model, another database or no comparability at all" {
	record c1 1 accepted
	EDIT='.cases[0].attributes.comparability.agent_model = "openai:other"' record c2 2 failed --trend --format text
	assert_line --index 1 "    trend: F (new)"
	EDIT='.cases[0].attributes.comparability.database = "seekdb"' record c3 3 failed --trend --format text
	assert_line --index 1 "    trend: F (new)"
	# evaluations without comparability (PowerContext's own harness) record,
	# comparable only with each other
	EDIT='.cases[0].attributes |= del(.comparability)' record c4 4 accepted --trend --format text
	assert_line --index 1 "    trend: A (new)"
	EDIT='.cases[0].attributes |= del(.comparability)' record c5 5 failed --trend --format text
	assert_line --index 1 "    trend: A F (regression)"
	record c6 6 accepted --trend --format text
	assert_line --index 1 "    trend: A A (stable)"
}

@test "without --trend the report is the one without a ledger; the trend is in the json only with --trend" {
	run_of r1 1 failed >"$T/r1.json"
	for format in text markdown json junit; do
		pc-report --format "$format" <"$T/r1.json" >"$T/plain.$format" || true
		pc-report --format "$format" --ledger "$L" <"$T/r1.json" >"$T/ledger.$format" || true
		cmp "$T/plain.$format" "$T/ledger.$format"
	done
	run jq -c '.cases[0] | has("trend")' "$T/ledger.json"
	assert_output false
}

@test "a ledger written by a newer pc-e2e is refused: the report is printed, nothing is written, exit 1" {
	record r1 1 accepted
	sql "UPDATE pc_e2e_meta SET value = '2' WHERE name = 'schema_version'"
	record r2 2 accepted --trend --format text
	assert_failure 1
	assert_line --index 0 --regexp '^accepted +project-database-decision$'
	assert_output --partial "1 workload: 1 accepted"
	refute_output --partial "trend:"
	assert_equal "$stderr" "pc-report: ledger $L: its schema version is 2; this pc-e2e ($(pc-report --version | cut -d' ' -f2)) writes version 1: it was written by a newer pc-e2e; nothing was written"
	run sql "SELECT run_id FROM pc_e2e_cases"
	assert_output r1
}

@test "a ledger that cannot be created is an error naming it, after the report" {
	# a path under a regular file: unwritable whoever runs the test
	touch "$T/file"
	L="sqlite:$T/file/ledger.db"
	record r1 1 failed --format text --trend
	assert_failure 1
	assert_output --partial "1 workload: 0 accepted, 1 failed"
	refute_output --partial "trend:"
	assert_equal "$stderr" "pc-report: ledger $L: cannot open it: unable to open database file"
}

@test "a file that is no ledger: an error naming it, the report printed" {
	echo "not a database" >"$T/notes.txt"
	L="sqlite:$T/notes.txt"
	record r1 1 accepted --format text
	assert_failure 1
	assert_output --partial "1 workload: 1 accepted"
	assert_equal "$stderr" "pc-report: ledger $L: cannot prepare a statement: file is not a database"
	run cat "$T/notes.txt"
	assert_output "not a database"
}

@test "a case without a run id is refused by the ledger as a whole run: nothing of it recorded" {
	run_of r1 1 accepted >"$T/in.jsonl"
	run_of r2 2 accepted '.cases[0].attributes |= del(.run_id)' >>"$T/in.jsonl"
	run --separate-stderr pc-report --ledger "$L" --format text <"$T/in.jsonl"
	assert_failure 1
	assert_output --partial "2 workloads: 2 accepted"
	assert_equal "$stderr" "pc-report: ledger $L: nothing of this run was recorded: case project-database-decision of e2e:project-database-decision has no attributes.run_id, which the ledger keys a run by"
	run sql "SELECT count(*) FROM pc_e2e_cases"
	assert_output 0
}

@test "two writers on one SQLite file at once: both runs fully recorded" {
	local n
	for w in a b; do
		for n in $(seq 1 300); do
			run_of "$w-$n" "$n" accepted ".cases[0].name = \"wl-$n\""
		done >"$T/$w.jsonl"
	done
	pc-report --ledger "$L" --format json <"$T/a.jsonl" >"$T/a.out" &
	local pid=$!
	pc-report --ledger "$L" --format json <"$T/b.jsonl" >"$T/b.out"
	wait "$pid"
	run sql "SELECT substr(run_id, 1, 1), count(*), count(DISTINCT workload_id) FROM pc_e2e_cases GROUP BY 1"
	assert_output $'a|300|300\nb|300|300'
	run sql "SELECT count(*) FROM pc_e2e_values"
	assert_output "$((600 * $(jq '.cases[0] | [.assertions, .scores, .labels, .metrics | length] | add' "$B")))"
}

@test "--ledger URLs are parsed strictly: a usage error naming the flag, the password masked" {
	run_of r1 1 accepted >"$T/r1.json"
	local url expected
	while IFS='|' read -r url expected; do
		run --separate-stderr pc-report --ledger "$url" <"$T/r1.json"
		assert_failure 64
		assert_equal "$output" ""
		assert_equal "$(head -n1 <<<"$stderr")" "pc-report: --ledger $expected; expected sqlite:PATH or mysql://user[:password]@host[:port]/database"
		[[ $stderr != *hunter2* ]]
	done <<'URLS'
postgres://u:hunter2@db/x|postgres://u:***@db/x: unknown scheme
sqlite:|sqlite:: no path after sqlite:
mysql://u:hunter2@db|mysql://u:***@db: no database after the host
mysql://u:hunter2@db/|mysql://u:***@db/: no database after the host
mysql://db:3306/x|mysql://db:3306/x: no user before the host
mysql://u:hunter2@db:0/x|mysql://u:***@db:0/x: the port must be a number from 1 to 65535
mysql://u:hunter2@db:65536/x|mysql://u:***@db:65536/x: the port must be a number from 1 to 65535
mysql://u:hunter2@db:33o6/x|mysql://u:***@db:33o6/x: the port must be a number from 1 to 65535
mysql://u:hunter2@:3306/x|mysql://u:***@:3306/x: no host
mysql://u:hunter2@db/x?ssl=1|mysql://u:***@db/x?ssl=1: the database name holds '/', '?' or '#' (no options are read from the URL)
mysql://u:hunter2%zz@db/x|mysql://u:***@db/x: the password has a malformed %-escape
URLS
	run --separate-stderr pc-report --trend <"$T/r1.json"
	assert_failure 64
	assert_equal "$(head -n1 <<<"$stderr")" "pc-report: --trend and --trend-runs need --ledger"
	for n in 0 1001 x 2.5 ''; do
		run --separate-stderr pc-report --ledger "$L" --trend-runs "$n" <"$T/r1.json"
		assert_failure 64
		assert_equal "$(head -n1 <<<"$stderr")" "pc-report: --trend-runs must be a whole number from 1 to 1000"
	done
}

@test "a server that cannot be reached: the report is printed, the error masks the password, which no output holds" {
	run_of r1 1 accepted '.cases[0].assertions.memory_grounded.reason = "hunter2 seen"' >"$T/r1.json"
	# port 1 on loopback: nothing listens there
	run --separate-stderr pc-report --format text -v --ledger "mysql://pc:hunter2@127.0.0.1:1/ledger" <"$T/r1.json"
	assert_failure 1
	assert_output --partial "1 workload: 1 accepted"
	assert_output --partial "[REDACTED] seen"
	[[ $output != *hunter2* && $stderr != *hunter2* ]]
	assert_equal "${stderr%%: cannot connect*}" "pc-report: ledger mysql://pc:***@127.0.0.1:1/ledger"
	# the same password from the environment is hidden the same way
	PC_E2E_LEDGER_PASSWORD=hunter2 run --separate-stderr pc-report --format text -v \
		--ledger "mysql://pc@127.0.0.1:1/ledger" <"$T/r1.json"
	assert_failure 1
	assert_output --partial "[REDACTED] seen"
	[[ $output != *hunter2* && $stderr != *hunter2* ]]
}
