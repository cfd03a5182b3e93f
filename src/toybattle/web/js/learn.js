// The Learn section: lesson list with progress (localStorage), one lesson at a time, the rules and FAQ.
// Every judgement comes from the server, which replays the learner's actions with the rules engine.
// The board and tiles are drawn by the game's own renderer (board.js), so a lesson looks like a game.
import { drawBoard, tileSvg } from "./board.js";
import { fetch } from "./net.js"; // the API through the transport seam (server or in-browser worker)

const app = document.getElementById("app");
const PROGRESS_KEY = "toybattle.learn.progress";

const cache = { meta: null, terrains: new Map() };

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
  if (!cache.terrains.has(id)) cache.terrains.set(id, await getJSON(`/api/terrains/${id}`));
  return cache.terrains.get(id);
}

// troop names come from the game's data (/api/meta), as on the game page
async function loadMeta() {
  if (!cache.meta) cache.meta = await getJSON("/api/meta");
  return cache.meta;
}
function troopName(code) {
  const t = cache.meta && cache.meta.troops.troops.find((x) => x.code === code);
  return t ? t.name : code;
}

function setNav(which) {
  document.getElementById("nav-lessons").classList.toggle("here", which === "lessons");
  document.getElementById("nav-rules").classList.toggle("here", which === "rules");
}

// ------------------------------------------------------------------ lesson list

async function showList() {
  const data = await getJSON("/api/lessons");
  setNav("lessons");
  document.title = "Learn to play · Toy Battle";
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
  setNav("rules");
  document.title = "Rules & FAQ · Toy Battle";
  app.replaceChildren(
    el("h1", {}, "Rules and questions"),
    el("p", { class: "meta" }, `The rules by topic, each with its source, and the ${book.faq.length} questions players ask, answered under their topic.`),
    el("ul", { class: "toc", "aria-label": "Topics" }, book.topics.map(t => el("li", {},
      el("a", { href: `#/rules`, onclick: e => { e.preventDefault(); document.getElementById(`rules-${t.id}`).scrollIntoView(); } }, t.title)))),
    ...book.topics.map(t => el("section", { id: `rules-${t.id}`, class: "rules-topic panel" },
      el("h2", {}, t.title),
      el("ul", {}, t.rules.map(r => el("li", {}, r.text, " ", el("span", { class: "source" }, `[${r.source}]`)))),
      faqList(book.faq.filter(q => q.topic === t.id)))),
  );
}

function faqList(items) {
  if (!items.length) return null;
  return el("div", { class: "faq" }, el("h3", {}, "Questions"), el("dl", {}, items.flatMap(q => [
    el("dt", { id: `faq-${q.id}` }, q.question),
    el("dd", {}, q.answer, " ", el("span", { class: "source" }, `[${q.source}]`)),
  ])));
}

// ------------------------------------------------------------------ one lesson

function newNonce() {
  const a = new Uint32Array(4);
  crypto.getRandomValues(a);
  return Array.from(a, x => x.toString(36)).join("");
}

async function showLesson(id) {
  await loadMeta();
  const lesson = await getJSON(`/api/lessons/${encodeURIComponent(id)}`);
  const board = await terrain(lesson.terrain);
  setNav("");
  document.title = `${lesson.title} · Learn · Toy Battle`;
  // one svg per lesson, kept across renders, so board.js animates each placement like in a game
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${lesson.terrain_name} board`);
  const st = { lesson, board, svg, actions: [], nonce: newNonce(), view: lesson.view, selected: null, shoveFrom: null,
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

// The server stores a bot game from where the move left the lesson and answers its join link
// (/join/{game}/{token}); the game page takes it from there like any invitation.
async function continueAsGame(st) {
  const res = await getJSON(`/api/lessons/${st.lesson.id}/continue`, { actions: st.actions, nonce: st.nonce });
  location.href = res.url;
}

function nodeTap(st, nid) {
  const v = st.view;
  if ((st.result && st.result.done) || !v.legal) return;
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
  if (!v.legal || (st.result && st.result.done)) return [];
  if (st.selected) return v.legal.place[st.selected] || [];
  if (v.decision === "jumbo_target") return v.legal.jumbo;
  if (v.decision === "castle_recall") return v.legal.recall;
  if (v.decision === "jungle_shove") return st.shoveFrom === null ? Object.keys(v.legal.shove).map(Number)
    : v.legal.shove[String(st.shoveFrom)] || [];
  return [];
}

function drawLessonBoard(st) {
  drawBoard(st.svg, st.board, st.view, {
    flip: st.view.seat === "red", me: st.view.seat, targets: targets(st), selected: st.shoveFrom,
    onTap: (id, kind) => { if (kind === "node") nodeTap(st, id); },
  });
  return st.svg;
}

function rackButtons(st) {
  const v = st.view;
  const me = v.seat;
  const placing = v.legal && (v.decision === "turn" || v.decision === "capn_extra") && !(st.result && st.result.done);
  const stuck = (code) => placing && !(v.legal.place[code] || []).length;
  return el("div", { class: "rack", "aria-label": "your rack" },
    v.rack.map(code => el("button", {
      class: `rack-tile${st.selected === code ? " picked" : ""}${stuck(code) ? " stuck" : ""}`, "data-troop": code,
      "aria-pressed": st.selected === code ? "true" : "false", "aria-label": troopName(code), disabled: !placing,
      onclick: () => { st.selected = st.selected === code ? null : code; renderLesson(st); },
    }, tileSvg([me, code], 38), el("span", { class: "rack-name" }, troopName(code)))),
    v.laid.map(code => el("button", { class: "rack-tile laid", "data-troop": code, disabled: true,
      "aria-label": `${troopName(code)} (laid down)` }, tileSvg([me, code], 38), el("span", { class: "rack-name" }, "laid"))));
}

function choiceButtons(st) {
  const v = st.view;
  if (!v.legal || (st.result && st.result.done)) return null;
  const L = v.legal;
  const act = (label, action, cls = "") => el("button", { class: `btn ${cls}`, "data-action": action, onclick: () => send(st, action) }, label);
  return el("div", { class: "controls" },
    L.draw ? act("Draw", "draw", "primary") : null,
    L.use ? act("Use the effect", "use", "primary") : null,
    L.skip ? act("Skip", "skip") : null,
    L.recover.map(c => el("button", { class: "btn tilebtn", "data-action": `recover:${c}`, onclick: () => send(st, `recover:${c}`) },
      tileSvg([v.seat, c], 28), `Recover ${troopName(c)}`)));
}

function typeMove(st) {
  if (st.result && st.result.done) return null;
  const input = el("input", { name: "move", "aria-label": "type a move", placeholder: "e.g. 7@12", autocomplete: "off" });
  return el("form", { class: "type-move", onsubmit: e => { e.preventDefault(); if (input.value.trim()) send(st, input.value.trim()); } },
    el("label", {}, "Or type a move: ", input), el("button", { class: "btn", type: "submit" }, "Play"));
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
      el("div", { class: "lesson-board" }, drawLessonBoard(st),
        el("p", { class: "meta" }, `${lesson.terrain_name}, ${lesson.first_game ? "first-game mode" : "standard mode"}; you play ${lesson.seat}. ` +
          `Medals: blue ${view.medals.blue}, red ${view.medals.red} (objective ${view.objective[lesson.seat]}). ` +
          `Red rack: ${view.counts.red.rack} · Blue rack: ${view.counts.blue.rack}.`)),
      el("div", { class: "lesson-text" },
        lesson.intro ? el("p", {}, lesson.intro) : null,
        lesson.steps.length ? el("ol", { class: "steps" }, lesson.steps.map(s => el("li", {}, el("strong", {}, s.title), " ", s.text))) : null,
        el("p", { class: "question", id: "question" }, lesson.question),
        lesson.goal.length ? el("p", { class: "meta" }, "Checked at the end of your move: " + lesson.goal.join("; ") + ".") : null),
      el("div", { class: "lesson-play" },
        el("p", { class: "prompt", id: "prompt" }, done ? "" : (st.selected && view.legal
          ? `${troopName(st.selected)}: tap a highlighted base (or tap it on your rack again to put it back).` : view.prompt)),
        rackButtons(st),
        choiceButtons(st),
        typeMove(st),
        feedbackBox(st),
        el("div", { class: "bar" },
          st.hintsShown < lesson.hints.length && !done
            ? el("button", { class: "btn", id: "hint", onclick: () => { st.hintsShown += 1; renderLesson(st); } }, "Hint") : null,
          st.actions.length || st.result ? el("button", { class: "btn", id: "retry", onclick: () => retry(st) }, done && st.result.status === "right" ? "Play it again" : "Retry") : null,
          el("button", { class: `btn${done ? " primary" : ""}`, id: "continue", onclick: () => continueAsGame(st).catch(showError) }, "Play on against a bot")),
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
