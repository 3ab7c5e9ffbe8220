#!/usr/bin/env bash
# bench/objects.sh [MB] — feed's media on an object store against boto3 (PyPI, the reference
# S3 client), on the same local store in the same run: SeaweedFS from scripts/with-s3.sh.
#
#   upload   `feed roll add FILE --media s3://…` (a new prefix each round: probe, multipart
#            upload hashing on the way, the row) against boto3's `upload_file` of the same file
#            with the same part size (8 MiB) and concurrency (4). FILE: an MJPEG MP4 of MB
#            megabytes (default 633), made once by ffmpeg. Goal: feed ≤ 1.1 × boto3.
#   range    a 1 MiB range of that recording through `feed serve --media-serve proxy` against the
#            same range asked of the store itself (a presigned URL), curl on a new connection,
#            RANGES (default 40) random offsets each round, warm (the proxy's local copy made
#            first). Goal: feed's throughput ≥ 0.9 × the store's.
#   ladder   `feed roll hls ID` of a 30 s 1080p clip on the bucket (package, then upload every
#            file, segments first) against packaging the same clip into a folder (`feed hls`)
#            and boto3 uploading that folder (4 at once). Goal: feed ≤ 1.1 × the two.
# Rounds alternate feed, peer, feed, peer … (ROUNDS, default 3); medians of the rounds and
# their ratios are printed. Missed goals do not fail the script.
#
# Environment: FEED (default .build/release/feed, built when missing or older than the
# sources), ROUNDS, RANGES.
set -euo pipefail
mb=${1:-633}
# shellcheck source=SCRIPTDIR/lib.bash
source "$(dirname "$0")/lib.bash"
bench_setup ffmpeg curl python3
[[ $mb =~ ^[1-9][0-9]*$ ]] || { echo "$bench_name: MB must be a positive integer, not '$mb'" >&2; exit 64; }
data=$root/.build/bench/objects
mkdir -p "$data"
file=$data/clip-${mb}mb.mp4
if [ ! -s "$file" ]; then
  echo "making $file…" >&2
  ffmpeg -v error -y -f lavfi -i testsrc2=s=1920x1080:r=30 -t 3600 -fs "${mb}M" -c:v mjpeg -q:v 2 "$file.tmp.mp4"
  mv "$file.tmp.mp4" "$file"
fi
ladder=$data/ladder-30s.mp4
if [ ! -s "$ladder" ]; then
  ffmpeg -v error -y -f lavfi -i testsrc2=s=1920x1080:r=30 -f lavfi -i sine=f=440 -t 30 -c:v libx264 -preset veryfast \
    -pix_fmt yuv420p -c:a aac "$ladder.tmp.mp4"
  mv "$ladder.tmp.mp4" "$ladder"
fi
echo "load before the run: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
FEED="$feed" FILE="$file" LADDER="$ladder" ROUNDS="${ROUNDS:-3}" RANGES="${RANGES:-40}" \
  "$root/scripts/with-s3.sh" bash -c '"$FEED_TEST_S3_PYTHON" "$0"' "$root/bench/objects-bench.py"
