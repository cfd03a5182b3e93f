"""The sparring bot's evaluation: a few features of a position, read from one seat's observation, and
weights fitted to game outcomes (a logistic model: the weighted sum is the log-odds that the seat wins).

The features see only what ``observation(state, seat)`` shows: the table, the seat's own rack, and the
number of tiles on the opponent's rack and in each reserve. The weights live in data/sparring.json (a
shared set plus a correction per terrain, since restricted and special bases change what a position is
worth); ``scripts/fit_sparring.py`` refits them from arena games (docs/benchmarks.md, "Sparring bot").
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..rules.state import State
from ..rules.terrain import TERRAIN_IDS, Board
from ..rules.troops import KWAK, ROXY
from . import heuristic as H

# The features, in the order of the weights (data/sparring.json lists the same names, checked on load).
FEATURES = (
    "bias",  # 1: who is to move, and the terrain's own lean
    "enemy_threat",  # the opponent reaches our H.Q. and holds a tile: it wins with its next placement
    "own_threat",  # we reach the enemy H.Q. with our next placement
    "own_distance",  # placements we still need to reach the enemy H.Q. (capped at 6)
    "enemy_distance",
    "own_distance_2",  # 1 if we are two placements from the enemy H.Q.
    "enemy_distance_2",
    "medal_lead",  # our medals minus theirs
    "own_medals_needed",  # medals still missing to our objective (capped at 6)
    "enemy_medals_needed",
    "base_lead",  # bases our tiles top minus theirs
    "connected_lead",  # bases joined to our H.Q. minus theirs
    "own_near_medals",  # medals of open regions where we miss one base and they hold none
    "enemy_near_medals",
    "own_hand",  # tiles on our rack (laid ones included)
    "enemy_hand",
    "own_reserve",  # tiles left in our reserve
    "enemy_reserve",
    "own_strong",  # Roxy and Kwak on our rack
    "own_exposed",  # our tops the opponent reaches that a stronger tile could cover (strength 3 or less, or Kwak)
    "enemy_exposed",
    "special_lead",  # special bases (a power or a restriction) our tiles top minus theirs
)
N_FEATURES = len(FEATURES)
# More features, read only by weights fitted with them (data/expert.json, the search's judge): the medal
# counts above are capped at 6, so on terrains whose objective is 7 or 8 the first medals were invisible.
MEDAL_FEATURES = (
    "own_medals_short",  # medals still missing to our objective, uncapped
    "enemy_medals_short",
    "own_last_medal",  # 1 if we miss one medal (or a near region gives the rest)
    "enemy_last_medal",
)
FEATURES_PLUS = FEATURES + MEDAL_FEATURES
DATA_FILE = "sparring.json"
EXPERT_FILE = "expert.json"  # the expert's judge: FEATURES_PLUS


class WeightsError(ValueError):
    """A weights file that cannot be used (the message is one line)."""


@dataclass(frozen=True)
class Weights:
    shared: tuple[float, ...]
    per_terrain: dict[str, tuple[float, ...]]  # terrain id -> weights (shared + that terrain's correction)


def _vector(v: Any, where: str, n: int) -> tuple[float, ...]:
    if (not isinstance(v, list) or len(v) != n
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in v)):
        raise WeightsError(f"{where}: must be a list of {n} finite numbers")
    return tuple(float(x) for x in v)


def parse_weights(raw: Any, name: str = DATA_FILE) -> Weights:
    """Weights from the JSON data of a weights file; WeightsError (one line) if they do not fit the features
    (FEATURES, or FEATURES_PLUS)."""
    if not isinstance(raw, dict):
        raise WeightsError(f"{name}: must hold a JSON object")
    if raw.get("features") not in (list(FEATURES), list(FEATURES_PLUS)):
        raise WeightsError(f"{name}: 'features' must list exactly: {', '.join(FEATURES)} (and may go on with: "
                           f"{', '.join(MEDAL_FEATURES)})")
    n = len(raw["features"])
    shared = _vector(raw.get("shared"), f"{name}: 'shared'", n)
    terrains = raw.get("terrain")
    if not isinstance(terrains, dict) or sorted(terrains) != sorted(TERRAIN_IDS):
        raise WeightsError(f"{name}: 'terrain' must give a correction for each of: {', '.join(TERRAIN_IDS)}")
    per = {}
    for tid in TERRAIN_IDS:
        delta = _vector(terrains[tid], f"{name}: terrain {tid!r}", n)
        per[tid] = tuple(a + b for a, b in zip(shared, delta, strict=True))
    return Weights(shared, per)


def read_weights(path: Path) -> Weights:
    """The weights in the file at ``path``; WeightsError (one line) if it is missing, not JSON or malformed."""
    try:
        raw = json.loads(path.read_text("utf-8"))
    except OSError as e:
        raise WeightsError(f"{path.name}: cannot read it: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WeightsError(f"{path.name}: not JSON ({str(e).splitlines()[0]})") from None
    return parse_weights(raw, path.name)


@cache
def weights(name: str = DATA_FILE) -> Weights:
    """Shipped weights (data/sparring.json, the sparring bot's, or data/expert.json), read once."""
    text = resources.files("toybattle.bots").joinpath("data", name).read_text("utf-8")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise WeightsError(f"{name}: not JSON ({str(e).splitlines()[0]})") from None
    return parse_weights(raw, name)


class _BoardFacts:
    """What the features need of a board, computed once: its special bases."""

    def __init__(self, b: Board):
        restricted = 0
        for mask in b.allowed[1:]:
            restricted |= b.base_mask & ~mask
        powered = sum(1 << i for i in b.bases if b.power[i] is not None)
        self.special = restricted | powered


@cache
def _facts(b: Board) -> _BoardFacts:
    return _BoardFacts(b)


def _bits(x: int) -> int:
    return x.bit_count()


def _near_medals(s: State, own: list[int], seat: int) -> int:
    """Medals of open regions where ``seat`` tops every base but one and the other side tops none."""
    total = 0
    for k, (bases, medals, mask) in enumerate(H.info(s.b).regions):
        if s.claimed[k] < 0 and medals and not own[1 - seat] & mask and len(bases) - _bits(own[seat] & mask) == 1:
            total += medals
    return total


def _exposed(s: State, seat: int, reach: int) -> int:
    """``seat``'s tops on bases in ``reach`` that a stronger tile could cover."""
    topped = s.topped
    weak = topped[seat << 4 | 1] | topped[seat << 4 | 2] | topped[seat << 4 | 3] | topped[seat << 4 | KWAK]
    return _bits(weak & reach & s.b.base_mask)


def features(s: State, seat: int) -> list[float]:
    """The features of ``s`` for ``seat`` (see FEATURES). ``s`` is that seat's observation or a position
    reached from it by the seat's own actions: only the seat's own rack faces are read."""
    enemy = 1 - seat
    b = s.b
    own = [s.owned[0] & b.base_mask, s.owned[1] & b.base_mask]
    d_me = H.hq_distance(s, seat, own[seat])
    d_en = H.hq_distance(s, enemy, own[enemy])
    reach_me, conn_me = s.reach(seat, own[seat])
    reach_en, conn_en = s.reach(enemy, own[enemy])
    m_me, m_en = s.medals(seat), s.medals(enemy)
    strong = sum(1 for t in s.rack[seat] + s.laid[seat] if t & 15 in (ROXY, KWAK))
    special = _facts(b).special
    return [
        1.0,
        float(d_en == 1 and s.hand_size(enemy) > 0),
        float(d_me == 1),
        float(min(d_me, 6)),
        float(min(d_en, 6)),
        float(d_me == 2),
        float(d_en == 2),
        float(m_me - m_en),
        float(min(b.objective[seat] - m_me, 6)),
        float(min(b.objective[enemy] - m_en, 6)),
        float(_bits(own[seat]) - _bits(own[enemy])),
        float(_bits(conn_me) - _bits(conn_en)),
        float(_near_medals(s, own, seat)),
        float(_near_medals(s, own, enemy)),
        float(s.hand_size(seat)),
        float(s.hand_size(enemy)),
        float(len(s.reserve[seat])),
        float(len(s.reserve[enemy])),
        float(strong),
        float(_exposed(s, seat, reach_en)),
        float(_exposed(s, enemy, reach_me)),
        float(_bits(own[seat] & special) - _bits(own[enemy] & special)),
    ]


def medal_features(s: State, seat: int) -> list[float]:
    """MEDAL_FEATURES of ``s`` for ``seat``."""
    b = s.b
    own = [s.owned[0] & b.base_mask, s.owned[1] & b.base_mask]
    short = [b.objective[k] - s.medals(k) for k in (0, 1)]
    last = [float(short[k] <= 1 or short[k] <= _near_medals(s, own, k)) for k in (0, 1)]
    return [float(short[seat]), float(short[1 - seat]), last[seat], last[1 - seat]]


def features_plus(s: State, seat: int) -> list[float]:
    """FEATURES_PLUS of ``s`` for ``seat``."""
    return features(s, seat) + medal_features(s, seat)


def score(s: State, seat: int, w: tuple[float, ...]) -> float:
    """The log-odds that ``seat`` wins from ``s`` under weights ``w`` (FEATURES' or FEATURES_PLUS', told apart
    by their length; a finished game: +/- infinity)."""
    if s.over:
        return math.inf if s.winner == seat else -math.inf
    total = 0.0
    for x, k in zip(features(s, seat) if len(w) == N_FEATURES else features_plus(s, seat), w, strict=True):
        total += x * k
    return total


def settle(s: State) -> None:
    """Play chance nodes with their most likely outcome (a bot planning its turn sees no face there)."""
    while s.is_chance:
        s.apply_unchecked(max(s.chance_outcomes(), key=lambda o: (o[1], -o[0]))[0])


__all__ = ["DATA_FILE", "EXPERT_FILE", "FEATURES", "FEATURES_PLUS", "MEDAL_FEATURES", "N_FEATURES", "Weights",
           "WeightsError", "features", "features_plus", "medal_features", "parse_weights", "read_weights", "score",
           "settle", "weights"]
