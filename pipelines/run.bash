# run.bash — sourced by pipelines/acceptance and pipelines/paired: the
# skeleton of a run, around the legs (acceptance) or the arms (paired) each
# writes itself. In order:
#   run_settings   MODEL, RUNNER, JOBS, the units' settings and the catalog;
#   run_flag       each setting pc-run-bub holds a limit of, as its option;
#   run_spend      (paired) PRICES and BUDGET_USD, as run_flags;
#   run_hosts      (paired) the hosts of the PowerContext under test, their
#                  pins, for pc-run-bub --host;
#   run_check      the selection through pc-select and pc-run-bub --plan
#                  with those options: whatever they refuse is refused here,
#                  before OUTPUT is made or a Server starts;
#   run_output     OUTPUT;
#   run_provision  the PowerContext under test, Bub, Harbor, the scripted
#                  model; run_token the Server's token;
#   run_on_server  the legs or arms on a Server of their own, or as units;
#   run_timing     the last line.
# Inside a leg, run_when_input, run_status and run_page keep a filter's
# failure to its own message.

run_here=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
run_root=$(dirname -- "$run_here")
run_bin=${PC_BIN:-$run_root/bin}
# shellcheck source=pipelines/scripted-model.bash
. "$run_here/scripted-model.bash"
# shellcheck source=pipelines/units.bash
. "$run_here/units.bash"
# shellcheck source=pipelines/catalog.bash
. "$run_here/catalog.bash"

# run_settings PROG MODEL: PROG acceptance or paired, MODEL the model when
# MODEL is unset (scripted or empty). Sets run_prog, run_model (scripted or
# empty), run_scripts (the scripted model's scripts, or empty), run_runner,
# run_jobs, run_catalog and run_manifests (catalog.bash), and run_units
# empty: the caller sets it when its workloads run as units, each with a
# Server of its own (pipelines/units). Exit 64 naming a setting the shell
# itself reads.
run_settings() {
	run_prog=$1 run_model=${MODEL-$2}
	case $run_model in
	'') ;;
	scripted) scripted_model_refuse_remote "$run_prog" ;;
	*) echo "$run_prog: MODEL must be scripted or empty, got '$run_model'" >&2; exit 64 ;;
	esac
	scripted_model_check_fault "$run_prog" "$run_here/scripted-model" "$run_model"
	units_settings "$run_prog"
	# shellcheck disable=SC2034  # run_jobs and run_units are the caller's
	run_runner=${RUNNER:-local} run_jobs=${JOBS:-1} run_units=
	catalog_resolve "$run_prog"
	run_catalog=$catalog_root run_manifests=$catalog_manifests run_scripts=
	[ -z "$run_model" ] || run_scripts=$(catalog_model_scripts)
	run_flags=()
	run_flag RUNNER="$run_runner" --runner "$run_runner"
	[ -z "$run_scripts" ] || run_flag MODEL=scripted --model-scripts "$run_scripts" \
		"run the rest on a real model (MODEL= with BUB_MODEL and the provider settings, docs/scripted-model.md), or select the scripted ones (--id ID)"
}

# run_flag SETTING=VALUE OPTION [ARG [HINT]]: OPTION (with ARG) is how
# pc-run-bub holds SETTING; a refusal naming OPTION names SETTING=VALUE,
# and HINT after it.
declare -A run_setting_of=() run_hint_of=()
run_flag() {
	run_flags+=("$2" ${3+"$3"})
	run_setting_of[$2]=$1
	run_hint_of[$2]=${4:-}
}

# run_spend: PRICES=FILE (USD per million tokens per model, docs/paired.md)
# and BUDGET_USD=X as pc-run-bub's --prices and --budget, which refuse a bad
# table, and under a budget a model without a price; run_prices is the
# table's absolute path (or empty). BUDGET_USD without PRICES: exit 64.
run_spend() {
	run_prices=
	if [ -n "${BUDGET_USD:-}" ] && [ -z "${PRICES:-}" ]; then
		echo "$run_prog: BUDGET_USD=$BUDGET_USD needs PRICES=FILE, the price of every model the run calls (docs/paired.md)" >&2
		exit 64
	fi
	[ -n "${PRICES:-}" ] || return 0
	run_prices=$(realpath -m -- "$PRICES")
	run_flag PRICES="$PRICES" --prices "$run_prices"
	[ -z "${BUDGET_USD:-}" ] || run_flag BUDGET_USD="$BUDGET_USD" --budget "$BUDGET_USD"
}

# run_check [pc-select argument…]: the selection, then pc-run-bub --plan
# with run_flags on it: what either refuses is refused before anything
# runs. pc-select's refusal keeps its status; pc-run-bub's is one line (its
# message, naming the setting behind the option it names), exit 64.
run_check() {
	local selection refusal message option server=()
	selection=$("$run_bin/pc-select" --manifests "$run_manifests" --root "$run_catalog" "$@") ||
		exit
	# the Server's models as the run will set them (a price is asked for each)
	[ -z "$run_scripts" ] || server=(env -u POWERCONTEXT_SERVER_INFERENCE_EMBEDDING_MODEL
		"POWERCONTEXT_SERVER_INFERENCE_GENERATION_MODEL=$scripted_model_extractor")
	refusal=$("${server[@]}" "$run_bin/pc-run-bub" "${run_flags[@]}" --plan <<<"$selection" \
		2>&1 >/dev/null) && return 0
	# its message, without the synopsis a usage error repeats
	message=$(sed -n 's/^pc-run-bub: //p' <<<"$refusal" | head -n 1)
	message=${message:-$refusal}
	option=${message%%[ :]*}
	if [ -n "${run_setting_of[$option]:-}" ]; then
		message="${run_setting_of[$option]}: $message${run_hint_of[$option]:+; ${run_hint_of[$option]}}"
	fi
	echo "$run_prog: $message" >&2
	exit 64
}

# run_hosts: POWERCONTEXT_E2E_HOSTS, the hosts.json of the PowerContext
# under test (pipelines/pc-powercontext hosts: each host's pin and whether
# it can run here), which pc-run-bub --host reads, --plan included.
run_hosts() {
	POWERCONTEXT_E2E_HOSTS=$("$run_here/pc-powercontext" hosts)
	export POWERCONTEXT_E2E_HOSTS
}

# run_output DEFAULT: run_out, OUTPUT (default DEFAULT) made.
run_output() {
	run_out=$(units_output "$run_prog" "${OUTPUT:-$1}")
}

# run_provision AGENT…: the PowerContext under test's Server, each AGENT
# (pipelines/pc-powercontext bub: the real Bub with the release's own
# plugin; bub-off: the one without it; codex or claude-code: that host at
# the release's pin, both arms' CLI) unless PC_E2E_AGENT names another,
# the runner's Harbor, and without units the scripted model; exported as
# the filters and units read them (POWERCONTEXT_E2E_BUB, …_BUB_OFF;
# POWERCONTEXT_E2E_HOST_DIR, the directory with a host's host.json).
run_provision() {
	local agent name path
	run_t0=$(date +%s%N)
	"$run_here/pc-powercontext" server >/dev/null
	for agent in "$@"; do
		[ -z "${PC_E2E_AGENT:-}" ] || break
		name=POWERCONTEXT_E2E_HOST_DIR
		[[ $agent != bub* ]] || name=POWERCONTEXT_E2E_${agent^^}
		path=$("$run_here/pc-powercontext" "$agent")
		export "${name//-/_}=$path"
	done
	if [ "$run_runner" = harbor ]; then
		POWERCONTEXT_E2E_HARBOR=$("$run_here/pc-powercontext" harbor)
		export POWERCONTEXT_E2E_HARBOR
	fi
	# with units, each starts its own
	if [ -n "$run_scripts" ] && [ -z "$run_units" ]; then
		scripted_model_start "$run_here/scripted-model" "$run_scripts" "$run_out/scripted-model" \
			"$run_prog" "${FAULT:-}"
	fi
	POWERCONTEXT_E2E_COMMIT=$("$run_here/pc-powercontext" commit)
	export POWERCONTEXT_E2E_COMMIT
	run_t1=$(date +%s%N)
	echo "$run_prog: output in $run_out" >&2
}

# run_token: the Server's own token, unless the caller brings one: the
# harness and the ON arm's plugin hold it, the OFF arm never does. It
# reaches processes through their environment only, and every sink redacts
# *_TOKEN values. With units, each unit's Server has a token of its own,
# made on its node.
run_token() {
	[ -z "$run_units" ] || return 0
	[ -n "${POWERCONTEXT_CLIENT_API_TOKEN:-}" ] ||
		POWERCONTEXT_CLIENT_API_TOKEN=pc-e2e-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
	export POWERCONTEXT_CLIENT_API_TOKEN
}

# A stage of a leg that read nothing (run_when_input).
export RUN_NO_INPUT=65

# run_when_input COMMAND [ARG…]: COMMAND on this stdin, streamed, when it
# holds a line. When it holds none the stage before failed and said why,
# so COMMAND is not run to add its own "no … on stdin": the status is
# RUN_NO_INPUT, which run_status leaves out.
run_when_input() {
	local first
	IFS= read -r first || [ -n "$first" ] || return "$RUN_NO_INPUT"
	"$@" < <(
		printf '%s\n' "$first"
		exec cat
	)
}

# run_status STATUS…: a leg's status from its PIPESTATUS, as pipefail gives
# it (the last that is not 0), the stages that read nothing left out. When
# only those failed, a stage ended without output and without an error:
# 1, said.
run_status() {
	local s status=0 unfed=
	for s in "$@"; do
		if [ "$s" = "$RUN_NO_INPUT" ]; then
			unfed=1
		elif [ "$s" != 0 ]; then
			status=$s
		fi
	done
	if [ "$status" = 0 ] && [ -n "$unfed" ]; then
		echo "${0##*/}: a filter of the pipe ended without output and without an error" >&2
		status=1
	fi
	echo "$status"
}

# run_page DIR [pc-report argument…] <documents: DIR/report.html, the page
# for people (pc-report --format html …), written whole or not at all. Its
# messages are kept in DIR/report.html.stderr; a failure is a warning on
# stderr naming both, and not the run's status (its text report stands).
run_page() {
	local dir=$1 status=0
	shift
	pc-report --format html "$@" >"$dir/report.html.partial" 2>"$dir/report.html.stderr" ||
		status=$?
	# 2, 3 and 4 are verdicts the page shows (docs/DESIGN.md §4)
	if [ "$status" -ne 1 ] && [ "$status" -lt 64 ]; then
		mv -f "$dir/report.html.partial" "$dir/report.html"
		[ -s "$dir/report.html.stderr" ] || rm -f "$dir/report.html.stderr"
		return 0
	fi
	rm -f "$dir/report.html.partial"
	echo "${0##*/}: warning: no page $dir/report.html (pc-report exit $status: $(head -n 1 "$dir/report.html.stderr"); all of it in $dir/report.html.stderr)" >&2
}

# run_on_server FUNCTION… -- [ARG…]: the first FUNCTION with ARG… on a
# Server of its own (pipelines/pc-server exec, its state in OUTPUT/server),
# the FUNCTIONs and run.bash's leg helpers passed there by declare -f; or
# here when the workloads run as units, each starting its own. Sets
# run_status_code to its status.
run_on_server() {
	local functions=()
	while [ "$1" != -- ]; do
		functions+=("$1")
		shift
	done
	shift
	export PATH="$run_bin:$PATH" PC_E2E_PROGRESS=${PC_E2E_PROGRESS:-1}
	run_status_code=0
	if [ -n "$run_units" ]; then
		"${functions[0]}" "$@" || run_status_code=$?
	else
		# shellcheck disable=SC2016  # expanded by the inner bash
		"$run_here/pc-server" exec --state "$run_out/server" -- bash -c "
			set -o pipefail
			$(declare -f "${functions[@]}" run_when_input run_status run_page)
			${functions[0]} \"\$@\"
		" "$run_prog" "$@" || run_status_code=$?
	fi
}

# run_timing WHAT RAN: the last line, with the time of provisioning WHAT
# and of the Server with what RAN on it; then exit with the run's status.
run_timing() {
	local t2
	t2=$(date +%s%N)
	printf '%s: provisioning (PowerContext %s, %s, runner %s) %.1fs, server and %s %.1fs; exit %d\n' \
		"$run_prog" "$POWERCONTEXT_E2E_COMMIT" "$1" "$run_runner" \
		"$(((run_t1 - run_t0) / 1000000))e-3" "$2" "$(((t2 - run_t1) / 1000000))e-3" \
		"$run_status_code" >&2
	exit "$run_status_code"
}
