#!/usr/bin/env python3
"""Plays URLs in headless Chromium (selenium) with no header, for the signed-link tests of
`feed serve` (ServeBrowserTests.swift): for each URL, a muted <video src=URL> on a blank page,
waited on until `loadeddata` and a `timeupdate` past 0 s, or an `error`, or --timeout seconds.

    signed_playback.py URL... --page PAGE [--timeout 60] [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver]

PAGE is where the videos are put (the server's /openapi.json: a page of the same origin, which
needs no token; a data: page would be another address space, which Chromium keeps from loopback).

Prints one JSON object: {"results": {URL: "played" | "error N" | "timeout"}, "hls": canPlayType of
application/vnd.apple.mpegurl}. Exits 0 when it could drive the browser (2 otherwise).
"""
import argparse
import json
import sys

from selenium.common.exceptions import WebDriverException

import headless_chromium


PLAY = """
const [url, timeout, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const video = document.createElement("video");
video.muted = true;
video.preload = "auto";
let loaded = false;
const timer = setTimeout(() => done("timeout"), timeout * 1000);
const finish = outcome => { clearTimeout(timer); video.remove(); done(outcome); };
video.addEventListener("loadeddata", () => { loaded = true; video.play().catch(() => {}); });
video.addEventListener("timeupdate", () => { if (loaded && video.currentTime > 0) finish("played"); });
video.addEventListener("error", () => finish("error " + (video.error ? video.error.code : "?")));
(document.body || document.documentElement).appendChild(video);
video.src = url;
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("urls", nargs="+")
    parser.add_argument("--page", required=True)
    parser.add_argument("--timeout", type=float, default=60)
    headless_chromium.add_arguments(parser)
    args = parser.parse_args()
    try:
        driver = headless_chromium.start(args)
    except WebDriverException as error:
        print(f"signed_playback.py: cannot start Chromium: {error.msg}", file=sys.stderr)
        return 2
    try:
        driver.get(args.page)
        driver.set_script_timeout(args.timeout + 10)
        results = {url: driver.execute_async_script(PLAY, url, args.timeout) for url in args.urls}
        hls = driver.execute_script('return document.createElement("video").canPlayType("application/vnd.apple.mpegurl");')
        print(json.dumps({"results": results, "hls": hls}))
        return 0
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
