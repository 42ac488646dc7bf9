#!/usr/bin/env bats
# The scripted model's three dialects (python/pc_e2e_scripted,
# docs/scripted-model.md): one host-neutral script rendered as Bub's chat
# completions, Codex's Responses API and Claude Code's Messages API; their
# streams, usage, routes beyond the turns and fail turns; then the real Codex
# and Claude Code CLIs, as pipelines/pc-powercontext provisions them, driven
# through a run, a write and an answer.

load test_helper

W=dialect-demo

setup_file() {
	local dir=$BATS_FILE_TMPDIR
	mkdir -p "$dir/scripts" "$dir/ws"
	# a write's path is absolute (Claude Code's Write takes no other)
	jq -n --arg ws "$dir/ws" '{schema: "pc-e2e.model-script/v2", workload: "dialect-demo", sessions: ([
		{name: "work", prompt: "Report on the scripted dialects.", turns: [
			{say: "I will look first.", run: "echo run-ok > \($ws)/run.txt && cat \($ws)/run.txt"},
			{write: {path: "\($ws)/written.txt", content: "written-ok\nPC_E2E_EOF\nit'"'"'s $HOME\n"}},
			{answer: "Done: the run and the write."}]},
		{name: "recall", prompt: "Which deploy window holds?", turns: [
			{requires_context: ["FACT-WINDOW-22"], answer: "The window is FACT-WINDOW-22.",
			 otherwise: {answer: "I do not know the window."}}]}]
		+ [("server-error", "overloaded", "rate-limit", "quota-exhausted", "cut", "stall") as $f |
			{name: $f, prompt: "Fail with \($f).", turns: [{fail: ({fault: $f} +
				(if $f == "rate-limit" then {retry_after: 2} else {} end))}]}])}' \
		>"$dir/scripts/$W.json"
	scripted_model_serve "$dir/scripts" "$dir"
}

teardown_file() {
	kill "$(cat "$BATS_FILE_TMPDIR/model.pid")" 2>/dev/null || true
}

setup() {
	T=$BATS_TEST_TMPDIR
	URL=$(cat "$BATS_FILE_TMPDIR/model.url")
	MODEL=pc-e2e-scripted/$W@$(sha256sum "$BATS_FILE_TMPDIR/scripts/$W.json" | cut -c1-12)
	LOG=$BATS_FILE_TMPDIR/requests.jsonl
}

# post PATH BODY: POST BODY to the scripted model's PATH (under /v1); the
# status in $code, the headers in $T/headers, the body in $T/reply and
# $output, each event's data as one JSON line in $T/data.
post() {
	run curl -sS -D "$T/headers" -o "$T/reply" -w '%{http_code}' -H 'Content-Type: application/json' \
		--data-binary "$2" "$URL$1"
	code=$output
	output=$(cat "$T/reply")
	sed -n 's/^data: \({.*\)$/\1/p' "$T/reply" >"$T/data"
}

# Requests as each host sends them: PROMPT, then N assistant turns (each
# followed by its tool output), with CONTEXT where the host puts recalled
# context (none when empty).
chat_body() { # PROMPT N CONTEXT
	jq -nc --arg m "$MODEL" --arg p "$1" --argjson n "$2" --arg c "$3" '{model: $m, stream: true,
		messages: ([{role: "system", content: "You are Bub, a coding agent."},
			{role: "user", content: "channel=$acp-server|chat_id=00\n---Date: 2026-12-05---\n\($p)"}]
			+ [range($n) | {role: "assistant", content: null, tool_calls: [{id: "c\(.)", type: "function",
				function: {name: "bash", arguments: "{}"}}]}, {role: "tool", content: "ok"}]
			+ (if $c == "" then [] else [{role: "system", content: $c}] end))}'
}
responses_body() { # PROMPT N CONTEXT
	jq -nc --arg m "${MODEL#pc-e2e-scripted/}" --arg p "$1" --argjson n "$2" --arg c "$3" '
		def msg(r; t): {type: "message", role: r, content: [{type: "input_text", text: t}]};
		{model: $m, stream: true, instructions: "You are Codex, a coding agent based on a model.",
		input: ([msg("developer"; "<permissions instructions>none</permissions instructions>"),
			msg("user"; "<environment_context><cwd>/app</cwd></environment_context>"), msg("user"; $p)]
			+ (if $c == "" then [] else [msg("developer"; $c)] end)
			# one turn: a message and a call, then its output
			+ [range($n) | {type: "message", role: "assistant", content: [{type: "output_text", text: "Next."}]},
				{type: "function_call", name: "exec_command", arguments: "{}", call_id: "c\(.)"},
				{type: "function_call_output", call_id: "c\(.)", output: "Process exited with code 0"}])}'
}
messages_body() { # PROMPT N CONTEXT
	jq -nc --arg m "$MODEL" --arg p "$1" --argjson n "$2" --arg c "$3" '{model: $m, stream: true, max_tokens: 32000,
		system: [{type: "text", text: "You are a Claude agent."}],
		messages: ([{role: "user", content: [{type: "text", text: "<system-reminder>none</system-reminder>"},
				{type: "text", text: $p}]},
			{role: "system", content: [{type: "text", text: ("# Environment" +
				(if $c == "" then "" else "\nUserPromptSubmit hook additional context: \($c)" end))}]}]
			+ [range($n) | {role: "assistant", content: [{type: "tool_use", id: "t\(.)", name: "Bash", input: {}}]},
				{role: "user", content: [{type: "tool_result", tool_use_id: "t\(.)", content: "ok"}]},
				{role: "system", content: [{type: "text", text: "<total_tokens>9 tokens left</total_tokens>"}]}])}'
}
# ask DIALECT PROMPT N [CONTEXT]: post that host's request to its path.
ask() {
	local path=/chat/completions
	[[ $1 == responses ]] && path=/responses
	[[ $1 == messages ]] && path='/messages?beta=true'
	post "$path" "$("$1_body" "$2" "$3" "${4:-}")"
}

WORK="Report on the scripted dialects."

@test "scripted dialects: a run, a write and an answer become each host's own tools, and the write's command writes the content exactly" {
	local d
	jq -j '.sessions[0].turns[1].write.content' "$BATS_FILE_TMPDIR/scripts/$W.json" >"$T/expected"
	# Bub: bash{command}; the say is content before the call
	ask chat "$WORK" 0
	[[ $code == 200 ]] || fail "chat: $code $output"
	[[ $(jq -rs '[.[].choices[0].delta.content // empty] | join("")' "$T/data") == "I will look first." ]] ||
		fail "chat say: $output"
	[[ $(jq -rs '[.[].choices[0].delta.tool_calls // empty | .[0].function | .name, (.arguments | fromjson | keys[])] |
		join(",")' "$T/data") == bash,command ]] || fail "chat run: $output"
	ask chat "$WORK" 1
	jq -rs '[.[].choices[0].delta.tool_calls // empty | .[0].function.arguments][0] | fromjson | .command' "$T/data" >"$T/cmd"
	ask chat "$WORK" 2
	[[ $(jq -rs '[.[].choices[0] // empty | .delta.content // .finish_reason // empty] | join("|")' "$T/data") == \
		"|Done: the run and the write.|stop" ]] || fail "chat answer: $output"
	# Codex: a message, then exec_command{cmd}; the write a quoted heredoc
	ask responses "$WORK" 0
	[[ $(jq -rs '[.[] | select(.type == "response.output_item.done") | .item | .type + ":" + (.name // .content[0].text)] |
		join(",")' "$T/data") == "message:I will look first.,function_call:exec_command" ]] || fail "responses run: $output"
	[[ $(jq -rs '.[-1].response.output[1].arguments | fromjson | keys | join(",")' "$T/data") == cmd ]] ||
		fail "responses arguments: $output"
	ask responses "$WORK" 1
	jq -rs '.[-1].response.output[0].arguments | fromjson | .cmd' "$T/data" >"$T/cmd.responses"
	cmp "$T/cmd" "$T/cmd.responses" || fail "the write's command differs between chat and responses"
	ask responses "$WORK" 2
	[[ $(jq -rs '.[-1].response.output | map(.type + ":" + .content[0].text) | join(",")' "$T/data") == \
		"message:Done: the run and the write." ]] || fail "responses answer: $output"
	# Claude Code: a text block, then Bash{command, description}; the write is Write
	ask messages "$WORK" 0
	[[ $(jq -rs '[.[] | select(.type == "content_block_start") | .content_block | .type + ":" + (.name // "")] | join(",")' \
		"$T/data") == "text:,tool_use:Bash" ]] || fail "messages run: $output"
	[[ $(jq -rs '[.[] | select(.delta.type == "input_json_delta") | .delta.partial_json | fromjson | keys[]] | join(",")' \
		"$T/data") == command,description ]] || fail "messages Bash input: $output"
	ask messages "$WORK" 1
	[[ $(jq -rs '[.[] | select(.type == "content_block_start") | .content_block.name] | join(",")' "$T/data") == Write ]] ||
		fail "messages write: $output"
	[[ $(jq -rs --rawfile c "$T/expected" '[.[] | select(.delta.type == "input_json_delta") | .delta.partial_json | fromjson][0] |
		.content == $c and (.file_path | endswith("/ws/written.txt"))' "$T/data") == true ]] || fail "Write input: $output"
	ask messages "$WORK" 2
	[[ $(jq -rs '[.[] | select(.type == "message_delta") | .delta.stop_reason] | join(",")' "$T/data") == end_turn ]] ||
		fail "messages answer: $output"
	# the heredoc writes the content byte for byte (a line like its delimiter, a quote, a $)
	d=$BATS_FILE_TMPDIR/ws
	rm -f "$d/written.txt"
	bash -c "$(cat "$T/cmd")" || fail "the write's command failed: $(cat "$T/cmd")"
	cmp "$T/expected" "$d/written.txt" || fail "written: $(cat "$d/written.txt")"
}

@test "scripted dialects: each stream is well formed, in the order its host reads it" {
	local names
	ask responses "$WORK" 0
	names=$(sed -n 's/^event: //p' "$T/reply" | paste -sd,)
	[[ $names == "$(jq -r .type "$T/data" | paste -sd,)" ]] || fail "event names differ from their types: $names"
	[[ $names == response.created,response.output_item.added,response.content_part.added,response.output_text.delta,response.output_text.done,response.content_part.done,response.output_item.done,response.output_item.added,response.function_call_arguments.delta,response.function_call_arguments.done,response.output_item.done,response.completed ]] ||
		fail "responses events: $names"
	[[ $(jq -s '[.[].sequence_number] == [range(length)]' "$T/data") == true ]] || fail "sequence numbers: $output"
	ask messages "$WORK" 0
	names=$(sed -n 's/^event: //p' "$T/reply" | paste -sd,)
	[[ $names == "$(jq -r .type "$T/data" | paste -sd,)" ]] || fail "event names differ from their types: $names"
	[[ $names == message_start,content_block_start,content_block_delta,content_block_stop,content_block_start,content_block_delta,content_block_stop,message_delta,message_stop ]] ||
		fail "messages events: $names"
	[[ $(jq -s '[.[] | .index // empty] == [0,0,0,1,1,1]' "$T/data") == true ]] || fail "block indexes: $output"
	ask chat "$WORK" 0
	[[ $(tail -c 15 "$T/reply") == *'data: [DONE]' ]] || fail "chat ends without [DONE]: $output"
	[[ $(grep -c '^event:' "$T/reply") == 0 ]] || fail "chat has named events: $output"
}

@test "scripted dialects: usage is derived from the request, non-zero, the same on a repeat, with cached tokens" {
	local dialect first
	for dialect in chat responses messages; do
		ask "$dialect" "$WORK" 1
		case $dialect in
		chat) jq -c 'select(.usage) | .usage' "$T/data" >"$T/usage" ;;
		responses) jq -c 'select(.type == "response.completed") | .response.usage' "$T/data" >"$T/usage" ;;
		messages) jq -c 'select(.type == "message_delta") | .usage' "$T/data" >"$T/usage" ;;
		esac
		first=$(cat "$T/usage")
		[[ $(jq '[.. | numbers] | length > 2 and min >= 0' <<<"$first") == true ]] || fail "$dialect usage: $first"
		# the model's own ledger logs the usage its reply reported
		[[ $(tail -n 1 "$LOG" | jq -cS .usage) == "$(jq -cS . <<<"$first")" ]] || fail "$dialect: the log's usage is not the reply's: $(tail -n 1 "$LOG")"
		case $dialect in
		chat) [[ $(jq '.prompt_tokens > .prompt_tokens_details.cached_tokens and .prompt_tokens_details.cached_tokens > 0
			and .completion_tokens > 0 and .total_tokens == .prompt_tokens + .completion_tokens' <<<"$first") == true ]] ;;
		responses) [[ $(jq '.input_tokens > .input_tokens_details.cached_tokens and .input_tokens_details.cached_tokens > 0
			and .output_tokens > 0 and .total_tokens == .input_tokens + .output_tokens' <<<"$first") == true ]] ;;
		messages) [[ $(jq '.input_tokens > 0 and .cache_read_input_tokens > 0 and .output_tokens > 0' <<<"$first") == true ]] ;;
		esac || fail "$dialect usage: $first"
		ask "$dialect" "$WORK" 1
		[[ $(jq -c 'select(.usage // .response.usage) | .usage // .response.usage' "$T/data" | tail -1) == "$first" ]] ||
			fail "$dialect usage changed on a repeat: $first, then $(cat "$T/data")"
		# a longer conversation is more input
		ask "$dialect" "$WORK" 2
		[[ $(jq -s --argjson u "$first" 'map(.usage // .response.usage // empty) | last |
			(.prompt_tokens // .input_tokens) > ($u.prompt_tokens // $u.input_tokens)' "$T/data") == true ]] ||
			fail "$dialect: more turns, no more input: $first, then $(cat "$T/data")"
	done
	# the Server's extractor is answered with usage too
	post /chat/completions '{"model":"pc-e2e-scripted/extractor","messages":[{"role":"user","content":"Reply with one token."}]}'
	[[ $(jq '.usage.prompt_tokens > 0 and .usage.completion_tokens > 0' <<<"$output") == true ]] || fail "extractor: $output"
	[[ $(tail -n 1 "$LOG" | jq -cS .usage) == "$(jq -cS .usage <<<"$output")" ]] || fail "extractor: the log's usage: $(tail -n 1 "$LOG")"
}

@test "scripted dialects: each host's recalled context is where it puts it; its system messages and item runs are not turns" {
	local dialect
	for dialect in chat responses messages; do
		ask "$dialect" "Which deploy window holds?" 0 "PowerContext host-supplied context: FACT-WINDOW-22"
		[[ $code == 200 && $output == *"The window is FACT-WINDOW-22."* ]] || fail "$dialect with context: $code $output"
		ask "$dialect" "Which deploy window holds?" 0
		[[ $code == 200 && $output == *"I do not know the window."* ]] || fail "$dialect without: $code $output"
		# two turns in (Claude: each followed by a system message; Codex: a
		# message and a call each) is turn 3 of the session
		ask "$dialect" "$WORK" 2
		[[ $output == *"Done: the run and the write."* ]] || fail "$dialect turn 3: $output"
	done
	# Codex's instructions are context too
	post /responses "$(responses_body "Which deploy window holds?" 0 "" | jq -c '.instructions += " FACT-WINDOW-22"')"
	[[ $output == *"The window is FACT-WINDOW-22."* ]] || fail "instructions: $output"
	# Claude's top-level system too
	post /messages "$(messages_body "Which deploy window holds?" 0 "" | jq -c '.system[0].text += " FACT-WINDOW-22"')"
	[[ $output == *"The window is FACT-WINDOW-22."* ]] || fail "system: $output"
}

@test "scripted dialects: the websocket is refused with 426, Claude's probe answered, and other requests refused by name in the error and the log" {
	run curl -sS -o "$T/reply" -w '%{http_code}' -H 'Connection: Upgrade' -H 'Upgrade: websocket' "$URL/responses"
	[[ $output == 426 ]] || fail "websocket: $output $(cat "$T/reply")"
	run curl -sS -I -o /dev/null -w '%{http_code}' "${URL%/v1}/api/hello"
	[[ $output == 200 ]] || fail "HEAD /api/hello: $output"
	post /messages/count_tokens "{\"model\":\"$MODEL\",\"messages\":[]}"
	[[ $code == 404 && $(jq -r '.type + ":" + .error.type + ":" + .error.message' <<<"$output") == \
		"error:not_found_error:the scripted model does not serve token counting (POST /v1/messages/count_tokens)" ]] ||
		fail "count_tokens: $code $output"
	run curl -sS -w '%{http_code}' "$URL/models"
	[[ $output == *'"message": "the scripted model does not serve a model listing (GET /v1/models)"'*404 ]] ||
		fail "models: $output"
	# Claude Code's title or summary call does not stream; another model is unknown
	post '/messages?beta=true' "$(messages_body "$WORK" 0 "" | jq -c '.stream = false')"
	[[ $code == 400 && $output == *"this one does not (POST /v1/messages for $MODEL)"* ]] || fail "no stream: $code $output"
	post '/messages?beta=true' "$(messages_body "$WORK" 0 "" | jq -c '.model = "claude-haiku-4-5"')"
	[[ $code == 404 && $output == *"unknown model 'claude-haiku-4-5'"*"$MODEL"* ]] || fail "haiku: $code $output"
	# Codex's name is the bare one, and only there
	post /responses "$(responses_body "$WORK" 0 "" | jq -c --arg m "$MODEL" '.model = $m')"
	[[ $code == 404 && $output == *"this server plays ['${MODEL#pc-e2e-scripted/}']"* ]] || fail "full name: $code $output"
	# a conversation the script does not cover fails at once: 400 to Claude, whose client retries a 409
	ask messages "$WORK" 3
	[[ $code == 400 && $output == *"session 'work' has 3 turns; the conversation is at turn 4"* ]] ||
		fail "past the script: $code $output"
	[[ $(jq -r 'select(.status != 200) | "\(.method) \(.path) \(.status) \(.error)"' "$LOG") == *"GET /v1/responses 426 the scripted model does not serve a Responses websocket (websocket refused: use HTTPS) (GET /v1/responses)"*"POST /v1/messages/count_tokens 404 the scripted model does not serve token counting"*"GET /v1/models 404"* ]] ||
		fail "refusals not logged: $(cat "$LOG")"
	[[ $(jq -r 'select(.method == "HEAD") | "\(.path) \(.status)"' "$LOG") == "/api/hello 200" ]] || fail "probe not logged"
}

@test "scripted dialects: a fail turn answers every retry with its fault, in each dialect's error shape" {
	local fault dialect try want
	for fault in server-error overloaded rate-limit quota-exhausted; do
		want=$(jq -r --arg f "$fault" '{"server-error": 500, overloaded: 503, "rate-limit": 429, "quota-exhausted": 429}[$f]' <<<null)
		for dialect in chat responses messages; do
			for try in 1 2 3; do
				ask "$dialect" "Fail with $fault." 0
				[[ $code == "$want" ]] || fail "$fault $dialect try $try: $code $output"
				if [[ $fault == rate-limit ]]; then
					grep -qi '^retry-after: 2' "$T/headers" || fail "$fault $dialect: no Retry-After: $(cat "$T/headers")"
				else
					! grep -qi '^retry-after' "$T/headers" || fail "$fault $dialect: a Retry-After"
				fi
			done
			if [[ $dialect == messages ]]; then
				[[ $(jq -r '.type + ":" + .error.type' <<<"$output") == error:*_error ]] || fail "$fault Anthropic shape: $output"
			else
				[[ $(jq -r '.error | (.message | length > 0) and (.type | length > 0) and has("code")' <<<"$output") == true ]] ||
					fail "$fault OpenAI shape: $output"
			fi
		done
	done
	[[ $(jq -r 'select(.body.messages[-1].content | tostring | contains("quota-exhausted")) | .error' "$LOG" | sort -u) == \
		*"specified API usage limits"* ]] || fail "quota message: $(tail -1 "$LOG")"
}

@test "scripted dialects: a cut turn starts each dialect's stream, then closes the connection before its end" {
	local dialect
	for dialect in chat responses messages; do
		ask "$dialect" "Fail with cut." 0
		[[ $status == 18 && $code == *200 ]] || fail "$dialect cut: curl $status, $code"
		[[ -s $T/data ]] || fail "$dialect cut: no event before the cut"
		case $dialect in
		chat) ! grep -q '\[DONE\]' "$T/reply" && [[ $(jq -s 'map(select(.usage)) | length' "$T/data") == 0 ]] ;;
		responses) [[ $(jq -r .type "$T/data" | paste -sd,) == response.created ]] ;;
		messages) [[ $(jq -r .type "$T/data" | paste -sd,) == message_start ]] ;;
		esac || fail "$dialect cut: the stream ends: $(cat "$T/reply")"
	done
	[[ $(jq -r 'select(.fault == "cut") | "\(.status) \(.path)"' "$LOG" | paste -sd,) == \
		"200 /v1/chat/completions,200 /v1/responses,200 /v1/messages?beta=true" ]] || fail "cut not logged: $(tail -3 "$LOG")"
}

@test "scripted dialects: a stall turn holds each request without a byte until the client's 2 s timeout, serving another meanwhile" {
	local dialect start
	start=$(date +%s%N)
	for dialect in chat responses messages; do
		(
			path=/chat/completions
			[[ $dialect == responses ]] && path=/responses
			[[ $dialect == messages ]] && path=/messages
			rc=0
			curl -sS -m 2 -o "$T/$dialect.reply" -H 'Content-Type: application/json' \
				--data-binary "$("${dialect}_body" "Fail with stall." 0 "")" "$URL$path" 2>/dev/null || rc=$?
			echo "$rc" >"$T/$dialect.rc"
			echo $(($(date +%s%N) - start)) >"$T/$dialect.ns"
		) &
	done
	sleep 0.5
	ask chat "$WORK" 0
	[[ $code == 200 ]] || fail "no answer while the stalls hold: $code"
	(($(date +%s%N) - start < 1500000000)) || fail "the answer waited for the stalls"
	wait
	for dialect in chat responses messages; do
		[[ $(cat "$T/$dialect.rc") == 28 && ! -s $T/$dialect.reply ]] ||
			fail "$dialect stall: curl $(cat "$T/$dialect.rc"), $(cat "$T/$dialect.reply")"
		(($(cat "$T/$dialect.ns") >= 2000000000)) || fail "$dialect stall ended early"
	done
	[[ $(jq -r 'select(.fault == "stall") | .status' "$LOG" | paste -sd,) == null,null,null ]] ||
		fail "stall not logged: $(tail -4 "$LOG")"
}

@test "scripted dialects: --fault 429@2 faults the 2nd agent request and its identical retries only; probes and the extractor do not count" {
	local dir=$T/faulted first second
	mkdir -p "$dir"
	scripted_model_serve "$BATS_FILE_TMPDIR/scripts" "$dir" --fault 429@2
	URL=$(cat "$dir/model.url") LOG=$dir/requests.jsonl
	first=$(chat_body "$WORK" 0 "") second=$(chat_body "$WORK" 1 "")
	curl -sS -o /dev/null -I "${URL%/v1}/api/hello"
	curl -sS -o /dev/null "$URL/responses"
	post /chat/completions '{"model": "pc-e2e-scripted/extractor", "messages": []}'
	post /chat/completions "$first"
	[[ $code == 200 ]] || fail "1st agent request: $code $output"
	for try in 1 2 3; do
		post /chat/completions "$second"
		[[ $code == 429 ]] || fail "2nd agent request, try $try: $code $output"
		grep -qi '^retry-after: 1' "$T/headers" || fail "no Retry-After: $(cat "$T/headers")"
	done
	post /chat/completions "$(chat_body "$WORK" 2 "")"
	[[ $code == 200 ]] || fail "3rd agent request: $code $output"
	post /chat/completions "$first"
	[[ $code == 200 ]] || fail "the 1st again: $code $output"
	kill "$(cat "$dir/model.pid")"
	[[ $(jq -r '"\(.status) \(.fault) \(.fault_at)"' "$LOG" | paste -sd,) == \
		"200 null null,426 null null,"*",200 null null,429 rate-limit 2,429 rate-limit 2,429 rate-limit 2,200 null null,200 null null" ]] ||
		fail "log: $(jq -c '{status, fault, fault_at}' "$LOG")"
}

@test "scripted dialects: a malformed FAULT, or one without the scripted model, is refused with 64 by paired before OUTPUT" {
	local bad
	for bad in 429 429@0 429@x teapot@3 cut@-1; do
		OUTPUT=$T/out run --separate-stderr "$REPO/pc-e2e" paired FAULT="$bad"
		[[ $status == 64 && ${stderr_lines[0]} == "paired: FAULT=$bad: not KIND@N, KIND one of 500, 503, 429, 429-quota, cut, stall and N a request number from 1" ]] ||
			fail "FAULT=$bad: $status $stderr"
		[[ ! -e $T/out ]] || fail "FAULT=$bad: OUTPUT made"
	done
	OUTPUT=$T/out run --separate-stderr "$REPO/pc-e2e" paired MODEL= FAULT=cut@1
	[[ $status == 64 && ${stderr_lines[0]} == "paired: FAULT=cut@1 is played by the scripted model: set MODEL=scripted" ]] ||
		fail "MODEL= FAULT=cut@1: $status $stderr"
	[[ ! -e $T/out ]] || fail "OUTPUT made"
}

@test "scripted dialects: a v1 script, or a turn that is not one action, is refused when the scripts load, by file and field" {
	mkdir -p "$T/bad"
	jq '.schema = "pc-e2e.model-script/v1"' "$BATS_FILE_TMPDIR/scripts/$W.json" >"$T/bad/$W.json"
	run python3 "$REPO/pipelines/scripted-model" "$T/bad" "$T/url" "$T/log"
	assert_failure
	assert_output "$T/bad/$W.json: not a pc-e2e.model-script/v2 for workload $W (schema 'pc-e2e.model-script/v1')"
	jq '.sessions[0].turns[2].run = "ls"' "$BATS_FILE_TMPDIR/scripts/$W.json" >"$T/bad/$W.json"
	run python3 "$REPO/pipelines/scripted-model" "$T/bad" "$T/url" "$T/log"
	assert_output "$T/bad/$W.json: sessions[0].turns[2]: a turn has exactly one of run, write, answer, fail, this one ['run', 'answer']"
	jq '.sessions[0].turns[1].write.path = "relative.txt"' "$BATS_FILE_TMPDIR/scripts/$W.json" >"$T/bad/$W.json"
	run python3 "$REPO/pipelines/scripted-model" "$T/bad" "$T/url" "$T/log"
	assert_output --partial "sessions[0].turns[1].write: {path, content}, an absolute path"
	jq '.sessions[2].turns[0].fail.fault = "teapot"' "$BATS_FILE_TMPDIR/scripts/$W.json" >"$T/bad/$W.json"
	# a fault it knows would be served: bounded, so the test fails instead
	run timeout 10 python3 "$REPO/pipelines/scripted-model" "$T/bad" "$T/url" "$T/log"
	assert_output --partial "sessions[2].turns[0].fail: {fault, retry_after?}, fault one of server-error, overloaded, rate-limit, quota-exhausted, cut, stall"
	[[ ! -e $T/url ]] || fail "a bad script was served"
}

# host_binary HOST PATH: the binary at PATH (a glob) under the directory
# pipelines/pc-powercontext HOST provisions; says why on stderr and fails
# when it has none (a host that cannot be provisioned fails the test).
host_binary() {
	local dir bin
	if ! dir=$("$REPO/pipelines/pc-powercontext" "$1" 2>"$T/provision.err"); then
		echo "pipelines/pc-powercontext $1 could not provision the host: $(tail -5 "$T/provision.err")" >&2
		return 1
	fi
	bin=$(find "$dir" -path "$2" -type f | head -1)
	[[ -x $bin ]] || {
		echo "pipelines/pc-powercontext $1 printed $dir, which holds no $2" >&2
		return 1
	}
	echo "$bin"
}

@test "the real Codex, without plugin, runs the script's command, writes its file and answers through the Responses API" {
	local codex
	codex=$(host_binary codex '*/codex_cli_bin/bin/codex') || return 1
	rm -rf "$BATS_FILE_TMPDIR/ws"/* "$T/home"
	mkdir -p "$T/home"
	printf 'openai_base_url = "%s"\n' "$URL" >"$T/home/config.toml"
	echo '{"OPENAI_API_KEY": "x"}' >"$T/home/auth.json"
	(cd "$BATS_FILE_TMPDIR/ws" && CODEX_HOME=$T/home OPENAI_API_KEY=x timeout 120 "$codex" exec \
		--dangerously-bypass-approvals-and-sandbox --skip-git-repo-check --model "${MODEL#pc-e2e-scripted/}" --json \
		--enable unified_exec -c model_reasoning_effort=medium -- "$WORK" </dev/null >"$T/codex.out" 2>&1) ||
		fail "codex: $(cat "$T/codex.out")"
	[[ $(cat "$BATS_FILE_TMPDIR/ws/run.txt") == run-ok ]] || fail "no run: $(cat "$T/codex.out")"
	jq -j '.sessions[0].turns[1].write.content' "$BATS_FILE_TMPDIR/scripts/$W.json" >"$T/expected"
	cmp "$T/expected" "$BATS_FILE_TMPDIR/ws/written.txt" || fail "no write: $(cat "$T/codex.out")"
	grep -q '"text":"Done: the run and the write."' "$T/codex.out" || fail "no answer: $(cat "$T/codex.out")"
	[[ $(grep '"type":"turn.completed"' "$T/codex.out" | jq '.usage | .input_tokens > 0 and .cached_input_tokens > 0
		and .output_tokens > 0') == true ]] || fail "usage: $(cat "$T/codex.out")"
	# a rate limit on every retry fails the turn and the exit status
	(cd "$BATS_FILE_TMPDIR/ws" && CODEX_HOME=$T/home OPENAI_API_KEY=x timeout 120 "$codex" exec \
		--dangerously-bypass-approvals-and-sandbox --skip-git-repo-check --model "${MODEL#pc-e2e-scripted/}" --json \
		-- "Fail with rate-limit." </dev/null >"$T/codex.out" 2>&1) && fail "codex exited 0: $(cat "$T/codex.out")"
	grep -q '"type":"turn.failed".*429 Too Many Requests' "$T/codex.out" || fail "not a 429: $(cat "$T/codex.out")"
}

@test "the real Claude Code, without plugin, runs the script's command, writes its file and answers through the Messages API" {
	local claude
	claude=$(host_binary claude-code '*/claude_agent_sdk/_bundled/claude') || return 1
	rm -rf "$BATS_FILE_TMPDIR/ws"/* "$T/home"
	mkdir -p "$T/home/config"
	(cd "$BATS_FILE_TMPDIR/ws" && HOME=$T/home CLAUDE_CONFIG_DIR=$T/home/config IS_SANDBOX=1 \
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 ANTHROPIC_BASE_URL=${URL%/v1} \
		ANTHROPIC_API_KEY=x ANTHROPIC_MODEL=$MODEL timeout 120 "$claude" --verbose --output-format=stream-json \
		--effort medium --permission-mode=bypassPermissions --print -- "$WORK" </dev/null >"$T/claude.out" 2>&1) ||
		fail "claude: $(cat "$T/claude.out")"
	[[ $(cat "$BATS_FILE_TMPDIR/ws/run.txt") == run-ok ]] || fail "no run: $(cat "$T/claude.out")"
	jq -j '.sessions[0].turns[1].write.content' "$BATS_FILE_TMPDIR/scripts/$W.json" >"$T/expected"
	cmp "$T/expected" "$BATS_FILE_TMPDIR/ws/written.txt" || fail "no write: $(cat "$T/claude.out")"
	[[ $(grep '"type":"result"' "$T/claude.out" | jq -r '[.result, .usage.input_tokens > 0,
		.usage.cache_read_input_tokens > 0, .usage.output_tokens > 0] | join(",")') == \
		"Done: the run and the write.,true,true,true" ]] || fail "result: $(cat "$T/claude.out")"
	# a server error on every retry (bounded to one) fails the session and the exit status
	(cd "$BATS_FILE_TMPDIR/ws" && HOME=$T/home CLAUDE_CONFIG_DIR=$T/home/config IS_SANDBOX=1 CLAUDE_CODE_MAX_RETRIES=1 \
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 ANTHROPIC_BASE_URL=${URL%/v1} \
		ANTHROPIC_API_KEY=x ANTHROPIC_MODEL=$MODEL timeout 120 "$claude" --verbose --output-format=stream-json \
		--print -- "Fail with server-error." </dev/null >"$T/claude.out" 2>&1) && fail "claude exited 0: $(cat "$T/claude.out")"
	[[ $(grep -c '"subtype":"api_retry".*"error_status":500' "$T/claude.out") == 1 ]] ||
		fail "not one retry: $(cat "$T/claude.out")"
}
