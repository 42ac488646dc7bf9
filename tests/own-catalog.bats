#!/usr/bin/env bats
# A catalog of the user's own (issue 36): README's "Your own workload" block,
# run as it is written from an empty directory, through the real Bub on a
# fresh Server; then the rescore judges the replay against the catalog the
# run recorded, fresh and, once the probe changed, stale. The catalog
# settings' refusals come before anything is run or written.

load test_helper
load exec_helper

setup_file() {
	exec_setup_file
}

teardown_file() {
	exec_teardown_file
}

setup() {
	exec_setup
}

# readme_block HEADING: the first ```sh block under README's "## HEADING".
readme_block() {
	awk -v h="## $1" '$0 == h { under = 1; next }
		under && /^## / { exit }
		under && /^```sh$/ { inside = 1; next }
		inside && /^```$/ { exit }
		inside { print }' "$REPO/README.md"
}

@test "README's 'Your own workload', followed verbatim from an empty directory: accepted, rescored fresh, then stale once the probe changed" {
	[[ -z ${PC_SANITIZED:-} ]] || skip "a whole acceptance run through real Bub: its C is covered by the other suites"
	readme_block "Your own workload" >"$T/recipe.sh"
	[[ $(grep -c . "$T/recipe.sh") -gt 10 ]] || fail "no recipe found under '## Your own workload': $(cat "$T/recipe.sh")"
	mkdir "$T/empty"
	cd "$T/empty"
	run --separate-stderr env PATH="$REPO:$PC_BIN:$PATH" timeout -k 10 "$EXEC_LIMIT" bash -e "$T/recipe.sh" 3>&-
	assert_exit 0
	[[ ${stderr_lines[-1]} == "pc-e2e rescore: exit 0: accepted: every workload accepted" ]] ||
		fail "the rescore's last line: ${stderr_lines[-1]}"
	assert_files out/mine/standup-time/replay.json out/mine/standup-time/eval-report.json out/mine/catalog.json
	[[ $(jq -r .manifests out/mine/catalog.json) == "$T/empty/my-catalog" ]] || fail "$(cat out/mine/catalog.json)"
	[[ $(jq -c '[.cases[0].name, .cases[0].assertions.recall_probes_supported.value]' out/mine/standup-time/eval-report.json) == \
		'["standup-time",true]' ]] || fail "$(jq -c .cases[0].assertions out/mine/standup-time/eval-report.json)"

	# from elsewhere, without naming the catalog: the run's own record is used
	sed -i 's/When do stand-ups start?/At what time do stand-ups start?/' my-catalog/standup-time.yaml
	cd "$T"
	run --separate-stderr env PATH="$REPO:$PC_BIN:$PATH" pc-e2e rescore "$T/empty/out/mine/standup-time/replay.json"
	assert_exit 4
	assert_output --partial "stale: the catalog changed evaluation.probes since it ran"
	[[ ${stderr_lines[-1]} == "pc-e2e rescore: exit 4: stale: nothing failed, but a workload's manifest changed since it ran" ]] ||
		fail "the last line: ${stderr_lines[-1]}"
}

@test "CATALOG that is not a directory, an unknown setting, a second --manifests: usage errors before a Server starts or OUTPUT is made" {
	run --separate-stderr env PC_BIN="$PC_BIN" "$REPO/pc-e2e" acceptance CATALOG="$T/nowhere" OUTPUT="$T/out"
	assert_exit 64
	assert_stderr_contains "acceptance: CATALOG=$T/nowhere is not a directory: give pc-e2e, powercontext or a directory of workload manifests"
	[[ ${stderr_lines[-1]} == "pc-e2e acceptance: exit 64: usage error" ]] || fail "${stderr_lines[-1]}"
	[[ ! -e $T/out ]] || fail "OUTPUT was made: $(ls -A "$T/out")"
	run --separate-stderr "$REPO/pc-e2e" acceptence
	assert_exit 64
	[[ ${stderr_lines[0]} == "pc-e2e: unknown command 'acceptence'" && ${stderr_lines[1]} == "usage: ./pc-e2e acceptance "* ]] ||
		fail "$stderr"
	run --separate-stderr env PC_BIN="$PC_BIN" "$REPO/pc-e2e" paired CATALOGUE=mine OUTPUT="$T/out"
	assert_exit 64
	assert_stderr_contains "pc-e2e paired: unknown setting CATALOGUE"
	[[ ! -e $T/out ]] || fail "OUTPUT was made"
	# the route that used to work by accident: a second --manifests replaced the first
	run --separate-stderr env PC_BIN="$PC_BIN" "$REPO/pc-e2e" acceptance OUTPUT="$T/out" --manifests "$REPO/manifests"
	assert_exit 64
	assert_stderr_contains "pc-select: --manifests given twice"
	[[ ! -e $T/out ]] || fail "OUTPUT was made"
	# a catalog pc-select refuses is said before the Server starts
	mkdir "$T/bad"
	printf 'schema: powercontext.e2e-task/v1\nid: Not An Id\n' >"$T/bad/bad.yaml"
	run --separate-stderr env PC_BIN="$PC_BIN" "$REPO/pc-e2e" acceptance CATALOG="$T/bad" OUTPUT="$T/out"
	assert_exit 1
	assert_stderr_contains "$T/bad/bad.yaml"
	refute_stderr_contains "pc-server:"
	[[ ! -e $T/out ]] || fail "OUTPUT was made"
	# paired and rescore read the same directory
	run --separate-stderr env PC_BIN="$PC_BIN" "$REPO/pc-e2e" paired CATALOG="$T/bad" OUTPUT="$T/out"
	assert_exit 1
	assert_stderr_contains "$T/bad/bad.yaml"
	[[ ! -e $T/out ]] || fail "OUTPUT was made"
	run --separate-stderr env PC_BIN="$PC_BIN" "$REPO/pc-e2e" rescore CATALOG="$T/bad" "$ACCEPTED"
	assert_exit 1
	assert_stderr_contains "$T/bad/bad.yaml"
}

@test "make acceptance keeps the exact status on its last line of its own, under make's flattened 2" {
	run --separate-stderr make -s -C "$REPO" acceptance CATALOG="$T/nowhere" OUTPUT="$T/out"
	assert_exit 2
	assert_stderr_contains "pc-e2e acceptance: exit 64: usage error"
}
