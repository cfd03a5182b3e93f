"""The puzzles screen on a small phone (issue 28): from the home to the puzzles, a puzzle solved by taps on its
board (the answer known here from the built-in set, never from the page), "correct" and the streak at 1, a hint on
the next one, a placement puzzle answered wrong (the streak back to 0); a puzzle from the player's own reviewed game,
listed under "From your games" and solved by taps; at 360x640 with touch, nothing wider than the screen and no text
under 12 px. Bad stored data is reset with no error."""
from __future__ import annotations

import json
import sys
import time
import urllib.request
from pathlib import Path

import axe
import pytest
from phone_checks import sideways, too_small

from toybattle.app.session import new_token
from toybattle.review.puzzles import builtin_puzzles
from toybattle.rules import action_text, parse_action
from toybattle.rules.state import TURN
from toybattle.store import GameRow

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "review"))
from blunder_game import build

pytestmark = pytest.mark.slow

KEY = "toybattle.puzzles"


def beyond_the_sides(page) -> list[str]:
    """Visible controls and texts cut off at the screen's left or right edge."""
    out: list[str] = page.evaluate("""() => [...document.querySelectorAll(
        '#app button, #app a, #app p, #app li, #app h1, #app svg.tb-board, .rack-tile')].filter((e) => {
        const r = e.getBoundingClientRect(); if (!r.width || !r.height) return false;
        return r.left < -0.5 || r.right > innerWidth + 0.5; })
        .map((e) => (e.id ? '#' + e.id : e.tagName) + ' ' + (e.textContent || '').trim().slice(0, 20))""")
    return out


def check_phone(page) -> None:
    assert not sideways(page)
    assert beyond_the_sides(page) == []
    assert too_small(page) == []


def tap_answer(page, action: str) -> None:
    """Answer ``action`` by taps: a troop on the rack (unless the page picked it already), then a base."""
    head, _, node = action.partition("@")
    if head != "jumbo":
        troop = page.locator(f'.lesson-play .rack button[data-troop="{head}"]').first
        if troop.get_attribute("aria-pressed") != "true":
            troop.tap()
        assert troop.get_attribute("aria-pressed") == "true"
    page.locator(f'#puzzle-board g.node[data-node="{node}"] circle.hit').tap()


def test_solve_by_taps_then_a_hint_on_a_small_phone(small_phone, live_server, shot):
    page, base = small_phone, live_server.url
    puzzles = builtin_puzzles()
    first, second = puzzles[0], puzzles[1]
    page.goto(base + "/")
    page.wait_for_selector("#newgame")
    page.evaluate(f"localStorage.setItem('{KEY}', '{{\"v\": 1, \"rating\": \"high\"}}')")  # bad data: reset, no error

    check_phone(page)
    page.locator("#btn-puzzles").tap()  # the home's link
    page.wait_for_url(base + "/#/puzzles")
    page.wait_for_selector("#puzzle-start")
    assert page.text_content("#puzzle-streak") == "Streak: 0"
    assert page.text_content("#puzzle-rating") == "Rating: 1000"
    assert json.loads(page.evaluate(f"localStorage.getItem('{KEY}')"))["rating"] == 1000
    assert page.locator("#puzzles-mine-none").is_visible()  # no game reviewed in this browser: says how to get some
    shot(page, "puzzles-phone-list")
    check_phone(page)

    page.locator("#puzzle-start").tap()
    page.wait_for_selector("#puzzle-board svg .hit")
    assert page.url.endswith(f"#/puzzles/{first.id}")
    assert page.locator("#verdict").count() == 0
    shot(page, "puzzles-phone-question", full_page=True)
    check_phone(page)
    tap_answer(page, first.answer)
    page.wait_for_selector("#verdict")
    assert page.text_content("#verdict-head") == "Correct!"
    assert page.text_content("#puzzle-streak") == "Streak: 1"
    assert int(page.text_content("#puzzle-rating").split()[-1]) > 1000
    assert page.locator("#explanation li").count() == len(first.why)
    assert page.locator(f'#puzzle-board g.node.last[data-node="{first.answer.split("@")[1]}"]').count() == 1
    stored = json.loads(page.evaluate(f"localStorage.getItem('{KEY}')"))
    assert stored["streak"] == 1 and stored["done"] == {first.id: "right"}
    shot(page, "puzzles-phone-correct", full_page=True)
    check_phone(page)

    page.locator("#next").tap()
    page.wait_for_url(base + f"/#/puzzles/{second.id}")
    page.wait_for_selector("#hint")
    assert page.locator("#hints").count() == 0
    page.locator("#hint").tap()
    page.wait_for_selector("#hints li")
    assert page.locator("#hints li").count() == 1 and page.text_content("#hints li").strip()
    assert page.text_content("#puzzle-streak") == "Streak: 1"
    check_phone(page)

    # a placement puzzle answered with another legal placement: wrong, the best move shown, the streak back to 0
    place = next(p for p in puzzles if not p.answer.startswith("jumbo") and p.state().decision == TURN)
    obs = place.state()
    best = parse_action(place.answer, obs.b)
    wrong = next(action_text(a, obs.b) for a in obs.legal_actions() if a != best and "@" in action_text(a, obs.b))
    page.goto(base + f"/#/puzzles/{place.id}")
    page.wait_for_selector("#puzzle-board svg .hit")
    tap_answer(page, wrong)
    page.wait_for_selector("#verdict")
    assert page.text_content("#verdict-head") == "Not this one."
    assert page.text_content("#puzzle-streak") == "Streak: 0"
    shot(page, "puzzles-phone-wrong", full_page=True)
    assert page.locator(f'#puzzle-board g.node.last[data-node="{place.answer.split("@")[1]}"]').count() == 1
    check_phone(page)
    assert page.js_errors == []


def _call(base: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data, {"content-type": "application/json"} if data else {})
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict = json.loads(r.read())
        return out


def test_a_puzzle_from_your_own_reviewed_game_solved_by_taps(small_phone, live_server, shot):
    """A finished game against a bot (the review tests' known blunder, blue's), reviewed; its puzzles are listed
    under "From your games" and the first is solved by taps, judged by the server."""
    page, base, store = small_phone, live_server.url, live_server.store
    token = new_token()
    game = f"mine{time.monotonic_ns() % 10**9}"
    store.put(GameRow(id=game, kind="bot", record=build().text(), over=True, winner="red", reason="hq", meta={
        "tokens": {"blue": token}, "bot": {"seat": "red", "level": "greedy"},
        "settings": {"kind": "bot", "terrain": "castle", "first_game": False, "first": "random", "human": "blue",
                     "level": "greedy"}}))
    _call(base, f"/api/review/{game}", {"token": token, "effort": "quick"})
    deadline = time.monotonic() + 120
    while "puzzles" not in store.get(game).meta and time.monotonic() < deadline:
        time.sleep(0.2)
    kept = store.get(game).meta["puzzles"]
    assert kept, "the blunder's game gives blue at least one puzzle"
    page.goto(base + "/")
    page.wait_for_selector("#newgame")
    entry = {"kind": "bot", "tokens": {"blue": token}, "created": 1, "summary": {"over": True, "terrain": "castle"}}
    page.evaluate("(e) => localStorage.setItem('tb.games', JSON.stringify(e))", {game: entry})
    page.goto(base + "/#/puzzles")
    page.wait_for_selector("#puzzles-mine li")
    assert page.locator("#puzzles-mine li").count() == len(kept)
    assert page.locator("#puzzles-builtin li").count() == len(builtin_puzzles())
    check_phone(page)
    page.locator("#puzzle-start").tap()  # your own games' puzzles come first
    page.wait_for_selector("#puzzle-board svg .hit")
    assert page.url.endswith(f"#/puzzles/mine:{game}:1")
    check_phone(page)
    tap_answer(page, kept[0]["answer"])
    page.wait_for_selector("#verdict")
    assert page.text_content("#verdict-head") == "Correct!"
    assert page.text_content("#puzzle-streak") == "Streak: 1"
    shot(page, "puzzles-phone-mine-correct", full_page=True)
    check_phone(page)
    page.locator("#next").tap()
    if len(kept) > 1:
        page.wait_for_url(base + f"/#/puzzles/mine:{game}:2")
    else:
        page.wait_for_url(base + "/#/puzzles")
    page.goto(base + "/#/puzzles/mine:nosuchgame:1")  # a game this browser does not hold: one line
    page.wait_for_selector("#puzzles .feedback.wrong")
    assert "no longer holds" in page.text_content("#puzzles .feedback.wrong")
    assert page.js_errors == []


def tab_to(page, selector: str, most: int = 60) -> None:
    """Press Tab until the focus is on ``selector`` (fails if it never gets there)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => document.activeElement && document.activeElement.matches(sel)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_puzzle_by_keyboard_alone(desktop, live_server):
    """Tab to the board (its tab stop is the first base a tap acts on), Enter answers; Tab to Next; a hint."""
    page, base = desktop, live_server.url
    p = next(p for p in builtin_puzzles() if p.answer.startswith("jumbo") and len(p.state().legal_actions()) == 2)
    page.goto(base + f"/#/puzzles/{p.id}")
    page.wait_for_selector("#puzzle-board svg .hit")
    node = p.answer.split("@")[1]
    tab_to(page, f'#puzzle-board circle.hit[data-node="{node}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("#verdict")
    assert page.text_content("#verdict-head") == "Correct!"
    assert page.evaluate("document.activeElement.id") == "verdict"  # read out and focused: the next Tab goes on
    tab_to(page, "#next", most=5)
    page.keyboard.press("Enter")
    page.wait_for_selector("#hint")
    tab_to(page, "#hint")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hints li")
    assert page.evaluate("document.activeElement.id") == "hints"
    assert page.js_errors == []


def test_the_puzzles_in_french_on_a_small_phone(browser, live_server):
    """The page's words and the server's (the prompt, the hint, the verdict) in French, still fitting 360 px."""
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                              device_scale_factor=2, locale="fr-FR")
    ctx.set_default_timeout(15000)
    page = ctx.new_page()
    try:
        p = next(p for p in builtin_puzzles() if not p.answer.startswith("jumbo"))
        page.goto(live_server.url + "/#/puzzles")
        page.wait_for_selector("#puzzle-start")
        assert page.text_content("#puzzle-streak").startswith("Série : ")
        page.goto(live_server.url + f"/#/puzzles/{p.id}")
        page.wait_for_selector("#puzzle-board svg .hit")
        assert page.text_content("#prompt").startswith("Vous jouez ")
        page.locator("#hint").tap()
        page.wait_for_selector("#hints li")
        check_phone(page)
        tap_answer(page, p.answer)
        page.wait_for_selector("#verdict")
        assert page.text_content("#verdict-head") == "Bravo !"
        assert page.text_content("#answer").startswith("Le meilleur coup : ")
        check_phone(page)
    finally:
        ctx.close()


AXE = """async () => { const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ')) })); }"""


def test_the_puzzles_screens_have_no_serious_accessibility_violation(small_phone, live_server):
    page, base, script = small_phone, live_server.url, axe.script()

    def violations() -> list[dict]:
        page.add_script_tag(content=script)
        found: list[dict] = page.evaluate(AXE)
        return found

    p = next(p for p in builtin_puzzles() if not p.answer.startswith("jumbo"))
    page.goto(base + "/#/puzzles")
    page.wait_for_selector("#puzzle-start")
    found = {"list": violations()}
    page.goto(base + f"/#/puzzles/{p.id}")
    page.wait_for_selector("#puzzle-board svg .hit")
    page.locator("#hint").tap()
    page.wait_for_selector("#hints li")
    found["puzzle"] = violations()
    tap_answer(page, p.answer)
    page.wait_for_selector("#verdict")
    found["answered"] = violations()
    assert found == {"list": [], "puzzle": [], "answered": []}
