"""The view offers exactly the rules' legal actions, each as the text to send, and says which rule
refuses every other target: the page composes no action and holds no rule (see web/js/choice.js)."""
from __future__ import annotations

import json
import random

import pytest

from toybattle.app.view import legal_json, seat_view
from toybattle.rules import TERRAIN_IDS, State, action_text, observation, parse_action
from toybattle.rules.state import DECISION_NAMES


def _taps(taps: dict) -> list[dict]:
    """Every tap of a node map, the second steps of two-step choices included."""
    out = []
    for tap in taps.values():
        out += _taps(tap["then"]) if "then" in tap else [tap]
    return out


def _positions(terrain: str, first_game: bool, seed: int):
    """The referee's state at every decision of a random game."""
    rng = random.Random(seed)
    s = State.new(terrain, first_game=first_game, seed=seed)
    while not s.over:
        if s.is_chance:
            s.apply(s.sample_chance(rng))
            continue
        yield s
        s.apply(rng.choice(s.legal_actions()))


def _check(s: State) -> set[str]:
    seat = s.actor
    obs = observation(s, seat)
    view = seat_view(obs, seat)
    legal = view["legal"]
    want = [action_text(a, s.b) for a in s.legal_actions()]
    assert legal["actions"] == want
    taps = [t for c in legal["rack"].values() for t in _taps(c)] + _taps(legal["board"])
    offered = [b["action"] for b in legal["buttons"]] + [t["action"] for t in taps if "refused" not in t]
    assert sorted(offered) == sorted(want), "every legal action is offered once, and nothing else"
    for tap in taps:
        if "refused" in tap:
            assert tap["refused"], tap
            if "action" in tap:  # a refused target names the rule the referee itself gives
                assert tap["refused"] == s.refusal(parse_action(tap["action"], s.b)), tap
    nodes = {str(i) for i in s.b.ids}
    assert all(set(c) == nodes for c in legal["rack"].values())  # every target answered, legal or not
    assert set(legal["board"]) in (set(), nodes)
    placing = DECISION_NAMES[s.decision] in ("turn", "capn_extra")
    assert sorted(legal["rack"]) == (sorted(set(view["rack"])) if placing else [])
    assert legal == legal_json(s), "the seat's observation gives the referee's choices"
    return {DECISION_NAMES[s.decision]}


@pytest.mark.parametrize("terrain", TERRAIN_IDS)
def test_the_view_offers_exactly_the_legal_actions_and_why_not_the_rest(terrain):
    decisions: set[str] = set()
    for seed in range(2):
        for s in _positions(terrain, seed == 1, seed):
            decisions |= _check(s)
    assert len(decisions) >= 2  # more than plain turns were looked at


def test_no_choice_is_sent_to_the_seat_that_waits_and_nothing_of_the_opponents_rack():
    rng = random.Random(5)
    for s in _positions("castle", False, 7):
        waiting = 1 - s.actor
        assert seat_view(observation(s, waiting), waiting)["legal"] is None
        mine = seat_view(observation(s, s.actor), s.actor)
        other = s.copy()  # other tiles on the waiting seat's rack: the actor's view cannot tell
        other.rack[waiting] = [(waiting << 4) | rng.randint(1, 8) for _ in other.rack[waiting]]
        assert json.dumps(seat_view(observation(other, s.actor), s.actor)) == json.dumps(mine)
