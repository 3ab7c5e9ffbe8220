#!/usr/bin/env python3
"""Headless Chromium's side of bench/firstframe.sh: time to the first frame in a <video>.

    firstframe_browser.py load NAME=URL...  [--timeout 60]
    firstframe_browser.py swipe c|d... --console URL [--timeout 60]

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
    d   two events in one task: the first lands on the preloaded neighbour, which already has
        its first frame, so the page binds the video after it (src set, its preload_bytes range
        asked for) at once, and the second moves on to that one before any of its bytes can
        have arrived: a swipe to a video the page has not preloaded.
It times, from just before the events, until the new current <video> has readyState >= 2
(`loadeddata`; 0 when it already had it) and until its currentTime passes 0 (it plays):
    {"case": "c", "ready_ms": …, "moving_ms": …, "state_at_swipe": …, "index": …,
     "neighbour_ready_ms": …}
state_at_swipe is the new current's readyState when the events have run, index its place in the
feed, neighbour_ready_ms when the next slot reached readyState >= 2, from the current's
`loadeddata` (measured by polling every 5 ms).

Exits 0 when every measurement ran, 1 when one timed out or failed (the JSON says which), 2 when
Chromium cannot be driven.
"""
import argparse
import http.server
import json
import sys
import threading

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
  if (mode === "d") key();
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


class Blank(http.server.BaseHTTPRequestHandler):
    """The page the load case runs in: an empty document on this machine's loopback."""

    def do_GET(self):
        body = b"<!doctype html><meta charset=utf-8><title>firstframe</title><body></body>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["load", "swipe"])
    parser.add_argument("cases", nargs="+")
    parser.add_argument("--console")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    if args.mode == "swipe" and not args.console:
        parser.error("swipe needs --console URL")

    page = None
    if args.mode == "load":
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Blank)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        page = f"http://127.0.0.1:{server.server_address[1]}/"

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
                driver.get(args.console)
                result = driver.execute_async_script(SWIPE, case, args.timeout)
        except WebDriverException as error:
            result = {"error": error.msg}
        finally:
            driver.quit()
        result = {"case": name, **result}
        print(json.dumps(result), flush=True)
        if "error" in result:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
