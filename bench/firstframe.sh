#!/usr/bin/env bash
# bench/firstframe.sh [RUNS] — time to the first frame of a phone clip over a 50 ms, 20 Mbit/s
# link: nginx serving it as the phone wrote it (`moov` at the end) against `feed serve` (fast
# start), in headless Chromium and in ffmpeg, against the floor of fetching the first-frame
# bytes; and the console's swipe to a preloaded neighbour against one to a video not preloaded.
#
# Makes, in a temporary folder removed on exit, a DURATION s (default 15) 1080x1920 30 fps
# H.264 + AAC clip as a phone's MP4 (ffmpeg's default muxing: `moov` after the media): testsrc2
# with temporal noise, libx264 veryfast at VIDEO_MBPS (10) Mbit/s capped at 1.2x, a key frame
# every second, B-frames as x264 chooses them (BFRAMES=0: none, as a phone's real-time encoder
# writes them), AAC 128k stereo. Made once, untimed. Two network namespaces joined by a veth
# pair, the link shaped to RTT_MS (50) round trip and RATE (20mbit) each way: with netem on both
# ends (delay RTT/2, rate RATE) where the kernel has it; else tbf at RATE on both ends (burst
# 10 kB) and the delay from bench/firstframe_relay.py, a userspace TCP relay that holds every
# chunk RTT/2 in each direction, in order, and a new connection's first bytes one more RTT (the
# handshake its own accept skips); the output says which ran, and the relay's limits. The
# servers run in one namespace: nginx (Debian) as a foreground master with its own config in the
# folder (sendfile on, the clip as a static file, an access log with ranges) and `feed serve`
# (FEED_HOME in the folder, its access log kept) on a feed of 6 videos that are all the clip
# (one file, ids 1-6). Both listen on that namespace's loopback (feed without a token binds
# loopback only) and are reached through the relay on the veth (with netem, the same relay with
# no delay: a plain forwarder, for both). The clients run in the other namespace. feed's fast
# start copies are made (one request per video) before anything is timed.
#
# Before timing, checks: nginx answers the clip's bytes; feed's answer has its size and is
# moov-first (`feed probe`); a request takes one RTT on a kept-alive connection and two on a new
# one (curl, medians of 5: the relay's timers are not rounded); the clip downloads at about RATE.
# Then, untimed: the shortest prefix of feed's served file from which ffmpeg decodes the first
# picture (bisection of `head -c N`, the framemd5 of the first video frame against the whole
# file's), and the shortest after which Chromium fires `loadeddata` (firstframe_browser.py
# needed: the file served on loopback with nothing past the prefix, bisected over the ends of
# its packets). Then RUNS rounds (default 20), the order alternating each round:
#   (a)/(b)  headless Chromium (selenium; a new browser and profile per run: cold cache, no kept
#            connection) on a blank page of its own (on the client's loopback): a muted
#            <video preload=auto>, src set to (a) nginx's URL or (b) feed's /media/videos/1,
#            performance.now() from setting src to `loadedmetadata` and to `loadeddata`
#   ffmpeg   `ffmpeg -i URL -frames:v 1 -f null -` for (a) and (b): wall time to the first
#            decoded frame, process start included
#   F        curl of exactly the first-frame bytes of (b) (`Range: bytes=0-(preload_bytes-1)`,
#            preload_bytes from feed's /videos) on a new connection: time_total
#   Fc       the same for the bytes Chromium's `loadeddata` needs (see above)
# then RUNS rounds of the console (`feed serve`'s /, 390x844, a new browser per run), c/d
# alternating: the page is opened and its current video gets `loadeddata`, then ArrowDown is
# dispatched in the page:
#   (c)  once the page has preloaded the next video (the script waits until that <video> has
#        readyState >= 2): the swipe to the preloaded neighbour
#   (d)  the console opened with ?preload=0 (it preloads nothing), at once: the swipe to a
#        neighbour the page has not touched
# each timed in the page (performance.now()) from the key events to the new current video's
# readyState >= 2, and, beside it, to its currentTime passing 0 (playing).
# Prints the rounds, medians and p95 (nearest rank), the bytes, the /media requests the servers
# logged in the last run of each case, the `ratio` lines and the goals: (b) <= 1.2 x Fc (#44;
# F beside it); (a) - (b) >= 1 RTT; (c) median <= 50 ms and p95 <= 100 ms, (d) beside it;
# preload_bytes between the shortest prefix and 1.2 x it. Missed goals do not fail the script;
# setup does.
# Needs root (namespaces, tc); everything it starts is killed and the namespaces deleted on exit.
#
# Environment: FEED (default .build/release/feed), RUNS (20; the first argument wins), RTT_MS
# (50), RATE (20mbit), DURATION (15), VIDEO_MBPS (10), BFRAMES (x264's: 3), CHROMIUM (/usr/bin/chromium),
# CHROMEDRIVER (/usr/bin/chromedriver), SELENIUM_PYTHON (.build/selenium-venv/bin/python: a
# python with selenium), TIMEOUT (60: seconds a browser measurement may take).
set -euo pipefail

runs=${1:-${RUNS:-20}}
rtt=${RTT_MS:-50}
rate=${RATE:-20mbit}
duration=${DURATION:-15}
video_mbps=${VIDEO_MBPS:-10}
bframes=${BFRAMES:-}
chromium=${CHROMIUM:-/usr/bin/chromium}
chromedriver=${CHROMEDRIVER:-/usr/bin/chromedriver}
timeout=${TIMEOUT:-60}
videos=6
# shellcheck source=SCRIPTDIR/lib.bash
source "$(dirname "$0")/lib.bash"
bench_setup nginx ffmpeg ffprobe curl jq ip tc python3 "$chromium" "$chromedriver"
python=${SELENIUM_PYTHON:-$root/.build/selenium-venv/bin/python}

fail() { echo "bench/firstframe.sh: $*" >&2; exit 1; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || fail "RUNS must be a positive integer, not '$runs'"
[[ $rtt =~ ^[1-9][0-9]*$ && $((rtt % 2)) = 0 ]] || fail "RTT_MS must be an even number of milliseconds, not '$rtt'"
[[ $video_mbps =~ ^[1-9][0-9]*$ && $duration =~ ^[1-9][0-9]*$ ]] || fail "VIDEO_MBPS and DURATION must be positive integers"
[ "$(id -u)" = 0 ] || { echo "bench/firstframe.sh: needs root (network namespaces, tc)" >&2; exit 69; }
"$python" -c 'import selenium' 2>/dev/null \
  || { echo "bench/firstframe.sh: $python has no selenium (python3 -m venv DIR && DIR/bin/pip install selenium; SELENIUM_PYTHON=DIR/bin/python)" >&2; exit 69; }

# Everything made here lives in $work and goes on any exit, with the namespaces (their veth
# pair goes with them) and every process started in them, each killed by its pid.
work=$(mktemp -d)
chmod 755 "$work"   # nginx's workers may run as another user
srv=ffsrv$$ cli=ffcli$$ vs=ffs$$ vc=ffc$$
server_ip=10.77.0.1 client_ip=10.77.0.2
pids=()
cleanup() {
  local ns pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for ns in "$cli" "$srv"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
  done
  wait 2>/dev/null || true
  for ns in "$cli" "$srv"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
in_srv() { ip netns exec "$srv" "$@"; }
in_cli() { ip netns exec "$cli" "$@"; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }

# The clip, as a phone writes it: moov at the end.
mkdir -p "$work/data" "$work/home" "$work/nginx" "$work/www"
clip=$work/data/clip.mp4
echo "making the ${duration} s 1080x1920 clip…" >&2
ffmpeg -nostdin -v error -y -f lavfi -i "testsrc2=size=1080x1920:rate=30" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000" -t "$duration" -vf "noise=alls=10:allf=t" \
  -c:v libx264 -preset veryfast -b:v "${video_mbps}M" -maxrate "$((video_mbps * 12 / 10))M" \
  -bufsize "$((video_mbps * 12 / 10))M" -g 30 ${bframes:+-bf "$bframes"} -pix_fmt yuv420p -c:a aac -b:a 128k -ac 2 "$clip" \
  || fail "could not make the clip"
clip_bytes=$(stat -c %s "$clip")
[ "$("$feed" probe "$clip" --json | jq -r '.[0].moov')" = end ] || fail "the clip's moov is not at the end"
jq -n --argjson n "$videos" '{videos: [range(1; $n + 1) | {id: ., username: "user\(.)", description: "clip \(.)", video: "clip.mp4"}]}' \
  >"$work/data/feed.json"
printf pong >"$work/www/ping"

# The link: namespaces, the veth pair, the shaping.
ip netns add "$srv" && ip netns add "$cli" || fail "cannot make network namespaces"
ip -n "$srv" link add name "$vs" type veth peer name "$vc" netns "$cli" || fail "cannot make a veth pair"
ip -n "$srv" addr add "$server_ip/24" dev "$vs"
ip -n "$cli" addr add "$client_ip/24" dev "$vc"
for ns in "$srv" "$cli"; do ip -n "$ns" link set lo up; done
ip -n "$srv" link set "$vs" up
ip -n "$cli" link set "$vc" up
if in_srv tc qdisc add dev "$vs" root netem delay "$((rtt / 2))ms" rate "$rate" limit 100000 2>"$work/netem.err" \
   && in_cli tc qdisc add dev "$vc" root netem delay "$((rtt / 2))ms" rate "$rate" limit 100000 2>>"$work/netem.err"; then
  emulation=netem relay_delay=0 relay_connect=0 relay_note=''
  link="netem on both ends of the veth: delay $((rtt / 2)) ms, rate $rate (each way); a plain forwarder (no delay) from the veth to the servers' loopback"
else
  in_srv tc qdisc del dev "$vs" root 2>/dev/null || true
  for pair in "$srv $vs" "$cli $vc"; do
    read -r ns dev <<<"$pair"
    ip netns exec "$ns" tc qdisc add dev "$dev" root tbf rate "$rate" burst 10kb latency 200ms \
      || fail "neither netem ($(head -n 1 "$work/netem.err")) nor tbf works on $dev"
  done
  emulation=relay relay_delay=$((rtt / 2)) relay_connect=$rtt
  relay_note="tbf for the rate, a userspace relay for the delay: no TCP slow start over the $rtt ms"
  link="no netem here ($(head -n 1 "$work/netem.err")): tbf $rate on both ends of the veth (burst 10 kB); the delay from bench/firstframe_relay.py, $((rtt / 2)) ms each way per chunk, a new connection's first bytes held one more RTT ($rtt ms) for the handshake"
fi

# The servers, on the server namespace's loopback: nginx :8081, feed :8082; the relay on the
# veth: :8001 -> nginx, :8002 -> feed.
nginx_main "$work/nginx" >"$work/nginx/nginx.conf"
cat >>"$work/nginx/nginx.conf" <<EOF
http {
  log_format timed '\$msec \$request_time "\$request" "\$http_range" \$status \$body_bytes_sent \$connection';
  access_log $work/nginx/access.log timed;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  types {}
  server {
    listen 127.0.0.1:8081;
    location = /clip.mp4 { alias $clip; default_type video/mp4; }
    location = /ping { alias $work/www/ping; default_type text/plain; }
  }
}
EOF
in_srv nginx -e "$work/nginx/error.log" -p "$work/nginx" -c "$work/nginx/nginx.conf" 2>>"$work/nginx/error.log" &
pids+=($!)
in_srv env FEED_HOME="$work/home" "$feed" serve --feed "$work/data/feed.json" --port 8082 >"$work/feed.out" 2>"$work/feed.log" &
pids+=($!)
feed_pid=$!
in_srv python3 "$root/bench/firstframe_relay.py" --delay "$relay_delay" --connect-delay "$relay_connect" \
  "$server_ip:8001=127.0.0.1:8081" "$server_ip:8002=127.0.0.1:8082" >"$work/relay.out" 2>"$work/relay.err" &
pids+=($!)
for _ in $(seq 300); do
  grep -q '^serving on ' "$work/feed.out" 2>/dev/null && [ "$(grep -c '^relay ' "$work/relay.out" 2>/dev/null)" = 2 ] \
    && in_srv curl -s -o /dev/null http://127.0.0.1:8081/ping && break
  kill -0 "$feed_pid" 2>/dev/null || { cat "$work/feed.log" >&2; fail "feed serve exited"; }
  sleep 0.1
done
in_srv curl -s -o /dev/null http://127.0.0.1:8081/ping || { cat "$work/nginx/error.log" >&2; fail "nginx is not answering"; }
[ "$(grep -c '^relay ' "$work/relay.out")" = 2 ] || { cat "$work/relay.err" >&2; fail "the relay is not listening"; }
grep -q '^serving on ' "$work/feed.out" || fail "feed serve printed no 'serving on' line in 30 s"

nginx_base=http://$server_ip:8001 feed_base=http://$server_ip:8002
url_a=$nginx_base/clip.mp4
in_cli curl -sf "$feed_base/videos?limit=$videos" >"$work/videos.json" || fail "GET $feed_base/videos failed"
url_b=$(jq -r '.videos[0].video' "$work/videos.json")
preload=$(jq -r '.videos[0].preload_bytes' "$work/videos.json")
[[ $url_b == "$feed_base"/* ]] || fail "feed's first video is not served by it: $url_b"
[[ $preload =~ ^[1-9][0-9]*$ ]] || fail "feed's /videos gives no preload_bytes for the clip ($preload)"

# feed's fast-start copies, made once before anything is timed; then the checks.
for url in $(jq -r '.videos[].video' "$work/videos.json"); do
  in_cli curl -sf -o /dev/null -r 0-0 "$url" || fail "warming $url failed"
done
in_cli curl -sf -o "$work/served.mp4" "$url_b" || fail "GET $url_b failed"
in_cli curl -sf -o "$work/nginx.mp4" "$url_a" -w '%{speed_download}\n' >"$work/speed" || fail "GET $url_a failed"
cmp -s "$work/nginx.mp4" "$clip" || fail "nginx's answer is not the clip"
[ "$(stat -c %s "$work/served.mp4")" = "$clip_bytes" ] || fail "feed's answer is not the clip's size"
[ "$("$feed" probe "$work/served.mp4" --json | jq -r '.[0].moov')" = start ] || fail "feed does not serve the clip moov-first"
rm -f "$work/nginx.mp4"
link_mbit=$(awk '{ printf "%.1f", $1 * 8 / 1e6 }' "$work/speed")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
p95() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "nan"; exit } i = int(NR * 0.95 + 0.999999); if (i > NR) i = NR; print v[i] }'; }

# Round trips: five requests on one kept-alive connection, and five new connections.
keep=() fresh=()
for _ in 1 2 3 4 5; do
  fresh+=("$(in_cli curl -s -o /dev/null -w '%{time_starttransfer}' "$nginx_base/ping")")
done
mapfile -t keep < <(in_cli curl -s -w '%{time_starttransfer}\n' "$nginx_base/ping" -o /dev/null "$nginx_base/ping" -o /dev/null \
  "$nginx_base/ping" -o /dev/null "$nginx_base/ping" -o /dev/null "$nginx_base/ping" -o /dev/null "$nginx_base/ping" -o /dev/null | tail -n 5)
rtt_keep=$(printf '%s\n' "${keep[@]}" | median) rtt_fresh=$(printf '%s\n' "${fresh[@]}" | median)
awk -v k="$rtt_keep" -v f="$rtt_fresh" -v r="$rtt" 'BEGIN { exit !(k * 1000 >= 0.95 * r && k * 1000 <= 1.2 * r && f * 1000 >= 1.9 * r && f * 1000 <= 2.4 * r) }' \
  || fail "the link's round trips are off: $(ms "$rtt_keep") ms on a kept connection, $(ms "$rtt_fresh") ms on a new one (want $rtt and $((2 * rtt)))"

# The shortest prefix of the served file from which ffmpeg decodes the first picture.
first_md5() { ffmpeg -nostdin -v quiet -i "$1" -map 0:v:0 -frames:v 1 -f framemd5 - 2>/dev/null | grep -v '^#' || true; }
want=$(first_md5 "$work/served.mp4")
[ -n "$want" ] || fail "ffmpeg decodes no picture from feed's served file"
low=0 high=$clip_bytes   # low fails, high decodes the first picture
while ((high - low > 1)); do
  mid=$(((low + high) / 2))
  head -c "$mid" "$work/served.mp4" >"$work/prefix.mp4"
  if [ "$(first_md5 "$work/prefix.mp4")" = "$want" ]; then high=$mid; else low=$mid; fi
done
shortest=$high
rm -f "$work/prefix.mp4"

echo "bench/firstframe.sh: first frame of a ${duration} s 1080x1920 H.264+AAC clip ($clip_bytes bytes, $((clip_bytes * 8 / duration / 1000)) kb/s, moov at the end, B-frames: $(ffprobe -v error -select_streams v:0 -show_entries stream=has_b_frames -of csv=p=0 "$clip" | sed 's/^0$/none/; s/^[1-9]/reorder depth &/')) over $rtt ms / $rate"
echo "  emulation: $emulation — $link"
echo "  link checked: request on a kept connection $(ms "$rtt_keep") ms, on a new one $(ms "$rtt_fresh") ms (medians of 5); clip download $link_mbit Mbit/s"
if [ "$emulation" = relay ]; then
  echo "  relay limits: TCP's slow start, ACK clocking and loss recovery run over the relay's short legs (client-relay over the veth, relay-server on loopback), not over $rtt ms; so a new connection is at full rate after its first RTT where a real one would still be in slow start (~14 kB in its first RTT, doubling each RTT)"
fi
echo "  feed $("$feed" --version 2>&1 | head -n 1) ($feed); $(nginx -v 2>&1 | sed 's/.*: //'); $("$chromium" --version 2>/dev/null | head -n 1); $(ffmpeg -version | head -n 1 | cut -d' ' -f1-3)"
echo "  machine: $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo); $(date '+%Y-%m-%d %H:%M %Z'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  (a) $url_a   (b) $url_b   preload_bytes $preload; $runs rounds, the order alternating"
echo "  (a)/(b): a new Chromium and profile per run (cold cache, new connections), a muted <video preload=auto> on a blank page of its own; src set -> loadeddata"
echo "  (c)/(d): the console (a new Chromium per run), one ArrowDown once its current video has loadeddata; (c) after the next <video> has readyState >= 2"
echo "           (preloaded); (d) with ?preload=0 (the console preloads nothing). Both timed in the page from the key to the new current's readyState >= 2"

# browser MODE NAME[=URL] [ARGS…] -> the driver's JSON line for one measurement, also appended to
# $work/browser.ndjson (a failed measurement fails the script); the /media requests the servers
# logged meanwhile go to $work/requests.NAME.
browser() {
  local mode=$1 name out n0 f0
  if [ "$mode" = needed ]; then name=needed; else name=${2%%=*}; fi
  n0=$(wc -l <"$work/nginx/access.log") f0=$(wc -l <"$work/feed.log")
  out=$(in_cli "$python" "$root/bench/firstframe_browser.py" "$@" --timeout "$timeout" \
    --chromium "$chromium" --chromedriver "$chromedriver" 2>"$work/browser.err") \
    || { printf '%s\n' "$out" >&2; tail -n 20 "$work/browser.err" >&2; fail "the browser run ($mode ${2:-}) failed"; }
  sleep 0.2   # the servers log a request once its answer is out
  { tail -n "+$((n0 + 1))" "$work/nginx/access.log" | awk '$3 == "\"GET" && $4 ~ /^\/clip/ {
      gsub(/"/, "", $6); printf "nginx %s %s %s B (connection %s)\n", ($6 == "-" ? "whole" : $6), $7, $8, $9 }'
    tail -n "+$((f0 + 1))" "$work/feed.log" | awk '$1 == "GET" && $2 ~ /^\/media\// { printf "feed %s %s %s B\n", $2, $3, $4 }'
  } >"$work/requests.$name"
  printf '%s\n' "$out" >>"$work/browser.ndjson"
  printf '%s\n' "$out"
}
# wall COMMAND… -> seconds the command took (it must succeed)
wall() {
  local a b
  a=$(date +%s%N)
  "$@" >/dev/null 2>"$work/wall.err" || { tail -n 5 "$work/wall.err" >&2; fail "failed: $*"; }
  b=$(date +%s%N)
  awk -v d=$((b - a)) 'BEGIN { printf "%.4f", d / 1e9 }'
}
ffmpeg_first() { in_cli ffmpeg -nostdin -v error -i "$1" -frames:v 1 -f null -; }
# fetch BYTES -> curl's time_total for bytes 0-(BYTES-1) of (b) on a new connection
fetch() { in_cli curl -sf -o /dev/null -w '%{time_total}' -H "Range: bytes=0-$(($1 - 1))" "$url_b"; }

# How many leading bytes of the served file Chromium needs before loadeddata (the driver bisects
# over the ends of the file's packets, with nothing sent past the prefix), for the floor Fc.
{ echo $((preload - 1)); ffprobe -v error -show_entries packet=pos,size -of csv=p=0 "$work/served.mp4" \
    | awk -F, -v p="$preload" '{ e = $1 + $2; if (e >= p) print e }' | sort -n -u; } >"$work/offsets"
needed=$(browser needed "$work/served.mp4" "$work/offsets" | jq -r .bytes)
[[ $needed =~ ^[1-9][0-9]*$ ]] || fail "Chromium fired no loadeddata even with the whole served file"
echo "  Chromium's loadeddata needs the first $needed bytes of the served file ($(ratio "$needed" "$preload") x preload_bytes; bisected over packet ends, on loopback)"

: >"$work/browser.ndjson"
for ((i = 1; i <= runs; i++)); do
  if ((i % 2)); then order=(a b); else order=(b a); fi
  declare -A chrome=()
  for c in "${order[@]}"; do
    if [ "$c" = a ]; then url=$url_a; else url=$url_b; fi
    chrome[$c]=$(browser load "$c=$url" | jq -r .loadeddata_ms)
  done
  for c in "${order[@]}"; do
    if [ "$c" = a ]; then url=$url_a; else url=$url_b; fi
    t=$(wall ffmpeg_first "$url")
    echo "$t" >>"$work/ffmpeg.$c"
  done
  f=$(fetch "$preload") || fail "the floor fetch failed"
  echo "$f" >>"$work/floor"
  fc=$(fetch "$needed") || fail "the Chromium floor fetch failed"
  echo "$fc" >>"$work/floor.chromium"
  printf '  round %2d (%s): chromium a %6.1f ms  b %6.1f ms   ffmpeg a %6.1f ms  b %6.1f ms   F %6.1f ms  Fc %6.1f ms\n' "$i" "${order[*]}" \
    "${chrome[a]}" "${chrome[b]}" "$(ms "$(tail -n 1 "$work/ffmpeg.a")")" "$(ms "$(tail -n 1 "$work/ffmpeg.b")")" "$(ms "$f")" "$(ms "$fc")"
done

for ((i = 1; i <= runs; i++)); do
  if ((i % 2)); then order=(c d); else order=(d c); fi
  declare -A swiped=()
  for c in "${order[@]}"; do swiped[$c]=$(browser swipe "$c" --console "$feed_base/"); done
  printf '  swipe round %2d (%s): c %6.1f ms  d %6.1f ms (readyState at the keys: c %s, d %s; video %s)   playing c %6.1f  d %6.1f ms   c: neighbour ready after the current %5.0f ms\n' \
    "$i" "${order[*]}" "$(jq -r .ready_ms <<<"${swiped[c]}")" "$(jq -r .ready_ms <<<"${swiped[d]}")" \
    "$(jq -r .state_at_swipe <<<"${swiped[c]}")" "$(jq -r .state_at_swipe <<<"${swiped[d]}")" "$(jq -r '.index + 1' <<<"${swiped[d]}")" \
    "$(jq -r .moving_ms <<<"${swiped[c]}")" "$(jq -r .moving_ms <<<"${swiped[d]}")" \
    "$(jq -r .neighbour_ready_ms <<<"${swiped[c]}")"
done
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# stats CASE FIELD -> "median p95" in ms of the browser's FIELD for CASE
stats() {
  local values
  values=$(jq -r --arg c "$1" "select(.case == \$c) | .$2" "$work/browser.ndjson")
  printf '%.1f %.1f\n' "$(median <<<"$values")" "$(p95 <<<"$values")"
}
stats_file() { printf '%.1f %.1f\n' "$(awk '{ print $1 * 1000 }' "$1" | median)" "$(awk '{ print $1 * 1000 }' "$1" | p95)"; }
read -r a_med a_p95 < <(stats a loadeddata_ms)
read -r b_med b_p95 < <(stats b loadeddata_ms)
read -r am_med _ < <(stats a metadata_ms)
read -r bm_med _ < <(stats b metadata_ms)
read -r c_med c_p95 < <(stats c ready_ms)
read -r d_med d_p95 < <(stats d ready_ms)
read -r cm_med cm_p95 < <(stats c moving_ms)
read -r dm_med dm_p95 < <(stats d moving_ms)
read -r nr_med _ < <(stats c neighbour_ready_ms)
read -r fa_med fa_p95 < <(stats_file "$work/ffmpeg.a")
read -r fb_med fb_p95 < <(stats_file "$work/ffmpeg.b")
read -r f_med f_p95 < <(stats_file "$work/floor")
read -r fc_med fc_p95 < <(stats_file "$work/floor.chromium")

row() { printf '  %-62s median %7.1f ms   p95 %7.1f ms\n' "$@"; }
echo "Chromium, src set -> loadeddata (a new browser and profile per run), $runs runs each:"
row "(a) nginx, moov at the end" "$a_med" "$a_p95"
row "(b) feed serve, fast start" "$b_med" "$b_p95"
printf '  %-62s (a) %.1f ms, (b) %.1f ms\n' "src -> loadedmetadata, medians" "$am_med" "$bm_med"
echo "ffmpeg -i URL -frames:v 1 -f null -, wall time (process start included), $runs runs each:"
row "(a) nginx" "$fa_med" "$fa_p95"
row "(b) feed serve" "$fb_med" "$fb_p95"
echo "floors: curl of the first bytes of (b) on a new connection (time_total), $runs runs each:"
row "F: bytes 0-$((preload - 1)) (preload_bytes)" "$f_med" "$f_p95"
row "Fc: bytes 0-$((needed - 1)) (what Chromium's loadeddata needs)" "$fc_med" "$fc_p95"
echo "console swipe (ArrowDown dispatched in the page), keys -> new current readyState >= 2, $runs runs each:"
row "(c) to the preloaded neighbour" "$c_med" "$c_p95"
row "(d) to a video not preloaded (?preload=0)" "$d_med" "$d_p95"
row "beside them, keys -> currentTime > 0 (playing): (c)" "$cm_med" "$cm_p95"
row "                                                (d)" "$dm_med" "$dm_p95"
printf '  %-62s %.0f ms\n' "the neighbour had readyState >= 2, after the current (median)" "$nr_med"
echo "bytes: preload_bytes $preload; shortest prefix of the served file from which ffmpeg decodes the first picture $shortest; Chromium's loadeddata $needed"
echo "requests in the last run of each case (as the server logged them: the range or path, status, body bytes handed over):"
for c in a b c d; do echo "  ($c) $(paste -sd';' "$work/requests.$c" | sed 's/;/; /g')"; done

r_bf=$(ratio "$b_med" "$f_med") r_bfc=$(ratio "$b_med" "$fc_med")
diff_ab=$(awk -v a="$a_med" -v b="$b_med" 'BEGIN { printf "%.1f", a - b }')
r_preload=$(ratio "$preload" "$shortest")
echo "ratio feed/nginx chromium first frame $(ratio "$b_med" "$a_med")"
echo "ratio feed/nginx ffmpeg first frame $(ratio "$fb_med" "$fa_med")"
echo "ratio feed/floor chromium first frame $r_bf"
echo "ratio feed/chromium-floor chromium first frame $r_bfc"
echo "ratio swipe not-preloaded/preloaded $(ratio "$d_med" "$c_med")"
echo "ratio preload_bytes/shortest prefix $r_preload"
echo "ratio chromium-needed/preload_bytes $(ratio "$needed" "$preload")"

goal() { if awk "BEGIN { exit !($2) }"; then echo "goal $1: met"; else echo "goal $1: NOT met"; fi; }
# Against Fc (#44): the bytes Chromium itself needs before loadeddata, on a new connection; the
# floor F of preload_bytes alone is printed beside it.
goal "(b) <= 1.2 x Fc ($b_med ms, Fc $fc_med ms: $r_bfc x; beside it F $f_med ms: $r_bf x)" "$r_bfc <= 1.2"
goal "(a) - (b) >= 1 RTT ($diff_ab ms, RTT $rtt ms)" "$diff_ab >= $rtt"
goal "(c) median <= 50 ms ($c_med ms) and p95 <= 100 ms ($c_p95 ms); (d) beside it: median $d_med ms, p95 $d_p95 ms" "$c_med <= 50 && $c_p95 <= 100"
goal "preload_bytes between 1 and 1.2 x the shortest prefix ($preload / $shortest = $r_preload)" "$preload >= $shortest && $preload <= 1.2 * $shortest"
echo "emulation: $emulation${relay_note:+ ($relay_note)}"
