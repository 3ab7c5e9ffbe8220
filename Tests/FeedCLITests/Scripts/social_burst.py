#!/usr/bin/env python3
"""Many users writing at once to the same post and author through several `feed serve`s, for the
test that the catalog's counts are exact (Tests/FeedCLITests/ServeSocialTests.swift).

    social_burst.py --secret-file S --servers URL1,URL2 --post ID --author NAME --users 1000 [--threads 64]

Mints an HS256 JWT per user (u0 … uN-1, scope "read upload", as `feed token` does), then, each
phase all users at once across the servers in turn: PUT /videos/ID/like, PUT /users/NAME/follow,
POST /videos/ID/comments. Prints one JSON object: each phase's statuses counted, and the post and
the author's profile as each server then answers them.
"""
import argparse
import base64
import hashlib
import hmac
import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(secret, user):
    now = int(time.time())
    header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = b64(json.dumps({"sub": user, "scope": "read upload", "iat": now, "exp": now + 3600}).encode())
    signature = hmac.new(secret, f"{header}.{claims}".encode(), hashlib.sha256).digest()
    return f"{header}.{claims}.{b64(signature)}"


def call(method, url, bearer, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Authorization", f"Bearer {bearer}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except Exception as error:  # a refused or cut connection: counted, never hidden
        return f"error: {type(error).__name__}", b""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--secret-file", required=True)
    parser.add_argument("--servers", required=True)
    parser.add_argument("--post", required=True)
    parser.add_argument("--author", required=True)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=64)
    args = parser.parse_args()
    with open(args.secret_file, "rb") as file:
        secret = file.read().rstrip(b"\r\n")
    servers = args.servers.split(",")
    tokens = [token(secret, f"u{index}") for index in range(args.users)]
    phases = {
        "like": lambda i: ("PUT", f"/videos/{args.post}/like", None),
        "follow": lambda i: ("PUT", f"/users/{args.author}/follow", None),
        "comment": lambda i: ("POST", f"/videos/{args.post}/comments", {"comment": f"comment {i}"}),
    }
    result = {}
    for name, request in phases.items():
        counts, lock = {}, threading.Lock()
        start = threading.Barrier(min(args.threads, args.users))

        def send(index):
            method, path, body = request(index)
            if index < start.parties:
                start.wait()  # the first wave leaves together
            status, _ = call(method, servers[index % len(servers)] + path, tokens[index], body)
            with lock:
                counts[str(status)] = counts.get(str(status), 0) + 1

        began = time.monotonic()
        with ThreadPoolExecutor(max_workers=args.threads) as pool:
            list(pool.map(send, range(args.users)))
        result[name] = {"statuses": counts, "seconds": round(time.monotonic() - began, 3)}
    admin = tokens[0]
    result["post"] = [json.loads(call("GET", f"{server}/videos/{args.post}", admin)[1] or b"{}") for server in servers]
    result["profile"] = [json.loads(call("GET", f"{server}/users/{args.author}", admin)[1] or b"{}") for server in servers]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
