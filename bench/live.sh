#!/usr/bin/env bash
# bench/live.sh [PHASE…] — live streams: ffmpeg publishing over RTMP to `feed serve --rtmp-port`,
# players following its LL-HLS; the peer is nginx-rtmp (Debian's libnginx-mod-rtmp, plain HLS)
# fed the same way in the same run. PHASEs: latency, ingest, viewers, soak; none: all four, in
# that order. Each runs alone (e.g. `SOAK_SECONDS=60 bench/live.sh soak`).
#
# Everything lives in a temporary folder removed on exit: FEED_HOME (a fresh one, and a fresh
# `feed serve --quiet --port 0 --rtmp-port 0`, per phase; a stream made by POST /live per run and
# ended by DELETE /live/ID after it, its recording waited for), nginx's config, logs and HLS
# files. nginx runs as a foreground master with its own config (bench/lib.bash's nginx_main:
# workers as cores) and `load_module ngx_rtmp_module.so`; rtmp { application live { live on;
# hls on; hls_fragment 1s; hls_playlist_length 4s; } } on a free loopback port, and an http
# server on another serving hls_path. Both publishers are ffmpeg; everything shares the cores.
#
# The publisher: a SIZE (1080x1920) FPS (30) fps testsrc2 pattern and a 440 Hz sine, libx264
# -preset PRESET (veryfast) -tune zerolatency (no B-frames, no lookahead), a key frame every
# second (-g FPS), VIDEO_MBPS (6) Mbit/s capped (-maxrate, -bufsize 1 s), AAC 128k, encoded once,
# untimed, into a CLIP_SECONDS (20) s MP4 (its bitrate is printed), then published at real time
# with ffmpeg -re -stream_loop -1 -c copy -flush_packets 1 -f flv (timestamps go on across
# loops): each frame leaves when its time comes, as from a live encoder, and the encoder's core
# is not taken from the server and the clients on this 2-core machine. LATENCY_PUBLISHER=live
# encodes as it goes instead (the same settings, -re on the lavfi inputs) for the latency phase;
# at 1080x1920 that takes most of a core and, beside a busy server, falls behind real time
# (seen: 950 ms off over 15 s beside a build): the latency phase prints a warning when the
# publisher's send times stray more than 100 ms from real time.
#
# latency  ROUNDS rounds (default 3), feed then nginx, the order alternating, each a fresh
#   publish of WARMUP (5) + LATENCY_SECONDS (60) + 3 s. The send time of every frame is taken on
#   the wire: the publisher goes through bench/live_relay.py, a TCP relay that parses the RTMP
#   chunk stream and logs, per video message, its timestamp and when the chunk holding its last
#   byte was handed on to the server (error: the relay's hop, one loopback read and write, well
#   under 1 ms, plus its event loop's lag on a busy machine; its own CPU is ffmpeg's side).
#   feed: bench/live_client.py follow, one LL-HLS client doing blocking reloads
#   (?_HLS_msn=M&_HLS_part=P+1) and fetching every part they list, as a player; a part's frames
#   are read from its moof (tfdt, trun) and matched to the publisher's timestamps (feed's
#   timeline starts at 0 at the first key frame; every frame must match, or the run fails).
#   **Part latency**: from the moment the last frame of a part was sent to the moment the client
#   holds the part (its last byte read). By construction at least one frame interval: a part
#   closes when the frame after it comes. nginx: bench/live_client.py poll, a plain HLS client
#   polling its playlist every NGINX_POLL s (0.02; its error: up to one interval late, half on
#   average) and fetching each new segment; its latency is the time until the segment holding a
#   frame appears in its playlist (the frames' times from the MPEG-TS PES headers, less
#   nginx-rtmp's 700 ms NGX_RTMP_HLS_DELAY). For both, "frame" is the same figure for every
#   frame (feed: until its part is held), and **glass to glass** is a model: a player joins every
#   50 ms of the run, starts its hold-back behind the end of the playlist its client had then
#   (feed: PART-HOLD-BACK; nginx: 3 target durations, the HLS default), plays in real time
#   (stalling when a unit is not there yet), for 10 s: a frame's show time less its send time.
#   So "glass" is the wire out of the encoder: capture and encode before it (x264 zerolatency:
#   a frame or two) and decode and display after it (a frame or two) are not in it. The first
#   WARMUP s after the first frame are left out (a publish starts with a burst).
# ingest   ROUNDS rounds, feed then nginx alternating, each a passthrough publish: WARMUP s,
#   then the server's CPU over INGEST_SECONDS (30) with no viewer, as % of one core.
# viewers  One passthrough publish: the server's CPU over 10 s with no viewer (the baseline),
#   then bench/live_client.py viewers: VIEWERS (1000) coroutines in one Python process, one
#   kept-alive HTTP/1.1 connection each, each a blocking LL-HLS client fetching every part
#   (bytes counted, dropped), for VIEWER_SECONDS (60), the first VIEWER_WARMUP (10) s left out.
#   A part "exists" at the earliest time any viewer had a playlist answer listing it (a proxy:
#   the server's own moment is not visible; an answer every viewer got at once gives 0 delays);
#   answer delay: from then to this viewer's answer listing it; part delay: to its last byte
#   here. A part of the window a viewer did not get is a miss. CPU per viewer: the server's CPU
#   over the window less the baseline's rate, divided by the viewers. The client's own CPU is
#   printed: past ~90 % of a core its own lag is in the delays. No peer runs (nginx-rtmp has no
#   blocking reloads); beside it, the machine's floor: nginx (sendfile, workers as cores) serves
#   two static files of the mean playlist and part sizes feed answered, and bench/live_client.py
#   paced asks for both on the same VIEWERS connections at once every part target (blocking
#   reloads are all answered when a part comes) for VIEWER_SECONDS: the same requests and bytes
#   through the same client and loopback, the server's own work as small as it gets. Its delays
#   are from the moment asked; a viewer not done by the next moment starts late. Printed: its
#   delays, nginx's CPU, the client's, and `ratio feed/floor` lines.
# soak     One passthrough publish of SOAK_SECONDS (1800) through the relay, one follow client
#   throughout; every SOAK_SAMPLE (10) s the server's VmRSS and open files (/proc/PID/fd). Then
#   the playlist's listed segments and seg_0 (404 once the window moved on), DELETE, and the
#   recording's video duration (ffprobe on /media/roll/ID) against the stream's (the relay's
#   last video timestamp less its first key frame's, plus a frame).
# CPU time is the server's, summed over its threads (/proc/PID/task/*/schedstat, ns; nginx: its
# master and workers); RSS is VmRSS.
# Prints each round, medians of rounds, `ratio feed/nginx` lines, and the goals (the issue's):
# part latency p50 ≤ part target + 50 ms, p99 ≤ part target + 150 ms; glass to glass p50 ≤
# 2.0 s (Mux's low-latency mode 4–7 s, IVS < 5 s, MediaMTX 0.5–3 s; nginx-rtmp's beside it);
# the follow client missed no part; with VIEWERS viewers no viewer misses a part and answers'
# p99 ≤ 50 ms after the part exists (CPU per viewer and the floor's p99 beside it); passthrough ingest of
# VIDEO_MBPS Mbit/s < 5 % of one core; over the soak RSS and open files flat (the peak of the
# last fifth of the samples ≤ 1.05 × that of the second fifth; open files ≤ it + 2; the window
# trimmed), the recording's duration within one part target of the stream's. Missed goals do
# not fail the script; setup does (69 naming a missing tool).
#
# Environment: FEED (default .build/release/feed), ROUNDS (3), SIZE (1080x1920), FPS (30),
# PRESET (veryfast), VIDEO_MBPS (6), CLIP_SECONDS (20), PART_TARGET (the server's: 0.34),
# LATENCY_PUBLISHER (clip, or live), WARMUP (5), LATENCY_SECONDS (60), NGINX_POLL (0.02),
# INGEST_SECONDS (30), VIEWERS (1000), VIEWER_SECONDS (60), VIEWER_WARMUP (10), SOAK_SECONDS
# (1800), SOAK_SAMPLE (10). A smoke run: SIZE=320x568 VIDEO_MBPS=1 ROUNDS=1 LATENCY_SECONDS=20
# INGEST_SECONDS=10 VIEWERS=50 VIEWER_SECONDS=20 VIEWER_WARMUP=5 SOAK_SECONDS=60 SOAK_SAMPLE=5.
set -euo pipefail

rounds=${ROUNDS:-3}
size=${SIZE:-1080x1920}
fps=${FPS:-30}
preset=${PRESET:-veryfast}
mbps=${VIDEO_MBPS:-6}
part_target=${PART_TARGET:-}
latency_publisher=${LATENCY_PUBLISHER:-clip}
warmup=${WARMUP:-5}
latency_seconds=${LATENCY_SECONDS:-60}
poll=${NGINX_POLL:-0.02}
clip_seconds=${CLIP_SECONDS:-20}
ingest_seconds=${INGEST_SECONDS:-30}
viewers=${VIEWERS:-1000}
viewer_seconds=${VIEWER_SECONDS:-60}
viewer_warmup=${VIEWER_WARMUP:-10}
soak_seconds=${SOAK_SECONDS:-1800}
soak_sample=${SOAK_SAMPLE:-10}
# shellcheck source=SCRIPTDIR/lib.bash
source "$(dirname "$0")/lib.bash"
bench_setup ffmpeg ffprobe nginx curl jq python3

fail() { echo "bench/live.sh: $*" >&2; exit 1; }
usage() { echo "bench/live.sh: $*" >&2; exit 64; }
phases=("$@")
[ ${#phases[@]} -gt 0 ] || phases=(latency ingest viewers soak)
for phase in "${phases[@]}"; do
  [[ $phase =~ ^(latency|ingest|viewers|soak)$ ]] || usage "PHASE is latency, ingest, viewers or soak, not '$phase'"
done
for v in rounds fps mbps warmup latency_seconds clip_seconds ingest_seconds viewers viewer_seconds viewer_warmup soak_seconds soak_sample; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || usage "$v must be a positive integer, not '${!v}'"
done
[[ $size =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || usage "SIZE is WIDTHxHEIGHT, not '$size'"
[[ $latency_publisher =~ ^(clip|live)$ ]] || usage "LATENCY_PUBLISHER is clip or live, not '$latency_publisher'"
((viewer_seconds > viewer_warmup + 5)) || usage "VIEWER_SECONDS must be more than VIEWER_WARMUP + 5"
((soak_seconds >= 5 * soak_sample)) || usage "SOAK_SECONDS must hold 5 samples of SOAK_SAMPLE s"
rtmp_module=/usr/lib/nginx/modules/ngx_rtmp_module.so
if [[ " ${phases[*]} " =~ \ (latency|ingest)\  ]] && [ ! -f "$rtmp_module" ]; then
  echo "bench/live.sh: nginx-rtmp is missing ($rtmp_module: apt-get install libnginx-mod-rtmp nginx)" >&2
  exit 69
fi
if [[ " ${phases[*]} " == *" viewers "* ]]; then
  ulimit -n $((viewers + 1024)) 2>/dev/null || true
  (($(ulimit -n) >= viewers + 64)) || fail "open files are limited to $(ulimit -n); $viewers viewers need $((viewers + 64))"
fi
python=python3
client=$root/bench/live_client.py
relay=$root/bench/live_relay.py

# Everything made here lives in $work and goes on any exit; what was started is stopped by pid.
work=$(mktemp -d)
feed_pid='' nginx_pid='' relay_pid='' ffmpeg_pid='' client_pid=''
stop() { # stop VAR [SIGNAL]: kills the process whose pid VAR holds, waits for it, empties VAR
  local pid=${!1}
  [ -z "$pid" ] || { kill "-${2:-TERM}" "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
  printf -v "$1" ''
}
cleanup() {
  stop client_pid; stop ffmpeg_pid; stop relay_pid; stop feed_pid; stop nginx_pid QUIT
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# pause SECONDS: a sleep that a trap (SIGTERM, SIGINT) cuts short.
pause() { sleep "$1" & wait $!; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The server's CPU time in ns, all threads of all its processes.
server_pids() { if [ "$1" = feed ]; then echo "$feed_pid"; else echo "$nginx_pid"; cat /proc/"$nginx_pid"/task/*/children; fi; }
cpu_ns() { local p; for p in $(server_pids "$1"); do cat /proc/"$p"/task/*/schedstat 2>/dev/null; done | awk '{ s += $1 } END { printf "%.0f\n", s }'; }

# start_feed -> feed_pid, base (its URL): a fresh server on a fresh FEED_HOME.
feeds=0
start_feed() {
  local home=$work/feed.$((++feeds)) args=()
  mkdir -p "$home"
  [ -z "$part_target" ] || args=(--live-part-target "$part_target")
  FEED_HOME=$home "$feed" serve --port 0 --rtmp-port 0 --quiet "${args[@]}" >"$home/out" 2>"$home/err" &
  feed_pid=$!
  base=$(announced "feed serve" "$feed_pid" "$home/out" "$home/err" 'serving on ')
}

# new_stream TITLE -> stream_id, stream_url (rtmp_url/stream_key), rtmp_host (HOST:PORT), play, target
new_stream() {
  local json
  json=$(curl -sf -X POST "$base/live" -d "{\"title\":\"$1\"}") || fail "POST $base/live failed"
  stream_id=$(jq -r .id <<<"$json")
  stream_url=$(jq -r '.rtmp_url + "/" + .stream_key' <<<"$json")
  rtmp_host=$(jq -r .rtmp_url <<<"$json" | sed -E 's#^rtmp://([^/]+)/.*#\1#')
  play=$(jq -r .playback_url <<<"$json")
  target=$(jq -r .part_target <<<"$json")
}

# end_stream -> recording_id: ends the stream and waits (SECONDS, 60) for its recording.
end_stream() {
  local json state
  curl -sf -o /dev/null -X DELETE "$base/live/$stream_id" || fail "DELETE $base/live/$stream_id failed"
  for _ in $(seq $((${1:-60} * 10))); do
    json=$(curl -sf "$base/live/$stream_id") || fail "GET $base/live/$stream_id failed"
    recording_id=$(jq -r '.recording_id // empty' <<<"$json")
    [ -z "$recording_id" ] || return 0
    sleep 0.1
  done
  state=$(jq -c '{state, error}' <<<"$json")
  fail "live stream $stream_id has no recording ${1:-60} s after it ended: $state"
}

# start_nginx -> nginx_pid, nginx_rtmp (its RTMP port), nginx_http (its HTTP URL, /hls/ = hls_path)
start_nginx() {
  local dir=$work/nginx
  mkdir -p "$dir/hls"
  nginx_rtmp=$(free_port)
  local http_port
  http_port=$(free_port)
  {
    echo "load_module $rtmp_module;"
    nginx_main "$dir"
    cat <<EOF
rtmp {
  server {
    listen 127.0.0.1:$nginx_rtmp;
    application live { live on; hls on; hls_path $dir/hls; hls_fragment 1s; hls_playlist_length 4s; }
  }
}
http {
  access_log off;
  keepalive_requests 100000000;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
  server {
    listen 127.0.0.1:$http_port;
    location /hls/ { alias $dir/hls/; add_header Cache-Control no-cache; }
  }
}
EOF
  } >"$dir/nginx.conf"
  nginx -e "$dir/error.log" -p "$dir" -c "$dir/nginx.conf" 2>"$dir/stderr" &
  nginx_pid=$!
  nginx_http=http://127.0.0.1:$http_port
  for _ in $(seq 100); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$nginx_http/hls/none.m3u8")" = 404 ] && return 0
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$dir/error.log" "$dir/stderr" >&2; fail "nginx exited"; }
    sleep 0.1
  done
  fail "nginx does not answer on $nginx_http"
}

# start_relay HOST:PORT LOG -> relay_pid, relay_port
start_relay() {
  "$python" "$relay" 0 "$1" "$2" >"$2.out" 2>"$2.err" &
  relay_pid=$!
  relay_port=$(announced live_relay.py "$relay_pid" "$2.out" "$2.err" 'relay 127.0.0.1:' | cut -d' ' -f1)
}

# publish_live URL SECONDS / publish_clip URL SECONDS -> ffmpeg_pid (in the background)
x264=(-c:v libx264 -preset "$preset" -tune zerolatency -g "$fps" -pix_fmt yuv420p -b:v "${mbps}M" -maxrate "${mbps}M"
  -bufsize "${mbps}M" -c:a aac -b:a 128k -ac 2)
publish_live() {
  ffmpeg -nostdin -v error -re -f lavfi -i "testsrc2=size=$size:rate=$fps" -re -f lavfi -i "sine=frequency=440:sample_rate=48000" \
    -t "$2" "${x264[@]}" -flush_packets 1 -f flv "$1" 2>"$work/ffmpeg.err" &
  ffmpeg_pid=$!
}
clip=$work/clip.mp4
make_clip() {
  [ ! -f "$clip" ] || return 0
  echo "making the ${clip_seconds} s $size clip…" >&2
  ffmpeg -nostdin -v error -y -f lavfi -i "testsrc2=size=$size:rate=$fps" -f lavfi -i "sine=frequency=440:sample_rate=48000" \
    -t "$clip_seconds" "${x264[@]}" "$clip" || fail "could not make the clip"
}
publish_clip() {
  make_clip
  ffmpeg -nostdin -v error -re -stream_loop -1 -i "$clip" -t "$2" -c copy -flush_packets 1 -f flv "$1" 2>"$work/ffmpeg.err" &
  ffmpeg_pid=$!
}
clip_mbps() { ffprobe -v error -show_entries format=bit_rate -of csv=p=0 "$clip" | awk '{ printf "%.2f", $1 / 1e6 }'; }

# wait_playing URL SECONDS: until URL answers 200 (the first part or segment is out).
wait_playing() {
  for _ in $(seq $(($2 * 10))); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = 200 ] && return 0
    [ -z "$ffmpeg_pid" ] || kill -0 "$ffmpeg_pid" 2>/dev/null || { cat "$work/ffmpeg.err" >&2; fail "ffmpeg exited before $1 played"; }
    sleep 0.1
  done
  fail "$1 does not play $2 s after the publish started"
}

col_median() { cut -d' ' -f"$1" "$2" | median; }
goal() { if awk "BEGIN { exit !($2) }"; then echo "goal $1: met"; else echo "goal $1: NOT met"; fi; }
ms_of() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1000 }'; }

echo "bench/live.sh: feed $("$feed" --version 2>&1 | head -n 1) ($feed) vs nginx-rtmp ($(nginx -v 2>&1 | sed 's/.*: //')); phases: ${phases[*]}"
echo "  publisher: ffmpeg $(ffmpeg -version | head -n 1 | cut -d' ' -f3), $size $fps fps testsrc2 + sine, x264 $preset zerolatency -g $fps, $mbps Mbit/s, AAC 128k;" \
  "$(nproc) cores shared by the servers, ffmpeg and the clients"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- latency ---------------------------------------------------------------------------------
# latency_run NAME ROUND -> appends the analysis's line to $work/lat.NAME
latency_run() {
  local name=$1 round=$2 log=$work/lat.$1.$2 url play_url upstream
  if [ "$name" = feed ]; then
    new_stream "latency $round"
    upstream=$rtmp_host play_url=$play
  else
    upstream=127.0.0.1:$nginx_rtmp play_url=$nginx_http/hls/latency_$round.m3u8
  fi
  start_relay "$upstream" "$log.relay"
  if [ "$name" = feed ]; then url=rtmp://127.0.0.1:$relay_port/live/${stream_url##*/}; else url=rtmp://127.0.0.1:$relay_port/live/latency_$round; fi
  if [ "$latency_publisher" = live ]; then
    publish_live "$url" $((warmup + latency_seconds + 3))
  else
    publish_clip "$url" $((warmup + latency_seconds + 3))
  fi
  # The clients run in the background, waited for: a trap (SIGTERM, SIGINT) runs at once.
  if [ "$name" = feed ]; then
    "$python" "$client" follow "$play_url" "$log.client" $((warmup + latency_seconds)) >"$log.out" &
  else
    "$python" "$client" poll "$play_url" "$log.client" $((warmup + latency_seconds)) "$poll" &
  fi
  client_pid=$!
  wait "$client_pid" || fail "the $name client failed"
  client_pid=''
  wait "$ffmpeg_pid" || { cat "$work/ffmpeg.err" >&2; fail "ffmpeg publishing to $name failed"; }
  ffmpeg_pid=''
  stop relay_pid
  [ "$name" != feed ] || end_stream
  "$python" "$client" latency "$log.relay" "$log.client" "$warmup" "$name" >>"$work/lat.$name" || fail "no latency for $name"
}

latency_phase() {
  local i name order
  start_feed
  start_nginx
  local what="a publish encoded as it goes"
  if [ "$latency_publisher" = clip ]; then
    make_clip
    what="a passthrough publish of the clip ($(clip_mbps) Mbit/s)"
  fi
  echo "latency: $what through the timestamping relay, WARMUP $warmup s + $latency_seconds s x $rounds rounds, alternating;" \
    "feed: a blocking LL-HLS client; nginx-rtmp: a client polling every $poll s"
  : >"$work/lat.feed"
  : >"$work/lat.nginx"
  for ((i = 1; i <= rounds; i++)); do
    if ((i % 2)); then order=(feed nginx); else order=(nginx feed); fi
    for name in "${order[@]}"; do latency_run "$name" "$i"; done
    read -r fu50 fu99 _ _ fg50 _ _ _ fmiss fjit _ < <(tail -n 1 "$work/lat.feed")
    read -r nu50 nu99 _ _ ng50 _ _ _ _ njit _ < <(tail -n 1 "$work/lat.nginx")
    printf '  round %d: feed part %6.1f ms p99 %6.1f ms, glass to glass %6.0f ms, %s missed (jitter %.0f ms)   nginx segment %6.1f ms p99 %6.1f ms, glass to glass %6.0f ms (jitter %.0f ms)\n' \
      "$i" "$fu50" "$fu99" "$fg50" "$fmiss" "$fjit" "$nu50" "$nu99" "$ng50" "$njit"
  done
  local f=$work/lat.feed n=$work/lat.nginx
  target_ms=$(ms_of "$target")
  printf '  feed  (LL-HLS, part target %s ms, PART-HOLD-BACK %s ms): part from its last frame sent to held p50 %.1f ms p99 %.1f ms (from its first frame p50 %.1f ms);\n' \
    "$target_ms" "$(col_median 11 "$f")" "$(col_median 1 "$f")" "$(col_median 2 "$f")" "$(col_median 7 "$f")"
  printf '        every frame p50 %.1f ms p99 %.1f ms; glass to glass p50 %.0f ms p99 %.0f ms; %.0f parts a round, %d missed in all\n' \
    "$(col_median 3 "$f")" "$(col_median 4 "$f")" "$(col_median 5 "$f")" "$(col_median 6 "$f")" "$(col_median 8 "$f")" "$(awk '{ s += $9 } END { print s + 0 }' "$f")"
  printf '  nginx (HLS, 1 s fragments, hold-back %s ms): segment from its last frame sent to listed p50 %.1f ms p99 %.1f ms (from its first frame p50 %.1f ms);\n' \
    "$(col_median 11 "$n")" "$(col_median 1 "$n")" "$(col_median 2 "$n")" "$(col_median 7 "$n")"
  printf '        every frame p50 %.1f ms p99 %.1f ms; glass to glass p50 %.0f ms p99 %.0f ms; %.0f segments a round\n' \
    "$(col_median 3 "$n")" "$(col_median 4 "$n")" "$(col_median 5 "$n")" "$(col_median 6 "$n")" "$(col_median 8 "$n")"
  awk -v a="$(col_median 10 "$f")" -v b="$(col_median 10 "$n")" 'BEGIN { if (a > 100 || b > 100)
    printf "  warning: the publisher was off real time by up to %.0f ms (feed) and %.0f ms (nginx) (p99 - p1 of send time less media time): the latencies are not the server'"'"'s alone\n", a, b }' >&2
  lat_g2g=$(col_median 5 "$f") lat_u50=$(col_median 1 "$f") lat_u99=$(col_median 2 "$f")
  lat_ng2g=$(col_median 5 "$n") lat_miss=$(awk '{ s += $9 } END { print s + 0 }' "$f")
  awk -v a="$lat_g2g" -v b="$lat_ng2g" 'BEGIN { printf "ratio feed/nginx glass to glass p50 %.2f\n", a / b }'
  awk -v a="$(col_median 3 "$f")" -v b="$(col_median 3 "$n")" 'BEGIN { printf "ratio feed/nginx frame latency p50 %.2f\n", a / b }'
  stop nginx_pid QUIT
  stop feed_pid
}

# --- ingest ----------------------------------------------------------------------------------
# ingest_run NAME ROUND -> appends the server's CPU as % of one core to $work/ingest.NAME
ingest_run() {
  local name=$1 round=$2 c0 c1
  if [ "$name" = feed ]; then
    new_stream "ingest $round"
    publish_clip "$stream_url" $((warmup + ingest_seconds + 5))
    wait_playing "$play" 30
  else
    publish_clip "rtmp://127.0.0.1:$nginx_rtmp/live/ingest_$round" $((warmup + ingest_seconds + 5))
    wait_playing "$nginx_http/hls/ingest_$round.m3u8" 30
  fi
  pause "$warmup"
  c0=$(cpu_ns "$name")
  pause "$ingest_seconds"
  c1=$(cpu_ns "$name")
  kill -0 "$ffmpeg_pid" 2>/dev/null || { cat "$work/ffmpeg.err" >&2; fail "ffmpeg publishing to $name stopped early"; }
  stop ffmpeg_pid
  [ "$name" != feed ] || end_stream
  awk -v c=$((c1 - c0)) -v s="$ingest_seconds" 'BEGIN { printf "%.3f\n", c / s / 1e7 }' >>"$work/ingest.$name"
}

ingest_phase() {
  local i name order
  start_feed
  start_nginx
  make_clip
  echo "ingest: a passthrough publish of the clip ($(clip_mbps) Mbit/s with audio), no viewer; server CPU over $ingest_seconds s" \
    "after $warmup s x $rounds rounds, alternating"
  : >"$work/ingest.feed"
  : >"$work/ingest.nginx"
  for ((i = 1; i <= rounds; i++)); do
    if ((i % 2)); then order=(feed nginx); else order=(nginx feed); fi
    for name in "${order[@]}"; do ingest_run "$name" "$i"; done
    printf '  round %d: feed %6.2f %% of a core   nginx %6.2f %% of a core\n' "$i" "$(tail -n 1 "$work/ingest.feed")" "$(tail -n 1 "$work/ingest.nginx")"
  done
  ingest_feed=$(median <"$work/ingest.feed")
  printf '  median: feed %.2f %% of a core, nginx-rtmp (hls on) %.2f %%\n' "$ingest_feed" "$(median <"$work/ingest.nginx")"
  awk -v a="$ingest_feed" -v b="$(median <"$work/ingest.nginx")" 'BEGIN { printf "ratio feed/nginx ingest cpu %.2f\n", a / b }'
  stop nginx_pid QUIT
  stop feed_pid
}

# --- viewers ---------------------------------------------------------------------------------
viewers_phase() {
  local c0 c1 c2 c3 out=$work/viewers.json
  start_feed
  new_stream viewers
  publish_clip "$stream_url" $((warmup + 10 + viewer_seconds + 10))
  wait_playing "$play" 30
  pause "$warmup"
  c0=$(cpu_ns feed)
  pause 10
  c1=$(cpu_ns feed)
  echo "viewers: $viewers blocking LL-HLS viewers for $viewer_seconds s (the first $viewer_warmup s left out) on a passthrough publish" \
    "($(clip_mbps) Mbit/s)"
  "$python" "$client" viewers "$play" "$viewer_seconds" "$viewer_warmup" "$viewers" >"$out" &
  client_pid=$!
  pause "$viewer_warmup"
  c2=$(cpu_ns feed)
  pause $((viewer_seconds - viewer_warmup - 2))
  c3=$(cpu_ns feed)
  wait "$client_pid" || fail "the viewers' client failed"
  client_pid=''
  kill -0 "$ffmpeg_pid" 2>/dev/null || { cat "$work/ffmpeg.err" >&2; fail "ffmpeg stopped before the viewers did"; }
  stop ffmpeg_pid
  end_stream
  stop feed_pid
  local window=$((viewer_seconds - viewer_warmup - 2))
  view_base=$(awk -v c=$((c1 - c0)) 'BEGIN { printf "%.3f", c / 10 / 1e7 }')
  view_total=$(awk -v c=$((c3 - c2)) -v s="$window" 'BEGIN { printf "%.3f", c / s / 1e7 }')
  view_per=$(awk -v t="$view_total" -v b="$view_base" -v n="$viewers" 'BEGIN { printf "%.4f", (t - b) / n }')
  jq -r --arg s "$viewer_seconds" '"  \(.viewers) viewers, \(.parts) parts in the window, \(.answers) answers; missed \(.misses) (\(.viewers_missing) viewers); errors \(.errors | tostring)",
    "  answer after the part exists p50 \(.answer_p50) ms p99 \(.answer_p99) ms max \(.answer_max) ms; part held p50 \(.part_p50) ms p99 \(.part_p99) ms max \(.part_max) ms",
    "  the client: \(.client_cpu) s of CPU in \($s) s (\(.client_cpu / ($s | tonumber) * 100 | floor) % of a core)"' "$out"
  printf '  server CPU: %.2f %% of a core with no viewer, %.2f %% with them: %.4f %% of a core per viewer (%.0f µs/s)\n' \
    "$view_base" "$view_total" "$view_per" "$(awk -v p="$view_per" 'BEGIN { print p * 1e4 }')"
  view_misses=$(jq .misses "$out") view_p99=$(jq .answer_p99 "$out") view_errors=$(jq '.errors | length' "$out")
  viewers_floor "$(jq .playlist_bytes "$out")" "$(jq .part_bytes "$out")"
}

# viewers_floor PLAYLIST_BYTES PART_BYTES: the machine's floor under the viewers phase. nginx
# (sendfile, as many workers as cores) serves two static files of the mean playlist and part
# sizes feed answered; bench/live_client.py paced asks for both on VIEWERS connections at once,
# every part target, for VIEWER_SECONDS: the same requests and bytes through the same client and
# loopback, with the server's share as small as it gets. Its delays are from the moment asked.
viewers_floor() {
  local dir=$work/floor c0 c1 out=$work/floor.json port
  mkdir -p "$dir/www"
  head -c "$1" /dev/urandom | base64 -w 80 | head -c "$1" >"$dir/www/index.m3u8"
  head -c "$2" /dev/urandom >"$dir/www/part.m4s"
  port=$(free_port)
  {
    nginx_main "$dir" $((viewers + 64))
    cat <<EOF
worker_rlimit_nofile $((viewers * 2 + 256));
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  types { application/vnd.apple.mpegurl m3u8; video/mp4 m4s; }
  server { listen 127.0.0.1:$port; location / { root $dir/www; } }
}
EOF
  } >"$dir/nginx.conf"
  nginx -e "$dir/error.log" -p "$dir" -c "$dir/nginx.conf" 2>"$dir/stderr" &
  nginx_pid=$!
  for _ in $(seq 100); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/part.m4s")" = 200 ] && break
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$dir/error.log" "$dir/stderr" >&2; fail "nginx exited"; }
    sleep 0.1
  done
  echo "viewers floor: nginx serving a ${1}-byte playlist and a ${2}-byte part (static files, sendfile) to the same $viewers" \
    "connections of the same client, both asked at once every $target s, for $viewer_seconds s"
  "$python" "$client" paced "http://127.0.0.1:$port/" "$viewer_seconds" "$viewer_warmup" "$viewers" "$target" index.m3u8 part.m4s >"$out" &
  client_pid=$!
  pause $((viewer_warmup + 1))
  c0=$(cpu_ns nginx)
  pause $((viewer_seconds - viewer_warmup - 2))
  c1=$(cpu_ns nginx)
  wait "$client_pid" || fail "the floor's client failed"
  client_pid=''
  stop nginx_pid QUIT
  jq -r --arg s "$viewer_seconds" '"  \(.answers) answers; \(.late) parts held later than the next part; errors \(.errors | tostring); \(.asked_seconds) s of requests took \(.took_seconds) s",
    "  playlist answer p50 \(.answer_p50) ms p99 \(.answer_p99) ms max \(.answer_max) ms; part held p50 \(.part_p50) ms p99 \(.part_p99) ms max \(.part_max) ms",
    "  the client: \(.client_cpu) s of CPU in \($s) s (\(.client_cpu / ($s | tonumber) * 100 | floor) % of a core)"' "$out"
  floor_total=$(awk -v c=$((c1 - c0)) -v s=$((viewer_seconds - viewer_warmup - 2)) 'BEGIN { printf "%.3f", c / s / 1e7 }')
  floor_p99=$(jq .answer_p99 "$out")
  printf '  nginx CPU: %.2f %% of a core: %.4f %% of a core per viewer\n' "$floor_total" "$(awk -v t="$floor_total" -v n="$viewers" 'BEGIN { printf "%.4f", t / n }')"
  awk -v a="$view_p99" -v b="$floor_p99" 'BEGIN { printf "ratio feed/floor answer p99 %.2f\n", (b > 0 ? a / b : 0) }'
  awk -v a="$view_total" -v b="$floor_total" 'BEGIN { printf "ratio feed/floor server cpu %.2f\n", a / b }'
}

# --- soak ------------------------------------------------------------------------------------
soak_phase() {
  local log=$work/soak start elapsed samples=$work/soak.samples
  start_feed
  new_stream soak
  start_relay "$rtmp_host" "$log.relay"
  publish_clip "rtmp://127.0.0.1:$relay_port/live/${stream_url##*/}" "$soak_seconds"
  echo "soak: a passthrough publish of $soak_seconds s ($(clip_mbps) Mbit/s) through the relay, one blocking client;" \
    "RSS and open files every $soak_sample s"
  wait_playing "$play" 30
  "$python" "$client" follow "$play" "$log.client" $((soak_seconds - 5)) >"$log.out" &
  client_pid=$!
  : >"$samples"
  start=$(date +%s)
  while kill -0 "$ffmpeg_pid" 2>/dev/null; do
    elapsed=$(($(date +%s) - start))
    echo "$elapsed $(awk '$1 == "VmRSS:" { print $2 }' /proc/"$feed_pid"/status) $(find /proc/"$feed_pid"/fd -mindepth 1 -maxdepth 1 | wc -l)" >>"$samples"
    pause "$soak_sample"
  done
  wait "$ffmpeg_pid" || { cat "$work/ffmpeg.err" >&2; fail "ffmpeg's soak publish failed"; }
  ffmpeg_pid=''
  wait "$client_pid" || fail "the soak's client failed"
  client_pid=''
  stop relay_pid
  soak_listed=$(curl -sf "$play" | grep -c '^#EXTINF' || true)
  soak_seg0=$(curl -s -o /dev/null -w '%{http_code}' "${play%/*}/seg_0.m4s")
  end_stream $((60 + soak_seconds / 10))
  soak_rec=$(ffprobe -v error -select_streams v:0 -show_entries stream=duration -of csv=p=0 "$base/media/roll/$recording_id")
  soak_stream=$(awk -v fps="$fps" '$2 == "v" && $4 != "h" { if (first == "" && $4 == "k") first = $3; last = $3 }
    END { printf "%.3f", (last - first) / 1000 + 1 / fps }' "$log.relay")
  read -r soak_u50 soak_u99 _ _ _ _ _ soak_parts soak_miss _ _ < <("$python" "$client" latency "$log.relay" "$log.client" "$warmup" feed)
  stop feed_pid
  # Fifths of the samples: the second (the window full) against the last.
  read -r rss2 rss5 fd2 fd5 rss_min rss_max <<<"$(awk '{ r[NR] = $2; f[NR] = $3 } END {
      n = NR; a = int(n / 5); b = int(2 * n / 5); c = n - int(n / 5)
      for (i = a + 1; i <= b; i++) { if (r[i] > r2) r2 = r[i]; if (f[i] > f2) f2 = f[i] }
      for (i = c + 1; i <= n; i++) { if (r[i] > r5) r5 = r[i]; if (f[i] > f5) f5 = f[i] }
      lo = r[1]; for (i = 1; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
      print r2, r5, f2, f5, lo, hi }' "$samples")"
  printf '  %d samples: RSS %.1f…%.1f MB; peak of the second fifth %.1f MB, of the last %.1f MB; open files %d then %d\n' \
    "$(wc -l <"$samples")" "$(awk -v k="$rss_min" 'BEGIN { print k / 1024 }')" "$(awk -v k="$rss_max" 'BEGIN { print k / 1024 }')" \
    "$(awk -v k="$rss2" 'BEGIN { print k / 1024 }')" "$(awk -v k="$rss5" 'BEGIN { print k / 1024 }')" "$fd2" "$fd5"
  echo "  at the end the playlist listed $soak_listed segments; seg_0.m4s answered $soak_seg0"
  echo "  the client: $soak_parts parts, $soak_miss missed; part latency p50 $soak_u50 ms p99 $soak_u99 ms"
  echo "  recording $recording_id: video $soak_rec s; the stream sent $soak_stream s"
  soak_rss_ok=$(awk -v a="$rss2" -v b="$rss5" 'BEGIN { print (b <= 1.05 * a) }')
  soak_fd_ok=$((fd5 <= fd2 + 2))
  soak_window_ok=$((soak_listed <= 9 && soak_seg0 == 404))
}

for phase in "${phases[@]}"; do "${phase}_phase"; done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

for phase in "${phases[@]}"; do
  case $phase in
    latency)
      goal "part latency p50 <= part target + 50 ms ($lat_u50 ms; target $target_ms ms)" "$lat_u50 <= $target_ms + 50"
      goal "part latency p99 <= part target + 150 ms ($lat_u99 ms)" "$lat_u99 <= $target_ms + 150"
      goal "glass to glass p50 <= 2.0 s at PART-HOLD-BACK ($lat_g2g ms; nginx-rtmp $lat_ng2g ms; Mux low-latency 4-7 s, IVS < 5 s, MediaMTX 0.5-3 s)" "$lat_g2g <= 2000"
      goal "the blocking client follows every part ($lat_miss missed)" "$lat_miss == 0"
      ;;
    ingest) goal "passthrough ingest of $(clip_mbps) Mbit/s < 5 % of one core ($ingest_feed %)" "$ingest_feed < 5" ;;
    viewers)
      goal "$viewers viewers: no viewer misses a part ($view_misses missed, $view_errors kinds of error)" "$view_misses == 0"
      goal "$viewers viewers: answer p99 <= 50 ms after the part exists ($view_p99 ms; $view_per % of a core per viewer; the machine's floor: $floor_p99 ms)" "$view_p99 <= 50"
      ;;
    soak)
      goal "soak: RSS flat (last fifth's peak $((rss5 / 1024)) MB <= 1.05 x second fifth's $((rss2 / 1024)) MB)" "$soak_rss_ok"
      goal "soak: open files flat ($fd5 <= $fd2 + 2) and the window trimmed ($soak_listed segments listed, seg_0 $soak_seg0)" "$soak_fd_ok && $soak_window_ok"
      goal "soak: recording within one part target of the stream ($soak_rec s vs $soak_stream s)" \
        "($soak_rec - $soak_stream) <= $target && ($soak_stream - $soak_rec) <= $target"
      goal "soak: the blocking client follows every part ($soak_miss missed)" "$soak_miss == 0"
      ;;
  esac
done
