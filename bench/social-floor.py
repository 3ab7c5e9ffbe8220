#!/usr/bin/env python3
"""bench/social-floor.py DB SQL-FILE PARAMS-JSON [CLIENTS [SECONDS]] — the SQLite floor of
bench/social.sh (not a benchmark itself): the page's query alone, as fast as python's sqlite3
runs it.

CLIENTS processes (default 8, as wrk's connections), each with a connection of its own to DB (WAL,
read-only use), run SQL-FILE's statement with the JSON array PARAMS-JSON bound (`?`s, in order)
and fetch every row, over and over for SECONDS (default 10) after a second's warm-up.
Prints `req/s N rows R mean_ms M`: statements a second over all of them, the rows of one
statement (the same each time) and the mean time of one.
"""
import json
import multiprocessing
import sqlite3
import sys
import time


def client(db, sql, params, start, stop, out):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10, check_same_thread=False)
    n, rows, spent = 0, 0, 0.0
    while time.monotonic() < start:
        rows = len(con.execute(sql, params).fetchall())
    while True:
        a = time.monotonic()
        if a >= stop:
            break
        rows = len(con.execute(sql, params).fetchall())
        spent += time.monotonic() - a
        n += 1
    out.put((n, rows, spent))


def main():
    db, sql_file, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    sql = open(sql_file).read().strip().rstrip(";")
    clients = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 10.0
    warmup = 1.0
    start = time.monotonic() + warmup
    stop = start + seconds
    out = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=client, args=(db, sql, params, start, stop, out)) for _ in range(clients)]
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    n = sum(r[0] for r in results)
    spent = sum(r[2] for r in results)
    print("req/s %.1f rows %d mean_ms %.3f" % (n / seconds, results[0][1], (spent / n * 1000) if n else 0))


if __name__ == "__main__":
    main()
