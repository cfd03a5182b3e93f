"""What a phone player at 360x640 must get on every screen (issue 25), measured in the page as rendered:
text sizes (SVG text through its transforms), contrast, boxes inside the viewport, no sideways scrolling."""
from __future__ import annotations

from typing import Any

# Every visible text run: its rendered size in px (an SVG text's font size times the scale the drawing is
# shown at), and for HTML text the colour against the first opaque background behind it.
_TEXTS = """() => {
  const rgb = (s) => { const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => {
    const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
  // the colour behind an element: its ancestors' backgrounds, blended from the page's own upward
  const behind = (e) => { const layers = []; for (let x = e; x; x = x.parentElement) {
      const cs = getComputedStyle(x);
      if (x instanceof SVGElement) { if (x.tagName === 'svg') continue;
        // an SVG text sits on the shape drawn before it in its group (a disc, a tag, a badge)
        const kin = [...x.parentElement.children];
        const shape = kin.slice(0, kin.indexOf(x)).reverse().find((s) =>
          ['circle', 'rect', 'path', 'polygon'].includes(s.tagName) && getComputedStyle(s).fill.startsWith('rgb'));
        if (shape && x.tagName === 'text') { layers.push(rgb(getComputedStyle(shape).fill)); break; }
        continue; }
      const c = rgb(cs.backgroundColor); if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let col = [255, 255, 255, 1]; for (const l of layers.reverse()) col = over(l, col); return col; };
  const out = [];
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement; if (!e || !n.textContent.trim() || seen.has(e)) continue;
    seen.add(e);
    const r = e.getBoundingClientRect(); if (!r.width || !r.height) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility === 'hidden' || e.closest('.sr-only, script, style, title, option')) continue;
    let op = 1; for (let x = e; x; x = x.parentElement) op *= Number(getComputedStyle(x).opacity);
    if (op < 0.05) continue;
    const svg = e instanceof SVGElement && e.ownerSVGElement;
    const m = svg ? e.getScreenCTM() : null;
    const px = parseFloat(cs.fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
    const ink = rgb(svg ? cs.fill : cs.color);
    let contrast = null;
    // an SVG text fades with the shape it is drawn on (one group's opacity): only its own colour counts
    if (ink) { const bg = behind(e); const fg = over([ink[0], ink[1], ink[2], ink[3] * (svg ? 1 : op)], bg);
      const a = lum(fg), b = lum(bg); contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }
    out.push({ text: n.textContent.trim().slice(0, 30), tag: e.tagName.toLowerCase(),
      cls: String(e.getAttribute('class') || ''),
      svg: !!svg, px: Math.round(px * 10) / 10, contrast: contrast && Math.round(contrast * 100) / 100,
      box: [r.left, r.top, r.right, r.bottom] });
  }
  return out;
}"""


def texts(page: Any) -> list[dict[str, Any]]:
    """Every visible text on the page as rendered."""
    result: list[dict[str, Any]] = page.evaluate(_TEXTS)
    return result


def too_small(page: Any) -> list[str]:
    """Texts under 12 px (HTML) or 11 px (the board's labels, as drawn at this size)."""
    return [f"{t['text']!r} {t['tag']}.{t['cls']} {t['px']}px" for t in texts(page)
            if t["px"] < (11 if t["svg"] else 12) - 0.05]


def low_contrast(page: Any) -> list[str]:
    """Texts whose colour stands less than 4.5:1 against what is behind them."""
    return [f"{t['text']!r} {t['tag']}.{t['cls']} {t['contrast']}:1" for t in texts(page)
            if t["contrast"] is not None and t["contrast"] < 4.5]


def outside(page: Any, selector: str) -> list[str]:
    """The visible elements matching ``selector`` whose box is not wholly inside the viewport."""
    out: list[str] = page.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter((e) => {
        const r = e.getBoundingClientRect(); if (!r.width || !r.height) return false;
        return r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5; })
      .map((e) => (e.id ? '#' + e.id : e.tagName) + ' ' + (e.textContent || '').trim().slice(0, 20))""", selector)
    return out


def sideways(page: Any) -> bool:
    """True if the page scrolls sideways (wider than the screen)."""
    wide: bool = page.evaluate("document.documentElement.scrollWidth > innerWidth + 1")
    return wide
