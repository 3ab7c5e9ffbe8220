#!/usr/bin/env bash
# bench/play.sh — the `feed play` window: memory over long swipes, time to first frame, draw speed.
#
# Makes 30 distinct 2 s 360x640 30 fps clips (testsrc2 at different hues) with Debian's ffmpeg
# and a 4 s 1080x1920 one, cached in bench/out/play/. The 300-clip feed plays each of the 30
# clips ten times over (separate file copies, so every open is a real open). Then:
#   1. headless swipes through 30 and 300 clips: `next` to the end (every move lands on a
#      prepared neighbour), then jumps `to:N` far away (every jump opens cold). Peak RSS from
#      /usr/bin/time; it must not grow with the number of clips (ratio 300/30 near 1).
#   2. median and p99 first_frame_ms of prepared against cold moves (300-clip run), and the
#      ratio cold/prepared. Goal: prepared under 2 ms.
#   3. `feed play --headless --measure-render 300` on the 1080x1920 clip into a 200x60
#      terminal: decode (1 thread) + scale + half-block draw, frames per second on one core
#      (taskset -c 0). Goal: at least 60.
#   4. Remote clips: the 30 clips served over loopback HTTP (the tests' range_server.py), first
#      frame of cold moves (`to:` jumps whose neighbours never overlap) in four ways, alternating
#      over 3 rounds: the same clips as local files; through the clip cache, empty ("cold");
#      streamed by FFmpeg's http protocol (`--no-cache`, what ffplay does with a URL); through
#      the cache again, filled ("warm"). Medians, and the ratios warm/local (goal: at most 1.2),
#      cold/direct and direct/warm.
#
# Environment: FEED (default .build/release/feed, built when stale), FFMPEG (default ffmpeg).
set -euo pipefail

source "$(dirname "$0")/lib.bash"
ffmpeg=${FFMPEG:-ffmpeg}
bench_setup "$ffmpeg" jq /usr/bin/time taskset
out=$root/bench/out/play
mkdir -p "$out/clips"

# Each made file is written beside its name and renamed, so an interrupted run leaves no half
# file that the next run would take as made.
for i in $(seq 0 29); do
  file=$out/clips/c$i.mp4
  [ -s "$file" ] || { "$ffmpeg" -v error -y -f lavfi -i "testsrc2=size=360x640:rate=30" -t 2 \
    -vf "hue=h=$((i * 12))" -c:v libx264 -preset veryfast -pix_fmt yuv420p "$file.tmp.mp4" && mv "$file.tmp.mp4" "$file"; }
done
for i in $(seq 30 299); do
  [ -s "$out/clips/c$i.mp4" ] || { cp "$out/clips/c$((i % 30)).mp4" "$out/clips/c$i.tmp" && mv "$out/clips/c$i.tmp" "$out/clips/c$i.mp4"; }
done
big=$out/big-1080x1920.mp4
[ -s "$big" ] || { "$ffmpeg" -v error -y -f lavfi -i "testsrc2=size=1080x1920:rate=30" -t 4 \
  -c:v libx264 -preset veryfast -pix_fmt yuv420p "$big.tmp.mp4" && mv "$big.tmp.mp4" "$big"; }

feedfile() { # feedfile COUNT -> path of a LIVEr feed of the first COUNT clips as file:// URLs
  local file=$out/feed$1.json
  seq 0 $(($1 - 1)) | jq -R -s --arg dir "$out/clips" \
    '{videos: [split("\n")[] | select(length > 0) | {id: (tonumber + 1000), username: "u\(.)", video: "file://\($dir)/c\(.).mp4"}]}' >"$file"
  echo "$file"
}
script() { # script COUNT -> next x (COUNT-1), then 20 far jumps
  local count=$1 steps=() i
  for ((i = 1; i < count; i++)); do steps+=(next); done
  for ((i = 0; i < 20; i++)); do steps+=("to:$(( (i * 7919 + count / 2) % count ))"); done
  (IFS=,; echo "${steps[*]}")
}
swipe() { # swipe COUNT -> "peak-RSS-KB" ; events in $out/events$COUNT.ndjson
  local file stats=$out/time.txt
  file=$(feedfile "$1")
  /usr/bin/time -o "$stats" -f '%M' "$feed" play --headless --json --feed "$file" --script "$(script "$1")" \
    >"$out/events$1.ndjson" 2>"$out/stderr.txt" || { cat "$out/stderr.txt" >&2; exit 70; }
  tail -n 1 "$stats"
}
stats() { # stats true|false FILE -> "count median p99"
  jq -r --argjson p "$1" 'select(.event == "first_frame" and .prepared == $p) | .first_frame_ms' "$2" | sort -g \
    | awk '{ a[NR] = $1 } END { if (NR == 0) { print 0, 0, 0; exit }
             m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
             i = int(NR * 0.99 + 0.999); if (i > NR) i = NR; print NR, m, a[i] }'
}

echo "bench/play.sh: $feed ($(nproc) cores), load average $(cut -d' ' -f1-3 /proc/loadavg)"
rss30=$(swipe 30)
rss300=$(swipe 300)
maxlive=$(jq -s 'map(.live | length) | max' "$out/events300.ndjson")
failed=$(jq -s 'map(select(.event == "failed")) | length' "$out/events300.ndjson")
read -r np pm pp < <(stats true "$out/events300.ndjson")
read -r nc cm cp < <(stats false "$out/events300.ndjson")
render=$(taskset -c 0 "$feed" play --headless --measure-render 300 --terminal 200x60 \
  --feed <(jq -n --arg v "file://$big" '{videos: [{id: 1, username: "big", video: $v}]}'))

# 4. Remote clips, local files as the reference.
jumps="to:5,to:10,to:15,to:20,to:25"
remotefeed=$out/remote.json
serverlog=$out/http.log
# The tests' range server: FFmpeg's http protocol must seek (an mp4's index is at its end), and
# python's http.server ignores Range, so streamed clips would not open at all.
python3 -u "$root/Tests/FeedRemoteTests/Scripts/range_server.py" "$out/clips" "$serverlog" >"$out/http.port" 2>&1 &
server=$!
trap 'kill -9 $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q PORT "$out/http.port" && break; sleep 0.1; done
port=$(sed -n 's/^PORT \([0-9]*\)$/\1/p' "$out/http.port")
[ -n "$port" ] || { cat "$out/http.port" >&2; echo "bench/play.sh: the range server did not start" >&2; exit 70; }
seq 0 29 | jq -R -s --arg base "http://127.0.0.1:$port" \
  '{videos: [split("\n")[] | select(length > 0) | {id: (tonumber + 1000), username: "u\(.)", video: "\($base)/c\(.).mp4"}]}' >"$remotefeed"
localfeed=$(feedfile 30)
cachedir=$out/cache
coldstart() { # coldstart MODE -> first_frame_ms of the cold moves, one per line
  local args=(--feed "$localfeed")
  case $1 in
    cold) rm -rf "$cachedir"; args=(--feed "$remotefeed" --allow-network --cache-dir "$cachedir") ;;
    direct) args=(--feed "$remotefeed" --allow-network --no-cache) ;;
    warm) args=(--feed "$remotefeed" --allow-network --cache-dir "$cachedir") ;;
  esac
  "$feed" play --headless --json "${args[@]}" --script "$jumps" 2>"$out/stderr.txt" \
    | jq -r 'select(.event == "first_frame" and .prepared == false) | .first_frame_ms' \
    || { cat "$out/stderr.txt" >&2; exit 70; }
}
: >"$out/remote-local.txt"; : >"$out/remote-cold.txt"; : >"$out/remote-direct.txt"; : >"$out/remote-warm.txt"
for _ in 1 2 3; do
  for mode in local cold direct warm; do coldstart $mode >>"$out/remote-$mode.txt"; done
done
median() { sort -g "$1" | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
for mode in local cold direct warm; do
  [ -s "$out/remote-$mode.txt" ] || { echo "bench/play.sh: no first frame measured for $mode (see $out/stderr.txt)" >&2; exit 70; }
done
rl=$(median "$out/remote-local.txt"); rc=$(median "$out/remote-cold.txt")
rd=$(median "$out/remote-direct.txt"); rw=$(median "$out/remote-warm.txt")

printf 'swipe 30 clips:  peak RSS %7d KB\n' "$rss30"
printf 'swipe 300 clips: peak RSS %7d KB   most live players %d   failed opens %d\n' "$rss300" "$maxlive" "$failed"
printf 'ratio rss 300/30 %.2f\n' "$(echo "$rss300 $rss30" | awk '{ print $1 / $2 }')"
printf 'first frame, prepared neighbour (%d moves): median %.3f ms  p99 %.3f ms\n' "$np" "$pm" "$pp"
printf 'first frame, cold open          (%d moves): median %.3f ms  p99 %.3f ms\n' "$nc" "$cm" "$cp"
printf 'ratio first-frame cold/prepared median %.1f\n' "$(echo "$cm $pm" | awk '{ print ($2 > 0) ? $1 / $2 : 0 }')"
echo "$render" | jq -r '"draw 1080x1920 into 200x60 (\(.width)x\(.height) px, \(.width) cols x \(.height / 2) rows), one core: \(.fps | floor) fps decode+scale+draw, \(.render_fps | floor) fps draw only, \(.bytes_per_frame | floor) bytes/frame"'
printf 'first frame of a cold move (median of %d, 360x640 2 s clips): local file %.2f ms, remote through the cache: cold %.2f ms, warm %.2f ms; streamed (FFmpeg http) %.2f ms\n' \
  "$(wc -l <"$out/remote-local.txt")" "$rl" "$rc" "$rw" "$rd"
printf 'ratio first-frame warm/local %.2f\n' "$(echo "$rw $rl" | awk '{ print ($2 > 0) ? $1 / $2 : 0 }')"
printf 'ratio first-frame cold/streamed %.2f\n' "$(echo "$rc $rd" | awk '{ print ($2 > 0) ? $1 / $2 : 0 }')"
printf 'ratio first-frame streamed/warm %.2f\n' "$(echo "$rd $rw" | awk '{ print ($2 > 0) ? $1 / $2 : 0 }')"
