#!/usr/bin/env bats
# pc-report's ledger and trends (docs/ledger.md), in a real SQLite file and
# on a real MariaDB server (Debian's mariadb-server, started on loopback for
# this file by tests/mariadb_helper.bash; its tests skip only when mariadbd
# is not installed).
#
# Evaluations come from pc-evaluate on the accepted fixture; each run below
# is that evaluation with its run id, its time and, for a failed run, one
# assertion changed, as a later run of the same workload would be.

load test_helper
load mariadb_helper

# The MariaDB user's password, percent-encoded in the URL (the portable
# form) or raw (the user part ends at the URL's last '@').
PASSWORD='s3cr:t@pw/Le?d#ger'
PASSWORD_IN_URL='s3cr%3At%40pw%2FLe%3Fd%23ger'

setup_file() {
	local dir="$BATS_FILE_TMPDIR"
	"$PC_BIN/pc-evaluate" <"$ACCEPTED" >"$dir/base.json"
	schema_ok e2e-evaluation "$dir/base.json"
	mariadb_start "$dir/mariadb"
	if [[ -z "$MARIADB_SKIP$MARIADB_FAILED" ]]; then
		mariadb_sql "CREATE USER 'pc'@'%' IDENTIFIED BY '$PASSWORD'; GRANT ALL ON \`t%\`.* TO 'pc'@'%'"
	fi
}

teardown_file() {
	mariadb_stop
}

# maria: a database of this test on the server, $L a URL to it.
maria() {
	need_mariadb
	DB="t$BATS_TEST_NUMBER"
	mariadb_sql "CREATE DATABASE $DB"
	L="mysql://pc:$PASSWORD_IN_URL@127.0.0.1:$MARIADB_PORT/$DB"
	SHOWN="mysql://pc:***@127.0.0.1:$MARIADB_PORT/$DB"
}

msql() {
	mariadb_sql "USE $DB; $1"
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

# many PREFIX N: N accepted runs PREFIX-1…PREFIX-N of workloads wl-1…wl-N,
# one jq for all.
many() {
	jq -c --arg p "$1" --argjson n "$2" 'range(1; $n + 1) as $i | .experiment = "e2e:wl-\($i)"
		| .cases[0].name = "wl-\($i)" | .cases[0].attributes.run_id = "\($p)-\($i)"' "$B"
}

# record ID TIME VERDICT [PC-REPORT ARGS...]: report one run into $L
# ($EDIT: a further jq filter of the evaluation).
record() {
	local id=$1 time=$2 verdict=$3
	shift 3
	run_of "$id" "$time" "$verdict" "${EDIT:-.}" >"$T/$id.json"
	# the suite's ledger unless the test names its own: --ledger holds one value
	local ledger=(--ledger "$L")
	[[ " $* " != *" --ledger "* ]] || ledger=()
	run --separate-stderr pc-report "${ledger[@]}" "$@" <"$T/$id.json"
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

@test "only comparable runs make a trend: another model, another database or no comparability at all; another PowerContext is comparable" {
	record c1 1 accepted
	# another PowerContext is what a trend is for: the same key
	EDIT='.cases[0].attributes.commit = "v2"' record c0 2 failed --trend --format text
	assert_line --index 1 "    trend: A F (regression)"
	run sql "SELECT run_id, powercontext_commit FROM pc_e2e_cases ORDER BY id"
	assert_output $'c1|0123456789abcdef0123456789abcdef01234567\nc0|v2'
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
	assert_line --index 1 "    trend: A F A (flaky)"
}

@test "an experiment is a series: a rescore under another prefix is no second point of the same run" {
	record e1 1 accepted
	record e2 2 failed
	EDIT='.experiment = "offline:project-database-decision"' record e2 2 failed --trend --format text
	assert_line --index 1 "    trend: F (new)"
	record e3 3 failed --trend --format text
	assert_line --index 1 "    trend: A F F (regression)"
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

@test "a verdict altered in a shared ledger reads as unknown: no markup of it in the page, sane text, markdown and json" {
	record r1 1 accepted
	assert_success
	sql "UPDATE pc_e2e_cases SET verdict = '\"><script>alert(1)</script>' WHERE run_id = 'r1'"
	record r2 2 accepted --format html
	assert_success
	save_stdout "$T/page.html"
	run grep -c -e '<script' -e 'alert(1)' "$T/page.html"
	assert_output 0
	grep -F '<g class="pt unknown"><title>1. r1: unknown,' "$T/page.html"
	grep -F '<li><code>r1</code>: unknown, 2030-01-01T00:00:00Z</li>' "$T/page.html"
	record r2 2 accepted --format text --trend
	assert_line --index 1 "    trend: U A (recovered)"
	record r2 2 accepted --format markdown --trend
	assert_line '| `project-database-decision` | accepted | passed | sqlite | `r2` | U A (recovered) |'
	record r2 2 accepted --format json --trend
	run jq -c '.cases[0].trend | map(.verdict)' <<<"$output"
	assert_output '["unknown","accepted"]'
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
	many a 300 >"$T/a.jsonl"
	many b 300 >"$T/b.jsonl"
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
mysql://db:3306/x|mysql://***: no user before the host
mysql://u:hunter2/x|mysql://***: no user before the host
hunter2|***: unknown scheme
mysql:u:hunter2@db/x|mysql:***: unknown scheme
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
		assert_equal "$(head -n1 <<<"$stderr")" "pc-report: --trend-runs must be a whole number of runs from 1 to 1000"
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

@test "a password holding '/', '?', '#', '@' or ':' raw: the URL parses by its last '@', no output holds the password" {
	run_of r1 1 accepted >"$T/r1.json"
	local pw
	for pw in hu/nter2 hu?nter2 hu#nter2 hu@nter2 hu:nter2 'h/u?n#t@e:r2'; do
		# parsed, so the error is the connection's (nothing listens on port 1)
		run --separate-stderr pc-report --format text -v --ledger "mysql://pc:$pw@127.0.0.1:1/ledger" <"$T/r1.json"
		assert_failure 1
		assert_equal "${stderr%%: cannot connect*}" "pc-report: ledger mysql://pc:***@127.0.0.1:1/ledger"
		[[ $output != *nter2* && $output != *e:r2* && $stderr != *nter2* && $stderr != *e:r2* ]] ||
			fail "$pw shown: $output $stderr"
		# and on a URL refused before any connection
		run --separate-stderr pc-report --ledger "mysql://pc:$pw@127.0.0.1:1/" </dev/null
		assert_failure 64
		assert_equal "$(head -n1 <<<"$stderr")" "pc-report: --ledger mysql://pc:***@127.0.0.1:1/: no database after the host; expected sqlite:PATH or mysql://user[:password]@host[:port]/database"
	done
}

# limits QUERY SHOWN: on the ledger $L (QUERY runs SQL on it, SHOWN is how
# messages name it), a key over 255 bytes is refused the same way by either
# backend, with nothing of its run recorded; a comparability key's fields
# over MariaDB's TEXT (65,535 bytes) are stored whole, under their digest.
limits() {
	local query=$1 shown=$2 long edit case
	long=$(printf 'x%.0s' {1..256})
	record r1 1 accepted
	assert_success
	while IFS='|' read -r edit case; do
		EDIT="$edit" record r2 2 accepted --format text
		assert_failure 1
		assert_output --partial "1 workload: 1 accepted"
		assert_equal "$stderr" "pc-report: ledger $shown: nothing of this run was recorded: case project-database-decision of $case is 256 bytes long, over the 255 the ledger keeps"
		run "$query" "SELECT run_id FROM pc_e2e_cases"
		assert_output r1
	done <<EDITS
.cases[0].attributes.run_id = "$long"|e2e:project-database-decision: its attributes.run_id
.experiment = "$long"|$long: its experiment
.cases[0].attributes.commit = "$long"|e2e:project-database-decision: its attributes.commit
.cases[0].scores["$long"] = {value: 0.5, reason: null}|e2e:project-database-decision: the name of one of its values
EDITS
	EDIT='.cases[0].attributes.comparability.pad = ("y" * 70000)' record r3 3 accepted
	assert_success
	run "$query" "SELECT length(fields), key_digest FROM pc_e2e_keys WHERE fields LIKE '%yyy%'"
	local fields
	fields=$(run_of r3 3 accepted '.cases[0].attributes.comparability.pad = ("y" * 70000)' |
		jq -cS '.cases[0].attributes.comparability' | tr -d '\n')
	assert_output --regexp "^${#fields}[|	]$(printf %s "$fields" | sha256sum | cut -d' ' -f1)\$"
}

@test "SQLite: a key over 255 bytes is refused, naming the case and the field; long comparability fields are stored whole" {
	limits sql "$L"
}

# ---- on a MariaDB server ----

@test "two runs in a MariaDB ledger: the second's trend shows the regression" {
	maria
	record r1 1 accepted --format text --trend
	assert_success
	assert_line --index 1 "    trend: A (new)"
	record r2 2 failed --format json --trend
	assert_failure 2
	assert_equal "$stderr" ""
	save_stdout "$T/r2.out"
	run jq -c '.cases[0] | [.change, (.trend | map([.run_id, .finished_at, .verdict]))]' "$T/r2.out"
	assert_output '["regression",[["r1","2030-01-01T00:00:00Z","accepted"],["r2","2030-01-02T00:00:00Z","failed"]]]'
	run jq -c '.cases[0].trend | map(.scores)' "$T/r2.out"
	assert_output "$(jq -c '.cases[0].scores | map_values(.value) | [., .]' "$B")"
	run msql "SELECT run_id, verdict FROM pc_e2e_cases ORDER BY id"
	assert_output $'r1\taccepted\nr2\tfailed'
	run msql "SELECT value FROM pc_e2e_meta"
	assert_output 1
	# the password may come from the environment instead of the URL
	PC_E2E_LEDGER_PASSWORD=$PASSWORD record r3 3 accepted --format text --trend \
		--ledger "mysql://pc@127.0.0.1:$MARIADB_PORT/$DB"
	assert_success
	assert_line --index 1 "    trend: A F A (flaky)"
	# and raw in the URL: its user part ends at the last '@'
	record r4 4 accepted --format text --trend --ledger "mysql://pc:$PASSWORD@127.0.0.1:$MARIADB_PORT/$DB"
	assert_success
	assert_line --index 1 "    trend: A F A A (flaky)"
}

@test "two writers on one MariaDB ledger at once: both runs fully recorded" {
	maria
	many a 300 >"$T/a.jsonl"
	many b 300 >"$T/b.jsonl"
	pc-report --ledger "$L" --format json <"$T/a.jsonl" >"$T/a.out" 2>"$T/a.err" &
	local pid=$!
	run pc-report --ledger "$L" --format json <"$T/b.jsonl"
	assert_success
	wait "$pid"
	run cat "$T/a.err"
	assert_output ""
	run msql "SELECT left(run_id, 1), count(*), count(DISTINCT workload_id) FROM pc_e2e_cases GROUP BY 1"
	assert_output $'a\t300\t300\nb\t300\t300'
	run msql "SELECT count(*) FROM pc_e2e_values"
	assert_output "$((600 * $(jq '.cases[0] | [.assertions, .scores, .labels, .metrics | length] | add' "$B")))"
}

@test "a MariaDB connection lost mid-write: an error, the report printed, nothing of the run recorded" {
	maria
	record r0 1 accepted
	assert_success
	many k 2000 >"$T/in.jsonl"
	# the link to the server drops once pc-report has sent 200 kB: well
	# inside its one transaction (2,000 cases are several MB of statements)
	python3 "$REPO/tests/peers/cutting_proxy.py" "$T/port" "$MARIADB_PORT" 200000 3>&- &
	local proxy=$!
	for _ in $(seq 100); do [[ -s $T/port ]] && break; sleep 0.1; done
	local cut="mysql://pc:$PASSWORD_IN_URL@127.0.0.1:$(cat "$T/port")/$DB"
	run --separate-stderr timeout -k 5 120 pc-report --ledger "$cut" --format text <"$T/in.jsonl"
	kill "$proxy"
	wait "$proxy" || true
	assert_failure 1
	# the 2,000 workloads, the assertions' totals (no bars for so many), the counts
	assert_line --index 2000 "assertions: 22000 of 22000 passing"
	assert_line --index 2001 "2000 workloads: 2000 accepted, 0 failed, 0 inconclusive"
	[[ $stderr =~ ^pc-report:\ ledger\ mysql://pc:\*\*\*@127\.0\.0\.1:[0-9]+/$DB:\ nothing\ of\ this\ run\ was\ recorded:\ .*(Lost connection|server has gone away) ]] ||
		fail "unexpected error: $stderr"
	[[ $stderr$output != *"$PASSWORD"* && $stderr$output != *"$PASSWORD_IN_URL"* ]] || fail "the password reached an output"
	run msql "SELECT run_id FROM pc_e2e_cases"
	assert_output r0
	run msql "SELECT count(*) FROM pc_e2e_values"
	assert_output "$(jq '.cases[0] | [.assertions, .scores, .labels, .metrics | length] | add' "$B")"
}

@test "a wrong MariaDB password: an error naming the ledger, the password masked and in no output or file" {
	maria
	L="mysql://pc:Wrong-pw-4711@127.0.0.1:$MARIADB_PORT/$DB"
	record r1 1 accepted --format json --trend
	assert_failure 1
	assert_equal "$(jq -r .accepted <<<"$output")" 1
	assert_equal "$stderr" "pc-report: ledger mysql://pc:***@127.0.0.1:$MARIADB_PORT/$DB: cannot connect: Access denied for user 'pc'@'127.0.0.1' (using password: YES) (error 1045)"
	run grep -rl "Wrong-pw-4711" "$T" "$MARIADB_DIR/data" "$MARIADB_DIR/error.log"
	assert_failure 1
	run msql "SHOW TABLES"
	assert_output ""
}

@test "a MariaDB ledger written by a newer pc-e2e is refused: the report printed, nothing written" {
	maria
	record r1 1 accepted
	assert_success
	msql "UPDATE pc_e2e_meta SET value = '7'"
	record r2 2 failed --format text --trend
	assert_failure 1
	assert_output --partial "1 workload: 0 accepted, 1 failed"
	assert_equal "$stderr" "pc-report: ledger $SHOWN: its schema version is 7; this pc-e2e ($(pc-report --version | cut -d' ' -f2)) writes version 1: it was written by a newer pc-e2e; nothing was written"
	run msql "SELECT run_id FROM pc_e2e_cases"
	assert_output r1
}

@test "MariaDB: a key over 255 bytes is refused as SQLite refuses it; comparability fields over 64 KiB are stored whole" {
	maria
	limits msql "$SHOWN"
}
