"""The bots: random, greedy, and information-set Monte Carlo tree search (ISMCTS).

Every bot receives only its seat's observation. The search bot samples the tiles it cannot
see (``determinize``), plays each sample forward through one shared tree whose edges are
actions, and keeps the statistics of an action over every sample in which it was available
(single-observer ISMCTS with availability counts). Chance nodes (XB-42, tank picks) are
sampled inside each determinization.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TypeVar

from toybattle.said import Said, joined

from ..rules import State, determinizer
from ..rules.state import TURN
from . import evaluate as E
from . import heuristic as H

_Class = TypeVar("_Class")


def _no_mark(*attrs: str, **kwattrs: object) -> Callable[[_Class], _Class]:
    """mypyc_attr where mypy_extensions is not installed: plain Python, to which the mark means nothing."""
    return lambda cls: cls


# mypyc_attr is read by mypyc alone, at compile time (the optional compiled build, whose mypy brings
# mypy_extensions); to plain Python it is a no-op, so a plain install does without mypy_extensions: the real
# decorator where it is installed (mypy and mypyc always have it), else the same no-op.
try:
    from mypy_extensions import mypyc_attr
except ImportError:
    mypyc_attr = _no_mark

# what judges a playout cut off after ``depth`` plies: the hand-written evaluation squashed by ``scale``
# (heuristic.win_chance); the logistic evaluation fitted to game outcomes (evaluate.py) with the sparring
# bot's weights, read for the searching seat wherever the cut-off falls ("fitted"); or with the expert's
# weights (data/expert.json, more features) where they were fitted: the playout runs on to the next turn's
# start and is read for the seat that has just played ("expert")
JUDGES = ("heuristic", "fitted", "expert")


def time_limit(budget_s: float) -> float:
    """The referee's hard limit for one move: twice the budget plus a second of slack (the
    machine is shared; a bot that honours its budget never comes near it)."""
    return 2.0 * budget_s + 1.0


@mypyc_attr(allow_interpreted_subclasses=True)  # the engine's and tests' bots subclass it
class Bot:
    """A player that sees only observations. ``choose`` returns one legal action."""

    level = "bot"
    budget_s: float = 0.0

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)
        # what the last choice did: simulations, seconds, win_rate, capped (1 if the time cap stopped it)
        self.last_info: dict[str, float] = {}

    @property
    def name(self) -> str:
        """The name reports use: the level, or what an engine program calls itself."""
        return self.level

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        raise NotImplementedError

    def hint(self, obs: State, budget_s: float | None = None) -> tuple[int, str]:
        """The action this bot would play (thinking as ``choose`` would, ``budget_s`` only shortening its
        own budget), and a short reason in words."""
        a = self.choose(obs, budget_s)
        return a, H.explain(obs, a)

    def new_game(self, seed: int | None = None) -> None:
        """A new game starts: reseed (if given) and forget anything kept from an earlier game."""
        if seed is not None:
            self.rng = random.Random(seed)

    def game_over(self, winner: int, reason: str, seat: int) -> None:
        """The game this bot played from ``seat`` ended (bots here keep nothing of it)."""


class RandomBot(Bot):
    level = "random"

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        return self.rng.choice(obs.legal_actions())

    def hint(self, obs: State, budget_s: float | None = None) -> tuple[int, str]:
        a = self.choose(obs)
        return a, Said("hint.random", rest=H.explain(obs, a))


class GreedyBot(Bot):
    """The action whose immediate result evaluates best (wins, medals, captures, connection)."""

    level = "greedy"

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        scored = H.greedy_scores(obs)
        best = max(v for v, _ in scored)
        return self.rng.choice([a for v, a in scored if v >= best - 1e-9])


class HintFollower(Bot):
    """A player who presses the hint button at every decision and plays what it says: each action is exactly
    ``adviser.hint(obs)``'s, from the same observation and within the same budget (the arena measures what
    following the app's hints is worth this way; docs/benchmarks.md "Following every hint")."""

    def __init__(self, adviser: Bot):
        super().__init__(None)
        self.adviser = adviser
        self.level = f"hints of {adviser.level}"
        self.budget_s = adviser.budget_s
        self.last_reason = ""

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        a, self.last_reason = self.adviser.hint(obs, budget_s)
        self.last_info = self.adviser.last_info
        return a

    def new_game(self, seed: int | None = None) -> None:
        self.adviser.new_game(seed)


class _Node:
    __slots__ = ("avail", "children", "n", "w")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.n = 0
        self.w = 0.0  # wins of the seat that chose the action leading here
        self.avail = 0


class SearchBot(Bot):
    """ISMCTS over determinizations with heuristic playouts.

    It stops after ``simulations`` playouts or ``budget_s`` seconds, whichever comes first; the
    root considers the ``width`` actions the greedy evaluation likes best (all, if 0). With
    ``prior`` > 0 the root's selection also leans toward the actions the greedy evaluation likes
    (progressive bias: ``prior`` x their squashed score / (visits + 1), fading as they are
    visited). ``scale`` squashes the evaluation that judges a playout's last position into a win
    chance: smaller trusts it more. ``judge`` "fitted" or "expert" judges it with the evaluation fitted
    to game outcomes (evaluate.py) instead (``scale`` then unused; see JUDGES)."""

    level = "search"

    def __init__(self, seed: int | None = None, simulations: int = 1000, budget_s: float = 1.0,
                 width: int = 0, explore: float = 0.7, depth: int = 12, prior: float = 0.0, scale: float = 20.0,
                 judge: str = "heuristic"):
        super().__init__(seed)
        if judge not in JUDGES:
            raise ValueError(f"unknown judge {judge!r} (one of: {', '.join(JUDGES)})")
        self.judge = judge
        self._seat = 0  # the searching seat, set at each search: the fitted judge reads features for it
        self.depth = depth
        self.simulations = simulations
        self.budget_s = budget_s
        self.width = width
        self.explore = explore
        self.prior = prior
        self.scale = scale

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        a, _ = self._search(obs, self.budget_s if budget_s is None else min(budget_s, self.budget_s))
        return a

    def hint(self, obs: State, budget_s: float | None = None) -> tuple[int, str]:
        a, note = self._search(obs, self.budget_s if budget_s is None else min(budget_s, self.budget_s))
        return a, joined([H.explain(obs, a)] + ([note] if note else []))

    def _candidates(self, obs: State) -> tuple[dict[int, float], int | None]:
        """Root actions worth searching with their progressive bias, and an action to play at once
        (a win) if there is one."""
        scored = sorted(H.greedy_scores(obs), reverse=True)
        if scored[0][0] >= H.WIN:
            return {scored[0][1]: 0.0}, scored[0][1]
        if self.width and len(scored) > self.width:
            scored = scored[:self.width]
        best = scored[0][0]
        # the best action's bias is ``prior``; one an evaluation step of ``scale`` worse gets about half
        return {a: self.prior * 2.0 * squash((v - best) / self.scale) for v, a in scored}, None

    def _search(self, obs: State, budget_s: float) -> tuple[int, str]:
        t0 = time.perf_counter()
        legal = obs.legal_actions()
        self.last_info = {"simulations": 0, "seconds": 0.0}
        if len(legal) == 1:
            return legal[0], Said("hint.onlyAction")
        root_actions, sure = self._candidates(obs)
        if sure is not None:
            return sure, ""
        root = _Node()
        me = obs.actor
        self._seat = me
        rng = self.rng
        deadline = t0 + budget_s
        sample = determinizer(obs)
        n = 0
        settled = False
        while n < self.simulations and (n < 8 or time.perf_counter() < deadline):
            self._iterate(root, sample(rng), root_actions, rng)
            n += 1
            if n % 64 == 0 and self._settled(root, self.simulations - n):
                settled = True
                break
        scored = [(c.n, c.w / c.n if c.n else 0.0, a) for a, c in root.children.items()]
        visits, rate, best = max(scored)
        capped = not settled and n < self.simulations  # the time cap, not the work, ended the search
        self.last_info = {"simulations": n, "seconds": time.perf_counter() - t0, "win_rate": rate, "seat": me,
                          "capped": float(capped)}
        return best, Said("hint.search", n=round(rate * 100), m=visits, k=n)

    @staticmethod
    def _settled(root: _Node, left: int) -> bool:
        """True when no other action could overtake the most visited one in the simulations left."""
        counts = sorted((c.n for c in root.children.values()), reverse=True)
        return len(counts) > 1 and counts[0] - counts[1] > left

    def _iterate(self, root: _Node, s: State, allowed: dict[int, float], rng: random.Random) -> None:
        node = root
        path: list[tuple[_Node, int]] = []
        c = self.explore
        at_root = True
        bias: dict[int, float] | None = None
        while not s.over:
            if s.is_chance:
                a = s.sample_chance(rng)
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = _Node()
                s.apply_unchecked(a)
                node = child
                continue
            actor = s.actor
            legal = s.legal_actions()
            if at_root:
                legal = [a for a in legal if a in allowed] or legal
                at_root = False
                if self.prior:
                    bias = allowed
            children = node.children
            untried = []
            for a in legal:
                ch = children.get(a)
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
            if untried:
                a = rng.choice(untried)
                child = children[a] = _Node()
                child.avail = 1
                s.apply_unchecked(a)
                path.append((child, actor))
                break
            best_v, a = -1.0, legal[0]
            for b in legal:
                ch = children[b]
                v = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
                if bias is not None:
                    v += bias.get(b, 0.0) / (ch.n + 1)
                if v > best_v:
                    best_v, a = v, b
            s.apply_unchecked(a)
            node = children[a]
            path.append((node, actor))
            bias = None
        blue = self._playout(s, rng, self.depth, self._cutoff, self.judge == "expert")
        for nd, actor in path:
            nd.n += 1
            nd.w += blue if actor == 0 else 1.0 - blue

    def _cutoff(self, s: State) -> float:
        """Blue's win chance of a playout's cut-off position, by this level's judge: the hand-written
        evaluation squashed by ``scale``, or a fitted one, whose features are read from the determinized
        state (a seat's own rack and the table, only counts of the other's tiles) for the searching seat
        ("fitted") or, at a turn's start, for the seat that has just played ("expert": the positions its
        weights were fitted on)."""
        if self.judge == "heuristic":
            return H.win_chance(s, 0, self.scale)
        seat = self._seat if self.judge == "fitted" else 1 - s.turn
        p = squash(E.score(s, seat, self._weights().per_terrain[s.b.terrain.id]))
        return p if seat == 0 else 1.0 - p

    def _weights(self) -> E.Weights:
        """The fitted weights this level reads: the expert's with judge "expert", else the sparring bot's."""
        return E.weights(E.EXPERT_FILE if self.judge == "expert" else E.DATA_FILE)

    @staticmethod
    def _playout(s: State, rng: random.Random, depth: int, judge: Callable[[State], float],
                 at_turn: bool = False) -> float:
        """Blue's result in [0, 1]: play on with the playout policy, and after ``depth`` plies (and,
        if ``at_turn``, once a turn starts) let ``judge`` give blue's chance instead of playing to the end."""
        plies = 0
        while not s.over:
            if plies >= depth and not s.is_chance and (not at_turn or s.decision == TURN):
                return judge(s)
            s.apply_unchecked(s.sample_chance(rng) if s.is_chance else H.playout_action(s, rng))
            plies += 1
        return 1.0 if s.winner == 0 else 0.0


def _heuristic(s: State) -> float:
    """Blue's chance by the hand-written evaluation, at its usual scale."""
    return H.win_chance(s, 0)


def squash(x: float) -> float:
    """The logistic function, safe for any ``x``."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def simulations_per_second(obs: State, seconds: float = 1.0, seed: int = 0, depth: int = 12) -> float:
    """Determinized playouts (determinize + playout to the end) per second from ``obs``, one core."""
    rng = random.Random(seed)
    sample = determinizer(obs)
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        SearchBot._playout(sample(rng), rng, depth, _heuristic)
        n += 1
    return n / (time.perf_counter() - t0)


__all__ = ["Bot", "GreedyBot", "HintFollower", "RandomBot", "SearchBot", "simulations_per_second", "squash"]
