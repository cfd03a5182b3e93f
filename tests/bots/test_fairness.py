"""Bots decide from what their seat may know, and only ever answer legal actions."""
from __future__ import annotations

import random

import pytest

from toybattle.bots import LEVELS, make_bot
from toybattle.bots.arena import referee
from toybattle.bots.players import Bot, SearchBot
from toybattle.bots.reply import ReplyBot
from toybattle.rules import TERRAIN_IDS, State, observation
from toybattle.rules.state import TURN


def _midgame(terrain: str, seed: int, plies: int, first_game: bool = False) -> State:
    rng = random.Random(seed)
    s = State.new(terrain, first_game, seed=seed)
    for _ in range(plies):
        if s.over:
            break
        s.apply_unchecked(s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions()))
    s.resolve_chance(rng)
    return s


def _shuffle_hidden(s: State, seat: int, rng: random.Random) -> State:
    """Another full state that ``seat`` cannot tell apart from ``s``: the opponent's unseen tiles
    (rack faces not seen arriving, reserve, set-aside) and this seat's own reserve and set-aside
    dealt out again in a different way."""
    t = s.copy()
    enemy = 1 - seat
    hand = t.rack[enemy] + t.laid[enemy]
    for tile in t.public[enemy]:  # tiles the seat saw arrive on that rack stay in the hand
        hand.remove(tile)
    pool = hand + t.reserve[enemy] + t.aside[enemy]
    rng.shuffle(pool)
    n_hand, n_res = len(hand), len(t.reserve[enemy])
    new_hand = t.public[enemy] + pool[:n_hand]
    rng.shuffle(new_hand)  # which tiles stand and which lie face down is hidden too
    n_laid = len(t.laid[enemy])
    t.laid[enemy] = sorted(new_hand[:n_laid])
    t.rack[enemy] = sorted(new_hand[n_laid:])
    t.reserve[enemy] = pool[n_hand:n_hand + n_res]
    t.aside[enemy] = pool[n_hand + n_res:]
    own = t.reserve[seat] + t.aside[seat]
    rng.shuffle(own)
    t.reserve[seat], t.aside[seat] = own[:len(t.reserve[seat])], own[len(t.reserve[seat]):]
    return t


def _bots(seed: int) -> list[Bot]:
    # search bots stop on their simulation count (a huge time budget), so they are deterministic
    return [make_bot("random", seed), make_bot("greedy", seed),
            SearchBot(seed, simulations=60, budget_s=600, width=8), SearchBot(seed, simulations=40, budget_s=600),
            SearchBot(seed, simulations=50, budget_s=600, width=12, prior=1.0, scale=14.0),
            SearchBot(seed, simulations=50, budget_s=600, width=8, depth=3, judge="fitted"),
            SearchBot(seed, simulations=50, budget_s=600, width=8, depth=3, judge="expert"),
            ReplyBot(seed, candidates=3, samples=2, budget_s=600), _uncapped(make_bot("expert", seed))]


def _uncapped(bot: Bot) -> Bot:
    bot.budget_s = 600  # its work alone ends the search: no time cap can make two runs differ
    return bot


@pytest.mark.parametrize("seed", range(6))
def test_choice_does_not_change_when_hidden_tiles_are_dealt_differently(seed):
    rng = random.Random(seed)
    terrain, plies = ("castle", "clouds", "caribbean")[seed % 3], 8 + seed
    s = _midgame(terrain, seed, plies)
    while s.over:  # stop short of the end: a decision is needed
        plies -= 1
        s = _midgame(terrain, seed, plies)
    seat = s.actor
    changed = 0
    for _ in range(3):
        t = _shuffle_hidden(s, seat, rng)
        changed += (t.rack[1 - seat] != s.rack[1 - seat]) or (t.reserve[1 - seat] != s.reserve[1 - seat])
        assert observation(t, seat) == observation(s, seat)
        for bot_s, bot_t in zip(_bots(seed), _bots(seed), strict=True):
            assert bot_s.choose(observation(s, seat)) == bot_t.choose(observation(t, seat))
    assert changed  # the hidden tiles really moved


class Spy(Bot):
    """Records every observation it is given and answers like greedy."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.seen: list[tuple[State, int]] = []
        self.inner = make_bot("greedy", seed)

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        self.seen.append((obs, obs.actor))
        return self.inner.choose(obs)


def test_the_referee_hands_bots_only_observations():
    for seed, terrain in enumerate(TERRAIN_IDS):
        spies = [Spy(1), Spy(2)]
        referee(State.new(terrain, seed=seed), spies, random.Random(seed))
        for spy in spies:
            assert spy.seen
            for obs, seat in spy.seen:
                enemy = 1 - seat
                assert all(t & 15 == 0 for t in obs.reserve[enemy] + obs.aside[enemy] + obs.laid[enemy])
                assert all(t & 15 == 0 for t in obs.reserve[seat] + obs.aside[seat])
                assert [t for t in obs.rack[enemy] if t & 15] == []


def _positions(count: int, seed: int):
    """Decisions from random games over every terrain and mode (mid-turn decisions included)."""
    rng = random.Random(seed)
    k = 0
    while True:
        for terrain in TERRAIN_IDS:
            for first_game in (False, True):
                s = State.new(terrain, first_game, seed=rng.randrange(10 ** 9))
                while True:
                    s.resolve_chance(rng)
                    if s.over:
                        break
                    yield s
                    k += 1
                    if k >= count:
                        return
                    s.apply_unchecked(rng.choice(s.legal_actions()))


def test_cheap_bots_answer_legal_actions_everywhere():
    bots = [make_bot("random", 1), make_bot("greedy", 2)]
    decisions = set()
    for s in _positions(3000, seed=11):
        legal = s.legal_actions()
        obs = observation(s, s.actor)
        assert obs.legal_actions() == legal
        decisions.add(s.decision)
        for bot in bots:
            assert bot.choose(obs) in legal
    assert len(decisions) >= 8  # turn, extra, draws, Jumbo, tower, bridge, pumpkin, tank...


def test_search_bots_answer_legal_actions_with_tiny_budgets():
    bot = SearchBot(3, simulations=6, budget_s=600, width=4)
    for n, s in enumerate(_positions(2000, seed=12)):
        if n % 10:
            continue
        obs = observation(s, s.actor)
        assert bot.choose(obs) in s.legal_actions()


def test_the_reply_search_answers_legal_actions_everywhere():
    """Mid-turn decisions included: Cap'n's extra tile, draws, Jumbo, base effects, on every terrain and mode."""
    bot = ReplyBot(5, candidates=2, samples=1, budget_s=600)
    decisions = set()
    for n, s in enumerate(_positions(2000, seed=14)):
        if n % 10 and s.decision == TURN:
            continue
        decisions.add(s.decision)
        assert bot.choose(observation(s, s.actor)) in s.legal_actions()
    assert len(decisions) >= 8


@pytest.mark.parametrize("judge", ["fitted", "expert"])
def test_a_fitted_judge_search_answers_legal_actions_everywhere(judge):
    bot = SearchBot(4, simulations=6, budget_s=600, width=4, depth=2, judge=judge)
    for n, s in enumerate(_positions(2000, seed=13)):
        if n % 10:
            continue
        assert bot.choose(observation(s, s.actor)) in s.legal_actions()


def test_levels_are_ordered_and_described():
    names = [lv.name for lv in LEVELS]
    assert names[:2] == ["random", "greedy"] and names[-1] == "expert"
    assert all(lv.label and lv.description for lv in LEVELS)
    search = [lv for lv in LEVELS if lv.simulations]
    assert [lv.simulations for lv in search] == sorted(lv.simulations for lv in search)
    s = _midgame("castle", 2, 6)
    for lv in LEVELS:
        bot = make_bot(lv.name, seed=1)
        assert bot.level == lv.name and bot.budget_s == lv.budget_s
        if not lv.simulations:  # search levels are exercised with small budgets elsewhere
            a, why = bot.hint(observation(s, s.actor))
            assert a in s.legal_actions() and why


def test_unknown_level_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        make_bot("grandmaster")


def _winning_positions(count: int):
    """Positions (from random games) where the seat to move can put a tile on an enemy H.Q."""
    found = []
    for s in _positions(40000, seed=21):
        if s.decision in (0, 1) and any(s.b.hq_mask[1 - s.turn] >> (a & 31) & 1
                                         for a in s.legal_actions() if 0x100 <= a < 0x220):
            found.append(s.copy())
            if len(found) >= count:
                break
    return found


def test_every_level_takes_an_immediate_win_and_says_so():
    positions = _winning_positions(10)
    assert len(positions) == 10
    bots = [make_bot("greedy", 1), SearchBot(1, simulations=30, budget_s=600, width=4), make_bot("expert", 1)]
    for s in positions:
        for bot in bots:
            obs = observation(s, s.actor)
            a, why = bot.hint(obs)
            t = s.copy()
            t.apply(a)
            assert t.over and t.winner == s.actor
            assert "wins the game" in why
            if isinstance(bot, ReplyBot):  # a win now is played without weighing plans: no win chance quoted
                assert "%" not in why
