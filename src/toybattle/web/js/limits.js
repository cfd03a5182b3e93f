// Online wait limits in the play screen: a countdown while the other player's move or reply is due
// (the view's `game.deadline`), and, once they are past it (`game.silent`), the three ways on the
// session offers: claim the game, keep waiting, close the room (docs/protocol.md).
import { $, h } from "./dom.js";
import { t, seatName } from "./i18n.js";
import { fetch } from "./net.js"; // the API through the transport seam

// the silence buttons are short, so the three fit one row on a phone; their titles say them in full
const FULL = { claim: "limits.claimFull", wait: "limits.waitFull", close: "limits.closeFull" };
const SHORT = { claim: "limits.claim", wait: "limits.wait", close: "limits.close" };

/** "4:05" or "12 s" for `seconds` left. */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s} s`;
}

/** The countdown line and the silence buttons of `screen` (a PlayScreen) for its current view. */
export class Limits {
  constructor(screen) {
    this.screen = screen;
    this.timer = null;
    this.line = h("div", { class: "countdown hidden", id: "countdown", role: "timer", "aria-live": "off" });
  }

  stop() { clearInterval(this.timer); this.timer = null; }

  /** Redraw after a view: the countdown runs only while the other seat is due and not yet late. */
  update(v) {
    const g = v.game || {};
    const d = g.deadline;
    const waitingForThem = !v.over && !g.silent && d && d.seat !== v.seat;
    this.stop();
    this.line.classList.toggle("hidden", !waitingForThem);
    if (!waitingForThem) return;
    const who = seatName(d.seat);
    const tick = () => {
      const left = d.at - Date.now() / 1000;
      this.line.textContent = left > 0 ? t(d.kind === "move" ? "limits.move" : "limits.reply", { who, left: clock(left) }) : t("limits.late", { who });
      if (left <= 0) this.stop();
    };
    tick();
    this.timer = setInterval(tick, 1000);
  }

  /** The buttons to show when the other player is past its limit (what `game.offers` allows). */
  buttons(v) {
    const g = v.game || {};
    if (!g.silent || v.over) return [];
    const offers = g.offers || {};
    return ["claim", "wait", "close"].filter((c) => offers[c]).map((c) =>
      h("button", { class: `btn${c === "claim" ? " primary" : ""}`, id: `btn-${c}`, title: t(FULL[c]), onclick: () => this.choose(c) }, t(SHORT[c])));
  }

  async choose(choice) {
    const s = this.screen;
    for (const b of ["claim", "wait", "close"]) { const e = $(`#btn-${b}`); if (e) e.disabled = true; }
    try {
      const r = await fetch(`/api/online/${choice}`, { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ game: s.id, token: s.entry.tokens[s.seat] }) });
      if (!r.ok) s.toast((await r.json()).error);
    } catch { s.toast(t("limits.unreachable")); }
  }
}

/** Both clocks of a game with a time control (the view's `game.clock`: each seat's seconds left as this
 * side measures them at `at`, and whose clock runs), the running one counted down. Readable without colour:
 * the running clock says so in words. */
export class Clocks {
  constructor() {
    this.timer = null;
    this.line = h("div", { class: "clocks hidden", id: "clocks", role: "timer", "aria-live": "off" });
  }

  stop() { clearInterval(this.timer); this.timer = null; }

  update(v) {
    const c = (v.game || {}).clock;
    this.stop();
    this.line.classList.toggle("hidden", !c || !!v.over);
    if (!c || v.over) return;
    const tick = () => {
      const spent = Math.max(0, Date.now() / 1000 - c.at);
      const parts = ["blue", "red"].map((seat) => {
        const runs = c.running === seat;
        const left = clock(runs ? c.left[seat] - spent : c.left[seat]);
        return h("span", { class: `clock${runs ? " runs" : ""}`, id: `clock-${seat}` },
          t(runs ? "clock.runs" : "clock.seat", { who: seatName(seat), left }));
      });
      this.line.replaceChildren(parts[0], " · ", parts[1]);
    };
    tick();
    if (c.running) this.timer = setInterval(tick, 1000);
  }
}
