"""Win chances for any action, from the deciding seat's observation: the expert's look-ahead (reply.py) opened up
for a game review and puzzles, which must weigh the action a player chose as well as the ones the expert likes.

``action_chances(obs)`` lists the deciding seat's best first decisions by the expert's planning beam (the
``candidates`` best, plus any action named in ``include``), and plays each one on the same ``samples`` guesses
of the hidden tiles (``determinize``: the opponent's rack, both reserves, the set-aside tiles; the same guesses
for every action, so that actions differ by themselves and not by their luck). On each guess the beam finishes
the seat's turn, the opponent answers with the beam's best reply, the seat plays its best next turn, and the
expert's fitted evaluation (data/expert.json) is read there and squashed into a chance. The answer holds every
guess's chance, so a caller can ask how often one action beats another, not only by how much on average.

It sees only ``obs``: nothing here ever receives the full state. The work is fixed by the numbers given (no
clock), so the same observation, numbers and seed always give the same chances.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import State, determinizer
from . import evaluate as E
from .beam import TurnBeam
from .players import squash


@dataclass(frozen=True)
class Effort:
    """How much work one estimate gets: the expert's numbers by default (levels.json, "expert"), more guesses.
    ``samples``: guesses of the hidden tiles; ``candidates``: first decisions the planning beam proposes;
    ``width``/``reply_width``: positions its beams keep (the seat's turn; the reply and the next turn)."""

    samples: int = 8
    candidates: int = 6
    width: int = 6
    reply_width: int = 4


@dataclass(frozen=True)
class Chances:
    """Each weighed action's chance to win for the deciding seat, guess by guess (the same guesses in the same
    order for every action); ``planned`` is the beam's ranking of first decisions, best first."""

    seat: int
    per_sample: dict[int, tuple[float, ...]]
    planned: tuple[int, ...]

    def mean(self, action: int) -> float:
        v = self.per_sample[action]
        return sum(v) / len(v)

    def best(self) -> int:
        """The action with the highest mean chance (ties: the one the beam ranked first, then the lowest)."""
        rank = {a: k for k, a in enumerate(self.planned)}
        return max(self.per_sample, key=lambda a: (self.mean(a), -rank.get(a, len(rank)), -a))


def action_chances(obs: State, include: Sequence[int] = (), effort: Effort = Effort(), seed: int = 0,
                   weights: E.Weights | None = None) -> Chances:
    """The win chances of the deciding seat's best first decisions and of ``include``'s (see the module).

    ``obs`` must be the deciding seat's observation (``observation(state, seat)``) at one of its decisions:
    not a chance node, not a finished game. A win at once is worth 1 on every guess without playing on."""
    seat = obs.actor
    if seat < 0:
        raise ValueError("action_chances needs a seat's decision (not a chance node or a finished game)")
    legal = obs.legal_actions()
    for a in include:
        if a not in legal:
            raise ValueError(f"action {a} is not legal in this position")
    w = (E.weights(E.EXPERT_FILE) if weights is None else weights).per_terrain[obs.b.terrain.id]
    rng = random.Random(seed)
    planned = _planned(obs, seat, w, effort.width, rng)
    weighed = list(dict.fromkeys([*planned[:effort.candidates], *include]))
    seeds = [rng.getrandbits(64) for _ in range(effort.samples)]
    sample = determinizer(obs)
    out: dict[int, tuple[float, ...]] = {}
    for a in weighed:
        after = obs.copy()
        after.apply_unchecked(a)
        if after.over:  # decided on the table: no guess can change it
            out[a] = (1.0 if after.winner == seat else 0.0,) * effort.samples
            continue
        chances = []
        for k in seeds:
            guess_rng = random.Random(k)
            chances.append(_play_out(sample(guess_rng), a, seat, w, effort, guess_rng))
        out[a] = tuple(chances)
    return Chances(seat, out, tuple(planned))


def _planned(obs: State, seat: int, w: tuple[float, ...], width: int, rng: random.Random) -> list[int]:
    """Every first decision, ranked by the best end of the turn the beam finds after it (as the expert plans)."""
    best: dict[int, tuple[float, float]] = {}
    for v, tie, path, _ in TurnBeam(seat, w, width, rng).ends(obs):
        if path[0] not in best or (v, tie) > best[path[0]]:
            best[path[0]] = (v, tie)
    return sorted(best, key=lambda a: best[a], reverse=True)


def _play_out(s: State, a: int, me: int, w: tuple[float, ...], effort: Effort, rng: random.Random) -> float:
    """``me``'s chance on the guess ``s`` after ``a``, the rest of the turn, the opponent's reply and ``me``'s next
    turn, each played by the beam (as the expert's playouts, reply.py)."""
    s.apply_unchecked(a)
    for seat, width in ((me, effort.width), (1 - me, effort.reply_width), (me, effort.reply_width)):
        while s.is_chance:  # on a guess, draws and picks are as random as in the game
            s.apply_unchecked(s.sample_chance(rng))
        if not s.over and s.actor == seat:
            s = TurnBeam(seat, w, width, rng).best(s)
    while s.is_chance:
        s.apply_unchecked(s.sample_chance(rng))
    v = E.score(s, me, w)
    return 1.0 if v == math.inf else 0.0 if v == -math.inf else squash(v)


__all__ = ["Chances", "Effort", "action_chances"]
