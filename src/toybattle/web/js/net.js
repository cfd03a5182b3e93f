// The browser side of the websocket protocol (docs/protocol.md): one socket, bound to one seat,
// re-bound after every reconnect. Callbacks: onView(view), onError(message, id), onRematch(msg),
// onStatus("online" | "offline").

export class GameSocket {
  constructor({ game, token, onView, onError, onRematch, onStatus, onOk, onHint }) {
    Object.assign(this, { game, token, onView, onError, onRematch, onStatus, onOk, onHint });
    this.nextId = 1;
    this.closed = false;
    this.retry = 0;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.send({ type: "hello", game: this.game, token: this.token });
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "view") this.onView && this.onView(msg.view);
      else if (msg.type === "welcome") this.onStatus && this.onStatus("online");
      else if (msg.type === "error") this.onError && this.onError(msg.message, msg.id);
      else if (msg.type === "rematch") this.onRematch && this.onRematch(msg);
      else if (msg.type === "ok") this.onOk && this.onOk(msg.id);
      else if (msg.type === "hint") this.onHint && this.onHint(msg);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus && this.onStatus("offline");
      const wait = Math.min(4000, 250 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.open(), wait);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      msg.id = this.nextId++;
      this.ws.send(JSON.stringify(msg));
      return msg.id;
    }
    return null;
  }

  /** Bind this socket to another seat of the same game (hot-seat hand-over). */
  rebind(token) {
    this.token = token;
    return this.send({ type: "hello", game: this.game, token });
  }

  act(action, ply) { return this.send({ type: "act", action, ply }); }
  undo() { return this.send({ type: "undo" }); }
  concede() { return this.send({ type: "concede" }); }
  hint() { return this.send({ type: "hint" }); }
  rematch() { return this.send({ type: "rematch" }); }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
