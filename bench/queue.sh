#!/usr/bin/env bash
# bench/queue.sh [JOBS] — feed's job queue against pgqueuer (PyPI), four workers each, on one
# PostgreSQL, in the same run.
#
# A throwaway cluster with PostgreSQL's default durability (scripts/with-postgres.sh with
# FEED_PG_DURABLE=1: fsync on) holds one database per tool. Rounds alternate feed, pgqueuer,
# feed, pgqueuer … (ROUNDS, default 3); each round, for each tool:
#   throughput  four worker processes started and given 2 s, then JOBS (default 10000) no-op
#               jobs queued in one transaction; jobs/s = JOBS / (the commit → the last job done).
#                 feed      4 × feed worker --concurrency 64 --quiet (CONCURRENCY; 64 is its maximum)
#                 pgqueuer  4 × a PgQueuer (asyncpg) with one entrypoint, its defaults
#                           (batch_size 10, no concurrency cap, LISTEN/NOTIFY and polling)
#   latency     the same four workers idle, then LATENCY_JOBS (default 1000) jobs queued one per
#               transaction at RATE per second (default 200); enqueue-to-start latency:
#                 feed      job.started_at (the claim, on the database's clock) − the producer's
#                           time.time() just before the insert (in the request)
#                 pgqueuer  the entrypoint's time.time() − the producer's time.time() just
#                           before enqueue (in the payload)
#               (one machine, one clock; feed's end point is its claim, pgqueuer's its handler)
# Prints jobs/s, latency p50 and p99 (medians over rounds) and feed/pgqueuer ratios. Goals:
# feed's jobs/s ≥ pgqueuer's; p50 ≤ 10 ms, p99 ≤ 50 ms. Missed goals do not fail the script.
#
# Environment: FEED (default .build/release/feed, built when missing or older than the
# sources), VENV (.build/bench/queue-venv: pgqueuer 1.6.0 with asyncpg, installed once from PyPI),
# ROUNDS, RATE, LATENCY_JOBS, CONCURRENCY.
set -euo pipefail
jobs=${1:-10000}
# shellcheck source=SCRIPTDIR/lib.bash
source "$(dirname "$0")/lib.bash"
bench_setup python3
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "bench/queue.sh: JOBS must be a positive integer, not '$jobs'" >&2; exit 64; }

venv=${VENV:-$root/.build/bench/queue-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pgqueuer, asyncpg' 2>/dev/null; then
  echo "installing pgqueuer into $venv…" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'pgqueuer[asyncpg]==1.6.0' >&2
fi
echo "load before the run: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
FEED_PG_DURABLE=1 FEED="$feed" JOBS="$jobs" "$root/scripts/with-postgres.sh" \
  "$venv/bin/python" "$root/bench/queue-bench.py"
