"""Online play in real browsers: two pages, each on its own `toybattle serve` process, meet by room
code through the local mailbox (set with the user setting $TOYBATTLE_RELAY) and play through the UI.

Every step waits for a state of a page (a code shown, a ply, an actor, an error line), never for time.
Screenshots go to test-artifacts/online/ (git-ignored).
"""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(Path(__file__).parents[1] / "app"))
from french import english_in

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "online"
CODE = re.compile(r"^\d+-[a-z]+-[a-z]+$")
# what both peers hold alike: the public state (each view adds only its own rack, laid tiles and log)
PUBLIC = ("ply", "turn", "actor", "decision", "first", "terrain", "stacks", "connected", "claimed", "medals",
          "objective", "counts", "discard", "over", "winner")
# Keeps every view the page's websocket receives in window.__tbViews, before the app handles it.
RECORD_VIEWS = """(() => { const Native = window.WebSocket; window.__tbViews = [];
  window.WebSocket = class extends Native { constructor(...args) { super(...args);
    this.addEventListener('message', (e) => { const m = JSON.parse(e.data);
      if (m.type === 'view' && !m.view.waiting) window.__tbViews.push(m.view); }); } }; })();"""
# [ply, seat to decide] once the page shows, at ply >= min, the last view it received, and in it a person
# decides (no random event is pending: a drawer's new tiles have their faces); an error toast ends the wait
SETTLED = """([min]) => { const p = document.querySelector('#play'), b = document.querySelector('#board');
  const t = document.querySelector('#toast'), v = window.__tbViews[window.__tbViews.length - 1];
  if (t && !t.classList.contains('hidden')) return ['toast', t.textContent];
  if (!p || !b || !v || !p.dataset.actor || Number(b.dataset.ply) !== v.ply || v.ply < min) return null;
  const rack = [...document.querySelectorAll('#rack .rack-tile')].map(e => e.dataset.troop).join();
  return rack === v.rack.concat(v.laid).join() && !rack.includes('?') ? [v.ply, p.dataset.actor] : null; }"""

# what a page shows and last received, to explain a wait that never ended
SHOWN = """() => { const v = window.__tbViews[window.__tbViews.length - 1], b = document.querySelector('#board');
  const q = (s) => { const e = document.querySelector(s); return e ? e.textContent.slice(0, 200) : null; };
  return JSON.stringify({views: window.__tbViews.length, last: v && {ply: v.ply, actor: v.actor, decision: v.decision,
    legal: !!v.legal, rack: v.rack, laid: v.laid, game: v.game}, board_ply: b && b.dataset.ply,
    actor: (document.querySelector('#play') || {dataset: {}}).dataset.actor, prompt: q('#prompt'), toast: q('#toast'),
    card: q('#card-pop'), rack: [...document.querySelectorAll('#rack .rack-tile')].map(e => e.dataset.troop)}); }"""


@pytest.fixture
def serve(tmp_path):
    """serve(name, relay) -> base URL of a new `toybattle serve` process whose rooms use ``relay``. Its output
    goes to ``<name>.log``: a pipe nobody reads fills after some 64 KB and then blocks the app mid-game."""
    procs: list[subprocess.Popen] = []

    def start(name: str, relay: str, port: int = 0) -> str:
        env = dict(os.environ, TOYBATTLE_RELAY=relay, PYTHONUNBUFFERED="1")
        log = tmp_path / f"{name}.log"
        with open(log, "w") as out:
            procs.append(subprocess.Popen([sys.executable, "-m", "toybattle", "serve", "--no-browser", "--port",
                                           str(port), "--db", str(tmp_path / f"{name}.db")],
                                          stdout=out, stderr=subprocess.STDOUT, text=True, env=env))
        deadline = time.time() + 30
        while procs[-1].poll() is None and time.time() < deadline:
            m = re.search(r"(http://127\.0\.0\.1:\d+)/", log.read_text())
            if m:
                return m.group(1)
            time.sleep(0.05)
        raise AssertionError(f"the app {name} did not start: {log.read_text()[-2000:]}")
    start.procs = procs
    start.dir = tmp_path
    yield start
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait(10)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


class Page:
    """A browser page on one app, with the views its websocket received."""

    def __init__(self, browser, name: str, logs: Path | None = None):
        self.name = name
        self.app_log = logs / f"{name}.log" if logs else None  # the output of the app of the same name
        self.ctx = browser.new_context(viewport={"width": 1100, "height": 800})
        self.ctx.set_default_timeout(20000)
        self.page = self.ctx.new_page()
        self.errors: list[str] = []
        self.page.add_init_script(RECORD_VIEWS)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{self.name}-{name}.png"), animations="disabled")

    def online_form(self, base: str, room: str, relay: str | None = None) -> None:
        """The home form set for an online room; ``relay`` typed in the mailbox field if given."""
        p = self.page
        p.goto(base + "/")
        p.wait_for_selector("#newgame")
        p.locator("#newgame input[name=kind][value=online]").check(force=True)
        p.locator(f"#newgame input[name=room][value={room}]").check(force=True)
        if relay is not None:
            p.fill("#relay", relay)

    def visible_fields(self) -> list[str]:
        """The labels of the home form's fields a person can see."""
        return self.page.eval_on_selector_all(
            "#newgame .field", "fs => fs.filter(f => f.offsetParent).map(f => f.querySelector('.label').textContent)")

    def create_room(self, base: str) -> str:
        self.online_form(base, "host")
        self.page.click("#start")
        code = self.page.locator("#room-code-shown")
        code.wait_for()
        return code.inner_text().strip()

    def join_room(self, base: str, code: str) -> None:
        self.online_form(base, "join")
        self.page.fill("#room-code", code)
        self.page.click("#start")

    def form_error(self) -> str:
        """The one line the home form shows once the request is answered."""
        self.page.wait_for_function("() => { const e = document.querySelector('#form-error');"
                                    " return e && e.textContent && !e.textContent.endsWith('…'); }")
        return self.page.locator("#form-error").inner_text()

    def settled(self, min_ply: int) -> tuple[int, str]:
        """Wait until the page shows ply >= ``min_ply`` with a person to decide; (ply, seat)."""
        try:
            got = self.page.wait_for_function(SETTLED, arg=[min_ply]).json_value()
        except PlaywrightTimeout:
            self.shot("unsettled")
            raise AssertionError(f"{self.name} never showed ply >= {min_ply} with a person to decide:\n"
                                 f"{self.page.evaluate(SHOWN)}\n--- its app's log\n{self.log()}") from None
        assert got[0] != "toast", f"{self.name} shows an error: {got[1]}"
        return got[0], got[1]

    def log(self) -> str:
        """The end of the output of the app this page talks to."""
        path = self.app_log
        return path.read_text()[-3000:] if path and path.exists() else "(no log)"

    def view(self) -> dict:
        """The last view the page's websocket received (the one it shows once settled)."""
        return self.page.evaluate("window.__tbViews[window.__tbViews.length - 1]")

    def board(self) -> list:
        """What the board shows, base by base: owner and code of the top tile, stack height; claims."""
        return self.page.evaluate("""() => [
          [...document.querySelectorAll('#board g.node')].map(g => { const t = g.querySelector('.tile.top');
            const d = g.querySelector('.depth text');
            return [g.dataset.node, t ? t.getAttribute('class') : '', t ? t.textContent : '',
                    d ? d.textContent : '1']; }),
          [...document.querySelectorAll('#board g.region')].map(g => [g.dataset.region, g.getAttribute('class')])]""")

    def rack(self) -> list[tuple[str, str]]:
        """The tiles on the page's rack: (code, colour class of the drawn tile)."""
        return self.page.eval_on_selector_all(
            "#rack .rack-tile", "ts => ts.map(t => [t.dataset.troop, t.querySelector('g.tile').getAttribute('class')])")




def settle(a: Page, b: Page, min_ply: int) -> tuple[int, str]:
    """Both pages show the same ply >= ``min_ply`` with the same seat to decide."""
    for _ in range(50):
        sa, sb = a.settled(min_ply), b.settled(min_ply)
        if sa == sb:
            return sa
        min_ply = max(sa[0], sb[0]) + (sa[0] == sb[0])
    raise AssertionError(f"the pages disagree: {sa} vs {sb}")


def targets(page) -> list[tuple[int, float]]:
    """Highlighted bases and their height on screen (lower = nearer the top)."""
    return page.eval_on_selector_all("#board g.node.target",
                                     "gs => gs.map(g => [Number(g.dataset.node), g.getBoundingClientRect().y])")


def tap_base(page, node: int) -> None:
    page.locator(f'#board g.node[data-node="{node}"] circle.hit').click()


def decide(p: Page, prefer_draw: bool) -> str:
    """One decision through the UI on the page whose turn it is: draw, or pick a rack troop and tap
    the highlighted base nearest the enemy H.Q.; effects are answered with their own buttons."""
    page = p.page
    if page.locator("#btn-use").count():
        page.click("#btn-use")
        return "use"
    if page.locator("#buttons [data-action^='recover:']").count():
        page.locator("#buttons [data-action^='recover:']").first.click()
        return "recover"
    if targets(page):  # Jumbo, tower recall, bridge shove (the first tap picks the troop to move)
        before = page.eval_on_selector("#board", "b => b.dataset.ply")
        tap_base(page, min(targets(page), key=lambda t: t[1])[0])
        if page.eval_on_selector("#play", "p => p.dataset.decision") == "jungle_shove" and \
                page.eval_on_selector("#board", "b => b.dataset.ply") == before:
            page.wait_for_selector("#board g.node.target")
            tap_base(page, min(targets(page), key=lambda t: t[1])[0])
        return "effect"
    tiles = page.locator("#rack .rack-tile:not(.stuck):not(.laid)")
    if page.locator("#btn-draw").count() and (prefer_draw or not tiles.count()):
        page.click("#btn-draw")
        return "draw"
    if tiles.count():
        tiles.first.click()
        page.wait_for_selector("#board g.node.target")
        tap_base(page, min(targets(page), key=lambda t: t[1])[0])
        return "place"
    page.click("#btn-skip")
    return "skip"


def same_public_state(a: Page, b: Page, ply: int) -> None:
    va, vb = a.view(), b.view()
    assert va["ply"] == vb["ply"] == ply
    assert {k: va.get(k) for k in PUBLIC} == {k: vb.get(k) for k in PUBLIC}
    assert a.board() == b.board()
    same_log(a, b)


def same_log(a: Page, b: Page) -> None:
    """Both logs tell the same actions; only a drawer's own lines name the tiles it drew (and the
    tank's victim reads which of its tiles was laid down). Each page lists its log."""
    la, lb = a.view()["log"], b.view()["log"]
    assert [(e["n"], e["seat"]) for e in la] == [(e["n"], e["seat"]) for e in lb]
    for ea, eb in zip(la, lb, strict=True):
        if ea["text"].startswith("The tank lays") and eb["text"].startswith("The tank lays"):
            continue
        own, other = (ea, eb) if ea["seat"] == a.view()["seat"] else (eb, ea)
        assert not re.search(r" draws \d+ tiles? \(", other["text"]), other  # never the other's faces
        assert own["text"] == other["text"] or re.fullmatch(re.escape(other["text"]) + r" \([A-Z][^()]*\)",
                                                            own["text"]), (own, other)
    for p, entries in ((a, la), (b, lb)):
        assert p.page.locator("#side-log li").count() == min(len(entries), 80)


def prompt_clear(p: Page) -> None:
    """The prompt sits in the dock's flow: it covers neither the page's own counters nor its buttons."""
    assert p.page.evaluate("""() => { const r = (s) => document.querySelector(s).getBoundingClientRect();
      const over = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const pr = r('#prompt');
      return getComputedStyle(document.querySelector('#prompt')).position === 'static'
        && !over(pr, r('#me')) && !over(pr, r('#buttons')) && !over(pr, r('#rack')); }""")


def own_rack_only(p: Page, other: Page) -> None:
    """A page shows its own rack, exactly as its view has it, in its own colour; of the other seat's
    rack it knows only the count and the tiles the rules showed arriving there."""
    v, theirs = p.view(), other.view()
    me, them = v["seat"], theirs["seat"]
    shown = p.rack()
    assert [code for code, _ in shown] == v["rack"] + v["laid"]
    assert all(cls == f"tile {me}" for _, cls in shown), shown
    assert p.page.locator(f"#rack g.tile.{them}, #me g.tile.{them}").count() == 0
    assert p.page.locator("#opp .c-rack .c-val > span").inner_text() == str(len(theirs["rack"]) + len(theirs["laid"]))
    hidden = list(theirs["rack"] + theirs["laid"])
    for code in v["seen"]:  # a sub-multiset of the other seat's tiles
        hidden.remove(code)


def test_two_browsers_on_two_apps_meet_by_room_code_and_play(serve, mailbox, browser):
    alice_url, bob_url, carol_url = serve("alice", mailbox), serve("bob", mailbox), serve("carol", mailbox)
    down = f"ws://127.0.0.1:{closed_port()}/v1"  # a mailbox that is down
    a, b, c = (Page(browser, n, serve.dir) for n in ("alice", "bob", "carol"))

    # the mailbox typed in the form is the one used, and remembered; a mailbox that is down: one line, no game
    c.online_form(carol_url, "host", relay=down)
    assert c.visible_fields() == ["Play against", "Room", "Mailbox", "Terrain", "Mode", "Your colour", "Clock"]
    c.page.click("#start")
    err = c.form_error()
    assert err == f"cannot reach the mailbox at {down}" or err.startswith(f"cannot reach the mailbox at {down} ")
    assert "\n" not in err
    c.online_form(carol_url, "join")
    assert c.page.input_value("#relay") == down
    assert c.visible_fields() == ["Play against", "Room", "Mailbox"]  # the host decides the game
    c.page.fill("#room-code", "7-guitarist-revenge")
    c.page.click("#start")
    assert c.form_error() == err
    c.shot("mailbox-down")
    c.online_form(carol_url, "host", relay="mailbox.example")
    c.page.click("#start")
    assert c.form_error().startswith("a mailbox address is ws:// or wss://")

    # Alice opens a room; Bob mistypes it twice
    code = a.create_room(alice_url)
    assert CODE.match(code), code
    a.shot("room-code")
    number, words = code.split("-", 1)
    b.join_room(bob_url, f"{int(number) + 1000}-{words}")
    err = b.form_error()
    assert err == f"no room {int(number) + 1000}-{words} is open (a wrong or expired code?)"
    b.join_room(bob_url, f"{number}-{'-'.join(reversed(words.split('-')))}")
    err = b.form_error()
    assert err.startswith(f"wrong code {number}-") and "the room is now closed" in err and "\n" not in err
    b.shot("wrong-code")
    closed = a.page.locator("#waiting .error")
    closed.wait_for()
    why = f"someone typed a wrong code for room {code}; the room is closed: start a new one"
    assert closed.inner_text() == why
    assert a.page.locator("#prompt").inner_text() == why  # no longer "waiting for your friend"
    a.shot("room-closed")

    # a new room in one tap, with the same settings; the right code
    a.page.click("#btn-new-room")
    a.page.wait_for_function("([old]) => { const c = document.querySelector('#room-code-shown');"
                             " return c && c.textContent && c.textContent !== old"
                             " && !document.querySelector('#room-status'); }",
                             arg=[code])
    code = a.page.locator("#room-code-shown").inner_text().strip()
    assert CODE.match(code) and a.page.locator("#prompt").inner_text() == "Waiting for your friend to join the room…"
    b.join_room(bob_url, code)
    b.page.wait_for_selector("#play")
    ply, actor = settle(a, b, 0)
    a.shot("start")
    seats = {p.view()["seat"]: p for p in (a, b)}
    assert set(seats) == {"blue", "red"}

    done: dict[str, list[str]] = {"blue": [], "red": []}
    for n in range(14):
        same_public_state(a, b, ply)
        own_rack_only(a, b)
        own_rack_only(b, a)
        p = seats[actor]
        assert p.view()["legal"] and not seats["red" if actor == "blue" else "blue"].view().get("legal")
        prompt_clear(a)
        prompt_clear(b)
        acts = done[actor]  # place first, then draw as soon as the rules allow, then mostly place
        acts.append(decide(p, prefer_draw=bool(acts) and ("draw" not in acts or len(acts) % 3 == 1)))
        if n == 5:
            a.shot("mid")
            b.shot("mid")
        ply, actor = settle(a, b, ply + 1)
    same_public_state(a, b, ply)
    assert len(a.view()["log"]) >= 14 and any(" draws " in e["text"] and "(" in e["text"] for e in a.view()["log"])
    a.shot("end")
    b.shot("end")
    for seat, acts in done.items():
        assert "place" in acts and "draw" in acts, (seat, acts)
    assert a.errors == b.errors == c.errors == []


def test_a_cheating_peer_forfeits_and_the_page_says_why(serve, mailbox, browser, tmp_path):
    """The other player is a `toybattle join` process that places a tile from a slot it never drew:
    the page's game ends with the same one-line reason the cheater's process prints."""
    a = Page(browser, "honest", serve.dir)
    code = a.create_room(serve("honest", mailbox))
    cheater = subprocess.Popen(
        [sys.executable, str(Path(__file__).parent / "peer.py"), "--cheat", "never_drawn", "--", "join", code,
         "--bot", "random", "--seed", "cheat", "--json", "--move-limit", "20", "--reply-limit", "20"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, TOYBATTLE_DB=str(tmp_path / "cheater.db"), TOYBATTLE_RELAY=mailbox))
    try:
        ply, acts = 0, []
        for _ in range(80):
            got = a.page.wait_for_function(f"([min]) => document.querySelector('#endscreen') ? ['end', ''] : "
                                           f"({SETTLED})([min])", arg=[ply]).json_value()
            if got[0] == "end":
                break
            assert got[0] != "toast", got[1]
            ply, actor = got
            if actor == a.view()["seat"]:
                acts.append(decide(a, prefer_draw=len(acts) % 3 == 1))
            ply += 1
        out, err = cheater.communicate(timeout=30)
    finally:
        if cheater.poll() is None:
            cheater.kill()
            cheater.wait()
    result = json.loads(out.splitlines()[-1])
    assert result["reason"] == "forfeit" and "never drawn" in result["detail"], (out, err)
    reason = a.page.locator("#end-reason").inner_text()
    winner = a.view()["seat"]
    assert reason == f"{winner.capitalize()} wins: {result['detail']}."
    assert a.page.locator("#end-title").inner_text() == "You win!"
    # an online game offers neither a rematch nor a replay: the end screen does not pretend it does
    assert a.page.locator("#btn-rematch, #btn-replay").count() == 0
    assert a.page.locator("#btn-look").count() == 1
    assert a.page.locator("#buttons [data-action]").count() == 0  # nothing left to play
    a.shot("forfeit")
    # the same page in French says why in French (the record keeps the protocol's English words)
    a.page.evaluate("localStorage.setItem('tb.lang', 'fr')")
    a.page.reload()
    a.page.wait_for_selector("#endscreen")
    said = a.page.locator("#end-reason").inner_text()
    assert "n'a jamais été piochée" in said and "never drawn" not in said and "forfeits" not in said, said
    assert said.startswith("Rouge gagne : bleu perd par forfait : ") or said.startswith("Bleu gagne : rouge perd"), said
    assert not english_in(said), said
    assert a.errors == []


def test_a_stored_online_game_resumes_in_the_app_after_both_apps_restart(serve, mailbox, browser):
    """Both apps stop mid-game; started again (same port, so the pages keep their games), each goes back
    into the game's room by itself, with no code, and the game goes on as it was. Then one app stops
    for good: the other, alone in the room, closes it and reopens the game with a new code, which the
    first types once it is back."""
    ports = [closed_port(), closed_port()]
    urls = [serve(n, mailbox, port) for n, port in zip(("alice", "bob"), ports, strict=True)]
    a, b = Page(browser, "alice", serve.dir), Page(browser, "bob", serve.dir)
    first = a.create_room(urls[0])
    b.join_room(urls[1], first)
    ply, actor = settle(a, b, 0)
    for n in range(4):
        decide(a if actor == a.view()["seat"] else b, prefer_draw=n % 2 == 0)
        ply, actor = settle(a, b, ply + 1)
    board = a.board()
    for p in serve.procs:
        p.terminate()
        p.wait(10)
    urls = [serve(n, mailbox, port) for n, port in zip(("alice", "bob"), ports, strict=True)]
    for p, url in ((a, urls[0]), (b, urls[1])):
        p.page.goto(url + "/")
        p.page.click(".game-list [data-game]")
    assert settle(a, b, ply) == (ply, actor)
    assert a.board() == board == b.board()
    decide(a if actor == a.view()["seat"] else b, prefer_draw=False)
    ply, actor = settle(a, b, ply + 1)
    board = a.board()
    for p in serve.procs:
        p.terminate()
        p.wait(10)
    urls[0] = serve("alice", mailbox, ports[0])
    a.page.goto(urls[0] + "/")
    a.page.click(".game-list [data-game]")
    # alone in the room ("Rejoining the room…", or playing on bob's last hello there until he shows as away):
    # "Close this room" gives it up (the game stays saved); then it is opened again with a new code
    a.page.click("#btn-close-room", timeout=60_000)
    a.page.wait_for_function("() => /closed the room/.test(document.querySelector('#prompt').textContent)")
    a.page.goto(urls[0] + "/")
    a.page.click(".game-list button[data-game]")
    a.page.click("#btn-resume-host")
    room_shown = ("() => { const p = document.querySelector('#prompt');"
                  " return p && /Room code \\d+-/.test(p.textContent); }")
    a.page.wait_for_function(room_shown)
    code = re.search(r"Room code (\S+):", a.page.locator("#prompt").inner_text()).group(1)
    assert CODE.match(code) and code != first
    urls[1] = serve("bob", mailbox, ports[1])
    b.page.goto(urls[1] + "/")
    b.page.click(".game-list [data-game]")
    # alone in the old room (it may have taken alice's last hello there for her coming back, and then sees
    # her away): give it up, then join the new one
    b.page.click("#btn-close-room", timeout=60_000)
    b.page.wait_for_function("() => /closed the room/.test(document.querySelector('#prompt').textContent)")
    b.page.goto(urls[1] + "/")
    b.page.click(".game-list button[data-game]")
    # no such room (nameplate 999: the session's mailbox hands out small numbers, and 7 may be a's room):
    # one line, and the game stays stored
    b.page.fill("#resume-code", "999-guitarist-revenge")
    b.page.click("#btn-resume-join")
    b.page.wait_for_function("() => { const e = document.querySelector('#resume-error');"
                             " return e && e.textContent && !e.textContent.endsWith('…'); }")
    assert "\n" not in b.page.locator("#resume-error").inner_text()
    b.page.fill("#resume-code", code)
    b.page.click("#btn-resume-join")
    assert settle(a, b, ply) == (ply, actor)
    assert a.board() == board == b.board()
    decide(a if actor == a.view()["seat"] else b, prefer_draw=False)
    ply, actor = settle(a, b, ply + 1)
    same_public_state(a, b, ply)
    for p in (a, b):
        p.shot("resumed")
        assert not p.errors, p.errors


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_phone_shows_the_room_code_on_one_line_with_a_copy_button(serve, mailbox, browser, locale):
    """Issue 25: at 360x640 the code a friend must type fits one line, inside the screen, with Copy beside it."""
    url = serve("alice", mailbox)
    ctx = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, locale=locale)
    ctx.set_default_timeout(20000)
    page = ctx.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#newgame")
    page.locator("#newgame input[name=kind][value=online]").check(force=True)
    page.locator("#newgame input[name=room][value=host]").check(force=True)
    page.click("#start")
    code = page.locator("#room-code-shown")
    code.wait_for()
    box = code.bounding_box()
    line = code.evaluate("c => parseFloat(getComputedStyle(c).lineHeight)"
                         " || 1.2 * parseFloat(getComputedStyle(c).fontSize)")
    assert box and box["height"] < 1.6 * line  # one line
    assert code.evaluate("c => c.scrollWidth <= c.clientWidth + 1")  # whole, not scrolled
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    copy = page.locator("#copy-code")
    assert copy.is_visible()
    b = copy.bounding_box()
    assert b and b["y"] + b["height"] <= 640 and b["x"] + b["width"] <= 360
    ctx.close()
