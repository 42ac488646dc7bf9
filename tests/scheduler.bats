#!/usr/bin/env bats
# Units that run anywhere (pipelines/units, pipelines/unit-run,
# docs/DESIGN.md §5.14): make paired JOBS=N with a Server, a token and a
# scripted model per unit, records in selection order, a unit that fails,
# a stop, resume, and the refusals, on the release's real Server with the
# ACP test peer as both arms' agent (a real Bub's arms are CI's make
# paired). pc-run-bub's own part (--plan, --trial, --unrun) is plan.bats.

load test_helper
load exec_helper
load units_helper

ID=api-version-continuation

setup_file() {
	exec_setup_file
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
	exec_peer echo
}

# paired_run OUTPUT [VAR=VALUE…]: pipelines/paired on $ID, two trials, with
# the peer as the agent; its status and streams as run's.
paired_run() {
	local out=$1
	shift
	run --separate-stderr env PC_E2E_AGENT="$PEER_AGENT" TRIALS=2 OUTPUT="$out" PC_E2E_PROGRESS=0 "$@" \
		timeout -k 10 "$EXEC_LIMIT" "$REPO/pipelines/paired" --id "$ID"
}

# arms OUTPUT: each observation's trial, arm and outcome, in trial order.
arms() {
	jq -r '"\(.trial) \(.arm) \(.outcome)"' "$1/$ID"/trial-*/*/observation.json | sort
}

@test "make paired JOBS=2: one unit per trial, each with its own Server and token, agrees with JOBS=1; no token reaches OUTPUT" {
	# a pc-run-bub that notes the token it was given, outside OUTPUT
	mkdir -p "$T/bin"
	local f
	for f in pc-select pc-normalize pc-evaluate pc-report; do ln -s "$PC_BIN/$f" "$T/bin/$f"; done
	printf '#!/bin/sh\nprintf "%%s\\n" "$POWERCONTEXT_CLIENT_API_TOKEN" >>"%s"\nexec "%s" "$@"\n' \
		"$T/tokens" "$PC_BIN/pc-run-bub" >"$T/bin/pc-run-bub"
	chmod +x "$T/bin/pc-run-bub"
	paired_run "$T/one"
	assert_exit 2
	PC_BIN=$T/bin paired_run "$T/two" JOBS=2
	assert_exit 2
	assert_equal "$(arms "$T/two")" "$(arms "$T/one")"
	assert_equal "$(arms "$T/two" | wc -l)" 4
	assert_equal "$(jq -c '[.unit, .attempts, .state]' "$T/two/units/units.jsonl")" \
		'["'"$ID"'/trial-1",1,"done"]'$'\n''["'"$ID"'/trial-2",1,"done"]'
	# one per unit, each made by the unit (--plan is given none)
	local tokens
	tokens=$(grep -v '^$' "$T/tokens" | sort -u)
	assert_equal "$(wc -l <<<"$tokens")" 2
	local token
	while IFS= read -r token; do
		run grep -rlF -- "$token" "$T/two"
		[[ $status -eq 1 ]] || fail "a token reached OUTPUT: $output"
	done <<<"$tokens"
}

@test "RESUME=1 runs only the units without a done attempt, and the report covers every unit" {
	paired_run "$T/run" JOBS=2
	assert_exit 2
	# trial 2 stopped half-way: its attempt never renamed, its files gone
	mv "$T/run/units/1/attempt-1" "$T/run/units/1/attempt-1.partial"
	rm -rf "$T/run/$ID/trial-2" "$T/run/paired-report.json"
	paired_run "$T/run" RESUME=1
	assert_exit 2
	assert_equal "$(jq -c '[.unit, .attempts, .state]' "$T/run/units/units.jsonl")" \
		'["'"$ID"'/trial-1",1,"done"]'$'\n''["'"$ID"'/trial-2",2,"done"]'
	assert_equal "$(arms "$T/run" | wc -l)" 4
	[[ $(jq '[.. | objects | select(has("trials")) | .trials] | length' "$T/run/paired-report.json") -ge 1 ]] ||
		fail "no paired report: $(ls "$T/run")"
}

@test "SIGTERM to the units stops every running unit: each cancelled, nothing of theirs left running; RESUME=1 then runs both and the report covers them" {
	local out=$T/run
	units_stop_midway "$out" 2 JOBS=2
	assert_equal "$(jq -c '[.unit, .attempts, .state]' "$out/units/units.jsonl")" \
		'["'"$ID"'/trial-1",1,"cancelled"]'$'\n''["'"$ID"'/trial-2",1,"cancelled"]'
	# the stop reached each unit's processes: no pc-run-bub went on to
	# complete an arm after it
	assert_equal "$(units_completed_arms "$out")" ""
	# every unit's pc-run-bub, pc-server and Server ended with the stop
	run pgrep -af -- "$out/units/"
	assert_failure
	local pid
	for pid in $(cat "$out"/units/*/attempt-1.partial/server/server.pid 2>/dev/null); do
		! kill -0 "$pid" 2>/dev/null || fail "a unit's Server ($pid) outlived the stop"
	done
	paired_run "$out" RESUME=1
	assert_exit 2
	assert_equal "$(jq -c '[.unit, .attempts, .state]' "$out/units/units.jsonl")" \
		'["'"$ID"'/trial-1",2,"done"]'$'\n''["'"$ID"'/trial-2",2,"done"]'
	assert_equal "$(arms "$out" | wc -l)" 4
	assert_equal "$(jq -r '[.trials, (.tasks | length)] | @tsv' "$out/paired-report.json")" "2	1"
}

@test "RESUME=1 refuses an OUTPUT without units, or one planned from other options, before anything runs" {
	paired_run "$T/empty" RESUME=1
	assert_exit 1
	assert_stderr_contains "units: RESUME=1, but $T/empty holds no earlier run's units ($T/empty/units/plan.jsonl)"
	paired_run "$T/run" JOBS=2
	assert_exit 2
	run --separate-stderr env PC_E2E_AGENT="$PEER_AGENT" TRIALS=3 OUTPUT="$T/run" RESUME=1 PC_E2E_PROGRESS=0 \
		timeout -k 10 "$EXEC_LIMIT" "$REPO/pipelines/paired" --id "$ID"
	assert_exit 1
	assert_stderr_contains "RESUME=1, but this selection and these options plan other units than $T/run's earlier run"
	run --separate-stderr env TRIALS=2 OUTPUT="$T/x" JOBS=two "$REPO/pipelines/paired" --id "$ID"
	assert_exit 64
	assert_stderr_contains "paired: JOBS must be a positive whole number, got 'two'"
}

@test "a unit that fails its attempt is named with its node and attempts, marked failed in units.jsonl, and its arms are errors in the report, not a hole" {
	mkdir -p "$T/bin"
	local f
	for f in pc-select pc-normalize pc-evaluate pc-report; do ln -s "$PC_BIN/$f" "$T/bin/$f"; done
	# trial 2's run dies before writing its records; its --unrun records are written
	printf '#!/bin/sh\ncase " $* " in *" --unrun "*) ;; *" --trial 2 "*) echo "killed" >&2; exit 137 ;; esac\nexec "%s" "$@"\n' \
		"$PC_BIN/pc-run-bub" >"$T/bin/pc-run-bub"
	chmod +x "$T/bin/pc-run-bub"
	PC_BIN=$T/bin paired_run "$T/run" JOBS=2
	assert_failure
	local why="unit $ID/trial-2: no done attempt after 1 attempt(s), the last on $(hostname -s)"
	assert_stderr_contains "units: $why"
	assert_equal "$(jq -c '[.unit, .attempts, .state]' "$T/run/units/units.jsonl")" \
		'["'"$ID"'/trial-1",1,"done"]'$'\n''["'"$ID"'/trial-2",1,"failed"]'
	assert_equal "$(cat "$T/run/units/1/attempt-1.partial/status")" 137
	# trial 2's arms are in the report, as errors naming the unit
	assert_equal "$(arms "$T/run" | grep '^2 ')" $'2 off error\n2 on error'
	assert_equal "$(jq -r '.errors[0]' "$T/run/$ID/trial-2/on/observation.json")" "$why"
	run jq -c '[.tasks[0].off.errors, .tasks[0].on.errors]' "$T/run/paired-report.json"
	assert_output '[1,1]'
}
