// The site's service worker: every file of the site is cached at install, under the site's version,
// and served from that cache, so after the first visit the site works with the network off.
// `toybattle site` writes VERSION (derived from the bytes of every file) and FILES: a new build
// changes this file, the browser installs the new version in the background, and the next visit
// uses it. Saved games are not here (they live in IndexedDB), so an update never touches them.
const VERSION = "__VERSION__";
const FILES = ["__FILES__"];
const CACHE = `toybattle-${VERSION}`;
// pages asked for by another name than their file
const ALIASES = { "/": "/index.html", "/learn": "/learn/index.html", "/learn/": "/learn/index.html" };

// Each file is asked for under its version (?v=...) and stored under its own name: no copy that a
// browser or proxy cache kept from an older version can slip into the new one.
async function fill(cache) {
  await Promise.all(FILES.map(async (f) => {
    const r = await fetch(`${f}?v=${VERSION}`, { cache: "no-store" });
    if (!r.ok) throw new Error(`${f}: HTTP ${r.status}`);
    await cache.put(f, r);
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

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  // the app's own links to a game (/join/GAME/TOKEN, e.g. a lesson played on) open the game page
  const path = ALIASES[url.pathname] || (url.pathname.startsWith("/join/") ? "/index.html" : url.pathname);
  if (!FILES.includes(path)) return;
  event.respondWith(caches.open(CACHE).then((c) => c.match(path)).then((hit) => hit || fetch(event.request)));
});
