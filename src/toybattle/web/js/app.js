// Toy Battle in the browser: one page whose hash router shows the screens (home, play, replay, watch,
// troops & terrains, Learn: the lessons, a lesson, the rules and FAQ; and the puzzles). Moving between screens never
// loads another page: on the static site, Python starts once per visit. Each screen is its own module;
// they share the element helpers (dom.js), the server's data (data.js), cards, the rack and the board
// interaction (choice.js).
import { t } from "./i18n.js";
import { $, h, fill } from "./dom.js";
import { saved } from "./saved.js";
import { closeSheet } from "./sheet.js";
import { showHome, takeInvite } from "./home.js";
import { showGame } from "./play.js";
import { showReplay } from "./replay.js";
import { showReview } from "./review.js";
import { showTroops } from "./handbook.js";
import { showWatch } from "./watch.js";
import { showLearn, LEARN } from "./learn.js";
import { showPuzzles } from "./puzzles.js";
import { fetch, ROOT, appURL } from "./net.js"; // the API through the transport seam (server or in-browser worker)

let current = null; // the live play screen, if any

function leaveScreen() {
  if (current) { current.close(); current = null; }
  for (const id of ["endscreen", "cover"]) { const e = document.getElementById(id); if (e) e.remove(); }
  document.body.className = "";
  document.title = "Toy Battle";
}

// the page's path under the app's root ("/join/G/T" wherever the site is served), and its hash route
const appPath = () => "/" + location.pathname.slice(ROOT.pathname.length);
const here = () => location.hash.replace(/^#/, "") || "/";
const decode = (part) => { try { return decodeURIComponent(part); } catch { return part; } };  // a broken %-escape as is

// A two-device join link (/invite/{game}/{key}) seats this device if it is the first to open it.
async function inviteFromPath() {
  const m = appPath().match(/^\/invite\/([^/]+)\/([^/]+)$/);
  if (!m) return false;
  const [, id, key] = m;
  const r = await fetch(`/api/games/${id}/join`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key }) });
  const d = await r.json();
  if (r.ok) {
    saved.put(id, { kind: d.kind, tokens: d.tokens, created: Date.now(), host: false });
    history.replaceState(null, "", appURL(`/#/game/${id}`));
  } else {
    history.replaceState(null, "", appURL("/#/"));
    alert(d.error);
  }
  return true;
}

// A watch link (/watch/{game}/{key}) opens the read-only screen; the key stays in the hash route.
function watchFromPath() {
  const m = appPath().match(/^\/watch\/([\w-]+)\/([\w-]+)$/);
  if (m) history.replaceState(null, "", appURL(`/#/watch/${m[1]}/${m[2]}`));
}

// The Learn page's old addresses (/learn, /learn#/, /learn#/rules, /learn#/lesson/ID: bookmarks, links from
// before Learn was screens of this page; the server and the site answer /learn with this page): the same
// screen at its route here.
function learnFromPath() {
  if (!/^\/learn\/?(index\.html)?$/.test(appPath())) return;
  const old = here();
  const lesson = old.match(/^\/lesson\/([^/]+)$/);
  const to = lesson ? LEARN.lesson(decode(lesson[1])) : old === "/rules" ? LEARN.rules
    : /^\/learn(\/[^/]+)?$/.test(old) ? `#${old}` : LEARN.lessons;
  history.replaceState(null, "", appURL(`/${to}`));
}

async function joinFromPath() {
  watchFromPath();
  learnFromPath();
  if (await inviteFromPath()) return;
  const m = appPath().match(/^\/join\/([^/]+)\/([^/]+)$/);
  if (m) await joinSeat(m[1], m[2]);
}

// A join link (/join/{game}/{token}, or the route #/join/... of a lesson played on against a bot): this
// browser keeps the seat's token and the address becomes the game's (#/game/ID), in place of the link.
async function joinSeat(id, token) {
  const r = await fetch(`/api/games/${id}?token=${encodeURIComponent(token)}`);
  if (r.ok) {
    const st = await r.json();
    saved.put(id, { kind: st.kind, tokens: { [st.seat]: token }, created: Date.now(), host: false });
    history.replaceState(null, "", appURL(`/#/game/${id}`));
  } else {
    history.replaceState(null, "", appURL("/#/"));
    alert(t("app.badJoin"));
  }
}

async function route() {
  takeInvite();  // an invitation link (#join=CODE): off the address bar, then the home screen's join form
  let hash = here();
  let m;
  leaveScreen();
  try {
    if ((m = hash.match(/^\/join\/([\w-]+)\/([\w-]+)$/))) { await joinSeat(m[1], m[2]); hash = here(); }
    if ((m = hash.match(/^\/game\/([\w-]+)$/))) current = await showGame(m[1]);
    else if ((m = hash.match(/^\/replay\/([\w-]+)$/))) await showReplay(m[1]);
    else if ((m = hash.match(/^\/review\/([\w-]+)$/))) await showReview(m[1]);
    else if ((m = hash.match(/^\/watch\/([\w-]+)\/([\w-]+)$/))) current = await showWatch(m[1], m[2]);
    else if (hash === "/troops") await showTroops();
    else if ((m = hash.match(/^\/learn(?:\/([^/]+))?$/))) await showLearn({ lesson: m[1] ? decode(m[1]) : null });
    else if (hash === "/rules") await showLearn({ rules: true });
    else if ((m = hash.match(/^\/puzzles(?:\/([^/]+))?$/))) await showPuzzles({ puzzle: m[1] ? decode(m[1]) : null });
    else await showHome();
  } catch (e) {
    console.error(e);
    // the static site has no server: its in-browser app could not start (net.js)
    const site = e && e.site !== undefined;
    fill($("#app"), h("main", { class: "panel lost" }, h("h2", {}, site ? t("site.failed") : t("app.noServer")),
      h("p", {}, site ? t("site.failedWhy", { error: e.site }) : t("app.noServerWhy")),
      h("a", { class: "btn primary", href: "#/" }, t("app.retry"))));
  }
}

window.addEventListener("hashchange", route);
window.addEventListener("keydown", (e) => { if (e.key === "Escape") closeSheet(); });
joinFromPath().then(route);
