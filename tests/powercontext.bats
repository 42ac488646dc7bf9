#!/usr/bin/env bats
# Choosing the PowerContext under test (docs/DESIGN.md §5.9):
# pipelines/pc-powercontext's refusals, what it names, and a PowerContext
# checkout (POWERCONTEXT_E2E_REPOSITORY) tested end to end: its Server, its
# plugin, its commit in the replay.

load test_helper
load exec_helper

PCP="$REPO/pipelines/pc-powercontext"
# A git checkout made from the newest release's sdist, kept in the tool cache
# so its venvs are built once (the cache key is the checkout's path).
CHECKOUT="$REPO/.tools/test-checkout/powercontext"

setup() {
	pc_setup
	unset POWERCONTEXT_E2E_VERSION POWERCONTEXT_E2E_REPOSITORY
}

@test "releases: the supported releases, oldest first; the default is the newest" {
	run --separate-stderr "$PCP" releases
	assert_exit 0
	[[ ${lines[0]} == 0.0.1 ]] || fail "first release: ${lines[0]}"
	[[ $("$PCP" commit) == "${lines[-1]}" ]] || fail "the default is not the newest release: $("$PCP" commit)"
	[[ $(POWERCONTEXT_E2E_VERSION=0.2.0 "$PCP" commit) == 0.2.0 ]] || fail "POWERCONTEXT_E2E_VERSION is not what is named"
}

@test "an unknown release is refused before anything is installed, naming the supported ones" {
	POWERCONTEXT_E2E_VERSION=9.9.9 run --separate-stderr "$PCP" server
	assert_exit 1
	assert_contains "$stderr" "PowerContext 9.9.9 is not a release pc-e2e supports (supported: 0.0.1 " "stderr"
	assert_output ""
	[[ ! -e $REPO/.tools/powercontext/9.9.9 ]] || fail "something was made for 9.9.9"
}

@test "a version and a checkout at once, or a directory that is no checkout, are refused" {
	POWERCONTEXT_E2E_VERSION=1.4.1 POWERCONTEXT_E2E_REPOSITORY="$T" run --separate-stderr "$PCP" source
	assert_exit 1
	assert_contains "$stderr" "set POWERCONTEXT_E2E_VERSION or POWERCONTEXT_E2E_REPOSITORY, not both" "stderr"
	POWERCONTEXT_E2E_REPOSITORY="$T" run --separate-stderr "$PCP" source
	assert_exit 1
	assert_contains "$stderr" "POWERCONTEXT_E2E_REPOSITORY=$T is not a PowerContext checkout (no pyproject.toml" "stderr"
	run --separate-stderr "$PCP" nonsense
	assert_exit 64
}

@test "make acceptance on a PowerContext checkout: its own Server and plugin, its commit in the replay" {
	local source commit out="$T/acc"
	if [[ ! -d $CHECKOUT/.git ]]; then
		source=$("$PCP" source)
		rm -rf "$CHECKOUT" && mkdir -p "$CHECKOUT"
		cp -a "$source/." "$CHECKOUT/"
		rm -f "$CHECKOUT/.pc-e2e-sha256"
		git -C "$CHECKOUT" init -q
		git -C "$CHECKOUT" add -A
		git -C "$CHECKOUT" -c user.name=pc-e2e -c user.email=pc-e2e@localhost commit -qm "the newest release's sdist"
	fi
	commit=$(git -C "$CHECKOUT" rev-parse HEAD)
	[[ $(POWERCONTEXT_E2E_REPOSITORY="$CHECKOUT" "$PCP" commit) == "$commit" ]] || fail "commit is not the checkout's"
	run --separate-stderr env POWERCONTEXT_E2E_REPOSITORY="$CHECKOUT" OUTPUT="$out" \
		timeout -k 10 1200 "$REPO/pipelines/acceptance" --id project-database-decision 3>&-
	assert_exit 0
	[[ $(jq -r .environment.commit "$out/project-database-decision/replay.json") == "$commit" ]] ||
		fail "environment.commit: $(jq -r .environment.commit "$out/project-database-decision/replay.json")"
	[[ $(jq -r .environment.adapter_version "$out/project-database-decision/replay.json") == "bub "*" + powercontext-bub "* ]] ||
		fail "adapter_version: $(jq -r .environment.adapter_version "$out/project-database-decision/replay.json")"
	assert_contains "$stderr" "provisioning (PowerContext $commit, Bub, runner local)" "stderr"
}
