// The play screen's overlays: the hot-seat cover, the end screen, the menu and its sheets.
// Each takes the PlayScreen (play.js) it belongs to.
import { $, h, badge, cap, other } from "./dom.js";
import { getMeta } from "./data.js";
import { troopCard } from "./cards.js";
import { openSheet, confirmBox } from "./sheet.js";
import { fetch } from "./net.js";
import { muted, setMuted, SOUND_T } from "./sound.js"; // the API through the transport seam (server or in-browser worker)

/** Hide the screen until `seat`'s player says they hold the device (a hot-seat hand-over). */
export function coverFor(screen, seat) {
  screen.covered = true;
  if ($("#cover")) return;
  const token = screen.entry.tokens[seat];
  document.body.appendChild(h("div", { class: `cover ${seat}`, id: "cover" },
    h("div", { class: "cover-box" }, badge(seat, "big"),
      h("h2", {}, `${cap(seat)}'s turn`),
      h("p", {}, `Pass the device to ${cap(seat)}. ${cap(other(seat))}, no peeking at the next rack!`),
      h("button", { class: "btn primary big", id: "cover-go", onclick: () => { screen.sock.rebind(token); } }, `I'm ${cap(seat)}: show my rack`))));
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
  const title = screen.kind === "hotseat" ? `${cap(v.winner)} wins!` : (won ? "You win!" : `${v.players[v.winner] ? v.players[v.winner].name : cap(v.winner)} wins`);
  document.body.appendChild(h("div", { class: "endscreen", id: "endscreen", role: "dialog", "aria-labelledby": "end-title" },
    h("div", { class: `end-box ${v.winner}` }, badge(v.winner, "big"),
      h("h2", { id: "end-title" }, title),
      h("p", { id: "end-reason" }, v.how || v.result),
      v.decider ? h("p", { id: "end-decider", class: "decider" }, v.decider.text) : null,
      h("p", { class: "muted" }, `Medals: blue ${v.medals.blue} of ${v.objective.blue}, red ${v.medals.red} of ${v.objective.red}`),
      h("div", { class: "row wrap center" },
        offers.rematch ? h("button", { class: "btn primary big", id: "btn-rematch", onclick: () => screen.out(() => screen.sock.rematch()) }, "Rematch") : null,
        offers.replay ? h("a", { class: "btn", href: `#/replay/${screen.id}`, id: "btn-replay" }, "Replay") : null,
        h("button", { class: "btn", id: "btn-look", onclick: () => { screen.endDismissed = v.ply; $("#endscreen").remove(); } }, "Look at the board"),
        h("a", { class: "btn", href: "#/" }, "Home")))));
  $("#endscreen .btn").focus();
}

export function menuSheet(screen) {
  const v = screen.view;
  const items = [h("a", { class: "btn", href: "#/" }, "Home (the game is saved)")];
  if (v && !v.over) items.push(h("button", { class: "btn danger", id: "btn-concede", onclick: () => {
    confirmBox(screen.kind === "hotseat" ? `${cap(v.turn)} concedes: ${cap(other(v.turn))} wins.` : "Concede this game? Your opponent wins.", "Concede",
      () => { if (screen.kind === "hotseat" && v.turn !== v.seat) screen.sock.rebind(screen.entry.tokens[v.turn]); screen.out(() => screen.sock.concede()); });
  } }, "Concede"));
  if (screen.kind === "lan" && screen.entry.host) items.push(h("button", { class: "btn", id: "btn-invite", onclick: () => screen.showInvite() }, "Invite link & QR code"));
  items.push(h("button", { class: "btn", onclick: () => screen.showLog() }, "Game log"));
  items.push(soundSwitch());
  // on a phone the troops' cards live here, leaving the top bar's room to the terrain's name
  items.push(h("button", { class: "btn phone-only", id: "menu-troops", onclick: () => screen.showHandbook() }, "Troops"));
  openSheet("Menu", h("div", { class: "menu" }, items));
}

export function discardSheet(screen) {
  const v = screen.view;
  openSheet(`Discard (${v.discard.length})`, v.discard.length ? h("div", { class: "card-grid" }, v.discard.map((t) => troopCard(t[1], t[0])))
    : h("p", { class: "muted" }, "Nothing has been discarded yet."));
}

export async function handbookSheet(screen) {
  const meta = await getMeta();
  openSheet("Troops", h("div", {}, h("div", { class: "card-grid" }, meta.troops.troops.map((t) => troopCard(t.code, screen.seat || "blue"))),
    h("p", {}, h("a", { class: "btn", href: "#/troops" }, "All terrains and special bases"))), { wide: true });
}

/** The join link and QR code of a two-device game, for the host. */
export async function inviteSheet(screen) {
  const token = screen.entry.tokens[screen.seat];
  const r = await fetch(`/api/games/${screen.id}/invite?token=${encodeURIComponent(token)}`);
  const d = await r.json();
  if (!r.ok) { screen.toast(d.error); return; }
  openSheet("Invite a friend", h("div", { class: "invite" },
    h("p", {}, `Your friend plays ${d.seat}. On their phone or computer, on the same network, scan the code or open the link:`),
    h("div", { class: "qr", html: d.qr_svg }),
    h("p", {}, h("a", { href: d.url, id: "invite-url", class: "mono" }, d.url)),
    d.note ? h("p", { class: "warn" }, d.note) : null));
}

/** The sound switch: on or off, remembered in this browser. */
export function soundSwitch() {
  const b = h("button", { class: "btn", id: "btn-sound", "aria-pressed": String(!muted()), title: SOUND_T.toggle,
    onclick: () => {
      setMuted(!muted());
      b.setAttribute("aria-pressed", String(!muted()));
      b.textContent = muted() ? SOUND_T.off : SOUND_T.on;
    } }, muted() ? SOUND_T.off : SOUND_T.on);
  return b;
}
