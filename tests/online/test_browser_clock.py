"""Both clocks in the page of an online game with a time control (issue 28): the host's page shows each
seat's time left, says in words which runs (readable without colour), in text no smaller than 12 px."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .test_browser import serve  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow

PEER = str(Path(__file__).parent / "peer.py")


def test_the_page_shows_both_clocks_and_which_runs(serve, mailbox, browser, tmp_path):  # noqa: F811
    """The host picks "5 min + 3 s" in the home form's Clock field; the game that follows runs both clocks."""
    base = serve("alice", mailbox)
    ctx = browser.new_context(viewport={"width": 360, "height": 640})
    ctx.set_default_timeout(30000)
    joiner = None
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/")
        page.wait_for_selector("#newgame")
        page.locator("#newgame input[name=kind][value=online]").check(force=True)
        page.locator("#newgame input[name=room][value=host]").check(force=True)
        page.locator("#newgame input[name=clock][value='5+3']").check(force=True)
        page.click("#start")
        shown = page.locator("#room-code-shown")
        shown.wait_for()
        joiner = subprocess.Popen([sys.executable, PEER, "--think", "40", "--", "join", shown.inner_text().strip(),
                                   "--relay", mailbox, "--bot", "random", "--json"],
                                  env=dict(os.environ, TOYBATTLE_DB=str(tmp_path / "bob.db")),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        page.wait_for_selector("#clocks:not(.hidden) .runs")
        blue, red = page.locator("#clock-blue").inner_text(), page.locator("#clock-red").inner_text()
        assert blue.startswith("Blue: ") and red.startswith("Red: "), (blue, red)
        running = page.locator("#clocks .runs").inner_text()
        assert running.endswith("(running)") and ("5:00" in blue + red or "4:5" in blue + red)
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#clocks')).fontSize)")
        assert size >= 12
        first = running
        page.wait_for_timeout(2500)  # the running clock counts down in the page
        assert page.locator("#clocks .runs").inner_text() != first
        assert errors == []
    finally:
        ctx.close()
        if joiner is not None:
            joiner.kill()
            joiner.wait()
