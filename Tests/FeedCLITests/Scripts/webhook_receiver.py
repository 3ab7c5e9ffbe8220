#!/usr/bin/env python3
"""A webhook receiver for the tests of `feed serve --webhook`: verifies every Feed-Signature
(HMAC-SHA256 of "t." + body with the shared secret, compared in constant time), answers the
first --fail requests with 500 and the rest with 200, and appends one JSON line per request to
--log: {"event_id", "type", "header_id", "verified", "status", "complete"}.

A request whose body ends before its Content-Length (the sender stopped mid-request, as a
server shutting down does) is logged with "complete": false and status null, is not answered,
and does not count towards --fail: a real receiver never acts on half a body.

    webhook_receiver.py --secret-file S --log L --port-file P [--fail 3] [--hang]

--hang: read each request, log it, and never answer (a receiver that hangs).

Writes the port it listens on (loopback) to --port-file once it accepts connections.
"""
import argparse
import hashlib
import hmac
import json
import os
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--secret-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--fail", type=int, default=0)
    parser.add_argument("--hang", action="store_true")
    args = parser.parse_args()
    # The test process may start us with SIGTERM blocked (its threads block signals): unblock it,
    # and leave on our own when that process is gone (a test that failed before stopping us).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    secret = open(args.secret_file, "rb").read().rstrip(b"\r\n")
    lock = threading.Lock()
    seen = {"count": 0}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            complete = len(body) == length
            signature = self.headers.get("Feed-Signature", "")
            parts = dict(item.split("=", 1) for item in signature.split(",") if "=" in item)
            expected = hmac.new(secret, parts.get("t", "").encode() + b"." + body, hashlib.sha256).hexdigest()
            verified = hmac.compare_digest(expected, parts.get("v1", ""))
            try:
                event = json.loads(body)
            except ValueError:
                event = {}
            with lock:
                status = None
                if complete:
                    seen["count"] += 1
                    status = 500 if seen["count"] <= args.fail else 200
                with open(args.log, "a") as log:
                    log.write(json.dumps({"event_id": event.get("id"), "type": event.get("type"),
                                          "header_id": self.headers.get("Feed-Event-Id"),
                                          "verified": verified, "status": status,
                                          "complete": complete}) + "\n")
            if not complete:
                self.close_connection = True
                return
            if args.hang:
                threading.Event().wait()
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".tmp", "w") as out:
        out.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
