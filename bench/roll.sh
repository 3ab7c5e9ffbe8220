#!/usr/bin/env bash
# bench/roll.sh [RUNS] — `feed roll --json` over a 100,000-row roll, against sqlite3's own CLI.
#
# Seeds a roll in a temporary FEED_HOME with ROWS synthetic rows (default 100000) inserted
# through the library in one transaction (`feed roll _seed`, hidden from help), then times,
# alternating with the peer and including process start:
#   first page  `feed roll --json`            vs `sqlite3 -json roll.sqlite 'SELECT … LIMIT 50'`
#   full list   `feed roll --json --limit 0`  vs the same query without LIMIT
# RUNS (default 15) runs of the first page (and of `feed --version`, the process-start floor),
# 5 of the full listing; wall time with a nanosecond
# clock, peak RSS with /usr/bin/time -f '%M'. Prints medians and `ratio` lines; the goal is a
# first page under 50 ms.
#
# Environment: ROWS (default 100000), FEED (default .build/release/feed).
set -euo pipefail

runs=${1:-15}
rows=${ROWS:-100000}
source "$(dirname "$0")/lib.bash"
bench_setup sqlite3 /usr/bin/time

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FEED_HOME=$work/home
db=$FEED_HOME/roll.sqlite
columns="id, file_name, original_path, created_at, duration, width, height, fps, video_codec, has_audio, bytes, sha256, sources, stack_options, title"
query="SELECT $columns FROM recording ORDER BY created_at DESC, id DESC"

t0=$(date +%s%N)
"$feed" roll _seed "$rows" >/dev/null
t1=$(date +%s%N)
echo "bench/roll.sh: seeded $rows rows in one transaction in $(( (t1 - t0) / 1000000 )) ms"

# ms RUN… : wall milliseconds (3 decimals) of one run, stdout to /dev/null.
ms() {
  local a b
  a=$(date +%s%N); "$@" >/dev/null; b=$(date +%s%N)
  awk -v d=$((b - a)) 'BEGIN { printf "%.3f", d / 1e6 }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }

# Sanity: both tools list the same first page.
[ "$("$feed" roll --json | grep -o '"id":[0-9]*' | head -3)" = "$(sqlite3 -json "$db" "$query LIMIT 3" | grep -o '"id":[0-9]*')" ] \
  || { echo "bench/roll.sh: feed and sqlite3 disagree on the first page" >&2; exit 1; }

"$feed" roll --json >/dev/null   # warm the page cache once
feed_first=() peer_first=() start=()
for _ in $(seq "$runs"); do
  feed_first+=("$(ms "$feed" roll --json)")
  peer_first+=("$(ms sqlite3 -json "$db" "$query LIMIT 50")")
  start+=("$(ms "$feed" --version)")
done
feed_all=() peer_all=()
for _ in $(seq 5); do
  feed_all+=("$(ms "$feed" roll --json --limit 0)")
  peer_all+=("$(ms sqlite3 -json "$db" "$query")")
done

ff=$(median "${feed_first[@]}") pf=$(median "${peer_first[@]}")
fa=$(median "${feed_all[@]}") pa=$(median "${peer_all[@]}")
echo "first page (50 rows, incl. process start): feed $ff ms   sqlite3 $pf ms   (median of $runs)"
echo "process start alone (feed --version):       feed $(median "${start[@]}") ms   (the floor: process start; FFmpeg loads only when media is touched)"
echo "full listing ($rows rows):                 feed $fa ms   sqlite3 $pa ms   (median of 5)"
echo "peak RSS: feed first page $(rss "$feed" roll --json) kB, full $(rss "$feed" roll --json --limit 0) kB; sqlite3 full $(rss sqlite3 -json "$db" "$query") kB"
awk -v f="$ff" -v p="$pf" 'BEGIN { printf "ratio feed/sqlite3 first page: %.2f\n", f / p }'
awk -v f="$fa" -v p="$pa" 'BEGIN { printf "ratio feed/sqlite3 full listing: %.2f\n", f / p }'
awk -v f="$ff" 'BEGIN { if (f < 50) print "goal first page < 50 ms: met"; else print "goal first page < 50 ms: NOT met" }'
