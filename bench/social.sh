#!/usr/bin/env bash
# bench/social.sh [ROUNDS] — `feed serve`'s social pages and post comments on a large catalog, each
# against its floor: the same page's SQL alone.
#
# Catalogs (CATALOGS, default "postgres sqlite"):
#   postgres  PG_POSTS (1,000,000) posts, PG_USERS (100,000) users, PG_FOLLOWS (5,000,000) follows,
#             in a database of $FEED_TEST_POSTGRES's cluster (a superuser URL) or, when it is
#             unset, of a throwaway cluster with PostgreSQL's default durability
#             (scripts/with-postgres.sh, FEED_PG_DURABLE=1: fsync on, as bench/queue.sh)
#   sqlite    SQLITE_POSTS (100,000) posts, SQLITE_USERS (10,000) users, SQLITE_FOLLOWS (500,000)
#             follows, in a FEED_HOME's roll.sqlite
# `feed serve --port 0` makes and migrates each catalog (started once, then stopped); then the rows
# go in directly (bench/social-data.py: COPY … FROM STDIN per table, four tables at once in two
# streams; SQLite: one transaction of INSERTs through python's sqlite3): a recording for every
# post (a post's row JOINs its recording), users u000000…, each post by user i % USERS, a tenth of
# them followers-only, a fiftieth private, a thousandth hidden; the counters (followers,
# following, videos, comments) as the rows make them. u000000, the benchmark's user, follows
# BENCH_FOLLOWS (200) people; the others ~50 each. PostgreSQL: then the sequences past the rows
# and VACUUM ANALYZE (autovacuum's steady state). SQLite: no ANALYZE (the server runs none).
#
# A keyed server (--jwt-secret-file, a token from `feed token --user u000000`, scope read upload)
# answers, wrk -t2 -cCONNECTIONS (8) --latency for SECONDS_PER_RUN (10) a run, the bearer header
# from a Lua script that also prints the 95th percentile:
#   following  GET /feed/following?limit=20 (20 posts of the 200 people u000000 follows)
#   videos     GET /videos?limit=20        (the 20 newest posts u000000 may see)
# The floor of each is the SQL the server runs for that page, alone, with u000000 bound:
#   postgres   pgbench -n -M extended -c CONNECTIONS -j 2 -T SECONDS_PER_RUN on the statement the
#              server sent (taken from the cluster's log, log_min_duration_statement = 0 for one
#              request, with its parameters; when the log cannot be read, the statement as
#              Sources/FeedPostgres/PostgresCatalog+Posts.swift builds it, written out below).
#              The server also wraps it in BEGIN … COMMIT (its transaction): pgbench does not.
#   sqlite     bench/social-floor.py: CONNECTIONS python processes, one connection each, running
#              the statement of Sources/FeedSQLite/SQLiteCatalog+Posts.swift (written out below)
#              and fetching its rows
# Before the runs the server's page and the floor's rows are checked to be the same 20 posts, and
# the plan is printed (PostgreSQL: EXPLAIN (ANALYZE, BUFFERS); SQLite: EXPLAIN QUERY PLAN).
# Rounds (ROUNDS, default 2) alternate server and floor (odd rounds the server first), after a
# 2 s warm-up of each.
#
#   comments   POST /videos/{id}/comments ({"comment":…}, as u000000) to one public post, on two
#              small catalogs side by side (COMMENT_USERS 1,000 users, COMMENT_POSTS 10,000
#              posts, 50,000 follows): "at 0" with no post_comment row, "at 1m" with COMMENTS
#              (1,000,000) top-level comments over its first 1,000 posts (the posted-to one among
#              them). Rounds alternate which goes first; after each run the rows it added are
#              deleted and the post's count put back (PostgreSQL: then VACUUM post_comment, post).
#
# CPU time is the server's, summed over its threads (/proc/PID/task/*/schedstat); wrk, pgbench,
# python, PostgreSQL and the server share the machine's cores. Prints, per catalog and case, the
# medians of the rounds: p95_ms, req/s, the floor's req/s, and `ratio CATALOG_CASE server/floor`;
# for comments `ratio CATALOG_comments_1m_vs_0 X`; then the goals: each page's p95 ≤ 20 ms and
# ≥ 0.5 × its floor; POST comments at 1m ≥ 0.8 × at 0. Missed goals do not fail the script; setup
# does.
#
# Environment: FEED (default .build/release/feed, built when missing or older than the sources),
# CATALOGS, SECONDS_PER_RUN, CONNECTIONS, PG_USERS, PG_POSTS, PG_FOLLOWS, SQLITE_USERS,
# SQLITE_POSTS, SQLITE_FOLLOWS, BENCH_FOLLOWS, COMMENTS, COMMENT_USERS, COMMENT_POSTS,
# FEED_TEST_POSTGRES, FEED_PG_DURABLE. Missing tools are installed with apt-get when run as root.
set -euo pipefail

rounds=${1:-2}
catalogs=${CATALOGS:-postgres sqlite}
seconds=${SECONDS_PER_RUN:-10}
connections=${CONNECTIONS:-8}
bench_follows=${BENCH_FOLLOWS:-200}
comments=${COMMENTS:-1000000}
here=$(cd "$(dirname "$0")" && pwd)

[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench/social.sh: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 64; }
for catalog in $catalogs; do
  [[ $catalog =~ ^(sqlite|postgres)$ ]] || { echo "bench/social.sh: CATALOGS holds sqlite and postgres, not '$catalog'" >&2; exit 64; }
done

# What is missing, installed (Debian's packages) when this is root; else bench_setup names it.
if [ -z "${SOCIAL_BENCH_INNER:-}" ]; then
  missing=()
  for pair in wrk:wrk sqlite3:sqlite3 psql:postgresql-client pgbench:postgresql curl:curl jq:jq python3:python3 openssl:openssl; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
  done
  [[ " $catalogs " != *" postgres "* ]] || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
  if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "bench/social.sh: installing ${missing[*]}…" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2 \
      || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2; }
  fi
fi
# shellcheck source=SCRIPTDIR/lib.bash
source "$here/lib.bash"
bench_setup wrk curl jq sqlite3 psql pgbench python3

# PostgreSQL: again, beside a throwaway cluster, unless one is given.
if [[ " $catalogs " == *" postgres "* ]] && [ -z "${FEED_TEST_POSTGRES:-}" ]; then
  FEED="$feed" SOCIAL_BENCH_INNER=1 FEED_PG_DURABLE=${FEED_PG_DURABLE:-1} exec "$root/scripts/with-postgres.sh" bash "$0" "$@"
fi

fail() { echo "bench/social.sh: $*" >&2; exit 1; }
work=$(mktemp -d)
declare -A pid url home db
databases=()
stop_server() {
  local name=$1
  [ -n "${pid[$name]:-}" ] || return 0
  kill "${pid[$name]}" 2>/dev/null || true
  wait "${pid[$name]}" 2>/dev/null || true
  unset "pid[$name]"
}
cleanup() {
  local name d
  for name in "${!pid[@]}"; do stop_server "$name"; done
  for d in "${databases[@]}"; do psql -X -q "$FEED_TEST_POSTGRES" -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1 || true; done
  [ -z "${log_reset:-}" ] || psql -X -q "$FEED_TEST_POSTGRES" -c "ALTER SYSTEM RESET log_min_duration_statement" -c "SELECT pg_reload_conf()" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

head -c 32 /dev/urandom | base64 >"$work/secret.key"
user=u000000
token=$("$feed" token --jwt-secret-file "$work/secret.key" --user "$user" --ttl 2h)
[ -n "$token" ] || fail "feed token printed nothing"
post_id=1000000000001

# wrk's Lua: the bearer header (and for POSTs the method and body); done() prints the tail.
lua_done='
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("p95_us %d\np99_us %d\nbad %d\n", latency:percentile(95), latency:percentile(99),
    e.status + e.connect + e.read + e.write + e.timeout))
end'
printf 'wrk.headers["Authorization"] = "Bearer %s"\n%s\n' "$token" "$lua_done" >"$work/get.lua"
cat >"$work/post.lua" <<EOF
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer $token"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"comment":"consequat metus sapien ut nunc vestibulum ante ipsum primis in faucibus"}'
$lua_done
EOF

# make_catalog NAME KIND -> home[NAME] (and db[NAME]): a catalog feed serve made and migrated.
make_catalog() {
  local name=$1 kind=$2 args=()
  home[$name]=$work/home.$name
  mkdir -p "${home[$name]}"
  if [ "$kind" = postgres ]; then
    local database=feed_social_${name}_$$
    psql -X -q -v ON_ERROR_STOP=1 "$FEED_TEST_POSTGRES" -c "CREATE DATABASE $database" >/dev/null
    databases+=("$database")
    db[$name]=$(sed -E "s#^(postgres(ql)?://[^/]*/)[^?]*#\1$database#" <<<"$FEED_TEST_POSTGRES")
  fi
  start_server "$name" "$kind" open
  stop_server "$name"
}

# start_server NAME KIND [open] -> pid[NAME], url[NAME]: feed serve on NAME's catalog, keyed unless open.
start_server() {
  local name=$1 kind=$2 args=(--port 0 --quiet)
  [ "$kind" != postgres ] || args+=(--catalog "${db[$name]}")
  [ "${3:-}" = open ] || args+=(--jwt-secret-file "$work/secret.key")
  FEED_HOME=${home[$name]} "$feed" serve "${args[@]}" >"${home[$name]}/out" 2>"${home[$name]}/err" &
  pid[$name]=$!
  url[$name]=$(announced "feed serve ($name)" "${pid[$name]}" "${home[$name]}/out" "${home[$name]}/err" 'serving on ' 60)
}

# sql NAME KIND STATEMENT -> the result, unaligned
sql() {
  if [ "$2" = sqlite ]; then sqlite3 -cmd '.timeout 10000' "${home[$1]}/roll.sqlite" "$3"
  else psql -X -q -A -t -v ON_ERROR_STOP=1 "${db[$1]}" -c "$3"; fi
}

# load NAME KIND SIZES… -> the rows of bench/social-data.py SIZES in NAME's catalog
load() {
  local name=$1 kind=$2 t; shift 2
  if [ "$kind" = sqlite ]; then
    python3 "$here/social-data.py" sqlite "${home[$name]}/roll.sqlite" "$@"
    sqlite3 "${home[$name]}/roll.sqlite" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
    return
  fi
  copy() {
    python3 "$here/social-data.py" copy "$1" "${@:2}" \
      | psql -X -q -v ON_ERROR_STOP=1 "${db[$name]}" -c "COPY $1($(python3 "$here/social-data.py" columns "$1")) FROM STDIN"
  }
  # Two streams: follow (the largest) beside the rest.
  (copy follow "$@") &
  local follows=$!
  (for t in recording post app_user post_comment; do copy "$t" "$@"; done) || { wait $follows; fail "$name: COPY failed"; }
  wait $follows || fail "$name: COPY follow failed"
  sql "$name" postgres "SELECT setval(pg_get_serial_sequence('recording', 'id'), (SELECT max(id) FROM recording)),
    setval(pg_get_serial_sequence('post', 'id'), (SELECT max(id) FROM post)),
    setval(pg_get_serial_sequence('follow', 'id'), (SELECT max(id) FROM follow)),
    setval(pg_get_serial_sequence('post_comment', 'id'), (SELECT max(id) FROM post_comment))" >/dev/null
  sql "$name" postgres "VACUUM ANALYZE recording, post, app_user, follow, post_comment" >/dev/null
}

# The server's CPU time in ns, per thread: "tid ns" lines; cpu_ns BEFORE AFTER -> ns between them.
cpu_snapshot() { local t; for t in /proc/"$1"/task/*; do echo "${t##*/} $(cut -d' ' -f1 "$t/schedstat" 2>/dev/null || echo 0)"; done; }
cpu_ns() { awk 'NR == FNR { a[$1] = $2; next } { s += $2 - (($1 in a) ? a[$1] : 0) } END { printf "%.0f\n", s }' "$1" "$2"; }

# wrk_run NAME PATH LUA SECONDS -> "req/s p95-ms p99-ms cpu-µs/req" (stdout)
wrk_run() {
  local name=$1 path=$2 lua=$3 s=$4 out=$work/wrk.txt
  cpu_snapshot "${pid[$name]}" >"$work/cpu0"
  wrk -t 2 -c "$connections" -d "${s}s" --latency -s "$lua" "${url[$name]}$path" >"$out" 2>&1 || { cat "$out" >&2; fail "wrk failed against $name"; }
  cpu_snapshot "${pid[$name]}" >"$work/cpu1"
  awk -v cpu="$(cpu_ns "$work/cpu0" "$work/cpu1")" -v what="$name $path" '
    / requests in / { n = $1 }
    /Requests\/sec:/ { rps = $2 }
    $1 == "p95_us" { p95 = $2 / 1000 } $1 == "p99_us" { p99 = $2 / 1000 } $1 == "bad" { bad = $2 }
    /Non-2xx or 3xx responses:/ { non2xx = $NF }
    END {
      if (bad || non2xx) printf "  warning: %s: %d errors, %d answers not 2xx/3xx\n", what, bad, non2xx > "/dev/stderr"
      printf "%s %.3f %.3f %.0f\n", rps, p95, p99, (n ? cpu / 1000 / n : 0)
    }' "$out"
}

# The pages' SQL as the catalogs build it (SQLiteCatalog+Posts.swift, +Social.swift: postIDsSQL,
# postColumns, visible; the page's ids first, ORDER BY p.id DESC LIMIT 21 OFFSET 0, a page of 20
# and one to tell there is more, then their columns). `?`: u000000 each time but the last two (21, 0).
columns='SELECT p.id, p.recording_id, p.author, p.description, p.visibility, p.created_at, p.likes, p.comments, p.shares, p.hidden, EXISTS (SELECT 1 FROM post_like l WHERE l.post_id = p.id AND l.liker = ?), EXISTS (SELECT 1 FROM follow fa WHERE fa.follower = ? AND fa.followee = p.author), r.file_name, r.sha256, r.duration, r.width, r.height FROM post p JOIN recording r ON r.id = p.recording_id'
visible_sqlite="(p.author = ? OR (p.hidden = 0
  AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = p.author AND b.blocked = ?)
  AND NOT EXISTS (SELECT 1 FROM user_block b WHERE b.blocker = ? AND b.blocked = p.author)
  AND (p.visibility = 'public' OR (p.visibility = 'followers'
       AND EXISTS (SELECT 1 FROM follow f WHERE f.follower = ? AND f.followee = p.author)))))"
declare -A sqlite_sql pg_sql nparams
sqlite_sql[following]="$columns
JOIN (SELECT p.id FROM post p JOIN follow fo ON fo.followee = p.author AND fo.follower = ? WHERE 1 AND $visible_sqlite ORDER BY p.id DESC LIMIT ? OFFSET ?) page ON page.id = p.id
ORDER BY p.id DESC"
sqlite_sql[videos]="$columns
JOIN (SELECT p.id FROM post p WHERE 1 AND $visible_sqlite ORDER BY p.id DESC LIMIT ? OFFSET ?) page ON page.id = p.id
ORDER BY p.id DESC"
nparams[following]=7
nparams[videos]=6
# PostgreSQL's (PostgresCatalog+Posts.swift, +Social.swift): TRUE, NOT p.hidden, $n binds.
for case in following videos; do
  pg_sql[$case]=$(python3 -c '
import re, sys
s = sys.argv[1].replace("WHERE 1 AND", "WHERE TRUE AND").replace("p.hidden = 0", "NOT p.hidden")
n = iter(range(1, 100))
print(re.sub(r"\?", lambda m: "$%d" % next(n), s))' "${sqlite_sql[$case]}")
done
declare -A path=([following]='/feed/following?limit=20' [videos]='/videos?limit=20')

# params CASE -> the page's parameters, a JSON array
params() { python3 -c 'import json, sys; print(json.dumps([sys.argv[1]] * int(sys.argv[2]) + [21, 0]))' "$user" "${nparams[$1]}"; }

# pg_capture NAME CASE -> $work/CASE.pgbench (the statement the server sent, $n as :pN) and
# $work/CASE.params (pN=value lines); falls back to the statement above when the log is not there.
pg_capture() {
  local name=$1 case=$2 log="" host
  host=$(sed -nE 's/.*[?&]host=([^&]*).*/\1/p' <<<"$FEED_TEST_POSTGRES")
  [ -z "$host" ] || [ ! -r "$host/server.log" ] || log=$host/server.log
  if [ -n "$log" ]; then
    local size
    size=$(stat -c %s "$log")
    log_reset=1
    psql -X -q "$FEED_TEST_POSTGRES" -c "ALTER SYSTEM SET log_min_duration_statement = 0" -c "SELECT pg_reload_conf()" >/dev/null
    sleep 0.5
    curl -sf -o /dev/null -H "Authorization: Bearer $token" "${url[$name]}${path[$case]}" || fail "$case: the page failed"
    psql -X -q "$FEED_TEST_POSTGRES" -c "ALTER SYSTEM RESET log_min_duration_statement" -c "SELECT pg_reload_conf()" >/dev/null
    sleep 0.3
    tail -c +$((size + 1)) "$log" >"$work/log.$case"
  fi
  python3 - "$work/log.$case" "$case" "$work/$case" "${pg_sql[$case]}" "$(params "$case")" <<'PY'
import json, re, sys
log, case, out, fallback, params = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5])
marker = "JOIN follow fo ON" if case == "following" else "FROM post p JOIN recording r ON r.id = p.recording_id WHERE"
entries, head = [], re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
try:
    for line in open(log, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if head.match(line) or not entries:
            entries.append(line)
        else:
            entries[-1] += "\n" + (line[1:] if line.startswith("\t") else line)
except FileNotFoundError:
    pass
statement, values = None, None
for i, e in enumerate(entries):
    m = re.search(r"execute <unnamed>: (SELECT p\.id.*)", e, re.S)
    if m and marker in m.group(1):
        statement = m.group(1).strip()
        for d in entries[i + 1:i + 3]:
            p = re.search(r"DETAIL:\s+parameters: (.*)", d, re.S)
            if p:
                values = {int(k): v.replace("''", "'") for k, v in re.findall(r"\$(\d+) = '((?:[^']|'')*)'", p.group(1))}
        break
source = "the server's, from the cluster's log"
if statement is None or values is None:
    statement, values = fallback, {i + 1: str(v) for i, v in enumerate(params)}
    source = "as written in bench/social.sh (the server's was not in the log)"
if statement.split() != fallback.split():
    print(f"  note: the server's {case} statement is not the one bench/social.sh writes out; the floor runs the server's", file=sys.stderr)
pgb = statement
for k in sorted(values, reverse=True):
    pgb = pgb.replace("$%d" % k, ":p%d" % k)
open(out + ".pgbench", "w").write(pgb + ";\n")
open(out + ".params", "w").write("".join("p%d=%s\n" % (k, v) for k, v in sorted(values.items())))
lit = statement
for k in sorted(values, reverse=True):
    lit = lit.replace("$%d" % k, "'" + values[k].replace("'", "''") + "'")
open(out + ".literal.sql", "w").write(lit + "\n")
open(out + ".source", "w").write(source + "\n")
PY
}

# floor NAME KIND CASE SECONDS -> "req/s mean-ms"
floor() {
  local name=$1 kind=$2 case=$3 s=$4
  if [ "$kind" = sqlite ]; then
    python3 "$here/social-floor.py" "${home[$name]}/roll.sqlite" "$work/$case.sqlite.sql" "$(params "$case")" "$connections" "$s" \
      | awk '{ print $2, $6 }'
  else
    local defs=()
    while IFS= read -r line; do defs+=(-D "$line"); done <"$work/$case.params"
    pgbench -n -M extended -f "$work/$case.pgbench" -c "$connections" -j 2 -T "$s" "${defs[@]}" "${db[$name]}" >"$work/pgbench.txt" 2>&1 \
      || { cat "$work/pgbench.txt" >&2; fail "pgbench failed ($case)"; }
    awk '/^latency average/ { l = $4 } /^tps = / { t = $3 } END { print t, l }' "$work/pgbench.txt"
  fi
}

# check_page NAME KIND CASE: the server's page is 20 posts, the floor's first 20 rows, and (following)
# every one by someone u000000 follows; prints the plan.
check_page() {
  local name=$1 kind=$2 case=$3 page ids rows
  page=$(curl -sf -H "Authorization: Bearer $token" "${url[$name]}${path[$case]}") || fail "$kind $case: GET ${path[$case]} failed"
  ids=$(jq -r '.videos[].id' <<<"$page" | paste -sd' ')
  [ "$(wc -w <<<"$ids")" = 20 ] || fail "$kind $case: the page holds $(wc -w <<<"$ids") posts, not 20: $(head -c 300 <<<"$page")"
  if [ "$kind" = sqlite ]; then
    printf '%s\n' "${sqlite_sql[$case]}" >"$work/$case.sqlite.sql"
    rows=$(python3 - "${home[$name]}/roll.sqlite" "$work/$case.sqlite.sql" "$(params "$case")" <<'PY'
import json, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
sql, params = open(sys.argv[2]).read(), json.loads(sys.argv[3])
rows = con.execute(sql, params).fetchall()
print(" ".join(str(r[0]) for r in rows[:20]))
for r in con.execute("EXPLAIN QUERY PLAN " + sql, params):
    print("    plan:", r[3], file=sys.stderr)
PY
)
  else
    rows=$(psql -X -q -A -t -v ON_ERROR_STOP=1 "${db[$name]}" -f "$work/$case.literal.sql" | head -n 20 | cut -d'|' -f1 | paste -sd' ')
    psql -X -q -A -t "${db[$name]}" -c "EXPLAIN (ANALYZE, BUFFERS) $(cat "$work/$case.literal.sql")" | sed 's/^/    plan: /' >&2
  fi
  [ "$rows" = "$ids" ] || fail "$kind $case: the server's page ($ids) is not the floor's rows ($rows)"
  if [ "$case" = following ]; then
    local followees
    followees=$(sql "$name" "$kind" "SELECT followee FROM follow WHERE follower = '$user'" | sort)
    [ "$(jq -r '.videos[].author' <<<"$page" | sort -u | comm -23 - <(echo "$followees") | wc -l)" = 0 ] \
      || fail "$kind following: a post on the page is by someone $user does not follow"
  fi
}

declare -A result last
echo "bench/social.sh: feed serve's social pages against their SQL alone, and POST comments at 0 and $comments; catalogs: $catalogs"
echo "  wrk -t2 -c$connections ${seconds} s a run, $rounds rounds, alternating; $(nproc) cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)) shared by the server, wrk, the floor and the database"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

col_median() { cut -d' ' -f"$1" "$2" | median; }

for kind in $catalogs; do
  res=$work/res.$kind
  mkdir -p "$res"
  if [ "$kind" = postgres ]; then
    sizes=(--users "${PG_USERS:-100000}" --posts "${PG_POSTS:-1000000}" --follows "${PG_FOLLOWS:-5000000}")
    what="PostgreSQL $(psql -X -A -t "$FEED_TEST_POSTGRES" -c 'SHOW server_version' | cut -d' ' -f1), fsync $(psql -X -A -t "$FEED_TEST_POSTGRES" -c 'SHOW fsync')"
  else
    sizes=(--users "${SQLITE_USERS:-10000}" --posts "${SQLITE_POSTS:-100000}" --follows "${SQLITE_FOLLOWS:-500000}")
    what="SQLite $(sqlite3 --version | cut -d' ' -f1) (the CLI; python's $(python3 -c 'import sqlite3; print(sqlite3.sqlite_version)'))"
  fi
  make_catalog pages "$kind"
  a=$(date +%s%N)
  load pages "$kind" "${sizes[@]}" --bench-follows "$bench_follows"
  b=$(date +%s%N)
  counts=$(sql pages "$kind" "SELECT (SELECT count(*) FROM post) || ' posts, ' || (SELECT count(*) FROM recording) || ' recordings, ' || (SELECT count(*) FROM app_user) || ' users, ' || (SELECT count(*) FROM follow) || ' follows; $user follows ' || (SELECT following FROM app_user WHERE name = '$user')")
  echo "$kind: $what; $counts; loaded in $(awk -v d=$((b - a)) 'BEGIN { printf "%.1f", d / 1e9 }') s"
  start_server pages "$kind"

  for case in following videos; do
    echo "$case: GET ${path[$case]}"
    if [ "$kind" = postgres ]; then pg_capture pages "$case"; echo "  floor: pgbench -M extended on the statement $(cat "$work/$case.source")"
    else echo "  floor: bench/social-floor.py ($connections processes) on the statement of SQLiteCatalog+Posts.swift"; fi
    check_page pages "$kind" "$case"
    wrk_run pages "${path[$case]}" "$work/get.lua" 2 >/dev/null
    floor pages "$kind" "$case" 2 >/dev/null
    for ((i = 1; i <= rounds; i++)); do
      if ((i % 2)); then order=(server floor); else order=(floor server); fi
      for who in "${order[@]}"; do
        if [ "$who" = server ]; then wrk_run pages "${path[$case]}" "$work/get.lua" "$seconds" >>"$res/$case.server"
        else floor pages "$kind" "$case" "$seconds" >>"$res/$case.floor"; fi
      done
      printf '  round %d: server %8.1f req/s p95 %6.2f ms p99 %6.2f ms (CPU %5.0f µs/req)   floor %8.1f req/s (mean %6.3f ms)\n' "$i" \
        $(tail -n 1 "$res/$case.server") $(tail -n 1 "$res/$case.floor")
    done
    s_rps=$(col_median 1 "$res/$case.server"); p95=$(col_median 2 "$res/$case.server"); f_rps=$(col_median 1 "$res/$case.floor")
    ratio=$(awk -v s="$s_rps" -v f="$f_rps" 'BEGIN { printf "%.2f", (f ? s / f : 0) }')
    printf '%s %s  p95_ms %.2f  req/s %.1f  floor_req/s %.1f  server CPU %.0f µs/req\n' "$kind" "$case" "$p95" "$s_rps" "$f_rps" "$(col_median 4 "$res/$case.server")"
    echo "ratio ${kind}_$case $ratio"
    echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    result[$kind.$case.p95]=$p95
    result[$kind.$case.ratio]=$ratio
  done
  stop_server pages

  # POST /videos/{id}/comments at 0 and at COMMENTS.
  csizes=(--users "${COMMENT_USERS:-1000}" --posts "${COMMENT_POSTS:-10000}" --follows 50000 --bench-follows "$bench_follows" --comment-posts 1000)
  for name in zero full; do
    make_catalog "$name" "$kind"
    if [ "$name" = zero ]; then load zero "$kind" "${csizes[@]}" --comments 0
    else a=$(date +%s%N); load full "$kind" "${csizes[@]}" --comments "$comments"; b=$(date +%s%N); fi
    last[$name]=$(sql "$name" "$kind" "SELECT coalesce(max(id), 0) FROM post_comment")
    start_server "$name" "$kind"
  done
  [ "$(sql full "$kind" "SELECT count(*) FROM post_comment")" = "$comments" ] || fail "$kind: the fill did not store $comments comments"
  echo "comments: POST /videos/$post_id/comments; $comments stored comments (over 1,000 posts) loaded in $(awk -v d=$((b - a)) 'BEGIN { printf "%.1f", d / 1e9 }') s"
  reset() {
    local name=$1
    [ "$(sql "$name" "$kind" "SELECT count(*) FROM post_comment WHERE id > ${last[$name]}")" -gt 0 ] || fail "$kind: wrk posted no comment ($name)"
    sql "$name" "$kind" "DELETE FROM post_comment WHERE id > ${last[$name]}" >/dev/null
    sql "$name" "$kind" "UPDATE post SET comments = (SELECT count(*) FROM post_comment WHERE post_id = $post_id) WHERE id = $post_id" >/dev/null
    [ "$kind" = sqlite ] || sql "$name" "$kind" "VACUUM post_comment, post" >/dev/null
  }
  for name in zero full; do
    code=$(curl -s -o "$work/posted" -w '%{http_code}' -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
      -d '{"comment":"sanity"}' "${url[$name]}/videos/$post_id/comments")
    [ "$code" = 201 ] && [ "$(jq -r .username "$work/posted")" = "$user" ] || fail "$kind: POST comments gave $code: $(cat "$work/posted")"
    wrk_run "$name" "/videos/$post_id/comments" "$work/post.lua" 2 >/dev/null
    reset "$name"
  done
  for ((i = 1; i <= rounds; i++)); do
    if ((i % 2)); then order=(zero full); else order=(full zero); fi
    for name in "${order[@]}"; do
      wrk_run "$name" "/videos/$post_id/comments" "$work/post.lua" "$seconds" >>"$res/comments.$name"
      reset "$name"
    done
    printf '  round %d: at 0 %8.1f req/s p95 %6.2f ms   at 1m %8.1f req/s p95 %6.2f ms\n' "$i" \
      $(tail -n 1 "$res/comments.zero" | cut -d' ' -f1-2) $(tail -n 1 "$res/comments.full" | cut -d' ' -f1-2)
  done
  for name in zero full; do
    printf '%s comments at %-2s  p95_ms %.2f  req/s %.1f  server CPU %.0f µs/req\n' "$kind" "$([ "$name" = zero ] && echo 0 || echo 1m)" \
      "$(col_median 2 "$res/comments.$name")" "$(col_median 1 "$res/comments.$name")" "$(col_median 4 "$res/comments.$name")"
  done
  result[$kind.comments]=$(awk -v f="$(col_median 1 "$res/comments.full")" -v z="$(col_median 1 "$res/comments.zero")" 'BEGIN { printf "%.2f", (z ? f / z : 0) }')
  echo "ratio ${kind}_comments_1m_vs_0 ${result[$kind.comments]}"
  echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  stop_server zero
  stop_server full
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

goal() { if awk "BEGIN { exit !($2) }"; then echo "goal $1: met"; else echo "goal $1: NOT met"; fi; }
for kind in $catalogs; do
  for case in following videos; do
    goal "$kind $case p95 <= 20 ms (${result[$kind.$case.p95]})" "${result[$kind.$case.p95]} <= 20"
    goal "$kind $case >= 0.5 x its SQL alone (${result[$kind.$case.ratio]})" "${result[$kind.$case.ratio]} >= 0.5"
  done
  goal "$kind POST comments at 1m >= 0.8 x at 0 (${result[$kind.comments]})" "${result[$kind.comments]} >= 0.8"
done
