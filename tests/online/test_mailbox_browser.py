"""Online play from a browser: Python on Pyodide in Debian's chromium runs an online Game whose rooms go
through the browser's WebSocket (toybattle.online.mailbox), and meets `toybattle host/join` (the
magic-wormhole library) through the local mailbox. Both finish the same game; nothing leaves this machine.
The page (tests/online/browser_peer), Pyodide and the site's cryptography (its crypto.js and the pinned noble
npm modules) are served from a temporary directory by a plain static server."""
from __future__ import annotations

import json
import shutil
import sys
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

import mypy_extensions
import pytest

import toybattle
from toybattle.site import assets

from .conftest import LIMITS, Peer

sys.path.insert(0, str(Path(__file__).parents[1] / "site"))
from site_harness import serving  # the site's tests serve it the same way

sys.path.pop(0)

HERE = Path(__file__).parent
STATIC = Path(assets.__file__).parent / "static"  # the site's own files: crypto.js, as the worker imports it
BOOT = 120_000  # ms: Pyodide's first start on a busy 2-core machine


def _package_zip(dest: Path) -> None:
    root = Path(toybattle.__file__).parent
    with zipfile.ZipFile(dest, "w") as z:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                z.write(path, f"toybattle/{path.relative_to(root)}")
        z.write(mypy_extensions.__file__, "mypy_extensions.py")  # the bots import it (the site ships its wheel)


@pytest.fixture(scope="module")
def page_url(tmp_path_factory):
    www = tmp_path_factory.mktemp("peer") / "www"
    shutil.copytree(HERE / "browser_peer", www)
    cache = assets.ensure()  # fetched and checked once (scripts/setup.sh): Pyodide and the noble packages
    assets.unpack_pyodide(cache, www / "pyodide")
    # the cryptography the site's worker loads, laid out as in the site: npm/ beside crypto.js
    shutil.copy(STATIC / "crypto.js", www / "crypto.js")
    assets.unpack_npm_modules(cache, www / "npm")
    _package_zip(www / "toybattle.zip")
    with serving(www, probe="/index.html") as url:
        yield url + "/index.html"


class BrowserPeer:
    """One page running play.py; every request the page makes is recorded."""

    def __init__(self, browser, url: str, **args):
        self.context = browser.new_context()
        self.context.set_default_timeout(BOOT)
        self.requests: list[str] = []
        self.frames: list[str] = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda f: self.frames.append(str(f))))
        self.page.goto(url + "?args=" + urllib.parse.quote(json.dumps(args)))

    def code(self) -> str:
        self.page.wait_for_function("() => window.roomCode || window.finished", timeout=BOOT)
        code = self.page.evaluate("window.roomCode")
        assert code, self.outcome()
        return code

    def outcome(self) -> dict:
        return json.loads(self.page.evaluate("async () => await window.outcome"))

    def foreign(self) -> list[str]:
        return [u for u in self.requests if not u.startswith(("http://127.0.0.1:", "ws://127.0.0.1:", "data:",
                                                              "blob:"))]


def _same(cli: dict, page: dict) -> None:
    keys = ("winner", "reason", "detail", "head", "messages", "game")
    assert {k: cli[k] for k in keys} == {k: page[k] for k in keys}
    assert cli["seat"] != page["seat"] and page["reason"] in ("hq", "medals", "stuck")


def test_a_browser_joins_the_cli_and_they_finish_one_game(browser, page_url, mailbox, tmp_path):
    cli = Peer(["host", "--relay", mailbox, "--json", *LIMITS, "--bot", "random", "--seed", "bh"],
               tmp_path / "cli.db")
    page = BrowserPeer(browser, page_url, relay=mailbox, seed="bj", code=cli.code())
    result = page.outcome()
    assert "error" not in result, result
    _same(cli.result(), result)
    assert not page.foreign(), page.foreign()
    page.context.close()


def test_a_browser_hosts_the_cli_and_they_finish_one_game(browser, page_url, mailbox, tmp_path):
    page = BrowserPeer(browser, page_url, relay=mailbox, seed="bh2")
    cli = Peer(["join", page.code(), "--relay", mailbox, "--json", *LIMITS, "--bot", "random",
                "--seed", "bj2"], tmp_path / "cli.db")
    result = page.outcome()
    assert "error" not in result, result
    _same(cli.result(), result)
    assert not page.foreign(), page.foreign()
    page.context.close()


def test_a_wrong_code_in_the_browser_gets_one_line_on_both_sides(browser, page_url, mailbox, tmp_path):
    cli = Peer(["host", "--relay", mailbox, "--json", *LIMITS, "--bot", "random", "--seed", "w"],
               tmp_path / "cli.db")
    wrong = cli.code().split("-")[0] + "-wrong-words"
    page = BrowserPeer(browser, page_url, relay=mailbox, seed="w2", code=wrong)
    assert page.outcome() == {"error": f"wrong code {wrong}: the room is now closed; ask for a new code"}
    rc, out, err = cli.finish()
    assert rc != 0 and "someone typed a wrong code" in err and "Traceback" not in err, (out, err)
    page.context.close()


def test_an_unreachable_mailbox_in_the_browser_gets_one_line(browser, page_url):
    page = BrowserPeer(browser, page_url, relay="ws://127.0.0.1:9/v1", seed="u", code="7-guitarist-revenge")
    assert page.outcome() == {"error": "cannot reach the mailbox at ws://127.0.0.1:9/v1"}
    page.context.close()
