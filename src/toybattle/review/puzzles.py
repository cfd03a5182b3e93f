"""Puzzles: positions where one action is clearly best, checked by the engine from the solver's observation only.

A puzzle is the solver's observation (the position format of rules/notation.py, whose ``?`` tiles are the ones
the solver may not see), the answer (a placement, in notation), why it is best and a hint (messages: ``Said``,
why.py) and a difficulty. It is sound when, over ``CHECK_SAMPLES`` guesses of the hidden tiles drawn from that
observation with a fixed seed (``determinize``), the answer beats every other legal action by a clear margin:

- its mean win chance is at least ``MARGIN`` (0.15) above each other action's, and
- it does at least as well as that action on at least ``DOMINANCE`` (75%) of the guesses.

So a puzzle never depends on a lucky guess of the opponent's rack, and two actions that both win make no puzzle.
``find_puzzles(review)`` draws them from a reviewed game (the decisions whose best action stood out in the review,
re-weighed against every legal action on other guesses); ``check_puzzle`` re-verifies one; the built-in set
(data/puzzles.json, made by scripts/make_puzzles.py from bot games) is ``builtin_puzzles()``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..bots import analysis
from ..bots import heuristic as H
from ..bots.analysis import Effort
from ..rules import (
    SEATS,
    NotationError,
    State,
    action_text,
    observation,
    parse_action,
    parse_position,
    position_text,
)
from ..rules import actions as A
from ..rules.state import EXTRA, JUMBO_TARGET, TURN
from ..said import Said
from .game import PUZZLE_GAP, Review
from .why import reasons, stored

# the decisions a puzzle may ask about, each answered by one tap on the board: a placement (the turn's, or a
# Cap'n's extra one) or Jumbo's target
DECISIONS = (TURN, EXTRA, JUMBO_TARGET)
MARGIN = 0.15  # the answer's mean win chance above every other action's
DOMINANCE = 0.75  # the share of guesses on which the answer does at least as well as each other action
CHECK_SAMPLES = 24  # guesses of the hidden tiles a check weighs every legal action on
CHECK_SEED = 20_261_206  # fixed: a check gives the same verdict every time; not the review's guesses
CHECK_EFFORT = Effort(samples=CHECK_SAMPLES, candidates=0)  # every legal action is named; none added
HQ_REASONS = {"review.why.winsHQ", "review.why.blocksHQ", "review.why.threatensHQ", "review.why.closerHQ",
              "review.why.cutsOffHQ", "review.why.pushesBack", "review.why.avoidsLoss"}
PATH_REASONS = {"review.why.cutsOffBase", "review.why.cutsOff", "review.why.connectsBase"}
MEDAL_REASONS = {"review.why.winsMedals", "review.why.objective", "review.why.takesRegion", "review.why.givesRegion",
                 "review.why.keepsRegion", "review.why.nearRegion"}


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module). ``position``: the solver's observation; ``seat``: the solver's seat;
    ``gap``: the answer's lead over the next best action when it was made; ``difficulty``: 1 (the first
    impression finds it) to 3 (it takes looking ahead); ``source``: where it comes from."""

    id: str
    terrain: str
    seat: int
    position: str
    answer: str
    why: tuple[Said, ...]
    hint: tuple[Said, ...]
    gap: float
    difficulty: int
    source: str = ""

    def state(self) -> State:
        """The solver's observation (NotationError if the position does not read)."""
        return parse_position(self.position)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "terrain": self.terrain, "seat": SEATS[self.seat], "position": self.position,
                "answer": self.answer, "why": [m.to_json() for m in self.why],
                "hint": [m.to_json() for m in self.hint], "gap": round(self.gap, 4), "difficulty": self.difficulty,
                "source": self.source}

    @classmethod
    def from_json(cls, raw: Any) -> Puzzle:
        """A puzzle from its JSON data; ValueError naming what is wrong."""
        try:
            return cls(str(raw["id"]), str(raw["terrain"]), SEATS.index(raw["seat"]), str(raw["position"]),
                       str(raw["answer"]), tuple(stored(m) for m in raw["why"]),
                       tuple(stored(m) for m in raw["hint"]), float(raw["gap"]), int(raw["difficulty"]),
                       str(raw.get("source", "")))
        except (KeyError, TypeError) as e:
            raise ValueError(f"not a puzzle: {e}") from None


@dataclass(frozen=True)
class Verdict:
    """What the engine finds in a position: the best action, its lead over the next best (mean), the least share
    of guesses on which it does as well as another action, and that runner-up."""

    best: int
    runner_up: int
    gap: float
    dominance: float

    @property
    def clear(self) -> bool:
        return self.gap >= MARGIN and self.dominance >= DOMINANCE


def verdict(obs: State, samples: int = CHECK_SAMPLES, seed: int = CHECK_SEED) -> Verdict | None:
    """Every legal action of the seat deciding in ``obs`` (its observation) weighed on the same ``samples``
    guesses; None with a single legal action."""
    legal = obs.legal_actions()
    if len(legal) < 2:
        return None
    chances = analysis.action_chances(obs, include=legal, effort=Effort(samples=samples, candidates=0), seed=seed)
    best = chances.best()
    mine = chances.per_sample[best]
    gap, dominance, runner_up = 1.0, 1.0, legal[0] if legal[0] != best else legal[1]
    for a in legal:
        if a == best:
            continue
        other = chances.per_sample[a]
        g = chances.mean(best) - chances.mean(a)
        if g < gap:
            gap, runner_up = g, a
        dominance = min(dominance, sum(x >= y - 1e-9 for x, y in zip(mine, other, strict=True)) / len(mine))
    return Verdict(best, runner_up, gap, dominance)


def check_puzzle(p: Puzzle, samples: int = CHECK_SAMPLES, seed: int = CHECK_SEED) -> str | None:
    """None if ``p`` holds: its position reads, shows the solver no tile it may not know, its answer is legal and
    beats every other legal action by the margin (see the module) on ``samples`` guesses from ``seed``; else what
    is wrong, in one line."""
    try:
        obs = p.state()
    except NotationError as e:
        return f"puzzle {p.id}: the position does not read: {e}"
    if obs.actor != p.seat or obs.decision not in DECISIONS:
        return f"puzzle {p.id}: the position is not a decision of {SEATS[p.seat]}'s that a puzzle asks about"
    if obs.b.terrain.id != p.terrain:
        return f"puzzle {p.id}: the position is on {obs.b.terrain.id}, not {p.terrain}"
    if observation(obs, p.seat) != obs:
        return f"puzzle {p.id}: the position shows tiles {SEATS[p.seat]} may not know"
    try:
        answer = parse_action(p.answer, obs.b)
    except ValueError as e:
        return f"puzzle {p.id}: {e}"
    if answer not in obs.legal_actions():
        return f"puzzle {p.id}: the answer {p.answer} is not legal there"
    v = verdict(obs, samples, seed)
    if v is None:
        return f"puzzle {p.id}: only one legal action"
    if v.best != answer:
        return (f"puzzle {p.id}: the engine prefers {action_text(v.best, obs.b)} to the answer {p.answer} "
                f"(by {v.gap:.2f})")
    if not v.clear:
        return (f"puzzle {p.id}: the answer {p.answer} leads {action_text(v.runner_up, obs.b)} by {v.gap:.2f} "
                f"and does as well on {v.dominance:.0%} of the guesses (needs {MARGIN} and {DOMINANCE:.0%})")
    return None


def puzzle_from_position(obs: State, id: str, source: str = "", samples: int = CHECK_SAMPLES,
                         seed: int = CHECK_SEED) -> Puzzle | None:
    """The puzzle ``obs`` makes (the deciding seat's observation at a placement or Jumbo's target), or None if no
    such tap there is clearly best (see the module). Only ``obs`` is read: the puzzle can hold nothing else."""
    seat = obs.actor
    if seat < 0 or obs.decision not in DECISIONS:
        return None
    obs = observation(obs, seat)  # whatever it was given, the puzzle keeps only what the solver may know
    v = verdict(obs, samples, seed)
    if v is None or not v.clear or not _tap(v.best):
        return None
    why = tuple(reasons(obs, v.best, v.runner_up))
    return Puzzle(id, obs.b.terrain.id, seat, _position(obs), action_text(v.best, obs.b), why, _hint(obs, v.best, why),
                  v.gap, _difficulty(obs, v.best), source)


def candidates(review: Review, seats: tuple[int, ...] | None = None) -> list[tuple[int, int, str]]:
    """The decisions of a reviewed game that may make puzzles, the clearest first: (turn, action index, the deciding
    seat's observation) for each decision of ``seats`` (default: the review's viewer, or both seats) whose best action
    stood out in the review (by PUZZLE_GAP) and is one tap on the board. Only stored observations are read."""
    seats = seats if seats is not None else (0, 1) if review.viewer is None else (review.viewer,)
    out = []
    for d in sorted(review.decisions, key=lambda d: -(d.before - (d.second or d.before))):
        if d.seat not in seats or d.position is None or d.second is None or d.before - d.second < PUZZLE_GAP:
            continue
        obs = parse_position(d.position)
        if obs.decision in DECISIONS and _tap(parse_action(d.best, obs.b)):
            out.append((d.turn, d.index, d.position))
    return out


def find_puzzles(review: Review, seat: int | None = None, samples: int = CHECK_SAMPLES,
                 seed: int = CHECK_SEED, most: int = 0) -> list[Puzzle]:
    """Puzzles drawn from a reviewed game: each of its ``candidates`` (of ``seat``, default the review's viewer or
    both seats) re-weighed against every legal action on other guesses than the review's and kept if it is clearly
    best; one per turn, at most ``most`` (0: no limit), in the game's order."""
    found: dict[int, Puzzle] = {}  # turn -> its clearest puzzle
    for turn, index, position in candidates(review, None if seat is None else (seat,)):
        if turn in found or (most and len(found) >= most):
            continue
        p = puzzle_from_position(parse_position(position), f"{review.terrain}-{index}", f"action {index}", samples,
                                 seed)
        if p is not None:
            found[turn] = p
    return [found[t] for t in sorted(found)]


def puzzle_at(position: str, id: str, source: str) -> dict[str, Any] | None:
    """``puzzle_from_position`` on a stored observation, as JSON: what a worker process hands back."""
    p = puzzle_from_position(parse_position(position), id, source)
    return None if p is None else p.to_json()


def _tap(action: int) -> bool:
    """Whether ``action`` is answered by one tap on the board: a placement or Jumbo's target."""
    return A.PLACE <= action < A.PLACE_END or A.JUMBO <= action < A.JUMBO_END


def _position(obs: State) -> str:
    """The observation in the position format, without the count of plies played (a puzzle stands alone)."""
    obs = obs.copy()
    obs.ply = 0
    return position_text(obs)


def _difficulty(obs: State, answer: int) -> int:
    """1 when the first impression finds it (the greedy evaluation's top choice, or a win at once), 2 when it is
    among its three best, 3 when it takes looking ahead."""
    ranked = [a for _, a in sorted(H.greedy_scores(obs), key=lambda va: -va[0])]
    k = ranked.index(answer)
    return 1 if k == 0 else 2 if k < 3 else 3


def _hint(obs: State, answer: int, why: tuple[Said, ...]) -> tuple[Said, ...]:
    """What to look at (the H.Q., the medals, the paths), then which troop the answer places."""
    first = why[0].key if why else ""
    look = ("review.hint.hq" if first in HQ_REASONS else "review.hint.medals" if first in MEDAL_REASONS
            else "review.hint.paths" if first in PATH_REASONS
            else "review.hint.look")
    if A.JUMBO <= answer < A.JUMBO_END:
        return Said(look), Said("review.hint.jumbo")
    return Said(look), Said("review.hint.troop", troop=(answer - A.PLACE) >> 5)


@cache
def builtin_puzzles() -> tuple[Puzzle, ...]:
    """The built-in puzzles (data/puzzles.json), read once; ValueError if the file is broken."""
    raw = json.loads(resources.files("toybattle.review").joinpath("data", "puzzles.json").read_text("utf-8"))
    if not isinstance(raw, dict) or raw.get("version") != 1 or not isinstance(raw.get("puzzles"), list):
        raise ValueError("puzzles.json: expected {\"version\": 1, \"puzzles\": [...]}")
    puzzles = tuple(Puzzle.from_json(p) for p in raw["puzzles"])
    if len({p.id for p in puzzles}) != len(puzzles):
        raise ValueError("puzzles.json: puzzle ids must be unique")
    return puzzles


def puzzles_json(puzzles: list[Puzzle] | tuple[Puzzle, ...]) -> str:
    """The built-in file's text for ``puzzles``."""
    return json.dumps({"version": 1, "margin": MARGIN, "dominance": DOMINANCE, "samples": CHECK_SAMPLES,
                       "puzzles": [p.to_json() for p in puzzles]}, indent=1, ensure_ascii=False) + "\n"


__all__ = ["CHECK_SAMPLES", "CHECK_SEED", "DOMINANCE", "MARGIN", "Puzzle", "Verdict", "builtin_puzzles", "candidates",
           "check_puzzle", "find_puzzles", "puzzle_at", "puzzle_from_position", "puzzles_json", "verdict"]
