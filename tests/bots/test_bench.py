"""`toybattle bench` names the build it measured and what it played (numbers are benchmarks, not tested)."""
from __future__ import annotations

import json

from toybattle.cli import main


def test_bench_names_its_build_and_plays_castle_field_standard_by_default(capsys):
    assert main(["bench", "--seconds", "0.05", "--rounds", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["build"] == "pure Python" and out["games"] == "castle standard"
    assert "Castle Field, standard mode" in out["method"] and out["random_games_per_s"] > 0


def test_bench_mix_flag_cycles_terrains_and_modes(capsys):
    assert main(["bench", "--seconds", "0.05", "--rounds", "1", "--mix"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("build: pure Python") and "all 9 terrains and both modes" in text
