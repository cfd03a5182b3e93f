"""Presence in the online game page (issue 23): one line under the other player's strip says, in words,
whether they are connected, away (since m:ss, counting up) or back, at 360x640 on a touch phone and in
French; the other player's countdown and claim button show with it. The other player is a CLI bot
(`toybattle join --bot random`, slowed with peer.py's ``--think``), killed with SIGKILL mid-game and, in
the first test, started again with ``join --resume`` (back in the room with no code)."""
from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from .test_browser import ARTIFACTS, serve  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from test_app_browser import ME_TURN, play_one  # noqa: E402 (the browser tests' helpers)

PEER = str(Path(__file__).parent / "peer.py")
SMALL_PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True,
               "device_scale_factor": 2}
THINK = "4"  # seconds the CLI bot takes over each decision: its turns last long enough to be cut
# "theirs" once the other player is due (its countdown shows), "mine" when this page decides
DUE = f"""() => {{ const c = document.querySelector('#countdown'), p = document.querySelector('#play');
  if (c && !c.classList.contains('hidden') && p.dataset.actor !== p.dataset.seat) return 'theirs';
  return ({ME_TURN}) && 'mine'; }}"""
# where an element stands and how it reads: in the viewport, nothing clipped, on top where it shows
SEEN = """(sel) => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { text: e.innerText, left: r.left, top: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height,
           vw: innerWidth, vh: innerHeight, font: parseFloat(cs.fontSize), shown: cs.display !== 'none' && r.height > 0,
           clipped: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1,
           onTop: !!top && (e === top || e.contains(top)) }; }"""


def seen(page, selector: str) -> dict:
    box = page.evaluate(SEEN, selector)
    assert box is not None, f"no {selector}"
    return box


def in_view(box: dict) -> bool:
    return (box["shown"] and box["onTop"] and not box["clipped"] and box["left"] >= 0 and box["top"] >= 0
            and box["right"] <= box["vw"] and box["bottom"] <= box["vh"])


def clock(text: str) -> int:
    """Seconds of the m:ss in ``text``."""
    m = re.search(r"(\d+):(\d\d)\)", text)
    assert m, text
    return int(m.group(1)) * 60 + int(m.group(2))


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), animations="disabled")


def bot(args: list[str], db: Path, log: Path) -> subprocess.Popen:
    """The other player: a slowed CLI bot, its output kept in ``log``."""
    out = open(log, "a")  # noqa: SIM115 (closed with the process's end)
    return subprocess.Popen([sys.executable, PEER, "--think", THINK, "--", *args, "--bot", "random", "--json"],
                            env=dict(os.environ, TOYBATTLE_DB=str(db), PYTHONUNBUFFERED="1"),
                            stdout=out, stderr=subprocess.STDOUT)


class Game:
    """The app hosts a room, the CLI bot joins it; a 360x640 touch page plays the app's seat (blue)."""

    def __init__(self, serve, mailbox, browser, tmp_path, limits: dict | None = None,  # noqa: F811
                 locale: str = "en-US"):
        self.tmp = tmp_path
        base = serve("app", mailbox)
        room = httpx.post(f"{base}/api/online/host", json={"relay": mailbox, **(limits or {})}, timeout=30).json()
        assert "error" not in room, room
        assert room["seat"] == "blue"
        self.peer = bot(["join", room["code"], "--relay", mailbox], tmp_path / "bot.db", tmp_path / "bot.log")
        self.ctx = browser.new_context(bypass_csp=True, locale=locale, **SMALL_PHONE)
        self.ctx.set_default_timeout(30000)
        self.page = self.ctx.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        entry = {room["game"]: {"kind": "online", "tokens": {room["seat"]: room["token"]}, "host": True}}
        self.page.add_init_script(f"localStorage.setItem('tb.games', {json.dumps(json.dumps(entry))});")
        self.page.goto(f"{base}/#/game/{room['game']}")

    def play_until_theirs(self, mine: int = 2) -> None:
        """Play this page's decisions until it has made ``mine`` and the bot is due (its countdown runs)."""
        rng = random.Random(23)
        made = 0
        for _ in range(60):
            state = self.page.wait_for_function(DUE, timeout=60000).json_value()
            if state == "theirs" and made >= mine:
                return
            if state == "mine":
                assert self.page.eval_on_selector("#play", "p => p.dataset.over") != "1", "the game ended too soon"
                play_one(self.page, rng)
                made += 1
            else:
                self.page.wait_for_function(f"() => ({ME_TURN})", timeout=60000)
        raise AssertionError("the bot never became due")

    def kill_peer(self) -> None:
        self.peer.kill()  # SIGKILL: no goodbye, its heartbeats just stop
        self.peer.wait(10)
        assert self.peer.returncode == -9

    def presence(self) -> str:
        return self.page.inner_text("#presence .presence-text")

    def wait_presence(self, pattern: str, timeout: float = 45) -> str:
        self.page.wait_for_function(
            "([re]) => { const e = document.querySelector('#presence .presence-text');"
            " return e && new RegExp(re).test(e.textContent); }", arg=[pattern], timeout=timeout * 1000)
        return self.presence()

    def close(self) -> None:
        self.ctx.close()
        if self.peer.poll() is None:
            self.peer.kill()
            self.peer.wait(10)


def test_connected_then_away_counting_then_back_after_a_resume(serve, mailbox, browser, tmp_path):  # noqa: F811
    g = Game(serve, mailbox, browser, tmp_path)
    page = g.page
    try:
        g.play_until_theirs()
        # (a) playing normally: the other seat, by its name, is connected; said once it changes, not before
        assert g.presence() == "Red is connected"
        assert page.get_attribute("#presence", "data-state") == "here"
        assert page.inner_text("#presence-said") == ""
        assert page.get_attribute("#presence-said", "aria-live") == "polite"
        assert in_view(seen(page, "#presence")) and seen(page, "#presence")["font"] >= 12
        # (b) killed mid-game, during its turn: away within ~40 s, the m:ss counting up each second
        g.kill_peer()
        killed = time.time()
        first = g.wait_presence(r"^Red is away \(since \d+:\d\d\)$", timeout=40)
        assert time.time() - killed < 40
        time.sleep(2.5)
        second = g.presence()
        assert re.fullmatch(r"Red is away \(since \d+:\d\d\)", second), second
        assert clock(second) - clock(first) >= 2, (first, second)
        assert 15 <= clock(second) <= 60, second  # counted from when the bot was last heard
        line = seen(page, "#presence")
        assert in_view(line), line
        assert line["font"] >= 12, line
        assert page.get_attribute("#presence", "data-state") == "away"
        # a screen reader heard the change once, in words, not the clock ticking
        assert page.inner_text("#presence-said") == "Red is away"
        # the bot's countdown still runs, shown with the away line
        countdown = seen(page, "#countdown")
        assert in_view(countdown), countdown
        info = seen(page, "#info")  # inside the prompt's box, not over the buttons' row below it
        assert info["top"] <= countdown["top"] and countdown["bottom"] <= info["bottom"] + 0.5, (countdown, info)
        assert re.search(r"^Red has \d+:\d\d to move\.$|^Waiting for Red's program", countdown["text"]), countdown
        shot(page, "presence-away")
        # (d) the bot comes back into the room with no code: "back", then "connected" again
        with sqlite3.connect(tmp_path / "bot.db") as c:
            local = c.execute("SELECT id FROM games").fetchone()[0]
        g.peer = bot(["join", "--resume", local], tmp_path / "bot.db", tmp_path / "bot.log")
        assert g.wait_presence(r"^Red is back$", timeout=60) == "Red is back"
        assert page.inner_text("#presence-said") == "Red is back"
        assert in_view(seen(page, "#presence"))
        assert g.wait_presence(r"^Red is connected$", timeout=20) == "Red is connected"
        assert g.errors == []
    finally:
        g.close()


def test_the_away_line_in_french_with_the_claim_button(serve, mailbox, browser, tmp_path):  # noqa: F811
    limits = {"move_limit": 45, "reply_limit": 45}  # the bot's limit runs out soon after it shows as away
    g = Game(serve, mailbox, browser, tmp_path, limits, locale="fr-FR")
    page = g.page
    try:
        assert page.locator("html").get_attribute("lang") == "fr"
        g.play_until_theirs()
        # (c) the same line in French
        assert g.presence() == "Rouge est connecté"
        g.kill_peer()
        first = g.wait_presence(r"^Rouge est absent \(depuis \d+:\d\d\)$", timeout=40)
        time.sleep(2.5)
        second = g.presence()
        assert clock(second) > clock(first), (first, second)
        assert page.inner_text("#presence-said") == "Rouge est absent"
        line = seen(page, "#presence")
        assert in_view(line) and line["font"] >= 12, line
        assert in_view(seen(page, "#countdown"))
        # past its limit: the claim button shows with the away line, both whole on the small screen
        page.wait_for_selector("#btn-claim", timeout=45000)
        assert re.fullmatch(r"Rouge est absent \(depuis \d+:\d\d\)", g.presence())
        assert in_view(seen(page, "#presence"))
        claim = seen(page, "#btn-claim")
        assert in_view(claim) and claim["text"] == "Réclamer", claim
        shot(page, "presence-claim-fr")
        page.click("#btn-claim")  # and it works as before: won by abandonment, the line leaves with the game
        page.wait_for_selector("#endscreen #end-reason")
        page.wait_for_selector("#presence", state="hidden")
        assert g.errors == []
    finally:
        g.close()
