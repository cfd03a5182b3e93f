"""Learn is screens of the app's one page (issue 24, "one Python per visit"): home -> the lesson list ->
a lesson -> back -> the rules -> back -> home, the troops, a lesson played on against a bot and back, all
without the page ever loading again (a mark set on the window once is still there at the end: on the
static site, a page load would start Python again); the back and forward buttons walk the screens; the old
Learn page's addresses (bookmarks: /learn, /learn#/rules, /learn#/lesson/ID) land on the same screens."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

MARK = "window.__oneVisit"


def screen(page, url: str, selector: str) -> None:
    """Wait for the screen drawn at ``url``: its address, then its content."""
    page.wait_for_url(url)
    page.wait_for_selector(selector)


def test_home_learn_a_lesson_the_rules_and_back_in_one_page(desktop, live_server):
    page, base = desktop, live_server.url
    loads: list[str] = []
    page.on("load", lambda p: loads.append(p.url))
    page.goto(base + "/")
    page.wait_for_selector("#newgame")
    page.evaluate(f"{MARK} = 'still here'")

    page.locator("a.btn.primary[href$='/#/learn']").click()  # the home's "Learn to play"
    screen(page, base + "/#/learn", "#progress")
    assert page.locator("#nav-lessons.here").count() == 1 and page.locator("#nav-rules.here").count() == 0
    page.get_by_role("link", name="Which placement takes the medals?").click()
    screen(page, base + "/#/learn/roxy-medals", "#question")
    assert "Roxy" in page.text_content("#question")

    page.go_back()
    screen(page, base + "/#/learn", "#progress")
    assert page.locator("#question").count() == 0
    page.click("#nav-rules")
    screen(page, base + "/#/rules", ".rules-topic")
    assert page.locator("#nav-rules.here").count() == 1 and page.title().startswith("Rules")

    page.go_back()
    screen(page, base + "/#/learn", "#progress")
    page.go_back()
    screen(page, base + "/", "#newgame")
    assert page.locator("#nav-lessons").count() == 0 and page.title() == "Toy Battle"
    page.go_forward()
    screen(page, base + "/#/learn", "#progress")

    page.click(".topbar a[href='#/']")  # Learn's way home, then the troops and back
    screen(page, base + "/#/", "#newgame")
    page.click("#troops-link")
    screen(page, base + "/#/troops", ".card")
    page.go_back()
    screen(page, base + "/#/", "#newgame")

    assert page.evaluate(MARK) == "still here"  # the page never loaded again
    assert loads == [base + "/"]
    assert page.js_errors == []


def test_a_lesson_played_on_against_a_bot_stays_in_the_page(desktop, live_server):
    page, base = desktop, live_server.url
    page.goto(base + "/#/learn/roxy-medals")
    page.wait_for_selector("#question")
    page.evaluate(f"{MARK} = 'still here'")
    page.click('.rack button[data-troop="7"]')
    page.click('[data-node="12"]')
    page.wait_for_selector("#feedback.right")
    page.click("#continue")
    page.wait_for_url("**/#/game/*")  # the join link's route, put in place by the game's own address
    page.wait_for_selector('svg#board g[data-node="12"].held.blue')  # the learner's Roxy, in the game
    game = page.url.rsplit("/", 1)[1]
    assert page.evaluate(f"JSON.parse(localStorage.getItem('tb.games'))[{game!r}].tokens.blue")  # the seat is kept
    page.go_back()  # back to the lesson, not to the join link
    screen(page, base + "/#/learn/roxy-medals", "#question")
    assert page.evaluate(MARK) == "still here"
    assert page.js_errors == []


@pytest.mark.parametrize("old,new,selector", [
    ("/learn", "/#/learn", "#progress"),
    ("/learn#/", "/#/learn", "#progress"),
    ("/learn#/rules", "/#/rules", ".rules-topic"),
    ("/learn#/lesson/kwak-joker", "/#/learn/kwak-joker", "#question"),
], ids=["list", "list-hash", "rules", "lesson"])
def test_the_old_learn_addresses_land_on_the_same_screens(desktop, live_server, old, new, selector):
    page, base = desktop, live_server.url
    page.goto(base + "/#/troops")
    page.wait_for_selector(".card")
    page.goto(base + old)
    screen(page, base + new, selector)  # the address put right, in place of the old one
    page.go_back()  # the page before it, not the old address again
    screen(page, base + "/#/troops", ".card")
    assert page.js_errors == []
