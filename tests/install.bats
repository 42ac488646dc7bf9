#!/usr/bin/env bats
# pipelines/install-deps, which make test and make acceptance run first.

load test_helper

setup() {
	pc_setup
}

# fake_tools: a PATH where every package looks missing (dpkg-query finds
# none), the user is not root, and there is no sudo.
fake_tools() {
	mkdir -p "$T/fake"
	printf '#!/bin/sh\nexit 1\n' >"$T/fake/dpkg-query"
	printf '#!/bin/sh\necho 1000\n' >"$T/fake/id"
	chmod +x "$T/fake/dpkg-query" "$T/fake/id"
	local tool
	for tool in sh grep; do
		ln -s "$(command -v "$tool")" "$T/fake/$tool"
	done
}

@test "install-deps without root or sudo names the missing packages and the apt-get line to run, and fails" {
	fake_tools
	run --separate-stderr env PATH="$T/fake" "$T/fake/sh" "$REPO/pipelines/install-deps"
	[[ $status -eq 1 ]] || fail "exit $status: $stderr"
	assert_stderr_contains "these Debian packages are missing:" "libjq-dev" "bubblewrap"
	assert_stderr_contains "as root, run: apt-get install --no-install-recommends"
}

@test "install-deps with every package installed does nothing and succeeds" {
	mkdir -p "$T/fake"
	printf '#!/bin/sh\nprintf "install ok installed"\n' >"$T/fake/dpkg-query"
	printf '#!/bin/sh\necho "apt-get must not run" >&2; exit 9\n' >"$T/fake/apt-get"
	chmod +x "$T/fake/dpkg-query" "$T/fake/apt-get"
	PATH="$T/fake:$PATH" run --separate-stderr "$REPO/pipelines/install-deps"
	[[ $status -eq 0 ]] || fail "exit $status: $stderr"
	[[ -z $stderr ]] || fail "it said something: $stderr"
}
