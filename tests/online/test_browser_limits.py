"""Online wait limits in the page: a countdown while the other player is due, then claim / keep
waiting / close buttons once it is past its limit (issue 12, item 3)."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from .test_browser import serve  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import axe  # noqa: E402 (the browser tests' axe-core)
from test_app_browser import ME_TURN, play_one  # noqa: E402 (the browser tests' helpers)
from test_axe import RUN  # noqa: E402

PEER = str(Path(__file__).parent / "peer.py")
# Records whether the countdown ever showed seconds left. A peer that answers at once shows it only for a
# moment, too short for polling to catch; a peer that has gone silent shows it for the whole limit.
SEES_COUNTDOWN = """window.countdownSeen = false;
new MutationObserver(() => {
  const c = document.querySelector('#countdown');
  if (c && !c.classList.contains('hidden') && / s( left)?/.test(c.textContent)) window.countdownSeen = true;
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });"""


@pytest.mark.parametrize("stall", [0, 8])
def test_the_page_counts_down_then_offers_claim_wait_and_close(serve, mailbox, browser, tmp_path, stall):  # noqa: F811
    base = serve("alice", mailbox)
    room = httpx.post(f"{base}/api/online/host", json={"relay": mailbox, "move_limit": 4, "reply_limit": 4},
                      timeout=30).json()
    assert "error" not in room, room
    stalling = subprocess.Popen([sys.executable, PEER, "--stall-after", str(stall), "--", "join", room["code"],
                                 "--relay", mailbox, "--bot", "random", "--json"],
                                env=dict(os.environ, TOYBATTLE_DB=str(tmp_path / "bob.db")),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ctx = browser.new_context(viewport={"width": 360, "height": 640}, bypass_csp=True)  # for axe's script
    ctx.set_default_timeout(30000)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        entry = {room["game"]: {"kind": "online", "tokens": {room["seat"]: room["token"]}, "host": True}}
        page.add_init_script(f"localStorage.setItem('tb.games', {json.dumps(json.dumps(entry))});")
        page.add_init_script(SEES_COUNTDOWN)
        page.goto(f"{base}/#/game/{room['game']}")
        rng = random.Random(3)
        for _ in range(40):  # play this side's moves until the other side is due and goes silent
            state = page.wait_for_function(
                f"() => document.querySelector('#btn-claim') ? 'silent' : ({ME_TURN}) && 'mine'")
            if state.json_value() == "silent":
                break
            ended = page.locator("#endscreen")
            assert not ended.count(), "the game ended before the other side went silent: " + ended.inner_text()
            # never XB-42: its random discard makes the silent side's opening due, and withholding that ends
            # the game as its forfeit (docs/fair-play.md) before the countdown this test is about
            play_one(page, rng, avoid=("5",))
        page.wait_for_selector("#btn-claim")  # past its limit: the three ways on
        assert page.evaluate("window.countdownSeen") is True  # while it was due, the countdown ran
        assert page.locator("#btn-wait").count() == 1 and page.locator("#btn-close").count() == 1
        assert page.locator("#countdown.hidden").count() == 1
        page.add_script_tag(content=axe.script())  # the silence buttons pass the accessibility check too
        assert page.evaluate(RUN) == []
        page.click("#btn-wait")
        page.wait_for_selector("#btn-claim", state="detached")
        page.wait_for_selector("#btn-claim")  # the new wait ran out too
        page.click("#btn-claim")
        # claimed before the deal, the room says so; after it, the end screen does
        shown = "#room-status" if stall == 0 else "#endscreen #end-reason"
        page.wait_for_selector(shown)
        assert "abandon" in page.locator(shown).inner_text()
        assert errors == []
    finally:
        ctx.close()
        stalling.kill()
        stalling.wait()
