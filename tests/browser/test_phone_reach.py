"""Issue 25: everything within a thumb's reach on a 360x640 phone with touch, in English and French, in the
app served by ``toybattle serve`` and on the static site: Start above the fold, a game's board, rack and
actions on one screen, cards that open whole without covering a control, a replay's step buttons and a
lesson's question beside its board; no text under 12 px (the board's labels: 11 px as drawn), every text
at least 4.5:1, bases and rack tiles named in full for a screen reader."""
from __future__ import annotations

import os
import random
import re
import sys
from collections.abc import Iterator

import pytest
from phone_checks import low_contrast, outside, sideways, too_small
from test_app_browser import ME_TURN, play_one, start_game

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "site"))
from site_harness import serving

pytestmark = pytest.mark.slow

PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
POWER_MARKS = {"↶", "+1", "⇆", "✚", "⌀", "▾"}  # board.js POWER_MARK: the special bases' marks
GAME_CONTROLS = "#board, #rack .rack-tile, #buttons button, #aux button, #prompt, #opp, #me"


@pytest.fixture(scope="module")
def site_url(site_dir) -> Iterator[str]:
    with serving(site_dir) as url:
        yield url


@pytest.fixture(params=["app", "site"])
def base(request, live_server) -> str:
    if request.param == "app":
        url: str = live_server.url
        return url
    site: str = request.getfixturevalue("site_url")
    return site


@pytest.fixture(params=["en", "fr"])
def handset(request, browser):
    ctx = browser.new_context(bypass_csp=True, locale=LOCALES[request.param], **PHONE)
    ctx.set_default_timeout(120_000)  # the site's first start of Python, on a busy machine
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.lang = request.param
    yield page
    assert errors == []
    ctx.close()


def readable(page) -> None:
    """Nothing too small or too faint, nothing wider than the screen (once what fades in has)."""
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running'"
                           " || a.effect.getComputedTiming().iterations === Infinity)")
    assert too_small(page) == []
    assert low_contrast(page) == []
    assert not sideways(page)


def overlaps(page, a: str, b: str) -> bool:
    return bool(page.evaluate("""([a, b]) => { const r = document.querySelector(a).getBoundingClientRect();
      return [...document.querySelectorAll(b)].some((e) => { const s = e.getBoundingClientRect();
        return s.width > 0 && r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom; }); }""",
                                [a, b]))


def test_start_and_every_control_of_a_game_fit_one_phone_screen(handset, base):
    page = handset
    page.goto(base + "/")
    page.wait_for_selector("#start")
    assert outside(page, "#start") == []  # above the fold at first sight
    readable(page)
    start_game(page, base, terrain="castle", level="random", first="blue")
    page.wait_for_function(ME_TURN)
    assert outside(page, GAME_CONTROLS) == []
    readable(page)
    # the rack's tiles are named with their strength, as the picture shows it
    for tile in page.locator("#rack .rack-tile:not(.laid)").all():
        name = tile.aria_snapshot()  # - button "Hook, strength 4" [pressed=false]
        shown = tile.locator(".rack-name").inner_text().strip()
        assert shown in name and re.search(r"(strength|force) \d|joker", name), name
    # a card opens whole over the board, never over the prompt, undo, hint, choices or rack
    page.locator('#board g.node[data-node="15"] circle.hit').tap()
    page.wait_for_selector("#card-pop:not(.hidden) .node-card")
    assert outside(page, "#card-pop") == []
    for control in ("#prompt", "#aux button", "#buttons button", "#rack .rack-tile"):
        assert not overlaps(page, "#card-pop", control), control
    card = page.locator("#card-pop .card")
    assert card.evaluate("c => c.scrollHeight <= c.clientHeight + 1 || getComputedStyle(c).overflowY === 'auto'")
    readable(page)
    page.keyboard.press("Escape")  # Escape closes it
    page.wait_for_selector("#card-pop.hidden", state="attached")
    page.locator('#board g.node[data-node="15"] circle.hit').tap()
    page.locator("#card-pop .close").tap()  # and so does one tap
    page.wait_for_selector("#card-pop.hidden", state="attached")
    # the hint's card says why in words, and leaves the controls usable
    page.locator("#btn-hint").tap()
    page.wait_for_selector("#card-pop:not(.hidden)")
    assert len(page.locator("#card-pop").inner_text().split()) >= 4
    assert not overlaps(page, "#card-pop", "#buttons button") and not overlaps(page, "#card-pop", "#aux button")
    page.locator("#card-pop .close").tap()
    # after a placement, Undo is a word, unlike any special base's mark
    page.keyboard.press("Escape")  # whatever the hint picked goes back to the rack
    page.wait_for_function("!document.querySelector('#rack .rack-tile.picked')")
    # Undo takes back a turn in progress: Skully or Cap'n placed, the turn waits for their effect's choice
    follow_up = '#rack .rack-tile:not(.stuck):not(.laid):is([data-troop="1"], [data-troop="2"])'
    for _ in range(40):  # the deal is random: some games take many turns to bring one, some end first
        page.wait_for_function(ME_TURN)
        if page.locator(follow_up).count():
            break
        if page.eval_on_selector("#play", "p => p.dataset.over") == "1":
            start_game(page, base, terrain="castle", level="random", first="blue")
            continue
        before = page.eval_on_selector("#board", "b => b.dataset.ply")
        if page.locator("#btn-draw").count():
            page.locator("#btn-draw").tap()
        else:  # a full rack (8 tiles) may not draw: place another troop, keeping Skully and Cap'n
            play_one(page, random.Random(len(before)), avoid=("1", "2"))
        page.wait_for_function("(p) => document.querySelector('#board').dataset.ply !== p", arg=before)
    else:
        raise AssertionError("neither Skully nor Cap'n came to the rack in 40 turns")
    page.locator(follow_up).first.tap()
    page.wait_for_selector("#rack .rack-tile.picked")
    target = page.eval_on_selector("#board g.node.target", "g => g.dataset.node")
    page.locator(f'#board g.node[data-node="{target}"] circle.hit').tap()
    page.wait_for_selector("#btn-undo")
    undo = page.locator("#btn-undo").inner_text().strip()
    assert undo not in POWER_MARKS and re.fullmatch(r"\w+", undo), undo
    assert outside(page, GAME_CONTROLS) == []
    readable(page)


def test_a_full_rack_keeps_every_tile_on_a_phone_screen(handset, live_server):
    """Eight tiles (the rack's cap) on 360 px: no sideways scroll, every tile in reach and named for a screen
    reader; the same with the phone turned sideways; the names are shown again once the tiles fit (French names
    are the widest)."""
    page = handset
    start_game(page, live_server.url, terrain="castle", level="random", first="blue")
    page.wait_for_function(ME_TURN)
    assert page.locator("#rack .rack-tile").count() < 7
    assert page.eval_on_selector("#rack", "r => !r.classList.contains('compact')")
    assert all(name.is_visible() and name.bounding_box()["width"] > 20
               for name in page.locator("#rack .rack-name").all())  # a short rack shows its names
    for _ in range(8):  # draw until the rack holds 8 (an XB-42 may take one away between two draws)
        if not page.locator("#btn-draw").count():
            break
        before = page.eval_on_selector("#board", "b => b.dataset.ply")
        page.locator("#btn-draw").tap()
        page.wait_for_function("(p) => document.querySelector('#board').dataset.ply !== p", arg=before)
        page.wait_for_function(ME_TURN)
    assert page.locator("#rack .rack-tile").count() == 8
    assert page.eval_on_selector("#rack", "r => r.scrollWidth <= r.clientWidth + 1")  # no sideways scroll
    assert outside(page, GAME_CONTROLS) == []
    readable(page)
    for tile in page.locator("#rack .rack-tile").all():
        name = tile.aria_snapshot()
        assert re.search(r"(strength|force) \d|joker", name), name
        assert tile.locator(".rack-name").text_content().strip() in name, name
    # the phone turned sideways: the board takes the left of the screen at nearly its whole height, the
    # rest stands beside it, all of it in reach
    page.set_viewport_size({"width": 640, "height": 360})
    page.wait_for_function("document.querySelector('#board').getBoundingClientRect().height > 280")
    assert page.evaluate("document.querySelector('#board').getBoundingClientRect().right") <= 320
    assert outside(page, GAME_CONTROLS) == []
    readable(page)
    # a screen with room for them shows the names again
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_function("!document.querySelector('#rack').classList.contains('compact')")
    assert page.locator("#rack .rack-name").first.bounding_box()["width"] > 20


def test_a_replay_shows_its_step_buttons_on_screen(handset, base):
    page = handset
    start_game(page, base, kind="hotseat", terrain="castle", level=None, first="blue")
    if page.locator("#cover button").count():
        page.locator("#cover button").first.tap()
    page.locator("#menu-btn").tap()
    page.wait_for_selector("#btn-concede")
    readable(page)  # the game's menu
    page.locator("#btn-concede").tap()
    page.locator("#confirm-yes").tap()
    page.wait_for_selector("#endscreen")
    assert outside(page, "#endscreen button, #endscreen a.btn") == []
    readable(page)  # the end of the game
    page.locator("#btn-replay").tap()
    page.wait_for_selector("#replay-slider")
    assert outside(page, ".replay-controls button, #replay-slider, #board") == []
    readable(page)
    page.locator("#replay-prev").tap()  # reachable, and it steps
    assert page.input_value("#replay-slider") == "0"


def test_a_lesson_shows_its_question_and_board_together(handset, base):
    page = handset
    page.goto(base + "/#/learn/jumbo-discard")
    page.wait_for_selector("#question")
    page.wait_for_selector("#lesson-board g.node")
    page.locator("#question").scroll_into_view_if_needed()
    page.evaluate("document.querySelector('#question').scrollIntoView({ block: 'start' })")
    assert outside(page, "#question, #lesson-board svg") == []
    readable(page)
    # a screen reader hears every tile of a stack, from the top down, with its owner and strength
    name = page.locator('#lesson-board circle.hit[data-node="18"]').get_attribute("aria-label") or ""
    theirs, mine = ("Red", "your") if page.lang == "en" else ("Rouge", "à vous")
    assert name.index(theirs) < name.index(mine), name
    assert re.search(r"(strength|force) 7.*(strength|force) 5", name), name


def test_the_pages_to_read_read_on_a_phone(handset, base):
    page = handset
    page.goto(base + "/#/troops")
    page.wait_for_selector(".mini-board svg g.node")
    readable(page)  # every terrain's board too: its labels at 11 px or more as drawn
    page.goto(base + "/#/learn")
    page.wait_for_selector("#progress")
    readable(page)
    page.goto(base + "/#/rules")
    page.wait_for_selector(".rules-topic")
    readable(page)
