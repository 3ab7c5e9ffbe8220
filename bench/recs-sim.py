#!/usr/bin/env python3
"""bench/recs-sim.py — bench/recs.sh's simulated population: For You through `feed serve`'s HTTP
API against four baselines run here on the same population (not a benchmark by itself).

  recs-sim.py setup DB WARMUP.ndjson [WORLD]   the catalog's rows into the SQLite catalog DB (one
                                               transaction, python's sqlite3) and the warm-up
                                               events as `feed events import` reads them
  recs-sim.py run [WORLD] --url URL --feed FEED --home FEED_HOME
                                               the rounds: For You through the server, the
                                               baselines here; prints a line per round and
                                               `result …` lines (bench/recs.sh reads them)

WORLD: --seed S (1) --users U (800) --videos V (3000) --topics T (12) --creators C (150) --rounds R
(10) --page P (10) --warmup-pages W (2) --measure K (3) --end EPOCH (the simulated clock's end,
the real now when bench/recs.sh starts). The same WORLD gives the same rows, users, outcomes and
warm-up in both modes: everything random comes from numpy's generator seeded with S.

The population:
  creators  C, each with a main topic (uniform over T) and a quality (Beta(2, 2)); how many
            videos each makes is Zipf-like (weight 1/rank^0.7)
  videos    V posts, each by a creator drawn by that weight; its topic (its one hashtag, #topicN)
            is the creator's with probability 0.8, else uniform; quality 0.5 x the creator's +
            0.5 x Beta(2, 2); length lognormal around 20 s (6-90 s); created_at uniform over the
            30 days before the first round, so the newest are under a day old. Each post has its
            recording row (a file that does not exist: nothing here plays media). One more
            recording, no post, is the new video's: `feed publish` makes it a post in the middle
            round (MIDDLE = R // 2 + 1), by a creator of median size, quality 0.92, its topic the
            one the most users like (at half their favourite's or more: a fifth of them at seeds
            1-3)
  users     U, each with a taste over the topics (Dirichlet(0.3), scaled so the favourite is 1)
            and 6 favourite creators (4 among the creators of their two favourite topics, 2 of
            any); match(u, v) = 0.7 x taste[u][topic v] + 0.3 x (creator v a favourite);
            interest e = match x quality (taste x quality)
  outcomes  a video shown: skipped (left within 2 s: watched 0.4-1.9 s) when e + 0.08 z1 < 0.10;
            else watched for min(3, 2.4 e exp(0.35 z2)) of its length (a skip too if that is under
            2 s); complete when that is the whole video or more; liked with probability
            min(0.5, max(0, 1.5 (e - 0.3))) when not skipped. z1, z2 and the like's draw are fixed
            per (user, video) pair: a pair shown under two policies has the same outcome

Each round is one simulated hour: round r is the hour that ends R - r hours before --end. Every
user asks for a page of P, "watches" it in order from a start drawn in the hour's first 40
minutes, and sends, per video: impression, watch (watched_ms, duration_ms), complete (watched to
the end), skip (left within 2 s), like; each event `at` its time on the simulated clock. Before
the first round each user watched W random pages in the day before it (the warm-up: the same
events in every policy's log, imported into the catalog with `feed events import`).

The policies, each with its own event log (For You's in the catalog, the others' here), every
one leaving out what the user was shown before:
  for_you     GET /feed/for-you?limit=P as X-Feed-User uNNNN (8 threads), the events POSTed as
              one JSON array a user; `feed recs train` after each round, and a probe page until
              the server serves the new version
  most_liked  the most liked (in its log) of the videos of the last 7 days, then of any age
  loops       Loops' published formula: 0.25 freshness + 0.35 engagement + 0.30 affinity + 0.10
              creator trust; freshness 1 - (age / 730 d)^2; engagement (0.30 min(1, likes/1000)
              + 0.20 min(1, comments/100) + 0.25 min(1, shares/50) + 0.15 min(1, bookmarks/50)
              + 0.10 min(1, views/5000)) / ln(age in days + 2), comments, shares and bookmarks 0
              (the population makes none); affinity 0.5 creator + 0.3 hashtag + 0.2 topic, each
              the user's interest in it from the log: the sum over the videos of it they were
              shown of min(1, watch ratio) + 1 for a like, divided by their largest (a video's
              one hashtag is its topic, so hashtag and topic are the same number); creator trust
              the creator's mean watch ratio over every showing in the log (capped at 1 a
              showing, smoothed toward the mean with 20 showings' weight), over the largest; a
              page of P is the top 70 % by score and 30 % random discovery, shuffled in
  als         implicit 0.7.3's AlternatingLeastSquares (CPU, 64 factors, regularization 0.05,
              alpha 5, 15 iterations, seed S), retrained every round on the whole log: a watched
              video min(3, watch ratio) + 1 for a like, a skipped one -1 (disliked); the page is
              the top P of user_factors . item_factors of the unseen. alpha 5 was the best of 1,
              2, 5, 10 and 20 at seed 1 (162-172 s a page; 16 and 32 factors did worse, 128 no
              better; skips left out and likes not counted, worse), so that it is its best here
  random      P unseen videos at random (the floor)
  oracle      the P unseen videos this user would watch longest (it knows every outcome: the
              ceiling)

Measured: the mean simulated watch time per page (the sum of watched_ms of its videos) over the
last K rounds, per policy; and the impressions the new video had in its first round (MIDDLE).
"""
import argparse
import http.client
import json
import math
import os
import subprocess
import sys
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

import numpy as np

FIRST_POST = 1000000000001
DAY = 86400.0
POLICIES = ["for_you", "most_liked", "loops", "als", "random", "oracle"]


def world_args(p):
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--users", type=int, default=800)
    p.add_argument("--videos", type=int, default=3000)
    p.add_argument("--topics", type=int, default=12)
    p.add_argument("--creators", type=int, default=150)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--page", type=int, default=10)
    p.add_argument("--warmup-pages", type=int, default=2)
    p.add_argument("--measure", type=int, default=3)
    p.add_argument("--end", type=float, default=None)


class World:
    """The creators, videos, users and every (user, video) outcome, from the seed."""

    def __init__(self, a):
        self.a = a
        rng = np.random.default_rng(a.seed)
        U, V, T, C = a.users, a.videos, a.topics, a.creators
        self.U, self.V, self.T, self.C = U, V, T, C
        self.end = a.end if a.end is not None else time.time()
        self.first_round = self.end - a.rounds * 3600.0
        self.middle = a.rounds // 2 + 1
        self.creator_topic = rng.integers(0, T, C)
        self.creator_quality = rng.beta(2, 2, C)
        weight = 1.0 / np.arange(1, C + 1) ** 0.7
        rng.shuffle(weight)
        self.creator_weight = weight / weight.sum()
        # The videos, and one more: the new one (index V), published in the middle round.
        creator = rng.choice(C, V, p=self.creator_weight)
        own = rng.random(V) < 0.8
        topic = np.where(own, self.creator_topic[creator], rng.integers(0, T, V))
        quality = np.clip(0.5 * self.creator_quality[creator] + 0.5 * rng.beta(2, 2, V), 0, 1)
        duration = np.clip(rng.lognormal(math.log(20.0), 0.5, V), 6, 90)
        created = self.first_round - rng.random(V) * 30 * DAY
        # Users.
        taste = rng.dirichlet(np.full(T, 0.3), U)
        taste /= taste.max(axis=1, keepdims=True)
        fav = np.zeros((U, C), dtype=bool)
        for u in range(U):
            top = np.argsort(-taste[u])[:2]
            near = np.flatnonzero(np.isin(self.creator_topic, top))
            pick = list(rng.choice(near, min(4, len(near)), replace=False)) if len(near) else []
            rest = np.setdiff1d(np.arange(C), pick)
            pick += list(rng.choice(rest, 2, replace=False))
            fav[u, pick] = True
        # The new video: a median-sized creator, the topic the most users like, quality 0.92.
        order = np.argsort(self.creator_weight)
        new_creator = int(order[C // 2])
        new_topic = int(np.argmax((taste >= 0.5).sum(axis=0)))
        self.video_creator = np.append(creator, new_creator)
        self.video_topic = np.append(topic, new_topic)
        self.video_quality = np.append(quality, 0.92)
        self.duration_ms = np.round(np.append(duration, 25.0) * 1000).astype(np.int64)
        self.created = np.append(created, np.inf)  # set when published
        self.taste, self.fav = taste, fav
        # Outcomes of every pair, fixed (common random numbers across the policies).
        z1 = rng.standard_normal((U, V + 1))
        z2 = rng.standard_normal((U, V + 1))
        draw = rng.random((U, V + 1))
        leave = rng.random((U, V + 1))
        match = 0.7 * taste[:, self.video_topic] + 0.3 * fav[:, self.video_creator]
        e = match * self.video_quality[None, :]
        ratio = np.minimum(3.0, 2.4 * e * np.exp(0.35 * z2))
        watched = np.round(ratio * self.duration_ms[None, :]).astype(np.int64)
        quick = e + 0.08 * z1 < 0.10
        watched = np.where(quick, np.round(400 + 1500 * leave).astype(np.int64), watched)
        self.watched_ms = watched
        self.skip = watched < 2000
        self.complete = ~self.skip & (watched >= self.duration_ms[None, :])
        self.like = ~self.skip & (draw < np.clip(1.5 * (e - 0.3), 0, 0.5))
        self.ratio = watched / self.duration_ms[None, :]
        # Warm-up: W random pages per user in the day before the first round.
        self.warmup = []
        for u in range(U):
            t = self.first_round - DAY + rng.random() * (DAY - 3600)
            eligible = np.flatnonzero(self.created[:V] < t)
            pages = rng.choice(eligible, a.warmup_pages * a.page, replace=False)
            self.warmup.append((t, pages))
        # Per round: each user's start in the hour, and the random streams the policies draw from.
        self.starts = rng.random((a.rounds, U)) * 2400
        self.policy_seed = int(rng.integers(1, 2**31))

    def user(self, u):
        return "u%04d" % u

    def creator(self, c):
        return "c%03d" % c

    def post_id(self, v):
        return FIRST_POST + int(v)

    def round_start(self, r):
        """The simulated time round r (1…R) begins."""
        return self.first_round + (r - 1) * 3600.0

    def watch(self, u, videos, t0):
        """The events of user u watching `videos` (indexes) from t0: (events, watched ms in all)."""
        events, t, total = [], t0, 0
        for v in videos:
            w = int(self.watched_ms[u, v])
            d = int(self.duration_ms[v])
            events.append(("impression", v, t, None, None))
            events.append(("watch", v, t + w / 1000, w, d))
            if self.complete[u, v]:
                events.append(("complete", v, t + w / 1000, None, None))
            if self.skip[u, v]:
                events.append(("skip", v, t + w / 1000, None, None))
            if self.like[u, v]:
                events.append(("like", v, t + w / 1000, None, None))
            t += w / 1000 + 0.5
            total += w
        return events, total


def rfc3339(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def event_json(w, tag, k, ev, user=None):
    kind, v, t, watched, duration = ev
    o = {"id": "%s-%d" % (tag, k), "type": kind, "video": int(w.post_id(v)) if v < w.V else w.new_post_id, "at": rfc3339(t)}
    if watched is not None:
        o["watched_ms"] = watched
        o["duration_ms"] = duration
    if user is not None:
        o["user"] = user
    return o


class Log:
    """One policy's event log, as the baselines read it."""

    def __init__(self, w):
        self.w = w
        shape = (w.U, w.V + 1)
        self.seen = np.zeros(shape, dtype=bool)
        self.shown_round = np.zeros(shape, dtype=np.int16)  # 0: never; -1: warm-up
        self.page_ms = {}  # round -> per-user watched ms

    def add(self, u, videos, r):
        self.seen[u, videos] = True
        self.shown_round[u, videos] = r

    def views(self):
        return self.seen.sum(axis=0)

    def likes(self):
        return (self.seen & self.w.like).sum(axis=0)


def top_unseen(scores, seen, eligible, n):
    """Per user, the n best-scored eligible unseen videos (best first)."""
    s = np.where(seen | ~eligible[None, :], -np.inf, scores)
    part = np.argpartition(-s, n, axis=1)[:, :n]
    rows = np.arange(s.shape[0])[:, None]
    order = np.argsort(-s[rows, part], axis=1)
    return part[rows, order]


def random_unseen(rng, seen, eligible, n, exclude=None):
    """Per user, n eligible unseen videos at random."""
    s = rng.random(seen.shape)
    s[seen | ~eligible[None, :]] = -1
    if exclude is not None:
        s[np.arange(seen.shape[0])[:, None], exclude] = -1
    return np.argpartition(-s, n, axis=1)[:, :n]


class Baselines:
    def __init__(self, w):
        self.w = w
        self.rng = np.random.default_rng(w.policy_seed)
        self.als_seconds = []

    def most_liked(self, log, now, eligible):
        w = self.w
        likes = log.likes().astype(float)
        recent = w.created >= now - 7 * DAY
        # Recent first (by likes, then views), then the rest by likes; ties at random.
        score = likes + 1e-3 * log.views() + 1e-6 * self.rng.random(w.V + 1) + np.where(recent, 1e6, 0)
        return top_unseen(np.broadcast_to(score, log.seen.shape), log.seen, eligible, w.a.page)

    def loops(self, log, now, eligible):
        w, P = self.w, self.w.a.page
        age_days = np.maximum(0, now - np.where(np.isfinite(w.created), w.created, now)) / DAY
        fresh = np.maximum(0, 1 - (age_days / 730) ** 2)
        engagement = (0.30 * np.minimum(1, log.likes() / 1000) + 0.10 * np.minimum(1, log.views() / 5000)) / np.log(age_days + 2)
        interest = np.where(log.seen, np.minimum(1, w.ratio) + w.like, 0.0)
        by_creator = np.zeros((w.U, w.C))
        np.add.at(by_creator.T, w.video_creator, interest.T)
        by_topic = np.zeros((w.U, w.T))
        np.add.at(by_topic.T, w.video_topic, interest.T)
        by_creator /= np.maximum(by_creator.max(axis=1, keepdims=True), 1e-9)
        by_topic /= np.maximum(by_topic.max(axis=1, keepdims=True), 1e-9)
        affinity = 0.5 * by_creator[:, w.video_creator] + (0.3 + 0.2) * by_topic[:, w.video_topic]
        shown = np.where(log.seen, np.minimum(1, w.ratio), 0.0)
        sums = np.zeros(w.C)
        np.add.at(sums, w.video_creator, shown.sum(axis=0))
        counts = np.zeros(w.C)
        np.add.at(counts, w.video_creator, log.seen.sum(axis=0))
        mean = sums.sum() / max(counts.sum(), 1)
        trust = (sums + 20 * mean) / (counts + 20)
        trust /= max(trust.max(), 1e-9)
        score = 0.25 * fresh[None, :] + 0.35 * engagement[None, :] + 0.30 * affinity + 0.10 * trust[w.video_creator][None, :]
        exploit = int(round(P * 0.7))
        top = top_unseen(score, log.seen, eligible, exploit)
        discovery = random_unseen(self.rng, log.seen, eligible, P - exploit, exclude=top)
        pages = np.concatenate([top, discovery], axis=1)
        for row in pages:
            self.rng.shuffle(row)
        return pages

    def als(self, log, now, eligible):
        import scipy.sparse as sp
        from implicit.cpu.als import AlternatingLeastSquares
        w = self.w
        values = np.where(w.skip, -1.0, np.minimum(3, w.ratio) + w.like) * log.seen
        matrix = sp.csr_matrix(values.astype(np.float32))
        t = time.time()
        model = AlternatingLeastSquares(factors=64, regularization=0.05, alpha=5.0, iterations=15, random_state=w.a.seed,
                                        num_threads=2)
        model.fit(matrix, show_progress=False)
        self.als_seconds.append(time.time() - t)
        scores = model.user_factors @ model.item_factors.T
        return top_unseen(scores, log.seen, eligible, w.a.page)

    def random(self, log, now, eligible):
        return random_unseen(self.rng, log.seen, eligible, self.w.a.page)

    def oracle(self, log, now, eligible):
        return top_unseen(self.w.watched_ms.astype(float), log.seen, eligible, self.w.a.page)


def setup(a):
    import sqlite3
    w = World(a)
    db = sqlite3.connect(a.db, isolation_level=None, timeout=30)
    db.execute("PRAGMA busy_timeout = 30000")
    db.execute("BEGIN IMMEDIATE")
    names = [w.user(u) for u in range(w.U)] + [w.creator(c) for c in range(w.C)] + ["probe"]
    db.executemany("INSERT INTO app_user(name, display_name, created_at) VALUES (?, ?, ?)",
                   [(n, n, w.first_round - 40 * DAY) for n in names])
    rec = []
    for v in range(w.V + 1):
        rid = v + 1
        owner = w.creator(int(w.video_creator[v])) if v < w.V else None
        at = float(w.created[v]) if v < w.V else w.first_round
        rec.append((rid, "r%07d.mp4" % rid, "/bench/recs/r%07d.mp4" % rid, at, w.duration_ms[v] / 1000.0, 1080, 1920, 30.0, "h264", 1,
                    3000000 + v, "%064x" % (rid * 2654435761), owner))
    db.executemany("INSERT INTO recording(id, file_name, original_path, created_at, duration, width, height, fps, video_codec, has_audio, bytes, "
                   "sha256, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rec)
    db.executemany("INSERT INTO post(id, recording_id, author, description, visibility, created_at) VALUES (?, ?, ?, ?, 'public', ?)",
                   [(w.post_id(v), v + 1, w.creator(int(w.video_creator[v])), "clip %d #topic%d" % (v, w.video_topic[v]), float(w.created[v]))
                    for v in range(w.V)])
    db.executemany("INSERT INTO post_tag(tag, post_id) VALUES (?, ?)", [("topic%d" % w.video_topic[v], w.post_id(v)) for v in range(w.V)])
    videos = np.bincount(w.video_creator[:w.V], minlength=w.C)
    db.executemany("UPDATE app_user SET videos = ? WHERE name = ?", [(int(videos[c]), w.creator(c)) for c in range(w.C)])
    db.execute("COMMIT")
    db.close()
    w.new_post_id = None
    with open(a.warmup, "w") as out:
        n = 0
        for u, (t, pages) in enumerate(w.warmup):
            events, _ = w.watch(u, pages, t)
            for k, ev in enumerate(events):
                out.write(json.dumps(event_json(w, "w%d" % u, k, ev, user=w.user(u)), separators=(",", ":")) + "\n")
                n += 1
    print("setup: %d users, %d creators, %d videos (+1 new, recording %d), %d topics; %d warm-up events in %s" % (
        w.U, w.C, w.V, w.V + 1, w.T, n, a.warmup))


class Server:
    """For You through HTTP: one keep-alive connection per thread."""

    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.host, self.port = u.hostname, u.port
        self.local = threading.local()

    def request(self, method, path, body=None, headers=None):
        for attempt in range(3):
            c = getattr(self.local, "conn", None)
            if c is None:
                c = self.local.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            try:
                c.request(method, path, body=body, headers=headers or {})
                r = c.getresponse()
                data = r.read()
                return r.status, data
            except (http.client.HTTPException, OSError):
                self.local.conn = None
                c.close()
                if attempt == 2:
                    raise
        raise RuntimeError("unreachable")


def feed_cli(a, *args):
    env = dict(os.environ, FEED_HOME=a.home)
    p = subprocess.run([a.feed, *args], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("recs-sim: feed %s exited %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()[:500]))
    return p.stdout


def run(a):
    w = World(a)
    R, P, U = a.rounds, a.page, w.U
    server = Server(a.url)
    base = Baselines(w)
    logs = {p: Log(w) for p in POLICIES}
    for log in logs.values():
        for u, (_, pages) in enumerate(w.warmup):
            log.add(u, pages, -1)
    id_to_index = {w.post_id(v): v for v in range(w.V)}
    w.new_post_id = None
    eligible = np.ones(w.V + 1, dtype=bool)
    eligible[w.V] = False
    reasons_by_round, trainings, new_impressions, served = [], [], {}, []
    pool = ThreadPoolExecutor(a.threads)
    started = time.time()
    for r in range(1, R + 1):
        t_round = time.time()
        now = w.round_start(r)
        if r == w.middle:
            out = feed_cli(a, "publish", str(w.V + 1), "--author", w.creator(int(w.video_creator[w.V])), "--description",
                           "fresh and good #topic%d" % w.video_topic[w.V], "--json")
            post = json.loads(out)
            w.new_post_id = int(post["id"])
            id_to_index[w.new_post_id] = w.V
            w.created[w.V] = now
            eligible[w.V] = True
            if post.get("hashtags") != ["topic%d" % w.video_topic[w.V]]:
                sys.exit("recs-sim: the new post's hashtags are %r" % post.get("hashtags"))
        # For You, through the server.
        fy = logs["for_you"]
        reasons = {}
        lock = threading.Lock()
        problems = []

        def one(u):
            status, body = server.request("GET", "/feed/for-you?limit=%d" % P, headers={"X-Feed-User": w.user(u)})
            if status != 200:
                raise RuntimeError("GET /feed/for-you as %s: %d %s" % (w.user(u), status, body[:300]))
            page = json.loads(body)
            videos, rs = [], []
            for item in page["videos"]:
                v = id_to_index.get(int(item["id"]))
                if v is None:
                    raise RuntimeError("For You served an unknown post %s" % item["id"])
                videos.append(v)
                rs.append(item.get("reason"))
            events, total = w.watch(u, videos, now + w.starts[r - 1, u])
            batch = [event_json(w, "r%d" % r, k, ev) for k, ev in enumerate(events)]
            if batch:
                status, body = server.request("POST", "/events", body=json.dumps(batch, separators=(",", ":")).encode(),
                                              headers={"X-Feed-User": w.user(u), "Content-Type": "application/json"})
                answer = json.loads(body) if status == 200 else None
                if answer is None or answer.get("accepted") != len(batch):
                    raise RuntimeError("POST /events as %s: %d %s" % (w.user(u), status, body[:300]))
            with lock:
                for v, reason in zip(videos, rs):
                    reasons[reason] = reasons.get(reason, 0) + 1
                    served.append((r, u, v, reason))
                if len(videos) < P:
                    problems.append("%s got %d videos" % (w.user(u), len(videos)))
                if len(set(videos)) != len(videos) or fy.seen[u, videos].any():
                    problems.append("%s was shown a video again" % w.user(u))
            return u, videos, total, page.get("model_version")

        ms = np.zeros(U)
        versions = set()
        for u, videos, total, version in pool.map(one, range(U)):
            fy.add(u, np.array(videos, dtype=np.int64), r)
            ms[u] = total
            versions.add(version)
        fy.page_ms[r] = ms
        reasons_by_round.append(reasons)
        fy_seconds = time.time() - t_round
        # The baselines, on their own logs.
        for name in POLICIES[1:]:
            pages = getattr(base, name)(logs[name], now, eligible)
            log = logs[name]
            total = np.zeros(U)
            for u in range(U):
                total[u] = w.watched_ms[u, pages[u]].sum()
                log.add(u, pages[u], r)
            log.page_ms[r] = total
        if r == w.middle:
            for name in POLICIES:
                new_impressions[name] = int((logs[name].shown_round[:, w.V] == r).sum())
        # Train For You for the next round.
        info = {}
        if r < R:
            t = time.time()
            info = json.loads(feed_cli(a, "recs", "train", "--json"))
            info["wall"] = time.time() - t
            for _ in range(200):
                status, body = server.request("GET", "/feed/for-you?limit=1", headers={"X-Feed-User": "probe"})
                if status == 200 and json.loads(body).get("model_version") == info["version"]:
                    break
                time.sleep(0.05)
            else:
                sys.exit("recs-sim: the server did not serve model %s" % info["version"])
            trainings.append(info)
        print("round %2d%s: %s   (For You: model %s, %d pages in %.1f s%s; %s)" % (
            r, " (new video)" if r == w.middle else "",
            "  ".join("%s %5.1f" % (p, logs[p].page_ms[r].mean() / 1000) for p in POLICIES),
            "/".join(str(v) for v in sorted(versions, key=str)), U, fy_seconds,
            ("; trained v%s on %s events in %.2f s" % (info["version"], info["events"], info["seconds"])) if info else "",
            ", ".join("%s %d" % (k, n) for k, n in sorted(reasons.items(), key=lambda kv: -kv[1]))), flush=True)
        if problems:
            print("  problems: %d, e.g. %s" % (len(problems), "; ".join(problems[:3])), flush=True)
    measured = range(R - a.measure + 1, R + 1)
    print("simulated watch time per page, mean of rounds %d-%d (s): %s" % (measured[0], measured[-1], "  ".join(
        "%s %.1f" % (p, np.mean([logs[p].page_ms[r].mean() for r in measured]) / 1000) for p in POLICIES)))
    for p in POLICIES:
        print("result watch_s %s %.3f" % (p, np.mean([logs[p].page_ms[r].mean() for r in measured]) / 1000))
        # Share of the pages' videos skipped, and liked, in the measured rounds.
        shown = np.isin(logs[p].shown_round, list(measured))
        print("result skip_share %s %.3f" % (p, (shown & w.skip).sum() / max(shown.sum(), 1)))
        print("result like_share %s %.3f" % (p, (shown & w.like).sum() / max(shown.sum(), 1)))
        print("result new_video_impressions %s %d" % (p, new_impressions.get(p, 0)))
        print("result new_video_total %s %d" % (p, int((logs[p].shown_round[:, w.V] > 0).sum())))
    print("result middle_round %d" % w.middle)
    print("result new_video_post %s" % w.new_post_id)
    print("result train_seconds_max %.3f" % max([t["seconds"] for t in trainings] or [0]))
    print("result als_seconds_mean %.3f" % (np.mean(base.als_seconds) if base.als_seconds else 0))
    # For You's slots in the measured rounds by reason: how many, the mean watch, the share skipped.
    for reason in sorted({x[3] for x in served}, key=str):
        rows = [(u, v) for (r, u, v, why) in served if why == reason and r in measured]
        if rows:
            us, vs = np.array(rows).T
            print("result reason %s %d %.2f %.3f" % (reason, len(rows), w.watched_ms[us, vs].mean() / 1000, w.skip[us, vs].mean()))
    last = reasons_by_round[-1]
    print("result reasons_last_round %s" % ",".join("%s:%d" % kv for kv in sorted(last.items(), key=lambda kv: -kv[1])))
    print("result seconds %.1f" % (time.time() - started))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("setup")
    s.add_argument("db")
    s.add_argument("warmup")
    world_args(s)
    r = sub.add_parser("run")
    world_args(r)
    r.add_argument("--url", required=True)
    r.add_argument("--feed", required=True)
    r.add_argument("--home", required=True)
    r.add_argument("--threads", type=int, default=8)
    a = p.parse_args()
    if a.measure < 1 or a.measure > a.rounds:
        sys.exit("recs-sim: --measure must be 1 to --rounds")
    setup(a) if a.mode == "setup" else run(a)


if __name__ == "__main__":
    main()
