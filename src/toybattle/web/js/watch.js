// Watching a game (/watch/{game}/{key}): the board, the counts and the log, read-only. The server
// sends a spectator's view (no rack, no choices: what both players see) and refuses any action.
// The socket is the page's one transport seam (net.js), so watching works on the static site too.
import { t, seatName } from "./i18n.js";
import { drawBoard } from "./board.js";
import { $, h, fill, badge, medalIcon, svgEl } from "./dom.js";
import { getMeta, getTerrain, terrainInfo } from "./data.js";
import { GameSocket } from "./net.js";

const app = () => $("#app");

function strip(box, v, seat) {
  const p = v.players[seat] || { name: seatName(seat) };
  const c = v.counts[seat];
  box.className = `strip ${seat}${v.actor === seat ? " acting" : ""}`;
  const counter = (kind, ...value) => h("span", { class: "counter" }, ...value, " ", h("span", { class: "c-label" }, t(`strip.${kind}`)));
  fill(box, h("div", { class: "who" }, badge(seat), h("span", { class: "name" }, p.name)),
    counter("medals", medalIcon(), `${v.medals[seat]}/${v.objective[seat]}`),
    counter("rack", `${c.rack + c.laid}`),
    counter("reserve", `${c.reserve}`));
}

export async function showWatch(id, key) {
  await getMeta();
  document.body.className = "page-play page-watch";
  const svg = svgEl({ id: "board", role: "img", "aria-label": t("play.board") });
  const prompt = h("div", { class: "prompt", id: "prompt", "aria-live": "polite" }, t("play.connecting"));
  const logBox = h("div", { class: "replay-log", role: "region", "aria-label": t("play.gameLog") });  // a bare div may not be named
  const strips = { red: h("div", { class: "strip" }), blue: h("div", { class: "strip" }) };
  const title = h("div", { class: "title" }, t("watch.title"));
  let terrain = null;
  const show = async (v) => {
    if (!terrain) {
      terrain = await getTerrain(v.terrain);
      title.textContent = t("watch.titleOn", { terrain: terrainInfo(terrain.id).name });
    }
    drawBoard(svg, terrain, v, { flip: false, me: null, animate: true, onTap: () => {} });
    prompt.textContent = v.prompt;
    svg.dataset.ply = v.ply;
    for (const seat of ["red", "blue"]) strip(strips[seat], v, seat);
    fill(logBox, h("ol", { class: "log", tabindex: "0" }, v.log.slice(-8).map((e) => h("li", { class: e.seat }, badge(e.seat), h("span", {}, e.text)))));
  };
  fill(app(), h("div", { class: "play watch" },
    h("header", { class: "topbar" }, h("a", { class: "btn ghost", href: "#/", "aria-label": t("watch.home") }, "◀"), title),
    strips.red, h("div", { class: "table" }, h("div", { class: "board-wrap" }, svg)), strips.blue,
    h("div", { class: "dock" }, prompt, logBox)));
  return new GameSocket({
    game: id, watch: key, onView: show,
    onError: (message) => { prompt.textContent = message; },
    onStatus: (s) => { if (s === "offline") prompt.textContent = t("watch.offline"); },
  });
}
