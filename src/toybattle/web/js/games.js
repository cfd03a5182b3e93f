// "Your games": every game this browser holds, newest first. The list is drawn at once from each game's last
// known status, kept in its saved entry (saved.js); once the app can answer (on the static site, once Python
// is up: net.js's whenPython) each game not known to be over is asked again. A game can be deleted (from the
// app's games file and from this browser), a finished one saved as a record file in the project's notation
// (docs/notation.md), and such a file opened again as a game.
import { t, tn, seatName } from "./i18n.js";
import { h, fill } from "./dom.js";
import { meta } from "./data.js";
import { saved } from "./saved.js";
import { resumeOnline } from "./rooms.js";
import { fetch, whenPython } from "./net.js";
import { confirmBox } from "./sheet.js";

const KINDS = ["bot", "hotseat", "lan", "online"];
const EXPORTED = ["bot", "hotseat"];  // the kinds whose finished record the app saves as a file (docs/browser.md)
const MAX_FILE = 12_000;  // bytes: the app takes a record of at most 12,000 characters

let box = null;  // the panel being filled
let list = null;  // its <ul>
const missing = new Set();  // games the app does not know (gone from, or damaged in, its games file)
const fresh = new Set();  // games whose status the app gave on this visit: a game in progress opens only then

const note = (text) => { const p = box && box.querySelector("#games-note"); if (p) { p.textContent = text; p.hidden = !text; } };
const oops = (text) => { const p = box && box.querySelector("#games-error"); if (p) p.textContent = text; };

function terrainName(id, summary) {
  const m = meta();
  const tr = m && id ? m.terrains.find((x) => x.id === id) : null;
  return tr ? tr.name : (summary && summary.terrainName) || "";
}

function title(entry) {
  const s = entry.summary;
  if (entry.kind === "online" && !(s && s.terrain)) return t("home.onlineRoom");
  return terrainName(s && s.terrain, s) || t("games.aGame");
}

function statusLine(entry) {
  const s = entry.summary;
  if (!s) return t("games.unknownYet");
  if (s.over) return s.result || t("games.over");
  if (!s.turn) return t("games.waiting");
  const mine = Object.keys(entry.tokens).includes(s.turn);
  return mine && s.kind !== "hotseat" ? t("home.yourTurn") : t("home.toPlay", { seat: seatName(s.turn) });
}

function openButton(id, entry, token) {
  const s = entry.summary || {};
  const offers = s.offers || {};
  if (offers.resume) return h("button", { class: "btn primary", "data-game": id, onclick: () => resumeOnline(id, token) }, t("home.resume"));
  if (s.over && !offers.replay) return h("a", { class: "btn", href: `#/game/${id}`, "data-game": id }, t("home.look"));
  return h("a", { class: `btn ${s.over ? "" : "primary"}`, href: s.over ? `#/replay/${id}` : `#/game/${id}`, "data-game": id },
    s.over ? t("end.replay") : t("home.resume"));
}

function item(id, entry) {
  const token = Object.values(entry.tokens)[0];
  const name = title(entry);
  const kind = entry.imported ? t("games.imported") : KINDS.includes(entry.kind) ? t(`home.kind.${entry.kind}`) : "";
  const s = entry.summary;
  const facts = [kind, s && Number.isFinite(s.ply) ? t("home.move", { n: s.ply }) : ""].filter(Boolean).join(" · ");
  const broken = missing.has(id);
  const buttons = [
    !broken && s && (s.over || fresh.has(id)) && openButton(id, entry, token),
    !broken && s && s.over && h("a", { class: "btn", href: `#/review/${id}`, id: `btn-review-${id}`, "data-review": id,
      "aria-label": t("review.gameLabel", { name }) }, t("review.button")),
    !broken && s && s.over && EXPORTED.includes(s.kind) &&
      h("button", { class: "btn", "data-export": id, "aria-label": t("games.exportLabel", { name }), onclick: () => exportGame(id, token) },
        t("games.export")),
    h("button", { class: "btn ghost", "data-delete": id, "aria-label": t("games.deleteLabel", { name }),
      onclick: () => askDelete(id, token, name) }, t("games.delete")),
  ];
  return h("li", { class: "game-item", "data-id": id },
    h("div", {}, h("b", {}, name), facts && h("span", { class: "muted" }, ` · ${facts}`),
      h("div", { class: `small${broken ? " error" : ""}` }, broken ? t("games.missing") : statusLine(entry))),
    h("div", { class: "row wrap" }, buttons));
}

function draw() {
  const { games, skipped } = saved.read();
  fill(list, games.map(([id, e]) => item(id, e)));
  list.hidden = !games.length;
  box.querySelector("#games-empty").hidden = games.length > 0;
  const lines = [];
  if (skipped) lines.push(tn("games.skipped", skipped));
  if (saved.full) lines.push(t("games.storageFull"));
  note(lines.join(" "));
  return games;
}

function redraw(id) {
  const entry = saved.get(id);
  const old = list.querySelector(`li[data-id="${CSS.escape(id)}"]`);
  if (old && entry) old.replaceWith(item(id, entry));
  else if (old) old.remove();
}

/** The app's status of a game, kept as its summary; a game the app does not know is shown as missing. */
async function refresh(id, entry) {
  const token = Object.values(entry.tokens)[0];
  let r;
  try {
    r = await fetch(`/api/games/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`);
  } catch { return; }  // the app could not answer (Python failed to start): the summary stays
  if (r.status === 404) { missing.add(id); redraw(id); return; }
  if (!r.ok) return;
  let st;
  try { st = await r.json(); } catch { return; }
  if (!st || typeof st !== "object") return;
  missing.delete(id);
  fresh.add(id);
  const summary = { terrain: st.terrain, terrainName: terrainName(st.terrain, null), kind: st.kind, ply: st.ply, over: !!st.over,
    result: st.result, turn: st.turn, seat: st.seat, waiting: !!st.waiting, offers: st.offers || {}, at: Date.now() };
  saved.put(id, { summary });
  redraw(id);
}

async function refreshAll(games) {
  await whenPython();
  // games in progress first; a finished one is asked too (it cannot change, but its row may have been damaged)
  const order = [...games.filter(([, e]) => !(e.summary && e.summary.over)), ...games.filter(([, e]) => e.summary && e.summary.over)];
  for (const [id, e] of order) {
    if (!list.isConnected) return;  // the player left the home screen
    await refresh(id, e);
  }
}

function askDelete(id, token, name) {
  confirmBox(t("games.deleteAsk", { name }), t("games.delete"), async () => {
    oops("");
    let r;
    try {
      r = await fetch(`/api/games/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`,
        { method: "DELETE", headers: { "content-type": "application/json" } });
    } catch { oops(t("games.noApp")); return; }
    if (!r.ok && r.status !== 404) {  // 404: the app has no such game (any more): this browser forgets it too
      let said = "";
      try { said = (await r.json()).error || ""; } catch { /* no JSON: the line below */ }
      oops(said || t("games.noApp"));
      return;
    }
    saved.remove(id);
    missing.delete(id);
    draw();
    note(t("games.deleted", { name }));
  });
}

async function exportGame(id, token) {
  oops("");
  let r;
  try { r = await fetch(`/api/games/${encodeURIComponent(id)}/record?token=${encodeURIComponent(token)}`); } catch { oops(t("games.noApp")); return; }
  if (!r.ok) {
    let said = "";
    try { said = (await r.json()).error || ""; } catch { /* the line below */ }
    oops(said || t("games.noApp"));
    return;
  }
  const text = await r.text();
  const named = /filename="([^"]+)"/.exec(r.headers.get("content-disposition") || "");
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const a = h("a", { href: url, download: named ? named[1] : `toybattle-${id}.tbr`, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  note(t("games.exported"));
}

async function importFile(input) {
  const file = input.files && input.files[0];
  input.value = "";
  oops("");
  if (!file) return;
  if (!file.size || file.size > MAX_FILE) { oops(t("games.badSize")); return; }
  let text;
  try { text = await file.text(); } catch { oops(t("games.notRecord")); return; }
  if (!text.startsWith("toybattle record 1")) { oops(t("games.notRecord")); return; }
  let r, data;
  try {
    r = await fetch("/api/games/import", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ record: text }) });
    data = await r.json();
  } catch { oops(t("games.noApp")); return; }
  if (!r.ok) { oops(data && data.error ? data.error : t("games.notRecord")); return; }
  const summary = { terrain: data.terrain, terrainName: terrainName(data.terrain, null), kind: data.kind, ply: data.ply,
    over: !!data.over, result: "", turn: null, offers: { replay: true }, at: Date.now() };
  if (!saved.put(data.game, { kind: data.kind, tokens: data.tokens, created: Date.now(), imported: true, summary })) {
    draw();
    return;
  }
  const games = draw();
  note(t("games.importedLine", { name: terrainName(data.terrain, null) || t("games.aGame") }));
  refresh(data.game, games.find(([id]) => id === data.game)[1]);
}

/** Storage nearly full: the browser may refuse the next save (the games file's and this list's). */
async function checkQuota() {
  try {
    const est = navigator.storage && navigator.storage.estimate && await navigator.storage.estimate();
    if (est && est.quota && est.usage / est.quota > 0.9) saved.full = true;
  } catch { /* no estimate: nothing to say */ }
}

/** Fill the home screen's games panel `panel`: drawn at once from what this browser kept, then brought up to
 * date from the app. Never throws. */
export async function fillGames(panel) {
  try {
    box = panel;
    missing.clear();
    fresh.clear();
    list = h("ul", { class: "game-list", "aria-label": t("home.games") });
    const picker = h("input", { type: "file", id: "games-file", accept: ".tbr,text/plain", class: "visually-hidden", hidden: true,
      onchange: () => importFile(picker) });
    fill(panel, h("h2", {}, t("home.games")),
      h("p", { class: "muted small", id: "games-note", role: "status", hidden: true }),
      h("p", { class: "muted", id: "games-empty" }, t("home.noGames")),
      list,
      h("p", { class: "error", id: "games-error", role: "alert" }),
      h("div", { class: "row wrap" }, picker,
        h("button", { class: "btn", id: "games-import", onclick: () => picker.click() }, t("games.import"))));
    const games = draw();
    await checkQuota();
    if (saved.full) draw();
    await refreshAll(games);
  } catch (e) {
    console.warn("games list:", e);
  }
}
