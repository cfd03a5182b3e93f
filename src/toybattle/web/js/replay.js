// The replay of a finished game, step by step, from the seat's own views.
import { t, seatName } from "./i18n.js";
import { drawBoard } from "./board.js";
import { $, h, fill, badge, medalIcon, other, svgEl, svgIcon } from "./dom.js";
import { getMeta, getTerrain, terrainInfo } from "./data.js";
import { saved } from "./saved.js";
import { fetch } from "./net.js"; // the API through the transport seam (server or in-browser worker)

const app = () => $("#app");

// the step buttons draw their own icons: media glyphs (⏮ ⏭) are missing from many phones' fonts
const ICONS = { first: "M-8 -7 H-5 V7 H-8 Z M6 -7 V7 L-4 0 Z", prev: "M5 -7 V7 L-6 0 Z",
  next: "M-5 -7 V7 L6 0 Z", last: "M5 -7 H8 V7 H5 Z M-6 -7 V7 L4 0 Z" };

/** The nodes the step's own move touched, to mark on the board. */
function stepMark(v) {
  const e = v.log[v.log.length - 1];
  if (!e) return null;
  const fx = e.fx || {};
  return { seat: e.seat, nodes: [fx.place, fx.remove, ...(fx.move || [])].filter((n) => n !== undefined) };
}

export async function showReplay(id) {
  await getMeta();
  const entry = saved.get(id);
  const token = entry && Object.values(entry.tokens || {})[0];
  document.body.className = "page-play page-replay";
  const r = token ? await fetch(`/api/games/${id}/replay?token=${encodeURIComponent(token)}`) : null;
  const data = r ? await r.json() : { error: t("replay.notHere") };
  if (!r || !r.ok) {
    fill(app(), h("main", { class: "panel lost" }, h("h2", {}, t("replay.none")), h("p", {}, data.error), h("a", { class: "btn primary", href: "#/" }, t("nav.home"))));
    return;
  }
  const frames = data.frames;
  const terrain = await getTerrain(frames[0].terrain);
  let k = frames.length - 1;
  const svg = svgEl({ id: "board" });
  const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: k, id: "replay-slider", "aria-label": t("replay.stepLabel") });
  const label = h("div", { class: "prompt", id: "replay-step" });
  const logBox = h("div", { class: "replay-log" });
  const opp = h("div", { class: "strip opp" }), me = h("div", { class: "strip me" });
  const show = (n, animate = true) => {
    k = Math.max(0, Math.min(frames.length - 1, n));
    slider.value = k;
    const v = frames[k];
    drawBoard(svg, terrain, v, { flip: v.seat === "red", me: v.seat, animate, last: stepMark(v), onTap: () => {} });
    label.textContent = t("replay.step", { k, n: frames.length - 1 }) + (v.log.length ? ` — ${v.log[v.log.length - 1].text}` : t("replay.start"));
    for (const [box, seat] of [[opp, other(v.seat)], [me, v.seat]]) {
      box.className = `strip ${seat}`;
      fill(box, h("div", { class: "who" }, badge(seat), h("span", { class: "name" }, seatName(seat))),
        h("span", { class: "counter" }, medalIcon(), `${v.medals[seat]}/${v.objective[seat]}`),
        h("span", { class: "counter" }, `${t("strip.rack")} ${v.counts[seat].rack + v.counts[seat].laid}`),
        h("span", { class: "counter" }, `${t("strip.reserve")} ${v.counts[seat].reserve}`));
    }
    fill(logBox, h("ol", { class: "log" }, v.log.slice(-6).map((e) => h("li", { class: e.seat }, badge(e.seat), h("span", {}, e.text)))));
  };
  slider.addEventListener("input", () => show(Number(slider.value), false));
  fill(app(), h("div", { class: "play replay" },
    h("header", { class: "topbar" }, h("a", { class: "btn ghost", href: "#/" }, "◀"), h("div", { class: "title" }, `${t("end.replay")} · ${terrainInfo(terrain.id).name}`)),
    opp, h("div", { class: "table" }, h("div", { class: "board-wrap" }, svg)), me,
    h("div", { class: "dock" }, label,
      h("div", { class: "row center replay-controls" },
        h("button", { class: "btn", "aria-label": t("replay.first"), onclick: () => show(0) }, svgIcon(ICONS.first)),
        h("button", { class: "btn", id: "replay-prev", "aria-label": t("replay.prev"), onclick: () => show(k - 1) }, svgIcon(ICONS.prev)),
        slider,
        h("button", { class: "btn", id: "replay-next", "aria-label": t("replay.next"), onclick: () => show(k + 1) }, svgIcon(ICONS.next)),
        h("button", { class: "btn", "aria-label": t("replay.last"), onclick: () => show(frames.length - 1) }, svgIcon(ICONS.last))),
      logBox)));
  show(k, false);
}
