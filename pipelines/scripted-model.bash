# scripted-model.bash — run pipelines/scripted-model for the rest of this
# shell, and point Bub, Codex, Claude Code and the PowerContext Server at it (sourced by
# pipelines/run.bash for MODEL=scripted, and pipelines/unit-run). PROG, the
# caller's name, begins each message.

# The model the Server's Memory extractor runs on with the scripted model;
# openai-chat: is the chat-completions client (openai: would be the
# Responses API).
scripted_model_extractor=openai-chat:pc-e2e-scripted/extractor

# scripted_model_refuse_remote PROG: every endpoint the caller set for a
# model must be on loopback: a scripted run talks to no provider.
scripted_model_refuse_remote() {
	local prog=$1 name value
	# the host alone decides, as pc-run-bub's check does: 127.x.y.z, localhost, [::1]
	local loopback='^http://(127(\.[0-9]+){3}|localhost|\[::1\])(:[0-9]+)?(/|$)'
	while IFS= read -r name; do
		value=${!name}
		if [[ -n $value && ! $value =~ $loopback ]]; then
			echo "$prog: MODEL=scripted talks to no provider, but $name is $value; unset it" >&2
			exit 64
		fi
	done < <(compgen -e | grep -E '^(BUB_|OPENAI_|ANTHROPIC_|POWERCONTEXT_SERVER_INFERENCE_).*(_BASE|_BASE_URL|_URL)$' || true)
}

# scripted_model_check_fault PROG PROGRAM MODEL: FAULT, when set, is KIND@N
# (PROGRAM --check-fault) and MODEL is scripted; FAULT is then exported for
# the units. Else exit 64 naming it.
scripted_model_check_fault() {
	local prog=$1 program=$2 model=$3 why
	[ -n "${FAULT:-}" ] || return 0
	[ "$model" = scripted ] ||
		{ echo "$prog: FAULT=$FAULT is played by the scripted model: set MODEL=scripted" >&2; exit 64; }
	why=$(python3 "$program" --check-fault "$FAULT" 2>&1) ||
		{ echo "$prog: ${why#scripted-model: }" >&2; exit 64; }
	export FAULT
}

# scripted_model_start PROGRAM SCRIPTS DIR PROG [FAULT]: start PROGRAM
# (pipelines/scripted-model) (its URL in DIR/url, every request in
# DIR/requests.jsonl; with FAULT, KIND@N, faulting its Nth agent request),
# stop it when this shell exits, and export the settings that use it.
scripted_model_start() {
	local program=$1 scripts=$2 dir=$3 prog=$4 fault=${5:-} i
	mkdir -p "$dir"
	rm -f "$dir/url"
	python3 "$program" "$scripts" "$dir/url" "$dir/requests.jsonl" ${fault:+--fault "$fault"} \
		2>"$dir/stderr.txt" &
	SCRIPTED_MODEL_PID=$!
	trap 'kill "$SCRIPTED_MODEL_PID" 2>/dev/null; wait "$SCRIPTED_MODEL_PID" 2>/dev/null' EXIT
	for ((i = 0; i < 100; i++)); do
		[ -s "$dir/url" ] && break
		kill -0 "$SCRIPTED_MODEL_PID" 2>/dev/null || { cat "$dir/stderr.txt" >&2; exit 1; }
		sleep 0.1
	done
	[ -s "$dir/url" ] || { echo "$prog: the scripted model did not start" >&2; exit 1; }
	local url
	url=$(cat "$dir/url")
	echo "$prog: scripted model at $url, requests in $dir/requests.jsonl" >&2
	# Nothing of the caller's model settings may send a request elsewhere,
	# even to another server on loopback.
	local name
	while IFS= read -r name; do
		unset "$name"
	done < <(compgen -e | grep -E '^(OPENAI_|ANTHROPIC_|POWERCONTEXT_SERVER_INFERENCE_)' || true)
	# Bub: the model itself comes per workload from pc-run-bub --model-scripts.
	export BUB_API_BASE=$url BUB_API_KEY=scripted-model-takes-no-key
	unset BUB_MODEL
	# The Server's Memory extractor, OPENAI_BASE_URL for releases without a
	# generation base URL setting.
	export POWERCONTEXT_SERVER_INFERENCE_GENERATION_MODEL=$scripted_model_extractor
	export OPENAI_BASE_URL=$url OPENAI_API_KEY=scripted-model-takes-no-key
	# Codex reads the two above (its openai_base_url ends in /v1); Claude Code
	# adds /v1/messages to its base URL itself.
	export ANTHROPIC_BASE_URL=${url%/v1} ANTHROPIC_API_KEY=scripted-model-takes-no-key
}
