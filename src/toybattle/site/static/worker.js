// The site's Web Worker: Pyodide running toybattle's own app (toybattle.site.browser), so the page
// never freezes while a bot thinks. Messages (docs/browser.md):
//   page -> worker  {t:"http", id, method, path, headers, body}   {t:"ws-open", sock, path}
//                   {t:"ws-send", sock, data}                      {t:"ws-close", sock}
//   worker -> page  {t:"http", id, status, headers, body}          {t:"ws-open", sock}
//                   {t:"ws-message", sock, data}  {t:"ws-close", sock, code}
//                   {t:"status", line, params} (a line for the player, by name: the page says it in its
//                   language, web/js/net.js)  {t:"stage", stage, ms} (start-up, for the progress bar and
//                   the benchmark: ms since the worker started)  {t:"ready"}
//                   {t:"failed", message, cut} (cut: a download failed or stopped midway)
// Games live in the app's SQLite file on an IndexedDB-backed file system (IDBFS at /data), saved
// after every write; an HTTP answer waits until the save is done.
import { loadCrypto } from "./crypto.js";  // sets globalThis.toybattleCrypto (online/mailbox/browser_crypto.py)
import { BASE, IMPORT_APP, fetchArchives, forgetSnapshot, keptSnapshot, pyodideOptions, siteFiles, snapshotKey,
         unpack } from "./python.js";

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
// online play's socket sends a frame to the other side only once what it says is saved (browser_socket.py)
self.toybattleSaved = saved;

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

const t0 = performance.now();
const stage = (name) => post({ t: "stage", stage: name, ms: Math.round(performance.now() - t0) });


let restored = false;  // this start restored a snapshot (if it fails, the snapshot goes)
let snapshotHeap = 0;  // bytes of Python's memory in the snapshot being restored (see fit, below)
let key = null;  // this build's snapshot, once site.json is read

// Every random source is seeded again from the system's entropy once the app is imported: a restored snapshot
// froze them, and a Python started to make one seeds them from fixed entropy (so that snapshots are
// reproducible); each random.Random made while importing (the random module's own among them) would otherwise
// repeat its numbers on every visit. The app deals and keys from SystemRandom, which holds no state.
const RESEED = `
import gc, os, random
for r in gc.get_objects():
    if type(r) is random.Random or (isinstance(r, random.Random) and not isinstance(r, random.SystemRandom)):
        r.seed(os.urandom(32))
`;

// Python with the app imported: restored from this build's snapshot when one is kept (fast), else started the
// long way, and then a snapshot is made for the next visit, in a worker of its own (snapshot.js) once the game
// is playable: the first visit does not wait for it.
async function startPython(site, loadPyodide, archives, snapshot) {
  restored = snapshot !== null;
  // the snapshot's layout: a header whose length is its second 32-bit word, then Python's memory
  if (restored) {
    const header = new DataView(snapshot.buffer, snapshot.byteOffset).getUint32(4, true);
    snapshotHeap = snapshot.byteLength - header;
  }
  const py = await loadPyodide(restored ? { ...pyodideOptions(site), _loadSnapshot: snapshot } : pyodideOptions(site));
  stage(restored ? "restored" : "python");
  unpack(py, site, await archives);
  if (!restored) py.runPython(IMPORT_APP);
  stage("unpacked");
  return py;
}

// SNAPSHOT_AFTER_MS after the game is playable: the player's first taps go first, and the sooner it is kept,
// the likelier a short first visit leaves the next one fast
const SNAPSHOT_AFTER_MS = 1000;
function snapshotLater(site) {
  setTimeout(() => {
    const maker = new Worker(new URL("snapshot.js", BASE), { type: "module" });
    maker.onmessage = ({ data }) => {
      if (data.t === "kept") stage("snapshot");
      else console.warn("no Python snapshot kept:", data.message);
      maker.terminate();
    };
    maker.onerror = (e) => { console.warn("no Python snapshot kept:", e.message); maker.terminate(); };
    maker.postMessage({ site });
  }, SNAPSHOT_AFTER_MS);
}

async function boot() {
  await ownGames();
  post({ t: "status", line: "starting" });
  // site.json names the content-hashed files of this build (site/build.py)
  const site = await siteFiles();
  stage("worker");
  key = snapshotKey(site);
  const [{ loadPyodide }, snapshot] = await Promise.all([
    import(new URL(`${site.pyodide}pyodide.mjs`, BASE).href), keptSnapshot(key)]);
  const archives = fetchArchives(site);
  archives.catch(() => {});  // met below, once Python is there
  const [py] = await Promise.all([startPython(site, loadPyodide, archives, snapshot), loadCrypto(BASE)]);
  self.pyodide = py;
  FS = py.FS;
  // the games file comes from IndexedDB meanwhile (Python's memory, and so a snapshot, knows nothing of it)
  FS.mkdirTree(DB_DIR);
  FS.mount(FS.filesystems.IDBFS, {}, DB_DIR);
  const synced = new Promise((ok, fail) => FS.syncfs(true, (e) => (e ? fail(e) : ok())));
  synced.catch(() => {});  // met below
  py.runPython(RESEED);
  const browser = py.pyimport("toybattle.site.browser");
  stage("imported");
  await synced;
  // a socket message leaves only once what it shows is saved: a page never shows an unsaved state
  let outbox = Promise.resolve();
  const send = (m) => {
    const msg = m.toJs({ dict_converter: Object.fromEntries });
    outbox = outbox.then(saved).then(() => post(msg));
  };
  bridge = await browser.serve(`${DB_DIR}/games.sqlite3`, send, persist);
  stage("ready");
  post({ t: "ready" });
  while (queue.length) handle(queue.shift());
  if (!restored) snapshotLater(site);
}

let booted = false;
const failed = (e) => {
  if (booted) return;
  booted = true;  // said once; the page ends this worker and starts another when the player tries again
  const message = String(e).split("\n").filter(Boolean).pop();
  // a snapshot that would not start is not tried again: the next start is the long one, and makes a new one
  const forget = restored ? forgetSnapshot(key) : Promise.resolve();
  // a download that failed or stopped midway is said as such to the player (net.js); the rest as it is
  forget.catch(() => {}).finally(() => post({ t: "failed", message, cut: /network|fetch|HTTP \d|aborted/i.test(message) }));
};
// Pyodide's loader meets a broken download of its WebAssembly (a body cut off midway) by aborting its module
// without rejecting loadPyodide's promise, which then never settles: the compile's own failure is caught here
for (const name of ["instantiateStreaming", "instantiate"]) {
  const real = WebAssembly[name];
  if (real) WebAssembly[name] = (...args) => real.apply(WebAssembly, args).then(fit, (e) => { failed(e); throw e; });
}
// A snapshot holds Python's whole memory, and Pyodide restores it into the memory its module declares (30 MB),
// ignoring the size it asks for (pyodide/pyodide issue 6254): once importing the app has grown the memory, the
// restore fails. So Python's memory is grown to the snapshot's size here, as soon as the module is made and
// before Pyodide reads it.
function fit(made) {
  const memory = (made instanceof WebAssembly.Instance ? made : made.instance)?.exports?.memory;
  if (snapshotHeap && memory instanceof WebAssembly.Memory) {
    const missing = snapshotHeap - memory.buffer.byteLength;
    if (missing > 0) memory.grow(Math.ceil(missing / 65536));
    snapshotHeap = 0;  // Python's module only: the libraries it loads later share its memory
  }
  return made;
}
self.addEventListener("unhandledrejection", (e) => failed(e.reason));
boot().then(() => { booted = true; }, failed);
