"""A TCP proxy in front of PostgreSQL that can play an outage, for ServePostgresOutageTests.

    python3 -c "$(cat pg_outage_proxy.py)" PORT_FILE TARGET_PORT LOG

Listens on a free loopback port, writes it to PORT_FILE, and forwards every connection to
127.0.0.1:TARGET_PORT until told otherwise:
  SIGUSR1  the database is gone: every forwarded connection is closed, and each new one is read
           (its startup message) and closed without an answer
  SIGUSR2  the database comes back right after the next attempt of feed's pool (a startup
           message naming application_name=feed), so the pool has to wait out a whole backoff
           while anything else that connects is answered
Each attempt while down is logged to LOG as "SECONDS pool" or "SECONDS other" (a monotonic
clock), and the way back as "SECONDS up".
"""
import os
import signal
import socket
import sys
import threading
import time

port_file, target_port, log_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lock = threading.Lock()
state = {"down": False, "back_after_pool": False}
live = set()


def log(event):
    with open(log_path, "a") as f:
        f.write(f"{time.monotonic():.3f} {event}\n")


def go_down(*_):
    with lock:
        state["down"] = True
        doomed = list(live)
        live.clear()
    for sock in doomed:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()


def come_back_after_pool(*_):
    with lock:
        state["back_after_pool"] = True


def pump(source, sink):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    for sock in (source, sink):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def serve(client):
    client.settimeout(5)
    try:
        first = client.recv(4096)
    except OSError:
        first = b""
    client.settimeout(None)
    with lock:
        down = state["down"]
        pool = b"application_name\x00feed\x00" in first
        if down and pool and state["back_after_pool"]:
            state["down"] = False
            state["back_after_pool"] = False
            log("pool")
            log("up")
        elif down:
            log("pool" if pool else "other")
    if down or not first:
        client.close()
        return
    try:
        upstream = socket.create_connection(("127.0.0.1", target_port))
    except OSError:
        client.close()
        return
    with lock:
        live.update((client, upstream))
    upstream.sendall(first)
    threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
    threading.Thread(target=pump, args=(upstream, client), daemon=True).start()


# The test process may hand its children these signals blocked.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1, signal.SIGUSR2})
signal.signal(signal.SIGUSR1, go_down)
signal.signal(signal.SIGUSR2, come_back_after_pool)
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(64)
# Python runs signal handlers on the main thread only, between its own steps: a timeout on
# accept brings it back often, whichever thread the signal interrupted.
listener.settimeout(0.1)
open(log_path, "a").close()
with open(port_file + ".tmp", "w") as f:
    f.write(str(listener.getsockname()[1]))
os.replace(port_file + ".tmp", port_file)
while True:
    try:
        conn, _ = listener.accept()
    except socket.timeout:
        continue
    conn.setblocking(True)
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
