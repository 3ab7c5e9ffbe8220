"""Debian's Chromium, headless, under selenium: what the browser tests' scripts share
(cross_origin_page.py, signed_playback.py, console_check.py, console_live_check.py,
console_edges.py)."""
import json
import sys

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required",
         # Containers give /dev/shm 64 MB; Chromium then crashes on shared memory.
         "--disable-dev-shm-usage", "--mute-audio", "--no-first-run", "--no-default-browser-check"]


def add_arguments(parser):
    """--chromium and --chromedriver, Debian's paths by default."""
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")


def start(args, browser_log=False) -> webdriver.Chrome:
    """A new headless Chromium (a new temporary profile) from args.chromium and args.chromedriver;
    with browser_log, its console messages kept for driver.get_log("browser"). Raises selenium's
    WebDriverException when it cannot start."""
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in FLAGS:
        options.add_argument(flag)
    if browser_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # A driver path of our own: selenium does not run Selenium Manager (which would download).
    return webdriver.Chrome(options=options, service=Service(executable_path=args.chromedriver))


class StepFailed(Exception):
    """A step's assertion did not hold."""


class Page:
    """A page under a driver, and the waits a script's steps share: each at most `timeout` s."""

    def __init__(self, driver, timeout):
        self.driver = driver
        self.timeout = timeout

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def until(self, what, condition):
        """Polls `condition` (a function of nothing) until it is truthy; its value."""
        try:
            return WebDriverWait(self.driver, self.timeout, poll_frequency=0.1).until(lambda _: condition())
        except TimeoutException:
            raise StepFailed(f"{what}: not after {self.timeout:g} s") from None


def open_console(driver, base, token, watch):
    """Opens feed serve's console at `base` as a 390x844 phone, `watch` (a script) running in
    every document before the page's own, with `token` (if any) in the console's storage first."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": watch})
    if token:
        # The document needs no token: a page of the server's origin to reach its storage.
        driver.get(base.rstrip("/") + "/openapi.json")
        driver.execute_script('localStorage.setItem("feed.token", arguments[0]);', token)
    driver.get(base.rstrip("/") + "/#/")


def opened_console(driver, args, watch, page_class, anchor):
    """``open_console`` at args.base with args.token, then a `page_class` page (a ``Page``) once
    the element of id `anchor` is there (args.timeout)."""
    open_console(driver, args.base, args.token, watch)
    page = page_class(driver, args.timeout)
    page.until(f"the console (#{anchor})", lambda: page.js(f'return document.getElementById("{anchor}") !== null;'))
    return page


class Steps:
    """Runs a check's steps: a step that fails adds "name: what failed" to result["errors"] and
    gives None, so the steps after it run; one that needs a None (a step before it failed) is
    "not tried"."""

    def __init__(self, result):
        self.result = result

    def __call__(self, name, run, *needs):
        if any(need is None for need in needs):
            self.result["errors"].append(f"{name}: not tried (a step before it failed)")
            return None
        try:
            return run()
        except (StepFailed, WebDriverException) as error:
            self.result["errors"].append(f"{name}: {getattr(error, 'msg', None) or error}")
        except Exception as error:  # a bug of the script: still one JSON object, and exit 1
            self.result["errors"].append(f"{name}: {type(error).__name__}: {error}")
        return None


def run_check(script, args, result, opened, body, browser_log=False):
    """A browser check from start to end: starts Chromium, `opened(driver)` opens the page and
    gives it, `body(page, step)` runs the steps (``Steps`` over `result`); prints `result` as one
    JSON object. The exit status: 0 when every step passed, 1 when one failed, 2 when Chromium
    could not start or the page could not be opened (a line on stderr). Chromium quits at the end
    whatever happened."""
    try:
        driver = start(args, browser_log)
    except WebDriverException as error:
        print(f"{script}: cannot start Chromium: {error.msg}", file=sys.stderr)
        return 2
    try:
        try:
            page = opened(driver)
        except (WebDriverException, StepFailed) as error:
            print(f"{script}: cannot open {args.base}/: {getattr(error, 'msg', None) or error}", file=sys.stderr)
            return 2
        body(page, Steps(result))
        print(json.dumps(result))
        return 1 if result["errors"] else 0
    finally:
        driver.quit()
