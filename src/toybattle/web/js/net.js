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

const SITE = document.querySelector('meta[name="toybattle-transport"]')?.content === "worker";
const OPEN = 1; // WebSocket.OPEN

let worker = null; // a promise of the site's Web Worker, started once
const answers = new Map(); // http request id -> {resolve, reject}
const sockets = new Map(); // socket number -> WorkerSocket
let nextRequest = 1;
let nextSocket = 1;
let failure = null;

// On a first visit the service worker caches the whole site first and the Web Worker then loads
// Python from that cache: the big files cross the network once, not twice.
async function offlineCache() {
  if (!("serviceWorker" in navigator)) return;
  const sw = navigator.serviceWorker;
  try {
    const reg = await sw.register(new URL("sw.js", ROOT));  // its scope: ROOT, the script's own directory
    const coming = reg.installing || reg.waiting;
    if (sw.controller || !coming) return;
    loading(t("site.offline"));
    await new Promise((done) => {
      sw.addEventListener("controllerchange", done, { once: true });
      coming.addEventListener("statechange", () => coming.state === "redundant" && done());
    });
  } catch (e) {
    console.warn("no offline cache:", e);
  }
}

// a line for the player while the page waits for Python (the app's "Loading…" paragraph)
function loading(text) {
  const p = document.querySelector(".loading");
  if (p) p.textContent = text;
}

// The worker's lines for the player, by the name it sends ({t: "status", line, params}): the page says
// them in its own language.
const WORKER_LINES = { starting: "site.starting", otherTab: "site.otherTab", notSaved: "site.notSaved" };

function onWorkerMessage({ data: m }) {
  if (m.t === "http") {
    const a = answers.get(m.id);
    answers.delete(m.id);
    if (a) a.resolve(m);
  } else if (m.t === "failed") {
    failure = new Error(`${t("site.failed")}: ${m.message}`);
    failure.site = m.message;  // the screen that meets it says so in the page's language (app.js)
    for (const a of answers.values()) a.reject(failure);
    answers.clear();
    for (const s of [...sockets.values()]) s.closedByWorker(1011);
  } else if (m.t === "status") {
    loading(t(WORKER_LINES[m.line] || "site.loading", m.params || {}));
  } else if (m.t.startsWith("ws-")) {
    const s = sockets.get(m.sock);
    if (!s) return;
    if (m.t === "ws-open") s.openedByWorker();
    else if (m.t === "ws-message") s.onmessage && s.onmessage({ data: m.data });
    else if (m.t === "ws-close") s.closedByWorker(m.code);
  }
}

function toWorker(msg) {
  worker ??= offlineCache().then(() => {
    const w = new Worker(new URL("../site/worker.js", import.meta.url), { type: "module" });
    w.onmessage = onWorkerMessage;
    return w;
  });
  worker.then((w) => w.postMessage(msg));
}

if (SITE) {
  loading(t("site.loading"));  // the page's own "Loading…" line, in the page's language
  toWorker({ t: "start" }); // Python starts loading while the page draws
}

function isApi(url) {
  return url.origin === location.origin && url.pathname.startsWith("/api/");
}

/** `window.fetch` for the app's API: in the site, answered by the worker with a real Response. */
export function fetch(resource, opts = {}) {
  const url = new URL(typeof resource === "string" ? resource : resource.url, location.href);
  if (isApi(url)) opts = { ...opts, headers: { ...(opts.headers || {}), "accept-language": lang } };  // texts the server builds
  if (!SITE || !isApi(url)) return globalThis.fetch(resource, opts);
  if (failure) return Promise.reject(failure);
  const id = nextRequest++;
  const msg = { t: "http", id, method: opts.method || "GET", path: url.pathname + url.search,
                headers: [...new Headers(opts.headers || {})], body: typeof opts.body === "string" ? opts.body : "" };
  return new Promise((resolve, reject) => {
    answers.set(id, { resolve, reject });
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
    toWorker({ t: "ws-open", sock: this.sock, path });
    if (failure) queueMicrotask(() => this.closedByWorker(1011));
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
