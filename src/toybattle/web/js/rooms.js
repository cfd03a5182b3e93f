// Online rooms (served by toybattle.online.web: room codes over magic-wormhole): open or join one,
// open a new room like one that closed, resume a game whose connection closed.
import { t } from "./i18n.js";
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
  const [min, inc] = (form.clock && form.clock.value !== "none" ? form.clock.value : "").split("+").map(Number);
  if (!join && min) req.clock = { base: min * 60, increment: inc };
  $("#form-error").textContent = join ? t("room.joining") : t("room.opening");
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
  show(t("room.opening"));
  let data;
  try {
    const r = await fetch("/api/online/host", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(room) });
    data = await r.json();
    if (!r.ok) { show(data.error); return; }
  } catch { show(t("app.noServerShort")); return; }
  saved.put(data.game, { kind: "online", tokens: { [data.seat]: data.token }, code: data.code || null, created: Date.now(), room });
  location.hash = `#/game/${data.game}`;
}

// An online game whose connection closed: one player opens a new room, the other types its code.
export function resumeOnline(id, token) {
  const msg = h("p", { class: "error", id: "resume-error", role: "alert" });
  const code = h("input", { id: "resume-code", placeholder: t("home.codeHint"), autocomplete: "off" });
  const go = async (withCode) => {
    const req = { game: id, token, relay: localStorage.getItem("tb.relay") || "" };  // empty: the game's own mailbox
    if (withCode) req.code = code.value.trim();
    msg.textContent = withCode ? t("room.rejoining") : t("room.opening");
    try {
      const r = await fetch("/api/online/resume", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(req) });
      const data = await r.json();
      if (!r.ok) { msg.textContent = data.error; return; }
      saved.put(id, { code: data.code || null });
    } catch { msg.textContent = t("app.noServerShort"); return; }
    closeSheet();
    location.hash = `#/game/${id}`;
  };
  openSheet(t("room.resumeTitle"), h("div", {},
    h("p", {}, t("room.resumeText")),
    h("div", { class: "row wrap" }, h("button", { class: "btn primary", id: "btn-resume-host", onclick: () => go(false) }, t("room.newRoom"))),
    h("div", { class: "row wrap" }, code, h("button", { class: "btn", id: "btn-resume-join", onclick: () => go(true) }, t("room.rejoin"))),
    msg));
}
