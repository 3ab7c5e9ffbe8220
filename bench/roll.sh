#!/usr/bin/env bash
# bench/roll.sh [RUNS] — the roll: listing a 100,000-row roll against sqlite3's own CLI, and
# `feed roll add` of a 1.5 GB video against cp + sync + openssl.
#
# Listing. Seeds a roll in a temporary FEED_HOME with ROWS synthetic rows (default 100000) inserted
# through the library in one transaction (`feed roll _seed`, hidden from help), then times,
# alternating with the peer and including process start:
#   first page  `feed roll --json`            vs `sqlite3 -json roll.sqlite 'SELECT … LIMIT 50'`
#   full list   `feed roll --json --limit 0`  vs the same query without LIMIT
# RUNS (default 15) runs of the first page (and of `feed --version`, the process-start floor),
# 5 of the full listing; wall time with a nanosecond
# clock, peak RSS with /usr/bin/time -f '%M'. Prints medians and `ratio` lines; the goal is a
# first page under 50 ms.
#
# Add. Makes an ADD_MB MB (default 1500) valid video: a 2 s 1080x1920 h264 clip of noise (so it
# is ~400 Mbit/s), repeated with `ffmpeg -stream_loop -1 -c copy -fs`. Then, ADD_RUNS times
# (default 5) after one untimed run of each, alternating and from the same state (the
# destinations removed and `sync`ed first):
#   `feed roll add BIG` into an empty roll (probe; the kernel copies 4 MiB chunks with
#   copy_file_range while a second thread reads each copied chunk back from the page cache and
#   hashes it; written back as it goes; fsync; insert the row)
#   vs `cp BIG DEST && sync && openssl dgst -sha256 BIG`
# Both read BIG from the page cache (it was just written and 24 GB of RAM keep it; fincore shows
# how much of it is resident at the end) and both wait until their copy is on disk (fsync; sync).
# Hashing alone: `feed roll verify` over that roll (it reads the
# stored copy, resident after the add, and hashes it; process start included, so a slight
# underestimate) as MB/s, beside `openssl dgst -sha256` of the same file. FEED_BASELINE=BINARY
# times that binary's `roll verify` too (another build of feed, e.g. an older commit's).
# The goal is an add within the peer's time (ratio ≤ 1.0). ADD_MB=0 skips the add; ROWS=10 with
# `bench/roll.sh 1` makes the listing part quick when only the add is of interest.
#
# Environment: ROWS (default 100000), FEED (default .build/release/feed), ADD_MB, ADD_RUNS,
# FEED_BASELINE, FFMPEG (default ffmpeg).
set -euo pipefail

runs=${1:-15}
rows=${ROWS:-100000}
add_mb=${ADD_MB:-1500}
add_runs=${ADD_RUNS:-5}
ffmpeg=${FFMPEG:-ffmpeg}
source "$(dirname "$0")/lib.bash"
bench_setup sqlite3 /usr/bin/time "$ffmpeg" openssl fincore

# Everything made here, the 1.5 GB files included, lives in $work and goes on any exit.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
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

[ "$add_mb" -gt 0 ] || exit 0

# Add: a valid video of ADD_MB MB, made in seconds by repeating a short high-bitrate clip.
big=$work/big.mp4
"$ffmpeg" -v error -y -f lavfi -i "testsrc2=size=1080x1920:rate=30,noise=alls=30:allf=t+u" -t 2 \
  -c:v libx264 -preset ultrafast -crf 8 -pix_fmt yuv420p "$work/clip.mp4"
"$ffmpeg" -v error -y -stream_loop -1 -i "$work/clip.mp4" -c copy -fs $((add_mb * 1000000)) "$big"
rm "$work/clip.mp4"
bytes=$(stat -c %s "$big")
export FEED_HOME=$work/add
peer_copy=$work/peer-copy.mp4
# The same start for both: neither destination exists and nothing is waiting to be written;
# feed's roll exists, empty (made by listing it), so the add does not time creating it.
reset() { rm -rf "$FEED_HOME" "$peer_copy"; "$feed" roll --json >/dev/null; sync; }
resident() { fincore --bytes --noheadings --output RES "$1" | awk -v size="$(stat -c %s "$1")" '{ printf "%.0f%%", 100 * $1 / size }'; }
cat "$big" >/dev/null
echo "bench/roll.sh: $big, $bytes bytes, $(resident "$big") in the page cache; load average $(cut -d' ' -f1-3 /proc/loadavg)"

# One untimed run of each first: the first writes after making BIG run slow (2-3x) whichever
# tool comes first.
reset; cp "$big" "$peer_copy" && sync
reset; "$feed" roll add "$big" >/dev/null
feed_add=() peer_add=()
for _ in $(seq "$add_runs"); do
  reset; peer_add+=("$(ms sh -c 'cp "$1" "$2" && sync && openssl dgst -sha256 "$1"' sh "$big" "$peer_copy")")
  reset; feed_add+=("$(ms "$feed" roll add "$big")")
done
rm -f "$peer_copy"   # the last feed run's roll stays, for the checks and verify below

# Sanity: feed stored the digest openssl computes, and the stored copy is the one verify hashes.
sha=$("$feed" roll --json | grep -o '"sha256":"[0-9a-f]*"' | cut -d'"' -f4)
[ "$sha" = "$(openssl dgst -sha256 -r "$big" | cut -d' ' -f1)" ] \
  || { echo "bench/roll.sh: feed's SHA-256 ($sha) is not openssl's" >&2; exit 1; }
stored=$(find "$FEED_HOME/recordings" -type f -name '*.mp4')
"$feed" roll verify >/dev/null 2>&1 || { echo "bench/roll.sh: feed roll verify found problems" >&2; exit 1; }

feed_hash=() peer_hash=() base_hash=() probe=()
for _ in 1 2 3; do
  probe+=("$(ms "$feed" probe "$big")")
  feed_hash+=("$(ms "$feed" roll verify 2>/dev/null)")
  peer_hash+=("$(ms openssl dgst -sha256 "$stored")")
  [ -z "${FEED_BASELINE:-}" ] || base_hash+=("$(ms "$FEED_BASELINE" roll verify 2>/dev/null)")
done

fa=$(median "${feed_add[@]}") pa=$(median "${peer_add[@]}")
fh=$(median "${feed_hash[@]}") ph=$(median "${peer_hash[@]}")
mbps() { awk -v b="$bytes" -v ms="$1" 'BEGIN { printf "%.0f MB/s", b / 1e6 / (ms / 1e3) }'; }
gb=$(awk -v b="$bytes" 'BEGIN { printf "%.2f GB", b / 1e9 }')
echo "roll add $gb (source in page cache): feed $fa ms   cp+sync+openssl $pa ms   (median of $add_runs, alternating)"
echo "  runs: feed ${feed_add[*]} ms; peer ${peer_add[*]} ms"
echo "  of feed's: probing BIG first (feed probe alone) $(median "${probe[@]}") ms"
echo "hashing $gb from page cache: feed roll verify $fh ms = $(mbps "$fh") (incl. process start)   openssl dgst -sha256 $ph ms = $(mbps "$ph")   (median of 3)"
[ -z "${FEED_BASELINE:-}" ] || { bh=$(median "${base_hash[@]}"); echo "hashing, baseline $FEED_BASELINE roll verify: $bh ms = $(mbps "$bh")"; }
echo "page cache at the end: source $(resident "$big"), stored copy $(resident "$stored") resident"
awk -v f="$fa" -v p="$pa" 'BEGIN { printf "ratio feed/cp+sync+openssl roll add: %.2f\n", f / p }'
awk -v f="$fh" -v p="$ph" 'BEGIN { printf "ratio feed/openssl hashing: %.2f\n", f / p }'
awk -v f="$fa" -v p="$pa" 'BEGIN { if (f <= p) print "goal roll add ≤ 1.0 × peer: met"; else print "goal roll add ≤ 1.0 × peer: NOT met" }'
