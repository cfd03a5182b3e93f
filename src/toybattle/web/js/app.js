// Toy Battle in the browser: screens (home, play, replay, troops) over the websocket protocol.
import { drawBoard, tileSvg, badgePath, POWER_MARK } from "./board.js";
import { GameSocket, fetch } from "./net.js"; // fetch: the API through the transport seam

// ------------------------------------------------------------------ small helpers

const $ = (sel, root = document) => root.querySelector(sel);
// replaceChildren, skipping the nulls that conditional parts leave
const fill = (el, ...children) => el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else if (k === "html") e.innerHTML = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

function svgIcon(pathD, cls = "") {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("viewBox", "-12 -12 24 24");
  s.setAttribute("class", "icon " + cls);
  s.setAttribute("aria-hidden", "true");
  const p = document.createElementNS("http://www.w3.org/2000/svg", "path");
  p.setAttribute("d", pathD);
  s.appendChild(p);
  return s;
}
const badge = (seat, cls = "") => svgIcon(badgePath(seat, 8), `badge ${seat} ${cls}`);
const MEDAL = "M0 -9 A9 9 0 1 1 -0.01 -9 Z M0 -5 L1.5 -1.5 L5 -1.2 L2.3 1.2 L3.1 4.8 L0 2.9 L-3.1 4.8 L-2.3 1.2 L-5 -1.2 L-1.5 -1.5 Z";
const medalIcon = () => svgIcon(MEDAL, "medal-icon");
const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;
const other = (seat) => (seat === "blue" ? "red" : "blue");

const API = { meta: null, terrains: {} };
async function getMeta() {
  if (!API.meta) API.meta = await (await fetch("/api/meta")).json();
  return API.meta;
}
// The promise is kept, not its result: views that arrive together then resolve in arrival order.
function getTerrain(id) {
  if (!API.terrains[id]) {
    API.terrains[id] = fetch(`/api/terrains/${id}`).then((r) => r.json())
      .catch((e) => { delete API.terrains[id]; throw e; });
  }
  return API.terrains[id];
}
function troop(code) { return API.meta.troops.troops.find((t) => t.code === code); }
function terrainInfo(id) { return API.meta.terrains.find((t) => t.id === id); }

// Games this browser holds tokens for: {id: {kind, tokens: {blue?, red?}, terrain, created}}
const saved = {
  all() { try { return JSON.parse(localStorage.getItem("tb.games") || "{}"); } catch { return {}; } },
  get(id) { return this.all()[id] || null; },
  put(id, entry) { const a = this.all(); a[id] = { ...(a[id] || {}), ...entry }; localStorage.setItem("tb.games", JSON.stringify(a)); },
  remove(id) { const a = this.all(); delete a[id]; localStorage.setItem("tb.games", JSON.stringify(a)); },
};

const app = () => $("#app");
const isHint = (card) => card instanceof Element && card.classList.contains("hint-card");
let current = null; // the live play screen, if any

function leaveScreen() {
  if (current) { current.close(); current = null; }
  for (const id of ["endscreen", "cover"]) { const e = document.getElementById(id); if (e) e.remove(); }
  document.body.className = "";
}

// ------------------------------------------------------------------ cards (texts come from the server's data)

function troopCard(code, seat) {
  const t = troop(code);
  if (!t) return h("div", { class: "card" }, "An unknown tile: its face is hidden from you.");
  return h("div", { class: "card troop-card", "data-card": `troop-${code}` },
    h("div", { class: "card-head" }, tileSvg([seat || "blue", code], 40),
      h("div", {}, h("div", { class: "card-title" }, t.name, t.name_fr !== t.name ? h("span", { class: "fr" }, ` (${t.name_fr})`) : null),
        h("div", { class: "card-sub" }, t.strength === null ? "Joker — no strength" : `Strength ${t.strength}`))),
    h("p", {}, t.effect));
}

function powerText(power) {
  const p = API.meta.powers[power];
  return p ? h("p", {}, h("b", {}, `${POWER_MARK[power] || ""} ${p.name}. `), p.text) : null;
}

function nodeCard(terrain, view, id, me) {
  const n = terrain.nodes.find((x) => x.id === id);
  const stack = (view.stacks || {})[String(id)] || [];
  const linked = ((view.connected || {})[me] || []).includes(id);
  const title = n.kind === "hq" ? `${cap(n.side)} H.Q.${n.side === me ? " (yours)" : ""}` : `Base ${id}`;
  const parts = [];
  if (n.kind === "hq") {
    parts.push(h("p", {}, n.side === me
      ? "Your H.Q.: the start of every connection. You can never place a troop here."
      : "The enemy H.Q.: place a troop here, with a path from your H.Q., and you win at once."));
  }
  if (n.power && !view.first_game) parts.push(powerText(n.power));
  if (n.power && view.first_game) parts.push(h("p", {}, `${API.meta.powers[n.power].name}: no effect in a first game.`));
  if (n.allowed_codes && !view.first_game) {
    parts.push(h("p", {}, h("b", {}, "Restricted. "), `Only ${n.allowed.join(", ")} may be placed here. `,
      API.meta.powers.restricted ? API.meta.powers.restricted.text : ""));
  }
  if (n.kind === "base") {
    parts.push(h("p", { class: "muted" }, stack.length
      ? `${cap(stack[stack.length - 1][0])} holds it.${linked ? " Linked to your H.Q." : ""}`
      : "Empty base."));
  }
  const list = stack.length ? h("ol", { class: "stack-list" },
    stack.slice().reverse().map((t, k) => h("li", {}, tileSvg(t, 30),
      h("span", {}, `${cap(t[0])} ${troop(t[1]).name}`, k === 0 ? h("em", {}, " (top)") : null,
        h("small", {}, troop(t[1]).strength === null ? " — joker" : ` — strength ${troop(t[1]).strength}`))))) : null;
  return h("div", { class: "card node-card", "data-card": `node-${id}` },
    h("div", { class: "card-title" }, title), ...parts,
    stack.length ? h("div", { class: "card-sub" }, `Stack of ${stack.length}, top first:`) : null, list);
}

function regionCard(terrain, view, id) {
  const r = terrain.regions.find((x) => x.id === id);
  const owner = (view.claimed || {})[String(id)];
  return h("div", { class: "card", "data-card": `region-${id}` },
    h("div", { class: "card-title" }, `Region ${id}: ${r.medals} medal${r.medals === 1 ? "" : "s"}`),
    h("p", {}, `Bases around it: ${r.bases.join(", ")}. Occupy every one of them at the same moment to take its medals; they stay yours.`),
    owner ? h("p", {}, h("b", {}, `${cap(owner)} took these medals.`)) : null);
}

const COUNTERS = {
  medals: (seat, v) => `Medals: ${v.medals[seat]} of the ${v.objective[seat]} ${cap(seat)} needs. Reaching the objective wins at once.`,
  rack: (seat, v) => `Rack: ${v.counts[seat].rack + v.counts[seat].laid} tile${v.counts[seat].rack + v.counts[seat].laid === 1 ? "" : "s"} (at most 8). ${v.counts[seat].laid ? `${v.counts[seat].laid} laid face down by a tank until the end of ${cap(seat)}'s turn.` : ""} Only its owner sees them.`,
  reserve: (seat, v) => `Reserve: ${v.counts[seat].reserve} face-down tile${v.counts[seat].reserve === 1 ? "" : "s"} left to draw, in an order nobody knows. (4 more were set aside unseen at the start.)`,
  discard: (seat, v) => `The discard: ${v.discard.length} tile${v.discard.length === 1 ? "" : "s"} face up, for both to see.`,
};
function counterCard(kind, seat, v) {
  return h("div", { class: "card", "data-card": `count-${kind}-${seat}` },
    h("div", { class: "card-title" }, `${cap(seat)}: ${kind}`), h("p", {}, COUNTERS[kind](seat, v)));
}

// ------------------------------------------------------------------ sheets, toasts, confirm

function openSheet(title, body, { wide = false } = {}) {
  closeSheet();
  const sheet = h("div", { class: "sheet-back", id: "sheet", onclick: (e) => { if (e.target.id === "sheet") closeSheet(); } },
    h("div", { class: `sheet${wide ? " wide" : ""}`, role: "dialog", "aria-label": title },
      h("div", { class: "sheet-head" }, h("h2", {}, title), h("button", { class: "btn ghost close", "aria-label": "Close", onclick: closeSheet }, "✕")),
      h("div", { class: "sheet-body" }, body)));
  document.body.appendChild(sheet);
  return sheet;
}
function closeSheet() { const s = $("#sheet"); if (s) s.remove(); }

function confirmBox(text, yes, onYes) {
  const body = h("div", {}, h("p", {}, text),
    h("div", { class: "row" }, h("button", { class: "btn danger", id: "confirm-yes", onclick: () => { closeSheet(); onYes(); } }, yes),
      h("button", { class: "btn", onclick: closeSheet }, "Cancel")));
  openSheet("Are you sure?", body);
}

// ------------------------------------------------------------------ home: new game and saved games

async function showHome() {
  leaveScreen();
  const meta = await getMeta();
  const root = app();
  root.innerHTML = "";
  document.body.className = "page-home";
  const pick = (name, options, value) => h("div", { class: "seg", role: "radiogroup", "data-name": name },
    options.map(([v, label]) => h("label", { class: "seg-opt" },
      h("input", { type: "radio", name, value: v, checked: v === value }), h("span", {}, label))));
  const levelSel = h("select", { name: "level", id: "level" },
    meta.levels.map((lv) => h("option", { value: lv.name, selected: lv.name === meta.default_level }, `${lv.label}`)));
  const levelHelp = h("p", { class: "muted small", id: "level-help" });
  const setHelp = () => { const lv = meta.levels.find((l) => l.name === levelSel.value); levelHelp.textContent = lv ? lv.description : ""; };
  levelSel.addEventListener("change", setHelp);
  setHelp();
  const terrainSel = h("select", { name: "terrain", id: "terrain" },
    meta.terrains.map((t) => h("option", { value: t.id, selected: t.id === "castle" }, `${t.name} — objective ${t.objective.blue}`)),
    h("option", { value: "random" }, "Random terrain"));
  const form = h("form", { class: "panel newgame", id: "newgame" },
    h("h2", {}, "New game"),
    h("div", { class: "field" }, h("span", { class: "label" }, "Play against"),
      pick("kind", [["bot", "A bot"], ["hotseat", "A friend, this screen"], ["lan", "A friend, two devices"],
        ...((meta.features || []).includes("online") ? [["online", "A friend, online"]] : [])], "bot")),
    h("div", { class: "field online-only" }, h("span", { class: "label" }, "Room"),
      pick("room", [["host", "Open a room"], ["join", "Join with a code"]], "host"),
      h("input", { name: "code", id: "room-code", class: "join-only", placeholder: "room code, e.g. 7-guitarist-revenge", autocomplete: "off" })),
    h("div", { class: "field online-only" }, h("label", { class: "label", for: "relay" }, "Mailbox"),
      h("input", { name: "relay", id: "relay", type: "text", inputmode: "url", autocomplete: "off", spellcheck: "false",
        value: localStorage.getItem("tb.relay") || "", placeholder: "empty: this app's usual mailbox" }),
      h("p", { class: "muted small" }, "Where the two players meet (ws://…). Both must use the same one; leave it empty unless you run your own.")),
    h("div", { class: "field bot-only" }, h("span", { class: "label" }, "Bot level"), levelSel, levelHelp),
    h("div", { class: "field not-join" }, h("span", { class: "label" }, "Terrain"), terrainSel),
    h("div", { class: "field not-join" }, h("span", { class: "label" }, "Mode"),
      pick("mode", [["standard", "Standard"], ["first", "First game (no special bases)"]], "standard")),
    h("div", { class: "field not-join" }, h("span", { class: "label", id: "colour-label" }, "Your colour"),
      pick("human", [["blue", "Blue"], ["red", "Red"], ["random", "Random"]], "blue")),
    h("div", { class: "field not-online" }, h("span", { class: "label" }, "Who starts"),
      pick("first", [["random", "Random"], ["blue", "Blue"], ["red", "Red"]], "random")),
    h("p", { class: "error", id: "form-error", role: "alert" }),
    h("button", { class: "btn primary big", type: "submit", id: "start" }, "Start the game"));
  const sync = () => {
    const kind = form.kind.value;
    form.classList.toggle("is-bot", kind === "bot");
    form.classList.toggle("is-online", kind === "online");
    form.classList.toggle("is-join", kind === "online" && form.room.value === "join");
    $("#colour-label", form).textContent = kind === "hotseat" ? "Colour at the bottom first" : "Your colour";
  };
  form.addEventListener("change", sync);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { kind: form.kind.value, terrain: terrainSel.value, first_game: form.mode.value === "first",
      human: form.human.value, first: form.first.value };
    if (body.kind === "bot") body.level = levelSel.value;
    $("#start").disabled = true;
    if (body.kind === "online") { await startOnline(form, body); $("#start").disabled = false; return; }
    const r = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    $("#start").disabled = false;
    if (!r.ok) { $("#form-error").textContent = data.error; return; }
    saved.put(data.game, { kind: data.kind, tokens: data.tokens, created: Date.now(), host: data.kind === "lan" });
    location.hash = `#/game/${data.game}`;
  });
  const gamesBox = h("div", { class: "panel games" }, h("h2", {}, "Your games"), h("p", { class: "muted" }, "Loading…"));
  const links = (meta.links || []).map((l) => h("a", { class: "btn", href: l.href }, l.label));
  root.append(
    h("header", { class: "hero" },
      h("div", { class: "logo" }, badge("blue"), badge("red")),
      h("h1", {}, "Toy Battle"),
      h("p", { class: "tagline" }, "Place troops, hold the paths back to your H.Q., surround regions for medals.")),
    h("main", { class: "home" }, form, h("div", { class: "col" }, gamesBox,
      h("div", { class: "panel" }, h("h2", {}, "Rules at hand"),
        h("div", { class: "row wrap" }, h("a", { class: "btn", href: "#/troops", id: "troops-link" }, "Troops & terrains"), ...links)))));
  sync();
  fillGames(gamesBox);
}

// Online rooms are served by toybattle.online.web (room codes over magic-wormhole).
async function startOnline(form, body) {
  const join = form.room.value === "join";
  const seat = body.human === "random" ? (Math.random() < 0.5 ? "blue" : "red") : body.human;
  const relay = form.relay.value.trim();  // empty: the app's own default ($TOYBATTLE_RELAY or the public mailbox)
  if (relay) localStorage.setItem("tb.relay", relay); else localStorage.removeItem("tb.relay");
  const req = join ? { code: form.code.value.trim(), relay } : { terrain: body.terrain === "random" ? undefined : body.terrain, first_game: body.first_game, seat, relay };
  $("#form-error").textContent = join ? "Joining the room…" : "Opening a room…";
  const r = await fetch(`/api/online/${join ? "join" : "host"}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(req) });
  const data = await r.json();
  if (!r.ok) { $("#form-error").textContent = data.error; return; }
  // the host keeps its room's settings, so a closed room can be opened again in one tap
  saved.put(data.game, { kind: "online", tokens: { [data.seat]: data.token }, code: data.code || null, created: Date.now(),
    room: join ? null : req });
  location.hash = `#/game/${data.game}`;
}

// A new room with the settings of a room that closed before anyone joined; errors are one line in `show`.
async function reopenRoom(room, show) {
  show("Opening a room…");
  let data;
  try {
    const r = await fetch("/api/online/host", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(room) });
    data = await r.json();
    if (!r.ok) { show(data.error); return; }
  } catch { show("Cannot reach the Toy Battle server: is it still running?"); return; }
  saved.put(data.game, { kind: "online", tokens: { [data.seat]: data.token }, code: data.code || null, created: Date.now(), room });
  location.hash = `#/game/${data.game}`;
}

// An online game whose connection closed: one player opens a new room, the other types its code.
function resumeOnline(id, token) {
  const msg = h("p", { class: "error", id: "resume-error", role: "alert" });
  const code = h("input", { id: "resume-code", placeholder: "room code, e.g. 7-guitarist-revenge", autocomplete: "off" });
  const go = async (withCode) => {
    const req = { game: id, token, relay: localStorage.getItem("tb.relay") || "" };  // empty: the game's own mailbox
    if (withCode) req.code = code.value.trim();
    msg.textContent = withCode ? "Rejoining the room…" : "Opening a room…";
    try {
      const r = await fetch("/api/online/resume", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(req) });
      const data = await r.json();
      if (!r.ok) { msg.textContent = data.error; return; }
      saved.put(id, { code: data.code || null });
    } catch { msg.textContent = "Cannot reach the Toy Battle server: is it still running?"; return; }
    closeSheet();
    location.hash = `#/game/${id}`;
  };
  openSheet("Resume the online game", h("div", {},
    h("p", {}, "One of you opens a new room and reads out its code; the other types it here. The game goes on from the last move you both saw."),
    h("div", { class: "row wrap" }, h("button", { class: "btn primary", id: "btn-resume-host", onclick: () => go(false) }, "Open a new room")),
    h("div", { class: "row wrap" }, code, h("button", { class: "btn", id: "btn-resume-join", onclick: () => go(true) }, "Rejoin with a code")),
    msg));
}

async function fillGames(box) {
  const entries = Object.entries(saved.all()).sort((a, b) => (b[1].created || 0) - (a[1].created || 0)).slice(0, 12);
  const list = h("ul", { class: "game-list" });
  for (const [id, e] of entries) {
    const token = Object.values(e.tokens || {})[0];
    if (!token) continue;
    let st;
    try {
      const r = await fetch(`/api/games/${id}?token=${encodeURIComponent(token)}`);
      if (r.status === 404) { saved.remove(id); continue; }
      st = await r.json();
    } catch { continue; }
    const t = st.terrain ? terrainInfo(st.terrain) : null;
    const who = { bot: "vs a bot", hotseat: "same screen", lan: "two devices", online: "online" }[st.kind] || st.kind;
    const status = st.over ? st.result : (Object.keys(e.tokens).includes(st.turn) ? (st.kind === "hotseat" ? `${cap(st.turn)} to play` : "Your turn") : `${cap(st.turn)} to play`);
    list.append(h("li", { class: "game-item" },
      h("div", {}, h("b", {}, t ? t.name : "Online room"), h("span", { class: "muted" }, ` · ${who} · move ${st.ply}`), h("div", { class: "small" }, status)),
      (st.offers || {}).resume
        ? h("button", { class: "btn primary", "data-game": id, onclick: () => resumeOnline(id, token) }, "Resume")
        : st.over && !(st.offers || {}).replay
        ? h("a", { class: "btn", href: `#/game/${id}`, "data-game": id }, "Look")
        : h("a", { class: `btn ${st.over ? "" : "primary"}`, href: st.over ? `#/replay/${id}` : `#/game/${id}`, "data-game": id }, st.over ? "Replay" : "Resume")));
  }
  fill(box, h("h2", {}, "Your games"), list.children.length ? list : h("p", { class: "muted" }, "No games yet: start one!"));
}

// ------------------------------------------------------------------ the troops & terrains handbook

async function showTroops() {
  leaveScreen();
  const meta = await getMeta();
  document.body.className = "page-doc";
  const terrains = await Promise.all(meta.terrains.map((t) => getTerrain(t.id)));
  const root = app();
  root.innerHTML = "";
  const boards = terrains.map((t) => {
    const info = terrainInfo(t.id);
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    drawBoard(svg, t, { stacks: {}, connected: {}, claimed: {} }, { animate: false });
    const hqs = t.nodes.filter((n) => n.kind === "hq");
    return h("div", { class: "terrain-card panel" }, h("div", { class: "mini-board" }, svg),
      h("div", {}, h("h3", {}, t.name, h("span", { class: "fr" }, ` (${t.name_fr})`)),
        h("p", {}, `Objective: ${info.objective.blue} medals each. H.Q.: blue ${hqs.filter((n) => n.side === "blue").length}, red ${hqs.filter((n) => n.side === "red").length}.`),
        ...info.powers.map((p) => powerText(p)),
        info.restricted ? h("p", {}, h("b", {}, `${meta.powers.restricted.name}. `), meta.powers.restricted.text) : null,
        !info.powers.length && !info.restricted ? h("p", { class: "muted" }, "No special bases.") : null));
  });
  root.append(
    h("header", { class: "topbar" }, h("a", { class: "btn ghost", href: "#/", "aria-label": "Home" }, "◀ Home"),
      h("div", { class: "title" }, "Troops & terrains")),
    h("main", { class: "doc" },
      h("h2", {}, "The eight troops"),
      h("p", { class: "muted" }, "Each army has 3 of each. You may cover an enemy troop only with a strictly stronger one; Kwak breaks that rule both ways."),
      h("div", { class: "card-grid" }, meta.troops.troops.map((t) => troopCard(t.code, "blue"))),
      h("h2", {}, "Special bases"),
      h("div", { class: "card-grid" }, Object.keys(meta.powers).map((p) => h("div", { class: "card" }, powerText(p) || h("p", {}, meta.powers[p].text)))),
      h("h2", {}, "The terrains"),
      h("div", { class: "terrain-grid" }, boards)));
}

// ------------------------------------------------------------------ playing

class PlayScreen {
  constructor(id, entry) {
    this.id = id;
    this.entry = entry;
    this.kind = entry.kind;
    this.view = null;
    this.picked = null;
    this.shoveFrom = null;
    this.card = null;
    this.lastFx = 0;
    this.covered = false;
    this.seat = Object.keys(entry.tokens)[0];
    this.build();
    this.sock = new GameSocket({
      game: id, token: entry.tokens[this.seat],
      onView: (v) => this.onView(v),
      onError: (m) => this.toast(m),
      onRematch: (m) => this.onRematch(m),
      onHint: (m) => this.onHint(m),
      onStatus: (s) => this.root.classList.toggle("offline", s === "offline"),
    });
  }

  close() { this.closed = true; this.sock.close(); closeSheet(); }

  build() {
    document.body.className = "page-play";
    const root = h("div", { class: "play", id: "play" });
    this.root = root;
    root.append(
      h("header", { class: "topbar" },
        h("a", { class: "btn ghost", href: "#/", "aria-label": "Home", id: "home-btn" }, "◀"),
        h("div", { class: "title", id: "title" }, ""),
        h("button", { class: "btn ghost", id: "troops-btn", onclick: () => this.showHandbook() }, "Troops"),
        h("button", { class: "btn ghost phone-only", id: "log-btn", onclick: () => this.showLog() }, "Log"),
        h("button", { class: "btn ghost", id: "menu-btn", "aria-label": "More", onclick: () => this.showMenu() }, "⋯")),
      h("div", { class: "strip opp", id: "opp" }),
      h("div", { class: "table" },
        h("div", { class: "board-wrap" },
          h("svg", { id: "board", role: "img", "aria-label": "The board" }))),
      h("div", { class: "ticker", id: "ticker", "aria-live": "polite" }),
      h("aside", { class: "side" },
        h("div", { class: "side-card", id: "side-card" }),
        h("div", { class: "side-discard", id: "side-discard" }),
        h("div", { class: "side-log", id: "side-log" })),
      h("div", { class: "dock" },
        h("div", { class: "toast hidden", id: "toast", role: "alert" }),
        h("div", { class: "card-pop hidden", id: "card-pop" }),
        h("div", { class: "prompt", id: "prompt" }, "Connecting…"),
        h("div", { class: "controls" }, h("div", { class: "strip me", id: "me" }), h("div", { class: "buttons", id: "buttons" })),
        h("div", { class: "rack", id: "rack", "aria-label": "Your rack" })));
    fill(app(), root);
    // the board svg must live in the SVG namespace
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.id = "board"; svg.setAttribute("role", "img"); svg.setAttribute("aria-label", "The board");
    $("#board", root).replaceWith(svg);
    this.svg = svg;
  }

  // -------------------------------------------------------------- incoming

  async onView(v) {
    if (this.closed) return;
    const seq = this.viewSeq = (this.viewSeq || 0) + 1;
    if (v.waiting) { this.showWaiting(v); return; }
    v.log = v.log || [];
    v.players = v.players || {};
    if (v.game && v.game.error) this.toast(v.game.error);
    const fresh = !this.view || this.view.ply !== v.ply || this.view.seat !== v.seat || this.view.over !== v.over ||
      !v.legal;
    const prevSeat = this.view && this.view.seat;
    this.terrain = await getTerrain(v.terrain);
    if (this.closed || seq !== this.viewSeq) return;  // a newer view arrived while this one waited
    this.view = v;
    this.seat = v.seat;
    const waiting = $("#waiting", this.root);
    if (waiting) waiting.remove();
    if (fresh) { this.picked = null; this.shoveFrom = null; this.hintNode = null; if (isHint(this.card)) this.card = null; }
    if (this.kind === "hotseat" && !v.over && v.actor && v.actor !== v.seat) {
      // the turn passed: cover the screen before the other player's rack is shown
      this.cover(v.actor);
    } else if (this.covered && v.seat === (v.actor || v.seat)) {
      this.uncover();
    }
    const newEntries = v.log.filter((e) => e.n > this.lastFx);
    const fx = prevSeat === v.seat ? newEntries.map((e) => e.fx) : [];
    this.lastFx = v.log.length ? v.log[v.log.length - 1].n : 0;
    this.render(fx);
    if (v.over) this.showEnd(); else $("#endscreen") && $("#endscreen").remove();
  }

  onHint(m) {
    if (!this.view || m.ply !== this.view.ply) return;
    const place = m.action.match(/^([1-7K])@(\d+)$/);
    if (place && this.view.legal && this.view.legal.place[place[1]]) {
      this.picked = place[1];
      this.pickedK = this.view.rack.indexOf(place[1]);
      this.hintNode = Number(place[2]);
      this.render();
    }
    this.showCard(h("div", { class: "card hint-card" }, h("div", { class: "card-title" }, `Hint: ${m.action}`), h("p", {}, m.reason)));
  }

  showWaiting(v) {
    const code = (v.game && v.game.code) || this.entry.code || "";
    const error = v.game && v.game.error;
    const status = error ? h("p", { class: "error", id: "room-status" }, error) : null;
    // a closed room waits for nobody: say why, and offer the way on
    const next = !error ? null : this.entry.room
      ? h("button", { class: "btn primary", id: "btn-new-room", onclick: () => reopenRoom(this.entry.room, (m) => { status.textContent = m; }) }, "Open a new room")
      : h("a", { class: "btn primary", href: "#/", id: "btn-new-room" }, "Home");
    fill($("#prompt"), h("span", {}, error || "Waiting for your friend to join the room…"));
    $("#prompt").classList.toggle("error", !!error);
    const box = h("div", { class: "room-wait panel", id: "waiting" }, h("h2", {}, "Room code"),
      h("p", { class: `room-code mono${error ? " closed" : ""}`, id: "room-code-shown" }, code),
      error ? null : h("p", {}, "Your friend opens Toy Battle, chooses “A friend, online”, then “Join with a code”, and types it."),
      status, next);
    const wrap = $(".board-wrap", this.root);
    const old = $("#waiting", this.root);
    if (old) old.remove();
    wrap.appendChild(box);
  }

  onRematch(m) {
    saved.put(m.game, { kind: this.kind, tokens: m.tokens, created: Date.now(), host: !!this.entry.host });
    location.hash = `#/game/${m.game}`;
  }

  // -------------------------------------------------------------- drawing

  render(fx = []) {
    const v = this.view;
    const t = terrainInfo(v.terrain);
    fill($("#title"), h("span", {}, t.name), h("small", {}, v.first_game ? " · first game" : ""));
    this.renderStrip($("#opp"), other(v.seat));
    this.renderStrip($("#me"), v.seat);
    drawBoard(this.svg, this.terrain, v, {
      flip: v.seat === "red", me: v.seat, targets: this.targets(), selected: this.shoveFrom || (this.picked ? this.hintNode : null),
      onTap: (id, kind) => this.tap(id, kind), onHover: (id, kind) => this.hover(id, kind), fx,
    });
    this.svg.dataset.ply = v.ply;
    this.svg.dataset.actor = v.actor || "";
    this.svg.dataset.decision = v.decision;
    const last = v.log[v.log.length - 1];
    $("#ticker").textContent = last ? this.words(last) : "";
    fill($("#prompt"), ...this.promptContent());
    $("#prompt").classList.remove("error");  // set while a room waited and failed
    $("#prompt").classList.toggle("mine", !!v.legal);
    $("#prompt").classList.toggle("waiting", !v.legal && !v.over);
    this.renderButtons();
    this.renderRack();
    this.renderSide();
    this.renderCard();
    this.root.dataset.actor = v.actor || "";
    this.root.dataset.seat = v.seat;
    this.root.dataset.decision = v.decision;
    this.root.dataset.over = v.over ? "1" : "";
  }

  renderStrip(box, seat) {
    const v = this.view;
    const c = v.counts[seat];
    const p = v.players[seat] || { name: cap(seat) };
    const you = seat === v.seat && this.kind !== "hotseat";
    const counter = (kind, icon, text, label) => h("button", { class: `counter c-${kind}`, "aria-label": label,
      onclick: () => this.showCard(() => counterCard(kind, seat, this.view)) }, icon, h("span", {}, text));
    box.className = `strip ${box.id} ${seat}${v.actor === seat ? " acting" : ""}`;
    fill(box, 
      h("div", { class: "who" }, badge(seat), h("span", { class: "name" }, you ? "You" : p.name)),
      counter("medals", medalIcon(), `${v.medals[seat]}/${v.objective[seat]}`, `${cap(seat)} medals`),
      counter("rack", svgIcon("M-8 -6 H8 V6 H-8 Z M-5 -3 V3 M0 -3 V3 M5 -3 V3", "rack-icon"), `${c.rack + c.laid}`, `${cap(seat)} rack`),
      counter("reserve", svgIcon("M-7 -2 H7 V7 H-7 Z M-5 -5 H5 V-2 H-5 Z M-3 -8 H3 V-5 H-3 Z", "reserve-icon"), `${c.reserve}`, `${cap(seat)} reserve`),
      seat !== v.seat && v.seen.length ? h("span", { class: "seen", title: "Tiles you saw arrive on this rack" },
        ...v.seen.map((code) => tileSvg([seat, code], 22))) : null,
      seat !== v.seat ? h("button", { class: "counter c-discard", "aria-label": "Discard", id: "discard-btn",
        onclick: () => this.showDiscard() }, svgIcon("M-6 -7 H6 L5 8 H-5 Z M-8 -7 H8", "discard-icon"), h("span", {}, `${v.discard.length}`)) : null);
  }

  targets() {
    const v = this.view, L = v.legal;
    if (!L) return [];
    if (this.picked) return L.place[this.picked] || [];
    if (v.decision === "jumbo_target") return L.jumbo;
    if (v.decision === "castle_recall") return L.recall;
    if (v.decision === "jungle_shove") return this.shoveFrom ? (L.shove[String(this.shoveFrom)] || []) : Object.keys(L.shove).map(Number);
    return [];
  }

  promptContent() {
    const v = this.view;
    if (this.picked && v.legal) {
      const t = troop(this.picked);
      const n = (v.legal.place[this.picked] || []).length;
      return [h("b", {}, `${t.name}: `), n ? " tap a highlighted base to place it (tap it on your rack again to put it back)."
        : "no legal place for it now; pick another troop."];
    }
    if (v.decision === "jungle_shove" && this.shoveFrom) return [`Move the enemy troop from ${this.shoveFrom}: tap a highlighted base.`];
    const who = v.players[v.actor];
    if (v.actor && v.actor !== v.seat && who && who.kind === "bot") return [h("span", { class: "thinking" }, `${who.name} is thinking…`)];
    return [v.prompt];
  }

  renderButtons() {
    const v = this.view, L = v.legal, box = $("#buttons");
    const out = [];
    const act = (label, action, cls = "", id = null) => h("button", { class: `btn ${cls}`, id, "data-action": action,
      onclick: () => this.send(action) }, label);
    if (L) {
      const c = v.counts[v.seat];
      if (L.draw) out.push(act(c.reserve === 1 || c.rack + c.laid === 7 ? "Draw 1" : "Draw 2", "draw", "primary", "btn-draw"));
      if (L.use) {
        const label = { skully_draw: "Draw (Skully)", star_draw: "Draw 1 (Star)", xb42_use: "Random discard",
          clouds_draw: "Draw 1", battlefield_use: "Lay one down" }[v.decision] || "Use";
        out.push(act(label, "use", "primary", "btn-use"));
      }
      for (const code of L.recover) out.push(h("button", { class: "btn tilebtn", "data-action": `recover:${code}`, "aria-label": `Recover ${troop(code).name}`,
        onclick: () => this.send(`recover:${code}`) }, tileSvg([v.seat, code], 30), troop(code).name));
      if (L.skip) out.push(act(v.decision === "capn_extra" ? "Skip extra" : "Skip", "skip", "", "btn-skip"));
    }
    if (v.can_undo) out.push(h("button", { class: "btn", id: "btn-undo", onclick: () => this.sock.undo() }, "↶ Undo"));
    if (L && this.kind !== "online") out.push(h("button", { class: "btn ghost hint-btn", id: "btn-hint", "aria-label": "Hint",
      onclick: () => this.sock.hint() }, "Hint"));
    if (v.over) out.push(h("button", { class: "btn primary", id: "btn-result", onclick: () => this.showEnd() }, "Result"));
    // both players may open a room to resume the same game: either can close theirs and type the other's code
    if (v.waiting_peer) out.push(h("button", { class: "btn", id: "btn-close-room", onclick: () => this.closeRoom() }, "Close this room"));
    fill(box, ...out);
  }

  async closeRoom() {
    try {
      const r = await fetch("/api/online/close", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ game: this.id, token: this.entry.tokens[this.seat] }) });
      if (!r.ok) this.toast((await r.json()).error);
    } catch { this.toast("Cannot reach the Toy Battle server: is it still running?"); }
  }

  renderRack() {
    const v = this.view, box = $("#rack");
    const placeable = v.legal ? v.legal.place : {};
    const canPick = v.legal && (v.decision === "turn" || v.decision === "capn_extra");
    const tiles = v.rack.map((code, k) => {
      const legal = !!placeable[code];
      return h("button", {
        class: `rack-tile${this.picked === code && this.pickedK === k ? " picked" : ""}${canPick && !legal ? " stuck" : ""}`,
        "data-troop": code, "data-k": k, "aria-label": `${troop(code) ? troop(code).name : "tile"}${this.picked === code ? " (picked)" : ""}`,
        onclick: () => this.pick(code, k),
      }, tileSvg([v.seat, code], 38), h("span", { class: "rack-name" }, troop(code) ? troop(code).name : "?"));
    });
    const laid = v.laid.map((code) => h("button", { class: "rack-tile laid", "data-troop": code,
      "aria-label": `${troop(code).name}, laid face down`, onclick: () => this.showCard(h("div", { class: "card" },
        troopCard(code, v.seat), h("p", {}, "Laid face down by a tank: it stands back up at the end of your turn."))) },
      tileSvg([v.seat, code], 38), h("span", { class: "rack-name" }, "laid")));
    fill(box, ...tiles, ...laid, tiles.length + laid.length ? null : h("span", { class: "muted small" }, "Your rack is empty."));
  }

  renderSide() {
    const v = this.view;
    const side = $("#side-discard");
    fill(side, h("h3", {}, `Discard (${v.discard.length})`),
      h("div", { class: "tiles" }, v.discard.map((t) => h("button", { class: "mini-tile", onclick: () => this.showCard(troopCard(t[1], t[0])),
        "aria-label": `${t[0]} ${troop(t[1]).name}` }, tileSvg(t, 28)))));
    const logBox = $("#side-log");
    fill(logBox, h("h3", {}, "Game log"), this.logList(v.log.slice(-80)));
    const list = logBox.querySelector("ol");
    if (list) list.scrollTop = list.scrollHeight;
  }

  logList(entries) {
    return h("ol", { class: "log" }, entries.map((e) => h("li", { class: e.seat }, badge(e.seat), h("span", {}, this.words(e)))));
  }

  // a line about this page's own seat is read in the second person ("You place…"), written so by the
  // server; a hot-seat page shows both seats, so it keeps the colour names
  words(e) { return this.kind !== "hotseat" && e.you ? e.you : e.text; }

  // this.card: an element, or a function that builds it from the current view (cards about the board
  // and the counters), so that every new view redraws them and none shows a board that has changed
  renderCard() {
    const pop = $("#card-pop");
    let card = typeof this.card === "function" ? this.card() : this.card;
    if (this.picked && !isHint(card)) card = troopCard(this.picked, this.view.seat);
    if (!card) {
      pop.classList.add("hidden"); fill(pop);
      fill($("#side-card"), this.hovered ? this.boardCard(this.hovered.id, this.hovered.kind) : null);
      return;
    }
    pop.classList.remove("hidden");
    fill(pop, card.cloneNode(true), h("button", { class: "btn ghost close", "aria-label": "Close card", onclick: () => { this.card = null; if (this.picked) this.picked = null; this.render(); } }, "✕"));
    fill($("#side-card"), card.cloneNode(true));
  }

  showCard(card) { this.card = card; this.renderCard(); }

  boardCard(id, kind) {
    return kind === "node" ? nodeCard(this.terrain, this.view, id, this.view.seat) : regionCard(this.terrain, this.view, id);
  }

  // the side card follows the pointer, and keeps the last thing pointed at (rebuilt on every view)
  hover(id, kind) {
    if (id === null) return;
    this.hovered = { id, kind };
    fill($("#side-card"), this.boardCard(id, kind));
  }

  toast(message) {
    const t = $("#toast");
    t.textContent = message;
    t.classList.remove("hidden");
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => t.classList.add("hidden"), 3500);
  }

  // -------------------------------------------------------------- input

  send(action) {
    $("#toast").classList.add("hidden");
    this.sock.act(action, this.view.ply);
  }

  pick(code, k) {
    const v = this.view;
    this.card = null;
    if (!v.legal || !(v.decision === "turn" || v.decision === "capn_extra")) {
      this.showCard(troopCard(code, v.seat));
      if (v.legal) this.toast("Finish the current choice first (or skip it).");
      return;
    }
    const again = this.picked === code && this.pickedK === k;
    this.hintNode = null;
    this.picked = again ? null : code;
    this.pickedK = again ? null : k;
    this.render();
  }

  tap(id, kind) {
    const v = this.view;
    if (kind === "region") { this.showCard(() => this.boardCard(id, kind)); return; }
    const L = v.legal;
    if (L && this.picked) { this.send(`${this.picked}@${id}`); return; }
    if (L && v.decision === "jumbo_target" && L.jumbo.includes(id)) { this.send(`jumbo@${id}`); return; }
    if (L && v.decision === "castle_recall" && L.recall.includes(id)) { this.send(`recall@${id}`); return; }
    if (L && v.decision === "jungle_shove") {
      if (this.shoveFrom && (L.shove[String(this.shoveFrom)] || []).includes(id)) { this.send(`shove@${this.shoveFrom}>${id}`); return; }
      if (L.shove[String(id)]) { this.shoveFrom = this.shoveFrom === id ? null : id; this.render(); return; }
    }
    this.showCard(() => this.boardCard(id, kind));
    if (L && (v.decision === "turn" || v.decision === "capn_extra") && v.rack.length) this.toast("Pick a troop on your rack first, then tap where it goes.");
  }

  // -------------------------------------------------------------- overlays

  cover(seat) {
    this.covered = true;
    if ($("#cover")) return;
    const token = this.entry.tokens[seat];
    document.body.appendChild(h("div", { class: `cover ${seat}`, id: "cover" },
      h("div", { class: "cover-box" }, badge(seat, "big"),
        h("h2", {}, `${cap(seat)}'s turn`),
        h("p", {}, `Pass the device to ${cap(seat)}. ${cap(other(seat))}, no peeking at the next rack!`),
        h("button", { class: "btn primary big", id: "cover-go", onclick: () => { this.sock.rebind(token); } }, `I'm ${cap(seat)}: show my rack`))));
  }

  uncover() { this.covered = false; const c = $("#cover"); if (c) c.remove(); }

  showEnd() {
    const v = this.view;
    if ($("#endscreen") || this.endDismissed === v.ply) return;
    const won = v.winner === v.seat;
    const offers = (v.game && v.game.offers) || {};  // the session says what it will not refuse
    const title = this.kind === "hotseat" ? `${cap(v.winner)} wins!` : (won ? "You win!" : `${v.players[v.winner] ? v.players[v.winner].name : cap(v.winner)} wins`);
    document.body.appendChild(h("div", { class: "endscreen", id: "endscreen" },
      h("div", { class: `end-box ${v.winner}` }, badge(v.winner, "big"),
        h("h2", { id: "end-title" }, title),
        h("p", { id: "end-reason" }, v.result),
        h("p", { class: "muted" }, `Medals: blue ${v.medals.blue}/${v.objective.blue}, red ${v.medals.red}/${v.objective.red} · ${v.ply} actions`),
        h("div", { class: "row wrap center" },
          offers.rematch ? h("button", { class: "btn primary big", id: "btn-rematch", onclick: () => this.sock.rematch() }, "Rematch") : null,
          offers.replay ? h("a", { class: "btn", href: `#/replay/${this.id}`, id: "btn-replay" }, "Replay") : null,
          h("button", { class: "btn", id: "btn-look", onclick: () => { this.endDismissed = v.ply; $("#endscreen").remove(); } }, "Look at the board"),
          h("a", { class: "btn", href: "#/" }, "Home")))));
  }

  showMenu() {
    const v = this.view;
    const items = [h("a", { class: "btn", href: "#/" }, "Home (the game is saved)")];
    if (v && !v.over) items.push(h("button", { class: "btn danger", id: "btn-concede", onclick: () => {
      confirmBox(this.kind === "hotseat" ? `${cap(v.turn)} concedes: ${cap(other(v.turn))} wins.` : "Concede this game? Your opponent wins.", "Concede",
        () => { if (this.kind === "hotseat" && v.turn !== v.seat) this.sock.rebind(this.entry.tokens[v.turn]); this.sock.concede(); });
    } }, "Concede"));
    if (this.kind === "lan" && this.entry.host) items.push(h("button", { class: "btn", id: "btn-invite", onclick: () => this.showInvite() }, "Invite link & QR code"));
    items.push(h("button", { class: "btn", onclick: () => this.showLog() }, "Game log"));
    openSheet("Menu", h("div", { class: "menu" }, items));
  }

  showLog() { openSheet("Game log", this.logList(this.view ? this.view.log : [])); }
  showDiscard() {
    const v = this.view;
    openSheet(`Discard (${v.discard.length})`, v.discard.length ? h("div", { class: "card-grid" }, v.discard.map((t) => troopCard(t[1], t[0])))
      : h("p", { class: "muted" }, "Nothing has been discarded yet."));
  }
  async showHandbook() {
    const meta = await getMeta();
    openSheet("Troops", h("div", {}, h("div", { class: "card-grid" }, meta.troops.troops.map((t) => troopCard(t.code, this.seat || "blue"))),
      h("p", {}, h("a", { class: "btn", href: "#/troops" }, "All terrains and special bases"))), { wide: true });
  }

  async showInvite() {
    const token = this.entry.tokens[this.seat];
    const r = await fetch(`/api/games/${this.id}/invite?token=${encodeURIComponent(token)}`);
    const d = await r.json();
    if (!r.ok) { this.toast(d.error); return; }
    openSheet("Invite a friend", h("div", { class: "invite" },
      h("p", {}, `Your friend plays ${d.seat}. On their phone or computer, on the same network, scan the code or open the link:`),
      h("div", { class: "qr", html: d.qr_svg }),
      h("p", {}, h("a", { href: d.url, id: "invite-url", class: "mono" }, d.url)),
      d.note ? h("p", { class: "warn" }, d.note) : null));
  }
}

async function showGame(id) {
  leaveScreen();
  await getMeta();
  const entry = saved.get(id);
  if (!entry || !entry.tokens || !Object.keys(entry.tokens).length) {
    fill(app(), h("main", { class: "panel lost" }, h("h2", {}, "This game is not on this device"),
      h("p", {}, "Only the devices that took part in a game hold its keys. Ask the host for a new join link."),
      h("a", { class: "btn primary", href: "#/" }, "Home")));
    return;
  }
  current = new PlayScreen(id, entry);
  if (entry.kind === "lan" && entry.host && !entry.invited) {
    saved.put(id, { invited: true });
    setTimeout(() => current && current.id === id && current.showInvite(), 300);
  }
}

// ------------------------------------------------------------------ replay of a finished game

async function showReplay(id) {
  leaveScreen();
  await getMeta();
  const entry = saved.get(id);
  const token = entry && Object.values(entry.tokens || {})[0];
  document.body.className = "page-play page-replay";
  const r = token ? await fetch(`/api/games/${id}/replay?token=${encodeURIComponent(token)}`) : null;
  const data = r ? await r.json() : { error: "This game is not on this device." };
  if (!r || !r.ok) {
    fill(app(), h("main", { class: "panel lost" }, h("h2", {}, "No replay"), h("p", {}, data.error), h("a", { class: "btn primary", href: "#/" }, "Home")));
    return;
  }
  const frames = data.frames;
  const terrain = await getTerrain(frames[0].terrain);
  let k = frames.length - 1;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.id = "board";
  const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: k, id: "replay-slider", "aria-label": "Step" });
  const label = h("div", { class: "prompt", id: "replay-step" });
  const logBox = h("div", { class: "replay-log" });
  const opp = h("div", { class: "strip opp" }), me = h("div", { class: "strip me" });
  const show = (n, animate = true) => {
    k = Math.max(0, Math.min(frames.length - 1, n));
    slider.value = k;
    const v = frames[k];
    drawBoard(svg, terrain, v, { flip: v.seat === "red", me: v.seat, animate, onTap: () => {} });
    label.textContent = `Step ${k} of ${frames.length - 1}` + (v.log.length ? ` — ${v.log[v.log.length - 1].text}` : " — the start");
    for (const [box, seat] of [[opp, other(v.seat)], [me, v.seat]]) {
      box.className = `strip ${seat}`;
      fill(box, h("div", { class: "who" }, badge(seat), h("span", { class: "name" }, cap(seat))),
        h("span", { class: "counter" }, medalIcon(), `${v.medals[seat]}/${v.objective[seat]}`),
        h("span", { class: "counter" }, `rack ${v.counts[seat].rack + v.counts[seat].laid}`),
        h("span", { class: "counter" }, `reserve ${v.counts[seat].reserve}`));
    }
    fill(logBox, h("ol", { class: "log" }, v.log.slice(-6).map((e) => h("li", { class: e.seat }, badge(e.seat), h("span", {}, e.text)))));
  };
  slider.addEventListener("input", () => show(Number(slider.value), false));
  fill(app(), h("div", { class: "play replay" },
    h("header", { class: "topbar" }, h("a", { class: "btn ghost", href: "#/" }, "◀"), h("div", { class: "title" }, `Replay · ${terrainInfo(terrain.id).name}`)),
    opp, h("div", { class: "table" }, h("div", { class: "board-wrap" }, svg)), me,
    h("div", { class: "dock" }, label,
      h("div", { class: "row center replay-controls" },
        h("button", { class: "btn", "aria-label": "First", onclick: () => show(0) }, "⏮"),
        h("button", { class: "btn", id: "replay-prev", "aria-label": "Previous", onclick: () => show(k - 1) }, "◀"),
        slider,
        h("button", { class: "btn", id: "replay-next", "aria-label": "Next", onclick: () => show(k + 1) }, "▶"),
        h("button", { class: "btn", "aria-label": "Last", onclick: () => show(frames.length - 1) }, "⏭")),
      logBox)));
  show(k, false);
}

// ------------------------------------------------------------------ routing

async function joinFromPath() {
  const m = location.pathname.match(/^\/join\/([^/]+)\/([^/]+)$/);
  if (!m) return;
  const [, id, token] = m;
  const r = await fetch(`/api/games/${id}?token=${encodeURIComponent(token)}`);
  if (r.ok) {
    const st = await r.json();
    saved.put(id, { kind: st.kind, tokens: { [st.seat]: token }, created: Date.now(), host: false });
    history.replaceState(null, "", `/#/game/${id}`);
  } else {
    history.replaceState(null, "", "/#/");
    alert("This join link does not open any game on this server.");
  }
}

async function route() {
  const hash = location.hash.replace(/^#/, "") || "/";
  let m;
  try {
    if ((m = hash.match(/^\/game\/([\w-]+)$/))) await showGame(m[1]);
    else if ((m = hash.match(/^\/replay\/([\w-]+)$/))) await showReplay(m[1]);
    else if (hash === "/troops") await showTroops();
    else await showHome();
  } catch (e) {
    console.error(e);
    fill(app(), h("main", { class: "panel lost" }, h("h2", {}, "Cannot reach the Toy Battle server"),
      h("p", {}, "Is `toybattle` still running? Start it again: every game is saved."), h("a", { class: "btn primary", href: "#/" }, "Retry")));
  }
}

window.addEventListener("hashchange", route);
window.addEventListener("keydown", (e) => { if (e.key === "Escape") closeSheet(); });
joinFromPath().then(route);
