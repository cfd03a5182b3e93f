// The troops & terrains handbook: every troop's card, the special bases, every terrain's board.
import { t as tr } from "./i18n.js";
import { drawBoard } from "./board.js";
import { $, h, svgEl } from "./dom.js";
import { getMeta, getTerrain, terrainInfo } from "./data.js";
import { troopCard, powerText } from "./cards.js";

export async function showTroops() {
  const meta = await getMeta();
  document.body.className = "page-doc";
  const terrains = await Promise.all(meta.terrains.map((t) => getTerrain(t.id)));
  const root = $("#app");
  root.innerHTML = "";
  const boards = terrains.map((t) => {
    const info = terrainInfo(t.id);
    const svg = svgEl();
    drawBoard(svg, t, { stacks: {}, connected: {}, claimed: {} }, { animate: false });
    const hqs = t.nodes.filter((n) => n.kind === "hq");
    return h("div", { class: "terrain-card panel" }, h("div", { class: "mini-board" }, svg),
      h("div", {}, h("h3", {}, info.name),
        h("p", {}, tr("hb.objective", { n: info.objective.blue, b: hqs.filter((n) => n.side === "blue").length, r: hqs.filter((n) => n.side === "red").length })),
        ...info.powers.map((p) => powerText(p)),
        info.restricted ? h("p", {}, h("b", {}, `${meta.powers.restricted.name}. `), meta.powers.restricted.text) : null,
        !info.powers.length && !info.restricted ? h("p", { class: "muted" }, tr("hb.noSpecial")) : null));
  });
  root.append(
    h("header", { class: "topbar" }, h("a", { class: "btn ghost", href: "#/", "aria-label": tr("nav.home") }, `◀ ${tr("nav.home")}`),
      h("div", { class: "title" }, tr("home.troops"))),
    h("main", { class: "doc" },
      h("h2", {}, tr("hb.troops")),
      h("p", { class: "muted" }, meta.texts.army),
      h("div", { class: "card-grid" }, meta.troops.troops.map((t) => troopCard(t.code, "blue"))),
      h("h2", {}, tr("hb.special")),
      h("div", { class: "card-grid" }, Object.keys(meta.powers).map((p) => h("div", { class: "card" }, powerText(p) || h("p", {}, meta.powers[p].text)))),
      h("h2", {}, tr("hb.terrains")),
      h("div", { class: "terrain-grid" }, boards)));
}
