#!/usr/bin/env python3
"""bench/sync-score.py CORPUS FEED VENV — runs feed sync, audio-offset-finder and syncstart over
every pair of CORPUS/pairs.tsv (the order rotating per pair) and prints one table. Called by
bench/sync.sh, which documents the set-up.

Columns, per tool:
  answered   shared pairs at SNR >= 5 dB the tool gave an offset for (not refused)
  median/p95 absolute error in ms over those answers
  wrong      wrong answers accepted, over all pairs: an error above 100 ms on a shared or a
             periodic pair (any SNR), or any answer on a pair without shared sound
  snr0       shared pairs at 0 dB: answered within 100 ms / answered wrong / refused
  no-shared  pairs without shared sound the tool refused
  periodic   metronome pairs refused (every 0.5 s fits; any answer is a guess)
  s/pair     mean wall seconds per 60 s pair, start-up included
"""
import json
import os
import statistics
import subprocess
import sys
import time

corpus, feed, venv = sys.argv[1:4]


def run(args):
    start = time.monotonic()
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return done, time.monotonic() - start


def feed_sync(front, back):
    done, seconds = run([feed, "sync", front, back, "--json"])
    if done.returncode not in (0, 65):
        sys.exit(f"feed sync {front} {back}: exit {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)["offset"], seconds          # null offset when refused


def offset_finder(front, back):
    done, seconds = run([f"{venv}/bin/audio-offset-finder", "--find-offset-of", front, "--within", back, "--json"])
    if done.returncode != 0:
        return None, seconds
    answer = json.loads(done.stdout)
    return (answer["time_offset"] if answer["standard_score"] > 10 else None), seconds


def syncstart(front, back):
    # syncstart exits 1 even when it answers (its result tuple becomes the exit status), so
    # only a missing answer line counts as a failure.
    done, seconds = run([f"{venv}/bin/syncstart", front, back, "-s", "-q"])
    if "," not in done.stdout or done.stdout.startswith("("):
        return None, seconds
    # First line "file_to_advance,seconds" (then the same as a Python tuple): the file that
    # started first must be cut by that much.
    name, value = done.stdout.strip().splitlines()[0].rsplit(",", 1)
    return (-float(value) if name == front else float(value)), seconds


tools = [("feed", feed_sync), ("audio-offset-finder", offset_finder), ("syncstart", syncstart)]
pairs = []
with open(os.path.join(corpus, "pairs.tsv")) as listing:
    for line in listing:
        name, kind, offset, snr, front, back = line.rstrip("\n").split("\t")
        pairs.append((name, kind, float(offset) if offset else None, int(snr) if snr else None,
                      os.path.join(corpus, front), os.path.join(corpus, back)))

results = {tool: [] for tool, _ in tools}
for i, (name, kind, offset, snr, front, back) in enumerate(pairs):
    order = tools[i % 3:] + tools[:i % 3]
    for tool, function in order:
        found, seconds = function(front, back)
        results[tool].append((kind, offset, snr, found, seconds))
    print(f"\r{i + 1}/{len(pairs)} pairs", end="", file=sys.stderr, flush=True)
print(file=sys.stderr)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))] if ordered else float("nan")


rows = {}
for tool, _ in tools:
    entries = results[tool]
    shared = [e for e in entries if e[0].startswith("shared")]
    good = [e for e in shared if e[2] >= 5]
    errors = [abs(e[3] - e[1]) * 1000 for e in good if e[3] is not None]
    unrelated = [e for e in entries if e[0].startswith("noshared")]
    periodic = [e for e in entries if e[0].startswith("periodic")]
    wrong = sum(1 for e in shared + periodic if e[3] is not None and abs(e[3] - e[1]) > 0.1) \
        + sum(1 for e in unrelated if e[3] is not None)
    snr0 = [e for e in shared if e[2] == 0]
    snr0_right = sum(1 for e in snr0 if e[3] is not None and abs(e[3] - e[1]) <= 0.1)
    snr0_wrong = sum(1 for e in snr0 if e[3] is not None and abs(e[3] - e[1]) > 0.1)
    rows[tool] = {
        "answered": f"{len(errors)}/{len(good)}",
        "median": statistics.median(errors) if errors else float("nan"),
        "p95": percentile(errors, 95),
        "wrong": f"{wrong}/{len(entries)}",
        "snr0": f"{snr0_right}/{snr0_wrong}/{len(snr0) - snr0_right - snr0_wrong}",
        "noshared": f"{sum(1 for e in unrelated if e[3] is None)}/{len(unrelated)}",
        "noshared_share": sum(1 for e in unrelated if e[3] is None) / max(1, len(unrelated)),
        "periodic": f"{sum(1 for e in periodic if e[3] is None)}/{len(periodic)}",
        "seconds": statistics.mean(e[4] for e in entries),
    }

print(f"{len(pairs)} pairs of 60 s from {corpus}")
print(f"{'tool':<20} {'answered':>9} {'median ms':>10} {'p95 ms':>8} {'wrong':>7} {'snr0 ok/wrong/ref':>18} "
      f"{'no-shared refused':>18} {'periodic refused':>17} {'s/pair':>7}")
for tool, row in rows.items():
    print(f"{tool:<20} {row['answered']:>9} {row['median']:>10.2f} {row['p95']:>8.2f} {row['wrong']:>7} {row['snr0']:>18} "
          f"{row['noshared']:>18} {row['periodic']:>17} {row['seconds']:>7.3f}")
mine = rows["feed"]
for tool in ("audio-offset-finder", "syncstart"):
    peer = rows[tool]
    print(f"ratio feed/{tool}: median error {mine['median'] / peer['median']:.3f}, p95 {mine['p95'] / peer['p95']:.3f}, "
          f"s/pair {mine['seconds'] / peer['seconds']:.3f}")
goals = [
    ("median <= 5 ms", mine["median"] <= 5), ("p95 <= 33 ms", mine["p95"] <= 33),
    ("no wrong answer accepted", mine["wrong"].startswith("0/") and mine["snr0"].split("/")[1] == "0"),
    (">= 95 % of no-shared pairs refused", mine["noshared_share"] >= 0.95), ("< 1 s per 60 s pair", mine["seconds"] < 1),
    ("better median and p95 than both peers", all(mine["median"] < rows[t]["median"] and mine["p95"] < rows[t]["p95"]
                                                   for t in ("audio-offset-finder", "syncstart"))),
]
print("goals: " + ", ".join(f"{name} {'met' if ok else 'NOT met'}" for name, ok in goals))
