#!/usr/bin/env bats
# make memorycode-tasks (pipelines/memorycode-tasks, docs/DESIGN.md §11.6):
# the PowerContext under test's MemoryCode paired sample, built by the
# release's own generator where its catalog expects it, every task's
# checksum its manifest's pin; and what is refused before anything is
# written. The dialogues come from MEMORYCODE, by default the data copy
# beside this repository's checkout (../shared/memorycode); the tests that
# need it skip, saying so, where there is none. Every test builds into a
# root of its own (CATALOG_ROOT), never the release's tree, which the other
# suites and the sanitizer run's copy of this one read side by side.

load test_helper

setup_file() {
	"$REPO/pipelines/pc-powercontext" harbor >/dev/null
}

setup() {
	pc_setup
	mkdir -p "$T/root"
	TASKS=$T/root/e2e/bub/memorycode-tasks
}

# memorycode: the data copy's directory, or skip.
memorycode() {
	local dir=${MEMORYCODE:-$REPO/../shared/memorycode}
	[[ -d $dir/dataset ]] || skip "no MemoryCode data copy at $dir (set MEMORYCODE to one)"
	MC=$(CDPATH='' cd -- "$dir" && pwd -P)
}

# tasks_state: every built task file with its checksum, to see that a
# refusal changed nothing.
tasks_state() {
	[[ -d $TASKS ]] || { echo none; return; }
	(cd "$TASKS" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
}

@test "make memorycode-tasks builds 1.4.1's 50 tasks from a data copy, each checksum its manifest's pin" {
	memorycode
	run --separate-stderr make -s memorycode-tasks MEMORYCODE="$MC" CATALOG_ROOT="$T/root"
	assert_exit 0
	assert_output "memorycode-tasks: 50 tasks in $TASKS, every checksum its manifest's pin"
	local manifests
	manifests=$("$REPO/pipelines/pc-powercontext" source)/e2e/bub/paired-tasks/memorycode
	assert_equal "$(ls "$TASKS")" "$(sed -n 's/^id: //p' "$manifests"/*.yaml | sort)"
	[[ ! -e $TASKS.partial ]] || fail "a half-built task directory is left"
	# the recall step's gold stays in its tests, out of every instruction
	run grep -rl --include=instruction.md -F history_regex "$TASKS"
	assert_failure
}

@test "an edited, a missing or an extra dialogue in a data copy is refused, naming each file; nothing is written" {
	memorycode
	# tasks built before: the refusal must leave them as they are
	"$REPO/pipelines/memorycode-tasks" "$MC" "$T/root" >/dev/null
	cp -a "$MC" "$T/mc"
	local before
	before=$(tasks_state)
	[[ $before != none ]] || fail "no tasks were built to compare"
	printf ' ' >>"$T/mc/dataset/dialogue_98.json"
	rm "$T/mc/dataset/dialogue_2.json"
	echo '{}' >"$T/mc/dataset/dialogue_999.json"
	run --separate-stderr "$REPO/pipelines/memorycode-tasks" "$T/mc" "$T/root"
	assert_exit 1
	assert_stderr_contains "memorycode-tasks: $T/mc/dataset/dialogue_98.json differs from MemoryCode 1ab87e1's (git blob "
	assert_stderr_contains "memorycode-tasks: $T/mc/dataset/dialogue_2.json is missing (a dialogue PowerContext 1.4.1 pins)"
	assert_stderr_contains "memorycode-tasks: $T/mc/dataset/dialogue_999.json is not one of the dialogues PowerContext 1.4.1 pins"
	assert_stderr_contains "memorycode-tasks: $T/mc refused (3 problem(s) above); nothing was written"
	assert_equal "$(tasks_state)" "$before"
}

@test "a MemoryCode checkout at another revision is refused, naming both revisions" {
	mkdir -p "$T/co/dataset"
	echo '{}' >"$T/co/dataset/dialogue_1.json"
	git -C "$T/co" init -q
	git -C "$T/co" add -A
	git -C "$T/co" -c user.name=pc-e2e -c user.email=pc-e2e@localhost commit -qm other
	local at
	at=$(git -C "$T/co" rev-parse HEAD)
	run --separate-stderr "$REPO/pipelines/memorycode-tasks" "$T/co" "$T/root"
	assert_exit 1
	assert_stderr_contains "memorycode-tasks: $T/co is a MemoryCode checkout at $at, not the pinned 1ab87e119b2f9a498de8075219e1c07f6041b394"
}

@test "without MEMORYCODE the error says how to get the pinned checkout; a directory without dataset/ is refused" {
	run --separate-stderr make -s memorycode-tasks
	assert_failure
	assert_stderr_contains "memorycode-tasks: MEMORYCODE names no MemoryCode; get the pinned checkout with"
	assert_stderr_contains "  git clone https://github.com/Cohere-Labs-Community/MemoryCode memorycode"
	assert_stderr_contains "  git -C memorycode checkout 1ab87e119b2f9a498de8075219e1c07f6041b394"
	run --separate-stderr "$REPO/pipelines/memorycode-tasks" "$T"
	assert_exit 1
	assert_stderr_contains "memorycode-tasks: $T has no dataset/ directory: it is not MemoryCode"
}

@test "a PowerContext without the sample is refused before anything is written" {
	# a checkout as pipelines/pc-powercontext knows one, without e2e/bub's sample
	mkdir -p "$T/mc/dataset" "$T/pc/integrations/bub" "$T/pc/e2e/bub"
	touch "$T/pc/pyproject.toml" "$T/pc/integrations/bub/pyproject.toml" "$T/pc/e2e/bub/pyproject.toml"
	git -C "$T/pc" init -q
	git -C "$T/pc" add -A
	git -C "$T/pc" -c user.name=pc-e2e -c user.email=pc-e2e@localhost commit -qm "no sample"
	POWERCONTEXT_E2E_REPOSITORY="$T/pc" run --separate-stderr "$REPO/pipelines/memorycode-tasks" "$T/mc"
	assert_exit 1
	assert_stderr_contains "memorycode-tasks: PowerContext $(git -C "$T/pc" rev-parse HEAD) has no MemoryCode sample"
	[[ ! -e $T/pc/e2e/bub/memorycode-tasks ]] || fail "tasks were written"
}

@test "make paired CATALOG=memorycode builds missing tasks from MEMORYCODE first; without it, says how to get MemoryCode before anything runs" {
	memorycode
	run --separate-stderr env OUTPUT="$T/a" CATALOG=memorycode CATALOG_ROOT="$T/root" TRIALS=1 \
		"$REPO/pipelines/paired" --id memorycode-2
	assert_exit 1
	assert_stderr_contains "memorycode-tasks: MEMORYCODE names no MemoryCode; get the pinned checkout with"
	[[ ! -e $T/a ]] || fail "OUTPUT was made before the catalog was ready"
	# memorycode-1 has a script, so the run's pre-check lets it through to OUTPUT
	run --separate-stderr env OUTPUT="$T/b" CATALOG=memorycode CATALOG_ROOT="$T/root" MEMORYCODE="$MC" TRIALS=1 \
		PC_E2E_AGENT=/bin/false "$REPO/pipelines/paired" --id memorycode-1
	assert_stderr_contains "memorycode-tasks: 50 tasks in $TASKS, every checksum its manifest's pin"
	assert_stderr_contains "paired: output in $T/b"
	assert_equal "$(ls "$TASKS" | wc -l)" 50
	# built and every pin matching, the catalog needs no MEMORYCODE again
	run --separate-stderr env OUTPUT="$T/c" CATALOG=memorycode CATALOG_ROOT="$T/root" TRIALS=1 \
		PC_E2E_AGENT=/bin/false "$REPO/pipelines/paired" --id memorycode-1
	assert_stderr_contains "paired: output in $T/c"
	[[ $stderr != *memorycode-tasks* ]] || fail "tasks were built again: $stderr"
}

@test "CATALOG=memorycode is a paired sample: make acceptance refuses it, and paired's usage names it among the catalogs" {
	run --separate-stderr env CATALOG=memorycode "$REPO/pipelines/acceptance"
	assert_exit 64
	assert_stderr_contains "acceptance: CATALOG=memorycode is a paired sample: make paired CATALOG=memorycode"
	run --separate-stderr env CATALOG="$T/nowhere" "$REPO/pipelines/paired"
	assert_exit 64
	assert_stderr_contains "paired: CATALOG=$T/nowhere is not a directory: give pc-e2e, powercontext, memorycode or a directory of workload manifests"
}

# scripted_dialogue RUNNER: memorycode-1 (one mentoring session) paired on
# RUNNER with the scripted model, one trial; the tasks built first when a
# data copy is there. Its recall turn first looks around the sandbox for
# the grader's files and PowerContext's settings, as a curious agent would.
scripted_dialogue() {
	[[ -z ${PC_SANITIZED:-} ]] || skip "a paired run through real Bub: its C is covered by paired-run.bats"
	memorycode
	run --separate-stderr env OUTPUT="$T/out" CATALOG=memorycode CATALOG_ROOT="$T/root" MEMORYCODE="$MC" TRIALS=1 \
		MODEL=scripted RUNNER="$1" "$REPO/pipelines/paired" --id memorycode-1
	assert_exit 0
}

# assert_graded: the grader, not the script, decided each arm, and its
# counts are kept under harbor.rewards; the step table has every session.
assert_graded() {
	local arm
	for arm in off on; do
		jq -c '[.outcome, .harbor.rewards.reward, .harbor.rewards.applicable_checks, .harbor.rewards.passed_checks]' \
			"$T/out/memorycode-1/trial-1/$arm/observation.json" >"$T/$arm.graded"
	done
	assert_equal "$(cat "$T/off.graded")" '["failed",0,2,0]'
	assert_equal "$(cat "$T/on.graded")" '["passed",1,2,2]'
	grep -q '^| session-1 | ON | 1 |' "$T/out/report.md" || fail "no session-1 row: $(cat "$T/out/report.md")"
	grep -q '^| recall | OFF | 1 |' "$T/out/report.md" || fail "no recall row"
}

@test "memorycode-1 on the local runner: OFF fails and ON passes by the grader; no session and no Source holds the gold; OFF sees no PowerContext" {
	scripted_dialogue local
	assert_graded
	run "$REPO/tests/bin/gold-leak-check" "$T/out" "$TASKS"
	assert_success
}

@test "memorycode-1 on the Harbor runner: the same, through the real Harbor CLI, and the report is what 1.4.1's own code makes of the arms" {
	scripted_dialogue harbor
	assert_graded
	run "$REPO/tests/bin/gold-leak-check" "$T/out" "$TASKS"
	assert_success
	run "$REPO/tests/reference/paired-check" --run "$T/out"
	assert_success
	refute_output --partial "not ok"
	assert_output --partial "ok paired-check report.md"
}
