// The home screen: a new game, and the games this browser holds.
import { $, h, fill, badge, cap } from "./dom.js";
import { getMeta, terrainInfo } from "./data.js";
import { saved } from "./saved.js";
import { startOnline, resumeOnline } from "./rooms.js";
import { fetch } from "./net.js"; // the API through the transport seam (server or in-browser worker)

const app = () => $("#app");

export async function showHome() {
  const meta = await getMeta();
  const root = app();
  root.innerHTML = "";
  document.body.className = "page-home";
  const pick = (name, options, value) => h("div", { class: "seg", role: "radiogroup", "data-name": name },
    options.map(([v, label]) => h("label", { class: "seg-opt" },
      h("input", { type: "radio", name, value: v, checked: v === value }), h("span", {}, label))));
  const levelSel = h("select", { name: "level", id: "level", "aria-label": "Bot level" },
    meta.levels.map((lv) => h("option", { value: lv.name, selected: lv.name === meta.default_level }, `${lv.label}`)));
  const levelHelp = h("p", { class: "muted small", id: "level-help" });
  const setHelp = () => { const lv = meta.levels.find((l) => l.name === levelSel.value); levelHelp.textContent = lv ? lv.description : ""; };
  levelSel.addEventListener("change", setHelp);
  setHelp();
  const terrainSel = h("select", { name: "terrain", id: "terrain", "aria-label": "Terrain" },
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
  // learning and the rules come first, above the fold on a phone
  const links = (meta.links || []).map((l) => h("a", { class: "btn primary", href: l.href }, l.label));
  root.append(
    h("header", { class: "hero" },
      h("div", { class: "logo" }, badge("blue"), badge("red")),
      h("h1", {}, "Toy Battle"),
      h("p", { class: "tagline" }, "Place troops, hold the paths back to your H.Q., surround regions for medals."),
      h("nav", { class: "row wrap center home-links", "aria-label": "Rules" }, ...links,
        h("a", { class: "btn", href: "#/troops", id: "troops-link" }, "Troops & terrains"))),
    h("main", { class: "home" }, form, h("div", { class: "col" }, gamesBox)));
  sync();
  fillGames(gamesBox);
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
