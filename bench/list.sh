#!/usr/bin/env bash
# bench/list.sh [RUNS] — `feed list --json` against `jq -c '.videos[]'` over a generated feed.
#
# Generates a 100,000-video feed in the fixture's (LIVEr) schema, builds the release binary if
# it is missing or older than the sources, then runs both tools alternately RUNS times each
# (default 5) with stdout to /dev/null. Wall time is measured around each run (nanosecond clock),
# peak RSS with /usr/bin/time -f '%M' (Debian package `time`). Prints the medians, the peak RSS
# and the `ratio` lines; the goal is ratio feed/jq <= 1.0.
#
# Environment: VIDEOS (default 100000), FEED (default .build/release/feed).
set -euo pipefail

runs=${1:-5}
videos=${VIDEOS:-100000}
source "$(dirname "$0")/lib.bash"
bench_setup python3 jq /usr/bin/time

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
file=$work/videos.json

python3 - "$file" "$videos" <<'PY'
import json, random, sys
path, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(42)
words = ["tacos", "food", "foodie", "grill", "street", "nyc", "sushi", "vegan", "brunch", "café", "ramen", "疯狂", "🔥"]
topics = ["tasting", "restos", "sharing", "grilling", "new eats"]
users = ["amanda", "eric", "sonia", "jenny", "carter", "zoë", "li_wei"]
with open(path, "w", encoding="utf-8") as out:
    out.write('{\n  "videos": [\n')
    for i in range(count):
        tags = " ".join("#" + rng.choice(words) for _ in range(rng.randint(0, 6)))
        video = {
            "id": 1000 + i,
            "userID": rng.randint(1, 99999),
            "username": rng.choice(users),
            "profilePicURL": f"https://d2uj5sc6syma2y.cloudfront.net/images/{i:08x}.png",
            "description": f"Video {i}: the \"best\" {rng.choice(words)} in town\n {tags}",
            "topic": rng.choice(topics),
            "viewers": rng.randint(0, 50000),
            "likes": rng.randint(0, 5000),
            "video": f"https://d2uj5sc6syma2y.cloudfront.net/video/{i:08x}.mp4",
            "thumbnail": f"https://d2uj5sc6syma2y.cloudfront.net/thum/{i:08x}.png",
        }
        text = json.dumps(video, ensure_ascii=False, indent=6)
        out.write("    " + text.replace("\n", "\n    ") + (",\n" if i + 1 < count else "\n"))
    out.write("  ]\n}\n")
PY

size=$(du -m "$file" | cut -f1)
echo "bench/list.sh: $videos videos, ${size} MB, $runs runs each, alternating"

# Sanity: both tools read the whole feed.
n_feed=$("$feed" list --feed "$file" --ndjson | wc -l)
n_jq=$(jq -c '.videos[]' "$file" | wc -l)
if [ "$n_feed" != "$videos" ] || [ "$n_jq" != "$videos" ]; then
  echo "bench/list.sh: expected $videos records, feed gave $n_feed, jq gave $n_jq" >&2
  exit 1
fi

measure() {  # measure NAME CMD… — appends "seconds kilobytes" to $work/NAME
  local name=$1; shift
  local start end
  start=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$work/rss" "$@" > /dev/null
  end=$(date +%s%N)
  echo "$(( (end - start) / 1000 )) $(tail -n 1 "$work/rss")" >> "$work/$name"
}

for ((i = 0; i < runs; i++)); do
  measure feed "$feed" list --feed "$file" --json
  measure jq jq -c '.videos[]' "$file"
done

median() {  # median COLUMN FILE
  cut -d' ' -f"$1" "$2" | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

t_feed=$(median 1 "$work/feed"); t_jq=$(median 1 "$work/jq")
m_feed=$(cut -d' ' -f2 "$work/feed" | sort -n | tail -n 1); m_jq=$(cut -d' ' -f2 "$work/jq" | sort -n | tail -n 1)

awk -v tf="$t_feed" -v tj="$t_jq" -v mf="$m_feed" -v mj="$m_jq" 'BEGIN {
  printf "feed list --json     median %7.3f s   peak RSS %7.1f MB\n", tf / 1e6, mf / 1024
  printf "jq -c .videos[]      median %7.3f s   peak RSS %7.1f MB\n", tj / 1e6, mj / 1024
  printf "ratio feed/jq %.2f\n", tf / tj
  printf "ratio feed/jq rss %.2f\n", mf / mj
}'
