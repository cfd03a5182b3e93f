// Element helpers shared by every page: building elements, small SVG icons, words for a seat.
import { badgePath } from "./board.js";

export const $ = (sel, root = document) => root.querySelector(sel);

const absent = (c) => c === null || c === undefined || c === false;

// replaceChildren, skipping the nulls that conditional parts leave
export const fill = (el, ...children) => el.replaceChildren(...children.flat().filter((c) => !absent(c)));

/** An element: attributes (on* are listeners; `html` sets inner HTML; null/false are left out) and children. */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (absent(v)) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else if (k === "html") e.innerHTML = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (absent(c)) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}

/** An <svg> element (the board and icons must live in the SVG namespace). */
export function svgEl(attrs = {}) {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
  return s;
}

export function svgIcon(pathD, cls = "") {
  const s = svgEl({ viewBox: "-12 -12 24 24", class: "icon " + cls, "aria-hidden": "true" });
  const p = document.createElementNS("http://www.w3.org/2000/svg", "path");
  p.setAttribute("d", pathD);
  s.appendChild(p);
  return s;
}

export const badge = (seat, cls = "") => svgIcon(badgePath(seat, 8), `badge ${seat} ${cls}`);
const MEDAL = "M0 -9 A9 9 0 1 1 -0.01 -9 Z M0 -5 L1.5 -1.5 L5 -1.2 L2.3 1.2 L3.1 4.8 L0 2.9 L-3.1 4.8 L-2.3 1.2 L-5 -1.2 L-1.5 -1.5 Z";
export const medalIcon = () => svgIcon(MEDAL, "medal-icon");
export const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;
export const other = (seat) => (seat === "blue" ? "red" : "blue");
