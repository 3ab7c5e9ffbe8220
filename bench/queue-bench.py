"""bench/queue.sh's runner: feed's job queue and pgqueuer's on the cluster of FEED_TEST_POSTGRES.

Environment: FEED_TEST_POSTGRES (a superuser URL, from scripts/with-postgres.sh), FEED (the
binary), JOBS, ROUNDS (3), RATE (200 jobs/s), LATENCY_JOBS (1000). See bench/queue.sh.
"""
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

HERE = Path(__file__).resolve().parent
FEED = os.environ["FEED"]
JOBS = int(os.environ.get("JOBS", "10000"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
RATE = float(os.environ.get("RATE", "200"))
LATENCY_JOBS = int(os.environ.get("LATENCY_JOBS", "1000"))
WORKERS = 4
# Jobs each feed worker runs at once. pgqueuer's worker has no cap by default
# (max_concurrent_tasks None) and takes batches of 10; feed's runs at its own maximum, 64 (it
# claims as many jobs as it has free slots in one statement).
CONCURRENCY = os.environ.get("CONCURRENCY", "64")
BASE = os.environ["FEED_TEST_POSTGRES"]
SCRATCH = Path(tempfile.mkdtemp(prefix="feed-queue-bench-"))


def database(name: str) -> str:
    parts = urlsplit(BASE)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, ""))


FEED_URL = database("feed_q")
PGQ_URL = database("pgq_q")
FEED_ENV = {**os.environ, "FEED_CATALOG": FEED_URL, "FEED_MEDIA": str(SCRATCH / "media")}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def stop(processes: list[subprocess.Popen]) -> None:
    for p in processes:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in processes:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


class FeedQueue:
    name = "feed"

    async def setup(self) -> None:
        subprocess.run([FEED, "jobs"], env=FEED_ENV, check=True, stdout=subprocess.DEVNULL)
        self.db = await asyncpg.connect(FEED_URL)

    def workers(self) -> list[subprocess.Popen]:
        return [subprocess.Popen([FEED, "worker", "--concurrency", CONCURRENCY, "--quiet", "--grace", "0"], env=FEED_ENV)
                for _ in range(WORKERS)]

    async def reset(self) -> None:
        await self.db.execute("TRUNCATE job")

    async def enqueue_all(self, n: int) -> None:
        now = "extract(epoch from clock_timestamp())"
        await self.db.execute(f"INSERT INTO job(kind, state, request, created_at, updated_at, run_at) "
                              f"SELECT 'noop', 'queued', '{{}}', {now}, {now}, {now} FROM generate_series(1, $1)", n)

    async def enqueue_one(self) -> None:
        # The producer's clock before the insert, as pgqueuer's payload carries it.
        now = "extract(epoch from clock_timestamp())"
        await self.db.execute(f"INSERT INTO job(kind, state, request, created_at, updated_at, run_at) "
                              f"VALUES ('noop', 'queued', $1, {now}, {now}, {now})", f'{{"t":{time.time()!r}}}')

    async def remaining(self) -> int:
        return await self.db.fetchval("SELECT count(*) FROM job WHERE state <> 'done'")  # job_unfinished

    async def latencies(self) -> list[float]:
        rows = await self.db.fetch("SELECT started_at - (request::json->>'t')::float8 AS wait FROM job WHERE state = 'done'")
        return [r["wait"] for r in rows]


class PgQueuerQueue:
    name = "pgqueuer"

    async def setup(self) -> None:
        parts = urlsplit(PGQ_URL)
        query = dict(q.split("=", 1) for q in parts.query.split("&") if "=" in q)
        # scripts/with-postgres.sh's cluster listens on a port of its own, in the socket's name too.
        env = {**os.environ, "PGHOST": query.get("host", ""), "PGPORT": query.get("port", "5432"),
               "PGUSER": parts.username or "postgres", "PGDATABASE": "pgq_q"}
        subprocess.run([str(Path(sys.executable).parent / "pgq"), "install"], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.db = await asyncpg.connect(PGQ_URL)
        from pgqueuer.db import AsyncpgDriver
        from pgqueuer.queries import Queries
        self.queries = Queries(AsyncpgDriver(self.db))
        self.latency_files: list[Path] = []

    def workers(self) -> list[subprocess.Popen]:
        self.latency_files = [SCRATCH / f"pgq-latency-{time.time_ns()}-{n}.txt" for n in range(WORKERS)]
        return [subprocess.Popen([sys.executable, str(HERE / "queue-pgqueuer-worker.py"), PGQ_URL, str(f)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for f in self.latency_files]

    async def reset(self) -> None:
        await self.db.execute("TRUNCATE pgqueuer, pgqueuer_log, pgqueuer_statistics")

    async def enqueue_all(self, n: int) -> None:
        await self.queries.enqueue(["noop"] * n, [None] * n, [0] * n)

    async def enqueue_one(self) -> None:
        await self.queries.enqueue("noop", str(time.time()).encode())

    async def remaining(self) -> int:
        return await self.db.fetchval("SELECT count(*) FROM pgqueuer")

    async def latencies(self) -> list[float]:
        values: list[float] = []
        for f in self.latency_files:
            if f.exists():
                values += [float(line) for line in f.read_text().split()]
        return values


async def drained(queue, deadline: float) -> float:
    while await queue.remaining() > 0:
        if time.perf_counter() > deadline:
            raise SystemExit(f"bench/queue.sh: {queue.name} did not finish in time")
        await asyncio.sleep(0.02)  # light enough not to slow either queue down
    return time.perf_counter()


async def throughput(queue) -> float:
    await queue.reset()
    processes = queue.workers()
    try:
        await asyncio.sleep(2)  # started and listening: start-up is not timed
        await queue.enqueue_all(JOBS)
        started = time.perf_counter()
        ended = await drained(queue, started + 600)
    finally:
        stop(processes)
    return JOBS / (ended - started)


async def latency(queue) -> list[float]:
    await queue.reset()
    processes = queue.workers()
    try:
        await asyncio.sleep(2)  # started and listening
        begin = time.perf_counter()
        for n in range(LATENCY_JOBS):
            await queue.enqueue_one()
            delay = begin + (n + 1) / RATE - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        await drained(queue, time.perf_counter() + 120)
        await asyncio.sleep(0.3)
    finally:
        stop(processes)
    return await queue.latencies()


async def main() -> None:
    admin = await asyncpg.connect(BASE)
    for name in ("feed_q", "pgq_q"):
        await admin.execute(f"CREATE DATABASE {name}")
    await admin.close()
    queues = [FeedQueue(), PgQueuerQueue()]
    for q in queues:
        await q.setup()
    results = {q.name: {"rate": [], "p50": [], "p99": []} for q in queues}
    for r in range(ROUNDS):
        order = queues if r % 2 == 0 else list(reversed(queues))
        for q in order:
            rate = await throughput(q)
            waits = await latency(q)
            if len(waits) != LATENCY_JOBS:
                raise SystemExit(f"bench/queue.sh: {q.name} reported {len(waits)} of {LATENCY_JOBS} latencies")
            results[q.name]["rate"].append(rate)
            results[q.name]["p50"].append(percentile(waits, 50) * 1000)
            results[q.name]["p99"].append(percentile(waits, 99) * 1000)
            print(f"round {r + 1} {q.name:9} {rate:8.0f} jobs/s  p50 {results[q.name]['p50'][-1]:6.2f} ms  "
                  f"p99 {results[q.name]['p99'][-1]:6.2f} ms", file=sys.stderr)
    print(f"{JOBS} jobs, 4 workers, {ROUNDS} rounds (medians); latency: {LATENCY_JOBS} jobs at {RATE:.0f}/s")
    print(f"{'tool':10} {'jobs/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
    med = {name: {k: statistics.median(v) for k, v in m.items()} for name, m in results.items()}
    for name, m in med.items():
        print(f"{name:10} {m['rate']:8.0f} {m['p50']:8.2f} {m['p99']:8.2f}")
    f, p = med["feed"], med["pgqueuer"]
    print(f"ratio feed/pgqueuer: jobs/s {f['rate'] / p['rate']:.2f}, p50 {f['p50'] / p['p50']:.2f}, p99 {f['p99'] / p['p99']:.2f}")


asyncio.run(main())
