# A real MariaDB server for a suite (Debian's mariadb-server): started on
# 127.0.0.1 and a free port with a throwaway data directory, stopped by
# mariadb_stop, which leaves no process.
#
# mariadb_start DIR (from setup_file) exports MARIADB_PORT, MARIADB_DIR and
# MARIADB_SKIP (why there is no server: mariadbd is not installed) or
# MARIADB_FAILED (it is installed and did not start: a failure, not a skip).
# mariadb_sql runs SQL over its socket as the administrator mariadb-install-db
# made of the user running the tests (unix_socket authentication).

mariadb_start() {
	local dir=$1
	export MARIADB_DIR=$dir MARIADB_SKIP='' MARIADB_FAILED='' MARIADB_PORT='' MARIADB_PID=''
	if ! PATH="$PATH:/usr/sbin" command -v mariadbd >/dev/null; then
		MARIADB_SKIP="mariadbd is not installed (Debian's mariadb-server; pipelines/install-deps installs it)"
		return 0
	fi
	mkdir -p "$dir"
	if ! mariadb-install-db --no-defaults --datadir="$dir/data" --user="$(id -un)" \
		--auth-root-authentication-method=socket --skip-test-db >"$dir/install.log" 2>&1; then
		MARIADB_FAILED="mariadb-install-db failed: $(tail -n 5 "$dir/install.log")"
		return 0
	fi
	for _ in 1 2 3; do # a port found free may be taken before the server binds it
		MARIADB_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		PATH="$PATH:/usr/sbin" setsid mariadbd --no-defaults --datadir="$dir/data" --user="$(id -un)" \
			--bind-address=127.0.0.1 --port="$MARIADB_PORT" --socket="$dir/sock" --pid-file="$dir/pid" \
			--skip-name-resolve --innodb-buffer-pool-size=16M --log-error="$dir/error.log" \
			</dev/null >/dev/null 2>&1 3>&- &
		MARIADB_PID=$! # setsid execs the server: not a process group leader here
		for _ in $(seq 150); do
			mariadb-admin --no-defaults --socket="$dir/sock" -u"$(id -un)" ping >/dev/null 2>&1 && return 0
			kill -0 "$MARIADB_PID" 2>/dev/null || break
			sleep 0.2
		done
		mariadb_stop
	done
	MARIADB_FAILED="mariadbd did not start: $(tail -n 5 "$dir/error.log" 2>/dev/null)"
}

mariadb_sql() {
	mariadb --no-defaults --socket="$MARIADB_DIR/sock" -u"$(id -un)" --batch --skip-column-names -e "$1"
}

# need_mariadb: skip the test when there is no mariadbd, fail when it did
# not start.
need_mariadb() {
	[[ -z "$MARIADB_SKIP" ]] || skip "$MARIADB_SKIP"
	[[ -z "$MARIADB_FAILED" ]] || fail "$MARIADB_FAILED"
}

mariadb_stop() {
	local pid=$MARIADB_PID
	[[ -n "$pid" ]] || return 0
	kill -TERM "$pid" 2>/dev/null || return 0
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
}
