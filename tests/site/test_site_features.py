"""The static site shows only what works there, in the page's language: no two-device game, no invite or
watch link (another device cannot reach a browser's own app: the app says so, /api/meta's features have no
"lan"), every menu entry it shows works, and its start-up lines come in French to a French browser."""
from __future__ import annotations

import os
import sys

import pytest
from starlette.testclient import TestClient

from toybattle.app import server
from toybattle.assembly import PARTS, build_app
from toybattle.store import Store

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "browser"))
from site_harness import BOOT, PHONE
from test_app_browser import ME_TURN, start_game  # the app's own UI steps

KINDS = "[...document.querySelectorAll('#newgame input[name=kind]')].map(i => i.value)"
TOAST = "(() => { const t = document.querySelector('#toast'); return t && !t.classList.contains('hidden') ? " \
        "t.textContent : ''; })()"
# the menu's entries, in order, that a player sees (the language switch's buttons included)
VISIBLE = "[...document.querySelectorAll('#sheet .menu .btn')].filter(b => b.offsetParent !== null)"
ENTRIES = VISIBLE + ".map(b => b.tagName === 'A' ? 'link' : b.id || b.dataset.lang || b.textContent)"
# every text the page's start-up paragraph shows, from the first script on
# every start-up line the page shows (the progress line while a game waits for Python, net.js), in order
LINES = """
window.__lines = [];
new MutationObserver(() => {
  const p = document.querySelector('#site-progress p');
  if (p && window.__lines.at(-1) !== p.textContent) window.__lines.push(p.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def test_the_served_app_offers_two_devices_and_the_site_s_app_does_not(tmp_path):
    served = build_app(Store(tmp_path / "served.sqlite"), bot_delay=0.0, resume=False)  # CPython: the server's default
    in_browser = server.build_app(Store(tmp_path / "site.sqlite"), parts=PARTS, bot_delay=0.0, resume=False, lan=False)
    for app, offered in ((served, True), (in_browser, False)):
        with TestClient(app, base_url="http://127.0.0.1") as c:
            assert ("lan" in c.get("/api/meta").json()["features"]) is offered
            game = c.post("/api/games", json={"kind": "bot", "level": "random"}).json()
            token = next(iter(game["tokens"].values()))
            watch = c.get(f"/api/games/{game['game']}/watch?token={token}")
            assert (watch.status_code == 200) is offered, watch.text
            # a two-device game asked for anyway is refused in one line, in the page's language
            for lang, words in (("en", "two devices"), ("fr", "deux appareils")):
                lan = c.post("/api/games", json={"kind": "lan"}, headers={"accept-language": lang})
                assert (lan.status_code == 200) is offered, lan.text
                if not offered:
                    assert lan.status_code == 409 and words in lan.json()["error"], lan.text


@pytest.mark.slow
def test_the_site_offers_no_two_device_game_and_its_menu_only_what_works(site, recorded):
    page = recorded.page()
    page.goto(site + "/")
    page.wait_for_selector("#newgame")
    kinds = page.evaluate(KINDS)
    assert "lan" not in kinds and {"bot", "hotseat"} <= set(kinds), kinds
    start_game(page, site, terrain="castle", level="random")
    page.wait_for_function(ME_TURN)
    page.click("#menu-btn")
    entries = page.evaluate(ENTRIES)
    assert "btn-invite" not in entries and "btn-watch" not in entries, entries
    assert "btn-concede" in entries and "menu-troops" in entries and "fr" in entries, entries
    page.click("#sheet .close")
    # open each entry but the ones that leave the game (home, the other language), then those
    for n, entry in enumerate(entries):
        if entry in ("link", "fr"):
            continue
        page.click("#menu-btn")
        page.locator("#sheet .menu .btn:visible").nth(n).click()
        if entry == "btn-concede":
            page.wait_for_selector("#confirm-yes")
        assert page.evaluate(TOAST) == "", entry
        assert "error" not in page.locator("body").inner_text().lower(), entry
        if page.locator("#sheet").count():
            page.click("#sheet .close")
        assert page.locator("#play").count() == 1, entry
    page.click("#menu-btn")
    page.locator("#sheet .menu a.btn").first.click()  # the menu's one link: home
    page.wait_for_selector("#newgame")
    page.go_back()
    page.wait_for_function(ME_TURN)
    page.click("#menu-btn")
    page.click("#sheet .menu .btn[data-lang=fr]")  # the page again, in French
    page.wait_for_function("document.documentElement.lang === 'fr' && document.querySelector('#play')")
    page.wait_for_function(ME_TURN)
    assert recorded.errors == []
    assert recorded.foreign() == []


@pytest.mark.slow
def test_a_french_browser_starts_the_site_in_french(site, browser):
    context = browser.new_context(**PHONE, locale="fr-FR")
    context.set_default_timeout(BOOT)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(LINES)
        page.goto(site + "/")
        page.wait_for_selector("#newgame")
        assert page.locator("#start").inner_text() == "Lancer la partie"  # before Python: the page's own words
        page.click("#start")  # a first visit: the game waits for Python, and says so
        page.wait_for_selector("#play")
        lines = page.evaluate("window.__lines")
        assert lines, "no start-up line was shown while the game waited for Python"
        for line in lines:  # the download's bytes, then the stages
            assert line.startswith(("Chargement de Toy Battle", "Téléchargement de Toy Battle", "Toy Battle s'installe",
                                    "Démarrage de Python", "Python a démarré", "Préparation du jeu")), lines
        assert errors == []
    finally:
        context.close()
