#!/usr/bin/env bats
# The JSON writer every filter writes with (filters/lib/json_out.c): byte
# for byte what libjq's jv_dump_string writes, compact, canonical (sorted
# keys: the comparability digest and the ledger's keys are taken of it) and
# indented (artifact files), on random values (tests/units/json-out-check.c).

load test_helper

setup() {
	pc_setup
}

# build_check: the check program, linked with the writer as the filters
# link it (under the sanitizers when the suite runs sanitized).
build_check() {
	local flags=(-std=c11 -D_XOPEN_SOURCE=700 -O1 -g -Wall -Wextra -Werror)
	[[ -n "${PC_SANITIZED:-}" ]] && flags+=(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
	cc "${flags[@]}" -Ifilters/lib $(pkg-config --cflags libjq 2>/dev/null) -o "$T/json-out-check" \
		tests/units/json-out-check.c filters/lib/json_out.c filters/lib/err.c -ljq -lm
}

@test "json_out writes 750,000 random values as jq writes them, in the three layouts" {
	build_check
	local seed
	for seed in 1 2 3; do
		run "$T/json-out-check" 250000 "$seed"
		assert_status 0
		assert_output --regexp '^250000 values, [0-9]+ bytes: identical in the three layouts$'
	done
}

@test "json-out-check fails on a difference: a writer that writes 1e-05 as 0.00001 is caught" {
	# the check must be able to fail: the writer with jq's exponent rule
	# moved by one place (plain digits down to 10^-5) differs from jq
	sed 's/decpt <= -4 ||/decpt <= -5 ||/' filters/lib/json_out.c >"$T/json_out.c"
	grep -q 'decpt <= -5 ||' "$T/json_out.c" || fail "the exponent rule was not found to change"
	cp filters/lib/json_out.h "$T/"
	cc -std=c11 -D_XOPEN_SOURCE=700 -O1 -Ifilters/lib -I"$T" -o "$T/broken-check" \
		tests/units/json-out-check.c "$T/json_out.c" filters/lib/err.c -ljq -lm
	run "$T/broken-check" 100000 1
	assert_status 1
	assert_output --partial "differs:"
}
