"""The game review (issue 28) on the static site, at phone size by touch: a whole game against the random bot
tapped to its end, Review tapped on the end screen, and the review made in the page's own Python (Pyodide in
the worker, no server): the chart with one turn button per turn, a tapped turn's decisions, each side's
costliest turns. Every request is recorded and none may leave this machine."""
from __future__ import annotations

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "browser"))
from test_app_browser import play_to_the_end, start_game  # the app's own UI steps

pytestmark = pytest.mark.slow

REVIEWED = 180_000  # ms: every decision weighed in Pyodide on a busy 2-core machine
TITLE = "([k]) => (document.querySelector('#review-turn-title') || {}).textContent?.includes('Turn ' + k + ',')"


def test_review_a_whole_game_against_the_random_bot_on_the_static_site(site, recorded):
    page = recorded.page()  # 360x640, touch
    start_game(page, site, terrain="castle", level="random")
    assert page.eval_on_selector("meta[name=toybattle-transport]", "m => m.content") == "worker"
    play_to_the_end(page, random.Random(11))
    game = page.evaluate("location.hash").split("/")[-1]
    page.locator("#btn-review").tap()
    page.wait_for_url(f"**/#/review/{game}")
    page.wait_for_selector("#review")
    page.wait_for_selector("#review-chart, #review-error", timeout=REVIEWED)
    assert not page.locator("#review-error").count(), page.locator("#review-error").inner_text()
    # one button per turn, under a point of each side's line
    turns = page.locator(".review-turn")
    n = turns.count()
    assert n >= 4
    points = page.eval_on_selector_all(".review-line", "ls => ls.map(l => l.getAttribute('points').split(' ').length)")
    assert points == [n, n]
    assert [turns.nth(k).get_attribute("data-turn") for k in range(n)] == [str(k + 1) for k in range(n)]
    # it opens on the game's costliest turn; tap another (a blue one, the player's): its decisions in words
    page.wait_for_selector("#review-turn-title")
    shown = page.locator("#review-turn-title").inner_text()
    k = next(k for k in range(n) if "blue" in turns.nth(k).get_attribute("class").split()
             and f"Turn {k + 1}," not in shown)
    turns.nth(k).scroll_into_view_if_needed()
    turns.nth(k).tap()
    page.wait_for_function(TITLE, arg=[k + 1])
    assert turns.nth(k).get_attribute("aria-pressed") == "true"
    assert page.locator(".review-turn[aria-pressed=true]").count() == 1
    detail = page.locator("#review-turn").inner_text()
    assert "Blue" in detail and "Winning chance:" in detail
    # each side's costliest turns: a listed one opens its turn, else the side says it had none
    for seat in ("blue", "red"):
        assert page.locator(f"#review-costly-{seat}").count() == 1
    costly = page.locator(".review-costly button")
    if costly.count():  # each says "Turn N: ..."; tap one not on screen yet
        listed = [(int(b.split(":")[0].split()[-1]), i) for i, b in enumerate(costly.all_inner_texts())]
        turn, i = next(((t, i) for t, i in listed if t != k + 1), listed[0])
        costly.nth(i).tap()
        page.wait_for_function(TITLE, arg=[turn])
        page.wait_for_selector("#review-turn .review-decision.costly .review-board")  # as that side saw it
        assert "Better:" in page.locator("#review-turn .review-decision.costly").first.inner_text()
    else:
        assert [t.count("No costly turn.") for t in page.locator(".review-costly").all_inner_texts()] == [1, 1]
    assert recorded.foreign() == []
    assert recorded.errors == []
    # the review was made in the page: no request ever reached an API on the static server
    assert not [u for u in recorded.requests if "/api/" in u]
