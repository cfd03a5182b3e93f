"""A learner in a real browser (Debian's chromium through Playwright): opens a lesson, asks for a hint,
plays a wrong move, retries and completes it; the progress is kept in localStorage."""
from __future__ import annotations

import asyncio
import threading

import pytest



@pytest.fixture(scope="module")
def server(tmp_path_factory):
    import uvicorn

    from toybattle.app.server import build_app
    from toybattle.store import Store

    app = build_app(Store(tmp_path_factory.mktemp("learn") / "games.sqlite"), bot_delay=0.0, resume=False)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(srv.serve(),), daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        threading.Event().wait(0.05)
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def page(server, browser):
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert errors == [], errors


def test_hint_wrong_move_retry_and_complete(server, page):
    page.goto(f"{server}/learn")
    page.get_by_role("link", name="Which placement takes the medals?").click()
    page.wait_for_selector("#question")
    assert "Roxy" in page.text_content("#question")

    page.click("#hint")
    assert "every base around it" in page.text_content("#hints")

    page.click('.rack button[data-troop="7"]')
    page.click('[data-node="17"]')                      # advancing left: legal, but no medals
    page.wait_for_selector("#feedback.wrong")
    assert "Advancing on the left" in page.text_content("#feedback")

    page.click("#retry")
    page.wait_for_selector("#feedback", state="detached")
    page.click('.rack button[data-troop="7"]')
    assert page.locator('[data-node="12"].target').count() == 1   # legal slots are highlighted
    page.click('[data-node="12"]')
    page.wait_for_selector("#feedback.right")
    assert "3 medals" in page.text_content("#feedback")

    page.goto(f"{server}/learn#/")
    page.wait_for_selector('[data-lesson="roxy-medals"] .done-mark')
    assert page.evaluate("JSON.parse(localStorage.getItem('toybattle.learn.progress'))['roxy-medals']") == "done"


def test_refused_move_then_effect_choice(server, page):
    page.goto(f"{server}/learn#/lesson/kwak-joker")
    page.wait_for_selector("#question")
    page.click('.rack button[data-troop="7"]')
    page.click('[data-node="18"]')                      # Roxy on Roxy: the engine refuses
    page.wait_for_selector("#feedback.refused")
    assert "strictly more strength" in page.text_content("#feedback")
    page.click('.rack button[data-troop="3"]')
    page.click('[data-node="13"]')
    page.wait_for_selector('[data-node="18"].target')   # Jumbo's targets
    page.click('[data-node="18"]')
    page.wait_for_selector("#feedback.wrong")
    assert "left empty" in page.text_content("#feedback")


def test_rules_page(server, page):
    page.goto(f"{server}/learn#/rules")
    page.wait_for_selector("#rules-troops")
    assert "Can Kwak cover a Roxy?" in page.text_content("#rules-troops")
