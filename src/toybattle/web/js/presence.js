// Presence in an online game (the view's `game.presence`): one short line under the other player's strip,
// in words (their seat's name, never a colour alone): connected, away (since m:ss, counting up each
// second), back for a few seconds, or this side's own link to the mailbox down (that first). A screen
// reader hears each change of state once (#presence-said), never the ticking clock.
import { h, other } from "./dom.js";
import { t, seatName } from "./i18n.js";

export const BACK_FOR = 10;  // seconds "is back" shows, before "is connected" again

// the catalogue's words of each state ({who}: the other seat's name)
const WORDS = { here: "presence.here", away: "presence.away", back: "presence.back", offline: "presence.offline" };
const MARKS = { here: "●", away: "◌", back: "●", offline: "↻" };

/** "1:23" (or "1:02:03" past an hour) for `seconds` elapsed; a negative time (another clock) is 0. */
export function elapsed(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const m = Math.floor(s / 60);
  const ss = String(s % 60).padStart(2, "0");
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

const known = (x) => typeof x === "number" && Number.isFinite(x);

/** The state shown for presence `p` at epoch second `now`: "offline", "away", "back" or "here". */
export function stateOf(p, now) {
  if (!p.online) return "offline";
  if (p.peer === "away") return "away";
  if (known(p.back) && Math.max(0, now - p.back) < BACK_FOR) return "back";
  return "here";
}

/** The line of a PlayScreen: `line` goes in the page, `update(view)` after each view, `stop()` on leaving. */
export class Presence {
  constructor() {
    this.mark = h("span", { class: "presence-mark", "aria-hidden": "true" });
    this.text = h("span", { class: "presence-text" });
    this.said = h("span", { class: "sr-only", id: "presence-said", "aria-live": "polite", "aria-atomic": "true" });
    this.line = h("div", { class: "presence hidden", id: "presence" }, this.mark, this.text, this.said);
    this.p = null;
    this.who = "";
    this.state = null;  // what was last shown (null: nothing yet, or the line was hidden)
    this.timer = null;
  }

  stop() { clearTimeout(this.timer); this.timer = null; }

  /** Redraw after a view: shown while an online game is played (its presence set), hidden otherwise. */
  update(v) {
    const p = v.game && v.game.presence;
    if (!p || v.over) {
      this.stop();
      this.p = null;
      this.state = null;
      this.line.classList.add("hidden");
      return;
    }
    this.p = p;
    this.who = seatName(other(v.seat));
    this.line.classList.remove("hidden");
    this.stop();
    this.tick();
  }

  tick() {
    const p = this.p;
    if (!p) return;
    const now = Date.now() / 1000;
    const state = stateOf(p, now);
    const who = this.who;
    const text = state === "away" && known(p.since)
      ? t("presence.awaySince", { who, since: elapsed(now - p.since) }) : t(WORDS[state], { who });
    if (this.text.textContent !== text) this.text.textContent = text;
    // the next tick when the away clock turns its next second (else in a second: the end of "back")
    const frac = state === "away" && known(p.since) && now > p.since ? (now - p.since) % 1 : 0;
    this.timer = setTimeout(() => this.tick(), Math.ceil((1 - frac) * 1000) + 15);
    if (state === this.state) return;
    const was = this.state;
    this.state = state;
    this.line.className = `presence ${state}`;
    this.line.dataset.state = state;
    this.mark.textContent = MARKS[state];
    // said: every change but the first "connected" (nothing new) and "back" turning to "connected"
    if ((was === null && state === "here") || (was === "back" && state === "here")) return;
    this.said.textContent = t(WORDS[state], { who });
  }
}
