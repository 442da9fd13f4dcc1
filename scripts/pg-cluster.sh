#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (and for trying the PostgreSQL backend by hand).
#
#   scripts/pg-cluster.sh start DIR   initdb in DIR (created), start a server on 127.0.0.1 at a
#                                      free port and on a Unix socket in DIR, print its address
#   scripts/pg-cluster.sh stop DIR    stop it (the files stay until DIR is removed)
#   scripts/pg-cluster.sh restart DIR stop it and start it again (the store's restart test)
#
# `start` on a DIR that held a cluster before starts it again on the same port, so that
# addresses handed out before still reach it (crates/store/tests/restart.rs stops and starts
# the server under a running store).
#
# The address printed lets anyone on this machine in as the superuser `postgres` without a
# password (trust authentication on 127.0.0.1 and the socket only): a cluster for tests, never
# for data that matters. Run as root, the server runs as the `postgres` user (PostgreSQL refuses
# to run as root). Needs Debian's `postgresql` package (scripts/test.sh installs it).
set -euo pipefail

die() { echo "pg-cluster: $*" >&2; exit 1; }

bindir() {
    if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v pg_ctl)"
        return
    fi
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$d" ] && [ -x "$d/pg_ctl" ] || die "no PostgreSQL server programs found (apt-get install postgresql)"
    echo "$d"
}

# Runs a command as the cluster's owner: ourselves, or `postgres` when we are root.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || die "usage: $0 start|stop|restart DIR"
bin=$(bindir)

case "$cmd" in
start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 \
            --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
            { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    fi
    port=$(cat "$dir/port" 2>/dev/null || free_port)
    # fsync stays on: the tests check that acknowledged moves are durable.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start \
        >/dev/null || { cat "$dir/server.log" >&2; die "the server did not start"; }
    echo "$port" >"$dir/port"
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    [ -d "$dir/data" ] || exit 0
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
restart)
    [ -d "$dir/data" ] || die "no cluster in $dir"
    # pg_ctl restart starts the server with the options of its last start (postmaster.opts).
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart \
        >/dev/null || { cat "$dir/server.log" >&2; die "the server did not restart"; }
    ;;
*)
    die "usage: $0 start|stop|restart DIR"
    ;;
esac
