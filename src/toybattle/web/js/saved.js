// Games this browser holds tokens for, in localStorage "tb.games": {id: {kind, tokens: {blue?, red?}, created,
// host?, imported?, summary?}}. `summary` is the game's last known status (the app's /api/games/{id}: terrain,
// kind, ply, over, result, turn, offers...), so "Your games" is drawn at once, before the app can answer.
// Whatever else the key holds (a damaged value, another version's or another program's entries) is never
// thrown at a caller: `read` skips what is not a game and says how many; writes keep it as it was.
const KEY = "tb.games";
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const SEAT_TOKEN = (t) => typeof t === "string" && t.length > 0 && t.length <= 64;

/** The raw map as stored, or null if the key holds no JSON object (nothing stored is {}). */
function raw() {
  let text = null;
  try { text = localStorage.getItem(KEY); } catch { return {}; }
  if (text === null) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch { return null; }
}

/** `e` as a saved game if it is one (null if not); a summary of the wrong shape is dropped, not the game. */
function clean(id, e) {
  if (!ID.test(id) || !e || typeof e !== "object" || Array.isArray(e)) return null;
  const tokens = e.tokens && typeof e.tokens === "object" && !Array.isArray(e.tokens)
    ? Object.fromEntries(Object.entries(e.tokens).filter(([s, t]) => (s === "blue" || s === "red") && SEAT_TOKEN(t))) : {};
  if (!Object.keys(tokens).length) return null;
  const summary = e.summary && typeof e.summary === "object" && !Array.isArray(e.summary) ? e.summary : null;
  return { ...e, tokens, summary, created: Number.isFinite(e.created) ? e.created : 0 };
}

function write(map) {
  try {
    localStorage.setItem(KEY, JSON.stringify(map));
    saved.full = false;
    return true;
  } catch {  // the browser's storage for this site is full (QuotaExceededError), or refused
    saved.full = true;
    return false;
  }
}

/** Ask the browser to keep this site's storage (games file and all) under storage pressure: once, when the
 * first game is saved. Whatever it answers, nothing waits for it. */
function askToPersist() {
  try {
    const asked = navigator.storage && navigator.storage.persist && navigator.storage.persist();
    if (asked && asked.catch) asked.catch(() => {});
  } catch { /* no Storage API: nothing to ask */ }
}

export const saved = {
  full: false,  // the last write found the storage full: the games list says so
  /** {games: [[id, entry]...] newest first, skipped: how many stored entries are no game} */
  read() {
    const map = raw();
    if (map === null) return { games: [], skipped: 1 };
    const games = [];
    let skipped = 0;
    for (const [id, e] of Object.entries(map)) {
      const g = clean(id, e);
      if (g) games.push([id, g]); else skipped++;
    }
    games.sort((a, b) => b[1].created - a[1].created);
    return { games, skipped };
  },
  all() { return Object.fromEntries(this.read().games); },
  get(id) { return this.all()[id] || null; },
  /** Add to a game's entry (a new one if need be); false if the browser's storage would not take it. */
  put(id, entry) {
    let map = raw();
    if (map === null) {  // a damaged value: kept aside, never silently lost, and a fresh map started
      try { localStorage.setItem(`${KEY}.damaged`, localStorage.getItem(KEY)); } catch { /* full: it stays in KEY */ }
      map = {};
    }
    const first = !Object.keys(map).some((k) => clean(k, map[k]));
    map[id] = { ...(map[id] && typeof map[id] === "object" ? map[id] : {}), ...entry };
    const ok = write(map);
    if (ok && first && clean(id, map[id])) askToPersist();
    return ok;
  },
  remove(id) {
    const map = raw();
    if (!map || !(id in map)) return true;
    delete map[id];
    return write(map);
  },
};
