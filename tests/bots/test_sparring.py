"""The sparring bot (beam search over whole turns, evaluation fitted to game outcomes): legal whole games
everywhere, reproducible decisions, no hidden tile among its inputs, and a weights file checked on load."""
from __future__ import annotations

import dataclasses
import json
import math
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

import toybattle
from toybattle.bots import FROZEN, LEVEL_NAMES, LEVELS, level, make_bot
from toybattle.bots import beam as B
from toybattle.bots import evaluate as E
from toybattle.bots import heuristic as H
from toybattle.bots.arena import referee
from toybattle.bots.beam import BeamBot
from toybattle.cli import main
from toybattle.rules import TERRAIN_IDS, Board, State, actions, observation, position_text
from toybattle.rules.state import HQ, MEDALS, STUCK, TURN

ENDINGS = (HQ, MEDALS, STUCK)
POSITIONS = 200  # positions scored per move: a few moves in a hundred hit it (most score under 50)


def sparring(seed: int) -> BeamBot:
    """The sparring level with a budget of positions scored instead of a clock: where a test compares
    decisions, a clock would let a loaded machine cut one search shorter than another."""
    return BeamBot(seed, width=level("sparring").width, budget_s=math.inf, positions=POSITIONS)


class LaggingClock:
    """``time`` on a badly loaded machine: every reading comes up to a second after the last one."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += self.rng.random()
        return self.now


def _shipped() -> dict:
    return json.loads((Path(toybattle.__file__).parent / "bots" / "data" / E.DATA_FILE).read_text("utf-8"))


def test_sparring_is_a_level_for_measuring_not_on_the_players_ladder():
    assert "sparring" in LEVEL_NAMES and "sparring" in [lv.name for lv in FROZEN]
    assert "sparring" not in [lv.name for lv in LEVELS]
    bot = make_bot("sparring", seed=1)
    assert isinstance(bot, BeamBot) and bot.level == "sparring" and bot.width >= 1


@pytest.mark.parametrize("first_game", [False, True])
@pytest.mark.parametrize("terrain", TERRAIN_IDS)
def test_it_plays_legal_whole_games_on_every_terrain_and_mode(terrain, first_game):
    """The referee checks every answer: an illegal action, a crash or a timeout would end the game as a forfeit.
    (Whether a decision hit the level's time cap is not asserted: on a loaded machine it can, and think times
    are benchmarks, docs/benchmarks.md.)"""
    for seed, other in ((1, "greedy"), (2, "sparring")):
        s = State.new(terrain, first_game, seed=seed)
        result = referee(s, [make_bot("sparring", seed), make_bot(other, seed + 10)], random.Random(seed))
        assert result.reason in ENDINGS, (result.reason, result.detail)
        assert result.think[0].decisions


def _wins(s: State, a: int) -> bool:
    t = s.copy()
    t.apply_unchecked(a)
    return t.over and t.winner == s.actor


def test_it_wins_at_once_when_it_can():
    """A win (a tile on the enemy H.Q., or the medal objective) is found among the turn's sequences."""
    for seed in range(40):
        rng = random.Random(seed)
        s = State.new(TERRAIN_IDS[seed % len(TERRAIN_IDS)], seed=seed)
        while not s.over:
            s.resolve_chance(rng)
            if s.over:
                break
            legal = s.legal_actions()
            wins = [a for a in legal if _wins(s, a)]
            if wins:
                assert make_bot("sparring", seed).choose(observation(s, s.actor)) in wins
                return
            s.apply_unchecked(rng.choice(legal))
    pytest.fail("no position with a winning placement was met")


def test_a_fixed_seed_gives_the_same_decisions(monkeypatch):
    """Given a budget of positions, the same seed plays the same game, the second time on a machine so
    loaded that a clock budget would have cut its searches short; and the budget is met."""
    capped = 0
    for terrain in ("castle", "jungle", "battlefield"):
        games = [referee(State.new(terrain, seed=5), [sparring(3), sparring(4)], random.Random(5))]
        with monkeypatch.context() as m:
            m.setattr(B, "time", LaggingClock(5))
            games.append(referee(State.new(terrain, seed=5), [sparring(3), sparring(4)], random.Random(5)))
        capped += sum(g.capped for game in games for g in game.think)
        assert games[0].actions == games[1].actions and len(games[0].actions) > 10
    assert capped > 0  # the budget of positions did stop some searches


def test_observations_sent_pickled_leave_the_board_caches_small():
    """A bot worker receives every observation pickled (app/pool.py), each once on a board of its own before
    issue 26: the board facts that the evaluation (and the heuristic) keep per board grew by one per move,
    never freed. The same board sent 300 times, and 60 boards of a terrain made in the worker, leave them
    small."""
    H.info.cache_clear()
    E._facts.cache_clear()
    s = State.new("cemetery", seed=6)
    bot = sparring(6)
    for k in range(300):
        obs = pickle.loads(pickle.dumps(observation(s, s.actor)))
        if k % 30 == 0:
            bot.choose(obs)
        H.evaluate(obs, obs.actor)
        E.score(obs, obs.actor, bot.weights.shared)
    assert H.info.cache_info().currsize == 1 and E._facts.cache_info().currsize == 1
    own = dataclasses.replace(s.b.terrain, id="made-here")  # not a shipped terrain: pickled by value
    for _ in range(60):
        obs = pickle.loads(pickle.dumps(observation(s, s.actor)))
        obs.b = pickle.loads(pickle.dumps(Board(own, False)))
        H.evaluate(obs, obs.actor)
    assert H.info.cache_info().currsize <= H.info.cache_info().maxsize < 60


def _hidden_dealt_again(s: State, seat: int, rng: random.Random) -> State:
    """A full state ``seat`` cannot tell from ``s``: the opponent's unseen tiles and this seat's own reserve
    and set-aside tiles dealt out again."""
    t = s.copy()
    enemy = 1 - seat
    hand = t.rack[enemy] + t.laid[enemy]
    for tile in t.public[enemy]:
        hand.remove(tile)
    pool = hand + t.reserve[enemy] + t.aside[enemy]
    rng.shuffle(pool)
    n_hand, n_res = len(hand), len(t.reserve[enemy])
    new_hand = t.public[enemy] + pool[:n_hand]
    rng.shuffle(new_hand)
    t.laid[enemy], t.rack[enemy] = sorted(new_hand[:len(t.laid[enemy])]), sorted(new_hand[len(t.laid[enemy]):])
    t.reserve[enemy], t.aside[enemy] = pool[n_hand:n_hand + n_res], pool[n_hand + n_res:]
    own = t.reserve[seat] + t.aside[seat]
    rng.shuffle(own)
    t.reserve[seat], t.aside[seat] = own[:len(t.reserve[seat])], own[len(t.reserve[seat]):]
    return t


def test_its_inputs_carry_no_hidden_tile(monkeypatch):
    """Every position the evaluation reads shows no face of the opponent's unseen rack or laid tiles, nor
    of any reserve or set-aside tile; and dealing the hidden tiles differently never changes a choice."""
    read: list[tuple[State, int]] = []
    features = E.features

    def spy(s: State, seat: int) -> list[float]:
        read.append((s, seat))
        return features(s, seat)

    monkeypatch.setattr(E, "features", spy)
    checked = moved = 0
    for seed, terrain in enumerate(TERRAIN_IDS):
        rng = random.Random(seed)
        s = State.new(terrain, seed=seed)
        greedy = make_bot("greedy", seed)
        while not s.over:
            s.resolve_chance(rng)
            if s.over:
                break
            seat = s.actor
            obs = observation(s, seat)
            read.clear()
            a = sparring(seed).choose(obs)
            for t, who in read:
                enemy = 1 - who
                seen = list(obs.public[enemy])
                for tile in t.rack[enemy] + t.laid[enemy]:
                    if tile & 15:
                        assert tile in seen, "an opponent's tile face it was never shown"
                        seen.remove(tile)
                assert all(tile & 15 == 0 for side in (0, 1) for tile in t.reserve[side] + t.aside[side])
                checked += 1
            if s.decision == TURN and len(obs.legal_actions()) > 1:
                other = _hidden_dealt_again(s, seat, rng)
                moved += other.rack[1 - seat] != s.rack[1 - seat]
                with monkeypatch.context() as m:  # and on a loaded machine: the budget is no clock
                    m.setattr(B, "time", LaggingClock(seed))
                    assert sparring(seed).choose(observation(other, seat)) == a
            s.apply(a if rng.random() < 0.5 else greedy.choose(obs))
    assert checked > 500 and moved > 20


# ------------------------------------------------------------------ the weights file

def test_the_shipped_weights_fit_the_features_and_were_fitted():
    raw = _shipped()
    w = E.parse_weights(raw)
    assert raw["features"] == list(E.FEATURES) and sorted(w.per_terrain) == sorted(TERRAIN_IDS)
    assert "fitted" in raw and raw["fitted"]["positions"] > 1000
    shared = dict(zip(E.FEATURES, w.shared, strict=True))
    # an opponent about to win is bad; medals still missing are bad for whoever misses them
    assert shared["enemy_threat"] < 0 and shared["own_medals_needed"] < 0 < shared["enemy_medals_needed"]


def test_the_expert_s_weights_have_the_medal_features_and_leave_the_sparring_bot_s_alone():
    raw = json.loads((Path(toybattle.__file__).parent / "bots" / "data" / E.EXPERT_FILE).read_text("utf-8"))
    w = E.weights(E.EXPERT_FILE)
    assert raw["features"] == list(E.FEATURES_PLUS) and len(w.shared) == len(E.FEATURES_PLUS)
    assert raw["fitted"]["shared_only"] == ["special_lead"] and raw["fitted"]["positions"] > 1000
    k = E.FEATURES_PLUS.index("special_lead")
    assert all(v[k] == w.shared[k] for v in w.per_terrain.values())  # one weight on every terrain
    assert len(E.weights().shared) == len(E.FEATURES)  # the sparring bot keeps its own, shorter weights
    # the medal features see the first medals, which the capped count does not on a 7-medal objective
    s = State.new("castle", seed=3)
    assert s.b.objective[0] == 7
    assert E.medal_features(s, 0) == [7.0, 7.0, 0.0, 0.0]
    assert E.features(s, 0)[E.FEATURES.index("own_medals_needed")] == 6
    assert E.features_plus(s, 0) == E.features(s, 0) + E.medal_features(s, 0)


@pytest.mark.parametrize("breakage", [
    lambda d: d.pop("shared"),
    lambda d: d["shared"].pop(),
    lambda d: d["shared"].__setitem__(3, "x"),
    lambda d: d["shared"].__setitem__(3, float("nan")),
    lambda d: d["features"].reverse(),
    lambda d: d["terrain"].pop("pool"),
    lambda d: d["terrain"].__setitem__("castle", None),
    lambda d: d.__setitem__("terrain", []),
])
def test_a_broken_weights_file_gives_a_one_line_error(tmp_path, breakage):
    raw = _shipped()
    breakage(raw)
    path = tmp_path / "sparring.json"
    path.write_text(json.dumps(raw), "utf-8")
    with pytest.raises(E.WeightsError) as e:
        E.read_weights(path)
    assert str(e.value).startswith("sparring.json: ") and "\n" not in str(e.value)


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "\xff"])
def test_a_weights_file_that_is_not_json_gives_a_one_line_error(tmp_path, text):
    path = tmp_path / "sparring.json"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(E.WeightsError) as e:
        E.read_weights(path)
    assert "\n" not in str(e.value)
    with pytest.raises(E.WeightsError, match="cannot read"):
        E.read_weights(tmp_path / "missing.json")


def test_the_cli_reports_broken_shipped_weights_in_one_line(monkeypatch, capsys):
    def broken() -> E.Weights:
        raise E.WeightsError("sparring.json: 'shared' must be a list of 22 finite numbers")

    monkeypatch.setattr(E, "weights", broken)
    assert main(["arena", "sparring", "greedy", "--games", "2"]) != 0
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "sparring.json" in err


# ------------------------------------------------------------------ through the engine protocol

def test_it_plays_through_the_engine_protocol():
    s = State.new("station", seed=9)
    src = str(Path(toybattle.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")]))}
    lines = ["toybattle", "newgame seed 2", "position", *position_text(s).splitlines(), "end", "go", "quit"]
    out = subprocess.run([sys.executable, "-m", "toybattle", "engine", "--level", "sparring"], env=env,
                         input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    answer = [x for x in out.stdout.splitlines() if x.startswith("action ")]
    assert answer and actions.parse(answer[0][7:], s.b) in s.legal_actions()
    assert "id name toybattle (sparring)" in out.stdout


def test_the_medal_features_tell_the_seat_s_own_medals_from_the_enemy_s():
    """Greedy plays Castle Field until one seat leads on medals: each seat reads its own shortfall first."""
    rng = random.Random(5)
    s = State.new("castle", seed=5)
    bot = make_bot("greedy", 5)
    while not s.over and s.medals(0) == s.medals(1):
        if s.is_chance:
            outs = s.chance_outcomes()
            s.apply_unchecked(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
        else:
            s.apply_unchecked(bot.choose(observation(s, s.actor)))
    assert not s.over and s.medals(0) != s.medals(1)
    short = [s.b.objective[k] - s.medals(k) for k in (0, 1)]
    for seat in (0, 1):
        own, enemy, _, _ = E.medal_features(s, seat)
        assert (own, enemy) == (short[seat], short[1 - seat])
