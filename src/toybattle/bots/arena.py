"""The arena: a referee that holds the full game and plays bots against each other on duplicate deals.

The referee alone holds the State. Each bot receives ``observation(state, seat)`` and a time
budget; the referee samples chance nodes itself, and a bot that answers an illegal action,
fails, or overruns its time limit loses that game (the match goes on).
"""
from __future__ import annotations

import multiprocessing
import random
import signal
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..rules import State, action_text, observation
from . import make_bot
from .engine import BotFailure, EngineBot
from .players import Bot, time_limit
from .stats import elo, score_interval, sprt_decision, sprt_llr

ILLEGAL, TIMEOUT, FAILED = "illegal", "time", "failed"


def build_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from an arena spec: a level name, or ``cmd:COMMAND`` for an engine program."""
    if spec.startswith("cmd:"):
        return EngineBot(spec[4:].strip())
    return make_bot(spec, seed)


@dataclass
class GameResult:
    winner: int  # seat
    reason: str  # hq, medals, stuck, or illegal / time / failed (a forfeit)
    plies: int
    detail: str = ""
    think: list[list[float]] = field(default_factory=lambda: [[], []])  # seconds per move, per seat


def referee(s: State, players: list[Bot], rng: random.Random) -> GameResult:
    """Play ``s`` to the end between ``players[seat]``; only observations reach them."""
    think: list[list[float]] = [[], []]
    while True:
        s.resolve_chance(rng)
        if s.over:
            break
        seat = s.actor
        bot = players[seat]
        budget = bot.budget_s
        t0 = time.perf_counter()
        try:
            a = bot.choose(observation(s, seat), budget)
        except BotFailure as e:
            return GameResult(1 - seat, FAILED, s.ply, str(e), think)
        except Exception as e:  # a crashing bot loses the game; the arena goes on
            return GameResult(1 - seat, FAILED, s.ply, f"{type(e).__name__}: {e}", think)
        spent = time.perf_counter() - t0
        think[seat].append(spent)
        if spent > time_limit(budget):
            return GameResult(1 - seat, TIMEOUT, s.ply, f"took {spent:.2f} s (limit {time_limit(budget):.2f} s)",
                              think)
        why = s.refusal(a) if isinstance(a, int) else "not an action"
        if why:
            shown = action_text(a, s.b) if isinstance(a, int) and _printable(a, s) else repr(a)
            return GameResult(1 - seat, ILLEGAL, s.ply, f"illegal action {shown}: {why}", think)
        s.apply_unchecked(a)
    return GameResult(s.winner, s.reason, s.ply, "", think)


def _start(players: list[Bot], seed: int) -> GameResult | None:
    """Seed the bots for a game and start them; a bot that cannot start loses (None if all did)."""
    for seat, bot in enumerate(players):
        bot.rng = random.Random(seed + seat)
        try:
            bot.new_game()
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
class DealResult:
    index: int
    terrain: str
    a_wins: int  # 0, 1 or 2 of the two games
    games: list[tuple[int, str, str]]  # per game: (1 if A won else 0, reason, detail)
    think_a: list[float]
    think_b: list[float]

    @property
    def score(self) -> float:
        return self.a_wins / 2


def deal_seed(match_seed: int, index: int) -> int:
    return match_seed * 1_000_003 + index


def play_deal(bots: tuple[Bot, Bot], index: int, terrain: str, first_game: bool, match_seed: int) -> DealResult:
    """One duplicate deal: the same tile orders and first seat twice, A as blue then as red."""
    seed = deal_seed(match_seed, index)
    a, b = bots
    games, think_a, think_b = [], [], []
    for a_seat in (0, 1):
        s = State.new(terrain, first_game, seed=seed)
        players = [a, b] if a_seat == 0 else [b, a]
        r = _start(players, seed * 4 + a_seat * 2) or referee(s, players, random.Random(seed))
        games.append((int(r.winner == a_seat), r.reason, r.detail))
        think_a += r.think[a_seat]
        think_b += r.think[1 - a_seat]
    return DealResult(index, terrain, sum(g[0] for g in games), games, think_a, think_b)


# ---------------------------------------------------------------- running a match

@dataclass
class MatchSpec:
    bot_a: str
    bot_b: str
    deals: int
    terrains: tuple[str, ...]
    first_game: bool = False
    seed: int = 1
    workers: int = 1


_worker_bots: tuple[Bot, Bot] | None = None


def _init_worker(spec_a: str, spec_b: str) -> None:
    global _worker_bots
    if multiprocessing.parent_process() is not None:  # a pool worker: the parent handles interrupts
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _worker_bots = (build_bot(spec_a), build_bot(spec_b))


def _run_deal(job: tuple[int, str, bool, int]) -> DealResult:
    assert _worker_bots is not None
    return play_deal(_worker_bots, *job)


def run_deals(spec: MatchSpec) -> Iterator[DealResult]:
    """Deal results in order; stop iterating to stop the match (workers are shut down)."""
    jobs = [(k, spec.terrains[k % len(spec.terrains)], spec.first_game, spec.seed) for k in range(spec.deals)]
    if spec.workers <= 1:
        _init_worker(spec.bot_a, spec.bot_b)
        try:
            for job in jobs:
                yield _run_deal(job)
        finally:
            _close_worker_bots()
        return
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(spec.workers, initializer=_init_worker, initargs=(spec.bot_a, spec.bot_b))
    try:
        yield from pool.imap(_run_deal, jobs)
    finally:
        pool.terminate()
        pool.join()


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

    def summary(self) -> dict:
        scores = self.deal_scores()
        m, lo, hi = score_interval(scores)
        games = [g for d in self.deals for g in d.games]
        names = (self.spec.bot_b, self.spec.bot_a)
        reasons = Counter(f"{names[won]} won: {reason}" for won, reason, _ in games)
        think_a = [t for d in self.deals for t in d.think_a]
        think_b = [t for d in self.deals for t in d.think_b]
        forfeits = [f"deal {d.index}: {names[1 - won]} lost: {detail}" for d in self.deals
                    for won, reason, detail in d.games if reason in (ILLEGAL, TIMEOUT, FAILED)]
        out = {
            "bot_a": self.spec.bot_a, "bot_b": self.spec.bot_b,
            "terrains": list(self.spec.terrains), "mode": "first-game" if self.spec.first_game else "standard",
            "deals": len(self.deals), "games": len(games),
            "wins_a": sum(g[0] for g in games), "wins_b": sum(1 - g[0] for g in games),
            "score": m, "score_low": lo, "score_high": hi,
            "elo": _finite(elo(m)), "elo_low": _finite(elo(lo)), "elo_high": _finite(elo(hi)),
            "endings": dict(sorted(reasons.items())),
            "forfeits": forfeits,
            "median_think_s": {"a": _median(think_a), "b": _median(think_b)},
            "max_think_s": {"a": max(think_a, default=None), "b": max(think_b, default=None)},
            "seconds": round(self.seconds, 1), "seed": self.spec.seed, "interrupted": self.interrupted,
        }
        if self.sprt:
            out["sprt"] = {"elo0": self.sprt[0], "elo1": self.sprt[1],
                           "llr": sprt_llr(scores, *self.sprt), "decision": self.decision or "undecided"}
        return out


def _finite(x: float) -> float | None:
    return None if x in (float("inf"), float("-inf")) else round(x, 1)


def _median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


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
