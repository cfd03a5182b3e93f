// Online rooms (served by toybattle.online.web: room codes over magic-wormhole): open or join one,
// open a new room like one that closed, resume a game whose connection closed.
import { $, h } from "./dom.js";
import { saved } from "./saved.js";
import { openSheet, closeSheet } from "./sheet.js";
import { fetch } from "./net.js"; // the API through the transport seam (server or in-browser worker)

export async function startOnline(form, body) {
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
export async function reopenRoom(room, show) {
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
export function resumeOnline(id, token) {
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
