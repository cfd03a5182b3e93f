"""What a bot knows about Toy Battle beyond the rules: how good a position looks, a cheap
playout policy for search, and the words that explain a suggested action.

Everything here reads only what it is given (an observation, or a determinization of one).
The central measure is the *H.Q. distance*: how many placements a seat still needs to put
a tile on an enemy H.Q. if nobody moved in between (own bases cost 0, any other base 1).
At distance 1 the seat threatens to win with any tile on its next turn.
"""
from __future__ import annotations

import math
import random
from functools import lru_cache

from toybattle.said import Said, joined

from ..rules import actions as A
from ..rules.state import (
    EXTRA,
    JUMBO_TARGET,
    LAY_USE,
    RAINBOW_DRAW,
    RECALL,
    RECOVER,
    SHOVE,
    SKULLY_DRAW,
    STAR_DRAW,
    TURN,
    XB_USE,
    State,
)
from ..rules.terrain import Board
from ..rules.troops import KWAK, ROXY, SEATS, STAR

FAR = 99
WIN = 10_000.0


class BoardInfo:
    """Per-board facts the heuristics read many times, computed once."""

    def __init__(self, b: Board):
        self.bases = b.bases
        self.base_mask = b.base_mask
        self.hq_mask = b.hq_mask
        self.regions = [(bases, medals, sum(1 << i for i in bases)) for bases, medals in b.regions]
        # graph steps from each node to the nearest enemy H.Q., per attacking seat
        self.steps = [self._steps(b, b.hq_mask[1 - seat]) for seat in (0, 1)]

    @staticmethod
    def _steps(b: Board, target: int) -> list[int]:
        dist = [FAR] * b.size
        todo = [i for i in range(b.size) if target >> i & 1]
        for i in todo:
            dist[i] = 0
        for i in todo:
            for j in b.neighbours[i]:
                if dist[j] == FAR:
                    dist[j] = dist[i] + 1
                    todo.append(j)
        return dist


@lru_cache(maxsize=24)  # nine terrains in two modes, and a few more (a board made in a test, say)
def info(b: Board) -> BoardInfo:
    """The facts of board ``b``, kept for the boards met last: a shipped board unpickled in a bot worker is
    that worker's own (``Board.__reduce__``), and the bound keeps any other board from piling up."""
    return BoardInfo(b)


def _grow(start: int, own: int, b: Board) -> int:
    """``start`` plus every own base joined to it through own bases."""
    seen = start
    new = b.spread(start) & own & ~seen
    while new:
        seen |= new
        new = b.spread(new) & own & ~seen
    return seen


def own_mask(s: State, seat: int) -> int:
    """The bases ``seat``'s tiles top."""
    return s.owned[seat] & s.b.base_mask


def hq_distance(s: State, seat: int, own: int | None = None) -> int:
    """Placements ``seat`` needs to reach an enemy H.Q. (1 = it can win with its next tile)."""
    bi = info(s.b)
    if own is None:
        own = own_mask(s, seat)
    b = s.b
    target = bi.hq_mask[1 - seat]
    cur = _grow(bi.hq_mask[seat], own, b)
    d = 0
    while True:
        nb = b.spread(cur) & ~cur
        if nb & target:
            return d + 1
        step = nb & bi.base_mask
        if not step or d > 20:
            return FAR
        d += 1
        cur = _grow(cur | step, own, b)


def threatens(s: State, seat: int) -> bool:
    """Could ``seat`` put a tile on an enemy H.Q. with its next placement (connection only)?"""
    reach, _ = s.reach(seat, own_mask(s, seat))
    return bool(reach & s.b.hq_mask[1 - seat])


def _region_terms(s: State, seat: int, own: list[int]) -> float:
    """Medals within reach: unclaimed regions where one seat holds every base but one or two."""
    v = 0.0
    for k, (bases, medals, mask) in enumerate(info(s.b).regions):
        if s.claimed[k] >= 0 or not medals:
            continue
        for who, sign in ((seat, 1.0), (1 - seat, -1.0)):
            if own[1 - who] & mask:
                continue  # contested: the other side holds a base of it
            missing = len(bases) - bin(own[who] & mask).count("1")
            if missing == 1:
                v += sign * medals * 2.5
            elif missing == 2:
                v += sign * medals * 0.8
    return v


def _rack_value(s: State, seat: int) -> float:
    """Tiles in hand are options; strong ones (Roxy, Star, Kwak) keep the power to cover."""
    v = 0.0
    for t in s.rack[seat] + s.laid[seat]:
        troop = t & 15
        v += 1.4 + (0.6 if troop in (ROXY, KWAK) else 0.3 if troop == STAR else 0.0)
    return min(v, 10.0)


def evaluate(s: State, seat: int) -> float:
    """How good ``s`` looks for ``seat`` (higher is better; WIN / -WIN when the game is over)."""
    if s.over:
        return WIN if s.winner == seat else -WIN
    enemy = 1 - seat
    own = [own_mask(s, 0), own_mask(s, 1)]
    d_me = hq_distance(s, seat, own[seat])
    d_en = hq_distance(s, enemy, own[enemy])
    # The seat that places the next tile: after a troop or base effect is settled, the turn passes.
    mover = s.turn if s.decision in (TURN, EXTRA) else 1 - s.turn
    # A seat already connected next to an enemy H.Q. wins with its next tile unless blocked first.
    if d_en == 1 and mover == enemy and s.hand_size(enemy):
        return -WIN / 2
    if d_me == 1 and mover == seat and s.rack[seat]:
        return WIN / 2
    b = s.b
    v = 0.0
    m_me, m_en = s.medals(seat), s.medals(enemy)
    v += 12.0 * (m_me - m_en)
    v += 25.0 * (m_me >= b.objective[seat] - 1) - 25.0 * (m_en >= b.objective[enemy] - 1)
    v += 9.0 * (min(d_en, 8) - min(d_me, 8))
    v += 18.0 * (d_me == 1) - 30.0 * (d_en == 1)
    v += 2.0 * (bin(own[seat]).count("1") - bin(own[enemy]).count("1"))
    v += _region_terms(s, seat, own)
    v += _rack_value(s, seat) - _rack_value(s, enemy)
    return v


def win_chance(s: State, seat: int, scale: float = 20.0) -> float:
    """The evaluation squashed into a chance of winning for ``seat`` (0..1)."""
    v = evaluate(s, seat) / scale
    if v > 30:
        return 1.0
    if v < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-v))


def _after(s: State, a: int) -> State:
    t = s.copy()
    t.apply_unchecked(a)
    return t


def greedy_scores(s: State) -> list[tuple[float, int]]:
    """(score, action) for every legal action of the seat to move: the position right after it,
    evaluated for that seat (a draw's or a blind pick's outcome stays unknown)."""
    seat = s.actor
    out = []
    for a in s.legal_actions():
        t = _after(s, a)
        v = evaluate(t, seat)
        if t.is_chance:
            v += 4.0  # XB-42 / tank pick: the opponent loses or freezes a tile
        out.append((v, a))
    return out


# ------------------------------------------------------------------ playout policy

def playout_action(s: State, rng: random.Random) -> int:
    """A quick, sensible action for the seat to move in a full (determinized) state: win at once,
    stop an H.Q. threat, take regions, push toward the enemy H.Q., with some randomness."""
    d = s.decision
    if d != TURN and d != EXTRA:
        legal = s.legal_actions()
        return legal[0] if len(legal) == 1 else _side_decision(s, d, legal, rng)
    # Placements are weighed from the rules' target masks, in the order legal_actions lists them
    # (draw, then troop by troop and node by node, then skip): one random draw each, as if listed.
    seat = s.turn
    targets = s.placement_targets(seat)
    draw = d == TURN and s.can_draw(seat)
    if draw + sum(m.bit_count() for m in targets) + (d == EXTRA) == 1:
        return s.legal_actions()[0]
    b = s.b
    enemy_hq = b.hq_mask[1 - seat]
    for troop in range(1, 9):
        win = targets[troop] & enemy_hq
        if win:
            return A.place(troop, (win & -win).bit_length() - 1)
    own = own_mask(s, seat)
    own_en = own_mask(s, 1 - seat)
    en_reach, _ = s.reach(1 - seat, own_en)
    if en_reach & b.hq_mask[seat] and s.rack[1 - seat]:
        block = _blocking(s, s.legal_actions(), rng)
        if block is not None:
            return block
    best, best_v = A.SKIP, -1e9
    if draw:
        rack_n = len(s.rack[seat])
        best, best_v = A.DRAW, (3.0 if rack_n <= 2 else (0.5 if rack_n <= 4 else -2.0)) + rng.random() * 2.5
    node_v = _node_values(s, seat, own, en_reach, _union(targets))
    for troop in range(1, 9):
        m = targets[troop]
        # covering with the least strength that does the job keeps strong tiles for later
        cost = 0.12 * (troop if troop != KWAK else 7)
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            base, medals = node_v[i]
            v = base - cost
            for gain in medals:
                v += gain
            v += rng.random() * 2.5
            if v > best_v:
                best, best_v = A.place(troop, i), v
    if d == EXTRA and 0.0 + rng.random() * 2.5 > best_v:  # skipping Cap'n's extra placement
        best = A.SKIP
    return best


def _union(masks: list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _node_values(s: State, seat: int, own: int, en_reach: int, where: int) -> list[tuple[float, tuple[float, ...]]]:
    """Per node of ``where`` (a placeholder elsewhere), the playout policy's weight of a tile placed
    there before the troop's cost is taken off, and the medal terms added after it: worked out once
    per node, not per troop, and summed in the same order as ever, so the choices stay the same."""
    b = s.b
    bi = info(b)
    steps = bi.steps[seat]
    stacks = s.stacks
    claimed = s.claimed
    regions = bi.regions
    out = [_NOWHERE] * b.size
    while where:
        low = where & -where
        where ^= low
        i = low.bit_length() - 1
        st = stacks[i]
        v = 1.0 - 0.35 * steps[i]
        if st:
            if st[-1] >> 4 == seat:
                v -= 2.0  # reinforcing own base: rarely urgent
            else:
                v += 2.5 + (1.5 if en_reach >> i & 1 else 0.0)  # capture, more if on their front
        bit = 1 << i
        medals = []
        for k in b.regions_of[i]:
            if claimed[k] < 0:
                _, m, mask = regions[k]
                if (own | bit) & mask == mask:
                    medals.append(4.0 * m + 1.0)
        out[i] = (v, tuple(medals))
    return out


_NOWHERE: tuple[float, tuple[float, ...]] = (0.0, ())


def _blocking(s: State, legal: list[int], rng: random.Random) -> int | None:
    """A placement after which the opponent no longer reaches our H.Q. (None if there is none)."""
    seat = s.turn
    opts = []
    for a in legal:
        if A.PLACE <= a < A.PLACE_END:
            t = _after(s, a)
            if t.over:
                return a
            reach, _ = t.reach(1 - seat, own_mask(t, 1 - seat))
            if not reach & t.b.hq_mask[seat]:
                opts.append(a)
    if not opts:
        return None
    # among blocks, the weakest tile
    return min(opts, key=lambda a: ((a - A.PLACE) >> 5, rng.random()))


def _side_decision(s: State, d: int, legal: list[int], rng: random.Random) -> int:
    seat = s.turn
    if d in (SKULLY_DRAW, STAR_DRAW, RAINBOW_DRAW):
        return A.USE if s.hand_size(seat) <= 5 else A.SKIP
    if d in (XB_USE, LAY_USE):
        return A.USE
    if d in (JUMBO_TARGET, SHOVE):
        return max(legal, key=lambda a: (a != A.SKIP, rng.random()))
    if d == RECOVER:
        return max(legal)  # the strongest troop (Kwak counts highest)
    if d == RECALL:
        return A.SKIP
    return rng.choice(legal)


# ------------------------------------------------------------------ explanations
#
# A hint's reason is a few short parts joined by "; ", each in the game's own words (medals, regions, bases,
# the H.Q., a path, a capture, a troop's effect) and each a message of its own (a Said: the catalogues'
# "hint.*" ids of toybattle.said), so that the app says it in the page's language.

def explain(s: State, a: int) -> str:
    """A short reason for action ``a`` of the seat to move, in the game's words:
    what it does, then why ("place Roxy on base 18: covers the enemy Hook on base 18; ...")."""
    return Said("hint.explain", what=A.describe(a, s.b), why=why(s, a))


def why(s: State, a: int) -> str:
    """Why action ``a`` of the seat to move is worth playing, in the game's words (reasons() joined)."""
    return joined(reasons(s, a))


def reasons(s: State, a: int, most: int = 3) -> list[str]:
    """Why action ``a`` of the seat to move (from its observation ``s``) is worth playing: at most ``most``
    parts, the most telling first (a win alone), then a warning if the opponent can then reach the H.Q.;
    never empty. Reads only ``s`` and the position right after ``a``."""
    seat, enemy = s.actor, 1 - s.actor
    foe = _seat(enemy)
    t = _after(s, a)
    if t.over and t.winner == seat:
        return [Said("hint.win.hq") if t.reason == "hq" else Said("hint.win.medals")]
    parts = _action_parts(s, a, t) + _table_parts(s, t)
    if A.PLACE <= a < A.PLACE_END:
        parts += _effect_parts(s, t)
    if not parts:
        parts = _fallback(s, a, t)
    parts = list(dict.fromkeys(parts))[:most]
    if threatens(t, enemy) and not t.over and t.turn == enemy and not threatens(s, enemy):
        parts.append(Said("hint.thenReach", seat=foe))
    elif threatens(t, enemy) and not t.over and t.turn == enemy:
        parts.append(Said("hint.stillReach", seat=foe))
    return parts


def _action_parts(s: State, a: int, t: State) -> list[str]:
    """What the action itself does for the seat: the capture, the tiles drawn, the troop taken back."""
    seat, enemy = s.actor, 1 - s.actor
    foe = _seat(enemy)
    ids = s.b.ids
    parts: list[str] = []
    if A.PLACE <= a < A.PLACE_END:
        i = a & 31
        st = s.stacks[i]
        if st and st[-1] >> 4 == enemy:
            parts.append(Said("hint.covers", troop=st[-1] & 15, n=ids[i]))
        elif st:
            parts.append(Said("hint.harder", n=ids[i]))
    elif A.JUMBO <= a < A.JUMBO_END:
        i = a - A.JUMBO
        parts.append(Said("hint.removes", troop=s.stacks[i][-1] & 15, n=ids[i]))
    elif A.SHOVE <= a < A.SHOVE_END:
        i = ((a - A.SHOVE) >> 5) & 31
        parts.append(Said("hint.moves", troop=s.stacks[i][-1] & 15, n=ids[i]))
    elif A.RECALL <= a < A.RECALL_END:
        parts.append(Said("hint.recall", troop=s.stacks[a - A.RECALL][-1] & 15))
    elif A.RECOVER <= a < A.RECOVER_END:
        parts.append(Said("hint.recover", troop=a - A.RECOVER))
    elif a == A.DRAW:
        n = s.hand_size(seat)
        parts.append(Said("hint.emptyRack") if n == 0 else Said("hint.fewTiles", n=n) if n <= 3 else
                     Said("hint.drawLater"))
    elif a == A.USE:
        d = s.decision
        drawn = t.hand_size(seat) - s.hand_size(seat)
        if d in (SKULLY_DRAW, STAR_DRAW, RAINBOW_DRAW) and drawn > 0:
            parts.append(Said("hint.drew", n=drawn))
        elif d == XB_USE:
            parts.append(Said("hint.xb", seat=foe))
        elif d == LAY_USE:
            parts.append(Said("hint.tank", seat=foe))
    elif a == A.SKIP:
        d = s.decision
        parts.append(Said("hint.skipExtra") if d == EXTRA else
                     Said("hint.skipDraw") if d in (SKULLY_DRAW, STAR_DRAW, RAINBOW_DRAW) else Said("hint.skipEffect"))
    return parts


def _table_parts(s: State, t: State) -> list[str]:
    """What changes on the table for the seat: medals, paths to either H.Q., regions near completion."""
    seat, enemy = s.actor, 1 - s.actor
    foe = _seat(enemy)
    parts: list[str] = []
    gained = t.medals(seat) - s.medals(seat)
    if gained > 0:
        parts.append(Said("hint.medals", n=gained, m=t.medals(seat), k=s.b.objective[seat]))
    if threatens(s, enemy) and not threatens(t, enemy):
        parts.append(Said("hint.blocks", seat=foe))
    else:
        d_before, d_after = hq_distance(s, enemy), hq_distance(t, enemy)
        if d_after > d_before:
            parts.append(Said("hint.cutsOff", seat=foe) if d_after >= FAR else Said("hint.pushes", seat=foe, n=d_after))
    before, after = hq_distance(s, seat), hq_distance(t, seat)
    if after < before and after < FAR:
        parts.append(Said("hint.threat") if after == 1 else Said("hint.closer", n=after))
    parts += _region_parts(s, t)
    return parts


def _region_parts(s: State, t: State) -> list[str]:
    """Regions the action brings within one base of the seat's medals, or keeps from the opponent's."""
    seat, enemy = s.actor, 1 - s.actor
    parts: list[str] = []
    own_s = [own_mask(s, 0), own_mask(s, 1)]
    own_t = [own_mask(t, 0), own_mask(t, 1)]
    near, spoilt = 0, 0  # the most medals brought within one base, and kept from the opponent
    for k, (bases, medals, mask) in enumerate(info(s.b).regions):
        if t.claimed[k] >= 0 or not medals:
            continue
        if not own_t[enemy] & mask:
            short_s = len(bases) - bin(own_s[seat] & mask).count("1")
            short_t = len(bases) - bin(own_t[seat] & mask).count("1")
            if short_t == 1 and (short_s > 1 or own_s[enemy] & mask):
                near = max(near, medals)
        enemy_short = len(bases) - bin(own_s[enemy] & mask).count("1")
        if own_s[enemy] & mask and enemy_short <= 2 and not own_s[seat] & mask and own_t[seat] & mask:
            spoilt = max(spoilt, medals)
    if spoilt:
        parts.append(Said("hint.spoil", seat=_seat(enemy), n=spoilt))
    if near:
        parts.append(Said("hint.near", n=near))
    return parts


def _effect_parts(s: State, t: State) -> list[str]:
    """The effect the placement opens for the seat (the expert plans its whole turn, effects included)."""
    seat = s.actor
    if t.over or t.turn != seat:
        return []
    foe = _seat(1 - seat)
    then: dict[int, list[str]] = {
        EXTRA: [Said("hint.then.capn")],
        SKULLY_DRAW: [Said("hint.then.skully")],
        STAR_DRAW: [Said("hint.then.star")],
        XB_USE: [Said("hint.then.xb", seat=foe)],
        JUMBO_TARGET: [Said("hint.then.jumbo")],
        RECALL: [Said("hint.then.recall")],
        RAINBOW_DRAW: [Said("hint.then.rainbow")],
        SHOVE: [Said("hint.then.shove")],
        RECOVER: [Said("hint.then.recover")],
        LAY_USE: [Said("hint.then.tank", seat=foe)],
    }
    return then.get(t.decision, [])


def _fallback(s: State, a: int, t: State) -> list[str]:
    """A reason when nothing sharper applies: the base held, or the position kept."""
    seat = s.actor
    if A.PLACE <= a < A.PLACE_END and not s.stacks[a & 31]:
        return [Said("hint.holds", n=bin(own_mask(t, seat)).count("1"))]
    return [Said("hint.keeps")]


def outlook(chance: float, foe: int) -> str:
    """How the game looks for the seat to move after seat ``foe``'s best reply, in words, from a search's mean
    win chance (the expert's, over its guesses of the hidden tiles): words, not a figure to misread."""
    who = _seat(foe)
    if chance >= 0.75:
        return Said("hint.lead", seat=who)
    if chance >= 0.58:
        return Said("hint.ahead", seat=who)
    if chance > 0.42:
        return Said("hint.close", seat=who)
    if chance > 0.25:
        return Said("hint.behind", seat=who)
    return Said("hint.farBehind", seat=who)


def _seat(seat: int) -> str:
    """A seat's name as the app writes it in a sentence ("Blue", "Red")."""
    return SEATS[seat].capitalize()
