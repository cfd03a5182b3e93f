// The seat's own rack: its tiles as buttons (picked, or stuck when it has nowhere to go), then
// the tiles a tank laid face down.
import { t } from "./i18n.js";
import { tileSvg } from "./board.js";
import { h } from "./dom.js";
import { troopName, strengthWords } from "./data.js";

/** Rack buttons for `view` (its `rack` and `laid`) under `choice` (a Choice); onPick(code, k), onLaid(code). */
export function rackTiles(view, choice, { onPick, onLaid, disabled = false }) {
  const tiles = view.rack.map((code, k) => {
    const picked = choice.picked === code && (choice.pickedK === null || choice.pickedK === k);
    return h("button", {
      class: `rack-tile${picked ? " picked" : ""}${choice.stuck(view, code) ? " stuck" : ""}`,
      "data-troop": code, "data-k": k, "aria-pressed": picked ? "true" : "false", disabled,
      onclick: (ev) => onPick(code, k, ev),
      // named by its visible name, then its strength (which the picture shows) for a screen reader;
      // aria-pressed says it is picked
    }, quiet(tileSvg([view.seat, code], 38)), h("span", { class: "rack-name" }, troopName(code)),
    h("span", { class: "sr-only" }, `, ${strengthWords(code)}`));
  });
  const laid = view.laid.map((code) => h("button", {
    class: "rack-tile laid", "data-troop": code, "aria-label": t("rack.laidLabel", { name: troopName(code) }),
    disabled: !onLaid || disabled, onclick: () => onLaid && onLaid(code),
  }, quiet(tileSvg([view.seat, code], 38)), h("span", { class: "rack-name" }, t("rack.laid"))));
  return [...tiles, ...laid];
}

/** Keep `rack` (a .rack element) on one line: when its tiles would need a sideways scroll, they show their
 * pictures only (each picture's strength names its troop; the name stays for a screen reader). Measured, as
 * names differ in width by language; again whenever the rack's width changes. Returns `rack`. */
export function fitRack(rack) {
  const fit = () => {
    rack.classList.remove("compact");
    if (rack.scrollWidth > rack.clientWidth + 1) rack.classList.add("compact");
  };
  if (!fitted.has(rack)) { fitted.add(rack); new ResizeObserver(fit).observe(rack); }
  fit();
  return rack;
}
const fitted = new WeakSet();

// a tile's picture repeats what the button's name says
function quiet(svg) { svg.setAttribute("aria-hidden", "true"); return svg; }
