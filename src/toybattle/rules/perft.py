"""perft: the number of leaves of the tree of every legal action from a position, to a fixed depth.

Counts taken once and kept as a table (tests/rules/test_perft.py) pin the move generator: a change that
adds or drops a single legal action anywhere in the tree changes a count. A chance node (a draw, a random
discard) counts each of its outcomes as a move, so the tree is the whole game's, not one deal's; a
finished game is a leaf at whatever depth it ends.

    >>> from toybattle.rules import State
    >>> perft(State.new("castle", seed=7), 2)
    110
"""
from __future__ import annotations

from .state import State


def perft(state: State, depth: int) -> int:
    """Leaves of the tree of legal actions (chance outcomes included) ``depth`` plies below ``state``."""
    if depth <= 0 or state.over:
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    leaves = 0
    for a in actions:
        child = state.copy()
        child.apply(a)
        leaves += perft(child, depth - 1)
    return leaves
