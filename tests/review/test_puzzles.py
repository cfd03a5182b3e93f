"""Puzzles (issue 28): every built-in puzzle passes the check; a puzzle made from a game has one answer the engine
confirms on other guesses; the solver never sees a hidden tile, in the puzzle's data or in what the engine is
given; `toybattle puzzles --check` fails with one line per broken puzzle."""
from __future__ import annotations

import dataclasses
import json
from random import Random

import pytest

from toybattle import cli
from toybattle.bots import analysis
from toybattle.review import analyse, builtin_puzzles, check_puzzle, find_puzzles
from toybattle.review import cli as review_cli
from toybattle.review.puzzles import DECISIONS, Puzzle, puzzle_from_position, verdict
from toybattle.rules import SEATS, action_text, determinize, observation, parse_action, parse_position, position_text
from toybattle.said import Said, say


@pytest.fixture(scope="module")
def from_game(blunder):
    review = analyse(blunder.record, effort=blunder.effort)
    return review, find_puzzles(review)


def test_the_built_in_set_is_sound_data():
    puzzles = builtin_puzzles()
    assert 20 <= len(puzzles) <= 40
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert len({p.terrain for p in puzzles}) >= 4  # drawn from games on several terrains
    for p in puzzles:
        obs = p.state()
        assert obs.actor == p.seat and obs.decision in DECISIONS and obs.b.terrain.id == p.terrain
        assert observation(obs, p.seat) == obs, p.id  # nothing the solver may not know
        assert parse_action(p.answer, obs.b) in obs.legal_actions()
        assert 1 <= p.difficulty <= 3 and p.why and p.hint
        for m in p.why + p.hint:
            for lang in ("en", "fr"):
                assert isinstance(m, Said) and "{" not in say(m, lang)
        assert Puzzle.from_json(json.loads(json.dumps(p.to_json()))) == p


def test_the_first_built_in_puzzles_pass_the_check():
    problems = [why for p in builtin_puzzles()[:4] if (why := check_puzzle(p))]
    assert problems == []


@pytest.mark.slow
def test_every_built_in_puzzle_passes_the_check():
    """`toybattle puzzles --check` (about 10 s: every legal action of each puzzle on 24 guesses)."""
    assert cli.main(["puzzles", "--check"]) == 0


def test_a_puzzle_from_a_game_has_one_answer_the_engine_confirms(blunder, from_game):
    _, puzzles = from_game
    at = [p for p in puzzles if p.source == f"action {blunder.index}"]
    assert len(at) == 1
    p = at[0]
    assert p.answer == blunder.winning and p.seat == blunder.seat
    assert check_puzzle(p) is None
    v = verdict(p.state(), samples=32, seed=1234)  # other guesses than the check's
    assert v is not None and v.best == parse_action(p.answer, p.state().b) and v.clear
    assert p.why[0].key == "review.why.winsHQ"
    for p in puzzles:
        assert check_puzzle(p) is None


def test_a_puzzles_position_is_the_solvers_observation(blunder, from_game):
    _, puzzles = from_game
    for p in puzzles:
        index = int(p.source.split()[-1])
        obs = observation(blunder.state_before(index), p.seat)
        obs.ply = 0
        assert p.position == position_text(obs)
        enemy = 1 - p.seat
        shown = parse_position(p.position)
        assert all(not t & 15 for t in shown.rack[enemy] if t not in shown.public[enemy])
        assert all(not t & 15 for t in shown.reserve[0] + shown.reserve[1] + shown.aside[0] + shown.aside[1])


def test_the_engine_checking_a_puzzle_is_given_observations_only(blunder, monkeypatch):
    given: list = []
    real = analysis.action_chances

    def spy(obs, *args, **kwargs):
        given.append(obs.copy())
        return real(obs, *args, **kwargs)

    monkeypatch.setattr(analysis, "action_chances", spy)
    full = blunder.state_before(blunder.index)
    p = puzzle_from_position(full, "leak-test")  # even given the full state, it keeps the observation only
    assert p is not None and check_puzzle(p) is None
    seen = observation(full, blunder.seat)
    unnumbered = seen.copy()
    unnumbered.ply = 0  # a puzzle's position stands alone: it does not count the plies before it
    assert given and all(obs in (seen, unnumbered) for obs in given)
    assert observation(p.state(), p.seat) == p.state()


def test_the_check_refuses_a_wrong_answer_and_a_leaked_tile():
    p = builtin_puzzles()[0]
    obs = p.state()
    other = next(a for a in obs.legal_actions() if a != parse_action(p.answer, obs.b))
    wrong = dataclasses.replace(p, answer=action_text(other, obs.b))
    assert "prefers" in (check_puzzle(wrong) or "")
    enemy = SEATS[1 - p.seat]
    lines = p.position.splitlines()
    rack = next(k for k, line in enumerate(lines) if line.startswith(f"{enemy} rack"))
    n = int(lines[rack].split("?x")[1]) if "?x" in lines[rack] else 0
    if n:
        guess = determinize(obs, Random(1))  # faces for the hidden tiles: a guess stands for the truth
        leaked = position_text(guess)
        assert "may not know" in (check_puzzle(dataclasses.replace(p, position=leaked)) or "")


def test_puzzles_check_command(capsys, monkeypatch):
    assert cli.main(["puzzles", "--list"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(builtin_puzzles())
    good = builtin_puzzles()[0]
    obs = good.state()
    other = next(a for a in obs.legal_actions() if a != parse_action(good.answer, obs.b))
    bad = dataclasses.replace(good, id="broken", answer=action_text(other, obs.b))
    monkeypatch.setattr(review_cli, "builtin_puzzles", lambda: (good, bad))
    assert cli.main(["puzzles", "--check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("puzzle broken:")
