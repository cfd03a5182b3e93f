"""A board crosses a process boundary (a state pickled to a bot worker, docs/architecture.md: app/pool.py)
as the name of a shipped terrain's board, so the receiving process keeps one board per terrain and mode
however many observations it is sent: caches keyed by the board (the bots' board facts) stay small."""
from __future__ import annotations

import json
import pickle
from importlib import resources

import pytest

from toybattle.rules import State, observation
from toybattle.rules.terrain import TERRAIN_IDS, Board, board, load_terrain, parse_terrain


@pytest.mark.parametrize("first_game", [False, True])
@pytest.mark.parametrize("terrain", TERRAIN_IDS)
def test_a_shipped_board_unpickles_as_the_one_board_of_its_terrain_and_mode(terrain, first_game):
    s = State.new(terrain, first_game, seed=4)
    boards = {id(pickle.loads(pickle.dumps(observation(s, seat))).b) for seat in (0, 1) for _ in range(50)}
    assert boards == {id(board(terrain, first_game))} and s.b is board(terrain, first_game)
    back = pickle.loads(pickle.dumps(s))
    assert back == s  # the same board, so the states compare equal
    built = Board(load_terrain(terrain), first_game)  # made apart, from the same terrain
    assert pickle.loads(pickle.dumps(built)) is board(terrain, first_game)


def castle_data(**changes: object) -> dict[str, object]:
    """Castle Field's terrain file as data, with some fields changed (a terrain of one's own)."""
    raw = json.loads(resources.files("toybattle.rules").joinpath("data/terrains/castle.json").read_text("utf-8"))
    return {**raw, **changes}


def test_another_terrain_goes_by_value():
    other = parse_terrain(castle_data(objective={"blue": 6, "red": 6}))
    b = Board(other, False)
    back = pickle.loads(pickle.dumps(b))
    assert back is not b and back.terrain == other and back.objective == (6, 6) and back.adj == b.adj
    assert load_terrain("castle") != other
    assert pickle.loads(pickle.dumps(Board(parse_terrain(castle_data(id="mine")), True))).first_game
