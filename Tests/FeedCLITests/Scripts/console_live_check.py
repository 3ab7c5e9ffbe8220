#!/usr/bin/env python3
"""Drives the Live view of `feed serve`'s console (served at /) in headless Chromium (selenium),
for the live console's end-to-end test: a stream being published is played over Media Source
Extensions, commented on and given hearts.

    console_live_check.py BASE_URL [--stream ID] [--screenshots DIR] [--token TOKEN] [--timeout 60]
                          [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver]

It opens BASE_URL/#/ at 390x844 (with --token, a server with a key: the token is put where the
console keeps it, its localStorage, first) and, asserting in the page:
  1. opens the Live tab (#tab-live) and waits for the stream in the list, `.stream[data-id=ID]`
     (without --stream, the first listed, which must be active: the list puts active ones first);
  2. picks it (a click) and waits for #live-video's `loadeddata`: the milliseconds from the click;
  3. waits until the video's currentTime is 1 s or more past where it was at loadeddata, and
     counts the frames it decoded;
  3b. waits until the chat holds the comments said before the stream was opened
     (`li[data-via=history]`, from GET /live/{id}/comments): their texts;
  4. types a name and a comment unique to the run into #live-comment-form, sends it with Enter,
     and waits until the chat (#live-chat) holds it as the room's events carried it
     (`li[data-via=events]`): its id;
  5. presses #live-heart and waits until the hearts the page counted from the room's `heart`
     events (#live-heart[data-hearts]) are at least 1 and one heart floated up (`.float-heart`);
     then double-clicks the picture and waits for at least 2;
  6. waits until #live-viewers says at least one viewer (this browser);
  7. with --screenshots DIR, saves live.png there;
  8. goes back to the list (#live-back): the video lets its stream go (no src) and the focus is
     on the stream's button again.
Every wait ends on a state of the page, with --timeout seconds as the deadline of each.

Prints one JSON object on stdout: {"stream": ID, "loadeddata_ms", "advanced": SECONDS, "frames",
"history": [TEXT...], "comment": {"id", "username", "text"}, "comment_seen": BOOL, "hearts": N, "floated": N,
"viewers": N, "left": BOOL, "errors": ["step: what failed"...], "network": [...]}. Uncaught errors
of the page's own JavaScript and the browser console's errors are errors too; failed requests
(a blocking reload held past its limit on a loaded machine is a 503) are only listed in "network".
Exits 0 when every step passed, 1 when one failed (its step in "errors"; later steps that need it
are "not tried"), 2 when the browser could not be started or could not open the page.
"""
import argparse
import os
import sys
import time
import uuid

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import headless_chromium

# Runs before the page's own scripts: keeps its uncaught errors, the first `loadeddata` of
# #live-video after the pick (the time and where the video was), and counts the hearts that float.
WATCH = """
window.__check = {errors: [], pickedAt: null, loaded: null, floated: 0};
addEventListener("error", event => __check.errors.push(String(event.message)));
addEventListener("unhandledrejection", event => __check.errors.push("unhandled rejection: " + String(event.reason)));
document.addEventListener("loadeddata", event => {
  if (event.target.id !== "live-video" || __check.pickedAt === null || __check.loaded) return;
  __check.loaded = {ms: performance.now() - __check.pickedAt, time: event.target.currentTime};
}, true);
new MutationObserver(records => {
  for (const record of records) {
    for (const node of record.addedNodes) if (node.classList?.contains("float-heart")) __check.floated += 1;
  }
}).observe(document, {subtree: true, childList: true});
"""


StepFailed = headless_chromium.StepFailed


class Console(headless_chromium.Page):
    """The console's page, and the waits the steps share."""

    def video(self):
        return self.js("""const v = document.getElementById("live-video");
                          return {ready: v.readyState, time: v.currentTime, paused: v.paused, src: v.hasAttribute("src"),
                                  error: v.error && (v.error.message || String(v.error.code)),
                                  message: document.getElementById("live-message").hidden ? null
                                           : document.getElementById("live-message-text").textContent};""")


def listed(page, wanted):
    """Opens the Live tab; the stream to pick, once the list shows it."""
    page.driver.find_element(By.ID, "tab-live").click()
    page.until("the Live tab", lambda: page.js('return !document.getElementById("panel-live").hidden'
                                               ' && !document.getElementById("live-index").hidden;'))
    selector = f'.stream[data-id="{wanted}"]' if wanted else ".stream[data-id]"
    stream = page.until(f"{selector} in #streams-list", lambda: page.driver.find_elements(By.CSS_SELECTOR, selector))[0]
    if stream.get_attribute("data-state") != "active":
        raise StepFailed(f"stream {stream.get_attribute('data-id')} is listed as {stream.get_attribute('data-state')}, not active")
    return stream


def picked(page, stream):
    """Picks `stream`; its id and the milliseconds from the click to the video's loadeddata."""
    page.js("__check.pickedAt = performance.now(); __check.loaded = null;")
    stream.click()

    def loaded():
        found = page.js("return __check.loaded;")
        if found:
            return found
        state = page.video()
        if state["error"]:
            raise StepFailed(f"#live-video failed: {state['error']}")
        return None

    try:
        return page.until("#live-video's loadeddata", loaded)
    except StepFailed as error:
        raise StepFailed(f"{error} (the stage says: {page.video()['message']!r})") from None


def advanced(page, start):
    """Waits until the video's currentTime is 1 s past `start`; how far it got, and the frames it decoded."""
    def moved():
        state = page.video()
        if state["error"]:
            raise StepFailed(f"#live-video failed: {state['error']}")
        return state if state["time"] >= start + 1 else None

    try:
        state = page.until(f"currentTime 1 s past {start:.2f}", moved)
    except StepFailed as error:
        raise StepFailed(f"{error} (it is at {page.video()['time']:.2f}, the stage says: {page.video()['message']!r})") from None
    frames = page.js('return document.getElementById("live-video").getVideoPlaybackQuality().totalVideoFrames;')
    return round(state["time"] - start, 3), frames


def commented(page, result):
    """Sends a comment through the form with Enter; its id once the chat has it from the events."""
    name, text = "console-live", f"hello from the live check {uuid.uuid4().hex[:8]}"
    result["comment"] = {"id": None, "username": name, "text": text}
    user = page.driver.find_element(By.ID, "live-user")
    user.clear()
    user.send_keys(name)
    field = page.driver.find_element(By.ID, "live-text")
    field.send_keys(text)
    field.send_keys(Keys.ENTER)
    row = page.until("the comment in #live-chat from the events", lambda: page.js(
        """const rows = [...document.querySelectorAll("#live-chat li[data-via=events]")];
           const row = rows.find(row => row.textContent.includes(arguments[0]));
           return row ? {id: Number(row.dataset.id), name: row.querySelector("b")?.textContent} : null;""", text))
    if row["name"] != name:
        raise StepFailed(f"the comment came back with the name {row['name']!r}, not {name!r}")
    if page.js('return document.getElementById("live-text").value;'):
        raise StepFailed("the comment field was not emptied after the post")
    result["comment"]["id"] = row["id"]
    return True


def hearted(page):
    """Presses #live-heart, then double-clicks the picture; the hearts the page counted and the hearts that floated."""
    hearts = lambda: int(page.js('return document.getElementById("live-heart").dataset.hearts;') or 0)
    page.driver.find_element(By.ID, "live-heart").click()
    page.until("a heart event after #live-heart (#live-heart[data-hearts] >= 1)", lambda: hearts() >= 1)
    page.until("a heart floating up (.float-heart)", lambda: page.js("return __check.floated;") >= 1)
    ActionChains(page.driver).double_click(page.driver.find_element(By.ID, "live-video")).perform()
    page.until("a heart event after a double click on the picture (#live-heart[data-hearts] >= 2)", lambda: hearts() >= 2)
    return hearts(), page.js("return __check.floated;")


def left(page, stream):
    """Goes back to the list: the video has let the stream go and the focus is on its button."""
    page.driver.find_element(By.ID, "live-back").click()
    page.until("the list shown again", lambda: page.js('return !document.getElementById("live-index").hidden;'))
    page.until("#live-video without a src", lambda: not page.video()["src"])
    page.until(f"the focus on .stream[data-id={stream}]", lambda: page.js(
        "return document.activeElement?.dataset?.id === arguments[0];", str(stream)))
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--stream", type=int, help="the live stream to pick (default: the first listed)")
    parser.add_argument("--screenshots", metavar="DIR")
    parser.add_argument("--token", help="a bearer token for a server with a key")
    parser.add_argument("--timeout", type=float, default=60)
    headless_chromium.add_arguments(parser)
    args = parser.parse_args()
    result = {"stream": None, "loadeddata_ms": None, "advanced": None, "frames": None, "history": None, "comment": None,
              "comment_seen": False, "hearts": None, "floated": None, "viewers": None, "left": False,
              "errors": [], "network": []}

    def opened(driver):
        return headless_chromium.opened_console(driver, args, WATCH, Console, "tab-live")

    def body(page, step):
        stream = step("list", lambda: listed(page, args.stream))
        if stream is not None:
            result["stream"] = int(stream.get_attribute("data-id"))
        loaded = step("loadeddata", lambda: picked(page, stream), stream)
        if loaded:
            result["loadeddata_ms"] = round(loaded["ms"], 1)
            played = step("playing", lambda: advanced(page, loaded["time"]), loaded)
            if played:
                result["advanced"], result["frames"] = played
        watching = result["stream"] if loaded else None
        result["history"] = step("history", lambda: page.until("the chat so far in #live-chat (li[data-via=history])", lambda: page.js(
            """const rows = [...document.querySelectorAll("#live-chat li[data-via=history]")];
            return rows.length ? rows.map(row => row.lastChild.textContent) : null;""")), watching)
        result["comment_seen"] = bool(step("comment", lambda: commented(page, result), watching))
        hearts = step("hearts", lambda: hearted(page), watching)
        if hearts:
            result["hearts"], result["floated"] = hearts
        result["viewers"] = step("viewers", lambda: page.until("#live-viewers at 1 or more", lambda: (
            viewers := int(page.js('return document.getElementById("live-viewers").dataset.viewers;') or 0)) >= 1 and viewers),
            watching)
        if args.screenshots:
            def shoot():
                os.makedirs(args.screenshots, exist_ok=True)
                page.js("document.activeElement?.blur();")
                time.sleep(0.3)  # the last focus ring and transition settle
                page.driver.save_screenshot(os.path.join(args.screenshots, "live.png"))
            step("screenshot live.png", shoot, watching)
        result["left"] = bool(step("back to the list", lambda: left(page, result["stream"]), watching))
        try:
            result["errors"] += [f"page: {message}" for message in page.js("return __check.errors;") or []]
            for entry in page.driver.get_log("browser"):
                if entry.get("level") != "SEVERE":
                    continue
                if entry.get("source") == "network":
                    result["network"].append(entry.get("message", ""))
                else:
                    result["errors"].append(f"console: {entry.get('message', '')}")
        except WebDriverException as error:
            result["errors"].append(f"page: {error.msg}")

    return headless_chromium.run_check("console_live_check.py", args, result, opened, body, browser_log=True)


if __name__ == "__main__":
    sys.exit(main())
