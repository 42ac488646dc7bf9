#!/usr/bin/env bats
# SWE-bench Pro's paired manifests in the release under test
# (e2e/bub/paired-tasks/swebench-pro, docs/DESIGN.md §11.6): they load, and
# a run that cannot fetch their registry dataset or lacks the Docker image
# environment their tasks run in is refused before any arm runs, naming the
# dataset and what is missing. pc-run-bub's refusals need no Server; the
# pipeline's starts one and stops it again.

load test_helper

DATASET=swebenchpro@1.0
ANSIBLE=swebench-pro-ansible-0ea40e09

setup_file() {
	"$REPO/pipelines/pc-powercontext" harbor >/dev/null
}

setup() {
	pc_setup
	SOURCE=$("$REPO/pipelines/pc-powercontext" source)
	MANIFESTS=$SOURCE/e2e/bub/paired-tasks/swebench-pro
	[[ -d $MANIFESTS ]] || skip "PowerContext $("$REPO/pipelines/pc-powercontext" commit) has no SWE-bench Pro manifests"
	export BUB_MODEL=openai:a-real-model-would-be-named-here
	export POWERCONTEXT_E2E_HARBOR
	POWERCONTEXT_E2E_HARBOR=$("$REPO/pipelines/pc-powercontext" harbor)
}

# select_swebench [PC-SELECT ARGS...]: the selections in $T/swe.jsonl,
# by default the whole sample
select_swebench() {
	[[ $# -gt 0 ]] || set -- --category swebench-pro
	run --separate-stderr pc-select --manifests "$MANIFESTS" --root "$SOURCE" "$@"
	assert_exit 0
	save_stdout "$T/swe.jsonl"
}

@test "SWE-bench Pro's 11 manifests load: paired task-outcome comparisons of registry dataset $DATASET" {
	select_swebench
	assert_equal "$(wc -l <"$T/swe.jsonl")" 11
	run jq -sc 'map(.workload | [(.dataset | "\(.name)@\(.version)"), .evaluation.comparison, (.categories | index("paired") != null)]) | unique' "$T/swe.jsonl"
	assert_output '[["'"$DATASET"'","task-outcome",true]]'
}

@test "the local runner is refused before any arm: the registry dataset is named, with --registry and --runner harbor as the ways" {
	select_swebench --id "$ANSIBLE"
	run --separate-stderr pc-run-bub --paired --trials 1 --output "$T/out" <"$T/swe.jsonl"
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "pc-run-bub: these workloads pin a dataset of Harbor's registry, which the local runner reads only through --registry FILE: $ANSIBLE ($DATASET); give --registry FILE listing it, or --runner harbor to fetch it"
	[[ ! -e $T/out ]] || fail "an output was made"
	# a dataset that pins no version (Harbor takes its newest) is named alone
	jq -c '.workload.dataset.version = null' "$T/swe.jsonl" >"$T/unversioned.jsonl"
	run --separate-stderr pc-run-bub --paired --trials 1 --output "$T/out" <"$T/unversioned.jsonl"
	assert_exit 1
	assert_stderr_contains "only through --registry FILE: $ANSIBLE (swebenchpro); give"
}

@test "the harbor runner on this machine's sandbox is refused before any arm: the tasks run in Docker images" {
	select_swebench
	run --separate-stderr pc-run-bub --paired --trials 1 --runner harbor --output "$T/out" <"$T/swe.jsonl"
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "these workloads' tasks run in a Docker image (each task of Harbor's registry is defined by one" \
		"which the bubblewrap sandbox on this machine's system cannot run: $ANSIBLE ($DATASET)" \
		"give --runner harbor --harbor-env docker (a Docker daemon) or a remote environment"
	[[ ! -e $T/out ]] || fail "an output was made"
}

@test "--registry FILE: a task whose task.toml names a docker_image is refused naming the image; one the registry lacks is left to its record" {
	select_swebench --id "$ANSIBLE"
	local task_id
	task_id=$(jq -r .workload.dataset.task_id "$T/swe.jsonl")
	# a task is found by its directory's name, as Harbor names tasks
	mkdir -p "$T/reg/tasks/$task_id"
	printf '[environment]\ndocker_image = "sweap-images:ansible"\n' >"$T/reg/tasks/$task_id/task.toml"
	jq -n --arg t "$task_id" '[{name: "swebenchpro", version: "1.0", description: "", tasks: [{name: $t, path: "tasks/\($t)"}]}]' \
		>"$T/reg/registry.json"
	run --separate-stderr pc-run-bub --paired --trials 1 --registry "$T/reg/registry.json" --output "$T/out" <"$T/swe.jsonl"
	assert_exit 1
	assert_stderr_contains "which the bubblewrap sandbox on this machine's system cannot run: $ANSIBLE ($DATASET, image sweap-images:ansible)"
	[[ ! -e $T/out ]] || fail "an output was made"
	# a registry without the dataset says nothing of an image: the run's
	# record names the registry and the dataset (harbor.bats), here after
	# the Server check, as no Server answers
	jq '.[0].name = "another"' "$T/reg/registry.json" >"$T/reg/other.json"
	run --separate-stderr pc-run-bub --paired --trials 1 --registry "$T/reg/other.json" --output "$T/out" <"$T/swe.jsonl"
	assert_exit 1
	refute_stderr_contains "Docker image"
	assert_stderr_contains "cannot reach PowerContext"
}

@test "Harbor's registry out of reach: a registry dataset on the harbor runner is refused before anything runs, naming the dataset and Harbor's reason" {
	# the long-horizon workload pins pc-e2e's own registry dataset; without
	# --registry Harbor's registry is asked, here at an address nothing serves
	run --separate-stderr pc-select --manifests "$REPO/manifests" --root "$REPO" --id long-horizon-incident-handover
	save_stdout "$T/lh.jsonl"
	HARBOR_SUPABASE_URL=http://127.0.0.1:9 POWERCONTEXT_CLIENT_SERVER_URL=http://10.0.0.1:9 \
		run --separate-stderr pc-run-bub --runner harbor --harbor-env docker --agent /bin/true --output "$T/out" <"$T/lh.jsonl"
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "pc-run-bub: Harbor's registry cannot serve pc-e2e-long-horizon@1.0 here (give --registry FILE listing it to run it from this machine): pc-e2e-long-horizon@1.0: ValueError:" \
		"ConnectError"
	[[ ! -e $T/out/harbor-jobs ]] || fail "a job was started"
}

@test "make paired on the SWE-bench Pro catalog is refused before any arm, naming the dataset, and leaves no Server running" {
	run --separate-stderr env MODEL= CATALOG="$MANIFESTS" CATALOG_ROOT="$SOURCE" TRIALS=1 RUNNER=harbor OUTPUT="$T/out" \
		"$REPO/pipelines/paired" --category swebench-pro
	assert_exit 1
	assert_stderr_contains "cannot run: $ANSIBLE ($DATASET)"
	run find "$T/out" -name observation.json
	assert_output ""
	run pgrep -f "$T/out"
	assert_failure
}
