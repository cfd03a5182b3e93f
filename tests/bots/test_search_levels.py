"""The search levels' parameters: expert-1 stays the first expert, move for move; the parameters
expert gained (the root prior, the evaluation's scale) reach the search from levels.json."""
from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from toybattle.bots import _level, level, make_bot
from toybattle.bots import evaluate as E
from toybattle.bots import heuristic as H
from toybattle.bots.players import SearchBot
from toybattle.rules import State, observation
from toybattle.rules.state import RECALL, TURN

# expert-1's answers (action, the chosen action's win rate, simulations) in positions of seeded
# greedy-vs-greedy games, recorded with the search code expert-1 was first released with
EXPERT_1 = {("castle", 5, 3): (2, 0.465637713, 640), ("castle", 5, 13): (1033, 0.669859232, 576),
            ("pool", 6, 13): (301, 0.751608272, 960), ("cemetery", 7, 13): (1, 0.475105003, 896)}


def _greedy_positions(terrain: str, seed: int, plies: list[int]) -> dict[int, State]:
    s = State.new(terrain, seed=seed)
    greedy = make_bot("greedy", seed)
    rng = random.Random(seed)
    found, k = {}, 0
    while not s.over and k <= max(plies):
        if s.is_chance:
            s.apply(s.sample_chance(rng))
            continue
        if k in plies:
            found[k] = s.copy()
        s.apply(greedy.choose(observation(s, s.actor)))
        k += 1
    return found


def test_expert_1_plays_exactly_as_first_released():
    for (terrain, seed, ply), (action, rate, sims) in EXPERT_1.items():
        s = _greedy_positions(terrain, seed, [ply])[ply]
        bot = make_bot("expert-1", seed=ply)
        bot.budget_s = 1e9  # only the simulations end the search, whatever the machine's load
        assert bot.choose(observation(s, s.actor)) == action
        assert (round(bot.last_info["win_rate"], 9), bot.last_info["simulations"]) == (rate, sims)


def test_search_parameters_reach_the_bot_from_the_levels_table():
    for name in ("easy", "medium", "expert-1", "expert-2", "expert-fitted"):
        lv, bot = level(name), make_bot(name, 1)
        assert isinstance(bot, SearchBot)
        assert (bot.simulations, bot.width, bot.depth, bot.explore, bot.prior, bot.scale, bot.judge) == (
            lv.simulations, lv.width, lv.depth, lv.explore, lv.prior, lv.scale, lv.judge)
    assert (level("expert-1").prior, level("expert-1").scale) == (0.0, 20.0)  # the first expert had neither


@pytest.mark.parametrize("bad", [{"prior": -1}, {"scale": 0}, {"scale": "wide"}])
def test_a_bad_search_parameter_in_the_table_is_refused_by_name(bad):
    row = {"name": "x", "kind": "search", "label": "X", "description": "x", "simulations": 10, **bad}
    with pytest.raises(ValueError, match="level 'x': bad kind or numbers"):
        _level(json.loads(json.dumps(row)))


def test_an_unknown_judge_is_refused_in_one_line():
    row = {"name": "x", "kind": "search", "label": "X", "description": "x", "simulations": 10, "judge": "oracle"}
    with pytest.raises(ValueError, match=r"^levels.json: level 'x': unknown judge 'oracle' \(one of: heuristic, "
                                         r"fitted, expert\)$"):
        _level(row)
    with pytest.raises(ValueError, match="unknown judge 'oracle'"):
        SearchBot(1, judge="oracle")
    assert level("expert-1").judge == "heuristic" and make_bot("expert-fitted", 1).judge == "fitted"


def test_the_fitted_judge_reads_the_fitted_evaluation_for_the_searching_seat():
    s = _greedy_positions("pool", 6, [13])[13]
    seat = s.actor
    sample = s.copy()
    mine = E.score(sample, seat, E.weights().per_terrain["pool"])
    bot = SearchBot(1, judge="fitted")
    bot._seat = seat  # as a search from this seat sets it
    blue = SearchBot._playout(sample.copy(), random.Random(1), 0, bot._cutoff)  # depth 0: judged at once
    p = 1 / (1 + math.exp(-mine))
    assert blue == pytest.approx(p if seat == 0 else 1 - p)
    assert blue != pytest.approx(H.win_chance(sample, 0))  # not the hand-written judge
    # the search really uses it: the same seeded search judged otherwise reports another win rate
    obs = observation(s, seat)
    rates = []
    for judge in ("heuristic", "fitted"):
        bot = SearchBot(2, simulations=80, budget_s=600, width=6, judge=judge)
        bot.choose(obs)
        rates.append(bot.last_info["win_rate"])
    assert rates[0] != rates[1]


def test_the_expert_judge_waits_for_a_turn_to_start_and_reads_the_seat_that_has_just_played():
    # a Castle Field position in the middle of a turn (a recall to decide), and a position at a turn's start
    mid = start = None
    for seed in range(1, 40):
        for s in _greedy_positions("castle", seed, list(range(60))).values():
            if mid is None and s.decision == RECALL:
                mid = s
            if start is None and s.decision == TURN:
                start = s
        if mid is not None and start is not None:
            break
    assert mid is not None and start is not None
    bot = SearchBot(1, judge="expert")
    seen: list[tuple[int, int]] = []

    def judge(t: State) -> float:
        seen.append((t.decision, t.turn))
        return bot._cutoff(t)

    SearchBot._playout(mid.copy(), random.Random(1), 0, judge, True)  # depth 0, but mid-turn: plays on
    assert seen and seen[0][0] == TURN
    blue = SearchBot._playout(start.copy(), random.Random(1), 0, bot._cutoff, True)  # judged at once
    just = 1 - start.turn
    w = E.weights(E.EXPERT_FILE).per_terrain["castle"]
    assert len(w) == len(E.FEATURES_PLUS)  # the expert's own weights, with the medal features
    p = 1 / (1 + math.exp(-E.score(start, just, w)))
    assert blue == pytest.approx(p if just == 0 else 1 - p)
    assert blue != pytest.approx(SearchBot(1, judge="fitted")._cutoff(start))


def test_a_strong_prior_steers_the_root_toward_the_greedy_evaluation_s_favourite():
    checked = 0
    for ply, s in _greedy_positions("jungle", 3, [8, 20, 26, 32]).items():
        obs = observation(s, s.actor)
        scored = sorted(H.greedy_scores(obs), reverse=True)
        if len(scored) < 3 or scored[0][0] - scored[1][0] < 1.0 or scored[0][0] >= H.WIN / 2:
            continue  # no clear favourite
        leaning = SearchBot(ply, simulations=120, budget_s=600, prior=1e6)
        assert leaning.choose(obs) == scored[0][1]
        assert leaning.last_info["simulations"] > 0
        checked += 1
    assert checked >= 3


@pytest.mark.slow
def test_the_tuning_script_checks_a_configuration_against_expert_1_on_arena_deals():
    root = Path(__file__).resolve().parents[2]
    small = json.dumps({"simulations": 6, "width": 5, "depth": 4, "explore": 0.7, "prior": 1.0, "scale": 15.0})
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    r = subprocess.run([sys.executable, str(root / "scripts" / "tune_expert.py"), "--check", small, "--deals", "2",
                        "--opponent", "easy", "--seed", "5"], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["games"] == 4 and sorted(out["per_terrain"]) == ["castle", "pool"]
    assert out["opponent"] == "easy" and out["mode"] == "standard"
    assert out["interval95"][0] <= out["score"] <= out["interval95"][1]
    assert sum(out["ends"].values()) == 4
    candidate, opponent = out["think_cpu_s"]
    assert opponent["decisions"] > 0
    assert candidate["decisions"] > 0 and candidate["median_simulations"] <= 6
    assert "deal 2/2 pool" in r.stderr


def test_the_tuning_script_checks_against_the_sparring_bot_on_one_terrain_and_mode(tmp_path):
    root = Path(__file__).resolve().parents[2]
    small = json.dumps({"simulations": 6, "width": 5, "depth": 4, "explore": 0.7, "judge": "expert"})
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    r = subprocess.run([sys.executable, str(root / "scripts" / "tune_expert.py"), "--check", small, "--deals", "2",
                        "--opponent", "sparring", "--terrain", "station", "--mode", "first-game", "--first", "3",
                        "--seed", "5", "--records", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert (out["opponent"], out["mode"], out["first"], list(out["per_terrain"])) == (
        "sparring", "first-game", 3, ["station"])
    assert out["think_cpu_s"][1]["decisions"] > 0
    records = sorted(p.name for p in tmp_path.iterdir())
    assert records == ["deal00003-station-candblue.tbr", "deal00003-station-candred.tbr",
                       "deal00004-station-candblue.tbr", "deal00004-station-candred.tbr"]
    assert "mode first-game" in (tmp_path / records[0]).read_text("utf-8")
    bad = subprocess.run([sys.executable, str(root / "scripts" / "tune_expert.py"), "--check", small,
                          "--terrain", "moon"], capture_output=True, text=True, env=env, timeout=600)
    assert bad.returncode == 2 and "unknown terrain 'moon'" in bad.stderr


@pytest.mark.slow
def test_the_tuning_script_checks_the_expert_s_kind_with_other_numbers_and_any_level_by_name():
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    small = json.dumps({"kind": "reply", "candidates": 2, "samples": 1, "reply_width": 1})
    for spec, work in ((small, "positions"), ("greedy", None)):
        r = subprocess.run([sys.executable, str(root / "scripts" / "tune_expert.py"), "--check", spec, "--deals",
                            "1", "--opponent", "sparring", "--terrain", "jungle", "--seed", "6"],
                           capture_output=True, text=True, env=env, timeout=600)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        assert out["games"] == 2 and sum(out["ends"].values()) == 2
        mine = out["think_cpu_s"][0]
        assert mine["decisions"] > 0 and (mine["median_simulations"] > 0) == (work is not None)
    for bad, why in (('{"kind": "reply", "bogus": 1}', "unexpected keyword argument 'bogus'"),
                     ("grandmaster", "unknown bot level 'grandmaster'"), ("{oops", "Expecting property name")):
        r = subprocess.run([sys.executable, str(root / "scripts" / "tune_expert.py"), "--check", bad],
                           capture_output=True, text=True, env=env, timeout=600)
        assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
        assert r.stderr.strip().splitlines()[-1].startswith("tune_expert.py: error: bad --check configuration")
        assert why in r.stderr
