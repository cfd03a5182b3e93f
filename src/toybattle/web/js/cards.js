// Cards: what a troop, a base, a region or a counter is, in the server's words (/api/meta, the view).
import { t, tn, seatName } from "./i18n.js";
import { tileSvg, POWER_MARK } from "./board.js";
import { h } from "./dom.js";
import { meta, troop } from "./data.js";

const tr = t;  // troopCard names its troop `t`

export const isHint = (card) => card instanceof Element && card.classList.contains("hint-card");

export function troopCard(code, seat) {
  const t = troop(code);
  if (!t) return h("div", { class: "card" }, tr("card.unknown"));
  return h("div", { class: "card troop-card", "data-card": `troop-${code}` },
    h("div", { class: "card-head" }, tileSvg([seat || "blue", code], 40),
      h("div", {}, h("div", { class: "card-title" }, t.name, null),
        h("div", { class: "card-sub" }, t.strength === null ? tr("card.joker") : tr("card.strength", { n: t.strength })))),
    h("p", {}, t.effect));
}

/** A troop laid face down on its owner's rack. */
export function laidCard(code, seat) {
  return h("div", { class: "card" }, troopCard(code, seat), h("p", {}, meta().texts.laid));
}

export function powerText(power) {
  const p = meta().powers[power];
  return p ? h("p", {}, h("b", {}, `${POWER_MARK[power] || ""} ${p.name}. `), p.text) : null;
}

export function nodeCard(terrain, view, id, me) {
  const { powers, texts } = meta();
  const n = terrain.nodes.find((x) => x.id === id);
  const stack = (view.stacks || {})[String(id)] || [];
  const linked = ((view.connected || {})[me] || []).includes(id);
  const title = n.kind === "hq" ? t(n.side === me ? "play.hqYours" : "play.hq", { side: seatName(n.side) }) : t("play.base", { id });
  const parts = [];
  if (n.kind === "hq") parts.push(h("p", {}, n.side === me ? texts.own_hq : texts.enemy_hq));
  if (n.power && !view.first_game) parts.push(powerText(n.power));
  if (n.power && view.first_game) parts.push(h("p", {}, `${powers[n.power].name}: ${texts.first_game_power}`));
  if (n.allowed_codes && !view.first_game) {
    parts.push(h("p", {}, h("b", {}, `${powers.restricted.name}. `), t("card.here", { names: n.allowed.join(", ") }), powers.restricted.text));
  }
  if (n.kind === "base") {
    parts.push(h("p", { class: "muted" }, stack.length
      ? t(linked ? "card.holdsLinked" : "card.holds", { seat: seatName(stack[stack.length - 1][0]) })
      : t("card.emptyBase")));
  }
  const list = stack.length ? h("ol", { class: "stack-list" },
    stack.slice().reverse().map((tile, k) => h("li", {}, tileSvg(tile, 30),
      h("span", {}, `${seatName(tile[0])} ${troop(tile[1]).name}`, k === 0 ? h("em", {}, t("card.top")) : null,
        h("small", {}, troop(tile[1]).strength === null ? ` — ${t("play.joker")}` : ` — ${t("play.strength", { n: troop(tile[1]).strength })}`))))) : null;
  return h("div", { class: "card node-card", "data-card": `node-${id}` },
    h("div", { class: "card-title" }, title), ...parts,
    stack.length ? h("div", { class: "card-sub" }, t("card.stackOf", { n: stack.length })) : null, list);
}

export function regionCard(terrain, view, id) {
  const r = terrain.regions.find((x) => x.id === id);
  const owner = (view.claimed || {})[String(id)];
  return h("div", { class: "card", "data-card": `region-${id}` },
    h("div", { class: "card-title" }, tn("card.region", r.medals, { id })),
    h("p", {}, `${t("card.around", { ids: r.bases.join(", ") })} ${meta().texts.region}`),
    owner ? h("p", {}, h("b", {}, t("card.took", { seat: seatName(owner) }))) : null);
}

/** A counter's card: `kind` is medals, rack, reserve or discard; the words are the view's. */
export function counterCard(kind, seat, view) {
  const text = kind === "discard" ? view.counters.discard : view.counters[seat][kind];
  return h("div", { class: "card", "data-card": `count-${kind}-${seat}` },
    h("div", { class: "card-title" }, `${seatName(seat)} : ${t(`strip.${kind}`)}`), h("p", {}, text));
}
