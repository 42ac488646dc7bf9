#!/usr/bin/env bats
# The standard streams (issue 36): a read or write error on stdin or stdout
# ends every filter at once, with one message and exit 1, and leaves no
# output directory behind: a directory or a closed descriptor on stdin, a
# full device, a closed descriptor or a pipe whose reader went away on
# stdout.  Every case runs under `timeout`, so a filter that loops on an
# error fails the test instead of stalling the suite.

load test_helper

setup() {
	pc_setup
	# pc-run-bub's workload fails at once on a port nothing listens on,
	# which still gives it a record to write
	export POWERCONTEXT_CLIENT_SERVER_URL=http://127.0.0.1:9
	mkdir -p "$T/dir"
}

# input FILTER: a file of the documents FILTER reads, from the filter upstream.
input() {
	case $1 in
	pc-select) : >"$T/in.jsonl" ;;
	pc-run-bub) pc-select --id project-database-decision >"$T/in.jsonl" ;;
	pc-normalize)
		pc-select --id project-database-decision |
			pc-run-bub --agent true --output "$T/run" >"$T/in.jsonl" 2>/dev/null || true
		;;
	pc-evaluate) cp "$ACCEPTED" "$T/in.jsonl" ;;
	pc-report) pc-evaluate <"$ACCEPTED" >"$T/in.jsonl" ;;
	esac
	[[ $1 == pc-select || -s $T/in.jsonl ]] || fail "no input for $1"
}

# filter_args FILTER: what FILTER needs beside its input to run here.
filter_args() {
	case $1 in
	pc-run-bub) echo --agent true ;;
	esac
}

# ended_once FILTER WHAT: the filter exited 1 with exactly one line on
# stderr, "FILTER: WHAT", and wrote no output directory.
ended_once() {
	[[ $status == 1 ]] || fail "exit $status, not 1; stderr: $stderr"
	[[ $stderr == "$1: $2" ]] || fail "stderr is not the one line '$1: $2': $(head -c 2000 <<<"$stderr")"
	[[ ! -e $T/out ]] || fail "$1 left $T/out behind: $(ls -AR "$T/out")"
}

# run_filter HOW COMMAND…: COMMAND with its standard streams broken as HOW
# says; the redirections are made here, innermost, where bats' run cannot
# stand in for them.
run_filter() {
	local how=$1
	shift
	# a filter that loops on the error writes its message for ever: a file
	# size limit (1 MB, in 1 KiB blocks) ends it with SIGXFSZ instead
	ulimit -f 1024
	case $how in
	directory) "$@" <"$T/dir" ;;
	closed-stdin) "$@" <&- ;;
	full) "$@" <"$T/in.jsonl" >/dev/full ;;
	closed-stdout) "$@" <"$T/in.jsonl" >&- ;;
	gone) gone_reader "$@" <"$T/in.jsonl" ;;
	esac
}

# gone_reader COMMAND…: COMMAND with its stdout on a pipe whose reading end
# was closed before it started (a reader that went away, without a race).
gone_reader() {
	python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
sys.exit(subprocess.call(sys.argv[1:], stdout=w))' "$@"
}

stdin_test() {
	local filter=$1 how=$2 what=$3
	shift 3
	# shellcheck disable=SC2046  # the filter's own arguments, words by design
	run --separate-stderr run_filter "$how" timeout -k 5 20 "$filter" $(filter_args "$filter") "$@" --output "$T/out"
	ended_once "$filter" "$what"
}

@test "pc-run-bub: a directory on stdin ends it at once, one message, exit 1" {
	stdin_test pc-run-bub directory "stdin: read error: Is a directory"
}

@test "pc-run-bub: a closed stdin ends it at once, one message, exit 1" {
	stdin_test pc-run-bub closed-stdin "stdin: read error: Bad file descriptor"
}

@test "pc-run-bub --paired: a directory on stdin ends it at once, one message, exit 1" {
	stdin_test pc-run-bub directory "stdin: read error: Is a directory" --paired
}

@test "pc-run-bub --paired: a closed stdin ends it at once, one message, exit 1" {
	stdin_test pc-run-bub closed-stdin "stdin: read error: Bad file descriptor" --paired
}

@test "pc-normalize: a directory on stdin ends it at once, one message, exit 1" {
	stdin_test pc-normalize directory "stdin: read error: Is a directory"
}

@test "pc-normalize: a closed stdin ends it at once, one message, exit 1" {
	stdin_test pc-normalize closed-stdin "stdin: read error: Bad file descriptor"
}

@test "pc-normalize --paired: a directory on stdin ends it at once, one message, exit 1" {
	stdin_test pc-normalize directory "stdin: read error: Is a directory" --paired
}

@test "pc-normalize --paired: a closed stdin ends it at once, one message, exit 1" {
	stdin_test pc-normalize closed-stdin "stdin: read error: Bad file descriptor" --paired
}

@test "pc-evaluate: a directory on stdin ends it at once, one message, exit 1" {
	stdin_test pc-evaluate directory "stdin: read error: Is a directory"
}

@test "pc-evaluate: a closed stdin ends it at once, one message, exit 1" {
	stdin_test pc-evaluate closed-stdin "stdin: read error: Bad file descriptor"
}

@test "pc-evaluate --paired: a directory on stdin ends it at once, one message, exit 1" {
	stdin_test pc-evaluate directory "stdin: read error: Is a directory" --paired
}

@test "pc-evaluate --paired: a closed stdin ends it at once, one message, exit 1" {
	stdin_test pc-evaluate closed-stdin "stdin: read error: Bad file descriptor" --paired
}

@test "pc-report: a directory on stdin ends it at once, one message, exit 1" {
	stdin_test pc-report directory "stdin: read error: Is a directory"
}

@test "pc-report: a closed stdin ends it at once, one message, exit 1" {
	stdin_test pc-report closed-stdin "stdin: read error: Bad file descriptor"
}

@test "pc-report --paired: a directory on stdin ends it at once, one message, exit 1" {
	stdin_test pc-report directory "stdin: read error: Is a directory" --paired
}

@test "pc-report --paired: a closed stdin ends it at once, one message, exit 1" {
	stdin_test pc-report closed-stdin "stdin: read error: Bad file descriptor" --paired
}

@test "pc-select reads no stdin: a directory or a closed stdin does not stop it" {
	run --separate-stderr run_filter directory timeout -k 5 20 pc-select --id project-database-decision
	assert_exit 0
	[[ $(jq -r .workload.id <<<"$output") == project-database-decision ]] || fail "$output"
	run --separate-stderr run_filter closed-stdin timeout -k 5 20 pc-select --id project-database-decision
	assert_exit 0
	[[ $(jq -r .workload.id <<<"$output") == project-database-decision ]] || fail "$output"
}

# stdout_test FILTER HOW WHAT: FILTER over its input, stdout made to fail.
stdout_test() {
	local filter=$1 how=$2 what=$3
	input "$filter"
	# with an output directory: pc-run-bub would otherwise say where its Harbor jobs go
	local output=(--output "$T/written")
	[[ $filter != pc-select ]] || output=()
	# shellcheck disable=SC2046  # the filter's own arguments, words by design
	run --separate-stderr run_filter "$how" timeout -k 5 20 "$filter" $(filter_args "$filter") "${output[@]}"
	ended_once "$filter" "$what"
}

@test "pc-select: stdout on a full device ends it with one message, exit 1" {
	stdout_test pc-select full "write error: No space left on device"
}

@test "pc-select: a closed stdout ends it with one message, exit 1" {
	stdout_test pc-select closed-stdout "write error: Bad file descriptor"
}

@test "pc-select: a pipe whose reader went away ends it with one message, exit 1, not a silent SIGPIPE" {
	stdout_test pc-select gone "write error: Broken pipe"
}

@test "pc-run-bub: stdout on a full device ends it with one message, exit 1" {
	stdout_test pc-run-bub full "write error: No space left on device"
}

@test "pc-run-bub: a closed stdout ends it with one message, exit 1" {
	stdout_test pc-run-bub closed-stdout "write error: Bad file descriptor"
}

@test "pc-run-bub: a pipe whose reader went away ends it with one message, exit 1, not a silent SIGPIPE" {
	stdout_test pc-run-bub gone "write error: Broken pipe"
}

@test "pc-normalize: stdout on a full device ends it with one message, exit 1" {
	stdout_test pc-normalize full "write error: No space left on device"
}

@test "pc-normalize: a closed stdout ends it with one message, exit 1" {
	stdout_test pc-normalize closed-stdout "write error: Bad file descriptor"
}

@test "pc-normalize: a pipe whose reader went away ends it with one message, exit 1, not a silent SIGPIPE" {
	stdout_test pc-normalize gone "write error: Broken pipe"
}

@test "pc-evaluate: stdout on a full device ends it with one message, exit 1" {
	stdout_test pc-evaluate full "write error: No space left on device"
}

@test "pc-evaluate: a closed stdout ends it with one message, exit 1" {
	stdout_test pc-evaluate closed-stdout "write error: Bad file descriptor"
}

@test "pc-evaluate: a pipe whose reader went away ends it with one message, exit 1, not a silent SIGPIPE" {
	stdout_test pc-evaluate gone "write error: Broken pipe"
}

@test "pc-report: stdout on a full device ends it with one message, exit 1" {
	stdout_test pc-report full "write error: No space left on device"
}

@test "pc-report: a closed stdout ends it with one message, exit 1" {
	stdout_test pc-report closed-stdout "write error: Bad file descriptor"
}

@test "pc-report: a pipe whose reader went away ends it with one message, exit 1, not a silent SIGPIPE" {
	stdout_test pc-report gone "write error: Broken pipe"
}

@test "pc-report --format text whose reader went away stops at once, while its writer still holds stdin open" {
	# the writer upstream may run for hours: the report must not wait for it
	pc-evaluate <"$ACCEPTED" >"$T/one.jsonl"
	mkfifo "$T/in"
	exec 4<>"$T/in"
	cat "$T/one.jsonl" >&4
	run --separate-stderr gone_reader timeout -k 5 20 pc-report --format text <"$T/in"
	exec 4>&-
	ended_once pc-report "write error: Broken pipe"
}

@test "pc-evaluate whose reader went away stops at the first evaluation, while its writer still holds stdin open" {
	mkfifo "$T/in"
	exec 4<>"$T/in"
	cat "$ACCEPTED" >&4
	run --separate-stderr gone_reader timeout -k 5 20 pc-evaluate <"$T/in"
	exec 4>&-
	ended_once pc-evaluate "write error: Broken pipe"
}
