"""Helpers for the lessons tests: positions written in the engine's position format."""
from __future__ import annotations

import pytest

from toybattle.rules import State, parse_position


def position(*, terrain: str = "castle", mode: str = "first-game", turn: str = "blue",
             stacks: dict[int, str] | None = None, blue: str = "", red: str = "", discard: str = "",
             claimed: str = "-", blue_reserve: str = "", red_reserve: str = "", blue_laid: str = "") -> State:
    """A position from the parts a test cares about; each reserve is topped up with unknown tiles
    (?xN) so that both armies hold 24 tiles with 4 set aside. ``blue_reserve='-'`` empties it
    (the missing tiles are then left out and the parser must refuse, unless the caller balanced them)."""
    stacks = stacks or {}
    lines = ["toybattle position 1", f"terrain {terrain}", f"mode {mode}", "first blue", f"turn {turn}"]
    for who, rack, reserve, laid in (("blue", blue, blue_reserve, blue_laid), ("red", red, red_reserve, "")):
        mark = who[0]
        used = sum(w.startswith(mark) for st in stacks.values() for w in st.split())
        used += sum(w.startswith(mark) for w in discard.split())
        used += len(rack.split()) + len(laid.split())
        known = [] if reserve == "-" else reserve.split()
        unknown = 20 - used - len(known)
        lines.append(f"{who} rack {rack or '-'}")
        if laid:
            lines.append(f"{who} laid {laid}")
        filler = [f"?x{unknown}"] if unknown > 0 and reserve != "-" else []
        lines.append(f"{who} reserve {' '.join(known + filler) or '-'}")
        lines.append(f"{who} aside ?x4")
    lines += [f"stack {n} {st}" for n, st in stacks.items()]
    lines += [f"discard {discard or '-'}", f"claimed {claimed}"]
    return parse_position("\n".join(lines))


@pytest.fixture
def pos():
    return position
