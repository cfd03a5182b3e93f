// What the server says about the game itself (/api/meta: troops, special bases, terrains, rule texts)
// and the terrains' boards, fetched once per page.
import { fetch } from "./net.js"; // the API through the transport seam (server or in-browser worker)
import { t as tr, seatName } from "./i18n.js";

const cache = { meta: null, terrains: {} };

/** GET (or POST `body` as JSON) and parse; an error reply throws its one-line message. */
export async function getJSON(url, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(url, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

export async function getMeta() {
  if (!cache.meta) cache.meta = await getJSON("/api/meta");
  return cache.meta;
}

/** The meta loaded so far (after `await getMeta()`). */
export const meta = () => cache.meta;

/** Whether the app offers `feature` (/api/meta's features: "lan", "lessons", "online"), after `await getMeta()`.
 * The app says it; the static site's in-browser app has no "lan" (no other device reaches it). */
export const offers = (feature) => ((cache.meta && cache.meta.features) || []).includes(feature);

// The promise is kept, not its result: views that arrive together then resolve in arrival order.
export function getTerrain(id) {
  if (!cache.terrains[id]) {
    cache.terrains[id] = getJSON(`/api/terrains/${id}`).catch((e) => { delete cache.terrains[id]; throw e; });
  }
  return cache.terrains[id];
}

export function troop(code) { return cache.meta && cache.meta.troops.troops.find((t) => t.code === code); }
export function troopName(code) { const t = troop(code); return t ? t.name : "?"; }

/** A troop's strength in words ("strength 4", "joker"). */
export function strengthWords(code) {
  const t = troop(code);
  return !t ? "?" : t.strength === null ? tr("play.joker") : tr("play.strength", { n: t.strength });
}

/** A troop in words for a screen reader: its name and strength ("Hook, strength 4"). */
export function troopWords(code) {
  return tr("board.troop", { name: troopName(code), strength: strengthWords(code) });
}

/** What is on a base, for a screen reader: every tile from the top down, with its owner ("yours" for
 * `seat`'s), troop and strength; "" for an empty base. */
export function stackWords(stack, seat) {
  const tiles = stack.slice().reverse().map(([owner, code]) => tr("board.tile",
    { whose: owner === seat ? tr("play.your") : seatName(owner), troop: troopWords(code) }));
  if (tiles.length < 2) return tiles.join("");
  return tr("board.stack", { n: tiles.length, tiles: tiles.join(tr("list.sep")) });
}
export function terrainInfo(id) { return cache.meta.terrains.find((t) => t.id === id); }
