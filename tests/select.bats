#!/usr/bin/env bats
# pc-select: catalog validation and selection (docs/DESIGN.md §2.1, §2.2, §4).

load test_helper

setup() {
	pc_setup
}

# The acceptance category in catalog order: the failure-policy fixtures follow
# project-database-decision, their batch:acceptance group's first workload.
ACCEPTANCE=(project-database-decision failure-policy-timeout failure-policy-followup
	locomo-multihop-football locomo-open-pastries locomo-support-group locomo-temporal-banker)
SAMPLES=(project-database-decision locomo-multihop-football locomo-open-pastries
	locomo-support-group locomo-temporal-banker)

# select_ok ARGS...: pc-select succeeds, stderr is empty, and its stdout
# ($T/selection.jsonl) is a valid selection stream.
# smoke_manifest ID: the first four lines of a registry-task manifest (schema,
# id, category smoke, dataset), then stdin, so error lines and columns are
# those of the whole file.
smoke_manifest() {
	printf '%s\n' "schema: powercontext.e2e-task/v1" "id: $1" "categories: [smoke]" \
		"dataset: {name: reg, task_id: t1, checksum: 01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a}"
	cat
}

select_ok() {
	run --separate-stderr pc-select "$@"
	assert_status 0
	[[ -z "$stderr" ]] || fail "unexpected stderr: $stderr"
	save_stdout "$T/selection.jsonl"
	schema_ok e2e-selection "$T/selection.jsonl"
}

# select_fails ARGS...: pc-select exits 1 and writes nothing on stdout.
select_fails() {
	run --separate-stderr pc-select "$@"
	assert_status 1
	assert_stdout_empty
}

ids() {
	jq -r '.workload.id' "$T/selection.jsonl"
}

# reject FILTER PATH RULE: the registry fixture transformed by FILTER is
# refused, naming the file, the field path and the rule.
reject() {
	registry_manifest "$1" >"$T/m.yaml"
	select_fails --manifests "$T/m.yaml" --category smoke
	assert_stderr_contains "$T/m.yaml:" ": $2: $3"
}

# accept FILTER: the registry fixture transformed by FILTER is selected.
accept() {
	registry_manifest "$1" >"$T/m.yaml"
	select_ok --manifests "$T/m.yaml" --category smoke
	[[ $(wc -l <"$T/selection.jsonl") -eq 1 ]]
}

# The test vector tree of docs/DESIGN.md §2.2, as DIR/t.
vector_tree() {
	mkdir -p "$1/t/sub" "$1/t/emptydir"
	printf 'hello\n' >"$1/t/a.txt"
	printf 'hello\n' >"$1/t/.hidden"
	printf 'x' >"$1/t/sub/b.txt"
}

# A manifest pinning CHECKSUM for task TASK of the local dataset "tasks".
local_manifest() {
	jq --arg task "$1" --arg sum "$2" \
		'.dataset = {path: "tasks", task_id: $task, checksum: $sum}' "$REGISTRY_MANIFEST"
}

# ---- selection ----

@test "default selection is the seven acceptance workloads, in catalog order, once each" {
	select_ok
	run ids
	assert_output "$(printf '%s\n' "${ACCEPTANCE[@]}")"
	run jq -r '.schema' "$T/selection.jsonl"
	assert_output "$(printf "$SELECTION%.0s\n" 1 2 3 4 5 6 7)"
}

@test "--id and --category are additive and keep catalog order" {
	select_ok --id terminal-bench-db-wal-recovery --category smoke
	run ids
	assert_output "project-database-decision
terminal-bench-db-wal-recovery"
}

@test "a workload named by both an id and a category is selected once" {
	select_ok --category sample --id project-database-decision --category smoke \
		--id project-database-decision
	run ids
	assert_output "$(printf '%s\n' "${SAMPLES[@]}")"
}

@test "--id alone does not add the default acceptance category" {
	select_ok --id locomo-open-pastries
	run ids
	assert_output "locomo-open-pastries"
}

@test "a registry task has kind registry and null dir and checksum" {
	select_ok --id terminal-bench-db-wal-recovery
	run jq -c '.task' "$T/selection.jsonl"
	assert_output '{"kind":"registry","dir":null,"checksum":null}'
	run jq -c '.workload.dataset' "$T/selection.jsonl"
	assert_output '{"path":null,"name":"terminal-bench","version":"2.0","task_id":"db-wal-recovery","checksum":"01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a"}'
}

@test "a local task's checksum is computed, equals the pinned one and its dir is absolute" {
	select_ok --id project-database-decision
	run jq -r '.task.kind, .task.checksum, .workload.dataset.checksum' "$T/selection.jsonl"
	assert_output "local
$PINNED
$PINNED"
	local dir
	dir=$(jq -r '.task.dir' "$T/selection.jsonl")
	assert_equal "$dir" "$(realpath "$REPO/manifests/harbor-tasks/project-database-decision")"
	assert_equal "$(harbor_checksum "$dir")" "$PINNED"
}

@test "every local acceptance task hashes to its pinned checksum" {
	select_ok
	run jq -r 'select(.task.checksum != .workload.dataset.checksum) | .workload.id' "$T/selection.jsonl"
	assert_output ""
	local dirs
	mapfile -t dirs < <(jq -r '.task.dir' "$T/selection.jsonl")
	run harbor_checksum "${dirs[@]}"
	assert_output "$(jq -r '.workload.dataset.checksum' "$T/selection.jsonl")"
}

@test "the manifest reference names the file and its sha256" {
	select_ok --id project-database-decision
	run jq -r '.manifest.path, .manifest.sha256' "$T/selection.jsonl"
	assert_output "manifests/acceptance-01-project-database-decision.yaml
$(sha256sum manifests/acceptance-01-project-database-decision.yaml | cut -d' ' -f1)"
}

@test "an unknown id and an unknown category are named in one error, nothing selected" {
	select_fails --id project-database-decision --id no-such-workload --category no-such-category
	assert_stderr_contains 'unknown workload ids: "no-such-workload"' 'unknown categories: "no-such-category"'
	[[ $(grep -c . <<<"$stderr") -eq 1 ]] || fail "expected one error line: $stderr"
}

@test "an unknown id alone is an error" {
	select_fails --id nope
	assert_stderr_contains 'unknown workload ids: "nope"'
	refute_stderr_contains 'categories'
}

@test "--manifests with a single file selects from that file only" {
	select_ok --manifests manifests/locomo-support-group.yaml
	run ids
	assert_output "locomo-support-group"
	run jq -r '.manifest.path' "$T/selection.jsonl"
	assert_output "manifests/locomo-support-group.yaml"
}

@test "a catalog is every *.yaml of the directory, in file name order" {
	mkdir "$T/cat"
	registry_manifest '.id = "zz-last-id"' >"$T/cat/a.yaml"
	registry_manifest '.id = "aa-first-id"' >"$T/cat/b.yaml"
	registry_manifest '.id = "not-a-manifest"' >"$T/cat/c.yml"
	registry_manifest '.id = "hidden"' >"$T/cat/.hidden.yaml"
	echo 'not yaml: [' >"$T/cat/README.md"
	select_ok --manifests "$T/cat" --category smoke
	run ids
	assert_output "zz-last-id
aa-first-id"
}

@test "--manifests naming a directory without *.yaml is an error" {
	mkdir "$T/empty"
	echo 'x: 1' >"$T/empty/notes.yml"
	select_fails --manifests "$T/empty"
	assert_stderr_contains "$T/empty: no *.yaml workload manifests"
}

@test "--manifests naming a missing path is an error" {
	select_fails --manifests "$T/missing"
	assert_stderr_contains "$T/missing: cannot read manifests"
}

@test "with no acceptance workload in the catalog the default selection is an error" {
	select_fails --manifests "$REGISTRY_MANIFEST"
	assert_stderr_contains 'no workload selected: no workload is in the category "acceptance"'
}

# ---- roots and local tasks ----

@test "--root resolves dataset paths and provenance sources elsewhere" {
	copy_catalog "$T/elsewhere"
	mkdir "$T/cwd"
	cd "$T/cwd"
	select_ok --manifests "$T/elsewhere/manifests" --root "$T/elsewhere"
	run ids
	assert_output "$(printf '%s\n' "${ACCEPTANCE[@]}")"
	local root
	root=$(realpath "$T/elsewhere")
	run jq -r --arg root "$root/manifests/harbor-tasks/" \
		'select((.task.dir | startswith($root)) | not) | .task.dir' "$T/selection.jsonl"
	assert_output ""
	run jq -r 'select(.task.checksum != .workload.dataset.checksum) | .workload.id' "$T/selection.jsonl"
	assert_output ""
}

@test "without --root, paths resolve against the working directory, and the error says to pass --root" {
	copy_catalog "$T/elsewhere"
	mkdir "$T/cwd"
	cd "$T/cwd"
	select_fails --manifests "$T/elsewhere/manifests"
	assert_stderr_contains "nothing selected" \
		"$T/elsewhere/manifests/locomo-open-pastries.yaml:8:3: provenance.source: ./manifests/provenance/locomo-samples.md: cannot open: No such file or directory; looked for under --root $(realpath "$T/cwd"): pass --root DIR, where the manifest's paths start"
	# a manifest without provenance: its task directory, with the same hint
	local m="$T/elsewhere/manifests/acceptance-01-project-database-decision.yaml" at
	at=$(grep -n '^  path:' "$m" | cut -d: -f1)
	select_fails --manifests "$m"
	assert_stderr_contains "$m:$at:3: dataset.path: task directory ./manifests/harbor-tasks/project-database-decision: No such file or directory; looked for under --root $(realpath "$T/cwd"): pass --root DIR, where the manifest's paths start"
	select_ok --manifests "$m" --root "$T/elsewhere"
}

@test "a placeholder checksum names the checksum its task directory hashes to, which, pasted, selects it" {
	copy_catalog "$T/repo"
	cd "$T/repo"
	local m=manifests/acceptance-01-project-database-decision.yaml placeholder at
	at=$(grep -n '^  checksum:' "$m" | cut -d: -f1)
	for placeholder in TODO '""'; do
		sed -i "s/^  checksum: .*/  checksum: $placeholder/" "$m"
		select_fails --id project-database-decision
		assert_stderr_contains "$m:$at:3: dataset.checksum: must be 64 lowercase hex digits (a sha256); the task directory manifests/harbor-tasks/project-database-decision hashes to $PINNED: pin that"
	done
	sed -i "s/^  checksum: .*/  checksum: $(grep -o '[0-9a-f]\{64\}: pin that' <<<"$stderr" | cut -d: -f1)/" "$m"
	select_ok --id project-database-decision
	run jq -r .task.checksum "$T/selection.jsonl"
	assert_output "$PINNED"
}

@test "a changed task file refuses the whole selection, naming manifest, pinned and computed checksums" {
	copy_catalog "$T/repo"
	local task="$T/repo/manifests/harbor-tasks/project-database-decision"
	printf 'x' >>"$task/steps/capture/instruction.md"
	local computed
	computed=$(harbor_checksum "$task")
	[[ "$computed" != "$PINNED" ]]
	cd "$T/repo"
	select_fails
	assert_stderr_contains "manifests/acceptance-01-project-database-decision.yaml" "dataset.checksum" \
		"$PINNED" "$computed"
	# the error points at the pinned value's line and column
	local at
	at=$(grep -n 'checksum:' manifests/acceptance-01-project-database-decision.yaml | cut -d: -f1)
	assert_stderr_contains "manifests/acceptance-01-project-database-decision.yaml:$at:3: dataset.checksum"
}

@test "a changed task file refuses an explicit selection including it" {
	copy_catalog "$T/repo"
	rm "$T/repo/manifests/harbor-tasks/locomo-open-pastries/environment/Dockerfile"
	cd "$T/repo"
	select_fails --category sample
	assert_stderr_contains "manifests/locomo-open-pastries.yaml" \
		5af6f3a7bc195b4cbb553c586025a5c6d98fe8945c577f488afdfa76786d811d \
		"$(harbor_checksum manifests/harbor-tasks/locomo-open-pastries)"
}

@test "a changed task that is not selected does not block other workloads" {
	copy_catalog "$T/repo"
	printf 'x' >>"$T/repo/manifests/harbor-tasks/project-database-decision/steps/capture/instruction.md"
	cd "$T/repo"
	select_ok --id locomo-open-pastries
	run ids
	assert_output "locomo-open-pastries"
}

@test "a missing task directory is an error naming it" {
	copy_catalog "$T/repo"
	rm -r "$T/repo/manifests/harbor-tasks/locomo-support-group"
	cd "$T/repo"
	select_fails --id locomo-support-group
	assert_stderr_contains "manifests/locomo-support-group.yaml" "manifests/harbor-tasks/locomo-support-group"
}

@test "Harbor's checksum test vector is accepted when pinned" {
	vector_tree "$T/repo/tasks"
	assert_equal "$(harbor_checksum "$T/repo/tasks/t")" "$VECTOR"
	local_manifest t "$VECTOR" >"$T/repo/m.yaml"
	cd "$T/repo"
	select_ok --manifests m.yaml --category smoke
	run jq -r '.task.kind, .task.checksum, .task.dir' "$T/selection.jsonl"
	assert_output "local
$VECTOR
$(realpath "$T/repo/tasks/t")"
}

@test "a wrong pin is rejected naming the computed checksum" {
	vector_tree "$T/repo/tasks"
	local wrong=0000000000000000000000000000000000000000000000000000000000000000
	local_manifest t "$wrong" >"$T/repo/m.yaml"
	cd "$T/repo"
	select_fails --manifests m.yaml --category smoke
	assert_stderr_contains "m.yaml" "dataset.checksum" "$wrong" "$VECTOR"
}

@test "symlinks inside a task are followed: the checksum equals the copy's" {
	vector_tree "$T/repo/tasks"
	mkdir -p "$T/outside/sub" "$T/repo/tasks/linked/emptydir"
	printf 'hello\n' >"$T/outside/a.txt"
	printf 'x' >"$T/outside/sub/b.txt"
	ln -s "$T/outside/a.txt" "$T/repo/tasks/linked/a.txt"
	ln -s ../t/.hidden "$T/repo/tasks/linked/.hidden"
	ln -s "$T/outside/sub" "$T/repo/tasks/linked/sub"
	local_manifest linked "$VECTOR" >"$T/repo/m.yaml"
	cd "$T/repo"
	select_ok --manifests m.yaml --category smoke
	run jq -r '.task.checksum' "$T/selection.jsonl"
	assert_output "$VECTOR"
}

@test "a task directory without any file is an error" {
	mkdir -p "$T/repo/tasks/hollow/empty/deeper"
	local_manifest hollow "$VECTOR" >"$T/repo/m.yaml"
	cd "$T/repo"
	select_fails --manifests m.yaml --category smoke
	assert_stderr_contains "m.yaml" "holds no file"
}

@test "dataset.path is normalized in the selected workload" {
	vector_tree "$T/repo/tasks"
	jq --arg sum "$VECTOR" '.dataset = {path: "./tasks//", task_id: "t", checksum: $sum}' \
		"$REGISTRY_MANIFEST" >"$T/repo/m.yaml"
	cd "$T/repo"
	select_ok --manifests m.yaml --category smoke
	run jq -c '.workload.dataset' "$T/selection.jsonl"
	assert_output "{\"path\":\"tasks\",\"name\":null,\"version\":null,\"task_id\":\"t\",\"checksum\":\"$VECTOR\"}"
}

@test "dataset.path outside the repository is rejected" {
	reject '.dataset = {path: "../tasks", task_id: "t", checksum: .dataset.checksum}' \
		dataset.path "must be a path inside the repository"
	reject '.dataset = {path: "/srv/harbor-tasks", task_id: "t", checksum: .dataset.checksum}' \
		dataset.path "must be a path inside the repository"
}

# ---- provenance ----

@test "a changed provenance source is an error naming provenance.revision and both hashes" {
	copy_catalog "$T/repo"
	local note="$T/repo/manifests/provenance/locomo-samples.md"
	echo "edited" >>"$note"
	local seen
	seen=$(sha256sum "$note" | cut -d' ' -f1)
	cd "$T/repo"
	select_fails
	assert_stderr_contains "manifests/locomo-multihop-football.yaml:9:3: provenance.revision:" \
		"manifests/provenance/locomo-samples.md" "$seen" \
		21751a44db859dc7713f292f7bb26c757cf6d0f40d4f3317c49bab79c10a1e0b \
		"manifests/locomo-temporal-banker.yaml:9:3: provenance.revision:"
}

@test "a broken provenance anywhere in the catalog blocks every selection" {
	copy_catalog "$T/repo"
	echo "edited" >>"$T/repo/manifests/provenance/locomo-samples.md"
	cd "$T/repo"
	select_fails --id project-database-decision
	assert_stderr_contains "provenance.revision" "nothing selected"
}

@test "a provenance source climbing out of the repository is rejected" {
	copy_catalog "$T/repo"
	cd "$T/repo"
	sed -i 's#source: manifests/provenance/locomo-samples.md#source: ../x#' manifests/locomo-open-pastries.yaml
	select_fails --id locomo-open-pastries
	assert_stderr_contains "manifests/locomo-open-pastries.yaml:8:3: provenance.source: must be a path inside the repository"
}

@test "an absolute provenance source is rejected" {
	copy_catalog "$T/repo"
	cd "$T/repo"
	sed -i "s#source: manifests/provenance/locomo-samples.md#source: $T/repo/manifests/provenance/locomo-samples.md#" \
		manifests/locomo-open-pastries.yaml
	select_fails --id locomo-open-pastries
	assert_stderr_contains "manifests/locomo-open-pastries.yaml:8:3: provenance.source: must be a path inside the repository"
}

@test "a missing provenance source is an error naming provenance.source" {
	copy_catalog "$T/repo"
	cd "$T/repo"
	rm manifests/provenance/locomo-samples.md
	select_fails
	assert_stderr_contains "manifests/locomo-support-group.yaml:8:3: provenance.source:" "locomo-samples.md"
}

@test "provenance fields are validated" {
	reject '.provenance = {source: "x", revision: "abc", selection: "s", case_ids: ["c"]}' \
		provenance.revision "must be 64 lowercase hex digits"
	reject '.provenance = {source: "x", revision: ("0" * 64), selection: "s", case_ids: []}' \
		provenance.case_ids "must be at least 1 items"
	reject '.provenance = {source: "x", revision: ("0" * 64), case_ids: ["c"]}' \
		provenance.selection "is required"
}

# ---- catalog-wide rules ----

@test "duplicate ids across two files are an error naming both files" {
	copy_catalog "$T/repo"
	cp "$T/repo/manifests/locomo-open-pastries.yaml" "$T/repo/manifests/zz-copy.yaml"
	cd "$T/repo"
	select_fails
	assert_stderr_contains 'manifests/zz-copy.yaml: id: "locomo-open-pastries" is already the id of manifests/locomo-open-pastries.yaml'
}

@test "every invalid manifest of the catalog is reported, not only the first" {
	mkdir "$T/cat"
	registry_manifest '.id = "one" | .execution.max_steps = 0' >"$T/cat/a.yaml"
	registry_manifest '.id = "two" | .execution.max_tokens = 1' >"$T/cat/b.yaml"
	registry_manifest '.id = "three"' >"$T/cat/c.yaml"
	select_fails --manifests "$T/cat" --category smoke
	assert_stderr_contains "$T/cat/a.yaml:" "execution.max_steps" "$T/cat/b.yaml:" "execution.max_tokens"
	refute_stderr_contains "$T/cat/c.yaml"
}

# ---- YAML and manifest rules ----

@test "malformed YAML names file:line:col" {
	cat >"$T/m.yaml" <<-'EOF'
	schema: powercontext.e2e-task/v1
	id: broken
	categories: [smoke, sample
	dataset: {}
	EOF
	select_fails --manifests "$T/m.yaml"
	assert_stderr_contains "$T/m.yaml:4:8: invalid YAML: did not find expected ',' or ']'"
	printf 'schema: powercontext.e2e-task/v1\n  id: indented\n' >"$T/m.yaml"
	select_fails --manifests "$T/m.yaml"
	assert_stderr_contains "$T/m.yaml:2:5: invalid YAML: mapping values are not allowed"
}

@test "an unknown field names its path and line" {
	cat >"$T/m.yaml" <<-'EOF'
	schema: powercontext.e2e-task/v1
	id: typo
	categories: [smoke]
	dataset:
	  name: reg
	  task_id: t1
	  checksum: 01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a
	execution:
	  model: false
	  max_step: 3
	evaluation:
	  probes:
	    - id: p1
	      query: "q?"
	EOF
	select_fails --manifests "$T/m.yaml" --category smoke
	assert_stderr_contains "$T/m.yaml:10:3: execution.max_step: unknown field"
}

@test "an unknown field inside a list item names its index" {
	smoke_manifest typo >"$T/m.yaml" <<-'EOF'
	execution: {}
	evaluation:
	  probes:
	    - id: p1
	      query: "q?"
	    - id: p2
	      query: "r?"
	      expected: [x]
	EOF
	select_fails --manifests "$T/m.yaml" --category smoke
	assert_stderr_contains "$T/m.yaml:12:7: evaluation.probes[1].expected: unknown field"
}

@test "a value of the wrong type names the field, its line and the expected type" {
	cat >"$T/m.yaml" <<-'EOF'
	schema: powercontext.e2e-task/v1
	id: typed
	categories: smoke
	dataset: {name: reg, task_id: t1, checksum: 01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a}
	execution: {}
	evaluation: {probes: [{id: p1, query: q}]}
	EOF
	select_fails --manifests "$T/m.yaml" --category smoke
	assert_stderr_contains "$T/m.yaml:3:1: categories: must be a list, not a string"
}

@test "wrong types are rejected" {
	reject '.execution.max_steps = "10"' execution.max_steps "must be an integer, not a string"
	reject '.execution.max_steps = 1.5' execution.max_steps "must be an integer, not a number"
	reject '.execution.model = "true"' execution.model "must be a boolean, not a string"
	reject '.evaluation.capture_events = 1' evaluation.capture_events "must be a boolean, not a number"
	reject '.categories = ["smoke", 1]' "categories[1]" "must be a string, not a number"
	reject '.evaluation.expected_memory = "x"' evaluation.expected_memory "must be a list, not a string"
	reject '.evaluation.thresholds = []' evaluation.thresholds "must be an object, not a list"
	reject '.execution = null' execution "must be an object, not null"
}

@test "execution limits: max_steps 1..200, max_tokens >= 256" {
	reject '.execution.max_steps = 0' execution.max_steps "must be between 1 and 200"
	reject '.execution.max_steps = 201' execution.max_steps "must be between 1 and 200"
	reject '.execution.max_tokens = 255' execution.max_tokens "must be at least 256"
	reject '.execution.type = "codex"' execution.type 'must be "bub"'
}

@test "evaluation limits: checkpoint_every_events 1..100, max_event_bytes 512..32768" {
	reject '.evaluation.checkpoint_every_events = 101' evaluation.checkpoint_every_events "must be between 1 and 100"
	reject '.evaluation.checkpoint_every_events = 0' evaluation.checkpoint_every_events "must be between 1 and 100"
	reject '.evaluation.max_event_bytes = 511' evaluation.max_event_bytes "must be between 512 and 32768"
	reject '.evaluation.max_event_bytes = 32769' evaluation.max_event_bytes "must be between 512 and 32768"
}

@test "thresholds: ratios within 0..1, minimum_in_run_contexts >= 0" {
	reject '.evaluation.thresholds.capture_coverage = 1.01' evaluation.thresholds.capture_coverage "must be between 0 and 1"
	reject '.evaluation.thresholds.groundedness = 2' evaluation.thresholds.groundedness "must be between 0 and 1"
	reject '.evaluation.thresholds.probe_coverage = -0.1' evaluation.thresholds.probe_coverage "must be between 0 and 1"
	reject '.evaluation.thresholds.minimum_in_run_contexts = -1' evaluation.thresholds.minimum_in_run_contexts "must be at least 0"
	reject '.evaluation.thresholds.minimum_in_run_contexts = 0.5' evaluation.thresholds.minimum_in_run_contexts "must be an integer"
}

@test "limits are inclusive" {
	accept '.execution = {max_steps: 1, max_tokens: 256} |
		.evaluation += {checkpoint_every_events: 1, max_event_bytes: 512,
		thresholds: {capture_coverage: 0, groundedness: 1, probe_coverage: 0, minimum_in_run_contexts: 0}}'
	accept '.execution = {max_steps: 200, max_tokens: 1000000} |
		.evaluation += {checkpoint_every_events: 100, max_event_bytes: 32768}'
	run jq -c '[.workload.execution.max_steps, .workload.evaluation.checkpoint_every_events, .workload.evaluation.max_event_bytes]' "$T/selection.jsonl"
	assert_output '[200,100,32768]'
}

@test "schema must be the manifest schema" {
	reject '.schema = "powercontext.e2e-task/v2"' schema 'must be "powercontext.e2e-task/v1"'
	reject 'del(.schema)' schema "is required"
}

@test "ids must match ^[a-z0-9][a-z0-9_-]*\$" {
	reject '.id = "Upper"' id 'must match ^[a-z0-9][a-z0-9_-]*$'
	reject '.id = "-leading"' id 'must match'
	reject '.id = "has.dot"' id 'must match'
	reject '.id = ""' id 'must match'
	reject '.evaluation.probes[0].id = "Bad Probe"' "evaluation.probes[0].id" 'must match'
	accept '.id = "0-ok_id"'
}

@test "probe ids must be unique" {
	reject '.evaluation.probes += [{id: "first", query: "again?"}]' evaluation.probes \
		'probe ids must be unique: "first" repeats'
}

@test "probe id uniqueness is one pass: 50,000 probes with one repeat are refused within the hang guard" {
	# regression: every pair was compared (20,000 probes took 109 s); the bound
	# below only catches that, it is not a timing assertion
	registry_manifest '.evaluation.probes = ([range(50000) | {id: "p\(.)", query: "q\(.)?"}] + [{id: "p0", query: "again?"}])' >"$T/m.yaml"
	run --separate-stderr timeout 60 pc-select --manifests "$T/m.yaml" --category smoke
	assert_status 1
	assert_stderr_contains 'probe ids must be unique: "p0" repeats'
}

@test "context fragments must not be blank, in expected and forbidden context alike" {
	reject '.evaluation.probes[0].expected_context = ["x", " \u2003"]' "evaluation.probes[0].expected_context[1]" "must not be blank"
	reject '.evaluation.probes[0].forbidden_context = [""]' "evaluation.probes[0].forbidden_context[0]" "must not be blank"
	accept '.evaluation.probes[0].forbidden_context = ["\u200b"]'
}

@test "a forbidden fragment contained in an expected one is refused, comparing NFC case-folded forms" {
	reject '.evaluation.probes[0].expected_context = ["OceanBase"] | .evaluation.probes[0].forbidden_context = ["CEANB"]' \
		"evaluation.probes[0]" 'forbidden_context[0] "CEANB" is contained in expected_context[0] "OceanBase"'
	reject '.evaluation.probes[0].expected_context = ["Caf\u00e9 decision"] | .evaluation.probes[0].forbidden_context = ["CAFE\u0301"]' \
		"evaluation.probes[0]" 'forbidden_context[0] "CAFÉ" is contained in expected_context[0] "Café decision"'
	accept '.evaluation.probes[0].expected_context = ["OceanBase"] | .evaluation.probes[0].forbidden_context = ["SQLite"]'
}

@test "a bad 1.4.1 manifest names the file, the line and column, and the field" {
	cat >"$T/bad.yaml" <<-'EOF'
	schema: powercontext.e2e-task/v1
	id: bad-forbidden
	categories: [smoke]
	dataset: {name: reg, task_id: t1, checksum: 01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a}
	execution: {type: bub}
	evaluation:
	  probes:
	    - id: p1
	      query: "Which database?"
	      expected_context: [OceanBase]
	      forbidden_context:
	        - "   "
	EOF
	select_fails --manifests "$T/bad.yaml" --category smoke
	assert_stderr_contains "$T/bad.yaml:12:11: evaluation.probes[0].forbidden_context[0]: must not be blank"
	cat >"$T/bad.yaml" <<-'EOF'
	schema: powercontext.e2e-task/v1
	id: bad-outcome
	categories: [smoke]
	dataset: {name: reg, task_id: t1, checksum: 01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a}
	execution: {type: bub}
	evaluation:
	  expected_execution:
	    collect-all: passed
	    fail-fast: skipped
	EOF
	select_fails --manifests "$T/bad.yaml" --category smoke
	assert_stderr_contains "$T/bad.yaml:8:5: evaluation.expected_execution.collect-all: must be one of completed, failed, skipped"
}

@test "an integer past 64 bits is out of range, not wrapped (regression: 2^64 + 10 passed as 10)" {
	sed 's/max_steps: 10/max_steps: 18446744073709551626/' "$REPO/manifests/acceptance-01-project-database-decision.yaml" >"$T/big.yaml"
	grep -q 18446744073709551626 "$T/big.yaml"
	select_fails --manifests "$T/big.yaml" --root "$REPO" --category smoke
	assert_stderr_contains "$T/big.yaml:18:3: execution.max_steps: must be between 1 and 200"
	sed 's/max_steps: 10/max_steps: 0x10000000000000000000a/' "$REPO/manifests/acceptance-01-project-database-decision.yaml" >"$T/big.yaml"
	select_fails --manifests "$T/big.yaml" --root "$REPO" --category smoke
	assert_stderr_contains "execution.max_steps: must be between 1 and 200"
}

@test "the four evaluation kinds: Memory, outcome, continuation and task-outcome comparison" {
	accept '.evaluation = {expected_execution: {"collect-all": "completed", "fail-fast": "skipped"}}'
	run jq -c .workload.evaluation "$T/selection.jsonl"
	assert_output '{"expected_execution":{"collect-all":"completed","fail-fast":"skipped"}}'
	accept '.evaluation = {recall_step: "recall"}'
	accept '.evaluation = {comparison: "task-outcome"}'
	reject '.evaluation = {comparison: "reward"}' evaluation.comparison 'must be "task-outcome"'
	reject '.evaluation = {recall_step: ""}' evaluation.recall_step "must be at least 1 characters"
	reject '.evaluation = {expected_execution: {"collect-all": "failed"}}' 'evaluation.expected_execution.fail-fast' "is required"
	# a Memory evaluation with an outcome's field is taken as an outcome
	reject '.evaluation.expected_execution = {"collect-all": "failed", "fail-fast": "failed"}' evaluation.probes "unknown field"
	reject '.evaluation = {}' evaluation.probes "is required"
}

@test "at most one batch:<name> category, its name an id" {
	accept '.categories = ["smoke", "batch:acceptance"]'
	reject '.categories = ["smoke", "batch:a", "batch:b"]' categories 'at most one batch:<name> category, not "batch:a" and "batch:b"'
	reject '.categories = ["smoke", "batch:Not An Id"]' categories '"batch:Not An Id": a batch name must match'
	reject '.categories = ["smoke", "batch:"]' categories '"batch:": a batch name must match'
}

@test "probe queries are 1..8192 characters" {
	reject '.evaluation.probes[0].query = ""' "evaluation.probes[0].query" "must be between 1 and 8192 characters"
	reject '.evaluation.probes[0].query = ("q" * 8193)' "evaluation.probes[0].query" "must be between 1 and 8192 characters"
	accept '.evaluation.probes[0].query = ("é" * 8192)'
}

@test "a dataset gives exactly one of path or name" {
	reject '.dataset.path = "tasks"' dataset "must give exactly one of path or name"
	reject 'del(.dataset.name)' dataset "must give exactly one of path or name"
}

@test "a local dataset cannot declare a version" {
	reject '.dataset = {path: "tasks", version: "1", task_id: "t", checksum: .dataset.checksum}' dataset \
		"a local dataset (path) cannot declare a version"
}

@test "dataset task_id and checksum are checked" {
	reject '.dataset.task_id = ""' dataset.task_id "must be at least 1 characters"
	# regression: ../../../x selected a task outside the dataset directory
	reject '.dataset.task_id = "../../../x"' dataset 'task_id must name a task of the dataset, not a path'
	reject '.dataset.task_id = "sub/task"' dataset 'task_id must name a task of the dataset, not a path'
	reject '.dataset.task_id = ".."' dataset 'task_id must name a task of the dataset, not a path'
	reject '.dataset.checksum = ("A" * 64)' dataset.checksum "must be 64 lowercase hex digits"
	reject '.dataset.checksum = ("a" * 63)' dataset.checksum "must be 64 lowercase hex digits"
}

@test "a dataset reached through a symbolic link out of the repository is refused" {
	# regression: a dataset.path through a link inside the repository to a directory outside it was accepted
	copy_catalog "$T/repo"
	mkdir -p "$T/outside"
	cp -R "$REPO/manifests/harbor-tasks/project-database-decision" "$T/outside/"
	ln -s "$T/outside" "$T/repo/manifests/linked-tasks"
	sed 's|path: manifests/harbor-tasks|path: manifests/linked-tasks|' \
		"$REPO/manifests/acceptance-01-project-database-decision.yaml" >"$T/repo/manifests/acceptance-01-project-database-decision.yaml"
	grep -q 'path: manifests/linked-tasks' "$T/repo/manifests/acceptance-01-project-database-decision.yaml"
	run --separate-stderr pc-select --manifests "$T/repo/manifests" --root "$T/repo" --id project-database-decision
	assert_status 1
	assert_stderr_contains "dataset task manifests/linked-tasks/project-database-decision resolves to $T/outside/project-database-decision, outside the repository"
	assert_stdout_empty
}

@test "probes are required and non-empty" {
	reject 'del(.evaluation.probes)' evaluation.probes "is required"
	reject '.evaluation.probes = []' evaluation.probes "must be at least 1 items"
}

@test "categories must be a non-empty list" {
	reject '.categories = []' categories "must be at least 1 items"
	reject 'del(.categories)' categories "is required"
}

@test "a duplicate YAML key names file:line:col" {
	smoke_manifest dup >"$T/m.yaml" <<-'EOF'
	execution:
	  max_steps: 3
	  max_steps: 4
	evaluation: {probes: [{id: p1, query: q}]}
	EOF
	select_fails --manifests "$T/m.yaml" --category smoke
	assert_stderr_contains "$T/m.yaml:7:3: execution.max_steps: duplicate key"
}

@test "an empty file and a multi-document file are errors" {
	: >"$T/empty.yaml"
	select_fails --manifests "$T/empty.yaml"
	assert_stderr_contains "$T/empty.yaml: empty YAML file"
	{ cat "$REGISTRY_MANIFEST"; echo '---'; cat "$REGISTRY_MANIFEST"; } >"$T/two.yaml"
	select_fails --manifests "$T/two.yaml"
	assert_stderr_contains "$T/two.yaml: more than one YAML document"
}

@test "a manifest that is not a mapping is rejected" {
	printf -- '- a\n- b\n' >"$T/m.yaml"
	select_fails --manifests "$T/m.yaml"
	assert_stderr_contains "$T/m.yaml:1:1: document: must be an object, not a list"
}

@test "defaults are filled in the normalized workload" {
	select_ok --manifests "$REGISTRY_MANIFEST" --category smoke
	run jq -c '.workload' "$T/selection.jsonl"
	assert_output '{"schema":"powercontext.e2e-task/v1","id":"registry-task","categories":["smoke"],"provenance":null,"dataset":{"path":null,"name":"terminal-bench","version":null,"task_id":"db-wal-recovery","checksum":"01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a"},"execution":{"type":"bub","model":false,"max_steps":50,"max_tokens":16384},"evaluation":{"capture_events":false,"checkpoint_every_events":5,"max_event_bytes":8192,"require_checkpoint":false,"expected_memory":[],"probes":[{"id":"first","query":"What was decided?","expected_context":[],"forbidden_context":[]}],"thresholds":{"capture_coverage":0,"groundedness":0,"probe_coverage":1,"minimum_in_run_contexts":0}}}'
}

@test "a local workload without provenance has null provenance, name and version" {
	select_ok --id project-database-decision
	run jq -c '[.workload.provenance, .workload.dataset.name, .workload.dataset.version, .workload.dataset.path]' "$T/selection.jsonl"
	assert_output '[null,null,null,"manifests/harbor-tasks"]'
	run jq -c '.workload.evaluation.thresholds' "$T/selection.jsonl"
	assert_output '{"capture_coverage":0,"groundedness":0,"probe_coverage":1,"minimum_in_run_contexts":0}'
}

@test "provenance is embedded as written" {
	select_ok --id locomo-support-group
	run jq -c '.workload.provenance' "$T/selection.jsonl"
	assert_output '{"source":"manifests/provenance/locomo-samples.md","revision":"21751a44db859dc7713f292f7bb26c757cf6d0f40d4f3317c49bab79c10a1e0b","selection":"first-conversation-first-question/v1","case_ids":["conv-26","conv-26:q001"]}'
}

@test "YAML 1.1 booleans are read like PyYAML" {
	local word n=0 want=
	mkdir "$T/cat"
	for word in yes Yes YES on On ON true True TRUE no No NO off Off OFF false False FALSE; do
		n=$((n + 1))
		cat >"$T/cat/$(printf %02d $n).yaml" <<-EOF
		schema: powercontext.e2e-task/v1
		id: bool-$n
		categories: [smoke]
		dataset: {name: reg, task_id: t1, checksum: 01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a}
		execution:
		  model: $word
		evaluation:
		  capture_events: $word
		  probes: [{id: p1, query: q}]
		EOF
		want+="bool-$n $([[ $n -le 9 ]] && echo true || echo false)"$'\n'
	done
	select_ok --manifests "$T/cat" --category smoke
	run jq -r '"\(.workload.id) \(.workload.execution.model)", "\(.workload.id) \(.workload.evaluation.capture_events)"' "$T/selection.jsonl"
	assert_output "$(sed 'p' <<<"${want%$'\n'}")"
}

@test "YAML merge keys fill what the mapping does not set, as in PyYAML" {
	smoke_manifest merged >"$T/m.yaml" <<-'EOF'
	execution: {}
	evaluation:
	  probes: [{id: p1, query: q}]
	  thresholds:
	    <<: [{groundedness: 0.5, probe_coverage: 0.5}, {capture_coverage: 0.25}]
	    probe_coverage: 0.9
	EOF
	select_ok --manifests "$T/m.yaml" --category smoke
	run jq -c .workload.evaluation.thresholds "$T/selection.jsonl"
	assert_output '{"capture_coverage":0.25,"groundedness":0.5,"probe_coverage":0.9,"minimum_in_run_contexts":0}'
}

@test "a merge key with a scalar value is an error naming file:line:col" {
	smoke_manifest merged >"$T/m.yaml" <<-'EOF'
	execution: {<<: 3}
	evaluation: {probes: [{id: p1, query: q}]}
	EOF
	select_fails --manifests "$T/m.yaml" --category smoke
	assert_stderr_contains "$T/m.yaml:5:13: a merge key (<<) needs a mapping"
}

@test "y and n are strings, not booleans, as in PyYAML" {
	smoke_manifest bools >"$T/m.yaml" <<-'EOF'
	execution:
	  model: y
	evaluation: {probes: [{id: p1, query: q}]}
	EOF
	select_fails --manifests "$T/m.yaml" --category smoke
	assert_stderr_contains "$T/m.yaml:6:3: execution.model: must be a boolean, not a string"
}

@test "YAML 1.1 integers: octal, hex and underscores" {
	smoke_manifest ints >"$T/m.yaml" <<-'EOF'
	execution: {max_steps: 010, max_tokens: 0x4000}
	evaluation: {max_event_bytes: 1_024, probes: [{id: p1, query: q}]}
	EOF
	select_ok --manifests "$T/m.yaml" --category smoke
	run jq -c '[.workload.execution.max_steps, .workload.execution.max_tokens, .workload.evaluation.max_event_bytes]' "$T/selection.jsonl"
	assert_output '[8,16384,1024]'
}

@test "a quoted \"2.0\" version stays a string" {
	cat >"$T/m.yaml" <<-'EOF'
	schema: powercontext.e2e-task/v1
	id: versioned
	categories: [smoke]
	dataset:
	  name: terminal-bench
	  version: "2.0"
	  task_id: t1
	  checksum: 01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a
	execution: {}
	evaluation: {probes: [{id: p1, query: q}]}
	EOF
	select_ok --manifests "$T/m.yaml" --category smoke
	run jq -c '.workload.dataset.version' "$T/selection.jsonl"
	assert_output '"2.0"'
}

@test "an unquoted 2.0 version is rejected as not a string" {
	cat >"$T/m.yaml" <<-'EOF'
	schema: powercontext.e2e-task/v1
	id: versioned
	categories: [smoke]
	dataset:
	  name: terminal-bench
	  version: 2.0
	  task_id: t1
	  checksum: 01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a
	execution: {}
	evaluation: {probes: [{id: p1, query: q}]}
	EOF
	select_fails --manifests "$T/m.yaml" --category smoke
	assert_stderr_contains "$T/m.yaml:6:3: dataset.version: must be a string or null, not a number"
}

@test "quoted scalars stay strings: a quoted number is not an integer" {
	smoke_manifest quoted >"$T/m.yaml" <<-'EOF'
	execution:
	  max_steps: '10'
	evaluation: {probes: [{id: p1, query: q}]}
	EOF
	select_fails --manifests "$T/m.yaml" --category smoke
	assert_stderr_contains "$T/m.yaml:6:3: execution.max_steps: must be an integer, not a string"
}

@test "anchors and aliases are resolved" {
	cat >"$T/m.yaml" <<-'EOF'
	schema: powercontext.e2e-task/v1
	id: aliased
	categories: &cats [smoke, sample]
	dataset: {name: reg, task_id: t1, checksum: 01f470c86f3a1f7ce4d91bdf0aaaa89fa96a4124ac48617990e2735b5291913a}
	execution: {}
	evaluation:
	  expected_memory: *cats
	  probes: [{id: p1, query: q}]
	EOF
	select_ok --manifests "$T/m.yaml" --category smoke
	run jq -c '.workload.evaluation.expected_memory' "$T/selection.jsonl"
	assert_output '["smoke","sample"]'
}

# ---- command line ----

@test "--help prints the usage on stdout and exits 0" {
	run --separate-stderr pc-select --help
	assert_status 0
	assert_line --index 0 --partial "usage: pc-select"
	assert_output --partial "--manifests PATH"
	assert_output --partial "--category NAME"
	[[ -z "$stderr" ]]
}

@test "--version prints the version" {
	run --separate-stderr pc-select --version
	assert_status 0
	assert_output --regexp '^pc-select [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "an unknown flag is a usage error (64) with the usage on stderr" {
	run --separate-stderr pc-select --frobnicate
	assert_status 64
	assert_stdout_empty
	assert_stderr_contains "usage: pc-select"
}

@test "--manifests given twice is a usage error; --id and --category repeat" {
	# a second --manifests silently replaced the first (make acceptance ARGS='--manifests DIR')
	run --separate-stderr pc-select --manifests manifests --manifests "$T/elsewhere"
	assert_status 64
	assert_stdout_empty
	assert_stderr_contains "pc-select: --manifests given twice: it takes one value, and a second would replace the first"
	run --separate-stderr pc-select --id project-database-decision --id locomo-multihop-football --category smoke
	assert_status 0
	[[ ${#lines[@]} == 2 ]] || fail "$output"
}

@test "a missing option argument and a stray argument are usage errors" {
	run --separate-stderr pc-select --id
	assert_status 64
	assert_stdout_empty
	run --separate-stderr pc-select manifests
	assert_status 64
	assert_stdout_empty
	assert_stderr_contains "pc-select: unexpected argument 'manifests'"
}

@test "YAML nested 100,000 deep is refused naming file, line and column, not a stack overflow" {
	# regression: pc-select crashed (SIGSEGV) in the recursive loader
	python3 -c "print('schema: powercontext.e2e-task/v1'); print('id: ' + '[' * 100000 + ']' * 100000)" >"$T/deep.yaml"
	run --separate-stderr pc-select --manifests "$T/deep.yaml"
	assert_status 1
	assert_stderr_contains "$T/deep.yaml:2:260: nested deeper than 256 levels"
	assert_stdout_empty
}
