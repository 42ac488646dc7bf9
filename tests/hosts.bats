#!/usr/bin/env bats
# The paired hosts beyond Bub (docs/DESIGN.md §5.9, §11.5): their pins come
# from the PowerContext under test (pipelines/pc-powercontext hosts); Codex
# and Claude Code are installed at those pins from PyPI wheels
# (pipelines/host-wheels) and run in pc-e2e's bubblewrap sandbox; a host
# without a wheel, or a pin the table does not list, is refused by name
# before anything is installed or a Server starts. The refusals come first:
# they start nothing.

load test_helper

PCP="$REPO/pipelines/pc-powercontext"
ID=api-version-continuation
HARNESS=e2e/bub/src/powercontext_e2e
# A PowerContext checkout whose Codex pin has no wheel, kept in the tool
# cache at one path (so pc-powercontext's home for it is one directory).
NOWHEEL="$REPO/.tools/test-checkout/hosts-nowheel"

setup() {
	pc_setup
	unset POWERCONTEXT_E2E_VERSION POWERCONTEXT_E2E_REPOSITORY POWERCONTEXT_E2E_HOSTS
	unset BUB_MODEL MODEL TRIALS JOBS RUNNER HOST SCHEDULER RESUME CATALOG CATALOG_ROOT
	export OUTPUT=$T/out
}

# refused_before_anything: exit 64 with the refusal as the one line before
# pc-e2e's last, no OUTPUT made, nothing provisioned, no Server started.
refused_before_anything() {
	[[ $status -eq 64 ]] || fail "exit $status, not 64: $stderr"
	[[ ${#stderr_lines[@]} -eq 2 ]] || fail "not one message before pc-e2e's line: $stderr"
	[[ ! -e $OUTPUT ]] || fail "OUTPUT was made: $(find "$OUTPUT")"
	[[ $stderr != *"output in"* && $stderr != *pc-server* && $stderr != *installing* ]] ||
		fail "something was provisioned or started: $stderr"
}

# pin HOST SYMBOL: SYMBOL's value in the release's harbor_HOST.py.
pin() {
	sed -n "s/^$2 = \"\(.*\)\"\$/\1/p" "$("$PCP" source)/$HARNESS/harbor_$1.py"
}

@test "HOST=opencode, pi and kimi-code: refused before OUTPUT, provisioning or a Server, naming the host, its pin and its npm package" {
	local host symbol package
	for host in opencode pi kimi_code; do
		symbol=${host^^}_VERSION
		package=$(pin "$host" "${host^^}_PACKAGE")
		[[ $host != opencode ]] || package=opencode-ai
		run --separate-stderr "$REPO/pc-e2e" paired HOST="${host//_/-}"
		refused_before_anything
		assert_equal "${stderr_lines[0]}" "paired: HOST=${host//_/-}: --host ${host//_/-} cannot run on this machine: ${host//_/-} $(pin "$host" "$symbol") ($symbol in $HARNESS/harbor_$host.py) needs Node.js and npm's $package@$(pin "$host" "$symbol"), which this machine cannot reach, and pipelines/host-wheels names no PyPI wheel for that pin"
	done
}

@test "pc-run-bub --plan: --host pi is refused from hosts.json; codex and claude-code pass; a host other than bub without POWERCONTEXT_E2E_HOSTS is refused naming it" {
	run --separate-stderr pc-select --manifests "$REPO/manifests/paired" --root "$REPO" --id "$ID"
	save_stdout "$T/paired.jsonl"
	run --separate-stderr env BUB_MODEL=openai:x pc-run-bub --paired --host codex --plan <"$T/paired.jsonl"
	assert_exit 1
	assert_stderr_contains "pc-run-bub: --host codex is pinned by the PowerContext under test: POWERCONTEXT_E2E_HOSTS must name the hosts.json"
	assert_stdout_empty
	POWERCONTEXT_E2E_HOSTS=$("$PCP" hosts)
	export POWERCONTEXT_E2E_HOSTS
	run --separate-stderr env BUB_MODEL=openai:x pc-run-bub --paired --host pi --plan <"$T/paired.jsonl"
	assert_exit 1
	assert_stderr_contains "pc-run-bub: --host pi cannot run on this machine: pi $(pin pi PI_VERSION) (PI_VERSION in $HARNESS/harbor_pi.py) needs Node.js and npm's $(pin pi PI_PACKAGE)@$(pin pi PI_VERSION)"
	assert_stdout_empty
	for host in codex claude-code bub; do
		run --separate-stderr env BUB_MODEL=openai:x pc-run-bub --paired --host "$host" --plan <"$T/paired.jsonl"
		assert_exit 0
		assert_output '{"unit":"'"$ID"'/trial-1","selections":[0],"trial":1}'$'\n''{"unit":"'"$ID"'/trial-2","selections":[0],"trial":2}'
	done
}

@test "pc-powercontext hosts: every host of the release's paired command, each pin read from its harness, and a wheel for codex and claude-code only" {
	run --separate-stderr "$PCP" hosts
	assert_exit 0
	assert_equal "$output" "$(cd "$REPO/.tools" && pwd -P)/powercontext/$("$PCP" commit)/hosts.json"
	assert_equal "$(jq -r '.hosts[] | "\(.host) \(.version) \(.installed_from) \(.package) \(.runs_here)"' "$output")" \
		"bub 0.5.1 PyPI bub true
codex $(pin codex CODEX_VERSION) npm @openai/codex true
claude-code $(pin claude_code CLAUDE_CODE_VERSION) npm @anthropic-ai/claude-code true
opencode $(pin opencode OPENCODE_VERSION) npm opencode-ai false
pi $(pin pi PI_VERSION) npm $(pin pi PI_PACKAGE) false
kimi-code $(pin kimi_code KIMI_CODE_VERSION) npm $(pin kimi_code KIMI_CODE_PACKAGE) false"
	assert_equal "$(jq -r '.hosts[] | select(.host == "codex") | .pins.PLUGIN_UV_VERSION' "$output")" \
		"$(pin codex PLUGIN_UV_VERSION)"
}

# nowheel_checkout: $NOWHEEL, made again, a git checkout of a PowerContext whose harness
# pins Codex at 0.153.3, which host-wheels does not list.
nowheel_checkout() {
	local h=$NOWHEEL/$HARNESS
	rm -rf "$NOWHEEL"
	mkdir -p "$NOWHEEL/integrations/bub" "$NOWHEEL/src" "$h"
	touch "$NOWHEEL/uv.lock" "$NOWHEEL/e2e/bub/uv.lock"
	printf '[project]\nname = "powercontext"\n' >"$NOWHEEL/pyproject.toml"
	printf '[project]\nname = "powercontext-bub"\n' >"$NOWHEEL/integrations/bub/pyproject.toml"
	printf '[project]\ndependencies = [\n    "bub==0.5.1",\n]\n' >"$NOWHEEL/e2e/bub/pyproject.toml"
	printf 'HOSTS = ("powercontext_e2e.harbor_agent:A", "powercontext_e2e.harbor_codex:B")\n' >"$h/hosts.py"
	printf 'CODEX_VERSION = "0.153.3"\nPLUGIN_UV_VERSION = "0.10.12"\n' >"$h/harbor_codex.py"
	git -C "$NOWHEEL" init -q
	git -C "$NOWHEEL" add -A
	git -C "$NOWHEEL" -c user.name=pc-e2e -c user.email=pc-e2e@localhost commit -qm "a Codex pin without a wheel"
}

@test "a checkout whose Codex pin has no wheel: pc-powercontext codex refuses it by name before installing anything, and HOST=codex before a Server" {
	nowheel_checkout
	export POWERCONTEXT_E2E_REPOSITORY=$NOWHEEL
	NOWHEEL=$(cd "$NOWHEEL" && pwd -P)
	run --separate-stderr "$PCP" codex
	assert_exit 1
	assert_output ""
	assert_equal "$stderr" "pc-powercontext: codex 0.153.3 (CODEX_VERSION in $HARNESS/harbor_codex.py of the PowerContext checkout $NOWHEEL): no PyPI wheel pc-e2e knows for it (pipelines/host-wheels lists the pins it installs)"
	home=$(dirname "$("$PCP" hosts)")
	[[ ! -e $home/codex ]] || fail "something was installed: $(ls "$home")"
	run --separate-stderr "$REPO/pc-e2e" paired HOST=codex
	refused_before_anything
	assert_equal "${stderr_lines[0]}" "paired: HOST=codex: --host codex cannot run on this machine: codex 0.153.3 (CODEX_VERSION in $HARNESS/harbor_codex.py) needs Node.js and npm's @openai/codex@0.153.3, which this machine cannot reach, and pipelines/host-wheels names no PyPI wheel for that pin"
}

# host_dir HOST: the provisioned host's directory (the calls are spelt out
# so that tests/bin/provision builds them first), checked: host.json names
# the host, the release's pin, the wheel and sha256 host-wheels lists for
# it, and an executable that reports the pin.
host_dir() {
	local dir json pin
	case $1 in
	codex) dir=$("$REPO/pipelines/pc-powercontext" codex) ;;
	claude-code) dir=$("$REPO/pipelines/pc-powercontext" claude-code) ;;
	esac || fail "pc-powercontext $1 failed"
	json=$dir/host.json
	pin=$(jq -r --arg h "$1" '.hosts[] | select(.host == $h) | .version' "$("$PCP" hosts)")
	assert_equal "$(jq -r '"\(.host) \(.version)"' "$json")" "$1 $pin"
	assert_equal "wheel $(jq -r '"\(.host) \(.version) \(.wheel) \(.sha256)"' "$json")" \
		"$(grep "^wheel $1 $pin " "$REPO/pipelines/host-wheels")"
	[[ -x $dir/$(jq -r .bin "$json") ]] || fail "$json: no executable $(jq -r .bin "$json")"
	printf '%s\n' "$dir"
}

@test "pc-powercontext codex and claude-code: host.json, and the executable reports the release's pin" {
	local dir
	dir=$(host_dir codex)
	assert_equal "$("$dir/$(jq -r .bin "$dir/host.json")" --version)" "codex-cli $(jq -r .version "$dir/host.json")"
	assert_equal "$(jq -r .uv_version "$dir/host.json")" "$(pin codex PLUGIN_UV_VERSION)"
	[[ $("$dir/bin/uv" --version) == "uv $(pin codex PLUGIN_UV_VERSION)"* ]] || fail "$("$dir/bin/uv" --version)"
	[[ -d $dir/uv-cache ]] || fail "no uv cache in $dir"
	dir=$(host_dir claude-code)
	[[ $("$dir/$(jq -r .bin "$dir/host.json")" --version) == "$(jq -r .version "$dir/host.json") (Claude Code)" ]] ||
		fail "claude --version: $("$dir/$(jq -r .bin "$dir/host.json")" --version)"
}

# sandboxed DIR COMMAND…: COMMAND in a bubblewrap sandbox as pc-run-bub's
# local runner builds one (filters/run-bub/base/sandbox.c: a tmpfs root and
# /tmp, /usr and /etc read-only, /opt a tmpfs, /dev, /proc, /logs/agent and
# /workspace bound), with the host's directory DIR read-only at
# /opt/pc-e2e-host, HOME a directory that does not exist.
sandboxed() {
	local dir=$1
	shift
	mkdir -p "$T/agent" "$T/workspace"
	env -i PATH=/usr/bin:/bin HOME=/nonexistent bwrap --die-with-parent --unshare-pid \
		--tmpfs / --tmpfs /tmp --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib \
		--symlink usr/lib64 /lib64 --symlink usr/sbin /sbin --ro-bind /etc /etc --tmpfs /opt \
		--ro-bind "$dir" /opt/pc-e2e-host --dev /dev --proc /proc --dir /logs \
		--bind "$T/agent" /logs/agent --bind "$T/workspace" /workspace --chdir /workspace -- "$@"
}

@test "codex --version and claude --version run inside pc-e2e's bubblewrap sandbox, the host's directory read-only" {
	local dir
	dir=$(host_dir codex)
	run --separate-stderr sandboxed "$dir" "/opt/pc-e2e-host/$(jq -r .bin "$dir/host.json")" --version
	assert_exit 0
	assert_output "codex-cli $(jq -r .version "$dir/host.json")"
	dir=$(host_dir claude-code)
	run --separate-stderr sandboxed "$dir" "/opt/pc-e2e-host/$(jq -r .bin "$dir/host.json")" --version
	assert_exit 0
	assert_output "$(jq -r .version "$dir/host.json") (Claude Code)"
}
