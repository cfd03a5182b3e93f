// The site's service worker: every file of the site is cached at install, under the site's version,
// and served from that cache, so after the first visit the site works with the network off.
// `toybattle site` writes VERSION (derived from the bytes of every file) and FILES: a new build
// changes this file, the browser installs the new version in the background, and the next visit
// uses it. Saved games are not here (they live in IndexedDB), so an update never touches them.
const VERSION = "__VERSION__";
const FILES = ["__FILES__"];  // paths under the site's root: "/index.html" is ROOT + "index.html"
const CACHE = `toybattle-${VERSION}`;
// The site's root is this file's directory ("/", or e.g. "/toybattle/" on a project page): the site works
// wherever it is served, and its cache serves only what lies under it.
const ROOT = new URL("./", self.location).pathname;
const at = (path) => ROOT + path.slice(1);  // a path under the root ("/learn/") as the URL's path
// pages asked for by another name than their file
const ALIASES = { "/": "/index.html", "/learn/": "/learn/index.html" };

// Each file is asked for under its version (?v=...) and stored under its own name: no copy that a
// browser or proxy cache kept from an older version can slip into the new one.
async function fill(cache) {
  await Promise.all(FILES.map(async (f) => {
    const r = await fetch(`${at(f)}?v=${VERSION}`, { cache: "no-store" });
    if (!r.ok) throw new Error(`${f}: HTTP ${r.status}`);
    await cache.put(at(f), r);
  }));
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then(fill).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("toybattle-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The game page at a join link's address, told by a <base> that its relative addresses (static/...) start at
// the root, not in the link's directories; the page then puts its own address back at the root (app.js).
async function joinPage(request) {
  const hit = await caches.open(CACHE).then((c) => c.match(at("/index.html")));
  if (!hit) return fetch(request);
  const html = (await hit.text()).replace("<head>", `<head><base href="${ROOT}">`);
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || !url.pathname.startsWith(ROOT)) return;
  const rel = "/" + url.pathname.slice(ROOT.length);
  // the Learn page's relative addresses need its directory's slash (the home links to /learn, as the server has it)
  if (rel === "/learn") { event.respondWith(Response.redirect(`${ROOT}learn/${url.search}`, 301)); return; }
  // the app's own links to a game (/join/GAME/TOKEN, e.g. a lesson played on) open the game page
  if (/^\/join\/[^/]+\/[^/]+$/.test(rel)) { event.respondWith(joinPage(event.request)); return; }
  const path = ALIASES[rel] || rel;
  if (!FILES.includes(path)) return;
  event.respondWith(caches.open(CACHE).then((c) => c.match(at(path))).then((hit) => hit || fetch(event.request)));
});
