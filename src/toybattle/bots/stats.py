"""Match statistics for duplicate games: score, its 95% interval, Elo, and the sequential test.

A duplicate deal is played twice with the seats swapped, so the two games share the luck of
the tiles; the unit of measurement is the deal (its score is 0, 1/2 or 1 for bot A), and the
interval comes from the spread of deal scores (normal approximation), as chess engine
testers do with game pairs.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.5


def variance(xs: Sequence[float]) -> float:
    """Population variance of the deal scores (0 for fewer than two)."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return sum((x - m) ** 2 for x in xs) / len(xs)


def score_interval(deals: Sequence[float]) -> tuple[float, float, float]:
    """(score, low, high): the mean deal score and its 95% interval, clipped to [0, 1]."""
    n = len(deals)
    m = mean(deals)
    if n < 2:
        return m, 0.0, 1.0
    half = Z95 * math.sqrt(variance(deals) / (n - 1))
    return m, max(0.0, m - half), min(1.0, m + half)


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected_score(elo_diff: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo_diff / 400.0))


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """(lower, upper) log-likelihood-ratio bounds: below lower accept H0, above upper accept H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(deals: Sequence[float], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) from deal scores, with the
    normal approximation (a generalized SPRT). One pseudo-deal of each outcome is added to the
    variance estimate so that a short run of identical results cannot stop the test at once."""
    n = len(deals)
    if n == 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    m = mean(deals)
    var = variance(list(deals) + [0.0, 0.5, 1.0])
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)


def sprt_decision(deals: Sequence[float], elo0: float, elo1: float,
                  alpha: float = 0.05, beta: float = 0.05) -> str:
    """'H1' (A is at least elo1 stronger), 'H0' (at most elo0) or '' (keep playing)."""
    llr = sprt_llr(deals, elo0, elo1)
    lo, hi = sprt_bounds(alpha, beta)
    return "H1" if llr >= hi else "H0" if llr <= lo else ""
