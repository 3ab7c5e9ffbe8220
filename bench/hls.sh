#!/usr/bin/env bash
# bench/hls.sh [ROUNDS] — `feed hls` (a one-pass HLS ladder) against ffmpeg as one process and
# against four separate ffmpeg runs, on a 1080x1920 30 fps clip, four rungs, the same x264 settings.
#
# Makes, in a temporary folder removed on exit, a DURATION s (default 30) WIDTHxHEIGHT (default
# 1080x1920) 30 fps clip with detail and motion: testsrc2 (moving shapes, text, gradients)
# averaged with a zooming mandelbrot, plus a stereo sine track (AAC 192k), encoded nearly
# losslessly (libx264 veryfast CRF 12, 30–55 Mbit/s) so that decoding it costs what a real upload
# does. Made once, untimed. The ladder is 1080,720,540,360 (each the rung's shorter side: 1080x1920,
# 720x1280, 540x960, 360x640). Three contenders, the same x264 settings in every rung of each
# (libx264 preset veryfast, CRF 23, peak cap feed's default 6M x (p/1080)^1.5 with a VBV buffer
# of twice that, key frames every 2 s at the same pictures in every rung, scene cuts off), AAC
# 128k stereo, fMP4 HLS with 6 s segments:
#   feed          feed hls SRC -o OUT --ladder 1080,720,540,360 --preset veryfast --crf 23
#                 (one decode, swscale bicubic, the four encoders concurrently, AAC encoded once)
#   one-process   ffmpeg -filter_complex 'split=4, scale=W:H:flags=SCALER per rung' with -map per
#                 rung, -c:v libx264 -preset veryfast -crf 23 -maxrate:v:N -bufsize:v:N -g 60
#                 -keyint_min 60 -sc_threshold 0, -c:a aac -b:a 128k mapped into every variant,
#                 -f hls -hls_time 6 -hls_playlist_type vod -hls_segment_type fmp4 -hls_flags
#                 independent_segments -var_stream_map 'v:0,a:0,name:1080p …' -master_pl_name
#                 (one decode; ffmpeg 5.1 encodes the four rungs and four AACs from one thread,
#                 x264's own frame threads run in parallel)
#   separate      four ffmpeg runs one after the other, one per rung (-vf scale=W:H:flags=SCALER,
#                 the same x264, AAC and HLS options), each decoding the source again
# SCALER is ffmpeg's default, bicubic. Before timing, each contender packages the clip's first
# 2 s and the script checks it: feed's and ffmpeg's master.m3u8 list 4 variants, every rung
# decodes without an error (`ffmpeg -v error -i RUNG/index.m3u8 -f null -`), and x264's settings
# (the options string it writes into the stream: crf, vbv_maxrate, vbv_bufsize, scenecut,
# open_gop, bframes, ref, subme, rc_lookahead, trellis, mbtree) are the same in each rung of all
# three. Then ROUNDS rounds (default 3), the order rotating each round (feed, one-process,
# separate; then one-process, separate, feed; …), each run into an emptied folder. Wall time,
# CPU time (user + system) and peak RSS come from GNU time (/usr/bin/time -f '%e %M %U %S');
# for the separate runs wall and CPU are the sums of the four runs and peak RSS the largest.
# Prints the medians, the `ratio feed/…` lines and, from the last round's outputs only, each
# rung's SSIM (ffmpeg's ssim filter, the All figure averaged over the frames; both inputs with
# PTS-STARTPTS, shortest) of feed's and of the separate runs' rung against the one-process rung
# (the anchor), and of all three against the source scaled to the rung with lanczos in the same
# filter graph, with each rung's bit rate (video + audio, from the files). Goals: wall <= 0.95 x
# one-process and <= 0.7 x separate; peak RSS <= one-process's; in every rung feed's SSIM against
# the source within 0.002 of the anchor's. Missed goals do not fail the script; setup does.
#
# Environment: FEED (default .build/release/feed, built when missing or older than the
# sources), ROUNDS (3; the first argument wins), DURATION (30), WIDTH (1080), HEIGHT (1920),
# SCALER (bicubic: ffmpeg's scale flags; bicubic is also feed's), FFMPEG (ffmpeg).
set -euo pipefail

rounds=${1:-${ROUNDS:-3}}
duration=${DURATION:-30}
width=${WIDTH:-1080} height=${HEIGHT:-1920}
scaler=${SCALER:-bicubic}
ffmpeg=${FFMPEG:-ffmpeg}
fps=30 gop_seconds=2 segment=6 preset=veryfast crf=23 audio_rate=128k
ladder=(1080 720 540 360)
# shellcheck source=SCRIPTDIR/lib.bash
source "$(dirname "$0")/lib.bash"
bench_setup "$ffmpeg" /usr/bin/time awk

fail() { echo "bench/hls.sh: $*" >&2; exit 1; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || fail "ROUNDS must be a positive integer, not '$rounds'"
[[ $duration =~ ^[1-9][0-9]*$ ]] || fail "DURATION must be whole seconds, not '$duration'"
[[ $width =~ ^[1-9][0-9]*$ && $height =~ ^[1-9][0-9]*$ && $((width % 2 + height % 2)) = 0 ]] \
  || fail "WIDTH and HEIGHT must be even numbers, not '$width' and '$height'"

# Everything made here (the clip, every output, the logs) lives in $work and goes on any exit.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The rungs as feed makes them: the shorter side p (sizes above the source's are dropped), the
# longer side keeps the aspect, both rounded to even; the peak cap is feed's default,
# 6M x (p/1080)^1.5 rounded, truncated to whole kb/s (6000k, 3265k, 2121k, 1154k).
rung_p=() rung_w=() rung_h=() rung_k=()
short=$((width < height ? width : height)) long=$((width < height ? height : width))
for p in "${ladder[@]}"; do
  ((p <= short)) || continue
  other=$(awk -v l="$long" -v p="$p" -v s="$short" 'BEGIN { print int(l * p / s / 2 + 0.5) * 2 }')
  rung_p+=("$p")
  if ((width <= height)); then rung_w+=("$p") rung_h+=("$other"); else rung_w+=("$other") rung_h+=("$p"); fi
  rung_k+=("$(awk -v p="$p" 'BEGIN { print int(int(6e6 * (p / 1080) ^ 1.5 + 0.5) / 1000) }')")
done
((${#rung_p[@]} > 0)) || fail "no rung of ${ladder[*]} fits a ${width}x$height source"
ladder_csv=$(IFS=,; echo "${rung_p[*]}")
gop=$((gop_seconds * fps))
frames=$((duration * fps))
x264=(-c:v libx264 -preset "$preset" -crf "$crf" -g "$gop" -keyint_min "$gop" -sc_threshold 0)
aac=(-c:a aac -b:a "$audio_rate")
hls=(-f hls -hls_time "$segment" -hls_playlist_type vod -hls_segment_type fmp4 -hls_flags independent_segments)
ff=("$ffmpeg" -nostdin -nostats -hide_banner -v error -y)

# The clip: made once, outside the timed runs.
src=$work/source.mp4
echo "making the ${duration} s ${width}x$height source…" >&2
t0=$(date +%s)
"${ff[@]}" -f lavfi -i "testsrc2=size=${width}x$height:rate=$fps" \
  -f lavfi -i "mandelbrot=size=$((width / 2))x$((height / 2)):rate=$fps,scale=$width:$height:flags=bicubic" \
  -f lavfi -i "aevalsrc=0.2*sin(2*PI*440*t)|0.2*sin(2*PI*660*t):s=48000:c=stereo" \
  -filter_complex "[0:v]format=yuv420p[t];[1:v]format=yuv420p[m];[t][m]blend=all_mode=average,format=yuv420p[v]" \
  -map '[v]' -map 2:a -t "$duration" -c:v libx264 -preset veryfast -crf 12 -c:a aac -b:a 192k "$src" \
  || fail "could not make the source clip"
source_s=$(($(date +%s) - t0))
short_src=$work/short.mp4   # the first 2 s, for the checks before timing
"${ff[@]}" -i "$src" -t 2 -c copy "$short_src" || fail "could not cut the 2 s check clip"

# measure LOG COMMAND… -> sets m_wall m_kb m_cpu (GNU time: %e wall s, %M peak RSS KB, %U + %S).
measure() {
  local log=$1; shift
  /usr/bin/time -o "$work/time.txt" -f '%e %M %U %S' "$@" >"$log" 2>&1 \
    || { tail -n 20 "$log" >&2; tail -n 2 "$work/time.txt" >&2; fail "failed: ${*:1:3} …"; }
  read -r m_wall m_kb m_cpu < <(tail -n 1 "$work/time.txt" | awk '{ print $1, $2, $3 + $4 }')
}

# run NAME SRC OUT -> packages SRC into OUT (emptied first) with contender NAME; sets r_wall r_kb r_cpu.
run() {
  local name=$1 in=$2 out=$3 i graph maps=() rates=() map=()
  rm -rf "$out"
  mkdir -p "${out%/*}"
  case $name in
    feed)
      measure "$work/$name.log" "$feed" hls "$in" -o "$out" --ladder "$ladder_csv" --preset "$preset" --crf "$crf"
      r_wall=$m_wall r_kb=$m_kb r_cpu=$m_cpu ;;
    one-process)
      mkdir -p "$out"
      graph="[0:v]split=${#rung_p[@]}"
      for i in "${!rung_p[@]}"; do graph+="[s$i]"; done
      for i in "${!rung_p[@]}"; do
        graph+=";[s$i]scale=${rung_w[i]}:${rung_h[i]}:flags=${scaler}[v$i]"
        maps+=(-map "[v$i]" -map 0:a:0)
        rates+=("-maxrate:v:$i" "${rung_k[i]}k" "-bufsize:v:$i" "$((2 * rung_k[i]))k")
        map+=("v:$i,a:$i,name:${rung_p[i]}p")
      done
      measure "$work/$name.log" "${ff[@]}" -i "$in" -filter_complex "$graph" "${maps[@]}" "${x264[@]}" "${rates[@]}" \
        "${aac[@]}" "${hls[@]}" -var_stream_map "${map[*]}" -master_pl_name master.m3u8 \
        -hls_segment_filename "$out/%v/segment_%05d.m4s" "$out/%v/index.m3u8"
      r_wall=$m_wall r_kb=$m_kb r_cpu=$m_cpu ;;
    separate)
      r_wall=0 r_kb=0 r_cpu=0
      for i in "${!rung_p[@]}"; do
        mkdir -p "$out/${rung_p[i]}p"
        measure "$work/$name.log" "${ff[@]}" -i "$in" -map 0:v:0 -map 0:a:0 -vf "scale=${rung_w[i]}:${rung_h[i]}:flags=$scaler" \
          "${x264[@]}" -maxrate "${rung_k[i]}k" -bufsize "$((2 * rung_k[i]))k" "${aac[@]}" "${hls[@]}" \
          -hls_segment_filename "$out/${rung_p[i]}p/segment_%05d.m4s" "$out/${rung_p[i]}p/index.m3u8"
        read -r r_wall r_kb r_cpu < <(awk -v w="$r_wall" -v k="$r_kb" -v c="$r_cpu" -v w1="$m_wall" -v k1="$m_kb" -v c1="$m_cpu" \
          'BEGIN { print w + w1, (k1 > k ? k1 : k), c + c1 }')
      done ;;
  esac
}

# x264_settings FILE -> the settings x264 wrote into its options string (SEI of the first picture).
x264_settings() {
  { grep -aoE ' (crf|vbv_maxrate|vbv_bufsize|scenecut|open_gop|bframes|ref|subme|rc_lookahead|trellis|mbtree)=[0-9.]+' "$1" || true; } \
    | tr -d ' ' | sort -u | tr '\n' ' '
}

contenders=(feed one-process separate)

# Checks before timing, on the first 2 s: playlists, decodable rungs, the same x264 settings.
for name in "${contenders[@]}"; do
  run "$name" "$short_src" "$work/check/$name"
  if [ "$name" != separate ]; then
    variants=$(grep -c '^#EXT-X-STREAM-INF' "$work/check/$name/master.m3u8" 2>/dev/null || true)
    [ "$variants" = "${#rung_p[@]}" ] || fail "$name: master.m3u8 lists ${variants:-no} variants, not ${#rung_p[@]}"
  fi
  for p in "${rung_p[@]}"; do
    playlist=$work/check/$name/${p}p/index.m3u8
    [ -s "$playlist" ] || fail "$name: no ${p}p/index.m3u8"
    if ! errors=$("$ffmpeg" -nostdin -v error -i "$playlist" -f null - 2>&1) || [ -n "$errors" ]; then
      fail "$name: ${p}p does not decode cleanly: $(head -c 300 <<<"$errors")"
    fi
  done
done
for p in "${rung_p[@]}"; do
  want=$(x264_settings "$work/check/one-process/${p}p/segment_00000.m4s")
  [[ $want == *vbv_maxrate=* ]] || fail "one-process ${p}p: no x264 settings found in its first segment"
  for name in feed separate; do
    got=$(x264_settings "$work/check/$name/${p}p/segment_00000.m4s")
    [ "$got" = "$want" ] || fail "${p}p: $name's x264 settings ($got) are not one-process's ($want)"
  done
done
shown=${rung_p[$((${#rung_p[@]} > 1 ? 1 : 0))]}p   # the rung whose settings the header shows
settings=$(x264_settings "$work/check/feed/$shown/segment_00000.m4s")
rm -rf "$work/check"

col_median() { cut -d' ' -f"$1" "$work/results.$2" | median; }

sizes=() maxrates=()
for i in "${!rung_p[@]}"; do sizes+=("${rung_w[i]}x${rung_h[i]}") maxrates+=("${rung_k[i]}k"); done
echo "bench/hls.sh: ${width}x$height $fps fps ${duration} s clip ($(($(stat -c %s "$src") * 8 / duration / 1000000)) Mbit/s H.264, made in $source_s s)" \
  "-> ladder ${sizes[*]}; rounds: $rounds, the order rotating"
echo "  machine: $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo); $(date '+%Y-%m-%d %H:%M %Z')"
echo "  feed $("$feed" --version 2>&1 | head -n 1) ($feed); $("$ffmpeg" -version | head -n 1 | cut -d' ' -f1-3); ffmpeg's scaler $scaler, feed's bicubic"
echo "  x264 in every rung (checked in all three): $preset, ${settings}(at $shown); caps ${maxrates[*]}, buffer 2x; key frames every $gop frames; AAC $audio_rate; ${segment} s fMP4 segments"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

for ((round = 0; round < rounds; round++)); do
  order=()
  for ((j = 0; j < ${#contenders[@]}; j++)); do order+=("${contenders[(round + j) % ${#contenders[@]}]}"); done
  for name in "${order[@]}"; do
    run "$name" "$src" "$work/out/$name"
    echo "$r_wall $r_kb $r_cpu" >>"$work/results.$name"
  done
  line="  round $((round + 1)) ($(IFS=,; echo "${order[*]}")):"
  for name in "${contenders[@]}"; do
    read -r w k c < <(tail -n 1 "$work/results.$name")
    line+=$(printf '  %s %.2f s cpu %.2f s %.0f MB' "$name" "$w" "$c" "$(awk -v k="$k" 'BEGIN { print k / 1024 }')")
  done
  echo "$line"
done

declare -A wall cpu kb
for name in "${contenders[@]}"; do
  wall[$name]=$(col_median 1 "$name") kb[$name]=$(col_median 2 "$name") cpu[$name]=$(col_median 3 "$name")
  printf '  %-11s median wall %7.2f s   CPU %7.2f s   peak RSS %7.1f MB\n' "$name" "${wall[$name]}" "${cpu[$name]}" \
    "$(awk -v k="${kb[$name]}" 'BEGIN { print k / 1024 }')"
done
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
r_one_wall=$(ratio "${wall[feed]}" "${wall[one-process]}")
r_sep_wall=$(ratio "${wall[feed]}" "${wall[separate]}")
r_one_rss=$(ratio "${kb[feed]}" "${kb[one-process]}")
echo "ratio feed/ffmpeg-one-process wall $r_one_wall"
echo "ratio feed/ffmpeg-separate wall $r_sep_wall"
echo "ratio feed/ffmpeg-one-process cpu $(ratio "${cpu[feed]}" "${cpu[one-process]}")"
echo "ratio feed/ffmpeg-separate cpu $(ratio "${cpu[feed]}" "${cpu[separate]}")"
echo "ratio feed/ffmpeg-one-process rss $r_one_rss"
echo "ratio feed/ffmpeg-separate rss $(ratio "${kb[feed]}" "${kb[separate]}")"

# SSIM, once, from the last round's outputs: one ffmpeg per rung decodes the three rungs and the
# source (scaled with lanczos in the same graph) and runs five ssim filters, each with its own
# per-frame stats file; the figure is the mean of the frames' All values.
ssim_mean() { awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^All:/) { s += substr($i, 5); n++ } } END { if (n) printf "%.5f %d\n", s / n, n; else print "nan 0" }' "$1"; }
kbps() { find "$1" -type f \( -name '*.m4s' -o -name '*.mp4' \) -printf '%s\n' | awk -v d="$duration" '{ s += $1 } END { printf "%.0f", s * 8 / d / 1000 }'; }
out=$work/out s=$work/ssim
mkdir -p "$s"
echo "SSIM (ffmpeg ssim, All, mean over the frames; last round's outputs; anchor = one-process; source = the clip scaled with lanczos)"
row='  %-5s %-9s  %11s %10s  %11s %13s %10s  %11s   %s\n'
# shellcheck disable=SC2059 # the same format for the header and the rows
printf "$row" rung size feed:anchor sep:anchor feed:source anchor:source sep:source feed-anchor "kb/s feed/anchor/sep"
worst=0 worst_rung=''
for i in "${!rung_p[@]}"; do
  p=${rung_p[i]}p
  "${ff[@]}" -i "$out/feed/$p/index.m3u8" -i "$out/one-process/$p/index.m3u8" -i "$out/separate/$p/index.m3u8" -i "$src" \
    -filter_complex "[0:v]setpts=PTS-STARTPTS,split=2[f1][f2];[1:v]setpts=PTS-STARTPTS,split=3[a1][a2][a3];
      [2:v]setpts=PTS-STARTPTS,split=2[s1][s2];[3:v]setpts=PTS-STARTPTS,scale=${rung_w[i]}:${rung_h[i]}:flags=lanczos,split=3[r1][r2][r3];
      [f1][a1]ssim=stats_file=$s/$p.feed-anchor:shortest=1[o1];[s1][a2]ssim=stats_file=$s/$p.separate-anchor:shortest=1[o2];
      [f2][r1]ssim=stats_file=$s/$p.feed-source:shortest=1[o3];[a3][r2]ssim=stats_file=$s/$p.anchor-source:shortest=1[o4];
      [s2][r3]ssim=stats_file=$s/$p.separate-source:shortest=1[o5]" \
    -map '[o1]' -map '[o2]' -map '[o3]' -map '[o4]' -map '[o5]' -f null - >"$s/$p.log" 2>&1 \
    || { tail -n 20 "$s/$p.log" >&2; fail "the SSIM pass of $p failed"; }
  declare -A q=()
  for pair in feed-anchor separate-anchor feed-source anchor-source separate-source; do
    read -r value count < <(ssim_mean "$s/$p.$pair")
    q[$pair]=$value
    [ "$count" = "$frames" ] || echo "  warning: $p $pair: $count frames compared, not $frames" >&2
  done
  diff=$(awk -v f="${q[feed-source]}" -v a="${q[anchor-source]}" 'BEGIN { printf "%+.5f", f - a }')
  if awk -v d="$diff" -v w="$worst" 'BEGIN { exit !(d < 0 ? -d > w : d > w) }'; then worst=${diff#[+-]} worst_rung=$p; fi
  # shellcheck disable=SC2059
  printf "$row" "$p" "${sizes[i]}" "${q[feed-anchor]}" "${q[separate-anchor]}" \
    "${q[feed-source]}" "${q[anchor-source]}" "${q[separate-source]}" "$diff" \
    "$(kbps "$out/feed/$p")/$(kbps "$out/one-process/$p")/$(kbps "$out/separate/$p")"
done
for name in feed one-process; do
  variants=$(grep -c '^#EXT-X-STREAM-INF' "$out/$name/master.m3u8" || true)
  [ "$variants" = "${#rung_p[@]}" ] || echo "  warning: $name's last master.m3u8 lists $variants variants" >&2
done

goal() { if awk "BEGIN { exit !($2) }"; then echo "goal $1: met"; else echo "goal $1: NOT met"; fi; }
goal "wall <= 0.95 x ffmpeg one-process ($r_one_wall)" "$r_one_wall <= 0.95"
goal "wall <= 0.7 x ffmpeg separate runs ($r_sep_wall)" "$r_sep_wall <= 0.7"
goal "peak RSS <= ffmpeg one-process's ($r_one_rss)" "${kb[feed]} <= ${kb[one-process]}"
goal "SSIM vs source within 0.002 of the anchor's in every rung (worst $worst${worst_rung:+ at $worst_rung})" "$worst <= 0.002"
