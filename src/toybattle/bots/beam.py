"""The sparring bot: a beam search over the rest of its own turn, judged by an evaluation fitted to game
outcomes (evaluate.py). A design unlike the search levels' Monte-Carlo tree search, so that their progress
is not measured only against themselves.

From the observation it is given, the bot lists every sequence of its own decisions up to the end of its
turn: the placement or the draw, a Cap'n's extra tile, Skully's and Star's draws, Jumbo's target, XB-42,
each special base's effect. After each decision it keeps the ``width`` positions that evaluate best and
goes on from those; every position where the turn has passed to the other side (or the game ended) is
scored, and the bot plays the first decision of the best. It works on the observation itself: a draw puts
tiles of unknown face on its rack, and a random pick from the opponent's rack (XB-42, Battlefield) takes
its most likely outcome, a tile the bot cannot see. The beam itself (``TurnBeam``) also plans the
expert's turns and replies (reply.py).
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator

from ..rules import State
from . import evaluate as E
from .players import Bot


class TurnBeam:
    """The beam over the rest of one seat's turn: after each decision the ``width`` positions that score best
    for ``seat`` (ties broken by ``rng``) go on. ``n`` counts the positions scored; ``capped`` says whether a
    deadline (or a cap on the positions scored) cut the beam short."""

    def __init__(self, seat: int, w: tuple[float, ...], width: int, rng: random.Random):
        self.seat = seat
        self.w = w
        self.width = width
        self.rng = rng
        self.n = 0
        self.capped = False

    def ends(self, s: State, deadline: float = math.inf,
             positions: int = 0) -> Iterator[tuple[float, float, tuple[int, ...], State]]:
        """Every position where the turn has passed (or the game ended) that the beam reaches from ``s``:
        (score, tie-break, the seat's decisions from ``s``, the position), chance played by its most likely
        outcome. The beam stops after the decision during which the clock passed ``deadline``, or during
        which ``positions`` positions (if not 0) were scored in all: the first decision is always looked
        at whole. A cap on positions stops it at the same point on any machine, however loaded."""
        seat, w, rng = self.seat, self.w, self.rng
        frontier: list[tuple[State, tuple[int, ...]]] = [(s, ())]
        while frontier:
            going: list[tuple[float, float, State, tuple[int, ...]]] = []
            for u, path in frontier:
                for a in u.legal_actions():
                    t = u.copy()
                    t.apply_unchecked(a)
                    E.settle(t)
                    v = E.score(t, seat, w)
                    self.n += 1
                    tie = rng.random()
                    if t.over or t.turn != seat:
                        yield v, tie, path + (a,), t
                    else:
                        going.append((v, tie, t, path + (a,)))
            if (positions and self.n >= positions) or time.perf_counter() > deadline:
                self.capped = bool(going)
                return
            going.sort(key=lambda g: (g[0], g[1]), reverse=True)
            frontier = [(t, path) for _, _, t, path in going[:self.width]]

    def best(self, s: State) -> State:
        """The end of the turn the beam likes best (``s`` itself if the seat is not to decide)."""
        top: tuple[float, float, State] | None = None
        for v, tie, _, t in self.ends(s):
            if top is None or (v, tie) > top[:2]:
                top = (v, tie, t)
                if v == math.inf:
                    break
        return s if top is None else top[2]


class BeamBot(Bot):
    """Beam search over whole turns; ``width`` positions kept after each decision, ``budget_s`` a safety net.
    ``positions`` (0: none) caps the positions scored per move: a budget that, unlike the clock, gives the
    same decision for the same observation and seed on any machine (reproducible tests and measurements)."""

    level = "sparring"

    def __init__(self, seed: int | None = None, width: int = 4, budget_s: float = 0.5,
                 weights: E.Weights | None = None, positions: int = 0):
        super().__init__(seed)
        self.width = width
        self.budget_s = budget_s
        self.positions = positions
        self.weights = E.weights() if weights is None else weights  # others: the refit script's rounds

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        t0 = time.perf_counter()
        budget = self.budget_s if budget_s is None else min(budget_s, self.budget_s)
        legal = obs.legal_actions()
        self.last_info = {"positions": 0.0, "seconds": 0.0, "capped": 0.0}
        if len(legal) == 1:
            return legal[0]
        beam = TurnBeam(obs.actor, self.weights.per_terrain[obs.b.terrain.id], self.width, self.rng)
        best = (-math.inf, 0.0, legal[0])
        for v, tie, path, _ in beam.ends(obs, t0 + budget, self.positions):
            if (v, tie, path[0]) > best:
                best = (v, tie, path[0])
                if v == math.inf:
                    break
        self.last_info = {"positions": float(beam.n), "seconds": time.perf_counter() - t0,
                          "capped": float(beam.capped)}
        return best[2]


__all__ = ["BeamBot", "TurnBeam"]
