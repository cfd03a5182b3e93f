"""``State.resolve_chance``: the one loop that plays random picks (XB-42, the tank) until a seat decides."""
from __future__ import annotations

import random

from toybattle.rules import State, action_text
from toybattle.rules.state import XB_PICK
from toybattle.rules.troops import shuffle


def test_resolve_chance_plays_the_pick_and_stops_at_the_next_decision(kit):
    s = kit.build("castle", blue="5", red="7 7 1", stacks={11: "b1"})
    kit.play(s, "5@13", "use")
    assert s.is_chance and s.decision == XB_PICK
    outcomes = {a for a, _ in s.chance_outcomes()}
    played: list[int] = []

    def play(a: int) -> None:
        played.append(a)
        s.apply(a)  # checked: an outcome the loop draws must be legal

    s.resolve_chance(random.Random(3), play)
    assert len(played) == 1 and played[0] in outcomes, [action_text(a, s.b) for a in played]
    assert not s.is_chance and (s.over or s.actor >= 0)
    assert len(s.rack[1]) == 2


def test_resolve_chance_draws_as_the_loop_it_replaced():
    """Seeded games replay bit for bit: the same draws from the generator, in the same order."""
    for seed in range(30):
        a, b = State.new("castle", seed=seed), State.new("castle", seed=seed)
        ra, rb, pick = random.Random(seed), random.Random(seed), random.Random(seed + 1)
        while not a.over:
            a.resolve_chance(ra)
            while b.is_chance:
                b.apply_unchecked(b.sample_chance(rb))
            assert a.ply == b.ply and a.rack == b.rack and a.discard == b.discard
            if a.over:
                break
            x = pick.choice(a.legal_actions())
            a.apply_unchecked(x)
            b.apply_unchecked(x)


def test_resolve_chance_leaves_a_decision_alone():
    s = State.new("castle", seed=1)
    before = s.copy()
    s.resolve_chance(random.Random(1))
    assert s.ply == before.ply and s.rack == before.rack and s.decision == before.decision


def test_shuffle_is_random_shuffle_step_for_step():
    """Deals and determinizations shuffle with troops.shuffle, written out for the compiled build:
    it must leave the list and the generator exactly as ``random.Random.shuffle`` does."""
    for seed in range(200):
        items = list(range(seed % 30))
        ours, theirs = random.Random(seed), random.Random(seed)
        mine = items[:]
        shuffle(mine, ours)
        theirs.shuffle(items)
        assert mine == items and ours.getstate() == theirs.getstate()
    army = list(range(24))
    shuffle(army, random.SystemRandom())  # the app deals from the system's generator
    assert sorted(army) == list(range(24))
