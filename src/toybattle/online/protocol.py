"""The fair-play protocol between two peers that trust nothing but the rules (docs/fair-play.md).

Pure logic, no I/O: a ``Match`` is one peer's side of a game. It holds

- ``public``: the game as anyone watching the table knows it (a rules ``State`` in which
  every rack, reserve and set-aside tile is unknown unless the rules have shown it);
- ``zone``: where each of the 48 committed tile slots is (undrawn, rack, laid or open);
- its own ``Secrets`` (the shuffled faces and salts of its 24 slots, its randomness chain);
- ``log``: every message of the game, each chained to the one before by SHA-256.

Every message, its own included, goes through ``accept``, which checks it against the
commitments and the rules and raises ``Forfeit`` (naming the seat at fault and why) if it
does not hold. The peer's private view is derived: ``mine()`` is ``public`` with its own
hidden faces filled in.
"""
from __future__ import annotations

import hashlib
import json
import random
import secrets as _secrets
from collections import Counter
from dataclasses import dataclass
from typing import Any

from toybattle.said import Said, of_error

from .. import bounded
from ..clocks import Clocks
from ..rules import SEATS, IllegalAction, State, action_text, observation, parse_action
from ..rules import actions as A
from ..rules.state import TURN, XB_PICK
from ..rules.troops import COPIES, TROOPS, full_army, shuffled_army

PROTOCOL = 2  # 2: a special base acts once per placement (docs/rulings.md); peers on 1 would disagree
SLOTS = 24
CHAIN = 4096  # random events a game may use (a long game uses about a hundred)
UNDRAWN, RACK, LAID, OPEN = "undrawn", "rack", "laid", "open"
MAX_CHAINED = 4096  # characters of one chained message (the largest, a commit, is under 2,000)
MAX_REASON = 300  # characters of a forfeit reason
# the only fields each chained message may carry (besides n, prev, by and t)
FIELDS: dict[str, frozenset[str]] = {
    "commit": frozenset({"tiles", "anchor", "r"}), "rand": frozenset({"r", "open"}),
    "act": frozenset({"a", "open", "r"}), "stuck": frozenset({"open"}), "concede": frozenset(),
    "open": frozenset({"tiles"})}
HEAD = frozenset({"n", "prev", "by", "t"})
MAX_DEPTH = 4  # bracket levels of a chained message (the deepest, a stuck's list of openings, has 3)
MAX_ACTION = 40  # characters of an action in notation (the longest, a shove, has 13)


def _opening(v: object) -> bool:
    """[slot, troop, salt]: two ints (not booleans) and 16 bytes of lowercase hex."""
    return (isinstance(v, list) and len(v) == 3 and type(v[0]) is int and type(v[1]) is int
            and _is_hex(v[2], 16))


def _final_tile(v: object) -> bool:
    return isinstance(v, list) and len(v) == 2 and type(v[0]) is int and _is_hex(v[1], 16)


# one schema per kind of chained message: each field the protocol defines, with the test its value must pass
SHAPES: dict[str, dict[str, Any]] = {
    "commit": {"tiles": lambda v: isinstance(v, list) and len(v) == SLOTS and all(_is_hex(h, 32) for h in v),
               "anchor": lambda v: _is_hex(v, 32), "r": lambda v: _is_hex(v, 32)},
    "rand": {"r": lambda v: _is_hex(v, 32), "open": _opening},
    "act": {"a": lambda v: isinstance(v, str) and 0 < len(v) <= MAX_ACTION, "open": _opening,
            "r": lambda v: _is_hex(v, 32)},
    "stuck": {"open": lambda v: isinstance(v, list) and len(v) <= SLOTS and all(map(_opening, v))},
    "concede": {},
    "open": {"tiles": lambda v: isinstance(v, list) and len(v) == SLOTS and all(map(_final_tile, v))},
}


def clean_reason(text: object) -> str:
    """A reason fit to store and show: printable, one line, at most MAX_REASON characters. A Said is one
    already (what it quotes of a peer's text is bounded where it is made)."""
    if isinstance(text, Said):
        return text
    line = "".join(c if c.isprintable() else " " for c in str(text)).strip()
    return line if len(line) <= MAX_REASON else line[:MAX_REASON - 1] + "\u2026"


class Forfeit(Exception):
    """A check failed: ``seat`` forfeits, ``reason`` says exactly why (shown to both players)."""

    def __init__(self, seat: int, reason: str):
        reason = clean_reason(reason)  # a reason may quote the peer's text: bounded before it goes anywhere
        super().__init__(Said("online.forfeitsLine", seat=SEATS[seat], why=reason))
        self.seat = seat
        self.reason = reason


def sha(*parts: bytes | str | int) -> bytes:
    h = hashlib.sha256()
    for p in parts:
        b = p if isinstance(p, bytes) else str(p).encode()
        h.update(len(b).to_bytes(4, "big") + b)  # length-prefixed: no two part lists collide
    return h.digest()


def encode(msg: dict[str, Any]) -> str:
    """The canonical text of a message; its hash is over exactly these bytes."""
    return json.dumps(msg, sort_keys=True, separators=(",", ":"))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def tile_commitment(game: str, seat: int, slot: int, troop: int, salt: bytes) -> str:
    return sha(b"toybattle/tile", game, seat, slot, troop, salt).hex()


@dataclass
class Secrets:
    """One peer's secrets: the faces of its 24 slots (its shuffle), a salt per slot, its chain seed."""
    troops: list[int]
    salts: list[bytes]
    seed: bytes

    @classmethod
    def generate(cls, seed: str | None = None) -> Secrets:
        """Fresh secrets from the OS's randomness; ``seed`` makes them reproducible (tests only:
        whoever knows the seed knows the tiles)."""
        if seed is None:
            rng: random.Random = _secrets.SystemRandom()
            salts = [_secrets.token_bytes(16) for _ in range(SLOTS)]
            chain_seed = _secrets.token_bytes(32)
        else:
            rng = random.Random(seed)
            salts = [sha(b"salt", seed, k)[:16] for k in range(SLOTS)]
            chain_seed = sha(b"chain", seed)
        troops = [t & 15 for t in shuffled_army(0, rng)]
        return cls(troops, salts, chain_seed)

    def to_json(self) -> dict[str, Any]:
        return {"troops": self.troops, "salts": [s.hex() for s in self.salts], "seed": self.seed.hex()}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Secrets:
        return cls(list(d["troops"]), [bytes.fromhex(s) for s in d["salts"]], bytes.fromhex(d["seed"]))

    def chain(self) -> list[bytes]:
        """chain[e] is the value revealed for random event e; chain[0] is the anchor committed first.
        Each value is the preimage of the one before, so it is fixed from the start yet unknown."""
        out = [self.seed]
        for _ in range(CHAIN):
            out.append(hashlib.sha256(out[-1]).digest())
        return out[::-1]

    def commitments(self, game: str, seat: int) -> list[str]:
        return [tile_commitment(game, seat, k, self.troops[k], self.salts[k]) for k in range(SLOTS)]

    def opening(self, k: int) -> list[Any]:
        return [k, self.troops[k], self.salts[k].hex()]


# how much time left on its own clock, by its own measure, a side may have and still accept a claim that its
# clock ran out: the other side measures this side's time from when it sent the message that made it this
# side's turn until this side's move arrived, so its measure is never less, and more by the network's delays
FLAG_ALLOWANCE = 5.0
# ...plus, per move of the claimed side, the round trip it measured itself (its median), at most this
FLAG_LAG = 1.0


@dataclass(frozen=True)
class Setup:
    """What both peers agree on before the first message: the game id, terrain, mode and seats, and the time
    control if there is one (``clock``: base and increment in whole seconds)."""
    game: str
    terrain: str
    first_game: bool
    host_seat: int
    clock: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.clock is not None:  # read back from JSON as a list
            object.__setattr__(self, "clock", (self.clock[0], self.clock[1]))

    def genesis(self) -> str:
        parts: list[bytes | str | int] = [b"toybattle/online", PROTOCOL, self.game, self.terrain,
                                          int(self.first_game), self.host_seat]
        if self.clock is not None:  # a game without a clock hashes exactly as before clocks were
            parts += [b"clock", self.clock[0], self.clock[1]]
        return sha(*parts).hex()

    def to_json(self) -> dict[str, Any]:
        """The setup as the hello and the games file carry it (no ``clock`` key without a clock: as before)."""
        d: dict[str, Any] = {"game": self.game, "terrain": self.terrain, "first_game": self.first_game,
                             "host_seat": self.host_seat}
        if self.clock is not None:
            d["clock"] = list(self.clock)
        return d


PLAYS = frozenset({"act", "stuck", "concede"})  # the chained messages a clock runs for


def uniform(seed: bytes, label: str, n: int) -> int:
    """An index in range(n) from a joint seed (256 bits reduced mod n: bias below 2**-250)."""
    return int.from_bytes(sha(seed, label), "big") % n


class Match:
    """One peer's side of a game (see the module docstring). ``me`` is this peer's seat."""

    def __init__(self, setup: Setup, me: int, secrets: Secrets):
        self.setup = setup
        self.me = me
        self.secrets = secrets
        self._chain = secrets.chain()
        self.log: list[str] = []
        self.head = setup.genesis()
        self.public: State | None = None
        self.zone: list[list[str]] = [[UNDRAWN] * SLOTS, [UNDRAWN] * SLOTS]
        self.faces: list[dict[int, int]] = [{}, {}]  # opened slots: slot -> troop
        self.drawn: list[list[int]] = [[], []]  # each seat's slots in the order they were drawn
        self.commits: list[list[str] | None] = [None, None]
        self.rand: list[bytes | None] = [None, None]  # last chain value accepted from each seat
        self.event = 0
        self.pending: tuple[int, bytes] | None = None  # (initiator seat, its value) awaiting the reply
        self.opened = [False, False]
        self.forfeit: Forfeit | None = None
        self._reserve_before = (0, 0)  # reserve sizes before the last action (its draws need a random event)
        self.abandoned: tuple[int, str] | None = None  # (seat, why): the other side claimed the game
        # the time control's clocks as this side measures them (kept by OnlineGame: never chained nor checked)
        self.clocks: Clocks | None = Clocks(*setup.clock) if setup.clock else None

    @property
    def state(self) -> State:
        """The public state once the game has begun (after message 3)."""
        if self.public is None:
            raise ValueError("the game has not begun")
        return self.public

    # ------------------------------------------------------------ who sends what next

    @property
    def host(self) -> int:
        return self.setup.host_seat

    @property
    def finished(self) -> bool:
        return self.forfeit is not None or self.abandoned is not None or all(self.opened)

    def opening_due(self) -> bool:
        """Whether the message awaited now must open tiles (the final opening, or XB-42's victim)."""
        if self.public is None or self.finished:
            return False
        return self.public.over or (self.pending is not None and self.public.is_chance
                                    and self.public.decision == XB_PICK)

    def claim(self, seat: int, why: str) -> None:
        """The other side has been silent past its limit and this side claims the game (not a check
        of the rules: it is stored as the game's result, never chained)."""
        self.abandoned = (seat, clean_reason(why))

    def clock_tick(self, msg: dict[str, Any], now: float) -> None:
        """The clocks after ``msg`` was agreed here at ``now`` (monotonic s): a play message stops its seat's
        clock and adds the increment; then the clock of the seat whose play is due runs (none once over)."""
        c = self.clocks
        if c is None:
            return
        if msg.get("t") in PLAYS and type(msg.get("by")) is int and type(msg.get("n")) is int:
            c.played(msg["by"], msg["n"], now)
        if self.finished or self.public is None or self.public.over:
            c.stop(now)
            return
        seat, kind = self.expected()
        if kind == "play":
            c.start(seat, now)
        else:
            c.stop(now)

    def judge_flag(self, n: int, now: float, lag: float = 0.0) -> tuple[bool, float] | None:
        """The other side claims that this side's clock ran out while this side's play message n + 1 was due.
        None if that message was not this side's play (or there is no clock): a claim with nothing to check;
        else (believed, seconds left by this side's own measure, now or when it sent that message). It is
        believed when at most FLAG_ALLOWANCE s plus, per move of this side, its own measured round trip
        ``lag`` (at most FLAG_LAG s) were left: the claimant's measure is more by the network's delays."""
        c = self.clocks
        if c is None:
            return None
        my_turn = not self.finished and self.public is not None and self.expected() == (self.me, "play")
        if n == len(self.log) and my_turn:
            left = c.now_left(self.me, now)
        elif n < len(self.log) and c.plays.get(n + 1, (-1, 0.0))[0] == self.me:
            left = c.plays[n + 1][1]
        else:
            return None
        allowance = FLAG_ALLOWANCE + c.moves[self.me] * min(max(lag, 0.0), FLAG_LAG)
        return left <= allowance, left

    def recheck(self) -> Forfeit | None:
        """This peer's own messages checked again from scratch, against its own secrets: the first
        failure, or None. A notice that this seat broke a rule is believed only if this finds one."""
        fresh = Match(self.setup, self.me, self.secrets)
        try:
            for text in self.log:
                fresh.accept(text, fresh.expected()[0])
        except Forfeit as f:
            return f if f.seat == self.me else None
        return None

    def expected(self) -> tuple[int, str]:
        """(seat, kind) of the next message: commit, rand, play (act, stuck or concede) or open."""
        n = len(self.log)
        if n < 2:
            return (self.host if n == 0 else 1 - self.host), "commit"
        if self.pending:
            return 1 - self.pending[0], "rand"
        p = self.state
        if p.over:
            return (0 if not self.opened[0] else 1), "open"
        return p.turn, "play"

    def my_move(self) -> str | None:
        """What this peer must send now: None (wait), or commit/rand/open (automatic),
        stuck (automatic: the rules leave no move), or play (a player's decision)."""
        if self.finished:
            return None
        seat, kind = self.expected()
        if seat != self.me:
            return None
        if kind == "play" and self.mine().over:
            return "stuck"
        return kind

    # ------------------------------------------------------------ views

    def mine(self) -> State:
        """The game as this peer knows it: ``public`` plus the faces of its own hidden tiles."""
        s = self.state.copy()
        for zone in (RACK, LAID):
            faces = [self.secrets.troops[k] for k in range(SLOTS) if self.zone[self.me][k] == zone]
            s.reveal(self.me, zone, faces)
        if s.decision == TURN and s.turn == self.me:  # TURN: with faces known, the stuck check is exact
            s.recheck_stuck()
        return s

    def observation(self) -> State:
        """What this peer's player (or bot) may see: the rules' observation of ``mine()``."""
        return observation(self.mine(), self.me)

    # ------------------------------------------------------------ building my messages

    def _chained(self, kind: str, **body: Any) -> str:
        return encode({"n": len(self.log) + 1, "prev": self.head, "by": self.me, "t": kind, **body})

    def _my_value(self) -> str:
        return self._chain[self.event + 1].hex()

    def make(self, action: int | None = None) -> str:
        """My next message (``action`` is needed for a play; None concedes)."""
        kind = self.my_move()
        if kind == "commit":
            body = {"tiles": self.secrets.commitments(self.setup.game, self.me), "anchor": self._chain[0].hex()}
            if len(self.log) == 1:
                body["r"] = self._my_value()  # the joiner opens random event 1 (first player, opening racks)
            return self._chained("commit", **body)
        if kind == "rand":
            r = self._my_value()
            body = {"r": r}
            k = self._pick_to_open(bytes.fromhex(r))
            if k is not None:
                return self._chained("rand", r=r, open=self.secrets.opening(k))
            return self._chained("rand", **body)
        if kind == "open":
            return self._chained("open", tiles=[[t, s.hex()] for t, s in
                                                 zip(self.secrets.troops, self.secrets.salts, strict=True)])
        if kind == "stuck":
            return self._chained("stuck", open=[self.secrets.opening(k) for k in range(SLOTS)
                                                if self.zone[self.me][k] == RACK])
        if kind == "play":
            if action is None:
                return self._chained("concede")
            return self._act(action)
        raise ValueError("not this peer's turn to send")

    def _act(self, action: int) -> str:
        m = self.mine()
        if action not in m.legal_actions():
            raise IllegalAction(m.refusal(action) or "not legal now")
        body: dict[str, Any] = {"a": action_text(action, m.b)}
        if A.PLACE <= action < A.PLACE_END:
            troop = (action - A.PLACE) >> 5
            if (self.me << 4 | troop) not in self.state.rack[self.me]:
                k = min(k for k in range(SLOTS) if self.zone[self.me][k] == RACK and self.secrets.troops[k] == troop)
                body["open"] = self.secrets.opening(k)
        trial = self.state.copy()
        if "open" in body:
            trial.reveal(self.me, RACK, [body["open"][1]])
        before = (len(trial.reserve[0]), len(trial.reserve[1]))
        trial.apply(action)
        if trial.is_chance or before != (len(trial.reserve[0]), len(trial.reserve[1])):
            body["r"] = self._my_value()
        return self._chained("act", **body)

    def _pick_to_open(self, my_value: bytes) -> int | None:
        """As the victim of an XB-42 pick: the slot I must open, if the pick lands on a hidden tile."""
        p = self.public
        if p is None or self.pending is None or not (p.is_chance and p.decision == XB_PICK):
            return None  # only XB-42 opens: a Battlefield pick stays secret
        entries = self._pick_entries()
        values = [b"", b""]
        values[self.pending[0]], values[self.me] = self.pending[1], my_value
        entry = entries[uniform(self._joint(values), "pick", len(entries))]
        return entry[1] if entry[0] == "slot" else None

    # ------------------------------------------------------------ accepting any message

    def accept(self, text: object, sender: int) -> dict[str, Any]:
        """Check one message sent by ``sender`` (this peer's own included) and apply it;
        Forfeit (naming the sender, with the reason) if it does not hold. A forfeit ends the game.
        This is the one place where anything wrong with a chained message becomes a forfeit: no
        exception of any other kind leaves it, whatever the peer sent."""
        try:
            return self._accept(text, sender)
        except Forfeit as f:
            self.forfeit = f
            raise
        except Exception as e:  # a check this code lacks: still the sender's message that broke it
            self.forfeit = Forfeit(sender, Said("forfeit.malformed", error=type(e).__name__))
            raise self.forfeit from None

    def _accept(self, text: object, sender: int) -> dict[str, Any]:
        seat, kind = self.expected()
        if self.finished:
            raise Forfeit(sender, Said("forfeit.afterEnd"))
        if sender != seat:
            raise Forfeit(sender, Said("forfeit.outOfTurn", n=len(self.log) + 1))
        if not isinstance(text, str) or len(text) > MAX_CHAINED:
            raise Forfeit(sender, Said("forfeit.tooLong", n=MAX_CHAINED))
        if bounded.nesting(text, MAX_DEPTH) > MAX_DEPTH:
            raise Forfeit(sender, Said("forfeit.deep", n=MAX_DEPTH))
        try:
            msg = bounded.loads(text, MAX_DEPTH)
        except ValueError:
            raise Forfeit(sender, Said("forfeit.notJson")) from None
        if not isinstance(msg, dict) or encode(msg) != text:
            raise Forfeit(sender, Said("forfeit.notCanonical"))
        n = msg.get("n")
        if type(n) is not int or n != len(self.log) + 1 or msg.get("prev") != self.head:
            raise Forfeit(sender, Said("forfeit.chain", n=len(self.log) + 1))
        by = msg.get("by")
        if type(by) is not int or by != sender:
            raise Forfeit(sender, Said("forfeit.wrongSender", n=len(self.log) + 1))
        t = msg.get("t")
        if (not isinstance(t, str) or t not in SHAPES) and kind == "open":
            raise Forfeit(sender, Said("forfeit.noOpening"))
        if not isinstance(t, str) or t not in SHAPES:
            raise Forfeit(sender, Said("forfeit.wrongKind", kind=clean_reason(str(t)[:20]), due=kind))
        extra = sorted(set(msg) - HEAD - FIELDS[t])
        if extra:
            raise Forfeit(sender, Said("forfeit.extraFields", fields=clean_reason(", ".join(extra)[:60])))
        wrong = sorted(f for f, ok in SHAPES[t].items() if f in msg and not ok(msg[f]))
        if wrong:
            raise Forfeit(sender, Said("forfeit.shape", kind=t, fields=", ".join(wrong)))
        try:
            if kind == "commit" and t == "commit":
                self._on_commit(msg)
            elif kind == "rand" and t == "rand":
                self._on_rand(msg)
            elif kind == "play" and t == "act":
                self._on_act(msg)
            elif kind == "play" and t == "stuck":
                self._on_stuck(msg)
            elif kind == "play" and t == "concede":
                self.state.concede(seat)
            elif kind == "open" and t == "open":
                self._on_open(msg)
            elif kind == "open":
                raise Forfeit(seat, Said("forfeit.noOpening"))
            else:
                raise Forfeit(seat, Said("forfeit.wrongKind", kind=t, due=kind))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            if isinstance(e, IllegalAction):
                raise Forfeit(seat, Said("forfeit.illegal", rule=of_error(e))) from None
            raise Forfeit(seat, Said("forfeit.malformedKind", kind=t, error=type(e).__name__)) from None
        self.log.append(text)
        self.head = digest(text)
        return msg

    # ------------------------------------------------------------ the checks, message by message

    def _on_commit(self, msg: dict[str, Any]) -> None:
        seat = msg["by"]  # its fields' shapes passed SHAPES in accept: 24 hashes, one anchor
        self.commits[seat] = msg["tiles"]
        self.rand[seat] = bytes.fromhex(msg["anchor"])
        if len(self.log) == 1:
            self._take_value(seat, msg["r"])
            self.pending = (seat, self.rand[seat])
        elif "r" in msg:
            raise Forfeit(seat, Said("forfeit.earlyRandom"))

    def _take_value(self, seat: int, value: str) -> bytes:
        v = bytes.fromhex(value)  # a 32-byte hash's shape (SHAPES); KeyError above if it is missing
        if hashlib.sha256(v).digest() != self.rand[seat]:
            raise Forfeit(seat, Said("forfeit.randMismatch"))
        self.rand[seat] = v
        return v

    def _commits(self, seat: int) -> list[str]:
        tiles = self.commits[seat]
        assert tiles is not None  # expected() asks for both commitments before any other message
        return tiles

    def _joint(self, values: list[bytes]) -> bytes:
        return sha(b"toybattle/event", self.setup.game, self.event + 1, values[0], values[1])

    def _on_rand(self, msg: dict[str, Any]) -> None:
        seat = msg["by"]
        assert self.pending is not None  # expected() asks for a value only while an event is pending
        starter, first_value = self.pending
        values = [b"", b""]
        values[starter], values[seat] = first_value, self._take_value(seat, msg["r"])
        joint = self._joint(values)
        self.event += 1
        self.pending = None
        if self.public is None:
            self._start(joint)
        else:
            self._draws(joint, self._reserve_before)
            if self.state.is_chance:
                self._pick(joint, msg)
            elif "open" in msg:
                raise Forfeit(seat, Said("forfeit.unaskedTile"))
        self._sync_laid()

    def _start(self, joint: bytes) -> None:
        first = uniform(joint, "first", 2)
        s = State.new(self.setup.terrain, self.setup.first_game, first=first,
                      orders=[full_army(0), full_army(1)])
        for seat in (0, 1):  # every tile unknown: the draws below say which slots are on the racks
            u = seat << 4
            s.rack[seat] = [u] * len(s.rack[seat])
            s.reserve[seat] = [u] * len(s.reserve[seat])
            s.aside[seat] = [u] * len(s.aside[seat])
        self.public = s
        self._draws(joint, None)

    def _draws(self, joint: bytes, reserve_before: tuple[int, int] | None) -> None:
        """Each tile drawn is a slot chosen by the joint randomness among the owner's undrawn slots:
        the same as setting 4 aside unseen and shuffling the rest, and the owner cannot steer it."""
        for seat in (0, 1):
            if reserve_before is None:  # the opening racks
                drawn = len(self.state.rack[seat])
            else:
                drawn = reserve_before[seat] - len(self.state.reserve[seat])
            for j in range(drawn):
                undrawn = [k for k in range(SLOTS) if self.zone[seat][k] == UNDRAWN]
                k = undrawn[uniform(joint, f"draw/{seat}/{j}", len(undrawn))]
                self.zone[seat][k] = RACK
                self.drawn[seat].append(k)

    def _pick_entries(self) -> list[tuple[str, int, str]]:
        """The victim's rack tiles in an order both peers derive from public facts: hidden slots
        first (by slot number), then tiles whose faces are public. XB-42 may take a laid tile."""
        p = self.state
        victim = 1 - p.turn
        zones = (RACK, LAID) if p.decision == XB_PICK else (RACK,)
        out: list[tuple[str, int, str]] = [("slot", k, self.zone[victim][k]) for k in range(SLOTS)
                                           if self.zone[victim][k] in zones]
        for z in zones:
            out += [("tile", t & 15, z) for t in getattr(p, z)[victim] if t & 15]
        return out

    def _pick(self, joint: bytes, msg: dict[str, Any]) -> None:
        p = self.state
        victim = 1 - p.turn
        xb = p.decision == XB_PICK
        entries = self._pick_entries()
        kind, what, z = entries[uniform(joint, "pick", len(entries))]
        laid = 1 if z == LAID else 0
        if kind == "slot" and xb:  # XB-42 discards it face up: the victim proves its face
            troop = self._check_opening(victim, msg.get("open"), z, Said("forfeit.what.xbTile", n=what))
            if msg["open"][0] != what:
                raise Forfeit(victim, Said("forfeit.xbPick", n=msg["open"][0], m=what))
            p.reveal(victim, z, [troop])
            p.apply(A.PICK + (laid << 4) + troop)
            self.zone[victim][what] = OPEN
        elif kind == "slot":  # Battlefield: laid face down, only its owner knows the face
            if "open" in msg:
                raise Forfeit(victim, Said("forfeit.unaskedTile"))
            p.apply(A.PICK)  # pick:? (an unknown face moves from the rack to the laid tiles)
            self.zone[victim][what] = LAID
        else:
            if "open" in msg:
                raise Forfeit(victim, Said("forfeit.unaskedTile"))
            p.apply(A.PICK + (laid << 4) + what)

    def _check_opening(self, seat: int, opening: Any, zone: str, what: str) -> int:
        """Check an opening [slot, troop, salt] of one of ``seat``'s slots that must be in ``zone``."""
        if opening is None:
            raise Forfeit(seat, Said("forfeit.notOpened", what=what))
        k, troop, salt = opening  # two ints and a salt's hex, by SHAPES: here, whether they name a slot and a troop
        if not (0 <= k < SLOTS and troop in TROOPS):
            raise Forfeit(seat, Said("forfeit.badOpening", what=what))
        where = self.zone[seat][k]
        if where != zone:
            why = Said({UNDRAWN: "forfeit.why.neverDrawn", OPEN: "forfeit.why.shown", LAID: "forfeit.why.laid",
                        RACK: "forfeit.why.onRack"}[where])
            raise Forfeit(seat, Said("forfeit.wrongSlot", n=k, what=what, why=why))
        if tile_commitment(self.setup.game, seat, k, troop, bytes.fromhex(salt)) != self._commits(seat)[k]:
            raise Forfeit(seat, Said("forfeit.notCommitted", n=k, troop=troop))
        self.faces[seat][k] = troop
        if sum(1 for v in self.faces[seat].values() if v == troop) > COPIES:
            raise Forfeit(seat, Said("forfeit.tooManyCopies", n=COPIES, troop=troop))
        return int(troop)

    def _on_act(self, msg: dict[str, Any]) -> None:
        seat = msg["by"]
        p = self.state
        try:
            action = parse_action(msg["a"], p.b)
        except ValueError as e:
            raise Forfeit(seat, of_error(e)) from None
        if action_text(action, p.b) != msg["a"]:  # no padding, no other spelling: the notation's own text
            raise Forfeit(seat, Said("forfeit.spelling", action=repr(msg["a"][:MAX_ACTION])))
        if A.PICK <= action < A.PICK_END:
            raise Forfeit(seat, Said("forfeit.ownPick"))
        if A.PLACE <= action < A.PLACE_END:
            troop = (action - A.PLACE) >> 5
            if (seat << 4 | troop) in p.rack[seat]:
                if "open" in msg:
                    raise Forfeit(seat, Said("forfeit.unaskedTile"))
            else:
                shown = self._check_opening(seat, msg.get("open"), RACK, Said("forfeit.what.placed", troop=troop))
                if shown != troop:
                    raise Forfeit(seat, Said("forfeit.showedOther", troop=troop, troop2=shown))
                p.reveal(seat, RACK, [troop])
                self.zone[seat][msg["open"][0]] = OPEN
        elif "open" in msg:
            raise Forfeit(seat, Said("forfeit.unaskedTile"))
        self._reserve_before = (len(p.reserve[0]), len(p.reserve[1]))
        try:
            p.apply(action)
        except IllegalAction as e:
            raise Forfeit(seat, Said("forfeit.refusedAction", action=msg["a"], rule=of_error(e))) from None
        random_needed = p.is_chance or self._reserve_before != (len(p.reserve[0]), len(p.reserve[1]))
        if random_needed != ("r" in msg):
            raise Forfeit(seat, Said("forfeit.randomOrder"))
        if random_needed:
            self.pending = (seat, self._take_value(seat, msg["r"]))
        self._sync_laid()

    def _on_stuck(self, msg: dict[str, Any]) -> None:
        seat = msg["by"]
        p = self.state
        hidden = sorted(k for k in range(SLOTS) if self.zone[seat][k] == RACK)
        openings = msg["open"]
        if p.decision != TURN or sorted(o[0] for o in openings) != hidden:
            raise Forfeit(seat, Said("forfeit.stuckHidden"))
        faces = [self._check_opening(seat, o, RACK, Said("forfeit.what.stuckRack")) for o in openings]
        p.reveal(seat, RACK, faces)
        for k in hidden:
            self.zone[seat][k] = OPEN
        p.recheck_stuck()
        if not p.over:
            can = ", ".join(action_text(a, p.b) for a in p.legal_actions()[:3])
            raise Forfeit(seat, Said("forfeit.notStuck", actions=can))

    def _on_open(self, msg: dict[str, Any]) -> None:
        seat = msg["by"]
        faces = []
        for k, (troop, salt) in enumerate(msg["tiles"]):  # 24 pairs of an int and a salt's hex, by SHAPES
            if troop not in TROOPS or \
                    tile_commitment(self.setup.game, seat, k, troop, bytes.fromhex(salt)) != self._commits(seat)[k]:
                raise Forfeit(seat, Said("forfeit.endSlot", n=k))
            faces.append(troop)
        if Counter(faces) != Counter(t & 15 for t in full_army(seat)):
            raise Forfeit(seat, Said("forfeit.falseArmy"))
        self._check_final_tiles(seat, faces)
        self.opened[seat] = True

    def _check_final_tiles(self, seat: int, faces: list[int]) -> None:
        """Tiles shown during play plus the hidden ones now opened make exactly that seat's army."""
        p = self.state
        seen: Counter[int] = Counter()
        for st in p.stacks:
            seen.update(t & 15 for t in st if t >> 4 == seat)
        seen.update(t & 15 for t in p.discard if t >> 4 == seat)
        seen.update(t & 15 for t in p.rack[seat] + p.laid[seat] if t & 15)
        seen.update(faces[k] for k in range(SLOTS) if self.zone[seat][k] != OPEN)
        if seen != Counter(t & 15 for t in full_army(seat)):
            raise Forfeit(seat, Said("forfeit.tilesDontAdd"))

    def _sync_laid(self) -> None:
        """Laid tiles stand up at the end of their owner's turn: follow the public state."""
        if self.public is None:
            return
        for seat in (0, 1):
            if not any(t == seat << 4 for t in self.state.laid[seat]):
                self.zone[seat] = [RACK if z == LAID else z for z in self.zone[seat]]

    # ------------------------------------------------------------ the outcome

    def result(self) -> dict[str, Any]:
        """winner (seat or -1), reason, forfeit reason if any, and the history's final hash."""
        if self.forfeit:
            f = self.forfeit
            return {"winner": 1 - f.seat, "reason": "forfeit",
                    "detail": Said("online.forfeitsLine", seat=SEATS[f.seat], why=f.reason),
                    "head": self.head, "messages": len(self.log)}
        if self.abandoned:
            seat, why = self.abandoned
            return {"winner": 1 - seat, "reason": "abandonment",
                    "detail": Said("online.abandonedLine", seat=SEATS[seat], why=why),
                    "head": self.head, "messages": len(self.log)}
        p = self.public
        return {"winner": p.winner if p and p.over else -1, "reason": p.reason if p and p.over else "",
                "detail": "", "head": self.head, "messages": len(self.log)}


def _is_hex(value: object, nbytes: int) -> bool:
    return isinstance(value, str) and len(value) == 2 * nbytes and all(c in "0123456789abcdef" for c in value)

