// A seat's strip: who plays it, and its counters (medals, rack, reserve; the opponent's strip also
// shows the tiles seen arriving on its rack, and the discard). Tapping a counter opens its card.
import { t, seatName } from "./i18n.js";
import { tileSvg } from "./board.js";
import { h, fill, svgIcon, badge, medalIcon } from "./dom.js";

const RACK = "M-8 -6 H8 V6 H-8 Z M-5 -3 V3 M0 -3 V3 M5 -3 V3";
const RESERVE = "M-7 -2 H7 V7 H-7 Z M-5 -5 H5 V-2 H-5 Z M-3 -8 H3 V-5 H-3 Z";
const DISCARD = "M-6 -7 H6 L5 8 H-5 Z M-8 -7 H8";
// the counters' labels (the strip's own words)
const LABELS = { medals: t("strip.medals"), rack: t("strip.rack"), reserve: t("strip.reserve"), discard: t("strip.discard") };

/** Fill `box` with `seat`'s strip from `view`; `you`: name it "You"; onCounter(kind), onDiscard(). */
export function seatStrip(box, view, seat, { you, onCounter, onDiscard }) {
  const c = view.counts[seat];
  const p = view.players[seat] || { name: seatName(seat) };
  const mine = seat === view.seat;
  // a counter's name is its visible words, with the seat before them for a screen reader ("Red 0/7 medals")
  const counter = (kind, icon, text) => h("button", { class: `counter c-${kind}`, onclick: () => onCounter(kind) },
    h("span", { class: "sr-only" }, `${seatName(seat)} `), h("span", { class: "c-val" }, icon, h("span", {}, text)),
    h("span", { class: "c-label" }, ` ${LABELS[kind]}`));
  box.className = `strip ${box.id} ${seat}${view.actor === seat ? " acting" : ""}`;
  fill(box,
    h("div", { class: "who" }, badge(seat), h("span", { class: "name" }, you ? t("play.you") : p.name)),
    counter("medals", medalIcon(), `${view.medals[seat]}/${view.objective[seat]}`),
    counter("rack", svgIcon(RACK, "rack-icon"), `${c.rack + c.laid}`),
    counter("reserve", svgIcon(RESERVE, "reserve-icon"), `${c.reserve}`),
    !mine && view.seen.length ? h("span", { class: "seen", title: t("strip.seen") },
      ...view.seen.map((code) => tileSvg([seat, code], 22))) : null,
    !mine ? h("button", { class: "counter c-discard", id: "discard-btn", onclick: onDiscard },
      h("span", { class: "c-val" }, svgIcon(DISCARD, "discard-icon"), h("span", {}, `${view.discard.length}`)),
      h("span", { class: "c-label" }, ` ${LABELS.discard}`)) : null);
}
