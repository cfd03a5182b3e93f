"""The arena: a referee that holds the full game and plays bots against each other on duplicate deals.

The referee alone holds the State. Each bot receives ``observation(state, seat)`` and a time
budget; the referee samples chance nodes itself, and a bot that answers an illegal action,
fails, or overruns its time limit loses that game (the match goes on).
"""
from __future__ import annotations

import math
import multiprocessing
import os
import random
import signal
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from ..rules import SEATS, State, action_text, observation
from ..rules.notation import RECORD_HEADER
from ..rules.state import TURN
from . import make_bot
from .engine import FAILED, FORFEITS, ILLEGAL, TIMEOUT, BotFailure, BotTimeout, EngineBot
from .players import Bot, time_limit
from .stats import elo, score_interval, sprt_decision, sprt_llr

__all__ = ["FAILED", "ILLEGAL", "TIMEOUT", "MatchReport", "MatchSpec", "plot_svg", "referee", "run_match"]


def split_budget(spec: str) -> tuple[str, float | None]:
    """A level spec's name and time budget: ``expert@0.35`` is the expert thinking at most 0.35 s a decision
    (as the static site's expert, whose budget is shorter than the level's); a plain name has none. ValueError
    for a budget that is not a positive number of seconds."""
    name, at, seconds = spec.partition("@")
    if not at:
        return spec, None
    try:
        budget = float(seconds)
    except ValueError:
        budget = math.nan
    if not budget > 0 or math.isinf(budget):
        raise ValueError(f"bad time budget in {spec!r}: give LEVEL@SECONDS, e.g. expert@0.35")
    return name, budget


def build_bot(spec: str, seed: int | None = None, engine_time_s: float = 1.0, log_path: str | None = None) -> Bot:
    """A bot from an arena spec: a level name, ``LEVEL@SECONDS`` for a level thinking within that budget
    (split_budget), or ``cmd:COMMAND`` for an engine program (which gets ``engine_time_s`` per decision and
    writes its standard error to ``log_path``)."""
    if spec.startswith("cmd:"):
        return EngineBot(spec[4:].strip(), budget_s=engine_time_s, log_path=log_path)
    name, budget = split_budget(spec)
    bot = make_bot(name, seed)
    if budget is not None:
        bot.budget_s = budget
        bot.level = f"{bot.level}@{budget:g}"
    return bot


@dataclass
class Think:
    """One bot's thinking in a game or a deal: seconds per decision and per turn, and how many
    decisions its time cap cut short."""
    decisions: list[float] = field(default_factory=list)
    turns: list[float] = field(default_factory=list)
    capped: int = 0

    def add(self, other: Think) -> None:
        self.decisions += other.decisions
        self.turns += other.turns
        self.capped += other.capped


@dataclass
class GameResult:
    winner: int  # seat
    reason: str  # hq, medals, stuck, or illegal / time / failed (a forfeit)
    plies: int
    detail: str = ""
    think: tuple[Think, Think] = field(default_factory=lambda: (Think(), Think()))  # per seat
    actions: list[str] = field(default_factory=list)  # every action played, chance outcomes included


class _Referee:
    """Plays one game; keeps the actions and each seat's think times as it goes."""

    def __init__(self, s: State, players: list[Bot], rng: random.Random):
        self.s, self.players, self.rng = s, players, rng
        self.result = GameResult(-1, "", 0)
        self._turn_seat, self._turn_time = -1, 0.0

    def play(self) -> GameResult:
        s = self.s
        while not s.over:
            s.resolve_chance(self.rng, self._apply)
            if s.over:
                break
            failure = self._decide(s.actor)
            if failure:
                self._end_turn()
                return self._finish(1 - s.actor, *failure)
        self._end_turn()
        return self._finish(s.winner, s.reason, "")

    def _decide(self, seat: int) -> tuple[str, str] | None:
        """Ask ``seat``'s bot and play its answer; (reason, detail) if it forfeits the game."""
        s, bot = self.s, self.players[seat]
        if s.decision == TURN or seat != self._turn_seat:
            self._end_turn()
            self._turn_seat = seat
        budget = bot.budget_s
        t0 = time.perf_counter()
        try:
            a = bot.choose(observation(s, seat), budget)
        except BotTimeout as e:
            return TIMEOUT, str(e)
        except BotFailure as e:
            return FAILED, str(e)
        except Exception as e:  # a crashing bot loses the game; the arena goes on
            return FAILED, f"{type(e).__name__}: {e}"
        spent = time.perf_counter() - t0
        think = self.result.think[seat]
        think.decisions.append(spent)
        think.capped += bool(bot.last_info.get("capped"))
        self._turn_time += spent
        if spent > time_limit(budget):
            return TIMEOUT, f"took {spent:.2f} s (limit {time_limit(budget):.2f} s)"
        why = s.refusal(a) if isinstance(a, int) else "not an action"
        if why:
            shown = action_text(a, s.b) if isinstance(a, int) and _printable(a, s) else repr(a)
            return ILLEGAL, f"illegal action {shown}: {why}"
        self._apply(a)
        return None

    def _apply(self, a: int) -> None:
        self.result.actions.append(action_text(a, self.s.b))
        self.s.apply_unchecked(a)

    def _end_turn(self) -> None:
        if self._turn_seat >= 0:
            self.result.think[self._turn_seat].turns.append(self._turn_time)
        self._turn_seat, self._turn_time = -1, 0.0

    def _finish(self, winner: int, reason: str, detail: str) -> GameResult:
        r = self.result
        r.winner, r.reason, r.plies, r.detail = winner, reason, self.s.ply, detail
        return r


def referee(s: State, players: list[Bot], rng: random.Random) -> GameResult:
    """Play ``s`` to the end between ``players[seat]``; only observations reach them."""
    return _Referee(s, players, rng).play()


def _start(players: list[Bot], seed: int) -> GameResult | None:
    """Start a game for each bot, seeded; a bot that cannot start loses (None if all did)."""
    for seat, bot in enumerate(players):
        try:
            bot.new_game(seed + seat)
        except BotFailure as e:
            return GameResult(1 - seat, FAILED, 0, str(e))
    return None


def _printable(a: int, s: State) -> bool:
    try:
        action_text(a, s.b)
        return True
    except (ValueError, IndexError):
        return False


@dataclass
class GameOutcome:
    """One game of a deal, from A's side."""
    a_seat: int
    a_won: bool
    reason: str
    detail: str
    plies: int


@dataclass
class DealResult:
    index: int
    terrain: str
    seed: int
    games: list[GameOutcome]
    think: tuple[Think, Think]  # A's and B's
    names: tuple[str, str]  # what the bots call themselves (an engine's 'id name')
    records: list[str]  # each game as a record (docs/notation.md), in the order played

    @property
    def a_wins(self) -> int:
        return sum(g.a_won for g in self.games)

    @property
    def score(self) -> float:
        return self.a_wins / 2


def deal_seed(match_seed: int, index: int) -> int:
    return match_seed * 1_000_003 + index


def play_deal(bots: tuple[Bot, Bot], index: int, terrain: str, first_game: bool, match_seed: int) -> DealResult:
    """One duplicate deal: the same tile orders and first seat twice, A as blue then as red."""
    seed = deal_seed(match_seed, index)
    a, b = bots
    games, records, think = [], [], (Think(), Think())
    for a_seat in (0, 1):
        s = State.new(terrain, first_game, seed=seed)
        players = [a, b] if a_seat == 0 else [b, a]
        r = _start(players, seed * 4 + a_seat * 2) or referee(s, players, random.Random(seed))
        for seat, bot in enumerate(players):
            bot.game_over(r.winner, r.reason, seat)
        games.append(GameOutcome(a_seat, r.winner == a_seat, r.reason, r.detail, r.plies))
        think[0].add(r.think[a_seat])
        think[1].add(r.think[1 - a_seat])
        records.append(_record(terrain, first_game, seed, players, r))
    return DealResult(index, terrain, seed, games, think, (a.name, b.name), records)


def _record(terrain: str, first_game: bool, seed: int, players: list[Bot], r: GameResult) -> str:
    """The game as a record that ``toybattle replay`` reads; who played and how it ended as comments."""
    how = f"{SEATS[r.winner]} won: {r.reason}" + (f" ({r.detail})" if r.detail else "")
    lines = [RECORD_HEADER, f"# blue: {players[0].name}", f"# red: {players[1].name}", f"# {how}",
             f"terrain {terrain}", f"mode {'first-game' if first_game else 'standard'}", f"seed {seed}", "actions"]
    lines += [" ".join(r.actions[k:k + 10]) for k in range(0, len(r.actions), 10)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- running a match

@dataclass(frozen=True)
class MatchSpec:
    bot_a: str
    bot_b: str
    deals: int
    terrains: tuple[str, ...]
    first_game: bool = False
    seed: int = 1
    workers: int = 1
    engine_time_s: float = 1.0  # per-decision budget of cmd: engines
    engine_log: str | None = None  # a directory for the engines' standard error
    cluster: str | None = None  # a Dask scheduler's address: its workers play the deals (``workers`` unused)

    def jobs(self) -> list[tuple[int, str, bool, int]]:
        return [(k, self.terrains[k % len(self.terrains)], self.first_game, self.seed) for k in range(self.deals)]

    def bots(self) -> tuple[Bot, Bot]:
        """The two bots of one worker (an engine's log file is named after its side and the process)."""
        def log(side: str) -> str | None:
            return os.path.join(self.engine_log, f"{side}-{os.getpid()}.log") if self.engine_log else None
        return (build_bot(self.bot_a, None, self.engine_time_s, log("a")),
                build_bot(self.bot_b, None, self.engine_time_s, log("b")))


_worker_bots: tuple[Bot, Bot] | None = None


def _init_worker(spec: MatchSpec) -> None:
    global _worker_bots
    if multiprocessing.parent_process() is not None:  # a pool worker: the parent handles interrupts
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _worker_bots = spec.bots()


def _run_deal(job: tuple[int, str, bool, int]) -> DealResult:
    assert _worker_bots is not None
    return play_deal(_worker_bots, *job)


def run_deals(spec: MatchSpec) -> Generator[DealResult, None, None]:
    """Deal results in order; stop iterating to stop the match (workers are shut down)."""
    jobs = spec.jobs()
    if spec.cluster:
        yield from _cluster_deals(spec, jobs)
        return
    if spec.workers <= 1:
        _init_worker(spec)
        try:
            for job in jobs:
                yield _run_deal(job)
        finally:
            _close_worker_bots()
        return
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(spec.workers, initializer=_init_worker, initargs=(spec,))
    try:
        yield from pool.imap(_run_deal, jobs)
    finally:
        pool.terminate()
        pool.join()


class ClusterError(Exception):
    """The cluster cannot be used (the optional extra is missing, or the scheduler cannot be reached)."""


def _cluster_deals(spec: MatchSpec, jobs: list[tuple[int, str, bool, int]]) -> Generator[DealResult, None, None]:
    """Deals played by the workers of the Dask cluster at ``spec.cluster``, yielded in order.
    Every game reseeds its bots, so which worker plays a deal does not change its result."""
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster needs Dask's distributed: pip install 'toybattle[cluster]'") from None
    dask: Any = distributed  # it has no type annotations
    try:
        client = dask.Client(spec.cluster, timeout=10)
    except (OSError, ValueError) as e:  # refused, timed out, or an address it cannot read
        raise ClusterError(f"cannot reach the cluster at {spec.cluster}: {e}") from None
    futures = client.map(_cluster_deal, jobs, spec=spec, pure=False)
    try:
        for (index, *_), f in zip(jobs, futures, strict=True):
            try:
                result: DealResult = f.result()
            except Exception as e:  # a worker lost, the scheduler gone: one line for the user
                raise ClusterError(f"the cluster could not play deal {index}: {type(e).__name__}: {e}") from None
            yield result
    finally:
        client.cancel(futures)
        client.close()


_cluster_bots: dict[tuple[MatchSpec, int], tuple[Bot, Bot]] = {}


def _cluster_deal(job: tuple[int, str, bool, int], spec: MatchSpec) -> DealResult:
    """On a cluster worker: one deal, with bots kept per match and thread (an engine program is
    started once, not once per deal)."""
    key = (spec, threading.get_ident())
    if key not in _cluster_bots:
        _cluster_bots[key] = spec.bots()
    return play_deal(_cluster_bots[key], *job)


def _close_worker_bots() -> None:
    global _worker_bots
    for bot in _worker_bots or ():
        if isinstance(bot, EngineBot):
            bot.close()
    _worker_bots = None


@dataclass
class MatchReport:
    spec: MatchSpec
    deals: list[DealResult] = field(default_factory=list)
    sprt: tuple[float, float] | None = None
    decision: str = ""
    seconds: float = 0.0
    interrupted: bool = False  # stopped by the user (Ctrl-C) or a TERM signal before the end

    def deal_scores(self) -> list[float]:
        return [d.score for d in self.deals]

    def per_terrain(self) -> dict[str, dict[str, Any]]:
        """A's score and its 95% interval on each terrain played (targets are set per terrain)."""
        by: dict[str, list[float]] = {}
        for d in self.deals:
            by.setdefault(d.terrain, []).append(d.score)
        out = {}
        for terrain in (t for t in self.spec.terrains if t in by):
            m, lo, hi = score_interval(by[terrain])
            out[terrain] = {"deals": len(by[terrain]), "games": 2 * len(by[terrain]), "score": m, "score_low": lo,
                            "score_high": hi}
        return out

    def names(self) -> tuple[str, str]:
        """What the bots call themselves (an engine's 'id name'), told apart if they are the same."""
        a, b = self.deals[0].names if self.deals else (self.spec.bot_a, self.spec.bot_b)
        return (a, b) if a != b else (f"{a} (A)", f"{b} (B)")

    def summary(self) -> dict[str, Any]:
        scores = self.deal_scores()
        m, lo, hi = score_interval(scores)
        games = [g for d in self.deals for g in d.games]
        names = self.names()
        think = (Think(), Think())
        for d in self.deals:
            think[0].add(d.think[0])
            think[1].add(d.think[1])
        out: dict[str, Any] = {
            "bot_a": self.spec.bot_a, "bot_b": self.spec.bot_b, "name_a": names[0], "name_b": names[1],
            "terrains": list(self.spec.terrains), "mode": "first-game" if self.spec.first_game else "standard",
            "deals": len(self.deals), "games": len(games),
            "wins_a": sum(g.a_won for g in games), "wins_b": sum(not g.a_won for g in games),
            "score": m, "score_low": lo, "score_high": hi,
            "elo": _finite(elo(m)), "elo_low": _finite(elo(lo)), "elo_high": _finite(elo(hi)),
            "endings": dict(sorted(Counter(f"{names[1 - g.a_won]} won: {g.reason}" for g in games).items())),
            "forfeits": [f"deal {d.index}: {names[g.a_won]} lost: {g.detail}" for d in self.deals for g in d.games
                         if g.reason in FORFEITS],
            "think_s": {"a": _think_summary(think[0]), "b": _think_summary(think[1])},
            "engine_time_s": self.spec.engine_time_s,
            "seconds": round(self.seconds, 1), "seed": self.spec.seed, "interrupted": self.interrupted,
            "per_terrain": self.per_terrain(),
            "per_deal": [_deal_row(d, names) for d in self.deals],
        }
        if self.sprt:
            out["sprt"] = {"elo0": self.sprt[0], "elo1": self.sprt[1],
                           "llr": sprt_llr(scores, *self.sprt), "decision": self.decision or "undecided"}
        return out


def _stats(xs: list[float]) -> dict[str, float | int | None]:
    if not xs:
        return {"count": 0, "mean": None, "median": None, "max": None}
    return {"count": len(xs), "mean": round(statistics.fmean(xs), 6), "median": round(statistics.median(xs), 6),
            "max": round(max(xs), 6)}


def _think_summary(t: Think) -> dict[str, Any]:
    n = len(t.decisions)
    return {"decision": _stats(t.decisions), "turn": _stats(t.turns), "cap_hits": t.capped,
            "cap_hit_rate": round(t.capped / n, 4) if n else None}


def _deal_row(d: DealResult, names: tuple[str, str]) -> dict[str, Any]:
    return {"index": d.index, "terrain": d.terrain, "seed": d.seed, "score": d.score,
            "games": [{"a_seat": SEATS[g.a_seat], "winner": names[1 - g.a_won], "reason": g.reason,
                       "plies": g.plies, **({"detail": g.detail} if g.detail else {})} for g in d.games]}


def _finite(x: float) -> float | None:
    return None if x in (float("inf"), float("-inf")) else round(x, 1)


def run_match(spec: MatchSpec, sprt: tuple[float, float] | None = None,
              on_deal: Callable[[MatchReport], None] | None = None) -> MatchReport:
    """Play the match (stopping early when the SPRT decides); ``on_deal`` sees each step.
    An interrupt (Ctrl-C, or TERM turned into one) ends it with the deals played so far."""
    report = MatchReport(spec, sprt=sprt)
    t0 = time.perf_counter()
    results = run_deals(spec)
    try:
        for d in results:
            report.deals.append(d)
            report.seconds = time.perf_counter() - t0
            if sprt:
                report.decision = sprt_decision(report.deal_scores(), *sprt)
            if on_deal:
                on_deal(report)
            if report.decision:
                break
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        results.close()
    report.seconds = time.perf_counter() - t0
    return report


# ---------------------------------------------------------------- the running-score plot

def plot_svg(report: MatchReport, width: int = 640, height: int = 360) -> str:
    """An SVG of A's running score after each deal, with its 95% interval and the 50% line."""
    scores = report.deal_scores()
    pad_l, pad_r, pad_t, pad_b = 56, 16, 34, 40
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    n = max(len(scores), 1)

    def x(k: int) -> float:
        return pad_l + w * k / n

    def y(v: float) -> float:
        return pad_t + h * (1 - v)

    mid, low, high = [], [], []
    for k in range(1, len(scores) + 1):
        m, lo, hi = score_interval(scores[:k])
        mid.append((x(k), y(m)))
        low.append((x(k), y(lo)))
        high.append((x(k), y(hi)))
    band = " ".join(f"{px:.1f},{py:.1f}" for px, py in high + low[::-1])
    line = " ".join(f"{px:.1f},{py:.1f}" for px, py in mid)
    title = f"{_esc(report.spec.bot_a)} vs {_esc(report.spec.bot_b)}: running score of {_esc(report.spec.bot_a)}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{pad_l}" y="20" font-size="14">{title}</text>',
    ]
    for v in (0.0, 0.25, 0.5, 0.75, 1.0):
        dash = "" if v in (0.0, 1.0) else ' stroke-dasharray="4 3"'
        colour = "#888" if v == 0.5 else "#ddd"
        parts.append(f'<line x1="{pad_l}" y1="{y(v):.1f}" x2="{pad_l + w}" y2="{y(v):.1f}" stroke="{colour}"{dash}/>')
        parts.append(f'<text x="{pad_l - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{round(v * 100)}%</text>')
    if scores:
        parts.append(f'<polygon points="{band}" fill="#4f66a2" fill-opacity="0.2" stroke="none"/>')
        parts.append(f'<polyline points="{line}" fill="none" stroke="#4f66a2" stroke-width="2"/>')
    parts.append(f'<text x="{pad_l + w / 2:.1f}" y="{height - 8}" text-anchor="middle">'
                 f'deals played (2 games each): {len(scores)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
