#!/usr/bin/env python3
"""A static file server for the clip cache tests: byte ranges, validators, and cut-off bodies.

Serves the files of FOLDER on 127.0.0.1 at a free port and prints "PORT <n>" on its first line.
- GET and HEAD; `Range: bytes=N-` (or N-M) answers 206 with Content-Range, unless `If-Range`
  does not match the file's ETag (then 200 with the whole file); a range past the end is 416.
- ETag is the file's size and modification time; Last-Modified is sent too.
- Each request is appended to LOG as one line: "METHOD PATH RANGE-OR-DASH STATUS".
- `--cut N`: the first GET of each file sends its headers (with the full Content-Length) and
  N bytes of the body, then closes the connection: an interrupted download.
- `--stall N`: the first GET of each file sends N bytes of the body, then holds the connection
  open without sending more for 60 s: a stalled download.
- A file `NAME.redirect` in FOLDER makes `/NAME` a 302 to the URL it holds (relative or not).
"""
import argparse
import email.utils
import http.server
import os
import sys
import threading
import time

args = None
cut_done = set()
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def record(self, status):
        with lock, open(args.log, "a") as log:
            log.write(f"{self.command} {self.path} {self.headers.get('Range', '-')} {status}\n")

    def do_HEAD(self):
        self.serve(body=False)

    def do_GET(self):
        self.serve(body=True)

    def serve(self, body):
        path = os.path.join(args.folder, self.path.lstrip("/").split("?")[0])
        if "/.." not in self.path and os.path.isfile(path + ".redirect"):
            with open(path + ".redirect") as f:
                location = f.read().strip()
            self.record(302)
            self.send_response(302)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if "/.." in self.path or not os.path.isfile(path):
            self.record(404)
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        info = os.stat(path)
        size = info.st_size
        etag = f'"{size:x}-{int(info.st_mtime_ns):x}"'
        start, end, status = 0, size - 1, 200
        wanted = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        if wanted and (if_range is None or if_range == etag) and wanted.startswith("bytes="):
            first, _, last = wanted[6:].partition("-")
            start = int(first)
            end = int(last) if last else size - 1
            if start >= size:
                self.record(416)
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            end = min(end, size - 1)
            status = 206
        self.record(status)
        self.send_response(status)
        self.send_header("Content-Type", "video/mp4")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", email.utils.formatdate(info.st_mtime, usegmt=True))
        self.send_header("Content-Length", str(end - start + 1))
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        if not body:
            return
        with open(path, "rb") as f:
            f.seek(start)
            data = f.read(end - start + 1)
        with lock:
            first = self.command == "GET" and path not in cut_done
            cut_done.add(path)
        cut = first and args.cut is not None
        if first and args.stall is not None:
            self.wfile.write(data[: args.stall])
            self.wfile.flush()
            time.sleep(60)
            self.close_connection = True
            return
        if cut:
            self.wfile.write(data[: args.cut])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        self.wfile.write(data)


def main():
    global args
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("log")
    parser.add_argument("--cut", type=int)
    parser.add_argument("--stall", type=int)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
