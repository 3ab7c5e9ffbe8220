#!/usr/bin/env python3
"""llhls_check.py: follow a live LL-HLS media playlist as a player does and check it against
RFC 8216bis (draft-pantos-hls-rfc8216bis) and Apple's low-latency HLS rules.

Usage:
    llhls_check.py PLAYLIST_URL [--seconds N] [--part-target T] [--slack S] [--live-hold H]
                   [--max-window W]
    llhls_check.py PLAYLIST_URL --check-hold [--pause-pid PID] [--live-hold H] [--slack S]
    llhls_check.py --self-test

Needs PyPI's `m3u8` (tags are parsed with `m3u8.loads`; the few things it does not keep, such
as which segment an EXT-X-PROGRAM-DATE-TIME belongs to and EXT-X-MAP's URI, are read from the
lines) and the standard library only.

Follow mode (the default). Fetches the playlist, then reloads it with blocking requests
(`_HLS_msn=M&_HLS_part=P` for the part just after the last one listed) while fetching the
preload hint's part in parallel, until the playlist has EXT-X-ENDLIST or N seconds passed.
Every playlist received is checked; every part, segment and init segment it lists is fetched
once, right after it was first listed. Rules (the name is what a FAIL line starts with):

  server-control     EXT-X-SERVER-CONTROL has CAN-BLOCK-RELOAD=YES and PART-HOLD-BACK >= 3 x
                     PART-TARGET.
  part-target        EXT-X-PART-INF:PART-TARGET present, 0.2...0.5, the same in every playlist
                     (and equal to --part-target when given).
  part-duration      every EXT-X-PART DURATION <= PART-TARGET (+0.001); the worst is reported.
  independent        INDEPENDENT=YES exactly on the parts whose first video sample is a key frame
                     (read from the part's moof: trun first-sample-flags, else the sample's
                     flags, else tfhd's / trex's defaults; sample_is_non_sync_sample 0x10000
                     clear and sample_depends_on != 1); with EXT-X-INDEPENDENT-SEGMENTS the
                     first part of every segment is INDEPENDENT and every segment starts with
                     a key frame.
  segment-duration   EXTINF rounded to the nearest integer <= EXT-X-TARGETDURATION (RFC 8216
                     4.4.3.1), and so is the segment in progress so far; EXT-X-TARGETDURATION
                     never changes (RFC 8216 6.2.1); a complete segment's EXTINF = the sum of its
                     listed parts' durations (within 0.01 s + 0.001 s a part).
  preload-hint       EXT-X-PRELOAD-HINT:TYPE=PART present while live, absent with ENDLIST; its
                     URI is not listed yet and is the next part (the next playlist lists it at
                     the position after the last part); a request for it, sent before it exists,
                     is held and answered 200 with the same bytes the listed part has, within
                     PART-TARGET + slack (not 404).
  program-date-time  EXT-X-PROGRAM-DATE-TIME on the first segment; consecutive dates differ by
                     the EXTINF between them (within 50 ms, unless a discontinuity); a segment
                     keeps its date across reloads.
  media-sequence     EXT-X-MEDIA-SEQUENCE never goes back; the live edge (the last part listed)
                     never goes back; a media sequence number keeps its URI and EXTINF.
  window             a live playlist whose segments started leaving lists at least 3 target
                     durations (RFC 8216 6.2.2); no playlist lists more than --max-window seconds
                     of segments, and the window moved once more than that was seen.
  fetchable          every part, segment and init segment listed answers 200 when fetched right
                     after the playlist that first lists it.
  removed-available  a segment that just left the playlist still answers 200 (RFC 8216 6.2.2:
                     it stays available for its duration plus the playlist's).
  blocking-reload    a blocking request is answered 200 with a playlist that lists the part asked
                     for (or a later one; any playlist with ENDLIST), within PART-TARGET + slack
                     (p50/p99 reported); once ended, such a request is answered at once.
  bad-request        _HLS_msn more than two segments past the last one listed -> 400;
                     _HLS_part without _HLS_msn -> 400.
  content-type       playlists are application/vnd.apple.mpegurl (or RFC 8216's audio/mpegurl).
  cache-control      parts and segments have Cache-Control with `immutable`; the plain (not
                     blocking) playlist is not kept: no-cache, no-store or max-age <= PART-TARGET.
                     (A blocking request's answer is the playlist as of that part, so it may be
                     cached; feed sends it `public, max-age=60`, which is not checked.)
  plain-hls          players that ignore parts still play: complete segments are listed with
                     EXTINF and a URI; no part leaves the playlist before its segment was listed
                     complete; there is an EXT-X-MAP; an ended playlist has no open parts.

The 503 case (--check-hold). A blocking request that the server cannot satisfy is held at most
the server's hold (feed: 6 s, ServerConfiguration.liveHold; it has no command line option) and
then answered 503, never with the unchanged playlist. That can only be seen while the stream is
live but stalled: feed answers every held request at once when the stream ends (LiveChannel
resumes all waiters in finish()), and a request more than two segments ahead is a 400, not a
hold. So --check-hold needs a publisher that is connected but sends nothing: the caller stops it
(SIGSTOP) before running the check, or passes --pause-pid PID and the checker sends SIGSTOP to
PID itself, waits 0.5 s for what was in flight, and sends SIGCONT when done. It then asks, all at
once, for the next part (`_HLS_msn&_HLS_part`), for the next complete segment (`_HLS_msn` only)
and for the preload hint's part, and checks (rule hold-503): both playlist requests answered 503
after --live-hold (-0.2 s, +slack); the hinted part held as long and not answered 200. If a
playlist request is answered 200 listing the part, the stream was not stalled: exit 2. It runs
about --live-hold + 1 s. (With a reconnect window, which feed's working tree is adding: a
publisher that went leaves the stream live and stalled for the window, so --check-hold works
right after the publisher exits, without --pause-pid; and a follow run then does not see
EXT-X-ENDLIST when the publisher stops, but 503s: follow a publisher that outlives --seconds, or
end the stream with DELETE /live/{id}.)

A run that holds up with or without a reconnect window: a publisher of 600 s; follow it
`--seconds 20` (about 20 s); `--check-hold --pause-pid PUBLISHER` (about 7 s); DELETE the stream;
follow it again `--seconds 5` (at once: the ended playlist, and a blocking request answered at
once).

Output: one `FAIL <rule>: <details>` line per violation (at most 20 a rule), INFO lines (the
blocking waits), then a summary: `OK <playlists> playlists, <parts> parts, <segments> segments`
(exit 0), or `FAILED <n> violations: ...` (exit 1). Exit 2: usage, or the server cannot be
reached (the first playlist request is retried on 404 for --start-timeout seconds, so it may
start just before the publisher is accepted; but wait until the stream is `active` first: after a
publish ended, feed keeps serving that publish's ended playlist until the next one is accepted,
and a first playlist with EXT-X-ENDLIST makes a short run, said in an INFO line). A follow run lasts at most about --seconds +
--live-hold + slack.

--self-test runs the checks against a small fake LL-HLS server (this file, http.server) once
as it should behave and once per doctored behaviour, and asserts the good run passes and that
every doctored run reports the rule it breaks. About 20 s.
"""

import argparse
import concurrent.futures
import datetime
import io
import math
import os
import re
import signal
import socket
import struct
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

try:
    import m3u8
except ImportError:  # pragma: no cover
    print("ERROR llhls_check.py needs PyPI's m3u8 (pip install m3u8)", file=sys.stderr)
    sys.exit(2)

PLAYLIST_TYPES = ("application/vnd.apple.mpegurl", "audio/mpegurl")
EPSILON = 0.001
PDT_TOLERANCE = 0.05
MAX_LINES_PER_RULE = 20


class Unreachable(Exception):
    """The server cannot be reached (exit 2)."""


class Usage(Exception):
    """The check cannot be made as asked (exit 2)."""


# MARK: HTTP

_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Response:
    def __init__(self, url, status, headers, body, started, finished):
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.started = started
        self.finished = finished

    @property
    def elapsed(self):
        return self.finished - self.started

    def header(self, name):
        return self.headers.get(name.lower())


def http_get(url, timeout):
    request = urllib.request.Request(url, headers={"User-Agent": "llhls_check/1"})
    started = time.monotonic()
    try:
        with _OPENER.open(request, timeout=timeout) as answer:
            body = answer.read()
            return Response(url, answer.status, {k.lower(): v for k, v in answer.headers.items()}, body,
                            started, time.monotonic())
    except urllib.error.HTTPError as error:
        body = error.read() if error.fp else b""
        return Response(url, error.code, {k.lower(): v for k, v in (error.headers or {}).items()}, body,
                        started, time.monotonic())
    except (urllib.error.URLError, OSError, socket.timeout) as error:
        raise Unreachable(f"GET {url}: {getattr(error, 'reason', error)}") from None


def with_query(url, **params):
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    query = [(k, v) for k, v in query if k not in params] + [(k, str(v)) for k, v in params.items()]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def short(url):
    """The last path component of a URL, for messages."""
    return urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1] if url else str(url)


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


# MARK: fMP4

def _boxes(data, start=0, end=None):
    end = len(data) if end is None else end
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        header = 8
        if size == 1:
            if offset + 16 > end:
                return
            size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
            header = 16
        elif size == 0:
            size = end - offset
        if size < header or offset + size > end:
            return
        yield kind.decode("latin-1"), offset + header, offset + size
        offset += size


def _child(data, start, end, kind):
    for found, body, stop in _boxes(data, start, end):
        if found == kind:
            return body, stop
    return None


def parse_init(data):
    """(video track ids, {track id: trex default_sample_flags}) of an init segment."""
    video, defaults = set(), {}
    moov = _child(data, 0, len(data), "moov")
    if moov is None:
        raise ValueError("no moov box")
    for kind, body, stop in _boxes(data, *moov):
        if kind == "trak":
            tkhd = _child(data, body, stop, "tkhd")
            mdia = _child(data, body, stop, "mdia")
            if tkhd is None or mdia is None:
                continue
            version = data[tkhd[0]]
            at = tkhd[0] + 4 + (16 if version == 1 else 8)
            track = struct.unpack(">I", data[at:at + 4])[0]
            hdlr = _child(data, mdia[0], mdia[1], "hdlr")
            if hdlr and data[hdlr[0] + 8:hdlr[0] + 12] == b"vide":
                video.add(track)
        elif kind == "mvex":
            for inner, ibody, _ in _boxes(data, body, stop):
                if inner == "trex":
                    track, _, _, _, flags = struct.unpack(">IIIII", data[ibody + 4:ibody + 24])
                    defaults[track] = flags
    return video, defaults


def first_video_sample_flags(data, video, trex_defaults):
    """The sample flags of the first video sample of the first moof, or None without one."""
    moof = _child(data, 0, len(data), "moof")
    if moof is None:
        raise ValueError("no moof box")
    for kind, body, stop in _boxes(data, *moof):
        if kind != "traf":
            continue
        tfhd = _child(data, body, stop, "tfhd")
        trun = _child(data, body, stop, "trun")
        if tfhd is None or trun is None:
            continue
        tf_flags = struct.unpack(">I", data[tfhd[0]:tfhd[0] + 4])[0] & 0xFFFFFF
        track = struct.unpack(">I", data[tfhd[0] + 4:tfhd[0] + 8])[0]
        if track not in video:
            continue
        at = tfhd[0] + 8
        at += 8 if tf_flags & 0x1 else 0
        at += 4 if tf_flags & 0x2 else 0
        at += 4 if tf_flags & 0x8 else 0
        at += 4 if tf_flags & 0x10 else 0
        default = struct.unpack(">I", data[at:at + 4])[0] if tf_flags & 0x20 else trex_defaults.get(track, 0)
        tr_flags = struct.unpack(">I", data[trun[0]:trun[0] + 4])[0] & 0xFFFFFF
        count = struct.unpack(">I", data[trun[0] + 4:trun[0] + 8])[0]
        if count == 0:
            continue
        at = trun[0] + 8 + (4 if tr_flags & 0x1 else 0)
        if tr_flags & 0x4:
            return struct.unpack(">I", data[at:at + 4])[0]
        at += (4 if tr_flags & 0x100 else 0) + (4 if tr_flags & 0x200 else 0)
        if tr_flags & 0x400:
            return struct.unpack(">I", data[at:at + 4])[0]
        return default
    return None


def is_key(flags):
    return not flags & 0x10000 and (flags >> 24) & 0x3 != 1


# MARK: Playlists

class Part:
    def __init__(self, uri, duration, independent, msn, index):
        self.uri, self.duration, self.independent, self.msn, self.index = uri, duration, independent, msn, index


class Segment:
    def __init__(self, msn, uri, duration, parts, pdt, discontinuity):
        self.msn, self.uri, self.duration, self.parts = msn, uri, duration, parts
        self.pdt, self.discontinuity = pdt, discontinuity

    @property
    def complete(self):
        return self.uri is not None


class Playlist:
    """A playlist answer: m3u8's parse plus what is read from its lines."""

    def __init__(self, response, base_url):
        self.response = response
        self.text = response.body.decode("utf-8", errors="replace")
        self.m = m3u8.loads(self.text)
        m = self.m
        resolve = lambda uri: urllib.parse.urljoin(base_url, uri) if uri is not None else None
        self.ended = bool(m.is_endlist)
        self.target = m.target_duration
        self.media_sequence = m.media_sequence or 0
        self.independent_segments = bool(m.is_independent_segments)
        part_inf = getattr(m, "part_inf", None)
        self.part_target = getattr(part_inf, "part_target", None) if part_inf else None
        control = getattr(m, "server_control", None)
        self.can_block = getattr(control, "can_block_reload", None) if control else None
        self.part_hold_back = getattr(control, "part_hold_back", None) if control else None
        self.has_server_control = "#EXT-X-SERVER-CONTROL:" in self.text
        hint = getattr(m, "preload_hint", None)
        self.hint_type = getattr(hint, "hint_type", None) if hint else None
        self.hint = resolve(getattr(hint, "uri", None)) if hint else None
        self.hints = self.text.count("#EXT-X-PRELOAD-HINT:")
        found = re.search(r'^#EXT-X-MAP:.*URI="([^"]*)"', self.text, re.M)
        self.map = resolve(found.group(1)) if found else None
        # Which EXT-X-PROGRAM-DATE-TIME precedes which segment (m3u8 gives none to the open one).
        dates, pending, open_parts = [], None, False
        for line in self.text.splitlines():
            line = line.strip()
            if line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
                try:
                    pending = datetime.datetime.fromisoformat(line.split(":", 1)[1].replace("Z", "+00:00"))
                except ValueError:
                    pending = "bad:" + line
            elif line.startswith("#EXT-X-PART:"):
                open_parts = True
            elif line and not line.startswith("#"):
                dates.append(pending)
                pending, open_parts = None, False
        if open_parts:
            dates.append(pending)
        self.segments = []
        for position, seg in enumerate(m.segments):
            msn = self.media_sequence + position
            parts = [Part(resolve(p.uri), p.duration, str(p.independent).upper() == "YES", msn, index)
                     for index, p in enumerate(seg.parts or [])]
            pdt = dates[position] if len(dates) == len(m.segments) else seg.program_date_time
            self.segments.append(Segment(msn, resolve(seg.uri), seg.duration if seg.uri else None, parts, pdt,
                                         bool(seg.discontinuity)))

    @property
    def complete_segments(self):
        return [s for s in self.segments if s.complete]

    @property
    def parts(self):
        return [p for s in self.segments for p in s.parts]

    def last_part(self):
        """(msn, index) of the last part listed, or None."""
        for seg in reversed(self.segments):
            if seg.parts:
                return seg.msn, len(seg.parts) - 1
        return None

    def next_part(self):
        """(msn, part) of the part after the last one listed: what a player asks for next."""
        if self.segments:
            last = self.segments[-1]
            if last.complete:
                return last.msn + 1, 0
            return last.msn, len(last.parts)
        return self.media_sequence, 0

    def edge(self):
        """The live edge as (msn, parts listed of it), comparable across reloads."""
        if not self.segments:
            return (self.media_sequence - 1, math.inf)
        last = self.segments[-1]
        return (last.msn, math.inf) if last.complete else (last.msn, len(last.parts))

    def has_part(self, msn, part):
        for seg in self.segments:
            if seg.msn > msn:
                return True
            if seg.msn == msn and (seg.complete or len(seg.parts) > part):
                return True
        return False

    def part_at(self, msn, index):
        for seg in self.segments:
            if seg.msn == msn and index < len(seg.parts):
                return seg.parts[index]
        return None


# MARK: The checker

class Checker:
    def __init__(self, args, out=None):
        self.args = args
        self.out = out or sys.stdout
        self.failures = {}  # rule -> [details]
        self.seen_failures = set()
        self.infos = []
        self.playlists = 0
        self.part_uris = set()
        self.segment_uris = set()
        self.fetched = {}  # url -> bytes (parts) / True
        self.hinted_bytes = {}
        self.video = None
        self.trex = {}
        self.init_url = None
        self.dates = {}  # msn -> pdt
        self.segment_seen = {}  # msn -> (uri, duration)
        self.first_msn = None
        self.blocking_waits = []
        self.hint_waits = []
        self.worst_part = None
        self.long_parts = set()
        self.part_target = None
        self.target = None
        self.max_listed = 0.0
        self.window_moved = False
        self.seen_duration = {}
        self.key_checked = 0
        self.target_changes = set()
        self.open_parts = {}  # uri -> msn of the parts seen in a segment in progress
        self.closed = set()  # msns seen as complete segments
        self.key_frames = 0
        self.removed_checked = 0
        self.timeout = args.live_hold + args.slack + 3
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=4)

    # Reporting

    def fail(self, rule, details):
        key = (rule, details)
        if key in self.seen_failures:
            return
        self.seen_failures.add(key)
        self.failures.setdefault(rule, []).append(details)

    def report(self):
        count = 0
        for rule, lines in self.failures.items():
            for details in lines[:MAX_LINES_PER_RULE]:
                print(f"FAIL {rule}: {details}", file=self.out)
            if len(lines) > MAX_LINES_PER_RULE:
                print(f"FAIL {rule}: ... and {len(lines) - MAX_LINES_PER_RULE} more", file=self.out)
            count += len(lines)
        for info in self.infos:
            print(f"INFO {info}", file=self.out)
        tally = f"{self.playlists} playlists, {len(self.part_uris)} parts, {len(self.segment_uris)} segments"
        print(f"FAILED {count} violations: {tally}" if count else f"OK {tally}", file=self.out)
        return 1 if count else 0

    # Fetching

    def get(self, url):
        return http_get(url, self.timeout)

    def playlist(self, url, response=None):
        response = response or self.get(url)
        if response.status != 200:
            return None, response
        self.playlists += 1
        try:
            return Playlist(response, self.args.url), response
        except Exception as error:  # m3u8 could not read it
            self.fail("plain-hls", f"{short(url)}: the playlist cannot be parsed ({error}): {response.body[:200]!r}")
            return None, response

    def first_playlist(self):
        deadline = time.monotonic() + self.args.start_timeout
        while True:
            response = self.get(self.args.url)
            if response.status == 200 or time.monotonic() > deadline or response.status != 404:
                break
            time.sleep(0.2)
        if response.status != 200:
            raise Unreachable(f"GET {self.args.url}: {response.status} {response.body[:200]!r}")
        playlist, _ = self.playlist(self.args.url, response)
        if playlist is None:
            raise Usage("the first playlist cannot be parsed")
        return playlist

    # Rules on one playlist

    def check_playlist(self, pl, blocking):
        where = f"playlist #{self.playlists}" + (" (blocking)" if blocking else "")
        headers = pl.response
        ctype = (headers.header("content-type") or "").split(";")[0].strip().lower()
        if ctype not in PLAYLIST_TYPES:
            self.fail("content-type", f"{where}: Content-Type {headers.header('content-type')!r}, not application/vnd.apple.mpegurl")
        pt = pl.part_target
        if not blocking:
            cache = (headers.header("cache-control") or "").lower()
            ages = [float(v) for v in re.findall(r"(?:s-)?max-age\s*=\s*(\d+(?:\.\d+)?)", cache)]
            fresh = "no-cache" in cache or "no-store" in cache or (ages and max(ages) <= (pt or 0) + EPSILON)
            if not fresh:
                self.fail("cache-control", f"{where}: the plain playlist has Cache-Control {headers.header('cache-control')!r}: "
                                           f"a cache may keep it longer than a part (want no-cache or max-age <= PART-TARGET)")

        # server-control
        if not pl.has_server_control or pl.can_block != "YES":
            self.fail("server-control", f"{where}: no EXT-X-SERVER-CONTROL with CAN-BLOCK-RELOAD=YES")
        if pl.part_hold_back is None:
            self.fail("server-control", f"{where}: EXT-X-SERVER-CONTROL has no PART-HOLD-BACK")
        elif pt is not None and pl.part_hold_back < 3 * pt - EPSILON:
            self.fail("server-control", f"{where}: PART-HOLD-BACK={pl.part_hold_back:g} < 3 x PART-TARGET ({3 * pt:g})")

        # part-target
        if pt is None:
            self.fail("part-target", f"{where}: no EXT-X-PART-INF:PART-TARGET")
        else:
            if not 0.2 - EPSILON <= pt <= 0.5 + EPSILON:
                self.fail("part-target", f"{where}: PART-TARGET={pt:g} is not within 0.2...0.5")
            if self.args.part_target is not None and abs(pt - self.args.part_target) > 1e-6:
                self.fail("part-target", f"{where}: PART-TARGET={pt:g}, expected {self.args.part_target:g}")
            if self.part_target is not None and abs(pt - self.part_target) > 1e-9:
                self.fail("part-target", f"{where}: PART-TARGET changed from {self.part_target:g} to {pt:g}")
            self.part_target = self.part_target if self.part_target is not None else pt

        # part-duration (the worst is reported at the end)
        limit = (pt if pt is not None else 0.5) + EPSILON
        for part in pl.parts:
            if part.duration is None or part.duration > limit:
                self.long_parts.add(part.uri)
                if self.worst_part is None or (part.duration or math.inf) > self.worst_part[1]:
                    self.worst_part = (part.uri, part.duration or math.inf)

        # independent: with EXT-X-INDEPENDENT-SEGMENTS, the first part of every segment
        for seg in pl.segments if pl.independent_segments else []:
            if seg.parts and not seg.parts[0].independent:
                self.fail("independent", f"{where}: the first part of segment {seg.msn} ({short(seg.parts[0].uri)}) "
                                         f"has no INDEPENDENT=YES")

        # segment-duration
        target = pl.target
        if target is None:
            self.fail("segment-duration", f"{where}: no EXT-X-TARGETDURATION")
        else:
            if self.target is not None and target != self.target and (self.target, target) not in self.target_changes:
                self.target_changes.add((self.target, target))
                self.fail("segment-duration", f"EXT-X-TARGETDURATION changed from {self.target} to {target} (first in "
                                              f"{where}; RFC 8216 6.2.1: it MUST NOT change)")
            self.target = self.target or target
        for seg in pl.complete_segments:
            if seg.duration is None:
                continue
            if target is not None and math.floor(seg.duration + 0.5) > target:
                self.fail("segment-duration", f"{where}: {short(seg.uri)} EXTINF {seg.duration:g} rounds to more than "
                                              f"EXT-X-TARGETDURATION {target}")
            if seg.parts:
                total = sum(p.duration or 0 for p in seg.parts)
                if abs(total - seg.duration) > 0.01 + EPSILON * len(seg.parts):
                    self.fail("segment-duration", f"{where}: {short(seg.uri)} EXTINF {seg.duration:g} but its "
                                                  f"{len(seg.parts)} parts last {total:.4f}")

        # preload-hint
        if pl.ended:
            if pl.hints:
                self.fail("preload-hint", f"{where}: EXT-X-PRELOAD-HINT in a playlist with EXT-X-ENDLIST")
        else:
            if pl.hint is None:
                self.fail("preload-hint", f"{where}: a live playlist without EXT-X-PRELOAD-HINT")
            else:
                if (pl.hint_type or "").upper() != "PART":
                    self.fail("preload-hint", f"{where}: EXT-X-PRELOAD-HINT TYPE={pl.hint_type}, not PART")
                if pl.hint in {p.uri for p in pl.parts} or pl.hint in {s.uri for s in pl.segments}:
                    self.fail("preload-hint", f"{where}: the hinted {short(pl.hint)} is listed already")

        # program-date-time
        if pl.segments and pl.segments[0].pdt is None:
            self.fail("program-date-time", f"{where}: no EXT-X-PROGRAM-DATE-TIME on the first segment")
        previous = None
        for seg in pl.segments:
            if isinstance(seg.pdt, str):
                self.fail("program-date-time", f"{where}: unreadable {seg.pdt[4:]}")
                seg.pdt = None
            if seg.pdt is not None and seg.pdt.tzinfo is None:
                seg.pdt = seg.pdt.replace(tzinfo=datetime.timezone.utc)
            if previous is not None and seg.pdt is not None and previous.pdt is not None and not seg.discontinuity \
                    and previous.duration is not None:
                gap = (seg.pdt - previous.pdt).total_seconds()
                if abs(gap - previous.duration) > PDT_TOLERANCE:
                    self.fail("program-date-time", f"{where}: segment {seg.msn} is dated {gap:+.3f} s after segment "
                                                   f"{previous.msn}, whose EXTINF is {previous.duration:g}")
            if seg.pdt is not None:
                known = self.dates.get(seg.msn)
                if known is not None and abs((seg.pdt - known).total_seconds()) > PDT_TOLERANCE:
                    self.fail("program-date-time", f"{where}: segment {seg.msn} dated {seg.pdt.isoformat()}, "
                                                   f"earlier {known.isoformat()}")
                self.dates.setdefault(seg.msn, seg.pdt)
            previous = seg

        # window
        listed = sum(s.duration or 0 for s in pl.complete_segments)
        self.max_listed = max(self.max_listed, listed)
        if self.first_msn is None:
            self.first_msn = pl.media_sequence
        if pl.media_sequence > self.first_msn:
            self.window_moved = True
        if not pl.ended and pl.media_sequence > 0 and target is not None and listed < 3 * target - EPSILON:
            self.fail("window", f"{where}: segments left the playlist, yet it lists only {listed:.3f} s "
                                f"(< 3 x EXT-X-TARGETDURATION = {3 * target} s; RFC 8216 6.2.2)")
        if listed > self.args.max_window + EPSILON:
            self.fail("window", f"{where}: lists {listed:.3f} s of segments, more than --max-window {self.args.max_window:g} s")
        for seg in pl.complete_segments:
            if seg.duration is not None:
                self.seen_duration[seg.msn] = seg.duration

        # plain-hls
        if pl.map is None and pl.segments:
            self.fail("plain-hls", f"{where}: no EXT-X-MAP for the fMP4 segments")
        for seg in pl.complete_segments:
            if not seg.duration or seg.duration <= 0:
                self.fail("plain-hls", f"{where}: {short(seg.uri)} has no positive EXTINF")
        listed_parts = {p.uri for p in pl.parts}
        for seg in pl.segments:
            if seg.complete:
                self.closed.add(seg.msn)
            elif pl.ended or seg is not pl.segments[-1]:
                self.fail("plain-hls", f"{where}: parts of segment {seg.msn} with no segment line after them")
            else:
                self.open_parts.update((p.uri, seg.msn) for p in seg.parts)
                total = sum(p.duration or 0 for p in seg.parts)
                if target is not None and math.floor(total + 0.5) > target:
                    self.fail("segment-duration", f"{where}: the segment in progress ({seg.msn}) already lasts {total:.3f} s "
                                                  f"({len(seg.parts)} parts), more than EXT-X-TARGETDURATION {target}")
        for uri, msn in sorted(self.open_parts.items()):
            if uri not in listed_parts:
                if msn not in self.closed:
                    self.fail("plain-hls", f"{short(uri)} left the playlist, and its segment {msn} was never listed "
                                           f"complete (EXTINF and URI): players that ignore parts never get it")
                del self.open_parts[uri]

        for seg in pl.segments:
            for part in seg.parts:
                self.part_uris.add(part.uri)
            if seg.complete:
                self.segment_uris.add(seg.uri)

    # Rules across reloads

    def check_sequence(self, prev, new, where):
        if new.media_sequence < prev.media_sequence:
            self.fail("media-sequence", f"{where}: EXT-X-MEDIA-SEQUENCE went back from {prev.media_sequence} to {new.media_sequence}")
        if new.edge() < prev.edge():
            self.fail("media-sequence", f"{where}: the live edge went back from {self.edge_text(prev)} to {self.edge_text(new)}")
        for seg in new.complete_segments:
            known = self.segment_seen.get(seg.msn)
            if known is not None and (known[0] != seg.uri or abs((known[1] or 0) - (seg.duration or 0)) > EPSILON):
                self.fail("media-sequence", f"{where}: segment {seg.msn} was {short(known[0])} ({known[1]}), now "
                                            f"{short(seg.uri)} ({seg.duration})")
            self.segment_seen.setdefault(seg.msn, (seg.uri, seg.duration))
        # The preload hint named the part that comes next.
        if prev.hint is not None:
            msn, index = prev.next_part()
            part = new.part_at(msn, index)
            if part is not None and part.uri != prev.hint:
                self.fail("preload-hint", f"{where}: the hint named {short(prev.hint)}, but the part after "
                                          f"{self.edge_text(prev)} is {short(part.uri)}")
        # Segments that just left the playlist stay available (checked when the playlist before was
        # recent enough that they left just now).
        recent = time.monotonic() - prev.response.finished <= (new.target or 1) + (new.part_target or 0.5)
        for seg in prev.complete_segments if recent else []:
            if seg.msn < new.media_sequence:
                response = self.get(seg.uri)
                self.removed_checked += 1
                if response.status != 200:
                    self.fail("removed-available", f"{short(seg.uri)} answered {response.status} right after it "
                                                   f"left the playlist (media sequence {new.media_sequence})")

    @staticmethod
    def edge_text(pl):
        msn, count = pl.edge()
        return f"segment {msn} complete" if count == math.inf else f"segment {msn} with {count} parts"

    # Media

    def fetch_media(self, pl):
        if pl.map and pl.map != self.init_url:
            response = self.get(pl.map)
            self.init_url = pl.map
            if response.status != 200 or not response.body:
                self.fail("fetchable", f"{short(pl.map)} (EXT-X-MAP) answered {response.status}")
            else:
                try:
                    self.video, self.trex = parse_init(response.body)
                    if not self.video:
                        self.fail("independent", f"{short(pl.map)}: no video track: key frames cannot be checked")
                except Exception as error:
                    self.fail("independent", f"{short(pl.map)}: cannot read the init segment ({error})")
                    self.video = None
        for seg in pl.segments:
            for part in seg.parts:
                if part.uri not in self.fetched:
                    self.fetch_one(part.uri, part=part)
            if seg.complete and seg.uri not in self.fetched:
                self.fetch_one(seg.uri, segment=seg, independent_segments=pl.independent_segments)

    def fetch_one(self, url, part=None, segment=None, independent_segments=False):
        response = self.get(url)
        self.fetched[url] = True
        if response.status != 200 or not response.body:
            self.fail("fetchable", f"{short(url)} answered {response.status} ({len(response.body)} bytes) right after the "
                                   f"playlist listed it")
            return
        cache = response.header("cache-control") or ""
        if "immutable" not in cache.lower():
            self.fail("cache-control", f"{short(url)}: Cache-Control {cache!r} has no immutable")
        hinted = self.hinted_bytes.get(url)
        if hinted is not None and hinted != response.body:
            self.fail("preload-hint", f"{short(url)}: the bytes answered to the hinted request ({len(hinted)}) differ from "
                                      f"the listed part's ({len(response.body)})")
        if not self.video:
            return
        try:
            flags = first_video_sample_flags(response.body, self.video, self.trex)
        except Exception as error:
            self.fail("independent", f"{short(url)}: cannot read its moof ({error})")
            return
        key = flags is not None and is_key(flags)
        self.key_checked += 1
        self.key_frames += key
        if part is not None:
            if part.independent and not key:
                self.fail("independent", f"{short(url)} is INDEPENDENT=YES but its first video sample is not a key frame "
                                         f"(flags {flags if flags is None else hex(flags)})")
            if not part.independent and key:
                self.fail("independent", f"{short(url)} starts with a key frame (flags {hex(flags)}) but has no INDEPENDENT=YES")
        elif segment is not None and independent_segments and not key:
            self.fail("independent", f"{short(url)}: EXT-X-INDEPENDENT-SEGMENTS, but the segment does not start with a key "
                                     f"frame (flags {flags if flags is None else hex(flags)})")

    # Requests that must be refused

    def check_bad_requests(self, pl):
        last = pl.segments[-1].msn if pl.segments else pl.media_sequence - 1
        for attempt in range(3):
            ahead = last + 3
            response = self.get(with_query(self.args.url, _HLS_msn=ahead))
            if response.status == 400:
                break
            # Held (then 200, or 503 when the hold ran out): a segment may have begun between the
            # playlist and this request, so that ahead was only two past the edge. Read the
            # playlist again and ask past its edge, twice at most.
            fresh = self.get(self.args.url)
            answer = self.playlist(self.args.url, fresh)[0] if fresh.status == 200 else None
            if answer is not None and answer.segments and answer.segments[-1].msn > last and attempt < 2:
                last = answer.segments[-1].msn
                continue
            self.fail("bad-request", f"_HLS_msn={ahead} (last segment listed {last}) answered {response.status} "
                                     f"after {response.elapsed:.2f} s, not 400")
            break
        response = self.get(with_query(self.args.url, _HLS_part=0))
        if response.status != 400:
            self.fail("bad-request", f"_HLS_part=0 without _HLS_msn answered {response.status}, not 400")

    # Follow mode

    def follow(self):
        args = self.args
        started = time.monotonic()
        pl = self.first_playlist()
        deadline = started + args.seconds
        self.check_playlist(pl, blocking=False)
        if pl.ended:
            self.infos.append("the first playlist has EXT-X-ENDLIST: the stream is not live")
        else:
            self.check_bad_requests(pl)
        slack = args.slack
        while not pl.ended and time.monotonic() < deadline:
            msn, index = pl.next_part()
            first_part = not pl.parts
            hint = pl.hint
            hint_future = self.pool.submit(self.get, hint) if hint and hint not in self.fetched else None
            reload_future = self.pool.submit(self.get, with_query(args.url, _HLS_msn=msn, _HLS_part=index))
            self.fetch_media(pl)
            where = f"_HLS_msn={msn}&_HLS_part={index}"
            try:
                response = reload_future.result()
            except Unreachable as error:
                response = Response(where, 0, {}, f"no answer: {error}".encode(), 0, 0)
            if response.status != 200:
                self.fail("blocking-reload", f"{where} answered {response.status or 'nothing'} after {response.elapsed:.3f} s: "
                                             f"{response.body[:160]!r}")
                if hint_future:
                    try:
                        hint_future.result()
                    except Unreachable:
                        pass
                new, _ = self.playlist(args.url)
                if new is None:
                    raise Unreachable(f"the playlist answered {_.status}")
                self.check_playlist(new, blocking=False)
                self.check_sequence(pl, new, "plain reload")
                pl = new
                continue
            new, _ = self.playlist(args.url, response)
            if new is None:
                break
            self.check_playlist(new, blocking=True)
            target = (pl.part_target or 0.5) + slack
            if not new.ended and not new.has_part(msn, index):
                self.fail("blocking-reload", f"{where}: answered after {response.elapsed:.3f} s with a playlist that does not "
                                             f"list that part (live edge {self.edge_text(new)})")
            elif not new.ended and not first_part:
                self.blocking_waits.append(response.elapsed)
                if response.elapsed > target:
                    self.fail("blocking-reload", f"{where}: held {response.elapsed:.3f} s, more than PART-TARGET + slack "
                                                 f"({target:.3f} s)")
            self.check_sequence(pl, new, where)
            if hint_future is not None:
                try:
                    self.check_hint(hint, hint_future.result(), new, target)
                except Unreachable as error:
                    self.fail("preload-hint", f"the hinted {short(hint)}: {error}")
            pl = new
        self.fetch_media(pl)
        if pl.ended:
            msn, index = pl.next_part()
            response = self.get(with_query(args.url, _HLS_msn=msn, _HLS_part=index))
            if response.status != 200 or response.elapsed > slack or b"#EXT-X-ENDLIST" not in response.body:
                self.fail("blocking-reload", f"after EXT-X-ENDLIST, _HLS_msn={msn}&_HLS_part={index} answered "
                                             f"{response.status} after {response.elapsed:.3f} s (want 200 with the ended "
                                             f"playlist at once)")
        else:
            final, response = self.playlist(args.url)
            if final is not None:
                self.check_playlist(final, blocking=False)
        self.finish()

    def check_hint(self, hint, response, new, limit):
        listed = any(p.uri == hint for p in new.parts)
        if response.status == 200 and response.body:
            self.hinted_bytes[hint] = response.body
            self.hint_waits.append(response.elapsed)
            if response.elapsed > limit:
                self.fail("preload-hint", f"the hinted {short(hint)} was held {response.elapsed:.3f} s, more than "
                                          f"PART-TARGET + slack ({limit:.3f} s)")
            return
        if new.ended and not listed:
            return  # the stream ended before that part existed
        self.fail("preload-hint", f"the hinted {short(hint)} answered {response.status} ({len(response.body)} bytes) after "
                                  f"{response.elapsed:.3f} s, not 200 once complete")

    def finish(self):
        if self.worst_part is not None:
            uri, duration = self.worst_part
            self.fail("part-duration", f"{len(self.long_parts)} parts last longer than PART-TARGET "
                                       f"{self.part_target if self.part_target is not None else '?'}; the worst, "
                                       f"{short(uri)}, DURATION={duration:g}")
        seen = sum(self.seen_duration.values())
        if seen > self.args.max_window + EPSILON and not self.window_moved:
            self.fail("window", f"{seen:.3f} s of segments seen, yet EXT-X-MEDIA-SEQUENCE never moved from {self.first_msn}")
        if self.blocking_waits:
            self.infos.append(f"blocking reload wait p50 {percentile(self.blocking_waits, 50):.3f} s, p99 "
                              f"{percentile(self.blocking_waits, 99):.3f} s, max {max(self.blocking_waits):.3f} s "
                              f"({len(self.blocking_waits)} reloads)")
        if self.hint_waits:
            self.infos.append(f"preload hint wait p50 {percentile(self.hint_waits, 50):.3f} s, p99 "
                              f"{percentile(self.hint_waits, 99):.3f} s ({len(self.hint_waits)} parts)")
        self.infos.append(f"{self.key_checked} parts and segments read for key frames ({self.key_frames} start with one); "
                          f"{self.removed_checked} segments fetched as they left the playlist")
        self.infos.append(f"largest window {self.max_listed:.3f} s; media sequence {self.first_msn} moved: {self.window_moved}")

    # Hold mode

    def check_hold(self):
        args = self.args
        paused = False
        try:
            pl = self.first_playlist()
            if pl.ended:
                raise Usage("the playlist has EXT-X-ENDLIST: a hold can only be seen on a live, stalled stream")
            if args.pause_pid:
                os.kill(args.pause_pid, signal.SIGSTOP)
                paused = True
                time.sleep(0.5)
                pl, response = self.playlist(args.url)
                if pl is None:
                    raise Unreachable(f"the playlist answered {response.status}")
            self.check_playlist(pl, blocking=False)
            msn, index = pl.next_part()
            next_segment = (pl.complete_segments[-1].msn + 1) if pl.complete_segments else pl.media_sequence
            requests = {
                f"_HLS_msn={msn}&_HLS_part={index}": with_query(args.url, _HLS_msn=msn, _HLS_part=index),
                f"_HLS_msn={next_segment}": with_query(args.url, _HLS_msn=next_segment),
            }
            futures = {name: self.pool.submit(self.get, url) for name, url in requests.items()}
            hint_future = self.pool.submit(self.get, pl.hint) if pl.hint else None
            low, high = args.live_hold - 0.2, args.live_hold + args.slack
            for name, future in futures.items():
                response = future.result()
                if response.status == 200:
                    answer, _ = self.playlist(args.url, response)
                    wanted = (msn, index) if "_HLS_part" in name else (next_segment, math.inf)
                    if answer is not None and (answer.ended or answer.has_part(*wanted) if "_HLS_part" in name
                                               else answer.ended or any(s.complete and s.msn >= next_segment
                                                                        for s in answer.segments)):
                        raise Usage(f"{name} was answered 200 after {response.elapsed:.2f} s with what it asked for: "
                                    f"the stream is not stalled (stop the publisher, or --pause-pid)")
                    self.fail("hold-503", f"{name}: answered 200 after {response.elapsed:.3f} s with a playlist that "
                                          f"does not have it (live edge {self.edge_text(answer) if answer else '?'}), not 503")
                elif response.status != 503:
                    self.fail("hold-503", f"{name}: answered {response.status} after {response.elapsed:.3f} s, not 503")
                elif not low <= response.elapsed <= high:
                    self.fail("hold-503", f"{name}: 503 after {response.elapsed:.3f} s, not after the hold "
                                          f"({args.live_hold:g} s, -0.2/+{args.slack:g})")
                else:
                    self.infos.append(f"{name}: 503 after {response.elapsed:.3f} s")
            if hint_future is not None:
                response = hint_future.result()
                if response.status == 200:
                    self.fail("hold-503", f"the hinted {short(pl.hint)} answered 200 on a stalled stream")
                elif response.elapsed < low:
                    self.fail("hold-503", f"the hinted {short(pl.hint)} answered {response.status} after "
                                          f"{response.elapsed:.3f} s: not held")
                else:
                    self.infos.append(f"hinted {short(pl.hint)}: {response.status} after {response.elapsed:.3f} s")
            else:
                self.fail("preload-hint", "a live playlist without EXT-X-PRELOAD-HINT")
        finally:
            if paused:
                os.kill(args.pause_pid, signal.SIGCONT)

    def run(self):
        try:
            try:
                if self.args.check_hold:
                    self.check_hold()
                else:
                    self.follow()
            except (Unreachable, Usage) as error:
                print(f"ERROR {error}", file=self.out)
                return 2
            return self.report()
        finally:
            self.pool.shutdown(wait=False, cancel_futures=True)


# MARK: Self-test: a fake LL-HLS server, good and doctored

def _box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def _full(kind, version, flags, payload):
    return _box(kind, struct.pack(">I", (version << 24) | flags) + payload)


FAKE_INIT = _box(b"ftyp", b"iso6\0\0\0\0iso6") + _box(b"moov", _box(b"trak", _full(b"tkhd", 0, 3, b"\0" * 8 + struct.pack(">I", 1) + b"\0" * 68)
                                                                 + _box(b"mdia", _full(b"hdlr", 0, 0, b"\0" * 4 + b"vide" + b"\0" * 12 + b"V\0")))
                                               + _box(b"mvex", _full(b"trex", 0, 0, struct.pack(">IIIII", 1, 1, 0, 0, 0x10000))))


def _fake_part(sequence, key):
    flags = 0x02000000 if key else 0x01010000
    traf = _box(b"traf", _full(b"tfhd", 0, 0x20000, struct.pack(">I", 1)) + _full(b"trun", 0, 0x5, struct.pack(">IiI", 1, 0, flags)))
    return _box(b"moof", _full(b"mfhd", 0, 0, struct.pack(">I", sequence)) + traf) + _box(b"mdat", b"x" * 64)


class FakeStream:
    """A live stream made of 0.2 s parts, three a segment, that behaves as `faults` say."""
    PT, PER, WINDOW, N0, HOLD = 0.2, 3, 6, 24, 1.0

    def __init__(self, faults=(), end_after=None, stall_after=None):
        self.faults = set(faults)
        self.end_after = end_after
        self.stall_after = stall_after
        self.t0 = time.monotonic()
        self.served = 0  # playlists made
        self.base = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)

    def state(self):
        """(parts made, ended)."""
        t = time.monotonic() - self.t0
        if self.stall_after is not None:
            t = min(t, self.stall_after)
        if self.end_after is not None and t >= self.end_after:
            last = self.N0 + int(self.end_after / self.PT)
            return math.ceil(last / self.PER) * self.PER, True
        return self.N0 + int(t / self.PT), False

    def date(self, k, msn):
        extra = 0.1 * msn if "pdt_jump" in self.faults else 0
        stamp = self.base + datetime.timedelta(seconds=k * self.PT + extra)
        return stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def first(self, complete):
        if "no_slide" in self.faults:
            return 0
        window = 2 if "short_window" in self.faults else self.WINDOW
        first = max(0, complete - window)
        # From the third playlist served on, two older segments come back: counted in playlists,
        # not seconds, so a checker that starts late (a loaded machine) still sees the sequence fall.
        if "msn_back" in self.faults and self.served > 2:
            first = max(0, first - 2)
        return first

    def playlist(self, n, ended):
        f = self.faults
        self.served += 1
        complete = n // self.PER
        first = self.first(complete)
        pt = 0.6 if "part_target" in f else self.PT
        hold_back = 2 * self.PT if "hold_back" in f else 3 * self.PT
        control = "#EXT-X-SERVER-CONTROL:" + ("" if "no_block" in f else "CAN-BLOCK-RELOAD=YES,") + f"PART-HOLD-BACK={hold_back:g}"
        lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:1", control, f"#EXT-X-PART-INF:PART-TARGET={pt:g}",
                 f"#EXT-X-MEDIA-SEQUENCE:{first}", "#EXT-X-INDEPENDENT-SEGMENTS", '#EXT-X-MAP:URI="init.mp4"']

        def parts(msn, count):
            for i in range(count):
                duration = 0.25 if ("part_long" in f and i == 1) else self.PT
                independent = i == 0 and "indep_missing" not in f
                lines.append(f'#EXT-X-PART:DURATION={duration:g},URI="part_{msn}_{i}.m4s"' + (",INDEPENDENT=YES" if independent else ""))

        for msn in range(first, complete):
            if "no_pdt" not in f:
                lines.append("#EXT-X-PROGRAM-DATE-TIME:" + self.date(msn * self.PER, msn))
            if msn >= complete - 2:
                parts(msn, self.PER)
            if "no_segments" in f:
                continue
            extinf = 1.6 if "extinf_long" in f else 0.7 if "extinf_sum" in f else self.PER * self.PT
            lines += [f"#EXTINF:{extinf:g},", f"seg_{msn}.m4s"]
        if ended:
            if "hint_after_end" in f:
                lines.append(f'#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part_{complete}_0.m4s"')
            lines.append("#EXT-X-ENDLIST")
        else:
            open_parts = n % self.PER
            if open_parts:
                if "no_pdt" not in f:
                    lines.append("#EXT-X-PROGRAM-DATE-TIME:" + self.date(complete * self.PER, complete))
                parts(complete, open_parts)
            if "no_hint" not in f:
                index = open_parts + (1 if "hint_wrong" in f else 0)
                lines.append(f'#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part_{complete}_{index}.m4s"')
        return "\n".join(lines) + "\n"

    def file(self, name, n):
        """The bytes of `name` as of `n` parts made, or None."""
        if name == "init.mp4":
            return FAKE_INIT
        match = re.fullmatch(r"part_(\d+)_(\d+)\.m4s|seg_(\d+)\.m4s", name)
        if not match:
            return None
        complete = n // self.PER
        oldest = max(0, complete - self.WINDOW) - (0 if "removed_gone" in self.faults else 3)
        if match.group(1) is not None:
            msn, index = int(match.group(1)), int(match.group(2))
            if msn < oldest or msn * self.PER + index >= n or index >= self.PER:
                return None
            if "part_404" in self.faults and index == 2:
                return None
            key = index == 0 or ("indep_wrong_bytes" in self.faults and index == 1)
            return _fake_part(msn * self.PER + index, key)
        msn = int(match.group(3))
        if msn < oldest or msn >= complete:
            return None
        return b"".join(_fake_part(msn * self.PER + i, i == 0) for i in range(self.PER))


def _fake_handler(stream):
    from http.server import BaseHTTPRequestHandler

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            name = url.path.rsplit("/", 1)[-1]
            query = dict(urllib.parse.parse_qsl(url.query))
            f = stream.faults
            if name == "index.m3u8":
                return self.playlist(query)
            n, ended = stream.state()
            body = stream.file(name, n)
            if body is None and "hint_404" not in f and not ended:
                match = re.fullmatch(r"part_(\d+)_(\d+)\.m4s", name)
                if match and int(match.group(1)) * stream.PER + int(match.group(2)) == n:
                    deadline = time.monotonic() + stream.HOLD
                    while body is None and time.monotonic() < deadline:
                        time.sleep(0.01)
                        body = stream.file(name, stream.state()[0])
            if body is None:
                return self.send(404, b"gone")
            cache = "public, max-age=60" if "media_cache" in f else "public, max-age=31536000, immutable"
            self.send(200, body, [("Content-Type", "video/iso.segment"), ("Cache-Control", cache)])

        def playlist(self, query):
            f = stream.faults
            if "_HLS_part" in query and "_HLS_msn" not in query and "no_400" not in f:
                return self.send(400, b"part needs msn")
            n, ended = stream.state()
            blocking = "_HLS_msn" in query
            if blocking:
                msn, part = int(query["_HLS_msn"]), query.get("_HLS_part")
                part = int(part) if part is not None else None
                complete = n // stream.PER
                last = complete if n % stream.PER else complete - 1
                if msn > last + 2 and not ended and "no_400" not in f:
                    return self.send(400, b"too far ahead")

                def ready(n, ended):
                    if ended:
                        return True
                    if part is None:
                        return n // stream.PER - 1 >= msn
                    return msn * stream.PER + part < n

                hold = 5.5 if "hold_long" in f else stream.HOLD
                deadline = time.monotonic() + hold
                if "block_stale" not in f and "hold_early" not in f:
                    while not ready(n, ended) and time.monotonic() < deadline:
                        time.sleep(0.01)
                        n, ended = stream.state()
                if not ready(n, ended) and "hold_same" not in f and "block_stale" not in f:
                    return self.send(503, b"hold ran out")
                if "block_slow" in f:
                    time.sleep(5)
                if "block_stale" in f and part is not None:
                    n = min(n, msn * stream.PER + part)  # the playlist just before the part asked for
            ctype = "text/plain" if "content_type" in f else "application/vnd.apple.mpegurl"
            cache = "public, max-age=60" if blocking else ("max-age=30" if "playlist_cache" in f else "no-cache")
            self.send(200, stream.playlist(n, ended).encode(), [("Content-Type", ctype), ("Cache-Control", cache)])

    return Handler


# fault -> (the rule it must break, fake stream options, extra checker options)
SELF_TEST_CASES = {
    "good": (None, {"end_after": 2.0}, []),
    "good_live": (None, {}, []),
    "no_block": ("server-control", {}, []),
    "hold_back": ("server-control", {}, []),
    "part_target": ("part-target", {}, []),
    "part_target_option": ("part-target", {}, ["--part-target", "0.3"]),
    "part_long": ("part-duration", {}, []),
    "indep_missing": ("independent", {}, []),
    "indep_wrong_bytes": ("independent", {}, []),
    "extinf_long": ("segment-duration", {}, []),
    "extinf_sum": ("segment-duration", {}, []),
    "no_hint": ("preload-hint", {}, []),
    "hint_wrong": ("preload-hint", {}, []),
    "hint_404": ("preload-hint", {}, []),
    "hint_after_end": ("preload-hint", {"end_after": 1.0}, []),
    "no_pdt": ("program-date-time", {}, []),
    "pdt_jump": ("program-date-time", {}, []),
    "msn_back": ("media-sequence", {}, []),
    "no_slide": ("window", {}, []),
    "short_window": ("window", {}, []),
    "part_404": ("fetchable", {}, []),
    "removed_gone": ("removed-available", {}, []),
    "block_stale": ("blocking-reload", {}, []),
    "block_slow": ("blocking-reload", {}, []),
    "no_400": ("bad-request", {}, []),
    "content_type": ("content-type", {}, []),
    "media_cache": ("cache-control", {}, []),
    "playlist_cache": ("cache-control", {}, []),
    "no_segments": ("plain-hls", {}, []),
    "hold_good": (None, {"stall_after": 0}, ["--check-hold"]),
    "hold_same": ("hold-503", {"stall_after": 0}, ["--check-hold"]),
    "hold_early": ("hold-503", {"stall_after": 0}, ["--check-hold"]),
    "hold_long": ("hold-503", {"stall_after": 0}, ["--check-hold"]),
}


def self_test():
    from http.server import ThreadingHTTPServer

    def one(name):
        rule, options, extra = SELF_TEST_CASES[name]
        fault = name if not name.startswith("good") and name != "hold_good" and name != "part_target_option" else None
        stream = FakeStream([fault] if fault else [], **options)
        server = ThreadingHTTPServer(("127.0.0.1", 0), _fake_handler(stream))
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/live/1/index.m3u8"
        # A wide slack, and faults far past it: a loaded machine (the fake servers share one
        # interpreter) must not fail the good cases, nor pass the slow ones.
        argv = [url, "--seconds", "3", "--live-hold", "1", "--slack", "3", "--max-window", "5", "--start-timeout", "1"]
        if "--part-target" not in extra:
            argv += ["--part-target", "0.2"]
        out = io.StringIO()
        try:
            code = Checker(parse_args(argv + extra), out).run()
        finally:
            server.shutdown()
            server.server_close()
        text = out.getvalue()
        rules = set(re.findall(r"^FAIL ([\w-]+):", text, re.M))
        if rule is None:
            ok = code == 0 and not rules
        else:
            ok = code == 1 and rule in rules
        return name, rule, ok, code, rules, text

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        for name, rule, ok, code, rules, text in pool.map(one, SELF_TEST_CASES):
            want = f"FAIL {rule}" if rule else "OK"
            if ok:
                print(f"ok   {name}: {want}" + (f" (also {sorted(rules - {rule})})" if rule and rules - {rule} else ""))
            else:
                failed += 1
                print(f"FAIL self-test {name}: wanted {want}, got exit {code} and {sorted(rules)}")
                print("     " + text.replace("\n", "\n     "))
    print(f"self-test: {len(SELF_TEST_CASES) - failed} of {len(SELF_TEST_CASES)} cases as expected")
    return 1 if failed else 0


# MARK: Main

def parse_args(argv):
    parser = argparse.ArgumentParser(prog="llhls_check.py", description="Check a live LL-HLS media playlist (see the module docstring).")
    parser.add_argument("url", nargs="?", help="the media playlist URL (a stream's playback_url)")
    parser.add_argument("--seconds", type=float, default=30, help="follow the playlist this long at most (default 30)")
    parser.add_argument("--part-target", type=float, help="the PART-TARGET the playlist must have")
    parser.add_argument("--slack", type=float, default=1.0, help="seconds a blocking answer may come after PART-TARGET (default 1.0)")
    parser.add_argument("--live-hold", type=float, default=6.0, help="the server's hold before 503, seconds (feed: 6)")
    parser.add_argument("--max-window", type=float, default=15.0, help="the most seconds of segments a playlist may list (default 15)")
    parser.add_argument("--start-timeout", type=float, default=10.0, help="retry the first request this long while it is 404")
    parser.add_argument("--check-hold", action="store_true", help="check the 503 after the hold on a stalled stream instead")
    parser.add_argument("--pause-pid", type=int, help="with --check-hold: SIGSTOP this publisher during the check, then SIGCONT")
    parser.add_argument("--self-test", action="store_true", help="check the checker against a fake server")
    args = parser.parse_args(argv)
    if not args.self_test and not args.url:
        parser.error("PLAYLIST_URL is required")
    if args.pause_pid and not args.check_hold:
        parser.error("--pause-pid goes with --check-hold")
    if args.seconds <= 0 or args.live_hold <= 0 or args.slack < 0:
        parser.error("--seconds and --live-hold must be positive, --slack not negative")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.self_test:
        return self_test()
    return Checker(args).run()


if __name__ == "__main__":
    sys.exit(main())
