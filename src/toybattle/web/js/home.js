// The home screen: a new game, and the games this browser holds.
import { t, langSwitch } from "./i18n.js";
import { $, h, badge } from "./dom.js";
import { getMeta, offers } from "./data.js";
import { saved } from "./saved.js";
import { startOnline } from "./rooms.js";
import { fillGames } from "./games.js";  // "Your games"
import { fetch, appURL } from "./net.js"; // the API through the transport seam (server or in-browser worker)

const app = () => $("#app");

// a room code's shape, as the app checks it (online/transport.py): "7-guitarist-revenge"
const ROOM_CODE = /^\d+(-[a-z]+){2,}$/;
let invited = null;  // an invitation link's room ({code} or {bad}), for the next home screen

/** Take an invitation link's fragment (#join=CODE, play.js's shareData) off the address bar, so a reload
 * does not join again; the next home screen opens the join form with its code. True if there was one. */
export function takeInvite() {
  const m = location.hash.match(/^#join=(.*)$/s);
  if (!m) return false;
  history.replaceState(null, "", location.pathname + location.search);
  let code = "";
  try { code = decodeURIComponent(m[1]).trim().toLowerCase(); } catch { /* a broken %-escape: no code */ }
  invited = code.length <= 80 && ROOM_CODE.test(code) ? { code } : { bad: true };
  return true;
}

export async function showHome() {
  const meta = await getMeta();
  const root = app();
  root.innerHTML = "";
  document.body.className = "page-home";
  const pick = (name, options, value) => h("div", { class: "seg", role: "radiogroup", "data-name": name },
    options.map(([v, label]) => h("label", { class: "seg-opt" },
      h("input", { type: "radio", name, value: v, checked: v === value }), h("span", {}, label))));
  const levelSel = h("select", { name: "level", id: "level", "aria-label": t("home.level") },
    meta.levels.map((lv) => h("option", { value: lv.name, selected: lv.name === meta.default_level }, `${lv.label}`)));
  const levelHelp = h("p", { class: "muted small", id: "level-help" });
  const setHelp = () => { const lv = meta.levels.find((l) => l.name === levelSel.value); levelHelp.textContent = lv ? lv.description : ""; };
  levelSel.addEventListener("change", setHelp);
  setHelp();
  const terrainSel = h("select", { name: "terrain", id: "terrain", "aria-label": t("home.terrain") },
    meta.terrains.map((tr) => h("option", { value: tr.id, selected: tr.id === "castle" }, `${tr.name} — ${t("home.objective", { n: tr.objective.blue })}`)),
    h("option", { value: "random" }, t("home.randomTerrain")));
  const form = h("form", { class: "panel newgame", id: "newgame" },
    h("h2", {}, t("home.newGame")),
    h("div", { class: "field" }, h("span", { class: "label" }, t("home.against")),
      pick("kind", [["bot", t("home.bot")], ["hotseat", t("home.hotseat")],
        ...(offers("lan") ? [["lan", t("home.lan")]] : []), ...(offers("online") ? [["online", t("home.online")]] : [])], "bot")),
    h("div", { class: "field online-only" }, h("span", { class: "label" }, t("home.room")),
      pick("room", [["host", t("home.host")], ["join", t("home.join")]], "host"),
      h("input", { name: "code", id: "room-code", class: "join-only", placeholder: t("home.codeHint"), autocomplete: "off" })),
    h("div", { class: "field online-only" }, h("label", { class: "label", for: "relay" }, t("home.mailbox")),
      h("input", { name: "relay", id: "relay", type: "text", inputmode: "url", autocomplete: "off", spellcheck: "false",
        value: localStorage.getItem("tb.relay") || "", placeholder: t("home.mailboxHint") }),
      h("p", { class: "muted small" }, t("home.mailboxHelp"))),
    h("div", { class: "field bot-only" }, h("span", { class: "label" }, t("home.level")), levelSel, levelHelp),
    h("div", { class: "field not-join" }, h("span", { class: "label" }, t("home.terrain")), terrainSel),
    h("div", { class: "field not-join" }, h("span", { class: "label" }, t("home.mode")),
      pick("mode", [["standard", t("home.standard")], ["first", t("home.first")]], "standard")),
    h("div", { class: "field not-join" }, h("span", { class: "label", id: "colour-label" }, t("home.colour")),
      pick("human", [["blue", t("seat.blue")], ["red", t("seat.red")], ["random", t("home.random")]], "blue")),
    // a time control, MIN+INC: an online room's, agreed by both players (docs/fair-play.md, "Clocks"), or a
    // game on one screen's, kept by the app
    h("div", { class: "field clocked not-join" }, h("span", { class: "label" }, t("home.clock")),
      pick("clock", [["none", t("home.noClock")],
        ...[[5, 3], [10, 5], [30, 0]].map(([min, inc]) => [`${min}+${inc}`, t("home.clockOf", { min, inc })])], "none")),
    h("div", { class: "field not-online" }, h("span", { class: "label" }, t("home.starts")),
      pick("first", [["random", t("home.random")], ["blue", t("seat.blue")], ["red", t("seat.red")]], "random")),
    h("p", { class: "notice", id: "join-notice", role: "status", hidden: true }),
    h("p", { class: "error", id: "form-error", role: "alert" }),
    h("button", { class: "btn primary big", type: "submit", id: "start" }, t("home.start")));
  const sync = () => {
    const kind = form.kind.value;
    form.classList.toggle("is-bot", kind === "bot");
    form.classList.toggle("is-online", kind === "online");
    form.classList.toggle("is-hotseat", kind === "hotseat");
    form.classList.toggle("is-join", kind === "online" && form.room.value === "join");
    $("#colour-label", form).textContent = kind === "hotseat" ? t("home.colourHot") : t("home.colour");
  };
  form.addEventListener("change", sync);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { kind: form.kind.value, terrain: terrainSel.value, first_game: form.mode.value === "first",
      human: form.human.value, first: form.first.value };
    if (body.kind === "bot") body.level = levelSel.value;
    const [min, inc] = form.clock.value === "none" ? [] : form.clock.value.split("+").map(Number);
    if (body.kind === "hotseat" && min) body.clock = { base: min * 60, increment: inc };
    $("#start").disabled = true;
    $("#form-error").textContent = "";
    let r, data;
    try {
      if (body.kind === "online") { await startOnline(form, body); return; }
      r = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      data = await r.json();
    } catch (e) {
      // the static site's Python could not start (a download cut off, say): Start tries again (net.js)
      $("#form-error").textContent = e.site !== undefined ? t("site.failedWhy", { error: e.site }) : String(e.message || e);
      return;
    } finally {
      $("#start").disabled = false;
    }
    if (!r.ok) { $("#form-error").textContent = data.error; return; }
    saved.put(data.game, { kind: data.kind, tokens: data.tokens, created: Date.now(), host: data.kind === "lan" });
    location.hash = `#/game/${data.game}`;
  });
  const gamesBox = h("div", { class: "panel games" }, h("h2", {}, t("home.games")), h("p", { class: "muted" }, t("home.loading")));
  // learning and the rules come first, above the fold on a phone
  // the server's links name its root ("/#/learn"): under the app's root, so the site's stay in its directory
  const links = (meta.links || []).map((l) => h("a", { class: "btn primary", href: appURL(l.href), id: l.id }, l.label));
  root.append(
    h("header", { class: "hero" },
      h("div", { class: "logo" }, badge("blue"), badge("red")),
      h("h1", {}, "Toy Battle"),
      h("p", { class: "tagline" }, t("home.tagline")),
      h("nav", { class: "row wrap center home-links", "aria-label": t("home.rules") }, ...links,
        h("a", { class: "btn", href: "#/troops", id: "troops-link" }, t("home.troops"))), langSwitch(h)),
    h("main", { class: "home" }, form, h("div", { class: "col" }, gamesBox)));
  sync();
  if (invited) openInvite(form, invited);
  invited = null;
  fillGames(gamesBox);
}

// An invitation link: the online join form with its code, and the player presses Start (a mailbox of their
// own may need typing first); a malformed code opens the same form empty, with one line saying so.
function openInvite(form, inv) {
  const notice = $("#join-notice", form);
  const online = form.querySelector("input[name=kind][value=online]");
  notice.hidden = false;
  if (!online) { notice.textContent = t("home.inviteNoOnline"); return; }
  online.checked = true;
  form.querySelector("input[name=room][value=join]").checked = true;
  form.code.value = inv.code || "";
  form.dispatchEvent(new Event("change"));  // the form shows its join fields (sync)
  if (inv.bad) {
    notice.setAttribute("role", "alert");
    notice.textContent = t("home.badInvite");
    notice.scrollIntoView({ block: "center" });
    return;
  }
  notice.textContent = t("home.invited", { code: inv.code, start: t("home.start") });
  $("#start", form).setAttribute("aria-describedby", "join-notice");  // a screen reader says the notice with it
  $("#start", form).focus();  // on a phone, scrolls the form into view too
}
