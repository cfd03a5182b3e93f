// The worker that makes the memory snapshot a later visit restores (worker.js starts it once the game is
// playable, on a visit that found none). A Python started to make a snapshot wraps JavaScript's globals so
// that it may not use them (no WebSocket, no fetch), so it cannot be the Python that plays: it is one of its
// own, here, away from the player's, and it ends when the snapshot is kept. Messages: worker -> here
// {site}; here -> worker {t:"kept"} or {t:"failed", message}.
import { BASE, IMPORT_APP, fetchArchives, keepSnapshot, pyodideOptions, snapshotKey, unpack } from "./python.js";

self.onmessage = async ({ data: { site } }) => {
  try {
    const archives = fetchArchives(site);
    archives.catch(() => {});  // met below
    const { loadPyodide } = await import(new URL(`${site.pyodide}pyodide.mjs`, BASE).href);
    const maker = await loadPyodide({ ...pyodideOptions(site), _makeSnapshot: true });
    unpack(maker, site, await archives);
    maker.runPython(IMPORT_APP);
    await keepSnapshot(snapshotKey(site), maker.makeMemorySnapshot());
    self.postMessage({ t: "kept" });
  } catch (e) {
    self.postMessage({ t: "failed", message: String(e) });  // a full quota, say: the next visit starts the long way
  }
  self.close();
};
