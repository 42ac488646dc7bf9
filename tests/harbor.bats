#!/usr/bin/env bats
# pc-run-bub --runner harbor: the real Harbor CLI the release pins
# (pipelines/pc-powercontext harbor) on pc-e2e's bubblewrap environment,
# with the release's real Bub and a real PowerContext Server
# (docs/DESIGN.md §5.11); its refusals; and, on a stand-in for the Harbor
# CLI (tests/peers/fake-harbor), the JobConfig and environment it hands a
# remote environment type that cannot run here.

load test_helper
load exec_helper

ID=project-database-decision

setup_file() {
	exec_setup_file server
	EXEC_HARBOR=$("$REPO/pipelines/pc-powercontext" harbor 3>&-) || {
		echo "setup_file: pipelines/pc-powercontext harbor failed" >&2
		return 1
	}
	export EXEC_HARBOR
}

teardown_file() {
	exec_teardown_file
}

# An /opt entry a test made (root only) and a fake registry it started,
# removed and stopped whatever the test did.
OPT_ENTRY=
REGISTRY_PID=
TMP_PEER=

teardown() {
	[[ -z $OPT_ENTRY ]] || rm -f "$OPT_ENTRY"
	[[ -z $TMP_PEER ]] || rm -rf "$TMP_PEER"
	[[ -z $REGISTRY_PID ]] || kill "$REGISTRY_PID" 2>/dev/null || true
}

setup() {
	exec_setup
	unset POWERCONTEXT_E2E_HARBOR
	while read -r f; do
		case "$f" in DAYTONA_* | MODAL_* | E2B_*) unset "$f" ;; esac
	done < <(compgen -e)
}

# fake_harbor: a Harbor venv whose harbor is tests/peers/fake-harbor and whose
# python, with its packages, is the real one's (pc-run-bub runs Harbor's
# preflight with it).
fake_harbor() {
	mkdir -p "$T/fake-harbor/bin"
	ln -s "$REPO/tests/peers/fake-harbor" "$T/fake-harbor/bin/harbor"
	ln -s "$EXEC_HARBOR/bin/python" "$T/fake-harbor/bin/python"
	ln -s "$EXEC_HARBOR/pyvenv.cfg" "$EXEC_HARBOR/lib" "$T/fake-harbor/"
	export POWERCONTEXT_E2E_HARBOR="$T/fake-harbor"
}

@test "harbor runner: the real Harbor runs project-database-decision on the bubblewrap environment; the job directory is Harbor's own, and accepted" {
	exec_select "$ID"
	POWERCONTEXT_E2E_HARBOR=$EXEC_HARBOR exec_run_bub "$T/selection.jsonl" --runner harbor
	assert_exit 0
	[[ $(rec_r '.runner + " " + .status') == "harbor completed" ]] || fail "$(rec '{runner, status, errors}')"
	local job trial
	job=$(rec_r .job_dir)
	trial=$(trial_dir)
	[[ $job == "$OUT/$ID/harbor-jobs/$(rec_r .run_id)" && $trial == "$job/"* ]] || fail "job $job, trial $trial"
	assert_json_files "$job/config.json" "$job/result.json" "$trial/result.json"
	assert_files "$job/job.log" "$trial/trial.log" "$job/harbor.txt"
	[[ $(jq -r '.environment.import_path + " " + .agents[0].import_path + " " + .job_name' "$job/config.json") == \
		"pc_e2e_harbor.environment:BwrapEnvironment pc_e2e_harbor.agent:CommandAgent $(rec_r .run_id)" ]] ||
		fail "Harbor's config.json: $(jq -c '{environment, agents, job_name}' "$job/config.json")"
	# what really ran: the release's Bub, as the local runner records it
	[[ $(rec_r '.agent.info.name') == bub ]] || fail "agent: $(rec .agent)"
	exec_normalize
	local step digest
	for step in capture recall; do
		digest=$(jq -r --arg s "$step" '.resolved_instructions[] | select(.step == $s) | .sha256' "$T/replays.jsonl")
		[[ $digest == $(sha256sum <"$EXEC_TASKS/$ID/steps/$step/instruction.md" | cut -d' ' -f1) ]] ||
			fail "step $step: instruction digest $digest is not the sha256 of its instruction.md"
	done
	exec_evaluate
	exec_assert_accepted
}

@test "harbor runner: an agent past its deadline is stopped with everything it started, setsid children too" {
	POWERCONTEXT_E2E_HARBOR=$EXEC_HARBOR exec_assert_orphan_stopped --runner harbor
}

@test "harbor runner: without POWERCONTEXT_E2E_HARBOR it refuses before anything runs" {
	exec_select "$ID"
	exec_run_bub "$T/selection.jsonl" --runner harbor
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "POWERCONTEXT_E2E_HARBOR"
	assert_stderr_contains "pipelines/pc-powercontext harbor"
	[[ ! -e $OUT ]] || fail "something was written: $(find "$OUT")"
}

@test "harbor runner: --harbor-env needs --runner harbor" {
	exec_select "$ID"
	exec_run_bub "$T/selection.jsonl" --harbor-env daytona
	assert_exit 64
	assert_stderr_contains "--harbor-env needs --runner harbor"
}

@test "harbor runner: a remote environment without its credentials, or with a loopback Server, fails before running anything" {
	exec_select "$ID"
	export POWERCONTEXT_E2E_HARBOR=$EXEC_HARBOR
	POWERCONTEXT_CLIENT_SERVER_URL=http://192.0.2.10:8000 exec_run_bub "$T/selection.jsonl" --runner harbor --harbor-env daytona
	assert_exit 1
	assert_stdout_empty
	assert_stderr_contains "--harbor-env daytona: Daytona requires either DAYTONA_API_KEY"
	exec_run_bub "$T/selection.jsonl" --runner harbor --harbor-env nowhere
	assert_exit 1
	assert_stderr_contains "--harbor-env nowhere"
	DAYTONA_API_KEY=daytona-key-7f3a exec_run_bub "$T/selection.jsonl" --runner harbor --harbor-env daytona
	assert_exit 1
	assert_stderr_contains "is on this machine's loopback, which a daytona sandbox cannot reach"
	[[ ! -e $OUT ]] || fail "something was written: $(find "$OUT")"
}

@test "harbor runner: the JobConfig for a remote environment names its type and Bub installed in the sandbox; secrets stay out of it" {
	fake_harbor
	exec_select failure-policy-timeout
	local secret=pc-e2e-secret-$RANDOM$RANDOM
	POWERCONTEXT_CLIENT_TIMEOUT=1 POWERCONTEXT_CLIENT_SERVER_URL=http://192.0.2.10:8000 \
		POWERCONTEXT_CLIENT_API_TOKEN=$secret DAYTONA_API_KEY=daytona-key OPENAI_API_KEY=$secret \
		exec_run_bub "$T/selection.jsonl" --runner harbor --harbor-env daytona --agent-timeout 30
	assert_exit 0
	[[ $(rec_r .status) == failed ]] || fail "$(rec '{status, errors}')"
	assert_contains "$(rec_r '.errors[]')" "harbor run ended with exit 3"
	assert_contains "$(rec_r '.errors[]')" "no sandbox provider is reachable"
	local job config
	job=$(rec_r .job_dir)
	config=$job/fake-harbor-config.json
	assert_json_files "$config"
	[[ $(jq -c '{environment, n_concurrent_trials, n_attempts, job_name, jobs_dir}' "$config") == \
		"{\"environment\":{\"type\":\"daytona\",\"delete\":true},\"n_concurrent_trials\":1,\"n_attempts\":1,\"job_name\":\"$(rec_r .run_id)\",\"jobs_dir\":\"$OUT/failure-policy-timeout/harbor-jobs\"}" ]] ||
		fail "JobConfig: $(jq -c . "$config")"
	[[ $(jq -c '.agents' "$config") == "[{\"import_path\":\"pc_e2e_harbor.agent:InstalledBubAgent\",\"kwargs\":{\"bub\":\"$EXEC_BUB\"},\"override_timeout_sec\":30}]" ]] ||
		fail "agents: $(jq -c .agents "$config")"
	[[ $(jq -c '.datasets' "$config") == "[{\"path\":\"$EXEC_TASKS\",\"task_names\":[\"failure-policy-timeout\"]}]" ]] ||
		fail "datasets: $(jq -c .datasets "$config")"
	# Harbor's environment: the remote type's credentials and its own settings, nothing else of ours
	# it reached Harbor, and, like every *_API_KEY, stays out of the job's files
	grep -qx 'DAYTONA_API_KEY=\[REDACTED\]' "$job/fake-harbor.env" || fail "DAYTONA_API_KEY did not reach Harbor, or is in the job files"
	refute_secret daytona-key "$OUT"
	grep -qx 'HARBOR_TELEMETRY=0' "$job/fake-harbor.env" || fail "Harbor's telemetry is on"
	grep -qx 'LITELLM_LOCAL_MODEL_COST_MAP=True' "$job/fake-harbor.env" || fail "LiteLLM may fetch its price list"
	! grep -q '^OPENAI_API_KEY=' "$job/fake-harbor.env" || fail "an unrelated secret reached Harbor"
	grep '^PC_E2E_HARBOR_AGENT_ENV=' "$job/fake-harbor.env" | grep -q '"POWERCONTEXT_BUB_SCOPE_ID"' ||
		fail "the agent's environment did not reach Harbor"
	refute_secret "$secret" "$OUT"
}

# fake_registry NAME@VERSION=TASK...: Harbor's registry service faked on
# loopback (tests/peers/fake_harbor_registry.py) serving those datasets;
# HARBOR_SUPABASE_URL, which Harbor's registry client reads, names it.
fake_registry() {
	rm -f "$T/registry.url"
	python3 "$REPO/tests/peers/fake_harbor_registry.py" "$T/registry.url" "$@" 3>&- &
	REGISTRY_PID=$!
	local i
	for ((i = 0; i < 100; i++)); do
		[[ -s $T/registry.url ]] && break
		sleep 0.1
	done
	export HARBOR_SUPABASE_URL
	HARBOR_SUPABASE_URL=$(cat "$T/registry.url")
}

@test "harbor runner: a registry dataset goes to Harbor by name and version once Harbor's registry serves it and an environment runs its image; refused before anything runs otherwise" {
	fake_harbor
	mkdir -p "$T/cat"
	# judged by how it ran alone, so no Server need answer the remote run
	registry_manifest '.dataset.version = "2.0" | .evaluation = {expected_execution: {"collect-all": "failed", "fail-fast": "failed"}}' \
		>"$T/cat/registry.yaml"
	run --separate-stderr pc-select --manifests "$T/cat" --root "$T/cat" --id registry-task
	assert_exit 0
	save_stdout "$T/selection.jsonl"
	# the local runner reads registry tasks only through --registry
	exec_run_bub "$T/selection.jsonl"
	assert_exit 1
	assert_stderr_contains "which the local runner reads only through --registry FILE: registry-task (terminal-bench@2.0)"
	# Harbor's registry defines its tasks by their images, which this machine's sandbox cannot run
	exec_run_bub "$T/selection.jsonl" --runner harbor
	assert_exit 1
	assert_stderr_contains "which the bubblewrap sandbox on this machine's system cannot run: registry-task (terminal-bench@2.0)"
	# in a remote environment: refused while Harbor's registry does not serve the dataset ...
	fake_registry terminal-bench@1.0=db-wal-recovery
	export DAYTONA_API_KEY=daytona-key POWERCONTEXT_CLIENT_SERVER_URL=http://192.0.2.10:8000 POWERCONTEXT_CLIENT_TIMEOUT=1
	exec_run_bub "$T/selection.jsonl" --runner harbor --harbor-env daytona
	assert_exit 1
	assert_stderr_contains "Harbor's registry cannot serve terminal-bench@2.0 here" "Dataset terminal-bench@2.0 not found"
	[[ ! -e $OUT ]] || fail "something was written: $(find "$OUT")"
	kill "$REGISTRY_PID"
	# ... and handed to Harbor by name and version once it does
	fake_registry terminal-bench@2.0=db-wal-recovery
	exec_run_bub "$T/selection.jsonl" --runner harbor --harbor-env daytona
	assert_exit 0
	[[ $(jq -c .datasets "$(rec_r .job_dir)/fake-harbor-config.json") == '[{"name":"terminal-bench","version":"2.0","task_names":["db-wal-recovery"]}]' ]] ||
		fail "datasets: $(jq -c .datasets "$(rec_r .job_dir)/fake-harbor-config.json")"
}

# local_registry: $T/registry/registry.json, a local Harbor registry whose
# dataset pc-e2e-test 1.0 holds a copy of project-database-decision (its path
# relative to the registry), and $T/registry-catalog/, a manifest pinning
# that registry dataset; its selection in $T/selection.jsonl.
local_registry() {
	mkdir -p "$T/registry/tasks" "$T/registry-catalog"
	cp -r "$REPO/manifests/harbor-tasks/project-database-decision" "$T/registry/tasks/"
	jq -n '[{name: "pc-e2e-test", version: "1.0", description: "", tasks: [{name: "project-database-decision", path: "tasks/project-database-decision"}]}]' \
		>"$T/registry/registry.json"
	exec_select project-database-decision "$T/local.jsonl"
	jq '.workload | .dataset = {name: "pc-e2e-test", version: "1.0", task_id: .dataset.task_id, checksum: .dataset.checksum}' \
		"$T/local.jsonl" >"$T/registry-catalog/registry-pdd.yaml"
	run --separate-stderr pc-select --manifests "$T/registry-catalog" --root "$T/registry-catalog" --id project-database-decision
	assert_exit 0
	save_stdout "$T/selection.jsonl"
}

@test "--registry: a registry dataset runs from a local registry on both runners, its replay naming the dataset and the checksum of the task run" {
	local_registry
	exec_peer echo
	for runner in local harbor; do
		rm -rf "$OUT"
		POWERCONTEXT_E2E_HARBOR=$EXEC_HARBOR exec_run_bub "$T/selection.jsonl" --runner "$runner" --agent "$PEER_AGENT" --registry "$T/registry/registry.json"
		assert_exit 0
		run rec '[.status, .errors, .task.kind]'
		assert_output '["completed",[],"registry"]'
		# Harbor's source is the dataset; the checksum is that of the task directory run
		run jq -c '[.source, .task_checksum]' "$(trial_dir)/result.json"
		assert_output "[\"pc-e2e-test\",\"$(harbor_checksum "$T/registry/tasks/project-database-decision")\"]"
		exec_normalize
		run jq -c '[.task.dataset.name, .task.dataset.version, .harbor.task_checksum == .task.dataset.checksum]' "$T/replays.jsonl"
		assert_output '["pc-e2e-test","1.0",true]'
	done
	# Harbor read a copy of the registry with the task's path made absolute
	run jq -c '.datasets[0] | [.name, .version, .registry_path]' "$(rec_r .job_dir)/config.json"
	assert_output "[\"pc-e2e-test\",\"1.0\",\"$(rec_r .job_dir)/pc-e2e-registry.json\"]"
	run jq -r '.[0].tasks[0].path' "$(rec_r .job_dir)/pc-e2e-registry.json"
	assert_output "$T/registry/tasks/project-database-decision"
}

@test "--registry: a registry that cannot be read, or lacks the dataset or the task, fails the record naming them; nothing runs" {
	local_registry
	exec_peer echo
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT" --registry "$T/nowhere/registry.json"
	assert_exit 0
	run rec '[.status, .job_dir]'
	assert_output '["failed",null]'
	assert_contains "$(rec_r '.errors[0]')" "registry for dataset pc-e2e-test 1.0: $T/nowhere/registry.json" "error"
	jq '.[0].version = "2.0"' "$T/registry/registry.json" >"$T/other-version.json"
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT" --registry "$T/other-version.json"
	assert_contains "$(rec_r '.errors[0]')" "registry $T/other-version.json has no dataset pc-e2e-test 1.0" "error"
	jq '.[0].tasks[0].path = "tasks/elsewhere"' "$T/registry/registry.json" >"$T/registry/other-task.json"
	exec_run_bub "$T/selection.jsonl" --agent "$PEER_AGENT" --registry "$T/registry/other-task.json"
	assert_contains "$(rec_r '.errors[0]')" "registry $T/registry/other-task.json: dataset pc-e2e-test 1.0 has no task project-database-decision" "error"
	[[ $(rec_r .job_dir) == null ]] || fail "a workload ran: $(rec .)"
}

@test "harbor runner: a single-step trial, which Harbor keeps at the top level, gives the record its agent, rewards and exception" {
	fake_harbor
	jq -n '{trial_name: "fake-trial__0000000", step_results: null,
		agent_result: {metadata: {acp: {initialize: {protocolVersion: 1, agentInfo: {name: "single-agent", version: "9.9"}}}}},
		verifier_result: {rewards: {reward: 0.5}},
		exception_info: {exception_type: "AgentTimeoutError", exception_message: "Agent execution timed out after 1.0 seconds"}}' \
		>"$T/fake-harbor/trial-result.json"
	exec_select failure-policy-timeout
	exec_run_bub "$T/selection.jsonl" --runner harbor
	assert_exit 0
	[[ $(rec -c '[.status, .agent.info.name, .trial_dir, .environment.adapter_version]') == \
		"[\"failed\",\"single-agent\",\"$(rec_r .job_dir)/fake-trial__0000000\",\"single-agent 9.9\"]" ]] ||
		fail "record: $(rec '{status, agent, trial_dir, environment}')"
	[[ $(rec_r '.errors[0]') == "step (trial): AgentTimeoutError: Agent execution timed out after 1.0 seconds" ]] ||
		fail "errors: $(rec .errors)"
}

@test "harbor runner: a relative POWERCONTEXT_E2E_HARBOR, or --harbor-env with an agent command instead of the provisioned Bub, is refused" {
	exec_select "$ID"
	POWERCONTEXT_E2E_HARBOR=.tools/powercontext/x/harbor exec_run_bub "$T/selection.jsonl" --runner harbor
	assert_exit 1
	assert_stderr_contains "must be an absolute path"
	exec_peer echo
	POWERCONTEXT_E2E_HARBOR=$EXEC_HARBOR DAYTONA_API_KEY=k POWERCONTEXT_CLIENT_SERVER_URL=http://192.0.2.10:8000 \
		exec_run_bub "$T/selection.jsonl" --runner harbor --harbor-env daytona --agent "$PEER_AGENT"
	assert_exit 1
	assert_stderr_contains "installs the provisioned Bub inside the sandbox"
	[[ ! -e $OUT ]] || fail "something was written: $(find "$OUT")"
}

@test "harbor runner: what the sandbox binds from under this machine's /tmp shows through the trial's own /tmp" {
	# regression: the trial's /tmp, bound after the base's binds, hid an agent's venv or script kept
	# under this machine's /tmp (every trial failed: the agent could not start)
	exec_select "$ID"
	exec_peer echo
	TMP_PEER=$(mktemp -d /tmp/pc-e2e-peer.XXXXXX)
	cp "$EXEC_PEER_SCRIPT" "$TMP_PEER/"
	PEER_AGENT=${PEER_AGENT//"$EXEC_PEER_SCRIPT"/$TMP_PEER/${EXEC_PEER_SCRIPT##*/}}
	PC_E2E_SANDBOX_BINDS="$PC_E2E_SANDBOX_BINDS:$TMP_PEER" POWERCONTEXT_E2E_HARBOR=$EXEC_HARBOR \
		exec_run_bub "$T/selection.jsonl" --runner harbor --agent "$PEER_AGENT"
	[[ $(rec_r '.runner + " " + .status') == "harbor completed" ]] || fail "$(rec '{runner, status, errors}')"
	[[ ! -e $(trial_dir 0)/sandbox/tmp ]] || fail "the trial's /tmp outlived it"
}

@test "harbor runner: on 1.4.1's own project-database-decision a failed agent session leaves the step-failure marker and its verifier scores 0" {
	# regression: the marker was never made, so a failed session scored 1
	POWERCONTEXT_E2E_HARBOR=$EXEC_HARBOR exec_assert_step_failure_marker harbor
}

@test "harbor runner: 1.4.1's own batch:acceptance is one Harbor job with one trial, and a failed first session stops it under fail-fast" {
	POWERCONTEXT_E2E_HARBOR=$EXEC_HARBOR exec_assert_release_batch harbor
}

@test "harbor runner: a Python under /opt, as pipelines/pc-python allows, serves the Harbor environment as it serves the local runner" {
	# regression: only the local runner's sandbox bound /opt, so every Harbor trial on a venv whose
	# interpreter lives under /opt failed at once (exit 127: /opt/harbor-acp-venv/bin/python)
	[[ $(id -u) == 0 ]] || skip "making an /opt entry needs root"
	local real prefix opt
	real=$(readlink -f "$EXEC_HARBOR/bin/python")
	prefix=$(dirname "$(dirname "$real")")
	opt=/opt/pc-e2e-test-python-$$-$RANDOM
	OPT_ENTRY=$opt
	ln -s "$prefix" "$opt"
	# a Harbor venv whose interpreter is the same Python, reached through /opt
	mkdir -p "$T/harbor/bin"
	cp -P "$EXEC_HARBOR"/bin/* "$T/harbor/bin/"
	ln -sf "$opt/bin/$(basename "$real")" "$T/harbor/bin/$(basename "$real")"
	ln -s "$EXEC_HARBOR/lib" "$T/harbor/lib"
	sed "s#^home = .*#home = $opt/bin#" "$EXEC_HARBOR/pyvenv.cfg" >"$T/harbor/pyvenv.cfg"
	exec_select "$ID"
	exec_peer echo
	# its lib/ links into the provisioned venv, which the sandbox binds only when told
	POWERCONTEXT_E2E_HARBOR=$T/harbor PC_E2E_SANDBOX_BINDS="$PC_E2E_SANDBOX_BINDS:$EXEC_HARBOR/lib" \
		exec_run_bub "$T/selection.jsonl" --runner harbor --agent "$PEER_AGENT"
	[[ $(rec_r '.runner + " " + .status') == "harbor completed" ]] || fail "$(rec '{runner, status, errors}')"
	run jq -c '[.step_results[] | .verifier_result.rewards.reward]' "$(trial_dir 0)/result.json"
	assert_output "[1,1]"
}
