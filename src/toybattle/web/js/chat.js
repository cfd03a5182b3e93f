// Chat between the two players of a two-device or online game (the view says `game.chat`): short
// lines and quick phrases, outside the game. Lines from the other side are shown as text (never HTML).
import { $, h, fill } from "./dom.js";
import { t, tn, seatName } from "./i18n.js";
import { openSheet } from "./sheet.js";

const MAX = 200; // characters of a line (the server refuses longer ones)

// the quick phrases' keys (the server knows the same ones, chat.PHRASES): a phrase is sent as its key
// and each page says it in its reader's language (chat.quick.<key>)
const PHRASES = ["luck", "played", "nice", "oops", "thanks", "gg"];

/** What a chat line says on this page: a quick phrase in this page's words, else the text as typed. */
const wordsOf = (line) => (line.phrase ? t(`chat.quick.${line.phrase}`) : line.text);

export class Chat {
  /** `screen` is the PlayScreen: its socket sends, its toast and announce tell. */
  constructor(screen) {
    this.screen = screen;
    this.lines = [];
    this.unread = 0;
    this.sent = new Set(); // the ids of this page's chat messages, so a refusal of one is said in the chat
    this.button = h("button", { class: "btn ghost hidden", id: "chat-btn", onclick: () => this.open() }, t("chat.button"));
  }

  /** Show the button only in games that have a chat. */
  offer(on) { this.button.classList.toggle("hidden", !on); }

  heard(lines) {
    const mine = this.screen.seat;
    for (const line of lines) {
      if (this.lines.some((x) => x.n === line.n)) continue;
      this.lines.push(line);
      if (line.seat !== mine) {
        this.unread += 1;
        this.screen.announce(t("chat.said", { who: seatName(line.seat), text: wordsOf(line) }));
      }
    }
    this.lines = this.lines.slice(-50);
    if ($("#chat-lines")) { this.unread = 0; this.drawLines(); }
    this.drawButton();
  }

  drawButton() {
    this.button.textContent = this.unread ? tn("chat.unread", this.unread) : t("chat.button");
    this.button.classList.toggle("unread", this.unread > 0);
  }

  drawLines() {
    const mine = this.screen.seat;
    const box = $("#chat-lines");
    fill(box, this.lines.length ? this.lines.map((l) => {
      const who = h("b", {}, l.seat === mine ? t("play.you") : seatName(l.seat));
      const text = h("span", { class: "chat-text" });
      text.textContent = wordsOf(l); // a line is text, whatever it holds
      return h("li", { class: `chat-line ${l.seat}${l.seat === mine ? " mine" : ""}` }, who, ": ", text);
    }) : h("li", { class: "muted" }, t("chat.none")));
    box.scrollTop = box.scrollHeight;
  }

  /** Send `line`: `{ text }` as typed (trimmed) or `{ phrase }`, a quick phrase's key. */
  say(line) {
    if (line.text !== undefined) line = { text: line.text.trim() };
    // a line the server would refuse is refused here, in this page's words, and never sent (it is never cut
    // short either); characters are counted as the server counts them (code points, not UTF-16 units)
    if (line.text !== undefined && [...line.text].length > MAX) {
      const why = t("chat.long", { n: MAX });
      if ($("#chat-status")) this.status(why); else this.screen.toast(why);
      return false;
    }
    if (!line.text && !line.phrase) return false;
    const id = this.screen.sock.chat(line);
    if (id === null) { this.screen.toast(t("play.notSent")); return false; }
    this.sent.add(id);
    if (this.sent.size > 20) this.sent.delete(this.sent.values().next().value);  // long settled
    this.status("");
    return true;
  }

  /** Whether the refusal `message` of message `id` was a chat line's; if so, say it under the chat. */
  refused(id, message) {
    if (!this.sent.delete(id)) return false;
    if ($("#chat-status")) this.status(message); else this.screen.toast(message);
    return true;
  }

  status(text) {
    const box = $("#chat-status");
    if (box) box.textContent = text;
  }

  open() {
    const input = h("input", { type: "text", id: "chat-input", maxlength: String(MAX), placeholder: t("chat.placeholder"),
      "aria-label": t("chat.placeholder"), autocomplete: "off" });
    const form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      if (this.say({ text: input.value })) input.value = "";
    } }, input, h("button", { class: "btn primary", type: "submit", id: "chat-send" }, t("chat.send")));
    const quick = h("div", { class: "row wrap chat-quick", role: "group", "aria-label": t("chat.quickLabel") },
      PHRASES.map((key) => h("button", { class: "btn small", type: "button", "data-phrase": key,
        onclick: () => this.say({ phrase: key }) }, t(`chat.quick.${key}`))));
    openSheet(t("chat.title"), h("div", { class: "chat" }, h("ul", { class: "chat-lines", id: "chat-lines", "aria-live": "polite",
      tabindex: "0", "aria-label": t("chat.title") }), quick, form,
      h("p", { class: "error", id: "chat-status", role: "alert" })));
    this.unread = 0;
    this.drawLines();
    this.drawButton();
    input.focus();
  }
}
