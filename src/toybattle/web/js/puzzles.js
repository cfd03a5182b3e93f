// The puzzles, screens of the app's one page (app.js routes to them): the list with the solver's streak and
// rating at #/puzzles, one puzzle at #/puzzles/ID: the built-in set, and the puzzles drawn from this player's own
// reviewed games (ID "mine:GAME:N", asked for with the game's token from "Your games"). A puzzle is a position
// where one tap is clearly best; the board and the rack are the game's own (board.js, rack.js, choice.js), the taps mean what the server's view
// says, and the server judges the answer: this page holds no rule and never knows the answer before it is told.
// The streak and the rating (an Elo-like figure against each puzzle's difficulty) are kept in this browser.
import { t as tr, seatName, langSwitch } from "./i18n.js";
import { drawBoard, focusBoard } from "./board.js";
import { h as el, svgEl, cap } from "./dom.js";
import { getJSON, getMeta, getTerrain, troopName, stackWords } from "./data.js";
import { Choice, choiceButtons } from "./choice.js";
import { fitRack, rackTiles } from "./rack.js";
import { saved } from "./saved.js";

/** The puzzles' addresses (hash routes of the app's page). */
export const PUZZLES = { list: "#/puzzles", one: (id) => `#/puzzles/${encodeURIComponent(id).replaceAll("%3A", ":")}` };

// ------------------------------------------------------------------ the solver's record (localStorage)

export const SCORE_KEY = "toybattle.puzzles";
const START = 1000;  // a new solver's rating
const K = 32;  // how far one answer moves it
const MAX_IDS = 500;  // puzzles remembered (the built-in set has a few dozen)
const fresh = () => ({ v: 1, rating: START, streak: 0, best: 0, done: {} });
const count = (x, top) => Number.isInteger(x) && x >= 0 && x <= top;

/** The record kept in this browser, checked: anything malformed is forgotten (a fresh record), never an error. */
export function loadScore() {
  let raw;
  try { raw = JSON.parse(localStorage.getItem(SCORE_KEY)); } catch { raw = null; }
  const ok = raw && typeof raw === "object" && !Array.isArray(raw) && raw.v === 1
    && typeof raw.rating === "number" && Number.isFinite(raw.rating) && raw.rating >= 0 && raw.rating <= 4000
    && count(raw.streak, 1e6) && count(raw.best, 1e6) && raw.best >= raw.streak
    && raw.done && typeof raw.done === "object" && !Array.isArray(raw.done)
    && Object.keys(raw.done).length <= MAX_IDS
    && Object.entries(raw.done).every(([id, v]) => id.length <= 80 && (v === "right" || v === "wrong"));
  if (!ok) {
    const f = fresh();
    try { localStorage.setItem(SCORE_KEY, JSON.stringify(f)); } catch { /* storage full or off: kept for this visit */ }
    return f;
  }
  return { v: 1, rating: Math.round(raw.rating), streak: raw.streak, best: raw.best, done: { ...raw.done } };
}

function saveScore(score) {
  try { localStorage.setItem(SCORE_KEY, JSON.stringify(score)); } catch { /* storage full or off */ }
}

// a puzzle's own rating, from its difficulty (1: the first impression finds it ... 3: it takes looking ahead)
const puzzleRating = (difficulty) => 800 + 200 * difficulty;

/** The record after an answer: the streak, and the rating moved as Elo moves it against the puzzle's rating
 * (a right answer after a hint scores a half). Only a puzzle's first answer moves the rating. */
export function scored(score, puzzle, correct, hinted) {
  const out = { ...score, done: { ...score.done } };
  out.streak = correct ? score.streak + 1 : 0;
  out.best = Math.max(score.best, out.streak);
  if (!(puzzle.id in score.done)) {
    const expected = 1 / (1 + 10 ** ((puzzleRating(puzzle.difficulty) - score.rating) / 400));
    const result = correct ? (hinted ? 0.5 : 1) : 0;
    out.rating = Math.max(0, Math.round(score.rating + K * (result - expected)));
  }
  out.done[puzzle.id] = correct ? "right" : "wrong";
  return out;
}

// ------------------------------------------------------------------ where a puzzle is asked for

const MINE = /^mine:([A-Za-z0-9_-]{1,64}):([1-9][0-9]{0,2})$/;
const MOST_GAMES = 20;  // the latest finished games whose puzzles the list shows

/** The address of a saved game's puzzles, and the token that opens them. */
function mineOf(game, entry) {
  const token = entry.tokens.blue || entry.tokens.red;
  return { base: `/api/review/${game}/puzzles`, token, q: `?token=${encodeURIComponent(token)}` };
}

/** The addresses of puzzle `id` (built-in, or one of a game of "Your games"), or null for a game this browser
 * does not hold. */
function sourceOf(id) {
  const m = MINE.exec(id);
  if (!m) {
    const one = `/api/puzzles/${encodeURIComponent(id)}`;
    return { one, list: "/api/puzzles", answer: (action) => [`${one}/answer`, { action }],
      idOf: (p) => p.id, nextId: (next) => next };
  }
  const [, game, n] = m;
  const entry = saved.get(game);
  if (!entry) return null;
  const { base, token, q } = mineOf(game, entry);
  return { one: `${base}/${n}${q}`, list: `${base}${q}`, answer: (action) => [`${base}/${n}/answer`, { token, action }],
    idOf: (p) => `mine:${game}:${p.n}`, nextId: (next) => next && `mine:${game}:${next}` };
}

/** The puzzles of this browser's latest reviewed games, newest game first: [{id, ...summary}]. A game not
 * reviewed (or gone from the app) has none, and says nothing. */
async function minePuzzles() {
  const games = saved.read().games.filter(([, e]) => e.summary && e.summary.over).slice(0, MOST_GAMES);
  const lists = await Promise.allSettled(games.map(([id, e]) => {
    const { base, q } = mineOf(id, e);
    return getJSON(base + q).then((data) => data.puzzles.map((p) => ({ ...p, id: `mine:${id}:${p.n}` })));
  }));
  return lists.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
}

// ------------------------------------------------------------------ the frame

let shown = null;  // the latest puzzles screen's <main>
const live = (main) => main === shown && main.isConnected;

function frame() {
  document.body.className = "page-learn page-puzzles";
  document.title = `${tr("puzzles.title")} · Toy Battle`;
  shown = el("main", { id: "puzzles", class: "learn puzzles" }, el("p", { class: "loading" }, tr("home.loading")));
  document.getElementById("app").replaceChildren(
    el("header", { class: "topbar" },
      el("a", { class: "btn ghost", href: "#/", "aria-label": tr("learn.homeLabel") }, "◀ Toy Battle"),
      el("div", { class: "title" }, langSwitch(el)),
      el("a", { class: "btn ghost", id: "nav-puzzles", href: PUZZLES.list }, tr("puzzles.title"))),
    shown,
    el("div", { class: "sr-only", id: "announce", "aria-live": "polite" }));
  return shown;
}

function scoreLine(score) {
  return el("p", { class: "puzzle-score", id: "puzzle-score" },
    el("span", { id: "puzzle-streak" }, tr("puzzles.streak", { n: score.streak })),
    el("span", { id: "puzzle-rating" }, tr("puzzles.rating", { n: score.rating })),
    el("span", { id: "puzzle-best" }, tr("puzzles.bestStreak", { n: score.best })));
}

// ------------------------------------------------------------------ the list

function puzzleItems(list, score, id) {
  return el("ol", { class: "puzzle-list", id }, list.map((p, k) => el("li", { "data-puzzle": p.id },
    el("a", { href: PUZZLES.one(p.id) }, tr("puzzles.number", { n: k + 1, total: list.length })), " ",
    el("span", { class: "meta" }, tr("puzzles.about", { terrain: p.terrain_name, n: p.difficulty })), " ",
    score.done[p.id] === "right" ? el("span", { class: "done-mark" }, `✓ ${tr("puzzles.solved")}`)
      : score.done[p.id] === "wrong" ? el("span", { class: "meta" }, tr("puzzles.missed")) : null)));
}

async function showList(main) {
  const [data, mine] = await Promise.all([getJSON("/api/puzzles"), minePuzzles()]);
  if (!live(main)) return;
  const score = loadScore();
  const list = data.puzzles;
  // your own games' first: they are about how you play
  const next = mine.find((p) => !(p.id in score.done)) || list.find((p) => !(p.id in score.done)) || list[0];
  main.replaceChildren(
    el("h1", { tabindex: "-1" }, tr("puzzles.title")),
    el("p", {}, tr("puzzles.intro")),
    scoreLine(score),
    next ? el("p", {}, el("a", { class: "btn primary big", id: "puzzle-start", href: PUZZLES.one(next.id) }, tr("puzzles.start"))) : null,
    el("h2", {}, tr("puzzles.yours")),
    mine.length ? puzzleItems(mine, score, "puzzles-mine") : el("p", { id: "puzzles-mine-none" }, tr("puzzles.yoursNone")),
    el("h2", {}, tr("puzzles.builtIn")),
    puzzleItems(list, score, "puzzles-builtin"));
}

// ------------------------------------------------------------------ one puzzle

async function showPuzzle(main, id) {
  await getMeta();
  const source = sourceOf(id);
  if (!source) throw new Error(tr("puzzles.notHere"));
  const [shown, list] = await Promise.all([getJSON(source.one), getJSON(source.list)]);
  const puzzle = { ...shown, id, next: source.nextId(shown.next) };  // the page's own id: the score keeps it
  const board = await getTerrain(puzzle.terrain);
  if (!live(main)) return;
  document.title = `${tr("puzzles.title")} · Toy Battle`;
  const svg = svgEl({ role: "group", "aria-label": tr("learn.boardOf", { name: puzzle.terrain_name }) });
  const st = { main, puzzle, source, board, svg, view: puzzle.view, choice: new Choice(), hintsShown: 0, result: null,
    refused: "", number: list.puzzles.findIndex((p) => source.idOf(p) === id) + 1, total: list.puzzles.length,
    score: loadScore(), sending: false };
  autoPick(st);
  window.scrollTo(0, 0);
  render(st);
  main.querySelector("h1").focus();
}

// One tap per answer where it can be: when a single troop of the rack can be placed, it is picked already.
function autoPick(st) {
  const L = st.view.legal;
  if (!L || !st.choice.canPick(st.view)) return;
  const open = Object.keys(L.rack).filter((code) => !st.choice.stuck(st.view, code));
  if (open.length === 1) st.choice.pick(open[0], st.view.rack.indexOf(open[0]));
}

async function answer(st, action) {
  if (st.result || st.sending) return;
  st.sending = true;
  let res;
  try {
    res = await getJSON(...st.source.answer(action));
  } catch (e) {
    st.sending = false;
    st.refused = e.message;  // a refusal changes nothing: the puzzle stands, to be answered
    return render(st);
  }
  st.sending = false;
  st.result = res;
  st.refused = "";
  st.score = scored(loadScore(), st.puzzle, res.correct, st.hintsShown > 0);
  saveScore(st.score);
  render(st, { focus: "#verdict" });
}

function nodeTap(st, nid) {
  if (st.result) return;
  const meant = st.choice.tap(st.view, nid);
  if (!meant) return;
  if (meant.opened) return render(st);
  if (meant.send) return answer(st, meant.send);
  st.refused = meant.refused || "";  // the rule, as the view words it: not an answer
  render(st);
}

function nodeLabel(st, view, id) {
  const n = st.board.nodes.find((x) => x.id === id);
  const stack = (view.stacks || {})[String(id)] || [];
  const top = stack[stack.length - 1];
  const targets = st.result ? [] : st.choice.targets(view);
  return [n.kind === "hq" ? tr("play.hq", { side: seatName(n.side) }) : tr("play.base", { id }),
    top ? stackWords(stack, view.seat) : tr("play.empty"), targets.includes(id) ? tr("play.target") : null].filter(Boolean).join(", ");
}

function drawPuzzleBoard(st) {
  // once answered, the board shows the position after the best move, that move marked
  const view = st.result ? st.result.view : st.view;
  drawBoard(st.svg, st.board, view, {
    flip: view.seat === "red", me: view.seat, targets: st.result ? [] : st.choice.targets(view),
    selected: st.choice.from, last: st.result ? { nodes: [st.result.answer_node], seat: view.seat } : null,
    onTap: (id, kind) => { if (kind === "node") nodeTap(st, id); },
    keys: true, nodeLabel: (id) => nodeLabel(st, view, id),
    onEscape: () => { st.choice.reset(); render(st); },
  });
  return st.svg;
}

function rackButtons(st) {
  const placing = st.choice.canPick(st.view) && !st.result;
  if (!st.view.rack.length) return null;
  return fitRack(el("div", { class: "rack", "aria-label": tr("play.yourRack") },
    rackTiles(st.view, st.choice, { disabled: !placing, onPick: (code, k, ev) => {
      st.choice.pick(code, k);
      st.refused = "";
      render(st);
      if (ev && ev.detail === 0 && st.choice.picked) focusBoard(st.svg);  // a keyboard pick goes on to the board
    } })));
}

function verdict(st) {
  const r = st.result;
  if (!r) return null;
  return el("div", { class: `feedback ${r.correct ? "right" : "wrong"}`, id: "verdict", tabindex: "-1" },
    el("strong", { id: "verdict-head" }, r.correct ? tr("puzzles.right") : tr("puzzles.wrong")), " ",
    el("span", { id: "answer" }, r.answer_words),
    r.explanation.length ? el("ul", { id: "explanation" }, r.explanation.map((line) => el("li", {}, cap(line)))) : null);
}

function render(st, { focus = "" } = {}) {
  if (!live(st.main)) return;
  const { puzzle, view } = st;
  const had = document.activeElement && st.main.contains(document.activeElement) ? document.activeElement : null;
  const hadKey = had ? (had.id || (had.closest("svg") ? "board" : had.dataset.troop ? `troop:${had.dataset.troop}` : "")) : "";
  const done = !!st.result;
  const hints = puzzle.hint.slice(0, st.hintsShown);
  const next = puzzle.next ? PUZZLES.one(puzzle.next) : PUZZLES.list;
  st.main.replaceChildren(
    el("p", {}, el("a", { href: PUZZLES.list }, `← ${tr("puzzles.all")}`)),
    el("h1", { tabindex: "-1" }, tr("puzzles.number", { n: st.number, total: st.total })),
    el("p", { class: "meta" }, tr("puzzles.about", { terrain: puzzle.terrain_name, n: puzzle.difficulty })),
    scoreLine(st.score),
    el("div", { class: "lesson" },
      el("div", { class: "lesson-question" }, el("p", { class: "question", id: "prompt" }, puzzle.prompt)),
      el("div", { class: "lesson-board", id: "puzzle-board" }, drawPuzzleBoard(st)),
      el("div", { class: "lesson-play" },
        done ? null : el("p", { class: "prompt", id: "step" },
          st.choice.picked && view.legal ? tr("play.picked", { name: troopName(st.choice.picked) }) : view.prompt),
        done ? null : rackButtons(st),
        done || !view.legal ? null : el("div", { class: "controls" }, choiceButtons(view, view.seat, (action) => answer(st, action))),
        st.refused && !done ? el("p", { class: "feedback refused", id: "refused", role: "alert" }, cap(st.refused)) : null,
        verdict(st),
        el("div", { class: "bar" },
          done ? el("a", { class: "btn primary", id: "next", href: next }, puzzle.next ? tr("puzzles.next") : tr("puzzles.allDone")) : null,
          !done && st.hintsShown < puzzle.hint.length
            ? el("button", { class: "btn", id: "hint", type: "button", onclick: () => {
              st.hintsShown += 1;
              render(st, { focus: "#hints" });
            } }, tr("play.hintBtn")) : null),
        hints.length ? el("ul", { class: "hints", id: "hints", tabindex: "-1" }, hints.map((x) => el("li", {}, x))) : null)),
  );
  // the focus goes where the step leads, else back on the same part
  const find = (sel) => st.main.querySelector(sel);
  let to = focus ? find(focus) : null;
  if (!to && hadKey === "board") to = st.svg.querySelector(".hit[tabindex='0']");
  else if (!to && hadKey.startsWith("troop:")) to = find(`.rack button[data-troop="${hadKey.slice(6)}"]`);
  else if (!to && hadKey) to = find(`#${CSS.escape(hadKey)}`) || (hadKey === "hint" ? find("#hints") : null);
  if (to) to.focus();
  const box = find("#verdict") || find("#refused");
  const said = box ? box.textContent : (focus === "#hints" ? hints[hints.length - 1] : "");
  if (said) document.getElementById("announce").textContent = said;
}

// ------------------------------------------------------------------ the screens

function showError(main, e) {
  if (!live(main)) return;
  main.replaceChildren(el("p", { class: "feedback wrong" }, tr("learn.wentWrong", { message: e.message })),
    el("a", { href: PUZZLES.list }, tr("puzzles.all")));
}

/** Show a puzzles screen in #app (app.js's router calls it): `{}` the list, `{ puzzle: ID }` one puzzle. */
export async function showPuzzles({ puzzle = null } = {}) {
  const main = frame();
  try {
    if (puzzle) await showPuzzle(main, puzzle);
    else await showList(main);
  } catch (e) {
    if (e && e.site !== undefined) throw e;  // the static site's Python could not start: app.js says so
    showError(main, e);
  }
}
