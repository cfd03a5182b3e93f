"""A lesson played with the keyboard alone (issue 14): Tab to the rack, Enter picks, the arrows walk the
board, Enter places; after each move the focus stays where a keyboard player expects it (the board, the
effect's buttons, "Retry", "Next lesson"), never lost to the page, and the feedback is read out through
the live region."""
from __future__ import annotations

import pytest

FOCUS = """(() => { const a = document.activeElement; const d = (a && a.dataset) || {};
  return { tag: a ? a.tagName.toLowerCase() : null, id: a ? a.id : null, node: d.node || null,
           troop: d.troop || null, action: d.action || null }; })()"""
TOWARD = """(node) => {
  const c = (e) => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
  const a = c(document.activeElement), b = c(document.querySelector(`#lesson-board g.node[data-node="${node}"]`));
  return [b[0] - a[0], b[1] - a[1]]; }"""


def focused(page) -> dict:
    return page.evaluate(FOCUS)


def tab_to(page, wanted: dict, limit: int = 40) -> None:
    """Press Tab until the focused element matches ``wanted`` (e.g. {"troop": "7"}), unless it does already."""
    for _ in range(limit):
        if all(focused(page).get(k) == v for k, v in wanted.items()):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {wanted}")


def arrow_to(page, node: int, limit: int = 20) -> None:
    """Walk the board's focus to ``node`` with the arrow keys, each step toward it on screen."""
    for _ in range(limit):
        here = focused(page)
        assert here["node"] is not None, f"the focus left the board: {here}"
        if here["node"] == str(node):
            return
        dx, dy = page.evaluate(TOWARD, node)
        keys = ["ArrowRight" if dx > 0 else "ArrowLeft", "ArrowDown" if dy > 0 else "ArrowUp"]
        for key in keys if abs(dx) >= abs(dy) else keys[::-1]:
            page.keyboard.press(key)
            if focused(page)["node"] != here["node"]:
                break
    raise AssertionError(f"the arrows never reached base {node} (at {focused(page)})")


def announced(page) -> str:
    page.wait_for_function("document.getElementById('announce').textContent.length > 0")
    return page.text_content("#announce")


@pytest.mark.slow
def test_a_lesson_by_keyboard_only(desktop, live_server):
    page = desktop
    page.goto(live_server.url + "/#/learn/roxy-medals")
    page.wait_for_selector("#question")
    assert focused(page)["tag"] == "h1"  # a lesson starts at its title
    # a wrong move: pick the Roxy, walk to 17, place it
    tab_to(page, {"troop": "7"})
    page.keyboard.press("Enter")
    assert focused(page)["node"] is not None  # a keyboard pick goes on to the board
    arrow_to(page, 17)
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback.wrong")
    assert focused(page)["id"] == "retry"
    assert "Advancing on the left" in announced(page)
    page.keyboard.press("Enter")  # Retry: a fresh try starts at the rack
    page.wait_for_selector("#feedback", state="detached")
    assert focused(page)["troop"] is not None
    # a refused tap keeps the focus on the board, and says which rule refuses it
    tab_to(page, {"troop": "7"})
    page.keyboard.press("Enter")
    arrow_to(page, 25)
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback.refused")
    assert focused(page)["node"] is not None
    assert "no path from your H.Q." in announced(page)
    # Escape puts the troop back and leaves the focus on the board
    page.keyboard.press("Escape")
    page.wait_for_selector(".rack button[data-troop='7'][aria-pressed='false']")
    assert focused(page)["node"] is not None
    # the right move: 12 closes the southern region
    tab_to(page, {"troop": "7"})
    page.keyboard.press("Enter")
    arrow_to(page, 12)
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback.right")
    assert focused(page)["id"] == "next"
    assert "3 medals" in announced(page)
    page.keyboard.press("Enter")  # Next lesson
    page.wait_for_function("location.hash === '#/learn/hook-isolated'")
    page.wait_for_selector("h1:focus")
    assert page.js_errors == []


@pytest.mark.slow
def test_an_effect_choice_by_keyboard(desktop, live_server):
    page = desktop
    page.goto(live_server.url + "/#/learn/star-draw")
    page.wait_for_selector("#question")
    tab_to(page, {"troop": "6"})
    page.keyboard.press("Enter")
    arrow_to(page, 13)
    page.keyboard.press("Enter")  # the Star is placed: its draw is offered on buttons
    page.wait_for_selector(".controls button[data-action='use']")
    assert focused(page)["action"] in ("use", "skip")
    assert announced(page) == page.text_content("#prompt")  # the next step's prompt is read out
    tab_to(page, {"action": "use"}, limit=5)
    page.keyboard.press("Enter")
    page.wait_for_selector("#feedback.right")
    assert focused(page)["id"] == "next"
    assert "4" in announced(page)
    # a hint by keyboard: the new hint is read out and the focus stays on the hint button
    # an old bookmark's address: the page loads again, so the last lesson's #question is not waited on
    page.goto(live_server.url + "/learn#/lesson/kwak-joker")
    page.wait_for_selector("#question")
    tab_to(page, {"id": "hint"})
    page.keyboard.press("Enter")
    page.wait_for_selector("#hints li")
    assert focused(page)["id"] == "hint"
    assert announced(page) == page.text_content("#hints li")
    assert page.js_errors == []
