#!/usr/bin/env bats
# The docs that describe the code, held against it (tests/bin/check-docs):
# docs/DESIGN.md §7's module tables against the files of each filter folder
# and sub-folder, run-bub's includes against §7's layers, its pipelines/
# table against the files of pipelines/; HACKING.md's and §4's exit codes
# against filters/lib/stage.h; every § citation in the repository against
# DESIGN's headings, and its table of contents against them; the house's
# size limits; make lint's check that a message is one string literal; and
# the order tests/bin/run-suites starts the suites in.

load test_helper

setup() {
	pc_setup
}

# a copy of what check-docs reads, for a test to break
docs_copy() {
	mkdir -p "$T/root/docs"
	cp -r "$REPO/filters" "$REPO/pipelines" "$T/root/"
	cp "$REPO/docs/DESIGN.md" "$T/root/docs/"
	cp "$REPO/HACKING.md" "$T/root/"
}

@test "DESIGN §7 names every module of every filter folder, and nothing else; HACKING and §4 give stage.h's exit codes; every § cited is a heading; the contents are the headings" {
	run "$REPO/tests/bin/check-docs"
	[[ $status -eq 0 ]] || fail "check-docs found differences:"$'\n'"$output"
}

@test "a module missing from DESIGN §7, or a row naming a file that is gone, is named" {
	docs_copy
	printf '/* newmod: a module no table names */\n' >"$T/root/filters/report/newmod.h"
	rm "$T/root/filters/run-bub/paired/hosts.c" "$T/root/filters/run-bub/paired/hosts.h"
	printf '/* newmod: a module no table names */\n' >"$T/root/filters/run-bub/local/newmod.c"
	mkdir "$T/root/filters/run-bub/agents"
	printf '/* codex: a sub-folder no table names */\n' >"$T/root/filters/run-bub/agents/codex.c"
	run "$REPO/tests/bin/check-docs" "$T/root"
	assert_equal "$status" 1
	[[ $output == *"filters/report/newmod is in no row of the \`filters/report/\` table"* ]] || fail "$output"
	[[ $output == *"§7 names \`hosts\`, but filters/run-bub/paired/ has no hosts.c or hosts.h"* ]] || fail "$output"
	[[ $output == *"filters/run-bub/local/newmod is in no row of the \`filters/run-bub/local/\` table"* ]] || fail "$output"
	[[ $output == *"no \"#### \`filters/run-bub/agents/\`\" table for filters/run-bub/agents/"* ]] || fail "$output"
}

@test "an include of run-bub reaching a higher layer, or a folder of its own layer, is named" {
	docs_copy
	sed -i 's|#include "run/run.h"|#include "options.h"|' "$T/root/filters/run-bub/harbor/harbor_check.c"
	sed -i 's|#include "server/settle.h"|#include "server/settle.h"\n#include "local/local.h"|' \
		"$T/root/filters/run-bub/paired/arm.c"
	run "$REPO/tests/bin/check-docs" "$T/root"
	assert_equal "$status" 1
	[[ $output == *'filters/run-bub/harbor/harbor_check.c: includes "options.h", of the root, which is not on a lower layer than its own folder in docs/DESIGN.md §7'* ]] || fail "$output"
	[[ $output == *'filters/run-bub/paired/arm.c: includes "local/local.h", of local/, which is not on a lower layer than its own folder in docs/DESIGN.md §7'* ]] || fail "$output"
}

@test "a file of pipelines/ missing from DESIGN §7's table, a row naming a file that is gone, or a kind of no known kind is named" {
	docs_copy
	printf '#!/bin/sh\n' >"$T/root/pipelines/newrun"
	rm "$T/root/pipelines/bench"
	sed -i 's/^| `units.bash` | sourced |/| `units.bash` | library |/' "$T/root/docs/DESIGN.md"
	run "$REPO/tests/bin/check-docs" "$T/root"
	assert_equal "$status" 1
	[[ $output == *"pipelines/newrun is in no row of the \`pipelines/\` table"* ]] || fail "$output"
	[[ $output == *"§7 names \`bench\`, but pipelines/ has no bench"* ]] || fail "$output"
	[[ $output == *"pipelines/units.bash's kind is \"library\", not one of run, units, service, provisioning, sourced"* ]] ||
		fail "$output"
}

@test "HACKING's or DESIGN §4's exit codes differing from stage.h are named" {
	docs_copy
	sed -i 's/3 inconclusive, 4$/3 inconclusive,/' "$T/root/HACKING.md"
	sed -i 's/in the order 1, 2, 4, 3, 0/in the order 1, 2, 3, 4, 0/' "$T/root/docs/DESIGN.md"
	run "$REPO/tests/bin/check-docs" "$T/root"
	assert_equal "$status" 1
	[[ $output == *"HACKING.md: exit codes [0, 1, 2, 3, 64] differ from filters/lib/stage.h's [0, 1, 2, 3, 4, 64]"* ]] || fail "$output"
	[[ $output == *"docs/DESIGN.md §4: the worst-first order [1, 2, 3, 4, 0] differs from filters/lib/stage.h's [1, 2, 4, 3, 0]"* ]] || fail "$output"
	docs_copy
	sed -i 's/EXIT_USAGE = 64,/EXIT_USAGE = 64,\n\tEXIT_LATE = 5,/' "$T/root/filters/lib/stage.h"
	run "$REPO/tests/bin/check-docs" "$T/root"
	assert_equal "$status" 1
	[[ $output == *"HACKING.md: exit codes [0, 1, 2, 3, 4, 64] differ from filters/lib/stage.h's [0, 1, 2, 3, 4, 5, 64]"* ]] || fail "$output"
}

@test "a § citing no heading of DESIGN is named with its file and line; another document's § is not" {
	docs_copy
	mkdir -p "$T/root/docs" "$T/root/man"
	# written through printf so that this file holds no broken citation itself
	printf 'x\n/* docs/DESIGN.md %s5.4, %s9.9 and %s5.5 */\n' § § § >"$T/root/filters/lib/stage.c"
	printf 'see %s12 and %s13\nRFC 0081 %s3, %s99; SPEC.md %s8\n' § § § § § >"$T/root/docs/topic.md"
	printf '.SH NAME\nx \\- y (DESIGN %s3.9)\n' § >"$T/root/man/x.1"
	run "$REPO/tests/bin/check-docs" "$T/root"
	assert_equal "$status" 1
	assert_equal "$(grep -c 'names no heading' <<<"$output")" 3
	local s=§
	[[ $output == *"filters/lib/stage.c:2: ${s}9.9 names no heading of docs/DESIGN.md"* ]] || fail "$output"
	[[ $output == *"docs/topic.md:1: ${s}13 names no heading of docs/DESIGN.md"* ]] || fail "$output"
	[[ $output == *"man/x.1:2: ${s}3.9 names no heading of docs/DESIGN.md"* ]] || fail "$output"
}

@test "DESIGN's table of contents differing from its headings is named, and --toc prints the right one" {
	docs_copy
	sed -i 's/^### 3.2 Outcome case$/### 3.2 Outcome cases/' "$T/root/docs/DESIGN.md"
	run "$REPO/tests/bin/check-docs" "$T/root"
	assert_equal "$status" 1
	[[ $output == *"docs/DESIGN.md:"*": the table of contents says '  - [3.2 Outcome case](#32-outcome-case)' where the headings give '  - [3.2 Outcome cases](#32-outcome-cases)'"* ]] ||
		fail "$output"
	run "$REPO/tests/bin/check-docs" --toc "$T/root"
	assert_success
	assert_line '  - [3.2 Outcome cases](#32-outcome-cases)'
	docs_copy
	sed -i '/^<!-- \/toc -->$/d' "$T/root/docs/DESIGN.md"
	run "$REPO/tests/bin/check-docs" "$T/root"
	assert_equal "$status" 1
	assert_output --partial 'docs/DESIGN.md: no table of contents between "<!-- toc" and "<!-- /toc -->"'
}

@test "every filter's main is at most 300 lines and no C file in filters/ passes 500" {
	local f n over=
	for f in "$REPO"/filters/*/*.[ch] "$REPO"/filters/*/*/*.[ch]; do
		n=$(wc -l <"$f")
		case $f in */pc-*.c) ((n <= 300)) || over+=" ${f#"$REPO"/} ($n lines, a main)" ;; esac
		((n <= 500)) || over+=" ${f#"$REPO"/} ($n lines)"
	done
	[[ -z $over ]] || fail "over the limit:$over"
}

@test "make lint's message check names a message split across string literals, and lets a help text's lines stand apart" {
	printf 'int f(void)\n{\n\tputs("usage: x\\n"\n\t     "  -h  help\\n");\n\treturn fail("cannot read "\n\t\t    "the file");\n}\n' >"$T/split.c"
	run "$REPO/tests/bin/split-messages" "$T/split.c"
	assert_equal "$status" 1
	assert_equal "$output" "$T/split.c:5: a message split across string literals: \"cannot read \""
}

@test "run-suites starts the suites longest first by their last logs' times, those without one first, most tests first" {
	mkdir -p "$T/suites" "$T/logs"
	local name
	for name in short long unknown few; do
		printf '@test "one" { :; }\n' >"$T/suites/$name.bats"
	done
	printf '@test "two" { :; }\n' >>"$T/suites/unknown.bats"
	printf 'ok 1 one\n# short: 5 s\n' >"$T/logs/short.log"
	printf 'ok 1 one\n# long: 50 s\n' >"$T/logs/long.log"
	# a run stopped half-way left no time
	printf 'ok 1 one\n' >"$T/logs/few.log"
	printf '#!/bin/sh\nbasename "$1" .bats >>"%s"\necho 1..0\n' "$T/order" >"$T/bats"
	chmod +x "$T/bats"
	run env BATS="$T/bats" BATS_FLAGS= TEST_JOBS=1 "$REPO/tests/bin/run-suites" "$T/logs" "$T"/suites/*.bats
	assert_success
	assert_equal "$(cat "$T/order")" "$(printf '%s\n' unknown few long short)"
	# each log now ends with its own time, for the next run
	for name in short long unknown few; do
		[[ $(tail -n 1 "$T/logs/$name.log") =~ ^"# $name: "[0-9]+" s"$ ]] || fail "$(cat "$T/logs/$name.log")"
	done
	# without any log: most tests first, then the order given
	rm "$T"/logs/* "$T/order"
	run env BATS="$T/bats" BATS_FLAGS= TEST_JOBS=1 "$REPO/tests/bin/run-suites" "$T/logs" "$T"/suites/{short,unknown,long}.bats
	assert_success
	assert_equal "$(cat "$T/order")" "$(printf '%s\n' unknown short long)"
}
