"""The expert: a search over whole turns that weighs each plan against the opponent's reply.

The sparring bot's beam (beam.TurnBeam) lists the ways to play out the bot's own turn from its observation
and keeps, for each first decision, the end of the turn it likes best. The ``candidates`` best of those
first decisions are then tried on ``samples`` guesses of the tiles the bot cannot see (the opponent's rack,
both reserves: ``determinize``), the same guesses for every candidate so that they differ by their plan,
not their luck. On each guess the bot plays its plan (chance by a draw of the guess), lets the opponent
answer with the beam's best reply for the opponent, then plays its own best next turn, and reads the
fitted evaluation there, at the end of one of its own turns, where it was fitted. The candidate with the
highest mean win chance is played. A win in this turn is played at once.

Its work is fixed (candidates x samples x three beams), so its strength does not depend on the machine's
load; ``budget_s`` is a safety net that stops it between guesses (``last_info["capped"]``).
"""
from __future__ import annotations

import math
import random
import time

from ..rules import State, determinizer
from . import evaluate as E
from . import heuristic as H
from .beam import TurnBeam
from .players import Bot, squash


class ReplyBot(Bot):
    """Whole-turn plans judged after the opponent's reply and the bot's next turn, over guessed hidden tiles.

    ``width``: positions the beam keeps after each of the bot's decisions in the turn it plans;
    ``reply_width``: the same for the reply and the next turn on a guess; ``candidates``: first decisions
    compared; ``samples``: guesses of the hidden tiles each candidate is played on."""

    level = "reply"

    def __init__(self, seed: int | None = None, width: int = 6, reply_width: int = 4, candidates: int = 8,
                 samples: int = 5, budget_s: float = 1.8, weights: E.Weights | None = None):
        super().__init__(seed)
        self.width = width
        self.reply_width = reply_width
        self.candidates = candidates
        self.samples = samples
        self.budget_s = budget_s
        self.weights = E.weights() if weights is None else weights

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        a, _ = self._search(obs, self.budget_s if budget_s is None else min(budget_s, self.budget_s))
        return a

    def hint(self, obs: State) -> tuple[int, str]:
        a, chance = self._search(obs, self.budget_s)
        why = H.explain(obs, a)
        if not math.isnan(chance):
            why += (f" (after the opponent's best replies on {self.samples} guesses of its tiles: "
                    f"about {round(chance * 100)}% to win)")
        return a, why

    def _search(self, obs: State, budget_s: float) -> tuple[int, float]:
        """(the action to play, its mean win chance; nan when there was nothing to weigh)."""
        t0 = time.perf_counter()
        legal = obs.legal_actions()
        self.last_info = {"positions": 0.0, "seconds": 0.0, "capped": 0.0}
        if len(legal) == 1:
            return legal[0], math.nan
        plans, positions = self._plans(obs)
        if len(plans) == 1:  # one way to go on, or a win now: nothing to weigh
            return plans[0][1][0], math.nan
        seeds = [self.rng.getrandbits(64) for _ in range(self.samples)]
        sample = determinizer(obs)
        deadline = t0 + budget_s
        best, capped = (-1.0, plans[0][1][0]), False
        for _, path in plans:
            total, tried = 0.0, 0
            for k in seeds:
                if tried and time.perf_counter() > deadline:
                    capped = True
                    break
                rng = random.Random(k)
                chance, n = self._play_out(sample(rng), path, obs.actor, rng)
                total, tried, positions = total + chance, tried + 1, positions + n
            if total / tried > best[0]:
                best = (total / tried, path[0])
            if capped:
                break
        self.last_info = {"positions": float(positions), "seconds": time.perf_counter() - t0,
                          "capped": float(capped), "win_rate": best[0]}
        return best[1], best[0]

    def _plans(self, obs: State) -> tuple[list[tuple[float, tuple[int, ...]]], int]:
        """The ``candidates`` best first decisions, each with the best way the beam found to finish the turn
        after it, best first (a winning plan alone); and the positions the beam scored."""
        beam = TurnBeam(obs.actor, self.weights.per_terrain[obs.b.terrain.id], self.width, self.rng)
        best: dict[int, tuple[float, float, tuple[int, ...]]] = {}
        for v, tie, path, _ in beam.ends(obs):
            if v == math.inf:
                return [(v, path)], beam.n
            if path[0] not in best or (v, tie) > best[path[0]][:2]:
                best[path[0]] = (v, tie, path)
        ranked = sorted(best.values(), reverse=True)[:self.candidates]
        return [(v, path) for v, _, path in ranked], beam.n

    def _play_out(self, s: State, path: tuple[int, ...], me: int, rng: random.Random) -> tuple[float, int]:
        """``me``'s win chance after playing ``path`` on the guess ``s``, the opponent's reply and ``me``'s
        next turn; and the positions scored. If the guess's chance takes the turn elsewhere than the plan
        foresaw, the beam finishes the turn from there."""
        w = self.weights.per_terrain[s.b.terrain.id]
        for a in path:
            _chance(s, rng)
            if s.over or s.turn != me or a not in s.legal_actions():
                break
            s.apply_unchecked(a)
        n = 0
        for seat, width in ((me, self.width), (1 - me, self.reply_width), (me, self.reply_width)):
            _chance(s, rng)
            if not s.over and s.actor == seat:
                beam = TurnBeam(seat, w, width, rng)
                s = beam.best(s)
                n += beam.n
        return squash(E.score(s, me, w)), n


def _chance(s: State, rng: random.Random) -> None:
    """Play chance nodes at random (on a guess, draws and picks are as random as in the game)."""
    while s.is_chance:
        s.apply_unchecked(s.sample_chance(rng))


__all__ = ["ReplyBot"]
