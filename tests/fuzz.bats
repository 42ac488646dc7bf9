#!/usr/bin/env bats
# The fuzz corpora (tests/fuzz/corpus/) as ordinary inputs to the filters:
# every input a fuzzer kept, and every crash it found once, must end in an
# orderly exit (0 to 3), never a signal. `make fuzz` runs the fuzzers
# themselves (HACKING.md).

load test_helper

setup() {
	pc_setup
	CORPUS="$REPO/tests/fuzz/corpus"
}

# orderly STATUS NAME: an exit status a filter may end with.
orderly() {
	[[ $1 -ge 0 && $1 -le 3 ]] || fail "$2: exit status $1 (a signal or an abort)"
}

@test "document corpus: pc-normalize, pc-evaluate and pc-report end in order on every input" {
	local f filter
	for f in "$CORPUS"/documents/*; do
		for filter in pc-normalize pc-evaluate pc-report; do
			run --separate-stderr "$PC_BIN/$filter" <"$f"
			orderly "$status" "$filter < ${f#"$REPO"/}"
		done
	done
}

@test "evaluate corpus: pc-evaluate ends in order on every input, under both policies" {
	local f policy
	for f in "$CORPUS"/evaluate/*; do
		for policy in collect-all fail-fast; do
			run --separate-stderr "$PC_BIN/pc-evaluate" --failure-policy "$policy" <"$f"
			orderly "$status" "pc-evaluate --failure-policy $policy < ${f#"$REPO"/}"
		done
	done
}

@test "manifest corpus: pc-select ends in order on every input" {
	local f
	for f in "$CORPUS"/manifest/*; do
		cp "$f" "$T/manifest.yaml"
		run --separate-stderr "$PC_BIN/pc-select" --manifests "$T/manifest.yaml" --root "$REPO" --category acceptance
		orderly "$status" "pc-select --manifests ${f#"$REPO"/}"
	done
}
