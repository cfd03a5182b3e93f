"""perft pins the move generator (issue 27), as a chess engine's perft table does: the leaves of the tree
of every legal action, chance outcomes included, from the deal of seed 7 on every terrain in both modes.
A change that adds or drops one legal action anywhere in these trees changes a count. Taken on
2026-12-06 from the engine that matches two independent engines on every known ruling (docs/rulings.md);
a deliberate rules change updates this table in the same commit, saying why."""
from __future__ import annotations

import subprocess
import sys

import pytest

from toybattle.rules import TERRAIN_IDS, State, perft

# (terrain, first game) -> leaves at depths 1, 2, 3, 4
TABLE = {
    ("castle", False): (16, 110, 1304, 9140), ("castle", True): (16, 110, 1304, 10820),
    ("pool", False): (11, 75, 620, 5022), ("pool", True): (14, 96, 956, 9452),
    ("clouds", False): (15, 83, 889, 7133), ("clouds", True): (15, 103, 1123, 11203),
    ("jungle", False): (14, 96, 968, 8792), ("jungle", True): (14, 96, 968, 8792),
    ("cemetery", False): (16, 110, 1248, 12608), ("cemetery", True): (16, 110, 1248, 12608),
    ("caribbean", False): (13, 127, 1195, 13979), ("caribbean", True): (13, 127, 1195, 13979),
    ("station", False): (11, 75, 611, 5819), ("station", True): (14, 96, 980, 9692),
    ("battlefield", False): (15, 83, 873, 5881), ("battlefield", True): (15, 103, 1149, 9473),
    ("croisette", False): (13, 87, 821, 6994), ("croisette", True): (14, 137, 1396, 16315),
}


def test_the_table_covers_every_terrain_in_both_modes():
    assert set(TABLE) == {(t, m) for t in TERRAIN_IDS for m in (False, True)}


@pytest.mark.parametrize("terrain, first_game", sorted(TABLE))
def test_perft_from_the_deal_of_seed_7(terrain, first_game):
    s = State.new(terrain, first_game, seed=7)
    before = s.copy()
    assert tuple(perft(s, d) for d in (1, 2, 3, 4)) == TABLE[terrain, first_game]
    assert s == before  # counting leaves the position as it was
    assert perft(s, 0) == 1


def test_the_command_prints_the_counts():
    out = subprocess.run([sys.executable, "-m", "toybattle", "perft", "--terrain", "castle", "--seed", "7", "3"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    counts = [int(line.split()[2]) for line in out.stdout.splitlines() if line.startswith("depth")]
    assert counts == [16, 110, 1304]
