// The play screen's overlays: the hot-seat cover, the end screen, the menu and its sheets.
// Each takes the PlayScreen (play.js) it belongs to.
import { t, tn, seatName, langSwitch } from "./i18n.js";
import { $, h, badge, other } from "./dom.js";
import { getMeta, offers } from "./data.js";
import { troopCard } from "./cards.js";
import { openSheet, confirmBox } from "./sheet.js";
import { fetch } from "./net.js"; // the API through the transport seam (server or in-browser worker)
import { muted, setMuted } from "./sound.js";

/** Hide the screen until `seat`'s player says they hold the device (a hot-seat hand-over). */
export function coverFor(screen, seat) {
  screen.covered = true;
  if ($("#cover")) return;
  const token = screen.entry.tokens[seat];
  document.body.appendChild(h("div", { class: `cover ${seat}`, id: "cover" },
    h("div", { class: "cover-box" }, badge(seat, "big"),
      h("h2", {}, t("cover.turn", { seat: seatName(seat) })),
      h("p", {}, t("cover.pass", { seat: seatName(seat), other: seatName(other(seat)) })),
      h("button", { class: "btn primary big", id: "cover-go", onclick: () => { screen.sock.rebind(token); } }, t("cover.go", { seat: seatName(seat) })))));
  $("#cover-go").focus();  // a keyboard or screen-reader player lands on the one thing to do
}

/** The end of the game: who won, how, the deciding move, and what the session offers next. Shown
 * once by itself; `again` (the Result button) shows it after "Look at the board" put it away. */
export function endScreen(screen, again = false) {
  const v = screen.view;
  if (again) screen.endDismissed = null;
  if ($("#endscreen") || screen.endDismissed === v.ply) return;
  const won = v.winner === v.seat;
  const offers = (v.game && v.game.offers) || {};  // the session says what it will not refuse
  const title = screen.kind === "hotseat" ? t("end.wins", { who: seatName(v.winner) }) : (won ? t("end.youWin") : t("end.winsOther", { who: v.players[v.winner] ? v.players[v.winner].name : seatName(v.winner) }));
  document.body.appendChild(h("div", { class: "endscreen", id: "endscreen", role: "dialog", "aria-labelledby": "end-title" },
    h("div", { class: `end-box ${v.winner}` }, badge(v.winner, "big"),
      h("h2", { id: "end-title" }, title),
      h("p", { id: "end-reason" }, v.how || v.result),
      v.decider ? h("p", { id: "end-decider", class: "decider" }, v.decider.text) : null,
      h("p", { class: "muted" }, t("end.medals", { b: v.medals.blue, bo: v.objective.blue, r: v.medals.red, ro: v.objective.red })),
      h("div", { class: "row wrap center" },
        offers.rematch ? h("button", { class: "btn primary big", id: "btn-rematch", onclick: () => screen.out(() => screen.sock.rematch()) }, t("end.rematch")) : null,
        offers.replay ? h("a", { class: "btn", href: `#/replay/${screen.id}`, id: "btn-replay" }, t("end.replay")) : null,
        v.over && v.winner && offers.review !== false ? h("a", { class: "btn", href: `#/review/${screen.id}`, id: "btn-review" }, t("review.button")) : null,
        h("button", { class: "btn", id: "btn-look", onclick: () => { screen.endDismissed = v.ply; $("#endscreen").remove(); } }, t("end.look")),
        h("a", { class: "btn", href: "#/" }, t("nav.home"))))));
  $("#endscreen .btn").focus();
}

export function menuSheet(screen) {
  const v = screen.view;
  const items = [h("a", { class: "btn", href: "#/" }, t("menu.home"))];
  if (v && !v.over) items.push(h("button", { class: "btn danger", id: "btn-concede", onclick: () => {
    confirmBox(screen.kind === "hotseat" ? t("menu.concedesHot", { seat: seatName(v.turn), other: seatName(other(v.turn)) }) : t("menu.concedeAsk"), t("menu.concede"),
      () => { if (screen.kind === "hotseat" && v.turn !== v.seat) screen.sock.rebind(screen.entry.tokens[v.turn]); screen.out(() => screen.sock.concede()); });
  } }, t("menu.concede")));
  // invite and watch links are for other devices: only where the app says they can reach it ("lan")
  if (offers("lan") && screen.kind === "lan" && screen.entry.host) items.push(h("button", { class: "btn", id: "btn-invite", onclick: () => screen.showInvite() }, t("menu.invite")));
  items.push(h("button", { class: "btn", onclick: () => screen.showLog() }, t("play.gameLog")));
  if (offers("lan")) items.push(h("button", { class: "btn", id: "btn-watch", onclick: () => watchSheet(screen) }, t("menu.watch")));
  items.push(soundSwitch());
  // on a phone the troops' cards live here, leaving the top bar's room to the terrain's name
  items.push(h("button", { class: "btn phone-only", id: "menu-troops", onclick: () => screen.showHandbook() }, t("play.troops")));
  items.push(h("h3", {}, t("menu.language")), langSwitch(h));
  openSheet(t("menu.title"), h("div", { class: "menu" }, items));
}

export function discardSheet(screen) {
  const v = screen.view;
  openSheet(t("play.discardN", { n: v.discard.length }), v.discard.length ? h("div", { class: "card-grid" }, v.discard.map((t) => troopCard(t[1], t[0])))
    : h("p", { class: "muted" }, t("play.noDiscard")));
}

export async function handbookSheet(screen) {
  const meta = await getMeta();
  openSheet(t("play.troops"), h("div", {}, h("div", { class: "card-grid" }, meta.troops.troops.map((t) => troopCard(t.code, screen.seat || "blue"))),
    h("p", {}, h("a", { class: "btn", href: "#/troops" }, t("play.allTerrains")))), { wide: true });
}

/** The join link and QR code of a two-device game, for the host: the link seats the first device
 * that opens it. Opening the app to the network is the host's choice here, with its warning. */
export async function inviteSheet(screen) {
  const token = screen.entry.tokens[screen.seat];
  const post = async (what, body) => {
    const r = await fetch(`/api/games/${screen.id}/${what}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token, ...body }) });
    if (!r.ok) screen.toast((await r.json()).error);
    return inviteSheet(screen);
  };
  const r = await fetch(`/api/games/${screen.id}/invite?token=${encodeURIComponent(token)}`);
  const d = await r.json();
  if (!r.ok && !d.joined) { screen.toast(d.error); return; }
  const net = d.network;
  const netBox = h("div", { class: "network" },
    h("p", { class: net.open ? "" : "warn" }, net.open ? t("invite.networkOpen", { address: net.address }) : net.warning),
    h("button", { class: "btn", id: "btn-network", onclick: () => post("network", { open: !net.open }) },
      net.open ? t("invite.networkClose") : t("invite.networkOpenBtn")));
  if (d.joined) {
    openSheet(t("invite.title"), h("div", { class: "invite" }, h("p", {}, d.error),
      h("button", { class: "btn", id: "btn-release", onclick: () => post("release", {}) }, t("invite.release", { seat: seatName(d.seat) })), netBox));
    return;
  }
  openSheet(t("invite.title"), h("div", { class: "invite" },
    h("p", {}, t("invite.text", { seat: seatName(d.seat) })),
    h("div", { class: "qr", html: d.qr_svg }),
    h("p", {}, h("a", { href: d.url, id: "invite-url", class: "mono" }, d.url)),
    d.note ? h("p", { class: "warn" }, d.note) : null, netBox));
}

/** A link for spectators: they see the board, the counts and the log, never a rack, and cannot act. */
async function watchSheet(screen) {
  const token = Object.values(screen.entry.tokens)[0];
  const r = await fetch(`/api/games/${screen.id}/watch?token=${encodeURIComponent(token)}`);
  const d = await r.json();
  if (!r.ok) { screen.toast(d.error); return; }
  const url = location.origin + d.url;
  openSheet(t("menu.watch"), h("div", { class: "invite" },
    h("p", {}, t("watch.text")),
    h("p", {}, h("a", { href: url, id: "watch-url", class: "mono", target: "_blank" }, url))));
}

/** The sound switch: on or off, remembered in this browser. */
export function soundSwitch() {
  const b = h("button", { class: "btn", id: "btn-sound", "aria-pressed": String(!muted()), title: t("sound.toggle"),
    onclick: () => {
      setMuted(!muted());
      b.setAttribute("aria-pressed", String(!muted()));
      b.textContent = t(muted() ? "sound.off" : "sound.on");
    } }, t(muted() ? "sound.off" : "sound.on"));
  return b;
}
