"""Clocks without a server (issue 28): the time control in the Setup (and its hash), the clocks each side
keeps by its own measure, and time claims judged against the claimed side's own clock. In process; the
same over real processes and a real mailbox is test_clock_network.py."""
from __future__ import annotations

import argparse
import random

import pytest

from toybattle.app.session import Refused
from toybattle.clocks import Clocks, clock_refusal
from toybattle.online import cli, web, wire
from toybattle.online.protocol import FLAG_ALLOWANCE, FLAG_LAG, Match, Secrets, Setup
from toybattle.said import say

# computed before clocks existed: a game without a clock must chain to exactly this
GENESIS_NO_CLOCK = "e4f69744ab3f76cf603727603c33a90b491d316f9e030e7f2ee23db59e6553d4"


def test_a_setup_without_a_clock_hashes_exactly_as_before_and_a_clock_changes_the_hash():
    plain = Setup("g", "castle", False, 0)
    assert plain.genesis() == GENESIS_NO_CLOCK
    assert plain.to_json() == {"game": "g", "terrain": "castle", "first_game": False, "host_seat": 0}
    timed = Setup("g", "castle", False, 0, (600, 5))
    assert timed.genesis() != GENESIS_NO_CLOCK
    assert Setup("g", "castle", False, 0, (600, 6)).genesis() != timed.genesis()
    assert Setup("g", "castle", False, 0, (605, 0)).genesis() != Setup("g", "castle", False, 0, (600, 5)).genesis()
    back = Setup(**timed.to_json())  # as the games file reads it back (the clock a JSON list)
    assert back == timed and back.clock == (600, 5) and back.genesis() == timed.genesis()
    assert Setup(**plain.to_json()).genesis() == GENESIS_NO_CLOCK


@pytest.mark.parametrize(("base", "inc", "ok"), [
    (60, 0, True), (10800, 60, True), (600, 5, True), (59, 0, False), (10801, 0, False), (600, 61, False),
    (600, -1, False), (600.0, 5, False), (True, 5, False), (600, None, False), ("600", 5, False)])
def test_the_clock_is_bounded_in_one_place(base, inc, ok):
    assert (clock_refusal(base, inc) is None) is ok
    hello = {"k": "hello", "resume": None, "hashes": [],
             "setup": {"game": "g", "terrain": "castle", "first_game": False, "host_seat": 0, "clock": [base, inc]}}
    if ok:
        wire.check(hello)
    else:
        with pytest.raises(wire.Malformed):
            wire.check(hello)
        with pytest.raises(Refused):
            web._clock({"base": base, "increment": inc})


def test_the_wire_takes_a_setup_without_a_clock_as_before_and_a_well_formed_time_claim_only():
    setup = {"game": "g", "terrain": "castle", "first_game": False, "host_seat": 0}
    wire.check({"k": "hello", "resume": None, "setup": setup, "hashes": []})
    wire.check({"k": "hello", "resume": None, "setup": {**setup, "clock": None}, "hashes": []})
    wire.check({"k": "flag", "seat": 1, "n": 12})
    for bad in [{"k": "flag", "seat": 2, "n": 1}, {"k": "flag", "seat": True, "n": 1},
                {"k": "flag", "seat": 0, "n": -1}, {"k": "flag", "seat": 0, "n": 1.0}, {"k": "flag", "seat": 0},
                {"k": "flag", "seat": 0, "n": 1, "x": 1}]:
        with pytest.raises(wire.Malformed):
            wire.check(bad)


def test_the_host_option_and_the_app_field():
    assert cli._clock("10+5") == (600, 5)
    assert cli._clock("1") == (60, 0)
    assert cli._clock("180+60") == (10800, 60)
    for bad in ["0.5+0", "181+0", "10+61", "10+x", "inf+1", "nan", "+5", "10+5.5"]:
        with pytest.raises(argparse.ArgumentTypeError):
            cli._clock(bad)
    assert web._clock(None) is None
    assert web._clock({"base": 600, "increment": 5}) == (600, 5)
    for bad in [{"base": 600}, {"base": 600, "increment": 5, "x": 1}, "10+5", [600, 5]]:
        with pytest.raises(Refused):
            web._clock(bad)


def test_a_clock_runs_while_its_play_is_due_and_gains_its_increment_after_each_move():
    c = Clocks(60, 5)
    c.start(0, 100.0)
    assert c.now_left(0, 110.0) == 50.0 and c.now_left(1, 110.0) == 60.0
    c.played(0, 4, 112.0)  # 12 s spent, 5 s added
    assert c.left == [53.0, 60.0] and c.running is None and c.plays[4] == (0, 48.0)
    c.start(1, 113.0)
    c.start(1, 150.0)  # already running: it keeps its start
    assert c.now_left(1, 120.0) == 53.0
    c.played(1, 6, 123.0)
    assert c.left == [53.0, 55.0] and c.moves == [1, 1]


def _timed_game(delay: float, think: float, seed: int = 1, upto: int | None = None) -> list[Match]:
    """Two peers play with a clock: each play takes ``think`` s of its sender's time and every message
    ``delay`` s to arrive. Each side ticks its clocks when it sends (its own) or receives (the other's)."""
    setup = Setup(f"t{seed}", "castle", False, 0, (600, 5))
    ms = [Match(setup, s, Secrets.generate(f"{seed}/{s}")) for s in (0, 1)]
    rng = random.Random(seed)
    now = [0.0, 0.0]  # each side's own monotonic clock (they need not agree)
    while not ms[0].finished and (upto is None or len(ms[0].log) < upto):
        me = next(s for s in (0, 1) if ms[s].my_move())
        action = None
        if ms[me].my_move() == "play":
            action = rng.choice(ms[me].mine().legal_actions())
            now[me] += think
        text = ms[me].make(action)
        ms[me].clock_tick(ms[me].accept(text, me), now[me])
        now[1 - me] = max(now[1 - me], now[me] + delay)  # it arrives there after the delay
        ms[1 - me].clock_tick(ms[1 - me].accept(text, me), now[1 - me])
    return ms


def test_each_side_measures_its_own_time_exactly_and_the_others_with_the_network_delay_never_less():
    ms = _timed_game(delay=0.25, think=3.0, upto=60)
    checked = 0
    for me in (0, 1):
        own = ms[me].clocks
        assert own is not None
        plays = own.moves[me]
        assert plays > 3
        # its own clock: the base, less 3 s a play, plus the increment a play (and its running play so far: none)
        running = ms[me].clocks.running == me
        assert own.left[me] == pytest.approx(600 - 3.0 * plays + 5 * plays) or running
        other = ms[1 - me].clocks  # the other side's measure of this seat
        assert other is not None and other.moves[me] == plays
        # never less time spent by the other's measure than by its own, and at most a round trip more a play
        spent_here, spent_there = 600 + 5 * plays - own.left[me], 600 + 5 * plays - other.left[me]
        if not running and other.running != me:
            assert spent_here - 1e-9 <= spent_there <= spent_here + 2 * 0.25 * plays + 1e-9
            assert spent_there > spent_here  # the delays count against it there
            checked += 1
    assert checked  # the seat not to move was compared


def _to_move(seed: int = 3) -> tuple[list[Match], int]:
    """A timed game played until one side's play is due; that seat."""
    ms = _timed_game(delay=0.0, think=1.0, seed=seed, upto=8)
    while True:
        seat, kind = ms[0].expected()
        if kind == "play":
            return ms, seat
        text = ms[seat].make()
        for m in ms:
            m.clock_tick(m.accept(text, seat), 0.0)


def test_a_time_claim_is_believed_when_the_claimed_sides_own_clock_is_out_and_refuted_otherwise():
    ms, seat = _to_move()
    mover = ms[seat]
    c = mover.clocks
    assert c is not None and c.running == seat
    n = len(mover.log)
    start, left = c.since, c.left[seat]
    # the claim names the play now due: out of time here (or within the allowance) is a loss on time
    assert mover.judge_flag(n, start + left + 1) == (True, pytest.approx(-1))
    assert mover.judge_flag(n, start + left - FLAG_ALLOWANCE + 0.1)[0] is True
    # more than the allowance left by its own measure: refuted
    believed, own_left = mover.judge_flag(n, start + left - FLAG_ALLOWANCE - 1)
    assert not believed and own_left == pytest.approx(FLAG_ALLOWANCE + 1)
    # the allowance grows by the round trip this side measured, once per move of its own, at most FLAG_LAG
    moves = c.moves[seat]
    assert moves > 0
    wide = mover.judge_flag(n, start + left - FLAG_ALLOWANCE - 1, lag=1 / moves + 0.01)
    assert wide is not None and wide[0] is True
    assert mover.judge_flag(n, start + left - FLAG_ALLOWANCE - FLAG_LAG * moves - 1, lag=99)[0] is False
    # a claim about a message that was not this seat's play has nothing to check: None (the claimant's forfeit)
    assert mover.judge_flag(n + 1, start) is None
    assert mover.judge_flag(n - 1, start) is None or ms[seat].clocks.plays.get(n, (-1,))[0] == seat
    assert ms[1 - seat].judge_flag(n, start + left + 1) is None  # not the other seat's play


def test_a_time_claim_that_crossed_the_claimed_sides_move_is_judged_by_the_time_it_had_when_it_moved():
    ms, seat = _to_move(seed=5)
    mover = ms[seat]
    c = mover.clocks
    assert c is not None
    n, start, left = len(mover.log), c.since, c.left[seat]
    action = random.Random(0).choice(mover.mine().legal_actions())
    text = mover.make(action)
    mover.clock_tick(mover.accept(text, seat), start + left - 0.5)  # it moved with half a second left
    assert mover.judge_flag(n, start + left + 100) == (True, pytest.approx(0.5))
    fresh_ms, seat2 = _to_move(seed=5)
    m2 = fresh_ms[seat2]
    c2 = m2.clocks
    assert c2 is not None
    text = m2.make(action)
    m2.clock_tick(m2.accept(text, seat2), c2.since + 30)  # it moved with 30 s left (less 0, plus nothing yet)
    verdict = m2.judge_flag(n, c2.since + 1000)
    assert verdict is not None and verdict[0] is False and verdict[1] == pytest.approx(c2.plays[n + 1][1])


def test_a_game_without_a_clock_has_no_clocks_and_refutes_any_time_claim():
    setup = Setup("g", "castle", False, 0)
    m = Match(setup, 0, Secrets.generate("a"))
    assert m.clocks is None
    m.clock_tick({"t": "act", "by": 0, "n": 1}, 5.0)
    assert m.judge_flag(0, 1e9) is None


def test_the_games_file_keeps_the_clock_in_the_setup_and_the_clocks_and_a_game_without_one_as_before(tmp_path):
    import asyncio

    from toybattle.online import persist
    from toybattle.store import Store

    ms, _seat = _to_move(seed=7)
    mine = ms[0]
    assert mine.clocks is not None
    mine.clocks.left = [512.5, 498.25]
    store = Store(str(tmp_path / "games.sqlite"))
    try:
        asyncio.run(persist.save(store, mine, "online-clock", "ws://relay"))
        row = store.get("online-clock")
        assert row is not None and row.meta["online"]["setup"]["clock"] == [600, 5]
        back, _, _ = persist.replay(row)
        assert back.setup == mine.setup and back.head == mine.head
        assert back.clocks is not None and back.clocks.left == [512.5, 498.25]
        assert back.clocks.moves == mine.clocks.moves and back.clocks.running is None
        plain = Match(Setup("g", "castle", False, 0), 0, Secrets.generate("a"))
        asyncio.run(persist.save(store, plain, "online-plain", "ws://relay"))
        meta = store.get("online-plain").meta["online"]
        assert "clock" not in meta and meta["setup"] == {"game": "g", "terrain": "castle", "first_game": False,
                                                         "host_seat": 0}
    finally:
        store.close()


def test_the_terminal_status_line_shows_both_clocks():
    from toybattle.online.terminal import clock_line
    c = Clocks(600, 5)
    c.start(1, 10.0)
    assert clock_line(c, 17.5) == "clocks: blue 10:00, red 9:53 (running)"
    assert say(clock_line(c, 17.5), "fr") == "pendules : bleu 10 min 00 s, rouge 9 min 53 s (en cours)"
