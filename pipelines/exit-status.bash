# exit-status.bash — sourced by pipelines/acceptance and pipelines/rescore,
# which fold the statuses of several pc-report passes into one, and by
# pipelines/units, which folds a budget's stop into its own.

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

# exit_meaning COMMAND CODE: what pc-e2e COMMAND's exit status CODE means, in
# words (the codes are stage.h's; pc-e2e prints this as its last line).
exit_meaning() {
	case $1:$2 in
	acceptance:0 | rescore:0) echo "accepted: every workload accepted" ;;
	paired:0 | paired-report:0) echo "complete: every arm ran and was scored (a failed task is a result)" ;;
	plan:0) echo "planned: the figures above" ;;
	compat:0) echo "compatible: every release accepted every workload and cross-checked" ;;
	*:1) echo "invalid input or a runtime error: the message above names the file, line and field" ;;
	paired:2 | paired-report:2) echo "failed: an arm errored, or an ON arm failed integration or reached another Scope" ;;
	compat:2) echo "failed: a release did not accept every workload, or its cross-check found a difference" ;;
	*:2) echo "failed: at least one workload failed" ;;
	paired:3) echo "inconclusive: units were not started, stopped at the budget (RESUME=1 with a new BUDGET_USD runs them)" ;;
	*:3) echo "inconclusive: nothing failed, but something could not be collected" ;;
	*:4) echo "stale: nothing failed, but a workload's manifest changed since it ran" ;;
	*:64) echo "usage error" ;;
	*:130) echo "interrupted (SIGINT)" ;;
	*:143) echo "stopped (SIGTERM)" ;;
	*) echo "ended with status $2" ;;
	esac
}
