// feed console: the browser face of `feed serve`, served at / from inside the binary.
//
// Plain JavaScript, no framework, no build step. One file in sections:
//   api       fetch with the bearer token, problem+json errors as toasts, SSE over fetch
//   tabs      Feed, Live, Roll, Jobs (keyboard: arrows, Home, End; the tab is kept in the URL's hash)
//   player    the feed: three <video> elements (previous, current, next) that rotate on a swipe;
//             For You (GET /feed/for-you, each video with why it was picked), all videos
//             (GET /videos) or the posts of the people one follows (GET /feed/following)
//   events    For You's events (POST /events): impressions, plays, "not interested", sent in batches
//   marks     likes and bookmarks
//   people    following (PUT/DELETE /users/{name}/follow), and whom one follows
//   comments  the list, the live stream, the form
//   threads   a post's comments and their replies (GET/POST /videos/{id}/comments)
//   profile   a user's profile and their posts (GET /users/{name}, /users/{name}/videos)
//   hls       LL-HLS over Media Source Extensions: the playlist, the init segment's codecs, parts
//   live      the live streams, and one stream: its picture, comments, hearts, viewers and state
//   roll      the recordings, storyboard scrubbing, the viewer
//   upload    tus 1.0.0 by hand: create, PATCH in chunks, resume from HEAD, wait for the roll
//   jobs      the list, live progress, the stack form
//   settings  the bearer token
// Everything the server says is read from its documented shapes (openapi.yaml).
"use strict";

(() => {
  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];
  const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

  /** An element `tag` with attributes (`text` sets its text) and children. */
  function element(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    node.append(...children.filter(child => child !== null && child !== undefined));
    return node;
  }

  const storage = {
    get(key) { try { return localStorage.getItem(key); } catch { return null; } },
    set(key, value) { try { localStorage.setItem(key, value); } catch { /* private mode: not kept */ } },
    remove(key) { try { localStorage.removeItem(key); } catch { /* nothing kept */ } },
  };

  // ---------------------------------------------------------------- api

  const TOKEN_KEY = "feed.token";
  const USER_KEY = "feed.user";
  let token = storage.get(TOKEN_KEY) || "";
  /** On a server without a key: the user the page acts as (`X-Feed-User`); "" for nobody in particular. */
  let actingUser = storage.get(USER_KEY) || "";

  /** The user a token names: its payload's `sub` (read, not checked: the server checks it); null when it names none. */
  function tokenUser() {
    const payload = token.split(".")[1];
    if (!payload) return null;
    try {
      const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
      const bytes = Uint8Array.from(atob(base64 + "=".repeat((4 - base64.length % 4) % 4)), char => char.charCodeAt(0));
      const claims = JSON.parse(new TextDecoder().decode(bytes));
      return typeof claims.sub === "string" && claims.sub ? claims.sub : null;
    } catch {
      return null; // not a JWT (a --token server's token)
    }
  }

  /** Who the page acts as: the token's user; with no token, the user given for an open server; else null. */
  function me() {
    return token ? tokenUser() : actingUser || null;
  }

  /** A post of the catalog (it has an author), not a video of the feed file. */
  const isPost = video => typeof video?.author === "string" && video.author !== "";

  /**
   * A random UUID (version 4): crypto.randomUUID, which only a secure context has (https, or
   * localhost), else the same made from crypto.getRandomValues.
   */
  function uuid() {
    if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = [...bytes].map(byte => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** A failed request: the HTTP status (0: no answer) and the problem's `detail`. */
  class RequestError extends Error {
    constructor(status, detail, problem = null) {
      super(detail);
      this.name = "RequestError";
      this.status = status;
      this.problem = problem;
    }
  }

  /** The bearer header for `url`, only for this page's own origin (a CDN never sees the token). */
  function authorization(url) {
    return token && new URL(url, location.href).origin === location.origin ? {Authorization: `Bearer ${token}`} : {};
  }

  /**
   * `X-Feed-User` for this page's own origin when the page has no token: an open server acts as
   * that user (a server with a key or a token never honours it). Only a name a header can carry.
   */
  function actingAs(url) {
    if (token || !actingUser || !/^[\x21-\x7e]+$/.test(actingUser)) return {};
    return new URL(url, location.href).origin === location.origin ? {"X-Feed-User": actingUser} : {};
  }

  /** What an error answer says: RFC 9457 problem details when it is JSON, else its status line. */
  function problemOf(status, statusText, text) {
    try {
      const problem = JSON.parse(text);
      if (problem && typeof problem === "object") {
        return {detail: String(problem.detail || problem.title || `${status} ${statusText}`), problem};
      }
    } catch { /* not JSON */ }
    return {detail: `${status} ${statusText}`.trim(), problem: null};
  }

  /**
   * Reports `error`: a toast with the problem's detail; a 401 opens the token field. A server
   * that does not answer is one toast, whichever requests found it out (at load, the feed, the
   * roll, the jobs and the streams all do at once).
   */
  function report(error, what) {
    if (error.name === "AbortError") return;
    if (error.status === 401) openSettings(error.message);
    if (error.status === 0) { toast("The server does not answer: is it running? Retry once it is."); return; }
    toast(!(error instanceof RequestError) ? `${what}: ${error.message}` : error.message);
  }

  /**
   * fetch(`path`) with the token; a non-2xx answer throws a RequestError (reported unless
   * `quiet`, but a 401 always opens the token field). `json` is sent as the JSON body;
   * `keepalive` lets the request outlive the page (fetch's own, 64 KiB of body at most).
   * The request goes out at once (before the first await): the token and user are those of now.
   */
  async function api(path, {method = "GET", headers = {}, json, signal, quiet = false, keepalive = false} = {}) {
    const url = new URL(path, location.href);
    const init = {method, signal, keepalive, headers: {...authorization(url), ...actingAs(url), ...headers}};
    if (json !== undefined) {
      init.body = JSON.stringify(json);
      init.headers["Content-Type"] = "application/json";
    }
    let response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      const failure = error.name === "AbortError" ? error : new RequestError(0, `the server did not answer (${error.message})`);
      if (!quiet) report(failure, `${method} ${url.pathname}`);
      throw failure;
    }
    if (!response.ok) {
      const {detail, problem} = problemOf(response.status, response.statusText, method === "HEAD" ? "" : await response.text());
      const failure = new RequestError(response.status, detail, problem);
      failure.retryAfter = Number(response.headers.get("Retry-After")) || 0;
      if (!quiet || response.status === 401) report(failure, `${method} ${url.pathname}`);
      throw failure;
    }
    return response;
  }

  /** GET `path` as JSON. */
  async function getJSON(path, options) {
    return (await api(path, options)).json();
  }

  /**
   * Reads Server-Sent Events from `path` until the stream ends or `signal` aborts, calling
   * `onEvent(type, data, id)` for each. Over fetch rather than EventSource, which cannot send
   * the bearer token; the format is the standard one (`event:`, `data:`, `id:`, `:` comments).
   */
  async function readEvents(path, onEvent, signal) {
    const response = await api(path, {headers: {Accept: "text/event-stream"}, signal, quiet: true});
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let type = "", data = [], id = null;
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      buffer += value;
      let newline;
      while ((newline = buffer.search(/\r\n|\n|\r(?=[^\n])/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
        if (line === "") {
          if (data.length) onEvent(type || "message", data.join("\n"), id);
          type = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let text = colon < 0 ? "" : line.slice(colon + 1);
        if (text.startsWith(" ")) text = text.slice(1);
        if (field === "event") type = text;
        else if (field === "data") data.push(text);
        else if (field === "id") id = text;
      }
    }
  }

  /** A small message at the bottom of the screen: `kind` "error" (default) or "info". */
  function toast(message, kind = "error") {
    const box = $("#toasts");
    // The same message once, however many times it is said while it shows.
    if ([...box.children].some(item => item.textContent === message)) return;
    const item = element("div", {class: "toast", "data-kind": kind, text: message});
    box.append(item);
    while (box.children.length > 4) box.firstElementChild.remove();
    setTimeout(() => item.remove(), kind === "error" ? 7000 : 4000);
  }

  /**
   * Shows a list's "could not be read" line (`#NAME-failed`, with a Retry button) for `error`, or
   * hides it (`error` null); a focus on its Retry button goes to `then` when it hides.
   */
  function loadFailed(name, error, then) {
    const note = $(`#${name}-failed`);
    if (error) $("span", note).textContent = `The ${name} could not be read: ${error.message}`;
    const focused = note.contains(document.activeElement);
    note.hidden = !error;
    if (focused && !error) then.focus();
  }

  // ---------------------------------------------------------------- tabs

  const tabs = $$("[role=tab]");
  let activeTab = "feed";

  /**
   * Shows the tab named `name` (feed, live, roll, jobs; `live/ID` is live stream ID); `focus`
   * moves the focus to its button. Any other name (an address's hash may hold anything: `#/`,
   * `#roll?x=1`) shows Feed.
   */
  function selectTab(route, {focus = false} = {}) {
    const [wanted, detail = ""] = route.split("/");
    const tab = tabs.find(other => other.id === `tab-${wanted}`) || $("#tab-feed");
    const name = tab.id.slice(4);
    const stream = name === "live" && /^[1-9]\d{0,17}$/.test(detail) ? detail : "";
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      $(`#${other.getAttribute("aria-controls")}`).hidden = !selected;
    }
    if (focus) tab.focus();
    const was = activeTab;
    activeTab = name;
    const hash = stream ? `live/${stream}` : name;
    if (location.hash.slice(1) !== hash) {
      history.replaceState(null, "", name === "feed" ? location.pathname + location.search : `#${hash}`);
    }
    // Live follows its address (the list, or a stream) even within the tab; leaving it stops all.
    if (name === "live") live.open(stream); else if (was === "live") live.close();
    if (was === name) return;
    if (name === "feed") player.resume(); else player.suspend();
    if (name === "feed") comments.startLive(); else comments.stopLive();
    if (name === "roll" && !roll.loaded) roll.load(true);
    if (name === "jobs") jobs.open();
  }

  $(".tabs").addEventListener("click", event => {
    const tab = event.target.closest("[role=tab]");
    if (tab) selectTab(tab.id.slice(4));
  });
  $(".tabs").addEventListener("keydown", event => {
    const at = tabs.indexOf(document.activeElement);
    if (at < 0) return;
    const to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1}[event.key];
    if (to === undefined) return;
    event.preventDefault();
    selectTab(tabs[(to + tabs.length) % tabs.length].id.slice(4), {focus: true});
  });
  window.addEventListener("hashchange", () => selectTab(location.hash.slice(1) || "feed"));

  // ---------------------------------------------------------------- player

  /**
   * The feed's player window: three <video> elements whose `data-slot` is previous, current or
   * next. A move rotates the roles (the preloaded neighbour becomes current without touching its
   * src); only the element that wraps round to the far side gets a new clip, and only once the
   * current one has its first frame (`loadeddata`), so neighbours never compete with it.
   *
   * For You shows each video's reason (why it was picked) and a "Not interested" button, and
   * tells the server what was shown and played (see `events`): the video mostly on screen is a
   * view, from its `impression` to its `watch` when it leaves (`#feed`'s data-viewing names it).
   */
  const player = (() => {
    const PAGE = 20;
    const SOURCE_KEY = "feed.source";
    const root = $("#feed");
    const stage = $("#stage");
    const slots = {
      previous: $("video[data-slot=previous]", stage),
      current: $("video[data-slot=current]", stage),
      next: $("video[data-slot=next]", stage),
    };
    // "for-you": GET /feed/for-you (posts picked for the viewer; its end is an empty page);
    // "all": GET /videos (the catalog's posts, then the feed file's videos); "following": GET /feed/following.
    const SOURCES = {"for-you": "/feed/for-you", all: "/videos", following: "/feed/following"};
    const BUTTONS = {"for-you": $("#source-for-you"), all: $("#source-all"), following: $("#source-following")};
    const state = {
      videos: [], index: 0, exhausted: false, loading: null, failed: null, cursor: null,
      // The source chosen last in this browser; All at first (For You lists posts only, not the feed file's videos).
      source: SOURCES[storage.get(SOURCE_KEY)] ? storage.get(SOURCE_KEY) : "all", epoch: 0,
      muted: true, userPaused: false, suspended: false, generation: 0,
      warmed: new Map(), recoveries: new Map(), titles: new Map(),
    };
    /**
     * For You's view: the video whose element is mostly on screen (`view.slot`), since when
     * (`since`), what it played (`played`, seconds, from the element's currentTime; `last` is
     * where it was at the last look), whether it reached its end (`completed`) and played on
     * after that (`replayed`).
     */
    const view = {video: null, slot: null, since: 0, played: 0, last: 0, completed: false, replayed: false};
    /** How much of each element the feed shows (0…1), as the IntersectionObserver last said. */
    const onScreen = new Map();

    const current = () => state.videos[state.index];

    /**
     * Loads the next page of the source, by the cursor the page before gave (`next_cursor`, null
     * on the last); true when it added any. A page read for a source since left is dropped.
     */
    function loadMore() {
      if (state.exhausted) return Promise.resolve(false);
      if (state.loading) return state.loading;
      const epoch = state.epoch;
      const run = (async () => {
        try {
          const cursor = state.cursor ? `&cursor=${encodeURIComponent(state.cursor)}` : "";
          // For You with no user is this browser's device's.
          const device = state.source === "for-you" && events.device() ? `&device=${encodeURIComponent(events.device())}` : "";
          const page = await getJSON(`${SOURCES[state.source]}?limit=${PAGE}${cursor}${device}`);
          if (epoch !== state.epoch) return false;
          // Posts published since the page before would come again on an offset; not on a cursor, but never twice.
          const seen = new Set(state.videos.map(video => String(video.id)));
          const videos = (Array.isArray(page.videos) ? page.videos : []).filter(video => !seen.has(String(video.id)));
          state.videos.push(...videos);
          state.cursor = page.next_cursor || null;
          // For You always gives a next cursor: it has no more once a page adds nothing.
          if (!state.cursor || (state.source === "for-you" && !videos.length)) state.exhausted = true;
          return videos.length > 0;
        } catch (error) {
          if (epoch === state.epoch) state.failed = error;
          return false;
        } finally {
          if (state.loading === run) state.loading = null;
        }
      })();
      state.loading = run;
      return run;
    }

    /** Puts video `index` into `slot` (nothing when it is there already). */
    function bind(slot, index) {
      if (slot.dataset.index === String(index)) return;
      const video = state.videos[index];
      slot.dataset.index = String(index);
      slot.dataset.videoId = String(video.id);
      slot.poster = video.thumbnail || "";
      if (video.video) slot.src = video.video; else unload(slot, true);
    }

    /** Empties `slot`, releasing its connection; `keepIdentity` leaves its index and id. */
    function unload(slot, keepIdentity = false) {
      // What it played is read before it lets its clip go.
      if (view.slot === slot) endView();
      if (!keepIdentity) {
        delete slot.dataset.index;
        delete slot.dataset.videoId;
        slot.removeAttribute("poster");
      }
      slot.pause();
      if (slot.hasAttribute("src")) {
        slot.removeAttribute("src");
        slot.load();
      }
    }

    /**
     * Warms the start of `video`'s clip: one range request for the `preload_bytes` that hold the
     * container header and the first key frame, so the first picture is in the HTTP cache. The
     * promise settles once those bytes are in (at once when there is nothing to warm).
     */
    function warm(video) {
      const bytes = video.preload_bytes, key = String(video.id);
      if (!video.video || !Number.isInteger(bytes) || bytes <= 0) return Promise.resolve();
      if (!state.warmed.has(key)) {
        const done = fetch(video.video, {headers: {...authorization(video.video), Range: `bytes=0-${bytes - 1}`}})
          .then(response => response.arrayBuffer())
          .then(() => {}, () => { state.warmed.delete(key); });
        state.warmed.set(key, done);
      }
      return state.warmed.get(key);
    }

    /** Whether neighbours are preloaded: yes, unless the address says `?preload=0` (to compare). */
    const preloading = new URLSearchParams(location.search).get("preload") !== "0";

    /**
     * Gives the neighbours of the current video their clips, to be ready before a swipe: first
     * the `preload_bytes` range, then, once it is in the HTTP cache, the element's `src` (asked
     * at the same time, the element would download the same bytes again beside the range).
     */
    function prepareNeighbours() {
      for (const [name, index] of [["next", state.index + 1], ["previous", state.index - 1]]) {
        const slot = slots[name];
        if (!preloading || index < 0 || index >= state.videos.length) {
          unload(slot);
          continue;
        }
        const video = state.videos[index];
        slot.preload = "auto";
        const generation = state.generation;
        warm(video).then(() => {
          // Still this neighbour: no swipe since.
          if (generation === state.generation && slots[name] === slot) bind(slot, index);
        });
      }
      if (state.index + 3 >= state.videos.length && !state.exhausted) {
        loadMore().then(added => { if (added) prepareNeighbours(); });
      }
    }

    /** Shows the current video: plays it, then prepares its neighbours once it has a frame. */
    function show() {
      const video = current();
      root.dataset.index = String(state.index);
      $("#feed-empty").hidden = Boolean(video);
      if (!video) return;
      const slot = slots.current;
      slot.preload = "auto";
      slot.removeAttribute("aria-hidden");
      slots.previous.setAttribute("aria-hidden", "true");
      slots.next.setAttribute("aria-hidden", "true");
      bind(slot, state.index);
      slot.setAttribute("aria-label", `Video by ${video.author || video.username}: ${video.description || ""}`);
      renderOverlay();
      threads.follow(video);
      play();
      updateView();
      // Neighbours load once the current video has its first frame (or cannot have one: then
      // they are what the viewer swipes to next).
      const generation = ++state.generation;
      const ready = () => {
        slot.removeEventListener("loadeddata", ready);
        slot.removeEventListener("error", ready);
        if (generation === state.generation) prepareNeighbours();
      };
      // An element that failed before (a server away, a link expired) tries again now it is seen.
      if (slot.error) failed(slot, {again: true});
      if (slot.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA || !video.video || slot.error) {
        ready();
      } else {
        slot.addEventListener("loadeddata", ready);
        slot.addEventListener("error", ready);
      }
    }

    function play() {
      const slot = slots.current;
      slot.muted = state.muted;
      if (state.userPaused || state.suspended || !slot.hasAttribute("src")) {
        slot.pause();
      } else {
        slot.play().catch(() => {
          // Autoplay with sound refused: play muted, as the page started.
          if (!slot.muted) {
            setMuted(true);
            slot.play().catch(() => {});
          }
        });
      }
      renderPaused();
    }

    function renderPaused() {
      $("#paused-mark").hidden = !(state.userPaused && current());
    }

    /** Moves by `delta` (1: next, -1: previous); at either end it springs back. */
    async function move(delta) {
      if (state.index + delta >= state.videos.length && !state.exhausted) await loadMore();
      // From where the feed is now: moves that waited for the page with this one have been made.
      const target = state.index + delta;
      if (target < 0 || target >= state.videos.length) {
        bounce(delta);
        return false;
      }
      const {previous, current: was, next} = slots;
      was.pause();
      let wraps;
      if (delta > 0) {
        Object.assign(slots, {previous: was, current: next, next: previous});
        wraps = previous;
      } else {
        Object.assign(slots, {previous: next, current: previous, next: was});
        wraps = next;
      }
      // The element that goes round to the far side jumps there unseen, and lets its old clip go.
      wraps.classList.add("jump");
      unload(wraps);
      for (const [name, slot] of Object.entries(slots)) slot.dataset.slot = name;
      requestAnimationFrame(() => requestAnimationFrame(() => wraps.classList.remove("jump")));
      state.index = target;
      state.userPaused = false;
      show();
      return true;
    }

    function bounce(delta) {
      stage.classList.add("dragging");
      stage.style.setProperty("--drag", `${-delta * 40}px`);
      requestAnimationFrame(() => requestAnimationFrame(() => {
        stage.classList.remove("dragging");
        stage.style.setProperty("--drag", "0px");
      }));
    }

    /**
     * Takes `video` out of the list (For You's "Not interested"). When it is the one shown, the
     * next takes its place as on a swipe (at the end of the list, the previous one), and its
     * element, emptied, jumps unseen to where the next was. The elements' indexes follow the list.
     */
    async function remove(video) {
      const at = state.videos.indexOf(video);
      if (at < 0) return;
      const epoch = state.epoch;
      state.videos.splice(at, 1);
      // Neighbours being prepared for the indexes of before bind nothing.
      state.generation++;
      for (const slot of Object.values(slots)) {
        if (slot.dataset.index === undefined) continue;
        const index = Number(slot.dataset.index);
        if (index === at) unload(slot);
        else if (index > at) slot.dataset.index = String(index - 1);
      }
      if (at !== state.index) {
        if (at < state.index) state.index--;
        renderOverlay();
        prepareNeighbours();
        return;
      }
      if (state.index >= state.videos.length && !state.exhausted) await loadMore();
      if (epoch !== state.epoch) return; // another source since
      const {previous, current: gone, next} = slots;
      if (state.index < state.videos.length) {
        Object.assign(slots, {current: next, next: gone});
      } else if (state.index > 0) {
        state.index--;
        Object.assign(slots, {previous: gone, current: previous});
      }
      gone.classList.add("jump");
      for (const [name, slot] of Object.entries(slots)) slot.dataset.slot = name;
      requestAnimationFrame(() => requestAnimationFrame(() => gone.classList.remove("jump")));
      state.userPaused = false;
      if (!state.videos.length) {
        renderEmpty();
        renderOverlay();
      }
      show();
    }

    function togglePlay() {
      if (!current()) return;
      state.userPaused = !state.userPaused;
      play();
    }

    function setMuted(muted) {
      state.muted = muted;
      slots.current.muted = muted;
      const button = $("#mute");
      button.setAttribute("aria-pressed", String(muted));
      button.setAttribute("aria-label", muted ? "Sound off: unmute" : "Sound on: mute");
      $("#mute-label").textContent = muted ? "Muted" : "Sound";
    }

    /** Words for post `id` in "Because you watched …": its description, read once (GET /videos/{id}) when not in the list; "" until then. */
    function watchedTitle(id) {
      const key = String(id);
      const titleOf = post => (post.description ? `“${post.description}”` : `@${post.author || post.username}'s video`);
      const listed = state.videos.find(video => String(video.id) === key);
      if (listed) return titleOf(listed);
      if (!state.titles.has(key)) {
        state.titles.set(key, "");
        getJSON(`/videos/${encodeURIComponent(key)}`, {quiet: true})
          .then(post => { state.titles.set(key, titleOf(post)); renderOverlay(); }, () => { /* gone, or not ours to see */ });
      }
      return state.titles.get(key);
    }

    /** Why For You picked `video`, in words (its `reason`); "" for none. */
    function reasonText(video) {
      switch (video.reason) {
        case "followed": return "Following";
        case "similar_to": return `Because you watched ${watchedTitle(video.reason_video) || "something like it"}`;
        case "topic": return video.reason_topic ? `#${video.reason_topic}` : "";
        case "trending": return "Trending";
        case "new": return "New";
        case "explore": return "Explore";
        default: return "";
      }
    }

    /**
     * The caption and the buttons for the current video. A post shows its author (a button to
     * their profile) and Follow (not on one's own posts), its own `likes` and `liked` as the
     * server gives them, and its `comments`; a video of the feed file shows its `username`, and
     * the feed's `likes` plus one when liked here (GET /likes). In For You, a post shows its
     * reason above its author, and "Not interested".
     */
    function renderOverlay() {
      const video = current();
      const post = isPost(video);
      const id = video ? String(video.id) : "";
      const forYou = state.source === "for-you" && post;
      const reason = $("#video-reason");
      reason.textContent = forYou ? reasonText(video) : "";
      reason.title = reason.textContent; // the whole reason, when the line cuts it
      reason.dataset.reason = forYou ? String(video.reason || "") : "";
      reason.hidden = !reason.textContent;
      const notInterested = $("#not-interested");
      notInterested.hidden = !forYou;
      notInterested.dataset.videoId = forYou ? id : "";
      const user = $("#video-user"), author = $("#video-author");
      user.hidden = post;
      user.textContent = video && !post ? video.username || "" : "";
      user.title = user.textContent; // the whole name, when the line cuts it
      author.hidden = !post;
      author.textContent = post ? video.author : "";
      author.dataset.user = post ? video.author : "";
      author.setAttribute("aria-label", post ? `${video.author}'s profile` : "");
      people.render($("#follow"), post && video.author !== me() ? video.author : null);
      $("#video-description").textContent = video?.description || "";
      const liked = post ? video.liked === true : marks.liked.has(id), saved = marks.bookmarked.has(id);
      const like = $("#like");
      like.setAttribute("aria-pressed", String(liked));
      like.setAttribute("aria-label", liked ? "Liked: take the like off" : "Like");
      like.dataset.videoId = id;
      const likes = Number(video?.likes) || 0;
      $("#like-count").textContent = compact(post ? likes : likes + (liked ? 1 : 0));
      const bookmark = $("#bookmark");
      // A post takes no bookmark: /videos/{id}/bookmark knows the feed file's videos only.
      bookmark.hidden = post;
      bookmark.setAttribute("aria-pressed", String(saved));
      bookmark.setAttribute("aria-label", saved ? "Bookmarked: take the bookmark off" : "Bookmark");
      bookmark.dataset.videoId = id;
      const open = $("#comments-open");
      if (post) {
        const count = Number(video.comments) || 0;
        $("#comment-count").textContent = compact(count);
        open.setAttribute("aria-label", `Comments: ${count}`);
        open.setAttribute("aria-controls", "post-comments");
        open.setAttribute("aria-expanded", String(threads.isOpen));
      } else {
        comments.renderCount();
        open.setAttribute("aria-controls", "comments");
        open.setAttribute("aria-expanded", String(comments.isOpen));
      }
      $("#feed-position").textContent = video ? `${state.index + 1} / ${state.videos.length}${state.exhausted ? "" : "+"}` : "";
    }

    /** The source's button pressed, the others not; `#feed`'s `data-source` names it. */
    function renderSource() {
      for (const [name, button] of Object.entries(BUTTONS)) button.setAttribute("aria-pressed", String(name === state.source));
      root.dataset.source = state.source;
    }

    /**
     * Shows `source` (for-you, all, following) from its start: the one already shown is read
     * anew (a follow made since shows in Following; For You starts a new session, its cursor's).
     * The choice is kept in the browser for the next visit.
     */
    function setSource(source) {
      state.source = SOURCES[source] ? source : "all";
      storage.set(SOURCE_KEY, state.source);
      state.epoch++;
      state.generation++;
      Object.assign(state, {videos: [], index: 0, exhausted: false, cursor: null, loading: null, failed: null, userPaused: false});
      state.recoveries.clear();
      for (const slot of Object.values(slots)) unload(slot);
      renderSource();
      $("#feed-empty").hidden = true;
      threads.follow(null);
      renderOverlay();
      renderPaused();
      return start();
    }

    /** Pauses while another tab or the browser hides the feed. */
    function suspend() {
      state.suspended = true;
      slots.current.pause();
    }

    function resume() {
      state.suspended = false;
      if (activeTab === "feed" && !document.hidden) play();
    }

    /** One day in milliseconds: the most an event's watched_ms or duration_ms may say. */
    const DAY = 86400000;

    /** The element's length as an event gives it (`duration_ms`), when the element knows it. */
    const lengthOf = slot => (Number.isFinite(slot.duration) && slot.duration > 0
      ? {duration_ms: Math.min(Math.max(1, Math.round(slot.duration * 1000)), DAY)} : {});

    /**
     * Starts or ends For You's view. The element holding a post that the feed shows mostly (60 %
     * of it, as the IntersectionObserver says), while For You is shown in a page that is not
     * hidden, is viewed: its start is an `impression`. Another element (a swipe), or none (another
     * source or tab, the page hidden), ends the view before.
     */
    function updateView() {
      let shown = null;
      if (state.source === "for-you" && activeTab === "feed" && !document.hidden) {
        for (const slot of Object.values(slots)) {
          const ratio = onScreen.get(slot) || 0;
          if (ratio >= 0.6 && slot.dataset.index !== undefined && (!shown || ratio > onScreen.get(shown))) shown = slot;
        }
      }
      const video = shown ? state.videos[Number(shown.dataset.index)] : null;
      if (view.video && (view.video !== video || view.slot !== shown)) endView();
      if (video && !view.video && isPost(video)) {
        Object.assign(view, {video, slot: shown, since: performance.now(), played: 0, last: shown.currentTime,
                             completed: false, replayed: false});
        root.dataset.viewing = String(video.id);
        events.add("impression", video);
      }
    }

    /**
     * Adds what the viewed element played since the last look (its currentTime moving on; a jump
     * ahead is a seek, not played). A jump back from its last second is its loop beginning
     * again: the first is the view's `complete`; played on past a second (half of a shorter
     * clip) after that, its `replay`.
     */
    function tick() {
      const slot = view.slot, time = slot.currentTime, length = slot.duration, before = view.last;
      view.last = time;
      if (time >= before) {
        if (time - before < 2) view.played += time - before;
      } else if (Number.isFinite(length) && length - before < 1) {
        view.played += length - before + time;
        if (!view.completed) {
          view.completed = true;
          events.add("complete", view.video, lengthOf(slot));
        }
      }
      if (view.completed && !view.replayed && time >= Math.min(1, length / 2)) {
        view.replayed = true;
        events.add("replay", view.video);
      }
    }

    /**
     * Ends the view: its `watch` (how long it played, when it played at all) and, left within
     * 2 s (and not played to its end: a short clip seen whole is no skip), its `skip`.
     */
    function endView() {
      if (!view.video) return;
      tick();
      const {video, slot, played, since, completed} = view;
      Object.assign(view, {video: null, slot: null});
      delete root.dataset.viewing;
      const watched = Math.min(Math.round(played * 1000), DAY);
      if (watched > 0) events.add("watch", video, {watched_ms: watched, ...lengthOf(slot)});
      if (performance.now() - since < 2000 && !completed) events.add("skip", video);
    }

    // What the feed shows of each element (they move on a swipe, and hide with the tab).
    const watcher = new IntersectionObserver(entries => {
      for (const entry of entries) onScreen.set(entry.target, entry.isIntersecting ? entry.intersectionRatio : 0);
      updateView();
    }, {root, threshold: [0, 0.6, 1]});
    for (const slot of Object.values(slots)) watcher.observe(slot);

    /** The waits before each new try of a clip that failed; then the page says it cannot play. */
    const RETRY_WAITS = [0, 1000, 2000, 4000, 8000];

    /**
     * A clip that fails: its signed link may have expired, or the server may be away for a moment.
     * Reads the video again (`GET /videos/{id}`: fresh links) and loads the element again, up to
     * RETRY_WAITS.length times with a growing wait, then says why. The count goes on across the
     * element's errors until it has played 30 s without one; `again` (the element has become
     * current) starts it anew. A newer call for the element stops an older one.
     */
    async function failed(slot, {again = false} = {}) {
      const index = Number(slot.dataset.index);
      const video = state.videos[index];
      if (!video || !slot.hasAttribute("src")) return;
      const id = String(video.id);
      let recovery = state.recoveries.get(slot);
      const playedWell = recovery?.playedAt && performance.now() - recovery.playedAt > 30000;
      if (again || !recovery || recovery.index !== index || playedWell) recovery = {index, tries: 0, playedAt: 0};
      // A new object: a call still waiting on the old one sees it replaced and stops.
      recovery = {...recovery, playedAt: 0};
      state.recoveries.set(slot, recovery);
      const stale = () => state.recoveries.get(slot) !== recovery || slot.dataset.index !== String(index);
      let reason = null;
      while (recovery.tries < RETRY_WAITS.length) {
        await sleep(RETRY_WAITS[recovery.tries++]);
        if (stale()) return;
        try {
          const fresh = await getJSON(`/videos/${encodeURIComponent(id)}`, {quiet: true});
          if (stale()) return;
          Object.assign(video, fresh);
          const same = slot.getAttribute("src") === video.video;
          delete slot.dataset.index;
          bind(slot, index);
          if (same) slot.load();
          if (slot === slots.current) play();
          return;
        } catch (error) {
          reason = error;
          // Not there any more, or not for this token: asking again will not change that.
          if ([401, 403, 404, 410].includes(error.status)) break;
        }
      }
      if (stale() || slot !== slots.current) return;
      const why = reason ? reason.message : await whyUnplayable(slot, video);
      if (!stale() && slot === slots.current) toast(`Video ${id} cannot be played: ${why}`);
    }

    /**
     * Why `slot` cannot play `video`, in words. The element only says "format error" for a clip
     * it could not even fetch, so a clip of this server is asked for once more, for the answer.
     */
    async function whyUnplayable(slot, video) {
      const url = new URL(video.video, location.href);
      if (url.origin === location.origin) {
        try {
          const response = await fetch(url, {headers: {...authorization(url), Range: "bytes=0-0"}, cache: "no-store"});
          if (!response.ok) {
            const {detail, problem} = problemOf(response.status, response.statusText, await response.text());
            return `its link answers ${problem ? `${response.status}: ${detail}` : detail}`;
          }
        } catch (error) {
          return `the server did not answer (${error.message})`;
        }
      }
      const code = slot.error?.code;
      const what = {
        [MediaError.MEDIA_ERR_NETWORK]: "the connection was lost while loading it",
        [MediaError.MEDIA_ERR_DECODE]: "the browser could not decode it",
        [MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED]: "the browser cannot play it (or could not fetch it)",
      }[code] || `media error ${code}`;
      return slot.error?.message ? `${what}: ${slot.error.message}` : what;
    }

    for (const slot of Object.values(slots)) {
      slot.addEventListener("error", () => failed(slot));
      slot.addEventListener("loadeddata", () => {
        const recovery = state.recoveries.get(slot);
        if (recovery) recovery.playedAt = performance.now();
      });
      // A portrait clip fills the screen as the apps show it; any other keeps its whole picture.
      slot.addEventListener("loadedmetadata", () => {
        slot.dataset.fit = slot.videoHeight > slot.videoWidth ? "cover" : "contain";
      });
      slot.addEventListener("emptied", () => delete slot.dataset.fit);
      slot.addEventListener("pause", () => { if (slot === slots.current) renderPaused(); });
      slot.addEventListener("timeupdate", () => { if (view.slot === slot) tick(); });
    }

    // Swipes: a vertical pointer drag (touch, pen or mouse); a tap toggles play.
    let drag = null;
    root.addEventListener("pointerdown", event => {
      if (event.button !== 0 || event.target.closest("button, a, input, textarea, select, .sheet")) return;
      drag = {id: event.pointerId, y: event.clientY, time: performance.now(), dy: 0};
      root.setPointerCapture(event.pointerId);
    });
    root.addEventListener("pointermove", event => {
      if (!drag || event.pointerId !== drag.id) return;
      drag.dy = event.clientY - drag.y;
      const atEnd = (drag.dy > 0 && state.index === 0) || (drag.dy < 0 && state.index >= state.videos.length - 1);
      stage.classList.add("dragging");
      stage.style.setProperty("--drag", `${atEnd ? drag.dy / 3 : drag.dy}px`);
    });
    const endDrag = event => {
      if (!drag || event.pointerId !== drag.id) return;
      const {dy, time} = drag;
      drag = null;
      stage.classList.remove("dragging");
      stage.style.setProperty("--drag", "0px");
      const speed = Math.abs(dy) / Math.max(1, performance.now() - time);
      if (event.type === "pointerup" && Math.abs(dy) < 6) {
        togglePlay();
      } else if (Math.abs(dy) > root.clientHeight * 0.18 || (Math.abs(dy) > 30 && speed > 0.5)) {
        move(dy < 0 ? 1 : -1);
      }
    };
    root.addEventListener("pointerup", endDrag);
    root.addEventListener("pointercancel", endDrag);

    // The wheel: one move per gesture, a gesture ending after 200 ms without wheel events (a
    // trackpad's flick sends many, its inertia more).
    const wheel = {sum: 0, locked: false, timer: 0};
    root.addEventListener("wheel", event => {
      event.preventDefault();
      clearTimeout(wheel.timer);
      wheel.timer = setTimeout(() => Object.assign(wheel, {sum: 0, locked: false}), 200);
      if (wheel.locked) return;
      wheel.sum += event.deltaMode === WheelEvent.DOM_DELTA_LINE ? event.deltaY * 16 : event.deltaY;
      if (Math.abs(wheel.sum) >= 40) {
        wheel.locked = true;
        move(wheel.sum > 0 ? 1 : -1);
      }
    }, {passive: false});

    $("#mute").addEventListener("click", () => setMuted(!state.muted));
    document.addEventListener("visibilitychange", () => {
      if (document.hidden) slots.current.pause(); else resume();
      // A hidden page may never be shown again (a phone may end it): its view ends, and its events go now.
      updateView();
      if (document.hidden) events.flush({keepalive: true});
    });
    window.addEventListener("pagehide", () => {
      endView();
      events.flush({keepalive: true});
    });

    /** What the feed says when it has no video: that its read failed, or what the source holds. */
    function renderEmpty() {
      const none = {
        "for-you": "Nothing for you yet: For You picks among the posts you may see, and has none to show.",
        following: "No posts from people you follow yet: follow someone from one of their posts or their profile.",
        all: "The feed has no videos.",
      }[state.source];
      $("#feed-empty-text").textContent = state.failed ? `The feed could not be read: ${state.failed.message}` : none;
      $("#feed-retry").hidden = !state.failed;
    }

    async function start() {
      const epoch = state.epoch;
      state.failed = null;
      $("#feed-retry").hidden = true;
      await loadMore();
      if (epoch !== state.epoch) return; // another source since
      if (!state.videos.length) renderEmpty();
      show();
    }

    /** "Not interested", on a post of For You: the server is told at once, and the post leaves the list. */
    async function notInterested() {
      const video = current(), button = $("#not-interested");
      if (state.source !== "for-you" || !isPost(video)) return;
      const had = document.activeElement === button;
      events.add("not_interested", video);
      const removed = remove(video);
      // After the view's end (remove ends it at once): its watch goes in the same batch.
      events.flush();
      toast("Not interested: For You will not show it again", "info");
      await removed;
      // The last one gone, the button with it: the focus goes to the feed, not <body>.
      if (had && button.hidden) root.focus({preventScroll: true});
    }

    for (const [name, button] of Object.entries(BUTTONS)) button.addEventListener("click", () => setSource(name));
    $("#not-interested").addEventListener("click", notInterested);
    renderSource();

    $("#feed-retry").addEventListener("click", async () => {
      await start();
      // Read: the button went away with the message; the focus goes to the feed, not <body>.
      if ($("#feed-empty").hidden && [$("#feed-retry"), document.body].includes(document.activeElement)) {
        root.focus({preventScroll: true});
      }
    });

    return {start, move, togglePlay, setMuted, renderOverlay, suspend, resume, current, setSource, notInterested, endView,
            reload() { return setSource(state.source); },
            get muted() { return state.muted; }, get count() { return state.videos.length; }};
  })();

  /** 1234 as "1.2K", as the apps show counts. */
  function compact(count) {
    if (count < 1000) return String(count);
    if (count < 1e6) return `${(count / 1e3).toFixed(count < 1e4 ? 1 : 0)}K`;
    return `${(count / 1e6).toFixed(1)}M`;
  }

  // ---------------------------------------------------------------- events

  /**
   * For You's events (POST /events): what the player showed and played (`impression`, `watch`,
   * `complete`, `replay`, `skip`) and "Not interested" (`not_interested`). Each event gets its id
   * when it is made; events wait in a queue and go in batches (at most 100), one at a time,
   * every 5 s; a batch that failed (no answer, 408, 429, 5xx) is sent again as it was, the same
   * ids (the server counts an id it has seen once), after 5, 10, 20, 40, then 60 s; one the
   * server refuses otherwise would never be taken, and is dropped. When the page is hidden or
   * left, what is waiting goes at once with fetch's `keepalive`, which outlives the page (a batch
   * on its way already goes again: the same ids). A server away for long keeps the newest 1,000.
   * With no user (an open server with nobody named, or a token that names none), the events
   * name this browser's device id, made once and kept in storage; For You's pages name it too.
   * `#feed`'s data-events-pending says how many are not yet taken, data-events-accepted how many
   * the server took.
   */
  const events = (() => {
    const EVERY = 5000, BATCH = 100, KEEP = 1000;
    const DEVICE_KEY = "feed.device";
    const mark = $("#feed");
    const state = {queue: [], batches: [], sending: false, again: false, timer: 0, failures: 0, retryAfter: 0, accepted: 0, device: null};

    /** The device a request names: this browser's when the page acts as no user, else null. */
    function device() {
      if (me()) return null;
      if (!state.device) {
        state.device = storage.get(DEVICE_KEY) || uuid();
        storage.set(DEVICE_KEY, state.device);
      }
      return state.device;
    }

    const pending = () => state.queue.length + state.batches.reduce((sum, batch) => sum + batch.events.length, 0);

    function render() {
      mark.dataset.eventsPending = String(pending());
      mark.dataset.eventsAccepted = String(state.accepted);
    }

    /** Sends the queue's first batch after `wait` ms, unless a send is due sooner already. */
    function schedule(wait) {
      if (!state.timer) state.timer = setTimeout(() => { state.timer = 0; flush(); }, wait);
    }

    /** Queues a `type` event about post `video`, with `fields` (watched_ms, duration_ms). */
    function add(type, video, fields = {}) {
      const event = {id: uuid(), type, video: Number(video.id), at: new Date().toISOString(), ...fields};
      const named = device();
      if (named) event.device = named;
      state.queue.push(event);
      // A server away for long: the oldest go (a batch on its way stays whole).
      while (pending() > KEEP && state.queue.length > 1) state.queue.shift();
      render();
      schedule(EVERY);
    }

    /**
     * Sends `batch`: true once the server took it (it leaves the list), false when it failed (it
     * stays, to go again), or when the server refused it (dropped).
     */
    async function send(batch, keepalive) {
      if (keepalive) batch.keptAlive = true;
      try {
        const response = await api("/events", {method: "POST", json: batch.events, keepalive, quiet: true});
        const answer = await response.json().catch(() => ({}));
        const at = state.batches.indexOf(batch);
        if (at >= 0) {
          state.batches.splice(at, 1);
          state.accepted += Number(answer.accepted) || 0;
        }
        return true;
      } catch (error) {
        batch.keptAlive = false;
        const again = error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
        if (!again && state.batches.includes(batch)) state.batches.splice(state.batches.indexOf(batch), 1);
        state.retryAfter = error.retryAfter || 0;
        return false;
      } finally {
        render();
      }
    }

    /** Sends what waits: the first batch now; `keepalive` (the page hidden or left), all of them now, outliving the page. */
    function flush({keepalive = false} = {}) {
      while (state.queue.length) state.batches.push({events: state.queue.splice(0, BATCH)});
      render();
      if (keepalive) {
        for (const batch of state.batches) if (!batch.keptAlive) send(batch, true);
        return;
      }
      if (state.sending) {
        state.again = true;
        return;
      }
      const batch = state.batches[0];
      if (!batch) return;
      clearTimeout(state.timer);
      state.timer = 0;
      state.sending = true;
      state.again = false;
      send(batch, false).then(taken => {
        state.sending = false;
        if (taken || !state.batches.includes(batch)) {
          state.failures = 0;
          // More waiting (a "Not interested" while this one was out, or more than a batch): at once.
          if (state.again || state.batches.length > 0) flush();
          return;
        }
        // The wait before the next try is this one, whatever was queued since.
        state.failures += 1;
        clearTimeout(state.timer);
        state.timer = 0;
        schedule(state.retryAfter ? state.retryAfter * 1000 : Math.min(EVERY * 2 ** (state.failures - 1), 60000));
      });
    }

    /** Drops what waits (the page acts as someone else now: flush it first). */
    function forget() {
      Object.assign(state, {queue: [], batches: [], failures: 0});
      clearTimeout(state.timer);
      state.timer = 0;
      render();
    }

    render();
    return {add, flush, forget, device};
  })();

  // ---------------------------------------------------------------- marks

  const marks = {
    liked: new Set(),
    bookmarked: new Set(),

    async load() {
      const [likes, bookmarks] = await Promise.all([
        getJSON("/likes").catch(() => ({videos: []})),
        getJSON("/bookmarks").catch(() => ({videos: []})),
      ]);
      this.liked = new Set((likes.videos || []).map(video => String(video.id)));
      this.bookmarked = new Set((bookmarks.videos || []).map(video => String(video.id)));
      player.renderOverlay();
    },

    /** Likes or bookmarks the current video, or takes it off; the server's answer wins. */
    async toggle(kind) {
      const video = player.current();
      if (!video) return;
      if (isPost(video)) {
        if (kind === "like") await this.likePost(video);
        return; // a post takes no bookmark
      }
      const id = String(video.id);
      const set = kind === "like" ? this.liked : this.bookmarked;
      const on = !set.has(id);
      if (on) set.add(id); else set.delete(id);
      player.renderOverlay();
      try {
        const answer = await getJSON(`/videos/${encodeURIComponent(id)}/${kind}`, {method: on ? "PUT" : "DELETE"});
        for (const [flag, target] of [[answer.liked, this.liked], [answer.bookmarked, this.bookmarked]]) {
          if (flag === true) target.add(id); else if (flag === false) target.delete(id);
        }
      } catch {
        if (on) set.delete(id); else set.add(id);
      }
      player.renderOverlay();
    },

    /** Likes a post, or takes the like off: its `liked` and `likes` are the server's answer's. */
    async likePost(video) {
      if (video.liking) return;
      const before = {liked: video.liked === true, likes: Number(video.likes) || 0};
      const on = !before.liked;
      Object.assign(video, {liking: true, liked: on, likes: Math.max(0, before.likes + (on ? 1 : -1))});
      player.renderOverlay();
      try {
        const answer = await getJSON(`/videos/${encodeURIComponent(video.id)}/like`, {method: on ? "PUT" : "DELETE"});
        if (typeof answer.liked === "boolean") video.liked = answer.liked;
        if (Number.isFinite(answer.likes)) video.likes = answer.likes;
      } catch {
        Object.assign(video, before);
      } finally {
        video.liking = false;
      }
      player.renderOverlay();
    },
  };
  $("#like").addEventListener("click", () => marks.toggle("like"));
  $("#bookmark").addEventListener("click", () => marks.toggle("bookmark"));

  // ---------------------------------------------------------------- comments

  /**
   * The server's comments: one list for the whole feed (GET /comments pages it, newest first),
   * a live stream (GET /comments/live, `event: comment`), and POST /comments.
   */
  const comments = (() => {
    const PAGE = 30;
    const sheet = $("#comments");
    const list = $("#comment-list");
    const state = {cursor: null, count: 0, more: false, live: null, liveBlocked: false, retry: 0};

    function item(comment) {
      // Focusable by the page only: where the focus goes when "Older comments" goes away.
      return element("li", {"data-id": comment.id, tabindex: -1}, element("b", {text: comment.username}), comment.comment);
    }

    /** The count on the comments button (while a video of the feed file is shown: a post has its own) and "Older comments". */
    function renderCount() {
      $("#comments-more").hidden = !state.more;
      if (isPost(player.current())) return;
      $("#comment-count").textContent = compact(state.count) + (state.more ? "+" : "");
      $("#comments-open").setAttribute("aria-label", `Comments: ${state.count}${state.more ? " or more" : ""}`);
    }

    async function load(reset) {
      if (reset) {
        state.cursor = null;
        state.count = 0;
        list.replaceChildren();
      }
      const query = state.cursor ? `cursor=${encodeURIComponent(state.cursor)}` : `limit=${PAGE}`;
      try {
        const page = await getJSON(`/comments?${query}`);
        const items = (page.comments || []).map(item);
        list.append(...items);
        state.count += items.length;
        state.cursor = page.next_cursor || null;
        state.more = Boolean(state.cursor);
        renderCount();
        return items;
      } catch {
        return []; // reported
      }
    }

    /** "Older comments": the next page; on the last one, the button goes and the focus to what came. */
    async function older() {
      const button = $("#comments-more");
      const had = document.activeElement === button;
      const added = await load(false);
      if (button.hidden && had && [button, document.body].includes(document.activeElement)) {
        (added[0] || $("#comment-text")).focus();
      }
    }

    function open(show) {
      sheet.hidden = !show;
      $("#comments-open").setAttribute("aria-expanded", String(show));
      if (show) $("#comment-text").focus(); else $("#comments-open").focus();
    }

    /** Follows /comments/live while the feed is shown: the newest few float over the video. */
    function startLive() {
      if (state.live || state.liveBlocked || activeTab !== "feed") return;
      const controller = new AbortController();
      state.live = controller;
      const shown = $("#live-comments");
      readEvents("/comments/live?interval=2", (type, data) => {
        if (type !== "comment") return;
        let comment;
        try { comment = JSON.parse(data); } catch { return; }
        state.retry = 0;
        shown.append(element("li", {}, element("b", {text: comment.username}), comment.comment));
        while (shown.children.length > 3) shown.firstElementChild.remove();
      }, controller.signal).then(() => { throw new RequestError(0, "the stream ended"); }).catch(error => {
        if (state.live !== controller) return;
        state.live = null;
        if (error.name === "AbortError") return;
        // 404: a server older than the stream that waits for a first comment (a post starts it);
        // 401/403: the token decides; else try again.
        if ([401, 403, 404].includes(error.status)) {
          state.liveBlocked = true;
          return;
        }
        state.retry = Math.min(state.retry + 1, 6);
        setTimeout(startLive, 1000 * 2 ** state.retry);
      });
    }

    function stopLive() {
      state.live?.abort();
      state.live = null;
    }

    async function post(event) {
      event.preventDefault();
      const username = $("#comment-user").value.trim();
      const text = $("#comment-text").value;
      if (!username || !text.trim()) return;
      const button = $("#comment-submit");
      // Not `disabled`: a disabled button drops the focus (to <body>, where keys move the feed).
      if (button.getAttribute("aria-disabled") === "true") return;
      button.setAttribute("aria-disabled", "true");
      try {
        const comment = await getJSON("/comments", {method: "POST", json: {username, comment: text}});
        storage.set("feed.username", username);
        list.prepend(item(comment));
        state.count += 1;
        renderCount();
        $("#comment-text").value = "";
        if (state.liveBlocked) {
          state.liveBlocked = false;
          startLive();
        }
        // Ready for the next one.
        if (!sheet.hidden && (document.activeElement === button || document.activeElement === document.body)) {
          $("#comment-text").focus();
        }
      } catch { /* reported */ } finally {
        button.removeAttribute("aria-disabled");
      }
    }

    $("#comment-user").value = storage.get("feed.username") || "";
    $("#comment-form").addEventListener("submit", post);
    $("#comments-close").addEventListener("click", () => open(false));
    $("#comments-more").addEventListener("click", older);
    // Escape closes the sheet wherever the focus is (a click on the video takes it out of the sheet).
    document.addEventListener("keydown", event => {
      if (event.key !== "Escape" || sheet.hidden || event.defaultPrevented || activeTab !== "feed" || $("dialog[open]")) return;
      event.preventDefault();
      open(false);
    });

    return {
      load, startLive, stopLive, open, renderCount, get isOpen() { return !sheet.hidden; },
      restart() { state.liveBlocked = false; stopLive(); startLive(); },
    };
  })();

  // ---------------------------------------------------------------- people

  /**
   * Following: whom the page's user follows, as GET /users/{name} said (`followed`), asked once
   * per author shown; PUT/DELETE /users/{name}/follow (204) changes it. Every Follow button
   * (the feed's, a profile's) shows the same state.
   */
  const people = (() => {
    const followed = new Map(); // name → true or false
    const asked = new Set(); // once per author, whatever the answer (a refusal is not asked again on every swipe)
    const busy = new Set();

    function learn(name) {
      if (followed.has(name) || asked.has(name)) return;
      asked.add(name);
      getJSON(`/users/${encodeURIComponent(name)}`, {quiet: true})
        .then(found => know(name, found.followed === true), () => { /* the button says Follow: PUT is idempotent */ });
    }

    function know(name, on) {
      if (busy.has(name) || followed.get(name) === on) return;
      followed.set(name, on);
      changed(name);
    }

    function changed(name) {
      player.renderOverlay();
      profile.followChanged(name);
    }

    /** `button` as the Follow button of `name` (null: hidden). */
    function render(button, name) {
      button.hidden = !name;
      if (!name) return;
      learn(name);
      const on = followed.get(name) === true;
      button.dataset.user = name;
      button.dataset.known = String(followed.has(name));
      button.setAttribute("aria-pressed", String(on));
      button.textContent = on ? "Following" : "Follow";
      button.setAttribute("aria-label", on ? `Following ${name}: unfollow` : `Follow ${name}`);
      // Not `disabled` while the request is out: a disabled button drops the focus.
      if (busy.has(name)) button.setAttribute("aria-disabled", "true"); else button.removeAttribute("aria-disabled");
    }

    /** Follows `name`, or stops; the buttons show it at once, and go back if the server refuses. */
    async function toggle(name) {
      if (!name || busy.has(name)) return;
      const was = followed.get(name);
      const on = was !== true;
      busy.add(name);
      followed.set(name, on);
      changed(name);
      try {
        await api(`/users/${encodeURIComponent(name)}/follow`, {method: on ? "PUT" : "DELETE"});
      } catch {
        if (was === undefined) followed.delete(name); else followed.set(name, was);
      } finally {
        busy.delete(name);
      }
      changed(name);
      profile.countsChanged(name);
    }

    $("#follow").addEventListener("click", event => toggle(event.currentTarget.dataset.user));
    $("#video-author").addEventListener("click", event => profile.open(event.currentTarget.dataset.user));

    return {render, toggle, know, forget() { followed.clear(); asked.clear(); }};
  })();

  /** A time as the apps show it: "now", "5m", "3h", "2d", then the date. */
  function ago(value) {
    const time = Date.parse(value);
    if (!Number.isFinite(time)) return "";
    const seconds = Math.max(0, (Date.now() - time) / 1000);
    if (seconds < 60) return "now";
    if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
    if (seconds < 86400) return `${Math.floor(seconds / 3600)}h`;
    if (seconds < 7 * 86400) return `${Math.floor(seconds / 86400)}d`;
    return new Date(time).toLocaleDateString();
  }

  // ---------------------------------------------------------------- threads

  /**
   * A post's comments in a sheet: GET /videos/{id}/comments (newest first, "More comments" by
   * its cursor), each with its replies' count; "N replies" reads GET /comments/{id}/replies
   * under it. The form posts a comment (POST /videos/{id}/comments), or with "Reply" a reply
   * (`parent`). One's own comments, and any on one's own post, can be deleted (DELETE /comments/{id}).
   * It follows the feed: another post shown reads that post's; a video of the feed file closes it
   * (that one has the feed-wide sheet).
   */
  const threads = (() => {
    const PAGE = 20;
    const sheet = $("#post-comments");
    const list = $("#post-comment-list");
    const state = {post: null, cursor: null, loading: null, epoch: 0, replyTo: null};

    const repliesLabel = (count, open) => (open ? "Hide replies" : count === 1 ? "1 reply" : `${compact(count)} replies`);

    function item(comment) {
      const top = comment.parent === null || comment.parent === undefined;
      const mine = me() !== null && (comment.username === me() || state.post?.author === me());
      return element("li", {class: "comment", "data-id": comment.id, "data-replies": Number(comment.replies) || 0, tabindex: -1},
        element("button", {type: "button", class: "who", "data-action": "profile", "aria-haspopup": "dialog", text: comment.username}),
        element("p", {class: "comment-text", text: comment.comment}),
        element("div", {class: "comment-meta"},
          element("time", {datetime: comment.created_at, text: ago(comment.created_at)}),
          top ? element("button", {type: "button", class: "link", "data-action": "reply", "aria-label": `Reply to ${comment.username}`, text: "Reply"}) : null,
          top ? element("button", {type: "button", class: "link", "data-action": "replies", "aria-expanded": "false",
                                   hidden: !(Number(comment.replies) > 0), text: repliesLabel(Number(comment.replies) || 0, false)}) : null,
          mine ? element("button", {type: "button", class: "link", "data-action": "delete", "aria-label": "Delete this comment", text: "Delete"}) : null),
        top ? element("ol", {class: "replies", hidden: true, "aria-label": `Replies to ${comment.username}`}) : null,
        top ? element("button", {type: "button", class: "link more-replies", "data-action": "more-replies", hidden: true, text: "More replies"}) : null);
    }

    const shown = (box, id) => [...box.children].some(child => child.dataset.id === String(id));

    /** Reads a page of the post's comments; `reset` from the newest. The items it added. */
    function load(reset) {
      if (!state.post) return Promise.resolve([]);
      if (state.loading && !reset) return state.loading;
      if (reset) {
        state.epoch++;
        state.cursor = null;
        list.replaceChildren();
        delete sheet.dataset.loaded;
        $("#post-comments-more").hidden = true;
        $("#post-comments-empty").hidden = true;
      }
      const epoch = state.epoch, post = state.post;
      const run = (async () => {
        const cursor = state.cursor ? `&cursor=${encodeURIComponent(state.cursor)}` : "";
        try {
          const page = await getJSON(`/videos/${encodeURIComponent(post.id)}/comments?limit=${PAGE}${cursor}`);
          if (epoch !== state.epoch) return [];
          const items = (page.comments || []).filter(comment => !shown(list, comment.id)).map(item);
          list.append(...items);
          state.cursor = page.next_cursor || null;
          $("#post-comments-more").hidden = !state.cursor;
          $("#post-comments-empty").hidden = list.children.length > 0;
          $("#post-comments-failed").hidden = true;
          sheet.dataset.loaded = String(post.id);
          return items;
        } catch (error) {
          if (epoch === state.epoch && error.name !== "AbortError") {
            $("span", $("#post-comments-failed")).textContent = `The comments could not be read: ${error.message}`;
            $("#post-comments-failed").hidden = false;
          }
          return [];
        } finally {
          if (state.loading === run) state.loading = null;
        }
      })();
      state.loading = run;
      return run;
    }

    /** Sets comment `li`'s replies' count (by `delta`), and its button's words. */
    function countReplies(li, delta) {
      const count = Math.max(0, (Number(li.dataset.replies) || 0) + delta);
      li.dataset.replies = String(count);
      const button = $(":scope > .comment-meta [data-action=replies]", li);
      const open = !$(":scope > ol.replies", li).hidden;
      button.hidden = count === 0 && !open;
      button.textContent = repliesLabel(count, open);
    }

    /** Reads a page of comment `li`'s replies under it; `reset` from the newest. */
    async function loadReplies(li, reset) {
      const box = $(":scope > ol.replies", li);
      const cursor = !reset && li.dataset.cursor ? `&cursor=${encodeURIComponent(li.dataset.cursor)}` : "";
      try {
        const page = await getJSON(`/comments/${encodeURIComponent(li.dataset.id)}/replies?limit=${PAGE}${cursor}`);
        if (reset) box.replaceChildren();
        const added = (page.comments || []).filter(reply => !shown(box, reply.id)).map(item);
        box.append(...added);
        li.dataset.repliesLoaded = "true";
        if (page.next_cursor) li.dataset.cursor = page.next_cursor; else delete li.dataset.cursor;
        $(":scope > .more-replies", li).hidden = !page.next_cursor || box.hidden;
        return added;
      } catch {
        return []; // reported
      }
    }

    /** Shows comment `li`'s replies (read once; `added`, one just posted, at the top after that). */
    async function openReplies(li, added = null) {
      const box = $(":scope > ol.replies", li);
      if (!li.dataset.repliesLoaded) await loadReplies(li, true);
      else if (added && !shown(box, added.id)) box.prepend(item(added));
      box.hidden = false;
      $(":scope > .more-replies", li).hidden = !li.dataset.cursor;
      $(":scope > .comment-meta [data-action=replies]", li).setAttribute("aria-expanded", "true");
      countReplies(li, 0);
    }

    function closeReplies(li) {
      $(":scope > ol.replies", li).hidden = true;
      $(":scope > .more-replies", li).hidden = true;
      $(":scope > .comment-meta [data-action=replies]", li).setAttribute("aria-expanded", "false");
      countReplies(li, 0);
    }

    /** The form answers comment `li` (null: a comment on the post). */
    function replyTo(li) {
      state.replyTo = li;
      const name = li ? $(":scope > .who", li).textContent : "";
      $("#reply-to").hidden = !li;
      $("#reply-to-text").textContent = li ? `Replying to @${name}` : "";
      $("#post-comment-text").placeholder = li ? `Reply to @${name}…` : "Add a comment…";
    }

    async function post(event) {
      event.preventDefault();
      const video = state.post;
      const text = $("#post-comment-text").value;
      if (!video || !text.trim()) return;
      const body = {comment: text};
      // An open server with nobody named: the body names the commenter, as on the feed-wide sheet.
      if (!me()) {
        const username = $("#post-comment-user").value.trim();
        if (username) {
          body.username = username;
          storage.set("feed.username", username);
        }
      }
      const parent = state.replyTo;
      if (parent) body.parent = Number(parent.dataset.id);
      const button = $("#post-comment-submit");
      // Not `disabled`: a disabled button drops the focus (to <body>, where keys move the feed).
      if (button.getAttribute("aria-disabled") === "true") return;
      button.setAttribute("aria-disabled", "true");
      try {
        const comment = await getJSON(`/videos/${encodeURIComponent(video.id)}/comments`, {method: "POST", json: body});
        video.comments = (Number(video.comments) || 0) + 1;
        player.renderOverlay();
        $("#post-comment-text").value = "";
        if (video === state.post) {
          if (parent && parent.isConnected) {
            countReplies(parent, 1);
            await openReplies(parent, comment);
          } else if (!parent) {
            list.prepend(item(comment));
            $("#post-comments-empty").hidden = true;
          }
          replyTo(null);
        }
        // Ready for the next one.
        if (!sheet.hidden && [button, document.body].includes(document.activeElement)) $("#post-comment-text").focus();
      } catch { /* reported */ } finally {
        button.removeAttribute("aria-disabled");
      }
    }

    /** Deletes comment `li` (and its replies); the focus goes to the comment beside it. */
    async function remove(li) {
      const video = state.post;
      try {
        await api(`/comments/${encodeURIComponent(li.dataset.id)}`, {method: "DELETE"});
      } catch {
        return; // reported
      }
      const parent = li.parentElement.closest("li.comment");
      const gone = 1 + (parent ? 0 : Number(li.dataset.replies) || 0);
      video.comments = Math.max(0, (Number(video.comments) || 0) - gone);
      const next = li.nextElementSibling || li.previousElementSibling || parent;
      if (state.replyTo === li) replyTo(null);
      li.remove();
      if (parent) countReplies(parent, -1);
      $("#post-comments-empty").hidden = list.children.length > 0;
      player.renderOverlay();
      (next || $("#post-comment-text")).focus();
    }

    function renderForm() {
      $("#post-comment-name").hidden = Boolean(me());
      $("#post-comment-user").value ||= storage.get("feed.username") || "";
    }

    /** Opens the sheet on post `video`, its comments read anew. */
    function open(video) {
      state.post = video;
      replyTo(null);
      renderForm();
      sheet.hidden = false;
      load(true);
      player.renderOverlay();
      $("#post-comment-text").focus();
    }

    function close({focus = true} = {}) {
      if (sheet.hidden) return;
      const inside = sheet.contains(document.activeElement);
      sheet.hidden = true;
      replyTo(null);
      player.renderOverlay();
      if (focus || inside) $("#comments-open").focus();
    }

    /** The feed shows `video` now: an open sheet turns to it when it is another post, and closes for anything else. */
    function follow(video) {
      if (sheet.hidden) return;
      if (!isPost(video)) close({focus: false});
      else if (String(video.id) !== String(state.post?.id)) open(video);
    }

    list.addEventListener("click", event => {
      const action = event.target.closest("[data-action]");
      const li = action?.closest("li.comment");
      if (!action || !li) return;
      const what = action.dataset.action;
      if (what === "profile") profile.open(action.textContent);
      else if (what === "reply") {
        replyTo(li);
        $("#post-comment-text").focus();
      } else if (what === "replies") {
        if ($(":scope > ol.replies", li).hidden) openReplies(li); else closeReplies(li);
      } else if (what === "more-replies") {
        loadReplies(li, false).then(added => { if (!action.isConnected || action.hidden) (added[0] ? $(`li[data-id="${added[0].dataset.id}"]`, li) : li)?.focus(); });
      } else if (what === "delete") remove(li);
    });
    $("#post-comment-form").addEventListener("submit", post);
    $("#post-comments-close").addEventListener("click", () => close());
    $("#reply-cancel").addEventListener("click", () => {
      replyTo(null);
      $("#post-comment-text").focus();
    });
    $("#post-comments-more").addEventListener("click", async () => {
      const button = $("#post-comments-more");
      const had = document.activeElement === button;
      const added = await load(false);
      if (button.hidden && had && [button, document.body].includes(document.activeElement)) (added[0] || $("#post-comment-text")).focus();
    });
    $("#post-comments-failed [data-retry]").addEventListener("click", () => load(true).then(() => $("#post-comment-text").focus()));
    // Escape closes the sheet wherever the focus is, as the feed-wide one.
    document.addEventListener("keydown", event => {
      if (event.key !== "Escape" || sheet.hidden || event.defaultPrevented || activeTab !== "feed" || $("dialog[open]")) return;
      event.preventDefault();
      close();
    });

    return {open, close, follow, get isOpen() { return !sheet.hidden; }, get post() { return state.post; }};
  })();

  /** The comments button (and `c`): a post's own sheet, or the feed-wide one for a video of the feed file. */
  function toggleComments() {
    const video = player.current();
    if (isPost(video)) {
      if (comments.isOpen) comments.open(false);
      if (threads.isOpen) threads.close(); else threads.open(video);
    } else {
      threads.close({focus: false});
      comments.open(!comments.isOpen);
    }
  }
  $("#comments-open").addEventListener("click", toggleComments);

  // ---------------------------------------------------------------- profile

  /**
   * A user's profile in a dialog: GET /users/{name} (display name, @name, bio, followers,
   * following, videos, likes, whether one follows them), a Follow button (not on one's own), and
   * their posts as a grid of posters (GET /users/{name}/videos, "More videos" by its cursor); a
   * poster plays its post in the viewer.
   */
  const profile = (() => {
    const PAGE = 30;
    const dialog = $("#profile");
    const grid = $("#profile-grid");
    const state = {name: null, cursor: null, epoch: 0, loading: null};
    const COUNTS = ["followers", "following", "videos", "likes"];

    function renderFollow() {
      const button = $("#profile-follow");
      people.render(button, state.name && state.name !== me() ? state.name : null);
    }

    /** Reads the profile (again: its counts after a follow). */
    async function read() {
      const name = state.name, epoch = state.epoch;
      try {
        const found = await getJSON(`/users/${encodeURIComponent(name)}`, {quiet: true});
        if (epoch !== state.epoch) return;
        $("#profile-name").textContent = found.display_name || found.name;
        $("#profile-handle").textContent = `@${found.name}`;
        $("#profile-bio").textContent = found.bio || "";
        $("#profile-bio").hidden = !found.bio;
        const avatar = $("#profile-avatar");
        avatar.hidden = !found.avatar_url;
        if (found.avatar_url) avatar.src = found.avatar_url; else avatar.removeAttribute("src");
        for (const count of COUNTS) {
          const value = Number(found[count]) || 0;
          const cell = $(`#profile-${count}`);
          cell.textContent = compact(value);
          cell.dataset.count = String(value);
        }
        $("#profile-failed").hidden = true;
        dialog.dataset.loaded = found.name;
        people.know(name, found.followed === true);
        renderFollow();
      } catch (error) {
        if (epoch !== state.epoch || error.name === "AbortError") return;
        $("span", $("#profile-failed")).textContent = `${name}'s profile could not be read: ${error.message}`;
        $("#profile-failed").hidden = false;
      }
    }

    function tile(post) {
      const button = element("button", {
        type: "button", class: "roll-tile", "data-id": post.id,
        "aria-label": `Video ${post.id}: ${post.description || "no description"}, ${Number(post.likes) || 0} likes`,
      },
      element("img", {src: post.poster_url || post.thumbnail || "", alt: "", loading: "lazy", decoding: "async"}),
      element("span", {class: "badge"},
        element("span", {text: `♥ ${compact(Number(post.likes) || 0)}`}),
        element("span", {text: post.description || ""})));
      button.addEventListener("click", () => openViewer({id: post.id, title: post.description, url: post.video, poster_url: post.poster_url}));
      return element("li", {}, button);
    }

    /** Reads a page of their posts; `reset` from the newest. The tiles it added. */
    function videos(reset) {
      if (state.loading && !reset) return state.loading;
      if (reset) {
        state.cursor = null;
        grid.replaceChildren();
        $("#profile-more").hidden = true;
        $("#profile-empty").hidden = true;
      }
      const epoch = state.epoch, name = state.name;
      const run = (async () => {
        const cursor = state.cursor ? `&cursor=${encodeURIComponent(state.cursor)}` : "";
        try {
          const page = await getJSON(`/users/${encodeURIComponent(name)}/videos?limit=${PAGE}${cursor}`, {quiet: true});
          if (epoch !== state.epoch) return [];
          const known = new Set($$(".roll-tile", grid).map(button => button.dataset.id));
          const added = (page.videos || []).filter(post => !known.has(String(post.id))).map(tile);
          grid.append(...added);
          state.cursor = page.next_cursor || null;
          $("#profile-more").hidden = !state.cursor;
          $("#profile-empty").hidden = grid.children.length > 0;
          grid.dataset.loaded = name;
          return added;
        } catch {
          return []; // the profile's own read says why
        } finally {
          if (state.loading === run) state.loading = null;
        }
      })();
      state.loading = run;
      return run;
    }

    /** Opens the profile of `name`. */
    function open(name) {
      if (!name) return;
      state.name = name;
      state.epoch++;
      $("#profile-name").textContent = name;
      $("#profile-handle").textContent = `@${name}`;
      $("#profile-bio").textContent = "";
      $("#profile-avatar").hidden = true;
      $("#profile-failed").hidden = true;
      for (const count of COUNTS) {
        $(`#profile-${count}`).textContent = "–";
        delete $(`#profile-${count}`).dataset.count;
      }
      delete dialog.dataset.loaded;
      delete grid.dataset.loaded;
      renderFollow();
      player.suspend();
      if (!dialog.open) dialog.showModal();
      read();
      videos(true);
    }

    dialog.addEventListener("close", () => {
      state.name = null;
      state.epoch++;
      if (activeTab === "feed" && !$("dialog[open]")) player.resume();
    });
    $("#profile-follow").addEventListener("click", event => people.toggle(event.currentTarget.dataset.user));
    $("#profile-failed [data-retry]").addEventListener("click", () => { read(); videos(true); });
    $("#profile-more").addEventListener("click", async () => {
      const button = $("#profile-more");
      const had = document.activeElement === button;
      const added = await videos(false);
      if (button.hidden && had) ($(".roll-tile", added[0]) || $("#profile-close")).focus();
    });

    return {
      open,
      /** Whom one follows changed: the Follow button of an open profile shows it. */
      followChanged(name) { if (dialog.open && state.name === name) renderFollow(); },
      /** A follow was made or taken back: an open profile reads its counts again. */
      countsChanged(name) { if (dialog.open && state.name === name) read(); },
    };
  })();

  // Feed keys: ArrowDown/j next, ArrowUp/k previous, space play/pause, m sound, l like,
  // b bookmark, c comments. Not while typing, nor while a dialog is open.
  document.addEventListener("keydown", event => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || activeTab !== "feed") return;
    if ($("dialog[open]")) return;
    const target = event.target instanceof Element ? event.target : document.body;
    if (target.closest("input, textarea, select, [contenteditable=''], [contenteditable=true], .sheet")) return;
    const onButton = Boolean(target.closest("button, a"));
    const actions = {
      ArrowDown: () => player.move(1), j: () => player.move(1),
      ArrowUp: () => player.move(-1), k: () => player.move(-1),
      " ": onButton ? null : () => player.togglePlay(),
      m: () => player.setMuted(!player.muted),
      l: () => marks.toggle("like"),
      b: () => marks.toggle("bookmark"),
      c: toggleComments,
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });

  // ---------------------------------------------------------------- hls

  /** A playlist tag's attributes: `#EXT-X-PART:DURATION=0.3,URI="a.m4s"` → {DURATION: "0.3", URI: "a.m4s"}. */
  function tagAttributes(line) {
    const attributes = {};
    for (const [, name, value] of line.slice(line.indexOf(":") + 1).matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)) {
      attributes[name] = value.startsWith('"') ? value.slice(1, -1) : value;
    }
    return attributes;
  }

  /**
   * An LL-HLS media playlist as the live player reads it: `segments` in order, each with its
   * `msn`, `uri` (null for the one still in progress), `duration` (seconds) and `parts`
   * ({uri, duration, independent}); `map` (the init segment), `holdBack` (PART-HOLD-BACK, else
   * HOLD-BACK, else three part or segment targets) and `ended` (EXT-X-ENDLIST). URIs are
   * resolved against `base`, the playlist's own URL (signed links keep their query).
   */
  function parsePlaylist(text, base) {
    const playlist = {segments: [], map: null, holdBack: 0, ended: false};
    let sequence = 0, duration = 0, parts = [], partTarget = 0, target = 0;
    const resolve = uri => new URL(uri, base).href;
    for (const line of text.split(/\r?\n/).map(raw => raw.trim())) {
      if (!line) continue;
      if (!line.startsWith("#")) {
        playlist.segments.push({msn: sequence + playlist.segments.length, uri: resolve(line), duration, parts});
        duration = 0;
        parts = [];
        continue;
      }
      const tag = line.split(":", 1)[0], value = line.slice(tag.length + 1);
      if (tag === "#EXT-X-MEDIA-SEQUENCE") sequence = Number(value) || 0;
      else if (tag === "#EXT-X-TARGETDURATION") target = Number(value) || 0;
      else if (tag === "#EXTINF") duration = parseFloat(value) || 0;
      else if (tag === "#EXT-X-ENDLIST") playlist.ended = true;
      else if (tag === "#EXT-X-MAP") playlist.map = resolve(tagAttributes(line).URI);
      else if (tag === "#EXT-X-PART-INF") partTarget = Number(tagAttributes(line)["PART-TARGET"]) || 0;
      else if (tag === "#EXT-X-SERVER-CONTROL") {
        const control = tagAttributes(line);
        playlist.holdBack = Number(control["PART-HOLD-BACK"] || control["HOLD-BACK"]) || 0;
      } else if (tag === "#EXT-X-PART") {
        const part = tagAttributes(line);
        parts.push({uri: resolve(part.URI), duration: Number(part.DURATION) || 0, independent: part.INDEPENDENT === "YES"});
      }
    }
    if (parts.length) {
      const sum = parts.reduce((total, part) => total + part.duration, 0);
      playlist.segments.push({msn: sequence + playlist.segments.length, uri: null, duration: sum, parts});
    }
    playlist.holdBack ||= 3 * (partTarget || target || 1);
    return playlist;
  }

  /**
   * The codecs an fMP4 init segment names, as MSE wants them: `avc1.PPCCLL` from each H.264
   * track's avcC (profile, compatibility, level) and `mp4a.40.N` from each AAC track's esds
   * (its audio object type). Boxes are walked down moov/trak/mdia/minf/stbl/stsd.
   */
  function codecsOf(bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const name = at => String.fromCharCode(...bytes.subarray(at, at + 4));
    const hex = byte => byte.toString(16).padStart(2, "0").toUpperCase();
    const codecs = [];
    let entry = "";

    /** Calls `visit(type, start, end)` for each box in bytes from..<to (`start`: after its header). */
    function walk(from, to, visit) {
      for (let at = from; at + 8 <= to;) {
        let size = view.getUint32(at), header = 8;
        if (size === 1 && at + 16 <= to) {
          size = Number(view.getBigUint64(at + 8));
          header = 16;
        } else if (size === 0) {
          size = to - at;
        }
        if (size < header || at + size > to) return;
        visit(name(at + 4), at + header, at + size);
        at += size;
      }
    }

    /** `mp4a.40.N` from an esds box's payload: ES_Descriptor, DecoderConfigDescriptor, DecoderSpecificInfo. */
    function aac(start, end) {
      let at = start + 4, objectType = 0x40, audioType = 2; // after the version and flags
      while (at + 2 <= end) {
        const tag = bytes[at++];
        let size = 0;
        for (let count = 0; count < 4 && at < end; count++) {
          const byte = bytes[at++];
          size = (size << 7) | (byte & 0x7f);
          if (!(byte & 0x80)) break;
        }
        if (tag === 3) {
          const flags = bytes[at + 2];
          at += 3;
          if (flags & 0x80) at += 2;
          if (flags & 0x40) at += 1 + bytes[at];
          if (flags & 0x20) at += 2;
        } else if (tag === 4) {
          objectType = bytes[at];
          at += 13;
        } else if (tag === 5) {
          audioType = bytes[at] >> 3;
          if (audioType === 31) audioType = 32 + (((bytes[at] & 7) << 3) | (bytes[at + 1] >> 5));
          break;
        } else {
          at += size;
        }
      }
      return objectType === 0x40 ? `mp4a.40.${audioType}` : `mp4a.${objectType.toString(16)}`;
    }

    const containers = new Set(["moov", "trak", "mdia", "minf", "stbl"]);
    const visit = (type, start, end) => {
      if (containers.has(type)) walk(start, end, visit);
      else if (type === "stsd") walk(start + 8, end, visit); // version, flags, entry count
      else if (type === "avc1" || type === "avc3") {
        entry = type;
        walk(start + 78, end, visit); // the VisualSampleEntry's fields, then its boxes
      } else if (type === "mp4a") walk(start + 28, end, visit); // the AudioSampleEntry's fields
      else if (type === "avcC" && start + 4 <= end) codecs.push(`${entry}.${hex(bytes[start + 1])}${hex(bytes[start + 2])}${hex(bytes[start + 3])}`);
      else if (type === "esds") codecs.push(aac(start, end));
    };
    walk(0, bytes.length, visit);
    return codecs;
  }

  /**
   * Plays the LL-HLS media playlist at `url` in `video` through Media Source Extensions (Debian's
   * Chromium plays no HLS itself; a browser without MSE but with HLS of its own is given the URL).
   *
   * It reads the playlist, appends `init.mp4` to one SourceBuffer typed with the codecs the init
   * segment names, then media from the last independent part at least PART-HOLD-BACK behind the
   * live edge. From there it follows part by part, asking for the next part with a blocking
   * reload (`_HLS_msn`, `_HLS_part`), and takes a whole segment where its parts are no longer
   * listed. What has played is trimmed from the SourceBuffer; a play head that fell behind (a
   * stall, a hidden page) or before a gap is moved to the media. `onStatus(kind, text)` hears
   * "waiting", "playing", "ended" (EXT-X-ENDLIST, all of it appended) and "failed". `stop()`
   * aborts every request and lets the element go.
   */
  function playLive(video, url, onStatus) {
    const BEHIND = 10;  // seconds kept behind the play head…
    const TRIM = 20;    // …once this many more have piled up
    const LAG = 4;      // seconds past the hold-back the play head may fall before it jumps to the edge
    const controller = new AbortController();
    const {signal} = controller;
    const listeners = {
      playing: () => onStatus("playing"),
      waiting: () => keepUp(),
      error: () => {
        if (signal.aborted) return;
        controller.abort();
        onStatus("failed", `the browser could not play it (${video.error?.message || `media error ${video.error?.code}`})`);
      },
    };
    for (const [type, listener] of Object.entries(listeners)) video.addEventListener(type, listener);
    let source = null, objectURL = null, buffer = null, holdBack = 1, started = false;

    function stop() {
      controller.abort();
      for (const [type, listener] of Object.entries(listeners)) video.removeEventListener(type, listener);
      video.pause();
      video.removeAttribute("src");
      video.load();
      if (objectURL) URL.revokeObjectURL(objectURL);
    }

    /**
     * GET `target` as bytes, or with `text` as {text, url} (the URL it came from after any
     * redirect: what its URIs are relative to), with the token; a lost connection or a server
     * error is asked again (1, 2, 4 s).
     */
    async function get(target, text = false) {
      for (let attempt = 0; ; attempt++) {
        try {
          const response = await api(target, {signal, quiet: true});
          if (text) return {text: await response.text(), url: response.url || target};
          return new Uint8Array(await response.arrayBuffer());
        } catch (error) {
          const passing = error.status === 0 || (error.status >= 500 && error.status !== 503);
          if (error.name === "AbortError" || !passing || attempt >= 3) throw error;
          await sleep(1000 * 2 ** attempt);
        }
      }
    }

    /** The playlist; with `msn` and `part`, a blocking reload that the server holds until that part is listed. */
    async function playlist(msn, part) {
      const target = new URL(url, location.href);
      if (msn !== undefined) {
        target.searchParams.set("_HLS_msn", String(msn));
        target.searchParams.set("_HLS_part", String(part));
      }
      try {
        const {text, url: from} = await get(target.href, true);
        return parsePlaylist(text, from);
      } catch (error) {
        // The hold ran out (the publisher may be away a moment): the playlist as it is.
        if (msn === undefined || error.status !== 503) throw error;
        return playlist();
      }
    }

    /** The playlist once it lists media: a stream that has only just gone live may have none yet (404). */
    async function firstPlaylist() {
      for (;;) {
        try {
          const list = await playlist();
          if (list.segments.length) return list;
          onStatus("waiting", "Waiting for the stream's first pictures…");
        } catch (error) {
          if (error.status !== 404) throw error;
          onStatus("waiting", `Waiting for the stream's first pictures (${error.message})`);
        }
        await sleep(2000);
        if (signal.aborted) throw new DOMException("stopped", "AbortError");
      }
    }

    /** Runs `change` (an append or a remove) on the SourceBuffer; settles when it is done. */
    function update(change) {
      return new Promise((resolve, reject) => {
        const settle = event => {
          buffer.removeEventListener("updateend", settle);
          buffer.removeEventListener("error", settle);
          if (event.type === "error") reject(new Error("the browser refused the stream's media")); else resolve();
        };
        buffer.addEventListener("updateend", settle);
        buffer.addEventListener("error", settle);
        try {
          change();
        } catch (error) {
          buffer.removeEventListener("updateend", settle);
          buffer.removeEventListener("error", settle);
          reject(error);
        }
      });
    }

    /** Removes what lies more than `keep` seconds behind the play head, once that is over `slack` seconds. */
    async function trim(keep, slack) {
      const {buffered} = buffer;
      if (!buffered.length) return;
      const start = buffered.start(0), end = video.currentTime - keep;
      if (end - start > slack) await update(() => buffer.remove(start, end));
    }

    async function append(bytes) {
      try {
        await update(() => buffer.appendBuffer(bytes));
      } catch (error) {
        if (error.name !== "QuotaExceededError") throw error;
        await trim(2, 0);
        await update(() => buffer.appendBuffer(bytes));
      }
      keepUp();
      await trim(BEHIND, TRIM);
    }

    /**
     * Keeps the play head on the media: onto the first media appended, across a gap it cannot
     * cross, and back to the edge less the hold-back when it fell more than LAG behind that.
     */
    function keepUp() {
      const {buffered} = video;
      if (!buffered.length) return;
      const time = video.currentTime, last = buffered.length - 1, end = buffered.end(last);
      let to = null;
      if (end - time > holdBack + LAG) {
        to = Math.max(buffered.start(last), end - holdBack);
      } else {
        for (let range = 0; range <= last; range++) {
          if (time < buffered.start(range)) {
            to = buffered.start(range);
            break;
          }
          if (time < buffered.end(range) - 0.1) break;
        }
      }
      if (to !== null) video.currentTime = to;
      if (!started) {
        started = true;
        video.play().catch(() => {}); // muted, as the page starts it, the browser allows it
      }
    }

    /**
     * Where to start in `list`: the last independent part (or a segment whose parts are no
     * longer listed: it starts on a key frame) that starts at least the hold-back before the
     * live edge, else the first. {msn, part}, `part` null for the whole segment.
     */
    function startingPoint(list) {
      const edge = list.segments.reduce((total, segment) => total + segment.duration, 0);
      let start = 0, point = null;
      const consider = (at, candidate) => { if (!point || at <= edge - holdBack) point = candidate; };
      for (const segment of list.segments) {
        if (segment.parts.length) {
          let at = start;
          segment.parts.forEach((part, index) => {
            if (part.independent) consider(at, {msn: segment.msn, part: index});
            at += part.duration;
          });
        } else {
          consider(start, {msn: segment.msn, part: null});
        }
        start += segment.duration;
      }
      return point || {msn: list.segments[0].msn, part: null};
    }

    /** Fetches the part or segment at `uri` and appends it; false when it is gone (404: the caller goes back to the edge). */
    async function fetchAndAppend(uri) {
      try {
        await append(await get(uri));
        return true;
      } catch (error) {
        if (error.status !== 404) throw error;
        return false;
      }
    }

    async function run() {
      onStatus("waiting", "Loading the stream…");
      await new Promise(resolve => source.addEventListener("sourceopen", resolve, {once: true}));
      let list = await firstPlaylist();
      holdBack = list.holdBack;
      if (!list.map) throw new Error("its playlist names no init segment (EXT-X-MAP)");
      const init = await get(list.map);
      const codecs = codecsOf(init);
      const type = `video/mp4; codecs="${codecs.join(", ")}"`;
      if (!codecs.length) throw new Error("its init segment names no H.264 or AAC track");
      if (!MediaSource.isTypeSupported(type)) throw new Error(`this browser cannot play ${type}`);
      buffer = source.addSourceBuffer(type);
      await append(init);
      let at = startingPoint(list);
      while (!signal.aborted) {
        const segment = list.segments.find(candidate => candidate.msn === at.msn);
        if (!segment && list.segments.length && at.msn < list.segments[0].msn) {
          at = startingPoint(list); // fell out of the window: back to the edge
        } else if (segment && at.part !== null && at.part < segment.parts.length) {
          if (await fetchAndAppend(segment.parts[at.part].uri)) at = {msn: at.msn, part: at.part + 1};
          else at = startingPoint(list = await playlist());
        } else if (segment?.uri && (at.part === null || !segment.parts.length)) {
          // A segment whose parts are not listed (any more): whole. Media already appended from
          // its parts is replaced, not doubled.
          if (await fetchAndAppend(segment.uri)) at = {msn: at.msn + 1, part: 0};
          else at = startingPoint(list = await playlist());
        } else if (segment?.uri) {
          at = {msn: at.msn + 1, part: 0}; // every part of it appended
        } else if (list.ended) {
          if (source.readyState === "open") source.endOfStream();
          onStatus("ended");
          return;
        } else {
          list = await playlist(at.msn, at.part ?? 0);
          holdBack = list.holdBack;
        }
      }
    }

    if (window.MediaSource) {
      source = new MediaSource();
      objectURL = URL.createObjectURL(source);
      video.src = objectURL;
      run().catch(error => {
        if (signal.aborted || error.name === "AbortError") return;
        onStatus("failed", error.message);
      });
    } else if (video.canPlayType("application/vnd.apple.mpegurl")) {
      video.src = url; // the browser's own HLS (Safari): the playback URL is signed, it needs no header
      video.play().catch(() => {});
    } else {
      onStatus("failed", "this browser has neither Media Source Extensions nor HLS");
    }
    return {stop};
  }

  // ---------------------------------------------------------------- live

  /**
   * Live streams: the list (GET /live, active ones first) at `#live`, and one stream at
   * `#live/ID`: its picture (playLive), its room over GET /live/{id}/events (comment, heart,
   * viewers, state), a comment field (POST /live/{id}/comments) and hearts (POST
   * /live/{id}/hearts: the button, `h`, or a double tap on the picture). The chat starts with
   * what was said before the stream was opened (GET /live/{id}/comments, `data-via="history"`),
   * then the events carry what is new. A comment posted here shows at once (`data-via="post"`)
   * and is marked `data-via="events"` when the events carry it, as every watcher sees it.
   */
  const live = (() => {
    const ORDER = {active: 0, idle: 1, ended: 2};
    const LABELS = {active: "Live", idle: "Not live yet", ended: "Ended"};
    const CHAT = 60;        // comments kept in the chat
    const LIST_EVERY = 10000; // ms between two reads of the list while it is shown
    const streams = $("#streams-list");
    const chat = $("#live-chat");
    const video = $("#live-video");
    const stage = $("#live-stage");
    const state = {watch: null, listing: null, listed: false, poller: 0, returnTo: null, muted: true, retry: null};

    const when = value => (value ? new Date(value).toLocaleString([], {dateStyle: "short", timeStyle: "short"}) : "");
    const calm = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

    function item(stream) {
      const label = LABELS[stream.state] || stream.state;
      const watching = stream.state === "active" ? `${stream.viewers} watching` : "";
      const time = {active: `live since ${when(stream.went_live_at)}`, ended: `ended ${when(stream.ended_at)}`}[stream.state]
        || `made ${when(stream.created_at)}`;
      return element("li", {}, element("button", {
        type: "button", class: "stream", "data-id": stream.id, "data-state": stream.state,
        "aria-label": [`${stream.title}: ${label}`, watching].filter(Boolean).join(", "),
      },
      element("span", {class: "state-badge", "data-state": stream.state, text: label}),
      element("span", {class: "stream-title", text: stream.title}),
      element("span", {class: "stream-meta", text: [`#${stream.id}`, watching, time].filter(Boolean).join(" · ")})));
    }

    /** Reads GET /live again and redraws the list, active streams first (newest first within each state). */
    function load() {
      state.listing ??= (async () => {
        try {
          const answer = await getJSON("/live?limit=100", {quiet: state.listed});
          const sorted = (answer.streams || []).slice().sort((a, b) => (ORDER[a.state] ?? 3) - (ORDER[b.state] ?? 3));
          const focused = streams.contains(document.activeElement) ? document.activeElement.dataset.id : state.returnTo;
          streams.replaceChildren(...sorted.map(item));
          $("#streams-empty").hidden = sorted.length > 0;
          state.listed = true;
          loadFailed("streams", null, $("#streams-refresh"));
          const again = focused && $(`.stream[data-id="${focused}"]`, streams);
          if (again && (state.returnTo || document.activeElement === document.body)) again.focus();
          state.returnTo = null;
        } catch (error) {
          if (!state.listed && error.name !== "AbortError") loadFailed("streams", error);
          // The token decides now: no more reads until the list is asked for again.
          if ([401, 403].includes(error.status)) clearInterval(state.poller);
        } finally {
          state.listing = null;
        }
      })();
      return state.listing;
    }

    function showList() {
      $("#live-watch").hidden = true;
      $("#live-index").hidden = false;
      load();
      clearInterval(state.poller);
      state.poller = setInterval(() => { if (!document.hidden) load(); }, LIST_EVERY);
    }

    /** Shows the stage's message (null: none); `retry` puts a "Try again" button beside it that calls it. */
    function message(text, retry = null) {
      $("#live-message").hidden = !text;
      $("#live-message-text").textContent = text || "";
      $("#live-retry").hidden = !retry;
      state.retry = retry;
    }

    function renderViewers(count) {
      const viewers = Number(count) || 0;
      const box = $("#live-viewers");
      box.dataset.viewers = String(viewers);
      box.setAttribute("aria-label", `${viewers} watching`);
      $("#live-viewers-count").textContent = compact(viewers);
    }

    function renderHearts(watch) {
      const button = $("#live-heart");
      button.dataset.hearts = String(watch.hearts);
      button.setAttribute("aria-label", `Send a heart (${watch.hearts} so far)`);
      $("#live-heart-count").textContent = compact(watch.hearts);
    }

    function setMuted(muted) {
      state.muted = muted;
      video.muted = muted;
      const button = $("#live-mute");
      button.setAttribute("aria-pressed", String(muted));
      button.setAttribute("aria-label", muted ? "Sound off: unmute" : "Sound on: mute");
      $("#live-mute-label").textContent = muted ? "Muted" : "Sound";
      if (!muted && video.paused && video.hasAttribute("src")) video.play().catch(() => {});
    }

    /** Opens stream `id` (a string of digits), or the list when `id` is empty. */
    function open(id) {
      if (id && state.watch?.id === id) return;
      // Back from the stream (its button, Escape, the browser's Back): the focus goes to its row.
      const inside = $("#live-watch").contains(document.activeElement) || document.activeElement === document.body;
      if (!id && state.watch && inside) state.returnTo = state.watch.id;
      stopWatching();
      if (id) watchStream(id); else showList();
    }

    /** Leaves the tab: the picture, the events and the list's reads stop. */
    function close() {
      stopWatching();
      clearInterval(state.poller);
      state.poller = 0;
    }

    function stopWatching() {
      const watch = state.watch;
      if (!watch) return;
      state.watch = null;
      watch.controller.abort();
      clearTimeout(watch.timer);
      watch.player?.stop();
    }

    function watchStream(id) {
      clearInterval(state.poller);
      state.poller = 0;
      const watch = {id, controller: new AbortController(), stream: null, state: null, player: null,
                     hearts: 0, pending: 0, timer: 0, failures: 0};
      state.watch = watch;
      $("#live-index").hidden = true;
      $("#live-watch").hidden = false;
      $("#live-title").textContent = `Stream #${id}`;
      $("#live-recording").hidden = true;
      $("#live-user").value ||= storage.get("feed.username") || "";
      chat.replaceChildren();
      $("#live-hearts").replaceChildren();
      renderBadge(null);
      renderViewers(0);
      renderHearts(watch);
      setMuted(state.muted);
      message("Connecting…");
      stage.focus({preventScroll: true});
      (async () => {
        try {
          const stream = await getJSON(`/live/${id}`, {signal: watch.controller.signal, quiet: true});
          if (state.watch !== watch) return;
          watch.stream = stream;
          $("#live-title").textContent = stream.title;
          renderViewers(stream.viewers);
          setState(watch, stream.state);
          follow(watch);
          history(watch);
        } catch (error) {
          if (state.watch === watch && error.name !== "AbortError") {
            message(`Stream ${id} could not be read: ${error.message}`, () => { stopWatching(); watchStream(id); });
          }
        }
      })();
    }

    function renderBadge(name) {
      const badge = $("#live-state");
      badge.dataset.state = name || "";
      badge.textContent = name ? LABELS[name] || name : "…";
    }

    /** The stream is now `name` (idle, active, ended): the badge, the picture, the message. */
    function setState(watch, name) {
      if (watch.state === name || watch.state === "ended") return;
      watch.state = name;
      renderBadge(name);
      const over = name === "ended";
      if (over && $("#live-comment-form").contains(document.activeElement)) stage.focus({preventScroll: true});
      $("#live-fields").disabled = over;
      $("#live-heart").disabled = over;
      if (name === "active" && !watch.player) play(watch);
      else if (name === "idle") message("Not live yet: the picture comes when the publisher starts.");
      else if (over) ended(watch);
    }

    function play(watch) {
      message("Loading the stream…");
      watch.player = playLive(video, watch.stream.playback_url, (kind, text) => {
        if (state.watch !== watch) return;
        if (kind === "playing" && watch.state !== "ended") message(null);
        else if (kind === "waiting") message(text);
        else if (kind === "ended") setState(watch, "ended");
        else if (kind === "failed") {
          watch.player?.stop();
          watch.player = null;
          message(`The stream cannot be played: ${text}`, () => { if (watch.state === "active") play(watch); });
        }
      });
    }

    /** The stream has ended: says so (the picture plays out what it has), then offers its recording once there is one. */
    async function ended(watch) {
      message("The stream has ended.");
      for (let tries = 0; tries < 5 && state.watch === watch; tries++) {
        try {
          const stream = await getJSON(`/live/${watch.id}`, {signal: watch.controller.signal, quiet: true});
          if (state.watch !== watch) return;
          if (stream.recording_id) {
            message("The stream has ended. Its recording is in the roll.");
            const button = $("#live-recording");
            button.dataset.recording = String(stream.recording_id);
            button.hidden = false;
            return;
          }
        } catch (error) {
          if (error.name === "AbortError") return;
        }
        await sleep(2000);
      }
    }

    /** Follows the room's events; a stream that broke is followed again after 2, 4 … 32 s, unless the stream has ended. */
    function follow(watch) {
      const {signal} = watch.controller;
      readEvents(`/live/${watch.id}/events`, (type, data) => {
        if (state.watch !== watch) return;
        let event;
        try { event = JSON.parse(data); } catch { return; }
        watch.failures = 0;
        if (type === "comment") addComment(event, "events");
        else if (type === "heart") receivedHearts(watch, Number(event.count) || 0);
        else if (type === "viewers") renderViewers(event.viewers);
        else if (type === "state") setState(watch, event.state);
      }, signal).then(() => { throw new RequestError(0, "the event stream ended"); }).catch(error => {
        if (state.watch !== watch || signal.aborted || watch.state === "ended") return;
        if ([401, 403, 404].includes(error.status)) {
          toast(`Stream ${watch.id}: its comments and hearts cannot be followed: ${error.message}`);
          return;
        }
        watch.failures = Math.min(watch.failures + 1, 5);
        setTimeout(() => { if (state.watch === watch && !signal.aborted) follow(watch); }, 1000 * 2 ** watch.failures);
      });
    }

    /** The chat so far (GET /live/{id}/comments, newest first), under what the events bring. */
    async function history(watch) {
      try {
        const page = await getJSON(`/live/${watch.id}/comments?limit=${CHAT}`, {signal: watch.controller.signal, quiet: true});
        if (state.watch !== watch) return;
        for (const comment of (page.comments || []).reverse()) addComment(comment, "history");
      } catch {
        // A server without the chat's history (404) or a stream gone: the events still bring what is new.
      }
    }

    /** Puts `comment` in the chat in id order, once; one posted here is marked when the events carry it. */
    function addComment(comment, via) {
      const id = String(comment.id);
      const known = $(`li[data-id="${CSS.escape(id)}"]`, chat);
      if (known) {
        if (via === "events") known.dataset.via = via;
        return;
      }
      const row = element("li", {"data-id": id, "data-via": via}, element("b", {text: comment.username}), comment.comment);
      const atBottom = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 24;
      const later = [...chat.children].find(other => Number(other.dataset.id) > Number(id));
      chat.insertBefore(row, later || null);
      while (chat.children.length > CHAT) chat.firstElementChild.remove();
      if (atBottom) chat.scrollTop = chat.scrollHeight;
    }

    /** Hearts from the room (everyone's, this page's too): counted, and up to eight float up. */
    function receivedHearts(watch, count) {
      watch.hearts += count;
      renderHearts(watch);
      if (calm()) return; // the count says it
      const layer = $("#live-hearts");
      for (let index = 0; index < Math.min(count, 8); index++) {
        const heart = element("span", {class: "float-heart", text: "♥"});
        heart.style.setProperty("--drift", `${Math.round(Math.random() * 48 - 24)}px`);
        heart.style.animationDelay = `${index * 140}ms`;
        heart.addEventListener("animationend", () => heart.remove());
        layer.append(heart);
      }
      while (layer.children.length > 40) layer.firstElementChild.remove();
    }

    /** One heart from here: sent with the others of the same moment, a batch a second at most (the server takes ten a second from one caller). */
    function heart() {
      const watch = state.watch;
      if (!watch || !watch.stream || watch.state === "ended") return;
      const button = $("#live-heart");
      button.classList.remove("pop");
      void button.offsetWidth; // restarts the animation
      button.classList.add("pop");
      watch.pending = Math.min(watch.pending + 1, 10);
      watch.timer ||= setTimeout(() => sendHearts(watch), 250);
    }

    async function sendHearts(watch) {
      const count = watch.pending;
      watch.pending = 0;
      try {
        await api(`/live/${watch.id}/hearts`, {method: "POST", json: {count}, signal: watch.controller.signal, quiet: true});
      } catch (error) {
        // 429: more than ten in a second from this caller (another tab); the next batch goes.
        if (error.status !== 429) report(error, `POST /live/${watch.id}/hearts`);
      }
      watch.timer = setTimeout(() => {
        watch.timer = 0;
        if (watch.pending && state.watch === watch) sendHearts(watch);
      }, 1000);
    }

    /** A big heart where the picture was double-tapped. */
    function burst(event) {
      if (calm()) return;
      const box = stage.getBoundingClientRect();
      const heart = element("span", {class: "float-heart burst", text: "♥"});
      heart.style.left = `${event.clientX - box.left}px`;
      heart.style.top = `${event.clientY - box.top}px`;
      heart.addEventListener("animationend", () => heart.remove());
      $("#live-hearts").append(heart);
    }

    async function post(event) {
      event.preventDefault();
      const watch = state.watch;
      const username = $("#live-user").value.trim(), text = $("#live-text").value;
      if (!watch || !username || !text.trim()) return;
      const button = $("#live-send");
      // Not `disabled`: a disabled button drops the focus.
      if (button.getAttribute("aria-disabled") === "true") return;
      button.setAttribute("aria-disabled", "true");
      try {
        const comment = await getJSON(`/live/${watch.id}/comments`, {method: "POST", json: {username, comment: text},
                                                                         signal: watch.controller.signal});
        storage.set("feed.username", username);
        if (state.watch === watch) addComment(comment, "post");
        $("#live-text").value = "";
      } catch { /* reported */ } finally {
        button.removeAttribute("aria-disabled");
      }
    }

    streams.addEventListener("click", event => {
      const stream = event.target.closest(".stream[data-id]");
      if (stream) location.hash = `#live/${stream.dataset.id}`;
    });
    $("#streams-refresh").addEventListener("click", load);
    $("#streams-failed [data-retry]").addEventListener("click", load);
    $("#live-back").addEventListener("click", () => { location.hash = "#live"; });
    $("#live-retry").addEventListener("click", () => state.retry?.());
    $("#live-recording").addEventListener("click", async event => {
      try { openViewer(await getJSON(`/roll/${event.currentTarget.dataset.recording}`)); } catch { /* reported */ }
    });
    $("#live-heart").addEventListener("click", heart);
    $("#live-mute").addEventListener("click", () => setMuted(!state.muted));
    $("#live-comment-form").addEventListener("submit", post);

    // A double tap (or click) on the picture sends a heart.
    let tap = null;
    stage.addEventListener("pointerup", event => {
      if (event.button !== 0 || event.target.closest("button, a, input, .live-chat, .live-top")) return;
      const now = performance.now();
      if (tap && now - tap.time < 350 && Math.hypot(event.clientX - tap.x, event.clientY - tap.y) < 40) {
        tap = null;
        burst(event);
        heart();
      } else {
        tap = {time: now, x: event.clientX, y: event.clientY};
      }
    });
    stage.addEventListener("dblclick", event => event.preventDefault());

    // Stream keys: h heart, m sound, Escape back to the list. Not while typing, nor with a dialog open.
    document.addEventListener("keydown", event => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || activeTab !== "live" || !state.watch) return;
      if ($("dialog[open]")) return;
      const target = event.target instanceof Element ? event.target : document.body;
      if (target.closest("input, textarea, select, [contenteditable=''], [contenteditable=true]")) return;
      const action = {h: heart, m: () => setMuted(!state.muted), Escape: () => { location.hash = "#live"; }}[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    });

    return {
      open, close,
      /** Reads what is shown again (a new token). */
      reload() {
        if (activeTab !== "live") return;
        const id = state.watch?.id;
        stopWatching();
        if (id) watchStream(id); else load();
      },
    };
  })();

  // ---------------------------------------------------------------- roll

  /** The recordings, newest first, a page at a time; storyboards scrub on hover. */
  const roll = (() => {
    const PAGE = 30;
    const grid = $("#roll-grid");
    const state = {cursor: null, loaded: false, loading: null, byID: new Map(), storyboards: new Map()};

    const posterOf = recording => recording.poster_url || `/media/roll/${recording.id}/thumb.jpg`;
    const nameOf = recording => recording.title || recording.original_path || recording.file_name || `Recording ${recording.id}`;
    const seconds = value => (Number.isFinite(value) ? `${value.toFixed(1)} s` : "");

    /**
     * A recording's poster. A signed link that expired (the page stayed open past it) is 403:
     * the recording is read again, once, for a fresh link.
     */
    function poster(recording) {
      const image = element("img", {src: posterOf(recording), alt: "", loading: "lazy", decoding: "async"});
      image.addEventListener("error", async () => {
        if (image.dataset.renewed || !/[?&]sig=/.test(image.src)) return;
        image.dataset.renewed = "true";
        try {
          const fresh = await getJSON(`/roll/${recording.id}`, {quiet: true});
          state.byID.set(recording.id, fresh);
          image.src = posterOf(fresh);
        } catch { /* the tile keeps its empty poster */ }
      });
      return image;
    }

    function tile(recording) {
      const size = recording.width && recording.height ? `${recording.width}×${recording.height}` : "";
      const button = element("button", {
        type: "button",
        class: "roll-tile",
        "data-id": recording.id,
        "aria-label": `Recording ${recording.id}: ${nameOf(recording)}, ${seconds(recording.duration)} ${size}`.trim(),
      },
      poster(recording),
      element("div", {class: "scrub", hidden: true}, element("div")),
      element("div", {class: "scrub-bar", hidden: true}),
      element("span", {class: "badge"},
        element("span", {text: `#${recording.id} ${nameOf(recording)}`}),
        element("span", {text: [seconds(recording.duration), size].filter(Boolean).join(" · ")})));
      button.addEventListener("click", () => openViewer(recording));
      if (recording.storyboard_url) {
        button.addEventListener("pointerenter", () => storyboard(recording.storyboard_url).catch(() => null));
        button.addEventListener("pointermove", event => scrub(button, recording, event));
        button.addEventListener("pointerleave", () => unscrub(button));
      }
      return element("li", {}, button);
    }

    /** Loads a page; `reset` starts again from the newest. Returns the recordings it added. */
    function load(reset = false) {
      if (state.loading && !reset) return state.loading;
      const run = (async () => {
        const cursor = reset ? null : state.cursor;
        try {
          const page = await getJSON(`/roll?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
          if (run !== state.loading) return [];
          if (reset) {
            grid.replaceChildren();
            state.byID.clear();
          }
          const added = [];
          for (const recording of page.recordings || []) {
            if (state.byID.has(recording.id)) continue;
            state.byID.set(recording.id, recording);
            grid.append(tile(recording));
            added.push(recording);
          }
          state.cursor = page.next_cursor || null;
          state.loaded = true;
          $("#roll-more").hidden = !state.cursor;
          $("#roll-empty").hidden = state.byID.size > 0;
          loadFailed("roll", null, $("#roll-refresh"));
          return added;
        } catch (error) {
          // A first read that failed says so (a later one has its toast, and the tiles it had).
          if (!state.loaded && error.name !== "AbortError") loadFailed("roll", error);
          return [];
        } finally {
          if (state.loading === run) state.loading = null;
        }
      })();
      state.loading = run;
      return run;
    }

    /** Marks the tile of recording `id` as new and scrolls it into view. */
    function highlight(id) {
      for (const old of $$(".roll-tile[data-new]", grid)) old.removeAttribute("data-new");
      const found = $(`.roll-tile[data-id="${id}"]`, grid);
      if (!found) return;
      found.dataset.new = "true";
      found.scrollIntoView({block: "nearest"});
    }

    /** The cues of the WebVTT storyboard at `url`, fetched once. */
    function storyboard(url) {
      if (!state.storyboards.has(url)) {
        state.storyboards.set(url, (async () => {
          const response = await api(url, {quiet: true});
          return parseStoryboard(await response.text(), response.url || new URL(url, location.href).href);
        })().catch(error => {
          state.storyboards.delete(url);
          throw error;
        }));
      }
      return state.storyboards.get(url);
    }

    /** Shows the storyboard tile for the time under the pointer. */
    async function scrub(button, recording, event) {
      const rect = button.getBoundingClientRect();
      const fraction = Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width));
      let cues;
      try { cues = await storyboard(recording.storyboard_url); } catch { return; }
      if (!cues.length || !button.matches(":hover")) return;
      const duration = Number(recording.duration) > 0 ? Number(recording.duration) : cues[cues.length - 1].end;
      const time = fraction * duration;
      const cue = cues.find(c => time >= c.start && time < c.end) || (time < cues[0].start ? cues[0] : cues[cues.length - 1]);
      const frame = $(".scrub", button), picture = frame.firstElementChild, bar = $(".scrub-bar", button);
      // The sprite's tile (cue.w x cue.h) fills the tile as object-fit: cover would.
      const scale = Math.max(rect.width / cue.w, rect.height / cue.h);
      Object.assign(picture.style, {
        width: `${cue.w}px`,
        height: `${cue.h}px`,
        backgroundImage: `url("${cue.url.replace(/["\\\n]/g, encodeURIComponent)}")`,
        backgroundPosition: `${-cue.x}px ${-cue.y}px`,
        transform: `translate(${(rect.width - cue.w * scale) / 2}px, ${(rect.height - cue.h * scale) / 2}px) scale(${scale})`,
      });
      frame.hidden = false;
      bar.hidden = false;
      bar.style.width = `${fraction * 100}%`;
      button.dataset.scrubTime = time.toFixed(2);
    }

    function unscrub(button) {
      $(".scrub", button).hidden = true;
      $(".scrub-bar", button).hidden = true;
      delete button.dataset.scrubTime;
    }

    /** "More recordings": the next page; on the last one, the button goes and the focus to what came. */
    async function more() {
      const button = $("#roll-more");
      const had = document.activeElement === button;
      const added = await load(false);
      if (!button.hidden || !had || ![button, document.body].includes(document.activeElement)) return;
      const first = added.length ? $(`.roll-tile[data-id="${added[0].id}"]`, grid) : null;
      (first || $("#roll-refresh")).focus();
    }

    $("#roll-more").addEventListener("click", more);
    $("#roll-refresh").addEventListener("click", () => load(true));
    $("#roll-failed [data-retry]").addEventListener("click", () => load(true));

    return {load, highlight, get loaded() { return state.loaded; }, get recordings() { return [...state.byID.values()]; }};
  })();

  /**
   * The cues of a WebVTT storyboard: `HH:MM:SS.mmm --> HH:MM:SS.mmm` then `URL#xywh=x,y,w,h`, the
   * URL relative to the VTT's own (`base`). Cues that do not read so are skipped.
   */
  function parseStoryboard(text, base) {
    const time = value => {
      const parts = value.trim().split(":");
      if (parts.length < 2 || parts.length > 3 || parts.some(part => !/^\d+(\.\d+)?$/.test(part))) return NaN;
      return parts.map(Number).reduce((total, part) => total * 60 + part, 0);
    };
    const cues = [];
    for (const block of text.replace(/\r\n?/g, "\n").split(/\n{2,}/)) {
      const lines = block.split("\n");
      const at = lines.findIndex(line => line.includes("-->"));
      if (at < 0) continue;
      const [from, to] = lines[at].split("-->");
      const start = time(from), end = time(to.trim().split(/\s+/)[0]);
      const payload = lines.slice(at + 1).join("").trim();
      const hash = payload.lastIndexOf("#xywh=");
      if (!Number.isFinite(start) || !Number.isFinite(end) || hash < 0) continue;
      const [x, y, w, h] = payload.slice(hash + 6).split(",").map(Number);
      if (![x, y, w, h].every(Number.isFinite) || w <= 0 || h <= 0) continue;
      let url;
      try { url = new URL(payload.slice(0, hash), base).href; } catch { continue; }
      cues.push({start, end, url, x, y, w, h});
    }
    return cues.sort((a, b) => a.start - b.start);
  }

  /** Plays a recording in the viewer dialog. */
  function openViewer(recording) {
    const dialog = $("#viewer");
    const video = $("#viewer-video");
    $("#viewer-title").textContent = `#${recording.id} ${recording.title || recording.original_path || ""}`.trim();
    $("#viewer-meta").textContent = [
      recording.width && recording.height ? `${recording.width}×${recording.height}` : "",
      Number.isFinite(recording.duration) ? `${recording.duration.toFixed(1)} s` : "",
      recording.video_codec, recording.sources ? `stacked from ${recording.sources.join(" and ")}` : "",
    ].filter(Boolean).join(" · ");
    video.poster = recording.poster_url || "";
    video.src = recording.url;
    video.dataset.id = String(recording.id);
    player.suspend();
    dialog.showModal();
    video.play().catch(() => {});
  }
  $("#viewer").addEventListener("close", () => {
    const video = $("#viewer-video");
    video.pause();
    video.removeAttribute("src");
    video.load();
    // Opened from a profile: the feed stays paused behind it.
    if (activeTab === "feed" && !$("dialog[open]")) player.resume();
  });

  // ---------------------------------------------------------------- upload

  /**
   * tus 1.0.0 by hand: POST /uploads (Upload-Length, Upload-Metadata filename and title), PATCH
   * 4 MiB chunks, HEAD to resume. The upload's URL is kept under the file's name, size and
   * date, so dropping the same file after a cut goes on from the server's offset.
   */
  const upload = (() => {
    const CHUNK = 4 * 1024 * 1024;
    const TUS = {"Tus-Resumable": "1.0.0"};
    const zone = $("#dropzone");
    const bar = $("#upload-progress");
    const status = $("#upload-status");
    let queue = Promise.resolve();

    /** Failed requests in a row an upload waits out (a 423, another request holding it: more). */
    const RETRIES = 5, BUSY_RETRIES = 12;

    /** Whether a request that failed with `error` is worth asking again: the server may be back. */
    const retryable = error => error.status === 0 || error.status === 409 || error.status === 423 || error.status >= 500;

    function show(stateName, text, percent) {
      zone.dataset.state = stateName;
      status.textContent = text;
      if (percent !== undefined) {
        bar.value = percent;
        bar.setAttribute("aria-valuetext", `${Math.floor(percent)}%`);
      }
    }

    /** UTF-8 text as base64, as Upload-Metadata wants it. */
    function base64(text) {
      let binary = "";
      for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
      return btoa(binary);
    }

    /** How many bytes the server holds for `url`; null when it no longer knows the upload. */
    async function offsetOf(url) {
      try {
        const response = await api(url, {method: "HEAD", headers: {...TUS, "Cache-Control": "no-store"}, quiet: true});
        const offset = Number(response.headers.get("Upload-Offset"));
        return Number.isFinite(offset) ? offset : null;
      } catch (error) {
        if ([404, 410].includes(error.status)) return null;
        throw error;
      }
    }

    async function create(file, title) {
      const metadata = [`filename ${base64(file.name)}`];
      if (title) metadata.push(`title ${base64(title)}`);
      const response = await api("/uploads", {
        method: "POST",
        headers: {...TUS, "Upload-Length": String(file.size), "Upload-Metadata": metadata.join(",")},
      });
      const where = response.headers.get("Location");
      if (!where) throw new RequestError(response.status, "POST /uploads answered no Location");
      return new URL(where, response.url).href;
    }

    /** PATCHes bytes `from`..<`to` of `file`; the offset the server answers. */
    function patch(url, file, from, to, onProgress) {
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open("PATCH", url);
        for (const [name, value] of Object.entries({...TUS, ...authorization(url),
          "Upload-Offset": String(from), "Content-Type": "application/offset+octet-stream"})) {
          xhr.setRequestHeader(name, value);
        }
        xhr.upload.addEventListener("progress", event => onProgress(from + event.loaded));
        xhr.addEventListener("load", () => {
          if (xhr.status === 204) {
            resolve(Number(xhr.getResponseHeader("Upload-Offset")));
            return;
          }
          const {detail, problem} = problemOf(xhr.status, xhr.statusText, xhr.responseText);
          const error = new RequestError(xhr.status, detail, problem);
          error.retryAfter = Number(xhr.getResponseHeader("Retry-After")) || 0;
          reject(error);
        });
        xhr.addEventListener("error", () => reject(new RequestError(0, "the connection was lost")));
        xhr.addEventListener("abort", () => reject(new RequestError(0, "the upload was stopped")));
        xhr.send(file.slice(from, to));
      });
    }

    /** Waits until the server has put the upload in the roll (or failed it), waiting out a server away a while. */
    async function finished(url) {
      let failures = 0;
      for (let wait = 150; ; wait = Math.min(wait * 1.5, 2000)) {
        try {
          const upload = await getJSON(url, {quiet: true});
          if (upload.state === "done" || upload.state === "failed") return upload;
          failures = 0;
        } catch (error) {
          if (!retryable(error) || ++failures > RETRIES) throw error;
          wait = 1000 * 2 ** (failures - 1);
        }
        await sleep(wait);
      }
    }

    async function send(file, title) {
      const name = file.name || "clip";
      if (file.size === 0) {
        show("failed", `${name} is empty`, 0);
        return;
      }
      const key = `feed.upload:${name}:${file.size}:${file.lastModified}`;
      const percent = offset => (offset / file.size) * 100;
      show("uploading", `${name}: starting`, 0);
      try {
        let url = storage.get(key);
        let offset = url ? await offsetOf(url) : null;
        if (url && offset === null) storage.remove(key);
        if (offset === null) {
          url = await create(file, title);
          storage.set(key, url);
          offset = 0;
        } else if (offset > 0) {
          toast(`Resuming ${name} at ${Math.round(percent(offset))}%`, "info");
        }
        // Failed requests (PATCH or HEAD) since the last PATCH that went through.
        let failures = 0;
        /**
         * After a request that failed with `error` (a lost connection, a busy upload (423), a
         * server error, an offset the server disagrees with (409)): waits 1, 2, 4, 8, 16 s (a
         * 423: its Retry-After) and asks the server how much it has (HEAD), again while it does
         * not answer. Its offset (null: it no longer has the upload); throws once it gave up.
         */
        const resume = async (error, at) => {
          for (;;) {
            const limit = error.status === 423 ? BUSY_RETRIES : RETRIES;
            if (!retryable(error)) throw error;
            if (++failures > limit) {
              throw new RequestError(error.status,
                `${error.message}; gave up after ${limit} tries: drop ${name} again to go on from where the server is`);
            }
            const wait = error.retryAfter ? error.retryAfter * 1000 : 1000 * 2 ** Math.min(failures - 1, 4);
            show("uploading", `${name}: ${error.message}; asking the server again in ${Math.round(wait / 1000)} s `
              + `(${failures} of ${limit})`, at);
            await sleep(wait);
            show("uploading", `${name}: asking the server how much it has (${failures} of ${limit})`, at);
            try {
              return await offsetOf(url);
            } catch (failure) {
              error = failure;
            }
          }
        };
        while (offset < file.size) {
          const to = Math.min(offset + CHUNK, file.size);
          try {
            offset = await patch(url, file, offset, to, sent => {
              show("uploading", `${name}: ${Math.floor(percent(sent))}%`, percent(sent));
            });
            failures = 0;
          } catch (error) {
            offset = await resume(error, percent(offset));
            if (offset === null) {
              storage.remove(key);
              throw new RequestError(404, `the server no longer has this upload: drop ${name} again`);
            }
          }
          show("uploading", `${name}: ${Math.floor(percent(offset))}%`, percent(offset));
        }
        storage.remove(key);
        show("processing", `${name}: uploaded; adding to the roll…`, 100);
        const done = await finished(url);
        if (done.state !== "done") throw new RequestError(422, done.error || "the server could not add it");
        status.dataset.recordingId = String(done.recording_id);
        // Bytes the roll had already are that recording, not a new one: older than the upload.
        const recording = await getJSON(`/roll/${done.recording_id}`, {quiet: true}).catch(() => null);
        const existing = recording && Date.parse(recording.created_at) < Date.parse(done.created);
        status.dataset.existing = existing ? "true" : "false";
        if (existing) {
          show("done", `${name}: already in the roll, as recording #${done.recording_id}`, 100);
          toast(`${name} was already in the roll: recording #${done.recording_id}`, "info");
        } else {
          show("done", `${name}: recording #${done.recording_id} added`, 100);
          toast(`Recording #${done.recording_id} added to the roll`, "info");
        }
        await roll.load(true);
        roll.highlight(done.recording_id);
        jobs.recordingsChanged();
      } catch (error) {
        // The server's reasons often name the file already ("x.mp4: not a video").
        show("failed", error.message.startsWith(`${name}: `) ? error.message : `${name}: ${error.message}`);
        if (error.status === 401) openSettings(error.message);
      }
    }

    /** Uploads `files` one after the other, with the title typed so far, which is then cleared. */
    function start(files) {
      const field = $("#upload-title");
      const title = field.value.trim();
      field.value = "";
      for (const file of files) queue = queue.then(() => send(file, title));
    }

    let depth = 0;
    const hasFiles = event => [...(event.dataTransfer?.types || [])].includes("Files");
    zone.addEventListener("dragenter", event => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth += 1;
      if (zone.dataset.state !== "uploading") zone.dataset.state = "over";
    });
    zone.addEventListener("dragover", event => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
    });
    zone.addEventListener("dragleave", () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0 && zone.dataset.state === "over") zone.dataset.state = "idle";
    });
    zone.addEventListener("drop", event => {
      event.preventDefault();
      depth = 0;
      if (zone.dataset.state === "over") zone.dataset.state = "idle";
      const files = [...(event.dataTransfer?.files || [])];
      if (files.length) start(files);
    });
    // A file dropped next to the zone must not make the browser leave the console for it.
    for (const type of ["dragover", "drop"]) {
      window.addEventListener(type, event => { if (hasFiles(event)) event.preventDefault(); });
    }
    $("#upload-pick").addEventListener("click", () => $("#upload-input").click());
    $("#upload-input").addEventListener("change", event => {
      start([...event.target.files]);
      event.target.value = "";
    });

    return {start};
  })();

  // ---------------------------------------------------------------- jobs

  /** Jobs newest first; running ones follow /jobs/{id}/events (at most two streams, else polled). */
  const jobs = (() => {
    const STREAMS = 2;
    const ACTIVE = new Set(["queued", "running"]);
    const list = $("#jobs-list");
    const state = {rows: new Map(), jobs: new Map(), streams: new Map(), poller: 0, recordingsStale: true,
                   opened: false, listed: false};

    function render(job) {
      const was = state.jobs.get(job.id);
      state.jobs.set(job.id, job);
      let row = state.rows.get(job.id);
      if (!row) {
        // Focusable by the page only: where the focus goes when a button it had goes away.
        row = element("li", {class: "job", tabindex: -1});
        state.rows.set(job.id, row);
        const newer = [...state.rows.keys()].filter(id => id > job.id).sort((a, b) => a - b)[0];
        list.insertBefore(row, newer === undefined ? list.firstChild : state.rows.get(newer).nextSibling);
      }
      row.dataset.id = String(job.id);
      row.dataset.state = job.state;
      const percent = Math.round((Number(job.progress) || 0) * 100);
      const buttons = element("div", {class: "buttons"});
      if (job.recording_id) {
        buttons.append(element("button", {type: "button", class: "chip", "data-open": job.recording_id,
          text: `Play #${job.recording_id}`, "aria-label": `Play recording ${job.recording_id}, the result of job ${job.id}`}));
      }
      if (ACTIVE.has(job.state)) {
        buttons.append(element("button", {type: "button", class: "chip", "data-cancel": job.id,
          text: "Cancel", "aria-label": `Cancel job ${job.id}`}));
      }
      // The row is drawn anew (each progress event): the focus stays on the same button, or on
      // the row when that button is gone (Cancel, once the job has ended).
      const focused = row.contains(document.activeElement) ? document.activeElement : null;
      const same = focused?.dataset.cancel ? "[data-cancel]" : focused?.dataset.open ? "[data-open]" : null;
      row.replaceChildren(...[
        element("div", {},
          element("div", {class: "title", text: `Job #${job.id} · ${job.kind}`}),
          element("div", {class: "state", text: job.state === "running" ? `running ${percent}%` : job.state})),
        buttons,
        element("progress", {max: 100, value: job.state === "done" ? 100 : percent, "aria-label": `Job ${job.id} progress`}),
        job.error ? element("p", {class: "error", text: job.error}) : null,
      ].filter(Boolean));
      if (focused) ((same && $(same, row)) || row).focus({preventScroll: true});
      $("#jobs-empty").hidden = state.rows.size > 0;
      if (was && ACTIVE.has(was.state) && job.state === "done") {
        toast(`Job #${job.id} done${job.recording_id ? `: recording #${job.recording_id}` : ""}`, "info");
        recordingsChanged();
        if (roll.loaded) roll.load(true);
      } else if (was && ACTIVE.has(was.state) && !ACTIVE.has(job.state)) {
        toast(`Job #${job.id} ${job.state}${job.error ? `: ${job.error}` : ""}`);
      }
      follow(job);
    }

    /** Streams the events of an active job, or leaves it to the poller when two streams run. */
    function follow(job) {
      if (!ACTIVE.has(job.state) || state.streams.has(job.id)) return;
      if (state.streams.size >= STREAMS) {
        poll();
        return;
      }
      const controller = new AbortController();
      state.streams.set(job.id, controller);
      readEvents(`/jobs/${job.id}/events`, (type, data) => {
        try { render(JSON.parse(data)); } catch { /* not a job */ }
      }, controller.signal).catch(() => {}).finally(() => refollow(job.id, controller));
    }

    /**
     * After job `id`'s stream ended (the job ended, or the server went away): reads the job again,
     * with a growing wait (1 s up to 30 s) while the server does not answer, and follows it again
     * while it runs. The row keeps its stream's place until then, and says it is waiting.
     */
    async function refollow(id, controller) {
      for (let wait = 1000; ; wait = Math.min(wait * 2, 30000)) {
        if (controller.signal.aborted) break;
        try {
          const latest = await getJSON(`/jobs/${id}`, {quiet: true});
          if (ACTIVE.has(latest.state)) await sleep(1000);
          state.streams.delete(id);
          render(latest);
          return;
        } catch (error) {
          // Gone (404), or not for this token: nothing more to follow.
          if (error.status !== 0 && error.status < 500) break;
          const shown = $(".state", state.rows.get(id));
          if (shown && !shown.dataset.waiting) {
            shown.dataset.waiting = "true";
            shown.textContent += " · the server does not answer; asking again";
          }
          await sleep(wait);
        }
      }
      state.streams.delete(id);
    }

    /** Polls every active job that has no stream, every 2 s, while there are some. */
    function poll() {
      if (state.poller) return;
      state.poller = setTimeout(async () => {
        state.poller = 0;
        const waiting = [...state.jobs.values()].filter(job => ACTIVE.has(job.state) && !state.streams.has(job.id));
        for (const job of waiting) {
          try { render(await getJSON(`/jobs/${job.id}`, {quiet: true})); } catch { /* gone */ }
        }
        if ([...state.jobs.values()].some(job => ACTIVE.has(job.state) && !state.streams.has(job.id))) poll();
      }, 2000);
    }

    async function load() {
      try {
        const answer = await getJSON("/jobs?limit=50");
        for (const job of (answer.jobs || []).reverse()) render(job);
        $("#jobs-empty").hidden = state.rows.size > 0;
        state.listed = true;
        loadFailed("jobs", null, $("#jobs-refresh"));
      } catch (error) {
        // Reported; a first read that failed says so where the list would be.
        if (!state.listed) loadFailed("jobs", error);
      }
    }

    /** Fills the two selects with the roll's recordings (up to 200), keeping what was chosen. */
    async function fillSources() {
      let recordings;
      try {
        recordings = (await getJSON("/roll?limit=200")).recordings || [];
      } catch {
        // The roll cannot be read: nothing to stack from, whatever the selects still show.
        $("#stack-submit").disabled = true;
        return;
      }
      state.recordingsStale = false;
      const selects = [$("#stack-front"), $("#stack-back")];
      selects.forEach((select, which) => {
        const chosen = select.value;
        select.replaceChildren(...recordings.map(recording => element("option", {value: recording.id,
          text: `#${recording.id} ${recording.title || recording.original_path || recording.file_name || ""} · ${(recording.duration || 0).toFixed(1)} s`})));
        if (chosen && recordings.some(recording => String(recording.id) === chosen)) select.value = chosen;
        else if (recordings[which]) select.value = String(recordings[which].id);
      });
      $("#stack-submit").disabled = recordings.length === 0;
    }

    async function submit(event) {
      event.preventDefault();
      const front = Number($("#stack-front").value), back = Number($("#stack-back").value);
      if (!front || !back) return;
      const request = {front: {recording: front}, back: {recording: back}};
      const title = $("#stack-title").value.trim();
      if (title) request.title = title;
      const layout = $("#stack-layout").value;
      if (layout) request.options = {layout};
      const button = $("#stack-submit");
      // Not `disabled` while the request is out: a disabled button drops the focus (to <body>).
      if (button.getAttribute("aria-disabled") === "true") return;
      button.setAttribute("aria-disabled", "true");
      try {
        const job = await getJSON("/jobs/stack", {method: "POST", json: request});
        $("#stack-form").dataset.jobId = String(job.id);
        render(job);
        toast(`Job #${job.id} queued`, "info");
        state.rows.get(job.id)?.scrollIntoView({block: "nearest"});
      } catch { /* reported */ } finally {
        button.removeAttribute("aria-disabled");
      }
    }

    function recordingsChanged() {
      state.recordingsStale = true;
      if (activeTab === "jobs") fillSources();
    }

    list.addEventListener("click", async event => {
      const open = event.target.closest("[data-open]");
      if (open) {
        try { openViewer(await getJSON(`/roll/${open.dataset.open}`)); } catch { /* reported */ }
        return;
      }
      const cancel = event.target.closest("[data-cancel]");
      if (cancel) {
        try { render(await getJSON(`/jobs/${cancel.dataset.cancel}`, {method: "DELETE"})); } catch { /* reported */ }
      }
    });
    $("#stack-form").addEventListener("submit", submit);
    $("#jobs-refresh").addEventListener("click", () => { load(); fillSources(); });
    $("#jobs-failed [data-retry]").addEventListener("click", () => { load(); fillSources(); });

    return {
      open() {
        state.opened = true;
        if (!state.listed) load();
        if (state.recordingsStale) fillSources();
      },
      reload() { if (state.opened) { load(); fillSources(); } },
      recordingsChanged,
    };
  })();

  // ---------------------------------------------------------------- settings

  const settings = $("#settings");

  function renderToken() {
    $("#settings-open").dataset.set = String(Boolean(token));
    const user = me();
    $("#token-state").textContent = user ? `@${user}` : token ? "Token set" : "Token";
  }

  /** Opens the token field; `reason` says why (a 401's detail). */
  function openSettings(reason = "") {
    $("#settings-reason").textContent = reason;
    $("#token").value = token;
    $("#acting-user").value = actingUser;
    if (!settings.open) settings.showModal();
    $("#token").focus();
  }

  settings.addEventListener("close", () => {
    const choice = settings.returnValue;
    settings.returnValue = "";
    if (choice !== "save" && choice !== "clear") return;
    const value = choice === "clear" ? "" : $("#token").value.trim().replace(/^Bearer\s+/i, "");
    const user = choice === "clear" ? "" : $("#acting-user").value.trim();
    if (value === token && user === actingUser) return;
    if (value !== token) toast(value ? "Token saved" : "Token forgotten", "info");
    // For You's view and events are the user's of before: they go now (a request is made at once, with the token of now).
    player.endView();
    events.flush({keepalive: true});
    events.forget();
    token = value;
    actingUser = user;
    if (token) storage.set(TOKEN_KEY, token); else storage.remove(TOKEN_KEY);
    if (actingUser) storage.set(USER_KEY, actingUser); else storage.remove(USER_KEY);
    renderToken();
    // Everything read so far may have been refused, or was someone else's (posts, likes, follows): read it again.
    people.forget();
    threads.close({focus: false});
    if ($("#profile").open) $("#profile").close();
    player.reload();
    marks.load();
    comments.load(true);
    comments.restart();
    if (roll.loaded || activeTab === "roll") roll.load(true);
    jobs.reload();
    live.reload();
  });
  $("#settings-open").addEventListener("click", () => openSettings());

  // ---------------------------------------------------------------- start

  renderToken();
  selectTab(location.hash.slice(1) || "feed");
  if (activeTab === "feed") $("#feed").focus({preventScroll: true});
  player.start();
  marks.load();
  comments.load(true);
  comments.startLive();
})();
