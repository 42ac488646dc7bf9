# units.bash — sourced by pipelines/run.bash and pipelines/units: the
# settings that send a run's workloads through pipelines/units
# (docs/DESIGN.md §5.14), checked the same way in each.

# units_settings PROG: SCHEDULER (local, slurm or unset), RESUME (1, 0
# or unset) and the retries' RETRY, RETRY_BACKOFF and RETRY_MAX_WAIT
# (whole numbers or unset), or exit 64 naming PROG and the setting.
units_settings() {
	case ${RESUME:-} in '' | 0 | 1) ;; *)
		echo "$1: RESUME must be 1 or empty, got '$RESUME'" >&2
		exit 64
		;;
	esac
	case ${SCHEDULER:-} in '' | local | slurm) ;; *)
		echo "$1: SCHEDULER must be local or slurm, got '$SCHEDULER'" >&2
		exit 64
		;;
	esac
	local setting
	for setting in RETRY RETRY_BACKOFF RETRY_MAX_WAIT; do
		[[ ${!setting:-0} =~ ^(0|[1-9][0-9]{0,5})$ ]] && continue
		echo "$1: $setting must be a whole number of at most 6 digits, got '${!setting}'" >&2
		exit 64
	done
}

# units_jobs PROG: JOBS, units at once (default 1), or exit 64 naming PROG
# and the setting.
units_jobs() {
	[[ ${JOBS:-1} =~ ^[1-9][0-9]*$ ]] && return 0
	echo "$1: JOBS must be a positive whole number, got '$JOBS'" >&2
	exit 64
}

# units_output PROG DIR: DIR made, and its absolute path on stdout; exit 1
# naming it when this host cannot write it (every unit writes there).
units_output() {
	if ! mkdir -p "$2" 2>/dev/null || [ ! -w "$2" ]; then
		echo "$1: OUTPUT $2 cannot be written on this host${SCHEDULER:+ (SCHEDULER=$SCHEDULER: every unit writes there)}" >&2
		exit 1
	fi
	CDPATH='' cd -- "$2" && pwd -P
}

# units_attempt_spend ATTEMPT…: the USD each attempt's accounts (its
# accounts/**/account.json, pipelines/unit-run) add up to, one a line; 0
# for an attempt without any.
units_attempt_spend() {
	local a
	for a in "$@"; do
		if [ -d "$a/accounts" ]; then
			find "$a/accounts" -name account.json -exec cat {} + | jq -n '[inputs | .spend.usd // 0] | add // 0'
		else
			echo 0
		fi
	done
}
