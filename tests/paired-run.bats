#!/usr/bin/env bats
# pc-run-bub --paired and pc-normalize --paired (docs/DESIGN.md §11.5): the
# checks before the first arm, and each arm's outcome by PowerContext
# 1.4.1's rules, on real Servers of the release under test (authenticated,
# access mode enforced) with the independent ACP test peer as the agent of
# both arms; a real Bub's arms, ON passing and OFF failing, are `make
# paired`'s (.ci/run cross-checks them against the release's own code).

load test_helper
load exec_helper

ID=api-version-continuation
TOKEN=pc-e2e-paired-test-token-8c41f0d2

# start NAME [NAME=VALUE...]: a Server of the release under test in the
# background, its state in $BATS_FILE_TMPDIR/NAME, with the settings given.
start() {
	local name=$1
	shift
	env "$@" "$REPO/pipelines/pc-server" start "$BATS_FILE_TMPDIR/$name" \
		>"$BATS_FILE_TMPDIR/$name.start.out" 2>"$BATS_FILE_TMPDIR/$name.start.err" 3>&- &
}

setup_file() {
	exec_setup_file
	# "server": what a paired run needs; "open": no authentication;
	# "plain": authenticated, but no generation model, so no extraction.
	# The extractor's endpoint is never called: no test here captures.
	local model=(POWERCONTEXT_SERVER_INFERENCE_GENERATION_MODEL=openai-chat:pc-e2e-scripted/extractor
		OPENAI_BASE_URL=http://127.0.0.1:9/v1 OPENAI_API_KEY=scripted-model-takes-no-key)
	start server POWERCONTEXT_CLIENT_API_TOKEN=$TOKEN POWERCONTEXT_E2E_ACCESS_MODE=enforced "${model[@]}"
	start open POWERCONTEXT_CLIENT_API_TOKEN= "${model[@]}"
	start plain POWERCONTEXT_CLIENT_API_TOKEN=$TOKEN POWERCONTEXT_E2E_ACCESS_MODE=enforced
	wait
	printf '%s\n' server open plain >"$BATS_FILE_TMPDIR/servers"
	local name
	for name in server open plain; do
		[[ -s $BATS_FILE_TMPDIR/$name/url ]] || {
			cat "$BATS_FILE_TMPDIR/$name.start.err" >&2
			return 1
		}
	done
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_paired_setup "$TOKEN"
}

teardown() {
	if [[ -n ${PROXY_PID:-} ]]; then kill "$PROXY_PID" 2>/dev/null || true; fi
}

# paired ARGS...: pc-run-bub --paired --trials 1 with the peer agent, then
# pc-normalize --paired into $OUT; the observations in $T/observations.jsonl.
paired() {
	exec_run_bub "$T/selection.jsonl" --paired --trials 1 --agent "$PEER_AGENT" "$@"
	assert_exit 0
	[[ $(wc -l <"$T/records.jsonl") == 2 ]] || fail "$(wc -l <"$T/records.jsonl") records for one trial's two arms"
	run --separate-stderr timeout -k 10 "$EXEC_LIMIT" pc-normalize --paired --output "$OUT" <"$T/records.jsonl"
	assert_exit 0
	save_stdout "$T/observations.jsonl"
	schema_ok e2e-paired-arm "$T/observations.jsonl"
	assert_files "$OUT/$ID/trial-1/off/observation.json" "$OUT/$ID/trial-1/on/observation.json"
}

# arm ARM FILTER: FILTER over ARM's observation, raw.
arm() {
	jq -r "$2" "$OUT/$ID/trial-1/$1/observation.json"
}

# refused WHAT: pc-run-bub --paired exited 1 naming WHAT, before anything ran.
refused() {
	assert_exit 1
	assert_stderr_contains "$1"
	assert_stdout_empty
	[[ ! -e $OUT/$ID ]] || fail "an arm ran: $(find "$OUT/$ID" | head -5)"
}

@test "a Server that lists its Scopes without a token is refused before the first arm" {
	POWERCONTEXT_CLIENT_SERVER_URL=$(exec_server_url open)
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --paired --agent "$PEER_AGENT"
	refused "lists its Scopes to a client without a token"
}

@test "a Server without Memory extraction is refused before the first arm" {
	POWERCONTEXT_CLIENT_SERVER_URL=$(exec_server_url plain)
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --paired --agent "$PEER_AGENT"
	refused "does not extract Memory"
}

@test "a workload that is not a paired one, and a host that cannot run here, are refused" {
	exec_peer echo
	exec_select project-database-decision "$T/memory.jsonl"
	exec_run_bub "$T/memory.jsonl" --paired --agent "$PEER_AGENT"
	refused "workload project-database-decision is not an OFF/ON comparison workload"
	POWERCONTEXT_E2E_HOSTS=$("$REPO/pipelines/pc-powercontext" hosts)
	export POWERCONTEXT_E2E_HOSTS
	exec_run_bub "$T/selection.jsonl" --paired --host pi --agent "$PEER_AGENT"
	refused "--host pi cannot run on this machine: pi 0.82.1 (PI_VERSION in e2e/bub/src/powercontext_e2e/harbor_pi.py) needs Node.js and npm's @earendil-works/pi-coding-agent@0.82.1"
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT"
	refused "under --paired: $ID"
}

@test "pipelines/paired's last lines say what the pairs show in words, per workload and in total, with the six discordant pairs the sign test needs, then what the sample could detect; report.md stays the release's" {
	exec_peer echo
	local commit need="the exact sign test needs at least 6 discordant pairs one way at 0.05"
	commit=$("$REPO/pipelines/pc-powercontext" commit)
	# the peer captures nothing: ON fails integration and no pair is scored (exit 2)
	run --separate-stderr env PC_E2E_AGENT="$PEER_AGENT" TRIALS=1 OUTPUT="$T/run" PC_E2E_PROGRESS=0 \
		timeout -k 10 "$EXEC_LIMIT" "$REPO/pipelines/paired" --id "$ID"
	assert_exit 2
	[[ ${lines[-4]} == "## What the pairs show (pc-e2e)" ]] || fail "$(printf '%s\n' "${lines[@]: -4}")"
	[[ ${lines[-3]} == "$ID: no scored pair; too few to show anything: $need" ]] || fail "${lines[-3]}"
	[[ ${lines[-2]} == "All workloads: no scored pair; by workload: no scored workload; too few to show anything: ${need/pairs/workloads}" ]] || fail "${lines[-2]}"
	# then what a sample of this size could detect (docs/DESIGN.md §11.8)
	[[ ${lines[-1]} == "Detectable: 0 workloads, 0 % discordant: none: no discordant workload"* ]] || fail "${lines[-1]}"
	[[ ${stderr_lines[-1]} == "paired: provisioning (PowerContext $commit,"*"; exit 2" ]] || fail "${stderr_lines[-1]}"
	run grep -c -e "What the pairs show" -e "sign test" "$T/run/report.md"
	assert_output 0
	grep -qF "<p class=\"under-test\">PowerContext under test: <code>$commit</code>. Arms ran " "$T/run/report.html" ||
		fail "$(grep -F under-test "$T/run/report.html")"
}

@test "an ON arm whose agent captured nothing failed integration; the OFF arm is scored" {
	exec_peer echo
	paired
	[[ $(rec -r '[.arm.arm, .arm.position, .scope_id != null] | @tsv' | tr '\n' ' ') == "off	1	false on	2	true " ]] ||
		fail "arms: $(rec '[.arm.arm, .arm.position, .scope_id]')"
	[[ $(arm off .outcome) == failed ]] || fail "OFF: $(arm off .outcome)"
	[[ $(arm on .outcome) == integration_failed ]] || fail "ON: $(arm on .outcome)"
	[[ $(arm on '.treatment_failures | join("|")') == "No Sources were captured before the recall session|PowerContext was not asked for context during the recall session" ]] ||
		fail "treatment failures: $(arm on .treatment_failures)"
	[[ $(arm on '[.sessions[].session] | @csv') == 0,1 ]] || fail "sessions: $(arm on .sessions)"
	[[ $(arm off '.sessions | length') == 0 ]] || fail "the OFF arm was observed on the Server"
	run --separate-stderr pc-evaluate --paired --trials 1 <"$T/observations.jsonl"
	assert_exit 2
	[[ $(jq -c '[.total.on.integration_failures, .total.on.scored, .total.off.scored]' <<<"$output") == "[1,0,1]" ]] ||
		fail "summary: $(jq -c .total <<<"$output")"
}

@test "an ON agent that reads another Scope with its token reached another Scope, its audit records listed" {
	local other
	other=$(curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
		-d '{"title":"decoy","summary":"another trial'"'"'s Scope","idempotency_key":"decoy-'"$RANDOM$RANDOM"'"}' \
		"$POWERCONTEXT_CLIENT_SERVER_URL/v1/scopes" | jq -r .scope_id)
	[[ $other == scp_* ]] || fail "no decoy Scope: $other"
	exec_peer read-scope PEER_OTHER_SCOPE="$other"
	paired
	[[ $(arm on .outcome) == cross_scope_access ]] || fail "ON: $(arm on .outcome), outside: $(arm on -c .outside_scope)"
	jq -e --arg s "$other" '[.outside_scope[] | select(.scope_id == $s and .allowed and (.request_rejected | not))] | length > 0' \
		"$OUT/$ID/trial-1/on/observation.json" >/dev/null || fail "no allowed access to $other listed: $(arm on .outside_scope)"
	[[ $(arm off .outcome) == failed ]] || fail "OFF: $(arm off .outcome)"
}

@test "an agent that times out: both arms timeout, scored 0" {
	exec_peer hang
	paired --agent-timeout 2
	[[ $(arm off .outcome) == timeout ]] || fail "OFF: $(arm off .outcome)"
	[[ $(arm on .outcome) == timeout ]] || fail "ON: $(arm on .outcome)"
	run --separate-stderr pc-evaluate --paired --trials 1 <"$T/observations.jsonl"
	assert_exit 0
	[[ $(jq -c '[.total.off.scored, .total.off.timeouts, .total.off.success_rate, .total.on.timeouts, .total.pairs, .total.mean_delta]' <<<"$output") == "[1,1,0,1,1,0]" ]] ||
		fail "summary: $(jq -c .total <<<"$output")"
}

# through_proxy PENDING: the Server behind tests/peers/owner_pending_proxy.py,
# which answers the first PENDING flushes 503 artifact_owner_pending.
through_proxy() {
	python3 "$REPO/tests/peers/owner_pending_proxy.py" "$T/proxy-url" "$POWERCONTEXT_CLIENT_SERVER_URL" "$1" "$T/flushes" 3>&- &
	PROXY_PID=$!
	local i
	for ((i = 0; i < 100; i++)); do
		[[ -s $T/proxy-url ]] && break
		sleep 0.05
	done
	POWERCONTEXT_CLIENT_SERVER_URL=$(<"$T/proxy-url") || fail "the proxy did not start"
}

@test "a flush answered 503 artifact_owner_pending is tried again and the Scope settled" {
	through_proxy 2
	exec_peer echo
	paired
	[[ $(head -n 3 "$T/flushes" | tr '\n' ' ') == "pending pending relayed " ]] || fail "flushes: $(cat "$T/flushes")"
	[[ $(arm on '.sessions[0].flush_rounds') -ge 1 ]] || fail "session 0: $(arm on '.sessions[0]')"
	[[ $(arm on '[.treatment_failures[] | select(startswith("Settling"))] | length') == 0 ]] ||
		fail "recorded as failed: $(arm on .treatment_failures)"
}

@test "a flush that stays artifact_owner_pending is recorded, never raised: the recall session still runs" {
	through_proxy all
	exec_peer echo
	paired
	[[ $(grep -c pending "$T/flushes") == 5 ]] || fail "flushes: $(cat "$T/flushes")"
	assert_contains "$(arm on '.treatment_failures[0]')" "Settling the Scope after session 0 failed: " "first treatment failure"
	assert_contains "$(arm on '.treatment_failures[0]')" "artifact_owner_pending" "first treatment failure"
	[[ $(arm on .outcome) == integration_failed ]] || fail "ON: $(arm on .outcome)"
	[[ $(arm on '.steps | map(.name) | join(",")') == capture,recall ]] || fail "steps: $(arm on .steps)"
	[[ $(arm on '.errors | length') == 0 ]] || fail "raised: $(arm on .errors)"
}

@test "the token reaches the ON agent only, and no file of the output holds it" {
	exec_peer echo PEER_SAY_ENV=1
	paired
	refute_secret "$TOKEN" "$OUT" "$T/records.jsonl" "$T/observations.jsonl"
	refute_secret "$(printf %s "$TOKEN" | base64)" "$OUT"
	local on off
	on=$(find "$OUT/$ID/trial-1/on" -name acp-events.jsonl | head -n 1)
	off=$(find "$OUT/$ID/trial-1/off" -name acp-events.jsonl | head -n 1)
	grep -q 'POWERCONTEXT_BUB_API_TOKEN=' "$on" || fail "the ON agent was not handed the token"
	grep -q 'POWERCONTEXT_BUB_SCOPE_ID=scp_' "$on" || fail "the ON agent was not bound to its Scope"
	! grep -q 'POWERCONTEXT_' "$off" || fail "the OFF agent saw PowerContext settings: $(grep -o 'POWERCONTEXT_[A-Z_]*' "$off" | sort -u | tr '\n' ' ')"
}

@test "--settle: one session settled as one line, a Server that cannot be reached is a line too, exit 0" {
	local scope
	scope=$(curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
		-d '{"title":"settle","summary":"a Scope to settle","idempotency_key":"settle-'"$RANDOM$RANDOM"'"}' \
		"$POWERCONTEXT_CLIENT_SERVER_URL/v1/scopes" | jq -r .scope_id)
	run --separate-stderr pc-run-bub --settle "$scope" --session 0 --flush
	assert_exit 0
	[[ $(jq -c '[.session, .snapshot.flush_rounds >= 1, .snapshot.sources]' <<<"$output") == "[0,true,0]" ]] ||
		fail "settled: $output"
	run --separate-stderr pc-run-bub --settle "$scope" --session 1
	[[ $(jq -c '[.session, .snapshot.flush_rounds]' <<<"$output") == "[1,0]" ]] || fail "without --flush: $output"
	POWERCONTEXT_CLIENT_SERVER_URL=$(exec_closed_url) run --separate-stderr pc-run-bub --settle "$scope" --session 2
	assert_exit 0
	assert_contains "$(jq -r .error <<<"$output")" "POST /v1/stats: cannot reach PowerContext" "error"
	run --separate-stderr pc-run-bub --session 2
	assert_exit 64
	assert_stderr_contains "--session needs --settle"
}

@test "harbor runner: the ON arm's Scope is settled after each session by the job's plugin, as the local runner settles it" {
	POWERCONTEXT_E2E_HARBOR=$("$REPO/pipelines/pc-powercontext" harbor 3>&-) || fail "no Harbor"
	export POWERCONTEXT_E2E_HARBOR
	exec_peer echo
	paired --runner harbor
	[[ $(rec -r '.runner' | sort -u) == harbor ]] || fail "runner: $(rec .runner)"
	local job
	job=$(rec_r 'select(.arm.arm == "on") | .job_dir')
	[[ $(jq -r .session "$job/pc-e2e-sessions.jsonl" | tr '\n' ' ') == "0 1 " ]] ||
		fail "settled: $(cat "$job/pc-e2e-sessions.jsonl" 2>&1)"
	[[ $(arm on '[.sessions[] | [.session, .flush_rounds > 0]] | @json') == '[[0,true],[1,false]]' ]] ||
		fail "sessions: $(arm on -c .sessions)"
	[[ $(arm off '.sessions | length') == 0 && ! -e $(rec_r 'select(.arm.arm == "off") | .job_dir')/pc-e2e-sessions.jsonl ]] ||
		fail "the OFF arm was settled"
}
