"""Online play from a browser: Python on Pyodide in Debian's chromium runs an online Game whose rooms go
through the browser's WebSocket (toybattle.online.mailbox), and meets `toybattle host/join` (the
magic-wormhole library) through the local mailbox. Both finish the same game; nothing leaves this machine.
The page (tests/online/browser_peer) and Pyodide are served from a temporary directory by a plain
static server."""
from __future__ import annotations

import json
import os
import shutil
import sys
import tarfile
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

import mypy_extensions
import pytest

import toybattle

from .conftest import LIMITS, Peer

sys.path.insert(0, str(Path(__file__).parents[1] / "site"))
from site_harness import serving  # the site's tests serve it the same way

sys.path.pop(0)

HERE = Path(__file__).parent
BOOT = 120_000  # ms: Pyodide's first start on a busy 2-core machine
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def _unpack_pyodide(dest: Path) -> None:
    """Pyodide as the site's build ships it (toybattle.site.assets fetches and checks it once)."""
    try:
        from toybattle.site import assets
    except ImportError:  # the site's builder is not on this branch: its cache, where setup put it
        tgz = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "toybattle/site/pyodide-314.0.7.tgz"
        assert tgz.is_file(), f"no Pyodide at {tgz}: run scripts/setup.sh"
        dest.mkdir(parents=True)
        with tarfile.open(tgz) as tar:
            for name in PYODIDE_FILES:
                (dest / name).write_bytes(tar.extractfile(f"package/{name}").read())
        return
    assets.unpack_pyodide(assets.ensure(), dest)


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
    _unpack_pyodide(www / "pyodide")
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
