"""Chat between two online pages, each on its own app, through the local mailbox: a line typed on one
page shows on the other as text (HTML in it stays text); a quick phrase from a French page reads in
English on an English one."""
from __future__ import annotations

import json
import threading

import httpx
import pytest

from .test_browser import serve  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow

HTML = "<img src=x id=evil>hi"


def _open(browser, base: str, room: dict, locale: str = "en-GB"):
    ctx = browser.new_context(viewport={"width": 360, "height": 640}, bypass_csp=True, locale=locale)  # for the waits
    ctx.set_default_timeout(30000)
    page = ctx.new_page()
    entry = {room["game"]: {"kind": "online", "tokens": {room["seat"]: room["token"]}}}
    page.add_init_script(f"localStorage.setItem('tb.games', {json.dumps(json.dumps(entry))});")
    page.goto(f"{base}/#/game/{room['game']}")
    return ctx, page


def test_two_online_pages_chat(serve, mailbox, browser):  # noqa: F811
    a, b = serve("alice", mailbox), serve("bob", mailbox)
    host = httpx.post(f"{a}/api/online/host", json={"relay": mailbox}, timeout=30).json()
    assert "error" not in host, host
    joined: list[dict] = []
    t = threading.Thread(target=lambda: joined.append(
        httpx.post(f"{b}/api/online/join", json={"relay": mailbox, "code": host["code"]}, timeout=60).json()))
    t.start()
    t.join(60)
    assert joined and "error" not in joined[0], joined
    (ca, pa), (cb, pb) = _open(browser, a, host), _open(browser, b, joined[0], "fr-FR")  # bob reads French
    try:
        pa.wait_for_selector("#chat-btn:not(.hidden)")
        pa.click("#chat-btn")
        pa.fill("#chat-input", HTML)
        pa.click("#chat-send")
        pb.wait_for_selector("#chat-btn.unread")
        pb.click("#chat-btn")
        assert pb.locator("#chat-lines .chat-text").first.inner_text() == HTML
        assert pb.locator("#evil").count() == 0
        assert pb.inner_text('.chat-quick button[data-phrase="luck"]') == "Bonne chance !"
        pb.click('.chat-quick button[data-phrase="luck"]')  # sent as its key over the wire, outside the chain
        pa.wait_for_function("document.querySelectorAll('#chat-lines .chat-line').length === 2")
        assert pa.locator("#chat-lines .chat-line .chat-text").nth(1).inner_text() == "Good luck!"  # alice's words
        pb.wait_for_selector("#chat-lines .chat-line.mine")
        assert pb.locator("#chat-lines .chat-line.mine .chat-text").inner_text() == "Bonne chance !"
    finally:
        ca.close()
        cb.close()
