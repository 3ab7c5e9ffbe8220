#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL cluster, then stops the cluster and removes it.
#
#   scripts/with-postgres.sh swift test --skip-build
#
# The cluster lives in a new temporary folder: initdb (trust authentication), pg_ctl start, the
# command, pg_ctl stop. It listens on a free port: a Unix socket in that folder, and TLS on
# 127.0.0.1 with a self-signed certificate made here for the name feed-test.invalid (so
# sslmode=require and verify-ca with it as sslrootcert connect, and verify-full does not). The
# command sees
#   FEED_TEST_POSTGRES=postgres://USER@/postgres?host=FOLDER&port=PORT
#   FEED_TEST_POSTGRES_TLS=postgres://USER@127.0.0.1:PORT/postgres
#   FEED_TEST_POSTGRES_CA=FOLDER/server.crt
# (superuser URLs: tests create a database of their own each). Run as root, the cluster
# belongs to the `postgres` user that Debian's postgresql package creates.
# For speed the tests' cluster does not fsync; FEED_PG_DURABLE=1 keeps PostgreSQL's defaults
# (the benchmark uses that).
# The exit status is the command's.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "with-postgres: no PostgreSQL server found under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 69
fi

dir=$(mktemp -d /tmp/feed-pg.XXXXXX)
as=()
user=$(id -un)
if [ "$(id -u)" = 0 ]; then
  user=postgres
  chown postgres: "$dir"
  as=(runuser -u postgres --)
fi

stop() {
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U "$user" -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 70; }
# A port no one listens on (the socket's name carries it too).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=feed-test.invalid \
  -addext subjectAltName=DNS:feed-test.invalid -keyout "$dir/server.key" -out "$dir/server.crt" >"$dir/openssl.log" 2>&1 \
  || { cat "$dir/openssl.log" >&2; exit 70; }
chmod 600 "$dir/server.key"
[ "$(id -u)" = 0 ] && chown postgres: "$dir/server.key" "$dir/server.crt"
# max_connections: the chaos test and the benchmark run several workers, each with a pool.
settings="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir' -c max_connections=300"
settings="$settings -c ssl=on -c ssl_cert_file='$dir/server.crt' -c ssl_key_file='$dir/server.key'"
[ "${FEED_PG_DURABLE:-0}" = 1 ] || settings="$settings -c fsync=off -c full_page_writes=off"
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "$settings" start >/dev/null || { cat "$dir/server.log" >&2; exit 70; }

export FEED_TEST_POSTGRES="postgres://$user@/postgres?host=$dir&port=$port"
export FEED_TEST_POSTGRES_TLS="postgres://$user@127.0.0.1:$port/postgres"
export FEED_TEST_POSTGRES_CA="$dir/server.crt"
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on $dir and 127.0.0.1:$port (TLS)" >&2
# shellcheck source=SCRIPTDIR/run-beside.bash
source "$(dirname "$0")/run-beside.bash"
run_beside "$@"
