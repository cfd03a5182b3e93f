"""A game on one screen with a clock, on a small phone (issue 28): the home form offers the Clock field for a game on
one screen (and not against a bot), the game's page shows both clocks, the running one said in words, and the app
stored the time control; the clock line fits the screen."""
from __future__ import annotations

import pytest
from phone_checks import sideways, too_small

pytestmark = pytest.mark.slow


def test_the_clock_field_and_both_clocks_on_a_small_phone(small_phone, live_server):
    page, base = small_phone, live_server.url
    page.goto(base + "/")
    page.wait_for_selector("#newgame")
    clock_field = page.locator("#newgame input[name=clock][value='5+3']")
    page.locator("#newgame input[name=kind][value=bot]").check(force=True)
    assert not clock_field.locator("xpath=ancestor::div[contains(@class, 'field')]").is_visible()
    page.locator("#newgame input[name=kind][value=hotseat]").check(force=True)
    assert clock_field.locator("xpath=ancestor::div[contains(@class, 'field')]").is_visible()
    clock_field.check(force=True)
    page.locator("#newgame input[name=first][value=blue]").check(force=True)
    page.click("#start")
    page.wait_for_selector("#play")
    page.wait_for_selector("#clocks:not(.hidden)")
    assert page.text_content("#clock-blue").startswith("Blue: 4:5") or \
        page.text_content("#clock-blue").startswith("Blue: 5:00")
    assert "(running)" in page.text_content("#clock-blue") and "(running)" not in page.text_content("#clock-red")
    assert page.text_content("#clock-red") == "Red: 5:00"
    game = page.evaluate("location.hash").split("/")[-1]
    assert live_server.store.get(game).meta["settings"]["clock"] == {"base": 300, "increment": 3}
    assert not sideways(page) and too_small(page) == []
    assert page.js_errors == []
