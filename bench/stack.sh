#!/usr/bin/env bash
# bench/stack.sh [RUNS] — `feed stack` against ffmpeg's own vstack on two 720x1280 30 fps clips.
#
# Makes two 10 s clips with real detail and motion (testsrc2 for the back, mandelbrot for the
# front) and two 60 s ones with Debian's ffmpeg, cached in bench/out/. Builds the release binary
# if it is missing or older than the sources. Then, alternating, RUNS times each (default 3):
#   feed stack front back -o feed.mp4 --force
#   ffmpeg -i back -i front -filter_complex vstack -c:v libx264 -preset veryfast -crf 23
#          -pix_fmt yuv420p -movflags +faststart ffmpeg.mp4
# Wall time and peak RSS come from /usr/bin/time -f '%e %M'. Prints the medians, the PSNR of
# feed's output against ffmpeg's (ffmpeg's psnr filter), each output's PSNR and size against the
# uncompressed stack of the inputs (the quality each encode kept), the `ratio feed/ffmpeg` lines, and feed's
# peak RSS on the 10 s and the 60 s clips. Goals: time ratio <= 0.9, RSS ratio <= 1, PSNR >= 40 dB,
# 60 s peak within 10 % of the 10 s one.
#
# Environment: FEED (default .build/release/feed), FFMPEG (default ffmpeg).
set -euo pipefail

runs=${1:-3}
source "$(dirname "$0")/lib.bash"
ffmpeg=${FFMPEG:-ffmpeg}
bench_setup "$ffmpeg" /usr/bin/time
out=$root/bench/out
mkdir -p "$out"

clip() { # clip NAME SOURCE SECONDS
  local file=$out/$1-$3s.mp4
  if [ ! -s "$file" ]; then
    echo "making $file…" >&2
    "$ffmpeg" -v error -y -f lavfi -i "$2=size=720x1280:rate=30" -t "$3" \
      -c:v libx264 -preset veryfast -crf 18 -pix_fmt yuv420p "$file"
  fi
  echo "$file"
}
back10=$(clip back testsrc2 10); front10=$(clip front mandelbrot 10)
back60=$(clip back testsrc2 60); front60=$(clip front mandelbrot 60)

measure() { # measure OUTPUT-FILE COMMAND… -> "seconds kilobytes cpu-seconds"
  local stats=$out/time.txt
  /usr/bin/time -o "$stats" -f '%e %M %U %S' "${@:2}" >/dev/null 2>"$out/stderr.txt" || { cat "$out/stderr.txt" >&2; exit 70; }
  tail -n 1 "$stats" | awk '{ print $1, $2, $3 + $4 }'
}
run_feed() { measure "$3" "$feed" stack "$1" "$2" -o "$3" --force; }
run_ffmpeg() {
  measure "$3" "$ffmpeg" -v error -y -i "$2" -i "$1" -filter_complex vstack -c:v libx264 -preset veryfast -crf 23 \
    -pix_fmt yuv420p -movflags +faststart "$3"
}

echo "bench/stack.sh: 2 x 720x1280 30 fps 10 s clips -> 720x2560, $runs runs each, alternating ($(nproc) cores)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
feed_times=(); feed_rss=(); feed_cpu=(); ff_times=(); ff_rss=(); ff_cpu=()
for i in $(seq "$runs"); do
  read -r t m c < <(run_feed "$front10" "$back10" "$out/feed.mp4"); feed_times+=("$t"); feed_rss+=("$m"); feed_cpu+=("$c")
  read -r t m c < <(run_ffmpeg "$front10" "$back10" "$out/ffmpeg.mp4"); ff_times+=("$t"); ff_rss+=("$m"); ff_cpu+=("$c")
  echo "  run $i: feed ${feed_times[-1]} s ${feed_rss[-1]} KB cpu ${feed_cpu[-1]} s, ffmpeg ${ff_times[-1]} s ${ff_rss[-1]} KB cpu ${ff_cpu[-1]} s"
done
ft=$(printf '%s\n' "${feed_times[@]}" | median); fm=$(printf '%s\n' "${feed_rss[@]}" | median); fc=$(printf '%s\n' "${feed_cpu[@]}" | median)
gt=$(printf '%s\n' "${ff_times[@]}" | median); gm=$(printf '%s\n' "${ff_rss[@]}" | median); gc=$(printf '%s\n' "${ff_cpu[@]}" | median)
psnr=$("$ffmpeg" -hide_banner -i "$out/feed.mp4" -i "$out/ffmpeg.mp4" -lavfi psnr -f null - 2>&1 \
  | sed -n 's/.*PSNR.* average:\([0-9.inf]*\).*/\1/p' | tail -n 1)
# Each output against the uncompressed stack of the inputs: the quality each encode kept.
source_psnr() {
  "$ffmpeg" -hide_banner -i "$1" -i "$back10" -i "$front10" -filter_complex '[1][2]vstack[ref];[0][ref]psnr' -f null - 2>&1 \
    | sed -n 's/.*PSNR.* average:\([0-9.inf]*\).*/\1/p' | tail -n 1
}
feed_q=$(source_psnr "$out/feed.mp4"); ff_q=$(source_psnr "$out/ffmpeg.mp4")
feed_bytes=$(stat -c %s "$out/feed.mp4"); ff_bytes=$(stat -c %s "$out/ffmpeg.mp4")

read -r _ m60 _ < <(run_feed "$front60" "$back60" "$out/feed60.mp4")

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'feed   median %6.2f s   peak RSS %7d KB   cpu %6.2f s\n' "$ft" "$fm" "$fc"
printf 'ffmpeg median %6.2f s   peak RSS %7d KB   cpu %6.2f s\n' "$gt" "$gm" "$gc"
printf 'PSNR feed vs ffmpeg: %s dB (inf: identical pictures)\n' "$psnr"
printf 'PSNR against the inputs: feed %s dB in %d bytes, ffmpeg %s dB in %d bytes\n' "$feed_q" "$feed_bytes" "$ff_q" "$ff_bytes"
printf 'ratio feed/ffmpeg time %.2f\n' "$(echo "$ft $gt" | awk '{ print $1 / $2 }')"
printf 'ratio feed/ffmpeg cpu %.2f\n' "$(echo "$fc $gc" | awk '{ print $1 / $2 }')"
printf 'ratio feed/ffmpeg rss %.2f\n' "$(echo "$fm $gm" | awk '{ print $1 / $2 }')"
printf 'feed peak RSS 10 s %d KB, 60 s %d KB, ratio 60s/10s %.2f\n' "$fm" "$m60" "$(echo "$m60 $fm" | awk '{ print $1 / $2 }')"
rm -f "$out/feed.mp4" "$out/ffmpeg.mp4" "$out/feed60.mp4" "$out/time.txt" "$out/stderr.txt"
