// A finished game's review (#/review/ID): the server weighs every decision (POST /api/review/ID, then its
// progress by GET), then this screen shows both sides' winning chance after every turn as a chart whose turns
// are buttons, the decisions of the turn chosen, and each side's costliest turns with the better move, why, and
// the board as that side saw it. Ownership is said in words and marks, never by colour alone.
import { t, seatName } from "./i18n.js";
import { drawBoard } from "./board.js";
import { $, h, fill, badge, svgEl } from "./dom.js";
import { getMeta, getTerrain, terrainInfo } from "./data.js";
import { saved } from "./saved.js";
import { fetch } from "./net.js"; // the API through the transport seam (server or in-browser worker)

const app = () => $("#app");
const SEATS = ["blue", "red"];
const COL = 28;  // px per turn on the chart: each turn's button is at least this wide (24px by touch)
const CH = 150, TOP = 8, BOTTOM = 8;  // the chart's height and margins (px, shown at 1:1)
const pct = (p) => Math.round(p * 100);
const MARK = { blue: "●", red: "■" };  // the chart's marks, said in the legend too

let timer = null;

/** The screen's frame: a top bar and a body. */
function frame(...body) {
  return h("main", { class: "review panel", id: "review" },
    h("header", { class: "row review-top" }, h("a", { class: "btn ghost", href: "#/", "aria-label": t("nav.home") }, "◀"),
      h("h2", { id: "review-title" }, t("review.title"))),
    ...body);
}

async function ask(id, token, method) {
  const url = method === "POST" ? `/api/review/${id}` : `/api/review/${id}?token=${encodeURIComponent(token)}`;
  const opts = method === "POST" ? { method, headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) } : {};
  const r = await fetch(url, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

export async function showReview(id) {
  if (timer) { clearTimeout(timer); timer = null; }
  await getMeta();
  document.body.className = "page-review";
  const entry = saved.get(id);
  const token = entry && Object.values(entry.tokens || {})[0];
  const line = h("p", { class: "notice", id: "review-progress", role: "status", "aria-live": "polite" }, t("review.starting"));
  fill(app(), frame(line));
  if (!token) { failed(t("review.notHere")); return; }
  const here = location.hash;
  const still = () => location.hash === here;
  try {
    let data = await ask(id, token, "POST");
    while (data.state !== "done") {
      if (!still()) return;
      line.textContent = data.total ? t("review.progress", { done: data.done, total: data.total }) : t("review.starting");
      await new Promise((ok) => { timer = setTimeout(ok, 700); });
      if (!still()) return;
      data = await ask(id, token, "GET");
    }
    if (still()) await draw(data.review);
  } catch (e) {
    if (still()) failed(e.message);
  }
}

function failed(why) {
  fill(app(), frame(h("p", { class: "error", id: "review-error" }, why),
    h("a", { class: "btn primary", href: "#/" }, t("nav.home"))));
}

/** The chart: both sides' chance after every turn, and one button per turn beneath (scrolls sideways inside its
 * own box when the turns are many, never the page). */
function chart(review, choose) {
  const n = review.turns.length;
  const width = Math.max(n * COL, 1);
  const x = (k) => k * COL + COL / 2;
  const y = (p) => TOP + (1 - p) * (CH - TOP - BOTTOM);
  const svg = svgEl({ width, height: CH, viewBox: `0 0 ${width} ${CH}`, class: "review-lines", "aria-hidden": "true" });
  const add = (tag, attrs, text) => {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e);
    return e;
  };
  const sel = add("rect", { x: 0, y: 0, width: COL, height: CH, class: "review-sel" });
  for (const p of [0, 0.5, 1]) add("line", { x1: 0, x2: width, y1: y(p), y2: y(p), class: "review-grid" });
  for (const seat of SEATS) {
    const pts = review.chart[seat].map((p, k) => `${x(k)},${y(p)}`).join(" ");
    add("polyline", { points: pts, class: `review-line ${seat}` });
    review.chart[seat].forEach((p, k) => {
      if (seat === "blue") add("circle", { cx: x(k), cy: y(p), r: 3.5, class: "review-dot blue" });
      else add("rect", { x: x(k) - 3.5, y: y(p) - 3.5, width: 7, height: 7, class: "review-dot red" });
    });
  }
  const buttons = review.turns.map((seat, k) => h("button", {
    class: `review-turn ${seat}`, type: "button", "data-turn": k + 1,
    "aria-label": t("review.turnLabel", { n: k + 1, seat: seatName(seat), b: pct(review.chart.blue[k]), r: pct(review.chart.red[k]) }),
    onclick: () => choose(k + 1),
  }, h("span", {}, String(k + 1)), h("span", { class: "review-who" }, seat === "blue" ? "B" : "R")));
  const row = h("div", { class: "review-turns", role: "group", "aria-label": t("review.turns") }, buttons);
  const box = h("div", { class: "review-chart", id: "review-chart" }, h("div", { class: "review-scroll" }, svg, row));
  row.style.width = `${width}px`;  // the buttons line up under the chart's columns
  const select = (turn) => {
    sel.setAttribute("x", (turn - 1) * COL);
    buttons.forEach((b, k) => b.setAttribute("aria-pressed", k + 1 === turn ? "true" : "false"));
    const b = buttons[turn - 1];
    if (b) b.scrollIntoView({ block: "nearest", inline: "center" });
  };
  return { box, select };
}

/** Words for one decision: who played what, the chance before and after, and for a costly one the better move,
 * why, and the board with the better move marked. */
async function decisionBox(review, d, k) {
  const costly = review.costliest[d.seat].includes(k);
  // what was played in the game's words where the server could tell it (a costly decision), else in notation
  const played = d.played_words && d.played_words.text.length ? d.played_words.text.join(t("list.sep"))
    : t("review.played", { seat: seatName(d.seat), action: d.action });
  const parts = [
    h("p", { class: "review-played" }, badge(d.seat), " ", played),
    h("p", {}, t("review.chance", { before: pct(d.before), after: pct(d.after) })),
  ];
  if (d.drop > 0 && d.best !== d.action) {
    const best = d.best_words && d.best_words.text.length ? d.best_words.text.join(t("list.sep")) : d.best;
    parts.push(h("p", { class: "review-better" }, t("review.better", { best, drop: pct(d.drop) })));
  }
  if (d.why && d.why.length) parts.push(h("ul", { class: "review-why" }, d.why.map((w) => h("li", {}, w))));
  if (costly && d.board) {
    const terrain = await getTerrain(d.board.terrain);
    const svg = svgEl({ class: "review-board", role: "img", "aria-label": t("review.boardLabel", { seat: seatName(d.seat), best: d.best }) });
    const nodes = (d.best_words && d.best_words.nodes) || [];
    drawBoard(svg, terrain, d.board, { flip: d.seat === "red", me: d.seat, animate: false, last: { seat: d.seat, nodes }, onTap: () => {} });
    parts.push(h("p", { class: "small" }, t("review.boardNote", { seat: seatName(d.seat) })), h("div", { class: "board-wrap review-board-wrap" }, svg));
  }
  return h("div", { class: `review-decision${costly ? " costly" : ""}` }, parts);
}

async function draw(review) {
  const terrain = terrainInfo(review.terrain);
  document.title = `${t("review.title")} · Toy Battle`;
  const detail = h("section", { class: "review-detail", id: "review-turn", "aria-live": "polite" }, h("p", { class: "muted" }, t("review.tapTurn")));
  let chosen = 0;
  const choose = async (turn) => {
    chosen = turn;
    c.select(turn);
    const k0 = turn - 1;
    const seat = review.turns[k0];
    const ds = review.decisions.map((d, k) => [d, k]).filter(([d]) => d.turn === turn);
    const head = h("h3", { id: "review-turn-title" }, badge(seat), " ",
      t("review.turnTitle", { n: turn, seat: seatName(seat), b: pct(review.chart.blue[k0]), r: pct(review.chart.red[k0]) }));
    const boxes = [];
    for (const [d, k] of ds) boxes.push(await decisionBox(review, d, k));
    if (chosen !== turn) return;
    if (!ds.length) boxes.push(h("p", { class: "muted" }, review.viewer && review.viewer !== seat ? t("review.hidden", { seat: seatName(seat) }) : t("review.noDecision")));
    fill(detail, head, boxes);
  };
  const c = chart(review, choose);
  const costly = SEATS.filter((seat) => !review.viewer || review.viewer === seat).map((seat) => {
    const list = review.costliest[seat];
    return h("section", { class: "review-costly", id: `review-costly-${seat}` },
      h("h3", {}, badge(seat), " ", t("review.costliest", { seat: seatName(seat) })),
      list.length ? h("div", { class: "row wrap" }, list.map((k, i) => {
        const d = review.decisions[k];
        return h("button", { class: "btn", type: "button", id: `review-costly-${seat}-${i}`, onclick: () => choose(d.turn) },
          t("review.costlyTurn", { n: d.turn, drop: pct(d.drop) }));
      })) : h("p", { class: "muted" }, t("review.noCostly")));
  });
  const winner = review.winner ? t("review.winner", { seat: seatName(review.winner), how: review.how || "" }) : "";
  fill(app(), frame(
    h("p", { class: "muted", id: "review-about" }, [terrain ? terrain.name : review.terrain, winner].filter(Boolean).join(" · ")),
    h("p", { class: "small" }, t("review.about")),
    h("p", { class: "review-legend" }, h("span", { class: "blue" }, `${MARK.blue} ${t("review.legendBlue")}`), " ",
      h("span", { class: "red" }, `${MARK.red} ${t("review.legendRed")}`)),
    c.box, detail, costly));
  const worst = SEATS.flatMap((seat) => review.costliest[seat].map((k) => review.decisions[k])).sort((a, b) => b.drop - a.drop)[0];
  choose(worst ? worst.turn : review.turns.length);  // the costliest turn of the game, to begin with
}
