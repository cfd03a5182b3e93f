// The site's service worker: every file of the site is cached at install and served from the cache, so after
// the first visit the site works with the network off. `toybattle site` writes VERSION and FILES, the site's
// manifest: {path: {h: hash of its bytes, n: bytes to fetch, gz: 1 if its gzip copy is fetched instead}}.
// A new build changes this file; the browser installs the new version in the background, fetching only the
// files whose hash changed (the others are copied from the cache), and the next visit uses it. Saved games
// are not here (they live in IndexedDB), so an update never touches them.
const VERSION = "__VERSION__";
const FILES = {"__FILES__": 0};
const CACHE = `toybattle-${VERSION}`;
// The site's root is this file's directory ("/", or e.g. "/toybattle/" on a project page): the site works
// wherever it is served, and its cache serves only what lies under it.
const ROOT = new URL("./", self.location).pathname;
const at = (path) => ROOT + path.slice(1);  // a path under the root ("/learn/") as the URL's path
// Each file is kept under its name and hash: a copy from any older version with the same hash is the same
// bytes, and no copy that a browser or proxy cache kept of other bytes can slip in.
const key = (path) => `${at(path)}?h=${FILES[path].h}`;
// pages asked for by another name than their file
const ALIASES = { "/": "/index.html", "/learn/": "/learn/index.html" };
const TYPES = { wasm: "application/wasm", mjs: "text/javascript", js: "text/javascript", json: "application/json",
                zip: "application/zip" };

// Tell the pages how far the download is ({t: "sw-progress", done, total} in bytes): the page shows it
// where something waits for Python (net.js).
async function progress(done, total) {
  for (const c of await self.clients.matchAll({ includeUncontrolled: true })) {
    c.postMessage({ t: "sw-progress", done, total });
  }
}

async function fetchFile(path) {
  const f = FILES[path];
  const r = await fetch(`${at(path)}${f.gz ? ".gz" : ""}?h=${f.h}`, { cache: "no-store" });
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  if (!f.gz) return r;
  // a plain static host serves the gzip copy as bytes; it is unpacked here, once, and cached as the file itself
  const type = TYPES[path.split(".").pop()] || "application/octet-stream";
  const body = await new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  return new Response(body, { headers: { "content-type": type } });
}

async function fill(cache) {
  const paths = Object.keys(FILES);
  const total = paths.reduce((n, p) => n + FILES[p].n, 0);
  let done = 0;
  let told = 0;
  await Promise.all(paths.map(async (path) => {
    const hit = (await caches.match(key(path))) || (await fetchFile(path));  // an older version's copy: the same bytes
    await cache.put(key(path), hit);
    done += FILES[path].n;
    if (done - told > total / 50 || done === total) { told = done; progress(done, total); }
  }));
}

self.addEventListener("install", (event) => {
  // a download cut midway leaves this version uninstalled (the page loads from the network meanwhile): the
  // next visit installs it again, and what arrived is kept in the cache below until then
  event.waitUntil(caches.open(CACHE).then(fill).then(() => self.skipWaiting()));
});

// The caches of older versions go, but the latest older one: a page that started before this version took
// over may still be loading its own files (fetch below finds them there).
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const old = (await caches.keys()).filter((k) => k.startsWith("toybattle-") && k !== CACHE);
    await Promise.all(old.slice(0, -1).map((k) => caches.delete(k)));
    await self.clients.claim();
  })());
});

// The page at another address than the root (a join link, the old Learn page), told by a <base> that its
// relative addresses (static/...) start at the root; the page then puts its own address back at the root (app.js).
async function pageAt(request) {
  const hit = await caches.open(CACHE).then((c) => c.match(key("/index.html")));
  if (!hit) return fetch(request);
  const html = (await hit.text()).replace("<head>", `<head><base href="${ROOT}">`);
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || !url.pathname.startsWith(ROOT)) return;
  const rel = "/" + url.pathname.slice(ROOT.length);
  if (rel === "/learn" || /^\/join\/[^/]+\/[^/]+$/.test(rel)) { event.respondWith(pageAt(event.request)); return; }
  const path = ALIASES[rel] || rel;
  if (FILES[path]) {
    event.respondWith(caches.open(CACHE).then((c) => c.match(key(path))).then((hit) => hit || fetch(event.request)));
  } else if (!url.search) {
    // a file of an older version that a page still running asks for (see activate)
    event.respondWith(caches.match(event.request, { ignoreSearch: true }).then((hit) => hit || fetch(event.request)));
  }
});
