#!/usr/bin/env bats
# Provider faults classified (docs/DESIGN.md §2.3): a paired run on the
# scripted model that plays one fault (FAULT=KIND@N, docs/scripted-model.md)
# on the local runner, or a real-model setting whose provider is a closed
# port. The arm that met the fault ends in error; its run record says why
# in `fault` (class, kind, transient, step, status, retry_after, words) and
# its progress line names it; the other arm has no fault; every record is
# a valid powercontext.e2e-run/v1; the observations stay 1.4.1's, so
# paired-check still agrees. The harness's own faults (a crashed agent, a
# Server gone) are in tests/faults.bats.

load test_helper

setup() {
	[[ -z ${PC_SANITIZED:-} ]] || skip "real hosts through pipelines/paired: the C they reach is covered by faults.bats"
	pc_setup
	OUT=$T/out
	RECORDS=$T/records.jsonl
	# pipelines/paired pipes the records on; keep a copy through PC_BIN
	# (of the run, not of its --plan)
	mkdir "$T/bin"
	ln -s "$PC_BIN"/pc-* "$T/bin/"
	rm "$T/bin/pc-run-bub"
	cat >"$T/bin/pc-run-bub" <<-SHIM
		#!/usr/bin/env bash
		set -o pipefail
		[[ " \$* " == *" --plan "* ]] && exec "$PC_BIN/pc-run-bub" "\$@"
		"$PC_BIN/pc-run-bub" "\$@" | tee -a "$RECORDS"
	SHIM
	chmod +x "$T/bin/pc-run-bub"
}

# paired [VAR=VALUE…] [pc-select argument…]: pipelines/paired on the
# scripted model, one trial, into $OUT, the records kept in $RECORDS.
paired() {
	local settings=()
	while [[ $1 == *=* ]]; do
		settings+=("$1")
		shift
	done
	run --separate-stderr env OUTPUT="$OUT" PC_BIN="$T/bin" MODEL=scripted TRIALS=1 \
		PC_E2E_PROGRESS=1 "${settings[@]}" "$REPO/pipelines/paired" "$@"
}

# faults: "<arm> <class> <kind> <transient> <step> <status> <retry_after>"
# of every arm's record, sorted; "<arm> -" for one without a fault.
faults() {
	jq -r '.arm.arm + " " +
		(if .fault then [.fault | .class, .kind, .transient, .step, .status, .retry_after]
			| map(tostring) | join(" ") else "-" end)' "$RECORDS" | sort
}

# assert_fault WANT WORDS: exit 2, the arms' faults are WANT (as faults
# prints them), each fault's words and its arm's progress line begin with
# WORDS, the records are valid, and paired-check agrees on the run.
assert_fault() {
	local want=$1 words=$2 line
	assert_exit 2
	assert_equal "$(faults)" "$want"
	jq -se --arg w "$words" 'map(select(.fault) | .fault.words | startswith($w)) | all' \
		"$RECORDS" >/dev/null ||
		fail "words: $(jq -c 'select(.fault) | .fault.words' "$RECORDS")"
	line=$(jq -r 'select(.fault) | .fault | "failed: \(.class) \(.kind)\(if .status then " \(.status)" else "" end) at step \(.step): "' \
		"$RECORDS" | head -1)
	grep -qF "] $line$words" <<<"$stderr" || fail "no progress line '$line$words…': $stderr"
	jq -se 'map(.extraction_models | type == "object") | all' "$RECORDS" >/dev/null ||
		fail "$(jq -c .extraction_models "$RECORDS")"
	schema_ok e2e-run "$RECORDS"
	run "$REPO/tests/reference/paired-check" --run "$OUT"
	assert_success
}

@test "Bub, FAULT=429-quota@3: a provider quota 429, not transient" {
	paired FAULT=429-quota@3 --id api-version-continuation
	assert_fault "off provider quota false capture 429 null
on -" "Error code: 429 - {'error': {'message': 'You have reached your specified API usage limits"
}

@test "Bub, FAULT=429@3: a provider rate limit 429, transient, retry after the 1 s its words ask" {
	paired FAULT=429@3 --id api-version-continuation
	assert_fault "off provider rate-limit true capture 429 1
on -" "Error code: 429 - {'error': {'message': 'Rate limit reached for the scripted model"
}

@test "Bub, FAULT=cut@3: a provider stream cut mid-way" {
	paired FAULT=cut@3 --id api-version-continuation
	assert_fault "off provider stream-cut true capture null null
on -" "peer closed connection without sending complete message body"
}

@test "Bub, FAULT=stall@3 with a 3 s client timeout: a provider timeout, an error and not the agent's scored timeout" {
	paired FAULT=stall@3 'BUB_CLIENT_ARGS={"timeout":3}' --id api-version-continuation
	assert_fault "off provider timeout true capture null null
on -" "Request timed out."
	[[ $(jq -r 'select(.arm == "off") | .outcome' "$OUT"/*/trial-1/*/observation.json) == error ]] ||
		fail "$(jq -c '{arm, outcome}' "$OUT"/*/trial-1/*/observation.json)"
}

@test "Bub on a real-model setting whose provider is a closed port: both arms provider unreachable" {
	paired MODEL= BUB_MODEL=openai:gpt-4o-mini BUB_API_BASE=http://127.0.0.1:9/v1 \
		BUB_API_KEY=sk-pc-e2e-closed-port POWERCONTEXT_SERVER_INFERENCE_GENERATION_MODEL=openai-chat:gpt-4o-mini \
		OPENAI_BASE_URL=http://127.0.0.1:9/v1 OPENAI_API_KEY=sk-pc-e2e-closed-port --id api-version-continuation
	assert_fault "off provider unreachable true capture null null
on provider unreachable true capture null null" "Connection error."
	jq -se 'map(.extraction_models == {generation: "openai-chat:gpt-4o-mini", embedding: null}) | all' \
		"$RECORDS" >/dev/null || fail "$(jq -c .extraction_models "$RECORDS")"
}

@test "Codex, a provider that answers every request 429: both arms a provider rate limit, in Codex's own words" {
	paired HOST=codex CATALOG="$FIXTURES/paired-fault" CATALOG_ROOT="$REPO" --id provider-rate-limit
	assert_fault "off provider rate-limit true capture 429 null
on provider rate-limit true capture 429 null" "exceeded retry limit, last status: 429 Too Many Requests"
}

@test "Codex, FAULT=500@3: a provider server error after its 6 rounds of 5 requests, in Codex's words, no status" {
	paired HOST=codex FAULT=500@3 --id api-version-continuation
	assert_fault "off provider server-error true capture null null
on -" "Reconnecting... 1/5 (We're currently experiencing high demand"
	[[ $(jq -s 'map(select(.fault == "server-error")) | length' "$OUT"/scripted-model/requests.jsonl) == 30 ]] ||
		fail "$(jq -c '[.status, .fault]' "$OUT"/scripted-model/requests.jsonl)"
}

@test "Codex, FAULT=cut@3: a provider stream cut, every reconnect cut again" {
	paired HOST=codex FAULT=cut@3 --id api-version-continuation
	assert_fault "off provider stream-cut true capture null null
on -" "Reconnecting... 1/5 (stream disconnected before completion"
	[[ $(jq -s 'map(select(.fault == "cut")) | length' "$OUT"/scripted-model/requests.jsonl) == 6 ]] ||
		fail "$(jq -c '[.status, .fault]' "$OUT"/scripted-model/requests.jsonl)"
}

@test "Claude Code, FAULT=429-quota@3: a provider quota from its last words, though its retry line says rate_limit" {
	paired HOST=claude-code CLAUDE_CODE_MAX_RETRIES=1 FAULT=429-quota@3 --id api-version-continuation
	assert_fault "off provider quota false capture 429 null
on -" "API Error: Request rejected (429) · You have reached your specified API usage limits"
	# the setting reached the CLI: one retry, two 429s
	[[ $(jq -s 'map(select(.fault == "quota-exhausted")) | length' "$OUT"/scripted-model/requests.jsonl) == 2 ]] ||
		fail "$(jq -c '[.status, .fault]' "$OUT"/scripted-model/requests.jsonl)"
}

@test "Claude Code, FAULT=500@3: a provider server error 500, no wait asked (its retry delay is its own back-off)" {
	paired HOST=claude-code CLAUDE_CODE_MAX_RETRIES=1 FAULT=500@3 --id api-version-continuation
	assert_fault "off provider server-error true capture 500 null
on -" "server_error"
}

@test "Claude Code, FAULT=stall@3 with API_TIMEOUT_MS=3000: a provider timeout, an error and not the agent's scored timeout" {
	paired HOST=claude-code CLAUDE_CODE_MAX_RETRIES=1 API_TIMEOUT_MS=3000 FAULT=stall@3 \
		--id api-version-continuation
	assert_fault "off provider timeout true capture null null
on -" "Request timed out"
}
