"""Shared helpers for the rules tests: build a position from the few lines a test cares about.

``build(...)`` writes a position in the position format (docs/notation.md) and reads it with
``parse_position``, so every test position also goes through the parser's checks. Tiles a test does
not mention are dealt out so that each army still holds its 24 tiles: 4 set aside, the rest in the
reserve (or, when the test asks for a short reserve, in the discard).
"""
from __future__ import annotations

from collections import Counter

import pytest

from toybattle.rules import IllegalAction, State, action_text, load_terrain, parse_action, parse_position
from toybattle.rules.troops import COPIES, SEATS, TROOPS, code, parse_troop


def _troops(text: str) -> list[int]:
    return [parse_troop(w) for w in text.split()]


def _board_tiles(text: str) -> list[tuple[int, int]]:
    """'b1 r7' -> [(seat, troop), ...]"""
    return [(SEATS.index("blue" if w[0] == "b" else "red"), parse_troop(w[1:])) for w in text.split()]


def position_lines(terrain: str = "castle", *, mode: str = "standard", turn: str = "blue", first: str = "blue",
                   decision: str = "turn", stacks: dict[int, str] | None = None, discard: str = "",
                   claimed: str | None = None, queue: str = "", ply: int = 0,
                   blue: str = "", red: str = "", blue_laid: str = "", red_laid: str = "",
                   blue_public: str = "", red_public: str = "",
                   blue_reserve: str | int | None = None, red_reserve: str | int | None = None) -> str:
    """The text of a position: racks/laid/reserve as troop codes ('7 7 K'), stacks as {node: 'b1 r7'}.

    A reserve given as a string is exact (top first); as an int, that many leftover tiles stay in the
    reserve and the other leftovers go to the discard; None puts every leftover in the reserve.
    ``claimed`` None marks every fully held region as claimed by its holder.
    """
    stacks = stacks or {}
    racks = {"blue": (blue, blue_laid, blue_public, blue_reserve), "red": (red, red_laid, red_public, red_reserve)}
    discard_words = discard.split()
    lines = ["toybattle position 1", f"terrain {terrain}", f"mode {mode}", f"first {first}", f"turn {turn}",
             f"decision {decision}"]
    if queue:
        lines.append(f"queue {queue}")
    for seat, who in enumerate(SEATS):
        rack, laid, public, reserve = racks[who]
        used = Counter(_troops(rack) + _troops(laid))
        used += Counter(t for st in stacks.values() for s, t in _board_tiles(st) if s == seat)
        used += Counter(t for s, t in _board_tiles(" ".join(discard_words)) if s == seat)
        explicit = _troops(reserve) if isinstance(reserve, str) else []
        used += Counter(explicit)
        left = [t for t in TROOPS for _ in range(COPIES - used[t])]
        if len(left) < 4:
            raise ValueError(f"test position: {who} has no 4 tiles left to set aside")
        aside, rest = left[:4], left[4:]
        if isinstance(reserve, str):
            discard_words += [("b" if seat == 0 else "r") + code(t) for t in rest]
            rest = explicit
        elif isinstance(reserve, int):
            discard_words += [("b" if seat == 0 else "r") + code(t) for t in rest[reserve:]]
            rest = rest[:reserve]
        lines.append(f"{who} rack {rack or '-'}")
        if laid:
            lines.append(f"{who} laid {laid}")
        if public:
            lines.append(f"{who} public {public}")
        lines.append(f"{who} reserve " + (" ".join(code(t) for t in rest) or "-"))
        lines.append(f"{who} aside " + " ".join(code(t) for t in aside))
    for node, st in stacks.items():
        lines.append(f"stack {node} {st}")
    lines.append("discard " + (" ".join(discard_words) or "-"))
    if claimed is None:
        t = load_terrain(terrain)
        tops = {node: _board_tiles(st)[-1][0] for node, st in stacks.items() if st.split()}
        held = []
        for r in t.regions:
            owners = {tops.get(b, -1) for b in r.bases}
            if len(owners) == 1 and -1 not in owners:
                held.append(f"{r.id}:{SEATS[owners.pop()]}")
        claimed = " ".join(held)
    lines.append("claimed " + (claimed or "-"))
    if ply:
        lines.append(f"ply {ply}")
    return "\n".join(lines) + "\n"


def build(terrain: str = "castle", **kw) -> State:
    """A State from ``position_lines`` (see there), read by ``parse_position``."""
    return parse_position(position_lines(terrain, **kw))


def play(s: State, *moves: str) -> State:
    """Apply actions written in notation, each checked by the engine; returns ``s``."""
    for m in moves:
        s.apply(parse_action(m, s.b))
    return s


def legal(s: State) -> set[str]:
    """The legal actions as notation."""
    return {action_text(a, s.b) for a in s.legal_actions()}


def refused(s: State, move: str) -> str:
    """The refusal for ``move``; also proves that applying it raises and changes nothing."""
    a = parse_action(move, s.b)
    why = s.refusal(a)
    before = s.copy()
    with pytest.raises(IllegalAction):
        s.apply(a)
    assert s == before
    return why


class Kit:
    """The helpers, handed to tests as one fixture (test files import nothing from each other)."""
    build = staticmethod(build)
    position_lines = staticmethod(position_lines)
    play = staticmethod(play)
    legal = staticmethod(legal)
    refused = staticmethod(refused)


@pytest.fixture
def kit() -> type[Kit]:
    return Kit
