# Execution-stage helpers of the pc-e2e bats suites (run.bats, acp.bats, …):
# real PowerContext Servers of the PowerContext under test per test file
# (POWERCONTEXT_E2E_VERSION, default the newest release), selections,
# pc-run-bub runs on that release's real Bub and plugin or on the independent
# ACP test peer (tests/peers/acp_peer.py), and the evidence those runs leave
# behind.
#
# Load after test_helper:
#   load test_helper
#   load exec_helper
#   setup_file()    { exec_setup_file server [auth=TOKEN]...; }
#   teardown_file() { exec_teardown_file; }
#   setup()         { exec_setup; }
#
# Variables a test sees after exec_setup:
#   T         $BATS_TEST_TMPDIR (from pc_setup); the working directory is $REPO
#   OUT       $T/out, the --output directory the helpers pass to the filters
#   POWERCONTEXT_CLIENT_SERVER_URL  the file's unauthenticated server (unset in a
#             file that started none: exec_setup_file without SPEC)
#   POWERCONTEXT_E2E_BUB  the release's Bub (pipelines/pc-powercontext bub)
#   TMPDIR    $T/tmp, so a default pc-run-bub output directory stays visible

# The venv's interpreter runs the peer directly: agents run with a clean
# environment inside the sandbox, where the sh wrappers (which call pc-venv)
# have no business.
EXEC_PYTHON="$REPO/.venv/bin/python"
EXEC_PEER_SCRIPT="$REPO/tests/peers/acp_peer.py"
# shellcheck disable=SC2034  # used by the .bats files that load this helper
EXEC_TASKS="$REPO/manifests/harbor-tasks"
# Upper bound (seconds) on one filter or pipeline run: a hang fails the test
# (exit 124) instead of stalling the suite. Not a timing assertion.
EXEC_LIMIT="${PC_E2E_TEST_LIMIT:-300}"

# ---- servers (setup_file / teardown_file) ----

# exec_setup_file SPEC...: build or reuse the venvs once (the peer's, the
# release's Server and Bub), then start one PowerContext Server per SPEC, in
# parallel. SPEC is NAME (auth off) or NAME=TOKEN (bearer auth with TOKEN);
# its state is $BATS_FILE_TMPDIR/NAME.
exec_setup_file() {
	local spec name token pid rc=0
	local -a pids=()
	"$REPO/pipelines/pc-venv" >/dev/null 3>&- || {
		echo "exec_setup_file: pipelines/pc-venv failed" >&2
		return 1
	}
	EXEC_BUB=$("$REPO/pipelines/pc-powercontext" bub 3>&-) || {
		echo "exec_setup_file: pipelines/pc-powercontext bub failed: the real Bub is not available" >&2
		return 1
	}
	export EXEC_BUB
	EXEC_SERVERS=()
	for spec in "$@"; do
		name=${spec%%=*}
		token=
		[[ $spec == *=* ]] && token=${spec#*=}
		EXEC_SERVERS+=("$name")
		# fd 3 closed: the server must not keep bats' output open.
		POWERCONTEXT_CLIENT_API_TOKEN="$token" "$REPO/pipelines/pc-server" start \
			"$BATS_FILE_TMPDIR/$name" >"$BATS_FILE_TMPDIR/$name.start.out" \
			2>"$BATS_FILE_TMPDIR/$name.start.err" 3>&- &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=1
	done
	for name in "${EXEC_SERVERS[@]}"; do
		if [[ ! -s "$BATS_FILE_TMPDIR/$name/url" ]]; then
			echo "exec_setup_file: server $name did not start:" >&2
			cat "$BATS_FILE_TMPDIR/$name.start.err" >&2
			rc=1
		fi
	done
	printf '%s\n' "${EXEC_SERVERS[@]}" >"$BATS_FILE_TMPDIR/servers"
	return "$rc"
}

exec_teardown_file() {
	local name
	[[ -r "$BATS_FILE_TMPDIR/servers" ]] || return 0
	while read -r name; do
		[[ -n $name ]] || continue
		"$REPO/pipelines/pc-server" stop "$BATS_FILE_TMPDIR/$name" 3>&- || true
	done <"$BATS_FILE_TMPDIR/servers"
}

# exec_server_url NAME: the URL of this file's server NAME.
exec_server_url() {
	local f="$BATS_FILE_TMPDIR/$1/url"
	[[ -s $f ]] || fail "server $1 is not running (no $f)"
	cat "$f"
}

# exec_fake_server MODE: the fake Server (tests/peers/fake_server.py) in
# MODE, its URL in POWERCONTEXT_CLIENT_SERVER_URL, its pid in FAKE_PID;
# exec_fake_server_stop (from teardown) ends it.
exec_fake_server() {
	local i
	FAKE_MODE=$1 python3 "$REPO/tests/peers/fake_server.py" "$T/fake-url" 3>&- &
	FAKE_PID=$!
	for ((i = 0; i < 100; i++)); do
		[[ -s $T/fake-url ]] && break
		sleep 0.05
	done
	POWERCONTEXT_CLIENT_SERVER_URL=$(<"$T/fake-url") || fail "the fake server did not start"
}

exec_fake_server_stop() {
	if [[ -n ${FAKE_PID:-} ]]; then kill "$FAKE_PID" 2>/dev/null || true; fi
}

# exec_assert_orphan_stopped [PC-RUN-BUB ARGS...]: an agent that starts a
# setsid child, then hangs past failure-policy-timeout's deadline, ends in a
# failed record naming the timeout, with the peer and the child gone.
exec_assert_orphan_stopped() {
	exec_select failure-policy-timeout
	exec_peer hang
	# a unique duration marks the child (sleep takes no other argument)
	local marker="300.$RANDOM$RANDOM"
	exec_run_bub "$T/selection.jsonl" "$@" --agent "setsid sleep $marker & $PEER_AGENT"
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "$(rec '{status, errors}')"
	assert_contains "$(rec_r '.errors[]')" "step run: AgentTimeoutError"
	assert_peer_gone
	sleep 1
	! pgrep -f "sleep $marker" >/dev/null || fail "the agent's setsid child outlived the sandbox: $(pgrep -af "sleep $marker")"
}

# exec_closed_url: an http URL on a loopback port nobody listens on.
exec_closed_url() {
	local port
	port=$("$EXEC_PYTHON" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()')
	printf 'http://127.0.0.1:%s\n' "$port"
}

# exec_release: the PowerContext release under test (pipelines/pc-powercontext commit).
exec_release() {
	"$REPO/pipelines/pc-powercontext" commit
}

# exec_creates_scopes: whether that release requires scopes to be created (0.2.0+).
exec_creates_scopes() {
	[[ $(printf '%s\n' 0.2.0 "$(exec_release)" | sort -V | head -n 1) == 0.2.0 ]]
}

# ---- per test ----

exec_setup() {
	local f
	pc_setup
	for f in pc-run-bub pc-normalize; do
		[[ -x "$PC_BIN/$f" ]] || fail "$PC_BIN/$f is missing: run make first"
	done
	[[ -x $EXEC_PYTHON ]] || fail "$EXEC_PYTHON is missing: pipelines/pc-venv did not run"
	# The caller's agent choice, model, sandbox and client settings must not
	# steer the runs under test.
	while read -r f; do
		case "$f" in
		PC_E2E_AGENT | PC_E2E_PROGRESS | PC_E2E_SANDBOX_BINDS | BUB_* | POWERCONTEXT_BUB_* | POWERCONTEXT_CLIENT_* | \
			POWERCONTEXT_E2E_BUB | POWERCONTEXT_E2E_COMMIT)
			unset "$f" ;;
		esac
	done < <(compgen -e)
	export POWERCONTEXT_E2E_BUB="$EXEC_BUB"
	OUT="$T/out"
	export TMPDIR="$T/tmp"
	mkdir -p "$TMPDIR"
	# the file's server "server", unless the file started none (its
	# pipelines start their own)
	if [[ -s $BATS_FILE_TMPDIR/servers && -n $(<"$BATS_FILE_TMPDIR/servers") ]]; then
		POWERCONTEXT_CLIENT_SERVER_URL=$(exec_server_url server) || return 1
		export POWERCONTEXT_CLIENT_SERVER_URL
	fi
}

# exec_select ID [FILE]: the selection line of workload ID from the
# repository's catalog into FILE (default $T/selection.jsonl).
exec_select() {
	local file="${2:-$T/selection.jsonl}"
	run --separate-stderr pc-select --manifests "$REPO/manifests" --root "$REPO" --id "$1"
	assert_exit 0
	save_stdout "$file"
}

# exec_select_alone ID [FILE]: exec_select, its workload out of any
# batch:<name> group, so that copies of it run one by one (a batch may not
# hold one workload twice).
exec_select_alone() {
	local file="${2:-$T/selection.jsonl}"
	exec_select "$1" "$file"
	jq -c '.workload.categories |= map(select(startswith("batch:") | not))' "$file" >"$file.alone"
	mv "$file.alone" "$file"
}

# exec_select_release PC-SELECT-ARGS...: the selection (--id ID,
# --category batch:NAME, ...) from the catalog of the release under test
# (its sdist, provisioned by pipelines/pc-powercontext) into
# $T/selection.jsonl.
exec_select_release() {
	local source
	source=$("$REPO/pipelines/pc-powercontext" source 3>&-) || fail "pipelines/pc-powercontext source failed"
	run --separate-stderr pc-select --manifests "$source/e2e/bub/tasks" --root "$source" "$@"
	assert_exit 0
	save_stdout "$T/selection.jsonl"
}

# assert_scopes_bound ID...: in the merged batch of $T/records.jsonl, each
# agent invocation of each workload ID ran on that workload's Scope (as the
# ACP peer's PEER_ENV_SEEN=/logs/agent/env-seen.txt noted it).
assert_scopes_bound() {
	local id scope step seen
	for id in "$@"; do
		scope=$(rec_r "select(.workload.id == \"$id\") | .scope_id")
		for step in $(rec_r "select(.workload.id == \"$id\") | .batch.steps[]"); do
			seen="$(trial_dir)/steps/$step/agent/env-seen.txt"
			grep -qx "POWERCONTEXT_BUB_SCOPE_ID=$scope" "$seen" ||
				fail "step $step ran on $(cat "$seen" 2>&1), not $id's scope $scope"
		done
	done
}

# exec_assert_release_batch RUNNER: the release's own batch:acceptance group
# (3 workloads, 4 agent invocations) as one trial of one job on RUNNER, each
# invocation bound to its member's Scope, each member naming its own pinned
# task checksum; then under fail-fast, with an agent whose every session
# fails, project-database-decision's first step scores 0 and stops the
# trial there, the two other members skipped.
exec_assert_release_batch() {
	local runner=$1
	exec_select_release --category batch:acceptance
	exec_peer echo PEER_ENV_SEEN=/logs/agent/env-seen.txt
	exec_run_bub "$T/selection.jsonl" --runner "$runner" --agent "$PEER_AGENT"
	run jq -sc '[(map(.run_id) | unique | length), (map(.trial_dir) | unique | length), (map(.scope_id) | unique | length), map(.batch.source_task_checksum == .workload.dataset.checksum)]' "$T/records.jsonl"
	assert_output '[1,1,3,[true,true,true]]'
	run bash -c "find '$OUT/batch-acceptance/harbor-jobs' -mindepth 3 -maxdepth 3 -name result.json | wc -l"
	assert_output 1
	run jq -c '[.step_results[].step_name]' "$(trial_dir)/result.json"
	assert_output '["project-database-decision-capture","project-database-decision-recall","failure-policy-timeout-run","failure-policy-followup-run"]'
	assert_scopes_bound project-database-decision failure-policy-followup
	exec_peer crash
	rm -rf "$OUT"
	exec_run_bub "$T/selection.jsonl" --runner "$runner" --agent "$PEER_AGENT" --failure-policy fail-fast
	run rec '[.workload.id, .status]'
	assert_output '["project-database-decision","failed"]
["failure-policy-timeout","skipped"]
["failure-policy-followup","skipped"]'
	run jq -c '[.step_results[] | [.step_name, .verifier_result.rewards.reward]]' "$(trial_dir)/result.json"
	assert_output '[["project-database-decision-capture",0]]'
}

# exec_assert_step_failure_marker RUNNER: on the release's own
# project-database-decision, whose verifiers score 0 while
# /logs/agent/powercontext-step-failed exists, a session that fails leaves
# the marker and scores 0, one that succeeds removes it and scores 1 and
# finds /tests empty (1.4.1 empties it before each session).
exec_assert_step_failure_marker() {
	local runner=$1 trial
	exec_select_release --id project-database-decision
	exec_peer crash
	exec_run_bub "$T/selection.jsonl" --runner "$runner" --agent "$PEER_AGENT"
	trial=$(trial_dir 0)
	[[ -e $trial/steps/capture/agent/powercontext-step-failed ]] ||
		fail "a failed session left no step-failure marker: $(find "$trial/steps/capture" | head -20)"
	run jq -c '.step_results[0].verifier_result.rewards.reward' "$trial/result.json"
	assert_output 0
	exec_peer echo PEER_TESTS_SEEN=/logs/agent/tests-seen.txt
	exec_run_bub "$T/selection.jsonl" --runner "$runner" --agent "$PEER_AGENT"
	trial=$(trial_dir 0)
	run find "$trial/steps" -name powercontext-step-failed
	assert_output ""
	run jq -c '[.step_results[] | .verifier_result.rewards.reward]' "$trial/result.json"
	assert_output "[1,1]"
	# no agent reads the verifier's tests, an earlier step's included
	assert_files "$trial/steps/capture/agent/tests-seen.txt" "$trial/steps/recall/agent/tests-seen.txt"
	run cat "$trial/steps/capture/agent/tests-seen.txt" "$trial/steps/recall/agent/tests-seen.txt"
	assert_output ""
}

# exec_peer MODE [NAME=VALUE...]: sets PEER_AGENT, an --agent command running
# the ACP test peer in MODE (extra environment inside the sandbox as given),
# and PEER_MARKER, a word on its command line unique to this call, so that
# exec_assert_peer_gone finds exactly its processes.
# PEER_SLEEP bounds hang/close peers that somehow survive.
exec_peer() {
	local mode=$1
	shift
	PEER_MARKER="pc-e2e-peer-${BATS_SUITE_TEST_NUMBER:-0}-$RANDOM$RANDOM"
	# shellcheck disable=SC2034  # the result, read by the calling test
	PEER_AGENT="env PEER_MODE=$mode PEER_SLEEP=120 $* '$EXEC_PYTHON' '$EXEC_PEER_SCRIPT' $PEER_MARKER"
	# the sandbox binds a provisioned Bub's venv, never the project: the
	# peer's venv and script are named for it
	export PC_E2E_SANDBOX_BINDS="${EXEC_PYTHON%/bin/python}:${EXEC_PEER_SCRIPT%/*}"
}

# exec_paired_setup TOKEN: exec_setup for a paired suite: the client's
# TOKEN, the peer's model, and $ID selected into $T/selection.jsonl.
exec_paired_setup() {
	exec_setup
	export POWERCONTEXT_CLIENT_API_TOKEN=$1 BUB_MODEL=openai:pc-e2e-peer
	run --separate-stderr pc-select --manifests "$REPO/manifests/paired" --root "$REPO" --id "$ID"
	assert_exit 0
	save_stdout "$T/selection.jsonl"
}

# exec_run_bub SELECTION [PC-RUN-BUB ARGS...]: pc-run-bub --output "$OUT" on
# SELECTION, under the hang guard; its stdout also in $T/records.jsonl, whose
# records must be valid run records whatever happened; $status is pc-run-bub's.
exec_run_bub() {
	local sel=$1 rc
	shift
	run --separate-stderr timeout -k 10 "$EXEC_LIMIT" pc-run-bub --output "$OUT" "$@" <"$sel"
	save_stdout "$T/records.jsonl"
	rc=$status
	if [[ -s "$T/records.jsonl" ]]; then
		schema_ok e2e-run "$T/records.jsonl"
	fi
	status=$rc
}

# rec FILTER [JQ ARGS...]: FILTER over the records of the last exec_run_bub, compact.
rec() {
	local filter=$1
	shift
	jq -c "$@" "$filter" "$T/records.jsonl"
}

# rec_r FILTER: the same, raw strings.
rec_r() {
	jq -r "$1" "$T/records.jsonl"
}

# trial_dir [N]: the trial directory of record N (default the first).
trial_dir() {
	jq -rs --argjson n "${1:-0}" '.[$n].trial_dir' "$T/records.jsonl"
}

# exec_normalize [ARGS...]: pc-normalize over $T/records.jsonl, which must
# succeed with valid replays, into $T/replays.jsonl.
# shellcheck disable=SC2120  # ARGS are optional
exec_normalize() {
	run --separate-stderr timeout -k 10 "$EXEC_LIMIT" pc-normalize "$@" <"$T/records.jsonl"
	assert_exit 0
	save_stdout "$T/replays.jsonl"
	schema_ok e2e-evidence "$T/replays.jsonl"
}

# exec_evaluate [ARGS...]: pc-evaluate over $T/replays.jsonl into
# $T/evals.jsonl, which must be valid whatever the verdict; $status is
# pc-evaluate's.
# shellcheck disable=SC2120  # ARGS are optional
exec_evaluate() {
	run --separate-stderr timeout -k 10 "$EXEC_LIMIT" pc-evaluate "$@" <"$T/replays.jsonl"
	save_stdout "$T/evals.jsonl"
	local rc=$status
	schema_ok e2e-evaluation "$T/evals.jsonl"
	status=$rc
}

# exec_report [ARGS...]: pc-report over $T/evals.jsonl; stdout in $T/report.txt.
# shellcheck disable=SC2120  # ARGS are optional
exec_report() {
	run --separate-stderr timeout -k 10 "$EXEC_LIMIT" pc-report "$@" <"$T/evals.jsonl"
	save_stdout "$T/report.txt"
}

# assert_files PATH...: each PATH is a regular file.
assert_files() {
	local f
	for f in "$@"; do
		[[ -f $f ]] || fail "missing file: $f"
	done
}

# assert_json_file PATH...: each PATH holds exactly one JSON object.
assert_json_files() {
	local f
	for f in "$@"; do
		[[ -f $f ]] || fail "missing file: $f"
		[[ $(jq -s 'length == 1 and (.[0] | type) == "object"' "$f" 2>/dev/null) == true ]] ||
			fail "$f is not one JSON object"
	done
}

# assert_contains HAYSTACK NEEDLE [WHAT]: NEEDLE is a substring of HAYSTACK.
assert_contains() {
	[[ $1 == *"$2"* ]] || fail "${3:-text} does not contain: $2
--- ${3:-text} ---
$1"
}

# assert_peer_gone: no process of the last exec_peer (peer, sh or bwrap) is left (a peer may take
# a moment to die after its sandbox was killed: poll briefly, then report).
assert_peer_gone() {
	local i
	for ((i = 0; i < 50; i++)); do
		pgrep -f "acp_peer\.py'? $PEER_MARKER" >/dev/null || return 0
		sleep 0.1
	done
	fail "ACP peer processes left behind:
$(pgrep -af "acp_peer\.py'? $PEER_MARKER")"
}

# refute_secret VALUE PATH...: VALUE occurs in no file under the PATHs.
refute_secret() {
	local value=$1 hits
	shift
	hits=$(grep -r -F -l -e "$value" -- "$@" 2>/dev/null) || true
	[[ -z $hits ]] || fail "secret '$value' leaked into:
$hits"
}

# exec_assert_accepted: pc-evaluate on the last replays exits 0 with every
# assertion true, and pc-report counts one accepted workload.
# shellcheck disable=SC2154  # bats' run sets $output
exec_assert_accepted() {
	exec_evaluate
	assert_exit 0
	[[ $(jq -c '[.cases[0].assertions[] | .value] | all' "$T/evals.jsonl") == true ]] ||
		fail "not every assertion is true: $(jq -c '.cases[0].assertions | map_values(.value)' "$T/evals.jsonl")"
	exec_report
	assert_exit 0
	assert_contains "$output" "1 accepted" "report"
}

# exec_assert_inconclusive: the last records normalize to failed replays and
# pc-evaluate calls the case inconclusive (exit 3, collection_completed false).
exec_assert_inconclusive() {
	exec_normalize
	[[ $(jq -r .status "$T/replays.jsonl") == failed ]] || fail "replay not failed"
	exec_evaluate
	assert_exit 3
	[[ $(jq -c '.cases[0].assertions.collection_completed.value' "$T/evals.jsonl") == false ]] ||
		fail "collection_completed is not false"
}
