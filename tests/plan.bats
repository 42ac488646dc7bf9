#!/usr/bin/env bats
# pc-run-bub's part of units that run anywhere (docs/DESIGN.md §5.14):
# --plan cuts the selections into units, --trial runs one trial of each
# paired workload, --unrun writes the records of a unit no attempt finished;
# none of them starts a Server or an agent. The schedulers that use them are
# scheduler.bats and slurm.bats.

load test_helper

ID=api-version-continuation

setup() {
	pc_setup
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
		pc-run-bub --agent /bin/true --unrun "unit batch-acceptance: no done attempt" --output "$T/out" <"$T/batch.jsonl"
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
	# the unit was lost: infrastructure, worth another attempt (docs/DESIGN.md §2.3)
	assert_equal "$(jq -c '.fault' <<<"$output" | sort -u)" \
		'{"class":"infrastructure","kind":"unit-lost","transient":true,"step":null,"status":null,"retry_after":null,"words":"gone"}'
	run --separate-stderr pc-run-bub --plan --unrun "gone" <"$T/batch.jsonl"
	assert_exit 64
	assert_stderr_contains "pc-run-bub: --plan and --unrun cannot be used together"
	run --separate-stderr pc-run-bub --unrun "" <"$T/batch.jsonl"
	assert_exit 64
	assert_stderr_contains "pc-run-bub: --unrun needs a reason (why nothing ran)"
}

@test "a time setting that is no number of seconds, --jobs or --trials out of range: refused with 64 under --plan, before a unit is printed" {
	run --separate-stderr pc-select --manifests "$REPO/manifests/paired" --root "$REPO" --id "$ID"
	save_stdout "$T/paired.jsonl"
	local t
	# strtod reads each of these; none is a number of seconds (nan, inf and
	# 1e300 once passed the Server client's own check, and 1e300 overflowed it)
	for t in nan inf 0x10 1e300 0 -5; do
		run --separate-stderr env POWERCONTEXT_CLIENT_TIMEOUT="$t" pc-run-bub --plan <"$T/paired.jsonl"
		assert_exit 64
		assert_stdout_empty
		assert_stderr_contains "pc-run-bub: POWERCONTEXT_CLIENT_TIMEOUT must be a positive number of seconds up to 1000000000, not \"$t\""
		run --separate-stderr pc-run-bub --agent-timeout "$t" --plan <"$T/paired.jsonl"
		assert_exit 64
		assert_stdout_empty
		assert_stderr_contains "pc-run-bub: --agent-timeout must be a positive number of seconds up to 1000000000, not \"$t\""
	done
	run --separate-stderr env POWERCONTEXT_CLIENT_TIMEOUT=2.5 BUB_MODEL=openai:x \
		pc-run-bub --paired --agent-timeout 1000000000 --plan <"$T/paired.jsonl"
	assert_exit 0
	# the limits pipelines/ ask pc-run-bub about before anything starts
	run --separate-stderr pc-run-bub --plan --jobs 300 <"$T/paired.jsonl"
	assert_exit 64
	assert_stderr_contains "pc-run-bub: --jobs must be a whole number of workloads from 1 to 256"
	run --separate-stderr pc-run-bub --paired --trials 20000 --plan <"$T/paired.jsonl"
	assert_exit 64
	assert_stderr_contains "pc-run-bub: --trials must be a whole number of trials from 1 to 10000"
}
