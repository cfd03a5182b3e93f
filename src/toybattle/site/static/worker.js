// The site's Web Worker: Pyodide running toybattle's own app (toybattle.site.browser), so the page
// never freezes while a bot thinks. Messages (docs/browser.md):
//   page -> worker  {t:"http", id, method, path, headers, body}   {t:"ws-open", sock, path}
//                   {t:"ws-send", sock, data}                      {t:"ws-close", sock}
//   worker -> page  {t:"http", id, status, headers, body}          {t:"ws-open", sock}
//                   {t:"ws-message", sock, data}  {t:"ws-close", sock, code}
//                   {t:"status", line, params} (a line for the player, by name: the page says it in its
//                   language, web/js/net.js)  {t:"ready"}  {t:"failed", message}
// Games live in the app's SQLite file on an IndexedDB-backed file system (IDBFS at /data), saved
// after every write; an HTTP answer waits until the save is done.
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { loadCrypto } from "./crypto.js";  // sets globalThis.toybattleCrypto (online/mailbox/browser_crypto.py)

const BASE = new URL("./", import.meta.url);
const DB_DIR = "/data";
const queue = [];
let bridge = null;
let FS = null;

self.onmessage = (ev) => (bridge ? handle(ev.data) : queue.push(ev.data));
const post = (msg) => self.postMessage(msg);

// ---- saving: every store write marks the file system dirty; one syncfs at a time drains it
let dirty = false;
let draining = null;
function persist() {
  dirty = true;
  draining ??= drain();
}
async function drain() {
  while (dirty) {
    dirty = false;
    try {
      await new Promise((ok, fail) => FS.syncfs(false, (e) => (e ? fail(e) : ok())));
    } catch (e) {
      post({ t: "status", line: "notSaved", params: { error: String(e) } });
    }
  }
  draining = null;
}
const saved = async () => { while (draining) await draining; };

async function handle(msg) {
  try {
    if (msg.t === "http") {
      const res = await bridge.http(msg.method, msg.path, self.pyodide.toPy(msg.headers), msg.body);
      const out = res.toJs({ dict_converter: Object.fromEntries });
      res.destroy();
      await saved();
      post({ t: "http", id: msg.id, ...out });
    } else if (msg.t === "ws-open") bridge.ws_open(msg.sock, msg.path);
    else if (msg.t === "ws-send") bridge.ws_receive(msg.sock, msg.data);
    else if (msg.t === "ws-close") bridge.ws_close(msg.sock);
  } catch (e) {
    if (msg.t === "http") post({ t: "http", id: msg.id, status: 500, headers: [["content-type", "application/json"]],
                                 body: JSON.stringify({ error: `internal error: ${String(e).split("\n").pop()}` }) });
  }
}

// One tab at a time owns the games file: two workers would each save their own copy over the other's.
async function ownGames() {
  if (!navigator.locks) return;
  await new Promise((owned) => {
    navigator.locks.request("toybattle-games", { ifAvailable: true }, (lock) => {
      if (lock) { owned(); return new Promise(() => {}); }
      post({ t: "status", line: "otherTab" });
      navigator.locks.request("toybattle-games", () => { owned(); return new Promise(() => {}); });
      return null;
    });
  });
}

async function boot() {
  await ownGames();
  post({ t: "status", line: "starting" });
  const [py, site] = await Promise.all([
    loadPyodide({ indexURL: new URL("pyodide/", BASE).href, stdout: () => {}, stderr: (s) => console.warn(s) }),
    fetch(new URL("site.json", BASE)).then((r) => r.json()),
    loadCrypto(BASE),  // the noble modules are in npm/ beside this file
  ]);
  self.pyodide = py;
  FS = py.FS;
  FS.mkdirTree(DB_DIR);
  FS.mount(FS.filesystems.IDBFS, {}, DB_DIR);
  await new Promise((ok, fail) => FS.syncfs(true, (e) => (e ? fail(e) : ok())));
  const archives = await Promise.all([...site.wheels, site.package].map((f) => fetch(new URL(f, BASE)).then((r) => {
    if (!r.ok) throw new Error(`${f}: HTTP ${r.status}`);
    return r.arrayBuffer();
  })));
  site.wheels.forEach((_, i) => py.unpackArchive(archives[i], "wheel"));
  py.unpackArchive(archives.at(-1), "zip", { extractDir: "/lib/toybattle" });
  py.runPython("import sys; sys.path.insert(0, '/lib/toybattle')");
  const browser = py.pyimport("toybattle.site.browser");
  // a socket message leaves only once what it shows is saved: a page never shows an unsaved state
  let outbox = Promise.resolve();
  const send = (m) => {
    const msg = m.toJs({ dict_converter: Object.fromEntries });
    outbox = outbox.then(saved).then(() => post(msg));
  };
  bridge = await browser.serve(`${DB_DIR}/games.sqlite3`, send, persist);
  post({ t: "ready" });
  while (queue.length) handle(queue.shift());
}

boot().catch((e) => post({ t: "failed", message: String(e).split("\n").filter(Boolean).pop() }));
