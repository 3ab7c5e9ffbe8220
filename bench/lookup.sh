#!/usr/bin/env bash
# bench/lookup.sh [ROUNDS] — `feed serve` finding a video by id on a big feed: the last video of
# a VIDEOS-video feed (default 100000) against the first, which is its peer (a lookup that costs
# the same wherever the video is in the file makes the ratio 1).
#
# Makes, in a temporary folder removed on exit, a LIVEr feed of VIDEOS videos with remote clips
# (jq), starts `feed serve --quiet --port 0` on it (FEED_HOME there) and, alternating which goes
# first, for ROUNDS rounds (default 3) of SECONDS_PER_RUN (default 5) after a 1 s warm-up each,
# runs wrk -t1 -cCONNECTIONS (default 4) on:
#   GET /videos/1 and GET /videos/VIDEOS     a video by id (LIVEr's shape)
#   GET /v1/videos/popular                   Pexels' popular list, page 1 of the whole feed
#   GET /v1/videos/search?query=user3+food   Pexels' search: 1 video in 7 matches, page 1
# Prints medians, the `ratio last/first` line and the goal: the last video's rate ≥ 0.9 × the
# first's. Popular (before 2026-11-26 it sorted the feed per request) and search are printed
# beside them, with `ratio search/popular`: what reading every video's words costs a page.
#
# Environment: FEED (default .build/release/feed), VIDEOS (100000), SECONDS_PER_RUN (5),
# CONNECTIONS (4).
set -euo pipefail

rounds=${1:-3}
videos=${VIDEOS:-100000}
seconds=${SECONDS_PER_RUN:-5}
connections=${CONNECTIONS:-4}
source "$(dirname "$0")/lib.bash"
bench_setup wrk jq curl

fail() { echo "bench/lookup.sh: $*" >&2; exit 1; }

work=$(mktemp -d)
feed_pid=''
cleanup() {
  [ -z "$feed_pid" ] || kill "$feed_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

jq -n --argjson n "$videos" '{videos: [range(1; $n + 1) | {id: ., userID: ., username: "user\(. % 7)",
  description: "Video \(.) #food", topic: "tasting", viewers: (. * 31 % 50000), likes: (. * 17 % 5000),
  video: "https://example.com/video/\(.).mp4"}]}' >"$work/feed.json"

FEED_HOME=$work/home "$feed" serve --feed "$work/feed.json" --port 0 --quiet >"$work/feed.out" 2>"$work/feed.err" &
feed_pid=$!
url=$(announced "feed serve" "$feed_pid" "$work/feed.out" "$work/feed.err" 'serving on ' 60)
search='/v1/videos/search?query=user3+food'
for path in /videos/1 "/videos/$videos" /v1/videos/popular "$search"; do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$url$path")" = 200 ] || fail "$url$path does not answer 200"
done
[ "$(curl -s "$url/videos/$videos" | jq '.id')" = "$videos" ] || fail "$url/videos/$videos is not video $videos"
expected=$(jq '[.videos[] | select(.username == "user3")] | length' "$work/feed.json")
[ "$(curl -s "$url$search" | jq '.total_results')" = "$expected" ] || fail "$url$search does not find the $expected videos of user3"

# rate PATH -> requests per second over SECONDS_PER_RUN
rate() {
  wrk -t1 -c "$connections" -d "${2:-$seconds}s" "$url$1" | awk '/Requests\/sec:/ { print $2 }'
}

echo "bench/lookup.sh: feed serve on a $videos-video feed ($(stat -c %s "$work/feed.json") bytes), wrk -t1 -c$connections ${seconds} s x $rounds rounds, alternating"
for path in /videos/1 "/videos/$videos" /v1/videos/popular "$search"; do rate "$path" 1 >/dev/null; done
: >"$work/first" >"$work/last" >"$work/popular" >"$work/search"
for ((i = 1; i <= rounds; i++)); do
  if ((i % 2)); then order="first last"; else order="last first"; fi
  for which in $order; do
    if [ "$which" = first ]; then rate /videos/1 >>"$work/first"; else rate "/videos/$videos" >>"$work/last"; fi
  done
  rate /v1/videos/popular >>"$work/popular"
  rate "$search" >>"$work/search"
  printf '  round %d: /videos/1 %9.1f req/s   /videos/%d %9.1f req/s   popular %8.1f req/s   search %8.1f req/s\n' "$i" \
    "$(tail -n 1 "$work/first")" "$videos" "$(tail -n 1 "$work/last")" "$(tail -n 1 "$work/popular")" "$(tail -n 1 "$work/search")"
done
first=$(median <"$work/first") last=$(median <"$work/last") popular=$(median <"$work/popular") searched=$(median <"$work/search")
printf '  median: /videos/1 %.1f req/s, /videos/%d %.1f req/s, /v1/videos/popular %.1f req/s, %s %.1f req/s\n' \
  "$first" "$videos" "$last" "$popular" "$search" "$searched"
echo "ratio search/popular req/s $(awk -v a="$searched" -v b="$popular" 'BEGIN { printf "%.2f", a / b }')"
ratio=$(awk -v a="$last" -v b="$first" 'BEGIN { printf "%.2f", a / b }')
echo "ratio last/first req/s $ratio"
if awk -v r="$ratio" 'BEGIN { exit !(r >= 0.9) }'; then echo "goal /videos/$videos >= 0.9 x /videos/1 ($ratio): met"
else echo "goal /videos/$videos >= 0.9 x /videos/1 ($ratio): NOT met"; fi
