"""Issue 14's "Result, rematch and replay reachable from every end-of-game path", past the paths
test_phone_play.py takes (conceding to the bot, a whole game to its end): a two-device game ended by
the other player's concession, seen from both pages, and a hot-seat game's concession (whose cover
between turns must not hide the end)."""
from __future__ import annotations

import pytest
from test_app_browser import ME_TURN, start_game
from test_chat_sound import join_lan
from test_phone_play import _end_offers

pytestmark = pytest.mark.slow


def _concede(page) -> None:
    page.click("#menu-btn")
    page.click("#btn-concede")
    page.click("#confirm-yes")


def test_both_pages_of_a_two_device_game_reach_result_rematch_and_replay(desktop, small_phone, live_server):
    join_lan(desktop, small_phone, live_server.url)
    small_phone.wait_for_selector("#board[data-ply]")
    _concede(small_phone)  # the guest (red) concedes while blue is to play: the host did nothing to end it
    for page in (desktop, small_phone):
        _end_offers(page)
    assert desktop.locator("#end-reason").inner_text() == small_phone.locator("#end-reason").inner_text()
    desktop.click("#btn-replay")
    desktop.wait_for_selector("#replay-slider")
    small_phone.click("#btn-rematch")  # the rematch brings both pages to the new game
    small_phone.wait_for_function("!document.querySelector('#endscreen') && document.querySelector('#board')"
                                  " && document.querySelector('#board').dataset.ply === '0'")
    assert desktop.js_errors == [] and small_phone.js_errors == []


def test_a_hot_seat_concession_reaches_result_rematch_and_replay(small_phone, live_server):
    page = small_phone
    start_game(page, live_server.url, kind="hotseat", terrain="castle", level=None, first="blue")
    page.wait_for_function(ME_TURN)
    _concede(page)
    _end_offers(page)
    assert page.locator("#cover").count() == 0
    page.click("#btn-replay")
    page.wait_for_selector("#replay-slider")
    assert page.js_errors == []
