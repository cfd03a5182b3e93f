// The play screen: one game over the websocket (net.js). Its parts are drawn separately (board,
// strips, prompt, buttons, rack, side panel), and every tap is looked up in the view (choice.js):
// the page sends only action texts the server gave it.
import { drawBoard, focusBoard, tileSvg } from "./board.js";
import { $, h, fill, svgEl, badge, other } from "./dom.js";
import { getMeta, getTerrain, troop, troopName, stackWords, terrainInfo, meta, offers } from "./data.js";
import { troopCard, laidCard, nodeCard, regionCard, counterCard, isHint } from "./cards.js";
import { Choice, choiceButtons } from "./choice.js";
import { fitRack, rackTiles } from "./rack.js";
import { seatStrip } from "./strip.js";
import { openSheet, closeSheet } from "./sheet.js";
import { coverFor, endScreen, menuSheet, discardSheet, handbookSheet, inviteSheet } from "./overlays.js";
import { reopenRoom } from "./rooms.js";
import { saved } from "./saved.js";
import { Chat } from "./chat.js";
import { Clocks, Limits } from "./limits.js";
import { Presence } from "./presence.js";
import { play as playSound, soundsOf } from "./sound.js";
import { GameSocket, fetch } from "./net.js"; // fetch: the API through the transport seam
import { t, tn, seatName } from "./i18n.js";

const app = () => $("#app");

// the play screen's own words (the catalogue's "play." keys)
const T = {
  connecting: t("play.connecting"),
  offline: t("play.offline"),
  notSent: t("play.notSent"),
  finishFirst: t("play.finishFirst"),
  picked: (name) => t("play.picked", { name }),
  nowhere: t("play.nowhere"),
  moveFrom: (n) => t("play.moveFrom", { n }),
  thinking: (who) => t("play.thinking", { who }),
  strength: (tr) => tr.strength === null ? t("play.joker") : t("play.strength", { n: tr.strength }),
  rackEmpty: t("play.rackEmpty"),
  openLog: t("play.openLog"),
  firstGame: t("play.firstGame"),
  undo: t("play.undo"),
  hintBtn: t("play.hintBtn"),
  hint: (words) => t("play.hint", { words }),
  why: t("play.why"),
  place: (name, node) => t("play.place", { name, node }),
  tapBase: (id) => t("play.tapBase", { id }),
  tapTwo: (id, to) => t("play.tapTwo", { id, to }),
  board: t("play.board"),
  base: (id) => t("play.base", { id }),
  hq: (side, mine) => t(mine ? "play.hqYours" : "play.hq", { side: seatName(side) }),
  empty: t("play.empty"),
  linked: t("play.linked"),
  target: t("play.target"),
  yourHqBottom: t("play.yourHqBottom"),
  holds: (who, ids, you) => ids.length ? t(you ? "play.youHold" : "play.holds", { who, ids: ids.join(", ") }) : t(you ? "play.youHoldNone" : "play.holdsNone", { who }),
  linkedList: (ids) => ids.length ? t("play.linkedList", { ids: ids.join(", ") }) : t("play.linkedNone"),
  stack: (id, n, whose, name) => t("play.stack", { id, n, whose, name }),
  region: (id, m, who) => tn("play.region", m, { id, who }),
  medals: (me, mo, them, to) => t("play.medals", { me, mo, them, to }),
};

export class PlayScreen {
  constructor(id, entry) {
    this.id = id;
    this.entry = entry;
    this.kind = entry.kind;
    this.view = null;
    this.choice = new Choice();
    this.hintNode = null;
    this.card = null;
    this.lastFx = 0;
    this.covered = false;
    this.seat = Object.keys(entry.tokens)[0];
    this.chat = new Chat(this);
    this.limits = new Limits(this);
    this.clocks = new Clocks();
    this.presence = new Presence();  // online: the other player connected, away or back; this side offline
    this.build();
    this.sock = new GameSocket({
      game: id, token: entry.tokens[this.seat],
      onView: (v) => this.onView(v),
      onError: (m, id) => this.chat.refused(id, m) || this.toast(m),
      onRematch: (m) => this.onRematch(m),
      onHint: (m) => this.onHint(m),
      onStatus: (s) => this.setOnline(s !== "offline"),
      onChat: (lines) => this.chat.heard(lines),
    });
  }

  close() { this.closed = true; this.limits.stop(); this.clocks.stop(); this.presence.stop(); this.sock.close(); closeSheet(); }

  build() {
    document.body.className = "page-play";
    const root = h("div", { class: "play", id: "play" });
    this.root = root;
    root.append(
      h("header", { class: "topbar" },
        h("a", { class: "btn ghost", href: "#/", "aria-label": t("nav.home"), id: "home-btn" }, "◀"),
        h("div", { class: "title", id: "title" }, ""),
        h("div", { class: "net-status", id: "net-status", role: "status" }),
        h("button", { class: "btn ghost wide-only", id: "troops-btn", onclick: () => this.showHandbook() }, t("play.troops")),
        h("button", { class: "btn ghost phone-only", id: "log-btn", onclick: () => this.showLog() }, t("play.log")),
        this.chat.button,
        h("button", { class: "btn ghost", id: "menu-btn", "aria-label": t("play.more"), onclick: () => this.showMenu() }, "⋯")),
      h("div", { class: "strip opp", id: "opp" }),
      this.presence.line,
      h("div", { class: "table" },
        h("div", { class: "board-wrap" },
          this.svg = svgEl({ id: "board", role: "group", "aria-label": T.board, "aria-describedby": "board-desc" }),
          h("p", { class: "sr-only", id: "board-desc" })),
        // a card read on a phone opens over the board, leaving the prompt, choices and rack usable
        h("div", { class: "card-pop hidden", id: "card-pop", role: "dialog", "aria-label": t("play.card") })),
      h("div", { class: "ticker", id: "ticker", title: T.openLog, onclick: () => this.showLog() }),
      // the console: on a phone a dock of fixed height under the board (its words and refusals share
      // one box there, so the board never shrinks); on a desktop the right column
      h("div", { class: "console" },
        h("div", { class: "dock" },
          h("div", { class: "info", id: "info" },
            h("div", { class: "prompt", id: "prompt", tabindex: "0" }, T.connecting),  // it may scroll: reachable by keyboard
            this.clocks.line,
            this.limits.line,
            h("div", { class: "aux", id: "aux" }),
            h("div", { class: "toast hidden", id: "toast", role: "alert" })),
          h("div", { class: "controls" }, h("div", { class: "strip me", id: "me" }), h("div", { class: "buttons", id: "buttons" })),
          h("div", { class: "rack", id: "rack", role: "group", "aria-label": t("play.yourRack") })),
        h("aside", { class: "side" },
          h("div", { class: "side-card", id: "side-card", "data-empty": t("play.sideCardEmpty") }),
          h("div", { class: "side-discard", id: "side-discard" }),
          h("div", { class: "side-log", id: "side-log" }))),
      h("div", { class: "sr-only", id: "announce", "aria-live": "polite" }));
    root.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || $("#sheet")) return;
      if (this.card) { this.card = null; this.render(); } else this.cancel();  // an open card closes first
    });
    fill(app(), root);
  }

  // -------------------------------------------------------------- incoming

  async onView(v) {
    if (this.closed) return;
    const seq = this.viewSeq = (this.viewSeq || 0) + 1;
    if (v.waiting || !v.stacks) { this.showWaiting(v); return; }  // no board yet (or a room that ended before the deal)
    v.log = v.log || [];
    v.players = v.players || {};
    if (v.game && v.game.error) this.toast(v.game.error);
    const fresh = !this.view || this.view.ply !== v.ply || this.view.seat !== v.seat || this.view.over !== v.over ||
      !v.legal;
    const prevSeat = this.view && this.view.seat;
    const prevStacks = (this.view && this.view.stacks) || {};
    this.terrain = await getTerrain(v.terrain);
    if (this.closed || seq !== this.viewSeq) return;  // a newer view arrived while this one waited
    this.view = v;
    this.seat = v.seat;
    this.chat.offer(!!(v.game && v.game.chat));
    const waiting = $("#waiting", this.root);
    if (waiting) waiting.remove();
    if (fresh) { this.choice.reset(); this.hintNode = null; if (isHint(this.card)) this.card = null; }
    if (this.kind === "hotseat" && !v.over && v.actor && v.actor !== v.seat) {
      // the turn passed: cover the screen before the other player's rack is shown
      this.cover(v.actor);
    } else if (this.covered && v.seat === (v.actor || v.seat)) {
      this.uncover();
    }
    const newEntries = v.log.filter((e) => e.n > this.lastFx);
    const fx = prevSeat === v.seat ? newEntries.map((e) => e.fx) : [];
    this.lastFx = v.log.length ? v.log[v.log.length - 1].n : 0;
    this.render(fx);
    if (prevSeat === v.seat) soundsOf(newEntries, prevStacks, v.seat).forEach((name, k) => setTimeout(() => playSound(name), 160 * k));
    if (v.over) this.showEnd(); else $("#endscreen") && $("#endscreen").remove();
  }

  onHint(m) {
    if (!this.view || m.ply !== this.view.ply) return;
    const place = this.choice.placementOf(this.view, m.action);
    if (place) {  // show the hinted placement: its troop picked, its base marked
      this.choice.reset();
      this.choice.pick(place.code, this.view.rack.indexOf(place.code));
      this.hintNode = place.node;
      this.render();
    }
    this.showCard(h("div", { class: "card hint-card" }, h("div", { class: "card-title" }, T.hint(this.hintWords(m.action))),
      h("details", {}, h("summary", {}, T.why), h("p", {}, m.reason))));
  }

  /** A hinted action in words, from what the view says of it: a placement, a button, or a tap on a base. */
  hintWords(action) {
    const v = this.view;
    const place = this.choice.placementOf(v, action);
    if (place) return T.place(troopName(place.code), place.node);
    const button = v.legal.buttons.find((b) => b.action === action);
    if (button) return button.label;
    for (const [id, t] of Object.entries(v.legal.board)) {
      if (t.action === action) return T.tapBase(id);
      for (const [to, u] of Object.entries(t.then || {})) if (u.action === action) return T.tapTwo(id, to);
    }
    return action;
  }

  showWaiting(v) {
    const code = (v.game && v.game.code) || this.entry.code || "";
    const error = (v.game && v.game.error) || (v.over && v.result);
    const status = error ? h("p", { class: "error", id: "room-status" }, error) : null;
    // a closed room waits for nobody: say why, and offer the way on
    const next = !error ? null : this.entry.room
      ? h("button", { class: "btn primary", id: "btn-new-room", onclick: () => reopenRoom(this.entry.room, (m) => { status.textContent = m; }) }, t("room.newRoom"))
      : h("a", { class: "btn primary", href: "#/", id: "btn-new-room" }, t("nav.home"));
    fill($("#prompt"), h("span", {}, error || t("room.waiting")));
    $("#prompt").classList.toggle("error", !!error);
    const shown = h("p", { class: `room-code mono${error ? " closed" : ""}`, id: "room-code-shown" }, code);
    const box = h("div", { class: "room-wait panel", id: "waiting" }, h("h2", {}, t("room.code")),
      shown, error || !code ? null : shareButtons(code, shown),
      error ? null : h("p", {}, t("room.howJoin")),
      status, next, ...this.limits.buttons(v));
    this.limits.update(v);  // a peer that went silent before the deal: its countdown, then the choices
    this.presence.update(v);
    const wrap = $(".board-wrap", this.root);
    const old = $("#waiting", this.root);
    // a new view redraws the box: a keyboard user's focus stays on the same button
    const focused = old && old.contains(document.activeElement) ? document.activeElement.id : "";
    if (old) old.remove();
    wrap.appendChild(box);
    if (focused && box.querySelector(`#${focused}`)) box.querySelector(`#${focused}`).focus();
  }

  onRematch(m) {
    saved.put(m.game, { kind: this.kind, tokens: m.tokens, created: Date.now(), host: !!this.entry.host });
    location.hash = `#/game/${m.game}`;
  }

  // -------------------------------------------------------------- drawing

  render(fx = []) {
    const v = this.view;
    const t = terrainInfo(v.terrain);
    fill($("#title"), h("span", {}, t.name), v.first_game ? h("small", {}, T.firstGame) : null);
    this.renderStrip($("#opp"), other(v.seat));
    this.renderStrip($("#me"), v.seat);
    drawBoard(this.svg, this.terrain, v, {
      flip: v.seat === "red", me: v.seat, targets: this.choice.targets(v), selected: this.choice.from ?? (this.choice.picked ? this.hintNode : null),
      last: v.over && v.decider ? { seat: v.winner, nodes: v.decider.nodes } : v.last, threats: v.threats,
      onTap: (id, kind) => this.tap(id, kind), onHover: (id, kind) => this.hover(id, kind), fx,
      keys: true, nodeLabel: (id) => this.nodeLabel(id), onEscape: () => this.cancel(),
    });
    $("#board-desc").textContent = this.describeBoard();
    this.svg.dataset.ply = v.ply;
    this.svg.dataset.actor = v.actor || "";
    this.svg.dataset.decision = v.decision;
    const last = v.log[v.log.length - 1];
    const told = v.last ? v.last.text : (last ? this.words(last) : "");
    fill($("#ticker"), h("span", {}, told));
    $("#ticker").classList.toggle("other", !!(v.last && v.last.seat !== v.seat));
    this.announce(told);
    fill($("#prompt"), v.warning ? h("div", { class: "warn-line", id: "hq-warning" }, `⚠ ${v.warning}`) : null, ...this.promptContent());
    $("#prompt").classList.remove("error");  // set while a room waited and failed
    $("#prompt").classList.toggle("mine", !!v.legal);
    $("#prompt").classList.toggle("waiting", !v.legal && !v.over);
    this.renderButtons();
    this.limits.update(v);
    this.clocks.update(v);
    this.presence.update(v);
    this.renderRack();
    this.renderSide();
    this.renderCard();
    this.root.dataset.actor = v.actor || "";
    this.root.dataset.seat = v.seat;
    this.root.dataset.decision = v.decision;
    this.root.dataset.over = v.over ? "1" : "";
  }

  /** What a screen reader says of node `id`: what it is, what is on it, whether it is a target now. */
  nodeLabel(id) {
    const v = this.view;
    const n = this.terrain.nodes.find((x) => x.id === id);
    const stack = v.stacks[String(id)] || [];
    const top = stack[stack.length - 1];
    const parts = [n.kind === "hq" ? T.hq(n.side, n.side === v.seat) : T.base(id)];
    if (n.kind !== "hq") parts.push(top ? stackWords(stack, v.seat) : T.empty);
    if (n.power && !v.first_game) parts.push(meta().powers[n.power].name);
    if ((v.connected[v.seat] || []).includes(id)) parts.push(T.linked);
    if (this.choice.targets(v).includes(id)) parts.push(T.target);
    return parts.join(", ");
  }

  /** The board in words, for a screen reader: who holds which base, what is linked, regions and medals. */
  describeBoard() {
    const v = this.view;
    const held = (seat) => Object.entries(v.stacks).filter(([, st]) => st[st.length - 1][0] === seat).map(([id]) => id);
    const them = other(v.seat);
    const regions = Object.entries(v.claimed).map(([id, who]) => {
      const r = this.terrain.regions.find((x) => String(x.id) === id);
      return T.region(id, r.medals, who === v.seat ? t("play.youLower") : seatName(who));
    });
    const stacks = Object.entries(v.stacks).filter(([, st]) => st.length > 1)
      .map(([id, st]) => T.stack(id, st.length, st[st.length - 1][0] === v.seat ? t("play.yours") : seatName(st[st.length - 1][0]), troopName(st[st.length - 1][1])));
    return [T.yourHqBottom, T.holds(t("play.you"), held(v.seat), true), T.holds(seatName(them), held(them), false), ...stacks,
      T.linkedList(v.connected[v.seat] || []), ...regions,
      T.medals(v.medals[v.seat], v.objective[v.seat], v.medals[them], v.objective[them])].join(" ");
  }

  /** Escape: put the picked troop back (or close the open step), and go back to the rack. */
  cancel() {
    if (!this.choice.picked && this.choice.from === null) return;
    const code = this.choice.picked;
    this.choice.reset();
    this.hintNode = null;
    this.render();
    const tile = code && $(`#rack .rack-tile[data-troop="${code}"]`);
    if (tile) tile.focus();
  }

  renderStrip(box, seat) {
    const v = this.view;
    seatStrip(box, v, seat, { you: seat === v.seat && this.kind !== "hotseat",
      onCounter: (kind) => this.showCard(() => counterCard(kind, seat, this.view)), onDiscard: () => this.showDiscard() });
  }

  promptContent() {
    const v = this.view;
    const c = this.choice;
    if (c.picked && v.legal) {  // the picked troop's card lives here, in the prompt's box: the board keeps its size
      const t = troop(c.picked);
      return [h("b", {}, `${t.name} (${T.strength(t)}): `), c.targets(v).length ? T.picked(t.name) : T.nowhere,
        h("span", { class: "effect" }, ` ${t.effect}`)];
    }
    if (c.from !== null && v.legal) return [T.moveFrom(c.from)];
    const who = v.players[v.actor];
    if (v.actor && v.actor !== v.seat && who && who.kind === "bot") return [h("span", { class: "thinking" }, T.thinking(who.name))];
    return [v.prompt];
  }

  renderButtons() {
    const v = this.view;
    const out = choiceButtons(v, v.seat, (action) => this.send(action));
    // undo and the hint sit in the prompt's corner: the row of choices then fits one line on a phone
    fill($("#aux"),
      v.can_undo ? h("button", { class: "btn ghost", id: "btn-undo", "aria-label": T.undo, title: T.undo,
        onclick: () => this.out(() => this.sock.undo()) }, t("play.undoShort")) : null,  // a word: ↶ is the Catapult's mark
      v.legal && this.kind !== "online" ? h("button", { class: "btn ghost hint-btn", id: "btn-hint", "aria-label": T.hintBtn,
        onclick: () => this.out(() => this.sock.hint()) }, T.hintBtn) : null);
    if (v.over) out.push(h("button", { class: "btn primary", id: "btn-result", onclick: () => this.showEnd(true) }, t("play.result")));
    // both players may open a room to resume the same game: either can close theirs and type the other's code
    // (and a player whose friend is away may give the room up: the game stays saved, to resume with a new code;
    // past the friend's time limit the limit's own Close does that)
    if (v.waiting_peer || (v.game?.presence?.peer === "away" && !v.game?.silent)) out.push(h("button", { class: "btn", id: "btn-close-room", onclick: () => this.closeRoom() }, t("room.close")));
    out.push(...this.limits.buttons(v));  // the other player is past its time limit
    fill($("#buttons"), ...out);
  }

  async closeRoom() {
    try {
      const r = await fetch("/api/online/close", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ game: this.id, token: this.entry.tokens[this.seat] }) });
      if (!r.ok) this.toast((await r.json()).error);
    } catch { this.toast(t("app.noServerShort")); }
  }

  renderRack() {
    const v = this.view;
    const tiles = rackTiles(v, this.choice, { onPick: (code, k, ev) => this.pick(code, k, ev),
      onLaid: (code) => this.showCard(laidCard(code, v.seat)) });
    fill($("#rack"), ...tiles, tiles.length ? null : h("span", { class: "muted small" }, T.rackEmpty));
    fitRack($("#rack"));
  }

  renderSide() {
    const v = this.view;
    const side = $("#side-discard");
    fill(side, h("h3", {}, t("play.discardN", { n: v.discard.length })),
      h("div", { class: "tiles" }, v.discard.map((t) => h("button", { class: "mini-tile", onclick: () => this.showCard(troopCard(t[1], t[0])),
        "aria-label": `${seatName(t[0])} ${troop(t[1]).name}` }, tileSvg(t, 28)))));
    const logBox = $("#side-log");
    fill(logBox, h("h3", {}, t("play.gameLog")), this.logList(v.log.slice(-80)));
    const list = logBox.querySelector("ol");
    if (list) list.scrollTop = list.scrollHeight;
  }

  logList(entries) {
    return h("ol", { class: "log" }, entries.map((e) => h("li", { class: e.seat }, badge(e.seat), h("span", {}, this.words(e)))));
  }

  // a line about this page's own seat is read in the second person ("You place…"), written so by the
  // server; a hot-seat page shows both seats, so it keeps the colour names
  words(e) { return this.kind !== "hotseat" && e.you ? e.you : e.text; }

  // this.card: an element, or a function that builds it from the current view (cards about the board
  // and the counters), so that every new view redraws them and none shows a board that has changed
  // On a phone a card opens over the board (a picked troop's card is the prompt itself); on a
  // desktop in the side column.
  renderCard() {
    const pop = $("#card-pop");
    const card = typeof this.card === "function" ? this.card() : this.card;
    const picked = this.choice.picked && !isHint(card) ? troopCard(this.choice.picked, this.view.seat) : null;
    const side = picked || card || (this.hovered ? this.boardCard(this.hovered.id, this.hovered.kind) : null);
    fill($("#side-card"), side ? side.cloneNode(true) : null);
    if (!card || picked) { pop.classList.add("hidden"); fill(pop); return; }
    pop.classList.remove("hidden");
    fill(pop, card.cloneNode(true), h("button", { class: "btn ghost close", "aria-label": t("play.closeCard"), onclick: () => { this.card = null; this.render(); } }, "✕"));
  }

  showCard(card) { this.card = card; this.renderCard(); }

  boardCard(id, kind) {
    return kind === "node" ? nodeCard(this.terrain, this.view, id, this.view.seat) : regionCard(this.terrain, this.view, id);
  }

  // the side card follows the pointer, and keeps the last thing pointed at (rebuilt on every view)
  hover(id, kind) {
    if (id === null) return;
    this.hovered = { id, kind };
    fill($("#side-card"), this.boardCard(id, kind));
  }

  /** Say `text` to a screen reader (once: the same words twice are not repeated). */
  announce(text) {
    if (!text || text === this.announced) return;
    this.announced = text;
    $("#announce").textContent = text;
  }

  setOnline(online) {
    this.online = online;
    this.root.classList.toggle("offline", !online);
    $("#net-status").textContent = online ? "" : T.offline;
    if (!online) this.announce(T.offline);
  }

  /** Send something over the socket; a tap made while the connection is lost is said, never dropped silently. */
  out(sendIt) {
    if (this.online === false || sendIt() === null) this.toast(T.notSent);
  }

  toast(message) {
    const t = $("#toast");
    t.textContent = message;
    t.classList.remove("hidden");
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => t.classList.add("hidden"), 3500);
  }

  // -------------------------------------------------------------- input

  send(action) {
    $("#toast").classList.add("hidden");
    this.out(() => this.sock.act(action, this.view.ply));
  }

  // a pick made by keyboard (a click with no pointer) sends the focus on to the board's first target
  pick(code, k, ev) {
    const v = this.view;
    this.card = null;
    if (!this.choice.canPick(v)) {
      this.showCard(troopCard(code, v.seat));
      if (v.legal) this.toast(T.finishFirst);
      return;
    }
    this.hintNode = null;
    this.choice.pick(code, k);
    this.render();
    if (ev && ev.detail === 0 && this.choice.picked) focusBoard(this.svg);
  }

  // a tap does what the view says it means: send its action, say the rule that refuses it, open a
  // second step; otherwise it shows the card of what was tapped
  tap(id, kind) {
    const v = this.view;
    const meant = kind === "node" ? this.choice.tap(v, id) : null;
    if (meant && meant.send) { this.send(meant.send); return; }
    if (meant && meant.refused) { this.toast(meant.refused); return; }
    if (meant && meant.opened) { this.render(); return; }
    this.showCard(() => this.boardCard(id, kind));  // a tap that means nothing reads what was tapped
  }

  // -------------------------------------------------------------- overlays (overlays.js)

  cover(seat) { coverFor(this, seat); }
  uncover() { this.covered = false; const c = $("#cover"); if (c) c.remove(); }
  showEnd(again = false) { endScreen(this, again); }
  showMenu() { menuSheet(this); }
  showLog() { openSheet(t("play.gameLog"), this.logList(this.view ? this.view.log : [])); }
  showDiscard() { discardSheet(this); }
  showHandbook() { return handbookSheet(this); }
  showInvite() { return inviteSheet(this); }
}

// ---------------------------------------------------------------- sharing a room's code

// this machine's own app: a link to it reaches nobody else
const LOOPBACK = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** What the share sheet gets for room `code` on a page at `loc`: a link to this same site with the code in
 * its fragment (#join=, read by home.js), which browsers never send to the site's host; on a loopback page
 * (the desktop app) the code alone, with the way to type it. */
export function shareData(code, loc = location) {
  if (LOOPBACK.test(loc.hostname)) {
    return { title: "Toy Battle", text: t("room.shareCode", { code, online: t("home.online"), join: t("home.join") }) };
  }
  const base = loc.pathname.replace(/index\.html$/, "");  // the app's page, wherever the site is hosted
  return { title: "Toy Battle", text: t("room.shareText", { code }), url: `${loc.origin}${base}#join=${encodeURIComponent(code)}` };
}

// the status line says the result (aria-live), then clears, so a second copy is said again
function said(status, text) {
  status.textContent = text;
  clearTimeout(status.timer);
  status.timer = setTimeout(() => { status.textContent = ""; }, 4000);
}

async function copyCode(code, shown, status) {
  try {
    await navigator.clipboard.writeText(code);
    said(status, t("room.copied"));
    return;
  } catch { /* no clipboard API (a plain-http page) or refused: select the code instead */ }
  const range = document.createRange();
  range.selectNodeContents(shown);
  getSelection().removeAllRanges();
  getSelection().addRange(range);
  let copied = false;
  try { copied = document.execCommand("copy"); } catch { /* the selection stays, for the player to copy */ }
  said(status, t(copied ? "room.copied" : "room.selected"));
}

async function shareCode(code, shown, status) {
  try {
    await navigator.share(shareData(code));
  } catch (e) {
    if (e && e.name !== "AbortError") copyCode(code, shown, status);  // no share sheet after all: copy instead
  }
}

/** The copy button, always; the share button where the browser has a share sheet (phones, mostly). */
function shareButtons(code, shown) {
  const status = h("span", { class: "copy-status small", id: "copy-status", role: "status", "aria-live": "polite" });
  return h("div", { class: "row wrap center share-row" },
    h("button", { class: "btn", type: "button", id: "copy-code", onclick: () => copyCode(code, shown, status) }, t("room.copy")),
    h("button", { class: `btn primary${typeof navigator.share === "function" ? "" : " hidden"}`, type: "button", id: "share-code",
      onclick: () => shareCode(code, shown, status) }, t("room.share")),
    status);
}

/** The play screen of game `id` (null if this browser holds no key to it). */
export async function showGame(id) {
  await getMeta();
  const entry = saved.get(id);
  if (!entry || !entry.tokens || !Object.keys(entry.tokens).length) {
    fill(app(), h("main", { class: "panel lost" }, h("h2", {}, t("play.notHere")),
      h("p", {}, t("play.notHereWhy")),
      h("a", { class: "btn primary", href: "#/" }, t("nav.home"))));
    return null;
  }
  const screen = new PlayScreen(id, entry);
  if (offers("lan") && entry.kind === "lan" && entry.host && !entry.invited) {
    saved.put(id, { invited: true });
    setTimeout(() => !screen.closed && screen.showInvite(), 300);
  }
  return screen;
}
