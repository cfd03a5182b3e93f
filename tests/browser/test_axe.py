"""axe-core (pinned and checksum-verified, axe.py beside this file) on every page at 360x640: no serious
or critical accessibility violation on home, play (its menu too), replay, the troops handbook, the
watch page, learn, a lesson and the rules; a two-device game's chat; the home page, a game (its menu
too) a lesson (its feedback too) and the rules in French."""
from __future__ import annotations

import axe
import pytest
from devices import SMALL_PHONE
from test_app_browser import ME_TURN, start_game
from test_chat_sound import join_lan
from test_phone_play import uncut

pytestmark = pytest.mark.slow
FITS = "(s) => { const e = document.querySelector(s); return e.scrollWidth <= e.clientWidth + 1; }"

RUN = """async () => { const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({ id: v.id, impact: v.impact, help: v.help,
                 nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ')) })); }"""


@pytest.fixture(scope="module")
def axe_script() -> str:
    return axe.script()


def _violations(page, axe_script: str) -> list[dict]:
    page.add_script_tag(content=axe_script)
    return page.evaluate(RUN)


def _finished_game(page, base: str) -> str:
    """A bot game conceded at once (a finished game has a replay); its id."""
    start_game(page, base, terrain="castle", level="random")
    page.wait_for_function(ME_TURN)
    game = page.evaluate("location.hash.split('/').pop()")
    page.click("#menu-btn")
    page.click("#btn-concede")
    page.click("#confirm-yes")
    page.wait_for_selector("#endscreen")
    return game


def test_every_page_has_no_serious_accessibility_violation(small_phone, live_server, axe_script):
    page = small_phone
    found: dict[str, list[dict]] = {}
    base = live_server.url
    page.goto(base + "/")
    page.wait_for_selector("#newgame")
    found["home"] = _violations(page, axe_script)
    game = _finished_game(page, base)
    page.click("#btn-look")
    found["play (end)"] = _violations(page, axe_script)
    start_game(page, base, terrain="castle", level="random")
    page.wait_for_function(ME_TURN)
    page.click("#rack .rack-tile >> nth=0")  # a troop picked: its card and the targets
    found["play"] = _violations(page, axe_script)
    page.click("#menu-btn")  # the menu: the sound switch, the language switch, the watch link
    page.wait_for_selector("#btn-sound")
    found["play (menu)"] = _violations(page, axe_script)
    page.click("#btn-watch")
    watch = page.get_attribute("#watch-url", "href")
    page.goto(f"{base}/#/replay/{game}")
    page.wait_for_selector("#board")
    found["replay"] = _violations(page, axe_script)
    page.goto(f"{base}/#/troops")
    page.wait_for_selector(".card")
    found["troops"] = _violations(page, axe_script)
    page.goto(watch)
    page.wait_for_function("document.querySelector('#board') && document.querySelector('#board').dataset.ply")
    found["watch"] = _violations(page, axe_script)
    page.goto(f"{base}/#/learn")
    page.wait_for_selector("#progress")
    page.wait_for_load_state("networkidle")
    found["learn"] = _violations(page, axe_script)
    page.goto(f"{base}/#/learn/roxy-medals")
    page.wait_for_selector("#question")
    found["lesson"] = _violations(page, axe_script)
    page.goto(f"{base}/#/rules")
    page.wait_for_selector(".rules-topic")
    found["rules"] = _violations(page, axe_script)
    _none_serious(found)


def test_the_chat_and_the_french_page_have_no_serious_accessibility_violation(small_phone, browser, live_server,
                                                                               axe_script):
    found: dict[str, list[dict]] = {}
    guest_ctx = browser.new_context(bypass_csp=True, locale="fr-FR", **SMALL_PHONE)  # the guest reads French
    guest = guest_ctx.new_page()
    join_lan(small_phone, guest, live_server.url)
    small_phone.wait_for_selector("#chat-btn:not(.hidden)")
    small_phone.click("#chat-btn")
    small_phone.fill("#chat-input", "hello")
    small_phone.click("#chat-send")
    small_phone.wait_for_selector("#chat-lines .chat-line.mine")
    found["chat"] = _violations(small_phone, axe_script)
    guest.wait_for_selector("#chat-btn.unread")
    assert guest.inner_text("#chat-btn") == "Tchat (1 nouveau)"
    assert uncut(guest) == [] and guest.evaluate(FITS, "#chat-btn")  # the French words fit a small phone's top bar
    guest.click("#chat-btn")
    assert guest.locator(".chat-quick button").all_inner_texts()[:2] == ["Bonne chance !", "Bien joué !"]
    guest.click(".chat-quick button >> nth=0")
    small_phone.wait_for_selector("#chat-lines .chat-line.red")
    assert small_phone.inner_text("#chat-lines .chat-line.red .chat-text") == "Good luck!"  # in its reader's words
    found["chat (French)"] = _violations(guest, axe_script)
    guest_ctx.close()
    french_ctx = browser.new_context(bypass_csp=True, locale="fr-FR", **SMALL_PHONE)
    french = french_ctx.new_page()
    french.goto(live_server.url + "/")
    french.wait_for_selector("#newgame")
    assert french.locator("html").get_attribute("lang") == "fr"
    found["home (French)"] = _violations(french, axe_script)
    start_game(french, live_server.url, terrain="castle", level="random")
    french.wait_for_function(ME_TURN)
    french.click("#rack .rack-tile >> nth=0")  # a troop picked: its card and the targets, in French
    assert french.locator("#btn-draw").inner_text() != "Draw"
    found["play (French)"] = _violations(french, axe_script)
    french.click("#menu-btn")
    french.wait_for_selector("#btn-sound")
    found["play (French, menu)"] = _violations(french, axe_script)
    french.goto(f"{live_server.url}/#/learn/roxy-medals")
    french.wait_for_selector("#question")
    assert french.locator("html").get_attribute("lang") == "fr" and "Roxy" in french.inner_text("#question")
    found["lesson (French)"] = _violations(french, axe_script)
    french.click('.rack button[data-troop="7"]')
    french.click('[data-node="17"]')  # a wrong move: the feedback and Retry
    french.wait_for_selector("#feedback.wrong")
    found["lesson (French, feedback)"] = _violations(french, axe_script)
    french.goto(f"{live_server.url}/#/rules")
    french.wait_for_selector(".rules-topic")
    found["rules (French)"] = _violations(french, axe_script)
    french_ctx.close()
    _none_serious(found)


def _none_serious(found: dict[str, list[dict]]) -> None:
    bad = {name: v for name, v in found.items() if v}
    assert not bad, "\n".join(f"{name}: {x['impact']} {x['id']} ({x['help']}) at {x['nodes']}"
                              for name, vs in bad.items() for x in vs)
