#!/usr/bin/env python3
"""bench/social-data.py — the rows bench/social.sh puts in a social catalog (not a benchmark itself).

  social-data.py copy TABLE [SIZES]    TABLE's rows as PostgreSQL COPY text on stdout
  social-data.py columns TABLE         the column list COPY TABLE (…) FROM STDIN takes
  social-data.py sqlite FILE [SIZES]   every table's rows into the SQLite catalog FILE, one
                                       transaction (python's sqlite3)

SIZES: --users U --posts P --follows F --bench-follows B --comments C --comment-posts K.
The same SIZES give the same rows in both catalogs, deterministic, and the counters consistent
with them (app_user.followers / following / videos, post.comments):

  app_user      u000000 … (U names, zero-padded to 6 digits at least); u000000 is the
                benchmark's user
  recording     ids 1…P, one per post (a post's row JOINs its recording), owner the post's author
  post          ids 1000000000001…, post i by user i % U, created one second apart (the newest
                last); visibility: every 50th (i % 50 == 13) private, every 10th (i % 10 == 7)
                followers-only, the rest public; every 1000th (i % 1000 == 999) hidden
  follow        F rows: u000000 follows B users (u000001, u000001+s, …), then users 1, 2, …
                follow ceil((F − B)/(U − 1)) users each (their next ones, s apart) until F rows;
                s = U // max(B, that), so no one follows themselves or anyone twice
  post_comment  C top-level comments spread over the first K posts (comment c on post c % K)

Nothing here is random: two runs give the same bytes.
"""
import argparse
import hashlib
import sqlite3
import sys

FIRST_POST = 1000000000001
BASE = 1764547200.0  # 2025-12-01T00:00:00Z: the oldest row

COLUMNS = {
    "recording": ["id", "file_name", "original_path", "created_at", "duration", "width", "height", "fps",
                  "video_codec", "has_audio", "bytes", "sha256", "owner"],
    "app_user": ["name", "display_name", "bio", "followers", "following", "videos", "likes", "created_at"],
    "post": ["id", "recording_id", "author", "description", "visibility", "created_at", "likes", "comments",
             "shares", "hidden"],
    "follow": ["id", "follower", "followee", "created_at"],
    "post_comment": ["id", "post_id", "parent_id", "author", "text", "created_at", "replies", "hidden"],
}


class Sizes:
    def __init__(self, a):
        self.users, self.posts, self.follows = a.users, a.posts, a.follows
        self.bench = min(a.bench_follows, a.follows, a.users - 1)
        self.comments, self.comment_posts = a.comments, max(1, min(a.comment_posts, a.posts))
        rest = self.follows - self.bench
        self.each = -(-rest // (self.users - 1)) if rest > 0 else 0
        if self.each >= self.users:
            sys.exit(f"social-data: {self.follows} follows do not fit {self.users} users")
        self.stride = self.users // max(self.bench, self.each, 1)
        self.width = max(6, len(str(self.users - 1)))

    def user(self, i):
        return "u%0*d" % (self.width, i)

    def follow_pairs(self):
        """(follower index, followee index) of each follow row, in id order."""
        u, s = self.users, self.stride
        for k in range(self.bench):
            yield 0, (1 + s * k) % u
        f, k = 1, 0
        for _ in range(self.follows - self.bench):
            yield f, (f + 1 + s * k) % u
            k += 1
            if k == self.each:
                f, k = f + 1, 0

    @staticmethod
    def visibility(i):
        if i % 50 == 13:
            return "private"
        if i % 10 == 7:
            return "followers"
        return "public"

    def post_comments(self, i):
        """How many of the comments are post i's."""
        if i >= self.comment_posts:
            return 0
        return self.comments // self.comment_posts + (1 if i < self.comments % self.comment_posts else 0)


def rows(table, z):
    """TABLE's rows as tuples (None for NULL, bool for booleans), in COLUMNS' order."""
    if table == "recording":
        for i in range(z.posts):
            rid = i + 1
            yield (rid, "r%07d.mp4" % rid, "/bench/r%07d.mp4" % rid, BASE + i, 15.0, 1080, 1920, 30.0, "h264", True,
                   4000000 + i % 100000, hashlib.sha256(b"recording %d" % rid).hexdigest(), z.user(i % z.users))
    elif table == "app_user":
        followers, following = [0] * z.users, [0] * z.users
        for a, b in z.follow_pairs():
            following[a] += 1
            followers[b] += 1
        for i in range(z.users):
            videos = z.posts // z.users + (1 if i < z.posts % z.users else 0)
            yield (z.user(i), "User %d" % i, "", followers[i], following[i], videos, 0, BASE - 86400 + i * 0.01)
    elif table == "post":
        for i in range(z.posts):
            yield (FIRST_POST + i, i + 1, z.user(i % z.users), "clip %d: a short video for the social benchmark" % i,
                   z.visibility(i), BASE + i, 0, z.post_comments(i), 0, i % 1000 == 999)
    elif table == "follow":
        for j, (a, b) in enumerate(z.follow_pairs()):
            yield (j + 1, z.user(a), z.user(b), BASE - 3600 + j * 0.001)
    elif table == "post_comment":
        for c in range(z.comments):
            yield (c + 1, FIRST_POST + c % z.comment_posts, None, z.user((c * 7) % z.users),
                   "comment %d: consequat metus sapien ut nunc vestibulum ante ipsum primis" % c,
                   BASE + z.posts + c * 0.001, 0, False)
    else:
        sys.exit(f"social-data: no table {table}")


def copy_text(value):
    if value is None:
        return r"\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["copy", "columns", "sqlite"])
    p.add_argument("target")
    p.add_argument("--users", type=int, default=100000)
    p.add_argument("--posts", type=int, default=1000000)
    p.add_argument("--follows", type=int, default=5000000)
    p.add_argument("--bench-follows", type=int, default=200)
    p.add_argument("--comments", type=int, default=0)
    p.add_argument("--comment-posts", type=int, default=1000)
    p.add_argument("--tables", default="recording,app_user,post,follow,post_comment")
    a = p.parse_args()
    if a.mode == "columns":
        print(", ".join(COLUMNS[a.target]))
        return
    if a.users < 2:
        sys.exit("social-data: at least 2 users")
    z = Sizes(a)
    if a.mode == "copy":
        out = sys.stdout
        write = out.write
        for row in rows(a.target, z):
            write("\t".join(copy_text(v) for v in row) + "\n")
        return
    db = sqlite3.connect(a.target, isolation_level=None, timeout=30)
    db.execute("PRAGMA busy_timeout = 30000")
    db.execute("BEGIN IMMEDIATE")
    for table in a.tables.split(","):
        cols = COLUMNS[table]
        sql = "INSERT INTO %s(%s) VALUES (%s)" % (table, ", ".join(cols), ", ".join("?" * len(cols)))
        db.executemany(sql, (tuple(int(v) if isinstance(v, bool) else v for v in row) for row in rows(table, z)))
    db.execute("COMMIT")
    db.close()


if __name__ == "__main__":
    main()
