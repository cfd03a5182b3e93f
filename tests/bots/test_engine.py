"""The engine line protocol, in process and end to end through a subprocess in the arena."""
from __future__ import annotations

import json
import os
import random
import shlex
import sys
from pathlib import Path

import pytest

import toybattle
from toybattle.bots.arena import FAILED, ILLEGAL, TIMEOUT, MatchSpec, referee, run_match
from toybattle.bots.engine import Engine, EngineBot
from toybattle.bots.players import Bot
from toybattle.cli import main
from toybattle.rules import State, observation, parse_action, position_text

# The engine program, started the way a user would, from the interpreter running these tests.
ENGINE = f"{shlex.quote(sys.executable)} -m toybattle engine"


@pytest.fixture(autouse=True)
def _subprocesses_import_this_checkout(monkeypatch):
    """Engine programs started by a test import the toybattle under test, not another copy."""
    src = str(Path(toybattle.__file__).resolve().parent.parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")])))


def _position(seed: int = 4) -> State:
    return State.new("castle", seed=seed)


def _send(engine: Engine, lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        out += engine.handle(line)
    return out


def test_a_full_session():
    s = _position()
    e = Engine("easy", seed=1)
    hello = _send(e, ["toybattle"])
    assert hello[-1] == "toybattleok" and any(x.startswith("option level random greedy easy") for x in hello)
    assert _send(e, ["isready"]) == ["readyok"]
    assert _send(e, ["level greedy", "newgame seed 3", "position"] + position_text(s).splitlines() + ["end"]) == []
    out = _send(e, ["go time 0.5"])
    assert out[-1].startswith("action ")
    assert parse_action(out[-1][7:], s.b) in s.legal_actions()
    hint = _send(e, ["hint"])
    assert hint[0].startswith("hint ") and len(hint[0].split(" ", 2)) == 3


def test_the_engine_sees_only_the_mover_s_view_of_what_is_sent():
    s = _position()
    e = Engine("greedy")
    _send(e, ["position"] + position_text(s).splitlines() + ["end"])  # a full state, hidden tiles included
    assert e.obs == observation(s, s.actor)


@pytest.mark.parametrize("line, message", [
    ("fly me to the moon", "unknown command 'fly'"),
    ("go", "no position"),
    ("level grandmaster", "unknown bot level 'grandmaster'"),
    ("newgame seed x", "bad newgame line"),
    ("position now", "stands alone"),
])
def test_malformed_lines_get_one_error_line(line, message):
    out = Engine("random").handle(line)
    assert len(out) == 1 and out[0].startswith("error ") and message in out[0]


def test_a_bad_position_and_a_bad_go_are_reported_and_the_engine_goes_on():
    e = Engine("random")
    out = _send(e, ["position", "terrain nowhere", "end"])
    assert len(out) == 1 and out[0].startswith("error bad position")
    _send(e, ["position"] + position_text(_position()).splitlines() + ["end"])
    assert _send(e, ["go time soon"])[0].startswith("error bad go line")
    assert _send(e, ["go"])[-1].startswith("action ")


def test_engine_subcommand_end_to_end(tmp_path):
    bot = EngineBot(f"{ENGINE} --level easy", budget_s=1.0)
    try:
        s = _position(9)
        bot.new_game()
        a = bot.choose(observation(s, s.actor))
        assert a in s.legal_actions()
    finally:
        bot.close()


def test_arena_plays_an_engine_program(tmp_path, capsys):
    plot = tmp_path / "run.svg"
    code = main(["arena", f"cmd:{ENGINE} --level easy", "random", "--games", "2", "--json",
                 "--plot", str(plot)])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["forfeits"] == [] and out["games"] == 2
    assert out["wins_a"] + out["wins_b"] == 2 and out["wins_a"] >= 1  # easy beats random
    assert all(reason.split(": ")[1] in ("hq", "medals", "stuck") for reason in out["endings"])
    assert plot.read_text().startswith("<svg")


def _fake_engine(tmp_path, body: str) -> str:
    script = tmp_path / "fake.py"
    script.write_text("import sys\n"
                      "for line in sys.stdin:\n"
                      "    w = line.split()\n"
                      "    if w and w[0] == 'toybattle': print('toybattleok', flush=True)\n"
                      "    if w and w[0] == 'isready': print('readyok', flush=True)\n"
                      f"    if w and w[0] == 'go': {body}\n")
    return f"cmd:{sys.executable} {script}"


@pytest.mark.parametrize("body, reason, detail", [
    ("print('action skip', flush=True)", ILLEGAL, "illegal action skip"),
    ("print('action 7@99', flush=True)", FAILED, "no node '99'"),
    ("print('error I give up', flush=True)", FAILED, "I give up"),
    ("sys.exit(0)", FAILED, "stopped"),
])
def test_a_misbehaving_engine_loses_the_game_and_the_match_goes_on(tmp_path, body, reason, detail):
    report = run_match(MatchSpec(_fake_engine(tmp_path, body), "random", 2, ("castle",)))
    assert len(report.deals) == 2
    for d in report.deals:
        for g in d.games:
            assert not g.a_won and g.reason == reason and detail in g.detail


class Sleepy(Bot):
    budget_s = 0.05

    def choose(self, obs, budget_s=None):
        import time
        time.sleep(1.3)
        return obs.legal_actions()[0]


@pytest.mark.slow
def test_a_bot_over_its_time_loses():
    r = referee(_position(), [Sleepy(), Sleepy()], random.Random(1))
    assert r.reason == TIMEOUT and "limit" in r.detail


@pytest.mark.slow
def test_a_silent_engine_runs_out_of_time(tmp_path):
    bot = EngineBot(_fake_engine(tmp_path, "pass")[4:], budget_s=0.05)
    try:
        r = referee(_position(), [bot, bot], random.Random(1))
    finally:
        bot.close()
    assert r.reason == TIMEOUT and "in time" in r.detail
    assert bot.proc is None  # stopped, so a late answer cannot reach the next game


@pytest.mark.parametrize("argv, message", [
    (["arena", "grandmaster", "random"], "unknown bot level 'grandmaster'"),
    (["arena", "greedy", "random", "--sprt", "fifty"], "--sprt wants ELO0,ELO1"),
    (["arena", "greedy", "random", "--terrain", "moon"], "unknown terrain 'moon'"),
    (["arena", "greedy", "random", "--games", "1"], "at least 2"),
    (["arena", "cmd:", "random"], "cmd: needs a command"),
    (["engine", "--level", "grandmaster"], "unknown bot level"),
    (["hint", "/nonexistent/pos.txt"], "cannot read"),
])
def test_bad_options_are_one_clear_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_an_engine_that_cannot_start_loses_cleanly():
    report = run_match(MatchSpec("cmd:/nonexistent/engine", "random", 1, ("castle",)))
    game = report.deals[0].games[0]
    assert game.reason == FAILED and "cannot start" in game.detail


def test_hint_command(tmp_path, capsys):
    f = tmp_path / "pos.txt"
    f.write_text(position_text(_position(5)))
    assert main(["hint", str(f), "--level", "greedy", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"action"' in out and '"reason"' in out
    f.write_text("toybattle position 1\nterrain castle\nwhatever 3\n")
    assert main(["hint", str(f)]) == 2
