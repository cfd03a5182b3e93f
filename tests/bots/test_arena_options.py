"""The arena's options for outside engines: budgets, seeds, records, JSON, think times, logs,
names, the position extras, the game-over line, and the frozen level."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import toybattle
from toybattle.bots import level, make_bot
from toybattle.bots.arena import MatchSpec, deal_seed, referee, run_match
from toybattle.bots.engine import BotFailure, Engine, EngineBot, decision_subject, engine_seed
from toybattle.bots.players import SearchBot
from toybattle.cli import main
from toybattle.rules import State, observation, parse_action, parse_record, position_text
from toybattle.rules import actions as A
from toybattle.rules.state import EXTRA, SKULLY_DRAW, STAR_DRAW, XB_USE

SHELL_ENGINE = Path(__file__).with_name("first_legal.sh")
SRC = str(Path(toybattle.__file__).resolve().parent.parent)


def _toybattle(*argv: str) -> subprocess.CompletedProcess[str]:
    """``toybattle ARGV`` as a user runs it, on the checkout under test."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "toybattle", *argv], capture_output=True, text=True, env=env,
                          timeout=300)


def test_an_engine_in_shell_plays_a_match_with_every_option(tmp_path):
    logs, records = tmp_path / "logs", tmp_path / "records"
    run = _toybattle("arena", f"cmd:/bin/sh {SHELL_ENGINE}", "random", "--games", "4", "--seed", "5",
                     "--time", "0.5", "--engine-log", str(logs), "--records", str(records), "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    # real games, named by the engine's own 'id name'
    assert out["forfeits"] == [] and out["games"] == 4 and out["name_a"] == "first-legal (sh)"
    assert out["name_b"] == "random" and out["engine_time_s"] == 0.5
    # per-deal results and think times per decision and per turn
    assert [d["index"] for d in out["per_deal"]] == [0, 1]
    assert all(len(d["games"]) == 2 and d["seed"] == deal_seed(5, d["index"]) for d in out["per_deal"])
    for side in ("a", "b"):
        t = out["think_s"][side]
        assert t["decision"]["count"] >= t["turn"]["count"] > 0 and t["cap_hits"] == 0
        assert 0 <= t["decision"]["median"] <= t["decision"]["max"] and t["decision"]["mean"] > 0
    # progress: a line for every deal
    progress = [line for line in run.stderr.splitlines() if line.startswith("deal ")]
    assert [p.split()[1] for p in progress] == ["1/2", "2/2"]
    # what the engine was told (its standard error, kept by --engine-log)
    (log,) = logs.iterdir()
    told = log.read_text().splitlines()
    seeds = [deal_seed(5, k) for k in (0, 1)]
    assert [x for x in told if x.startswith("newgame")] == [
        f"newgame seed {engine_seed(s * 4 + a_seat * 2 + a_seat)}" for s in seeds for a_seat in (0, 1)]
    assert not {str(s) for s in seeds} & {x.split()[-1] for x in told if x.startswith("newgame")}
    assert any(x.startswith("legal ") for x in told) and "go time 0.5" in told
    overs = [x for x in told if x.startswith("gameover")]
    assert len(overs) == 4 and all(x.split()[1::2] == ["winner", "reason", "seat"] for x in overs)
    assert [x.split()[-1] for x in overs] == ["blue", "red", "blue", "red"]
    # every game as a record that replays to the result reported
    files = sorted(records.iterdir())
    assert [f.name for f in files] == ["deal-00000-a-blue.tbr", "deal-00000-a-red.tbr",
                                       "deal-00001-a-blue.tbr", "deal-00001-a-red.tbr"]
    for f, game in zip(files, [g for d in out["per_deal"] for g in d["games"]], strict=True):
        end = parse_record(f.read_text()).replay()
        winner = "blue" if (game["winner"] == "first-legal (sh)") == (game["a_seat"] == "blue") else "red"
        assert end.over and ("blue", "red")[end.winner] == winner and end.reason == game["reason"]


def test_the_same_seed_replays_an_outside_engine_s_games(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", SRC)
    # the random level: its seed alone decides its moves (a search level's time cap could cut it
    # short on a loaded machine), and without the seed two runs would differ
    spec = MatchSpec(f"cmd:{sys.executable} -m toybattle engine --level random", "greedy", 2, ("castle",), seed=3)
    first, again = run_match(spec), run_match(spec)
    assert all(g.reason in ("hq", "medals", "stuck") for g in first.deals[0].games)
    assert first.deals[0].records == again.deals[0].records


@pytest.mark.slow
def test_time_budget_and_the_limit_are_what_the_engine_is_told_and_held_to(tmp_path):
    script = tmp_path / "slow.py"
    script.write_text("import sys, time\n"
                      "for line in sys.stdin:\n"
                      "    w = line.split()\n"
                      "    if w == ['toybattle']: print('toybattleok', flush=True)\n"
                      "    if w == ['isready']: print('readyok', flush=True)\n"
                      "    if w[:1] == ['go']:\n"
                      "        time.sleep(0.2)\n"
                      "        print('action draw', flush=True)\n")
    s = State.new("castle", seed=2)
    slow = EngineBot(f"{sys.executable} {script}", budget_s=0.01)  # limit 2 x 0.01 + 1 s: 0.2 s is well in time
    try:
        slow.new_game(1)
        assert slow.choose(observation(s, s.actor)) == parse_action("draw", s.b)
    finally:
        slow.close()
    too_slow = EngineBot(f"{sys.executable} {script}", budget_s=0.01)
    script.write_text(script.read_text().replace("0.2", "2.5"))
    try:
        too_slow.new_game(1)
        r = referee(s.copy(), [too_slow, make_bot("random", 1)], random.Random(1))
    finally:
        too_slow.close()
    assert r.reason == "time" and r.winner == 1


def _decisions(kinds: tuple[int, ...], count: int) -> list[tuple[State, tuple[int, int] | None]]:
    """Positions at the given decisions from random games, with the mover's placement just before."""
    out: list[tuple[State, tuple[int, int] | None]] = []
    rng = random.Random(7)
    for seed in range(400):
        if len(out) >= count:
            break
        s = State.new(("castle", "clouds", "battlefield", "cemetery")[seed % 4], seed=seed)
        last = None
        while not s.over and len(out) < count:
            if s.decision in kinds:
                out.append((observation(s, s.actor), last))
            a = s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions())
            last = (a & 31, (a - A.PLACE) >> 5) if A.PLACE <= a < A.PLACE_END else None
            s.apply_unchecked(a)
    assert len(out) == count
    return out


def test_the_about_line_names_the_node_and_tile_a_decision_is_about():
    for obs, last in _decisions((SKULLY_DRAW, STAR_DRAW, XB_USE, EXTRA), 12):
        assert last is not None
        node, tile = decision_subject(obs, last).split()
        i = obs.b.index[int(node)]
        assert i == last[0] and tile == "br"[obs.turn] + {SKULLY_DRAW: "1", STAR_DRAW: "6", XB_USE: "5",
                                                          EXTRA: "2"}[obs.decision]
    for obs, _ in _decisions((5, 6, 7, 8, 9, 10), 12):  # Jumbo and the special bases
        node = decision_subject(obs, None).split()[0]
        assert obs.b.index[int(node)] == obs.dnode
    s = State.new("castle", seed=1)
    assert decision_subject(s, None) == ""  # a plain turn is about nothing in particular


def test_the_engine_reads_positions_carrying_the_extras():
    s = State.new("castle", seed=4)
    e = Engine("greedy")
    bot = EngineBot("unused")
    bot.extras = ("legal", "about")
    lines = ["position", *position_text(s).splitlines(), *bot.extra_lines(s), "end"]
    assert any(x.startswith("legal draw ") for x in lines)
    assert [out for line in lines for out in e.handle(line)] == []
    assert e.obs == observation(s, s.actor)


@pytest.mark.parametrize("line", [
    "quit now please", "isready now", "toybattle 2", "hint me", "level easy please", "go time 1 2",
    "go soon 1", "go time inf", "newgame seed 3 4", "newgame now", "gameover",
    "gameover winner green reason hq seat red",
    "gameover winner blue reason luck seat red", "gameover winner blue reason hq", "QUIT",
])
def test_commands_are_read_exactly(line):
    out = Engine("random").handle(line)  # 'quit now please' must not stop the engine
    assert len(out) == 1 and out[0].startswith("error ") and "\n" not in out[0]


def test_the_game_over_line_is_understood():
    e = Engine("random")
    assert e.handle("gameover winner red reason medals seat blue") == []
    assert e.handle("gameover winner blue reason time seat blue") == []


def test_search_levels_are_defined_by_work_and_the_arena_counts_time_cap_hits():
    capped = SearchBot(1, simulations=10**9, budget_s=0.005)
    r = referee(State.new("castle", seed=3), [capped, make_bot("random", 2)], random.Random(3))
    assert 0 < r.think[0].capped <= len(r.think[0].decisions)
    assert r.think[1].capped == 0
    free = SearchBot(1, simulations=40, budget_s=600)
    free.choose(observation(State.new("castle", seed=3), 0))
    assert free.last_info["simulations"] <= 40 and free.last_info["capped"] == 0


def test_expert_1_keeps_the_first_expert_s_parameters():
    lv = level("expert-1")
    assert (lv.kind, lv.simulations, lv.width, lv.depth, lv.explore, lv.budget_s) == ("search", 1000, 14, 12, 0.7, 1.8)
    assert make_bot("expert-1").level == "expert-1"
    assert "expert-1" not in [x.name for x in toybattle.bots.LEVELS]  # not on the players' ladder


def test_records_and_json_from_built_in_bots(tmp_path, capsys):
    assert main(["arena", "greedy", "random", "--games", "2", "--records", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["per_deal"]) == 1 and out["per_deal"][0]["score"] == out["score"]
    for f in sorted(tmp_path.iterdir()):
        text = f.read_text()
        assert "# blue: " in text and "# red: " in text
        assert parse_record(text).replay().over


@pytest.mark.parametrize("argv, message", [
    (["--time", "0"], "--time must be"),
    (["--time", "nan"], "--time must be"),
    (["--records", "/proc/version/x"], "--records: cannot write"),
    (["--engine-log", "/proc/version/x"], "--engine-log: cannot write"),
])
def test_bad_arena_options_are_one_clear_line(capsys, argv, message):
    assert main(["arena", "greedy", "random", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.slow
def test_an_engine_that_never_gets_ready_is_stopped_and_loses_cleanly(tmp_path):
    script = tmp_path / "deaf.py"
    script.write_text("import sys\n"
                      "for line in sys.stdin:\n"
                      "    if line.split() == ['toybattle']: print('id name deaf', flush=True); "
                      "print('toybattleok', flush=True)\n")
    # long enough for a Python process to start and greet on a busy machine (0.5 s was not, under load)
    bot = EngineBot(f"{sys.executable} -S {script}", startup_s=3)
    try:
        with pytest.raises(BotFailure, match=r"no 'readyok' within 3 s"):
            bot.new_game(1)
        assert bot.proc is None and bot.name == "deaf"  # stopped, not reused half-started
    finally:
        bot.close()


def test_the_arena_splits_the_score_by_terrain():
    """Targets are set per terrain, so a match over several terrains reports each one's score and interval."""
    run = _toybattle("arena", "greedy", "random", "--games", "8", "--terrain", "all", "--seed", "3", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    per = out["per_terrain"]
    assert list(per) == ["castle", "pool", "clouds", "jungle"]
    for terrain, row in per.items():
        deals = [d["score"] for d in out["per_deal"] if d["terrain"] == terrain]
        assert row["deals"] == len(deals) == 1 and row["games"] == 2 and row["score"] == deals[0]
        assert row["score_low"] <= row["score"] <= row["score_high"]
    text = _toybattle("arena", "greedy", "random", "--games", "4", "--terrain", "all", "--seed", "3")
    assert text.returncode == 0, text.stderr
    line = [x for x in text.stdout.splitlines() if x.startswith("score of greedy per terrain: ")]
    assert line and "castle " in line[0] and "pool " in line[0] and "(2)" in line[0]
