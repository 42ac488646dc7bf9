#!/usr/bin/env bats
# The commands README.md, docs/*.md and the man pages show (issues 36, 41):
# each block runs as it is written, on the output of a fresh acceptance run,
# or is named in ELSEWHERE, the one list of blocks not run here, with why and
# the suite or CI leg that runs it; a block in neither fails the first test,
# so a new recipe cannot go untried. A command block is any fenced block
# whatever its fence (```, ```sh, ```console, ```bash …) but one whose
# language says it holds no commands (text, json, yaml, toml …: NOT_COMMANDS).

load test_helper
load exec_helper

# The blocks not run here, keyed by their first line: why, and where each
# runs instead. Most start whole runs of their own (make and pc-e2e targets,
# a first provisioning), too long for this suite.
declare -gA ELSEWHERE=(
	["make acceptance   # the main job: the acceptance workloads on embedded SQLite"]="whole runs: tests/acceptance.bats, .ci/run's legs; make test is .ci/run's"
	["./pc-e2e acceptance                       # make acceptance"]="whole runs: tests/own-catalog.bats (pc-e2e acceptance, rescore, refusals); .ci/run's legs"
	["make acceptance                                      # 1.4.1, the newest release pc-e2e supports"]="whole runs: .ci/run's legs (releases, catalogs, runners, seekdb), tests/powercontext.bats (a checkout)"
	["# a Harbor task of two steps: Bub remembers a decision, then recalls it"]="a whole run: tests/own-catalog.bats, verbatim"
	["make acceptance MODEL=scripted ARGS='--category scripted'"]="whole runs: .ci/run's scripted legs, tests/scripted.bats"
	["make paired                          # pc-e2e's three paired workloads, 2 trials, scripted model"]="whole runs: .ci/run's paired legs, tests/paired-run.bats, tests/scheduler.bats"
	["make memorycode-tasks MEMORYCODE=../shared/memorycode   # a data copy of the 50 dialogues"]="needs MemoryCode's dialogues and the network: tests/memorycode.bats builds the tasks from a copy"
	["MODEL=scripted make paired CATALOG=memorycode MEMORYCODE=../shared/memorycode TRIALS=1 \\"]="a whole paired run on MemoryCode's dialogues: .ci/run's MemoryCode leg, tests/memorycode.bats (memorycode-1)"
	["make paired HOST=codex TRIALS=1                  # pc-e2e's three workloads, Codex in both arms"]="whole paired runs on Codex and Claude Code: tests/paired-hosts.bats, .ci/run's host legs and MemoryCode leg"
	["pipelines/slurm-cluster start ~/slurm-test   # a first try: two nodes on loopback; prints SLURM_CONF=…"]="whole runs on a Slurm cluster: tests/slurm.bats, .ci/run's Slurm leg, tests/scheduler.bats (JOBS=2)"
	["echo '{\"*\": {\"input\": 3, \"cached_input\": 0.3, \"output\": 15}}' >prices.json"]="whole paired runs priced and with a budget: tests/spend.bats, tests/retry.bats"
	["./pc-e2e plan HELP=0.20 HURT=0.05                 # power with 50 workloads, and how many for 80 %"]="plans from rates and from a pilot's paired-report.json: tests/power.bats"
	["pc-report --plan --help-rate 0.20 --hurt-rate 0.05"]="the plan at these rates, through ./pc-e2e plan: tests/power.bats"
	["# two runs of the catalog, a day apart, recorded in one SQLite file"]="an illustration with elided pipes (…) and their output: the ledger recipe after it runs here; tests/ledger.bats covers trends"
)

# Fence languages of blocks that hold no commands.
NOT_COMMANDS='text|json|jsonl|yaml|toml|c|python|tsv|markdown|diff'

setup_file() {
	exec_setup_file
	[[ -n ${PC_SANITIZED:-} ]] && return 0
	# one fresh run of the whole catalog, both legs: the layout the recipes read
	OUTPUT="$BATS_FILE_TMPDIR/run" PC_BIN="$PC_BIN" timeout -k 10 "$((EXEC_LIMIT * 3))" \
		"$REPO/pipelines/acceptance" >"$BATS_FILE_TMPDIR/run.log" 2>&1 3>&- ||
		echo "$?" >"$BATS_FILE_TMPDIR/run.failed"
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
	[[ -z ${PC_SANITIZED:-} ]] || skip "whole runs through real Bub: their C is covered by the other suites"
	[[ ! -e $BATS_FILE_TMPDIR/run.failed ]] || fail "the fresh acceptance run failed: $(tail -n 20 "$BATS_FILE_TMPDIR/run.log")"
	RUN=$BATS_FILE_TMPDIR/run
}

teardown() {
	[[ ! -d ${T:-}/server ]] || "$REPO/pipelines/pc-server" stop "$T/server" 3>&- || true
}

# blocks: every command block, as "SOURCE\tLINE\tTEXT" with its newlines as
# \n: the fenced blocks of README.md and docs/*.md but NOT_COMMANDS', and the
# man pages' .EX blocks, unescaped as man prints them.
blocks() {
	local page
	for page in "$REPO"/README.md "$REPO"/docs/*.md; do
		awk -v page="${page#"$REPO"/}" -v skip="^(${NOT_COMMANDS})$" '
			!inside && /^[ ]*```/ { inside = 1; start = NR; text = ""
				lang = $0; sub(/^[ ]*```[ ]*/, "", lang); sub(/[ {].*/, "", lang); next }
			inside && /^[ ]*```[ ]*$/ { inside = 0
				if (lang !~ skip) printf "%s\t%d\t%s\n", page, start, text; next }
			inside { text = text (text == "" ? "" : "\\n") $0 }' "$page"
	done
	for page in "$REPO"/man/*.1; do
		[[ -e $page ]] || continue
		awk -v page="man/${page##*/}" '/^\.EX$/ { inside = 1; start = NR; text = ""; next }
			inside && /^\.EE$/ { inside = 0; printf "%s\t%d\t%s\n", page, start, text; next }
			inside { gsub(/\\-/, "-"); gsub(/\\e/, "\\"); text = text (text == "" ? "" : "\\n") $0 }' "$page"
	done
}

# runs_here TEXT: 0 when the test below runs the block.
runs_here() {
	case $1 in
	*'"$run"'* | *'$run/'* | 'bin/pc-select --category sample'* | 'pc-select --category sample'* | \
		'pc-select --manifests sdist/'* | 'pc-report --format text -v <evaluations.jsonl'* | \
		'pc-normalize <runs.jsonl'* | 'pc-select --id project-database-decision |'* | \
		'pc-select --category batch:acceptance |'* | 'pc-select --category acceptance | pc-run-bub --jobs 2'* | \
		'pc-select | pc-run-bub | pc-normalize | pc-evaluate |'*)
		return 0 ;;
	esac
	return 1
}

# unnamed_blocks: "SOURCE:LINE: FIRST LINE" of each block neither run here
# nor named in ELSEWHERE.
unnamed_blocks() {
	local source line text first
	while IFS=$'\t' read -r source line text; do
		first=${text%%\\n*}
		runs_here "$(printf '%b' "$text")" && continue
		[[ -n ${ELSEWHERE[$first]:-} ]] && continue
		echo "$source:$line: $first"
	done < <(blocks)
}

@test "every command block of README, docs/ and the man pages is run here or named with the suite that runs it" {
	local unknown
	unknown=$(unnamed_blocks)
	[[ -z $unknown ]] || fail "blocks neither run here nor named in ELSEWHERE:
$unknown"
}

@test "a new block of a docs page, under a bare fence or any shell's, neither run nor named, is found; a text block is not a command" {
	mkdir -p "$T/repo/docs" "$T/repo/man"
	cp "$REPO/README.md" "$T/repo/"
	printf '# New\n\n```\nmake new-thing\n```\n\n```console\n$ make other-thing\n```\n\n```text\nnot a command\n```\n' \
		>"$T/repo/docs/new.md"
	REPO=$T/repo run unnamed_blocks
	assert_success
	assert_output "docs/new.md:3: make new-thing
docs/new.md:7: \$ make other-thing"
}

# work_dir: where the blocks run: bin/, manifests/ and the release's sdist/
# as README's and pc-select's paths expect, and the files the man pages read.
work_dir() {
	mkdir -p "$T/work"
	ln -s "$PC_BIN" "$T/work/bin"
	# a copy: pc-select refuses a task reached through a link out of its root
	cp -r "$REPO/manifests" "$T/work/manifests"
	ln -s "$("$REPO/pipelines/pc-powercontext" source 3>&-)" "$T/work/sdist"
	cat "$RUN"/*/eval-report.json >"$T/work/evaluations.jsonl"
}

# run_blocks FILTER: run every block runs_here takes whose text matches the
# shell pattern FILTER, each with bash -e -o pipefail in the work directory,
# run naming the fresh run; fail naming the first that fails.
run_blocks() {
	local source line text count=0
	while IFS=$'\t' read -r source line text; do
		text=$(printf '%b' "$text")
		runs_here "$text" || continue
		# shellcheck disable=SC2053  # FILTER is a pattern
		[[ $text == $1 ]] || continue
		printf '%s\n' "$text" >"$T/block.sh"
		# a hang guard, not a time limit: a whole-catalog block ran past 300 s
		# on a loaded machine (tests/acceptance.bats)
		(cd "$T/work" && run="$RUN" PATH="$PC_BIN:$PATH" timeout -k 10 "$((EXEC_LIMIT * 3))" \
			bash -e -o pipefail "$T/block.sh" >"$T/block.out" 2>"$T/block.err" 3>&-) ||
			fail "$source:$line exited $?: $text
--- stderr ---
$(tail -n 20 "$T/block.err")"
		count=$((count + 1))
	done < <(blocks)
	((count > 0)) || fail "no block matched $1"
	echo "$count"
}

@test "the recipes that read a run's output work on a fresh acceptance run's, as written" {
	work_dir
	run_blocks '*"$run*' >"$T/count"
	# docs/ledger.md's recipe, pc-evaluate(1)'s two rescores
	[[ $(cat "$T/count") == 3 ]] || fail "$(cat "$T/count") blocks ran, not 3"
	[[ -s $T/work/ledger.db ]] || fail "the ledger recipe wrote no ledger"
	# pc-evaluate(1)'s fail-fast rescore: every member of the leg, under its policy
	[[ $(jq -s -c '[.[].cases[].name] | sort' "$T/work/rescored/batch-acceptance/eval-report.json") == \
		'["failure-policy-followup","failure-policy-timeout","project-database-decision"]' ]] ||
		fail "$(ls -R "$T/work/rescored")"
}

@test "the catalog recipes: listing the sample, reading the release's own catalog" {
	work_dir
	run_blocks '*pc-select --category sample*' >/dev/null
	run_blocks 'pc-select --manifests sdist/*' >/dev/null
	run_blocks 'pc-report --format text -v*' >/dev/null
}

@test "the man pages' pipelines run as written on a Server of their own, and normalizing twice gives the same bytes" {
	work_dir
	# the Server the pipelines talk to; the Bub the release brings
	export POWERCONTEXT_E2E_BUB=$EXEC_BUB
	"$REPO/pipelines/pc-server" start "$T/server" >"$T/server.env" 3>&- || fail "no Server"
	local name value
	while IFS='=' read -r name value; do
		export "$name=$value"
	done <"$T/server.env"
	run_blocks 'pc-select --id project-database-decision |*' >/dev/null
	assert_files "$T/work/out/project-database-decision/replay.json" "$T/work/out/project-database-decision/report.md"
	run_blocks 'pc-select --category batch:acceptance |*' >/dev/null
	[[ $(jq -r .status "$T/work/runs.jsonl" | sort | uniq -c | tr -s ' ' | tr '\n' ';') == " 1 completed; 1 failed; 1 skipped;" ]] ||
		fail "$(jq -c '[.workload.id, .status]' "$T/work/runs.jsonl")"
	run_blocks 'pc-select --category acceptance | pc-run-bub --jobs 2*' >/dev/null
	run_blocks 'pc-normalize <runs.jsonl*' >/dev/null
	run_blocks 'pc-select | pc-run-bub | pc-normalize | pc-evaluate |*' >/dev/null
	grep -q '<testsuites' "$T/work/junit.xml" || fail "junit.xml: $(head -c 300 "$T/work/junit.xml")"
}
