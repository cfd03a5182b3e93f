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
load; ``budget_s`` (or a shorter budget given to ``choose``) is a deadline. The search is anytime: it plays
the guesses round by round, every candidate on each guess before the next, and stops between two playouts
at the deadline with its best so far, every candidate compared on the rounds completed
(``last_info``: ``capped``, ``rounds``, ``playouts``, ``candidates``). The static site gives it a short
budget (app/bot_levels.py); unhurried it answers exactly as it always has.
"""
from __future__ import annotations

import math
import random
import time

from toybattle.said import Said, joined

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

    def hint(self, obs: State, budget_s: float | None = None) -> tuple[int, str]:
        """The action this level plays from ``obs`` (the same search as ``choose``: the same action for the same
        generator state) and why, in words: what the action wins, takes, blocks or threatens
        (heuristic.reasons), then how the game looks after the opponent's best reply, said in words from the
        search's mean win chance. Reading the reason takes nothing from the bot's generator."""
        a, chance = self._search(obs, self.budget_s if budget_s is None else min(budget_s, self.budget_s))
        parts = H.reasons(obs, a)
        if len(obs.legal_actions()) == 1:
            parts.insert(0, Said("hint.only"))
        elif not math.isnan(chance) and "wins the game" not in parts[0]:
            parts.append(H.outlook(chance, 1 - obs.actor))
        return a, joined(parts)

    def _search(self, obs: State, budget_s: float) -> tuple[int, float]:
        """(the action to play, its mean win chance; nan when there was nothing to weigh).

        Anytime: the work goes in rounds, one guess of the hidden tiles a round, on which every candidate is
        played in turn, so that a deadline leaves every candidate compared on the same, fewer guesses rather
        than some candidates unexamined. The answer is always the best so far: the beam's top plan before
        the first playout, then the best mean over the rounds completed (over the candidates reached on the
        first guess if even that round is cut). Unhurried, it plays ``samples`` rounds and answers exactly
        as a candidate-by-candidate loop over the same guesses would (each playout has its own seeded
        generator, and each candidate's total adds its guesses in the same order). The planning beam and
        the first playout always run, so a deadline never leaves it with nothing."""
        t0 = time.perf_counter()
        deadline = t0 + budget_s
        legal = obs.legal_actions()
        self.last_info = {"positions": 0.0, "seconds": 0.0, "capped": 0.0, "candidates": 0.0, "rounds": 0.0,
                          "playouts": 0.0}
        if len(legal) == 1:
            return legal[0], math.nan
        plans, positions = self._plans(obs)  # the planning beam always finishes (a few ms): the first answer
        if len(plans) == 1:  # one way to go on, or a win now: nothing to weigh
            self.last_info.update(positions=float(positions), seconds=time.perf_counter() - t0, candidates=1.0)
            return plans[0][1][0], math.nan
        seeds = [self.rng.getrandbits(64) for _ in range(self.samples)]
        sample = determinizer(obs)
        totals = [0.0] * len(plans)
        partial: list[float] = []  # the round under way: its candidates' chances so far
        rounds = playouts = 0
        capped = False
        for k in seeds:
            partial = []
            for _, path in plans:
                if playouts and time.perf_counter() > deadline:
                    capped = True
                    break
                rng = random.Random(k)
                chance, n = self._play_out(sample(rng), path, obs.actor, rng)
                partial.append(chance)
                playouts, positions = playouts + 1, positions + n
            if capped:
                break
            totals = [t + partial[i] for i, t in enumerate(totals)]
            rounds += 1
        # the best mean over the completed rounds; with none, over the candidates the first round reached
        means = [t / rounds for t in totals] if rounds else partial
        best = (-1.0, plans[0][1][0])
        for i, m in enumerate(means):  # (a cut first round: only the candidates it reached)
            if m > best[0]:
                best = (m, plans[i][1][0])
        self.last_info = {"positions": float(positions), "seconds": time.perf_counter() - t0,
                          "capped": float(capped), "win_rate": best[0], "candidates": float(len(plans)),
                          "rounds": float(rounds), "playouts": float(playouts)}
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
