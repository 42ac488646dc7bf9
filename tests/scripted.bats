#!/usr/bin/env bats
# The scripted model (pipelines/scripted-model, docs/scripted-model.md): its
# replies to Bub and to PowerContext's generation, its loud errors, and the
# model-backed path through pc-run-bub on the real Bub, its plugin and a real
# PowerContext Server whose Memory extractor it plays.

load test_helper
load exec_helper

SCRIPTS="$REPO/manifests/model-scripts"
ID=scripted-release-window
# A provider key as a real run would have one: it must reach no sink.
KEY=sk-scripted-test-5e1f0c2a

setup_file() {
	scripted_model_serve "$SCRIPTS" "$BATS_FILE_TMPDIR" || return 1
	# the Server's extractor is the scripted model (what MODEL=scripted sets)
	POWERCONTEXT_SERVER_INFERENCE_GENERATION_MODEL=openai-chat:pc-e2e-scripted/extractor \
		OPENAI_BASE_URL=$(cat "$BATS_FILE_TMPDIR/model.url") OPENAI_API_KEY=$KEY \
		exec_setup_file server
}

teardown_file() {
	exec_teardown_file
	kill "$(cat "$BATS_FILE_TMPDIR/model.pid")" 2>/dev/null || true
}

setup() {
	exec_setup
	MODEL_URL=$(cat "$BATS_FILE_TMPDIR/model.url")
}

# model_name WORKLOAD: the model the scripted model plays WORKLOAD's script as.
model_name() {
	printf 'pc-e2e-scripted/%s@%s\n' "$1" "$(sha256sum "$SCRIPTS/$1.json" | cut -c1-12)"
}

# chat BODY: POST BODY to the scripted model's chat completions; the status
# in $status_code, the body in $output.
chat() {
	run curl -sS -o "$T/reply" -w '%{http_code}' -H 'Content-Type: application/json' \
		--data-binary "$1" "$MODEL_URL/chat/completions"
	status_code=$output
	output=$(cat "$T/reply")
}

# bub_body MODEL MESSAGES-JSON: a request as Bub sends it.
bub_body() {
	jq -nc --arg m "$1" --argjson msgs "$2" '{model: $m, stream: true, stream_options: {include_usage: true},
		max_completion_tokens: 4096, messages: $msgs}'
}

PROMPT="channel=\$acp-server|chat_id=00\n---Date: 2026-12-01---\nPlan tonight's release of the ledger service. Save its deployment settings"

@test "scripted model: Bub's conversation gets the turn at its position after the prompt, as streamed tool calls, and is logged" {
	local model
	model=$(model_name "$ID")
	chat "$(bub_body "$model" "[{\"role\":\"system\",\"content\":\"Bub\"},{\"role\":\"user\",\"content\":\"$PROMPT\"}]")"
	[[ $status_code == 200 ]] || fail "status $status_code: $output"
	[[ $output == *'data: [DONE]'* ]] || fail "no [DONE]: $output"
	# the first turn: one bash call writing the settings file
	local chunks
	chunks=$(sed -n 's/^data: \({.*\)$/\1/p' "$T/reply")
	[[ $(jq -rs '[.[].choices[0].delta.tool_calls // empty | .[0].function.name] | join(",")' <<<"$chunks") == bash ]] ||
		fail "not one bash call: $chunks"
	jq -rs '[.[].choices[0].delta.tool_calls // empty | .[0].function.arguments][0] | fromjson | .command' <<<"$chunks" |
		grep -q 'cat > /tmp/ledger.env' || fail "not the script's first turn: $chunks"
	[[ $(jq -rs '[.[].choices[0].finish_reason // empty] | join(",")' <<<"$chunks") == tool_calls ]] ||
		fail "finish_reason: $chunks"
	[[ $(jq -s '.[-1] | (.choices == [] and .usage.total_tokens > 0)' <<<"$chunks") == true ]] ||
		fail "no usage chunk last: $chunks"
	# after two assistant turns (and a later "continue" user message, not a prompt), the third
	chat "$(bub_body "$model" "[{\"role\":\"user\",\"content\":\"$PROMPT\"},{\"role\":\"assistant\",\"content\":\"a\"},
		{\"role\":\"tool\",\"content\":\"t\"},{\"role\":\"assistant\",\"content\":\"b\"},
		{\"role\":\"user\",\"content\":\"Continue the task\"},
		{\"role\":\"system\",\"content\":\"3 database replicas; 22:00 and 23:30 UTC\"}]")"
	[[ $status_code == 200 ]] || fail "status $status_code: $output"
	[[ $output == *release-plan.txt* ]] || fail "not the third turn: $output"
	# every request is in the log, body and status, no header
	[[ $(jq -s --arg m "$model" '[.[] | select(.body.model == $m and .status == 200)] | length' \
		"$BATS_FILE_TMPDIR/requests.jsonl") -ge 2 ]] || fail "requests not logged: $(cat "$BATS_FILE_TMPDIR/requests.jsonl")"
}

@test "scripted model: an unknown path, model, conversation or turn, or missing context, is an error naming what did not match" {
	local model
	model=$(model_name "$ID")
	run curl -sS -o "$T/reply" -w '%{http_code}' -H 'Content-Type: application/json' -d '{}' "$MODEL_URL/completions"
	[[ $output == 404 ]] && grep -q 'unknown path POST /v1/completions' "$T/reply" || fail "completions: $output $(cat "$T/reply")"
	chat "$(bub_body "pc-e2e-scripted/$ID@000000000000" "[{\"role\":\"user\",\"content\":\"$PROMPT\"}]")"
	[[ $status_code == 404 && $output == *"unknown model 'pc-e2e-scripted/$ID@000000000000'"*"$model"* ]] ||
		fail "stale digest: $status_code $output"
	chat "$(bub_body "$model" '[{"role":"user","content":"something else entirely"}]')"
	[[ $status_code == 409 && $output == *'no session of the script matches'* ]] || fail "unknown prompt: $status_code $output"
	chat "$(bub_body "$model" "[{\"role\":\"user\",\"content\":\"$PROMPT\"},{\"role\":\"assistant\",\"content\":\"a\"},
		{\"role\":\"assistant\",\"content\":\"b\"},{\"role\":\"assistant\",\"content\":\"c\"},{\"role\":\"assistant\",\"content\":\"d\"}]")"
	[[ $status_code == 409 && $output == *"session 'plan' has 4 turns; the conversation is at turn 5"* ]] ||
		fail "past the script: $status_code $output"
	chat "$(bub_body "$model" "[{\"role\":\"user\",\"content\":\"$PROMPT\"},{\"role\":\"assistant\",\"content\":\"a\"},
		{\"role\":\"assistant\",\"content\":\"b\"}]")"
	[[ $status_code == 409 && $output == *"turn 3 requires context holding"*"22:00 and 23:30 UTC"* ]] ||
		fail "no context: $status_code $output"
	[[ $(jq -s '[.[] | select(.status >= 400 and (.error | length) > 0)] | length' \
		"$BATS_FILE_TMPDIR/requests.jsonl") -ge 5 ]] || fail "errors not logged with their message"
}

@test "scripted model: a turn whose required context is missing plays its otherwise turn when it has one, else is refused" {
	local paired=api-version-continuation recall model chunks
	model=$(model_name "$paired")
	recall=$(jq -r '.sessions[] | select(.name == "recall") | .prompt' "$SCRIPTS/$paired.json")
	# without the context: the otherwise turn, content only, no tool call, nothing written
	chat "$(bub_body "$model" "$(jq -nc --arg u "channel=\$acp-server|chat_id=00
---Date: 2026-12-01---
$recall?" '[{role: "system", content: "Bub"}, {role: "user", content: $u}]')")"
	[[ $status_code == 200 ]] || fail "otherwise: $status_code $output"
	chunks=$(sed -n 's/^data: \({.*\)$/\1/p' "$T/reply")
	[[ $(jq -rs '[.[].choices[0].delta.content // empty] | join("")' <<<"$chunks") == "I don't know."* ]] ||
		fail "not the otherwise turn: $chunks"
	[[ $(jq -rs '[.[].choices[0].delta.tool_calls // empty] | length' <<<"$chunks") == 0 ]] || fail "a tool call: $chunks"
	[[ $(jq -rs '[.[].choices[0].finish_reason // empty] | join(",")' <<<"$chunks") == stop ]] || fail "finish: $chunks"
	# with both fragments in a system message: the answering turn writes answer.json
	chat "$(bub_body "$model" "$(jq -nc --arg u "$recall?" '[{role: "system", content: "PowerContext host-supplied context: /inventory/v4 and Inventory-Api-Version"},
		{role: "user", content: $u}]')")"
	[[ $status_code == 200 ]] || fail "with context: $status_code $output"
	chunks=$(sed -n 's/^data: \({.*\)$/\1/p' "$T/reply")
	jq -rs '[.[].choices[0].delta.tool_calls // empty | .[0].function.arguments][0] | fromjson | .command' <<<"$chunks" |
		grep -q '/workspace/answer.json' || fail "not the answering turn: $chunks"
	# one fragment is not enough
	chat "$(bub_body "$model" "$(jq -nc --arg u "$recall?" '[{role: "system", content: "/inventory/v4"}, {role: "user", content: $u}]')")"
	[[ $status_code == 200 && $output != *tool_calls* && $output == *"I don't know."* ]] || fail "one fragment: $status_code $output"
	# a turn without otherwise still answers 409 (scripted-release-window's third turn)
	chat "$(bub_body "$(model_name "$ID")" "[{\"role\":\"user\",\"content\":\"$PROMPT\"},{\"role\":\"assistant\",\"content\":\"a\"},
		{\"role\":\"assistant\",\"content\":\"b\"}]")"
	[[ $status_code == 409 && $output == *"turn 3 requires context holding"* ]] || fail "no otherwise: $status_code $output"
	# an otherwise turn with context requirements of its own is checked the same way
	mkdir -p "$T/scripts"
	jq '.workload = "nested-otherwise" | .sessions[1].turns[0].otherwise.requires_context = ["only-in-context"]' \
		"$SCRIPTS/$paired.json" >"$T/scripts/nested-otherwise.json"
	scripted_model_serve "$T/scripts" "$T" || fail "nested server"
	run curl -sS -o "$T/reply" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary \
		"$(bub_body "pc-e2e-scripted/nested-otherwise@$(sha256sum "$T/scripts/nested-otherwise.json" | cut -c1-12)" \
			"$(jq -nc --arg u "$recall?" '[{role: "user", content: $u}]')")" "$(cat "$T/model.url")/chat/completions"
	kill "$(cat "$T/model.pid")"
	[[ $output == 409 ]] && grep -q "requires context holding.*only-in-context" "$T/reply" ||
		fail "nested otherwise: $output $(cat "$T/reply")"
}

@test "scripted extractor: the readiness probe, candidates citing the evidence that holds a rule's text, in the schema's shape, and reconciliation" {
	local evidence='[{"evidence_id":"source:1","content":{"content":"nothing here"}},
		{"evidence_id":"source:2","content":{"content":"LEDGER_DB_REPLICAS=3"}}]'
	chat '{"model":"pc-e2e-scripted/extractor","messages":[{"role":"user","content":"Reply with one token."}]}'
	[[ $status_code == 200 && $(jq -r '.choices[0].message.content' <<<"$output") == ok ]] || fail "probe: $output"
	# 1.x: kind, text, evidence_ids
	chat "$(jq -nc --arg u "$(jq -nc --argjson e "$evidence" '{evidence: $e}')" '{model: "pc-e2e-scripted/extractor",
		messages: [{role: "system", content: "extract"}, {role: "system", content: "{\"candidates\": {}}"}, {role: "user", content: $u}]}')"
	[[ $status_code == 200 ]] || fail "extraction: $status_code $output"
	[[ $(jq -c '.choices[0].message.content | fromjson | .candidates | map([.kind, .evidence_ids, has("intent")])' <<<"$output") == \
		'[["fact",["source:2"],false]]' ]] || fail "1.x candidates: $output"
	# 0.x asks for an intent in its schema
	chat "$(jq -nc --arg u "$(jq -nc --argjson e "$evidence" '{evidence: $e, current_entries: []}')" '{model: "pc-e2e-scripted/extractor",
		messages: [{role: "system", content: "{\"intent\": {}}"}, {role: "user", content: $u}]}')"
	[[ $(jq -r '.choices[0].message.content | fromjson | .candidates[0].intent' <<<"$output") == add ]] || fail "0.x: $output"
	# a proposal equal to a related item is a noop on it; another is created
	local text
	text=$(jq -r '.extraction[1].text' "$SCRIPTS/$ID.json")
	chat "$(jq -nc --arg t "$text" --argjson e "$evidence" '{model: "pc-e2e-scripted/extractor", messages: [{role: "user",
		content: ({proposal: {item_id: "candidate:1", kind: "fact", text: $t, evidence_ids: ["source:2"]},
		related: [{item_id: "candidate:0", text: "other"}, {item_id: "artifact:9", text: $t}], evidence: $e} | tojson)}]}')"
	[[ $(jq -c '.choices[0].message.content | fromjson | [.action, .compared_ids, .target_ids]' <<<"$output") == \
		'["noop",["candidate:0","artifact:9"],["artifact:9"]]' ]] || fail "noop: $output"
	# a proposal whose rule revises a related published item's text revises
	# it (memorycode-145's updated guideline); unpublished, it is created
	local rule old_text new_text related
	rule=$(jq -c '[.extraction[] | select(.revises)][0]' "$SCRIPTS/memorycode-145.json")
	old_text=$(jq -r .revises <<<"$rule") new_text=$(jq -r .text <<<"$rule")
	for refs in '[{"artifact_id":"art_1"}]' '[]'; do
		related=$(jq -nc --arg t "$old_text" --argjson r "$refs" '[{item_id: "artifact:3", text: $t, original_refs: $r}]')
		chat "$(jq -nc --arg t "$new_text" --argjson rel "$related" --argjson e "$evidence" '{model: "pc-e2e-scripted/extractor",
			messages: [{role: "user", content: ({proposal: {item_id: "candidate:0", kind: "constraint", text: $t,
			evidence_ids: ["source:2"]}, related: $rel, evidence: $e} | tojson)}]}')"
		output=$(jq -c '.choices[0].message.content | fromjson | [.action, .target_ids, .content.text == $t, .evidence_ids]' \
			--arg t "$new_text" <<<"$output")
		if [[ $refs == '[]' ]]; then
			[[ $output == '["create",[],true,["source:2"]]' ]] || fail "unpublished: $output"
		else
			[[ $output == '["revise",["artifact:3"],true,["source:2"]]' ]] || fail "revise: $output"
		fi
	done
	# a revises that names no rule's text is refused when the scripts load
	mkdir -p "$T/bad-scripts"
	jq '(.extraction[] | select(.revises)).revises = "a guideline nobody gave"' "$SCRIPTS/memorycode-145.json" \
		>"$T/bad-scripts/memorycode-145.json"
	run python3 "$REPO/pipelines/scripted-model" "$T/bad-scripts" "$T/bad.url" "$T/bad.jsonl"
	assert_failure
	assert_output --partial "memorycode-145.json: a rule revises 'a guideline nobody gave', which no rule's text is"
	[[ ! -e $T/bad.url ]] || fail "the scripted model served a bad script"
	chat '{"model":"pc-e2e-scripted/extractor","messages":[{"role":"user","content":"{\"no\": 1}"}]}'
	[[ $status_code == 422 && $output == *'not a generation request the scripts know'* ]] || fail "unknown request: $output"
}

@test "--model-scripts: a BUB_API_BASE off loopback and a model-backed workload without a script are refused before anything runs" {
	exec_select "$ID"
	BUB_API_BASE=https://api.openai.com/v1 exec_run_bub "$T/selection.jsonl" --model-scripts "$SCRIPTS"
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "BUB_API_BASE must be the scripted model's loopback URL" api.openai.com
	BUB_API_BASE=http://127.0.0.1.example.com/v1 exec_run_bub "$T/selection.jsonl" --model-scripts "$SCRIPTS"
	assert_exit 1
	assert_stderr_contains "BUB_API_BASE must be the scripted model's loopback URL"
	# a remote sandbox cannot reach this machine's loopback
	BUB_API_BASE=$MODEL_URL exec_run_bub "$T/selection.jsonl" --model-scripts "$SCRIPTS" --runner harbor --harbor-env daytona
	assert_exit 1
	assert_stderr_contains "which a daytona sandbox cannot reach"
	exec_select terminal-bench-db-wal-recovery
	BUB_API_BASE=$MODEL_URL exec_run_bub "$T/selection.jsonl" --model-scripts "$SCRIPTS"
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains terminal-bench-db-wal-recovery "$SCRIPTS/terminal-bench-db-wal-recovery.json"
	[[ ! -e $OUT ]] || fail "pc-run-bub created $OUT: $(find "$OUT")"
}

@test "MODEL=scripted refuses a model endpoint off loopback before anything is provisioned or written" {
	local url
	# regression: http://127.evil.example passed as loopback (a prefix match on "127.")
	for url in https://api.openai.com/v1 http://127.evil.example/v1 http://localhost.example/v1; do
		OUTPUT="$T/out" MODEL=scripted OPENAI_BASE_URL=$url run --separate-stderr "$REPO/pipelines/acceptance" --category scripted
		[[ $status -eq 64 ]] || fail "$url: exit $status: $stderr"
		assert_stderr_contains "MODEL=scripted talks to no provider, but OPENAI_BASE_URL is $url"
		[[ ! -e $T/out ]] || fail "$url: $T/out was created"
	done
	MODEL=other run --separate-stderr "$REPO/pipelines/acceptance"
	[[ $status -eq 64 ]] || fail "MODEL=other: exit $status"
	assert_stderr_contains "acceptance: MODEL must be scripted or empty, got 'other'"
}

@test "model-backed on the scripted model: the real Bub and a real Server capture, extract, checkpoint and recall; the replay names the script; the key reaches no sink" {
	exec_select "$ID"
	BUB_API_BASE=$MODEL_URL BUB_API_KEY=$KEY OPENAI_API_KEY=$KEY BUB_MODEL=openai:some-provider-model \
		exec_run_bub "$T/selection.jsonl" --model-scripts "$SCRIPTS"
	assert_exit 0
	printf '%s\n%s\n' "$output" "$stderr" >"$T/streams.txt"
	[[ $(rec_r .status) == completed ]] || fail "not completed: $(rec .errors)"
	[[ $(rec_r .environment.agent_model) == "openai:$(model_name "$ID")" ]] ||
		fail "agent_model is not the script's: $(rec_r .environment.agent_model)"
	[[ $(rec .environment.agent_settings) == "{}" ]] || fail "agent_settings: $(rec .environment.agent_settings)"
	# Bub asked the script's model, not the BUB_MODEL of the environment
	[[ $(jq -s --arg m "$(model_name "$ID")" '[.[] | select(.body.model == $m and .body.stream)] | length' \
		"$BATS_FILE_TMPDIR/requests.jsonl") -ge 4 ]] || fail "Bub did not ask the scripted model"
	grep -q some-provider-model "$BATS_FILE_TMPDIR/requests.jsonl" && fail "Bub asked BUB_MODEL's model"
	exec_normalize --output "$OUT"
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	exec_evaluate --output "$OUT"
	printf '%s\n%s\n' "$output" "$stderr" >>"$T/streams.txt"
	exec_assert_accepted
	local metrics
	metrics=$(jq -c '.cases[0].metrics' "$OUT/$ID/eval-report.json")
	[[ $(jq '.capture_events >= 5 and .completed_checkpoints >= 1 and .in_run_contexts >= 1 and .memory_entries_created == 2' \
		<<<"$metrics") == true ]] || fail "metrics: $metrics"
	[[ $(jq -c '.cases[0].scores | [.capture_coverage.value, .groundedness.value]' "$OUT/$ID/eval-report.json") == '[1,1]' ]] ||
		fail "scores: $(jq -c '.cases[0].scores' "$OUT/$ID/eval-report.json")"
	# the Server's extractor answered (its Memory cites captured Sources only)
	[[ $(jq -s '[.[] | select(.body.model == "pc-e2e-scripted/extractor" and (.body.messages[-1].content | contains("evidence")))] | length' \
		"$BATS_FILE_TMPDIR/requests.jsonl") -ge 1 ]] || fail "no extraction request reached the scripted model"
	refute_secret "$KEY" "$OUT" "$T/streams.txt" "$BATS_FILE_TMPDIR/server" "$BATS_FILE_TMPDIR/requests.jsonl"
}
