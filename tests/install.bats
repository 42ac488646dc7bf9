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

# apt_sources: an apt configuration (APT_CONFIG) whose sources are $T/apt's:
# a one-line list with a deb-src line and a -security suite (neither holds
# the pool a source package is fetched from), and a deb822 file with a
# disabled stanza, one without main, and the mirror.
apt_sources() {
	mkdir -p "$T/apt/sources.list.d"
	cat >"$T/apt/sources.list" <<-LIST
		deb-src http://src.invalid/debian bookworm main
		deb [arch=amd64] http://security.invalid/debian-security bookworm-security main
	LIST
	cat >"$T/apt/sources.list.d/debian.sources" <<-SOURCES
		Types: deb
		URIs: http://disabled.invalid/debian
		Suites: bookworm
		Components: main
		Enabled: no

		Types: deb
		URIs: http://contrib.invalid/debian
		Suites: bookworm
		Components: contrib

		# the mirror
		Types: deb deb-src
		URIs: ${1:-http://mirror.invalid/debian}/ http://second.invalid/debian
		Suites: bookworm-updates bookworm
		Components: main contrib
	SOURCES
	printf 'Dir::Etc::sourcelist "%s";\nDir::Etc::sourceparts "%s";\n' \
		"$T/apt/sources.list" "$T/apt/sources.list.d" >"$T/apt/apt.conf"
	export APT_CONFIG="$T/apt/apt.conf"
	unset PC_E2E_DEBIAN_MIRROR
}

@test "debian-mirror prints the mirror apt's own sources name; PC_E2E_DEBIAN_MIRROR overrides it" {
	apt_sources
	run --separate-stderr "$REPO/pipelines/debian-mirror"
	[[ $status -eq 0 ]] || fail "exit $status: $stderr"
	assert_equal "$output" "http://mirror.invalid/debian"
	PC_E2E_DEBIAN_MIRROR=http://override.invalid/debian/ run --separate-stderr "$REPO/pipelines/debian-mirror"
	assert_equal "$output" "http://override.invalid/debian"
}

@test "debian-mirror without a mirror in apt's sources fails naming the files read and the variable to set" {
	apt_sources
	rm "$T/apt/sources.list.d/debian.sources"
	run --separate-stderr "$REPO/pipelines/debian-mirror"
	assert_equal "$status" 1
	assert_stderr_contains "no Debian mirror in apt's sources ($T/apt/sources.list, $T/apt/sources.list.d/*.sources)" \
		"set PC_E2E_DEBIAN_MIRROR"
	# and the first build says so, naming what it could not fetch
	run --separate-stderr "$REPO/pipelines/fetch-yyjson" "$T/yyjson"
	assert_equal "$status" 1
	assert_stderr_contains "fetch-yyjson: no Debian mirror to fetch yyjson_0.10.0+ds.orig.tar.xz from"
	[[ ! -e $T/yyjson/yyjson.c ]] || fail "yyjson.c was written"
}

@test "the first build fetches yyjson from the mirror apt's sources name" {
	local tarball="$REPO/${YYJSON_DIR:-build/yyjson}/yyjson_0.10.0+ds.orig.tar.xz"
	[[ -s $tarball ]] || skip "no yyjson tarball kept by this checkout's build"
	mkdir -p "$T/mirror/debian/pool/main/y/yyjson"
	cp "$tarball" "$T/mirror/debian/pool/main/y/yyjson/"
	apt_sources "file://$T/mirror/debian"
	run --separate-stderr "$REPO/pipelines/fetch-yyjson" "$T/yyjson"
	[[ $status -eq 0 ]] || fail "exit $status: $stderr"
	assert_stderr_contains "from file://$T/mirror/debian (first build only)"
	[[ -s $T/yyjson/yyjson.c && -s $T/yyjson/yyjson.h ]] || fail "yyjson.c or yyjson.h missing"
}

@test "no package registry's host is named in the tree" {
	cd "$REPO"
	run git grep -n -i -E '(deb|ftp|security|snapshot|archive)\.debian\.org|pypi\.(org|python\.org)|pythonhosted\.org|registry\.npmjs\.org|crates\.io' -- .
	[[ $status -eq 1 ]] || fail "registry hosts in the tree:"$'\n'"$output"
}
