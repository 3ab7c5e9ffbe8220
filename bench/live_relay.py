#!/usr/bin/env python3
"""A timestamping RTMP relay for bench/live.sh: when did each video frame leave the publisher?

    live_relay.py LISTEN_PORT UPSTREAM_HOST:UPSTREAM_PORT LOG

Listens on 127.0.0.1:LISTEN_PORT and, for each connection it accepts (one publisher at a time
is what bench/live.sh makes), opens one to UPSTREAM and copies bytes both ways as they come,
with no delay and no buffering of its own. On the way to the server it reads the RTMP chunk
stream (after the 3,073 bytes of C0, C1 and C2: the handshake), following the publisher's Set
Chunk Size, and for every complete audio (8) or video (9) message writes one line to LOG:

    WALL TYPE TIMESTAMP FLAGS

WALL is time.time() (seconds, the system's real-time clock, as the clients use) right after
the chunk holding the message's last byte was handed to the server's socket; TYPE is `v` or
`a`; TIMESTAMP the RTMP timestamp (ms, the FLV tag's decode time); FLAGS, for video, `k` for a
key frame, `h` for a sequence header (AVCPacketType 0), `-` otherwise. So WALL is when the
frame was on the wire to the server: what a timestamp taken on the publisher's side of the
network would say, less the relay's own hop (one read and one write on loopback, well under a
millisecond; the loop's lag, when the machine is busy, is in it). Lines are flushed each second
and on exit.

Prints "relay 127.0.0.1:PORT -> HOST:PORT" once it listens; exits on SIGTERM or SIGINT.
"""
import asyncio
import signal
import struct
import sys
import time

HANDSHAKE = 1 + 1536 + 1536   # C0, C1, C2 from the publisher


class ChunkReader:
    """Parses the publisher's side of an RTMP connection, one chunk at a time, from bytes as
    they come; calls `done(type, timestamp, first_bytes)` per complete message."""

    def __init__(self, done):
        self.done = done
        self.buf = bytearray()
        self.skip = HANDSHAKE
        self.chunk_size = 128
        self.streams = {}   # csid -> dict(ts, delta, length, type, got, head, extended)

    def feed(self, data):
        if self.skip:
            n = min(self.skip, len(data))
            self.skip -= n
            data = data[n:]
        self.buf += data
        while self.parse_one():
            pass

    def parse_one(self):
        """Takes one whole chunk off the front of the buffer; False when it is not all here."""
        b = self.buf
        if not b:
            return False
        fmt, csid, pos = b[0] >> 6, b[0] & 0x3F, 1
        if csid == 0:
            if len(b) < 2:
                return False
            csid, pos = 64 + b[1], 2
        elif csid == 1:
            if len(b) < 3:
                return False
            csid, pos = 64 + b[1] + 256 * b[2], 3
        s = self.streams.setdefault(csid, {"ts": 0, "delta": 0, "length": 0, "type": 0, "got": 0,
                                           "head": b"", "extended": False})
        size = (11, 7, 3, 0)[fmt]
        if len(b) < pos + size:
            return False
        field, length, mtype = None, s["length"], s["type"]
        if fmt <= 2:
            field = int.from_bytes(b[pos:pos + 3], "big")
        if fmt <= 1:
            length, mtype = int.from_bytes(b[pos + 3:pos + 6], "big"), b[pos + 6]
        pos += size
        extended = field == 0xFFFFFF if fmt <= 2 else s["extended"]
        if extended:
            if len(b) < pos + 4:
                return False
            if fmt <= 2:
                field = int.from_bytes(b[pos:pos + 4], "big")
            pos += 4
        got = s["got"] if fmt == 3 else 0   # type 0, 1 and 2 chunks start a message
        want = min(self.chunk_size, length - got)
        if len(b) < pos + want:
            return False
        # The whole chunk is here: take its header.
        s["length"], s["type"], s["extended"] = length, mtype, extended
        if got == 0:
            if fmt == 0:
                s["ts"], s["delta"] = field, 0
            elif fmt <= 2:
                s["ts"], s["delta"] = s["ts"] + field, field
            else:
                s["ts"] += s["delta"]   # a new message with the delta of the one before
            s["head"] = bytes(b[pos:pos + 4])
        s["got"] = got + want
        del b[:pos + want]
        if s["got"] >= length:
            s["got"] = 0
            if mtype == 1 and len(s["head"]) == 4:   # Set Chunk Size
                self.chunk_size = struct.unpack(">I", s["head"])[0] & 0x7FFFFFFF
            else:
                self.done(mtype, s["ts"] & 0xFFFFFFFF, s["head"])
        return True


class Relay:
    def __init__(self, upstream, log):
        self.upstream = upstream
        self.log = log
        self.lines = []

    async def handle(self, reader, writer):
        host, port = self.upstream
        try:
            up_reader, up_writer = await asyncio.open_connection(host, port)
        except OSError:
            writer.close()
            return
        completed = []

        def done(mtype, ts, head):
            if mtype == 9:
                flags = "-"
                if len(head) >= 2 and head[1] == 0:
                    flags = "h"
                elif head and head[0] >> 4 == 1:
                    flags = "k"
                completed.append(("v", ts, flags))
            elif mtype == 8:
                completed.append(("a", ts, "-"))

        parser = ChunkReader(done)

        async def up():
            try:
                while data := await reader.read(65536):
                    up_writer.write(data)
                    now = time.time()
                    parser.feed(data)
                    for kind, ts, flags in completed:
                        self.lines.append(f"{now:.6f} {kind} {ts} {flags}\n")
                    completed.clear()
                    await up_writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                up_writer.close()

        async def down():
            try:
                while data := await up_reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

        await asyncio.gather(up(), down())

    async def flush_every_second(self):
        while True:
            await asyncio.sleep(1)
            self.flush()

    def flush(self):
        if self.lines:
            self.log.write("".join(self.lines))
            self.log.flush()
            self.lines.clear()


async def main():
    listen, upstream, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    host, port = upstream.rsplit(":", 1)
    with open(path, "a") as log:
        relay = Relay((host, int(port)), log)
        server = await asyncio.start_server(relay.handle, "127.0.0.1", listen)
        print(f"relay 127.0.0.1:{server.sockets[0].getsockname()[1]} -> {upstream}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        flusher = asyncio.create_task(relay.flush_every_second())
        await stop.wait()
        flusher.cancel()
        server.close()
        relay.flush()


if __name__ == "__main__":
    asyncio.run(main())
