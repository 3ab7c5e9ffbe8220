#!/usr/bin/env python3
"""Headless Chromium's side of bench/firstframe.sh: time to the first frame in a <video>.

    firstframe_browser.py load NAME=URL...  [--timeout 60]
    firstframe_browser.py swipe c|d... --console URL [--timeout 60]
    firstframe_browser.py needed FILE OFFSETS [--wait 3]

Each measurement starts a new Chromium (selenium, a new temporary profile: an empty HTTP cache,
no connection kept from an earlier run) and quits it after; the cases run in the order given.
Prints one JSON object per line, per measurement.

load: a page of its own (served by this script on 127.0.0.1, so not from either server and
with no connection to them) makes a muted <video preload=auto>, sets its src to URL and times,
with performance.now(), from setting src to `loadedmetadata` and to `loadeddata`:
    {"case": NAME, "metadata_ms": …, "loadeddata_ms": …, "ready_state": …}

swipe: opens the console (URL, `feed serve`'s /), waits until its current video has
`loadeddata` and the next slot's has its own (readyState >= 2: the page has preloaded it), then
dispatches ArrowDown keydown events on the document, as a key press does:
    c   one event: the swipe to the preloaded neighbour;
    d   one event, in the console opened with ?preload=0 (it preloads nothing): as soon as the
        current video has `loadeddata`, the swipe to a neighbour the page has not touched.
It times, from just before the events, until the new current <video> has readyState >= 2
(`loadeddata`; 0 when it already had it) and until its currentTime passes 0 (it plays):
    {"case": "c", "ready_ms": …, "moving_ms": …, "state_at_swipe": …, "index": …,
     "neighbour_ready_ms": …}
state_at_swipe is the new current's readyState when the events have run, index its place in the
feed, neighbour_ready_ms when the next slot reached readyState >= 2, from the current's
`loadeddata` (measured by polling every 5 ms).

needed: how many leading bytes of the MP4 FILE Chromium needs before `loadeddata`. This script
serves FILE on its own loopback (no shaping), honouring ranges but sending nothing past the
first N bytes of the file (the connection then stays open, as a slow network would keep it),
and bisects N over OFFSETS (a file of byte offsets, one a line, ascending: where packets end;
the first is taken to be too short), one browser, a new URL per try (?n=N: nothing cached), each
try given --wait seconds for `loadeddata` after src is set:
    {"case": "needed", "bytes": N, "tries": [[N, true|false], …]}
bytes is null when even the last offset is not enough.

Exits 0 when every measurement ran, 1 when one timed out or failed (the JSON says which), 2 when
Chromium cannot be driven.
"""
import argparse
import http.server
import json
import re
import sys
import threading
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

LOAD = """
const [url, timeout, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const video = document.createElement("video");
video.muted = true;
video.playsInline = true;
video.preload = "auto";
document.body.appendChild(video);
const result = {};
const timer = setTimeout(() => done({...result, error: "timeout", ready_state: video.readyState}), timeout * 1000);
video.addEventListener("loadedmetadata", () => { result.metadata_ms = performance.now() - start; });
video.addEventListener("loadeddata", () => {
  result.loadeddata_ms = performance.now() - start;
  result.ready_state = video.readyState;
  clearTimeout(timer);
  done(result);
});
video.addEventListener("error", () => { clearTimeout(timer); done({...result, error: "media error " + (video.error && video.error.code)}); });
const start = performance.now();
video.src = url;
"""

SWIPE = """
const [mode, timeout, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const slot = name => document.querySelector(`video[data-slot=${name}]`);
const began = performance.now();
let currentReady = null, neighbourReady = null;
const result = {};
const fail = error => done({...result, error,
  states: ["previous", "current", "next"].map(name => [name, slot(name).dataset.index, slot(name).readyState])});
function wait() {
  const now = performance.now();
  if (currentReady === null && slot("current").readyState >= 2) currentReady = now;
  if (mode === "d" && currentReady !== null) {
    // Nothing preloaded to wait for: the neighbour has no src; swipe once the current plays.
    result.neighbour_ready_ms = null;
    swipe();
    return;
  }
  if (currentReady !== null && slot("next").hasAttribute("src") && slot("next").readyState >= 2) {
    neighbourReady = now;
    result.neighbour_ready_ms = neighbourReady - currentReady;
    swipe();
    return;
  }
  if (now - began > timeout * 1000) return fail(currentReady === null ? "timeout: the current video has no first frame" : "timeout: the next video was not preloaded");
  setTimeout(wait, 5);
}
function swipe() {
  const key = () => document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowDown", bubbles: true, cancelable: true}));
  const start = performance.now();
  key();
  const target = slot("current");
  result.state_at_swipe = target.readyState;
  result.index = Number(target.dataset.index);
  const timer = setTimeout(() => fail("timeout after the swipe"), timeout * 1000);
  const check = () => {
    const now = performance.now();
    if (result.ready_ms === undefined && target.readyState >= 2) result.ready_ms = now - start;
    if (result.moving_ms === undefined && target.currentTime > 0) result.moving_ms = now - start;
    if (result.ready_ms !== undefined && result.moving_ms !== undefined) {
      clearTimeout(timer);
      for (const type of ["loadeddata", "canplay", "timeupdate", "playing"]) target.removeEventListener(type, check);
      done(result);
    }
  };
  for (const type of ["loadeddata", "canplay", "timeupdate", "playing"]) target.addEventListener(type, check);
  check();
}
wait();
"""


class Page(http.server.BaseHTTPRequestHandler):
    """On this machine's loopback: / an empty document (the page the measurements run in), and
    /clip.mp4?n=N the file of the needed case, ranges honoured, nothing past its N-th byte."""

    protocol_version = "HTTP/1.1"
    clip = b""

    def do_GET(self):
        if not self.path.startswith("/clip.mp4"):
            body = b"<!doctype html><meta charset=utf-8><title>firstframe</title><body></body>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        data = Page.clip
        cap = int(urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query).get("n", [len(data)])[0])
        first, last = 0, len(data) - 1
        match = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if match:
            first, last = int(match[1]), min(int(match[2] or last), last)
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {first}-{last}/{len(data)}")
        else:
            self.send_response(200)
        self.send_header("Content-Type", "video/mp4")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(last - first + 1))
        self.end_headers()
        stop = max(first, min(last + 1, cap))
        try:
            self.wfile.write(data[first:stop])
            self.wfile.flush()
            if stop <= last:            # withheld: wait for the browser to give up the connection
                self.connection.settimeout(60)
                while self.connection.recv(65536):
                    pass
        except OSError:
            pass
        self.close_connection = True

    def log_message(self, *args):
        pass


def chromium(args):
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required",
                 "--disable-dev-shm-usage", "--mute-audio", "--no-first-run", "--no-default-browser-check",
                 "--window-size=390,844", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-extensions", "--disable-default-apps"]:
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(executable_path=args.chromedriver))


def needed(args, page):
    """The needed mode: bisects the prefix length after which Chromium fires loadeddata."""
    if len(args.cases) != 2:
        print("firstframe_browser.py: needed FILE OFFSETS", file=sys.stderr)
        return 2
    with open(args.cases[0], "rb") as file:
        Page.clip = file.read()
    with open(args.cases[1]) as file:
        offsets = [int(line) for line in file if line.strip()]
    try:
        driver = chromium(args)
    except WebDriverException as error:
        print(f"firstframe_browser.py: cannot start Chromium: {error.msg}", file=sys.stderr)
        return 2
    tries = []
    try:
        driver.set_script_timeout(args.wait + 30)
        driver.get(page)

        def ready(n):
            result = driver.execute_async_script(LOAD, f"{page}clip.mp4?n={n}", args.wait)
            driver.execute_script("document.querySelectorAll('video').forEach(v => { v.removeAttribute('src'); v.load(); v.remove(); });")
            tries.append([n, "loadeddata_ms" in result])
            return "loadeddata_ms" in result

        low, high = 0, len(offsets) - 1        # offsets[low] is too short; offsets[high] enough?
        if not ready(offsets[high]):
            print(json.dumps({"case": "needed", "bytes": None, "tries": tries}))
            return 1
        while high - low > 1:
            middle = (low + high) // 2
            if ready(offsets[middle]):
                high = middle
            else:
                low = middle
        print(json.dumps({"case": "needed", "bytes": offsets[high], "tries": tries}), flush=True)
        return 0
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["load", "swipe", "needed"])
    parser.add_argument("cases", nargs="+")
    parser.add_argument("--console")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--wait", type=float, default=3)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    if args.mode == "swipe" and not args.console:
        parser.error("swipe needs --console URL")

    page = None
    if args.mode in ("load", "needed"):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        page = f"http://127.0.0.1:{server.server_address[1]}/"
    if args.mode == "needed":
        return needed(args, page)

    status = 0
    for case in args.cases:
        try:
            driver = chromium(args)
        except WebDriverException as error:
            print(f"firstframe_browser.py: cannot start Chromium: {error.msg}", file=sys.stderr)
            return 2
        try:
            driver.set_script_timeout(2 * args.timeout + 10)
            if args.mode == "load":
                name, _, url = case.partition("=")
                driver.get(page)
                result = driver.execute_async_script(LOAD, url, args.timeout)
            else:
                name = case
                # (d): the console with preloading off (?preload=0): the neighbour has no src.
                driver.get(args.console + ("?preload=0" if case == "d" else ""))
                result = driver.execute_async_script(SWIPE, case, args.timeout)
        except WebDriverException as error:
            result = {"error": error.msg}
        finally:
            driver.quit()
        result = {"case": name, **(result if isinstance(result, dict) else {"error": f"no result ({result!r})"})}
        print(json.dumps(result), flush=True)
        if "error" in result:
            status = 1
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
