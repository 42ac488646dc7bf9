#!/usr/bin/env bats
# A paired run's spend and faults (docs/paired.md): PRICES and BUDGET_USD
# refused before anything runs, each arm's account.json beside its
# observation (pc-normalize --paired), paired-run.json (pc-evaluate
# --paired), and what pc-report --paired says of them in text, run.md and
# the page, report.md staying 1.4.1's; then real scripted runs, whose
# figures are held to the scripted model's own ledger.

load test_helper

setup() {
	pc_setup
	printf '{"*": {"input": 3, "cached_input": 0.3, "output": 15}}\n' >"$T/prices.json"
}

RATE_LIMIT='{"class": "provider", "kind": "rate-limit", "transient": true, "step": "capture", "status": 429, "retry_after": 2, "words": "Rate limit reached"}'

# a_run: two trials of workload w (trial 1's OFF arm errored on a 429),
# their accounts, pc-evaluate --paired --output $T/out; the report in
# $T/paired.json.
a_run() {
	{
		paired_arm w 1 off 1 error
		paired_arm w 1 on 2 passed
		paired_arm w 2 on 1 passed
		paired_arm w 2 off 2 failed
		paired_account w 1 off 0.002 "$RATE_LIMIT"
		paired_account w 1 on 0.004
		paired_account w 2 on 0.004
		paired_account w 2 off 0.002
	} >"$T/arms.jsonl"
	mkdir -p "$T/out"
	pc-evaluate --paired --output "$T/out" <"$T/arms.jsonl" >"$T/paired.json" || true
}

@test "a PRICES table that is not one is refused naming the file and the field (64), before anything is read" {
	printf '{"*": {"input": 3, "cached_input": "cheap", "output": 15}}\n' >"$T/bad.json"
	run --separate-stderr pc-normalize --paired --prices "$T/bad.json" --output "$T/out" </dev/null
	assert_exit 64
	assert_stderr_contains "pc-normalize: --prices: $T/bad.json: \"*\".cached_input must be a number of USD per million tokens from 0"
	[[ ! -e $T/out ]] || fail "written: $(ls "$T/out")"
	printf '{"m": {"input": 1, "cached_input": 1, "output": 1, "total": 3}}\n' >"$T/bad.json"
	pc-select --manifests manifests/paired --id api-version-continuation >"$T/selection.jsonl"
	run --separate-stderr pc-run-bub --paired --prices "$T/bad.json" --plan <"$T/selection.jsonl"
	assert_exit 64
	assert_stderr_contains "pc-run-bub: --prices: $T/bad.json: \"m\" holds a field other than input, cached_input and output"
	run --separate-stderr pc-run-bub --budget 5 --plan </dev/null
	assert_exit 64
	assert_stderr_contains "--budget needs --prices FILE"
	run --separate-stderr pc-normalize --prices "$T/prices.json" </dev/null
	assert_exit 64
	assert_stderr_contains "--prices needs --paired"
}

@test "BUDGET_USD without PRICES, and a budget with a model PRICES does not price, are refused (64) before OUTPUT or a Server exists" {
	run --separate-stderr env OUTPUT="$T/out" BUDGET_USD=5 MODEL=scripted TRIALS=1 \
		pipelines/paired --id api-version-continuation
	assert_exit 64
	assert_stderr_contains "paired: BUDGET_USD=5 needs PRICES=FILE"
	[[ ! -e $T/out ]] || fail "OUTPUT made: $(ls "$T/out")"
	# the agent's model priced by name, the Server's extractor not at all
	jq -n '{"openai:pc-e2e-scripted/api-version-continuation@x": {input: 1, cached_input: 1, output: 1}}' >"$T/named.json"
	run --separate-stderr env OUTPUT="$T/out" PRICES="$T/named.json" BUDGET_USD=5 MODEL=scripted \
		TRIALS=1 pipelines/paired --id api-version-continuation
	assert_exit 64
	assert_stderr_contains "paired: BUDGET_USD=5: --budget 5: "
	assert_stderr_contains "calls model openai-chat:pc-e2e-scripted/extractor, which --prices $T/named.json prices neither by name nor by a \"*\" row"
	[[ ! -e $T/out ]] || fail "OUTPUT made: $(ls "$T/out")"
	# the workload's own model, named as the replay records it
	jq -n '{"openai-chat:pc-e2e-scripted/extractor": {input: 1, cached_input: 1, output: 1}}' >"$T/named.json"
	run --separate-stderr env OUTPUT="$T/out" PRICES="$T/named.json" BUDGET_USD=5 MODEL=scripted \
		TRIALS=1 pipelines/paired --id api-version-continuation
	assert_exit 64
	assert_stderr_contains "workload api-version-continuation calls model openai:pc-e2e-scripted/api-version-continuation@"
	[[ ! -e $T/out ]] || fail "OUTPUT made: $(ls "$T/out")"
}

@test "pc-evaluate --paired takes the accounts after the observations: paired-run.json has the faults by class and kind per arm and the spend per arm and role; stdout is the v4 report alone" {
	a_run
	[[ $(wc -l <"$T/paired.json") == 1 ]] || fail "stdout: $(cat "$T/paired.json")"
	[[ $(jq -r .schema "$T/paired.json") == powercontext.e2e-paired-report/v4 ]] || fail "$(cat "$T/paired.json")"
	schema_ok pc-e2e-paired-run "$T/out/paired-run.json"
	run jq -c '[.errored, .faults.off, .faults.on.errors, .total.errors, .total.usd]' "$T/out/paired-run.json"
	assert_output "[[{\"task_id\":\"w\",\"trial\":1,\"arm\":\"off\",\"fault\":$(jq -c . <<<"$RATE_LIMIT")}],{\"errors\":1,\"classes\":{\"provider\":{\"errors\":1,\"kinds\":{\"rate-limit\":1}}}},0,1,0.032]"
	run jq -c '.spend | [.off.agent, .on.extraction, .on.usd]' "$T/out/paired-run.json"
	assert_output '[{"input_tokens":2000,"cached_tokens":400,"output_tokens":200,"estimated_steps":1,"usd":0.004},{"requests":6,"input_tokens":1800,"output_tokens":60,"embedding_tokens":0,"usd":0.02},0.028]'
	# the report is the one the observations alone give
	grep -v pc-e2e.paired-arm-account "$T/arms.jsonl" | pc-evaluate --paired >"$T/alone.json" || true
	cmp "$T/paired.json" "$T/alone.json" || fail "the accounts changed the report"
	# an account that is not one is refused naming its line and field
	sed '$s/"usd":0.002}}/"usd":-1}}/' "$T/arms.jsonl" >"$T/bad.jsonl"
	run --separate-stderr pc-evaluate --paired <"$T/bad.jsonl"
	assert_exit 1
	assert_stderr_contains "stdin:8"
	assert_stderr_contains "usd"
}

@test "pc-report --paired text: a Faults block (each errored arm, the counts by class, pairs retried and lost), spend per arm and role, a budget's stop; report.md stays 1.4.1's" {
	a_run
	pc-report --paired --format text --output "$T/bare" <"$T/paired.json" >/dev/null || true
	mkdir -p "$T/out/units"
	printf '%s\n' '{"unit":"w/trial-1","attempts":2,"state":"done","retried":1,"lost":false,"faults":[{"attempt":1,"arm":"off","class":"provider","kind":"rate-limit"}]}' \
		'{"unit":"w/trial-2","attempts":1,"state":"done","retried":0,"lost":false,"faults":[]}' >"$T/out/units/units.jsonl"
	echo '{"budget_usd": 0.03, "spent_usd": 0.032, "units": 4, "units_not_run": 2, "stopped": true}' >"$T/out/units/budget.json"
	run --separate-stderr pc-report --paired --format text --output "$T/out" <"$T/paired.json"
	assert_exit 2
	assert_output --partial '## Faults (pc-e2e)

- w trial 1 off: provider rate-limit 429 at capture: "Rate limit reached"
1 error(s): 1 provider (rate-limit)
pairs retried 1, lost 0

## Spend (pc-e2e)

- OFF agent: 2000 input tokens (400 cached), 200 output, 1 estimated step(s), $0.0040
- OFF extraction: 0 request(s), 0 input tokens, 0 output, 0 embedding, $0.0000
- ON agent: 2000 input tokens (400 cached), 200 output, 0 estimated step(s), $0.0080
- ON extraction: 6 request(s), 1800 input tokens, 60 output, 0 embedding, $0.0200

Total: $0.0320
stopped at its budget: $0.0320 spent of $0.0300; 2 of 4 units not run (RESUME=1 BUDGET_USD=… runs them)

## What the pairs show (pc-e2e)'
	cmp "$T/out/report.md" "$T/bare/report.md" || fail "report.md differs with the account"
	run grep -c -e Faults -e Spend "$T/out/report.md"
	assert_output 0
}

@test "pc-report --paired markdown: report.md is 1.4.1's, pc-e2e's part is run.md, and stdout prints both separated by a rule" {
	a_run
	run --separate-stderr pc-report --paired --format markdown --output "$T/out" <"$T/paired.json"
	assert_exit 2
	[[ -f $T/out/run.md ]] || fail "no run.md: $(ls "$T/out")"
	grep -qF -- '- w trial 1 off: provider rate-limit 429 at capture: "Rate limit reached"' "$T/out/run.md" ||
		fail "$(cat "$T/out/run.md")"
	[[ $output == "$(cat "$T/out/report.md")"$'\n\n---\n'"$(tail -n +2 "$T/out/run.md")" ]] ||
		fail "stdout is not report.md, a rule and run.md: $output"
	# without an account, stdout is report.md alone, and there is no run.md
	run --separate-stderr pc-report --paired --format markdown --output "$T/bare" <"$T/paired.json"
	[[ $output == "$(cat "$T/bare/report.md")" ]] || fail "$output"
	[[ ! -e $T/bare/run.md ]] || fail "a run.md without an account"
}

@test "pc-report --paired html: a faults table, the counts, the retries and the spend per arm and role" {
	a_run
	mkdir -p "$T/out/units"
	echo '{"unit":"w/trial-1","attempts":2,"state":"done","retried":1,"lost":true,"faults":[]}' >"$T/out/units/units.jsonl"
	run --separate-stderr pc-report --paired --format html --output "$T/out" <"$T/paired.json"
	assert_exit 2
	assert_output --partial '<tr><td>w</td><td class="num">1</td><td>off</td><td>provider rate-limit 429 at capture: &quot;Rate limit reached&quot;</td></tr>'
	assert_output --partial '<p class="fault-counts">1 error(s): 1 provider (rate-limit)</p>'
	assert_output --partial '<p class="retries">pairs retried 1, lost 1</p>'
	assert_output --partial '<tr class="on"><th>ON</th><td>extraction</td><td class="num">1800</td><td class="num">0</td><td class="num">60</td><td class="num">6</td><td class="num">$0.0200</td></tr>'
}

@test "an errored arm without a recorded fault is counted unclassified" {
	{
		paired_arm w 1 off 1 error
		paired_arm w 1 on 2 passed
	} >"$T/arms.jsonl"
	mkdir -p "$T/out"
	pc-evaluate --paired --output "$T/out" <"$T/arms.jsonl" >"$T/paired.json" || true
	run --separate-stderr pc-report --paired --format text --output "$T/out" <"$T/paired.json"
	assert_output --partial '- w trial 1 off: error, unclassified (no fault recorded)
1 error(s): 1 unclassified'
	refute_output --partial 'Spend (pc-e2e)'
}

@test "make paired-report takes each arm's account.json beside its observation" {
	paired_trials 1 passed failed
	paired_account w 1 off 0.002 "$RATE_LIMIT" >"$T/run/w/trial-1/off/account.json"
	paired_account w 1 on 0.004 >"$T/run/w/trial-1/on/account.json"
	run --separate-stderr env OUTPUT="$T/out" pipelines/paired-report "$T/run"
	assert_exit 0
	assert_output --partial '- ON extraction: 3 request(s), 900 input tokens, 30 output, 0 embedding, $0.0100'
	[[ $(jq .total.usd "$T/out/paired-run.json") == 0.016 ]] || fail "$(cat "$T/out/paired-run.json")"
	[[ -f $T/out/run.md ]] || fail "no run.md: $(ls "$T/out")"
}

# ledger_sums REQUESTS JQ: the sum of JQ over the scripted model's 200
# replies' usage in REQUESTS.
ledger_sums() {
	jq -s "map(select(.status == 200 and .usage)) | $2" "$1"
}

@test "a scripted run with PRICES: each arm's account.json, the agent's and the extraction's tokens those of the scripted model's own ledger, usd as PRICES gives it; LEDGER records the arms' spend" {
	run --separate-stderr env OUTPUT="$T/run" MODEL=scripted TRIALS=1 PRICES="$T/prices.json" BUDGET_USD=5 \
		LEDGER="sqlite:$T/ledger.db" PC_E2E_PROGRESS=0 timeout -k 10 600 pipelines/paired --id api-version-continuation
	assert_exit 0
	# a budget runs the trial as a unit, with its own scripted model (docs/units.md)
	local dir=$T/run/api-version-continuation/trial-1 ledger=$T/run/units/0/attempt-1/scripted-model/requests.jsonl
	local report=$output
	schema_ok pc-e2e-paired-arm-account "$dir/off/account.json"
	schema_ok pc-e2e-paired-arm-account "$dir/on/account.json"
	schema_ok pc-e2e-paired-run "$T/run/paired-run.json"
	# the agent's input and output are Bub's sums of the usage the model reported (Bub reports no cached figure)
	[[ $(jq -s 'map(.spend.agent.input_tokens) | add' "$dir"/*/account.json) == \
		$(ledger_sums "$ledger" 'map(select(.body.model | endswith("/extractor") | not) | .usage.prompt_tokens) | add') ]] ||
		fail "agent input: $(jq -c .spend.agent "$dir"/*/account.json)"
	[[ $(jq -s 'map(.spend.agent.output_tokens) | add' "$dir"/*/account.json) == \
		$(ledger_sums "$ledger" 'map(select(.body.model | endswith("/extractor") | not) | .usage.completion_tokens) | add') ]] ||
		fail "agent output: $(jq -c .spend.agent "$dir"/*/account.json)"
	# the ON Scope's extraction: every extractor reply but the Server's readiness probe, which no Scope makes
	local extraction
	extraction=$(ledger_sums "$ledger" 'map(select((.body.model | endswith("/extractor")) and
		(.body.messages | tostring | contains("Reply with one token.") | not)) | .usage) |
		[length, (map(.prompt_tokens) | add), (map(.completion_tokens) | add)]' | jq -c .)
	run jq -c '.spend.extraction | [.requests, .input_tokens, .output_tokens]' "$dir/on/account.json"
	assert_output "$extraction"
	run jq -c '.spend.extraction | [.requests, .usd]' "$dir/off/account.json"
	assert_output '[0,0]'
	# usd recomputed from PRICES' "*" row: ((input - cached) * 3 + cached * 0.3 + output * 15) / 1e6
	local arm
	for arm in off on; do
		[[ $(jq '.spend | (.agent | ((.input_tokens - .cached_tokens) * 3 + .cached_tokens * 0.3 + .output_tokens * 15) / 1e6 - .usd | fabs < 1e-12)
			and (.extraction | (.input_tokens * 3 + .output_tokens * 15) / 1e6 - .usd | fabs < 1e-12)
			and (.agent.usd + .extraction.usd - .usd | fabs < 1e-12)' "$dir/$arm/account.json") == true ]] ||
			fail "$arm usd: $(jq -c .spend "$dir/$arm/account.json")"
	done
	[[ $(jq -s '(.[0].total.usd - (.[1:] | map(.spend.usd) | add)) | fabs < 1e-12' "$T/run/paired-run.json" "$dir"/*/account.json) == true ]] ||
		fail "total: $(jq -c .total "$T/run/paired-run.json")"
	[[ $report == *'## Spend (pc-e2e)'* ]] || fail "no spend in the text report: $report"
	grep -qF '<section class="spend">' "$T/run/report.html" || fail "no spend on the page"
	# the page's step recorded both arms in LEDGER, with the spend their accounts say
	local arms usd
	read -r arms usd < <(sqlite3 -separator ' ' "$T/ledger.db" "SELECT COUNT(*),
		(SELECT SUM(value_number) FROM pc_e2e_values WHERE kind = 'spend' AND name = 'usd') FROM pc_e2e_cases")
	[[ $arms == 2 ]] || fail "arms in the ledger: $arms"
	jq -e --argjson usd "$usd" '(.total.usd - $usd) | fabs < 1e-12' "$T/run/paired-run.json" >/dev/null ||
		fail "usd in the ledger: $usd, in paired-run.json: $(jq -c .total "$T/run/paired-run.json")"
}

@test "a scripted run whose agent request fails: the errored step's tokens are the run's mean for its name, counted as estimated" {
	run --separate-stderr env OUTPUT="$T/run" MODEL=scripted TRIALS=1 PRICES="$T/prices.json" FAULT=500@1 \
		PC_E2E_PROGRESS=0 timeout -k 10 600 pipelines/paired --id api-version-continuation
	assert_exit 2
	local dir=$T/run/api-version-continuation/trial-1 report=$output
	[[ $report == *'1 error(s)'* ]] || fail "no fault in the text report: $report"
	[[ $(jq -r .outcome "$dir/off/observation.json") == error ]] || fail "$(jq -c '[.outcome, .steps]' "$dir/off/observation.json")"
	# the OFF arm's capture step has no figures: it counts as the ON arm's
	# capture (the run's only other), its other steps as they are
	[[ $(jq '.steps[0] | .name == "capture" and .input_tokens == null' "$dir/off/observation.json") == true ]] ||
		fail "$(jq -c .steps "$dir/off/observation.json")"
	run jq -c '.spend.agent | [.estimated_steps, .input_tokens, .output_tokens]' "$dir/off/account.json"
	assert_output "$(jq -sc '(.[0].steps[1:]) as $rest | .[1].steps[0] as $capture |
		[1, $capture.input_tokens + ($rest | map(.input_tokens) | add // 0),
		$capture.output_tokens + ($rest | map(.output_tokens) | add // 0)]' "$dir/off/observation.json" "$dir/on/observation.json")"
}
