# Shared setup of the pc-e2e bats suites.
#
# Each suite does `load test_helper` and calls pc_setup from its setup().
# PC_BIN (set by `make test` / `make check-asan`) names the directory of the
# filters under test; it defaults to the repository's bin/.

bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

REPO="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
PC_BIN="${PC_BIN:-$REPO/bin}"
export PC_BIN
PATH="$PC_BIN:$PATH"
FIXTURES="$REPO/tests/fixtures"
ACCEPTED="$FIXTURES/replays/accepted.json"
REGISTRY_MANIFEST="$FIXTURES/manifests/registry-task.json"
CHECK_SCHEMA="$REPO/tests/bin/check-schema"

# Schema names of the documents the filters read and write.
# shellcheck disable=SC2034  # used by the .bats files that load this helper
EVIDENCE=powercontext.e2e-evidence/v1
# shellcheck disable=SC2034  # used by the .bats files that load this helper
EVALUATION=powercontext.e2e-evaluation/v1
# shellcheck disable=SC2034  # used by the .bats files that load this helper
SELECTION=powercontext.e2e-selection/v1

# The pinned checksum of the accepted fixture's task.
# shellcheck disable=SC2034  # used by the .bats files that load this helper
PINNED=139ef66e50061ac8486b565e005abd007aed4ac2982497029024900c5f30b5bb
# Harbor's checksum test vector (docs/DESIGN.md §2.2).
# shellcheck disable=SC2034  # used by the .bats files that load this helper
VECTOR=2ce03c690abbaecbd6b9305a168f896d2f4b76949e1be5e6c15983bc361d4b21

pc_setup() {
	local f
	for f in pc-select pc-evaluate pc-report; do
		[[ -x "$PC_BIN/$f" ]] || { fail "$PC_BIN/$f is missing: run make first"; return 1; }
	done
	# pc-select's defaults (--manifests manifests, --root .) are relative
	# to the working directory: run from the repository root.
	cd "$REPO" || return 1
	T="$BATS_TEST_TMPDIR"
	# Secrets and colour settings of the caller must not leak into the
	# assertions: the filters redact every configured secret.
	while read -r f; do
		case "$f" in
		*_API_KEY | POWERCONTEXT_SERVER_INFERENCE_*_HEADERS | POWERCONTEXT_CLIENT_API_TOKEN | POWERCONTEXT_E2E_AGENT_PROXY_URL | NO_COLOR)
			unset "$f" ;;
		esac
	done < <(compgen -e)
	# Under the sanitizers, a finding must never pass for an expected exit
	# status 1: make every sanitizer report exit with its own status.
	if [[ -n "${PC_SANITIZED:-}" ]]; then
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
		export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99"
		export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}exitcode=99"
	fi
}

# schema_ok NAME FILE: every JSON text of FILE is valid against
# schemas/NAME.schema.json (and FILE holds at least one).  A file with the
# same bytes as one already found valid against NAME during this run is not
# validated again (check-schema's start-up dominates the suite's time).
schema_ok() {
	local name="$1" file="$2" sum seen
	# explicit returns: this also runs from teardown, where errexit is off
	if [[ ! -s "$file" ]]; then
		fail "schema_ok: $file is empty: no $name document to validate"
		return 1
	fi
	sum=$(sha256sum <"$file") || return 1
	seen="$BATS_RUN_TMPDIR/schema-ok/$name.${sum%% *}"
	[[ -e "$seen" ]] && return 0
	if ! "$CHECK_SCHEMA" "$name" "$file"; then
		fail "schema_ok: $file is not a valid $name document"
		return 1
	fi
	mkdir -p "${seen%/*}" && : >"$seen"
}

# save_stdout FILE: the last `run`'s stdout ($output) to FILE, one newline
# at its end (run strips trailing newlines); FILE stays empty if it was.
save_stdout() {
	if [[ -n "$output" ]]; then
		printf '%s\n' "$output" >"$1"
	else
		: >"$1"
	fi
}

# assert_stderr_contains TEXT...: each TEXT is a substring of $stderr.
# shellcheck disable=SC2154  # bats' run --separate-stderr sets $stderr
assert_stderr_contains() {
	local s
	for s in "$@"; do
		[[ "$stderr" == *"$s"* ]] || {
			fail "stderr does not contain: $s
--- stderr ---
$stderr"
			return 1
		}
	done
}

refute_stderr_contains() {
	local s
	for s in "$@"; do
		[[ "$stderr" != *"$s"* ]] || {
			fail "stderr contains: $s
--- stderr ---
$stderr"
			return 1
		}
	done
}

# assert_stdout_empty: the last `run --separate-stderr` wrote nothing on stdout.
assert_stdout_empty() {
	[[ -z "$output" ]] && return 0
	fail "expected nothing on stdout, got:
$output"
}

# assert_status N: the last `run --separate-stderr` exited N; otherwise fail
# showing its stdout and stderr (bats-assert shows only stdout).
# shellcheck disable=SC2154  # bats' run sets $status
assert_status() {
	[[ "$status" -eq "$1" ]] && return 0
	fail "expected exit status $1, got $status
--- stdout ---
$output
--- stderr ---
${stderr:-}"
}

# assert_exit N: the same, as the suites that run workloads name it.
assert_exit() {
	assert_status "$@"
}

# jq definitions shared by the replay variants.
# shellcheck disable=SC2016  # jq variables, not shell ones
JQ_DEFS='
def cap($event; $status; $sid): {schema: "powercontext.bub-capture-event/v1",
  recorded_at: "2026-06-30T12:00:01Z", event: $event, status: $status, source_id: $sid};
def ctx($status; $bytes): {schema: "powercontext.bub-capture-event/v1",
  recorded_at: "2026-06-30T12:00:02Z", event: "context", status: $status, content_bytes: $bytes};
def checkpoint($status; $cur; $target): {schema: "powercontext.bub-capture-event/v1",
  recorded_at: "2026-06-30T12:00:03Z", event: "checkpoint", status: $status,
  current_cursor: $cur, target_position: $target};
def entry($id; $refs): {entry_id: $id, entry_version_id: ("ver_" + $id), version: 1,
  kind: "fact", text: ("entry " + $id), state: "active", source_refs: $refs};
def ref($sid): {name: "source", source_id: $sid};
def probe($id; $status; $content): {id: $id, query: ("query " + $id),
  prepared_context: {status: $status, content: $content}};
def spec($id; $expected): {id: $id, query: ("query " + $id), expected_context: $expected};
def forbid($id; $forbidden): {id: $id, query: ("query " + $id), forbidden_context: $forbidden};
def atomic($id; $revision; $sources): {artifact: {family: "atomic-memory", artifact_id: $id, revision: $revision},
  kind: "fact", text: ("atomic " + $id), state: "active", state_version: 1, merged_into_id: null,
  sources: $sources, artifacts: []};
def outcome($collect_all; $fail_fast): {expected_execution: {"collect-all": $collect_all, "fail-fast": $fail_fast}};
'

# replay FILTER [JQ ARGS...]: the accepted fixture transformed by FILTER
# (with JQ_DEFS available), on stdout.
replay() {
	local filter="$1"
	shift
	jq "$@" "$JQ_DEFS $filter" "$ACCEPTED"
}

# verdict_evaluations DIR: one evaluation per verdict, made by pc-evaluate
# from replays of the accepted fixture and validated, in DIR/accepted.jsonl
# (project-database-decision, every assertion true), DIR/failed.jsonl
# (wl-failed: scope_started_empty false) and DIR/inconclusive.jsonl (wl-incon:
# collection failed, "server down; timeout <5s> & "x""), and all three in
# DIR/all.jsonl.
verdict_evaluations() {
	local dir="$1"
	{
		replay . -c
		replay '.task.id = "wl-failed" | .memory_before.entries = [entry("old"; [])]' -c
		replay '.task.id = "wl-incon" | .status = "failed" |
			.errors = ["server down", "timeout <5s> & \"x\""]' -c
	} >"$dir/replays.jsonl"
	# 2: one case failed; the verdicts are the point of these fixtures.
	"$PC_BIN/pc-evaluate" <"$dir/replays.jsonl" >"$dir/all.jsonl" || [[ $? -eq 2 ]]
	schema_ok e2e-evaluation "$dir/all.jsonl"
	sed -n 1p "$dir/all.jsonl" >"$dir/accepted.jsonl"
	sed -n 2p "$dir/all.jsonl" >"$dir/failed.jsonl"
	sed -n 3p "$dir/all.jsonl" >"$dir/inconclusive.jsonl"
}

# evaluate FILTER [PC-EVALUATE ARGS...]: run pc-evaluate on one replay
# derived with FILTER; $T/replay.json is the input, $T/eval.json its stdout,
# which must hold one evaluation whatever the verdict.  Every evaluation a
# test produces this way is validated against the schema by pc_teardown,
# in one check-schema run per test.
evaluate() {
	replay "$1" >"$T/replay.json"
	shift
	run --separate-stderr pc-evaluate "$@" <"$T/replay.json"
	save_stdout "$T/eval.json"
	if [[ $(wc -l <"$T/eval.json") -ne 1 ]]; then
		fail "expected one evaluation line on stdout (exit $status): $output
--- stderr ---
$stderr"
		return 1
	fi
	cat "$T/eval.json" >>"$T/produced-evaluations.jsonl"
}

# pc_teardown: validate what `evaluate` produced during the test.
pc_teardown() {
	if [[ -e "$T/produced-evaluations.jsonl" ]]; then
		schema_ok e2e-evaluation "$T/produced-evaluations.jsonl"
	fi
}

# ev JQ: a value of the last evaluation ($T/eval.json), compact.
ev() {
	jq -c "$1" "$T/eval.json"
}

# assertion NAME: value of that assertion of the only case of $T/eval.json.
assertion() {
	jq -c --arg n "$1" '.cases[0].assertions[$n].value' "$T/eval.json"
}

reason() {
	jq -r --arg n "$1" '.cases[0].assertions[$n].reason' "$T/eval.json"
}

# harbor_checksum DIR...: Harbor's task checksum of each DIR, one a line
# (dirhash sha256 over names and data, hidden files included, symlinks
# followed, empty dirs skipped), computed independently of the filters.
harbor_checksum() {
	python3 - "$@" <<'EOF'
import hashlib, os, sys

def h_dir(path):
    entries = []
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if os.path.isdir(full):
            sub = h_dir(full)
            if sub is not None:
                entries.append("dirhash:" + sub + "\0name:" + name)
        elif os.path.isfile(full):
            with open(full, "rb") as f:
                data = hashlib.sha256(f.read()).hexdigest()
            entries.append("data:" + data + "\0name:" + name)
    if not entries:
        return None
    return hashlib.sha256("\0\0".join(sorted(entries)).encode()).hexdigest()

for d in sys.argv[1:]:
    print(h_dir(d))
EOF
}

# copy_catalog DIR: a copy of the repository's manifests/ under DIR, to be
# used with --root DIR (or from DIR).
copy_catalog() {
	mkdir -p "$1"
	cp -R "$REPO/manifests" "$1/"
}

# registry_manifest [FILTER]: the registry-task fixture manifest (JSON,
# which is YAML too) transformed by FILTER, on stdout.
registry_manifest() {
	jq "${1:-.}" "$REGISTRY_MANIFEST"
}

# paired_arm TASK TRIAL ARM POSITION OUTCOME [SECONDS]: one arm observation, on
# one line, with one step "task" that took SECONDS (default 12.5).
paired_arm() {
	jq -nc --arg task "$1" --argjson trial "$2" --arg arm "$3" --argjson position "$4" \
		--arg outcome "$5" --argjson seconds "${6:-12.5}" '{
		schema: "powercontext.e2e-paired-arm/v3", run_id: "\($task)-t\($trial)-\($arm)-0123456789ab",
		task_id: $task, trial: $trial, arm: $arm, position: $position,
		environment: {commit: "1.4.1", database: "sqlite", adapter: "bub", adapter_version: "0.5.1",
			adapter_protocol_version: "1", agent_model: "openai:pc-e2e-scripted/x@0123456789ab",
			started_at: "2026-12-02T10:00:00Z", finished_at: "2026-12-02T10:01:00Z"},
		scope_id: (if $arm == "on" then "scp_1" else null end),
		harbor: {rewards: {reward: (if $outcome == "passed" then 1 else 0 end)}},
		steps: [{name: "task", seconds: $seconds, input_tokens: 1200, output_tokens: 80}],
		outcome: $outcome}'
}

# paired_trials N ON OFF: N trials of workload w, ON's outcome ON and OFF's OFF,
# written as a run writes them, under $T/run/w/trial-<n>/<arm>/observation.json.
paired_trials() {
	local n on=$2 off=$3 first second
	for ((n = 1; n <= $1; n++)); do
		if ((n % 2)); then first=off second=on; else first=on second=off; fi
		mkdir -p "$T/run/w/trial-$n/off" "$T/run/w/trial-$n/on"
		paired_arm w "$n" "$first" 1 "$([[ $first == on ]] && echo "$on" || echo "$off")" | jq . >"$T/run/w/trial-$n/$first/observation.json"
		paired_arm w "$n" "$second" 2 "$([[ $second == on ]] && echo "$on" || echo "$off")" | jq . >"$T/run/w/trial-$n/$second/observation.json"
	done
}

# paired_account TASK TRIAL ARM USD [FAULT]: an arm's account.json (compact) as
# pc-normalize --paired writes it: the agent 1000 input tokens (200 cached)
# and 100 output at USD, the ON arm's extraction 3 requests, 900 input and
# 30 output at 0.01; FAULT the arm's fault (JSON), its one step estimated.
paired_account() {
	jq -nc --arg task "$1" --argjson trial "$2" --arg arm "$3" --argjson usd "$4" \
		--argjson fault "${5:-null}" '{
		schema: "pc-e2e.paired-arm-account/v1", run_id: "\($task)-t\($trial)-\($arm)-0123456789ab",
		task_id: $task, trial: $trial, arm: $arm, fault: $fault,
		spend: {agent: {model: "openai:pc-e2e-scripted/x@0123456789ab", input_tokens: 1000,
				cached_tokens: 200, output_tokens: 100, estimated_steps: (if $fault then 1 else 0 end),
				usd: $usd},
			extraction: {model: "openai-chat:pc-e2e-scripted/extractor", embedding_model: null,
				requests: (if $arm == "on" then 3 else 0 end),
				input_tokens: (if $arm == "on" then 900 else 0 end),
				output_tokens: (if $arm == "on" then 30 else 0 end), embedding_tokens: 0,
				usd: (if $arm == "on" then 0.01 else 0 end)},
			usd: ($usd + (if $arm == "on" then 0.01 else 0 end))}}'
}

# scripted_model_serve SCRIPTS DIR [OPTION…]: start pipelines/scripted-model
# on SCRIPTS, with OPTIONs, in the background (its URL in DIR/model.url,
# requests in DIR/requests.jsonl, stderr in DIR/model.err, pid in
# DIR/model.pid) and wait until it serves; fails with its stderr when it
# does not.
scripted_model_serve() {
	local i
	python3 "$REPO/pipelines/scripted-model" "$1" "$2/model.url" "$2/requests.jsonl" "${@:3}" 2>"$2/model.err" 3>&- &
	echo $! >"$2/model.pid"
	for ((i = 0; i < 100; i++)); do
		[[ -s $2/model.url ]] && return 0
		sleep 0.1
	done
	cat "$2/model.err" >&2
	return 1
}
