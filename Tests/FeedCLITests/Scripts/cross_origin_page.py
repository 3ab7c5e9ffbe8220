#!/usr/bin/env python3
"""Opens, in headless Chromium (driven by selenium), a page served from another origin than
`feed serve`, whose own JavaScript calls the server as a web app would, for the browser tests
of `feed serve` (ServeBrowserTests.swift).

    cross_origin_page.py http://127.0.0.1:PORT clip.mp4 [--timeout 60]
                         [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver]

The page comes from a server of this script's own (http.server on 127.0.0.1, another port: another
origin). Its JavaScript
  1. fetches BASE/videos and counts the videos;
  2. plays the first one served by BASE (a `/media/` URL) in a muted <video crossorigin>: waits for
     `loadeddata`, then a `timeupdate` past 0 s, and reads a pixel of the frame through a canvas;
  3. uploads clip.mp4 (fetched from the page's own origin) with a tus 1.0.0 client written here:
     POST /uploads, then two PATCHes, the second from the Upload-Offset the first answered; then
     GET /uploads/ID until it is done (or failed).
Every wait in the page ends on an event or a state, with --timeout as the deadline.

Prints one JSON object on stdout: page_origin, videos, media_url, video {width, height,
current_time, pixel}, upload {url, id, length, offsets, state, recording_id, error}, errors (by
step), js_errors, console (the browser's warnings and errors, where CORS refusals are told).
Exits 0 when all three steps worked; else 1 with a one-line error on stderr (2: the browser
could not be started or driven).
"""
import argparse
import http.server
import json
import sys
import threading
from urllib.parse import urlsplit

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException

import headless_chromium


PAGE = """<!doctype html>
<html>
<head><meta charset="utf-8"><title>feed: cross-origin page</title><link rel="icon" href="data:,"></head>
<body>
<video width="64" height="48"></video>
<canvas></canvas>
<script>
"use strict";
const config = __CONFIG__;
const result = {page_origin: location.origin, videos: null, media_url: null, video: null, upload: null,
                errors: {}, js_errors: []};
window.feedState = result;
window.addEventListener("error", event => result.js_errors.push(String(event.message)));
window.addEventListener("unhandledrejection", event => result.js_errors.push(String(event.reason)));

function describe(error) { return error instanceof Error ? `${error.name}: ${error.message}` : String(error); }

/** `promise`, or a rejection naming `what` once `config.timeout` seconds have passed. */
function within(promise, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${config.timeout} s`)), config.timeout * 1000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** GET /videos: records the count; the first video's URL that the server itself serves. */
async function listVideos() {
  const response = await fetch(config.base + "/videos");
  if (!response.ok) throw new Error(`GET /videos: ${response.status} ${await response.text()}`);
  const videos = (await response.json()).videos;
  result.videos = videos.length;
  const served = videos.find(video => typeof video.video === "string" && video.video.startsWith(config.base + "/media/"));
  if (!served) throw new Error(`none of the ${videos.length} videos has a URL under ${config.base}/media/`);
  return served.video;
}

/** Plays `url` muted until its clock passes 0 s; records the size, the time and a pixel. */
async function play(url) {
  result.media_url = url;
  const video = document.querySelector("video");
  const playing = new Promise((resolve, reject) => {
    video.addEventListener("error", () => reject(new Error(`<video> error ${video.error?.code}: ${video.error?.message}`)));
    video.addEventListener("loadeddata", () => {
      video.addEventListener("timeupdate", function tick() {
        if (video.currentTime > 0) { video.removeEventListener("timeupdate", tick); resolve(); }
      });
      video.play().catch(reject);
    }, {once: true});
  });
  // A CORS request (not no-cors): the frame can be read back only if the media route allows it.
  video.crossOrigin = "anonymous";
  video.muted = true;
  video.playsInline = true;
  video.src = url;
  await within(playing, `playing ${url}`);
  result.video = {width: video.videoWidth, height: video.videoHeight, current_time: video.currentTime, pixel: null};
  const canvas = document.querySelector("canvas");
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext("2d");
  context.drawImage(video, 0, 0);
  // Throws a SecurityError when the frame came without CORS (a tainted canvas).
  const pixel = context.getImageData(video.videoWidth >> 1, video.videoHeight >> 1, 1, 1).data;
  result.video.pixel = [pixel[0], pixel[1], pixel[2]];
}

/** Uploads the page's own /clip.mp4 with tus 1.0.0 in two PATCHes; waits for the roll's record. */
async function upload() {
  const clip = await fetch("/clip.mp4");
  if (!clip.ok) throw new Error(`GET /clip.mp4 (the page's origin): ${clip.status}`);
  const bytes = new Uint8Array(await clip.arrayBuffer());
  const record = {url: null, id: null, length: bytes.length, offsets: [], state: null, recording_id: null, error: null};
  result.upload = record;
  const tus = {"Tus-Resumable": "1.0.0"};
  const metadata = `filename ${btoa(config.filename)},title ${btoa(config.title)}`;
  const created = await fetch(config.base + "/uploads", {method: "POST",
    headers: {...tus, "Upload-Length": String(bytes.length), "Upload-Metadata": metadata}});
  if (created.status !== 201) throw new Error(`POST /uploads: ${created.status} ${await created.text()}`);
  const location = created.headers.get("Location");
  if (location === null) throw new Error("POST /uploads: 201, but Location is not readable (Access-Control-Expose-Headers)");
  record.url = new URL(location, config.base).href;
  record.id = record.url.split("/").pop();

  let offset = 0;
  for (const end of [Math.ceil(bytes.length / 2), bytes.length]) {
    // From the offset the server last answered, as a tus client resumes.
    const patched = await fetch(record.url, {method: "PATCH",
      headers: {...tus, "Content-Type": "application/offset+octet-stream", "Upload-Offset": String(offset)},
      body: bytes.slice(offset, end)});
    if (patched.status !== 204) throw new Error(`PATCH at ${offset}: ${patched.status} ${await patched.text()}`);
    const answered = patched.headers.get("Upload-Offset");
    if (answered === null) throw new Error(`PATCH at ${offset}: 204, but Upload-Offset is not readable (Access-Control-Expose-Headers)`);
    offset = Number(answered);
    record.offsets.push(offset);
    if (offset !== end) throw new Error(`PATCH: Upload-Offset ${offset}, expected ${end}`);
  }

  const finished = (async () => {
    for (;;) {
      const response = await fetch(record.url);
      if (!response.ok) throw new Error(`GET ${record.url}: ${response.status} ${await response.text()}`);
      const status = await response.json();
      Object.assign(record, {state: status.state, recording_id: status.recording_id ?? null, error: status.error ?? null});
      if (status.state === "done" || status.state === "failed") return;
      await new Promise(resolve => setTimeout(resolve, 100));
    }
  })();
  await within(finished, `waiting for ${record.url} to be done`);
  if (record.state !== "done" || !Number.isInteger(record.recording_id)) {
    throw new Error(`upload ${record.state}: ${record.error ?? "no recording_id"}`);
  }
}

window.feedResult = (async () => {
  let media = null;
  try { media = await listVideos(); } catch (error) { result.errors.videos = describe(error); }
  if (media === null) {
    result.errors.play = "not tried: no video URL from /videos";
  } else {
    try { await play(media); } catch (error) { result.errors.play = describe(error); }
  }
  try { await upload(); } catch (error) { result.errors.upload = describe(error); }
  return result;
})();
</script>
</body>
</html>
"""


class PageServer:
    """The page and the clip on 127.0.0.1, on a port of their own (an origin other than BASE's)."""

    def __init__(self, page: bytes, clip: bytes):
        routes = {"/": ("text/html; charset=utf-8", page), "/clip.mp4": ("video/mp4", clip)}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                kind, body = routes.get(self.path, ("text/plain", None))
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body or b"")))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def browser(args) -> webdriver.Chrome:
    return headless_chromium.start(args, browser_log=True)


def console(driver) -> list:
    try:
        return [f"{entry['level']}: {entry['message']}" for entry in driver.get_log("browser")
                if entry.get("level") in ("WARNING", "SEVERE")]
    except WebDriverException:
        return []


# The page's steps in order; "page" when it did not finish.
STEPS = ["videos", "play", "upload", "page"]


def failures(found: dict, base_origin: str) -> list:
    """What did not work, one short phrase each; empty when all three steps did."""
    errors = found.get("errors") or {}
    problems = [f"{step}: {errors[step]}" for step in sorted(errors, key=STEPS.index)]
    # The browser tells why a fetch failed (a CORS refusal) only on its console.
    refusal = next((line for line in found.get("console") or [] if "CORS policy" in line), None)
    if problems and refusal:
        problems.append("console: " + refusal)
    if found.get("page_origin") == base_origin:
        problems.append(f"the page's origin {base_origin} is the server's: nothing cross-origin was tried")
    if not problems:
        video, upload = found.get("video") or {}, found.get("upload") or {}
        if not (found.get("videos") or 0) > 0:
            problems.append("videos: /videos listed none")
        if not ((video.get("current_time") or 0) > 0 and (video.get("width") or 0) > 0):
            problems.append(f"play: {video}")
        if not (upload.get("state") == "done" and isinstance(upload.get("recording_id"), int)):
            problems.append(f"upload: {upload}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the feed server, http://HOST:PORT")
    parser.add_argument("clip", help="an MP4 to upload")
    parser.add_argument("--timeout", type=float, default=60, help="seconds each step of the page may take")
    headless_chromium.add_arguments(parser)
    parser.add_argument("--filename", default="from-the-browser.mp4")
    parser.add_argument("--title", default="Uploaded from a page")
    args = parser.parse_args()

    base = args.base.rstrip("/")
    parts = urlsplit(base)
    base_origin = f"{parts.scheme}://{parts.netloc}"
    with open(args.clip, "rb") as file:
        clip = file.read()
    config = {"base": base, "timeout": args.timeout, "filename": args.filename, "title": args.title}
    # "</" cannot end the inline script early: JSON may escape the slash.
    page = PAGE.replace("__CONFIG__", json.dumps(config).replace("</", "<\\/")).encode()
    pages = PageServer(page, clip)
    found, fatal, driver = {"page_origin": pages.origin}, None, None
    try:
        driver = browser(args)
        # Three steps, each bounded by --timeout in the page, plus the clip's own fetch.
        driver.set_script_timeout(3 * args.timeout + 10)
        driver.get(pages.origin + "/")
        try:
            found = driver.execute_async_script("window.feedResult.then(arguments[arguments.length - 1]);")
        except TimeoutException:
            found = driver.execute_script("return window.feedState;") or found
            found.setdefault("errors", {})["page"] = "the page did not finish in time"
        found["console"] = console(driver)
    except WebDriverException as error:
        fatal = f"chromium: {error.msg or error}".splitlines()[0]
        found["error"] = fatal
    finally:
        if driver is not None:
            driver.quit()
        pages.close()

    print(json.dumps(found, sort_keys=True))
    if fatal:
        print(f"cross_origin_page.py: {fatal}", file=sys.stderr)
        return 2
    problems = failures(found, base_origin)
    if problems:
        print("cross_origin_page.py: " + "; ".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
