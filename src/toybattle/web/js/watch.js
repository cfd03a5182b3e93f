// Watching a game (/watch/{game}/{key}): the board, the counts and the log, read-only. The server
// sends a spectator's view (no rack, no choices: what both players see) and refuses any action.
import { drawBoard } from "./board.js";
import { $, h, fill, badge, medalIcon, svgEl } from "./dom.js";
import { getMeta, getTerrain, terrainInfo } from "./data.js";

const app = () => $("#app");

export async function showWatch(id, key) {
  await getMeta();
  document.body.className = "page-play page-watch";
  const svg = svgEl({ id: "board" });
  const prompt = h("div", { class: "prompt", id: "prompt", "aria-live": "polite" }, "Connecting…");
  const logBox = h("div", { class: "replay-log" });
  const strips = { red: h("div", { class: "strip" }), blue: h("div", { class: "strip" }) };
  const title = h("div", { class: "title" }, "Watching");
  let terrain = null;
  const show = async (v) => {
    if (!terrain) {
      terrain = await getTerrain(v.terrain);
      title.textContent = `Watching · ${terrainInfo(terrain.id).name}`;
    }
    drawBoard(svg, terrain, v, { flip: false, me: null, animate: true, onTap: () => {} });
    prompt.textContent = v.prompt;
    svg.dataset.ply = v.ply;
    for (const seat of ["red", "blue"]) {
      const p = v.players[seat] || { name: seat };
      strips[seat].className = `strip ${seat}${v.actor === seat ? " acting" : ""}`;
      fill(strips[seat], h("div", { class: "who" }, badge(seat), h("span", { class: "name" }, p.name)),
        h("span", { class: "counter" }, medalIcon(), `${v.medals[seat]}/${v.objective[seat]}`),
        h("span", { class: "counter" }, `rack ${v.counts[seat].rack + v.counts[seat].laid}`),
        h("span", { class: "counter" }, `reserve ${v.counts[seat].reserve}`));
    }
    fill(logBox, h("ol", { class: "log" }, v.log.slice(-8).map((e) => h("li", { class: e.seat }, badge(e.seat), h("span", {}, e.text)))));
  };
  fill(app(), h("div", { class: "play watch" },
    h("header", { class: "topbar" }, h("a", { class: "btn ghost", href: "#/" }, "◀"), title),
    strips.red, h("div", { class: "table" }, h("div", { class: "board-wrap" }, svg)), strips.blue,
    h("div", { class: "dock" }, prompt, logBox)));
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let ws = null, closed = false;
  const open = () => {
    ws = new WebSocket(`${scheme}://${location.host}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", game: id, watch: key }));
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "view") show(msg.view);
      else if (msg.type === "error") prompt.textContent = msg.message;
    };
    ws.onclose = () => { if (!closed) setTimeout(open, 2000); };
  };
  open();
  return { close() { closed = true; if (ws) ws.close(); } };
}
