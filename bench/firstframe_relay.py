#!/usr/bin/env python3
"""A TCP relay that stands for a link's delay where the kernel has no netem (bench/firstframe.sh).

    firstframe_relay.py [--delay MS] [--connect-delay MS] LISTEN_HOST:PORT=UPSTREAM_HOST:PORT...

For each mapping it listens on LISTEN and, for every connection it accepts, opens one to
UPSTREAM and copies bytes both ways. Every chunk read is held --delay ms (default 25: half the
round trip) before it is written on, in order, in each direction; and the client's bytes are
held until --connect-delay ms (default 50: one round trip, the TCP handshake the relay's own
accept skips) after the accept, plus --delay. So a request on a new connection reaches the
server 1.5 round trips after the client's connect(), and its first answer byte is back at
2 round trips, as over a real link; on a kept-alive connection, a request and its answer take
one round trip. With both delays 0 it is a plain forwarder (bench/firstframe.sh uses it so to
reach servers that listen on loopback only).

Times come from the event loop's monotonic clock; each held chunk is released by a timer set
at its own due time (call_at), so releases are late by the loop's wake-up only (~1 ms), not
rounded to a tick. When either side closes or resets, the other side is closed and anything
still held is dropped, as a lost connection drops what is in flight. What the relay takes in is
bounded, about what a real path keeps in flight: a direction holding 256 kB stops reading its
source until it has released some, and so does one whose socket is full (SO_SNDBUF 256 kB, not
autotuned: twice what 50 ms at 20 Mbit/s keeps in flight, so netem's path is not slowed), so an
answer the client gives up on is not read from the server in full.

Limits (the output of bench/firstframe.sh repeats them): TCP runs on the short legs (the client
to the relay over the shaped veth, the relay to the server over loopback) with their own tiny
round trips, so slow start, ACK clocking and loss recovery do not cost what they would over
50 ms; the bandwidth is the veth's (tbf), the delay is the relay's.

Prints "relay HOST:PORT -> HOST:PORT" per mapping once it listens, then nothing; exits on
SIGTERM or SIGINT.
"""
import argparse
import asyncio
import collections
import signal
import socket
import sys


# Bytes a direction may hold before the relay stops reading its source: about what a real
# 50 ms, 20 Mbit/s path keeps in flight (125 kB) plus buffers, so an answer the client gives up
# on has not been slurped from the server in full.
HELD_LIMIT = 256 * 1024


class Pipe:
    """One direction of one connection: chunks held until due, then written to `sink`."""

    def __init__(self, loop, delay, start):
        self.loop = loop
        self.delay = delay
        self.start = start          # nothing leaves before this loop time (the handshake)
        self.held = collections.deque()
        self.held_bytes = 0
        self.timer = None
        self.source = None          # the transport the chunks come from
        self.sink = None            # the transport the chunks go to, once connected
        self.sink_full = False      # the sink's buffer is over its high-water mark
        self.reading = True
        self.eof_sent = False       # the source's EOF has been passed on
        self.closed = False
        self.reverse = None         # the other direction's Pipe

    def push(self, data):
        if self.closed:
            return
        self.held.append((max(self.loop.time() + self.delay, self.start), data))
        self.held_bytes += len(data)
        self.flow()
        self.schedule()

    def finish(self):
        """The source said EOF: pass it on once everything before it is out."""
        self.held.append((max(self.loop.time() + self.delay, self.start), None))
        self.schedule()

    def flow(self):
        """Reads the source only while little is held and the sink takes more."""
        want = not self.closed and self.held_bytes < HELD_LIMIT and not self.sink_full
        if want != self.reading and self.source is not None and not self.source.is_closing():
            self.reading = want
            if want:
                self.source.resume_reading()
            else:
                self.source.pause_reading()

    def schedule(self):
        if self.timer is None and self.held and self.sink is not None:
            self.timer = self.loop.call_at(self.held[0][0], self.release)

    def release(self):
        self.timer = None
        now = self.loop.time()
        while self.held and self.held[0][0] <= now and not self.closed:
            _, data = self.held.popleft()
            if data is None:
                self.eof_sent = True
                if self.reverse.eof_sent:       # both halves closed: the connection is over
                    self.sink.close()
                    self.reverse.sink.close()
                elif self.sink.can_write_eof():
                    self.sink.write_eof()
                continue
            self.held_bytes -= len(data)
            self.sink.write(data)
        self.flow()
        self.schedule()

    def drop(self):
        self.closed = True
        self.held.clear()
        self.held_bytes = 0
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class Side(asyncio.Protocol):
    """One socket of a relayed connection: what it reads goes into `outgoing`, what `incoming`
    releases is written to it."""

    def __init__(self, outgoing, incoming):
        self.outgoing = outgoing
        self.incoming = incoming
        self.transport = None
        self.peer = None

    def connection_made(self, transport):
        self.transport = transport
        self.outgoing.source = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, HELD_LIMIT)

    def data_received(self, data):
        self.outgoing.push(data)

    def eof_received(self):
        self.outgoing.finish()
        return True                 # keep the write half open: the answer may still come

    def connection_lost(self, exc):
        # Closed by us after both EOFs, or reset / failed: either way nothing more goes through.
        self.outgoing.drop()
        self.incoming.drop()
        if exc is not None and self.peer is not None and self.peer.transport is not None:
            self.peer.transport.abort()

    # Back-pressure: this side's buffer is full, so stop reading the other side.
    def pause_writing(self):
        self.incoming.sink_full = True
        self.incoming.flow()

    def resume_writing(self):
        self.incoming.sink_full = False
        self.incoming.flow()


async def serve(listen, upstream, delay, connect_delay):
    loop = asyncio.get_running_loop()
    up_host, up_port = upstream

    def accepted():
        start = loop.time() + connect_delay
        to_server = Pipe(loop, delay, start + delay)
        to_client = Pipe(loop, delay, 0)
        to_server.reverse, to_client.reverse = to_client, to_server
        client = Side(to_server, to_client)

        async def connect():
            try:
                _, server = await loop.create_connection(lambda: Side(to_client, to_server), up_host, up_port)
            except OSError:
                if client.transport is not None:
                    client.transport.abort()
                return
            if to_server.closed:            # the client went while we connected
                server.transport.close()
                return
            server.peer, client.peer = client, server
            to_server.sink, to_client.sink = server.transport, client.transport
            to_server.schedule()
            to_client.schedule()

        loop.create_task(connect())
        return client

    server = await loop.create_server(accepted, listen[0], listen[1], reuse_address=True, backlog=256)
    return server


def endpoint(text):
    host, _, port = text.rpartition(":")
    return host or "127.0.0.1", int(port)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=25.0, help="ms each chunk is held, each way")
    parser.add_argument("--connect-delay", type=float, default=50.0, help="ms a new connection waits (the handshake)")
    parser.add_argument("mappings", nargs="+", metavar="LISTEN=UPSTREAM")
    args = parser.parse_args()
    servers = []
    for mapping in args.mappings:
        listen, _, upstream = mapping.partition("=")
        servers.append(await serve(endpoint(listen), endpoint(upstream), args.delay / 1000, args.connect_delay / 1000))
        print(f"relay {listen} -> {upstream}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    for server in servers:
        server.close()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(130)
