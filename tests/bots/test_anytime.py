"""The expert as an anytime search (reply.py): given a deadline it plays its guesses round by round, every
candidate on each guess, and stops between two playouts with its best so far, every candidate compared on
the rounds it completed; unhurried, a seeded expert answers exactly as the candidate-by-candidate search it
replaced. The deadline is read on a fake clock here, so the counts are exact whatever the machine's load."""
from __future__ import annotations

import math
import random
import types

import pytest

from toybattle.bots import make_bot, reply
from toybattle.bots.arena import referee
from toybattle.bots.bench import sample_positions
from toybattle.bots.reply import ReplyBot
from toybattle.rules import TERRAIN_IDS, State, determinizer


def _reference(bot: ReplyBot, obs: State, rounds: int | None = None, reached: int | None = None
               ) -> tuple[int, float]:
    """The search as it was before it became anytime: each candidate in turn over all its guesses (or the
    first ``rounds`` of them; only the first ``reached`` candidates), the best mean played; ``bot``'s
    generator drawn as the expert draws it."""
    plans, _ = bot._plans(obs)
    if len(plans) == 1:
        return plans[0][1][0], math.nan
    seeds = [bot.rng.getrandbits(64) for _ in range(bot.samples)][:rounds]
    sample = determinizer(obs)
    best = (-1.0, plans[0][1][0])
    for _, path in plans[:reached]:
        total = 0.0
        for k in seeds:
            rng = random.Random(k)
            total += bot._play_out(sample(rng), path, obs.actor, rng)[0]
        if total / len(seeds) > best[0]:
            best = (total / len(seeds), path[0])
    return best[1], best[0]


def _positions() -> list[State]:
    return [obs for terrain in TERRAIN_IDS[:3] for obs in sample_positions(4, terrain, seed=2)]


@pytest.mark.slow
def test_unhurried_a_seeded_expert_answers_as_the_candidate_by_candidate_search():
    """Same action, same win chance, same generator afterwards, position after position."""
    new, old = make_bot("expert", 5), make_bot("expert", 5)
    assert isinstance(new, ReplyBot) and isinstance(old, ReplyBot)
    weighed = 0
    for obs in _positions():
        a, chance = new._search(obs, 600)
        b, ref = _reference(old, obs)
        assert a == b and (chance == ref or (math.isnan(chance) and math.isnan(ref)))
        if not math.isnan(chance):
            weighed += 1
            assert new.last_info["capped"] == 0.0
            assert new.last_info["rounds"] == new.samples
            assert new.last_info["playouts"] == new.samples * new.last_info["candidates"]
        assert new.rng.random() == old.rng.random()
    assert weighed >= 6


@pytest.mark.slow
def test_a_seeded_expert_plays_the_same_game_twice_and_is_never_capped_without_a_deadline():
    games = []
    for _ in range(2):
        bot = make_bot("expert", 3)
        bot.budget_s = 600
        capped = []
        original = bot.choose

        def choose(obs, budget_s=None, _bot=bot, _choose=original, _capped=capped):
            a = _choose(obs, budget_s)
            _capped.append(_bot.last_info.get("capped", 0.0))
            return a

        bot.choose = choose
        games.append(referee(State.new("station", seed=9), [make_bot("sparring", 4), bot], random.Random(9)))
        assert capped and not any(capped)
    assert games[0].actions == games[1].actions and len(games[0].actions) > 10


class _Clock:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("budget", [2.5, 6.5, 11.5])
def test_a_deadline_leaves_every_candidate_compared_on_the_same_completed_rounds(monkeypatch, budget):
    """On a clock read once before every playout but the first, a budget of ``budget`` seconds allows
    ``floor(budget) + 1`` playouts: the rounds completed in them decide, the round under way is dropped."""
    four = [obs for obs in _positions() if len(ReplyBot(7, candidates=4)._plans(obs)[0]) == 4]
    assert len(four) >= 4
    for obs in four:
        monkeypatch.setattr(reply, "time", types.SimpleNamespace(perf_counter=_Clock().perf_counter))
        bot, ref = (ReplyBot(7, candidates=4, samples=6, budget_s=600) for _ in range(2))
        a = bot.choose(obs, budget)
        info = bot.last_info
        assert info["candidates"] == 4 and info["capped"] == 1.0 and info["playouts"] == math.floor(budget) + 1
        assert info["rounds"] == info["playouts"] // 4 < bot.samples
        assert a in obs.legal_actions()
        if info["rounds"]:  # the completed rounds decide, exactly as a search of that many guesses would
            want = _reference(ref, obs, rounds=int(info["rounds"]))
        else:  # not one round: the best of the candidates the first guess reached
            want = _reference(ref, obs, rounds=1, reached=int(info["playouts"]))
        assert (a, info["win_rate"]) == want


def test_with_no_time_at_all_it_answers_from_its_first_playout(monkeypatch):
    """A deadline already past: the plans and one playout of the best of them, then it stops and says so."""
    monkeypatch.setattr(reply, "time", types.SimpleNamespace(perf_counter=_Clock().perf_counter))
    for obs in _positions()[:6]:
        bot = make_bot("expert", 1)
        a = bot.choose(obs, 0.0)
        assert a in obs.legal_actions()
        if "win_rate" in bot.last_info:
            plans, _ = ReplyBot(1)._plans(obs)
            assert a == plans[0][1][0]
            assert bot.last_info["capped"] == 1.0 and bot.last_info["playouts"] == 1
            assert bot.last_info["rounds"] == 0 and 0.0 <= bot.last_info["win_rate"] <= 1.0


def test_on_a_real_clock_a_tiny_budget_stops_it_short_of_its_work():
    """A millisecond on the real clock: far less than the expert's fixed work, which it cuts short."""
    obs = next(o for o in _positions() if len(ReplyBot(1)._plans(o)[0]) > 2)
    bot = ReplyBot(1, candidates=8, samples=8)
    a = bot.choose(obs, 0.001)
    info = bot.last_info
    assert a in obs.legal_actions() and info["capped"] == 1.0
    assert 1 <= info["playouts"] < info["candidates"] * bot.samples
    assert info["rounds"] < bot.samples
