// Starting the site's Python (Pyodide with toybattle), shared by the worker that plays (worker.js) and the one
// that makes the memory snapshot later visits restore (snapshot.js).

export const BASE = new URL("./", import.meta.url);

export async function get(file) {
  const r = await fetch(new URL(file, BASE));
  if (!r.ok) throw new Error(`${file}: HTTP ${r.status}`);
  return r;
}

// site.json names the content-hashed files of this build (site/build.py)
export const siteFiles = async () => (await get("site.json")).json();

export const pyodideOptions = (site) => ({ indexURL: new URL(site.pyodide, BASE).href, stdout: () => {},
                                           stderr: (s) => console.warn(s) });

// the wheels and the package, fetched meanwhile (met once Python is there)
export const fetchArchives = (site) =>
  Promise.all([...site.wheels, site.package].map((f) => get(f).then((r) => r.arrayBuffer())));

// the files: a snapshot holds Python's memory, not its file system (data files, modules imported later)
export function unpack(py, site, unpacked) {
  site.wheels.forEach((_, i) => py.unpackArchive(unpacked[i], "wheel"));
  py.unpackArchive(unpacked.at(-1), "zip", { extractDir: "/lib/toybattle" });
}

export const IMPORT_APP = "import sys; sys.path.insert(0, '/lib/toybattle'); import toybattle.site.browser";

// Python's memory once the app is imported, kept per build (Cache API, outside the service worker's caches):
// a later start restores it instead of starting Python and importing the app again (docs/browser.md).
export const SNAPSHOTS = "tb-python-snapshot";
export const snapshotKey = (site) => new URL(`python-snapshot/${site.pyodide}${site.package}`, BASE).href;

export async function keptSnapshot(key) {
  try {
    const hit = await (await caches.open(SNAPSHOTS)).match(key);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null;  // no Cache API here (or it failed): start Python the long way
  }
}

export async function keepSnapshot(key, bytes) {
  const cache = await caches.open(SNAPSHOTS);
  for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
  await cache.put(key, new Response(bytes));
}

export const forgetSnapshot = (key) => caches.open(SNAPSHOTS).then((c) => c.delete(key));
