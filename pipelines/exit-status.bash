# exit-status.bash — sourced by pipelines/acceptance and pipelines/rescore,
# which fold the statuses of several pc-report passes into one.

# worst A B: the exit status that wins, by the filters' precedence: 1 (invalid
# input), then 2 (failed), then 4 (stale), then 3 (inconclusive), then 0; any
# other failure (a usage error, a missing command) is kept as it is.
worst() {
	local a b
	for a in 1 2 4 3; do
		for b in "$1" "$2"; do
			[ "$b" = "$a" ] && { echo "$a"; return; }
		done
	done
	[ "$1" = 0 ] && echo "$2" || echo "$1"
}
