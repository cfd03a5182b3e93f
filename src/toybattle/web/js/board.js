// Toy Battle board renderer (an ES module; its one import is the catalogue, for the H.Q.'s label).
//
//   import { drawBoard } from "/static/js/board.js";
//   drawBoard(svgElement, terrain, view, {
//     flip: false,              // true turns the board 180° (red's H.Q. at the bottom)
//     me: "blue",               // whose connected bases are marked
//     targets: [18, 19],        // node ids to highlight as legal for the current choice
//     selected: 17,             // a node id to mark as chosen (e.g. the troop a bridge will move)
//     last: {seat, nodes},      // the other side's latest move, marked until the next one
//     threats: [12],            // enemy bases one step from this seat's H.Q. (a warning sign)
//     onTap: (id, kind) => {},  // kind: "node" | "region"; id: node id or region id
//     onHover: (id, kind) => {},// pointer over a node/region (id null when it leaves)
//     animate: true,            // animate placements, removals and moves since the last draw
//     keys: true,               // bases take the keyboard's focus: arrows move along the paths,
//                               // Enter or Space taps, Escape calls onEscape()
//     nodeLabel: (id) => "",    // what a screen reader says of a base
//   });
//
// `terrain` is the terrain JSON served at /api/terrains/<id> (nodes with x, y in percent of a
// portrait 3:5 board, blue's H.Q. at the bottom; restricted nodes carry `allowed_codes`).
// `opts.fx` (optional) lists the `fx` of the log lines since the last draw, so a shove slides. `view` needs only: stacks {id: [[seat, code], ...]},
// connected {blue: [ids], red: [ids]}, claimed {regionId: seat}; lessons may pass a hand-made view.
// Ownership is readable without colour: blue tiles are rounded shields, red tiles pointed houses.
import { t as tr } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const W = 300, H = 500;
const R = 22; // base radius in board units (the board is 300 x 500 units)

export const POWER_MARK = { recall: "↶", draw: "+1", shove: "⇆", recover: "✚", nullify: "⌀", lay_down: "▾" };

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Every label on the board stays readable however small the board is drawn (a phone's screen shows the
// 300 x 500 units at about 0.65 px a unit): a mark is drawn at its size in units, then fitLabels() grows it
// about its centre until its text is at least LABEL_PX on screen, its shape by at most `cap` times (a
// larger one would cover the bases around it), its text by whatever is still missing.
const LABEL_PX = 11.5;

/** A mark centred at x, y in `parent`: returns the group to draw it in, centred on 0,0. */
function mark(parent, cls, x, y, cap) {
  const at = el("g", { class: cls, transform: `translate(${x},${y})` }, parent);
  return el("g", { class: "fit", "data-cap": cap }, at);
}

// a digit's middle stands about 0.35 of the font size above its baseline
const setSize = (t, size) => {
  t.style.fontSize = `${size.toFixed(2)}px`;
  t.setAttribute("y", (Number(t.dataset.middle) + 0.35 * size).toFixed(2));
};

/** A text of a mark, its middle at height `middle` (0: the mark's centre), `size` units high before fitting. */
function label(parent, text, size, attrs = {}, middle = 0) {
  const t = el("text", { ...attrs, "data-size": size, "data-middle": middle }, parent);
  setSize(t, size);
  t.textContent = text;
  return t;
}

/** Grow the marks of `svg` to the size it is shown at now (board.js calls it after each draw and resize). */
export function fitLabels(svg) {
  const m = svg.getScreenCTM && svg.getScreenCTM();
  const scale = m ? Math.hypot(m.a, m.b) : 0;
  if (!scale) return;  // not laid out yet: the resize observer calls again once it is
  for (const g of svg.querySelectorAll("g.fit")) {
    const texts = [...g.querySelectorAll("text[data-size]")];
    if (!texts.length) continue;
    const need = LABEL_PX / (Math.min(...texts.map((t) => Number(t.dataset.size))) * scale);
    const grow = Math.min(Number(g.dataset.cap), Math.max(1, need));
    g.setAttribute("transform", grow > 1 ? `scale(${grow.toFixed(3)})` : "");
    const more = Math.max(1, need / grow);
    for (const t of texts) setSize(t, Number(t.dataset.size) * more);
  }
}

function watchSize(svg) {
  if (svg.__tbFit || typeof ResizeObserver === "undefined") return;
  svg.__tbFit = new ResizeObserver(() => fitLabels(svg));
  svg.__tbFit.observe(svg);
}

/** The outline of a seat's badge, centred on 0,0 with half-size s: blue shield, red house. */
export function badgePath(seat, s) {
  if (seat === "red") return `M0 ${-1.15 * s} L${s} ${-0.3 * s} V${s} H${-s} V${-0.3 * s} Z`;
  return `M${-s} ${-s} H${s} V${0.05 * s} C${s} ${0.65 * s} ${0.45 * s} ${0.95 * s} 0 ${1.15 * s} ` +
    `C${-0.45 * s} ${0.95 * s} ${-s} ${0.65 * s} ${-s} ${0.05 * s} Z`;
}

/** A tile badge (shape + troop code) as an SVG <g>, centred on 0,0. */
export function tileGroup(tile, s = 15) {
  const [seat, code] = tile;
  const g = el("g", { class: `tile ${seat}` });
  el("path", { d: badgePath(seat, s), class: "tile-shape" }, g);
  // the code sits in the shape's wide part: lower in a house (red), higher in a shield (blue)
  const size = s * (code === "K" ? 1.05 : 1.25);
  label(g, code, size, { class: "tile-code", x: 0 }, (seat === "red" ? 0.42 : 0.28) * s - 0.35 * size);
  return g;
}

/** A standalone inline SVG of a tile (for racks, cards and lists). */
export function tileSvg(tile, size = 44) {
  const svg = el("svg", { viewBox: "-20 -20 40 40", width: size, height: size, class: "tile-svg",
    "aria-hidden": "true" });
  svg.appendChild(tileGroup(tile, 16));
  return svg;
}

function pos(node, flip) {
  const x = node.x * W / 100, y = node.y * H / 100;
  return flip ? [W - x, H - y] : [x, y];
}

function ringOrder(points) {
  const cx = points.reduce((a, p) => a + p[0], 0) / points.length;
  const cy = points.reduce((a, p) => a + p[1], 0) / points.length;
  return points.slice().sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
}

/** Draw `terrain` + `view` into `svg` (replacing its content) and wire taps; returns nothing. */
export function drawBoard(svg, terrain, view, opts = {}) {
  const flip = !!opts.flip;
  const prev = svg.__tbPrev || null;
  const sameGame = prev && prev.terrain === terrain.id && prev.flip === flip;
  const active = document.activeElement;
  const hadFocus = active && svg.contains(active) && active.dataset.node ? Number(active.dataset.node) : null;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.classList.add("tb-board");
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const at = Object.fromEntries(terrain.nodes.map((n) => [n.id, pos(n, flip)]));
  const stacks = view.stacks || {};
  const claimed = view.claimed || {};
  const targets = new Set((opts.targets || []).map(Number));
  const mine = new Set(((view.connected || {})[opts.me] || []).map(Number));
  const last = new Set(((opts.last || {}).nodes || []).map(Number));
  const threats = new Set((opts.threats || []).map(Number));
  const plain = !!view.first_game;  // a first game: special bases have no effect, so none is marked

  el("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 14, class: `ground ground-${terrain.id}` }, svg);

  const regions = el("g", { class: "regions" }, svg);
  for (const r of terrain.regions) {
    const pts = ringOrder(r.bases.map((b) => at[b]));
    const owner = claimed[String(r.id)];
    const g = el("g", { class: `region${owner ? " claimed " + owner : ""}`, "data-region": r.id }, regions);
    el("polygon", { points: pts.map((p) => p.join(",")).join(" "), class: "region-area" }, g);
    const spots = r.medal_spots && r.medal_spots.length ? r.medal_spots.map((s) => pos({ x: s[0], y: s[1] }, flip))
      : [[pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length]];
    const cx = spots.reduce((a, p) => a + p[0], 0) / spots.length;
    const cy = spots.reduce((a, p) => a + p[1], 0) / spots.length;
    const medal = mark(g, "medal", cx, cy, 1.3);
    el("circle", { r: 11, class: "medal-disc" }, medal);
    if (owner) el("path", { d: badgePath(owner, 8), class: `medal-owner ${owner}` }, medal);
    label(medal, r.medals, owner ? 9 : 11, { class: "medal-count" }, owner ? 0.5 : 0);
    el("circle", { r: 29, class: "hit", "data-region": r.id }, medal.parentNode);
  }

  const paths = el("g", { class: "paths" }, svg);
  for (const [a, b] of terrain.paths) {
    const [x1, y1] = at[a], [x2, y2] = at[b];
    el("line", { x1, y1, x2, y2, class: "path-edge" }, paths);
    el("line", { x1, y1, x2, y2, class: "path-core" }, paths);
  }

  const nodes = el("g", { class: "nodes" }, svg);
  const groups = {};
  const keys = {};  // each base's focusable tap circle, by keyboard
  for (const n of terrain.nodes) {
    const [x, y] = at[n.id];
    const stack = stacks[String(n.id)] || [];
    const top = stack.length ? stack[stack.length - 1] : null;
    const cls = ["node", n.kind];
    if (n.kind === "hq") cls.push(n.side);
    if (top) cls.push("held", top[0]);
    if (mine.has(n.id)) cls.push("linked");
    if (targets.has(n.id)) cls.push("target");
    if (threats.has(n.id)) cls.push("threat");
    if (last.has(n.id)) cls.push("last");
    if (opts.selected === n.id) cls.push("selected");
    if (view.dnode === n.id) cls.push("acting");
    const g = el("g", { class: cls.join(" "), transform: `translate(${x},${y})`, "data-node": n.id }, nodes);
    groups[n.id] = g;
    if (targets.has(n.id)) {
      el("circle", { r: R + 6, class: "target-halo" }, g);
      el("circle", { r: R + 6, class: "target-ring" }, g);
    }
    if (n.kind === "hq") {
      el("path", { d: badgePath(n.side, R + 2), class: "hq-shape" }, g);
      label(mark(g, "hq-mark", 0, top ? -R - 10 : 0, 1), tr("board.hq"), 10, { class: "hq-label" });
    } else {
      el("circle", { r: R, class: "base-disc" }, g);
      if (mine.has(n.id)) el("circle", { r: R + 2.5, class: "link-ring" }, g);
    }
    if (top) {
      const tg = tileGroup(top, 14);
      tg.classList.add("top");
      mark(g, "top-tile", 0, 0, 1.3).appendChild(tg);
      if (stack.length > 1) {
        const d = mark(g, "depth", R - 4, R - 5, 1.4);
        el("circle", { r: 8 }, d);
        label(d, stack.length, 10);
      }
    }
    if (n.power && !plain) {
      const p = mark(g, `power power-${n.power}`, R - 3, -R + 3, 1.4);
      el("circle", { r: 8.5 }, p);
      label(p, POWER_MARK[n.power] || "★", 9.5);
    }
    if (n.allowed_codes && !plain) {
      const r = mark(g, "restrict", 0, R + 9, 1.5);
      const codes = n.allowed_codes.join("·");
      el("rect", { x: -codes.length * 2.6 - 3, y: -6, width: codes.length * 5.2 + 6, height: 12, rx: 4 }, r);
      label(r, codes, 8.5);
    }
    if (n.kind === "base" && !top) {  // an empty base shows its number large, inside it
      label(mark(g, "node-num", 0, 0, 1), n.id, 16, { class: "node-id inside" });
    } else if (n.kind === "base") {  // a held base: on a tag at its lower left
      const tag = mark(g, "node-tag", -R + 2, R - 3, 1.4);
      el("rect", { x: -8, y: -6.5, width: 16, height: 13, rx: 4 }, tag);
      label(tag, n.id, 11, { class: "node-id" });
    }
    if (threats.has(n.id)) {  // an enemy base one step from this seat's H.Q.: a warning sign
      const w = mark(g, "threat-mark", -R + 3, -R + 3, 1.4);
      el("circle", { r: 8.5 }, w);
      label(w, "!", 12);
    }
    // the latest move: a pointer above the base, in the mover's colour
    if (last.has(n.id)) el("path", { d: `M-7 ${-R - 13} H7 L0 ${-R - 2} Z`, class: `last-mark ${opts.last.seat}` }, g);
    const hit = el("circle", { r: R + 8, class: "hit", "data-node": n.id }, g);
    // by keyboard, a base is its tap circle: a button named by its label (number, top troop, target),
    // holding none of the drawing's digits (a strength, a stack's depth), which would blur that name
    if (opts.keys) {
      Object.entries({ tabindex: "-1", role: "button", "aria-label": (opts.nodeLabel && opts.nodeLabel(n.id)) || String(n.id) })
        .forEach(([k, v]) => hit.setAttribute(k, v));
      keys[n.id] = hit;
    }
  }

  // a player who asks the system for less motion sees the board change without animation
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (opts.animate !== false && sameGame && !still) animateChanges(svg, prev.stacks, stacks, groups, at, opts.fx || []);
  svg.__tbPrev = { terrain: terrain.id, flip, stacks: JSON.parse(JSON.stringify(stacks)) };
  if (opts.keys) keyboard(svg, terrain, at, keys, targets, hadFocus, opts);
  fitLabels(svg);
  watchSize(svg);

  svg.onclick = (ev) => {
    const hit = ev.target.closest("[data-node],[data-region]");
    if (!hit || !opts.onTap) return;
    if (hit.dataset.node) opts.onTap(Number(hit.dataset.node), "node");
    else opts.onTap(Number(hit.dataset.region), "region");
  };
  svg.onpointerover = (ev) => {
    if (!opts.onHover || ev.pointerType === "touch") return;
    const hit = ev.target.closest("[data-node],[data-region]");
    if (!hit) return;
    opts.onHover(Number(hit.dataset.node || hit.dataset.region), hit.dataset.node ? "node" : "region");
  };
  svg.onpointerleave = () => opts.onHover && opts.onHover(null, null);
}

function animateChanges(svg, before, after, groups, at, fx) {
  const moved = new Set();
  for (const f of fx) {
    if (f.move) {
      const [a, b] = f.move;
      const g = groups[b] && groups[b].querySelector(".tile.top");
      if (g && at[a] && at[b]) {
        const dx = at[a][0] - at[b][0], dy = at[a][1] - at[b][1];
        g.animate([{ transform: `translate(${dx}px,${dy}px)` }, { transform: "translate(0,0)" }],
          { duration: 650, easing: "cubic-bezier(.2,.8,.3,1)" });
        moved.add(b); moved.add(a);
      }
    }
  }
  for (const id of Object.keys(groups)) {
    if (moved.has(Number(id))) continue;
    const was = before[id] || [], now = after[id] || [];
    if (now.length > was.length) {
      const g = groups[id].querySelector(".tile.top");
      if (g) g.animate([{ transform: "translate(0,-40px) scale(1.5)", opacity: 0 },
        { transform: "translate(0,0) scale(1)", opacity: 1 }], { duration: 450, easing: "cubic-bezier(.2,.9,.3,1.2)" });
    } else if (now.length < was.length) {
      const gone = tileGroup(was[was.length - 1], 14);
      gone.classList.add("ghost");
      groups[id].appendChild(gone);
      const a = gone.animate([{ transform: "scale(1)", opacity: 1 }, { transform: "translate(0,-18px) scale(.4) rotate(25deg)", opacity: 0 }],
        { duration: 600, easing: "ease-in" });
      a.onfinish = () => gone.remove();
    }
  }
}

// ------------------------------------------------------------------ the keyboard

const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/** The node to go to from `from` in direction `dir`: a neighbour along a path if one lies that way,
 * else the nearest node that way. */
function step(terrain, at, from, dir) {
  const near = new Set(terrain.paths.filter((p) => p.includes(from)).map((p) => (p[0] === from ? p[1] : p[0])));
  const score = (id) => {
    const dx = at[id][0] - at[from][0], dy = at[id][1] - at[from][1];
    const d = Math.hypot(dx, dy) || 1;
    const cos = (dx * dir[0] + dy * dir[1]) / d;
    return cos < 0.35 ? -Infinity : cos * 2 - d / 200 + (near.has(id) ? 1 : 0);
  };
  let best = null;
  for (const n of terrain.nodes) {
    if (n.id === from) continue;
    const s = score(n.id);
    if (s > -Infinity && (best === null || s > best[1])) best = [n.id, s];
  }
  return best ? best[0] : null;
}

// One base at a time takes Tab (a roving tabindex): the focused one, else the first target, else the first base.
function keyboard(svg, terrain, at, keys, targets, hadFocus, opts) {
  let roving = hadFocus !== null ? hadFocus : (svg.__tbFocus in keys ? svg.__tbFocus : null);
  // a new choice: the focus goes to its first target
  if (targets.size && (roving === null || !targets.has(roving))) roving = [...targets][0];
  if (roving === null) roving = terrain.nodes[0].id;
  const focusOn = (id) => {
    if (keys[svg.__tbFocus]) keys[svg.__tbFocus].setAttribute("tabindex", "-1");
    svg.__tbFocus = id;
    keys[id].setAttribute("tabindex", "0");
    keys[id].focus({ preventScroll: true });
  };
  svg.__tbFocus = roving;
  keys[roving].setAttribute("tabindex", "0");
  if (hadFocus !== null) keys[roving].focus({ preventScroll: true });
  svg.__tbFocusOn = focusOn;
  svg.onkeydown = (ev) => {
    const id = ev.target.dataset && ev.target.dataset.node ? Number(ev.target.dataset.node) : null;
    if (id === null) return;
    if (ARROWS[ev.key]) {
      const to = step(terrain, at, id, ARROWS[ev.key]);
      if (to !== null) focusOn(to);
      ev.preventDefault();
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      if (opts.onTap) opts.onTap(id, "node");
    } else if (ev.key === "Escape" && opts.onEscape) {
      ev.preventDefault();
      opts.onEscape();
    }
  };
}

/** Put the keyboard's focus on the board (on its first target, if any). */
export function focusBoard(svg) {
  const first = svg.querySelector("g.node.target") || svg.querySelector(".hit[tabindex='0']");
  if (first && svg.__tbFocusOn) svg.__tbFocusOn(Number(first.dataset.node));
}
