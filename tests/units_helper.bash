# units_helper.bash — what the suites that run pipelines/units share
# (scheduler.bats, slurm.bats): a paired run stopped mid-way.

# units_stop_midway OUTPUT N [VAR=VALUE…]: pipelines/paired on $ID, two
# trials, the ACP peer as the agent, with those settings; once N units'
# pc-server have started (their records.jsonl opened), SIGTERM to
# pipelines/units alone, as a stop reaches it; then waits for the run,
# which must not exit 0. Its streams are in $T/stdout and $T/stderr.
units_stop_midway() {
	local out=$1 started=$2 i units status=0
	shift 2
	env PC_E2E_AGENT="$PEER_AGENT" TRIALS=2 OUTPUT="$out" PC_E2E_PROGRESS=0 "$@" \
		timeout -k 10 "$EXEC_LIMIT" "$REPO/pipelines/paired" --id "$ID" >"$T/stdout" 2>"$T/stderr" &
	local runner=$!
	for ((i = 0; i < 600; i++)); do
		[[ $(find "$out/units" -path '*/attempt-1.partial/records.jsonl' 2>/dev/null | wc -l) -ge $started ]] && break
		sleep 0.1
	done
	units=$(pgrep -f "pipelines/units $out " || true)
	[[ -n $units ]] || fail "no units process for $out: $(cat "$T/stderr")"
	# shellcheck disable=SC2086  # one pid, or several
	kill -TERM $units
	wait "$runner" || status=$?
	[[ $status -ne 0 ]] || fail "a stopped run exited 0"
}

# units_completed_arms OUTPUT: the arms a unit's pc-run-bub completed in
# an unfinished attempt (none, when a stop reached it in time).
units_completed_arms() {
	cat "$1"/units/*/attempt-1.partial/records.jsonl 2>/dev/null |
		jq -r 'select(.status == "completed") | .arm.arm'
}
