"""The French page (issue 14): a browser set to French gets the app in French throughout a game against
the bot, a lesson and the rules page; the menu's switch changes the language and is remembered."""
from __future__ import annotations

import random
import re

import pytest
from devices import DESKTOP
from test_app_browser import ME_TURN, play_one, start_game

# common English words of the app's screens: none may show on a French page
ENGLISH = re.compile(r"\b(You|Your|your|turn|places|draws|tiles?|rack|reserve|medals?|Skip|Hint|Home|Troops|covering|"
                     r"wins?|Blue|Red|Draw|Rematch|Replay|Result|Look|Connecting|Loading|Waiting|Discard|log|"
                     r"Lessons|Rules|Retry|Play|Next|Step|empty|strength|objective)\b")


def english_on(page, selector: str = "body") -> list[str]:
    """The English words on screen in ``selector`` (a rule's source, a citation, is left out)."""
    text = page.evaluate(f"""[...document.querySelectorAll({selector!r})].map(e => {{
      if (!e.querySelector('.source')) return e.innerText;
      const c = e.cloneNode(true);
      c.querySelectorAll('.source').forEach(s => s.remove());
      return c.textContent;
    }}).join(' ')""")
    return sorted(set(ENGLISH.findall(text)))


@pytest.mark.slow
def test_a_whole_game_against_the_bot_in_french(french, live_server, shot):
    page = french
    page.goto(live_server.url + "/")
    page.wait_for_selector("#newgame")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("#start").inner_text() == "Lancer la partie"
    assert english_on(page) == []
    start_game(page, live_server.url, terrain="caribbean", level="random")
    rng = random.Random(3)
    for n in range(300):
        page.wait_for_function(ME_TURN)
        if page.eval_on_selector("#play", "p => p.dataset.over") == "1":
            break
        if n % 5 == 1:  # the board, strips, prompt, ticker, rack and side log, mid-game
            assert english_on(page) == [], n
            page.click("#log-btn")  # the whole log, in a sheet
            assert english_on(page, "#sheet") == []
            page.click("#sheet .close")
        play_one(page, rng)
    page.wait_for_selector("#endscreen")
    shot(page, "french-end")
    assert english_on(page) == []
    said = page.locator("#end-title").inner_text() + page.locator("#end-reason").inner_text()
    assert re.search(r"gagne|gagnez", said)
    page.click("#btn-look")
    page.click("#menu-btn")
    assert english_on(page, "#sheet") == []
    page.click("#sheet .close")
    page.click("#btn-result")
    page.click("#btn-replay")
    page.wait_for_selector("#replay-slider")
    assert page.locator("#replay-step").inner_text().startswith("Étape")
    assert english_on(page) == []
    page.goto(live_server.url + "/#/troops")
    page.wait_for_selector(".card-grid")
    assert "Mastok" in page.locator("main").inner_text() and "Jumbo" not in page.locator("main").inner_text()
    assert english_on(page) == []
    assert page.js_errors == []


@pytest.mark.slow
def test_a_lesson_and_the_rules_page_in_french(french, live_server, shot):
    page = french
    page.goto(live_server.url + "/#/learn")
    page.wait_for_selector("#progress")
    assert english_on(page, "#app, .topbar") == []  # the topics and lessons by their French titles
    page.goto(live_server.url + "/#/learn/roxy-medals")
    page.wait_for_selector("#question")
    page.click('.rack button[data-troop="7"]')
    # the game's parts of the lesson: the prompt, the rack, the buttons, the bar, the board's words
    chrome = ".topbar, #prompt, .rack, .controls, .bar, .lesson-play > .meta, form.type-move"
    assert english_on(page, chrome) == []
    page.click('[data-node="12"]')
    page.wait_for_selector("#feedback.right")
    assert page.locator("#next").inner_text() == "Leçon suivante"
    assert english_on(page, chrome) == []
    shot(page, "french-lesson")
    page.goto(live_server.url + "/#/rules")
    page.wait_for_selector(".rules-topic")
    assert english_on(page, "#app") == []  # every rule, question and answer
    assert "Mastok" in page.locator("#app").inner_text()
    assert page.js_errors == []


@pytest.mark.slow
def test_the_switch_changes_the_language_and_is_remembered(browser, live_server):
    ctx = browser.new_context(bypass_csp=True, locale="en-GB", **DESKTOP)
    page = ctx.new_page()
    page.goto(live_server.url + "/")
    page.wait_for_selector("#newgame")
    assert page.locator("#start").inner_text() == "Start the game"
    page.click(".lang-switch [data-lang=fr]")
    page.wait_for_function("document.querySelector('#start')?.textContent === 'Lancer la partie'")
    page.goto(live_server.url + "/#/learn")
    page.wait_for_selector("#progress")
    assert page.locator("h1").inner_text() == "Apprendre à jouer"
    page.click(".lang-switch [data-lang=en]")
    page.wait_for_function("document.querySelector('h1')?.textContent === 'Learn to play'")
    ctx.close()


def test_counts_follow_each_languages_plural_rule(french, live_server):
    """Issue 27: the page's plurals come from CLDR's rules (Intl.PluralRules): French says "0 médaille"."""
    french.goto(live_server.url + "/")
    french.wait_for_selector("#newgame")
    said = french.evaluate("""async () => { const { tn } = await import('/static/js/i18n.js');
      return [0, 1, 2].map((n) => tn('card.region', n, { id: 7 })); }""")
    assert said == ["Région 7 : 0 médaille", "Région 7 : 1 médaille", "Région 7 : 2 médailles"], said
