#!/usr/bin/env bash
# Fuzz/run.sh — builds and runs the feed-loader fuzz target for FUZZ_SECONDS (default 60).
#
# Corpus: .build-fuzz/corpus/feed (kept between runs, never committed), seeded from
# Fixtures/*.json, ../shared/peer-data/*.json (when present) and Fuzz/seeds/feed/.
# Findings land in .build-fuzz/artifacts/; the script exits non-zero when there are any.
# Environment: FUZZ_SECONDS (60), FUZZ_MAX_LEN (65536 bytes), FUZZ_RSS_MB (2048),
# FUZZ_ARGS (extra libFuzzer flags, e.g. -jobs=2 -workers=2; job logs go to .build-fuzz/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/.build-fuzz
"$root/Fuzz/build.sh"

corpus=$out/corpus/feed
artifacts=$out/artifacts/
mkdir -p "$corpus" "$artifacts"
for seed in "$root"/Fixtures/*.json "$root"/../shared/peer-data/*.json "$root"/Fuzz/seeds/feed/*; do
  [ -f "$seed" ] && cp -f "$seed" "$corpus/seed-$(basename "$seed")"
done

seconds=${FUZZ_SECONDS:-60}
echo "fuzzing the feed loader for ${seconds}s (corpus $corpus)" >&2
status=0
cd "$out"  # libFuzzer writes fuzz-N.log files into the working folder when run with -jobs
"$out/feed-loader-fuzz" "$corpus" \
  -dict="$root/Fuzz/feed.dict" \
  -max_total_time="$seconds" \
  -max_len="${FUZZ_MAX_LEN:-65536}" \
  -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
  -timeout=10 \
  -artifact_prefix="$artifacts" \
  -print_final_stats=1 \
  ${FUZZ_ARGS:-} || status=$?
if compgen -G "$artifacts*" > /dev/null; then
  echo "findings in $artifacts:" >&2
  ls -l "$artifacts" >&2
  exit 1
fi
exit "$status"
