"""Text formats: positions (like chess's FEN, but readable lines) and game records.

Both are documented with examples in docs/notation.md. Parsing never returns a
half-built object: it returns a checked State or raises NotationError, whose
message starts with the number of the line to blame.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import actions as A
from .state import (
    _POWER_DECISION,
    DECISION_NAMES,
    ENDINGS,
    JUMBO_TARGET,
    LAY_PICK,
    NODE_DECISIONS,
    OVER,
    IllegalAction,
    State,
    deal,
    unanswered,
)
from .terrain import Board
from .troops import (
    BLUE,
    COPIES,
    JUMBO,
    RACK_LIMIT,
    RED,
    SEATS,
    SET_ASIDE,
    code,
    full_army,
    parse_seat,
    parse_troop,
)

POSITION_HEADER = "toybattle position 1"
RECORD_HEADER = "toybattle record 1"
_DECISION_BY_NAME = {v: k for k, v in DECISION_NAMES.items()}
# the special-base power each decision about a base comes from (the tank's pick follows its use)
_DECISION_POWER = {d: p for p, d in _POWER_DECISION.items()} | {LAY_PICK: "lay_down"}
# Bounds on the numbers the formats hold, so a typo like "ply -99999999999999999999" is refused plainly.
MAX_NODE_ID = 999  # node and region ids as printed
MAX_HEIGHT = 2 * 24  # a stack holds at most every tile of both armies
MAX_PLY = 1_000_000  # actions in one game: far beyond any real game
MAX_SEED = 2**63 - 1


class NotationError(ValueError):
    """A position or record that cannot be read; the message says where (``line N: ``) and why.

    ``reason`` is the message without the line; ``field`` (set by ``check_position``) names the position
    line to blame, for the parser to turn into a line number."""

    def __init__(self, reason: str, line: int | None = None, field: str | None = None):
        super().__init__(f"line {line}: {reason}" if line is not None else reason)
        self.reason = reason
        self.line = line
        self.field = field


def _tile(t: int) -> str:
    return ("b" if t >> 4 == BLUE else "r") + code(t & 15)


def _tiles(ts: list[int], seat: int) -> str:
    if not ts:
        return "-"
    unknown = sum(1 for t in ts if not t & 15)
    if unknown == len(ts):
        return f"?x{unknown}"
    return " ".join(code(t & 15) for t in ts)


def position_text(s: State) -> str:
    """``s`` in the position format."""
    b = s.b
    lines = [POSITION_HEADER, f"terrain {b.terrain.id}", f"mode {'first-game' if s.first_game else 'standard'}",
             f"first {SEATS[s.first]}", f"turn {SEATS[s.turn]}"]
    dec = DECISION_NAMES[s.decision]
    if s.decision == OVER:
        dec += f" {SEATS[s.winner]} {s.reason}" if s.winner >= 0 else ""
    elif s.dnode >= 0 and s.decision in NODE_DECISIONS:
        dec += f" {b.ids[s.dnode]}"
    lines.append(f"decision {dec}")
    if s.queue:
        lines.append("queue " + " ".join(f"{b.ids[i]}:{h}" for i, h in s.queue))
    for seat in (BLUE, RED):
        who = SEATS[seat]
        lines.append(f"{who} rack {_tiles(s.rack[seat], seat)}")
        if s.laid[seat]:
            lines.append(f"{who} laid {_tiles(s.laid[seat], seat)}")
        lines.append(f"{who} reserve {_tiles(s.reserve[seat][::-1], seat)}")
        lines.append(f"{who} aside {_tiles(s.aside[seat], seat)}")
        if s.public[seat]:
            lines.append(f"{who} public {_tiles(s.public[seat], seat)}")
    for i, st in enumerate(s.stacks):
        if st:
            lines.append(f"stack {b.ids[i]} " + " ".join(_tile(t) for t in st))
    lines.append("discard " + (" ".join(_tile(t) for t in s.discard) or "-"))
    claims = [f"{b.terrain.regions[k].id}:{SEATS[w]}" for k, w in enumerate(s.claimed) if w >= 0]
    lines.append("claimed " + (" ".join(claims) or "-"))
    if s.ply:
        lines.append(f"ply {s.ply}")
    return "\n".join(lines) + "\n"


Line = tuple[int, list[str]]  # (line number in the text, the line's words)


def _show(word: str) -> str:
    """``word`` quoted for a message, clipped so a huge word cannot flood it."""
    return repr(word if len(word) <= 24 else word[:20] + "...")


def _lines(text: str) -> list[Line]:
    """The text's lines as words, each with its line number; ``#`` starts a comment (even after a ``;``),
    and ``;`` outside a comment stands for a line break."""
    out = []
    for n, raw in enumerate(text.splitlines(), start=1):
        for part in raw.split("#", 1)[0].split(";"):
            words = part.split()
            if words:
                out.append((n, words))
    return out


def _parse_tiles(words: list[str], seat: int) -> list[int]:
    out = []
    for w in words:
        if w == "-":
            continue
        if w.startswith("?x"):
            out += [seat << 4] * _number(w[2:], "an unknown-tile count (?xN)", 0, len(full_army(seat)))
            continue
        out.append((seat << 4) | parse_troop(w))
    return out


def _parse_board_tile(w: str) -> int:
    if len(w) < 2 or w[0].lower() not in "br":
        raise NotationError(f"bad tile {_show(w)} on the board (expected b7, rK, ...)")
    t = parse_troop(w[1:])
    if not t:
        raise NotationError(f"a tile on the board cannot be unknown: {_show(w)}")
    return ((BLUE if w[0].lower() == "b" else RED) << 4) | t


@contextmanager
def _at(line: int) -> Iterator[None]:
    """Name ``line`` in any error raised inside, unless it names one already."""
    try:
        yield
    except NotationError as e:
        if e.line is not None:
            raise
        raise NotationError(e.reason, line) from None
    except ValueError as e:  # a bad troop, seat or terrain, read by the troop and terrain modules
        raise NotationError(str(e), line) from None


def parse_position(text: str) -> State:
    """A State from the position format; NotationError (naming the line) if malformed or inconsistent."""
    lines = _lines(text)
    if not lines or lines[0][1] != POSITION_HEADER.split():
        raise NotationError(f"a position must start with the line {POSITION_HEADER!r}", lines[0][0] if lines else 1)
    return _position(lines[1:], lines[0][0])


class _Fields:
    """A position's lines by key (``terrain``, ``blue rack``, ...), each with its line number."""

    def __init__(self, lines: list[Line], header: int):
        self.header = header
        self.by_key: dict[str, Line] = {}
        self.stacks: list[Line] = []
        for n, words in lines:
            key = words[0].lower()
            if key in SEATS and len(words) >= 2:
                key = f"{key} {words[1].lower()}"
                words = [key, *words[2:]]
            if key == "stack":
                self.stacks.append((n, words[1:]))
                continue
            if key not in _KNOWN:
                raise NotationError(f"unknown field {_show(key)}", n)
            if key in self.by_key:
                raise NotationError(f"{key!r} given twice (first on line {self.by_key[key][0]})", n)
            if len(words) < 2:
                raise NotationError(f"{key!r} needs a value", n)
            self.by_key[key] = (n, words[1:])

    def get(self, key: str, default: list[str] | None = None) -> list[str]:
        return self.by_key[key][1] if key in self.by_key else (default or [])

    def line(self, key: str) -> int:
        """The line of ``key`` (or of ``stack N``); the header's line if the position leaves it out."""
        if key.startswith("stack "):
            return next((n for n, words in self.stacks if words[:1] == key.split()[1:]), self.header)
        return self.by_key[key][0] if key in self.by_key else self.header


def _position(lines: list[Line], header: int) -> State:
    f = _Fields(lines, header)
    try:
        s = _build(f)
        check_position(s)
    except NotationError as e:
        if e.line is not None:
            raise
        raise NotationError(e.reason, f.line(e.field or "")) from None
    return s


def _number(word: str, what: str, lo: int, hi: int) -> int:
    """``word`` as a whole number from ``lo`` to ``hi`` (plain digits: no ``1_000``, no other scripts)."""
    digits = word[1:] if word.startswith("-") else word
    if digits.isascii() and digits.isdigit() and len(digits) <= len(str(max(abs(lo), abs(hi)))):
        n = int(word)
        if lo <= n <= hi:
            return n
    raise NotationError(f"{what} must be a whole number from {lo} to {hi}, not {_show(word)}")


def _node(b: Board, word: str, what: str) -> int:
    """The index of the node printed ``word`` on board ``b``."""
    i = b.index.get(_number(word, what, 0, MAX_NODE_ID), -1)
    if i < 0:
        raise NotationError(f"{what}: no node {_show(word)} on {b.terrain.name}")
    return i


_KNOWN = {"terrain", "mode", "first", "turn", "decision", "queue", "discard", "claimed", "ply"} | {
    f"{s} {z}" for s in SEATS for z in ("rack", "laid", "reserve", "aside", "public")}


def _build(f: _Fields) -> State:
    if "terrain" not in f.by_key:
        raise NotationError("a position needs a 'terrain' line")
    with _at(f.line("mode")):
        mode = f.get("mode", ["standard"])[0]
        if mode not in ("standard", "first-game"):
            raise NotationError(f"mode must be standard or first-game, not {_show(mode)}")
    with _at(f.line("terrain")):
        s = State.empty(f.get("terrain")[0], mode == "first-game")
    b = s.b
    with _at(f.line("first")):
        s.first = parse_seat(f.get("first", ["blue"])[0])
    with _at(f.line("turn")):
        s.turn = parse_seat(f.get("turn", ["blue"])[0])
    rests = _zones(s, f)
    stack_lines: dict[int, int] = {}
    for n, words in f.stacks:
        with _at(n):
            if not words:
                raise NotationError("'stack' needs a node id")
            i = _node(b, words[0], "stack")
            if i in stack_lines:
                raise NotationError(f"node {words[0]} given twice (first on line {stack_lines[i]})")
            stack_lines[i] = n
            s.set_stack(i, tuple(_parse_board_tile(w) for w in words[1:]))
    with _at(f.line("discard")):
        s.discard = [_parse_board_tile(w) for w in f.get("discard") if w != "-"]
    for seat, key in rests:
        _fill_rest(s, seat, key.split()[1])
    with _at(f.line("claimed")):
        _claims(s, f.get("claimed"))
    with _at(f.line("decision")):
        _decision(s, f.get("decision", ["turn"]))
    with _at(f.line("queue")):
        for w in f.get("queue"):
            nid, _, h = w.partition(":")
            what = f"queue entry {_show(w)} (NODE:HEIGHT)"
            s.queue.append((_node(b, nid, what), _number(h, f"{what}: the height", 1, MAX_HEIGHT)))
    with _at(f.line("ply")):
        if "ply" in f.by_key:
            s.ply = _number(f.get("ply")[0], "ply", 0, MAX_PLY)
    return s


def _zones(s: State, f: _Fields) -> list[tuple[int, str]]:
    """Read both seats' zones into ``s``; return (seat, key) for each zone that ends with ``rest``."""
    rests: list[tuple[int, str]] = []
    for seat in (BLUE, RED):
        for zone in ("rack", "laid", "reserve", "aside", "public"):
            key = f"{SEATS[seat]} {zone}"
            words = f.get(key)
            with _at(f.line(key)):
                if words and words[-1].lower() == "rest":
                    if zone == "public":
                        raise NotationError("'rest' fills a rack, laid, reserve or aside line, not public tiles")
                    done = [k for w, k in rests if w == seat]
                    if done:
                        raise NotationError(f"'rest' is already used on line {f.line(done[0])}; one zone takes "
                                            f"the rest of {SEATS[seat]}'s army")
                    rests.append((seat, key))
                    words = words[:-1]
                if any(w.lower() == "rest" for w in words):
                    raise NotationError("'rest' must be the last word of its line")
                tiles = _parse_tiles(words, seat)
            getattr(s, zone)[seat] = tiles[::-1] if zone == "reserve" else tiles if zone == "aside" else sorted(tiles)
    return rests


def _seat_tiles(s: State, seat: int) -> list[int]:
    """Every tile of ``seat``'s army that ``s`` places somewhere."""
    tiles = [t for st in s.stacks for t in st if t >> 4 == seat] + [t for t in s.discard if t >> 4 == seat]
    return tiles + s.rack[seat] + s.laid[seat] + s.reserve[seat] + s.aside[seat]


def _fill_rest(s: State, seat: int, zone: str) -> None:
    """Put the tiles of ``seat``'s army that no other line places into ``zone`` (below any given there).
    When some tile of that army is unknown, so are the rest."""
    tiles = _seat_tiles(s, seat)
    if any(not t & 15 for t in tiles):
        fill = [seat << 4] * max(0, len(full_army(seat)) - len(tiles))
    else:
        fill = sorted((Counter(full_army(seat)) - Counter(tiles)).elements())
    zones = getattr(s, zone)
    if zone == "reserve":  # stored top last: the rest goes under the tiles written before it
        zones[seat] = fill[::-1] + zones[seat]
    elif zone == "aside":
        zones[seat] = zones[seat] + fill
    else:
        zones[seat] = sorted(zones[seat] + fill)


def _claims(s: State, words: list[str]) -> None:
    region_index = {r.id: k for k, r in enumerate(s.b.terrain.regions)}
    for w in words:
        if w == "-":
            continue
        rid, _, who = w.partition(":")
        k = region_index.get(_number(rid, f"the region in claim {_show(w)}", 0, MAX_NODE_ID), -1)
        if k < 0 or who.lower() not in SEATS:
            raise NotationError(f"bad claim {_show(w)} (expected REGION:blue or REGION:red, with a region of "
                                f"{s.b.terrain.name})")
        s.claimed[k] = SEATS.index(who.lower())


def _decision(s: State, dec: list[str]) -> None:
    if dec[0] not in _DECISION_BY_NAME:
        raise NotationError(f"unknown decision {_show(dec[0])} (one of: {', '.join(_DECISION_BY_NAME)})")
    s.decision = _DECISION_BY_NAME[dec[0]]
    if s.decision == OVER:
        if len(dec) != 3 or dec[2] not in ENDINGS:
            raise NotationError(f"'decision over' needs the winner and how: over blue {'|'.join(ENDINGS)}")
        s.winner, s.reason = parse_seat(dec[1]), dec[2]
    elif len(dec) > 1:
        s.dnode = _node(s.b, dec[1], "the decision's node")


def check_position(s: State) -> None:
    """Raise NotationError unless ``s`` could arise in a game (tile counts, rack limit, claims); the
    error's ``field`` names the position line to blame."""
    b = s.b
    for seat in (BLUE, RED):
        who = SEATS[seat]
        tiles = _seat_tiles(s, seat)
        over = sorted(t for t, c in Counter(t & 15 for t in tiles if t & 15).items() if c > COPIES)
        if over:
            raise NotationError(f"{who} has more than {COPIES} tiles of {' '.join(code(t) for t in over)}; "
                                f"an army holds {COPIES} of each troop: {_tally(s, seat)}", field=f"{who} reserve")
        if len(tiles) != len(full_army(seat)):
            raise NotationError(f"{who}'s tiles add up to {len(tiles)}, not {len(full_army(seat))} "
                                f"({SET_ASIDE} of them set aside): {_tally(s, seat)}", field=f"{who} reserve")
        if s.hand_size(seat) > RACK_LIMIT:
            raise NotationError(f"{who}'s rack holds more than {RACK_LIMIT} tiles", field=f"{who} rack")
        if len(s.aside[seat]) != SET_ASIDE:
            raise NotationError(f"{who} must have {SET_ASIDE} tiles set aside", field=f"{who} aside")
        if Counter(s.public[seat]) - Counter(t for t in s.rack[seat] + s.laid[seat] if t & 15) and \
                any(t & 15 for t in s.rack[seat]):
            raise NotationError(f"{who} public tiles must be on that rack", field=f"{who} public")
        if len(s.public[seat]) > s.hand_size(seat):
            raise NotationError(f"{who} has more public tiles than rack tiles", field=f"{who} public")
    for i, st in enumerate(s.stacks):
        if st and not (b.base_mask >> i) & 1 and s.decision != OVER:
            raise NotationError(f"node {b.ids[i]} is an H.Q.: tiles there mean the game is over",
                                field=f"stack {b.ids[i]}")
    for k, (bases, _) in enumerate(b.regions):
        if s.claimed[k] < 0:
            owners = {s.owner(i) for i in bases}
            if len(owners) == 1 and -1 not in owners:
                raise NotationError(f"region {b.terrain.regions[k].id} is fully held by "
                                    f"{SEATS[owners.pop()]} but not marked claimed", field="claimed")
    why = _decision_node_refusal(s)
    if why:
        raise NotationError(f"decision {DECISION_NAMES[s.decision]}: {why}", field="decision")
    for i, _ in s.queue:
        if b.power[i] not in _POWER_DECISION:
            raise NotationError(f"queue: node {b.ids[i]} has no special-base effect to wait for", field="queue")
    if s.is_chance and not s.chance_outcomes():
        raise NotationError(f"decision {DECISION_NAMES[s.decision]}: the opponent's rack holds nothing to pick",
                            field="decision")


def _decision_node_refusal(s: State) -> str:
    """Why the node the decision is about (or its absence) does not fit the board; '' if it does."""
    d, i, b = s.decision, s.dnode, s.b
    if d not in NODE_DECISIONS:
        return "is not about a node (leave the node out)" if i >= 0 else ""
    if i < 0:
        return "needs the node it is about"
    top, who = s.top(i), SEATS[s.turn]
    if d == JUMBO_TARGET:
        return "" if top == (s.turn << 4 | JUMBO) else f"node {b.ids[i]} must have {who}'s Jumbo on top"
    power = _DECISION_POWER.get(d)
    if power is None:  # a decision about a node that no special-base power explains: nothing to check
        return ""
    if b.power[i] != power:
        node = b.terrain.nodes[i]
        what = "an H.Q." if node.kind == "hq" else f"a {node.power} base" if node.power else "a plain base"
        if b.first_game and node.kind == "base":
            what += "; special bases act as plain bases in the first game"
        return f"node {b.ids[i]} has no {power} effect (it is {what})"
    if top < 0 or top >> 4 != s.turn:
        return f"node {b.ids[i]} must have {who}'s tile on top (the one whose {power} effect is due)"
    return ""


def _tally(s: State, seat: int) -> str:
    """Where ``seat``'s tiles are, by zone and by troop: what a writer needs to fix a count."""
    def listed(ts: list[int]) -> str:
        return f"{len(ts)} [{' '.join(code(t & 15) for t in sorted(ts))}]"

    zones = {"rack": s.rack[seat], "laid": s.laid[seat], "reserve": s.reserve[seat], "aside": s.aside[seat],
             "board": [t for st in s.stacks for t in st if t >> 4 == seat],
             "discard": [t for t in s.discard if t >> 4 == seat]}
    counts = Counter(t & 15 for t in _seat_tiles(s, seat))
    troops = " ".join(f"{code(t)}:{counts[t]}" for t in sorted(counts, key=lambda t: (t == 0, t)))
    where = ", ".join(f"{z} {listed(ts)}" for z, ts in zones.items() if ts)
    return f"{where}; by troop {troops} (each troop: {COPIES})"


# ---------------------------------------------------------------- records

@dataclass
class Record:
    """A game: where it starts (a setup or a position) and the actions played since, in notation.

    ``source`` holds (line, action) for each action as read from a text, so a replay can name the line
    of a refused action; actions added in code have none."""
    start: State
    actions: list[str] = field(default_factory=list)
    setup_lines: list[str] = field(default_factory=list)
    source: list[tuple[int, str]] = field(default_factory=list, repr=False, compare=False)

    def replay(self) -> State:
        """The state after every action; IllegalAction names the action's line, number and the rule."""
        s = self.start.copy()
        for n, text in enumerate(self.actions, start=1):
            try:
                seat, a = A.parse_seated(text, s.b)
            except ValueError as e:
                raise IllegalAction(self._where(n) + f"action {n} ({text}): {e}") from None
            while unanswered(s, a):  # a base effect the record never answered: declined (docs/rulings.md)
                s.apply_unchecked(A.SKIP)
            if seat is not None and seat != s.actor and not s.over:
                decides = "a chance outcome decides now" if s.is_chance else f"the decision is {SEATS[s.actor]}'s"
                raise IllegalAction(self._where(n) + f"action {n} ({text}) names {SEATS[seat]}, but {decides}: "
                                    + s.describe_decision())
            why = s.refusal(a)
            if why:
                raise IllegalAction(self._where(n) + f"action {n} ({text}) is illegal: {why}")
            s.apply_unchecked(a)
        return s

    def _where(self, n: int) -> str:
        """``line L: `` for action ``n`` if it is still the action read from line L."""
        read = self.source[:n]
        if len(read) == n and [t for _, t in read] == self.actions[:n]:
            return f"line {read[-1][0]}: "
        return ""

    def text(self) -> str:
        head = [RECORD_HEADER, *self.setup_lines]
        if not self.setup_lines:
            head += ["position", *position_text(self.start).splitlines()[1:], "end"]
        body = []
        for k in range(0, len(self.actions), 10):
            body.append(" ".join(self.actions[k:k + 10]))
        return "\n".join([*head, "actions", *body]) + "\n"


def setup_record(terrain: str, first_game: bool, first: int, orders: list[list[int]]) -> Record:
    """A record that starts from a new game with these tile orders (first 4 of each set aside)."""
    start = State.new(terrain, first_game, first, orders)
    lines = [f"terrain {terrain}", f"mode {'first-game' if first_game else 'standard'}", f"first {SEATS[first]}"]
    lines += [f"{SEATS[seat]} order " + " ".join(code(t & 15) for t in orders[seat]) for seat in (BLUE, RED)]
    return Record(start, [], lines)


seeded_orders = deal  # the name records and docs use
_SETUP_KEYS = ("terrain", "mode", "first", "seed", "blue order", "red order")


def parse_record(text: str) -> Record:
    """A Record from the record format; NotationError (naming the line) if malformed."""
    lines = _lines(text)
    if not lines or lines[0][1] != RECORD_HEADER.split():
        raise NotationError(f"a record must start with the line {RECORD_HEADER!r}", lines[0][0] if lines else 1)
    k = 1
    setup: dict[str, Line] = {}
    start: State | None = None
    start_line = 0
    while k < len(lines) and lines[k][1] != ["actions"]:
        n, words = lines[k]
        if words == ["position"]:
            end = next((j for j in range(k + 1, len(lines)) if lines[j][1] == ["end"]), None)
            if end is None:
                raise NotationError("'position' block without 'end'", n)
            if start is not None:
                raise NotationError(f"a second 'position' block (the first is on line {start_line})", n)
            start, start_line = _position(lines[k + 1:end], n), n
            k = end + 1
            continue
        key = " ".join(words[:2]) if words[0] in SEATS else words[0]
        if key not in _SETUP_KEYS:
            raise NotationError(f"unknown record line {_show(' '.join(words))}", n)
        if key in setup:
            raise NotationError(f"{key!r} given twice (first on line {setup[key][0]})", n)
        setup[key] = (n, words[len(key.split()):])
        k += 1
    end_line = lines[k][0] if k < len(lines) else lines[-1][0]
    source = [(n, w) for n, words in lines[k + 1:] for w in words if not (w.endswith(".") and w[:-1].isdigit())]
    actions = [w for _, w in source]
    if start is not None:
        if setup:
            first_setup = min(n for n, _ in setup.values())
            raise NotationError(f"a record starts from a position (line {start_line}) or from a setup, not both",
                                first_setup)
        return Record(start, actions, [], source)
    start = _setup_start(setup, end_line)
    setup_lines = [" ".join([*key.split(), *words]) for key, (_, words) in setup.items()]
    return Record(start, actions, setup_lines, source)


def parse_game(text: str) -> State:
    """The state a position describes, or the state at the end of a record (replayed: IllegalAction if
    one of its actions is refused); which one is told by the first line."""
    lines = _lines(text)
    if lines and lines[0][1] == RECORD_HEADER.split():
        return parse_record(text).replay()
    return parse_position(text)


def _setup_start(setup: dict[str, Line], end_line: int) -> State:
    """The new game a record's setup lines describe."""
    def value(key: str, default: str) -> str:
        return " ".join(setup[key][1]) if key in setup else default

    def line(key: str) -> int:
        return setup[key][0] if key in setup else end_line

    with _at(line("mode")):
        mode = value("mode", "standard")
        if mode not in ("standard", "first-game"):
            raise NotationError(f"mode must be standard or first-game, not {_show(mode)}")
    first: int | None = None
    orders: list[list[int]] | None = None
    if "seed" in setup:
        with _at(line("seed")):
            first, orders = seeded_orders(_number(value("seed", ""), "seed", 0, MAX_SEED))
    if "blue order" in setup or "red order" in setup:
        orders = []
        for seat in (BLUE, RED):
            key = f"{SEATS[seat]} order"
            with _at(line(key)):
                order = [(seat << 4) | parse_troop(w) for w in value(key, "").split()]
                if sorted(order) != full_army(seat):
                    raise NotationError(f"{key} must list that army's 24 tiles (3 of each troop)")
            orders.append(order)
    if "first" in setup:
        with _at(line("first")):
            first = parse_seat(value("first", ""))
    if orders is None or first is None:
        raise NotationError("a record needs 'seed N', or 'first' with both 'blue order' and 'red order'", end_line)
    with _at(line("terrain")):
        return State.new(value("terrain", "castle"), mode == "first-game", first, orders)
