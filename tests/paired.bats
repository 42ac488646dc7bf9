#!/usr/bin/env bats
# The paired OFF/ON comparison's report from its arm observations
# (pc-evaluate --paired, pc-report --paired, make paired-report,
# docs/DESIGN.md §11): the figures and report.md of PowerContext 1.4.1's own
# summarize and render_paired_report, and pc-e2e's sign test beside them.

load test_helper

setup() {
	pc_setup
}

@test "on 150 random sets of arm observations, the figures of 1.4.1's own summarize to the last bit, and its report.md byte for byte" {
	# errors, timeouts, integration failures, cross-Scope runs, missing arms,
	# steps without figures, float seconds, null tokens, a single trial
	# fewer under the sanitizers, whose filters start slower; the same seed
	local sets=150
	[[ -z ${PC_SANITIZED:-} ]] || sets=40
	run --separate-stderr "$REPO/tests/reference/paired-check" "$sets"
	assert_exit 0
	[[ $(grep -c '^ok paired-check' <<<"$output") == "$sets" ]] || fail "$(grep -v '^ok' <<<"$output" | head -5)"
}

@test "make paired-report on a run's directory: the arms in run order, both files written, the text report with the sign test" {
	paired_trials 6 passed failed
	# the make target runs this with its own filters; without REPLAY it says how to call it
	run --separate-stderr make -s -C "$REPO" paired-report
	assert_stderr_contains "usage: make paired-report REPLAY="
	run --separate-stderr env OUTPUT="$T/out" pipelines/paired-report "$T/run"
	assert_exit 0
	schema_ok e2e-paired-report "$T/out/paired-report.json"
	run jq -c '[.experiment, .trials, .total.pairs, .total.mean_delta, .total.delta_interval, .total.on.success_rate, .total.off.success_rate]' "$T/out/paired-report.json"
	assert_output '["e2e:paired:bub:w",6,6,1,{"low":1,"high":1},1,0]'
	[[ -f $T/out/report.md ]] || fail "no report.md: $(ls "$T/out")"
	run grep -c '^- Scored pairs: 6; ON minus OFF: +1.00 \[+1.00, +1.00\]; ON better in 6' "$T/out/report.md"
	assert_output 2
	run --separate-stderr pipelines/paired-report "$T/run"
	assert_output --partial "w: 6 pairs, 6 discordant (ON better); ON better at 0.05 (exact sign test p = 0.03125)"
	# six trials of one workload are one workload: the test over workloads has too few
	assert_output --partial "All workloads: 6 pairs, 6 discordant (ON better); by workload: 1 workload, 1 discordant (ON better); too few to show anything: the exact sign test needs at least 6 discordant workloads one way at 0.05"
	TRIALS=8 run --separate-stderr pipelines/paired-report "$T/run"
	assert_output --partial "Preliminary: 8 trial(s) per arm."
}

@test "the sign test reads discordant pairs alone: too few, or either way" {
	paired_trials 1 passed failed
	run --separate-stderr pipelines/paired-report "$T/run"
	assert_output --partial "w: 1 pair, 1 discordant (ON better); too few to show anything: the exact sign test needs at least 6 discordant pairs one way at 0.05"
	rm -rf "$T/run"
	paired_trials 6 failed passed
	run --separate-stderr pipelines/paired-report "$T/run"
	assert_output --partial "w: 6 pairs, 6 discordant (OFF better); OFF better at 0.05 (exact sign test p = 0.03125)"
	assert_exit 0
}

# arms_of W ON OFF TRIAL...: workload W's two arms, ON's outcome ON and
# OFF's OFF, for each TRIAL, OFF first.
arms_of() {
	local w=$1 on=$2 off=$3 n
	shift 3
	for n in "$@"; do
		paired_arm "$w" "$n" off 1 "$off"
		paired_arm "$w" "$n" on 2 "$on"
	done
}

@test "across workloads the sign test counts workloads: six one way read a verdict, three of two trials each do not" {
	local w
	for w in a b c d e f; do arms_of "$w" failed passed 1; done >"$T/six.jsonl"
	run --separate-stderr pc-evaluate --paired <"$T/six.jsonl"
	save_stdout "$T/six.json"
	run --separate-stderr pc-report --paired --format text <"$T/six.json"
	assert_exit 0
	[[ ${lines[-2]} == "All workloads: 6 pairs, 6 discordant (OFF better); by workload: 6 workloads, 6 discordant (OFF better); OFF better at 0.05 (exact sign test p = 0.03125)" ]] || fail "${lines[-2]}"
	for w in a b c; do arms_of "$w" passed failed 1 2; done >"$T/three.jsonl"
	run --separate-stderr pc-evaluate --paired --trials 2 <"$T/three.jsonl"
	save_stdout "$T/three.json"
	run --separate-stderr pc-report --paired --format text <"$T/three.json"
	[[ ${lines[-2]} == "All workloads: 6 pairs, 6 discordant (ON better); by workload: 3 workloads, 3 discordant (ON better); too few to show anything: the exact sign test needs at least 6 discordant workloads one way at 0.05" ]] || fail "${lines[-2]}"
}

@test "the text report ends with what the pairs show in words, per workload and in total: too few under six discordant pairs one way, no evidence when mixed, the way and p when shown; report.md has none of it" {
	{
		arms_of five passed failed 1 2 3 4 5 # five one way: too few, whatever the tail says
		arms_of tied passed passed 1 2 3     # scored pairs, none discordant
		arms_of none error failed 1          # no pair scored at all
		arms_of mixed passed failed 1 2 3 4 5 6
		arms_of mixed failed passed 7        # six one way and one the other: p = 0.125
	} >"$T/arms.jsonl"
	run --separate-stderr pc-evaluate --paired --output "$T/out" <"$T/arms.jsonl"
	assert_exit 2 # the errored ON arm
	save_stdout "$T/paired.json"
	run --separate-stderr pc-report --paired --format text --output "$T/out" <"$T/paired.json"
	assert_exit 2
	local need="the exact sign test needs at least 6 discordant pairs one way at 0.05"
	[[ ${lines[-7]} == "## What the pairs show (pc-e2e)" ]] || fail "$(printf '%s\n' "${lines[@]: -7}")"
	[[ ${lines[-6]} == "five: 5 pairs, 5 discordant (ON better); too few to show anything: $need" ]] || fail "${lines[-6]}"
	[[ ${lines[-5]} == "tied: 3 pairs, none discordant; too few to show anything: $need" ]] || fail "${lines[-5]}"
	[[ ${lines[-4]} == "none: no scored pair; too few to show anything: $need" ]] || fail "${lines[-4]}"
	[[ ${lines[-3]} == "mixed: 7 pairs, 7 discordant (ON better in 6, OFF better in 1); no evidence either way at 0.05 (p = 0.125): $need, and more when some go the other way" ]] || fail "${lines[-3]}"
	# eleven pairs to one would read "ON better" (p = 0.006348); the workloads, two to none, cannot
	[[ ${lines[-2]} == "All workloads: 15 pairs, 12 discordant (ON better in 11, OFF better in 1); by workload: 3 workloads, 2 discordant (ON better); too few to show anything: the exact sign test needs at least 6 discordant workloads one way at 0.05" ]] || fail "${lines[-2]}"
	# three workloads with a scored pair, two of them discordant: too few for any net gain
	[[ ${lines[-1]} == "Detectable: 3 workloads, 67 % discordant: none: even with every discordant workload one way, power is 0.00 (exact sign test over workloads, 0.05)." ]] || fail "${lines[-1]}"
	# report.md is the release's: pc-e2e's reading is not in it
	run grep -c -e "What the pairs show" -e "sign test" -e "Detectable" "$T/out/report.md"
	assert_output 0
}

@test "an arm that errored, or an ON arm that failed integration or reached another Scope, exits 2; a failed one is a result" {
	for outcome in error integration_failed cross_scope_access; do
		{ paired_arm w 1 off 1 failed; paired_arm w 1 on 2 "$outcome"; } >"$T/arms.jsonl"
		run --separate-stderr pc-evaluate --paired <"$T/arms.jsonl"
		assert_exit 2
		run --separate-stderr pc-report --paired <<<"$output"
		assert_exit 2
	done
	{ paired_arm w 1 off 1 error; paired_arm w 1 on 2 passed; } >"$T/arms.jsonl"
	run --separate-stderr pc-evaluate --paired <"$T/arms.jsonl"
	assert_exit 2
	{ paired_arm w 1 off 1 failed; paired_arm w 1 on 2 timeout; } >"$T/arms.jsonl"
	run --separate-stderr pc-evaluate --paired <"$T/arms.jsonl"
	assert_exit 0
}

@test "a file that is no arm observation is refused naming the file, the line and the field; nothing is written" {
	paired_trials 2 passed failed
	jq '.extra = 1' "$T/run/w/trial-2/on/observation.json" >"$T/bad.json"
	mv "$T/bad.json" "$T/run/w/trial-2/on/observation.json"
	run --separate-stderr env OUTPUT="$T/out" pipelines/paired-report "$T/run"
	assert_exit 1
	assert_stderr_contains "paired-report: $T/run/w/trial-2/on/observation.json:" "extra"
	[[ ! -e $T/out/paired-report.json && ! -e $T/out/report.md ]] || fail "a report was written: $(ls "$T/out")"
	# a file that is not even JSON is named too, not left out of the run's order
	echo '{not json' >"$T/run/w/trial-2/on/observation.json"
	run --separate-stderr pipelines/paired-report "$T/run"
	assert_exit 1
	assert_stderr_contains "paired-report: $T/run/w/trial-2/on/observation.json:" "malformed JSON"
	paired_arm w 1 off 1 winning >"$T/arms.jsonl"
	run --separate-stderr pc-evaluate --paired <"$T/arms.jsonl"
	assert_exit 1
	assert_stderr_contains "stdin:1: outcome: must be one of"
	run --separate-stderr pc-evaluate --paired </dev/null
	assert_exit 1
	assert_stderr_contains "no paired arm observations on stdin"
}

@test "--trials takes a whole number of trials and needs --paired; pc-report --paired takes text, markdown or html" {
	# one range and one message for --trials in both filters that read it
	for bad in 0 -1 x 10001 ' 7' 0x10; do
		run --separate-stderr pc-evaluate --paired --trials "$bad" </dev/null
		assert_exit 64
		assert_stderr_contains "pc-evaluate: --trials must be a whole number of trials from 1 to 10000"
		run --separate-stderr pc-run-bub --paired --trials "$bad" </dev/null
		assert_exit 64
		assert_stderr_contains "pc-run-bub: --trials must be a whole number of trials from 1 to 10000"
	done
	# 10000 passes --trials: the refusal is --jobs's
	run --separate-stderr pc-run-bub --paired --trials 10000 --jobs 2 </dev/null
	assert_exit 64
	assert_stderr_contains "--paired runs one arm at a time"
	refute_stderr_contains "must be a whole number"
	run --separate-stderr pc-evaluate --trials 2 </dev/null
	assert_exit 64
	assert_stderr_contains "--trials needs --paired"
	run --separate-stderr pc-report --paired --format junit </dev/null
	assert_exit 64
	assert_stderr_contains "--paired takes --format text, markdown or html"
}
