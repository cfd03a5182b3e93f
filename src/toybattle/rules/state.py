"""The game state and every rule that changes it.

A ``State`` is one moment of a game: the stacks, both racks, reserves and
set-aside tiles, the discard, the claimed regions and the decision now due.
Any tile may be unknown (troop 0) to the holder of the state, so the same type
serves the referee, a seat's observation, a bot's determinization and a peer.

Every choice the rules give a player is an action listed by ``legal_actions``;
random picks (XB-42, Battlefield) are explicit chance nodes whose outcomes are
listed by ``chance_outcomes``. Draws take the top of the reserve, whose order
was fixed by the setup shuffle, so a game is replayed exactly from the tile
orders and its actions.

Actions are ints (see ``actions.py``); connection and legal slots are derived
with bitmasks from occupancy masks (which nodes each seat and each tile tops) that
``set_stack`` keeps in step with the stacks. The only thing kept between actions is
each seat's last connection search (``reached``), a cache keyed by the bases it
was made for, so it can never disagree with the board.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from toybattle.said import Said

from . import actions as A
from .terrain import Board, Terrain, board
from .troops import (
    BLUE,
    CAPN,
    HOOK,
    JUMBO,
    KWAK,
    OPENING_RACK,
    RACK_LIMIT,
    RED,
    SEATS,
    SET_ASIDE,
    SKULLY,
    STAR,
    TROOPS,
    UNKNOWN,
    XB42,
    full_army,
    shuffled_army,
)

# What the current decision is about (Final: the compiled build inlines them).
TURN: Final = 0
EXTRA: Final = 1
SKULLY_DRAW: Final = 2
STAR_DRAW: Final = 3
XB_USE: Final = 4
JUMBO_TARGET: Final = 5
RECALL: Final = 6
RAINBOW_DRAW: Final = 7
SHOVE: Final = 8
RECOVER: Final = 9
LAY_USE: Final = 10
XB_PICK: Final = 11
LAY_PICK: Final = 12
OVER: Final = 13
CHANCE_DECISIONS: Final = (XB_PICK, LAY_PICK)
BASE_DECISIONS: Final = (RECALL, RAINBOW_DRAW, SHOVE, RECOVER, LAY_USE)
NODE_DECISIONS: Final = (JUMBO_TARGET, RECALL, RAINBOW_DRAW, SHOVE, RECOVER, LAY_USE, LAY_PICK)  # about a node

DECISION_NAMES = {
    TURN: "turn", EXTRA: "capn_extra", SKULLY_DRAW: "skully_draw", STAR_DRAW: "star_draw", XB_USE: "xb42_use",
    JUMBO_TARGET: "jumbo_target", RECALL: "castle_recall", RAINBOW_DRAW: "clouds_draw", SHOVE: "jungle_shove",
    RECOVER: "cemetery_recover", LAY_USE: "battlefield_use", XB_PICK: "xb42_pick", LAY_PICK: "battlefield_pick",
    OVER: "over",
}
_POWER_DECISION: dict[str | None, int] = {
    "recall": RECALL, "draw": RAINBOW_DRAW, "shove": SHOVE, "recover": RECOVER, "lay_down": LAY_USE,
}

# How a game ended.
HQ, MEDALS, STUCK, CONCEDED, TIME = "hq", "medals", "stuck", "conceded", "time"
ENDINGS = (HQ, MEDALS, STUCK, CONCEDED, TIME)  # conceded and time: ended by a player or a clock, not by the rules


def _place_chunks() -> tuple[tuple[int, ...], ...]:
    """At ``troop << 10 | k << 8 | byte``: the placements of ``troop`` that ``byte`` of a target mask
    stands for (nodes 8k to 8k + 7), ascending. Listing placements then costs one step per byte of
    the mask instead of one per node, which is where the engine spends most of its time."""
    return tuple(tuple(A.PLACE + (troop << 5) + 8 * k + j for j in range(8) if byte >> j & 1)
                 for troop in range(9) for k in range(4) for byte in range(256))


_PLACE_CHUNKS: Final = _place_chunks()


def nodes_in(mask: int) -> list[int]:
    """The node indices in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def deal(seed: random.Random | int | None) -> tuple[int, list[list[int]]]:
    """The first player and both tile orders (first 4 set aside, then the reserve from the top)
    that ``seed`` shuffles: what a record's ``seed N`` line stands for. Given a generator (the
    app deals from ``random.SystemRandom``), it deals from that instead."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    orders = [shuffled_army(seat, rng) for seat in (BLUE, RED)]
    return rng.randrange(2), orders


def unanswered(s: State, action: int) -> bool:
    """Replaying a record: True if ``action`` (a draw or a placement) belongs to the next turn while a
    special-base effect is still due, i.e. the record declined that effect by going on. Records made
    while a base acted only once per turn (before issue 15) read so: the replay skips the effect."""
    return s.decision in BASE_DECISIONS and (action == A.DRAW or A.PLACE <= action < A.PLACE_END)


class IllegalAction(ValueError):
    """An action the rules refuse now; the message names the rule."""


class State:
    """One moment of a game of Toy Battle. Mutated by ``apply``; copy with ``copy``."""

    __slots__ = (
        "aside",
        "b",
        "claimed",
        "decision",
        "discard",
        "dnode",
        "first",
        "laid",
        "owned",
        "ply",
        "public",
        "queue",
        "rack",
        "reached",
        "reason",
        "reserve",
        "stacks",
        "topped",
        "turn",
        "winner",
    )

    b: Board
    stacks: list[tuple[int, ...]]  # per node index, bottom -> top; change one only with set_stack
    owned: list[int]  # per seat, the nodes it tops: kept by set_stack so no move scans the board
    topped: list[int]  # per tile (seat << 4 | troop), the nodes it tops
    rack: list[list[int]]  # per seat, standing tiles, sorted
    laid: list[list[int]]  # per seat, tiles laid face down by Battlefield (still on the rack)
    reserve: list[list[int]]  # per seat, top of the reserve is the END of the list
    aside: list[list[int]]  # per seat, the 4 tiles set aside unseen at setup
    public: list[list[int]]  # per seat, tiles on its rack that the opponent saw arrive there
    discard: list[int]
    claimed: list[int]  # per region: the seat that took its medals, or -1
    first: int
    turn: int  # the seat whose turn it is
    decision: int
    dnode: int  # the node the current decision is about (Jumbo, special base), or -1
    queue: list[tuple[int, int]]  # placements on special bases this turn, effect still due: (node, height then)
    winner: int
    reason: str
    ply: int
    reached: list[tuple[int, int, int]]  # per seat, the last connection search: (own bases, reach, connected)

    # ---------------------------------------------------------------- setup

    @classmethod
    def new(cls, terrain: str = "castle", first_game: bool = False, first: int | None = None,
            orders: Sequence[Sequence[int]] | None = None, seed: int | None = None) -> State:
        """A new game. ``orders[seat]`` lists that seat's 24 tiles: the first 4 are set aside,
        the rest is the reserve from the top down. Missing parts are drawn from ``seed``."""
        dealt: list[list[int]] | None = None
        if orders is None or first is None:
            dealt_first, dealt = deal(seed)
            orders = dealt if orders is None else orders
            first = dealt_first if first is None else first
        s = cls.empty(terrain, first_game)
        for seat in (BLUE, RED):
            order = list(orders[seat])
            if orders is not dealt and sorted(order) != full_army(seat):  # a deal is a full army
                raise IllegalAction(f"{SEATS[seat]}'s tile order must hold exactly the 24 tiles of that army")
            s.aside[seat] = order[:SET_ASIDE]
            s.reserve[seat] = order[SET_ASIDE:][::-1]
        s.first = first
        for seat in (BLUE, RED):
            s._draw(seat, OPENING_RACK[0] if seat == first else OPENING_RACK[1])
        s._start_turn(first)
        return s

    def __init__(self, b: Board) -> None:
        """An empty board ``b`` with empty racks and reserves, blue to play (``new`` deals a game)."""
        self.b = b
        self.stacks = [()] * b.size
        self.owned = [0, 0]
        self.topped = [0] * 32
        self.rack, self.laid, self.reserve, self.aside, self.public = [[], []], [[], []], [[], []], [[], []], [[], []]
        self.discard = []
        self.claimed = [-1] * len(b.regions)
        self.first = BLUE
        self.turn = BLUE
        self.decision = TURN
        self.dnode = -1
        self.queue = []
        self.winner = -1
        self.reason = ""
        self.ply = 0
        self.reached = [(-1, 0, 0), (-1, 0, 0)]

    @classmethod
    def empty(cls, terrain: str = "castle", first_game: bool = False) -> State:
        """An empty board with empty racks and reserves, blue to play (for building positions)."""
        return cls(board(terrain, first_game))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled field by field (the compiled build's native class has no pickling of its own): how a
        state, or an observation, crosses to a bot worker; the board goes as its name (Board.__reduce__)."""
        return _restore, (self.b, {field: getattr(self, field) for field in _FIELDS})

    def copy(self) -> State:
        s = State(self.b)
        s.stacks = self.stacks[:]
        s.owned = self.owned[:]
        s.topped = self.topped[:]
        s.rack = [self.rack[0][:], self.rack[1][:]]
        s.laid = [self.laid[0][:], self.laid[1][:]]
        s.reserve = [self.reserve[0][:], self.reserve[1][:]]
        s.aside = [self.aside[0][:], self.aside[1][:]]
        s.public = [self.public[0][:], self.public[1][:]]
        s.discard = self.discard[:]
        s.claimed = self.claimed[:]
        s.first, s.turn, s.decision, s.dnode = self.first, self.turn, self.decision, self.dnode
        s.queue = self.queue[:]
        s.winner, s.reason, s.ply = self.winner, self.reason, self.ply
        s.reached = self.reached[:]
        return s

    def set_stack(self, i: int, tiles: tuple[int, ...]) -> None:
        """Put ``tiles`` (bottom -> top) on node index ``i``, keeping the occupancy masks."""
        bit = 1 << i
        old = self.stacks[i]
        topped, owned = self.topped, self.owned
        if old:
            t = old[-1]
            topped[t] &= ~bit
            owned[t >> 4] &= ~bit
        if tiles:
            t = tiles[-1]
            topped[t] |= bit
            owned[t >> 4] |= bit
        self.stacks[i] = tiles

    def _fields(self) -> tuple[object, ...]:
        """Everything but the board, for comparing states (compiled classes have no ``__slots__`` to walk)."""
        return (self.stacks, self.rack, self.laid, self.reserve, self.aside, self.public, self.discard, self.claimed,
                self.first, self.turn, self.decision, self.dnode, self.queue, self.winner, self.reason, self.ply)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.b is other.b and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, so unhashable

    # ------------------------------------------------------------ derived facts

    @property
    def terrain(self) -> Terrain:
        return self.b.terrain

    @property
    def first_game(self) -> bool:
        return self.b.first_game

    @property
    def over(self) -> bool:
        return self.decision == OVER

    @property
    def is_chance(self) -> bool:
        d = self.decision
        return d == XB_PICK or d == LAY_PICK  # CHANCE_DECISIONS, spelt out: asked at every ply

    @property
    def actor(self) -> int:
        """The seat that decides now; -1 for a chance node or a finished game."""
        return -1 if self.decision in (XB_PICK, LAY_PICK, OVER) else self.turn

    def top(self, i: int) -> int:
        st = self.stacks[i]
        return st[-1] if st else -1

    def owner(self, i: int) -> int:
        """The seat whose tile is on top of node index ``i``, or -1."""
        st = self.stacks[i]
        return st[-1] >> 4 if st else -1

    def medals(self, seat: int) -> int:
        regions = self.b.regions
        total = 0
        for k, s in enumerate(self.claimed):  # a plain loop: a generator costs a frame switch per region
            if s == seat:
                total += regions[k][1]
        return total

    def hand_size(self, seat: int) -> int:
        return len(self.rack[seat]) + len(self.laid[seat])

    def connected(self, seat: int) -> int:
        """Bitmask of the bases joined to one of ``seat``'s H.Q. through its own visible tiles."""
        return self.reach(seat, self._own(seat))[1]

    def _own(self, seat: int) -> int:
        """Bitmask of the bases ``seat``'s tiles top."""
        return self.owned[seat] & self.b.base_mask

    def reach(self, seat: int, own: int) -> tuple[int, int]:
        """(nodes one path away from the connected network, connected own bases). The last answer per
        seat is kept: between two listings a seat's own bases mostly stay the same (about half the time
        in random games) or only grow, and the search is a good part of every listing."""
        last_own, reach, seen = self.reached[seat]
        if last_own == own:
            return reach, seen
        if last_own & ~own == 0:  # bases only gained (last_own >= 0): the network can only grow, and
            new = own & ~last_own & reach  # only through a gained base next to it
        else:
            reach = self.b.hq_adj[seat]
            new = reach & own
            seen = 0
        seen |= new
        adj = self.b.adj
        while new:  # flood through own bases, one bit at a time, each joined base once
            low = new & -new
            new ^= low
            a = adj[low.bit_length() - 1]
            reach |= a
            more = a & own & ~seen
            seen |= more
            new |= more
        self.reached[seat] = (own, reach, seen)
        return reach, seen

    def can_draw(self, seat: int) -> bool:
        """May ``seat`` draw now (tiles left in its reserve, room on its rack)?"""
        if not self.reserve[seat]:
            return False
        return len(self.rack[seat]) + len(self.laid[seat]) < RACK_LIMIT

    def _can_place(self, seat: int) -> bool:
        rack = self.rack[seat]
        if not rack:
            return False
        return self._may_place(seat) or (UNKNOWN in (t & 15 for t in rack))

    def _may_place(self, seat: int) -> bool:
        """Has ``seat`` a placement from the tiles it knows? Any troop may cover its own tile on a base
        joined to its H.Q., if that base allows the troop: that mostly settles it without working out
        every target. (The stuck check at the start of a turn asks it.)"""
        joined = self.connected(seat)
        allowed = self.b.allowed
        for t in self.rack[seat]:
            if t & 15 and allowed[t & 15] & joined:
                return True
        return any(self.placement_targets(seat))

    # ------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[int]:
        """Every action open to the deciding seat (or every chance outcome at a chance node)."""
        d = self.decision
        seat = self.turn
        if d == TURN:
            out = [A.DRAW] if self.can_draw(seat) else []
            self.placement_targets(seat, out)
            return out
        if d == EXTRA:
            out = []
            self.placement_targets(seat, out)
            out.append(A.SKIP)
            return out
        if d in (SKULLY_DRAW, STAR_DRAW, XB_USE, RAINBOW_DRAW, LAY_USE):
            return [A.USE, A.SKIP]
        if d == JUMBO_TARGET:
            return [A.JUMBO + i for i in nodes_in(self._jumbo_targets(self.dnode))] + [A.SKIP]
        if d == RECALL:
            return [A.RECALL + i for i in nodes_in(self._recall_targets(self.dnode))] + [A.SKIP]
        if d == SHOVE:
            return [A.SHOVE + (i << 5) + j for i, j in self._shoves(self.dnode)] + [A.SKIP]
        if d == RECOVER:
            return [A.RECOVER + t for t in self._recoverable(seat)] + [A.SKIP]
        if d in CHANCE_DECISIONS:
            return [a for a, _ in self.chance_outcomes()]
        return []

    def placement_targets(self, seat: int, listing: list[int] | None = None) -> list[int]:
        """Per troop (0 to 8), the nodes where ``seat`` may place one from its rack now, as a bitmask
        over node indices (0 for a troop not on the rack): the placements ``legal_actions`` lists,
        for a reader that weighs them node by node (Hook's waiver included). Given ``listing``, it
        also appends those placements to it as actions, in the order ``legal_actions`` lists them."""
        out = [0] * 9
        rack = self.rack[seat]
        if not rack:
            return out
        b = self.b
        bases = b.base_mask
        topped = self.topped
        enemy = (1 - seat) << 4  # the enemy's tile of troop t is enemy | t
        reach = self.reach(seat, self.owned[seat] & bases)[0] & ~b.hq_mask[seat]
        # Open to any troop: the bases no enemy tile tops, the enemy H.Q. and bases topped by an enemy
        # Kwak. (An enemy tile tops nothing else than bases, or this seat's own H.Q. once it is taken,
        # and ``reach`` leaves that out: so the enemy's masks need no "& bases" below.)
        free = (bases & ~self.owned[1 - seat]) | b.hq_mask[1 - seat] | topped[enemy | KWAK]
        allowed = b.allowed
        weaker = 0  # enemy-topped bases of the troops below ``above``: what the current troop covers
        above = 1
        last = UNKNOWN  # the rack is sorted: one mask per troop; unknown tiles (0) cannot be placed
        for t in rack:
            troop = t & 15
            if troop == last:
                continue
            last = troop
            while above < troop:  # (Kwak, 8, covers all seven, and is covered by all)
                weaker |= topped[enemy | above]
                above += 1
            m = (free | weaker) & allowed[troop]
            if troop == HOOK:  # its waiver: any base but a laser one, connected or not
                m &= reach | (bases & ~b.nullify_mask)
            else:
                m &= reach
            out[troop] = m
            if listing is not None:
                key = troop << 10
                while m:  # whole bytes of the mask at a time (see _PLACE_CHUNKS)
                    if m & 255:
                        listing += _PLACE_CHUNKS[key | (m & 255)]
                    m >>= 8
                    key += 256
        return out

    # Jumbo's and the tower's targets as node masks: the rules mostly ask only whether there are any.
    def _jumbo_targets(self, at: int) -> int:
        return self.b.adj[at] & self.owned[1 - self.turn]

    def _recall_targets(self, tower: int) -> int:
        if self.hand_size(self.turn) >= RACK_LIMIT:
            return 0
        return self.owned[self.turn] & self.b.base_mask & ~(1 << tower)

    def _shoves(self, bridge: int) -> list[tuple[int, int]]:
        enemy = 1 - self.turn
        b = self.b
        out = []
        for i in b.neighbours[bridge]:
            st = self.stacks[i]
            if st and st[-1] >> 4 == enemy and i in b.bases:
                out += [(i, j) for j in b.neighbours[i] if (b.base_mask >> j) & 1]
        return out

    def _recoverable(self, seat: int) -> list[int]:
        if self.hand_size(seat) >= RACK_LIMIT:
            return []
        return sorted({t & 15 for t in self.discard if t >> 4 == seat})

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: (outcome action, probability). XB-42 picks any rack tile, laid ones
        included; Battlefield picks a standing one. An outcome names the troop (and 'laid')."""
        victim = 1 - self.turn
        if self.decision == XB_PICK:
            pool = [(t & 15, 0) for t in self.rack[victim]] + [(t & 15, 1) for t in self.laid[victim]]
        elif self.decision == LAY_PICK:
            pool = [(t & 15, 0) for t in self.rack[victim]]
        else:
            return []
        counts: dict[tuple[int, int], int] = {}
        for key in pool:
            counts[key] = counts.get(key, 0) + 1
        n = len(pool)
        return [(A.PICK + (laid << 4) + troop, c / n) for (troop, laid), c in sorted(counts.items())]

    def sample_chance(self, rng: random.Random) -> int:
        victim = 1 - self.turn
        pool = self.rack[victim] + (self.laid[victim] if self.decision == XB_PICK else [])
        k = rng.randrange(len(pool))
        laid = 1 if k >= len(self.rack[victim]) else 0
        return A.PICK + (laid << 4) + (pool[k] & 15)

    def resolve_chance(self, rng: random.Random, play: Callable[[int], None] | None = None) -> None:
        """Draw chance outcomes from ``rng`` and play them until a seat decides or the game ends.
        ``play`` plays each one (default ``apply_unchecked``: an outcome drawn here is legal); a
        referee passes its own to record them."""
        play = play or self.apply_unchecked
        while self.is_chance:
            play(self.sample_chance(rng))

    # ------------------------------------------------------------ applying

    def apply(self, action: int) -> None:
        """Play ``action`` (an int from ``legal_actions``); raise IllegalAction and change nothing if refused."""
        reason = self.refusal(action)
        if reason:
            raise IllegalAction(reason)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: int) -> None:
        """Play an action already known to be legal (bots and playouts)."""
        self.ply += 1
        seat = self.turn
        if A.PLACE <= action < A.PLACE_END:  # the most frequent action first
            troop, i = (action - A.PLACE) >> 5, action & 31
            self._take(self.rack[seat], (seat << 4) | troop)
            self._place(seat, troop, i)
        elif action == A.DRAW:
            self._draw(seat, 2)
            self._end_turn()
        elif action == A.SKIP:
            self._next_base_effect()
        elif action == A.USE:
            d = self.decision
            if d == SKULLY_DRAW:
                self._draw(seat, 2)
            elif d in (STAR_DRAW, RAINBOW_DRAW):
                self._draw(seat, 1)
            elif d == XB_USE:
                self.decision = XB_PICK
                return
            elif d == LAY_USE:
                self.decision = LAY_PICK
                return
            self._next_base_effect()
        elif A.PICK <= action < A.PICK_END:
            self._picked(1 - seat, action & 15, (action - A.PICK) >> 4)
        elif A.JUMBO <= action < A.JUMBO_END:
            i = action - A.JUMBO
            self.discard.append(self.stacks[i][-1])
            self.set_stack(i, self.stacks[i][:-1])
            if not (self._claim(i) and self._medal_win()):
                self._next_base_effect()
        elif A.RECALL <= action < A.RECALL_END:
            i = action - A.RECALL
            t = self.stacks[i][-1]
            self.set_stack(i, self.stacks[i][:-1])
            self._to_rack(seat, t, public=True)
            if not (self._claim(i) and self._medal_win()):
                self._next_base_effect()
        elif A.SHOVE <= action < A.SHOVE_END:
            i, j = ((action - A.SHOVE) >> 5) & 31, action & 31
            t = self.stacks[i][-1]
            self.set_stack(i, self.stacks[i][:-1])
            self.set_stack(j, self.stacks[j] + (t,))
            took = self._claim(i)
            if not ((self._claim(j) or took) and self._medal_win()):
                self._next_base_effect()
        elif A.RECOVER <= action < A.RECOVER_END:
            t = (seat << 4) | (action - A.RECOVER)
            self.discard.remove(t)
            self._to_rack(seat, t, public=True)
            self._next_base_effect()

    def _draw(self, seat: int, n: int) -> None:
        reserve = self.reserve[seat]
        rack = self.rack[seat]
        n = min(n, len(reserve), RACK_LIMIT - len(rack) - len(self.laid[seat]))
        for _ in range(n):
            rack.append(reserve.pop())
        rack.sort()

    def _to_rack(self, seat: int, t: int, public: bool) -> None:
        self.rack[seat].append(t)
        self.rack[seat].sort()
        if public:
            self.public[seat].append(t)
            self.public[seat].sort()

    def _take(self, zone: list[int], t: int) -> None:
        """Tile ``t`` leaves ``zone`` (its owner's standing or laid tiles) in plain view: an unknown tile
        there is revealed as ``t``, and one seen copy of ``t`` is forgotten (which one left is unknown)."""
        zone.remove(t if t in zone else t & ~15)  # t & ~15: its owner's unknown tile
        public = self.public[t >> 4]
        if t in public:
            public.remove(t)

    def _place(self, seat: int, troop: int, i: int) -> None:
        b = self.b
        self.set_stack(i, self.stacks[i] + ((seat << 4) | troop,))
        if (b.hq_mask[1 - seat] >> i) & 1:
            self._finish(seat, HQ)
            return
        if self._claim(i) and self._medal_win():
            return
        if (b.effect_mask >> i) & 1:  # a special base that acts after the placement
            self.queue.append((i, len(self.stacks[i])))
        if (b.nullify_mask >> i) & 1:
            self._next_base_effect()
            return
        self._troop_effect(seat, troop, i)

    def _troop_effect(self, seat: int, troop: int, i: int) -> None:
        if troop in (SKULLY, STAR):
            if self.can_draw(seat):
                self.decision = SKULLY_DRAW if troop == SKULLY else STAR_DRAW
                return
        elif troop == CAPN:
            # Offered whenever a tile stands on the rack: how many do is public, which ones are not, so
            # whether one of them can be placed must not decide it (the opponent, a spectator and their
            # bots would learn it from the decision). With none placeable, skipping is the one choice.
            if self.rack[seat]:
                self.decision = EXTRA
                return
        elif troop == JUMBO:
            if self._jumbo_targets(i):
                self.decision, self.dnode = JUMBO_TARGET, i
                return
        elif troop == XB42 and self.hand_size(1 - seat):
            self.decision = XB_USE
            return
        if self.queue:
            self._next_base_effect()
        else:  # (the usual case: no special base acts, the turn ends)
            self._end_turn()

    def _next_base_effect(self) -> None:
        """Troop effects are over: each placement on a special base this turn gives one effect, in the
        order of the placements, so a base placed on twice acts twice (covering your own tile there too)."""
        seat = self.turn
        while self.queue:
            i, height = self.queue.pop(0)
            st = self.stacks[i]
            if len(st) < height or st[height - 1] >> 4 != seat:
                continue  # a tower took that tile back before its base acted: the effect is cancelled
            d = _POWER_DECISION[self.b.power[i]]
            possible = (
                (d == RECALL and self._recall_targets(i)) or
                (d == RAINBOW_DRAW and self.can_draw(seat)) or
                (d == SHOVE and self._shoves(i)) or
                (d == RECOVER and self._recoverable(seat)) or
                (d == LAY_USE and self.rack[1 - seat])
            )
            if possible:
                self.decision, self.dnode = d, i
                return
        self._end_turn()

    def _picked(self, victim: int, troop: int, laid: int) -> None:
        t = (victim << 4) | troop
        if self.decision == XB_PICK:
            self._take(self.laid[victim] if laid else self.rack[victim], t)
            self.discard.append(t)
            self._next_base_effect()
        else:
            rack = self.rack[victim]
            rack.remove(t if t in rack else victim << 4)
            self.laid[victim].append(t)
            self.laid[victim].sort()
            self._next_base_effect()

    def _claim(self, i: int) -> bool:
        """Claim every region a change at node index ``i`` completed; True if it claimed any. Such a
        region holds ``i``, so only the seat that now tops ``i`` can have completed one."""
        st = self.stacks[i]
        if not st:
            return False
        seat = st[-1] >> 4
        held = self.owned[seat]
        region_mask = self.b.region_mask
        claimed = self.claimed
        took = False
        for k in self.b.regions_of[i]:
            mask = region_mask[k]
            if held & mask == mask and claimed[k] < 0:
                claimed[k] = seat
                took = True
        return took

    def _medal_win(self) -> bool:
        """After a claim: end the game if a seat reached its objective (the acting seat first, rules.md
        ruling 24); True if that happened."""
        for seat in (self.turn, 1 - self.turn):
            if self.medals(seat) >= self.b.objective[seat]:
                self._finish(seat, MEDALS)
                return True
        return False

    def _end_turn(self) -> None:
        seat = self.turn
        if self.laid[seat]:  # Battlefield: laid tiles stand up at the end of their owner's turn
            self.rack[seat] += self.laid[seat]
            self.rack[seat].sort()
            self.laid[seat] = []
        self._start_turn(1 - seat)

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self.decision = TURN
        self.dnode = -1
        if self.queue:  # (emptied already after most turns: no new list each turn)
            self.queue = []
        if not self.can_draw(seat) and not self._can_place(seat):
            m, o = self.medals(seat), self.medals(1 - seat)
            self._finish(seat if m > o else 1 - seat, STUCK)

    def _finish(self, winner: int, reason: str) -> None:
        self.winner = winner
        self.reason = reason
        self.decision = OVER
        self.dnode = -1
        self.queue = []

    def reveal(self, seat: int, zone: str, troops: Sequence[int]) -> None:
        """Give faces to unknown tiles of ``seat``'s ``zone`` ("rack", "laid" or "aside"), e.g. when a
        peer learns its own draws or a rack is opened at the end; IllegalAction if they do not fit."""
        tiles = getattr(self, zone)[seat]
        unknown = seat << 4
        if zone not in ("rack", "laid", "aside") or tiles.count(unknown) < len(troops):
            raise IllegalAction(f"cannot reveal {len(troops)} tiles in {SEATS[seat]}'s {zone}")
        for troop in troops:
            tiles.remove(unknown)
            tiles.append(unknown | troop)
        tiles.sort()

    def recheck_stuck(self) -> None:
        """Re-run the start-of-turn stuck check (after unknown rack tiles were revealed)."""
        if self.decision == TURN:
            self._start_turn(self.turn)

    def concede(self, seat: int) -> None:
        """``seat`` gives up: the other seat wins."""
        if not self.over:
            self._finish(1 - seat, CONCEDED)

    def out_of_time(self, seat: int) -> None:
        """``seat``'s clock ran out (a game with a time control): the other seat wins."""
        if not self.over:
            self._finish(1 - seat, TIME)

    # ------------------------------------------------------------ refusals

    def refusal(self, action: int) -> str:
        """Why ``action`` is refused now, in the game's words (a Said: its English as a str); '' if it is legal."""
        if self.over:
            return Said("refused.over")
        legal = self.legal_actions()
        if action in legal:
            return ""
        d = self.decision
        if A.PLACE <= action < A.PLACE_END and d in (TURN, EXTRA):
            return self._placement_refusal((action - A.PLACE) >> 5, action & 31)
        if action == A.DRAW:
            if d != TURN:
                return Said("refused.drawWhole")
            return Said("refused.rackFull", n=RACK_LIMIT) if self.reserve[self.turn] else Said("refused.reserveEmpty")
        if A.JUMBO <= action < A.JUMBO_END and d == JUMBO_TARGET:
            return Said("refused.jumbo", troop=JUMBO)
        if A.RECALL <= action < A.RECALL_END and d == RECALL:
            return Said("refused.tower")
        if A.SHOVE <= action < A.SHOVE_END and d == SHOVE:
            return Said("refused.bridge")
        if A.RECOVER <= action < A.RECOVER_END and d == RECOVER:
            return Said("refused.recover")
        return Said("refused.decision", what=self.describe_decision())

    def _placement_refusal(self, troop: int, i: int) -> str:
        seat = self.turn
        b = self.b
        if i >= b.size or not 1 <= troop <= 8:
            return Said("refused.noSuch")
        if ((seat << 4) | troop) not in self.rack[seat]:
            if ((seat << 4) | troop) in self.laid[seat]:
                return Said("refused.laid", troop=troop)
            return Said("refused.notOnRack", troop=troop)
        if (b.hq_mask[seat] >> i) & 1:
            return Said("refused.ownHq")
        node = b.terrain.nodes[i]
        if not (b.allowed[troop] >> i) & 1:
            return Said("refused.only", troops=tuple(t for t in TROOPS if t in (node.allowed or ())), n=node.id)
        top = self.top(i)
        if top >= 0 and top >> 4 != seat and node.kind == "base" and troop != KWAK and (top & 15) != KWAK \
                and troop <= (top & 15):
            return Said("refused.weak", troop=top & 15)
        if troop == HOOK and node.kind == "base" and (b.nullify_mask >> i) & 1:
            return Said("refused.noPathLaser", troop=HOOK)
        if troop == HOOK and node.kind == "hq":
            return Said("refused.noPathHq", troop=HOOK)
        return Said("refused.noPath")

    # ------------------------------------------------------------ descriptions

    def describe_decision(self) -> str:
        """What is being decided now, in words (a Said: its English as a str)."""
        d = self.decision
        who = SEATS[self.turn]
        node = self.b.ids[self.dnode] if self.dnode >= 0 else 0
        if d == OVER:
            return Said("decision.won", seat=SEATS[self.winner], why=self.reason) if self.winner >= 0 \
                else Said("decision.over")
        if d in (XB_PICK, LAY_PICK):
            return Said("decision.xbPick" if d == XB_PICK else "decision.tankPick")
        key = {TURN: "decision.turn", EXTRA: "decision.extra", SKULLY_DRAW: "decision.skully",
               STAR_DRAW: "decision.star", XB_USE: "decision.xb"}.get(d)
        if key:
            return Said(key, seat=who)
        key = {JUMBO_TARGET: "decision.jumbo", RECALL: "decision.recall", RAINBOW_DRAW: "decision.rainbow",
               SHOVE: "decision.shove", RECOVER: "decision.recover", LAY_USE: "decision.tank"}[d]
        return Said(key, seat=who, n=node)


# State.__slots__ but the board (the compiled build reads no __slots__ at run time)
_FIELDS: Final = ("aside", "claimed", "decision", "discard", "dnode", "first", "laid", "owned", "ply", "public",
                  "queue", "rack", "reached", "reason", "reserve", "stacks", "topped", "turn", "winner")


def _restore(b: Board, fields: dict[str, Any]) -> State:
    """A pickled state back (State.__reduce__)."""
    s = State(b)
    for field, value in fields.items():
        setattr(s, field, value)
    return s
