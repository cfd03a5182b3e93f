// The page's one transport seam. Every HTTP-API call (`fetch` below) and the websocket protocol
// (docs/protocol.md, `GameSocket`) go through here, to one of two places:
// - the app's server (`toybattle serve`): plain fetch and a WebSocket;
// - the static site (`toybattle site`, whose pages carry <meta name="toybattle-transport"
//   content="worker">): the same requests and messages, handed to a Web Worker that runs the same
//   app on Pyodide (static/site/worker.js; messages in docs/browser.md).
// Modules call `fetch` from here instead of the global one; nothing else changes between the two.

import { lang, t } from "./i18n.js";

// Where the app lives: the server's root, or the directory the static site was put in (its root, or any path
// such as a project page's /toybattle/). This module is <root>/static/js/net.js, so its own URL says where.
export const ROOT = new URL("../../", import.meta.url);

/** The address of the app's own page `path` ("/learn", "/#/game/x", "/join/..."): under ROOT, so the
 * site's links stay in its directory; on the server (ROOT "/") the same path as before. */
export const appURL = (path) => new URL(path.replace(/^\//, ""), ROOT).href;

export const SITE = document.querySelector('meta[name="toybattle-transport"]')?.content === "worker";
const OPEN = 1; // WebSocket.OPEN

let worker = null; // a promise of the site's Web Worker, started once (again after a failure)
const answers = new Map(); // http request id -> {resolve, reject}
const sockets = new Map(); // socket number -> WorkerSocket
let nextRequest = 1;
let nextSocket = 1;
let failure = null;
let ready = false;
let pythonIsReady = null;  // resolves when the site's worker says "ready"
let python = new Promise((ok) => { pythonIsReady = ok; });

/** Resolves when the app can answer every request: at once with a server; on the static site, once its
 * worker has started Python. A screen that can show something first (cached or built data) waits on this
 * for the rest, instead of making the player wait for Python. */
export const whenPython = () => (SITE ? python : Promise.resolve());

// The app's answers that the site built into files (site/build.py: the page's <meta name="toybattle-built">):
// the terrains, troops, rules and lessons, read at once, without waiting for Python.
const BUILT = new Set((document.querySelector('meta[name="toybattle-built"]')?.content || "").split(" ").filter(Boolean));

// ---- the start-up line: shown only while something the player asked for waits for Python (a game, a
// lesson's move, online play), with the download's bytes on a first visit and the stage after that
let waiting = 0;  // requests and sockets waiting for the worker's "ready"
let stage = { line: "site.loading", done: 0, total: 0 };

function drawProgress() {
  let box = document.getElementById("site-progress");
  if (!waiting || ready || failure) { if (box) box.remove(); return; }
  if (!box) {
    box = document.createElement("div");
    box.id = "site-progress";
    box.setAttribute("role", "status");
    box.append(document.createElement("p"), document.createElement("progress"));
    document.body.append(box);
  }
  const mb = (n) => (n / 1e6).toFixed(1);
  box.firstChild.textContent = t(stage.line, { done: mb(stage.done), total: mb(stage.total) });
  const bar = box.lastChild;
  bar.setAttribute("aria-label", box.firstChild.textContent);
  if (stage.total) { bar.max = stage.total; bar.value = stage.done; } else bar.removeAttribute("value");
}

function setStage(line, done = 0, total = 0) {
  stage = { line, done, total };
  drawProgress();
}

/** Count one request or socket as waiting for Python, until the worker is ready (the progress line shows meanwhile). */
function needPython() {
  if (ready) return;
  waiting++;
  drawProgress();
  python.finally(() => { waiting--; drawProgress(); });
}

const NOTICES = { otherTab: "site.otherTab", notSaved: "site.notSaved", damaged: "site.damaged" };
// A line that stays until the player closes it (a save that failed, another tab holding the games)
function notice(line, params) {
  let box = document.getElementById("site-notice");
  if (!box) {
    box = document.createElement("div");
    box.id = "site-notice";
    box.setAttribute("role", "alert");
    const close = document.createElement("button");
    close.className = "btn";
    close.textContent = "×";
    close.setAttribute("aria-label", t("site.dismiss"));
    close.addEventListener("click", () => box.remove());
    box.append(document.createElement("p"), close);
    document.body.append(box);
  }
  box.dataset.line = line;
  box.firstChild.textContent = t(NOTICES[line], params);
}

// On a first visit the service worker caches the whole site first and the Web Worker then loads
// Python from that cache: the big files cross the network once, not twice.
async function offlineCache() {
  if (!("serviceWorker" in navigator)) return;
  const sw = navigator.serviceWorker;
  sw.addEventListener("message", ({ data: m }) => {
    if (m && m.t === "sw-progress" && !ready) setStage("site.download", m.done, m.total);
  });
  try {
    const reg = await sw.register(new URL("sw.js", ROOT));  // its scope: ROOT, the script's own directory
    const coming = reg.installing || reg.waiting;
    if (sw.controller || !coming) return;
    setStage("site.offline");
    await new Promise((done) => {
      sw.addEventListener("controllerchange", done, { once: true });
      coming.addEventListener("statechange", () => coming.state === "redundant" && done());
    });
  } catch (e) {
    console.warn("no offline cache:", e);
  }
}

// The worker's lines for the player, by the name it sends ({t: "status", line, params}) and its start-up
// stages ({t: "stage"}): the page says them in its own language.
const STAGES = { python: "site.stage.python", restored: "site.stage.python", unpacked: "site.stage.app", imported: "site.stage.app" };

function onWorkerMessage({ data: m }) {
  if (m.t === "http") {
    const a = answers.get(m.id);
    answers.delete(m.id);
    if (a) a.resolve(m);
  } else if (m.t === "ready") {
    ready = true;
    document.documentElement.dataset.python = "ready";  // for scripts and tests: the app answers everything
    pythonIsReady();
    drawProgress();
    if (document.getElementById("site-notice")?.dataset.line === "otherTab") document.getElementById("site-notice").remove();
  } else if (m.t === "stage") {
    // a mark per stage, in the page's own clock (scripts/bench_site.py reads them); the worker's ms: since it started
    performance.mark(`toybattle:${m.stage}`, { detail: { workerMs: m.ms } });
    // "ready" is said by the ready message that follows, once the page has taken it in (the notice goes with it)
    if (m.stage !== "ready") document.documentElement.dataset.python = m.stage;
    if (STAGES[m.stage]) setStage(STAGES[m.stage]);
  } else if (m.t === "failed") {
    const why = m.cut ? t("site.cut") : m.message;
    failure = new Error(`${t("site.failed")}: ${why}`);
    failure.site = why;  // the screen that meets it says so in the page's language (app.js)
    console.warn("Python did not start:", m.message);
    for (const a of answers.values()) a.reject(failure);
    answers.clear();
    for (const s of [...sockets.values()]) s.closedByWorker(1011);
    worker.then((w) => w.terminate());
    waiting = 0;  // each was answered by the failure
    drawProgress();
  } else if (m.t === "status") {
    if (m.line === "starting") setStage("site.starting");
    else notice(NOTICES[m.line] ? m.line : "notSaved", m.params || {});
  } else if (m.t.startsWith("ws-")) {
    const s = sockets.get(m.sock);
    if (!s) return;
    if (m.t === "ws-open") s.openedByWorker();
    else if (m.t === "ws-message") s.onmessage && s.onmessage({ data: m.data });
    else if (m.t === "ws-close") s.closedByWorker(m.code);
  }
}

/** Start the worker if it is not running: after a failure (a download cut off, say), the next thing the
 * player asks of Python tries again. */
function startWorker() {
  if (failure) {
    failure = null;
    worker = null;
    python = new Promise((ok) => { pythonIsReady = ok; });
  }
  worker ??= offlineCache().then(() => {
    const w = new Worker(new URL("../site/worker.js", import.meta.url), { type: "module" });
    w.onmessage = onWorkerMessage;
    return w;
  });
  return worker;
}

function toWorker(msg) {
  startWorker().then((w) => w.postMessage(msg));
}

if (SITE) {
  // Python starts in the background once the page has drawn its first screen (which needs no Python)
  const start = () => startWorker();
  if ("requestIdleCallback" in window) requestIdleCallback(start, { timeout: 1000 }); else setTimeout(start, 0);
}

function isApi(url) {
  return url.origin === location.origin && url.pathname.startsWith("/api/");
}

/** `window.fetch` for the app's API: in the site, answered from the built files or by the worker, with a
 * real Response. */
export function fetch(resource, opts = {}) {
  const url = new URL(typeof resource === "string" ? resource : resource.url, location.href);
  if (isApi(url)) opts = { ...opts, headers: { ...(opts.headers || {}), "accept-language": lang } };  // texts the server builds
  if (!SITE || !isApi(url)) return globalThis.fetch(resource, opts);
  const method = (opts.method || "GET").toUpperCase();
  if (method === "GET" && !url.search && BUILT.has(url.pathname)) {
    return globalThis.fetch(new URL(`static/site/data/${lang}/${url.pathname.slice(5)}.json`, ROOT));
  }
  const id = nextRequest++;
  const msg = { t: "http", id, method, path: url.pathname + url.search,
                headers: [...new Headers(opts.headers || {})], body: typeof opts.body === "string" ? opts.body : "" };
  return new Promise((resolve, reject) => {
    answers.set(id, { resolve, reject });
    needPython();
    toWorker(msg);
  }).then((r) => new Response([101, 204, 205, 304].includes(r.status) ? null : r.body,
                              { status: r.status, headers: r.headers }));
}

/** A WebSocket look-alike whose frames go to the worker's app (only what GameSocket uses). */
class WorkerSocket {
  constructor(path) {
    this.sock = nextSocket++;
    this.readyState = 0;
    sockets.set(this.sock, this);
    // a game's socket reconnects by itself: after a failure only a request the player makes starts Python again
    if (failure) { queueMicrotask(() => this.closedByWorker(1011)); return; }
    needPython();
    toWorker({ t: "ws-open", sock: this.sock, path });
  }
  openedByWorker() { this.readyState = OPEN; this.onopen && this.onopen(); }
  closedByWorker(code) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    sockets.delete(this.sock);
    this.onclose && this.onclose({ code });
  }
  send(text) { if (this.readyState === OPEN) toWorker({ t: "ws-send", sock: this.sock, data: text }); }
  close() {
    if (this.readyState === 3) return;
    toWorker({ t: "ws-close", sock: this.sock });
    this.closedByWorker(1000);
  }
}

function openSocket(path) {
  if (SITE) return new WorkerSocket(path);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return new WebSocket(`${scheme}://${location.host}${path}`);
}

// The browser side of the websocket protocol (docs/protocol.md): one socket, bound to one seat,
// re-bound after every reconnect: to a seat by its token, or (`watch`: a watch link's key) as a
// spectator. Callbacks: onView(view), onError(message, id), onRematch(msg),
// onStatus("online" | "offline"), onChat(lines).

export class GameSocket {
  constructor({ game, token, watch, onView, onError, onRematch, onStatus, onOk, onHint, onChat }) {
    Object.assign(this, { game, token, watch, onView, onError, onRematch, onStatus, onOk, onHint, onChat });
    this.nextId = 1;
    this.closed = false;
    this.retry = 0;
    this.open();
  }

  open() {
    const ws = openSocket("/ws");
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.hello();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "view") this.onView && this.onView(msg.view);
      else if (msg.type === "welcome") this.onStatus && this.onStatus("online");
      else if (msg.type === "error") this.onError && this.onError(msg.message, msg.id);
      else if (msg.type === "rematch") this.onRematch && this.onRematch(msg);
      else if (msg.type === "ok") this.onOk && this.onOk(msg.id);
      else if (msg.type === "hint") this.onHint && this.onHint(msg);
      else if (msg.type === "chat") this.onChat && this.onChat(msg.lines || []);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus && this.onStatus("offline");
      const wait = Math.min(4000, 250 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.open(), wait);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === OPEN) {
      msg.id = this.nextId++;
      this.ws.send(JSON.stringify(msg));
      return msg.id;
    }
    return null;
  }

  /** Bind this socket to another seat of the same game (hot-seat hand-over). */
  rebind(token) {
    this.token = token;
    return this.hello();
  }

  hello() {
    const who = this.watch ? { watch: this.watch } : { token: this.token };
    return this.send({ type: "hello", game: this.game, ...who, lang });
  }

  act(action, ply) { return this.send({ type: "act", action, ply }); }
  undo() { return this.send({ type: "undo" }); }
  concede() { return this.send({ type: "concede" }); }
  hint() { return this.send({ type: "hint" }); }
  rematch() { return this.send({ type: "rematch" }); }
  /** A chat line: `{ text }` as typed, or `{ phrase }`, a quick phrase's key (each page says it in its words). */
  chat(line) { return this.send({ type: "chat", ...line }); }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
