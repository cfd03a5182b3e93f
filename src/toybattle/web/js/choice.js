// Board interaction for the current decision. The view's `legal` (docs/protocol.md) says, for each
// node, what a tap means: the exact action to send, or the rule that refuses it. A Choice only
// remembers what was picked first (a troop on the rack, or the bridge's victim) and looks the tap up:
// it composes no action and knows no rule.
import { tileSvg } from "./board.js";
import { h } from "./dom.js";

export class Choice {
  constructor() { this.reset(); }

  reset() { this.picked = null; this.pickedK = null; this.from = null; }

  /** Whether rack tiles can be picked now (the decision places a troop). */
  canPick(view) { return !!(view.legal && Object.keys(view.legal.rack).length); }

  /** Whether `code` on the rack has nowhere to go now. */
  stuck(view, code) { return this.canPick(view) && !openTaps(view.legal.rack[code]).length; }

  /** Pick (or put back) the troop at rack position k. */
  pick(code, k) {
    const again = this.picked === code && this.pickedK === k;
    this.from = null;
    this.picked = again ? null : code;
    this.pickedK = again ? null : k;
  }

  /** The node map that answers a tap now (null: a tap on the board chooses nothing). */
  taps(view) {
    const L = view.legal;
    if (!L) return null;
    if (this.picked) return L.rack[this.picked] || null;
    if (this.from !== null) return (L.board[String(this.from)] || {}).then || null;
    return Object.keys(L.board).length ? L.board : null;
  }

  /** The nodes a tap acts on now (to highlight): legal targets, and first steps of two-step choices. */
  targets(view) {
    const taps = this.taps(view);
    return taps ? Object.entries(taps).filter(([, t]) => !t.refused).map(([id]) => Number(id)) : [];
  }

  /** What tapping node `id` means: {send}, {refused, action?}, {opened} (a first step), or null. */
  tap(view, id) {
    const taps = this.taps(view);
    const t = taps && taps[String(id)];
    // a first step (the bridge's victim) opens, or closes when tapped again; another victim switches
    const first = view.legal && !this.picked && (view.legal.board[String(id)] || {}).then;
    if (first && (!t || t.refused || t.then || this.from === id)) {
      this.from = this.from === id ? null : id;
      return { opened: true };
    }
    if (!t) return null;
    return t.refused ? { refused: t.refused, action: t.action } : { send: t.action };
  }

  /** The rack troop and node of a placement the server named (a hint), or null. */
  placementOf(view, action) {
    for (const [code, taps] of Object.entries((view.legal && view.legal.rack) || {})) {
      for (const [id, t] of Object.entries(taps)) if (t.action === action && !t.refused) return { code, node: Number(id) };
    }
    return null;
  }
}

const openTaps = (taps) => Object.values(taps || {}).filter((t) => !t.refused);

/** The choices off the board (draw, use, skip, recover), as the view words them; `send(action)` plays one. */
export function choiceButtons(view, seat, send) {
  if (!view.legal) return [];
  return view.legal.buttons.map((b) => h("button", {
    class: `btn${b.main ? " primary" : ""}${b.tile ? " tilebtn" : ""}`, id: `btn-${b.action.replace(/[^\w-]/g, "-")}`,
    "data-action": b.action, "aria-label": b.label, onclick: () => send(b.action),
  }, b.tile ? tileSvg([seat, b.tile], 30) : null, b.label));
}
