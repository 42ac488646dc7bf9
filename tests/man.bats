#!/usr/bin/env bats
# The man pages, man/<filter>.1: one per filter the Makefile builds, each
# rendering without a warning, installed by `make install`, and documenting
# under OPTIONS exactly the options the filter's --help prints, so the page
# and the usage text cannot drift apart.

load test_helper

setup() {
	pc_setup
	MAN="$REPO/man"
	problems=()
}

# The filters, as the Makefile builds and installs them, one a line.
filters() {
	sed -n 's/^FILTERS *= *//p' "$REPO/Makefile" | tr -s ' ' '\n'
}

# problem TEXT: note one thing wrong; no_problems fails listing them all, so
# one run names every page that is off, not only the first.
problem() {
	problems+=("$1")
}

no_problems() {
	[[ ${#problems[@]} -eq 0 ]] && return 0
	fail "$(printf '%s\n' "${problems[@]}")"
}

# help_options FILTER: the options `FILTER --help` prints (every word that
# starts with - or -- after a blank or a bracket), with --help and --version,
# which every filter answers but its usage does not list; sorted, one a line.
help_options() {
	local usage
	usage=$("$PC_BIN/$1" --help) || { echo "$1 --help failed"; return 1; }
	{
		grep -oE -- '(^|[][ ])--?[a-z][a-z-]*' <<<"$usage" | sed 's/^[][ ]//'
		printf '%s\n' --help --version
	} | sort -u
}

# options_section PAGE: the OPTIONS section of PAGE, without its heading.
options_section() {
	sed -n '/^\.SH OPTIONS$/,/^\.SH /{/^\.SH /d;p}' "$1"
}

# page_options PAGE: the options PAGE documents: the tag of each .TP under
# OPTIONS that is `.B \-...` (a tag like pc-report's `.B text`, a value, is
# not an option), \- read as -; sorted, one a line.
page_options() {
	options_section "$1" | sed -n '/^\.TP$/{n;p}' |
		sed -n 's/^\.B \(\\-[^ ]*\).*/\1/p' | sed 's/\\-/-/g' | sort -u
}

# page_mentions PAGE: every long option named anywhere under OPTIONS.
page_mentions() {
	options_section "$1" | grep -oE '(\\-){2}[a-z]([a-z]|\\-)*' | sed 's/\\-/-/g' | sort -u
}

@test "every filter has a page and every page is a filter's" {
	run diff <(filters | sort) <(cd "$MAN" && ls -- *.1 | sed 's/\.1$//' | sort)
	assert_success
}

@test ".TH names the filter, section 1 and the version --version prints; NAME gives whatis its line" {
	local f page th version
	for f in $(filters); do
		page="$MAN/$f.1"
		th=$(head -n 1 "$page")
		version=$("$PC_BIN/$f" --version)
		[[ ${th,,} == ".th ${f,,} 1 "* ]] || problem "$f.1: first line is not .TH ${f^^} 1: $th"
		[[ $th == *"\"pc-e2e ${version##* }\""* ]] || problem "$f.1: .TH does not name pc-e2e ${version##* }: $th"
		[[ $(lexgrog "$page") == "$page: \"$f - "* ]] ||
			problem "$f.1: lexgrog finds no NAME line for $f: $(lexgrog "$page" 2>&1)"
	done
	no_problems
}

@test "every page has the sections, in order" {
	local f want got
	want=$(printf '%s\n' NAME SYNOPSIS DESCRIPTION OPTIONS ENVIRONMENT FILES "EXIT STATUS" EXAMPLES "SEE ALSO")
	for f in $(filters); do
		got=$(sed -n 's/^\.SH *//p' "$MAN/$f.1" | tr -d '"')
		[[ $got == "$want" ]] || problem "$f.1: sections are: $(echo $got)"
	done
	no_problems
}

@test "man renders every page without a warning, and groff -ww finds none at 80 columns" {
	local f page out
	for f in $(filters); do
		page="$MAN/$f.1"
		out=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null)
		[[ -z $out ]] || problem "man -l $f.1: $out"
		out=$(groff -man -Tutf8 -ww -z -rLL=78n "$page" 2>&1)
		[[ -z $out ]] || problem "groff -ww $f.1: $out"
		MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q "^ *$f - " ||
			problem "man -l $f.1 renders no NAME line"
	done
	no_problems
}

@test "OPTIONS documents exactly the options --help prints, each as a .TP tag" {
	local f help page
	for f in $(filters); do
		help=$(help_options "$f") || { problem "$help"; continue; }
		page=$(page_options "$MAN/$f.1")
		[[ $page == "$help" ]] ||
			problem "$f: --help prints: $(echo $help); OPTIONS documents: $(echo $page)"
		page=$(comm -13 <(echo "$help") <(page_mentions "$MAN/$f.1"))
		[[ -z $page ]] || problem "$f: OPTIONS names what --help does not print: $(echo $page)"
	done
	no_problems
}

@test "SEE ALSO names every other filter" {
	local f g
	for f in $(filters); do
		for g in $(filters); do
			[[ $g == "$f" ]] && continue
			sed -n '/^\.SH "*SEE ALSO/,$p' "$MAN/$f.1" | grep -qF ".BR ${g//-/\\-} (1)" ||
				problem "$f.1: SEE ALSO does not name $g(1)"
		done
	done
	no_problems
}

# make_install TARGET: `make TARGET` into $T/inst with PREFIX=/usr, using the
# filters under test and building nothing (-o all): no make of the caller's
# leaks in (make test runs this suite from make).
make_install() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s -C "$REPO" -o all "$1" PREFIX=/usr DESTDIR="$T/inst" BIN="$PC_BIN"
}

@test "make install puts every page, mode 644, where man finds it; make uninstall removes it" {
	local f man1="$T/inst/usr/share/man/man1"
	run --separate-stderr make_install install
	assert_status 0
	for f in $(filters); do
		cmp -s "$MAN/$f.1" "$man1/$f.1" || problem "$man1/$f.1 is not man/$f.1"
		[[ $(stat -c %a "$man1/$f.1" 2>&1) == 644 ]] || problem "$man1/$f.1: mode $(stat -c %a "$man1/$f.1" 2>&1)"
		[[ $(man -M "$T/inst/usr/share/man" -w "$f" 2>&1) == "$man1/$f.1" ]] ||
			problem "man -M does not find $f: $(man -M "$T/inst/usr/share/man" -w "$f" 2>&1)"
	done
	no_problems
	run --separate-stderr make_install uninstall
	assert_status 0
	run find "$T/inst" -type f
	assert_output ''
}
