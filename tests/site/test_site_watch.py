"""Watching a game on the static site (issue 14): the watch screen speaks to the in-browser app through
the page's one transport seam (net.js's GameSocket over the Web Worker), like the game screen does."""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "browser"))
from test_app_browser import ME_TURN, start_game  # the app's own UI steps

pytestmark = pytest.mark.slow


def test_the_watch_screen_follows_a_game_on_the_site(site, recorded):
    page = recorded.page()
    start_game(page, site, terrain="castle", level="random")
    page.wait_for_function(ME_TURN)
    page.click("#menu-btn")
    page.click("#btn-watch")
    page.wait_for_selector("#watch-url")
    path = page.eval_on_selector("#watch-url", "a => new URL(a.href).pathname")
    game, key = path.split("/")[2:4]
    page.evaluate(f"location.hash = '#/watch/{game}/{key}'")  # the same tab: the same in-browser app
    page.wait_for_function("document.querySelector('.page-watch #board g.node') && "
                           "document.querySelector('#prompt').textContent !== 'Connecting…'")
    assert page.locator(".watch .title").inner_text().startswith("Watching · ")
    assert page.locator(".watch .strip").count() == 2
    assert recorded.errors == []
    assert not [u for u in recorded.requests if "/api/" in u or u.endswith("/ws")]  # nothing left the page
