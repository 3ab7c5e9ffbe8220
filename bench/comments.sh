#!/usr/bin/env bash
# bench/comments.sh [ROUNDS] — `feed serve`'s comments routes at 0 and at 100,000 stored comments,
# on both catalogs: SQLite (the roll's own file, the default) and PostgreSQL (--catalog).
#
# The peer is the same server with no stored comments. For each catalog, two `feed serve --quiet
# --port 0` run side by side on the built-in demo feed (its 15 comments): "at 0" with an empty
# comment table and "at 100k" with COMMENTS (default 100000) rows. SQLite: a FEED_HOME each in a
# temporary folder removed on exit. PostgreSQL: a database each (created and dropped here) in the
# cluster of $FEED_TEST_POSTGRES (a superuser URL) or, when it is unset, in a throwaway cluster
# with PostgreSQL's default durability (scripts/with-postgres.sh, FEED_PG_DURABLE=1: fsync on,
# as bench/queue.sh). The rows are put in directly, not through the server (posting them would
# take 15–60 s per catalog, the insert well under 1 s): one INSERT … SELECT of COMMENTS rows
# (sqlite3; psql with generate_series, then ANALYZE, as autovacuum would soon do), each a
# ~80-character comment like the posted one. After each POST run the rows it added are deleted,
# so "at 0" is 0 and "at 100k" is COMMENTS again when the next run starts (PostgreSQL: then
# VACUUM ANALYZE, so that autovacuum does not clean up after those deletes during later runs).
# Then, alternating which server goes first, ROUNDS rounds (default 3) of:
#   POST   wrk -t2 -cCONNECTIONS (default 4) --latency for SECONDS_PER_RUN (default 5) after a
#          2 s warm-up: POST /comments, the same JSON body ({"username":…,"comment":…},
#          openapi.yaml's NewComment) from a Lua script; each post is one insert
#   GET    the same for GET /comments?limit=20, the first page (at 0 the feed's 15 comments and
#          no stored row, at 100k the 20 newest stored ones)
#   live   CLIENTS (default 16) `curl -N` on GET /comments/live?interval=LIVE_INTERVAL (default
#          0.05 s, the smallest the route takes), no posts. "open": the time until every client
#          has its first event, and the server's CPU for it per client; then, after 0.5 s, the
#          server's CPU over LIVE_SECONDS (default 8) divided by the events the clients received
#          in that time ("per tick": each tick asks the catalog for what is new and writes one
#          event); peak RSS over the whole run
# CPU time is the server's, summed over its threads from /proc/PID/task/*/schedstat (ns; a thread
# that ends during a run loses its share of that run); peak RSS is VmHWM, reset by writing 5 to
# /proc/PID/clear_refs. wrk, curl, PostgreSQL and the servers share the machine's cores.
# Prints medians of the rounds, the `ratio at 100k / at 0` lines and the goals: POST /comments at
# 100k ≥ 0.8 × its rate at 0, and the live CPU per tick at 100k ≤ 1.2 × at 0 (independent of the
# total, within the noise), on each catalog. Missed goals do not fail the script; setup does.
#
# Environment: FEED (default .build/release/feed), CATALOGS ("sqlite postgres"), COMMENTS
# (100000), SECONDS_PER_RUN (5), CONNECTIONS (4), CLIENTS (16), LIVE_INTERVAL (0.05),
# LIVE_SECONDS (8), FEED_TEST_POSTGRES (a cluster to use instead of a throwaway one),
# FEED_PG_DURABLE (1: the throwaway cluster fsyncs).
set -euo pipefail

rounds=${1:-3}
catalogs=${CATALOGS:-sqlite postgres}
comments=${COMMENTS:-100000}
seconds=${SECONDS_PER_RUN:-5}
connections=${CONNECTIONS:-4}
clients=${CLIENTS:-16}
interval=${LIVE_INTERVAL:-0.05}
live_seconds=${LIVE_SECONDS:-8}
source "$(dirname "$0")/lib.bash"
bench_setup wrk curl jq sqlite3 psql

fail() { echo "bench/comments.sh: $*" >&2; exit 1; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench/comments.sh: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 64; }
[[ $comments =~ ^[1-9][0-9]*$ ]] || { echo "bench/comments.sh: COMMENTS must be a positive integer, not '$comments'" >&2; exit 64; }
for catalog in $catalogs; do
  [[ $catalog =~ ^(sqlite|postgres)$ ]] || { echo "bench/comments.sh: CATALOGS holds sqlite and postgres, not '$catalog'" >&2; exit 64; }
done

# PostgreSQL: again, beside a throwaway cluster, unless one is given.
if [[ " $catalogs " == *" postgres "* ]] && [ -z "${FEED_TEST_POSTGRES:-}" ]; then
  FEED="$feed" FEED_PG_DURABLE=${FEED_PG_DURABLE:-1} exec "$root/scripts/with-postgres.sh" bash "$0" "$@"
fi

# Everything made here lives in $work and goes on any exit; the servers and curls are stopped by
# their pids, and the databases made here are dropped.
work=$(mktemp -d)
declare -A pid url home db
databases=()
stop_servers() {
  local name
  for name in "${!pid[@]}"; do kill "${pid[$name]}" 2>/dev/null || true; done
  for name in "${!pid[@]}"; do wait "${pid[$name]}" 2>/dev/null || true; done
  pid=()
}
cleanup() {
  local d
  [ -z "${curls:-}" ] || kill $curls 2>/dev/null || true
  stop_servers
  for d in "${databases[@]}"; do psql -X -q "$FEED_TEST_POSTGRES" -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1 || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

names=(zero full)
label() { if [ "$1" = zero ]; then echo "at 0"; else echo "at ${comments_k}"; fi; }
comments_k=$(awk -v n="$comments" 'BEGIN { if (n % 1000) print n; else print n / 1000 "k" }')

# start NAME CATALOG -> pid[NAME], url[NAME]: a server on a fresh FEED_HOME (and database).
start() {
  local name=$1 catalog=$2 args=()
  home[$name]=$work/$catalog.$name
  mkdir -p "${home[$name]}"
  if [ "$catalog" = postgres ]; then
    local database=feed_comments_${name}_$$
    psql -X -q -v ON_ERROR_STOP=1 "$FEED_TEST_POSTGRES" -c "CREATE DATABASE $database" >/dev/null
    databases+=("$database")
    # postgres://USER@/postgres?host=DIR -> the same with this database
    db[$name]=$(sed -E "s#^(postgres(ql)?://[^/]*/)[^?]*#\1$database#" <<<"$FEED_TEST_POSTGRES")
    args=(--catalog "${db[$name]}")
  fi
  FEED_HOME=${home[$name]} "$feed" serve "${args[@]}" --port 0 --quiet >"${home[$name]}/out" 2>"${home[$name]}/err" &
  pid[$name]=$!
  for _ in $(seq 300); do
    grep -q '^serving on ' "${home[$name]}/out" 2>/dev/null && break
    kill -0 "${pid[$name]}" 2>/dev/null || { cat "${home[$name]}/err" >&2; fail "feed serve ($catalog) exited"; }
    sleep 0.1
  done
  url[$name]=$(sed -n 's/^serving on //p' "${home[$name]}/out" | head -n 1)
  [ -n "${url[$name]}" ] || fail "feed serve ($catalog) printed no 'serving on' line in 30 s"
}

# sql CATALOG NAME STATEMENT -> runs STATEMENT on NAME's catalog, prints the result (unaligned)
sql() {
  if [ "$1" = sqlite ]; then
    sqlite3 -cmd '.timeout 10000' "${home[$2]}/roll.sqlite" "$3"
  else
    psql -X -q -A -t -v ON_ERROR_STOP=1 "${db[$2]}" -c "$3"
  fi
}

# The server's CPU time in ns, per thread: "tid ns" lines.
cpu_snapshot() { local t; for t in /proc/"$1"/task/*; do echo "${t##*/} $(cut -d' ' -f1 "$t/schedstat" 2>/dev/null || echo 0)"; done; }
# cpu_ns BEFORE AFTER -> ns spent between the two snapshots (threads new since BEFORE count whole)
cpu_ns() { awk 'NR == FNR { a[$1] = $2; next } { s += $2 - (($1 in a) ? a[$1] : 0) } END { printf "%.0f\n", s }' "$1" "$2"; }
reset_peak() { echo 5 >/proc/"$1"/clear_refs; }
peak_kb() { awk '$1 == "VmHWM:" { print $2 }' /proc/"$1"/status; }

# The POST body: one comment, the same each time.
cat >"$work/post.lua" <<'EOF'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"username":"bench","comment":"consequat metus sapien ut nunc vestibulum ante ipsum primis in faucibus"}'
EOF

# wrk_run NAME CASE PATH [LUA-SCRIPT] -> appends "req/s p99-ms cpu-µs/req" to $res/CASE.NAME
wrk_run() {
  local name=$1 case=$2 path=$3 out=$work/wrk.txt script=()
  [ $# -lt 4 ] || script=(-s "$4")
  cpu_snapshot "${pid[$name]}" >"$work/cpu0"
  wrk -t 2 -c "$connections" -d "${run_seconds:-$seconds}s" --latency "${script[@]}" "${url[$name]}$path" >"$out" 2>&1 \
    || { cat "$out" >&2; fail "wrk failed against $name"; }
  cpu_snapshot "${pid[$name]}" >"$work/cpu1"
  wrk_summary "$out" "$(label "$name")" "$case" "$(( $(cpu_ns "$work/cpu0" "$work/cpu1") / 1000 ))" >>"$res/$case.$name"
}

# reset CATALOG NAME -> deletes the comments posted since the fill (and fails if there are none)
reset() {
  [ "$(sql "$1" "$2" "SELECT count(*) FROM comment WHERE id > ${last[$2]}")" -gt 0 ] || fail "$1: wrk posted no comment $(label "$2")"
  sql "$1" "$2" "DELETE FROM comment WHERE id > ${last[$2]}" >/dev/null
}

# live_run NAME -> appends "open-ms open-cpu-ms/client cpu-µs/tick ticks/s peak-MB" to $res/live.NAME
live_run() {
  local name=$1 i a b e0 e1 waited=0
  local p=${pid[$name]}
  reset_peak "$p"
  cpu_snapshot "$p" >"$work/cpu0"
  a=$(date +%s%N)
  curls=''
  for ((i = 0; i < clients; i++)); do
    curl -sN -o "$work/sse.$i" "${url[$name]}/comments/live?interval=$interval" &
    curls="$curls $!"
  done
  # Open: every client has its first event.
  while [ "$(grep -l '^event: comment' "$work"/sse.* 2>/dev/null | wc -l)" -lt "$clients" ]; do
    ((waited++ < 1200)) || fail "$(label "$name"): not every live client had an event in 60 s"
    sleep 0.05
  done
  b=$(date +%s%N)
  cpu_snapshot "$p" >"$work/cpu1"
  sleep 0.5
  cpu_snapshot "$p" >"$work/cpu2"
  e0=$(cat "$work"/sse.* | grep -c '^event: comment' || true)
  sleep "$live_seconds"
  cpu_snapshot "$p" >"$work/cpu3"
  e1=$(cat "$work"/sse.* | grep -c '^event: comment' || true)
  kill $curls 2>/dev/null || true
  wait $curls 2>/dev/null || true
  curls=''
  rm -f "$work"/sse.*
  awk -v open=$((b - a)) -v ocpu="$(cpu_ns "$work/cpu0" "$work/cpu1")" -v cpu="$(cpu_ns "$work/cpu2" "$work/cpu3")" \
    -v ticks=$((e1 - e0)) -v s="$live_seconds" -v c="$clients" -v peak="$(peak_kb "$p")" \
    'BEGIN { printf "%.1f %.2f %.1f %.1f %.1f\n", open / 1e6, ocpu / 1e6 / c, (ticks ? cpu / 1000 / ticks : 0), ticks / s, peak / 1024 }' >>"$res/live.$name"
}

col_median() { cut -d' ' -f"$1" "$2" | median; }
ratio() { awk -v f="$(col_median "$1" "$res/$2.full")" -v z="$(col_median "$1" "$res/$2.zero")" 'BEGIN { printf "%.2f", (z ? f / z : 0) }'; }

# rounds_of CATALOG CASE WHAT… -> ROUNDS rounds alternating which server goes first
rounds_of() {
  local catalog=$1 case=$2 i order; shift 2
  for ((i = 1; i <= rounds; i++)); do
    if ((i % 2)); then order=(zero full); else order=(full zero); fi
    for name in "${order[@]}"; do
      "$@" "$name"
      [ "$case" != post ] || reset "$catalog" "$name"
    done
    if [ "$case" = live ]; then
      printf '  round %d: at 0 %7.1f µs/tick (%5.1f ticks/s)   %s %7.1f µs/tick (%5.1f ticks/s)\n' "$i" \
        $(tail -n 1 "$res/live.zero" | cut -d' ' -f3-4) "$(label full)" $(tail -n 1 "$res/live.full" | cut -d' ' -f3-4)
    else
      printf '  round %d: at 0 %8.1f req/s p99 %7.2f ms   %s %8.1f req/s p99 %7.2f ms\n' "$i" \
        $(tail -n 1 "$res/$case.zero" | cut -d' ' -f1-2) "$(label full)" $(tail -n 1 "$res/$case.full" | cut -d' ' -f1-2)
    fi
  done
}
post_run() { wrk_run "$1" post /comments "$work/post.lua"; }
get_run() { wrk_run "$1" get '/comments?limit=20'; }

declare -A last result
echo "bench/comments.sh: feed serve's comments routes at 0 and $comments stored comments; catalogs: $catalogs"
echo "  wrk -t2 -c$connections ${seconds} s x $rounds rounds after a 2 s warm-up, alternating; live: $clients clients at ${interval} s;" \
  "$(nproc) cores shared by the servers, wrk, curl and PostgreSQL"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

for catalog in $catalogs; do
  res=$work/$catalog
  mkdir -p "$res"
  for name in "${names[@]}"; do start "$name" "$catalog"; done

  # Sanity: a post is 201 with the comment, then stored in the catalog this script fills.
  for name in "${names[@]}"; do
    code=$(curl -s -o "$work/posted" -w '%{http_code}' -H 'Content-Type: application/json' \
      -d '{"username":"bench","comment":"sanity"}' "${url[$name]}/comments")
    [ "$code" = 201 ] && [ "$(jq -r .comment "$work/posted")" = sanity ] || fail "$catalog: POST /comments gave $code: $(cat "$work/posted")"
    [ "$(sql "$catalog" "$name" "SELECT count(*) FROM comment WHERE text = 'sanity'")" = 1 ] || fail "$catalog: the posted comment is not in the catalog"
    sql "$catalog" "$name" "DELETE FROM comment" >/dev/null
  done
  a=$(date +%s%N)
  text="': consequat metus sapien ut nunc vestibulum ante ipsum primis in faucibus'"
  if [ "$catalog" = sqlite ]; then
    sql sqlite full "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $comments)
      INSERT INTO comment(username, text, created_at)
      SELECT 'user' || (i % 997), 'comment ' || i || $text, CAST(strftime('%s', 'now') AS REAL) FROM n" >/dev/null
  else
    sql postgres full "INSERT INTO comment(username, text, created_at)
      SELECT 'user' || (i % 997), 'comment ' || i || $text, extract(epoch FROM now()) FROM generate_series(1, $comments) i" >/dev/null
    sql postgres full "ANALYZE comment" >/dev/null
  fi
  b=$(date +%s%N)
  for name in "${names[@]}"; do last[$name]=$(sql "$catalog" "$name" "SELECT coalesce(max(id), 0) FROM comment"); done
  [ "$(sql "$catalog" full "SELECT count(*) FROM comment")" = "$comments" ] || fail "$catalog: the fill did not store $comments comments"
  page=$(curl -sf "${url[full]}/comments?limit=20") || fail "$catalog: GET /comments?limit=20 failed"
  [ "$(jq -r '.comments[0].comment' <<<"$page")" = "comment $comments${text:1:-1}" ] \
    || fail "$catalog: the first page at $comments does not start with the newest comment: $(head -c 300 <<<"$page")"
  if [ "$catalog" = sqlite ]; then what="roll.sqlite (WAL), sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
  else what="PostgreSQL $(sql postgres full 'SHOW server_version' | cut -d' ' -f1), fsync $(sql postgres full 'SHOW fsync')"; fi
  echo "$catalog: $what; $comments rows put in by one INSERT … SELECT in $(awk -v d=$((b - a)) 'BEGIN { printf "%.2f", d / 1e9 }') s"

  echo "POST /comments (each run's rows deleted after it)"
  for name in "${names[@]}"; do run_seconds=2 post_run "$name"; reset "$catalog" "$name"; done
  rm -f "$res"/post.*
  rounds_of "$catalog" post post_run
  [ "$catalog" = sqlite ] || for name in "${names[@]}"; do sql postgres "$name" "VACUUM ANALYZE comment" >/dev/null; done
  echo "GET /comments?limit=20"
  for name in "${names[@]}"; do run_seconds=2 get_run "$name"; done
  rm -f "$res"/get.*
  rounds_of "$catalog" get get_run
  echo "GET /comments/live: $clients clients, no posts, ${live_seconds} s"
  rounds_of "$catalog" live live_run

  echo "$catalog medians:"
  for case in post get; do
    for name in "${names[@]}"; do
      printf '  %-4s %-7s %8.1f req/s  p99 %7.2f ms  CPU %6.0f µs/req\n' "$case" "$(label "$name")" \
        "$(col_median 1 "$res/$case.$name")" "$(col_median 2 "$res/$case.$name")" "$(col_median 3 "$res/$case.$name")"
    done
  done
  for name in "${names[@]}"; do
    printf '  live %-7s %6.1f µs/tick (%5.1f ticks/s)  open: %7.1f ms, CPU %6.2f ms/client  peak RSS %6.1f MB\n' "$(label "$name")" \
      "$(col_median 3 "$res/live.$name")" "$(col_median 4 "$res/live.$name")" "$(col_median 1 "$res/live.$name")" \
      "$(col_median 2 "$res/live.$name")" "$(col_median 5 "$res/live.$name")"
  done
  result[$catalog.post]=$(ratio 1 post)
  result[$catalog.tick]=$(ratio 3 live)
  echo "ratio at $comments_k / at 0 $catalog POST req/s ${result[$catalog.post]}"
  echo "ratio at $comments_k / at 0 $catalog GET first page req/s $(ratio 1 get)"
  echo "ratio at $comments_k / at 0 $catalog live CPU per tick ${result[$catalog.tick]}"
  echo "ratio at $comments_k / at 0 $catalog live open CPU per client $(ratio 2 live)"
  stop_servers
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

goal() { if awk "BEGIN { exit !($2) }"; then echo "goal $1: met"; else echo "goal $1: NOT met"; fi; }
for catalog in $catalogs; do
  goal "$catalog POST /comments at $comments_k >= 0.8 x at 0 (${result[$catalog.post]})" "${result[$catalog.post]} >= 0.8"
  goal "$catalog live CPU per tick at $comments_k <= 1.2 x at 0 (${result[$catalog.tick]})" "${result[$catalog.tick]} <= 1.2"
done
