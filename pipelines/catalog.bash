# catalog.bash — sourced by pipelines/acceptance, paired and rescore: which
# catalog a run selects from, and the record of it a run leaves behind.
#
# CATALOG is one of
#   pc-e2e        this repository's manifests/ (paired: manifests/paired/)
#   powercontext  the PowerContext under test's own e2e/bub/tasks/
#                 (paired: e2e/bub/paired-tasks/), from its sdist
#   memorycode    (paired only) its MemoryCode sample,
#                 e2e/bub/paired-tasks/memorycode/, whose tasks are built
#                 first from MEMORYCODE (pipelines/memorycode-tasks) when
#                 any is missing or differs from its pin
#   DIR           any directory of workload manifests
# and CATALOG_ROOT the directory a manifest's relative dataset path resolves
# against (pc-select's --root): this repository, the sdist's root, or DIR
# itself, unless given.

# The file an acceptance run writes in OUTPUT naming its catalog, so a
# rescore compares with the catalog the run used, wherever it was.
CATALOG_RECORD=catalog.json

# catalog_resolve KIND: sets catalog_manifests and catalog_root (absolute)
# for KIND acceptance or paired; exit 64 naming what is wrong.
catalog_resolve() {
	local kind=$1 repo source
	repo=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
	case ${CATALOG:-pc-e2e} in
	pc-e2e)
		catalog_root=$repo catalog_manifests=$repo/manifests
		[ "$kind" = acceptance ] || catalog_manifests=$repo/manifests/paired
		;;
	powercontext)
		source=$("$repo/pipelines/pc-powercontext" source) || exit 1
		catalog_root=$source catalog_manifests=$source/e2e/bub/tasks
		[ "$kind" = acceptance ] || catalog_manifests=$source/e2e/bub/paired-tasks
		;;
	memorycode)
		if [ "$kind" != paired ]; then
			echo "${0##*/}: CATALOG=memorycode is a paired sample: make paired CATALOG=memorycode" >&2
			exit 64
		fi
		source=$("$repo/pipelines/pc-powercontext" source) || exit 1
		catalog_root=$source catalog_manifests=$source/e2e/bub/paired-tasks/memorycode
		;;
	*)
		if [ ! -d "$CATALOG" ]; then
			echo "${0##*/}: CATALOG=$CATALOG is not a directory: give pc-e2e, powercontext$([ "$kind" = paired ] && echo ", memorycode") or a directory of workload manifests" >&2
			exit 64
		fi
		catalog_manifests=$(CDPATH='' cd -- "$CATALOG" && pwd -P)
		catalog_root=$catalog_manifests
		;;
	esac
	if [ -n "${CATALOG_ROOT:-}" ]; then
		if [ ! -d "$CATALOG_ROOT" ]; then
			echo "${0##*/}: CATALOG_ROOT=$CATALOG_ROOT is not a directory" >&2
			exit 64
		fi
		catalog_root=$(CDPATH='' cd -- "$CATALOG_ROOT" && pwd -P)
	fi
	# the sample's tasks, built where they are read when pc-select refuses
	# one as missing or not its pin
	if [ "${CATALOG:-}" = memorycode ] && { [ ! -d "$catalog_manifests" ] ||
		! "${bin:-$repo/bin}/pc-select" --manifests "$catalog_manifests" --root "$catalog_root" \
			--category memorycode >/dev/null 2>&1; }; then
		"$repo/pipelines/memorycode-tasks" "${MEMORYCODE:-}" ${CATALOG_ROOT:+"$catalog_root"} >&2 || exit 1
	fi
}

# catalog_model_scripts: the scripted model's scripts for the resolved
# catalog's model-backed workloads: its own model-scripts/ when it brings
# them, else pc-e2e's (which also script PowerContext's own catalogs).
catalog_model_scripts() {
	local repo
	repo=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
	if [ -d "$catalog_manifests/model-scripts" ]; then
		echo "$catalog_manifests/model-scripts"
	else
		echo "$repo/manifests/model-scripts"
	fi
}

# catalog_record DIR: write DIR/$CATALOG_RECORD naming the resolved catalog.
catalog_record() {
	jq -n --arg manifests "$catalog_manifests" --arg root "$catalog_root" \
		'{manifests: $manifests, root: $root}' >"$1/$CATALOG_RECORD.tmp" &&
		mv "$1/$CATALOG_RECORD.tmp" "$1/$CATALOG_RECORD"
}

# catalog_recorded PATH: the record of the run PATH (a replay file or a
# directory of a run's output) belongs to, from PATH up to the run's output
# directory (a workload's, a batch member's or a fail-fast leg's replay lies
# at most four levels below it); nothing when there is none.
catalog_recorded() {
	local dir=$1
	[ -d "$dir" ] || dir=$(dirname -- "$dir")
	for _ in 0 1 2 3 4; do
		if [ -f "$dir/$CATALOG_RECORD" ]; then
			echo "$dir/$CATALOG_RECORD"
			return
		fi
		dir=$(dirname -- "$dir")
	done
	return 0
}
