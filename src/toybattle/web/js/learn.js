// The Learn section: lesson list with progress (localStorage), one lesson at a time, the rules and FAQ.
// Every judgement comes from the server, which replays the learner's actions with the rules engine.

const app = document.getElementById("app");
const PROGRESS_KEY = "toybattle.learn.progress";
const SVG = "http://www.w3.org/2000/svg";
const TROOP_NAMES = { 1: "Skully", 2: "Cap'n", 3: "Jumbo", 4: "Hook", 5: "XB-42", 6: "Star", 7: "Roxy", K: "Kwak" };

const terrains = new Map();

function progress() {
  try { return JSON.parse(localStorage.getItem(PROGRESS_KEY)) || {}; } catch { return {}; }
}
function markDone(id) {
  const p = progress();
  p[id] = "done";
  localStorage.setItem(PROGRESS_KEY, JSON.stringify(p));
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

async function getJSON(url, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(url, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

async function terrain(id) {
  if (!terrains.has(id)) terrains.set(id, await getJSON(`/api/terrains/${id}`));
  return terrains.get(id);
}

// ------------------------------------------------------------------ lesson list

async function showList() {
  const data = await getJSON("/api/lessons");
  const p = progress();
  const all = data.topics.flatMap(t => t.lessons);
  const done = all.filter(l => p[l.id] === "done").length;
  app.replaceChildren(
    el("h1", {}, "Learn to play"),
    el("p", { class: "progress", id: "progress" }, `${done} of ${all.length} lessons done`),
    ...data.topics.map(t => el("section", { class: "topic" },
      el("h2", {}, t.title),
      el("ol", {}, t.lessons.map(l => el("li", { "data-lesson": l.id },
        el("a", { href: `#/lesson/${l.id}` }, l.title), " ",
        p[l.id] === "done" ? el("span", { class: "done-mark", title: "done" }, "✓ done") : null))))),
  );
}

// ------------------------------------------------------------------ rules and FAQ

async function showRules() {
  const book = await getJSON("/api/rules");
  app.replaceChildren(
    el("h1", {}, "Rules and questions"),
    ...book.topics.map(t => el("section", { id: `rules-${t.id}` },
      el("h2", {}, t.title),
      el("ul", {}, t.rules.map(r => el("li", {}, r.text, " ", el("span", { class: "source" }, `[${r.source}]`)))),
      faqList(book.faq.filter(q => q.topic === t.id)))),
  );
}

function faqList(items) {
  if (!items.length) return null;
  return el("dl", { class: "faq" }, items.flatMap(q => [
    el("dt", {}, q.question),
    el("dd", {}, q.answer, " ", el("span", { class: "source" }, `[${q.source}]`)),
  ]));
}

// ------------------------------------------------------------------ one lesson

function newNonce() {
  const a = new Uint32Array(4);
  crypto.getRandomValues(a);
  return Array.from(a, x => x.toString(36)).join("");
}

async function showLesson(id) {
  const lesson = await getJSON(`/api/lessons/${encodeURIComponent(id)}`);
  const board = await terrain(lesson.terrain);
  const st = { lesson, board, actions: [], nonce: newNonce(), view: lesson.view, selected: null, shoveFrom: null,
               hintsShown: 0, result: null };
  renderLesson(st);
}

async function send(st, action) {
  let res;
  try {
    res = await getJSON(`/api/lessons/${st.lesson.id}/play`, { actions: [...st.actions, action], nonce: st.nonce });
  } catch (e) {
    st.result = { status: "refused", done: false, feedback: e.message, refusal: "" };
    return renderLesson(st);
  }
  st.actions = res.actions;
  st.view = res.view;
  st.selected = null;
  st.shoveFrom = null;
  st.result = res.status === "playing" ? null : res;
  if (res.status === "right") markDone(st.lesson.id);
  renderLesson(st);
}

function retry(st) {
  Object.assign(st, { actions: [], nonce: newNonce(), view: st.lesson.view, selected: null, shoveFrom: null, result: null });
  renderLesson(st);
}

async function continueAsGame(st) {
  const res = await getJSON(`/api/lessons/${st.lesson.id}/continue`, { actions: st.actions, nonce: st.nonce });
  location.href = res.url;
}

function nodeClick(st, nid) {
  const v = st.view;
  const done = st.result && st.result.done;
  if (done || !v.legal) return;
  if (st.selected) return send(st, `${st.selected}@${nid}`);
  if (v.decision === "jumbo_target") return send(st, `jumbo@${nid}`);
  if (v.decision === "castle_recall") return send(st, `recall@${nid}`);
  if (v.decision === "jungle_shove") {
    if (st.shoveFrom === null) { st.shoveFrom = nid; return renderLesson(st); }
    return send(st, `shove@${st.shoveFrom}>${nid}`);
  }
}

function targets(st) {
  const v = st.view;
  if (!v.legal) return [];
  if (st.selected) return v.legal.place[st.selected] || [];
  if (v.decision === "jumbo_target") return v.legal.jumbo;
  if (v.decision === "castle_recall") return v.legal.recall;
  if (v.decision === "jungle_shove") return st.shoveFrom === null ? Object.keys(v.legal.shove).map(Number)
    : v.legal.shove[String(st.shoveFrom)] || [];
  return [];
}

function drawBoard(st) {
  const { board, view } = st;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 60 100");
  svg.setAttribute("class", "board");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", `${board.name} board`);
  const pos = new Map(board.nodes.map(n => [n.id, [n.x * 0.6, n.y]]));
  for (const [a, b] of board.paths) {
    const l = document.createElementNS(SVG, "line");
    const [x1, y1] = pos.get(a), [x2, y2] = pos.get(b);
    Object.entries({ x1, y1, x2, y2, class: "path" }).forEach(([k, v]) => l.setAttribute(k, v));
    svg.append(l);
  }
  const hot = new Set(targets(st).map(Number));
  for (const n of board.nodes) {
    const [x, y] = pos.get(n.id);
    const g = document.createElementNS(SVG, "g");
    const stack = view.stacks[String(n.id)] || [];
    const top = stack[stack.length - 1];
    const classes = ["node", n.kind === "hq" ? `hq hq-${n.side}` : "", (n.power || n.allowed) && !view.first_game ? "special" : "",
                     hot.has(n.id) ? "target" : "", st.shoveFrom === n.id ? "chosen" : ""];
    g.setAttribute("class", classes.join(" ").trim());
    g.setAttribute("data-node", n.id);
    g.setAttribute("role", "button");
    const label = top ? `${top[0]} ${TROOP_NAMES[top[1]]}` : (n.kind === "hq" ? `${n.side} H.Q.` : "empty");
    g.setAttribute("aria-label", `${n.kind === "hq" ? "H.Q." : "base"} ${n.id}: ${label}` +
                   (stack.length > 1 ? ` (stack of ${stack.length})` : ""));
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", n.kind === "hq" ? 4.2 : 3.4);
    if (top) c.style.fill = top[0] === "blue" ? "var(--blue)" : "var(--red)";
    g.append(c);
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", x); t.setAttribute("y", y);
    if (top) { t.setAttribute("class", "tile"); t.textContent = top[1] + (stack.length > 1 ? "+" : ""); }
    else { t.setAttribute("class", "id"); t.textContent = n.kind === "hq" ? "HQ" : n.id; }
    g.append(t);
    if (top || n.kind === "hq") {  // the id stays readable beside an occupied node
      const idt = document.createElementNS(SVG, "text");
      idt.setAttribute("x", x + 3.6); idt.setAttribute("y", y - 3.4); idt.setAttribute("class", "id");
      idt.textContent = n.id;
      g.append(idt);
    }
    g.addEventListener("click", () => nodeClick(st, n.id));
    svg.append(g);
  }
  return svg;
}

function rackButtons(st) {
  const v = st.view;
  const me = v.seat;
  const placing = v.legal && (v.decision === "turn" || v.decision === "capn_extra");
  return el("div", { class: "rack", "aria-label": "your rack" },
    v.rack.map(code => el("button", {
      class: me, "data-troop": code, "aria-pressed": st.selected === code ? "true" : "false",
      title: TROOP_NAMES[code], disabled: !placing || (st.result && st.result.done),
      onclick: () => { st.selected = st.selected === code ? null : code; renderLesson(st); },
    }, code)),
    v.laid.map(code => el("button", { class: `${me} laid`, disabled: true, title: `${TROOP_NAMES[code]} (laid down)` }, code)));
}

function choiceButtons(st) {
  const v = st.view;
  if (!v.legal || (st.result && st.result.done)) return null;
  const L = v.legal;
  return el("div", { class: "controls" },
    L.draw ? el("button", { "data-action": "draw", onclick: () => send(st, "draw") }, "Draw") : null,
    L.use ? el("button", { "data-action": "use", onclick: () => send(st, "use") }, "Use the effect") : null,
    L.skip ? el("button", { "data-action": "skip", onclick: () => send(st, "skip") }, "Skip") : null,
    L.recover.map(c => el("button", { "data-action": `recover:${c}`, onclick: () => send(st, `recover:${c}`) },
      `Recover ${TROOP_NAMES[c]}`)));
}

function typeMove(st) {
  if (st.result && st.result.done) return null;
  const input = el("input", { name: "move", "aria-label": "type a move", placeholder: "e.g. 7@12", autocomplete: "off" });
  return el("form", { class: "type-move", onsubmit: e => { e.preventDefault(); if (input.value.trim()) send(st, input.value.trim()); } },
    el("label", {}, "Or type a move: ", input), " ", el("button", { type: "submit" }, "Play"));
}

function feedbackBox(st) {
  const r = st.result;
  if (!r) return null;
  const head = { right: "Right!", wrong: "Not quite.", refused: "Not allowed." }[r.status];
  return el("div", { class: `feedback ${r.status}`, id: "feedback", role: "status" },
    el("strong", {}, head), " ", r.feedback,
    r.status === "refused" && r.refusal ? el("div", { class: "meta" }, `Rule: ${r.refusal}.`) : null);
}

function renderLesson(st) {
  const { lesson, view } = st;
  const done = st.result && st.result.done;
  const hints = lesson.hints.slice(0, st.hintsShown);
  app.replaceChildren(
    el("p", {}, el("a", { href: "#/" }, "← all lessons")),
    el("h1", {}, lesson.title),
    el("div", { class: "lesson" },
      el("div", {}, drawBoard(st),
        el("p", { class: "meta" }, `${lesson.terrain_name}, ${lesson.first_game ? "first-game mode" : "standard mode"}; you play ${lesson.seat}. ` +
          `Medals: blue ${view.medals.blue}, red ${view.medals.red} (objective ${view.objective[lesson.seat]}). ` +
          `Red rack: ${view.counts.red.rack} · Blue rack: ${view.counts.blue.rack}.`)),
      el("div", {},
        lesson.intro ? el("p", {}, lesson.intro) : null,
        lesson.steps.length ? el("ol", { class: "steps" }, lesson.steps.map(s => el("li", {}, el("strong", {}, s.title), " ", s.text))) : null,
        el("p", { class: "question", id: "question" }, lesson.question),
        lesson.goal.length ? el("p", { class: "meta" }, "Checked at the end of your move: " + lesson.goal.join("; ") + ".") : null,
        el("p", { class: "status", id: "prompt" }, done ? "" : view.prompt),
        rackButtons(st),
        choiceButtons(st),
        typeMove(st),
        feedbackBox(st),
        el("div", { class: "bar" },
          st.hintsShown < lesson.hints.length && !done
            ? el("button", { id: "hint", onclick: () => { st.hintsShown += 1; renderLesson(st); } }, "Hint") : null,
          st.actions.length || st.result ? el("button", { id: "retry", onclick: () => retry(st) }, done && st.result.status === "right" ? "Play it again" : "Retry") : null,
          el("button", { id: "continue", onclick: () => continueAsGame(st).catch(showError) }, "Play on against a bot")),
        hints.length ? el("ul", { class: "hints", id: "hints" }, hints.map(h => el("li", {}, h))) : null,
        el("p", { class: "source" }, `Rule source: ${lesson.source}`))),
  );
}

// ------------------------------------------------------------------ routing

function showError(e) {
  app.replaceChildren(el("p", { class: "feedback wrong" }, `Something went wrong: ${e.message}`), el("a", { href: "#/" }, "Back to the lessons"));
}

async function route() {
  const h = location.hash;
  try {
    if (h.startsWith("#/lesson/")) await showLesson(decodeURIComponent(h.slice(9)));
    else if (h === "#/rules") await showRules();
    else await showList();
  } catch (e) { showError(e); }
}

window.addEventListener("hashchange", route);
route();
