"""Two players both on the static site (two browser contexts: two Pyodide workers, two storages), each
through its own TCP proxy (tests/online/proxy.py) to the same local mailbox, play one whole game by taps
while their links fail under them: at seeded random moments one side's proxy or the other's is cut for
1-4 s (at least twice a side), and once one side's proxy is frozen for good (its socket looks open but
carries nothing: the worker's keepalive ping must find that out and reopen the socket by itself). Both
pages reach the end screen and hold the same finished game: result, number of messages, history hash.

The page is pointed at its proxy the way a player would: the proxy's ws:// URL typed in the online form's
mailbox field. The two pages are played from one thread, in turns: whichever page has a move to make makes
it (the app's own UI steps, ``play_one``), and the fault plan runs between moves.
"""
from __future__ import annotations

import itertools
import json
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from toybattle.rules import SEATS

from .proxy import Proxy
from .test_site_reconnect import MY_TURN, PHONE, SitePlayer, http_site  # noqa: F401 (http_site: a fixture)

sys.path.insert(0, str(Path(__file__).parents[1] / "browser"))
from test_app_browser import play_one  # the app's own UI steps

del sys.path[:1]

pytestmark = pytest.mark.slow

SEED = 20240611  # the fault plan's and the taps' randomness
THINK = (1.0, 3.5)  # s a player thinks before each move, while faults are still to come (none after)
STALL = 75  # s without a move on either board: stuck (the freeze takes at most ~20 s to be found and healed)
WHOLE = 6 * 60  # s for the whole game, faults included (it takes under a minute here)
CODE = r"/^\d+-[a-z]+-[a-z]+$/"
# this page's link to the mailbox as its worker last said it (the view's presence), or null before any
ONLINE = """(() => { const all = window.__fromWorker || [];
  for (let i = all.length - 1; i >= 0; i--) { const m = JSON.parse(all[i]); if (m.t !== 'ws-message') continue;
    let d; try { d = JSON.parse(m.data); } catch (e) { continue; }
    const p = d && d.view && d.view.game && d.view.game.presence; if (p) return p.online; }
  return null; })()"""


@dataclass
class Side:
    name: str
    player: SitePlayer
    proxy: Proxy
    busy_until: float = 0.0  # no new fault on this side before then (a cut still refusing, a freeze unhealed)
    frozen_at: float | None = None  # a freeze not yet seen healed
    seen_down: bool = False  # since the freeze, the worker said its link was down
    series_len: int = 0  # how many values of ``online`` the page had been told before the freeze
    faults: list[str] = field(default_factory=list)
    taps: random.Random = field(default_factory=random.Random)  # this player's choices
    ready_at: float | None = None  # this player's move is due then (it thinks a while first)

    def online(self) -> bool | None:
        return self.player.page.evaluate(ONLINE)

    def over(self) -> bool:
        return self.player.page.eval_on_selector("#play", "p => p.dataset.over") == "1"

    def presence_series(self) -> list[bool]:
        """Every value of ``online`` the worker told this page, in order, repeats folded."""
        out: list[bool] = []
        for v in self.player.views():
            p = (v.get("game") or {}).get("presence")
            if p is not None and (not out or out[-1] != p["online"]):
                out.append(p["online"])
        return out


class FaultPlan:
    """Cuts of 1-4 s on either side (two a side, then one more on a side drawn at random) and one freeze of
    a side drawn at random, in a shuffled order, each some 1-3 s after the one before. A fault waits until
    its side is up again (its worker says it is online, no cut still refusing, any freeze healed), so that
    each one really drops a live connection."""

    def __init__(self, rng: random.Random, sides: list[Side]):
        self.rng, self.sides = rng, sides
        plan = [(s, "cut") for s in sides for _ in range(2)]
        plan += [(rng.choice(sides), "cut"), (rng.choice(sides), "freeze")]
        rng.shuffle(plan)
        self.todo = plan
        self.next_at = 0.0
        self.log: list[str] = []
        self.t0 = time.monotonic()

    def say(self, what: str) -> None:
        self.log.append(f"{time.monotonic() - self.t0:6.1f}s {what}")

    def tick(self) -> None:
        now = time.monotonic()
        for s in self.sides:  # a freeze is healed once that side's worker says it is back online
            if s.frozen_at is not None:
                series = s.presence_series()
                if s.seen_down is False and False in series[s.series_len:]:
                    s.seen_down = True
                    self.say(f"{s.name} found its frozen link dead ({now - s.frozen_at:.1f} s after the freeze)")
                if s.seen_down and series[-1] is True:
                    self.say(f"{s.name} back online after the freeze ({now - s.frozen_at:.1f} s)")
                    s.frozen_at = None
                    s.busy_until = now + 1
        if not self.todo or now < self.next_at:
            return
        side, kind = self.todo[0]
        if now < side.busy_until or side.frozen_at is not None or side.online() is not True:
            return
        self.todo.pop(0)
        plies = "/".join(str(s.player.ply()) for s in self.sides)
        if kind == "cut":
            seconds = round(self.rng.uniform(1, 4), 1)
            side.proxy.cut(seconds)
            side.busy_until = now + seconds + 1
            self.say(f"cut {side.name} for {seconds} s at plies {plies}")
            side.faults.append(f"cut {seconds}")
        else:
            side.series_len = len(side.presence_series())
            side.seen_down = False
            side.proxy.freeze()
            side.frozen_at = now
            self.say(f"freeze {side.name} at plies {plies}")
            side.faults.append("freeze")
        self.next_at = now + self.rng.uniform(1, 3)


def _last_said(s: Side) -> str:
    v = (s.player.views() or [{}])[-1]
    return (f"\n{s.name}: online {s.presence_series()}, prompt {v.get('prompt')!r}, "
            f"game {json.dumps(v.get('game'))}")


def _room_code(player: SitePlayer) -> str:
    player.page.wait_for_function(f"(() => {{ const c = document.querySelector('#room-code-shown');"
                                  f" return !!c && {CODE}.test(c.textContent.trim()); }})()")
    return player.page.locator("#room-code-shown").inner_text().strip()


def _same_finished_game(results: list[dict]) -> dict:
    """Both sides' status of a game over, with no error: the same result and history hash on both."""
    for st in results:
        assert st["over"] and st["error"] == "", st
        assert st["result"]["reason"] in ("hq", "medals", "stuck"), st
    keys = ("head", "winner", "reason", "messages")
    mine, theirs = ({k: st["result"][k] for k in keys} for st in results)
    assert mine == theirs, (mine, theirs)
    assert results[0]["head"] == results[1]["head"] == mine["head"]
    return mine


def test_two_site_players_finish_a_game_while_their_links_fail(browser, http_site, mailbox):  # noqa: F811
    port = int(mailbox.rsplit(":", 1)[1].split("/")[0])
    thinking = random.Random(f"{SEED}/think")
    proxies = [Proxy(port), Proxy(port)]
    contexts = [browser.new_context(**PHONE), browser.new_context(**PHONE)]
    try:
        host, guest = SitePlayer(contexts[0], http_site), SitePlayer(contexts[1], http_site)
        host.online_form("host", proxies[0].url)
        host.page.click("#start")
        guest.join(_room_code(host), proxies[1].url)
        host.page.wait_for_selector("#board")
        sides = [Side(name, p, proxy, taps=random.Random(f"{SEED}/{name}"))
                 for name, p, proxy in (("host", host, proxies[0]), ("guest", guest, proxies[1]))]
        plan = FaultPlan(random.Random(SEED), sides)
        deadline = time.monotonic() + WHOLE
        seen, moved = (-1, -1), time.monotonic()
        while not all(s.over() for s in sides):
            now = time.monotonic()
            assert now < deadline, f"the game did not end in {WHOLE} s: " + "\n".join(plan.log)
            plies = (host.ply(), guest.ply())
            if plies != seen:
                seen, moved = plies, now
            elif now - moved > STALL:
                pytest.fail(f"no move on either board for {STALL} s at plies {plies}:\n" + "\n".join(plan.log) +
                            "".join(map(_last_said, sides)))
            if min(plies) >= 1:  # both in the game: the room's mailbox is open on both sides
                plan.tick()
            acted = False
            for s in sides:
                if s.over() or not s.player.page.evaluate(MY_TURN):
                    continue
                if s.ready_at is None:  # a person thinks: moves and faults fall at all sorts of moments
                    s.ready_at = now + (thinking.uniform(*THINK) if plan.todo else 0)
                if now >= s.ready_at:
                    play_one(s.player.page, s.taps)
                    s.ready_at, acted = None, True
            if not acted:
                time.sleep(0.05)
        why = "\n".join(plan.log)
        # the faults happened, and while the game was still on
        left = [(s.name, kind) for s, kind in plan.todo]
        assert not left, f"the game ended (plies {seen}, {time.monotonic() - plan.t0:.0f} s) before {left}\n{why}"
        for s in sides:
            cuts = [f for f in s.faults if f.startswith("cut")]
            assert len(cuts) >= 2, f"{s.name}: faults {s.faults}\n{why}"
            # the proxy counts the cuts it made (and a freeze as one)
            assert s.proxy.cuts == len(s.faults), f"{s.name}: the proxy made {s.proxy.cuts} faults, not {s.faults}"
            assert s.frozen_at is None, f"{s.name} never came back online after its freeze\n{why}"
            # each fault dropped a live link, and the worker said so, then that it was back (by itself); the
            # end of the game closes the room, so its link may end down
            series = s.presence_series()
            ups = sum(a is False and b is True for a, b in itertools.pairwise(series))
            assert ups >= len(s.faults), f"{s.name}: online {series} after faults {s.faults}\n{why}"
        assert sum(f == "freeze" for s in sides for f in s.faults) == 1, why
        # both pages: the end screen, and the same finished game
        for s in sides:
            s.player.page.wait_for_selector("#endscreen")
        results = [s.player.status() for s in sides]
        mine = _same_finished_game(results)
        seats = [s.player.page.eval_on_selector("#play", "p => p.dataset.seat") for s in sides]
        titles = [s.player.page.locator("#end-title").inner_text() for s in sides]
        assert sorted(seats) == ["blue", "red"], seats
        assert ["You win" in t for t in titles] == [seat == SEATS[mine["winner"]] for seat in seats], (titles, mine)
        for s in sides:
            assert s.player.foreign() == [] and s.player.errors == [], (s.name, s.player.foreign(), s.player.errors)
        print(f"\n{why}\nplies {seen}, result {mine}")
    finally:
        for c in contexts:
            c.close()
        for p in proxies:
            p.close()


# the other player's presence line on a page (its words only: not the mark, not the screen reader's copy)
PRESENCE = "(() => { const e = document.querySelector('#presence .presence-text'); return e ? e.textContent : ''; })()"
AWAY_WITHIN = 40  # s from the close of one page to "away" on the other (a word every 10 s, away after 25 s silent)
CLOSED_FOR = 45  # s the page stays closed
QUIET = 20  # s both pages stay open with no move before the close: only the heartbeats say B is there
SEAT_WORD = {"red": "Red", "blue": "Blue"}  # the seats' names in English (the contexts' locale)


def _watch(page, pattern: str, seconds: float, seen: list[str], since: float) -> re.Match:
    """Read the presence line every 0.2 s until it matches ``pattern`` (a full match), in ``seconds`` at
    most; each new text goes in ``seen``, with its time since ``since``."""
    deadline = time.monotonic() + seconds
    while True:
        text = page.evaluate(PRESENCE)
        if not seen or not seen[-1].endswith(f" {text!r}"):
            seen.append(f"{time.monotonic() - since:6.1f}s {text!r}")
        if m := re.fullmatch(pattern, text):
            return m
        assert time.monotonic() < deadline, f"no {pattern!r} in {seconds:.0f} s; the line said:\n" + "\n".join(seen)
        time.sleep(0.2)


def _take_turns(players: list[SitePlayer], rngs: list[random.Random], enough, seconds: float) -> None:
    """Both pages play by taps, whichever has a move to make, until ``enough()`` (or both games are over)."""
    deadline = time.monotonic() + seconds
    while not enough():
        over = [p.page.eval_on_selector("#play", "p => p.dataset.over") == "1" for p in players]
        if all(over):
            return
        assert time.monotonic() < deadline, f"stuck at plies {[p.ply() for p in players]} for {seconds} s"
        acted = False
        for p, rng, done in zip(players, rngs, over, strict=True):
            # MY_TURN holds on the end screen too: a game that ended since the check above is no move
            if not done and p.page.evaluate(MY_TURN) and p.page.eval_on_selector("#play", "p => p.dataset.over") != "1":
                play_one(p.page, rng)
                acted = True
        if not acted:
            time.sleep(0.05)


def test_a_site_player_away_for_a_while_shows_as_away_then_back(browser, http_site, mailbox):  # noqa: F811
    """Two site players (no proxies) play a few moves, then make none for 20 s (A's line: B is connected,
    by B's heartbeats alone); B's page is closed (its context, so its storage, kept) for 45 s: A's presence
    line says B is away, since B's last heartbeat, with a counting m:ss, within 40 s of the close. B opens the
    site again and taps the game in "Your games": A's line says B is back, then connected, and the game goes
    on to the end with the same history on both pages."""
    contexts = [browser.new_context(**PHONE), browser.new_context(**PHONE)]
    rngs = [random.Random(f"{SEED}/away/a"), random.Random(f"{SEED}/away/b")]
    try:
        a, b = SitePlayer(contexts[0], http_site), SitePlayer(contexts[1], http_site)
        a.online_form("host", mailbox)
        a.page.click("#start")
        b.join(_room_code(a), mailbox)
        a.page.wait_for_selector("#board")
        b.page.wait_for_selector("#board")
        _take_turns([a, b], rngs, lambda: min(a.ply(), b.ply()) >= 4, 90)
        seat_a, seat_b = (p.page.eval_on_selector("#play", "p => p.dataset.seat") for p in (a, b))
        assert sorted([seat_a, seat_b]) == ["blue", "red"], (seat_a, seat_b)
        who = SEAT_WORD[seat_b]
        seen: list[str] = []
        t0 = time.monotonic()
        _watch(a.page, f"{who} is connected", 5, seen, t0)
        ply, gid = b.ply(), b.game()[0]
        assert not b.status()["over"], "the game ended before the page was closed"
        while time.monotonic() - t0 < QUIET:  # no move: B's last word before the close is a heartbeat
            _watch(a.page, f"{who} is connected", 0, seen, t0)
            time.sleep(0.5)

        b.page.close()  # the worker goes with the page; the context keeps the game (IndexedDB, localStorage)
        closed = time.monotonic()
        seen.append(f"{closed - t0:6.1f}s (B's page closed)")
        away = _watch(a.page, rf"{who} is away \(since (\d+):(\d\d)\)", AWAY_WITHIN, seen, t0)
        took = time.monotonic() - closed
        first = int(away[1]) * 60 + int(away[2])
        # since the last word A heard from B: at least the 25 s that make B away, and from at most ~11 s (a
        # heartbeat's gap) before the close, though the last move was QUIET s before it
        assert 24 <= first <= took + 13, f"away since {first} s, {took:.1f} s after the close\n" + "\n".join(seen)
        time.sleep(3)
        later = _watch(a.page, rf"{who} is away \(since (\d+):(\d\d)\)", 1, seen, t0)
        second = int(later[1]) * 60 + int(later[2])
        assert 2 <= second - first <= 5, f"the away clock did not count: {first} s, then {second} s\n" + "\n".join(seen)
        assert a.ply() == ply, "a move was made while B's page was closed"

        time.sleep(max(0.0, CLOSED_FOR - (time.monotonic() - closed)))
        b.open("/")  # the home screen: "Your games" lists the game; one tap goes back into its room, no code
        b.page.click(f".game-list [data-game='{gid}']")
        b.page.wait_for_selector("#board")
        seen.append(f"{time.monotonic() - t0:6.1f}s (B's page back in the game)")
        _watch(a.page, f"{who} is back", 30, seen, t0)
        _watch(a.page, f"{who} is connected", 15, seen, t0)  # "back" shows for 10 s
        assert b.ply() == ply == a.ply(), (b.ply(), ply, a.ply())

        _take_turns([a, b], rngs, lambda: False, 150)
        for p in (a, b):
            p.page.wait_for_selector("#endscreen")
        results = [p.status() for p in (a, b)]
        mine = _same_finished_game(results)
        for p in (a, b):
            assert p.foreign() == [] and p.errors == [], (p.foreign(), p.errors)
        print("\nA's presence line:\n" + "\n".join(seen) + f"\nresult {mine}")
    finally:
        for c in contexts:
            c.close()
