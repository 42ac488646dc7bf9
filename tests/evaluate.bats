#!/usr/bin/env bats
# pc-evaluate: replays in, Memory evaluations out (docs/DESIGN.md §2.5, §3, §4).
#
# Every case derives its replay from the accepted fixture with jq (see
# `evaluate` and JQ_DEFS in test_helper.bash) and validates what pc-evaluate
# writes against the evaluation schema.

load test_helper

setup() {
	pc_setup
}

teardown() {
	pc_teardown
}

# Probes under test only: p1 and p2 declared, no expected Memory.
TWO_PROBES='.task.evaluation.expected_memory = [] |
	.task.evaluation.probes = [spec("p1"; ["ctx"]), spec("p2"; ["ctx"])]'

# Only the probe p1, declared with EXPECTED and observed ready with CONTENT.
one_probe() {
	printf '.task.evaluation.expected_memory = [] |
		.task.evaluation.probes = [spec("p1"; %s)] |
		.probes = [probe("p1"; "ready"; %s)]' "$1" "$2"
}

# ---- the accepted fixture ----

@test "the accepted fixture is accepted: exit 0, every assertion true" {
	evaluate .
	assert_status 0
	[[ -z "$stderr" ]] || fail "unexpected stderr: $stderr"
	[[ $(wc -l <"$T/eval.json") -eq 1 ]]
	run ev '[.schema, .experiment, (.cases | length), .cases[0].name]'
	assert_output "[\"$EVALUATION\",\"e2e:project-database-decision\",1,\"project-database-decision\"]"
	run ev '.cases[0].assertions | map_values(.value)'
	assert_output '{"collection_completed":true,"task_provenance_matches":true,"native_acp_evidence_recorded":true,"resolved_instructions_recorded":true,"capture_coverage_accepted":true,"memory_created_during_run":true,"memory_grounded":true,"recall_probes_supported":true,"memory_recalled_during_run":true,"scope_started_empty":true,"expected_memory_recorded":true}'
}

@test "the accepted fixture's reasons, scores, labels, metrics and attributes" {
	evaluate .
	assert_status 0
	run ev '.cases[0].assertions | map_values(.reason)'
	assert_output "{\"collection_completed\":null,\"task_provenance_matches\":\"Expected '$PINNED'; observed '$PINNED'.\",\"native_acp_evidence_recorded\":\"All required native ACP artifacts were recorded.\",\"resolved_instructions_recorded\":\"Resolved 2 instructions from 2 ACP summaries.\",\"capture_coverage_accepted\":\"Observed 0.000; required 0.000.\",\"memory_created_during_run\":\"Created 1 Memory entries and completed 0 checkpoints.\",\"memory_grounded\":\"Observed 0.000; required 0.000.\",\"recall_probes_supported\":\"Observed 1.000; required 1.000.\",\"memory_recalled_during_run\":\"Observed 0; required 0.\",\"scope_started_empty\":\"Scope started with 0 Memory entries.\",\"expected_memory_recorded\":\"Expected Memory fragments: ['OceanBase', 'MySQL-compatible', 'multi-node persistent storage'].\"}"
	run ev '.cases[0].scores'
	assert_output '{"capture_coverage":{"value":0,"reason":null},"groundedness":{"value":0,"reason":null},"probe_coverage":{"value":1,"reason":null},"harbor_reward_reward":{"value":1,"reason":null}}'
	run ev '.cases[0].labels'
	assert_output '{"task_outcome":{"value":"passed","reason":null}}'
	run ev '.cases[0].metrics'
	assert_output '{"capture_events":0,"captured_sources":0,"completed_checkpoints":0,"in_run_contexts":0,"resolved_instructions":2,"memory_entries_after":1,"memory_entries_created":1,"recall_probes_supported":1}'
	run ev '.cases[0].attributes | del(.comparability, .diagnosis)'
	assert_output '{"commit":"0123456789abcdef0123456789abcdef01234567","database":"sqlite","dataset":"manifests/harbor-tasks","execution_adapter":"bub","harbor_task_id":"project-database-decision","run_id":"project-database-decision-0123456789ab","workload_id":"project-database-decision","finished_at":"2026-06-30T12:00:05Z","replay_status":"completed","harbor_rewards":{"reward":"1"}}'
	# pc-e2e's own: what makes runs comparable in pc-report's ledger
	# (docs/ledger.md)
	run ev '.cases[0].attributes.comparability'
	assert_output '{"manifest_digest":"6fe2093d4227c88e20f276535a10d6b0f4bff58b03f03b59638864dd58ec7d7b","dataset_checksum":"'"$PINNED"'","database":"sqlite","adapter_version":"bub 0.4.2","adapter_protocol_version":"bub-acp-server 0.0.2","agent_model":null,"max_steps":10,"max_tokens":4096,"failure_policy":"collect-all"}'
}

@test "the comparability's manifest digest follows the task's content, not its key order or the run" {
	digest() {
		evaluate "$1" "${@:2}"
		jq -r '.cases[0].attributes.comparability | [.manifest_digest, .failure_policy] | join(" ")' "$T/eval.json"
	}
	local base
	base=$(digest .)
	assert_equal "$(digest '.task |= (to_entries | reverse | from_entries) | .run_id = "other-run"')" "$base"
	assert_equal "$(digest . --failure-policy fail-fast)" "${base% *} fail-fast"
	refute [ "$(digest '.task.execution.max_steps = 11')" = "$base" ]
	refute [ "$(digest '.task.evaluation.expected_memory += ["x"]')" = "$base" ]
}

@test "--experiment-prefix offline names the experiment offline:<id>" {
	evaluate . --experiment-prefix offline
	assert_status 0
	run ev '.experiment'
	assert_output '"offline:project-database-decision"'
}

@test "one evaluation line per replay, in input order" {
	replay '.' -c >"$T/in.jsonl"
	replay '.task.id = "second-workload"' -c >>"$T/in.jsonl"
	run --separate-stderr pc-evaluate <"$T/in.jsonl"
	assert_status 0
	save_stdout "$T/out.jsonl"
	schema_ok e2e-evaluation "$T/out.jsonl"
	run jq -r '.experiment' "$T/out.jsonl"
	assert_output "e2e:project-database-decision
e2e:second-workload"
}

# ---- collection and verdicts ----

@test "a failed collection is inconclusive (3) with the errors joined by '; '" {
	evaluate '.status = "failed" | .errors = ["a", "b"]'
	assert_status 3
	run ev '.cases[0].assertions.collection_completed'
	assert_output '{"value":false,"reason":"a; b"}'
}

@test "a false assertion other than collection_completed is a conclusive failure (2)" {
	evaluate '.memory_before.entries = [entry("old"; [])]'
	assert_status 2
	run assertion scope_started_empty
	assert_output false
	run reason scope_started_empty
	assert_output "Scope started with 1 Memory entries."
	run assertion collection_completed
	assert_output true
}

@test "a failed collection with other false assertions is still inconclusive (3)" {
	evaluate '.status = "failed" | .errors = ["server unreachable"] | .memory_after.entries = []'
	assert_status 3
	run assertion memory_created_during_run
	assert_output false
}

@test "a stream with a failed and an inconclusive case exits 2" {
	replay '.task.id = "inconclusive-one" | .status = "failed" | .errors = ["x"]' -c >"$T/in.jsonl"
	replay '.task.id = "failed-one" | .memory_before.entries = [entry("old"; [])]' -c >>"$T/in.jsonl"
	replay '.' -c >>"$T/in.jsonl"
	run --separate-stderr pc-evaluate <"$T/in.jsonl"
	assert_status 2
	save_stdout "$T/out.jsonl"
	schema_ok e2e-evaluation "$T/out.jsonl"
	[[ $(wc -l <"$T/out.jsonl") -eq 3 ]]
}

@test "an accepted and an inconclusive case exit 3" {
	replay '.' -c >"$T/in.jsonl"
	replay '.task.id = "inconclusive-one" | .status = "failed" | .errors = ["x"]' -c >>"$T/in.jsonl"
	run --separate-stderr pc-evaluate <"$T/in.jsonl"
	assert_status 3
	save_stdout "$T/out.jsonl"
	schema_ok e2e-evaluation "$T/out.jsonl"
}

# ---- provenance and native evidence ----

@test "a checksum mismatch names the pinned and the observed checksums" {
	local seen=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
	evaluate ".harbor.task_checksum = \"$seen\""
	assert_status 2
	run ev '.cases[0].assertions.task_provenance_matches'
	assert_output "{\"value\":false,\"reason\":\"Expected '$PINNED'; observed '$seen'.\"}"
}

@test "a null observed checksum is reported as None" {
	evaluate '.harbor.task_checksum = null'
	assert_status 2
	run ev '.cases[0].assertions.task_provenance_matches'
	assert_output "{\"value\":false,\"reason\":\"Expected '$PINNED'; observed None.\"}"
}

@test "a missing trajectory.json is named" {
	evaluate '.native_artifacts |= map(select(.name | endswith("/trajectory.json") | not))'
	assert_status 2
	run ev '.cases[0].assertions.native_acp_evidence_recorded'
	assert_output "{\"value\":false,\"reason\":\"Missing native ACP artifacts: ['trajectory.json'].\"}"
}

@test "no native artifacts at all: every base name is missing, instructions unrecorded" {
	evaluate '.native_artifacts = []'
	assert_status 2
	run reason native_acp_evidence_recorded
	assert_output "Missing native ACP artifacts: ['acp-events.jsonl', 'acp-summary.json', 'trajectory.json']."
	run ev '.cases[0].assertions.resolved_instructions_recorded'
	assert_output '{"value":false,"reason":"Resolved 2 instructions from 0 ACP summaries."}'
}

@test "native evidence needs each base name once, in any step" {
	evaluate '.native_artifacts |= map(select(.name | startswith("steps/capture/")))
		| .resolved_instructions |= map(select(.step == "capture"))'
	assert_status 0
	run ev '.cases[0].metrics.resolved_instructions'
	assert_output 1
}

@test "instructions not matching the summaries one to one are not recorded" {
	evaluate '.resolved_instructions |= .[:1]'
	assert_status 2
	run ev '.cases[0].assertions.resolved_instructions_recorded'
	assert_output '{"value":false,"reason":"Resolved 1 instructions from 2 ACP summaries."}'
	evaluate '.resolved_instructions[1].artifact = "steps/other/agent/acp-summary.json"'
	assert_status 2
	run assertion resolved_instructions_recorded
	assert_output false
	evaluate '.resolved_instructions = []'
	assert_status 2
	run reason resolved_instructions_recorded
	assert_output "Resolved 0 instructions from 2 ACP summaries."
}

# ---- recall probes ----

@test "case folding is Unicode's: STRASSE matches Straße" {
	evaluate "$(one_probe '["STRASSE", "ΣΊΣΥΦΟΣ"]' '"Die Straße des σίσυφος"')"
	assert_status 0
	run ev '[.cases[0].metrics.recall_probes_supported, .cases[0].scores.probe_coverage.value]'
	assert_output '[1,1]'
}

@test "expected Memory fragments are matched with Unicode case folding too" {
	evaluate '.task.evaluation.expected_memory = ["STRASSE"] | .memory_after.entries[0].text = "Die Straße"'
	assert_status 0
	run ev '.cases[0].assertions.expected_memory_recorded'
	assert_output "{\"value\":true,\"reason\":\"Expected Memory fragments: ['STRASSE'].\"}"
}

@test "a probe without expected context is not positive: coverage 1 with none supported, whatever its content" {
	evaluate "$(one_probe '[]' '"\u2003\u00a0\n"')"
	assert_status 0
	run ev '[.cases[0].metrics.recall_probes_supported, .cases[0].scores.probe_coverage.value, .cases[0].assertions.recall_probes_supported.reason]'
	assert_output '[0,1,"Observed 1.000; required 1.000."]'
	evaluate "$(one_probe '[]' '"some context"')"
	assert_status 0
	run ev '.cases[0].metrics.recall_probes_supported'
	assert_output 0
}

@test "only positive probes count toward probe coverage (1 of 2, beside an abstention probe)" {
	evaluate "$TWO_PROBES | .task.evaluation.probes += [spec(\"p3\"; [])] | .task.evaluation.thresholds.probe_coverage = 0.5 |
		.probes = [probe(\"p1\"; \"ready\"; \"ctx\"), probe(\"p3\"; \"ready\"; \"anything\")]"
	assert_status 0
	run ev '[.cases[0].scores.probe_coverage.value, .cases[0].metrics.recall_probes_supported]'
	assert_output '[0.5,1]'
}

@test "a zero width space is not whitespace (as Python's str.isspace)" {
	evaluate "$(one_probe '["\u200b"]' '"\u200b"')"
	assert_status 0
	run ev '.cases[0].metrics.recall_probes_supported'
	assert_output 1
}

@test "probe fragments match composed and decomposed text alike (NFC after case folding)" {
	evaluate "$(one_probe '["Caf\u00e9"]' '"we met at the CAFE\u0301"')"
	assert_status 0
	evaluate "$(one_probe '["cafe\u0301"]' '"Caf\u00c9"')"
	assert_status 0
	run ev '.cases[0].metrics.recall_probes_supported'
	assert_output 1
}

@test "expected Memory fragments fold case but are not NFC-normalized" {
	evaluate '.task.evaluation.expected_memory = ["CAF\u00c9"] | .memory_after.entries[0].text = "cafe\u0301 decision"'
	assert_status 2
	run assertion expected_memory_recorded
	assert_output false
	evaluate '.task.evaluation.expected_memory = ["CAF\u00c9"] | .memory_after.entries[0].text = "caf\u00e9 decision"'
	assert_status 0
}

@test "a probe whose status is not ready is unsupported" {
	evaluate "$(one_probe '["some"]' '"some context"') | .probes[0].prepared_context.status = \"empty\""
	assert_status 2
	run ev '.cases[0].assertions.recall_probes_supported'
	assert_output '{"value":false,"reason":"Observed 0.000; required 1.000."}'
}

@test "a declared probe missing from the replay is unsupported" {
	evaluate "$(one_probe '["ctx"]' '"ctx"') | .probes[0].id = \"another\""
	assert_status 2
	run ev '[.cases[0].metrics.recall_probes_supported, .cases[0].scores.probe_coverage.value]'
	assert_output '[0,0]'
}

@test "a missing expected fragment leaves the probe unsupported" {
	evaluate "$(one_probe '["OceanBase", "MySQL"]' '"OceanBase only"')"
	assert_status 2
	run assertion recall_probes_supported
	assert_output false
}

@test "probe_coverage is compared with >= (0.5 required, 1 of 2 supported)" {
	evaluate "$TWO_PROBES | .task.evaluation.thresholds.probe_coverage = 0.5 |
		.probes = [probe(\"p1\"; \"ready\"; \"ctx\")]"
	assert_status 0
	run ev '.cases[0].assertions.recall_probes_supported'
	assert_output '{"value":true,"reason":"Observed 0.500; required 0.500."}'
	run ev '[.cases[0].scores.probe_coverage.value, .cases[0].metrics.recall_probes_supported]'
	assert_output '[0.5,1]'
}

@test "probe_coverage below the threshold fails" {
	evaluate "$TWO_PROBES | .task.evaluation.thresholds.probe_coverage = 0.51 |
		.probes = [probe(\"p2\"; \"ready\"; \"ctx\")]"
	assert_status 2
	run reason recall_probes_supported
	assert_output "Observed 0.500; required 0.510."
}

@test "of two observations with the same probe id, the last one counts" {
	evaluate "$(one_probe '["ctx"]' '"ctx"') | .probes += [probe(\"p1\"; \"empty\"; \"\")]"
	assert_status 2
	evaluate "$(one_probe '["ctx"]' '""') | .probes += [probe(\"p1\"; \"ready\"; \"ctx\")]"
	assert_status 0
}

# ---- Memory ----

@test "duplicate entry ids in memory_after count twice as created" {
	evaluate '.memory_after.entries += [.memory_after.entries[0]]'
	assert_status 0
	run ev '[.cases[0].metrics.memory_entries_after, .cases[0].metrics.memory_entries_created]'
	assert_output '[2,2]'
	run reason memory_created_during_run
	assert_output "Created 2 Memory entries and completed 0 checkpoints."
}

@test "entries already in memory_before are not new; a non-empty scope fails" {
	evaluate '.memory_before.entries = [entry("old"; [])] | .memory_after.entries = [entry("old"; [])]'
	assert_status 2
	run ev '[.cases[0].metrics.memory_entries_created, .cases[0].metrics.memory_entries_after]'
	assert_output '[0,1]'
	run ev '.cases[0].assertions | [.memory_created_during_run.value, .scope_started_empty.value]'
	assert_output '[false,false]'
}

@test "no new Memory: memory_created_during_run is false" {
	evaluate '.memory_after.entries = [] | .task.evaluation.expected_memory = []'
	assert_status 2
	run ev '.cases[0].assertions.memory_created_during_run'
	assert_output '{"value":false,"reason":"Created 0 Memory entries and completed 0 checkpoints."}'
}

@test "groundedness: an entry is grounded when all its sources were captured (0.5 with one of two)" {
	evaluate '.task.evaluation.expected_memory = [] | .task.evaluation.thresholds.groundedness = 0.5 |
		.capture_records = [cap("user_prompt"; "captured"; "s1"), cap("tool_result"; "failed"; "s2")] |
		.memory_after.entries = [entry("grounded"; [ref("s1")]), entry("partly"; [ref("s1"), ref("s2")])]'
	assert_status 0
	run ev '.cases[0].assertions.memory_grounded'
	assert_output '{"value":true,"reason":"Observed 0.500; required 0.500."}'
	run ev '.cases[0].scores.groundedness.value'
	assert_output 0.5
}

@test "groundedness: entries without source_refs are not grounded" {
	evaluate '.task.evaluation.expected_memory = [] | .task.evaluation.thresholds.groundedness = 0.6 |
		.capture_records = [cap("llm_result"; "captured"; "s1")] |
		.memory_after.entries = [entry("grounded"; [ref("s1")]), entry("bare"; [])]'
	assert_status 2
	run reason memory_grounded
	assert_output "Observed 0.500; required 0.600."
}

@test "groundedness: only sources of captured eligible events count" {
	evaluate '.task.evaluation.expected_memory = [] | .task.evaluation.thresholds.groundedness = 0.1 |
		.capture_records = [cap("checkpoint"; "captured"; "s1"), cap("context"; "captured"; "s2"),
			cap("user_prompt"; "skipped"; "s3")] |
		.memory_after.entries = [entry("a"; [ref("s1")]), entry("b"; [ref("s2")]), entry("c"; [ref("s3")])]'
	assert_status 2
	run ev '[.cases[0].scores.groundedness.value, .cases[0].metrics.captured_sources]'
	assert_output '[0,0]'
}

@test "groundedness is 0 without new Memory" {
	evaluate '.memory_after.entries = [] | .task.evaluation.expected_memory = []'
	run ev '.cases[0].scores.groundedness.value'
	assert_output 0
}

@test "capture_coverage = captured / eligible; context and checkpoint records are not eligible" {
	evaluate '.task.evaluation.thresholds.capture_coverage = 0.66 |
		.capture_records = [cap("user_prompt"; "captured"; "s1"), cap("llm_result"; "captured"; "s2"),
			cap("tool_result"; "failed"; "s3"), ctx("ready"; 10), checkpoint("completed"; 5; 5),
			cap("context"; "captured"; "s4"), cap("checkpoint"; "captured"; "s5")]'
	assert_status 0
	run ev '[.cases[0].metrics.capture_events, .cases[0].metrics.captured_sources, .cases[0].scores.capture_coverage.value]'
	assert_output '[3,2,0.6666666666666666]'
	run reason capture_coverage_accepted
	assert_output "Observed 0.667; required 0.660."
}

@test "capture_coverage below the threshold fails" {
	evaluate '.task.evaluation.thresholds.capture_coverage = 0.67 |
		.capture_records = [cap("user_prompt"; "captured"; "s1"), cap("llm_result"; "captured"; "s2"),
			cap("tool_result"; "failed"; "s3")]'
	assert_status 2
	run ev '.cases[0].assertions.capture_coverage_accepted'
	assert_output '{"value":false,"reason":"Observed 0.667; required 0.670."}'
}

@test "capture_coverage is 0 without eligible events" {
	evaluate '.task.evaluation.thresholds.capture_coverage = 0.1 | .capture_records = [ctx("ready"; 3)]'
	assert_status 2
	run ev '[.cases[0].scores.capture_coverage.value, .cases[0].metrics.capture_events]'
	assert_output '[0,0]'
}

@test "require_checkpoint without a completed checkpoint: memory_created_during_run is false" {
	evaluate '.task.evaluation.require_checkpoint = true |
		.capture_records = [checkpoint("completed"; 4; 5), checkpoint("failed"; 9; 5),
			checkpoint("completed"; null; 5), checkpoint("completed"; 5; null)]'
	assert_status 2
	run ev '.cases[0].assertions.memory_created_during_run'
	assert_output '{"value":false,"reason":"Created 1 Memory entries and completed 0 checkpoints."}'
	run ev '.cases[0].metrics.completed_checkpoints'
	assert_output 0
}

@test "a completed checkpoint has current_cursor >= target_position and a status other than failed" {
	evaluate '.task.evaluation.require_checkpoint = true |
		.capture_records = [checkpoint("completed"; 5; 5), checkpoint("pending"; 7; 5), checkpoint("failed"; 7; 5)]'
	assert_status 0
	run ev '.cases[0].metrics.completed_checkpoints'
	assert_output 2
	run reason memory_created_during_run
	assert_output "Created 1 Memory entries and completed 2 checkpoints."
}

@test "require_checkpoint with checkpoints but no new Memory is still false" {
	evaluate '.task.evaluation.require_checkpoint = true | .task.evaluation.expected_memory = [] |
		.memory_after.entries = [] | .capture_records = [checkpoint("completed"; 5; 5)]'
	assert_status 2
	run assertion memory_created_during_run
	assert_output false
}

@test "in_run_contexts counts context records that are ready with content_bytes > 0" {
	evaluate '.task.evaluation.thresholds.minimum_in_run_contexts = 2 |
		.capture_records = [ctx("ready"; 10), ctx("ready"; 1), ctx("ready"; 0), ctx("failed"; 10),
			ctx("ready"; null), cap("user_prompt"; "ready"; "s1")]'
	assert_status 0
	run ev '.cases[0].assertions.memory_recalled_during_run'
	assert_output '{"value":true,"reason":"Observed 2; required 2."}'
	run ev '.cases[0].metrics.in_run_contexts'
	assert_output 2
}

@test "fewer in-run contexts than the minimum fail" {
	evaluate '.task.evaluation.thresholds.minimum_in_run_contexts = 2 | .capture_records = [ctx("ready"; 10)]'
	assert_status 2
	run reason memory_recalled_during_run
	assert_output "Observed 1; required 2."
}

@test "a huge minimum_in_run_contexts is compared and printed without overflow" {
	# regression: the threshold was cast to long long (undefined beyond 2^63)
	evaluate '.task.evaluation.thresholds.minimum_in_run_contexts = 1e20 | .capture_records = [ctx("ready"; 10)]'
	assert_status 2
	run reason memory_recalled_during_run
	assert_output "Observed 1; required 100000000000000000000."
}

@test "empty expected_memory: no expected_memory_recorded assertion at all" {
	evaluate '.task.evaluation.expected_memory = []'
	assert_status 0
	run ev '.cases[0].assertions | keys_unsorted'
	assert_output '["collection_completed","task_provenance_matches","native_acp_evidence_recorded","resolved_instructions_recorded","capture_coverage_accepted","memory_created_during_run","memory_grounded","recall_probes_supported","memory_recalled_during_run","scope_started_empty"]'
}

@test "expected Memory fragments may be found in different entries, each must be found" {
	evaluate '.task.evaluation.expected_memory = ["alpha", "BETA"] |
		.memory_after.entries = [entry("a"; []) + {text: "Alpha"}, entry("b"; []) + {text: "beta"}]'
	assert_status 0
	evaluate '.task.evaluation.expected_memory = ["alpha", "gamma"] |
		.memory_after.entries = [entry("a"; []) + {text: "Alpha"}]'
	assert_status 2
	run ev '.cases[0].assertions.expected_memory_recorded'
	assert_output "{\"value\":false,\"reason\":\"Expected Memory fragments: ['alpha', 'gamma'].\"}"
}

# ---- scores, labels, attributes ----

@test "rewards become harbor_reward_<name> scores sorted by name" {
	evaluate '.harbor.rewards = {"zeta": 0.25, "alpha": 1, "mid": 0}'
	assert_status 0
	run ev '.cases[0].scores | keys_unsorted'
	assert_output '["capture_coverage","groundedness","probe_coverage","harbor_reward_alpha","harbor_reward_mid","harbor_reward_zeta"]'
	run ev '.cases[0].scores | [.harbor_reward_alpha.value, .harbor_reward_mid.value, .harbor_reward_zeta.value]'
	assert_output '[1,0,0.25]'
	run ev '.cases[0].labels.task_outcome.value'
	assert_output '"not_passed"'
}

@test "task_outcome: an exception wins over rewards" {
	evaluate '.harbor.exception_type = "AgentTimeoutError" | .harbor.exception_message = "took too long"'
	assert_status 0
	run ev '.cases[0].labels.task_outcome'
	assert_output '{"value":"error:AgentTimeoutError","reason":null}'
}

@test "task_outcome: unscored without rewards" {
	evaluate '.harbor.rewards = {}'
	assert_status 0
	run ev '[.cases[0].labels.task_outcome.value, (.cases[0].scores | keys_unsorted)]'
	assert_output '["unscored",["capture_coverage","groundedness","probe_coverage"]]'
}

@test "task_outcome: passed when every reward is >= 1, else not_passed" {
	evaluate '.harbor.rewards = {"a": 1, "b": 2.5}'
	run ev '.cases[0].labels.task_outcome.value'
	assert_output '"passed"'
	evaluate '.harbor.rewards = {"a": 1, "b": 0.999}'
	run ev '.cases[0].labels.task_outcome.value'
	assert_output '"not_passed"'
}

@test "the native reward never decides the verdict" {
	evaluate '.harbor.rewards = {"reward": 0}'
	assert_status 0
	run ev '.cases[0].labels.task_outcome.value'
	assert_output '"not_passed"'
}

@test "task_outcome: a failed run is not_passed whatever its rewards" {
	evaluate '.status = "failed" | .errors = ["agent crashed"] | .harbor.rewards = {"reward": 1}'
	assert_status 3
	run ev '.cases[0].labels.task_outcome.value'
	assert_output '"not_passed"'
}

# ---- PowerContext 1.4.1: atomic Memory ----

@test "atomic entries are new by artifact id, whatever their revision, and grounded by their sources" {
	evaluate '.capture_records = [cap("user_prompt"; "captured"; "s1")] |
		.memory_before.entries = [atomic("a1"; 1; [])] |
		.memory_after.entries = [atomic("a1"; 2; []), atomic("a2"; 1; [ref("s1")]), atomic("a3"; 1; [ref("s9")])] |
		.task.evaluation.thresholds.groundedness = 0.5'
	assert_status 2
	run ev '[.cases[0].metrics.memory_entries_created, .cases[0].scores.groundedness.value, .cases[0].assertions.scope_started_empty.value]'
	assert_output '[2,0.5,false]'
}

@test "an atomic entry citing only artifacts is not grounded" {
	evaluate '.memory_after.entries = [atomic("a1"; 1; []) | .artifacts = [{family: "source", artifact_id: "s1", revision: 1}]] |
		.task.evaluation.expected_memory = [] | .task.evaluation.thresholds.groundedness = 1'
	assert_status 2
	run ev '.cases[0].scores.groundedness.value'
	assert_output 0
}

@test "legacy and atomic entries in one replay: the same id in another family is new" {
	evaluate '.memory_before.entries = [entry("m1"; [])] |
		.memory_after.entries = [entry("m1"; []), atomic("m1"; 1; [])] | .task.evaluation.expected_memory = []'
	assert_status 2
	run ev '.cases[0].metrics | [.memory_entries_after, .memory_entries_created]'
	assert_output '[2,1]'
}

@test "an entry that is neither atomic nor legacy is named by its path" {
	replay '.memory_after.entries = [{kind: "fact", text: "x", state: "active"}]' >"$T/bad.json"
	run --separate-stderr pc-evaluate <"$T/bad.json"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "stdin:1: memory_after.entries[0].entry_id: is required"
	replay '.memory_after.entries = [atomic("a1"; 0; [])]' >"$T/bad.json"
	run --separate-stderr pc-evaluate <"$T/bad.json"
	assert_status 1
	assert_stderr_contains "stdin:1: memory_after.entries[0].artifact.revision: must be at least 1"
}

# ---- PowerContext 1.4.1: forbidden context ----

@test "forbidden context: a recorded match fails forbidden_context_absent and the probe it was on" {
	evaluate '.task.evaluation.probes = [spec("p1"; ["OceanBase"]) | .forbidden_context = ["SQLite"]] |
		.probes = [probe("p1"; "ready"; "") | .forbidden_context_matched = true]'
	assert_status 2
	run ev '.cases[0].assertions.forbidden_context_absent'
	assert_output "{\"value\":false,\"reason\":\"Forbidden context matched for probes: ['p1'].\"}"
	run ev '.cases[0].metrics.recall_probes_supported'
	assert_output 0
}

@test "forbidden context: without a recorded flag the content decides, compared as NFC folded text" {
	evaluate '.task.evaluation.probes += [forbid("abstain"; ["Caf\u00e9"])] |
		.probes += [probe("abstain"; "ready"; "the CAFE\u0301 said")]'
	assert_status 2
	run reason forbidden_context_absent
	assert_output "Forbidden context matched for probes: ['abstain']."
	evaluate '.task.evaluation.probes += [forbid("abstain"; ["SQLite"])] |
		.probes += [probe("abstain"; "ready"; "nothing relevant")]'
	assert_status 0
	run ev '.cases[0].assertions.forbidden_context_absent'
	assert_output '{"value":true,"reason":"No forbidden context matched."}'
}

@test "forbidden context: a recorded false wins over the content, and a probe that is not ready never matches" {
	evaluate '.task.evaluation.probes += [forbid("abstain"; ["SQLite"])] |
		.probes += [probe("abstain"; "ready"; "SQLite") | .forbidden_context_matched = false]'
	assert_status 0
	evaluate '.task.evaluation.probes += [forbid("abstain"; ["SQLite"])] |
		.probes += [probe("abstain"; "empty"; "SQLite") | .forbidden_context_matched = true]'
	assert_status 0
}

@test "without forbidden fragments there is no forbidden_context_absent assertion" {
	evaluate .
	run ev '.cases[0].assertions | has("forbidden_context_absent")'
	assert_output false
}

# ---- PowerContext 1.4.1: provenance, skipped runs, outcome workloads ----

@test "task provenance prefers the source task checksum, and ignores an empty one" {
	evaluate '.harbor.source_task_checksum = .task.dataset.checksum | .harbor.task_checksum = "batch-checksum"'
	assert_status 0
	evaluate '.harbor.source_task_checksum = "" | .harbor.task_checksum = "batch-checksum"'
	assert_status 2
	run reason task_provenance_matches
	assert_output --partial "observed 'batch-checksum'."
}

@test "a skipped Memory workload has one assertion, execution_completed, and is inconclusive" {
	evaluate '.status = "skipped" | .errors = []'
	assert_status 3
	run ev '.cases[0] | [(.assertions | keys), .assertions.execution_completed.value, .labels.task_outcome.value, .scores, .metrics]'
	assert_output '[["execution_completed"],false,"skipped",{},{}]'
	run ev '.cases[0].assertions.execution_completed.reason'
	assert_output '"Skipped after an earlier task stopped the shared Harbor trial."'
}

@test "an outcome workload is judged on its status and Harbor reward under the failure policy" {
	evaluate '.task.evaluation = outcome("failed"; "failed") | .status = "failed" | .harbor.rewards = {"reward": 0}'
	assert_status 0
	run ev '.cases[0] | [(.assertions | keys), .labels.task_outcome.value, .scores, .metrics]'
	assert_output '[["execution_outcome"],"failed",{},{}]'
	run reason execution_outcome
	assert_output "Expected 'failed' with Harbor reward 0; observed 'failed' with Harbor reward 0."
	evaluate '.task.evaluation = outcome("completed"; "skipped") | .status = "failed" | .harbor.rewards = {"reward": 0}'
	assert_status 2
	run reason execution_outcome
	assert_output "Expected 'completed' with Harbor reward 1; observed 'failed' with Harbor reward 0."
}

@test "an outcome workload's expected skip holds only under the policy that expects it" {
	evaluate '.task.evaluation = outcome("completed"; "skipped") | .status = "skipped" | .harbor.rewards = {}' --failure-policy fail-fast
	assert_status 0
	run reason execution_outcome
	assert_output "Expected 'skipped'; observed 'skipped'."
	evaluate '.task.evaluation = outcome("completed"; "skipped") | .status = "skipped" | .harbor.rewards = {}'
	assert_status 2
	run reason execution_outcome
	assert_output "Expected 'completed' with Harbor reward 1; observed 'skipped' with Harbor reward None."
}

@test "an outcome reason prints the reward as the replay wrote it: 1 as an int, 1.0 as a float" {
	replay '.task.evaluation = outcome("completed"; "completed") | .harbor.rewards = {"reward": 1}' -c >"$T/int.json"
	sed 's/"rewards":{"reward":1}/"rewards":{"reward":1.0}/' "$T/int.json" >"$T/float.json"
	grep -q '"reward":1.0}' "$T/float.json"
	run --separate-stderr pc-evaluate <"$T/int.json"
	assert_status 0
	assert_output --partial "observed 'completed' with Harbor reward 1."
	run --separate-stderr pc-evaluate <"$T/float.json"
	assert_status 0
	assert_output --partial "observed 'completed' with Harbor reward 1.0."
}

@test "an outcome reason prints any reward literal as Python reads it, from a line or a duplicate-key text" {
	replay '.task.evaluation = outcome("completed"; "completed") | .harbor.rewards = {"reward": 7}' -c >"$T/base.json"
	# the duplicate run_id sends the text to libjq's reading (the last wins)
	sed 's/^{/{"run_id":"first",/' "$T/base.json" >"$T/dup.json"
	for lit in 1 1.0 -0 -0.0 1E2 1e0 0.5 12345678901234567890 18446744073709551616 \
		123456789012345678901234 -9223372036854775808 -9223372036854775809 \
		10000000000000000000.0 9e18 1.5e300; do
		want=$(python3 -c 'import json, sys; print(repr(json.loads(sys.argv[1])))' "$lit")
		for text in base dup; do
			sed "s/\"rewards\":{\"reward\":7}/\"rewards\":{\"reward\":$lit}/" "$T/$text.json" >"$T/lit.json"
			grep -qF "\"reward\":$lit}" "$T/lit.json"
			run --separate-stderr pc-evaluate <"$T/lit.json"
			assert_output --partial "observed 'completed' with Harbor reward $want."
		done
	done
}

@test "harbor_rewards holds each reward as Python prints it, its score Python's float() of it, from a line or a duplicate-key text" {
	replay '.harbor.rewards = {"a.b": 7, "reward": 1}' -c >"$T/base.json"
	# the duplicate run_id sends the text to libjq's reading (the last wins)
	sed 's/^{/{"run_id":"first",/' "$T/base.json" >"$T/dup.json"
	for lit in 1 1.0 -0 -0.0 1E2 0.5 123456789012345678901234 1.5e300; do
		for text in base dup; do
			sed "s/\"a.b\":7/\"a.b\":$lit/" "$T/$text.json" >"$T/lit.json"
			grep -qF "\"a.b\":$lit," "$T/lit.json"
			run --separate-stderr pc-evaluate <"$T/lit.json"
			printf '%s\n' "$output" >>"$T/all.jsonl"
			# the same reading as 1.4.1's replay model: an int stays an int
			python3 -c '
import json, math, sys
reward = json.loads(sys.argv[1])
case = json.loads(sys.stdin.read(), parse_int=float)["cases"][0]  # -0 is the float -0.0
shown = case["attributes"]["harbor_rewards"]
score = case["scores"]["harbor_reward_a.b"]["value"]
assert shown == {"a.b": str(reward), "reward": "1"}, shown
assert score == float(reward) and math.copysign(1, score) == math.copysign(1, float(reward)), score
' "$lit" <<<"$output" || fail "reward $lit ($text)"
		done
	done
	schema_ok e2e-evaluation "$T/all.jsonl"
	run jq -r '.cases[0].attributes.replay_status' "$T/all.jsonl"
	assert_output "$(printf 'completed\n%.0s' {1..16})"
}

@test "a completed outcome workload needs Harbor's reward 1" {
	evaluate '.task.evaluation = outcome("completed"; "completed") | .harbor.rewards = {"reward": 0.5}'
	assert_status 2
	evaluate '.task.evaluation = outcome("completed"; "completed") | .harbor.rewards = {"reward": 1}'
	assert_status 0
}

@test "a paired workload's replay is refused: it is judged on a pair of runs" {
	replay '.task.evaluation = {recall_step: "recall"}' >"$T/paired.json"
	run --separate-stderr pc-evaluate <"$T/paired.json"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "workload project-database-decision (run project-database-decision-0123456789ab): an OFF/ON paired workload"
}

@test "attributes name the registry dataset for a registry task" {
	evaluate '.task.dataset = {path: null, name: "terminal-bench", version: "2.0",
		task_id: "db-wal-recovery", checksum: .task.dataset.checksum} |
		.environment.database = "oceanbase" | .run_id = "run-1"'
	assert_status 0
	run ev '.cases[0].attributes | [.dataset, .harbor_task_id, .database, .run_id]'
	assert_output '["terminal-bench","db-wal-recovery","oceanbase","run-1"]'
}

# ---- invalid input ----

@test "empty stdin is an error: no replays" {
	run --separate-stderr pc-evaluate </dev/null
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "no replays"
	run --separate-stderr pc-evaluate <<<$'  \n\t\n'
	assert_status 1
	assert_stderr_contains "no replays"
}

@test "malformed JSON names its line in the stream" {
	{
		replay . -c
		replay . -c
		echo '{"schema": "powercontext.e2e-evidence/v1", "run_id": }'
		replay . -c
	} >"$T/in.jsonl"
	run --separate-stderr pc-evaluate <"$T/in.jsonl"
	assert_status 1
	assert_stderr_contains "stdin:3:54: malformed JSON (in the text starting on line 3): Unmatched '}'"
	# the two replays before it were evaluated; nothing after it is read
	save_stdout "$T/out.jsonl"
	schema_ok e2e-evaluation "$T/out.jsonl"
	[[ $(wc -l <"$T/out.jsonl") -eq 2 ]]
}

@test "a document of the wrong schema names the line and the expected schema" {
	pc-select --id project-database-decision >"$T/selection.jsonl"
	{ replay . -c; cat "$T/selection.jsonl"; } >"$T/in.jsonl"
	run --separate-stderr pc-evaluate <"$T/in.jsonl"
	assert_status 1
	assert_stderr_contains "stdin:2: expected a $EVIDENCE document, got \"$SELECTION\""
	save_stdout "$T/out.jsonl"
	schema_ok e2e-evaluation "$T/out.jsonl"
	[[ $(wc -l <"$T/out.jsonl") -eq 1 ]]
}

@test "an object without a schema and a non-object are rejected" {
	printf '{"run_id": "x"}\n[1, 2]\n' >"$T/in.jsonl"
	run --separate-stderr pc-evaluate <"$T/in.jsonl"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "stdin:1: expected a $EVIDENCE document, got an object without a schema field" \
		"stdin:2: expected a $EVIDENCE document, got a non-object"
}

@test "an unknown field anywhere is named by its path" {
	replay '.harbor.extra = 1' >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "stdin:1: harbor.extra: unknown field"
	replay '.memory_after.entries[0].source_refs = [ref("s1") + {extra: true}]' -c >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: memory_after.entries[0].source_refs[0].extra: unknown field"
	replay '.task.evaluation.thresholds.extra = 0' -c >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: task.evaluation.thresholds.extra: unknown field"
}

@test "a missing required field is named" {
	replay 'del(.run_id)' >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: run_id: is required"
	replay 'del(.task.dataset.checksum)' >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: task.dataset.checksum: is required"
}

@test "wrong values in a replay are rejected with their path and rule" {
	replay '.status = "done"' -c >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: status: must be one of"
	replay '.harbor.rewards.reward = "1"' -c >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: harbor.rewards.reward: must be a number, not a string"
	replay '.environment.started_at = "yesterday"' -c >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: environment.started_at: must be " "date-time"
	replay '.capture_records = [cap("thinking"; "captured"; "s1")]' -c >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: capture_records[0].event: must be one of"
}

# The shape checks objects in one pass when their keys come in its order and
# rebuilds them otherwise: either way the error named is the first by the
# shape's rules (unknown fields before values, then fields in declaration
# order), and the evaluation is the same.
@test "the error named and the evaluation do not depend on the replay's key order" {
	replay '.harbor.rewards.reward = "1" | .harbor.extra = 1' -c >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: harbor.extra: unknown field"
	refute_stderr_contains "reward"
	replay '.status = "done" | .run_id = 5' -S -c >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: run_id: must be a string, not a number"
	refute_stderr_contains "status"
	replay '.memory_after.entries[0] |= (del(.state) | .text = 1)' -S -c >"$T/in.json"
	run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 1
	assert_stderr_contains "stdin:1: memory_after.entries[0].text: must be a string, not a number"
	{ replay . -c; replay . -S -c; replay 'del(.errors, .probes[0].forbidden_context_matched)' -c; } >"$T/in.jsonl"
	run --separate-stderr pc-evaluate <"$T/in.jsonl"
	assert_status 0
	save_stdout "$T/out.jsonl"
	[[ $(wc -l <"$T/out.jsonl") -eq 3 ]]
	[[ $(sort -u "$T/out.jsonl" | wc -l) -eq 1 ]] || fail "the evaluations differ: $(cat "$T/out.jsonl")"
}

@test "an invalid replay does not stop the others, and exit 1 wins over 2" {
	{
		replay '.task.id = "failed-one" | .memory_before.entries = [entry("old"; [])]' -c
		replay '.harbor.extra = 1' -c
		replay . -c
	} >"$T/in.jsonl"
	run --separate-stderr pc-evaluate <"$T/in.jsonl"
	assert_status 1
	assert_stderr_contains "stdin:2: harbor.extra: unknown field"
	save_stdout "$T/out.jsonl"
	schema_ok e2e-evaluation "$T/out.jsonl"
	run jq -r '.cases[0].name' "$T/out.jsonl"
	assert_output "failed-one
project-database-decision"
}

# pc-evaluate checks a replay's shape on yyjson's values and leaves a list
# too long to compare its items' ids pairwise to shape_normalize's one pass.
@test "a replay with 50,000 probe specs and one repeated id is refused within the hang guard" {
	# regression: the pairwise check of probe ids made 50,000 probes run past 60 s
	replay '.task.evaluation.probes = ([range(50000) | {id: "p\(.)", query: "q\(.)?"}] +
		[{id: "p0", query: "again?"}])' -c >"$T/replay.json"
	run --separate-stderr timeout 60 pc-evaluate <"$T/replay.json"
	assert_status 1
	assert_stderr_contains 'stdin:1: task.evaluation.probes: probe ids must be unique: "p0" repeats'
}

# pc-evaluate writes its lines itself, byte for byte as jq's writer does:
# control characters, quotes and backslashes escaped, other text as it is,
# integers as digits and other numbers in jq's shortest form.
@test "the evaluation line escapes strings and prints numbers as jq does" {
	evaluate '.run_id = "r \u0000\u001f\u007f\"\\/\t\n\r\b\f é😀" |
		.harbor.rewards = {reward: 1, big: 1e16, neg: -3, frac: 0.25, huge: 123456789012345678}'
	assert_status 0
	grep -qF '"run_id":"r \u0000\u001f\u007f\"\\/\t\n\r\b\f é😀"' "$T/eval.json" ||
		fail "run_id written otherwise: $(cat "$T/eval.json")"
	grep -qF '"harbor_reward_big":{"value":1e+16,"reason":null},"harbor_reward_frac":{"value":0.25,"reason":null},"harbor_reward_huge":{"value":123456789012345680,"reason":null},"harbor_reward_neg":{"value":-3,"reason":null},"harbor_reward_reward":{"value":1,"reason":null}' "$T/eval.json" ||
		fail "scores written otherwise: $(cat "$T/eval.json")"
}

@test "a pretty-printed replay file followed by its compact form evaluates both" {
	# the fixture writes its reward 1.0; jq -c writes it 1, which only
	# harbor_rewards tells apart (Python prints an int and a float apart)
	{ cat "$ACCEPTED"; jq -c . "$ACCEPTED"; } >"$T/in.jsonl"
	run --separate-stderr pc-evaluate <"$T/in.jsonl"
	assert_status 0
	save_stdout "$T/out.jsonl"
	schema_ok e2e-evaluation "$T/out.jsonl"
	[[ $(wc -l <"$T/out.jsonl") -eq 2 ]]
	run jq -c '.cases[0].attributes.harbor_rewards' "$T/out.jsonl"
	assert_output '{"reward":"1.0"}
{"reward":"1"}'
	assert_equal "$(sed -n 1p "$T/out.jsonl" | jq -c 'del(.cases[0].attributes.harbor_rewards)')" \
		"$(sed -n 2p "$T/out.jsonl" | jq -c 'del(.cases[0].attributes.harbor_rewards)')"
}

# ---- --output ----

@test "--output DIR writes DIR/<id>/eval-report.json equal to the stdout line" {
	{ replay . -c; replay '.task.id = "second-workload"' -c; } >"$T/in.jsonl"
	run --separate-stderr pc-evaluate --output "$T/out" <"$T/in.jsonl"
	assert_status 0
	save_stdout "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/out/project-database-decision/eval-report.json"
	schema_ok e2e-evaluation "$T/out/second-workload/eval-report.json"
	assert_equal "$(jq -S . "$T/out/project-database-decision/eval-report.json")" \
		"$(sed -n 1p "$T/stdout.jsonl" | jq -S .)"
	assert_equal "$(jq -S . "$T/out/second-workload/eval-report.json")" \
		"$(sed -n 2p "$T/stdout.jsonl" | jq -S .)"
	run find "$T/out" -mindepth 1
	assert_output "$(printf '%s\n' "$T/out/project-database-decision" \
		"$T/out/project-database-decision/eval-report.json" "$T/out/second-workload" \
		"$T/out/second-workload/eval-report.json" | sort)"
}

@test "--output replaces an existing report" {
	mkdir -p "$T/out/project-database-decision"
	echo stale >"$T/out/project-database-decision/eval-report.json"
	run --separate-stderr pc-evaluate --output "$T/out" <"$ACCEPTED"
	assert_status 0
	save_stdout "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/out/project-database-decision/eval-report.json"
	run find "$T/out" -name '*.tmp.*'
	assert_output ""
}

@test "--output killed while it writes a report leaves no temporary file behind" {
	# regression: a kill between the temporary file and its rename left eval-report.json.tmp.*
	cc -shared -fPIC -o "$T/slow_fsync.so" "$REPO/tests/peers/slow_fsync.c"
	mkdir -p "$T/out"
	LD_PRELOAD="$T/slow_fsync.so" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
		pc-evaluate --output "$T/out" <"$ACCEPTED" >/dev/null 2>"$T/err" &
	local pid=$! i
	# the report is being written once its directory exists
	for ((i = 0; i < 100; i++)); do
		[[ -d $T/out/project-database-decision ]] && break
		sleep 0.1
	done
	[[ -d $T/out/project-database-decision ]] || fail "pc-evaluate never started writing: $(cat "$T/err")"
	sleep 0.5
	kill -KILL "$pid"
	wait "$pid" || true
	run find "$T/out" -name '*.tmp.*'
	assert_output ""
	[[ ! -e $T/out/project-database-decision/eval-report.json ]] || fail "a report was completed before the kill"
}

@test "--output also writes reports of failed and inconclusive cases" {
	replay '.status = "failed" | .errors = ["boom"]' >"$T/in.json"
	run --separate-stderr pc-evaluate --output "$T/out" <"$T/in.json"
	assert_status 3
	save_stdout "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/out/project-database-decision/eval-report.json"
	run jq -c '.cases[0].assertions.collection_completed' "$T/out/project-database-decision/eval-report.json"
	assert_output '{"value":false,"reason":"boom"}'
}

@test "an --output that cannot be written is an error (1)" {
	echo "a file" >"$T/blocker"
	run --separate-stderr pc-evaluate --output "$T/blocker" <"$ACCEPTED"
	assert_status 1
	assert_stdout_empty
	assert_stderr_contains "$T/blocker"
}

# ---- secrets ----

@test "BUB_API_KEY is redacted from stdout and eval-report.json" {
	replay '.status = "failed" | .errors = ["auth failed for sk-secret-value", "again sk-secret-value!"]' >"$T/in.json"
	BUB_API_KEY=sk-secret-value run --separate-stderr pc-evaluate --output "$T/out" <"$T/in.json"
	assert_status 3
	save_stdout "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/stdout.jsonl"
	local f
	for f in "$T/stdout.jsonl" "$T/out/project-database-decision/eval-report.json"; do
		! grep -F sk-secret-value "$f" || fail "secret in $f"
		grep -F '[REDACTED]' "$f"
	done
	run jq -r '.cases[0].assertions.collection_completed.reason' "$T/stdout.jsonl"
	assert_output "auth failed for [REDACTED]; again [REDACTED]!"
}

# Redaction copies only a document that holds a secret, found in a key as
# in a value; any other document is written as it is.
@test "a secret only in a key is redacted, and a document without one is written unchanged" {
	replay '.harbor.rewards = {"sk-secret-key": 1}' -c >"$T/in.json"
	BUB_API_KEY=sk-secret-key run --separate-stderr pc-evaluate <"$T/in.json"
	save_stdout "$T/stdout.jsonl"
	! grep -F sk-secret-key "$T/stdout.jsonl" || fail "secret in stdout: $(cat "$T/stdout.jsonl")"
	grep -qF '"harbor_reward_[REDACTED]":{"value":1,' "$T/stdout.jsonl"
	pc-evaluate <"$T/in.json" >"$T/plain.jsonl" || true
	BUB_API_KEY=sk-not-in-this-replay pc-evaluate <"$T/in.json" >"$T/keyed.jsonl" || true
	cmp "$T/plain.jsonl" "$T/keyed.jsonl"
}

@test "a secret with a quote is redacted raw and in its JSON-escaped form" {
	# errors[0] holds the secret itself, errors[1] a JSON text embedding it.
	replay '.status = "failed" | .errors = ["token ab\"cd refused", ({"key": "ab\"cd"} | tojson)]' >"$T/in.json"
	grep -F 'ab\\\"cd' "$T/in.json"
	BUB_API_KEY='ab"cd' run --separate-stderr pc-evaluate --output "$T/out" <"$T/in.json"
	assert_status 3
	save_stdout "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/stdout.jsonl"
	local f
	for f in "$T/stdout.jsonl" "$T/out/project-database-decision/eval-report.json"; do
		! grep -F 'ab\"cd' "$f" || fail "escaped secret in $f"
		! jq -r '.. | strings' "$f" | grep -F -e 'ab"cd' -e 'ab\"cd' || fail "secret in a string of $f"
		grep -F '[REDACTED]' "$f"
	done
	run jq -r '.cases[0].assertions.collection_completed.reason' "$T/stdout.jsonl"
	assert_output 'token [REDACTED] refused; {"key":"[REDACTED]"}'
}

@test "a secret with a backslash is redacted in both forms" {
	replay '.status = "failed" | .errors = ["path C:\\sec\\ret", ({"p": "C:\\sec\\ret"} | tojson)]' >"$T/in.json"
	BUB_API_KEY='C:\sec\ret' run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 3
	save_stdout "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/stdout.jsonl"
	run jq -r '.cases[0].assertions.collection_completed.reason' "$T/stdout.jsonl"
	assert_output 'path [REDACTED]; {"p":"[REDACTED]"}'
}

@test "BUB_*_API_KEY and POWERCONTEXT_CLIENT_API_TOKEN are secrets too" {
	replay '.status = "failed" | .errors = ["openai sk-openai-123", "server tok-server-456", "proxy http://proxy.invalid:3128"]' >"$T/in.json"
	BUB_OPENAI_API_KEY=sk-openai-123 POWERCONTEXT_CLIENT_API_TOKEN=tok-server-456 \
		POWERCONTEXT_E2E_AGENT_PROXY_URL=http://proxy.invalid:3128 \
		run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 3
	save_stdout "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/stdout.jsonl"
	run jq -r '.cases[0].assertions.collection_completed.reason' "$T/stdout.jsonl"
	assert_output "openai [REDACTED]; server [REDACTED]; proxy [REDACTED]"
}

@test "a secret base64- or percent-encoded, at any alignment, is redacted too" {
	# regression: a secret the agent or verifier encoded reached every sink
	local secret='sk-secret/value+1234' forms
	forms=$(SECRET=$secret python3 -c '
import base64, os, urllib.parse
s = os.environ["SECRET"].encode()
for prefix in (b"", b"x", b"xy"):
    print(base64.b64encode(prefix + s + b"tail").decode())
    print(base64.urlsafe_b64encode(prefix + s).decode().rstrip("="))
print(urllib.parse.quote(s, safe=""))
print(urllib.parse.quote(s, safe="").lower())')
	jq -n --arg forms "$forms" '$forms | split("\n")' >"$T/errors.json"
	replay '.status = "failed" | .errors = $errs[0]' --slurpfile errs "$T/errors.json" >"$T/in.json"
	BUB_API_KEY=$secret run --separate-stderr pc-evaluate --output "$T/out" <"$T/in.json"
	assert_status 3
	save_stdout "$T/stdout.jsonl"
	local form f
	while read -r form; do
		for f in "$T/stdout.jsonl" "$T/out/project-database-decision/eval-report.json"; do
			! grep -qF -- "$form" "$f" || fail "the encoded secret $form is in $f"
		done
	done <<<"$forms"
	[[ $(grep -o '\[REDACTED\]' "$T/stdout.jsonl" | wc -l) -ge 8 ]] || fail "not every form was redacted: $(cat "$T/stdout.jsonl")"
}

@test "PowerContext 1.4.1's credential names are secrets: *_TOKEN, *_AUTHORIZATION, *_SECRET_ACCESS_KEY, *_TOKEN_*, raw and encoded" {
	# regression: GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY and POWERCONTEXT_BUB_AUTHORIZATION reached every sink
	local -A secrets=([GITHUB_TOKEN]=ghp-github-token-0001 [AWS_SECRET_ACCESS_KEY]=aws/secret+access-0002
		[POWERCONTEXT_BUB_AUTHORIZATION]='Bearer bub-auth-0003' [my_token_value]=lower-case-name-0004)
	local name forms=
	for name in "${!secrets[@]}"; do
		forms+=$(SECRET=${secrets[$name]} python3 -c '
import base64, json, os, urllib.parse
s = os.environ["SECRET"]
print(s)
print(json.dumps(s)[1:-1])
print(base64.b64encode(s.encode()).decode())
print(urllib.parse.quote(s, safe=""))')$'\n'
	done
	jq -Rn '[inputs | select(. != "")]' <<<"$forms" >"$T/errors.json"
	replay '.status = "failed" | .errors = $errs[0]' --slurpfile errs "$T/errors.json" >"$T/in.json"
	env GITHUB_TOKEN="${secrets[GITHUB_TOKEN]}" AWS_SECRET_ACCESS_KEY="${secrets[AWS_SECRET_ACCESS_KEY]}" \
		POWERCONTEXT_BUB_AUTHORIZATION="${secrets[POWERCONTEXT_BUB_AUTHORIZATION]}" \
		my_token_value="${secrets[my_token_value]}" \
		"$PC_BIN/pc-evaluate" --output "$T/out" <"$T/in.json" >"$T/stdout.jsonl" 2>"$T/stderr" || true
	local form f
	while read -r form; do
		[[ -n $form ]] || continue
		for f in "$T/stdout.jsonl" "$T/stderr" "$T/out/project-database-decision/eval-report.json"; do
			! grep -qF -- "$form" "$f" || fail "the secret form $form is in $f"
		done
	done <<<"$forms"
	grep -qF '[REDACTED]' "$T/stdout.jsonl" || fail "nothing was redacted: $(cat "$T/stdout.jsonl")"
}

@test "1.4.1's exemptions and placeholders: *_FILE, *_PATH, *_URL and lm-studio, dummy, ollama redact nothing" {
	replay '.status = "failed" | .errors = ["/run/secrets/github-token-file; https://tokens.invalid/x; lm-studio; dummy-not; ollama"]' >"$T/in.json"
	GITHUB_TOKEN_FILE=/run/secrets/github-token-file SOME_TOKEN_URL=https://tokens.invalid/x \
		AWS_SESSION_TOKEN_PATH=/run/secrets/github-token-file OPENAI_API_KEY=lm-studio \
		HF_TOKEN=DUMMY OLLAMA_API_KEY=ollama run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 3
	run jq -r '.cases[0].assertions.collection_completed.reason' <<<"$output"
	assert_output "/run/secrets/github-token-file; https://tokens.invalid/x; lm-studio; dummy-not; ollama"
}

@test "the longest secret is redacted first" {
	replay '.status = "failed" | .errors = ["key sk-abc-extended and sk-abc"]' >"$T/in.json"
	BUB_API_KEY=sk-abc BUB_OTHER_API_KEY=sk-abc-extended run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 3
	save_stdout "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/stdout.jsonl"
	run jq -r '.cases[0].assertions.collection_completed.reason' "$T/stdout.jsonl"
	assert_output "key [REDACTED] and [REDACTED]"
}

@test "other variables, a provider's placeholder key and empty secrets redact nothing" {
	replay '.status = "failed" | .errors = ["visible-value; EMPTY"]' >"$T/in.json"
	BUB_API_KEY= OTHER_KEY=visible-value BUB_API_KEY_FILE=visible-value OTHER_API_KEY=EMPTY \
		run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 3
	save_stdout "$T/stdout.jsonl"
	schema_ok e2e-evaluation "$T/stdout.jsonl"
	run jq -r '.cases[0].assertions.collection_completed.reason' "$T/stdout.jsonl"
	assert_output "visible-value; EMPTY"
	run ! grep -F '[REDACTED]' "$T/stdout.jsonl"
}

@test "a provider's API key of 8 bytes or more is a secret" {
	replay '.status = "failed" | .errors = ["key sk-provider-42 leaked"]' >"$T/in.json"
	OTHER_API_KEY=sk-provider-42 run --separate-stderr pc-evaluate <"$T/in.json"
	assert_status 3
	! grep -F sk-provider-42 <<<"$output" || fail "the key reached the evaluation: $output"
	assert_output --partial 'key [REDACTED] leaked'
}

@test "secrets are redacted from error messages" {
	BUB_API_KEY=sk-secret-value run --separate-stderr pc-evaluate <<<'{"schema": "sk-secret-value"}'
	assert_status 1
	assert_stderr_contains '[REDACTED]'
	refute_stderr_contains sk-secret-value
}

# ---- command line ----

@test "--help prints the usage on stdout and exits 0" {
	run --separate-stderr pc-evaluate --help </dev/null
	assert_status 0
	assert_line --index 0 "usage: pc-evaluate [--experiment-prefix NAME] [--failure-policy POLICY] [--output DIR]"
	assert_output --partial "--experiment-prefix NAME"
}

@test "--version prints the version" {
	run --separate-stderr pc-evaluate --version </dev/null
	assert_status 0
	assert_output --regexp '^pc-evaluate [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "usage errors exit 64 without reading stdin" {
	run --separate-stderr pc-evaluate --bogus <"$ACCEPTED"
	assert_status 64
	assert_stdout_empty
	assert_stderr_contains "usage: pc-evaluate"
	run --separate-stderr pc-evaluate --experiment-prefix "" <"$ACCEPTED"
	assert_status 64
	assert_stdout_empty
	run --separate-stderr pc-evaluate --output <"$ACCEPTED"
	assert_status 64
	run --separate-stderr pc-evaluate extra-argument <"$ACCEPTED"
	assert_status 64
	assert_stdout_empty
	run --separate-stderr pc-evaluate --failure-policy sometimes <"$ACCEPTED"
	assert_status 64
	assert_stderr_contains "--failure-policy must be collect-all or fail-fast"
}
