// Chat between the two players of a two-device or online game (the view says `game.chat`): short
// lines and quick phrases, outside the game. Lines from the other side are shown as text (never HTML).
import { $, h, fill, cap } from "./dom.js";
import { openSheet } from "./sheet.js";

const MAX = 200; // characters of a line (the server refuses longer ones)

// the chat's own words (kept together, ready for a catalogue)
const T = {
  button: "Chat",
  title: "Chat",
  unread: (n) => `Chat (${n} new)`,
  placeholder: "Say something…",
  send: "Send",
  none: "No messages yet. Be nice!",
  you: "You",
  said: (who, text) => `${who}: ${text}`,
  quick: ["Good luck!", "Well played!", "Nice move!", "Oops!", "Thanks!", "Good game!"],
  quickLabel: "Quick phrases",
  notSent: "Not sent: the connection is lost.",
};

export class Chat {
  /** `screen` is the PlayScreen: its socket sends, its toast and announce tell. */
  constructor(screen) {
    this.screen = screen;
    this.lines = [];
    this.unread = 0;
    this.button = h("button", { class: "btn ghost hidden", id: "chat-btn", "aria-label": T.button, onclick: () => this.open() }, T.button);
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
        this.screen.announce(T.said(cap(line.seat), line.text));
      }
    }
    this.lines = this.lines.slice(-50);
    if ($("#chat-lines")) { this.unread = 0; this.drawLines(); }
    this.drawButton();
  }

  drawButton() {
    this.button.textContent = this.unread ? T.unread(this.unread) : T.button;
    this.button.classList.toggle("unread", this.unread > 0);
  }

  drawLines() {
    const mine = this.screen.seat;
    const box = $("#chat-lines");
    fill(box, this.lines.length ? this.lines.map((l) => {
      const who = h("b", {}, l.seat === mine ? T.you : cap(l.seat));
      const text = h("span", { class: "chat-text" });
      text.textContent = l.text; // a line is text, whatever it holds
      return h("li", { class: `chat-line ${l.seat}${l.seat === mine ? " mine" : ""}` }, who, ": ", text);
    }) : h("li", { class: "muted" }, T.none));
    box.scrollTop = box.scrollHeight;
  }

  say(text) {
    const line = text.trim().slice(0, MAX);
    if (!line) return false;
    if (this.screen.sock.chat(line) === null) { this.screen.toast(T.notSent); return false; }
    return true;
  }

  open() {
    const input = h("input", { type: "text", id: "chat-input", maxlength: String(MAX), placeholder: T.placeholder,
      "aria-label": T.placeholder, autocomplete: "off" });
    const form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      if (this.say(input.value)) input.value = "";
    } }, input, h("button", { class: "btn primary", type: "submit", id: "chat-send" }, T.send));
    const quick = h("div", { class: "row wrap chat-quick", role: "group", "aria-label": T.quickLabel },
      T.quick.map((q) => h("button", { class: "btn small", type: "button", onclick: () => this.say(q) }, q)));
    openSheet(T.title, h("div", { class: "chat" }, h("ul", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" }), quick, form));
    this.unread = 0;
    this.drawLines();
    this.drawButton();
    input.focus();
  }
}
