"""The French page says French throughout (issue 14): a game against the bot (its log, menu, end screen and
replay), the watch page, lessons (hints, a wrong, a refused and a right move, a walkthrough, goals) and the
rules. The check is the catalogues themselves: every English text of the page's, the server's, the lessons'
and the rulebook's catalogues that French says differently must not show on the page, nor in the names a
screen reader reads (aria-label, title, placeholder)."""
from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path

import pytest
from test_app_browser import ME_TURN, play_one, start_game

import toybattle
from toybattle.lessons import rulebook

SRC = Path(toybattle.__file__).parent
SHOWN = """(() => { const names = [...document.querySelectorAll('[aria-label],[title],[placeholder]')].map(e =>
  [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder')].filter(Boolean).join(' '));
  return document.body.innerText + '\\n' + names.join('\\n') + '\\n' + document.title; })()"""


def _catalogue(path: str) -> dict[str, str]:
    """A catalogue's texts by key (an entry's plural forms as one text per form, joined by lines)."""
    data = json.loads((SRC / path).read_text("utf-8"))
    return {k: v if isinstance(v, str) else "\n".join(v.values()) for k, v in data.items()}


def _rulebook(lang: str) -> dict[str, str]:
    book = rulebook.load_in(lang)
    out = {f"{t.id}.title": t.title for t in book.topics}
    out |= {f"{t.id}.{k}": r.text for t in book.topics for k, r in enumerate(t.rules)}
    return out | {f"{q.id}.q": q.question for q in book.faq} | {f"{q.id}.a": q.answer for q in book.faq}


WORD = re.compile(r"\w")


def stands_in(part: str, text: str) -> bool:
    """Whether ``part`` occurs in ``text`` as words of its own (no word character joined on either side).
    A plain find first: a pattern that starts with a lookbehind makes the regex engine try every position."""
    at = text.find(part)
    while at != -1:
        end = at + len(part)
        if (at == 0 or not WORD.match(text[at - 1])) and (end == len(text) or not WORD.match(text[end])):
            return True
        at = text.find(part, at + 1)
    return False


@functools.cache
def english_fragments() -> tuple[str, ...]:
    """The English catalogues' words that French says otherwise: each text split at its placeholders,
    every part of two words or more (or one word of 5 letters) that no French text holds. Worked out
    when first asked for, not when the module is collected (the fast lane leaves these tests out)."""
    pairs = [(_catalogue(f"{d}/en.json"), _catalogue(f"{d}/fr.json"))
             for d in ("web/i18n", "said/data", "lessons/data/texts")] + [(_rulebook("en"), _rulebook("fr"))]
    french = "\n".join(v for _, fr in pairs for v in fr.values())
    parts = set()
    for en, fr in pairs:
        for key, text in en.items():
            if fr[key] == text:
                continue
            for part in re.split(r"\{\w+\}", text):
                part = part.strip(" .,:;!?()·-\u2013…\n")
                words = re.findall(r"[A-Za-z']+", part)
                if (len(words) >= 2 or (len(words) == 1 and len(part) >= 5 and part.isalpha())) and \
                        not stands_in(part, french):
                    parts.add(part)
    return tuple(sorted(parts, key=len, reverse=True))


def english_on(page) -> list[str]:
    """The English catalogue texts the page shows (or names for a screen reader)."""
    shown = page.evaluate(SHOWN)
    return sorted(p for p in english_fragments() if stands_in(p, shown))


def test_the_check_knows_the_english_words():
    said = english_fragments()
    assert len(said) > 400
    for text in ("Start the game", "Next lesson", "Not quite", "no path from your H.Q",
                 "Advancing on the left is legal, but it closes no region"):
        assert any(text in s for s in said), text
    assert stands_in("Next lesson", "Go on: Next lesson.") and not stands_in("Next lesson", "Next lessons")


@pytest.mark.slow
def test_the_check_sees_an_english_page(desktop, live_server):
    desktop.goto(live_server.url + "/#/learn/roxy-medals")
    desktop.wait_for_selector("#question")
    shown = english_on(desktop)  # the same page in English: the check finds its words
    assert "Which placement takes the medals" in shown and "Place your Roxy so that you take medals this very turn" \
        in shown and len(shown) >= 10


@pytest.mark.slow
def test_a_game_its_watch_page_and_its_end_in_french(french, live_server):
    page = french
    page.goto(live_server.url + "/")
    page.wait_for_selector("#newgame")
    assert english_on(page) == []
    start_game(page, live_server.url, terrain="castle", level="random")
    rng = random.Random(5)
    over = lambda: page.eval_on_selector("#play", "p => p.dataset.over") == "1"  # noqa: E731
    for n in range(6):
        page.wait_for_function(ME_TURN)
        if over():
            break
        assert english_on(page) == [], n
        play_one(page, rng)
    page.wait_for_function(ME_TURN)
    if over():
        page.click("#btn-look")
    page.click("#menu-btn")
    assert english_on(page) == []
    page.click("#btn-watch")
    page.wait_for_selector("#watch-url")
    assert english_on(page) == []
    watch_url = page.get_attribute("#watch-url", "href")
    watcher = page.context.new_page()
    watcher.goto(watch_url)
    watcher.wait_for_function("document.querySelector('#board g.node') && "
                              "document.querySelector('#prompt').textContent !== 'Connexion…'")
    assert watcher.locator(".title").inner_text().startswith("Vous regardez · ")
    assert english_on(watcher) == []
    page.click("#sheet .close")
    if over():
        page.click("#btn-result")
    else:
        page.click("#menu-btn")
        page.click("#btn-concede")
        page.click("#confirm-yes")
    page.wait_for_selector("#endscreen")
    assert english_on(page) == []
    watcher.wait_for_function("document.querySelector('#prompt').textContent.length > 0")
    assert english_on(watcher) == []
    page.click("#btn-replay")
    page.wait_for_selector("#replay-slider")
    assert english_on(page) == []
    assert page.js_errors == []


@pytest.mark.slow
def test_lessons_and_the_rules_in_french(french, live_server):
    page = french
    page.goto(live_server.url + "/#/learn")
    page.wait_for_selector("#progress")
    assert english_on(page) == []
    page.goto(live_server.url + "/#/learn/roxy-medals")
    page.wait_for_selector("#question")
    while page.locator("#hint").count():
        page.click("#hint")
    assert page.locator("#hints li").count() == 2
    assert english_on(page) == []
    for move, verdict in (("17", "wrong"), ("25", "refused"), ("12", "right")):
        page.click('.rack button[data-troop="7"]')
        assert english_on(page) == []  # the picked troop's prompt
        page.click(f'#lesson-board [data-node="{move}"]')
        page.wait_for_selector(f"#feedback.{verdict}")
        assert english_on(page) == [], verdict
        if verdict == "wrong":
            page.click("#retry")
    assert page.locator("#next").inner_text() == "Leçon suivante"
    # a walkthrough and a goal in words, at an old bookmark's address (the page loads again)
    page.goto(live_server.url + "/learn#/lesson/cover-star-roxy")
    page.wait_for_selector(".steps li")
    assert english_on(page) == []
    assert "Vérifier d'abord le coup" in page.locator(".steps").inner_text()
    page.goto(live_server.url + "/#/learn/battlefield-lay-down")  # a tank's blind pick
    # only the hash changes, so the last lesson's #question is still there until this one is drawn:
    # wait for this lesson's own board, or the taps below land on the last lesson's
    page.wait_for_selector("#lesson-board .ground-battlefield")
    page.click('.rack button[data-troop="7"]')
    page.click('#lesson-board [data-node="14"]')
    page.wait_for_selector(".controls button[data-action='use']")
    assert english_on(page) == []
    page.click(".controls button[data-action='use']")
    page.wait_for_selector("#feedback.right")
    assert english_on(page) == []
    page.goto(live_server.url + "/#/rules")
    page.wait_for_selector(".rules-topic")
    assert english_on(page) == []
    assert page.js_errors == []
