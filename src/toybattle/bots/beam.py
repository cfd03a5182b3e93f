"""The sparring bot: a beam search over the rest of its own turn, judged by an evaluation fitted to game
outcomes (evaluate.py). A design unlike the search levels' Monte-Carlo tree search, so that their progress
is not measured only against themselves.

From the observation it is given, the bot lists every sequence of its own decisions up to the end of its
turn: the placement or the draw, a Cap'n's extra tile, Skully's and Star's draws, Jumbo's target, XB-42,
each special base's effect. After each decision it keeps the ``width`` positions that evaluate best and
goes on from those; every position where the turn has passed to the other side (or the game ended) is
scored, and the bot plays the first decision of the best. It works on the observation itself: a draw puts
tiles of unknown face on its rack, and a random pick from the opponent's rack (XB-42, Battlefield) takes
its most likely outcome, a tile the bot cannot see.
"""
from __future__ import annotations

import math
import time

from ..rules import State
from . import evaluate as E
from .players import Bot


class BeamBot(Bot):
    """Beam search over whole turns; ``width`` positions kept after each decision, ``budget_s`` a safety net."""

    level = "sparring"

    def __init__(self, seed: int | None = None, width: int = 4, budget_s: float = 0.5,
                 weights: E.Weights | None = None):
        super().__init__(seed)
        self.width = width
        self.budget_s = budget_s
        self.weights = E.weights() if weights is None else weights  # others: the refit script's rounds

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        t0 = time.perf_counter()
        budget = self.budget_s if budget_s is None else min(budget_s, self.budget_s)
        legal = obs.legal_actions()
        self.last_info = {"positions": 0.0, "seconds": 0.0, "capped": 0.0}
        if len(legal) == 1:
            return legal[0]
        a, n, capped = self._search(obs, legal, t0 + budget)
        self.last_info = {"positions": float(n), "seconds": time.perf_counter() - t0, "capped": float(capped)}
        return a

    def _search(self, obs: State, legal: list[int], deadline: float) -> tuple[int, int, bool]:
        """(best first decision, positions scored, whether the time cap cut the search short)."""
        seat = obs.actor
        w = self.weights.per_terrain[obs.b.terrain.id]
        rng = self.rng
        best = (-math.inf, 0.0, legal[0])
        frontier: list[tuple[State, int]] = [(obs, -1)]
        n = 0
        while frontier:
            going: list[tuple[float, float, State, int]] = []
            for s, first in frontier:
                for a in s.legal_actions():
                    t = s.copy()
                    t.apply_unchecked(a)
                    E.settle(t)
                    f = a if first < 0 else first
                    v = E.score(t, seat, w)
                    n += 1
                    key = (v, rng.random(), f)
                    if t.over or t.turn != seat:
                        if key > best:
                            best = key
                            if v == math.inf:
                                return f, n, False
                    else:
                        going.append((v, key[1], t, f))
            if time.perf_counter() > deadline:
                return best[2], n, bool(going)
            going.sort(key=lambda g: (g[0], g[1]), reverse=True)
            frontier = [(t, f) for _, _, t, f in going[:self.width]]
        return best[2], n, False


__all__ = ["BeamBot"]
