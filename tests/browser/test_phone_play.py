"""Phone-first play in a real browser (issue 14): at 360x640 the board keeps its size while you
choose, its bases are big enough to tap, nothing is cut; the other side's moves can be followed; the
end of every game leads to its result, a rematch and the replay; and a whole game is played with the
keyboard alone."""
from __future__ import annotations

import random

import pytest
from test_app_browser import ME_TURN, cut_texts, no_horizontal_scroll, play_one, ply, small_targets, start_game

pytestmark = pytest.mark.slow

BOARD_H = "document.querySelector('#board').getBoundingClientRect().height"


def overlaps(page, a: str, b: str) -> bool:
    return page.evaluate("""([a, b]) => { const r = document.querySelector(a).getBoundingClientRect();
      const s = document.querySelector(b).getBoundingClientRect();
      return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom; }""", [a, b])


def uncut(page) -> list[str]:
    """Names, counters and buttons whose text does not fit in them."""
    return cut_texts(page) + page.evaluate("""() => [
      ...document.querySelectorAll('.strip .name, .counter, .topbar .title')]
      .filter(e => e.getBoundingClientRect().width > 0)
      .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
      .map(e => e.textContent.slice(0, 40))""")


def test_the_board_keeps_its_size_while_you_choose(small_phone, live_server, shot):
    page = small_phone
    start_game(page, live_server.url, terrain="castle", level="random", first="blue")
    page.wait_for_function(ME_TURN)
    height = page.evaluate(BOARD_H)
    assert height >= 320
    # every base is a tap target of at least 32 px, and its number is legible
    hits = page.eval_on_selector_all("#board circle.hit[data-node]",
                                     "cs => cs.map(c => c.getBoundingClientRect().width)")
    assert hits and min(hits) >= 32
    numbers = page.eval_on_selector_all("#board .node-id", "ts => ts.map(t => t.getBoundingClientRect().height)")
    assert numbers and min(numbers) >= 9
    assert small_targets(page) == [] and uncut(page) == [] and no_horizontal_scroll(page)
    page.locator('#rack .rack-tile:not([data-troop="4"])').first.click()  # Hook could go anywhere
    page.wait_for_selector("#board g.node.target")
    assert page.evaluate(BOARD_H) == height
    assert "tap a highlighted base" in page.locator("#prompt").inner_text()
    shot(page, "small-phone-picked")
    page.locator('#board g.node[data-node="22"] circle.hit').click()  # far from the H.Q.: refused
    page.wait_for_selector("#toast:not(.hidden)")
    assert page.evaluate(BOARD_H) == height
    assert not overlaps(page, "#toast", "#board")  # the refusal never covers the bottom row
    shot(page, "small-phone-refusal")
    # Escape puts the troop back; a tap on a base then reads its card, and scolds nobody
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#rack .rack-tile.picked')")
    page.wait_for_timeout(3600)  # the refusal fades
    page.locator('#board g.node[data-node="15"] circle.hit').click()
    page.wait_for_selector("#card-pop:not(.hidden) .node-card")
    assert page.locator("#toast").is_hidden()
    # the card opens over the board (issue 25), never over the prompt, undo, hint, choices or rack
    assert page.evaluate(BOARD_H) == height
    assert not any(overlaps(page, "#card-pop", c) for c in ("#info", "#buttons", "#rack"))
    shot(page, "small-phone-card")
    assert page.js_errors == []


def test_learn_to_play_is_on_the_phone_home_screen(small_phone, live_server, shot):
    small_phone.goto(live_server.url + "/")
    small_phone.wait_for_selector("#newgame")
    link = small_phone.get_by_role("link", name="Learn to play").first
    box = link.bounding_box()
    assert box and box["y"] + box["height"] <= 640
    assert cut_texts(small_phone) == [] and no_horizontal_scroll(small_phone)
    shot(small_phone, "small-phone-home")


def test_the_other_sides_move_is_marked_and_told(small_phone, live_server, shot):
    page = small_phone
    start_game(page, live_server.url, terrain="castle", level="random", first="blue")
    rng = random.Random(7)
    followed = placed = 0
    page.wait_for_function(ME_TURN)
    assert not page.locator("#board g.node.last").count()  # nobody has moved yet
    for _ in range(12):
        play_one(page, rng)
        page.wait_for_function(ME_TURN)
        told = page.locator("#ticker").inner_text()
        if page.eval_on_selector("#play", "p => p.dataset.over") == "1":
            break
        if not told.startswith("Red: "):  # the turn goes on (Cap'n's extra placement, a draw's choice ...)
            continue
        followed += 1
        assert page.locator("#announce").inner_text() == told  # said to a screen reader too
        marked = page.eval_on_selector_all("#board g.node.last", "gs => gs.map(g => g.dataset.node)")
        if " on " in told:  # a placement: its base carries the marker, until red moves again
            assert marked and any(f" on {n}" in told for n in marked), (told, marked)
            placed += 1
            # the marker is red's colour, readable against the board's ground (at least 3:1)
            assert page.locator("#board g.node.last .last-mark.red").count()
            assert page.evaluate(CONTRAST, ["#board g.node.last .last-mark", ".ground", "fill"]) >= 3
    assert followed >= 2 and placed >= 1  # the marker was checked on a bot placement at least once
    shot(page, "small-phone-last-move")


def _end_offers(page) -> None:
    """The end screen, its Look-at-the-board, and the Result button that brings it back."""
    page.wait_for_selector("#endscreen")
    assert page.locator("#end-reason").inner_text().strip()
    assert ".." not in page.locator("#endscreen").inner_text()
    page.click("#btn-look")
    page.wait_for_selector("#endscreen", state="detached")
    page.click("#btn-result")
    page.wait_for_selector("#endscreen")
    assert page.locator("#btn-rematch").is_visible() and page.locator("#btn-replay").is_visible()


def test_every_end_leads_to_result_rematch_and_replay(small_phone, live_server, shot):
    page = small_phone
    # conceding
    start_game(page, live_server.url, terrain="cemetery", level="random", first="blue")
    page.wait_for_function(ME_TURN)
    page.click("#menu-btn")
    page.click("#btn-concede")
    page.click("#confirm-yes")
    _end_offers(page)
    assert page.locator("#end-reason").inner_text() == "Blue conceded."  # the title says who won
    # a whole game against the bot, by tapping, to its end (the H.Q., the medals or a stuck seat)
    start_game(page, live_server.url, terrain="castle", level="random", first="blue")
    rng = random.Random(11)
    heights = set()
    for _ in range(300):
        page.wait_for_function(ME_TURN)
        if page.eval_on_selector("#play", "p => p.dataset.over") == "1":
            break
        if page.locator("#hq-warning").count():  # the enemy next to the H.Q.: said, and its base marked
            assert page.locator("#board g.node.threat .threat-mark").count()
        if not page.locator("#toast:not(.hidden), #card-pop:not(.hidden)").count():
            assert uncut(page) == [], uncut(page)
        heights.add(page.evaluate(BOARD_H))
        play_one(page, rng)
    assert len(heights) == 1, heights  # whatever the decision, its buttons never squeeze the board
    _end_offers(page)
    assert cut_texts(page) == [] and no_horizontal_scroll(page)
    shot(page, "small-phone-end")
    if "H.Q." in page.locator("#end-reason").inner_text():
        assert "took" in page.locator("#end-decider").inner_text()
    page.click("#btn-replay")
    page.wait_for_selector("#replay-slider")
    assert page.js_errors == []


# ---------------------------------------------------------------------------------- the keyboard

def tab_to(page, selector: str, limit: int = 120) -> None:
    """Press Tab until the focus is on `selector` (it must be reachable by Tab alone)."""
    for _ in range(limit):
        if page.evaluate("([s]) => !!document.activeElement && document.activeElement.matches(s)", [selector]):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focused(page, selector: str) -> bool:
    return page.evaluate("([s]) => !!document.activeElement && document.activeElement.matches(s)", [selector])


ON_TARGET = "document.activeElement && document.activeElement.matches('#board g.node.target .hit')"


def keyboard_one(page, rng: random.Random, check_arrows: bool) -> None:
    before = ply(page)
    if page.locator("#btn-use").count():
        tab_to(page, "#btn-use")
        page.keyboard.press("Enter")
    elif page.locator("#buttons [data-action^='recover:']").count():
        tab_to(page, "#buttons [data-action^='recover:']")
        page.keyboard.press("Enter")
    elif page.locator("#board g.node.target").count():  # Jumbo, the tower: the board's focus starts on a target
        tab_to(page, "#board g.node.target .hit")
        page.keyboard.press("Enter")
    elif page.locator("#rack .rack-tile:not(.stuck):not(.laid)").count() and \
            (rng.random() < 0.85 or not page.locator("#btn-draw").count()):
        tab_to(page, "#rack .rack-tile:not(.stuck):not(.laid)")
        page.keyboard.press("Enter")
        page.wait_for_function(ON_TARGET)
        if check_arrows:  # the arrows walk along the paths; Escape puts the troop back on the rack
            start = page.evaluate("document.activeElement.dataset.node")
            for key in ("ArrowUp", "ArrowLeft", "ArrowRight", "ArrowDown"):
                page.keyboard.press(key)
                if page.evaluate("document.activeElement.dataset.node") != start:
                    break
            assert page.evaluate("document.activeElement.dataset.node") != start
            assert focused(page, "#board .hit:focus-visible")
            page.keyboard.press("Escape")
            page.wait_for_function("!document.querySelector('#rack .rack-tile.picked')")
            assert focused(page, "#rack .rack-tile")
            page.keyboard.press("Enter")
            page.wait_for_function(ON_TARGET)
        page.keyboard.press("Enter")
    elif page.locator("#btn-draw").count():
        tab_to(page, "#btn-draw")
        page.keyboard.press("Enter")
    else:
        tab_to(page, "#btn-skip")
        page.keyboard.press("Enter")
    page.wait_for_function("([p]) => document.querySelector('#board').dataset.ply !== p", arg=[before])


def test_a_whole_game_by_keyboard_alone(desktop, live_server, shot):
    page = desktop
    start_game(page, live_server.url, terrain="castle", level="random", first="blue")
    page.wait_for_function(ME_TURN)
    assert page.get_attribute("#board", "role") == "group"
    assert "Your H.Q. is at the bottom." in page.locator("#board-desc").inner_text()
    rng = random.Random(5)
    for n in range(300):
        page.wait_for_function(ME_TURN)
        if page.eval_on_selector("#play", "p => p.dataset.over") == "1":
            break
        keyboard_one(page, rng, check_arrows=n == 0)
        if n == 2:
            label = page.eval_on_selector("#board .hit[tabindex='0']", "g => g.getAttribute('aria-label')")
            assert label.startswith(("Base ", "Blue H.Q.", "Red H.Q."))
    page.wait_for_selector("#endscreen")
    tab_to(page, "#btn-look")
    page.keyboard.press("Enter")
    tab_to(page, "#btn-result")
    page.keyboard.press("Enter")
    page.wait_for_selector("#endscreen")
    tab_to(page, "#btn-rematch")
    shot(page, "keyboard-end")
    assert page.js_errors == []


def test_a_lesson_fits_a_phone_and_leads_on(small_phone, live_server, shot):
    page = small_phone
    page.goto(live_server.url + "/#/learn")
    page.get_by_role("link", name="Which placement takes the medals?").click()
    page.wait_for_selector("#question")
    assert "(41)" not in page.locator("#app").inner_text()  # no number the board does not show
    span = page.evaluate("""() => { const b = document.querySelector('#lesson-board').getBoundingClientRect();
      const r = document.querySelector('.lesson-play .rack').getBoundingClientRect(); return r.bottom - b.top; }""")
    assert span <= 640  # the board and the rack on one screen: no scrolling between them on a try
    page.click('.rack button[data-troop="7"]')
    page.click('[data-node="12"]')
    page.wait_for_selector("#feedback.right")
    feedback = page.locator("#feedback").inner_text()
    assert not feedback.startswith("Right! Right")
    shot(page, "small-phone-lesson-right")
    page.click("#next")
    page.wait_for_function("!document.querySelector('#feedback') && !!document.querySelector('#question')")
    assert "Which placement takes the medals?" not in page.locator("h1").inner_text()
    assert page.js_errors == []


CONTRAST = """([a, b, prop]) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = c.map(lin);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const x = lum(rgb(getComputedStyle(document.querySelector(a))[prop]));
  const y = lum(rgb(getComputedStyle(document.querySelector(b)).fill));
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }"""


def test_marks_are_readable_and_a_first_game_draws_no_special_base(desktop, live_server, shot):
    page = desktop
    page.goto(live_server.url + "/")
    page.wait_for_selector("#newgame")
    page.locator("#newgame input[name=mode][value=first]").check(force=True)
    page.locator("#newgame input[name=first][value=blue]").check(force=True)
    page.select_option("#level", "random")
    page.click("#start")
    page.wait_for_function(ME_TURN)
    assert page.locator("#board .power").count() == 0 and page.locator("#board .restrict").count() == 0
    page.locator('#rack .rack-tile:not([data-troop="4"])').first.click()
    page.wait_for_selector("#board g.node.target")
    # a legal target: a solid ring of at least 3:1 against the ground; "connected": a thin dashed one
    assert page.evaluate(CONTRAST, [".target-ring", ".ground", "stroke"]) >= 3
    ring = page.eval_on_selector(".target-ring",
                                 "e => [getComputedStyle(e).strokeDasharray, getComputedStyle(e).strokeWidth]")
    assert ring[0] == "none" and float(ring[1].rstrip("px")) >= 3
    page.keyboard.press("Escape")
    for _ in range(4):  # play until some base is linked to the H.Q.
        if page.locator("#board .link-ring").count():
            break
        play_one(page, random.Random(1))
        page.wait_for_function(ME_TURN)
    assert page.evaluate(CONTRAST, [".link-ring", ".ground", "stroke"]) >= 3
    link = page.eval_on_selector(".link-ring", "e => getComputedStyle(e).strokeDasharray")
    assert link != "none"
    shot(page, "desktop-first-game")


def test_a_dropped_connection_is_shown_and_taps_meanwhile_are_told(small_phone, live_server, shot):
    page = small_phone
    sockets: list = []
    cut = {"on": False}

    def route(ws) -> None:  # the page's websocket goes through here: passed on, or refused while "cut"
        if cut["on"]:
            ws.close()
            return
        ws.connect_to_server()
        sockets.append(ws)
    page.route_web_socket("**/ws", route)
    start_game(page, live_server.url, terrain="castle", level="random", first="blue")
    page.wait_for_function(ME_TURN)
    before = ply(page)
    cut["on"] = True
    sockets[-1].close()
    page.wait_for_selector("#net-status:not(:empty)")
    status = page.locator("#net-status")
    assert "reconnecting" in status.inner_text()
    box = status.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 640
    assert page.evaluate("(e => e.scrollWidth <= e.clientWidth + 1)(document.querySelector('#net-status'))")
    shot(page, "small-phone-offline")
    page.click("#btn-draw")  # a tap while the connection is lost: said, not dropped silently
    page.wait_for_selector("#toast:not(.hidden)")
    assert "Not sent" in page.locator("#toast").inner_text()
    assert ply(page) == before
    cut["on"] = False  # the connection comes back by itself, and the tap can be made again
    page.wait_for_selector("#net-status:empty", state="attached", timeout=20000)
    page.click("#btn-draw")
    page.wait_for_function("([p]) => document.querySelector('#board').dataset.ply !== p", arg=[before])
    assert page.js_errors == []
