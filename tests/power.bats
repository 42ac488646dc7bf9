#!/usr/bin/env bats
# Planning a paired run before it spends anything (docs/DESIGN.md §11.8):
# ./pc-e2e plan and pc-report --plan, the power of the exact two-sided sign
# test over workloads, the workloads it needs for 80 % power, and the net
# gain a paired report's own sample could detect. Nothing here starts a
# Server or an agent.

load test_helper

setup() {
	pc_setup
}

@test "plan at help 0.20 / hurt 0.05: power 0.4775 with 50 workloads (0.48), 92 for 80 %; make plan says the same" {
	run --separate-stderr "$REPO/pc-e2e" plan HELP=0.20 HURT=0.05 FORMAT=json
	assert_exit 0
	run jq -c '[.power, .workloads, .workloads_needed, .workloads_needed_first, .power_at_needed, .detectable_net_gain, .source.kind, .expected]' <<<"$output"
	assert_output '[0.4775,50,92,92,0.8014,0.1986,"rates",null]'
	run --separate-stderr make -s -C "$REPO" plan HELP=0.20 HURT=0.05
	assert_exit 0
	assert_output --partial "Power with 50 workloads: 0.4775 (ON better 0.4775)"
	assert_output --partial "Workloads for 80 % power: 92 (power 0.8014; first reached at 92)"
	assert_output --partial "Expected tokens, cost and wall time: not yet"
}

@test "where power dips after first reaching 80 % (help 0.8 / hurt 0.2: 20, then 21 and 22 below), the plan is the N it stays from: 23" {
	run --separate-stderr "$REPO/pc-e2e" plan HELP=0.8 HURT=0.2 FORMAT=json
	assert_exit 0
	run jq -c '[.workloads_needed, .workloads_needed_first, .power_at_needed]' <<<"$output"
	assert_output '[23,20,0.8402]'
	# the dip itself, at the plan's own figures
	for n in 20 21 22 23; do
		run --separate-stderr "$REPO/pc-e2e" plan HELP=0.8 HURT=0.2 WORKLOADS=$n FORMAT=json
		power[n]=$(jq .power <<<"$output")
	done
	[[ "${power[*]}" == "0.8042 0.7693 0.7326 0.8402" ]] || fail "${power[*]}"
	# equal rates: nothing to detect at any size
	run --separate-stderr "$REPO/pc-e2e" plan HELP=0.1 HURT=0.1 FORMAT=json
	run jq -c '[.workloads_needed, .workloads_needed_first]' <<<"$output"
	assert_output '[null,null]'
}

@test "a bad setting is refused with 64, naming it; rates and a pilot run do not go together" {
	local bad
	for bad in HELP=1.5 HURT=-1 WORKLOADS=0 FORMAT=xml; do
		run --separate-stderr "$REPO/pc-e2e" plan HELP=0.2 HURT=0.05 "$bad"
		assert_exit 64
		[[ ${stderr_lines[0]} == "plan: $bad: --"* ]] || fail "$bad: $stderr"
	done
	run --separate-stderr "$REPO/pc-e2e" plan HELP=0.2
	assert_exit 64
	assert_stderr_contains "plan: HURT=: --hurt-rate must be a rate"
	run --separate-stderr "$REPO/pc-e2e" plan REPLAY="$T" HELP=0.2 HURT=0.1
	assert_exit 64
	run --separate-stderr "$REPO/pc-e2e" plan
	assert_exit 64
	run --separate-stderr "$REPO/pc-e2e" plan REPLAY="$T"
	assert_exit 1
	assert_stderr_contains "no paired-report.json"
}

# workloads N ON OFF NAME: N workloads (NAME1, NAME2…), one trial each, ON's outcome ON and OFF's OFF.
workloads() {
	local i
	for ((i = 1; i <= $1; i++)); do
		paired_arm "$4$i" 1 off 1 "$3"
		paired_arm "$4$i" 1 on 2 "$2"
	done
}

@test "a pilot run's paired-report.json gives the rates; the paired text report says what its own sample could detect" {
	{
		workloads 16 passed failed help
		workloads 4 failed passed hurt
		workloads 30 passed passed tie
	} >"$T/arms.jsonl"
	run --separate-stderr pc-evaluate --paired --output "$T/pilot" <"$T/arms.jsonl"
	assert_exit 0
	save_stdout "$T/paired.json"
	run --separate-stderr pc-report --paired --format text --output "$T/pilot" <"$T/paired.json"
	assert_exit 0
	[[ ${lines[-1]} == "Detectable: 50 workloads, 40 % discordant: 80 % power only for a net gain of 0.25 or more (exact sign test over workloads, 0.05)." ]] || fail "${lines[-1]}"
	run --separate-stderr "$REPO/pc-e2e" plan REPLAY="$T/pilot" FORMAT=json
	assert_exit 0
	run jq -c '[.source, .help, .hurt, .workloads, .power]' <<<"$output"
	assert_output '[{"kind":"pilot","workloads":50,"helped":16,"hurt":4,"tied":30},0.32,0.08,50,0.7402]'
	# report.md stays the release's
	run grep -c "Detectable" "$T/pilot/report.md"
	assert_output 0
}
