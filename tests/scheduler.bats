#!/usr/bin/env bats
# Units that run anywhere (pipelines/units, pipelines/unit-run, pc-run-bub
# --plan and --trial, docs/DESIGN.md §5.14): make paired JOBS=N with a Server,
# a token and a scripted model per unit, records in selection order, resume,
# and the refusals, on the release's real Server with the ACP test peer as
# both arms' agent (a real Bub's arms are CI's make paired).

load test_helper
load exec_helper

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

@test "pc-run-bub --plan names each unit by its directory: a workload, a batch kept whole, one trial of a paired workload; --trial N runs only that trial" {
	run --separate-stderr pc-select --manifests "$REPO/manifests" --root "$REPO"
	save_stdout "$T/all.jsonl"
	run --separate-stderr pc-run-bub --plan <"$T/all.jsonl"
	assert_exit 0
	assert_equal "$(jq -c '[.unit, .selections, .trial]' <<<"$output" | head -n 2)" \
		'["batch-acceptance",[0,1,2],null]'$'\n''["locomo-multihop-football",[3],null]'
	run --separate-stderr pc-select --manifests "$REPO/manifests/paired" --root "$REPO" --id "$ID"
	save_stdout "$T/paired.jsonl"
	run --separate-stderr env BUB_MODEL=openai:x pc-run-bub --paired --trials 3 --trial 2 --plan <"$T/paired.jsonl"
	assert_exit 0
	assert_output '{"unit":"'"$ID"'/trial-2","selections":[0],"trial":2}'
	run --separate-stderr env BUB_MODEL=openai:x pc-run-bub --paired --trials 3 --trial 4 --plan <"$T/paired.jsonl"
	assert_exit 64
	assert_stderr_contains "pc-run-bub: --trial must be a trial number from 1 to 3"
	run --separate-stderr pc-run-bub --trial 1 --plan <"$T/paired.jsonl"
	assert_exit 64
	assert_stderr_contains "pc-run-bub: --trial needs --paired"
}

@test "pc-run-bub --unrun writes each record failed with the reason, asking no Server: a batch's later members skipped, each arm of a paired trial; it refuses --plan beside it" {
	run --separate-stderr pc-select --manifests "$REPO/manifests" --root "$REPO" \
		--id project-database-decision --id failure-policy-timeout --id failure-policy-followup
	save_stdout "$T/batch.jsonl"
	# no Server answers at this address: --unrun must not ask it
	run --separate-stderr env POWERCONTEXT_CLIENT_SERVER_URL=http://127.0.0.1:9 \
		pc-run-bub --unrun "unit batch-acceptance: no done attempt" --output "$T/out" <"$T/batch.jsonl"
	assert_exit 0
	assert_equal "$(jq -c '[.workload.id, .status, .errors]' <<<"$output")" \
		"$(jq -c '[.workload.id]' "$T/batch.jsonl" | jq -c --slurp 'to_entries[] | .value + (if .key == 0 then ["failed", ["unit batch-acceptance: no done attempt"]] else ["skipped", []] end)')"
	run --separate-stderr pc-select --manifests "$REPO/manifests/paired" --root "$REPO" --id "$ID"
	save_stdout "$T/paired.jsonl"
	run --separate-stderr env BUB_MODEL=openai:x POWERCONTEXT_E2E_BUB_OFF=/bin/true \
		pc-run-bub --paired --trials 3 --trial 2 --agent /bin/true --unrun "gone" --output "$T/out" <"$T/paired.jsonl"
	assert_exit 0
	assert_equal "$(jq -c '[.arm.trial, .arm.arm, .status, .errors]' <<<"$output")" \
		'[2,"on","failed",["gone"]]'$'\n''[2,"off","failed",["gone"]]'
	run --separate-stderr pc-run-bub --plan --unrun "gone" <"$T/batch.jsonl"
	assert_exit 64
	assert_stderr_contains "pc-run-bub: --plan and --unrun cannot be used together"
	run --separate-stderr pc-run-bub --unrun "" <"$T/batch.jsonl"
	assert_exit 64
	assert_stderr_contains "pc-run-bub: --unrun needs a reason (why nothing ran)"
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
	# --plan's token line and one per unit: each unit made its own
	local tokens
	tokens=$(grep -v '^$' "$T/tokens" | sort -u)
	assert_equal "$(wc -l <<<"$tokens")" 3
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
	env PC_E2E_AGENT="$PEER_AGENT" TRIALS=2 OUTPUT="$out" PC_E2E_PROGRESS=0 JOBS=2 \
		timeout -k 10 "$EXEC_LIMIT" "$REPO/pipelines/paired" --id "$ID" >"$T/stdout" 2>"$T/stderr" &
	local runner=$! i units
	for ((i = 0; i < 600; i++)); do
		# both units' pc-server started, on its way to pc-run-bub
		[[ $(find "$out/units" -path '*/attempt-1.partial/records.jsonl' 2>/dev/null | wc -l) -eq 2 ]] && break
		sleep 0.1
	done
	units=$(pgrep -f "pipelines/units $out " || true)
	[[ -n $units ]] || fail "no units process for $out: $(cat "$T/stderr")"
	kill -TERM $units
	local status=0
	wait "$runner" || status=$?
	[[ $status -ne 0 ]] || fail "a stopped run exited 0"
	assert_equal "$(jq -c '[.unit, .attempts, .state]' "$out/units/units.jsonl")" \
		'["'"$ID"'/trial-1",1,"cancelled"]'$'\n''["'"$ID"'/trial-2",1,"cancelled"]'
	# the stop reached each unit's processes: no pc-run-bub went on to
	# complete an arm after it
	assert_equal "$(cat "$out"/units/*/attempt-1.partial/records.jsonl 2>/dev/null |
		jq -r 'select(.status == "completed") | .arm.arm')" ""
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
