#!/usr/bin/env bats
# The runs' skeleton (pipelines/run.bash): a setting a filter holds a limit
# of is refused as the filter refuses it, before OUTPUT is made or a Server
# starts, in one message naming the setting; a filter that fails is the only
# one to say so; the HTML pass warns when it fails. None of these tests
# starts a Server.

load test_helper

setup() {
	pc_setup
	unset BUB_MODEL MODEL TRIALS JOBS RUNNER HOST SCHEDULER RESUME CATALOG CATALOG_ROOT
	unset POWERCONTEXT_CLIENT_TIMEOUT
	export OUTPUT=$T/out
}

# refused_before_anything STATUS: the run exited STATUS with its refusal as
# the one line before pc-e2e's last, and made no OUTPUT (where pc-server
# exec keeps a Server's state) nor got as far as provisioning.
refused_before_anything() {
	[[ $status -eq $1 ]] || fail "exit $status, not $1: $stderr"
	[[ ${#stderr_lines[@]} -eq 2 ]] || fail "not one message before pc-e2e's line: $stderr"
	[[ ! -e $OUTPUT ]] || fail "OUTPUT was made: $(find "$OUTPUT")"
	[[ $stderr != *"output in"* && $stderr != *pc-server* ]] || fail "a Server was started: $stderr"
}

@test "TRIALS=20000 (paired) and JOBS=300 (acceptance): refused as pc-run-bub refuses them, before OUTPUT or a Server, naming the setting" {
	run --separate-stderr "$REPO/pc-e2e" paired TRIALS=20000
	refused_before_anything 64
	assert_equal "${stderr_lines[0]}" "paired: TRIALS=20000: --trials must be a whole number of trials from 1 to 10000"
	run --separate-stderr "$REPO/pc-e2e" acceptance JOBS=300
	refused_before_anything 64
	assert_equal "${stderr_lines[0]}" "acceptance: JOBS=300: --jobs must be a whole number of workloads from 1 to 256"
	# an explicit selection is checked the same way, with its own policy
	run --separate-stderr "$REPO/pc-e2e" acceptance FAILURE_POLICY=fast --id project-database-decision
	refused_before_anything 64
	assert_equal "${stderr_lines[0]}" "acceptance: FAILURE_POLICY=fast: --failure-policy must be collect-all or fail-fast"
	run --separate-stderr "$REPO/pc-e2e" paired RUNNER=remote
	refused_before_anything 64
	assert_equal "${stderr_lines[0]}" "paired: RUNNER=remote: --runner must be local or harbor"
}

@test "POWERCONTEXT_CLIENT_TIMEOUT=nan or inf: acceptance and paired refuse it before OUTPUT or a Server, naming it" {
	local run value
	# an OUTPUT that cannot be made: a run the refusal missed ends there
	# (exit 1), before it provisions anything or starts a Server
	: >"$T/file"
	OUTPUT=$T/file/out
	for run in acceptance paired; do
		for value in nan inf; do
			POWERCONTEXT_CLIENT_TIMEOUT=$value run --separate-stderr "$REPO/pc-e2e" "$run"
			refused_before_anything 64
			[[ ${stderr_lines[0]} == "$run: "*POWERCONTEXT_CLIENT_TIMEOUT* ]] ||
				fail "$run, $value: ${stderr_lines[0]}"
		done
	done
}

@test "MODEL=scripted: a selection with workloads the scripted model has no script for is refused in one message that says which have one and how to run the rest" {
	run --separate-stderr "$REPO/pc-e2e" acceptance MODEL=scripted \
		--id long-horizon-incident-handover --id terminal-bench-db-wal-recovery
	refused_before_anything 64
	local scripts=$REPO/manifests/model-scripts
	assert_equal "${stderr_lines[0]}" "acceptance: MODEL=scripted: --model-scripts $scripts holds no script for 1 of the 2 model-backed workloads selected ($scripts/terminal-bench-db-wal-recovery.json: cannot open: No such file or directory): terminal-bench-db-wal-recovery; these have one: long-horizon-incident-handover; run the rest on a real model (MODEL= with BUB_MODEL and the provider settings, docs/scripted-model.md), or select the scripted ones (--id ID)"
}

@test "./pc-e2e paired CATALOG=memorycode on the scripted model: refused before a Server in one message naming the dialogues with a script" {
	local mc=${MEMORYCODE:-$REPO/../shared/memorycode}
	[[ -d $mc/dataset ]] || skip "no MemoryCode data copy at $mc (set MEMORYCODE to one)"
	"$REPO/pipelines/memorycode-tasks" "$mc" "$T/root" >/dev/null
	run --separate-stderr "$REPO/pc-e2e" paired CATALOG=memorycode CATALOG_ROOT="$T/root"
	refused_before_anything 64
	[[ ${stderr_lines[0]} == "paired: MODEL=scripted: --model-scripts $REPO/manifests/model-scripts holds no script for 48 of the 50 model-backed workloads selected ($REPO/manifests/model-scripts/memorycode-"*".json: cannot open: No such file or directory): memorycode-"*", ...; these have one: memorycode-1, memorycode-145; run the rest on a real model (MODEL= with BUB_MODEL and the provider settings, docs/scripted-model.md), or select the scripted ones (--id ID)" ]] ||
		fail "${stderr_lines[0]}"
}

@test "the scripted model's refusal names the run that asked for it" {
	OPENAI_BASE_URL=https://api.example.com/v1 run --separate-stderr "$REPO/pc-e2e" paired
	refused_before_anything 64
	assert_equal "${stderr_lines[0]}" "paired: MODEL=scripted talks to no provider, but OPENAI_BASE_URL is https://api.example.com/v1; unset it"
}

# leg CMD…: the stages of a run's leg after pc-select, as the runs chain
# them (run_when_input), printing the leg's status (run_status).
leg() {
	# shellcheck source=pipelines/run.bash
	. "$REPO/pipelines/run.bash"
	"$@" |
		run_when_input pc-run-bub --output "$T/out" |
		run_when_input pc-normalize --output "$T/out" |
		run_when_input pc-evaluate --output "$T/out" |
		run_when_input pc-report --output "$T/out"
	run_status "${PIPESTATUS[@]}"
}

@test "a filter that fails in a leg is the only one to say so, and its status is the leg's" {
	# pc-run-bub refuses a model-backed workload without BUB_MODEL
	run --separate-stderr leg pc-select --id terminal-bench-db-wal-recovery
	assert_equal "$output" 1
	assert_equal "${#stderr_lines[@]}" 1
	[[ $stderr == "pc-run-bub: BUB_MODEL is not set, and these workloads are model-backed: terminal-bench-db-wal-recovery" ]] ||
		fail "$stderr"
	run --separate-stderr leg pc-select --id no-such-workload
	[[ $output -ne 0 && ${#stderr_lines[@]} -eq 1 && $stderr == pc-select:* ]] ||
		fail "status $output: $stderr"
	# a stage that ends without output and without an error is an error
	run --separate-stderr leg true
	assert_equal "$output" 1
	[[ $stderr == *": a filter of the pipe ended without output and without an error" ]] || fail "$stderr"
}

@test "the HTML pass: a page pc-report cannot make is a warning naming it and the file its messages are in, never a half-written page" {
	# shellcheck source=pipelines/run.bash
	. "$REPO/pipelines/run.bash"
	mkdir -p "$T/leg"
	run --separate-stderr run_page "$T/leg" <<<'{"broken'
	assert_success
	[[ $stderr == *"warning: no page $T/leg/report.html (pc-report exit 1: pc-report: "*"; all of it in $T/leg/report.html.stderr)" ]] ||
		fail "$stderr"
	[[ ! -e $T/leg/report.html && ! -e $T/leg/report.html.partial ]] || fail "a page was left: $(ls "$T/leg")"
	grep -q '^pc-report: ' "$T/leg/report.html.stderr" || fail "$(cat "$T/leg/report.html.stderr")"
	# a failed case is a verdict the page shows (pc-report exit 2), not a failure
	run --separate-stderr run_page "$T/leg" <"$FIXTURES/evaluations/skipped-unexpected.jsonl"
	assert_success
	assert_equal "$stderr" ""
	grep -q '<html' "$T/leg/report.html" || fail "no page"
	[[ ! -e $T/leg/report.html.stderr ]] || fail "an empty stderr was kept"
}

@test "./pc-e2e COMMAND --help says what its pipeline's opening comment says, and runs nothing" {
	run --separate-stderr "$REPO/pc-e2e" acceptance --help
	assert_success
	assert_equal "${lines[0]}" "acceptance — run workloads end to end against a real PowerContext Server:"
	assert_equal "$stderr" ""
	[[ ! -e $OUTPUT ]] || fail "OUTPUT was made"
	run --separate-stderr "$REPO/pc-e2e" paired -h
	assert_success
	assert_equal "${lines[-1]}" "(before anything is written)."
}
