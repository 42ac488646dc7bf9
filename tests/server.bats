#!/usr/bin/env bats
# pipelines/pc-server, the real Server of the PowerContext under test on each
# database kind pc-e2e starts itself (docs/DESIGN.md §6): what it refuses, a
# Server that never becomes ready, the database identity it hands on, and a
# seekdb start interrupted midway, which must leave no seekdb behind.

load test_helper

setup() {
	pc_setup
	unset POWERCONTEXT_E2E_DATABASE POWERCONTEXT_E2E_SERVER_READY_TIMEOUT POWERCONTEXT_E2E_OCEANBASE_URL \
		POWERCONTEXT_CLIENT_API_TOKEN POWERCONTEXT_E2E_DATABASE_IDENTITY
	STATE="$T/state"
}

teardown() {
	"$REPO/pipelines/pc-server" stop "$STATE" 3>&- || true
}

# live_naming TEXT: the live processes whose command line holds TEXT (a
# zombie has none).
live_naming() {
	pgrep -f -- "$1" | tr '\n' ' ' || true
}

# assert_nothing_left: no Server is left (found by the ports server.log
# names), no seekdb (whose command line names its data directory), no
# socket directory of seekdb's for this state, no state file of a run.
assert_nothing_left() {
	local i left port d
	local -a patterns=("$STATE/")
	while read -r port; do
		patterns+=("server run --host 127.0.0.1 --port $port\$")
	done < <(sed -n 's/.*starting PowerContext Server on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$STATE/server.log")
	[[ ${#patterns[@]} -gt 1 ]] || fail "server.log names no Server start: $(cat "$STATE/server.log")"
	for ((i = 0; i < 100; i++)); do
		left=
		for d in "${patterns[@]}"; do left+=$(live_naming "$d"); done
		[[ -z $left ]] && break
		sleep 0.1
	done
	[[ -z $left ]] || fail "processes left running: $(ps -o pid,stat,args -p "${left// /,}0" 2>/dev/null)"
	for d in /tmp/pylibseekdb-uds-*; do
		[[ $(readlink -- "$d/run" 2>/dev/null) != "$STATE/home/seekdb/run" ]] || fail "seekdb's socket directory $d is left"
	done
	for d in tmp server.pid url start.out; do
		[[ ! -e $STATE/$d ]] || fail "$STATE/$d is left"
	done
}

@test "pc-server: an unknown database kind is refused before anything starts" {
	run --separate-stderr env POWERCONTEXT_E2E_DATABASE=mongodb "$REPO/pipelines/pc-server" start "$STATE"
	assert_status 1
	assert_stderr_contains "POWERCONTEXT_E2E_DATABASE must be sqlite, seekdb or oceanbase, got 'mongodb'"
	[[ ! -e $STATE/server.pid && ! -e $STATE/server.log && ! -e $STATE/home ]] || fail "something started: $(ls -A "$STATE")"
}

@test "pc-server: seekdb on a release without it fails at once, naming the release and the kind, installing nothing" {
	run --separate-stderr env POWERCONTEXT_E2E_VERSION=0.0.2 POWERCONTEXT_E2E_DATABASE=seekdb \
		make -s -C "$REPO" acceptance OUTPUT="$T/acceptance"
	[[ $status -ne 0 ]] || fail "make acceptance passed"
	assert_stderr_contains "PowerContext 0.0.2 has no seekdb database kind"
	assert_stderr_contains "POWERCONTEXT_E2E_DATABASE=seekdb cannot run on it"
	[[ ! -e $REPO/.tools/powercontext/0.0.2/server-seekdb ]] || fail "a seekdb Server was installed for 0.0.2"
	[[ ! -e $T/acceptance/server ]] || fail "a Server was started"
}

@test "pc-server: a Server that is not ready in time fails with its log's last lines, and nothing is left running" {
	run --separate-stderr env POWERCONTEXT_E2E_SERVER_READY_TIMEOUT=1 "$REPO/pipelines/pc-server" start "$STATE"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "not ready after 1 s; last lines of $STATE/server.log:"
	assert_stderr_contains "starting PowerContext Server on http://127.0.0.1:"
	assert_nothing_left
}

@test "pc-server exec: the command sees the Server's URL and its database identity" {
	run --separate-stderr "$REPO/pipelines/pc-server" exec --state "$STATE" -- \
		sh -c 'printf "%s\n" "$POWERCONTEXT_CLIENT_SERVER_URL" "$POWERCONTEXT_E2E_DATABASE_IDENTITY"'
	assert_status 0
	[[ ${lines[0]} == http://127.0.0.1:* ]] || fail "URL: ${lines[0]}"
	[[ ${lines[1]} =~ ^sqlite\ 3\.[0-9]+\.[0-9]+$ ]] || fail "identity: ${lines[1]}"
	assert_nothing_left
}

@test "pc-server: a seekdb start interrupted while seekdb prepares its schema leaves no seekdb and no socket directory" {
	"$REPO/pipelines/pc-powercontext" server >/dev/null 2>&1 3>&- # the sqlite one, for a warm cache
	POWERCONTEXT_E2E_DATABASE=seekdb "$REPO/pipelines/pc-powercontext" server >/dev/null 3>&- ||
		fail "the seekdb Server could not be provided"
	POWERCONTEXT_E2E_DATABASE=seekdb "$REPO/pipelines/pc-server" exec --state "$STATE" -- true \
		>"$T/exec.out" 2>"$T/exec.err" 3>&- &
	local exec_pid=$! i
	for ((i = 0; i < 600; i++)); do
		[[ -n $(live_naming "$STATE/home/seekdb") ]] && break
		sleep 0.1
	done
	[[ -n $(live_naming "$STATE/home/seekdb") ]] || fail "seekdb never started: $(cat "$T/exec.err")"
	local t0=$SECONDS rc=0
	kill -TERM "$exec_pid"
	wait "$exec_pid" || rc=$?
	[[ $rc -eq 143 ]] || fail "pc-server exec ended with $rc after TERM, not 143: $(cat "$T/exec.err")"
	# a bound, not a timing assertion: the stop must not wait for readiness (about 90 s)
	[[ $((SECONDS - t0)) -lt 30 ]] || fail "pc-server exec took $((SECONDS - t0)) s to stop after TERM"
	assert_nothing_left
}

@test "pc-server: a seekdb start that fails (not ready in time) leaves no seekdb and no socket directory" {
	POWERCONTEXT_E2E_DATABASE=seekdb "$REPO/pipelines/pc-powercontext" server >/dev/null 3>&- ||
		fail "the seekdb Server could not be provided"
	run --separate-stderr env POWERCONTEXT_E2E_DATABASE=seekdb POWERCONTEXT_E2E_SERVER_READY_TIMEOUT=30 \
		"$REPO/pipelines/pc-server" start "$STATE"
	assert_status 1
	assert_stderr_contains "not ready after 30 s; last lines of $STATE/server.log:"
	# seekdb had started on its data directory before the Server was stopped
	[[ -d $STATE/home/seekdb/store ]] || fail "seekdb never started: $(ls -A "$STATE/home" 2>/dev/null)"
	assert_nothing_left
}
