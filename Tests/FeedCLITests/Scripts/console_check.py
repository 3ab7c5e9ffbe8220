#!/usr/bin/env python3
"""Drives the browser console of `feed serve` (served at /) in headless Chromium (selenium), as a
phone-sized user would, for the console's end-to-end test.

    console_check.py BASE_URL --upload CLIP [--screenshots DIR] [--token TOKEN] [--timeout 60]
                     [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver]

It opens BASE_URL/#/ at 390x844 (with --token, a server with a key: the token is put where the
console keeps it, its localStorage, first) and, asserting in the page:
  0. the address's hash names no tab (a link may carry anything there): the page shows Feed and
     its first video reaches its first frame (`readyState >= 2`);
  1. swipes three times, once with ArrowDown, once with a pointer drag up, once with the mouse
     wheel; before each it waits until the next <video> has its first frame (the console preloads
     neighbours), and after each until the new `video[data-slot=current]` has `readyState >= 2`
     (loadeddata): its `data-video-id` and the milliseconds from the swipe (the key press, the
     drag's release, the wheel event) to then. The element that became current must be the one
     that was `next` (the three elements rotate; a preloaded one is not loaded again);
  2. likes the current video (#like) and checks that GET /likes now has it;
  3. opens the Roll tab and uploads CLIP by a simulated drag and drop on #dropzone (a hidden
     <input type=file> takes the path, then `dragenter`, `dragover` and `drop` carry its file in a
     DataTransfer), with the title "console check"; waits until #upload-progress is at 100 and the
     recording is a `.roll-tile[data-id]`;
  4. opens the Jobs tab and stacks that recording (front) with another one (back) through the
     form; waits until the job's `.job[data-id]` says `data-state="done"`;
  5. with --screenshots DIR, saves feed.png, roll.png and jobs.png there.
Every wait ends on a state of the page, with --timeout seconds as the deadline of each.

Prints one JSON object on stdout: {"swipes": [{"id", "ms", "kind"}...], "liked": ID,
"uploaded": RECORDING_ID, "job": {"id", "state", "recording"}, "errors": ["step: what failed"...]};
uncaught errors of the page's own JavaScript are errors too. Exits 0 when every step passed, 1
when one failed (its step in "errors"; later steps that need it are "not tried"), 2 when the
browser could not be started or could not open the page.
"""
import argparse
import os
import sys
import time

from selenium.common.exceptions import WebDriverException

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import headless_chromium

# Runs before the page's own scripts: keeps its uncaught errors, and stamps the time of the last
# swipe gesture (key, pointer release, wheel) while a swipe is armed.
WATCH = """
window.__check = {errors: [], swipeAt: null, armed: false};
addEventListener("error", event => __check.errors.push(String(event.message)));
addEventListener("unhandledrejection", event => __check.errors.push("unhandled rejection: " + String(event.reason)));
for (const type of ["keydown", "pointerup", "wheel"]) {
  addEventListener(type, () => { if (__check.armed) __check.swipeAt = performance.now(); }, {capture: true});
}
"""

# Arms a swipe before its gesture: from then on, the first moment the current slot holds another
# video than arguments[0] with its first frame is kept in __check.swipe (its id, the milliseconds
# since the gesture, and whether it is the element that was next).
ARM = """
const before = arguments[0];
const next = document.querySelector("video[data-slot=next]");
Object.assign(__check, {swipeAt: null, armed: true, swipe: null});
const check = () => {
  const current = document.querySelector("video[data-slot=current]");
  if (__check.swipe || __check.swipeAt === null || !current || !current.dataset.videoId
      || current.dataset.videoId === before || current.readyState < 2) return;
  __check.swipe = {id: current.dataset.videoId, ms: performance.now() - __check.swipeAt, rotated: current === next};
  __check.armed = false;
  __check.disarm();
};
const observer = new MutationObserver(check);
observer.observe(document.getElementById("stage"), {subtree: true, attributes: true});
document.addEventListener("loadeddata", check, true);
const poll = setInterval(check, 20);
__check.disarm = () => { observer.disconnect(); document.removeEventListener("loadeddata", check, true); clearInterval(poll); };
"""

# Waits (at most arguments[0] seconds) for the armed swipe's outcome.
AFTER_SWIPE = """
const [timeout, done] = [arguments[0], arguments[arguments.length - 1]];
const deadline = performance.now() + timeout * 1000;
(function wait() {
  if (__check.swipe) return done(__check.swipe);
  if (performance.now() < deadline) return setTimeout(wait, 20);
  __check.disarm();
  const current = document.querySelector("video[data-slot=current]");
  done({timeout: true, id: current && current.dataset.videoId, ready: current && current.readyState,
        gesture: __check.swipeAt !== null});
})();
"""

# Drops the file of the hidden input #console-check-file on #dropzone as a browser would.
DROP = """
const input = document.getElementById("console-check-file");
const zone = document.getElementById("dropzone");
if (!input.files.length) return "the file input holds no file";
const transfer = new DataTransfer();
transfer.items.add(input.files[0]);
const fire = type => zone.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: transfer}));
fire("dragenter");
const accepted = !fire("dragover");
fire("drop");
input.remove();
return accepted ? null : "#dropzone did not accept the drag (dragover not cancelled)";
"""

# GET /likes from the page (with its token, if it keeps one): the ids.
LIKES = """
const done = arguments[arguments.length - 1];
const token = localStorage.getItem("feed.token");
fetch("/likes", {headers: token ? {Authorization: "Bearer " + token} : {}})
  .then(response => response.ok ? response.json() : Promise.reject(new Error("GET /likes: " + response.status)))
  .then(answer => done({ids: answer.videos.map(video => String(video.id))}), error => done({error: String(error)}));
"""


StepFailed = headless_chromium.StepFailed


class Console(headless_chromium.Page):
    """The console's page, and the waits the steps share."""

    def current(self):
        return self.js("""const v = document.querySelector("video[data-slot=current]");
                          return v ? {id: v.dataset.videoId || null, ready: v.readyState} : null;""")

    def tab(self, name):
        self.driver.find_element(By.ID, f"tab-{name}").click()
        self.until(f"the {name} tab", lambda: self.js(f'return !document.getElementById("panel-{name}").hidden;'))


def opened_at_root(page):
    """The page opened at /#/ shows Feed, and its first video gets a frame."""
    page.until("the Feed tab shown for /#/", lambda: page.js(
        'return !document.getElementById("panel-feed").hidden'
        ' && document.getElementById("tab-feed").getAttribute("aria-selected") === "true";'))
    page.until("the first video's first frame at /#/", lambda: (c := page.current()) and c["id"] and c["ready"] >= 2)


def swipe(page, kind):
    """One swipe of `kind` (key, drag, wheel) to the next video; its id and milliseconds."""
    driver = page.driver
    start = page.until("the current video's first frame", lambda: (c := page.current()) and c["id"] and c["ready"] >= 2 and c)
    # The console gives the next video its clip once the current one has a frame: wait for it.
    page.until("the next <video> preloaded (readyState >= 2)", lambda: page.js(
        'const v = document.querySelector("video[data-slot=next]"); return Boolean(v && v.dataset.videoId && v.readyState >= 2);'))
    page.js(ARM, start["id"])
    feed = driver.find_element(By.ID, "feed")
    if kind == "key":
        feed.send_keys(Keys.ARROW_DOWN)
    elif kind == "drag":
        ActionChains(driver, duration=60).move_to_element(feed).click_and_hold() \
            .move_by_offset(0, -80).move_by_offset(0, -80).move_by_offset(0, -80).release().perform()
    else:
        ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(feed), 0, 120).perform()
    driver.set_script_timeout(page.timeout + 10)
    found = driver.execute_async_script(AFTER_SWIPE, page.timeout)
    if found.get("timeout"):
        raise StepFailed(f"swipe ({kind}) from video {start['id']}: current video {found.get('id')} readyState "
                         f"{found.get('ready')} after {page.timeout:g} s"
                         + ("" if found.get("gesture") else " (the gesture never reached the page)"))
    if not found["rotated"]:
        raise StepFailed(f"swipe ({kind}): video {found['id']} is current, but not in the <video> that was next "
                         "(the three elements should rotate)")
    return {"id": found["id"], "ms": round(found["ms"], 1), "kind": kind}


def like(page):
    """Likes the current video; its id, once GET /likes has it."""
    button = page.driver.find_element(By.ID, "like")
    video = page.current()["id"]
    if button.get_attribute("aria-pressed") == "true":
        button.click()
        page.until("#like released", lambda: button.get_attribute("aria-pressed") == "false")
        page.until("the like taken off", lambda: video not in (page.driver.execute_async_script(LIKES).get("ids") or []))
    button.click()
    page.until("#like pressed", lambda: button.get_attribute("aria-pressed") == "true")
    if button.get_attribute("data-video-id") != video:
        raise StepFailed(f"#like is for video {button.get_attribute('data-video-id')}, the current one is {video}")
    page.driver.set_script_timeout(page.timeout + 10)
    page.until(f"GET /likes with video {video}", lambda: video in (page.driver.execute_async_script(LIKES).get("ids") or []))
    return video


def upload(page, clip):
    """Drops `clip` on #dropzone; the recording id once its tile is in the roll."""
    page.tab("roll")
    page.until("the roll listed", lambda: page.js(
        'return document.querySelector("#roll-grid li") !== null || !document.getElementById("roll-empty").hidden;'))
    page.driver.find_element(By.ID, "upload-title").send_keys("console check")
    page.js('const input = document.createElement("input"); input.type = "file"; input.id = "console-check-file";'
            'input.style.display = "none"; document.body.append(input);')
    page.driver.find_element(By.ID, "console-check-file").send_keys(os.path.abspath(clip))
    refused = page.js(DROP)
    if refused:
        raise StepFailed(refused)

    def progressed():
        state = page.js('const z = document.getElementById("dropzone"), p = document.getElementById("upload-progress");'
                        'return {state: z.dataset.state, value: p.value, max: p.max,'
                        '        status: document.getElementById("upload-status").textContent,'
                        '        id: document.getElementById("upload-status").dataset.recordingId || null};')
        if state["state"] == "failed":
            raise StepFailed(f"the upload failed: {state['status']}")
        return state if state["value"] >= state["max"] and state["id"] else None

    state = page.until("#upload-progress at 100% and a recording id", progressed)
    recording = int(state["id"])
    tile = page.until(f".roll-tile[data-id={recording}]", lambda: page.driver.find_elements(
        By.CSS_SELECTOR, f'.roll-tile[data-id="{recording}"]'))
    label = tile[0].get_attribute("aria-label") or ""
    if "console check" not in label:
        raise StepFailed(f"the tile of recording {recording} does not carry the upload's title: {label!r}")
    return recording


def stack(page, front, result):
    """Stacks recording `front` with another through the form; the job, once it has ended, in
    result["job"]."""
    page.tab("jobs")
    options = page.until(f"#stack-front offering recording {front} and another", lambda: (
        values := [o.get_attribute("value") for o in page.driver.find_elements(By.CSS_SELECTOR, "#stack-front option")])
        and str(front) in values and len(values) > 1 and values)
    back = next(value for value in options if value != str(front))
    Select(page.driver.find_element(By.ID, "stack-front")).select_by_value(str(front))
    Select(page.driver.find_element(By.ID, "stack-back")).select_by_value(back)
    page.driver.find_element(By.ID, "stack-submit").click()
    job = page.until("the job queued (#stack-form[data-job-id])",
                     lambda: page.js('return document.getElementById("stack-form").dataset.jobId || null;'))
    ended = page.until(f".job[data-id={job}] ended", lambda: page.js(
        f'const row = document.querySelector(\'.job[data-id="{job}"]\');'
        'if (!row || ["queued", "running"].includes(row.dataset.state)) return null;'
        'const open = row.querySelector("[data-open]");'
        'return {state: row.dataset.state, error: row.querySelector(".error")?.textContent || null,'
        '        recording: open ? Number(open.dataset.open) : null};'))
    result["job"] = {"id": int(job), "state": ended["state"], "recording": ended["recording"]}
    if ended["state"] != "done":
        raise StepFailed(f"job {job} {ended['state']}: {ended['error']}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--upload", required=True, metavar="CLIP")
    parser.add_argument("--screenshots", metavar="DIR")
    parser.add_argument("--token", help="a bearer token for a server with a key")
    parser.add_argument("--timeout", type=float, default=60)
    headless_chromium.add_arguments(parser)
    args = parser.parse_args()
    result = {"swipes": [], "liked": None, "uploaded": None, "job": None, "errors": []}

    def opened(driver):
        return headless_chromium.opened_console(driver, args, WATCH, Console, "feed")

    def body(page, step):
        if args.screenshots:
            os.makedirs(args.screenshots, exist_ok=True)

        def shoot(name):
            if args.screenshots:
                page.js("document.activeElement?.blur();")
                time.sleep(0.3)  # the last transition (a swipe, a tab, a focus ring) settles
                page.driver.save_screenshot(os.path.join(args.screenshots, name))

        step("open at /#/", lambda: opened_at_root(page))
        for kind in ["key", "drag", "wheel"]:
            done = step(f"swipe ({kind})", lambda: swipe(page, kind))
            if done is None:
                break
            result["swipes"].append(done)
        ids = [swipe_["id"] for swipe_ in result["swipes"]]
        if len(set(ids)) != len(ids):
            result["errors"].append(f"swipes: a video came back: {ids}")
        result["liked"] = step("like", lambda: like(page))
        step("screenshot feed.png", lambda: shoot("feed.png"))
        result["uploaded"] = step("upload", lambda: upload(page, args.upload))
        step("screenshot roll.png", lambda: shoot("roll.png"))
        step("stack", lambda: stack(page, result["uploaded"], result), result["uploaded"])
        step("screenshot jobs.png", lambda: shoot("jobs.png"))
        try:
            result["errors"] += [f"page: {message}" for message in page.js("return __check.errors;") or []]
        except WebDriverException as error:
            result["errors"].append(f"page: {error.msg}")

    return headless_chromium.run_check("console_check.py", args, result, opened, body)


if __name__ == "__main__":
    sys.exit(main())
