#!/usr/bin/env bash
# bench/recs.sh — For You (issue #57): how much a simulated population watches under it against
# three baselines (quality), then how fast it trains, serves and takes events on a large
# SQLite catalog (speed). PARTS (default "quality speed") picks the parts.
#
# quality   A population of bench/recs-sim.py's making (its header tells it all): SIM_USERS (800)
#           users with tastes over SIM_TOPICS (12) topics and 6 favourite creators each,
#           SIM_VIDEOS (3,000) videos by SIM_CREATORS (150) creators, each with a topic (its one
#           hashtag), a creator and a quality; watch time drawn from taste x quality with noise,
#           skips (left within 2 s) and likes following it, fixed per (user, video) pair so that
#           every policy meets the same outcomes. `feed serve` makes and migrates the catalog
#           (started once with --port 0, then stopped); the rows go in directly (python's
#           sqlite3, one transaction: a recording for every post, posts created over the 30 days
#           before the first round, their hashtags in post_tag), and the warm-up (SIM_WARMUP
#           (2) random pages per user in the day before the first round) with `feed events
#           import`. Then an open server (--recs-train-interval 0 --jobs 0) takes SIM_ROUNDS (10)
#           rounds, each one simulated hour, the simulated clock ending at the real now (round r
#           is the hour that ends R - r hours before the start): every user asks
#           GET /feed/for-you?limit=SIM_PAGE (10) as X-Feed-User and POSTs what they did with
#           the page (impression, watch, complete, skip, like, each `at` its simulated time), 8
#           threads at once; `feed recs train` between rounds, and a probe page until the
#           server serves the new version. In round R // 2 + 1 `feed publish` makes a new, good
#           video (quality 0.92) of a median creator a post. The same population, seed and
#           warm-up, on their own event logs in python (no server): most_liked (the most liked
#           of the last 7 days), loops (Loops' published formula, 30 % random discovery; creator
#           trust and the affinities as bench/recs-sim.py writes), als (implicit 0.7.3's ALS on
#           the same events weighted by watch ratio, retrained every round, top-N of unseen),
#           and for scale random and oracle (the best the user could be shown). Every policy
#           leaves out what the user was shown before. Measured: the mean simulated watch time
#           per page over the last SIM_MEASURE (3) rounds, and the new video's impressions in
#           its first round (hour) under For You.
#
# speed     SPEED_POSTS (100,000) posts, SPEED_USERS (10,000) users and SPEED_EVENTS
#           (10,000,000) events, the issue's size, put directly in a fresh catalog by
#           bench/recs-data.py (executemany in one transaction, no rollback journal to speak of
#           for the load; its header tells the rows: about 45 s on the 2-core VM), then:
#             train   `feed recs train --json` under /usr/bin/time -v: wall time and peak RSS
#             page    GET /feed/for-you?limit=20, wrk -t2 -cCONNECTIONS (8) --latency for
#                     SECONDS_PER_RUN (10), a Lua script rotating X-Feed-User over the users and
#                     printing the 95th percentile
#             events  POST /events, batches of 100 (impressions and watches of posts spread over
#                     the catalog, one user a request, rotating), the same wrk, a Lua script making
#                     every id unique; events/s is what the catalog's event table grew by over the
#                     run's seconds (and req/s x 100 beside it)
#           each after a 2 s warm-up run (its events stay in the table).
#
# The machine's cores are shared by the server, wrk, python and `feed recs train`; the load
# average is printed before, between the parts and after. Prints per round the mean watch time
# per page of each policy (s), then `ratio for_you_vs_BASELINE X` lines and the goals:
#   quality   For You >= 1.3 x most_liked, >= 1.15 x loops, >= 1.0 x als; the new video >= 100
#             impressions in its first round under For You
#   speed     train <= 120 s and peak RSS <= 2 GB (at the size run: the issue's is 10M events);
#             page p95 <= 30 ms; POST /events >= 20,000 events/s
# Missed goals do not fail the script; setup does.
#
# Environment: FEED (default .build/release/feed, built when missing or older than the sources),
# PARTS, SIM_SEED (1), SIM_USERS, SIM_VIDEOS, SIM_TOPICS, SIM_CREATORS, SIM_ROUNDS, SIM_PAGE,
# SIM_WARMUP, SIM_MEASURE, SIM_THREADS (8), RECS_EXPLORATION (the servers' --recs-exploration,
# unset: theirs, 0.2), SPEED_POSTS, SPEED_USERS, SPEED_EVENTS,
# SECONDS_PER_RUN, CONNECTIONS, RECS_VENV (the venv with numpy, scipy and implicit 0.7.3: made
# when missing, default .build/recs-venv). Missing tools are installed with apt-get when run as
# root; the venv with pip from PyPI.
set -euo pipefail

parts=${PARTS:-quality speed}
seconds=${SECONDS_PER_RUN:-10}
connections=${CONNECTIONS:-8}
here=$(cd "$(dirname "$0")" && pwd)
for part in $parts; do
  [[ $part =~ ^(quality|speed)$ ]] || { echo "bench/recs.sh: PARTS holds quality and speed, not '$part'" >&2; exit 64; }
done

# What is missing, installed (Debian's packages) when this is root; else bench_setup names it.
missing=()
for pair in wrk:wrk sqlite3:sqlite3 curl:curl jq:jq python3:python3 /usr/bin/time:time; do
  command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
done
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "bench/recs.sh: installing ${missing[*]}…" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2 \
    || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2; }
fi
# shellcheck source=SCRIPTDIR/lib.bash
source "$here/lib.bash"
bench_setup wrk curl jq sqlite3 python3 /usr/bin/time

# The python with numpy, scipy and implicit 0.7.3 (ALS), in a venv of its own.
venv=${RECS_VENV:-$root/.build/recs-venv}
if ! "$venv/bin/python" -c 'import implicit, numpy, scipy; assert implicit.__version__ == "0.7.3"' 2>/dev/null; then
  echo "bench/recs.sh: making $venv (numpy, scipy, implicit==0.7.3)…" >&2
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q implicit==0.7.3 >&2
fi
py=$venv/bin/python
# implicit's ALS on its own threads (2), not OpenBLAS's too.
export OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

fail() { echo "bench/recs.sh: $*" >&2; exit 1; }
work=$(mktemp -d)
declare -A pid url home
stop_server() {
  local name=$1
  [ -n "${pid[$name]:-}" ] || return 0
  kill "${pid[$name]}" 2>/dev/null || true
  wait "${pid[$name]}" 2>/dev/null || true
  unset "pid[$name]"
}
cleanup() {
  local name
  for name in "${!pid[@]}"; do stop_server "$name"; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_server NAME -> pid[NAME], url[NAME]: an open feed serve on NAME's catalog, training only
# when told (`feed recs train`), running no jobs (the posts' media do not exist).
serve_args=(--port 0 --quiet --recs-train-interval 0 --jobs 0)
[ -z "${RECS_EXPLORATION:-}" ] || serve_args+=(--recs-exploration "$RECS_EXPLORATION")
start_server() {
  local name=$1
  FEED_HOME=${home[$name]} "$feed" serve "${serve_args[@]}" >"${home[$name]}/out" 2>"${home[$name]}/err" &
  pid[$name]=$!
  url[$name]=$(announced "feed serve ($name)" "${pid[$name]}" "${home[$name]}/out" "${home[$name]}/err" 'serving on ' 60)
}

# make_catalog NAME -> home[NAME]: a catalog feed serve made and migrated (started once, stopped).
make_catalog() {
  home[$1]=$work/home.$1
  mkdir -p "${home[$1]}"
  start_server "$1"
  stop_server "$1"
}

sql() { sqlite3 -cmd '.timeout 10000' "${home[$1]}/roll.sqlite" "$2"; }
elapsed() { awk -v d=$(($2 - $1)) 'BEGIN { printf "%.1f", d / 1e9 }'; }
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
goal() { if awk "BEGIN { exit !($2) }"; then echo "goal $1: met"; else echo "goal $1: NOT met"; fi; }
goals=()
declare -A result

echo "bench/recs.sh: For You, parts: $parts; $(nproc) cores ($cpu_model), shared by the server, python, wrk and the trainer"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
script_start=$(date +%s%N)

if [[ " $parts " == *" quality "* ]]; then
  world=(--seed "${SIM_SEED:-1}" --users "${SIM_USERS:-800}" --videos "${SIM_VIDEOS:-3000}" --topics "${SIM_TOPICS:-12}"
         --creators "${SIM_CREATORS:-150}" --rounds "${SIM_ROUNDS:-10}" --page "${SIM_PAGE:-10}" --warmup-pages "${SIM_WARMUP:-2}"
         --measure "${SIM_MEASURE:-3}" --end "$(date +%s)")
  echo "quality: ${world[*]}; feed serve ${serve_args[*]}"
  make_catalog sim
  a=$(date +%s%N)
  "$py" "$here/recs-sim.py" setup "${home[sim]}/roll.sqlite" "$work/warmup.ndjson" "${world[@]}" | sed 's/^/  /'
  imported=$(FEED_HOME=${home[sim]} "$feed" events import "$work/warmup.ndjson" --json)
  b=$(date +%s%N)
  [ "$(jq -r .duplicates <<<"$imported")" = 0 ] || fail "feed events import: $imported"
  echo "  catalog: $(sql sim "SELECT (SELECT count(*) FROM post) || ' posts, ' || (SELECT count(*) FROM recording) || ' recordings, ' || (SELECT count(*) FROM app_user) || ' users, ' || (SELECT count(*) FROM event) || ' events'") (feed events import: $imported); made in $(elapsed "$a" "$b") s"
  start_server sim
  "$py" "$here/recs-sim.py" run "${world[@]}" --url "${url[sim]}" --feed "$feed" --home "${home[sim]}" --threads "${SIM_THREADS:-8}" \
    | tee "$work/sim.txt" | grep -v '^result ' | sed 's/^/  /'
  stop_server sim
  res() { awk -v k="$1" -v p="${2:-}" '$1 == "result" && $2 == k && (p == "" || $3 == p) { print (p == "" ? $3 : $4) }' "$work/sim.txt"; }
  for p in for_you most_liked loops als random oracle; do result[watch.$p]=$(res watch_s "$p"); done
  for p in most_liked loops als; do
    result[ratio.$p]=$(awk -v f="${result[watch.for_you]}" -v b="${result[watch.$p]}" 'BEGIN { printf "%.2f", (b ? f / b : 0) }')
    echo "ratio for_you_vs_$p ${result[ratio.$p]}"
  done
  echo "ratio for_you_vs_oracle $(awk -v f="${result[watch.for_you]}" -v b="${result[watch.oracle]}" 'BEGIN { printf "%.2f", (b ? f / b : 0) }')"
  result[new]=$(res new_video_impressions for_you)
  echo "new video (post $(res new_video_post)): $(res new_video_impressions for_you) impressions in round $(res middle_round) under For You ($(res new_video_total for_you) by the last round); most_liked $(res new_video_impressions most_liked), loops $(res new_video_impressions loops), als $(res new_video_impressions als), random $(res new_video_impressions random), oracle $(res new_video_impressions oracle)"
  echo "  skipped share of the measured pages: $(for p in for_you most_liked loops als random oracle; do printf '%s %s  ' "$p" "$(res skip_share "$p")"; done)"
  echo "  For You's slots of the measured rounds by reason (slots, mean watch s, share skipped): $(awk '$1 == "result" && $2 == "reason" { printf "%s%s %d %.1f s %.2f", (n++ ? "; " : ""), $3, $4, $5, $6 }' "$work/sim.txt")"
  echo "  For You's reasons in the last round: $(res reasons_last_round); training took at most $(res train_seconds_max) s, ALS $(res als_seconds_mean) s a round; the rounds $(res seconds) s"
  echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  goals+=("quality: For You >= 1.3 x most_liked (${result[ratio.most_liked]})|${result[ratio.most_liked]} >= 1.3"
          "quality: For You >= 1.15 x loops (${result[ratio.loops]})|${result[ratio.loops]} >= 1.15"
          "quality: For You >= 1.0 x als (${result[ratio.als]})|${result[ratio.als]} >= 1.0"
          "quality: new video >= 100 impressions in its first hour (${result[new]})|${result[new]} >= 100")
fi

if [[ " $parts " == *" speed "* ]]; then
  posts=${SPEED_POSTS:-100000} users=${SPEED_USERS:-10000} events=${SPEED_EVENTS:-10000000}
  echo "speed: $posts posts, $users users, $events events (the issue's size: 100,000 posts, 10,000 users, 10,000,000 events)"
  make_catalog speed
  a=$(date +%s%N)
  "$py" "$here/recs-data.py" "${home[speed]}/roll.sqlite" --users "$users" --posts "$posts" --events "$events" --end "$(date +%s)" | sed 's/^/  /'
  b=$(date +%s%N)
  echo "  loaded in $(elapsed "$a" "$b") s; roll.sqlite $(du -m "${home[speed]}/roll.sqlite" | cut -f1) MB; SQLite $(sqlite3 --version | cut -d' ' -f1) (the CLI; python's $("$py" -c 'import sqlite3; print(sqlite3.sqlite_version)'))"
  FEED_HOME=${home[speed]} /usr/bin/time -v "$feed" recs train --json >"$work/train.json" 2>"$work/train.time" \
    || { cat "$work/train.time" >&2; fail "feed recs train failed"; }
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$work/train.time")
  rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/train.time")
  cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.1f", u + s }' "$work/train.time")
  result[train]=$wall
  result[rss]=$(awk -v k="$rss_kb" 'BEGIN { printf "%.2f", k * 1024 / 1e9 }')
  echo "  train: $wall s wall, $cpu s CPU, peak RSS ${result[rss]} GB; $(jq -c '{version, events, viewers, videos, seconds, bytes}' "$work/train.json")"
  echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  start_server speed
  # A page, checked: 20 videos, none twice.
  page=$(curl -sf -H 'X-Feed-User: u000001' "${url[speed]}/feed/for-you?limit=20") || fail "GET /feed/for-you failed"
  [ "$(jq '.videos | length' <<<"$page")" = 20 ] && [ "$(jq '[.videos[].id] | unique | length' <<<"$page")" = 20 ] \
    || fail "the page is not 20 videos: $(head -c 300 <<<"$page")"
  echo "  a page for u000001: model $(jq .model_version <<<"$page"), reasons $(jq -r '[.videos[].reason] | group_by(.) | map("\(.[0]) \(length)") | join(", ")' <<<"$page")"
  lua_common='
counter = 0
function setup(thread) thread:set("tid", counter); counter = counter + 1 end
n = 0
function user() n = n + 1; return string.format("u%06d", (tid * 7919 + n * 13) % '"$users"') end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("p95_us %d\np99_us %d\nbad %d\n", latency:percentile(95), latency:percentile(99),
    e.status + e.connect + e.read + e.write + e.timeout))
end'
  printf '%s\nfunction request() return wrk.format("GET", "/feed/for-you?limit=20", { ["X-Feed-User"] = user() }) end\n' "$lua_common" >"$work/get.lua"
  # post.lua RUN: batches of 100, ids unique in the run (RUN tells the runs apart).
  post_lua() {
    cat <<EOF
$lua_common
at = "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
function request()
  local u = user()
  local parts = {}
  for k = 1, 100 do
    local v = 1000000000001 + ((n * 100 + k) * 7919 + tid * 104729) % $posts
    if k % 2 == 1 then
      parts[k] = string.format('{"id":"$1-%d-%d-%d","type":"impression","video":%d,"at":"%s"}', tid, n, k, v, at)
    else
      parts[k] = string.format('{"id":"$1-%d-%d-%d","type":"watch","video":%d,"at":"%s","watched_ms":%d,"duration_ms":15000}', tid, n, k, v, at, (n * k) % 15000)
    end
  end
  return wrk.format("POST", "/events", { ["X-Feed-User"] = u, ["Content-Type"] = "application/json" }, "[" .. table.concat(parts, ",") .. "]")
end
EOF
  }
  # wrk_run LUA SECONDS -> "req/s p95-ms p99-ms requests" (stdout)
  wrk_run() {
    local out=$work/wrk.txt
    wrk -t 2 -c "$connections" -d "${2}s" --latency -s "$1" "${url[speed]}" >"$out" 2>&1 || { cat "$out" >&2; fail "wrk failed"; }
    awk -v what="$1" '
      / requests in / { n = $1 }
      /Requests\/sec:/ { rps = $2 }
      $1 == "p95_us" { p95 = $2 / 1000 } $1 == "p99_us" { p99 = $2 / 1000 } $1 == "bad" { bad = $2 }
      /Non-2xx or 3xx responses:/ { non2xx = $NF }
      END {
        if (bad || non2xx) printf "  warning: %s: %d errors, %d answers not 2xx/3xx\n", what, bad, non2xx > "/dev/stderr"
        printf "%s %.3f %.3f %d\n", rps, p95, p99, n
      }' "$out"
  }
  wrk_run "$work/get.lua" 2 >/dev/null
  wrk_run "$work/get.lua" "$seconds" >"$work/get.res"
  read -r rps p95 p99 _ <"$work/get.res"
  result[p95]=$p95
  printf '  GET /feed/for-you?limit=20: %.1f req/s, p95 %.2f ms, p99 %.2f ms\n' "$rps" "$p95" "$p99"
  post_lua warm >"$work/post-warm.lua"
  post_lua run >"$work/post-run.lua"
  wrk_run "$work/post-warm.lua" 2 >/dev/null
  before=$(sql speed "SELECT count(*) FROM event")
  wrk_run "$work/post-run.lua" "$seconds" >"$work/post.res"
  read -r rps p95 p99 n <"$work/post.res"
  after=$(sql speed "SELECT count(*) FROM event")
  result[eps]=$(awk -v d=$((after - before)) -v s="$seconds" 'BEGIN { printf "%.0f", d / s }')
  printf '  POST /events (100 a batch): %.1f req/s (x 100 = %.0f events/s), p95 %.2f ms, p99 %.2f ms; the table grew by %d events: %d events/s\n' \
    "$rps" "$(awk -v r="$rps" 'BEGIN { print r * 100 }')" "$p95" "$p99" $((after - before)) "${result[eps]}"
  # wrk counts the answers it read; the requests still in flight when it stops are stored too.
  [ $((after - before)) -ge $((n * 100)) ] || echo "  warning: $n requests of 100 events, but the table grew by $((after - before))" >&2
  stop_server speed
  echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  goals+=("speed: train <= 120 s at $events events (${result[train]} s)|${result[train]} <= 120"
          "speed: train peak RSS <= 2 GB at $events events (${result[rss]} GB)|${result[rss]} <= 2"
          "speed: GET /feed/for-you?limit=20 p95 <= 30 ms (${result[p95]})|${result[p95]} <= 30"
          "speed: POST /events >= 20,000 events/s (${result[eps]})|${result[eps]} >= 20000")
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); the script took $(elapsed "$script_start" "$(date +%s%N)") s"
for g in "${goals[@]}"; do goal "${g%%|*}" "${g#*|}"; done
