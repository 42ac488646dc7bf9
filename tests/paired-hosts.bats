#!/usr/bin/env bats
# make paired HOST=codex|claude-code on the scripted model (docs/paired.md,
# docs/DESIGN.md §11.5): pipelines/paired runs each host's own CLI in both
# arms on the local runner, against a Server of the release under test, and
# the scripted model plays each workload's host-neutral script in the
# host's own API. Every ON arm passes and every OFF arm fails by the task's
# grader; the report names the host and its pin, as 1.4.1's own summarize
# and render make it (tests/reference/paired-check --run); the ON arms'
# token figures are the host's own. Then a provider that fails every
# request (tests/fixtures/paired-fault): each arm is an error, on Bub,
# Codex and Claude Code, left out of the success rates as 1.4.1 leaves it.

load test_helper

setup() {
	[[ -z ${PC_SANITIZED:-} ]] || skip "real hosts through pipelines/paired: the C they reach is covered by hosts-local.bats"
	pc_setup
	OUT=$T/out
}

# paired HOST [VAR=VALUE…] -- [pc-select argument…]: pipelines/paired on
# the scripted model, one trial, into $OUT.
paired() {
	local host=$1 settings=()
	shift
	while [[ $1 != -- ]]; do
		settings+=("$1")
		shift
	done
	shift
	run --separate-stderr env OUTPUT="$OUT" MODEL=scripted TRIALS=1 HOST="$host" PC_E2E_PROGRESS=0 \
		"${settings[@]}" "$REPO/pipelines/paired" "$@"
}

# outcomes: "<task> <arm> <outcome>" of each observation, sorted.
outcomes() {
	jq -r '"\(.task_id) \(.arm) \(.outcome)"' "$OUT"/*/trial-1/*/observation.json | sort
}

# assert_host HOST VERSION: every ON arm passed and every OFF arm failed,
# the report names HOST at VERSION (and so does 1.4.1's render of the
# same observations), the ON arms' steps all have non-zero token figures.
assert_host() {
	assert_exit 0
	local want
	want=$(ls "$REPO/manifests/paired" | sed 's/\.yaml$//' |
		while read -r id; do printf '%s off failed\n%s on passed\n' "$id" "$id"; done | sort)
	assert_equal "$(outcomes)" "$want"
	jq -e --arg h "$1" --arg v "$2" '.environment | .adapter == $h and .adapter_version == $v
		and .adapter_protocol_version == $v and .agent_settings == {reasoning_effort: "medium"}' \
		"$OUT"/*/trial-1/*/observation.json >/dev/null ||
		fail "$(jq -c .environment "$OUT"/*/trial-1/on/observation.json)"
	grep -qF "Host \`$1\` $2, model \`pc-e2e-scripted/" "$OUT/report.md" ||
		fail "$(grep Host "$OUT/report.md")"
	grep -qF "Host <code>$1</code> $2," "$OUT/report.html" || fail "report.html names no $1 $2"
	[[ $(jq -s '[.[].steps[] | .input_tokens > 0 and .output_tokens > 0 and .cache_tokens > 0]
		| length > 0 and all' "$OUT"/*/trial-1/on/observation.json) == true ]] ||
		fail "$(jq -c .steps "$OUT"/*/trial-1/on/observation.json)"
	run "$REPO/tests/reference/paired-check" --run "$OUT"
	assert_success
}

@test "make paired HOST=codex: every ON arm passes, every OFF arm fails; the report names codex at its pin as 1.4.1 renders it; ON's token figures are Codex's" {
	paired codex --
	assert_host codex "$(jq -r '.hosts[] | select(.host == "codex") | .version' "$("$REPO/pipelines/pc-powercontext" hosts)")"
	# Codex's cost is LiteLLM's price under Harbor, which the local runner has not
	[[ $(jq -s '[.[].steps[].cost_usd] | unique' "$OUT"/*/trial-1/on/observation.json) == '[
  null
]' ]] || fail "$(jq -c .steps "$OUT"/*/trial-1/on/observation.json)"
}

@test "make paired HOST=claude-code: every ON arm passes, every OFF arm fails; the report names claude-code at its pin as 1.4.1 renders it; ON's figures are Claude Code's, cost included" {
	paired claude-code --
	assert_host claude-code "$(jq -r '.hosts[] | select(.host == "claude-code") | .version' "$("$REPO/pipelines/pc-powercontext" hosts)")"
	[[ $(jq -s '[.[].steps[].cost_usd > 0] | all' "$OUT"/*/trial-1/on/observation.json) == true ]] ||
		fail "$(jq -c .steps "$OUT"/*/trial-1/on/observation.json)"
}

# fault HOST FAULT TYPE [VAR=VALUE…]: the fixture workload whose provider
# answers FAULT to every request, on HOST: both arms are errors, each step's
# exception Harbor's TYPE, none scored, and 1.4.1's render agrees.
fault() {
	local host=$1 fault=$2 type=$3
	shift 3
	paired "$host" CATALOG="$FIXTURES/paired-fault" CATALOG_ROOT="$REPO" "$@" -- --id "provider-$fault"
	assert_exit 2
	assert_equal "$(outcomes)" "provider-$fault off error
provider-$fault on error"
	local arm
	for arm in off on; do
		jq -e --arg t "$type" '[.step_results[] | .exception_info.exception_type == $t] | all' \
			"$OUT/provider-$fault/trial-1/$arm"/harbor-jobs/*/*/result.json >/dev/null ||
			fail "$arm: $(jq -c '[.step_results[].exception_info]' "$OUT/provider-$fault/trial-1/$arm"/harbor-jobs/*/*/result.json)"
	done
	grep -qF -- "- OFF: 0/0 passed (0 timed out); 1 error(s)" "$OUT/report.md" || fail "$(cat "$OUT/report.md")"
	grep -qF -- "- ON: 0/0 passed (0 timed out); 1 error(s)" "$OUT/report.md" || fail "$(cat "$OUT/report.md")"
	grep -qF "Scored pairs: 0" "$OUT/report.md" || fail "$(cat "$OUT/report.md")"
	run "$REPO/tests/reference/paired-check" --run "$OUT"
	assert_success
}

@test "a provider's 500 on every request makes each Bub arm an error, left out of the success rates" {
	fault bub server-error NonZeroAgentExitCodeError
}

@test "a provider's 429 with Retry-After on every request makes each Codex arm an error (ApiRateLimitError), left out of the success rates" {
	fault codex rate-limit ApiRateLimitError
}

@test "a provider's 500 on every request makes each Claude Code arm an error, its retries bounded, left out of the success rates" {
	fault claude-code server-error NonZeroAgentExitCodeError CLAUDE_CODE_MAX_RETRIES=1
}
