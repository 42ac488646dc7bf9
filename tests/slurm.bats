#!/usr/bin/env bats
# SCHEDULER=slurm (pipelines/units, docs/DESIGN.md §5.14) on a real Slurm:
# pipelines/slurm-cluster's two nodes on loopback (slurmctld, two slurmd,
# munged with a key of its own, all under the test's directory), the
# release's real Server in every unit and the ACP test peer as both arms'
# agent. A node killed mid-run has its unit requeued on the other; a stop
# cancels the array; the refusals come before anything runs.

load test_helper
load exec_helper
load units_helper

ID=api-version-continuation

setup_file() {
	exec_setup_file
	"$REPO/pipelines/slurm-cluster" start "$BATS_FILE_TMPDIR/cluster" >"$BATS_FILE_TMPDIR/cluster.out"
	export SLURM_CONF=$BATS_FILE_TMPDIR/cluster/slurm.conf
}

teardown_file() {
	"$REPO/pipelines/slurm-cluster" stop "$BATS_FILE_TMPDIR/cluster" || true
	exec_teardown_file
}

setup() {
	exec_setup
	exec_peer echo
	# the caller's secrets (a CI's GITHUB_TOKEN) would reach the units as
	# the test's own do, and a requeued attempt could not have them again
	local f
	for f in $(pc-run-bub --secret-names); do
		unset "$f"
	done
}

# paired_run OUTPUT [VAR=VALUE…]: pipelines/paired SCHEDULER=slurm on $ID,
# two trials, the peer as the agent; its status and streams as run's.
paired_run() {
	local out=$1
	shift
	run --separate-stderr env PC_E2E_AGENT="$PEER_AGENT" TRIALS=2 OUTPUT="$out" PC_E2E_PROGRESS=0 \
		SCHEDULER=slurm "$@" timeout -k 10 "$EXEC_LIMIT" "$REPO/pipelines/paired" --id "$ID"
}

@test "slurm-cluster starts two idle nodes on loopback, with nothing in /etc/slurm or /etc/munge" {
	assert_equal "$(cat "$BATS_FILE_TMPDIR/cluster.out")" "SLURM_CONF=$SLURM_CONF"
	assert_equal "$(sinfo -h -N -o '%N %T' | sort)" "node1 idle"$'\n'"node2 idle"
	run grep -c "$BATS_FILE_TMPDIR" "$SLURM_CONF"
	[[ $output -gt 5 ]] || fail "the cluster's files are not under its directory: $(cat "$SLURM_CONF")"
	[[ ! -e /etc/slurm/slurm.conf ]] || fail "/etc/slurm/slurm.conf exists"
}

@test "a provider key reaches every unit through a file only its user reads, never through Slurm: no file of the cluster or OUTPUT holds it, in any encoding" {
	local out=$T/run key='pc-e2e+Sentinel/Key=42&x y"z'
	# what sbatch is given: the key not in its environment, each unit's
	# file ready, this user's alone
	mkdir "$T/wrap"
	printf '#!/usr/bin/env bash\n{ env | grep -c SENTINEL; stat -c "%%a %%n" %q %q/*; tr "\\0" "\\n" <%q/0.env; } >%q 2>&1\nexec %q "$@"\n' \
		"$out/units/secrets" "$out/units/secrets" "$out/units/secrets" "$T/at-submit" "$(command -v sbatch)" \
		>"$T/wrap/sbatch"
	chmod +x "$T/wrap/sbatch"
	paired_run "$out" SENTINEL_API_KEY="$key" PATH="$T/wrap:$PATH"
	assert_equal "$(cat "$T/at-submit")" "0
700 $out/units/secrets
600 $out/units/secrets/0.env
600 $out/units/secrets/1.env
SENTINEL_API_KEY=$key"
	# the peer's ON arms never reach PowerContext (exit 2); every unit ran
	run jq -r .state "$out/units/units.jsonl"
	assert_output "done"$'\n'"done"
	# Slurm's state (the job's saved environment), its logs, the tasks'
	# output and everything the run wrote
	SENTINEL_API_KEY=$key run "$REPO/tests/bin/secret-scan" --name SENTINEL_API_KEY \
		"$BATS_FILE_TMPDIR/cluster" "$out"
	assert_success
	# each unit's attempt had the key, by name
	run cat "$out"/units/*/attempt-1/secrets
	assert_output "SENTINEL_API_KEY"$'\n'"SENTINEL_API_KEY"
	# and each took its file; the submitter removed the folder at its exit
	[[ ! -e $out/units/secrets ]] || fail "left behind: $(find "$out/units/secrets")"
}

# unit_attempt SECRETS_MODE [ENTRY…]: unit-run on a unit of $T/o whose
# secrets file (mode SECRETS_MODE, or none when -) holds the ENTRYs, each
# ended by a NUL; its status as run's, the attempt's stderr in $output.
unit_attempt() {
	local mode=$1
	shift
	mkdir -p "$T/o/units/0"
	echo '{"unit":"'"$ID"'/trial-1","selections":[0],"trial":1}' >"$T/o/units/0/unit.json"
	: >"$T/o/units/0/args"
	: >"$T/o/units/0/selection.jsonl"
	if [[ $mode != - ]]; then
		mkdir -p -m 0700 "$T/o/units/secrets"
		printf '%s\0' "$@" >"$T/o/units/secrets/0.env"
		chmod "$mode" "$T/o/units/secrets/0.env"
	fi
	run env UNITS_OUTPUT="$T/o" "$REPO/pipelines/unit-run" "$T/o/units/0"
	local status_was=$status
	output=$(cat "$(find "$T/o/units/0" -maxdepth 1 -name 'attempt-*' | sort -V | tail -n 1)/stderr.txt")
	status=$status_was
}

@test "unit-run takes no secrets from a file others can read, nor an entry that names no variable, and an attempt after the one that took them fails at once, saying so; a node's own UNITS_SECRETS_FILE is read and kept" {
	unit_attempt 0644 SENTINEL_API_KEY=pc-e2e-sentinel-key
	assert_failure
	assert_output "unit-run: $T/o/units/secrets/0.env is not a regular file of this user's alone (mode 0600): its secrets are not read"
	rm -rf "$T/o"
	unit_attempt 0600 'BAD NAME=x'
	assert_failure
	assert_output "unit-run: $T/o/units/secrets/0.env: entry 1 is not NAME=VALUE with a variable's name"
	rm -rf "$T/o"
	# attempt 1 took them (and was lost with its node); attempt 2 finds none
	mkdir -p "$T/o/units/0/attempt-1.partial"
	echo SENTINEL_API_KEY >"$T/o/units/0/attempt-1.partial/secrets"
	unit_attempt -
	assert_failure
	assert_output "unit-run: the secrets of unit $ID/trial-1 were taken by attempt 1; RETRY or RESUME hands them over again"
	assert_equal "$(cat "$T/o/units/0/attempt-2.partial/status")" 1
	# unless they are in its environment (SCHEDULER=local, RESUME after a
	# Slurm run): then it runs, with them
	SENTINEL_API_KEY=pc-e2e-sentinel-key unit_attempt -
	refute_output --partial "taken"
	rm -rf "$T/o"
	# UNITS_SECRETS_FILE: each node's own file, checked and read, never removed
	printf 'SENTINEL_API_KEY=pc-e2e-sentinel-key\0' >"$T/node.env"
	chmod 0640 "$T/node.env"
	UNITS_SECRETS_FILE=$T/node.env unit_attempt -
	assert_output "unit-run: $T/node.env is not a regular file of this user's alone (mode 0600): its secrets are not read"
	rm -rf "$T/o"
	chmod 0600 "$T/node.env"
	UNITS_SECRETS_FILE=$T/node.env unit_attempt -
	assert_equal "$(cat "$T/o/units/0/attempt-1.partial/secrets")" SENTINEL_API_KEY
	[[ -f $T/node.env ]] || fail "the node's secrets file was removed"
}

@test "a node killed mid-run: its unit runs again from scratch on the other node, and every unit is done" {
	local out=$T/run
	paired_run "$out" &
	local runner=$! node= i
	# the moment a unit's attempt is under way on node1
	for ((i = 0; i < 600; i++)); do
		node=$(cat "$out"/units/*/attempt-1.partial/node 2>/dev/null | grep -x node1 || true)
		[[ -z $node ]] || break
		sleep 0.2
	done
	[[ $node == node1 ]] || fail "no unit started on node1: $(cat "$out"/units/*/attempt-*/node 2>/dev/null)"
	"$REPO/pipelines/slurm-cluster" kill-node "$BATS_FILE_TMPDIR/cluster" node1
	wait "$runner" || true
	run jq -c '[.unit, .state]' "$out/units/units.jsonl"
	assert_output '["'"$ID"'/trial-1","done"]'$'\n''["'"$ID"'/trial-2","done"]'
	run jq -c 'select(.attempts == 2) | [.node, .job_id != null, .array_task]' "$out/units/units.jsonl"
	[[ $output == '["node2",true,'[01]']' ]] || fail "no unit ran a second attempt on node2: $(cat "$out/units/units.jsonl")"
	# the first attempt was left half-written and never gathered, and its
	# Server died with its node, as in a crash
	local partial pid
	partial=$(find "$out/units" -name 'attempt-1.partial' | head -n 1)
	[[ -n $partial ]] || fail "no half-written attempt was left"
	pid=$(cat "$partial/server/server.pid" 2>/dev/null || true)
	[[ -z $pid ]] || ! kill -0 "$pid" 2>/dev/null || fail "the killed node's Server ($pid) is still running"
	assert_equal "$(jq -r '"\(.trial) \(.arm)"' "$out/$ID"/trial-*/*/observation.json | sort | tr '\n' ' ')" \
		"1 off 1 on 2 off 2 on "
	# the report covers both trials' pairs
	assert_equal "$(jq -r '[.trials, (.tasks | length)] | @tsv' "$out/paired-report.json")" "2	1"
	# each unit's Server token was made on its node and reached no file of
	# OUTPUT, the Slurm task's output included
	run grep -rlE 'pc-e2e-[0-9a-f]{48}' "$out"
	assert_failure
}

@test "SIGTERM to the submitter cancels the array: nothing of it left in Slurm or running, every unit cancelled" {
	local out=$T/run
	# one unit under way: node1 may be down since the test above killed it
	units_stop_midway "$out" 1 SCHEDULER=slurm SENTINEL_API_KEY='pc-e2e+Sentinel/Key=42&x y"z'
	# the secrets of the unit not yet started went with the stop
	[[ ! -e $out/units/secrets ]] || fail "left behind: $(find "$out/units/secrets")"
	SENTINEL_API_KEY='pc-e2e+Sentinel/Key=42&x y"z' run "$REPO/tests/bin/secret-scan" \
		--name SENTINEL_API_KEY "$out"
	assert_success
	local job i
	job=$(cut -d';' -f1 "$out/units/sbatch.out")
	assert_equal "$(jq -c '[.unit, .job_id, .state]' "$out/units/units.jsonl")" \
		'["'"$ID"'/trial-1","'"$job"'","cancelled"]'$'\n''["'"$ID"'/trial-2","'"$job"'","cancelled"]'
	# Slurm ends the tasks' processes after scancel: none of the array's
	# tasks, and no process of a unit, is left
	for ((i = 0; i < 150; i++)); do
		[[ -z $(squeue -h -j "$job" 2>/dev/null) ]] && ! pgrep -f -- "$out/units/" >/dev/null && break
		sleep 0.2
	done
	assert_equal "$(squeue -h -j "$job" 2>/dev/null)" ""
	run pgrep -af -- "$out/units/"
	assert_failure
	assert_equal "$(units_completed_arms "$out")" ""
}

@test "SCHEDULER=slurm is refused before anything runs without sbatch, without a controller answering, or with an OUTPUT this host cannot write" {
	# a PATH that has everything of this machine's but Slurm's commands
	mkdir -p "$T/path"
	local f
	for f in /usr/local/bin/* /usr/bin/* /bin/*; do
		case ${f##*/} in sbatch | scontrol | scancel | squeue | sinfo) continue ;; esac
		[[ -e $T/path/${f##*/} ]] || ln -s "$f" "$T/path/${f##*/}"
	done
	paired_run "$T/a" PATH="$T/path"
	assert_exit 1
	assert_stderr_contains "units: SCHEDULER=slurm, but Slurm's sbatch is not on PATH"
	[[ ! -e $T/a/units ]] || fail "units were laid out"
	printf 'ClusterName=gone\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=9\nAuthType=auth/none\nNodeName=n1 CPUs=1\nPartitionName=p Nodes=ALL\n' >"$T/gone.conf"
	paired_run "$T/b" SLURM_CONF="$T/gone.conf"
	assert_exit 1
	assert_stderr_contains "units: SCHEDULER=slurm, but no Slurm controller answers (SLURM_CONF=$T/gone.conf)"
	paired_run /proc/pc-e2e-output
	assert_exit 1
	assert_stderr_contains "paired: OUTPUT /proc/pc-e2e-output cannot be written on this host (SCHEDULER=slurm: every unit writes there)"
}
