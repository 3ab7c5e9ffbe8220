#!/usr/bin/env python3
"""The console's edges in headless Chromium (selenium), against a keyed `feed serve`:

    console_edges.py BASE_URL --token TOKEN --again CLIP [--timeout 60]
                     [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver]

CLIP is a file the roll already holds. Asserting in the page:
  1. the server's API unreachable at load (Chromium blocks its paths; the page itself loads):
     after the Feed, Roll and Jobs tabs each failed to read, one error toast says the server does
     not answer (it was one per request), and the Stack button is disabled;
  2. the API back, the page reloaded: dropping CLIP on #dropzone says it was already in the roll,
     as recording N (it said "recording #N added");
  3. a roll tile's poster given an expired signed link (its `exp` in the past: 403) is read again
     and shows (it stayed broken until the recording was read again).
Prints one JSON object, {"errors": ["step: what failed"...]}; exits 0 when every step passed, 1
when one failed, 2 when the browser could not be started or could not open the page.
"""
import argparse
import os
import sys

from selenium.webdriver.common.by import By

import headless_chromium
from console_check import DROP, WATCH, Console

StepFailed = headless_chromium.StepFailed

# The API's paths; the page and its assets (/, /console/…) stay reachable.
API = ["*/videos*", "*/roll*", "*/jobs*", "*/live*", "*/comments*", "*/likes*", "*/bookmarks*", "*/uploads*"]


def server_down(page):
    """The three tabs' reads fail: one toast, and nothing to stack."""
    page.until("the feed's read failed", lambda: page.js('return document.querySelectorAll("#toasts .toast").length > 0;'))
    for tab in ["roll", "jobs"]:
        page.tab(tab)
    page.until("the roll's read failed", lambda: page.js('return !document.getElementById("roll-failed").hidden;'))
    page.until("the Stack button disabled", lambda: page.js('return document.getElementById("stack-submit").disabled;'))
    page.until("the jobs' read failed", lambda: page.js('return !document.getElementById("jobs-failed").hidden;'))
    toasts = page.js('return [...document.querySelectorAll("#toasts .toast[data-kind=error]")].map(t => t.textContent);')
    if len(toasts) != 1 or "does not answer" not in toasts[0]:
        raise StepFailed(f"expected one toast saying the server does not answer, saw {toasts}")


def again(page, clip):
    """Drops a clip the roll holds: the console says which recording it already is."""
    page.tab("roll")
    page.until("the roll listed", lambda: page.js('return document.querySelector("#roll-grid li") !== null;'))
    page.js('const input = document.createElement("input"); input.type = "file"; input.id = "console-check-file";'
            'input.style.display = "none"; document.body.append(input);')
    page.driver.find_element(By.ID, "console-check-file").send_keys(os.path.abspath(clip))
    refused = page.js(DROP)
    if refused:
        raise StepFailed(refused)
    state = page.until("the upload done", lambda: (s := page.js(
        'const z = document.getElementById("dropzone"), status = document.getElementById("upload-status");'
        'return {state: z.dataset.state, text: status.textContent, existing: status.dataset.existing || null};'))
        and s["state"] in ("done", "failed") and s)
    if state["state"] != "done" or state["existing"] != "true" or "already in the roll" not in state["text"]:
        raise StepFailed(f"a clip the roll had was not said to be there already: {state}")


def expired_poster(page):
    """A poster whose link expired is read again and shows."""
    page.until("a poster shown", lambda: page.js(
        'const i = document.querySelector("#roll-grid .roll-tile img"); return i && i.complete && i.naturalWidth > 0;'))
    before = page.js('const i = document.querySelector("#roll-grid .roll-tile img");'
                     'i.src = i.src.replace(/([?&]exp=)\\d+/, "$11"); return i.src;')
    if "exp=1&" not in before and not before.endswith("exp=1"):
        raise StepFailed(f"the poster's link is not a signed one: {before}")
    page.until("the poster shown again with a fresh link", lambda: page.js(
        'const i = document.querySelector("#roll-grid .roll-tile img");'
        'return i.complete && i.naturalWidth > 0 && !/[?&]exp=1(&|$)/.test(i.src);'))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--token", required=True)
    parser.add_argument("--again", required=True, metavar="CLIP")
    parser.add_argument("--timeout", type=float, default=60)
    headless_chromium.add_arguments(parser)
    args = parser.parse_args()

    def opened(driver):
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": API})
        return headless_chromium.opened_console(driver, args, WATCH, Console, "feed")

    def body(page, step):
        step("server down at load", lambda: server_down(page))
        page.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        page.driver.get(args.base.rstrip("/") + "/#/roll")
        step("the same clip again", lambda: again(page, args.again))
        step("an expired poster", lambda: expired_poster(page))

    return headless_chromium.run_check("console_edges.py", args, {"errors": []}, opened, body)


if __name__ == "__main__":
    sys.exit(main())
