"""One pgqueuer worker for bench/queue.sh: entrypoint "noop", which does nothing but note,
when the payload carries the producer's enqueue time, how long the job waited.

    python queue-pgqueuer-worker.py DSN LATENCY_FILE
"""
import asyncio
import sys
import time

import asyncpg
from pgqueuer import PgQueuer
from pgqueuer.models import Job


async def main(dsn: str, latency_path: str) -> None:
    connection = await asyncpg.connect(dsn)
    pgq = PgQueuer.from_asyncpg_connection(connection)
    out = open(latency_path, "a", buffering=1)

    @pgq.entrypoint("noop")
    async def noop(job: Job) -> None:
        if job.payload:
            out.write(f"{time.time() - float(job.payload.decode()):.6f}\n")

    await pgq.run()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
