#!/usr/bin/env python3
"""A proxy in front of a real S3 store that misbehaves on purpose, for S3Client's tests.

    s3_fault_proxy.py STORE_URL LOG [--slowdown N] [--stall] [--outage AFTER SECONDS]

Listens on a free loopback port and prints "PORT n". Each request is forwarded to STORE_URL as
it came (method, path, query, headers with Host unchanged, so its signature still holds) and
the store's answer is sent back, except:
  --slowdown N   the first N requests are answered 503 with S3's SlowDown error instead
  --stall        every request is read whole and then never answered (a store gone silent)
  --outage AFTER SECONDS
                 from the AFTER-th request on, for SECONDS, every connection is closed without an
                 answer (a store gone away); then it is back
Every request is logged to LOG as "METHOD PATH STATUS".
"""
import http.client
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

store = urllib.parse.urlsplit(sys.argv[1])
log_path = sys.argv[2]
args = sys.argv[3:]
slowdown = int(args[args.index("--slowdown") + 1]) if "--slowdown" in args else 0
stall = "--stall" in args
outage = (int(args[args.index("--outage") + 1]), float(args[args.index("--outage") + 2])) if "--outage" in args else None
outage_started = None
lock = threading.Lock()
seen = 0

SLOWDOWN = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code>'
            b'<Message>Please reduce your request rate.</Message></Error>')


def log(line):
    with lock, open(log_path, "a") as f:
        f.write(line + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def handle_one(self):
        global seen, outage_started
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock:
            seen += 1
            number = seen
            if outage and number >= outage[0] and outage_started is None:
                outage_started = time.monotonic()
            down = outage_started is not None and time.monotonic() - outage_started < outage[1]
        if down:
            log(f"{self.command} {self.path} dropped")
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if stall:
            log(f"{self.command} {self.path} stalled")
            time.sleep(3600)
            return
        if number <= slowdown:
            log(f"{self.command} {self.path} 503")
            self.send_response(503)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(SLOWDOWN)))
            self.end_headers()
            self.wfile.write(SLOWDOWN)
            return
        connection = http.client.HTTPConnection(store.hostname, store.port, timeout=60)
        headers = {name: value for name, value in self.headers.items() if name.lower() != "connection"}
        connection.request(self.command, self.path, body=body, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        log(f"{self.command} {self.path} {answer.status}")
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("connection", "transfer-encoding", "content-length", "server", "date"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        connection.close()

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_one


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"PORT {server.server_address[1]}", flush=True)
server.serve_forever()
