"""The game review on a small phone (360x640, touch): a bot game played to its end through the UI, Review tapped on
the end screen; the progress line, then the chart (one button per turn, each at least 24 px wide), a turn tapped
shows its decisions, a costliest turn shows the better move on the board; nothing wider than the screen and no text
under 12 px."""
from __future__ import annotations

import random

import pytest
from phone_checks import sideways, too_small
from test_app_browser import play_to_the_end, start_game

pytestmark = pytest.mark.slow


def test_review_a_finished_game_on_a_small_phone(small_phone, live_server, shot):
    page = small_phone
    start_game(page, live_server.url, terrain="castle", level="random")
    play_to_the_end(page, random.Random(7))
    game = page.evaluate("location.hash").split("/")[-1]
    page.locator("#btn-review").tap()
    page.wait_for_selector("#review")
    assert page.locator("#review-progress").count() or page.locator("#review-chart").count()
    page.wait_for_selector("#review-chart", timeout=90_000)
    shot(page, "review-chart")
    kept = live_server.store.get(game).meta["review"]
    n = len(kept["turns"])
    turns = page.locator(".review-turn")
    assert turns.count() == n > 3
    sizes = page.eval_on_selector_all(".review-turn", "bs => bs.map(b => { const r = b.getBoundingClientRect();"
                                                      " return [r.width, r.height]; })")
    assert all(w >= 24 and h >= 24 for w, h in sizes), sizes
    # the chart's marks are said in words: each turn's button names who played it and both chances
    label = turns.nth(0).get_attribute("aria-label")
    assert label.startswith("Turn 1, played by ") and "Blue" in label and "Red" in label
    # tap a turn: its decisions, who played what and the chance before and after
    k = next(i for i, s in enumerate(kept["turns"]) if s == "blue")
    turns.nth(k).scroll_into_view_if_needed()
    turns.nth(k).tap()
    page.wait_for_function("([k]) => (document.querySelector('#review-turn-title') || {}).textContent"
                           "?.includes('Turn ' + k + ',')", arg=[k + 1])
    detail = page.locator("#review-turn").inner_text()
    assert "Blue " in detail and "Winning chance:" in detail and "@" not in detail  # said in words, not notation
    assert turns.nth(k).get_attribute("aria-pressed") == "true"
    shot(page, "review-turn")
    # a costliest turn: the better move, why, and the board as that side saw it
    costly = page.locator(".review-costly button")
    if costly.count():
        costly.first.tap()
        page.wait_for_selector("#review-turn .review-decision.costly .review-board")
        text = page.locator("#review-turn .review-decision.costly").first.inner_text()
        assert "Better:" in text
        shot(page, "review-costly")
    else:  # no costly turn: each side says so in words
        assert page.locator("#review-costly-blue").inner_text().count("No costly turn.") == 1
    # the keyboard reaches the turns: Enter on a focused turn selects it
    turns.nth(0).focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(document.querySelector('#review-turn-title') || {}).textContent?.includes('Turn 1,')")
    assert not sideways(page)
    assert too_small(page) == []
    # "Your games" offers the finished game's review too: kept, it shows at once
    page.goto(live_server.url + "/#/")
    page.wait_for_selector(f'[data-review="{game}"]')
    page.locator(f'[data-review="{game}"]').tap()
    page.wait_for_selector("#review-chart")
    assert page.locator(".review-turn").count() == n
    assert page.js_errors == []
