#!/usr/bin/env python3
"""The clients of bench/live.sh (stdlib only): they follow a live stream and say when they had
what, and the analysis that turns that and bench/live_relay.py's log into latencies.

    live_client.py follow  PLAYLIST_URL LOG SECONDS           LL-HLS, one blocking client
    live_client.py poll    PLAYLIST_URL LOG SECONDS INTERVAL  plain HLS, a polling client
    live_client.py viewers PLAYLIST_URL SECONDS WARMUP N      N blocking viewers; prints JSON
    live_client.py paced   BASE_URL SECONDS WARMUP N INTERVAL PLAYLIST PART   the floor; JSON
    live_client.py latency RELAY_LOG CLIENT_LOG WARMUP feed|nginx   prints one line (ms)

All times are time.time() (the real-time clock bench/live_relay.py stamps with). HTTP/1.1 on
one kept-alive connection per client, over asyncio protocols (no third-party package): a
request is written when the one before it has been read in full.

follow: reads init.mp4 (which track is video, its timescale), the playlist, then from the
live edge on asks `index.m3u8?_HLS_msn=M&_HLS_part=P+1` (M, P: the last part it has: a blocking
reload, held by the server until that part, or a later one, exists) and fetches every part the
answer lists after the one it has, in order, as an LL-HLS player does. For each part a line of
JSON: its name, when the playlist that first listed it came ("listed"), when its last byte came
("held"), the status, and the decode times of its video frames (from its moof: tfdt and trun)
and its end, in the video timescale. Per playlist answer: when it came and the last part it
lists (a player joining then starts PART-HOLD-BACK behind that part's end). A part that left the
playlist before it was fetched, a status other than 200, is a miss (counted, logged).

poll: the same for a plain HLS playlist (nginx-rtmp): GET it every INTERVAL s; each segment new
in it is fetched at once; "listed" is when the playlist answer that first listed it came, "held"
when its bytes had come; the frames' times are the video PES headers' DTS (PTS when there is no
DTS) of the MPEG-TS, 90 kHz.

viewers: N coroutines, each on its own connection, each as follow (no parsing of parts: their
bytes are counted and dropped), all starting at the live edge within the first second.
Measured over the parts first listed between WARMUP and SECONDS - 2: per (viewer, part), the
answer delay, from the earliest time any viewer had a playlist listing that part (the moment
the part "exists", as close as a client can tell; a server that answers every held request at
once gives 0 for the first and the spread of its answers for the rest), to when this viewer's
playlist listing it came; and the part delay, to when this viewer had the part's last byte.
A part of the window a viewer did not get (not listed to it, not 200) is a miss. Prints one JSON
object: viewers, parts, answers, misses, viewers_missing, errors, answer and part delays p50
p99 max (ms), the client's own CPU seconds, and the mean sizes of a playlist and a part answer.

paced: the floor under viewers, against a static server (nginx) holding two files of a live
part's and a playlist's size: the same N connections in the same process, each asking for the
playlist and then the part at the same moments, every INTERVAL s (the part target: blocking
reloads are all answered when a part comes), so the machine, the loopback and this client
carry the same requests and bytes with the server's own work as small as it gets. Delays are
from each moment; a viewer that has not finished when the next moment comes starts late (its
delay counts), and a part held more than INTERVAL after its moment is "late". Prints viewers,
answers, late, errors, the seconds the moments span and those the run took (more: the machine
fell behind), answer (playlist) and part delays p50 p99 max (ms), the client's CPU.

latency: joins a client's log with the relay's. A frame's send time is the relay's time for the
video message with its timestamp: feed's decode times are the publisher's timestamps less that
of its first key frame (feed's timeline starts at 0 there); nginx-rtmp's MPEG-TS times are the
publisher's plus 700 ms (its NGX_RTMP_HLS_DELAY). Every frame of every part/segment is matched,
or the analysis fails. Over the units (parts, segments) listed after WARMUP s, prints
    UNIT_P50 UNIT_P99 FRAME_P50 FRAME_P99 G2G_P50 G2G_P99 FIRST_P50 UNITS MISSES JITTER HOLDBACK
in ms (counts as counts): UNIT from the unit's last frame sent to the client having it (feed:
held; nginx: listed, as asked); FRAME from each frame sent to its unit being there (the same);
FIRST from the unit's first frame; G2G, glass to glass, from the model below; JITTER the spread
(p99 - p1) of send time minus media time over the run: how far the publisher was from real
time; HOLDBACK the hold-back used (feed: PART-HOLD-BACK; nginx: 3 target durations, the HLS
default, as hls.js without a low-latency mode).
G2G model: a player joins every 50 ms of the run (after WARMUP, with 10 s to go); joining at J
it sees the playlist the client had at J, starts at its end less HOLDBACK, and plays in real
time from then: a frame of media time t shows at t + (J - start), or when its unit was held,
if later (a stall: the rest comes that much later). Each joiner shows 10 s (half the run after
WARMUP, when that is less); G2G is a frame's
show time less its send time. A player's own fetch of its first part and its decoding and
display are not in it (on loopback, a few ms; decode and display one or two frames).
"""
import asyncio
import json
import re
import resource
import sys
import time

# ---------------------------------------------------------------------------------------------
# HTTP/1.1 on one connection, as an asyncio protocol reading into one shared buffer.

SCRATCH = bytearray(1 << 18)
SCRATCH_VIEW = memoryview(SCRATCH)


class Connection(asyncio.BufferedProtocol):
    """One kept-alive HTTP/1.1 connection; `get(path, keep)` -> (status, body or byte count, time)."""

    def __init__(self):
        self.transport = None
        self.waiter = None
        self.lost = None

    @classmethod
    async def open(cls, host, port):
        loop = asyncio.get_running_loop()
        _, conn = await loop.create_connection(cls, host, port)
        return conn

    def connection_made(self, transport):
        self.transport = transport

    def connection_lost(self, exc):
        self.lost = exc or ConnectionResetError("closed")
        if self.waiter and not self.waiter.done():
            self.waiter.set_exception(self.lost)

    def get_buffer(self, sizehint):
        return SCRATCH_VIEW

    def buffer_updated(self, n):
        data = SCRATCH_VIEW[:n]
        while data:
            if self.remaining is None:
                self.head += data
                end = self.head.find(b"\r\n\r\n")
                if end < 0:
                    return
                head = bytes(self.head[:end])
                rest = bytes(self.head[end + 4:])
                self.status = int(head[9:12])
                m = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
                self.remaining = int(m.group(1)) if m else 0
                data = memoryview(rest)
                if not data and self.remaining:
                    return
            take = min(self.remaining, len(data))
            if self.keep:
                self.body += data[:take]
            self.count += take
            self.remaining -= take
            data = data[take:]
            if self.remaining == 0:
                waiter, self.waiter = self.waiter, None
                body = bytes(self.body) if self.keep else self.count
                if waiter and not waiter.done():
                    waiter.set_result((self.status, body, time.time()))
                return

    async def get(self, path, keep=True):
        if self.lost:
            raise self.lost
        self.head, self.body, self.count, self.remaining, self.keep = bytearray(), bytearray(), 0, None, keep
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nUser-Agent: live-bench\r\n\r\n".encode())
        return await self.waiter

    def close(self):
        if self.transport:
            self.transport.close()


class Client:
    """A Connection that is opened again when the server closed it (once per request)."""

    def __init__(self, host, port):
        self.host, self.port, self.conn = host, port, None

    async def get(self, path, keep=True):
        for attempt in (0, 1):
            try:
                if self.conn is None or self.conn.lost:
                    self.conn = await Connection.open(self.host, self.port)
                return await self.conn.get(path, keep)
            except ConnectionError:
                self.conn = None
                if attempt:
                    raise

    def close(self):
        if self.conn:
            self.conn.close()


def split_url(url):
    m = re.match(r"http://([^:/]+):(\d+)(/.*)$", url)
    if not m:
        raise SystemExit(f"live_client.py: not an http://HOST:PORT/… URL: {url}")
    return m.group(1), int(m.group(2)), m.group(3)


# ---------------------------------------------------------------------------------------------
# Media: ISO BMFF boxes (init and parts), MPEG-TS PES headers.

def boxes(data, start=0, end=None):
    end = len(data) if end is None else end
    while start + 8 <= end:
        size = int.from_bytes(data[start:start + 4], "big")
        kind = bytes(data[start + 4:start + 8])
        header = 8
        if size == 1:
            size, header = int.from_bytes(data[start + 8:start + 16], "big"), 16
        elif size == 0:
            size = end - start
        if size < header:
            return
        yield kind, start + header, start + size
        start += size


def child(data, start, end, kind):
    for k, s, e in boxes(data, start, end):
        if k == kind:
            return s, e
    return None


def video_track(init):
    """-> (track_id, timescale, default duration) of the init segment's video track."""
    moov = child(init, 0, len(init), b"moov")
    defaults = {}
    mvex = child(init, *moov, b"mvex")
    if mvex:
        for k, s, e in boxes(init, *mvex):
            if k == b"trex":
                defaults[int.from_bytes(init[s + 4:s + 8], "big")] = int.from_bytes(init[s + 12:s + 16], "big")
    for k, s, e in boxes(init, *moov):
        if k != b"trak":
            continue
        tkhd = child(init, s, e, b"tkhd")
        version = init[tkhd[0]]
        track = int.from_bytes(init[tkhd[0] + (20 if version else 12):][:4], "big")
        mdia = child(init, s, e, b"mdia")
        hdlr = child(init, *mdia, b"hdlr")
        if bytes(init[hdlr[0] + 8:hdlr[0] + 12]) != b"vide":
            continue
        mdhd = child(init, *mdia, b"mdhd")
        version = init[mdhd[0]]
        timescale = int.from_bytes(init[mdhd[0] + (20 if version else 12):][:4], "big")
        return track, timescale, defaults.get(track, 0)
    raise SystemExit("live_client.py: init.mp4 has no video track")


def part_frames(data, track, default_duration):
    """-> (decode times of the video samples, end of the last) in a part's moof(s)."""
    times, end = [], None
    for k, s, e in boxes(data):
        if k != b"moof":
            continue
        for k2, s2, e2 in boxes(data, s, e):
            if k2 != b"traf":
                continue
            tfhd = child(data, s2, e2, b"tfhd")
            flags = int.from_bytes(data[tfhd[0] + 1:tfhd[0] + 4], "big")
            if int.from_bytes(data[tfhd[0] + 4:tfhd[0] + 8], "big") != track:
                continue
            p = tfhd[0] + 8 + (8 if flags & 1 else 0) + (4 if flags & 2 else 0)
            duration = int.from_bytes(data[p:p + 4], "big") if flags & 8 else default_duration
            tfdt = child(data, s2, e2, b"tfdt")
            t = int.from_bytes(data[tfdt[0] + 4:tfdt[0] + (12 if data[tfdt[0]] else 8)], "big")
            for k3, s3, e3 in boxes(data, s2, e2):
                if k3 != b"trun":
                    continue
                tflags = int.from_bytes(data[s3 + 1:s3 + 4], "big")
                n = int.from_bytes(data[s3 + 4:s3 + 8], "big")
                p = s3 + 8 + (4 if tflags & 1 else 0) + (4 if tflags & 4 else 0)
                per = 4 * sum(1 for bit in (0x100, 0x200, 0x400, 0x800) if tflags & bit)
                for _ in range(n):
                    d = int.from_bytes(data[p:p + 4], "big") if tflags & 0x100 else duration
                    times.append(t)
                    t += d
                    p += per
                end = t
    return times, end


def ts_frames(data):
    """-> (DTS, or PTS, of the video PES packets of an MPEG-TS, in 90 kHz ticks)."""
    pmt_pids, video_pids, times = set(), set(), []
    for i in range(0, len(data) - 187, 188):
        pkt = data[i:i + 188]
        if pkt[0] != 0x47:
            continue
        pid = ((pkt[1] & 0x1F) << 8) | pkt[2]
        start = pkt[1] & 0x40
        afc = (pkt[3] >> 4) & 3
        p = 4
        if afc & 2:
            p += 1 + pkt[4]
        if not afc & 1 or p >= 188:
            continue
        if pid == 0 and start:
            p += 1 + pkt[p]
            n = ((pkt[p + 1] & 0x0F) << 8) | pkt[p + 2]
            for q in range(p + 8, p + 3 + n - 4, 4):
                if int.from_bytes(pkt[q:q + 2], "big"):
                    pmt_pids.add(int.from_bytes(pkt[q + 2:q + 4], "big") & 0x1FFF)
        elif pid in pmt_pids and start:
            p += 1 + pkt[p]
            n = ((pkt[p + 1] & 0x0F) << 8) | pkt[p + 2]
            info = ((pkt[p + 10] & 0x0F) << 8) | pkt[p + 11]
            q = p + 12 + info
            while q < p + 3 + n - 4:
                kind, epid = pkt[q], ((pkt[q + 1] & 0x1F) << 8) | pkt[q + 2]
                if kind in (0x1B, 0x24):
                    video_pids.add(epid)
                q += 5 + (((pkt[q + 3] & 0x0F) << 8) | pkt[q + 4])
        elif pid in video_pids and start and pkt[p:p + 3] == b"\x00\x00\x01":
            flags = pkt[p + 7] >> 6
            def stamp(o):
                b = pkt[o:o + 5]
                return ((b[0] >> 1) & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 | b[3] << 7 | b[4] >> 1
            times.append(stamp(p + 14) if flags == 3 else stamp(p + 9))
    return times


# ---------------------------------------------------------------------------------------------
# follow, poll, viewers

PART_RE = re.compile(rb'#EXT-X-PART:[^\n]*URI="part_(\d+)_(\d+)\.m4s"')


def listed_parts(body):
    return [(int(a), int(b)) for a, b in PART_RE.findall(body)]


def successor_ok(last, first):
    return first == (last[0], last[1] + 1) or first == (last[0] + 1, 0)


async def follow(url, log_path, seconds):
    host, port, path = split_url(url)
    base = path.rsplit("/", 1)[0]
    conn = Client(host, port)
    deadline = time.time() + seconds
    status, init, _ = await conn.get(f"{base}/init.mp4")
    while status != 200 and time.time() < deadline:   # no part yet: the init segment comes with the first
        await asyncio.sleep(0.05)
        status, init, _ = await conn.get(f"{base}/init.mp4")
    track, timescale, default_duration = video_track(init)
    status, body, _ = await conn.get(path)
    m = re.search(rb"PART-HOLD-BACK=([\d.]+)", body)
    holdback = float(m.group(1)) if m else 0
    parts = listed_parts(body)
    while not parts and time.time() < deadline:
        status, body, _ = await conn.get(f"{path}?_HLS_msn=0&_HLS_part=0")
        parts = listed_parts(body)
    last = parts[-1]
    misses = 0
    with open(log_path, "w") as log:
        log.write(json.dumps({"k": "start", "timescale": timescale, "holdback": holdback}) + "\n")
        while time.time() < deadline:
            status, body, listed = await conn.get(f"{path}?_HLS_msn={last[0]}&_HLS_part={last[1] + 1}")
            if status != 200:
                log.write(json.dumps({"k": "error", "t": listed, "status": status}) + "\n")
                await asyncio.sleep(0.05)   # a 404 (the stream gone) or 400 comes at once
                continue
            parts = listed_parts(body)
            if b"#EXT-X-ENDLIST" in body:
                break
            new = [p for p in parts if p > last]
            if new and not successor_ok(last, new[0]):
                misses += 1
                log.write(json.dumps({"k": "miss", "t": listed, "after": last, "next": new[0]}) + "\n")
            log.write(json.dumps({"k": "pl", "t": listed, "last": parts[-1] if parts else None}) + "\n")
            for p in new:
                status, data, held = await conn.get(f"{base}/part_{p[0]}_{p[1]}.m4s")
                if status != 200:
                    misses += 1
                    log.write(json.dumps({"k": "miss", "t": held, "part": p, "status": status}) + "\n")
                    continue
                frames, end = part_frames(data, track, default_duration)
                log.write(json.dumps({"k": "unit", "id": p, "listed": listed, "held": held, "frames": frames,
                                      "end": end}) + "\n")
                last = p
            log.flush()
    conn.close()
    print(json.dumps({"misses": misses}))


async def poll(url, log_path, seconds, interval):
    host, port, path = split_url(url)
    base = path.rsplit("/", 1)[0]
    conn = Client(host, port)
    deadline = time.time() + seconds
    seen = set()
    started = False
    with open(log_path, "w") as log:
        while time.time() < deadline:
            asked = time.time()
            status, body, listed = await conn.get(path)
            if status == 200:
                text = body.decode()
                m = re.search(r"#EXT-X-TARGETDURATION:(\d+)", text)
                names = [line for line in text.splitlines() if line and not line.startswith("#")]
                if not started and names:
                    started = True
                    seen.update(names)   # those before the client came
                    log.write(json.dumps({"k": "start", "timescale": 90000, "holdback": 3 * int(m.group(1))}) + "\n")
                    log.write(json.dumps({"k": "pl", "t": listed, "last": names[-1]}) + "\n")
                new = [n for n in names if n not in seen]
                if new:
                    log.write(json.dumps({"k": "pl", "t": listed, "last": names[-1]}) + "\n")
                for name in new:
                    seen.add(name)
                    status, data, held = await conn.get(f"{base}/{name}")
                    frames = ts_frames(data) if status == 200 else []
                    log.write(json.dumps({"k": "unit", "id": name, "listed": listed, "held": held,
                                          "frames": frames, "end": None}) + "\n")
                log.flush()
            await asyncio.sleep(max(0.0, asked + interval - time.time()))
    conn.close()


def quantile(values, q):
    """Nearest rank."""
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, max(0, int(q * len(v) + 0.999999) - 1))]


async def viewers(url, seconds, warmup, n):
    host, port, path = split_url(url)
    base = path.rsplit("/", 1)[0]
    start = time.time()
    deadline = start + seconds
    first_listed = {}               # part -> earliest time any viewer had a playlist listing it
    got = [dict() for _ in range(n)]    # viewer -> part -> (listed, held)
    errors = {}
    sizes = {"playlist": [0, 0], "part": [0, 0]}   # kind -> [bytes, answers]

    async def viewer(i):
        await asyncio.sleep(i / n)      # all connected within the first second
        try:
            conn = Client(host, port)
            status, body, _ = await conn.get(path)
            parts = listed_parts(body)
            last = parts[-1] if parts else (0, -1)
            while time.time() < deadline:
                status, body, listed = await conn.get(f"{path}?_HLS_msn={last[0]}&_HLS_part={last[1] + 1}", keep=True)
                if status != 200:
                    errors[status] = errors.get(status, 0) + 1
                    await asyncio.sleep(0.05)
                    continue
                sizes["playlist"][0] += len(body)
                sizes["playlist"][1] += 1
                parts = listed_parts(body)
                for p in parts:
                    if p > last:
                        if p not in first_listed or listed < first_listed[p]:
                            first_listed[p] = listed
                for p in [p for p in parts if p > last]:
                    status, count, held = await conn.get(f"{base}/part_{p[0]}_{p[1]}.m4s", keep=False)
                    if status == 200:
                        got[i][p] = (listed, held)
                        sizes["part"][0] += count
                        sizes["part"][1] += 1
                    else:
                        errors[status] = errors.get(status, 0) + 1
                    last = p
            conn.close()
        except OSError as e:
            errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1

    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    await asyncio.gather(*(viewer(i) for i in range(n)))
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    window = {p for p, t in first_listed.items() if start + warmup <= t <= deadline - 2}
    answer, part, misses, missing = [], [], 0, 0
    for mine in got:
        lost = 0
        for p in window:
            if p in mine:
                listed, held = mine[p]
                answer.append(listed - first_listed[p])
                part.append(held - first_listed[p])
            else:
                lost += 1
        misses += lost
        missing += bool(lost)
    ms = lambda v: round(v * 1000, 2)
    print(json.dumps({
        "viewers": n, "parts": len(window), "answers": len(answer), "misses": misses, "viewers_missing": missing,
        "errors": errors,
        "answer_p50": ms(quantile(answer, 0.5)), "answer_p99": ms(quantile(answer, 0.99)), "answer_max": ms(max(answer, default=0)),
        "part_p50": ms(quantile(part, 0.5)), "part_p99": ms(quantile(part, 0.99)), "part_max": ms(max(part, default=0)),
        "client_cpu": round(cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime, 2),
        "playlist_bytes": sizes["playlist"][0] // max(1, sizes["playlist"][1]),
        "part_bytes": sizes["part"][0] // max(1, sizes["part"][1]),
    }))


async def paced(url, seconds, warmup, n, interval, playlist, part):
    """The floor under `viewers`: N viewers on one connection each ask a static server for the
    file PLAYLIST, then PART, all at the same moments (every INTERVAL s, as a part's blocking
    reloads are all answered at once), for SECONDS; delays from each moment, the first WARMUP s
    left out. A viewer still busy when the next moment comes starts late (its delay counts)."""
    host, port, base = split_url(url)
    base = base.rstrip("/")
    start = time.time() + 1.0           # every viewer connected first
    ticks = int(seconds / interval)
    answer, held, late, errors = [], [], [0], {}

    async def viewer(i):
        conn = Client(host, port)
        try:
            await conn.get(f"{base}/{playlist}", keep=False)
            for k in range(ticks):
                tick = start + k * interval
                now = time.time()
                if tick > now:
                    await asyncio.sleep(tick - now)
                s1, _, t1 = await conn.get(f"{base}/{playlist}", keep=False)
                s2, _, t2 = await conn.get(f"{base}/{part}", keep=False)
                if s1 != 200 or s2 != 200:
                    errors[s1 if s1 != 200 else s2] = errors.get(s1 if s1 != 200 else s2, 0) + 1
                    continue
                if tick >= start + warmup:
                    answer.append(t1 - tick)
                    held.append(t2 - tick)
                    late[0] += t2 - tick > interval
        except OSError as e:
            errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1
        finally:
            conn.close()

    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    await asyncio.gather(*(viewer(i) for i in range(n)))
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    ms = lambda v: round(v * 1000, 2)
    print(json.dumps({
        "viewers": n, "answers": len(answer), "late": late[0], "errors": errors,
        "asked_seconds": round(ticks * interval, 2), "took_seconds": round(time.time() - start, 2),
        "answer_p50": ms(quantile(answer, 0.5)), "answer_p99": ms(quantile(answer, 0.99)), "answer_max": ms(max(answer, default=0)),
        "part_p50": ms(quantile(held, 0.5)), "part_p99": ms(quantile(held, 0.99)), "part_max": ms(max(held, default=0)),
        "client_cpu": round(cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime, 2),
    }))


# ---------------------------------------------------------------------------------------------
# latency: the client's log against the relay's

def latency(relay_path, client_path, warmup, kind):
    sent, first_key, first_wall = {}, None, None
    for line in open(relay_path):
        wall, what, ts, flags = line.split()
        if what != "v" or flags == "h":
            continue
        ts, wall = int(ts), float(wall)
        sent.setdefault(ts, wall)
        if first_key is None and flags == "k":
            first_key = ts
        if first_wall is None:
            first_wall = wall
    if first_key is None:
        raise SystemExit("live_client.py: the relay saw no key frame")
    units, playlists, misses, holdback, timescale = [], [], 0, None, 90000
    for line in open(client_path):
        e = json.loads(line)
        if e["k"] == "start":
            holdback, timescale = e["holdback"], e["timescale"]
        elif e["k"] == "unit" and e["frames"]:
            units.append(e)
        elif e["k"] == "pl":
            playlists.append((e["t"], e["last"]))
        elif e["k"] == "miss":
            misses += 1
    if not units:
        raise SystemExit(f"live_client.py: {client_path}: the client had no part or segment")
    offset = (-first_key if kind == "feed" else 700) * timescale / 1000   # media ticks = ts * scale/1000 + offset

    def send_time(ticks):
        ts = round((ticks - offset) * 1000 / timescale)
        for d in (0, -1, 1):
            if ts + d in sent:
                return sent[ts + d]
        raise SystemExit(f"live_client.py: a {kind} frame at {ticks} ticks (publisher's {ts} ms) was not sent: "
                         "the timelines do not line up")

    frame = timescale / 30
    by_id = {}
    for u in units:
        u["media"] = [t / timescale for t in u["frames"]]
        u["sent"] = [send_time(t) for t in u["frames"]]
        u["at"] = u["held"] if kind == "feed" else u["listed"]
        u["end_s"] = (u["end"] if u["end"] is not None else u["frames"][-1] + frame) / timescale
        by_id[json.dumps(u["id"])] = u
    # Publisher's jitter: send time less media time, spread.
    lag = sorted(s - m for u in units for s, m in zip(u["sent"], u["media"]))
    jitter = quantile(lag, 0.99) - quantile(lag, 0.01)
    t0 = first_wall + warmup
    measured = [u for u in units if u["listed"] >= t0]
    unit_lat = [u["at"] - u["sent"][-1] for u in measured]
    first_lat = [u["at"] - u["sent"][0] for u in measured]
    frame_lat = [u["at"] - s for u in measured for s in u["sent"]]
    # Glass to glass: joiners every 50 ms.
    g2g = []
    edges = [(t, by_id[json.dumps(last)]["end_s"]) for t, last in playlists if last is not None and json.dumps(last) in by_id]
    order = sorted(units, key=lambda u: u["media"][0])
    end_wall = units[-1]["held"]
    span = min(10.0, max(1.0, (end_wall - t0) / 2))   # 10 s, less on a short run
    j, k = t0, 0
    while j <= end_wall - span and edges:
        while k + 1 < len(edges) and edges[k + 1][0] <= j:
            k += 1
        if edges[k][0] <= j:
            start = edges[k][1] - holdback
            clock = j - start
            for u in order:
                if u["end_s"] <= start:
                    continue
                if u["media"][0] > start + span:
                    break
                for m, s in zip(u["media"], u["sent"]):
                    if m < start:
                        continue
                    show = m + clock
                    if show < u["held"]:
                        clock += u["held"] - show
                        show = u["held"]
                    g2g.append(show - s)
        j += 0.05
    ms = lambda v: v * 1000
    print(" ".join(f"{v:.1f}" for v in (
        ms(quantile(unit_lat, 0.5)), ms(quantile(unit_lat, 0.99)), ms(quantile(frame_lat, 0.5)),
        ms(quantile(frame_lat, 0.99)), ms(quantile(g2g, 0.5)), ms(quantile(g2g, 0.99)), ms(quantile(first_lat, 0.5)))),
        len(measured), misses, f"{ms(jitter):.1f}", f"{ms(holdback):.0f}")


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    a = sys.argv[2:]
    if cmd == "follow":
        asyncio.run(follow(a[0], a[1], float(a[2])))
    elif cmd == "poll":
        asyncio.run(poll(a[0], a[1], float(a[2]), float(a[3])))
    elif cmd == "viewers":
        asyncio.run(viewers(a[0], float(a[1]), float(a[2]), int(a[3])))
    elif cmd == "paced":
        asyncio.run(paced(a[0], float(a[1]), float(a[2]), int(a[3]), float(a[4]), a[5], a[6]))
    elif cmd == "latency":
        latency(a[0], a[1], float(a[2]), a[3])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
