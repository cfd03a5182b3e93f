"""Hints (issue 25): they come from the strongest level, the expert, and say what that level would play; the
reason is words in the game's own terms, in either language; the adviser sees only the seat's observation;
in the browser a hint thinks no longer than a bot's move there. What following every hint is worth against
greedy is a benchmark (docs/benchmarks.md "Following every hint"), not a test."""
from __future__ import annotations

import asyncio
import random
import re
import sys
from pathlib import Path

import pytest

from toybattle import bots, said
from toybattle.app import bot_levels, session, words
from toybattle.app.pool import BotPool
from toybattle.app.session import LocalSession
from toybattle.bots import LEVELS, make_bot
from toybattle.bots import heuristic as H
from toybattle.bots.arena import FORFEITS, play_deal
from toybattle.bots.bench import sample_positions
from toybattle.bots.players import HintFollower
from toybattle.bots.reply import ReplyBot
from toybattle.rules import TERRAIN_IDS, State, observation, parse_action
from toybattle.rules.state import TURN
from toybattle.store import Store

sys.path.insert(0, str(Path(__file__).parents[1] / "app"))
from french import english_in, saids, untranslated

# words of the game a reason speaks in (a reason must name at least one)
CONCEPTS = re.compile(r"\b(medals?|bases?|H\.Q\.|tiles?|troops?|rack|reserve|discard|reply|placements?|path|"
                      r"wins?|covers|effect|action|ahead|lead|Skully|Cap'n|Jumbo|Hook|XB-42|Star|Roxy|Kwak)\b")
# what a search's statistics look like: a reason must not read like one
STATISTICS = re.compile(r"%|simulat|guesses|playouts?|\bsims?\b|win rate|\d+\s*/\s*\d+")
SEED = 7


def greedy_position(terrain: str, seed: int, plies: int) -> State:
    """The full state after greedy plays both seats for about ``plies`` plies, at the start of a turn."""
    s = State.new(terrain, seed=seed)
    rng = random.Random(seed)
    players = [make_bot("greedy", seed), make_bot("greedy", seed + 1)]
    while True:
        s.resolve_chance(rng)
        assert not s.over
        if s.ply >= plies and s.decision == TURN:
            return s
        s.apply_unchecked(players[s.actor].choose(observation(s, s.actor)))


def unhurried(name: str, seed: int = SEED) -> bots.Bot:
    """A seeded bot whose time budget never binds, so that it answers by its fixed work alone."""
    bot = make_bot(name, seed=seed)
    bot.budget_s = 60.0
    return bot


@pytest.fixture
def seeded_pool():
    """A pool thinking in this process (as in the browser), with seeded, unhurried bots of every level."""
    pool = BotPool(in_process=True)
    pool.bots.update({lv.name: unhurried(lv.name) for lv in LEVELS})
    yield pool
    pool.shutdown()


def session_hint(tmp_path, pool: BotPool, s: State) -> dict:
    game = LocalSession.create(Store(tmp_path / "games.sqlite"), pool, "hotseat", start=s, bot_delay=0.0)
    return asyncio.run(game.hint(s.actor))


def test_hints_come_from_the_strongest_level():
    assert session.HINT_LEVEL == LEVELS[-1].name == "expert"
    assert bots.level(session.HINT_LEVEL).kind == "reply"


@pytest.mark.parametrize("seed, plies", [(2, 20), (1, 8)])
def test_the_sessions_hint_is_the_experts_move_where_easy_would_play_another(tmp_path, seeded_pool, seed, plies):
    s = greedy_position("castle", seed, plies)
    obs = observation(s, s.actor)
    expert = unhurried("expert").choose(obs)
    assert unhurried("easy").choose(obs) != expert  # a position that tells the levels apart
    hint = session_hint(tmp_path, seeded_pool, s)
    assert parse_action(hint["action"], s.b) == expert and hint["ply"] == s.ply


def test_the_hint_sees_only_the_seats_observation(tmp_path, seeded_pool, monkeypatch):
    s = greedy_position("castle", 2, 30)  # the opponent holds three tiles
    seat, other = s.actor, 1 - s.actor
    seen: list[State] = []
    real = ReplyBot.hint

    def spy(self, obs, budget_s=None):
        seen.append(obs.copy())
        return real(self, obs, budget_s)

    monkeypatch.setattr(ReplyBot, "hint", spy)
    first = session_hint(tmp_path, seeded_pool, s)
    obs = seen[0]
    assert obs == observation(s, seat)
    assert obs.rack[other] and all(t & 15 == 0 for t in obs.rack[other] + obs.reserve[other] + obs.reserve[seat])
    # another deal of the tiles the seat cannot see: the same observation, the same hint
    t = s.copy()
    t.rack[other][0], t.reserve[other][-1] = t.reserve[other][-1], t.rack[other][0]
    t.rack[other].reverse()
    assert t.rack[other] != s.rack[other] and observation(t, seat) == obs
    seeded_pool.bots = {"expert": unhurried("expert")}
    assert session_hint(tmp_path, seeded_pool, t) == first


def test_the_hint_is_the_move_the_expert_plays_and_reading_it_costs_nothing():
    for obs in sample_positions(6, "castle", seed=3) + sample_positions(6, "croisette", seed=4):
        adviser, player = unhurried("expert"), unhurried("expert")
        a, why = adviser.hint(obs)
        assert a == player.choose(obs) and why
        assert adviser.rng.getstate() == player.rng.getstate()


def test_a_reason_is_words_of_the_game():
    bot = unhurried("expert")
    shown = 0
    for terrain in TERRAIN_IDS:
        for obs in sample_positions(4, terrain, seed=5):
            why = bot.hint(obs)[1]
            assert why.strip() and why == why.strip(), why
            assert not STATISTICS.search(why), why
            assert len(re.findall(r"[A-Za-z]", why)) > 3 * len(re.findall(r"\d", why)), why
            for part in why.split("; "):
                assert CONCEPTS.search(part), (part, why)
            shown += 1
    assert shown == 4 * len(TERRAIN_IDS)


def test_every_reason_is_said_in_french():
    """A hint's reason is a message (its parts too, joined by "; " in each language): said in French, in
    other words than its English, with no English left."""
    bot = unhurried("expert")
    reasons = []
    for terrain in TERRAIN_IDS:
        for obs in sample_positions(4, terrain, seed=6):
            reasons.append(bot.hint(obs)[1])
    reasons += [H.outlook(chance, seat) for chance in (0.1, 0.3, 0.5, 0.6, 0.9) for seat in (0, 1)]
    keys = {x.key for x in saids(reasons)}
    assert len(keys) > 12, keys
    assert not untranslated(reasons)
    for why in reasons:
        french = words.say(why, "fr")
        assert not english_in(french), (why, french)
        assert french.count(" ; ") == str(why).count("; ")


def test_every_hint_sentence_shape_has_its_french():
    english, french = said.catalogue("en"), said.catalogue("fr")
    shapes = [k for k in english if k.startswith("hint.")]
    assert len(shapes) >= 40
    for key in shapes:
        args = {p: "Red" if p == "seat" else 3 for p in said.placeholders(english[key])}  # troop 3: Jumbo
        for n in (1, 2):
            msg = said.Said(key, **{k: (n if k == "n" else v) for k, v in args.items()})
            assert words.say(msg, "fr") != msg and not english_in(words.say(msg, "fr")), key
    assert isinstance(french["hint.medals"], dict)  # plural forms: "1 médaille", "2 médailles"


def test_in_the_browser_a_hint_thinks_no_longer_than_a_bot_move(monkeypatch):
    pool = BotPool(in_process=True)
    budgets: list[float] = []
    real = ReplyBot._search

    def spy(self, obs, budget_s):
        budgets.append(budget_s)
        return real(self, obs, budget_s)

    monkeypatch.setattr(ReplyBot, "_search", spy)
    obs = sample_positions(1, "castle", seed=4)[0]
    a, why = asyncio.run(pool.hint(session.HINT_LEVEL, obs))
    asyncio.run(pool.choose(session.HINT_LEVEL, obs))
    assert a in obs.legal_actions() and why
    assert budgets[0] <= bot_levels.BROWSER_THINK_S and budgets[0] == budgets[1]


@pytest.mark.slow
def test_following_every_hint_plays_the_hints_and_whole_games():
    follower = HintFollower(make_bot("expert", seed=1))
    assert follower.budget_s == follower.adviser.budget_s and follower.name == "hints of expert"
    obs = sample_positions(1, "pool", seed=2)[0]
    adviser = make_bot("expert", seed=3)
    adviser.budget_s = 60.0
    follower = HintFollower(adviser)
    a = follower.choose(obs)
    assert a == unhurried("expert", 3).hint(obs)[0] and follower.last_reason
    deal = play_deal((HintFollower(make_bot("expert", seed=1)), make_bot("greedy", seed=2)), 0, "castle", False, 5)
    assert len(deal.games) == 2 and not [g for g in deal.games if g.reason in FORFEITS]

