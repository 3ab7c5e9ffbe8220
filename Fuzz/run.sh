#!/usr/bin/env bash
# Fuzz/run.sh — builds and runs each libFuzzer target for FUZZ_SECONDS (default 60), one after
# the other: feed-loader-fuzz, media-reader-fuzz, mp4-box-fuzz, rtmp-fuzz, live-packaging-fuzz,
# then html-page-fuzz.
#
# Corpora (kept between runs, never committed):
# - .build-fuzz/corpus/feed, seeded from Fixtures/*.json, ../shared/peer-data/*.json (when
#   present) and Fuzz/seeds/feed/;
# - .build-fuzz/corpus/media, seeded once with small clips Fuzz/media-seeds.sh makes with
#   Debian's ffmpeg (no media is committed);
# - .build-fuzz/corpus/mp4, seeded with the media seeds that are MP4/MOV/M4A files;
# - .build-fuzz/corpus/rtmp and .build-fuzz/corpus/live, seeded once with what Fuzz/live-seeds.sh
#   makes with Debian's ffmpeg (an ffmpeg publish recorded, small FLV files and records);
# - .build-fuzz/corpus/html, seeded from Fuzz/seeds/html/.
# Findings land in .build-fuzz/artifacts/<target>/; the script exits non-zero when either target
# has any (or fails to run). LeakSanitizer uses Fuzz/lsan.supp, as `make sanitize` does; Swift's
# crash backtracer is off (SWIFT_BACKTRACE=enable=no, see below).
# Environment: FUZZ_SECONDS (60, per target), FUZZ_TARGETS ("feed-loader-fuzz media-reader-fuzz mp4-box-fuzz
# rtmp-fuzz live-packaging-fuzz html-page-fuzz"), FUZZ_MAX_LEN (feed: 65536 bytes), FUZZ_MEDIA_MAX_LEN (media: 1048576),
# FUZZ_MP4_MAX_LEN (262144), FUZZ_LIVE_MAX_LEN (rtmp and live packaging: 65536), FUZZ_HTML_MAX_LEN (65536), FUZZ_RSS_MB (2048),
# FUZZ_TIMEOUT (10 s per input: longer is a hang), FUZZ_ARGS (extra libFuzzer flags for both,
# e.g. -jobs=2 -workers=2; job logs go to .build-fuzz/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/.build-fuzz
seconds=${FUZZ_SECONDS:-60}
read -r -a targets <<< "${FUZZ_TARGETS:-feed-loader-fuzz media-reader-fuzz mp4-box-fuzz rtmp-fuzz live-packaging-fuzz html-page-fuzz}"
"$root/Fuzz/build.sh" "${targets[@]}"
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Swift's crash backtracer is on by default and runs on a Swift harness's trap: under ASan it reads
# memory that ASan reports as an overflow (so the report names the backtracer, not the input), and
# its swift-backtrace process outlives the fuzzer by minutes, holding the terminal or the pipe
# `make fuzz` writes to. Without it libFuzzer reports the trap ("deadly signal") with the stack.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

# fuzz TARGET CORPUS DICT MAX_LEN: runs one target; returns libFuzzer's status, or 1 on findings.
fuzz() {
  local target=$1 corpus=$2 dict=$3 max_len=$4 artifacts=$out/artifacts/${1%-fuzz}/ status=0
  mkdir -p "$artifacts"
  echo "== $target for ${seconds}s (corpus $corpus)" >&2
  (cd "$out" &&  # libFuzzer writes fuzz-N.log files into the working folder when run with -jobs
   "$out/$target" "$corpus" \
     -dict="$dict" \
     -max_total_time="$seconds" \
     -max_len="$max_len" \
     -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
     -timeout="${FUZZ_TIMEOUT:-10}" \
     -artifact_prefix="$artifacts" \
     -print_final_stats=1 \
     ${FUZZ_ARGS:-}) || status=$?
  if compgen -G "$artifacts*" > /dev/null; then
    echo "$target: findings in $artifacts:" >&2
    ls -l "$artifacts" >&2
    return 1
  fi
  return "$status"
}

# sweep_private_folders PREFIX: removes a harness's private input folders (PREFIX-PID-*) whose
# process is gone (it died on a finding, so its atexit never ran).
sweep_private_folders() {
  local dir pid
  for dir in /dev/shm/"$1"-* "${TMPDIR:-/tmp}"/"$1"-*; do
    [ -d "$dir" ] || continue
    pid=${dir##*/"$1"-}; pid=${pid%%-*}
    kill -0 "$pid" 2>/dev/null || rm -rf "$dir"
  done
}

status=0
for target in "${targets[@]}"; do
  case $target in
    feed-loader-fuzz)
      corpus=$out/corpus/feed
      mkdir -p "$corpus"
      for seed in "$root"/Fixtures/*.json "$root"/../shared/peer-data/*.json "$root"/Fuzz/seeds/feed/*; do
        [ -f "$seed" ] && cp -f "$seed" "$corpus/seed-$(basename "$seed")"
      done
      fuzz "$target" "$corpus" "$root/Fuzz/feed.dict" "${FUZZ_MAX_LEN:-65536}" || status=1
      ;;
    media-reader-fuzz)
      corpus=$out/corpus/media
      [ -f "$corpus/.made" ] || "$root/Fuzz/media-seeds.sh" "$corpus"
      fuzz "$target" "$corpus" "$root/Fuzz/media.dict" "${FUZZ_MEDIA_MAX_LEN:-1048576}" || status=1
      sweep_private_folders feed-media-fuzz
      ;;
    mp4-box-fuzz)
      corpus=$out/corpus/mp4
      mkdir -p "$corpus"
      [ -f "$out/corpus/media/.made" ] || "$root/Fuzz/media-seeds.sh" "$out/corpus/media"
      # The ISO base media seeds: their first box is ftyp.
      for seed in "$out"/corpus/media/*; do
        [ -f "$seed" ] && [ "$(head -c 8 "$seed" | tail -c 4)" = ftyp ] && cp -f "$seed" "$corpus/seed-$(basename "$seed")"
      done
      fuzz "$target" "$corpus" "$root/Fuzz/media.dict" "${FUZZ_MP4_MAX_LEN:-262144}" || status=1
      sweep_private_folders feed-mp4-fuzz
      ;;
    rtmp-fuzz)
      corpus=$out/corpus/rtmp
      [ -f "$corpus/.made" ] || "$root/Fuzz/live-seeds.sh" rtmp "$corpus"
      fuzz "$target" "$corpus" "$root/Fuzz/rtmp.dict" "${FUZZ_LIVE_MAX_LEN:-65536}" || status=1
      ;;
    live-packaging-fuzz)
      corpus=$out/corpus/live
      [ -f "$corpus/.made" ] || "$root/Fuzz/live-seeds.sh" flv "$corpus"
      # Inputs that found something once (Fuzz/README.md says what each found).
      for seed in "$root"/Fuzz/seeds/live/*; do cp -f "$seed" "$corpus/seed-$(basename "$seed")"; done
      fuzz "$target" "$corpus" "$root/Fuzz/live.dict" "${FUZZ_LIVE_MAX_LEN:-65536}" || status=1
      ;;
    html-page-fuzz)
      corpus=$out/corpus/html
      mkdir -p "$corpus"
      for seed in "$root"/Fuzz/seeds/html/*; do cp -f "$seed" "$corpus/seed-$(basename "$seed")"; done
      fuzz "$target" "$corpus" "$root/Fuzz/html.dict" "${FUZZ_HTML_MAX_LEN:-65536}" || status=1
      ;;
    *) echo "run.sh: unknown target $target" >&2; exit 64 ;;
  esac
done
exit "$status"
