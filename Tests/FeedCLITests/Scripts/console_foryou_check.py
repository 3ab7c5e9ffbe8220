#!/usr/bin/env python3
"""Drives For You in `feed serve`'s browser console (its tab in the feed, each video's reason,
"Not interested", the events it sends) in headless Chromium (selenium), as one user of an open
server, for ServeConsoleForYouTests.

    console_foryou_check.py BASE_URL [--user NAME] [--posts ID,ID…] [--train FEED --feed-home DIR]
                            [--pages 10] [--screenshots DIR] [--timeout 10]
                            [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver]

It opens BASE_URL/#/ at 390x844 with NAME in the console's storage as the user it acts as (sent
as X-Feed-User; without --user, the page acts as nobody and its events name its device) and,
asserting in the page:
  1. the feed starts on All, with a For You button (#source-for-you) beside All and Following;
     pressing it reads GET /feed/for-you: its first video is the current one, its reason is
     shown (#video-reason: "Trending", "#topic", "Because you watched …" …) and so is
     "Not interested" (#not-interested); the video is viewed (#feed[data-viewing]);
  2. lets that video play to its end (its element loops), then swipes (ArrowDown) to the next;
  3. presses "Not interested" on that second video: it leaves the list (no element holds it,
     the next one takes its place) and the page sends its batch at once: waits until a POST
     /events that says not_interested for it is answered 200 (not for the 5 s of the batches);
  4. with --train, runs `FEED recs train --json` with FEED_HOME=DIR (the server's catalog);
  5. reloads the page: For You again (the choice is kept), a new session; swipes through it to
     its end (a page that adds nothing), at most --pages pages: the video said no to is never
     on a page nor on the screen; with --posts, every other post comes;
  6. reads what the page sent: every POST /events and GET /feed/for-you the page made (a
     wrapper of fetch, its log in sessionStorage so that it outlives the reload, the request
     made as the page hid included): the first video's impression, watch (watched_ms,
     duration_ms), complete; the second's not_interested; every id sent once, or again with
     the same event; a keepalive batch as the page was left; events and pages name the device
     (the same, kept in storage across the reload) when there is no user, and none with one;
  7. with --screenshots DIR, saves foryou-feed.png and foryou-after.png.
Each wait ends on a state of the page, at most --timeout seconds.

Prints one JSON object on stdout: {"for_you": {"source", "first", "reason", "label",
"not_interested_shown", "position"}, "labels": [{"id", "reason", "label"}…], "watched": {"id",
"next"}, "not_interested": {"id", "current", "position", "accepted"}, "trained": {…} | null,
"after": {"source", "pages", "ids", "shown", "exhausted", "model_versions"}, "events": {"by_video":
{ID: [TYPE…]}, "watch": {"watched_ms", "duration_ms"}, "batches", "keepalive", "devices", "ids",
"resent"}, "seconds", "steps": {STEP: seconds}, "errors": ["step: what failed"…]}; uncaught
errors of the page's JavaScript are errors too. Exits 0 when every step passed, 1 when one
failed, 2 when the browser could not be started or could not open the page.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import headless_chromium

# Runs before the page's own scripts: keeps its uncaught errors, and logs what it asks of
# /events and /feed/for-you (in sessionStorage: the log outlives a reload, and a request made as
# the page goes away is in it, if not its answer).
WATCH = """
window.__check = {errors: []};
addEventListener("error", event => __check.errors.push(String(event.message)));
addEventListener("unhandledrejection", event => __check.errors.push("unhandled rejection: " + String(event.reason)));
(() => {
  const KEY = "__check.requests";
  const documentNumber = Number(sessionStorage.getItem("__check.documents") || 0) + 1;
  sessionStorage.setItem("__check.documents", String(documentNumber));
  const log = JSON.parse(sessionStorage.getItem(KEY) || "[]");
  const save = () => sessionStorage.setItem(KEY, JSON.stringify(log));
  const real = window.fetch;
  window.fetch = function (input, init = {}) {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (url.origin !== location.origin || !["/events", "/feed/for-you"].includes(url.pathname)) return real.apply(this, arguments);
    const entry = {document: documentNumber, method: (init.method || "GET").toUpperCase(), path: url.pathname,
                   query: Object.fromEntries(url.searchParams), keepalive: init.keepalive === true, status: null};
    if (entry.method === "POST") {
      try { entry.body = JSON.parse(init.body); } catch { entry.body = null; }
    }
    log.push(entry);
    save();
    return real.apply(this, arguments).then(response => {
      entry.status = response.status;
      save();
      if (response.ok) {
        response.clone().json().then(answer => {
          entry.answer = entry.path === "/feed/for-you"
            ? {videos: (answer.videos || []).map(v => ({id: v.id, reason: v.reason, reason_video: v.reason_video,
                                                        reason_topic: v.reason_topic, description: v.description})),
               next_cursor: answer.next_cursor, model_version: answer.model_version}
            : answer;
          save();
        }, () => {});
      }
      return response;
    }, error => {
      entry.status = 0;
      save();
      throw error;
    });
  };
})();
"""

# What the feed shows now.
STATE = """
const v = document.querySelector("video[data-slot=current]"), feed = document.getElementById("feed");
const reason = document.getElementById("video-reason"), no = document.getElementById("not-interested");
const pressed = id => document.getElementById(id).getAttribute("aria-pressed") === "true";
return {id: v ? v.dataset.videoId || null : null, ready: Boolean(v && v.readyState >= 2),
        held: [...document.querySelectorAll("#stage video")].map(slot => slot.dataset.videoId || null),
        source: feed.dataset.source || null, viewing: feed.dataset.viewing || null,
        pending: feed.dataset.eventsPending === undefined ? null : Number(feed.dataset.eventsPending),
        accepted: feed.dataset.eventsAccepted === undefined ? null : Number(feed.dataset.eventsAccepted),
        pressed: {for_you: pressed("source-for-you"), all: pressed("source-all"), following: pressed("source-following")},
        for_you_text: document.getElementById("source-for-you").textContent,
        reason: reason.hidden ? null : reason.textContent, reason_kind: reason.dataset.reason || null,
        not_interested: no.hidden ? null : no.dataset.videoId,
        empty: !document.getElementById("feed-empty").hidden,
        empty_text: document.getElementById("feed-empty-text").textContent,
        position: document.getElementById("feed-position").textContent};
"""

# "Because you watched …" and the others, as the console words each reason.
FIXED = {"followed": "Following", "trending": "Trending", "new": "New", "explore": "Explore"}

StepFailed = headless_chromium.StepFailed


class Console(headless_chromium.Page):
    """The console's page, and the waits the steps share."""

    def state(self):
        return self.js(STATE)

    def click(self, element_id):
        self.driver.find_element(By.ID, element_id).click()

    def requests(self):
        return self.js('return JSON.parse(sessionStorage.getItem("__check.requests") || "[]");')

    def document(self):
        return self.js('return Number(sessionStorage.getItem("__check.documents"));')

    def pages(self, document=None):
        """The For You pages the page read (in `document` only), answered, in order."""
        return [r for r in self.requests() if r["path"] == "/feed/for-you" and r.get("answer")
                and (document is None or r["document"] == document)]

    def swipe(self):
        self.driver.find_element(By.ID, "feed").send_keys(Keys.ARROW_DOWN)


def expected_label(video):
    """The words the console shows for `video`'s reason (None: not known ahead, see check_label)."""
    if video["reason"] in FIXED:
        return FIXED[video["reason"]]
    if video["reason"] == "topic":
        return f"#{video['reason_topic']}"
    return None


def check_label(video, label):
    """Whether `label` is what the console says for `video`'s reason."""
    if video["reason"] == "similar_to":
        return label is not None and label.startswith("Because you watched ")
    return label == expected_label(video)


def video_of(page, document, video_id):
    """The video `video_id` as a For You page of `document` gave it (the log has the answer a
    moment after the player)."""
    def found():
        for entry in page.pages(document):
            for video in entry["answer"]["videos"]:
                if str(video["id"]) == str(video_id):
                    return video
        return None
    return page.until(f"video {video_id} on a For You page the page read", found)


def opened(driver, args):
    """The console at args.base as a 390x844 phone, with args.user as the user it acts as."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
    # A page of the server's origin to reach its storage: the user (or nobody), a log emptied.
    driver.get(args.base.rstrip("/") + "/openapi.json")
    driver.execute_script("""localStorage.clear(); sessionStorage.clear();
                             if (arguments[0]) localStorage.setItem("feed.user", arguments[0]);""", args.user)
    driver.get(args.base.rstrip("/") + "/#/")
    page = Console(driver, args.timeout)
    page.until("the console (#feed)", lambda: page.js('return document.getElementById("feed") !== null;'))
    return page


def for_you(page, args, labels):
    """All first; For You pressed: its first video current, with its reason, viewed."""
    start = page.until("the feed on All, read", lambda: (s := page.state())["source"] == "all" and (s["id"] or s["empty"]) and s)
    if start["for_you_text"] != "For You" or start["pressed"] != {"for_you": False, "all": True, "following": False}:
        raise StepFailed(f"the source buttons at the start: {start['for_you_text']!r}, {start['pressed']}")
    page.click("source-for-you")
    document = page.document()
    first = page.until("a first For You page", lambda: (p := page.pages(document)) and p[0])
    videos = first["answer"]["videos"]
    if not videos:
        raise StepFailed("the first For You page is empty")
    head = videos[0]
    shown = page.until(f"For You's first video ({head['id']}) current, with its reason, viewed", lambda: (
        s := page.state())["source"] == "for-you" and s["id"] == str(head["id"]) and s["reason"] is not None
        and s["viewing"] == str(head["id"]) and s)
    if not shown["pressed"]["for_you"] or shown["pressed"]["all"]:
        raise StepFailed(f"the source buttons in For You: {shown['pressed']}")
    if shown["not_interested"] != str(head["id"]):
        raise StepFailed(f"#not-interested is {shown['not_interested']!r} for video {head['id']}")
    if not check_label(head, shown["reason"]) or shown["reason_kind"] != head["reason"]:
        raise StepFailed(f"video {head['id']}'s reason is {head['reason']!r}; the page says {shown['reason']!r}")
    labels.append({"id": head["id"], "reason": head["reason"], "label": shown["reason"]})
    return {"source": shown["source"], "first": head["id"], "reason": head["reason"], "label": shown["reason"],
            "not_interested_shown": shown["not_interested"] is not None, "position": shown["position"],
            "document": document}


def watch(page, args, first, labels):
    """The first video plays to its end (a loop), then ArrowDown shows the next, with its reason."""
    page.js("""const v = document.querySelector("video[data-slot=current]");
               const seen = window.__check.loop = {id: v.dataset.videoId, last: 0, looped: false};
               v.addEventListener("timeupdate", () => {
                 if (v.dataset.videoId !== seen.id) return;
                 if (v.currentTime < seen.last) seen.looped = true;
                 seen.last = v.currentTime;
               });""")
    page.until(f"video {first['first']} played to its end", lambda: page.js("return window.__check.loop.looped;"))
    page.swipe()
    shown = page.until("the next video current, viewed", lambda: (s := page.state())["id"] not in (None, str(first["first"]))
                       and s["viewing"] == s["id"] and s["reason"] is not None and s)
    video = video_of(page, first["document"], shown["id"])
    if not check_label(video, shown["reason"]):
        raise StepFailed(f"video {video['id']}'s reason is {video['reason']!r}; the page says {shown['reason']!r}")
    labels.append({"id": video["id"], "reason": video["reason"], "label": shown["reason"]})
    return {"id": first["first"], "next": int(shown["id"])}


def not_interested(page, args, video_id):
    """"Not interested" on the video shown: it leaves the list, and the server has the event."""
    before = page.state()
    place = lambda text: text.split(" / ")[0]
    page.click("not-interested")
    shown = page.until(f"video {video_id} out of the feed", lambda: (s := page.state())["id"] != str(video_id)
                       and str(video_id) not in s["held"] and (s["empty"] or s["viewing"] == s["id"]) and s)
    # The next took its place (the list may have grown meanwhile: For You reads ahead).
    if not shown["empty"] and place(shown["position"]) != place(before["position"]):
        raise StepFailed(f"the position was {before['position']!r} and is {shown['position']!r}")

    def told():
        posts = [r for r in page.requests() if r["method"] == "POST" and r["status"] == 200
                 and any(e["type"] == "not_interested" and str(e["video"]) == str(video_id) for e in r["body"] or [])]
        return posts and page.state()

    state = page.until("the not_interested event sent at once, and taken by the server", told)
    return {"id": video_id, "current": int(shown["id"]) if shown["id"] else None, "position": shown["position"],
            "accepted": state["accepted"]}


def train(args):
    run = subprocess.run([args.train, "recs", "train", "--json"], env={**os.environ, "FEED_HOME": args.feed_home},
                         capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise StepFailed(f"feed recs train exited {run.returncode}: {run.stderr.strip()}")
    return json.loads(run.stdout)


def after(page, args, said_no, labels):
    """The page reloaded: For You again (kept), swiped through to its end; the video said no to never comes."""
    page.driver.refresh()
    page.until("the console again (#feed)", lambda: page.js('return document.getElementById("feed") !== null;'))
    document = page.document()
    shown = page.until("For You again, its first video current", lambda: (s := page.state())["source"] == "for-you"
                       and (s["empty"] or (s["id"] and s["viewing"] == s["id"])) and s)
    if not shown["pressed"]["for_you"]:
        raise StepFailed(f"the source buttons after the reload: {shown['pressed']}")
    seen = []
    for _ in range(200):
        state = page.state()
        if state["empty"]:
            break
        if not seen or seen[-1] != state["id"]:
            seen.append(state["id"])
            video = video_of(page, document, state["id"])
            labels.append({"id": video["id"], "reason": video["reason"], "label": state["reason"]})
            if not check_label(video, state["reason"]):
                raise StepFailed(f"video {video['id']}'s reason is {video['reason']!r}; the page says {state['reason']!r}")
        if state["id"] == str(said_no) or str(said_no) in state["held"]:
            raise StepFailed(f"video {said_no}, said no to, is in the feed again: {state}")
        if len(page.pages(document)) >= args.pages:
            break
        at, total = (int(n) for n in re.match(r"(\d+) / (\d+)", state["position"]).groups())
        if at == total and not state["position"].endswith("+"):
            break
        if at == total:
            # The last one loaded: the next page is on its way (or is the empty one).
            page.until("more of For You, or its end", lambda: (s := page.state())["position"] != state["position"] and s)
            continue
        page.swipe()
        page.until("the next video current, viewed", lambda: (s := page.state())["id"] != state["id"] and s["viewing"] == s["id"])
    pages = page.pages(document)
    ids = [video["id"] for entry in pages for video in entry["answer"]["videos"]]
    final = page.state()
    if said_no in ids:
        raise StepFailed(f"video {said_no}, said no to, is on a page again: {ids}")
    # The first session's pages read after the event are the rule's "next page" too.
    later = [r for r in page.requests() if r["path"] == "/feed/for-you" and r.get("answer") and r["document"] < document
             and any(str(v["id"]) == str(said_no) for v in r["answer"]["videos"])]
    if len(later) > 1:
        raise StepFailed(f"video {said_no} is on {len(later)} pages of the first session")
    if args.posts:
        wanted = sorted(set(args.posts) - {said_no})
        if sorted(set(ids)) != wanted:
            raise StepFailed(f"For You listed {sorted(set(ids))}, not every post but {said_no}: {wanted}")
    exhausted = not final["position"].endswith("+") and bool(pages) and not pages[-1]["answer"]["videos"]
    if not exhausted and len(pages) < args.pages:
        raise StepFailed(f"For You did not reach its end: {final['position']!r} after {len(pages)} pages")
    return {"source": final["source"], "pages": len(pages), "ids": ids, "shown": [int(i) for i in seen],
            "exhausted": exhausted, "model_versions": [entry["answer"]["model_version"] for entry in pages]}


def sent(page, args, watched, said_no):
    """What the page sent, from its log: the events by video, the first video's watch, the ids."""
    posts = [r for r in page.requests() if r["path"] == "/events" and r["method"] == "POST"]
    by_id = {}
    for post in posts:
        for event in post["body"] or []:
            if event["id"] in by_id and by_id[event["id"]] != event:
                raise StepFailed(f"id {event['id']} was sent for two events: {by_id[event['id']]} and {event}")
            by_id[event["id"]] = event
    events = list(by_id.values())
    by_video = {}
    for event in events:
        by_video.setdefault(str(event["video"]), []).append(event["type"])
    first = by_video.get(str(watched["id"]), [])
    for kind in ("impression", "complete", "watch"):
        if kind not in first:
            raise StepFailed(f"no {kind} of video {watched['id']}: {first}")
    if "not_interested" not in by_video.get(str(said_no), []):
        raise StepFailed(f"no not_interested of video {said_no}: {by_video.get(str(said_no))}")
    play = next(e for e in events if e["type"] == "watch" and str(e["video"]) == str(watched["id"]))
    if not (play.get("watched_ms", 0) > 0 and play.get("duration_ms", 0) > 0):
        raise StepFailed(f"video {watched['id']}'s watch: {play}")
    bad = [e["id"] for e in events if not re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", e["id"])]
    if bad:
        raise StepFailed(f"ids that are no UUID: {bad[:3]}")
    devices = sorted({e.get("device") for e in events if e.get("device")})
    queried = sorted({r["query"].get("device") for r in page.requests() if r["path"] == "/feed/for-you" and r["query"].get("device")})
    if args.user and (devices or queried):
        raise StepFailed(f"the page acts as {args.user}, yet names a device: {devices} {queried}")
    if not args.user:
        kept = page.js('return localStorage.getItem("feed.device");')
        if devices != [kept] or queried != [kept] or any(not e.get("device") for e in events):
            raise StepFailed(f"with no user, every event and page names the device kept ({kept!r}): {devices} {queried}")
    failed = [r for r in posts if r["status"] not in (None, 200)]
    if failed:
        raise StepFailed(f"POST /events answered {[r['status'] for r in failed]}")
    keepalive = [r for r in posts if r["keepalive"]]
    if not any(r["document"] < page.document() for r in keepalive):
        raise StepFailed("no keepalive batch as the page was left")
    return {"by_video": by_video, "watch": {"watched_ms": play["watched_ms"], "duration_ms": play["duration_ms"]},
            "batches": len(posts), "keepalive": len(keepalive), "devices": devices, "ids": len(events),
            "resent": sum(len(p["body"] or []) for p in posts) - len(events)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--user", help="the user the page acts as (X-Feed-User); none: its device")
    parser.add_argument("--posts", type=lambda text: [int(i) for i in text.split(",") if i], default=[],
                        help="every post's id: after the reload, For You lists each but the one said no to")
    parser.add_argument("--train", metavar="FEED", help="feed, to run `feed recs train` before the reload")
    parser.add_argument("--feed-home", metavar="DIR", help="the server's FEED_HOME, for --train")
    parser.add_argument("--pages", type=int, default=10, help="the most For You pages read after the reload")
    parser.add_argument("--screenshots", metavar="DIR")
    parser.add_argument("--timeout", type=float, default=10)
    headless_chromium.add_arguments(parser)
    args = parser.parse_args()
    if args.train and not args.feed_home:
        parser.error("--train needs --feed-home")
    result = {"for_you": None, "labels": [], "watched": None, "not_interested": None, "trained": None, "after": None,
              "events": None, "seconds": None, "steps": {}, "errors": []}
    started = time.monotonic()

    def body(page, run_step):
        def step(name, run, *needs):
            began = time.monotonic()
            try:
                return run_step(name, run, *needs)
            finally:
                result["steps"][name] = round(time.monotonic() - began, 2)

        def shoot(name):
            if args.screenshots:
                os.makedirs(args.screenshots, exist_ok=True)
                page.js("document.activeElement?.blur();")
                time.sleep(0.3)
                page.driver.save_screenshot(os.path.join(args.screenshots, name))

        result["for_you"] = step("For You", lambda: for_you(page, args, result["labels"]))
        step("screenshot foryou-feed.png", lambda: shoot("foryou-feed.png"))
        result["watched"] = step("watch the first video", lambda: watch(page, args, result["for_you"], result["labels"]), result["for_you"])
        said_no = result["watched"]["next"] if result["watched"] else None
        result["not_interested"] = step("not interested", lambda: not_interested(page, args, said_no), result["watched"])
        if args.train:
            result["trained"] = step("feed recs train", lambda: train(args), result["not_interested"])
        result["after"] = step("For You after a reload", lambda: after(page, args, said_no, result["labels"]), result["not_interested"])
        step("screenshot foryou-after.png", lambda: shoot("foryou-after.png"))
        result["events"] = step("the events sent", lambda: sent(page, args, result["watched"], said_no), result["after"])
        try:
            result["errors"] += [f"page: {message}" for message in page.js("return __check.errors;") or []]
        except WebDriverException as error:
            result["errors"].append(f"page: {error.msg}")
        if result["for_you"]:
            result["for_you"].pop("document", None)
        result["seconds"] = round(time.monotonic() - started, 2)

    return headless_chromium.run_check("console_foryou_check.py", args, result, lambda driver: opened(driver, args), body)


if __name__ == "__main__":
    sys.exit(main())
