# shellcheck shell=sh
# hosts.sh — sourced by pipelines/pc-powercontext: the hosts the paired
# command of the PowerContext under test compares (hosts.json), and the two
# pc-e2e installs from PyPI wheels, each at that release's own pin:
#   ensure_hosts        $home/hosts.json
#   ensure_codex        $home/codex: the Codex CLI, uv, and a uv cache that
#                       holds the release's Codex plugin's locked dependencies
#   ensure_claude_code  $home/claude-code: the Claude Code CLI the Agent SDK
#                       bundles
# Uses pc-powercontext's $here, $tools, $home, $source, $label, die, fail,
# build_venv, stamp and server_python.
# shellcheck disable=SC2154 # those are pc-powercontext's

# What maps a host's pin to a wheel.
host_wheels=$here/host-wheels

# hosts.json: every host of the release's paired command (the order of its
# e2e/bub/src/powercontext_e2e/hosts.py; bub alone before it had one), each
# with the *_VERSION and *_PACKAGE of its harbor_<host>.py, where the release
# gets it, and the wheel pc-e2e installs it from (null: it cannot run here).
# Written on every call: a checkout's pins change with it.
ensure_hosts() {
	"$(server_python)" -I - "$source" "$host_wheels" "$home/hosts.json" <<'EOF' ||
import json, os, re, sys

source, table, out = sys.argv[1:4]
harness = "e2e/bub/src/powercontext_e2e"
wheels, npm = {}, {}
with open(table, encoding="utf-8") as lines:
    for n, line in enumerate(lines, 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "wheel" and len(f) == 5 and re.fullmatch(r"[0-9a-f]{64}", f[4]):
            wheels[f[1], f[2]] = {"wheel": f[3], "sha256": f[4]}
        elif f[0] == "npm" and len(f) == 3:
            npm[f[1]] = f[2]
        else:
            sys.exit(f"{table}:{n}: neither 'wheel HOST PIN REQUIREMENT SHA256' nor 'npm HOST PACKAGE'")

def read(path):
    with open(os.path.join(source, path), encoding="utf-8") as f:
        return f.read()

bub = re.search(r'"(bub[=<>!~][^"]*)"', read("e2e/bub/pyproject.toml"))
if not bub:
    sys.exit("its harness (e2e/bub/pyproject.toml) asks for no bub version")
hosts = [{"host": "bub", "version": bub[1].removeprefix("bub=="), "pinned_by": "e2e/bub/pyproject.toml",
          "pins": {}, "installed_from": "PyPI", "package": "bub", "wheel": bub[1], "sha256": None, "runs_here": True}]
modules = []
if os.path.exists(os.path.join(source, harness, "hosts.py")):
    modules = re.findall(r"powercontext_e2e\.harbor_(\w+):", read(f"{harness}/hosts.py"))
for module in dict.fromkeys(m for m in modules if m != "agent"):
    name, path = module.replace("_", "-"), f"{harness}/harbor_{module}.py"
    pins = dict(re.findall(r'^([A-Z_]+_(?:VERSION|PACKAGE)) = "(.*)"$', read(path), re.M))
    symbol = module.upper() + "_VERSION"
    if symbol not in pins:
        sys.exit(f"its {path} pins no {symbol}")
    package = pins.get(module.upper() + "_PACKAGE") or npm.get(name)
    if not package:
        sys.exit(f"neither its {path} nor {table} names the npm package of {name}")
    wheel = wheels.get((name, pins[symbol]), {"wheel": None, "sha256": None})
    hosts.append({"host": name, "version": pins[symbol], "pinned_by": f"{symbol} in {path}", "pins": pins,
                  "installed_from": "npm", "package": package, **wheel, "runs_here": wheel["wheel"] is not None})
with open(out + ".tmp", "w", encoding="utf-8") as f:
    json.dump({"schema": "pc-e2e.hosts/v1", "hosts": hosts}, f, indent=2)
    f.write("\n")
os.replace(out + ".tmp", out)
EOF
		die "cannot list the hosts of $label"
}

# host_field HOST FIELD: that field of HOST's row in hosts.json ("" for null).
host_field() {
	jq -r --arg h "$1" --arg f "$2" '.hosts[] | select(.host == $h) | .[$f] // ""' "$home/hosts.json"
}

# host_wheel HOST: the checked wheel of HOST's pin into $wheel, $wheel_file
# and $wheel_sha, downloaded once (by pip, from the machine's own indexes)
# into .tools/host-wheels/<sha256>/, which every release shares. A pin with
# no wheel in host-wheels is refused by name, before anything is installed.
host_wheel() {
	ensure_hosts
	pin=$(host_field "$1" version) wheel=$(host_field "$1" wheel) wheel_sha=$(host_field "$1" sha256)
	[ -n "$pin" ] || die "$label has no host $1 (its harness pins none)"
	[ -n "$wheel" ] ||
		die "$1 $pin ($(host_field "$1" pinned_by) of $label): no PyPI wheel pc-e2e knows for it (pipelines/host-wheels lists the pins it installs)"
	dir=$tools/host-wheels/$wheel_sha
	if [ "$(cat -- "$dir/.pc-e2e-sha256" 2>/dev/null)" != "$wheel_sha" ]; then
		mkdir -p -- "$tools/host-wheels"
		partial=$(mktemp -d "$tools/host-wheels/.partial.XXXXXX")
		printf '%s: downloading %s from PyPI (%s %s)\n' "$prog" "$wheel" "$1" "$pin" >&2
		python3 -m pip download --disable-pip-version-check --no-input --no-deps --only-binary :all: \
			-d "$partial" "$wheel" >"$partial.log" 2>&1 || {
			mv -f -- "$partial.log" "$dir.log"
			rm -rf -- "$partial"
			fail "$dir.log" "pip download $wheel failed"
		}
		rm -f -- "$partial.log"
		set -- "$1" "$partial"/*.whl
		if [ "$#" -ne 2 ] || [ ! -f "$2" ]; then
			rm -rf -- "$partial"
			die "pip download $wheel saved no single wheel"
		fi
		got=$(sha256sum -- "$2" | cut -d' ' -f1)
		[ "$got" = "$wheel_sha" ] ||
			{ rm -rf -- "$partial"; die "${2##*/} from PyPI has sha256 $got, not the $wheel_sha host-wheels lists for $1 $pin"; }
		printf '%s\n' "$wheel_sha" >"$partial/.pc-e2e-sha256"
		rm -rf -- "$dir"
		mv -- "$partial" "$dir" 2>/dev/null || rm -rf -- "$partial"
	fi
	wheel_file=$(find "$dir" -maxdepth 1 -name '*.whl' | head -n 1)
}

# host_json DIR HOST BIN [EXTRA]: DIR/host.json, what runs: the host, its
# version, the executable (relative to DIR), the release's source tree its
# ON arm mounts the plugin from, the wheel and its sha256, and EXTRA (a JSON
# object: Codex's uv, its version and its cache, relative to DIR).
host_json() {
	jq -n --arg host "$2" --arg version "$pin" --arg bin "$3" --arg source "$source" \
		--arg wheel "$wheel" --arg sha256 "$wheel_sha" --argjson extra "${4:-{\}}" \
		'{host: $host, version: $version, bin: $bin, source: $source, wheel: $wheel, sha256: $sha256}
		 + $extra' >"$1/host.json.tmp" &&
		mv -f -- "$1/host.json.tmp" "$1/host.json"
}

# site_bin VENV PACKAGE-PATH: PACKAGE-PATH under VENV's site-packages.
site_bin() {
	set -- "$1" "$1"/lib/python3*/site-packages/"$2"
	[ -e "$2" ] || die "no $2"
	printf '%s\n' "${2#"$1"/}"
}

# The Codex CLI at the release's CODEX_VERSION, and uv at its
# PLUGIN_UV_VERSION, the runtime of the release's Codex plugin (whose hooks
# run `uv run --project`): its locked dependencies are synced once into
# uv-cache/, so that an ON arm's sandbox syncs them again offline.
ensure_codex() {
	host_wheel codex
	uv=$(jq -r '.hosts[] | select(.host == "codex") | .pins.PLUGIN_UV_VERSION // ""' "$home/hosts.json")
	[ -n "$uv" ] || die "$label's e2e/bub/src/powercontext_e2e/harbor_codex.py pins no PLUGIN_UV_VERSION"
	plugin=$source/integrations/codex/plugins/powercontext
	[ -r "$plugin/uv.lock" ] || die "$label has no locked Codex plugin (no integrations/codex/plugins/powercontext/uv.lock)"
	venv=$home/codex
	build_venv "$venv" "$(server_python)" "$plugin/uv.lock" "Codex $pin ($wheel) and uv $uv" \
		--no-deps "$wheel_file" "uv==$uv"
	[ -n "$stamp_want" ] || return 0
	bin=$(site_bin "$venv" codex_cli_bin/bin/codex)
	got=$("$venv/$bin" --version 2>>"$venv.log") || true
	[ "$got" = "codex-cli $pin" ] ||
		{ rm -rf -- "$venv"; die "$wheel's codex --version says '$got', not 'codex-cli $pin'"; }
	got=$("$venv/bin/uv" --version) || true
	case $got in "uv $uv "* | "uv $uv") ;; *) rm -rf -- "$venv"; die "uv==$uv says '$got'" ;; esac
	# The cache is synced for the interpreter an arm's sandbox shows (the
	# system's python3); the environment it syncs into is thrown away.
	(unset PYTHONHOME PYTHONPATH
	 export UV_CACHE_DIR="$venv/uv-cache" UV_PROJECT_ENVIRONMENT="$venv/.plugin-env" UV_PYTHON_DOWNLOADS=never
	 "$venv/bin/uv" sync --frozen --no-install-project --python "$(server_python)" --project "$plugin") \
		>>"$venv.log" 2>&1 || { rm -rf -- "$venv"; fail "$venv.log" "uv sync of $label's Codex plugin failed"; }
	rm -rf -- "$venv/.plugin-env"
	host_json "$venv" codex "$bin" "$(jq -nc --arg uv "$uv" '{uv: "bin/uv", uv_version: $uv, uv_cache: "uv-cache"}')"
	stamp "$venv"
}

# Claude Code at the release's CLAUDE_CODE_VERSION: the CLI the Agent SDK
# host-wheels names bundles (the SDK's own Python dependencies are not
# needed, nor installed).
ensure_claude_code() {
	host_wheel claude-code
	venv=$home/claude-code
	build_venv "$venv" "$(server_python)" "$source/e2e/bub/uv.lock" "Claude Code $pin ($wheel)" \
		--no-deps "$wheel_file"
	[ -n "$stamp_want" ] || return 0
	bin=$(site_bin "$venv" claude_agent_sdk/_bundled/claude)
	got=$("$venv/$bin" --version 2>>"$venv.log") || true
	case $got in "$pin" | "$pin "*) ;; *)
		rm -rf -- "$venv"
		die "$wheel's bundled claude --version says '$got', not $pin"
		;;
	esac
	host_json "$venv" claude-code "$bin"
	stamp "$venv"
}
