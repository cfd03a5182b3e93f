// Short sounds for what happens on the board (a placement, a cover, a medal, a capture, the end),
// made in the page with the Web Audio API: no sound file is downloaded. Muting is remembered in
// this browser (localStorage "tb.sound"); while muted no audio code runs at all.
const KEY = "tb.sound";

// each sound: notes of [frequency Hz, start s, length s], a wave shape and a loudness
const SOUNDS = {
  place: { wave: "triangle", gain: 0.18, notes: [[520, 0, 0.09]] },
  cover: { wave: "square", gain: 0.08, notes: [[330, 0, 0.07], [247, 0.06, 0.1]] },
  medal: { wave: "sine", gain: 0.2, notes: [[784, 0, 0.1], [1047, 0.09, 0.16]] },
  capture: { wave: "sawtooth", gain: 0.07, notes: [[220, 0, 0.08], [165, 0.07, 0.14]] },
  win: { wave: "triangle", gain: 0.2, notes: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.3]] },
  lose: { wave: "triangle", gain: 0.18, notes: [[392, 0, 0.18], [330, 0.18, 0.18], [262, 0.36, 0.35]] },
};

let ctx = null; // one AudioContext, made on the first sound (browsers allow it after a tap)

export function muted() {
  try { return localStorage.getItem(KEY) === "off"; } catch { return true; }
}

export function setMuted(off) {
  try { localStorage.setItem(KEY, off ? "off" : "on"); } catch { /* private mode: not remembered */ }
}

/** Play sound `name` (one of SOUNDS), unless muted or the browser has no Web Audio. */
export function play(name) {
  if (muted()) return false;
  const s = SOUNDS[name];
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!s || !Ctx) return false;
  ctx ??= new Ctx();
  if (ctx.state === "suspended") ctx.resume();
  const t0 = ctx.currentTime + 0.01;
  for (const [freq, start, length] of s.notes) {
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = s.wave;
    osc.frequency.value = freq;
    amp.gain.setValueAtTime(s.gain, t0 + start);
    amp.gain.exponentialRampToValueAtTime(0.001, t0 + start + length); // a short fade: no click
    osc.connect(amp).connect(ctx.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length + 0.02);
  }
  return true;
}

/** The sounds of the log lines' `fx` that just happened; `before` is the stacks before them
 * (a placement on a base that held a stack is a cover); `mine` the viewer's seat. */
export function soundsOf(lines, before, mine) {
  const out = [];
  for (const { fx = {}, seat } of lines) {
    if (fx.place !== undefined) out.push((before[String(fx.place)] || []).length ? "cover" : "place");
    else if (fx.remove !== undefined || fx.discard) out.push("capture");
    else if (fx.move) out.push("place");
    if (fx.region !== undefined) out.push("medal");
    if (fx.over) out.push(seat === mine ? "win" : "lose");
  }
  return out;
}
