"""Issue 23's checks in a real browser: the static site (the app on Pyodide in a Web Worker) plays
`toybattle host --bot` through a local mailbox while the network fails under it, and every game still ends
with the same result and history hash on both sides.

- the site served over https, its mailbox behind TLS (wss://), a whole game to the end;
- the same https site refuses a ws:// mailbox in one line, in the page's language, and stores nothing;
- the network fails mid-game: Playwright's offline switch (in this chromium it holds an open worker's
  WebSocket frames rather than closing the socket, see ``test_the_network_failing_mid_game``), then a real
  cut of the worker's connection to the mailbox (a TCP proxy between them): the worker reopens it by itself;
- the page reloaded mid-game goes straight back into the game and its room, with no code;
- the page closed for a minute and opened again: the game is there and finishes.

TLS trust: the test CA (trustme) vouches for the https site and the mailbox; chromium is told to accept
certificates it cannot check with the context's ``ignore_https_errors=True``, which covers the worker's
wss:// WebSocket too (no ``--ignore-certificate-errors`` flag needed); the CLI trusts the CA through
SSL_CERT_FILE.
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import json
import random
import ssl
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from toybattle.rules import SEATS

from .conftest import Peer, start_mailbox
from .proxy import Proxy

sys.path.insert(0, str(Path(__file__).parents[1] / "browser"))
sys.path.insert(0, str(Path(__file__).parents[1] / "site"))
from site_harness import serving  # the site's tests serve it the same way
from test_app_browser import play_one  # the app's own UI steps

del sys.path[:2]

pytestmark = pytest.mark.slow

BOOT = 180_000  # ms: Pyodide's first start on a busy 2-core machine
STALL = 180  # s without a move on the board: the game is stuck (no test fault lasts half as long)
PHONE = {"viewport": {"width": 360, "height": 640}}
# the CLI waits as long as it takes for the site's side (a reload, a closed page) instead of closing the room
PATIENT = ["--json", "--bot", "random", "--seed", "cli", "--when-silent", "wait", "--reply-limit", "120"]
# Keeps every message the site's worker posts to the page (JSON text) and the path of every HTTP request
# the page hands the worker, with the time (ms since the epoch) it was made.
RECORD_WORKER = """(() => { const Native = window.Worker; window.__fromWorker = []; window.__asked = [];
  window.Worker = class extends Native {
    constructor(...args) { super(...args);
      this.addEventListener('message', (e) => window.__fromWorker.push(JSON.stringify(e.data))); }
    postMessage(msg, ...more) {
      if (msg && msg.t === 'http') window.__asked.push([Date.now(), msg.method + ' ' + msg.path]);
      return super.postMessage(msg, ...more); } }; })();"""
# the page's player may act: its turn, the board offers something (the prompt is "mine"), nothing covers it
MY_TURN = """(() => { const p = document.querySelector('#play'); if (!p || !p.dataset.seat) return false;
  if (p.dataset.over === '1') return true; const prompt = document.querySelector('#prompt');
  return !document.querySelector('#cover') && p.dataset.actor === p.dataset.seat && !!prompt
    && prompt.classList.contains('mine'); })()"""
STATUS = """async ([id, token]) => { const net = await import('/static/js/net.js');
  const r = await net.fetch(`/api/online/${id}?token=${encodeURIComponent(token)}`); return await r.json(); }"""
STORED = """self.pyodide.runPython(`import sqlite3
c = sqlite3.connect('/data/games.sqlite3')
n = c.execute('select count(*) from games').fetchone()[0] if c.execute(
    "select 1 from sqlite_master where name = 'games'").fetchone() else 0
n`)"""


def _trusted(ca, name: str, where: Path) -> Path:
    """A key and certificate chain for 127.0.0.1 issued by ``ca``, as one PEM file."""
    pem = where / f"{name}.pem"
    ca.issue_cert("127.0.0.1", "localhost").private_key_and_cert_chain_pem.write_to_path(str(pem))
    return pem


@pytest.fixture(scope="module")
def ca(tmp_path_factory):
    import trustme
    authority = trustme.CA()
    where = tmp_path_factory.mktemp("ca")
    authority.cert_pem.write_to_path(str(where / "ca.pem"))
    authority.file = where / "ca.pem"
    authority.where = where
    return authority


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def serving_https(directory: Path, pem: Path) -> Iterator[str]:
    """``directory`` over https on 127.0.0.1 (a port the system picks), with the certificate in ``pem``."""
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(pem)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory)))
    # the handshake happens in each request's thread, not in the one that accepts
    server.socket = tls.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.fixture(scope="module")
def https_site(site_dir, ca):
    with serving_https(site_dir, _trusted(ca, "site", ca.where)) as url:
        yield url


@pytest.fixture(scope="module")
def http_site(site_dir):
    with serving(site_dir) as url:
        yield url


@pytest.fixture
def tls_mailbox(tmp_path, ca):
    """wss:// URL of a mailbox behind TLS (a certificate from the test CA), for one test."""
    proc, port = start_mailbox(tmp_path, _trusted(ca, "mailbox", tmp_path))
    yield f"wss://127.0.0.1:{port}/v1"
    proc.terminate()
    proc.wait(10)


@pytest.fixture
def cli(tmp_path):
    """start(relay, think=0, env=None) -> a `toybattle host --bot random` process, killed after the test."""
    started: list[Peer] = []

    def start(relay: str, think: float = 0.0, env: dict | None = None) -> Peer:
        p = Peer(["host", "--relay", relay, *PATIENT], tmp_path / "cli.db", ["--think", str(think)], env=env)
        started.append(p)
        return p

    yield start
    for p in started:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait()


class SitePlayer:
    """One person on the site in ``context`` (its storage outlives any one page)."""

    def __init__(self, context, site: str):
        self.context = context
        self.site = site
        self.context.set_default_timeout(BOOT)
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = None
        self.open()

    def open(self, path: str = "/"):
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.add_init_script(RECORD_WORKER)
        self.page.goto(self.site + path)
        self.page.wait_for_selector("#newgame" if path == "/" else "#app")
        return self.page

    def online_form(self, room: str, relay: str) -> None:
        p = self.page
        p.locator("#newgame input[name=kind][value=online]").check(force=True)
        p.locator(f"#newgame input[name=room][value={room}]").check(force=True)
        p.fill("#relay", relay)

    def join(self, code: str, relay: str) -> None:
        self.online_form("join", relay)
        self.page.fill("#room-code", code)
        self.page.click("#start")
        self.page.wait_for_selector("#play")

    def game(self) -> tuple[str, str]:
        """The online game this browser holds: its id and this seat's token (from the page's own list)."""
        games = json.loads(self.page.evaluate("localStorage.getItem('tb.games') || '{}'"))
        assert len(games) == 1, games
        (gid, entry), = games.items()
        return gid, next(iter(entry["tokens"].values()))

    def status(self) -> dict:
        return self.page.evaluate(STATUS, list(self.game()))

    def ply(self) -> int:
        got = self.page.evaluate("(() => { const b = document.querySelector('#board'); "
                                 "return b ? b.dataset.ply : ''; })()")
        return int(got) if got and got.isdigit() else -1

    def views(self) -> list[dict]:
        """Every view of the game the worker pushed to this page."""
        out = []
        for text in self.page.evaluate("window.__fromWorker || []"):
            msg = json.loads(text)
            data = json.loads(msg["data"]) if msg.get("t") == "ws-message" else {}
            if isinstance(data, dict) and isinstance(data.get("view"), dict):
                out.append(data["view"])
        return out

    def asked(self) -> list[str]:
        return [path for _, path in self.page.evaluate("window.__asked || []")]

    def play_to_the_end(self, seed: int, tick: Callable[[SitePlayer], None] | None = None,
                        minutes: float = 12) -> str:
        """Play by taps until the end screen; ``tick(self)`` between moves (and every second while waiting)."""
        rng = random.Random(seed)
        deadline = time.monotonic() + 60 * minutes
        seen, moved = -1, time.monotonic()
        while time.monotonic() < deadline:
            if tick:
                before = time.monotonic()
                tick(self)
                if time.monotonic() - before > 5:  # the tick itself waited (a closed page): no stall of the game's
                    moved = time.monotonic()
            if self.ply() != seen:
                seen, moved = self.ply(), time.monotonic()
            elif time.monotonic() - moved > STALL:
                last = (self.views() or [{}])[-1]
                pytest.fail(f"the game made no progress for {STALL} s at ply {seen}: prompt {last.get('prompt')!r}, "
                            f"game {json.dumps(last.get('game'))}")
            try:
                self.page.wait_for_function(MY_TURN, timeout=1000)
            except Exception as e:  # Playwright's TimeoutError: not this player's turn yet
                if "Timeout" not in type(e).__name__:
                    raise
                continue
            if self.page.eval_on_selector("#play", "p => p.dataset.over") == "1":
                break
            play_one(self.page, rng)
        else:
            pytest.fail("the game did not end in time: " + json.dumps(self.views()[-1:])[:2000])
        self.page.wait_for_selector("#endscreen")
        return self.page.locator("#end-title").inner_text()

    def foreign(self) -> list[str]:
        return [u for u in self.requests if not u.startswith(("http://127.0.0.1:", "https://127.0.0.1:", "ws://127.0.0.1:",
                                                              "wss://127.0.0.1:", "data:", "blob:"))]


def _same(site: SitePlayer, title: str, cli_result: dict) -> None:
    """Both sides hold the same finished game: winner, reason, number of messages and history hash."""
    st = site.status()
    assert st["over"] and st["error"] == "", st
    mine = st["result"]
    assert {k: mine[k] for k in ("head", "winner", "reason", "messages")} == \
        {k: cli_result[k] for k in ("head", "winner", "reason", "messages")}, (mine, cli_result)
    assert cli_result["reason"] in ("hq", "medals", "stuck"), cli_result
    seat = site.page.eval_on_selector("#play", "p => p.dataset.seat")
    assert seat == SEATS[1 - cli_result["seat"]]
    assert ("You win" in title) == (SEATS[cli_result["winner"]] == seat) and ("You win" in title or "wins" in title), \
        (title, cli_result)
    assert site.foreign() == [] and site.errors == [], (site.foreign(), site.errors)


def test_the_https_site_plays_a_whole_game_through_a_mailbox_behind_tls(browser, https_site, tls_mailbox, ca, cli):
    host = cli(tls_mailbox, env={"SSL_CERT_FILE": str(ca.file)})
    context = browser.new_context(ignore_https_errors=True, **PHONE)
    try:
        site = SitePlayer(context, https_site)
        site.join(host.code(), tls_mailbox)
        title = site.play_to_the_end(seed=1)
        _same(site, title, host.result())
        assert all(u.startswith("https://") for u in site.requests if "127.0.0.1" in u), site.requests
    finally:
        context.close()


@pytest.mark.parametrize("locale, said", ids=["en", "fr"], argvalues=[
    ("en-GB", "this page is served over https, so its mailbox must be a wss:// address, not {url}"),
    ("fr-FR", "cette page est servie en https : sa boîte aux lettres doit avoir une adresse wss://, pas {url}")])
def test_the_https_site_refuses_a_ws_mailbox_in_one_line(browser, https_site, mailbox, locale, said):
    context = browser.new_context(ignore_https_errors=True, locale=locale, **PHONE)
    try:
        site = SitePlayer(context, https_site)
        site.online_form("host", mailbox)  # ws://127.0.0.1:PORT/v1
        site.page.click("#start")
        # answered: the form is ready again (or, wrongly, gone to a game)
        site.page.wait_for_function("(() => { const s = document.querySelector('#start'); "
                                    "return !s || !s.disabled; })()", timeout=60_000)
        shown = site.page.evaluate("(document.querySelector('#form-error') || {}).textContent")
        assert (shown or "").strip() == said.format(url=mailbox), (shown, site.page.url)
        assert "Traceback" not in site.page.content() and site.errors == []
        assert site.page.evaluate("localStorage.getItem('tb.games')") in (None, "{}")
        assert site.page.workers[0].evaluate(STORED) == 0  # nothing in the worker's games file either
        assert not [u for u in site.requests if u.startswith(("ws://", "wss://"))]
    finally:
        context.close()


def test_the_network_failing_mid_game(browser, http_site, mailbox, cli):
    """Two faults, one after the other, in one game. First Playwright's offline switch for 15 s: in this
    chromium it does not close the worker's open WebSocket (its readyState stays OPEN) but holds its frames
    until the switch is off (new sockets fail meanwhile), so the game waits and goes on. Then a real cut:
    the TCP proxy between the worker and the mailbox drops the connection and refuses new ones for 15 s; the
    worker's view says it is offline, it reopens the socket by itself into the same room, and the game goes on."""
    proxy = Proxy(int(mailbox.rsplit(":", 1)[1].split("/")[0]))
    host = cli(mailbox, think=0.2)
    context = browser.new_context(**PHONE)
    faults: dict[str, float] = {}

    def tick(site: SitePlayer) -> None:
        now = time.monotonic()
        if "offline" not in faults and site.ply() >= 3:
            faults["offline"] = now
            faults["offline ply"] = site.ply()
            faults["over"] = site.status()["over"]
            context.set_offline(True)
        elif "online" not in faults and "offline" in faults and now - faults["offline"] >= 15:
            faults["online"] = now
            context.set_offline(False)
        elif "cut" not in faults and "online" in faults and site.ply() >= faults["offline ply"] + 2:
            faults["cut"] = now
            proxy.cut(15)

    try:
        site = SitePlayer(context, http_site)
        site.join(host.code(), proxy.url)
        title = site.play_to_the_end(seed=3, tick=tick)
        result = host.result()
        assert "cut" in faults and not faults["over"], f"the game ended before both faults: {faults}, {result}"
        _same(site, title, result)
        onlines = [v["game"]["presence"]["online"] for v in site.views()
                   if (v.get("game") or {}).get("presence") is not None]
        # the cut: the site's own view said its link was down, then that it was back (by itself)
        assert False in onlines, f"the site's view never said its link was down during the cut: {onlines}"
        assert True in onlines[onlines.index(False):], onlines
        assert proxy.cuts == 1
    finally:
        context.close()
        proxy.close()


def test_a_page_reloaded_mid_game_goes_straight_back_into_its_room(browser, http_site, mailbox, cli):
    host = cli(mailbox, think=0.2)
    context = browser.new_context(**PHONE)
    reloaded: dict[str, float] = {}

    def tick(site: SitePlayer) -> None:
        if not reloaded and site.ply() >= 4:
            reloaded["ply"] = site.ply()
            reloaded["over"] = site.status()["over"]
            site.page.reload()
            site.page.wait_for_selector("#play")  # the same game's screen, from the address bar's #/game/ID

    try:
        site = SitePlayer(context, http_site)
        site.join(host.code(), mailbox)
        gid, _ = site.game()
        title = site.play_to_the_end(seed=4, tick=tick)
        assert reloaded and not reloaded["over"], f"the game ended before the reload: {reloaded}"
        _same(site, title, host.result())
        after = site.asked()  # this page's requests: only those since the reload
        assert after and not [p for p in after if p.startswith("POST /api/online/")], after  # no code, no resume
        assert site.page.url.endswith(f"#/game/{gid}")
    finally:
        context.close()


def test_a_page_closed_for_a_minute_and_opened_again(browser, http_site, mailbox, cli):
    host = cli(mailbox, think=0.2)
    context = browser.new_context(**PHONE)  # the person's storage (IndexedDB, localStorage) stays with it
    closed: dict[str, float] = {}

    def tick(site: SitePlayer) -> None:
        if not closed and site.ply() >= 4:
            closed["ply"] = site.ply()
            closed["over"] = site.status()["over"]
            site.page.close()  # the worker goes with the page: the game lives on in IndexedDB only
            time.sleep(60)
            closed["cli waited"] = host.proc.poll() is None
            site.open("/")  # the home screen: "Your games" lists it; one tap goes back to it
            gid, _ = site.game()
            site.page.click(f"a[data-game='{gid}']")
            site.page.wait_for_selector("#play")

    try:
        site = SitePlayer(context, http_site)
        site.join(host.code(), mailbox)
        title = site.play_to_the_end(seed=6, tick=tick)
        assert closed and not closed["over"], f"the game ended before the page was closed: {closed}"
        assert closed["cli waited"], "the CLI ended while the page was closed"
        _same(site, title, host.result())
        assert not [p for p in site.asked() if p.startswith("POST /api/online/")], site.asked()
    finally:
        context.close()
