"""The static site in Debian's chromium: the app running on Pyodide in a Web Worker, served by a plain
static file server. Every step waits for a state of the page, never for time; every request is
recorded and none may leave this machine."""
from __future__ import annotations

import os
import random
import shutil
import sys

import pytest

from toybattle.site import build

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "browser"))
from site_harness import Recorded, serving, wait_installed
from test_app_browser import ME_TURN, play_one, play_to_the_end, ply, start_game  # the app's own UI steps

pytestmark = pytest.mark.slow

CONTROLLED = "navigator.serviceWorker && navigator.serviceWorker.controller !== null"


def play_moves(page, n: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        page.wait_for_function(ME_TURN)
        play_one(page, rng)
    page.wait_for_function(ME_TURN)


def test_a_whole_game_against_the_default_bot_by_tapping(site, recorded):
    page = recorded.page()
    start_game(page, site, terrain="castle", level=None)
    assert page.eval_on_selector("meta[name=toybattle-transport]", "m => m.content") == "worker"
    play_to_the_end(page, random.Random(11))
    assert "win" in page.locator("#end-title").inner_text() and page.locator("#end-reason").inner_text().strip()
    assert recorded.foreign() == []
    assert recorded.errors == []
    # nothing answered but the static files: no request ever reached an API on the static server
    assert not [u for u in recorded.requests if "/api/" in u or u.endswith("/ws")]


def test_offline_the_site_loads_and_a_saved_game_resumes(site, recorded):
    page = recorded.page()
    start_game(page, site, terrain="pool", level="random")
    play_moves(page, 2, seed=5)
    before = (ply(page), page.locator("#rack").inner_text())
    page.wait_for_function(CONTROLLED)  # the service worker has cached the site and controls the page
    recorded.context.set_offline(True)
    page.reload()
    page.wait_for_function(ME_TURN)
    assert (ply(page), page.locator("#rack").inner_text()) == before
    # the home screen, offline too, lists the game and resumes it
    page.goto(site + "/")
    page.wait_for_selector(".game-item a.btn.primary")
    page.locator(".game-item a.btn.primary").first.click()
    page.wait_for_function(ME_TURN)
    assert ply(page) == before[0]
    assert recorded.foreign() == []
    assert recorded.errors == []


def test_closing_the_page_mid_game_and_coming_back_resumes_at_the_same_move(site, recorded):
    page = recorded.page()
    start_game(page, site, terrain="jungle", level="random")
    play_moves(page, 3, seed=8)
    url, before = page.url, (ply(page), page.locator("#rack").inner_text())
    page.close()
    again = recorded.page()
    again.goto(url)
    again.wait_for_function(ME_TURN)
    assert (ply(again), again.locator("#rack").inner_text()) == before
    assert recorded.foreign() == []
    assert recorded.errors == []


def test_a_lesson_to_its_end_then_play_on_against_a_bot(site, recorded):
    page = recorded.page()
    page.goto(f"{site}/learn#/lesson/roxy-medals")
    page.wait_for_selector("#question")
    page.click('.rack button[data-troop="7"]')
    page.click('[data-node="17"]')  # legal, but takes no medals: the lesson says so
    page.wait_for_selector("#feedback.wrong")
    page.click("#retry")
    page.wait_for_selector("#feedback", state="detached")
    page.click('.rack button[data-troop="7"]')
    page.click('[data-node="12"]')
    page.wait_for_selector("#feedback.right")
    # playing on opens the game screen of the same page: the same worker, the same saved games
    page.click("#continue")
    page.wait_for_url("**/#/game/*")
    page.wait_for_function(ME_TURN)
    page.goto(f"{site}/learn#/")
    page.wait_for_selector('[data-lesson="roxy-medals"] .done-mark')
    assert recorded.foreign() == []
    assert recorded.errors == []


def test_hot_seat_covers_the_screen_between_turns(site, recorded):
    page = recorded.page()
    start_game(page, site, kind="hotseat", terrain="castle", level=None, first="blue")
    rng = random.Random(3)
    for _ in range(2):
        page.wait_for_function(ME_TURN)
        seat = page.eval_on_selector("#play", "p => p.dataset.seat")
        while page.eval_on_selector("#play", "p => p.dataset.actor") == seat and not page.locator("#cover").count():
            play_one(page, rng)
        page.wait_for_selector("#cover")
        nxt = "red" if seat == "blue" else "blue"
        assert page.locator("#cover h2").inner_text() == f"{nxt.capitalize()}'s turn"
        page.click("#cover-go")
        page.wait_for_function(f"document.querySelector('#play').dataset.seat === '{nxt}' "
                               "&& !document.querySelector('#cover')")
    assert recorded.foreign() == []
    assert recorded.errors == []


def test_an_update_is_picked_up_on_the_next_visit_and_keeps_saved_games(site_dir, tmp_path, browser):
    www = tmp_path / "www"
    shutil.copytree(site_dir, www)
    profile = tmp_path / "profile"

    def visit(path: str) -> tuple[Recorded, object]:
        rec = Recorded(browser, profile)
        page = rec.page()
        page.goto(url + path)
        return rec, page

    with serving(www) as url:
        rec, page = visit("/")
        start_game(page, url, terrain="castle", level="random")
        play_moves(page, 2, seed=21)
        game, before = page.url, (ply(page), page.locator("#rack").inner_text())
        page.wait_for_function(CONTROLLED)
        old = page.evaluate("caches.keys()")
        rec.context.close()
        # a new release: one file changes, and the builder derives a new version and file list
        css = www / "static/css/app.css"
        css.write_text(css.read_text() + "\n#app { --release-mark: 2; }\n")
        version = build._service_worker(www, build._static())["version"]
        assert [f"toybattle-{version}"] != old
        # this visit notices the new sw.js: the new version installs in the background
        rec, page = visit("/")
        wait_installed(page, www)
        assert f"toybattle-{version}" in page.evaluate("caches.keys()")
        page.close()
        # the next visit is served the new files, and the saved game is still there
        page = rec.page()
        page.goto(game)
        page.wait_for_function(ME_TURN)
        assert "--release-mark: 2" in page.evaluate("fetch('/static/css/app.css').then(r => r.text())")
        assert (ply(page), page.locator("#rack").inner_text()) == before
        assert rec.foreign() == [] and rec.errors == []
        rec.context.close()


def test_a_second_tab_waits_until_the_first_is_closed(site, recorded):
    first = recorded.page()
    start_game(first, site, terrain="castle", level="random")
    second = recorded.page()
    second.goto(site + "/")
    second.wait_for_selector("#newgame")  # the home needs no Python: it shows at once
    second.wait_for_selector("#site-notice >> text=open in another tab")  # but its Python waits for the games file
    assert second.evaluate("document.documentElement.dataset.python") != "ready"
    first.close()  # its worker ends, and with it its hold on the saved games
    second.wait_for_function("document.documentElement.dataset.python === 'ready'")
    assert not second.locator("#site-notice").count()  # the line went with the wait
    second.wait_for_selector(".game-item")  # the first tab's game is there
    assert recorded.foreign() == [] and recorded.errors == []
