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
	# rates alone say nothing of spend: that needs a pilot
	assert_output --partial "Expected with 50 workloads (50 units): unknown: a pilot run's paired-run.json (REPLAY=DIR) gives them"
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

@test "a pilot run's paired-run.json gives the tokens, cost and wall time expected per unit, scaled to the units planned and to the nodes" {
	# two workloads, one trial: each arm ran 60 s, so a unit took 120 s
	{
		workloads 1 passed failed help
		workloads 1 failed failed tie
		paired_account help1 1 off 0.002
		paired_account help1 1 on 0.004
		paired_account tie1 1 off 0.002
		paired_account tie1 1 on 0.004
	} >"$T/arms.jsonl"
	run --separate-stderr pc-evaluate --paired --output "$T/pilot" <"$T/arms.jsonl"
	assert_exit 0
	run jq -c .units "$T/pilot/paired-run.json"
	assert_output '{"count":2,"seconds":240,"longest_seconds":120}'
	run --separate-stderr env REPLAY="$T/pilot" WORKLOADS=10 NODES=2 FORMAT=json "$REPO/pc-e2e" plan
	assert_exit 0
	# a unit: agent 2 x 1000 input (2 x 200 cached), 2 x 100 output; extraction 900 and 30 (ON's);
	# $0.002 + $0.004 + $0.01 = $0.016; ten units on two nodes: 10 x 120 s / 2
	run jq -c '.expected' <<<"$output"
	assert_output '{"units":10,"tokens":{"agent":{"input":20000,"cached":4000,"output":2000},"extraction":{"input":9000,"output":300}},"usd":0.16,"unit_seconds":120,"wall_seconds":600}'
	run --separate-stderr env REPLAY="$T/pilot" WORKLOADS=10 NODES=20 "$REPO/pc-e2e" plan
	assert_exit 0
	# twenty nodes for ten units: the wall time is one unit's, not half of one
	assert_output --partial "Expected with 10 workloads (10 units): agent 20000 input tokens (4000 cached), 2000 output; extraction 9000 input, 300 output; \$0.1600; wall 2 min on 20 node(s), 2 min a unit (the arms' own time)"
	# without the pilot's own account (a run from before pc-e2e kept one), the rates alone
	rm "$T/pilot/paired-run.json"
	run --separate-stderr env REPLAY="$T/pilot" FORMAT=json "$REPO/pc-e2e" plan
	assert_exit 0
	run jq -c '[.source.kind, .expected, .expected_at_needed]' <<<"$output"
	assert_output '["pilot",null,null]'
}
