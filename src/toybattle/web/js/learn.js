// The Learn section, screens of the app's one page (app.js routes to them): the lesson list with progress
// (localStorage) at #/learn, one lesson at a time at #/learn/ID, the rules and FAQ at #/rules.
// Every judgement comes from the server, which replays the learner's actions with the rules engine.
// The board and tiles are drawn by the game's own renderer (board.js), so a lesson looks like a game.
import { t as tr, seatName, langSwitch } from "./i18n.js";
import { drawBoard, focusBoard } from "./board.js";
import { h as el, svgEl } from "./dom.js";
import { getJSON, getMeta, getTerrain, troopName, stackWords } from "./data.js";
import { Choice, choiceButtons } from "./choice.js";
import { rackTiles } from "./rack.js";

/** The Learn section's addresses (hash routes of the app's page). */
export const LEARN = { lessons: "#/learn", lesson: (id) => `#/learn/${encodeURIComponent(id)}`, rules: "#/rules" };

let shown = null;  // the latest Learn screen's <main>
// whether `main` is still on screen: an answer that comes after the learner went on (to another Learn screen,
// or out of Learn) draws nothing
const live = (main) => main === shown && main.isConnected;

// the Learn page's own words (the catalogue's "learn." keys)
const T = {
  heads: { right: tr("learn.right"), wrong: tr("learn.wrong"), refused: tr("learn.refused") },
  rule: (r) => tr("learn.rule", { r }),
  picked: (name) => tr("learn.picked", { name }),
  next: tr("learn.next"),
  hq: (side) => tr("play.hq", { side: seatName(side) }),
  base: (id) => tr("play.base", { id }),
  empty: tr("play.empty"),
  target: tr("play.target"),
  allDone: tr("learn.allDone"),
};
const PROGRESS_KEY = "toybattle.learn.progress";

function progress() {
  try { return JSON.parse(localStorage.getItem(PROGRESS_KEY)) || {}; } catch { return {}; }
}
function markDone(id) {
  const p = progress();
  p[id] = "done";
  localStorage.setItem(PROGRESS_KEY, JSON.stringify(p));
}

// The screen's frame in #app: the top bar (home, the language switch, Lessons, Rules & FAQ; `nav` marks
// where the learner is), the screen's <main> and the live region that reads out a lesson's verdicts.
function frame(nav) {
  document.body.className = "page-learn";
  document.title = `${tr("learn.title")} · Toy Battle`;
  const navLink = (id, href, text, here) => el("a", { class: `btn ghost${here ? " here" : ""}`, id, href,
    "aria-current": here ? "page" : null }, text);
  shown = el("main", { id: "learn", class: "learn" }, el("p", { class: "loading" }, tr("home.loading")));
  document.getElementById("app").replaceChildren(
    el("header", { class: "topbar" },
      el("a", { class: "btn ghost", href: "#/", "aria-label": tr("learn.homeLabel") }, "◀ Toy Battle"),
      el("div", { class: "title" }, langSwitch(el)),
      navLink("nav-lessons", LEARN.lessons, tr("learn.lessons"), nav === "lessons"),
      navLink("nav-rules", LEARN.rules, tr("learn.rulesNav"), nav === "rules")),
    shown,
    el("div", { class: "sr-only", id: "announce", "aria-live": "polite" }));
  return shown;
}

// ------------------------------------------------------------------ lesson list

async function showList(main) {
  const data = await getJSON("/api/lessons");
  if (!live(main)) return;
  const p = progress();
  const all = data.topics.flatMap(t => t.lessons);
  const done = all.filter(l => p[l.id] === "done").length;
  main.replaceChildren(
    el("h1", {}, tr("learn.title")),
    el("p", { class: "progress", id: "progress" }, tr("learn.progress", { done, n: all.length })),
    ...data.topics.map(t => el("section", { class: "topic" },
      el("h2", {}, t.title),
      el("ol", {}, t.lessons.map(l => el("li", { "data-lesson": l.id },
        el("a", { href: LEARN.lesson(l.id) }, l.title), " ",
        p[l.id] === "done" ? el("span", { class: "done-mark", title: tr("learn.done") }, `✓ ${tr("learn.done")}`) : null))))),
  );
}

// ------------------------------------------------------------------ rules and FAQ

async function showRules(main) {
  const book = await getJSON("/api/rules");
  if (!live(main)) return;
  document.title = `${tr("learn.rulesNav")} · Toy Battle`;
  main.replaceChildren(
    el("h1", {}, tr("learn.rulesTitle")),
    el("p", { class: "meta" }, tr("learn.rulesIntro", { n: book.faq.length })),
    el("ul", { class: "toc", "aria-label": tr("learn.topics") }, book.topics.map(t => el("li", {},
      el("a", { href: LEARN.rules, onclick: e => { e.preventDefault(); document.getElementById(`rules-${t.id}`).scrollIntoView(); } }, t.title)))),
    ...book.topics.map(t => el("section", { id: `rules-${t.id}`, class: "rules-topic panel" },
      el("h2", {}, t.title),
      el("ul", {}, t.rules.map(r => el("li", {}, r.text, " ", el("span", { class: "source" }, `[${r.source}]`)))),
      faqList(book.faq.filter(q => q.topic === t.id)))),
  );
}

function faqList(items) {
  if (!items.length) return null;
  return el("div", { class: "faq" }, el("h3", {}, tr("learn.questions")), el("dl", {}, items.flatMap(q => [
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

async function showLesson(main, id) {
  await getMeta();
  const [lesson, list] = await Promise.all([getJSON(`/api/lessons/${encodeURIComponent(id)}`), getJSON("/api/lessons")]);
  const order = list.topics.flatMap((t) => t.lessons.map((l) => l.id));
  lesson.next = order[order.indexOf(lesson.id) + 1] || null;
  const board = await getTerrain(lesson.terrain);
  if (!live(main)) return;
  document.title = `${lesson.title} · ${tr("learn.title")} · Toy Battle`;
  // one svg per lesson, kept across renders, so board.js animates each placement like in a game
  const svg = svgEl({ role: "group", "aria-label": tr("learn.boardOf", { name: lesson.terrain_name }) });
  window.scrollTo(0, 0);
  const st = { main, lesson, board, svg, actions: [], nonce: newNonce(), view: lesson.view, choice: new Choice(),
               hintsShown: 0, result: null, announced: "" };
  renderLesson(st);
  main.querySelector("h1").focus();  // a new lesson (from "Next lesson" too) starts at its title
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
  st.choice.reset();
  st.result = res.status === "playing" ? null : res;
  if (res.status === "right") markDone(st.lesson.id);
  renderLesson(st, { sent: true });
}

function retry(st) {
  Object.assign(st, { actions: [], nonce: newNonce(), view: st.lesson.view, result: null });
  st.choice.reset();
  renderLesson(st);
  const first = st.main.querySelector(".rack button:not([disabled])");
  if (first && st.main.querySelector("#retry") === null) first.focus();  // a fresh try starts at the rack
}

// The server stores a bot game from where the move left the lesson and answers its join link
// (/join/{game}/{token}); the app's router takes it from there at #/join/... like any join link, in this
// same page (no new page, so on the static site no second start of Python), and the back button
// comes back to the lesson.
async function continueAsGame(st) {
  const res = await getJSON(`/api/lessons/${st.lesson.id}/continue`, { actions: st.actions, nonce: st.nonce });
  location.hash = `#${res.url}`;
}

const finished = (st) => !!(st.result && st.result.done);

// A tap does what the view says it means. A refused target is sent all the same: the lesson answers
// it with its own feedback (a refusal is often the very point of the lesson).
function nodeTap(st, nid) {
  if (finished(st)) return;
  const meant = st.choice.tap(st.view, nid);
  if (!meant) return;
  if (meant.opened) return renderLesson(st);
  if (meant.send || meant.action) return send(st, meant.send || meant.action);
  st.result = { status: "refused", done: false, feedback: "", refusal: meant.refused };
  renderLesson(st);
}

function drawLessonBoard(st) {
  drawBoard(st.svg, st.board, st.view, {
    flip: st.view.seat === "red", me: st.view.seat, targets: finished(st) ? [] : st.choice.targets(st.view),
    selected: st.choice.from,
    onTap: (id, kind) => { if (kind === "node") nodeTap(st, id); },
    keys: true, nodeLabel: (id) => nodeLabel(st, id), onEscape: () => { st.choice.reset(); renderLesson(st); },
  });
  return st.svg;
}

// what a screen reader says of a base: its number (or whose H.Q.), what is on top, whether it is a target
function nodeLabel(st, id) {
  const n = st.board.nodes.find((x) => x.id === id);
  const stack = (st.view.stacks || {})[String(id)] || [];
  const top = stack[stack.length - 1];
  return [n.kind === "hq" ? T.hq(n.side) : T.base(id), top ? stackWords(stack, st.view.seat) : T.empty,
    st.choice.targets(st.view).includes(id) ? T.target : null].filter(Boolean).join(", ");
}

function rackButtons(st) {
  const placing = st.choice.canPick(st.view) && !finished(st);
  return el("div", { class: "rack", "aria-label": tr("play.yourRack") },
    rackTiles(st.view, st.choice, { disabled: !placing, onPick: (code, k, ev) => {
      st.choice.pick(code, k);
      renderLesson(st);
      if (ev && ev.detail === 0 && st.choice.picked) focusBoard(st.svg);  // a keyboard pick goes on to the board
    } }));
}

function choices(st) {
  if (finished(st) || !st.view.legal) return null;
  return el("div", { class: "controls" }, choiceButtons(st.view, st.view.seat, (action) => send(st, action)));
}

function typeMove(st) {
  if (st.result && st.result.done) return null;
  const example = st.view.legal ? st.view.legal.actions[st.view.legal.actions.length - 1] : "";
  const input = el("input", { name: "move", "aria-label": tr("learn.typeMove"), placeholder: example ? tr("learn.eg", { example }) : "", autocomplete: "off" });
  return el("form", { class: "type-move", onsubmit: e => { e.preventDefault(); if (input.value.trim()) send(st, input.value.trim()); } },
    el("label", {}, tr("learn.orType"), input), el("button", { class: "btn", type: "submit" }, tr("learn.play")));
}

// The verdict's head word, unless the feedback starts with it already ("Right! Right: ..."), and the
// rule of a refusal, unless the feedback states it already.
function feedbackBox(st) {
  const r = st.result;
  if (!r) return null;
  const head = T.heads[r.status];
  const word = head.replace(/[!.]$/, "").toLowerCase();
  const saysHead = (r.feedback || "").toLowerCase().startsWith(word);
  const saysRule = r.refusal && (r.feedback || "").toLowerCase().includes(r.refusal.toLowerCase());
  return el("div", { class: `feedback ${r.status}`, id: "feedback" },  // read out through #announce
    saysHead ? null : el("strong", {}, head), saysHead ? null : " ", r.feedback || null,
    r.status === "refused" && r.refusal && !saysRule ? el("div", { class: "meta" }, T.rule(r.refusal)) : null);
}

// ------------------------------------------------------------------ keyboard focus and announcements

// Rebuilding the lesson detaches whatever had the focus: say what it was, to put it back (or on the
// next sensible control) once the lesson is drawn again.
function focusedPart(main) {
  const a = document.activeElement;
  if (!a || a === document.body || !main.contains(a)) return null;
  if (a.closest("svg")) return { board: true };
  if (a.dataset.troop) return { troop: a.dataset.troop, k: a.dataset.k };
  return { id: a.id || null, action: a.dataset.action || null };
}

// After a finished move: "Next lesson" (right) or "Retry" (wrong). After an accepted action of a move
// still going on: the board where it offers targets, else the first choice button (use, skip…).
// Otherwise (a refusal, Escape, a pick, a hint) the focus stays on the same part.
function refocus(st, had, sent) {
  if (!had) return;
  const find = (sel) => st.main.querySelector(sel);
  const board = () => st.svg.querySelector(".hit[tabindex='0']");  // a base's keyboard button is its tap circle
  let to = null;
  if (st.result && st.result.done) to = find("#next") || find("#retry");
  else if (sent && !st.result) to = st.choice.targets(st.view).length ? board() : find(".controls button") || board();
  else if (had.board) to = board();
  else if (had.troop) to = find(`.rack button[data-troop="${had.troop}"][data-k="${had.k}"]`) || board();
  else if (had.action) to = find(`.controls button[data-action="${CSS.escape(had.action)}"]`) || board();
  else if (had.id) to = find(`#${had.id}`) || (had.id === "hint" ? find("#hints") : null);
  if (to) to.focus();
}

// What a screen reader hears after each render (once): a new hint, the verdict and its feedback, or
// the prompt of the move's next step.
function announce(st, said) {
  const box = st.main.querySelector("#feedback");
  said = said || (box ? box.textContent : (st.main.querySelector("#prompt") || {}).textContent || "");
  if (said && said !== st.announced) document.getElementById("announce").textContent = said;
  st.announced = said;
}

/** Draw the lesson again; `sent`: an action was just answered; `said`: what to announce instead. */
function renderLesson(st, { sent = false, said = "" } = {}) {
  if (!live(st.main)) return;
  const had = focusedPart(st.main);
  drawLesson(st);
  refocus(st, had, sent);
  announce(st, said);
}

function drawLesson(st) {
  const { lesson, view } = st;
  const done = st.result && st.result.done;
  const hints = lesson.hints.slice(0, st.hintsShown);
  st.main.replaceChildren(
    el("p", {}, el("a", { href: LEARN.lessons }, `← ${tr("learn.allLessons")}`)),
    el("h1", { tabindex: "-1" }, lesson.title),
    el("div", { class: "lesson" },
      el("div", { class: "lesson-board", id: "lesson-board" }, drawLessonBoard(st)),
      el("div", { class: "lesson-text" },
        lesson.intro ? el("p", {}, lesson.intro) : null,
        lesson.steps.length ? el("ol", { class: "steps" }, lesson.steps.map(s => el("li", {}, el("strong", {}, s.title), " ", s.text))) : null),
      // the question stands right over the board: on a phone both fit one screen, read and tapped together
      el("div", { class: "lesson-question" },
        el("p", { class: "question", id: "question" }, lesson.question),
        lesson.goal.length ? el("p", { class: "meta" }, tr("learn.checked", { goals: lesson.goal.join(tr("list.sep")) })) : null),
      el("div", { class: "lesson-play" },
        el("p", { class: "prompt", id: "prompt" }, done ? "" : (st.choice.picked && view.legal
          ? T.picked(troopName(st.choice.picked)) : view.prompt)),
        rackButtons(st),
        choices(st),
        feedbackBox(st),
        el("div", { class: "bar" },
          done && st.result.status === "right"
            ? el("a", { class: "btn primary", id: "next", href: lesson.next ? LEARN.lesson(lesson.next) : LEARN.lessons }, lesson.next ? T.next : T.allDone) : null,
          st.hintsShown < lesson.hints.length && !done
            ? el("button", { class: "btn", id: "hint", onclick: () => { st.hintsShown += 1; renderLesson(st, { said: lesson.hints[st.hintsShown - 1] }); } }, tr("play.hintBtn")) : null,
          st.actions.length || st.result ? el("button", { class: "btn", id: "retry", onclick: () => retry(st) }, done && st.result.status === "right" ? tr("learn.again") : tr("app.retry")) : null,
          el("button", { class: "btn", id: "continue", onclick: () => continueAsGame(st).catch((e) => showError(st.main, e)) }, tr("learn.playOn"))),
        hints.length ? el("ul", { class: "hints", id: "hints", tabindex: "-1" }, hints.map(h => el("li", {}, h))) : null,
        el("p", { class: "meta" }, tr(lesson.first_game ? "learn.metaFirst" : "learn.metaStandard", { terrain: lesson.terrain_name, seat: seatName(lesson.seat),
          b: view.medals.blue, r: view.medals.red, o: view.objective[lesson.seat], rr: view.counts.red.rack, br: view.counts.blue.rack })),
        typeMove(st),
        el("p", { class: "source" }, tr("learn.source", { source: lesson.source })))),
  );
}

// ------------------------------------------------------------------ the screens

function showError(main, e) {
  if (!live(main)) return;
  main.replaceChildren(el("p", { class: "feedback wrong" }, tr("learn.wentWrong", { message: e.message })),
    el("a", { href: LEARN.lessons }, tr("learn.back")));
}

/** Show a Learn screen in #app (app.js's router calls it): `{}` the lesson list, `{ lesson: ID }` a
 * lesson, `{ rules: true }` the rules and FAQ. Its top bar comes at once, its content once loaded. */
export async function showLearn({ lesson = null, rules = false } = {}) {
  const main = frame(rules ? "rules" : lesson ? "" : "lessons");
  try {
    if (lesson) await showLesson(main, lesson);
    else if (rules) await showRules(main);
    else await showList(main);
  } catch (e) {
    if (e && e.site !== undefined) throw e;  // the static site's Python could not start: app.js says so
    showError(main, e);
  }
}
