#!/usr/bin/env python3
"""Drives the social parts of `feed serve`'s browser console (posts, follows, a post's comments,
profiles) in headless Chromium (selenium), as one user of a keyed server, for
ServeConsoleSocialTests.

    console_social_check.py BASE_URL --token TOKEN --post ID --author NAME --comment TEXT --reply TEXT
                            [--file-video ID] [--screenshots DIR] [--timeout 10]
                            [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver]

It opens BASE_URL/#/ at 390x844 with TOKEN in the console's storage (the user the page acts as is
its `sub`) and, asserting in the page:
  1. the feed's first video is post ID (posts come first in GET /videos): its author NAME is the
     button #video-author, #follow says "Follow" (once GET /users/NAME told whether we follow);
  2. with --file-video, one swipe down (ArrowDown) shows that video of the feed file: no
     #video-author, no #follow, its username in #video-user; a swipe up goes back to the post;
  3. likes the post (#like): pressed, and its count is the answer's `likes` (1);
     presses #follow: it says "Following" (aria-pressed) once PUT /users/NAME/follow answered;
  4. presses Following (#source-following): the feed is GET /feed/following, and its first video is
     the post;
  5. opens the comments (#comments-open: the post's own sheet, #post-comments), posts TEXT, and
     waits for it at the top of the list (with the server's id); then presses its Reply, posts the
     reply, and waits for it under the comment (its replies read with GET /comments/{id}/replies);
     the comments button counts both;
  6. closes the sheet, presses the author's name: the profile dialog (#profile) reads the counts
     (followers, following, videos, likes) and lists the post in its grid;
  7. with --screenshots DIR, saves social-feed.png, social-comments.png and social-profile.png.
Each wait ends on a state of the page, at most --timeout seconds.

Prints one JSON object on stdout: {"post": {"id", "author", "follow"}, "file_video": {"id",
"user", "author_shown", "follow_shown"}, "liked": {"pressed", "count"}, "followed": {"label", "pressed"}, "following":
{"source", "id", "position"}, "comment": {"id", "text", "count"}, "reply": {"id", "text",
"parent", "count"}, "profile": {"name", "handle", "followers", "following", "videos", "likes",
"follow", "grid"}, "seconds", "steps": {STEP: seconds}, "errors": ["step: what failed"...]}; uncaught errors of the page's
JavaScript are errors too. Exits 0 when every step passed, 1 when one failed, 2 when the browser
could not be started or could not open the page.
"""
import argparse
import os
import sys
import time

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import headless_chromium

# Runs before the page's own scripts: keeps its uncaught errors.
WATCH = """
window.__check = {errors: []};
addEventListener("error", event => __check.errors.push(String(event.message)));
addEventListener("unhandledrejection", event => __check.errors.push("unhandled rejection: " + String(event.reason)));
"""

# What the feed shows now: the current video, the byline, the buttons.
OVERLAY = """
const v = document.querySelector("video[data-slot=current]");
const author = document.getElementById("video-author"), follow = document.getElementById("follow");
return {id: v ? v.dataset.videoId || null : null,
        user: document.getElementById("video-user").hidden ? null : document.getElementById("video-user").textContent,
        author: author.hidden ? null : author.textContent,
        follow: follow.hidden ? null : {label: follow.textContent, pressed: follow.getAttribute("aria-pressed"),
                                        known: follow.dataset.known === "true", busy: follow.getAttribute("aria-disabled") === "true"},
        comments: document.getElementById("comment-count").textContent,
        source: document.getElementById("feed").dataset.source || "all",
        empty: !document.getElementById("feed-empty").hidden,
        position: document.getElementById("feed-position").textContent};
"""

StepFailed = headless_chromium.StepFailed


class Console(headless_chromium.Page):
    """The console's page, and the waits the steps share."""

    def overlay(self):
        return self.js(OVERLAY)

    def click(self, element_id):
        self.driver.find_element(By.ID, element_id).click()

    def comment_items(self, selector):
        """The comments `selector` (li.comment) finds: id and text, in order."""
        return self.js("""return [...document.querySelectorAll(arguments[0])].map(li => ({
                            id: li.dataset.id, text: li.querySelector(":scope > .comment-text").textContent,
                            user: li.querySelector(":scope > .who").textContent}));""", selector)


def find_post(page, args):
    """The post is the current video, its author and Follow shown."""
    def there():
        shown = page.overlay()
        return shown if shown["id"] == str(args.post) and shown["follow"] and shown["follow"]["known"] else None
    shown = page.until(f"post {args.post} current, with its Follow button told whether we follow", there)
    if shown["author"] != args.author:
        raise StepFailed(f"#video-author says {shown['author']!r}, not {args.author!r}")
    return {"id": shown["id"], "author": shown["author"], "follow": shown["follow"]["label"],
            "pressed": shown["follow"]["pressed"]}


def file_video(page, args):
    """One swipe down to the feed file's video: no author, no Follow; one back up to the post."""
    feed = page.driver.find_element(By.ID, "feed")
    feed.send_keys(Keys.ARROW_DOWN)
    shown = page.until(f"video {args.file_video} current", lambda: (s := page.overlay())["id"] == str(args.file_video) and s)
    result = {"id": shown["id"], "user": shown["user"], "author_shown": shown["author"] is not None,
              "follow_shown": shown["follow"] is not None}
    feed.send_keys(Keys.ARROW_UP)
    page.until(f"post {args.post} current again", lambda: page.overlay()["id"] == str(args.post))
    return result


def like(page, args):
    page.click("like")
    return page.until("#like pressed, with the post's likes from the server", lambda: page.js(
        'const like = document.getElementById("like");'
        'return like.dataset.videoId === arguments[0] && like.getAttribute("aria-pressed") === "true"'
        '  && document.getElementById("like-count").textContent === "1"'
        '  && {pressed: like.getAttribute("aria-pressed"), count: document.getElementById("like-count").textContent};', str(args.post)))


def follow(page, args):
    page.click("follow")
    shown = page.until("#follow pressed, its request answered", lambda: (s := page.overlay())["follow"]
                       and s["follow"]["pressed"] == "true" and not s["follow"]["busy"] and s)
    return {"label": shown["follow"]["label"], "pressed": shown["follow"]["pressed"]}


def following(page, args):
    page.click("source-following")
    shown = page.until(f"the Following feed showing post {args.post}", lambda: (s := page.overlay())["source"] == "following"
                       and (s["empty"] or s["id"] == str(args.post)) and s)
    if shown["empty"]:
        raise StepFailed("the Following feed is empty: " + page.js('return document.getElementById("feed-empty-text").textContent;'))
    return {"source": shown["source"], "id": shown["id"], "position": shown["position"]}


def post_form(page, text):
    box = page.driver.find_element(By.ID, "post-comment-text")
    box.send_keys(text)
    page.click("post-comment-submit")


def comment(page, args):
    page.click("comments-open")
    page.until(f"#post-comments open with post {args.post}'s comments read", lambda: page.js(
        'const s = document.getElementById("post-comments"); return !s.hidden && s.dataset.loaded === arguments[0];', str(args.post)))
    post_form(page, args.comment)
    found = page.until("the comment at the top of #post-comment-list", lambda: (
        items := page.comment_items("#post-comment-list > li.comment")) and items[0]["text"] == args.comment and items[0])
    count = page.until("the comments button counting it", lambda: (c := page.overlay()["comments"]) == "1" and c)
    return {"id": int(found["id"]), "text": found["text"], "user": found["user"], "count": count}


def reply(page, args, parent):
    page.driver.find_element(By.CSS_SELECTOR, f'#post-comment-list > li[data-id="{parent}"] [data-action=reply]').click()
    page.until("the form replying", lambda: page.js('return !document.getElementById("reply-to").hidden;'))
    post_form(page, args.reply)
    selector = f'#post-comment-list > li[data-id="{parent}"] > ol.replies > li.comment'
    found = page.until("the reply under its comment", lambda: page.js(
        f'const box = document.querySelector(\'#post-comment-list > li[data-id="{parent}"] > ol.replies\'); return box && !box.hidden;')
        and (items := page.comment_items(selector)) and items[0]["text"] == args.reply and items[0])
    count = page.until("the comments button counting both", lambda: (c := page.overlay()["comments"]) == "2" and c)
    return {"id": int(found["id"]), "text": found["text"], "parent": parent, "count": count}


def profile(page, args):
    page.click("post-comments-close")
    page.until("#post-comments closed", lambda: page.js('return document.getElementById("post-comments").hidden;'))
    page.click("video-author")
    state = page.until(f"{args.author}'s profile read, and its posts", lambda: page.js("""
        const d = document.getElementById("profile"), grid = document.getElementById("profile-grid");
        if (!d.open || d.dataset.loaded !== arguments[0] || grid.dataset.loaded !== arguments[0]) return null;
        const count = name => Number(document.getElementById("profile-" + name).dataset.count);
        const follow = document.getElementById("profile-follow");
        return {name: document.getElementById("profile-name").textContent, handle: document.getElementById("profile-handle").textContent,
                followers: count("followers"), following: count("following"), videos: count("videos"), likes: count("likes"),
                follow: follow.hidden ? null : follow.textContent,
                grid: [...grid.querySelectorAll(".roll-tile")].map(tile => Number(tile.dataset.id))};""", args.author))
    return state


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--token", required=True, help="the bearer token of the user the page acts as")
    parser.add_argument("--post", required=True, type=int)
    parser.add_argument("--author", required=True)
    parser.add_argument("--comment", required=True)
    parser.add_argument("--reply", required=True)
    parser.add_argument("--file-video", help="the id of a video of the feed file, next after the posts")
    parser.add_argument("--screenshots", metavar="DIR")
    parser.add_argument("--timeout", type=float, default=10)
    headless_chromium.add_arguments(parser)
    args = parser.parse_args()
    result = {"post": None, "file_video": None, "liked": None, "followed": None, "following": None, "comment": None,
              "reply": None, "profile": None, "seconds": None, "steps": {}, "errors": []}
    started = time.monotonic()

    def opened(driver):
        return headless_chromium.opened_console(driver, args, WATCH, Console, "feed")

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

        result["post"] = step("find the post", lambda: find_post(page, args))
        if args.file_video:
            result["file_video"] = step("a video of the feed file", lambda: file_video(page, args), result["post"])
        result["liked"] = step("like", lambda: like(page, args), result["post"])
        result["followed"] = step("follow", lambda: follow(page, args), result["post"])
        step("screenshot social-feed.png", lambda: shoot("social-feed.png"))
        result["following"] = step("the Following feed", lambda: following(page, args), result["followed"])
        result["comment"] = step("comment", lambda: comment(page, args), result["following"])
        result["reply"] = step("reply", lambda: reply(page, args, result["comment"]["id"]), result["comment"])
        step("screenshot social-comments.png", lambda: shoot("social-comments.png"))
        result["profile"] = step("profile", lambda: profile(page, args), result["following"])
        step("screenshot social-profile.png", lambda: shoot("social-profile.png"))
        try:
            result["errors"] += [f"page: {message}" for message in page.js("return __check.errors;") or []]
        except WebDriverException as error:
            result["errors"].append(f"page: {error.msg}")
        result["seconds"] = round(time.monotonic() - started, 2)

    return headless_chromium.run_check("console_social_check.py", args, result, opened, body)


if __name__ == "__main__":
    sys.exit(main())
