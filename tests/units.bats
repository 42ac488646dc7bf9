#!/usr/bin/env bats
# filters/lib/ units checked against what they stand in for, on random
# values (tests/units/): the JSON writer every filter writes with
# (json_out.c), byte for byte what libjq's jv_dump_string writes, compact,
# canonical (sorted keys: the comparability digest and the ledger's keys are
# taken of it) and indented (artifact files); text.c's number formatting for
# the evaluation's reasons, printf's "%.3f" and "%lld"; and shape_strings.c's sha256
# rule, which reads 8 bytes at a time, against the rule byte by byte.

load test_helper

setup() {
	pc_setup
}

# build_check NAME SOURCES…: tests/units/NAME.c into $T/NAME, linked with
# those lib sources as the filters link them (under the sanitizers when the
# suite runs sanitized).
build_check() {
	local name=$1 flags=(-std=c11 -D_XOPEN_SOURCE=700 -O1 -g -Wall -Wextra -Werror)
	shift
	[[ -n "${PC_SANITIZED:-}" ]] && flags+=(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
	cc "${flags[@]}" -Ifilters/lib -o "$T/$name" "tests/units/$name.c" "$@" filters/lib/err.c \
		-ljq -lutf8proc -lm
}

@test "json_out writes 750,000 random values as jq writes them, in the three layouts" {
	build_check json-out-check filters/lib/json_out.c
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

@test "sbuf_add_fixed and sbuf_add_int write 2,000,000 random values as printf does" {
	build_check fixed-check filters/lib/text.c
	local seed
	for seed in 1 2; do
		run "$T/fixed-check" 1000000 "$seed"
		assert_status 0
		assert_output "1000000 values: identical"
	done
}

@test "fixed-check fails on a difference: a formatter that rounds halves down is caught" {
	# the check must be able to fail: rounding at 0.6 instead of 0.5
	sed 's/y - whole < 0.5 ? whole/y - whole < 0.6 ? whole/' filters/lib/text.c >"$T/text.c"
	grep -q 'y - whole < 0.6' "$T/text.c" || fail "the rounding rule was not found to change"
	cp filters/lib/text.h "$T/"
	cc -std=c11 -D_XOPEN_SOURCE=700 -O1 -Ifilters/lib -o "$T/broken-check" \
		tests/units/fixed-check.c "$T/text.c" filters/lib/err.c -ljq -lutf8proc -lm
	run "$T/broken-check" 100000 1
	assert_status 1
	assert_output --partial "differs:"
}

@test "shape_check_hex64 agrees with the byte-by-byte rule on 3,000,000 strings" {
	build_check hex-check filters/lib/shape_strings.c
	run "$T/hex-check" 3000000 1
	assert_status 0
	assert_output "3000000 strings: agreed"
}

@test "hex-check fails on a difference: a rule that takes g for a hex digit is caught" {
	sed "s/bytes_within(x, 'a', 'f')/bytes_within(x, 'a', 'g')/" filters/lib/shape_strings.c >"$T/shape_strings.c"
	grep -q "bytes_within(x, 'a', 'g')" "$T/shape_strings.c" || fail "the range was not found to change"
	cp filters/lib/shape_strings.h "$T/"
	cc -std=c11 -D_XOPEN_SOURCE=700 -O1 -Ifilters/lib -o "$T/broken-hex" \
		tests/units/hex-check.c "$T/shape_strings.c" filters/lib/err.c -ljq -lm
	run "$T/broken-hex" 3000000 1
	assert_status 1
	assert_output --partial "differs:"
}
