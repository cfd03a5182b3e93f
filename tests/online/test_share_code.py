"""Sharing a room's code from a phone (360x640, touch): the code on one line, a copy button that puts the
exact code in the clipboard, a share button (Web Share) whose link opens this same site's join form with
the code in the fragment, never in the path or query; a loopback page (the desktop app) shares the code
alone; a link's `#join=CODE` fills the join form and leaves the address bar; a malformed one is one line.

The app is a real `toybattle serve` whose rooms use the local mailbox. The browser has no share sheet
headless: an init script stands in for `navigator.share` and records what the page hands it. The link form
needs a page on a host that is not loopback, which the app refuses to serve (its Host check): a page on
http://toybattle.example/toybattle/ is answered by the test with the app's own files and API, and its
websocket by a room that waits, so the page's real code builds and shares the link there.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

CODE = re.compile(r"^\d+(-[a-z]+){2,}$")
PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
# a share sheet stand-in: it records the data it is handed, as a phone's would show it
SHARE_STUB = """Object.defineProperty(Navigator.prototype, 'share', { configurable: true, writable: true,
  value: function (data) { (window.__shared = window.__shared || []).push(JSON.parse(JSON.stringify(data)));
    return Promise.resolve(); } });"""
NO_SHARE = "delete Navigator.prototype.share; delete navigator.share;"  # a desktop browser
FAR = "http://toybattle.example"  # a host that is not this machine; its pages come from the test (served())
BASE = "/toybattle/"  # the sub-path the site is hosted under there


@pytest.fixture(scope="module")
def app(mailbox, tmp_path_factory):
    """Base URL of a `toybattle serve` whose rooms use the local mailbox (its log in a file: never a full pipe)."""
    d = tmp_path_factory.mktemp("share")
    log = d / "serve.log"
    env = dict(os.environ, TOYBATTLE_RELAY=mailbox, PYTHONUNBUFFERED="1")
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "toybattle", "serve", "--no-browser", "--port", "0",
                                 "--db", str(d / "games.db")], stdout=out, stderr=subprocess.STDOUT, env=env)
    deadline = time.time() + 60
    url = None
    while url is None and time.time() < deadline and proc.poll() is None:
        time.sleep(0.1)
        m = re.search(r"(http://127\.0\.0\.1:\d+)/", log.read_text())
        url = m and m.group(1)
    if url is None:
        proc.kill()
        pytest.fail("the app did not start:\n" + log.read_text())
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.fixture
def phone(browser):
    """new(**options, scripts=[...]) -> a page at 360x640 (touch) whose page errors are in ``page.js_errors``."""
    made = []

    def new(scripts=(), **options):
        # Playwright's waits evaluate strings, which the app's Content-Security-Policy forbids
        ctx = browser.new_context(bypass_csp=True, **PHONE, **options)
        ctx.set_default_timeout(20000)
        made.append(ctx)
        for s in scripts:
            ctx.add_init_script(s)
        page = ctx.new_page()
        page.js_errors = []
        page.on("pageerror", lambda e: page.js_errors.append(str(e)))
        return page

    yield new
    for ctx in made:
        ctx.close()


def host_room(page, app: str) -> str:
    """Open an online room from the home form; the code it shows."""
    page.goto(app + "/")
    page.wait_for_selector("#newgame")
    page.locator("#newgame input[name=kind][value=online]").check(force=True)
    page.locator("#newgame input[name=room][value=host]").check(force=True)
    page.locator("#start").tap()
    shown = page.locator("#room-code-shown")
    expect(shown).to_have_text(CODE)
    return shown.inner_text()


def lines_of(page, selector: str) -> dict:
    """The line boxes of an element's text, its box's height and its font size."""
    return page.eval_on_selector(selector, """e => { const r = document.createRange(); r.selectNodeContents(e);
      const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
      return { lines: tops.size, height: e.getBoundingClientRect().height,
               font: parseFloat(getComputedStyle(e).fontSize) }; }""")


def comfortable(page, selector: str) -> None:
    """A button a thumb can hit, with text a person can read."""
    box = page.locator(selector).bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, (selector, box)
    assert page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)") >= 12


@pytest.mark.slow
def test_the_code_shows_on_one_line_and_copies_exactly(phone, app):
    page = phone(scripts=[NO_SHARE])
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app)
    code = host_room(page, app)
    got = lines_of(page, "#room-code-shown")
    assert got["lines"] == 1 and got["height"] < 1.8 * got["font"], got  # one line box, about a line high
    # the codes differ in length: the longest the mailbox's words make is on one line too (scrolled if need be)
    page.eval_on_selector("#room-code-shown",
                          "e => { e.dataset.real = e.textContent; e.textContent = '1234-stockholder-hemisphere'; }")
    got = lines_of(page, "#room-code-shown")
    assert got["lines"] == 1 and got["height"] < 1.8 * got["font"] and got["font"] >= 12, got
    page.eval_on_selector("#room-code-shown", "e => { e.textContent = e.dataset.real; }")
    # a desktop browser (no Web Share): no share button, the copy button is there
    expect(page.locator("#share-code")).to_be_hidden()
    copy = page.locator("#copy-code")
    expect(copy).to_be_visible()
    comfortable(page, "#copy-code")
    expect(copy).to_have_accessible_name("Copy code")
    copy.tap()
    expect(page.locator("#copy-status")).to_have_text("Copied")
    assert page.get_attribute("#copy-status", "aria-live") == "polite"
    assert page.evaluate("navigator.clipboard.readText()") == code
    copy.focus()  # by keyboard too
    page.evaluate("navigator.clipboard.writeText('')")
    page.keyboard.press("Enter")
    for _ in range(100):  # wait_for_function would not await the clipboard's promise: evaluate does
        if page.evaluate("navigator.clipboard.readText()"):
            break
        page.wait_for_timeout(50)
    assert page.evaluate("navigator.clipboard.readText()") == code
    assert page.js_errors == []


@pytest.mark.slow
def test_on_the_desktop_app_the_share_button_shares_the_code_alone(phone, app):
    page = phone(scripts=[SHARE_STUB])
    code = host_room(page, app)
    share = page.locator("#share-code")
    expect(share).to_be_visible()
    comfortable(page, "#share-code")
    expect(share).to_have_accessible_name("Invite…")
    share.tap()
    page.wait_for_function("() => (window.__shared || []).length === 1")
    data = page.evaluate("window.__shared[0]")
    # a loopback page: a link would open the friend's own machine, so no link, and the code with the way to type it
    assert "url" not in data, data
    assert code in data["text"] and "Join with a code" in data["text"], data
    assert page.js_errors == []


def served(app: str):
    """A route handler answering pages on FAR with the app's: the site's page under BASE, its files and API."""
    def handle(route):
        parts = urlsplit(route.request.url)
        path = "/" if parts.path in (BASE, BASE + "index.html") else parts.path
        req = urllib.request.Request(app + path + (f"?{parts.query}" if parts.query else ""),
                                     method=route.request.method, data=route.request.post_data_buffer,
                                     headers={"content-type": route.request.headers.get("content-type", "text/plain"),
                                              "accept-language": route.request.headers.get("accept-language", "en")})
        try:
            with urllib.request.urlopen(req, timeout=20) as r:
                status, body, kind = r.status, r.read(), r.headers.get("content-type", "")
        except urllib.error.HTTPError as e:
            status, body, kind = e.code, e.read(), e.headers.get("content-type", "")
        route.fulfill(status=status, body=body, headers={"content-type": kind})
    return handle


def waiting_room(code: str):
    """A websocket handler for the page's socket: a room that waits for the friend, with ``code``."""
    def handle(ws):
        def heard(message):
            if json.loads(message).get("type") == "hello":
                ws.send(json.dumps({"type": "welcome"}))
                ws.send(json.dumps({"type": "view", "view": {"waiting": True, "game": {"code": code}}}))
        ws.on_message(heard)
    return handle


@pytest.mark.slow
def test_a_hosted_site_shares_a_link_to_its_own_join_form_with_the_code_in_the_fragment(phone, app):
    code = "7-guitarist-revenge"
    page = phone(scripts=[SHARE_STUB, """localStorage.setItem('tb.games', JSON.stringify({ g1:
      { kind: 'online', tokens: { blue: 't' }, code: '7-guitarist-revenge', created: 1 } }));"""])
    page.route(f"{FAR}/**", served(app))
    page.route_web_socket(re.compile(r"^ws://toybattle\.example/ws$"), waiting_room(code))
    page.goto(f"{FAR}{BASE}#/game/g1")
    expect(page.locator("#room-code-shown")).to_have_text(code)
    page.locator("#share-code").tap()
    page.wait_for_function("() => (window.__shared || []).length === 1")
    data = page.evaluate("window.__shared[0]")
    link = urlsplit(data["url"])
    # the page's own origin and path (the sub-path included); the code only in the fragment
    assert (link.scheme, link.netloc, link.path, link.query) == ("http", "toybattle.example", BASE, ""), data
    assert link.fragment == f"join={code}", data
    assert code in data["text"], data
    # no clipboard on a plain-http page: copying selects the code, for the player to copy
    page.locator("#copy-code").tap()
    expect(page.locator("#copy-status")).not_to_have_text("")
    assert page.evaluate("getSelection().toString()") == code
    # the link from the page's location wherever it is: index.html left out; loopback gets no link
    made = page.evaluate("""async () => { const { shareData } = await import('/static/js/play.js');
      const at = (origin, pathname) => shareData('12-a-b', { origin, pathname, hostname: new URL(origin).hostname });
      return [at('https://games.example', '/tb/index.html').url, at('https://games.example', '/').url,
              at('http://localhost:8765', '/').url, at('http://127.0.0.1:8765', '/').url,
              at('http://[::1]:8765', '/').url]; }""")
    assert made == ["https://games.example/tb/#join=12-a-b", "https://games.example/#join=12-a-b", None, None, None]
    # and the link, opened, is that site's join form with the code in it
    page.goto(data["url"])
    expect(page.locator("#room-code")).to_have_value(code)
    assert page.evaluate("[location.pathname, location.hash]") == [BASE, ""]
    assert page.js_errors == []


@pytest.mark.slow
def test_a_join_link_fills_the_join_form_once_and_a_malformed_one_is_one_line(phone, app):
    page = phone()
    code = "7-guitarist-revenge"
    page.goto(f"{app}/#join={code}")
    field = page.locator("#room-code")
    expect(field).to_have_value(code)
    expect(field).to_be_visible()  # the online join form is the one open
    assert page.locator("#newgame input[name=kind][value=online]").is_checked()
    assert page.locator("#newgame input[name=room][value=join]").is_checked()
    expect(page.locator("#join-notice")).to_contain_text(code)
    assert page.evaluate("location.hash") == ""  # off the address bar: a reload does not join again
    page.reload()
    page.wait_for_selector("#newgame")
    expect(field).to_have_value("")
    expect(page.locator("#join-notice")).to_be_hidden()
    # malformed: a broken %-escape, words that are no code; opened fresh or as a new fragment of the open page
    for bad in ("%E0%A4%A", "drop%20table", "<img src=x onerror=alert(1)>", "7-guitarist", ""):
        page.goto(f"{app}/#join={bad}")
        notice = page.locator("#join-notice")
        expect(notice).to_be_visible()
        expect(notice).to_have_text(re.compile("no valid room code"))
        expect(field).to_be_visible()  # the join form, empty, for the code the friend gives
        expect(field).to_have_value("")
        assert page.evaluate("location.hash") == ""
    page.goto("about:blank")
    page.goto(f"{app}/#join=%ZZ")
    expect(page.locator("#join-notice")).to_be_visible()
    assert page.js_errors == []


@pytest.mark.slow
def test_the_share_buttons_are_named_in_french(phone, app):
    page = phone(scripts=[SHARE_STUB], locale="fr-FR")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app)
    code = host_room(page, app)
    assert page.locator("html").get_attribute("lang") == "fr"
    expect(page.locator("#copy-code")).to_have_accessible_name("Copier le code")
    expect(page.locator("#share-code")).to_have_accessible_name("Inviter…")
    page.locator("#copy-code").tap()
    expect(page.locator("#copy-status")).to_have_text("Copié")
    page.locator("#share-code").tap()
    page.wait_for_function("() => (window.__shared || []).length === 1")
    assert "Rejoindre avec un code" in page.evaluate("window.__shared[0].text")
    page.goto(f"{app}/#join=nope")
    expect(page.locator("#join-notice")).to_contain_text("ne contient pas de code")
    assert code and page.js_errors == []
