#!/usr/bin/env python3
"""bench/recs-data.py — the rows of bench/recs.sh's speed part in a SQLite catalog (not a benchmark
itself).

  recs-data.py DB --users U --posts P --events E [--tags N] [--seed S] [--end EPOCH]

One transaction through python's sqlite3 (executemany), into a catalog `feed serve` made and
migrated (and that no server has open):

  app_user   u000000 … (U names, zero-padded to 6 digits at least)
  recording  ids 1…P, one per post (a post's row JOINs its recording), owner the post's author
  post       ids 1000000000001…, post i by user i % U, public, created uniformly over the 60 days
             before --end (ids in time order); views as the events make them
  post_tag   N (300) hashtags #tagK; a post has 1 (two thirds) or 2, the first drawn Zipf-like
  event      E events of the U users, about E/U each, in the 60 days before --end: each user views
             videos at times drawn after their posting, 70 % of their picks among the posts of their 3 favourite hashtags
             (Zipf-like within each), 30 % among all posts (Zipf-like: a few are everywhere), no
             video twice (E / U / 2.5 of them, and then a random 2 % or so of the events dropped,
             to make E); a view is an impression and a watch (watched_ms out of duration_ms, the
             video's 6-60 s), then complete (a quarter of views), skip (left within 2 s: a
             quarter), like (5 %), share (1 %), bookmark (1 %), not_interested (0.2 %). sender
             and actor are the user's (u:NAME), client_id e + its number (unique per sender), at
             in time order per user; the rows go in by user, so the (sender, client_id) index is
             appended to, never split

The load runs with journal_mode DELETE and synchronous OFF (the catalog is fresh: its rollback
journal holds the few pages there were), a 1 GiB page cache, and puts journal_mode back to WAL
(what the server uses) at the end. Deterministic: the same arguments give the same rows.
"""
import argparse
import math
import sqlite3
import time

import numpy as np

FIRST_POST = 1000000000001
DAY = 86400.0


def zipf_weights(n, s, rng):
    w = 1.0 / np.arange(1, n + 1) ** s
    rng.shuffle(w)
    return w / w.sum()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("db")
    p.add_argument("--users", type=int, default=10000)
    p.add_argument("--posts", type=int, default=100000)
    p.add_argument("--events", type=int, default=10000000)
    p.add_argument("--tags", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--end", type=float, default=None)
    a = p.parse_args()
    U, P, E, N = a.users, a.posts, a.events, a.tags
    end = a.end if a.end is not None else time.time()
    start = end - 60 * DAY
    rng = np.random.default_rng(a.seed)
    width = max(6, len(str(U - 1)))
    names = ["u%0*d" % (width, i) for i in range(U)]
    t0 = time.time()

    # Posts and their hashtags.
    created = np.sort(start + rng.random(P) * 60 * DAY)
    duration = rng.integers(6000, 60001, P)
    tag_weight = zipf_weights(N, 0.8, rng)
    first_tag = rng.choice(N, P, p=tag_weight)
    second = rng.random(P) < 1 / 3
    second_tag = (first_tag + 1 + rng.integers(0, N - 1, P)) % N
    popularity = zipf_weights(P, 0.9, rng)
    by_tag = [np.flatnonzero(first_tag == t) for t in range(N)]
    tag_pop = [popularity[ids] / popularity[ids].sum() if len(ids) else None for ids in by_tag]

    # Views: per user, E / U / 2.5 distinct videos (a view makes about 2.55 events: the list is
    # brought to E below).
    views_per_user = max(1, math.ceil(E / U / 2.5))
    view_user, view_video = [], []
    for u in range(U):
        favourites = rng.choice(N, 3, replace=False, p=tag_weight)
        k = views_per_user
        local = int(round(k * 0.7))
        picks = []
        for j, t in enumerate(favourites):
            ids = by_tag[t]
            if len(ids) == 0:
                continue
            want = min(len(ids), local // 3 + (1 if j < local % 3 else 0))
            picks.append(rng.choice(ids, want, replace=False, p=tag_pop[t]))
        chosen = np.unique(np.concatenate(picks)) if picks else np.array([], dtype=np.int64)
        need = k - len(chosen)
        while need > 0:
            extra = np.setdiff1d(rng.choice(P, need * 2, p=popularity), chosen)[:need]
            chosen = np.concatenate([chosen, extra])
            need = k - len(chosen)
        rng.shuffle(chosen)
        view_user.append(np.full(len(chosen), u, dtype=np.int32))
        view_video.append(chosen.astype(np.int64))
    view_user = np.concatenate(view_user)
    view_video = np.concatenate(view_video)
    n = len(view_user)
    # Each view's time: after its video was posted, in the user's order (sorted per user below).
    lo = np.maximum(created[view_video], start)
    view_at = lo + rng.random(n) * (end - 60 - lo)
    order = np.lexsort((view_at, view_user))
    view_user, view_video, view_at = view_user[order], view_video[order], view_at[order]
    d = duration[view_video]
    kind = rng.random(n)
    skip = kind < 0.25
    complete = (kind >= 0.25) & (kind < 0.5)
    watched = np.where(skip, rng.integers(300, 2000, n), np.where(complete, d + rng.integers(0, d + 1), (d * (0.1 + 0.85 * rng.random(n))).astype(np.int64)))
    extra = rng.random(n)
    like, share, bookmark = extra < 0.05, (extra >= 0.05) & (extra < 0.06), (extra >= 0.06) & (extra < 0.07)
    refuse = ~skip & (rng.random(n) < 0.002)
    # Events: (view, order within the view, type).
    types = ["impression", "watch", "complete", "skip", "like", "share", "bookmark", "not_interested"]
    masks = [np.ones(n, bool), np.ones(n, bool), complete, skip & ~refuse, like & ~skip, share & ~skip, bookmark & ~skip, refuse]
    ev_view = np.concatenate([np.flatnonzero(m) for m in masks])
    ev_type = np.concatenate([np.full(int(m.sum()), i, dtype=np.int8) for i, m in enumerate(masks)])
    order = np.lexsort((ev_type, ev_view))
    ev_view, ev_type = ev_view[order], ev_type[order]
    # E of them: the few over it (2 % or so) dropped at random, as lost events would be.
    if len(ev_view) > E:
        keep = np.sort(rng.choice(len(ev_view), E, replace=False))
        ev_view, ev_type = ev_view[keep], ev_type[keep]
    m = len(ev_view)
    at = view_at[ev_view] + np.where(ev_type == 0, 0.0, watched[ev_view] / 1000.0)
    ev_user = view_user[ev_view]
    ev_video = FIRST_POST + view_video[ev_view]
    is_watch = ev_type == 1
    views = np.bincount(view_video[ev_view[is_watch]], minlength=P)
    t1 = time.time()

    db = sqlite3.connect(a.db, isolation_level=None, timeout=30)
    db.execute("PRAGMA busy_timeout = 30000")
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -1048576")
    db.execute("BEGIN IMMEDIATE")
    db.executemany("INSERT INTO app_user(name, display_name, videos, created_at) VALUES (?, ?, ?, ?)",
                   ((names[i], "User %d" % i, P // U + (1 if i < P % U else 0), start - DAY) for i in range(U)))
    db.executemany("INSERT INTO recording(id, file_name, original_path, created_at, duration, width, height, fps, video_codec, has_audio, bytes, "
                   "sha256, owner) VALUES (?, ?, ?, ?, ?, 1080, 1920, 30.0, 'h264', 1, ?, ?, ?)",
                   ((i + 1, "r%07d.mp4" % (i + 1), "/bench/recs/r%07d.mp4" % (i + 1), float(created[i]), duration[i] / 1000.0,
                     4000000 + i, "%064x" % ((i + 1) * 2654435761), names[i % U]) for i in range(P)))
    tag = ["tag%d" % t for t in range(N)]
    db.executemany("INSERT INTO post(id, recording_id, author, description, visibility, created_at, views) VALUES (?, ?, ?, ?, 'public', ?, ?)",
                   ((FIRST_POST + i, i + 1, names[i % U],
                     "clip %d #%s" % (i, tag[first_tag[i]]) + (" #%s" % tag[second_tag[i]] if second[i] else ""), float(created[i]), int(views[i]))
                    for i in range(P)))
    db.executemany("INSERT INTO post_tag(tag, post_id) VALUES (?, ?)",
                   [(tag[first_tag[i]], FIRST_POST + i) for i in range(P)] + [(tag[second_tag[i]], FIRST_POST + i) for i in range(P) if second[i]])
    t2 = time.time()
    actors = ["u:" + s for s in names]
    kinds = types
    ms = np.where(is_watch, watched[ev_view], -1)
    dur = np.where(is_watch, d[ev_view], -1)

    def rows():
        # A million at a time, as python values.
        for lo in range(0, m, 1000000):
            hi = min(m, lo + 1000000)
            users, videos, ats = ev_user[lo:hi].tolist(), ev_video[lo:hi].tolist(), at[lo:hi].tolist()
            tps, wms, dms = ev_type[lo:hi].tolist(), ms[lo:hi].tolist(), dur[lo:hi].tolist()
            for j in range(hi - lo):
                s = actors[users[j]]
                w = wms[j]
                yield (s, "e%09d" % (lo + j), s, kinds[tps[j]], videos[j], ats[j], w if w >= 0 else None, dms[j] if w >= 0 else None)

    db.executemany("INSERT INTO event(sender, client_id, actor, type, video, at, watched_ms, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows())
    db.execute("COMMIT")
    t3 = time.time()
    db.execute("PRAGMA journal_mode = WAL")
    db.close()
    counts = np.bincount(ev_type, minlength=len(types))
    print("recs-data: %d users, %d posts (%d hashtags), %d events (%s) in %.1f s: generated %.1f s, posts %.1f s, events %.1f s (%.0f rows/s)" % (
        U, P, N, m, ", ".join("%s %d" % (t, c) for t, c in zip(types, counts)), t3 - t0, t1 - t0, t2 - t1, t3 - t2, m / max(t3 - t2, 1e-9)))


if __name__ == "__main__":
    main()
