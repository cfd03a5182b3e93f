"""The static site online: a player on the site (the app on Pyodide in a Web Worker, rooms through the
pure-Python wormhole client over the browser's WebSocket) and `toybattle host --bot` (the magic-wormhole
library) meet by code through the local mailbox, in either role, and finish one game by taps; both
record the same result. Every message from the worker into the page is recorded: before the end, none
holds a secret of the other player (a salt of its tiles' commitments, its randomness seed)."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from toybattle.online.protocol import Secrets
from toybattle.rules import SEATS

from .conftest import LIMITS, Peer

sys.path.insert(0, str(Path(__file__).parents[1] / "browser"))
sys.path.insert(0, str(Path(__file__).parents[1] / "site"))
from site_harness import serving  # the site's tests serve it the same way
from test_app_browser import ME_TURN, play_one  # the app's own UI steps

del sys.path[:2]

BOOT = 180_000  # ms: Pyodide's first start on a busy 2-core machine
# Keeps every message the site's worker posts to the page, as JSON text, before the page handles it.
RECORD_WORKER = """(() => { const Native = window.Worker; window.__fromWorker = [];
  window.Worker = class extends Native { constructor(...args) { super(...args);
    this.addEventListener('message', (e) => window.__fromWorker.push(JSON.stringify(e.data))); } }; })();"""


@pytest.fixture(scope="module")
def site(site_dir):
    with serving(site_dir) as url:
        yield url


class SitePlayer:
    def __init__(self, browser, site: str, relay: str, room: str):
        self.context = browser.new_context(viewport={"width": 360, "height": 640})
        self.context.set_default_timeout(BOOT)
        self.requests: list[str] = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()
        self.page.add_init_script(RECORD_WORKER)
        p = self.page
        p.goto(site + "/")
        p.wait_for_selector("#newgame")
        p.locator("#newgame input[name=kind][value=online]").check(force=True)
        p.locator(f"#newgame input[name=room][value={room}]").check(force=True)
        p.fill("#relay", relay)

    def host(self) -> str:
        self.page.click("#start")
        code = self.page.locator("#room-code-shown")
        code.wait_for()
        return code.inner_text().strip()

    def join(self, code: str) -> None:
        self.page.fill("#room-code", code)
        self.page.click("#start")

    def play_to_the_end(self, seed: int) -> str:
        rng = random.Random(seed)
        self.page.wait_for_selector("#play")
        for _ in range(400):
            self.page.wait_for_function(ME_TURN)
            if self.page.eval_on_selector("#play", "p => p.dataset.over") == "1":
                break
            play_one(self.page, rng)
        self.page.wait_for_selector("#endscreen")
        seat = self.page.eval_on_selector("#play", "p => p.dataset.seat")
        # e.g. "red: You win!" and, on the next line, how the game ended (a forfeit's reason)
        title, how = (self.page.locator(sel).inner_text() for sel in ("#end-title", "#end-reason"))
        return f"{seat}: {title}\n{how}"

    def before_the_end(self) -> list[str]:
        """What the worker told the page until its first view of the finished game."""
        out = []
        for text in self.page.evaluate("window.__fromWorker"):
            msg = json.loads(text)
            data = json.loads(msg["data"]) if msg.get("t") == "ws-message" else {}
            if (data.get("view") or {}).get("over"):
                return out
            out.append(text)
        raise AssertionError("the page never received the end of the game")

    def foreign(self) -> list[str]:
        return [u for u in self.requests if not u.startswith(("http://127.0.0.1:", "ws://127.0.0.1:", "data:",
                                                              "blob:"))]


def _check(page: SitePlayer, cli_result: dict, cli_seed: str, shown: str) -> None:
    seat, title = shown.split("\n", 1)[0].split(": ", 1)
    said = "You win!" if SEATS[cli_result["winner"]] == seat else "wins"
    assert cli_result["reason"] in ("hq", "medals", "stuck") and said in title, (shown, cli_result)
    secrets = Secrets.generate(cli_seed)  # the CLI's secrets, from its --seed
    told = "\n".join(page.before_the_end())
    assert told and not [s.hex() for s in secrets.salts if s.hex() in told] and secrets.seed.hex() not in told
    assert page.foreign() == []


@pytest.mark.parametrize("site_hosts", [False, True])
def test_a_site_player_and_the_cli_finish_one_game(browser, site, mailbox, tmp_path, site_hosts):
    cli_args = ["--relay", mailbox, "--json", *LIMITS, "--bot", "random", "--seed", "cli"]
    page = SitePlayer(browser, site, mailbox, "host" if site_hosts else "join")
    if site_hosts:
        cli = Peer(["join", page.host(), *cli_args], tmp_path / "cli.db")
    else:
        cli = Peer(["host", *cli_args], tmp_path / "cli.db")
        page.join(cli.code())
    shown = page.play_to_the_end(seed=5)
    _check(page, cli.result(), "cli", shown)
    page.context.close()


def test_a_tampered_message_from_the_cli_is_caught_in_the_site_with_the_same_reason(browser, site, mailbox,
                                                                                   tmp_path):
    for seed in range(3):
        cli = Peer(["host", "--relay", mailbox, "--json", *LIMITS, "--bot", "random", "--seed", f"c{seed}"],
                   tmp_path / f"c{seed}.db", ["--cheat", "never_drawn"])
        page = SitePlayer(browser, site, mailbox, "join")
        page.join(cli.code())
        shown = page.play_to_the_end(seed=seed)
        cheater = cli.result()
        page.context.close()
        if cheater["reason"] != "forfeit":
            continue  # the cheat's moment never came in this game: try another
        assert cheater["winner"] == 1 and "was never drawn" in cheater["detail"]
        assert cheater["detail"] in shown, (shown, cheater)
        return
    pytest.fail("the never_drawn cheat never came up")
