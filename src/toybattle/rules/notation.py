"""Text formats: positions (like chess's FEN, but readable lines) and game records.

Both are documented with examples in docs/notation.md. Parsing never returns a
half-built object: it returns a checked State or raises NotationError.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from . import actions as A
from .state import DECISION_NAMES, ENDINGS, NODE_DECISIONS, OVER, IllegalAction, State, deal, unanswered
from .terrain import TerrainError
from .troops import BLUE, COPIES, RACK_LIMIT, RED, SEATS, SET_ASIDE, code, full_army, parse_seat, parse_troop

POSITION_HEADER = "toybattle position 1"
RECORD_HEADER = "toybattle record 1"
_DECISION_BY_NAME = {v: k for k, v in DECISION_NAMES.items()}


class NotationError(ValueError):
    """A position or record that cannot be read; the message says where and why."""


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
    elif s.dnode >= 0:
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


def _parse_tiles(words: list[str], seat: int) -> list[int]:
    out = []
    for w in words:
        if w == "-":
            continue
        if w.startswith("?x"):
            try:
                n = int(w[2:])
            except ValueError:
                n = -1
            if not 0 <= n <= len(full_army(seat)):  # also keeps "?x99999999999" from filling memory
                raise NotationError(f"bad unknown-tile count {w!r}")
            out += [seat << 4] * n
            continue
        out.append((seat << 4) | parse_troop(w))
    return out


def _parse_board_tile(w: str) -> int:
    if len(w) < 2 or w[0].lower() not in "br":
        raise NotationError(f"bad tile {w!r} on the board (expected b7, rK, ...)")
    t = parse_troop(w[1:])
    if not t:
        raise NotationError(f"a tile on the board cannot be unknown: {w!r}")
    return ((BLUE if w[0].lower() == "b" else RED) << 4) | t


def _lines(text: str) -> list[tuple[int, list[str]]]:
    out = []
    for n, raw in enumerate(text.replace(";", "\n").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((n, line.split()))
    return out


def parse_position(text: str) -> State:
    """A State from the position format; NotationError if malformed or inconsistent."""
    lines = _lines(text)
    if not lines or " ".join(lines[0][1]) != POSITION_HEADER:
        raise NotationError(f"a position must start with the line {POSITION_HEADER!r}")
    fields: dict[str, list[str]] = {}
    stacks: list[tuple[int, list[str]]] = []
    for n, words in lines[1:]:
        key = words[0].lower()
        if key in SEATS and len(words) >= 2:
            key = f"{key} {words[1].lower()}"
            words = [key] + words[2:]
        if key == "stack":
            stacks.append((n, words[1:]))
            continue
        if key in fields:
            raise NotationError(f"line {n}: {key!r} given twice")
        if len(words) < 2 and key in _KNOWN:
            raise NotationError(f"line {n}: {key!r} needs a value")
        fields[key] = words[1:]
    try:
        return _build(fields, stacks)
    except NotationError:
        raise
    except KeyError as e:  # a node id the terrain does not have
        raise NotationError(f"bad position: no node {e.args[0]} on this terrain") from None
    except (ValueError, IndexError, TerrainError) as e:
        raise NotationError(f"bad position: {e}") from None


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise NotationError(f"{what} must be a whole number, not {word!r}") from None


_KNOWN = {"terrain", "mode", "first", "turn", "decision", "queue", "discard", "claimed", "ply"} | {
    f"{s} {z}" for s in SEATS for z in ("rack", "laid", "reserve", "aside", "public")}


def _build(f: dict[str, list[str]], stacks: list[tuple[int, list[str]]]) -> State:
    unknown = set(f) - _KNOWN
    if unknown:
        raise NotationError(f"unknown field(s): {', '.join(sorted(unknown))}")
    if "terrain" not in f:
        raise NotationError("a position needs a 'terrain' line")
    mode = (f.get("mode") or ["standard"])[0]
    if mode not in ("standard", "first-game"):
        raise NotationError(f"mode must be standard or first-game, not {mode!r}")
    s = State.empty(f["terrain"][0], mode == "first-game")
    b = s.b
    s.first = parse_seat(f.get("first", ["blue"])[0])
    s.turn = parse_seat(f.get("turn", ["blue"])[0])
    for seat in (BLUE, RED):
        who = SEATS[seat]
        s.rack[seat] = sorted(_parse_tiles(f.get(f"{who} rack", []), seat))
        s.laid[seat] = sorted(_parse_tiles(f.get(f"{who} laid", []), seat))
        s.reserve[seat] = _parse_tiles(f.get(f"{who} reserve", []), seat)[::-1]
        s.aside[seat] = _parse_tiles(f.get(f"{who} aside", []), seat)
        s.public[seat] = sorted(_parse_tiles(f.get(f"{who} public", []), seat))
    for n, words in stacks:
        if not words:
            raise NotationError(f"line {n}: 'stack' needs a node id")
        try:
            i = b.index[int(words[0])]
        except (ValueError, KeyError):
            raise NotationError(f"line {n}: no node {words[0]!r} on {b.terrain.name}") from None
        if s.stacks[i]:
            raise NotationError(f"line {n}: node {words[0]} given twice")
        s.stacks[i] = tuple(_parse_board_tile(w) for w in words[1:])
    s.discard = [_parse_board_tile(w) for w in f.get("discard", []) if w != "-"]
    region_index = {r.id: k for k, r in enumerate(b.terrain.regions)}
    for w in f.get("claimed", []):
        if w == "-":
            continue
        rid, _, who = w.partition(":")
        try:
            s.claimed[region_index[int(rid)]] = parse_seat(who)
        except (ValueError, KeyError):
            raise NotationError(f"bad claim {w!r} (expected REGION:blue or REGION:red)") from None
    dec = f.get("decision", ["turn"])
    if dec[0] not in _DECISION_BY_NAME:
        raise NotationError(f"unknown decision {dec[0]!r} (one of: {', '.join(_DECISION_BY_NAME)})")
    s.decision = _DECISION_BY_NAME[dec[0]]
    if s.decision == OVER:
        if len(dec) != 3 or dec[2] not in ENDINGS:
            raise NotationError(f"'decision over' needs the winner and how: over blue {'|'.join(ENDINGS)}")
        s.winner, s.reason = parse_seat(dec[1]), dec[2]
    elif len(dec) > 1:
        s.dnode = b.index[_int(dec[1], "the decision's node")]
    for w in f.get("queue", []):
        nid, _, h = w.partition(":")
        s.queue.append((b.index[_int(nid, "a queue node")], _int(h, f"queue entry {w!r} (NODE:HEIGHT): height")))
    if "ply" in f:
        s.ply = _int(f["ply"][0], "ply")
    check_position(s)
    return s


def check_position(s: State) -> None:
    """Raise NotationError unless ``s`` could arise in a game (tile counts, rack limit, claims)."""
    b = s.b
    for seat in (BLUE, RED):
        who = SEATS[seat]
        tiles = [t for st in s.stacks for t in st if t >> 4 == seat] + [t for t in s.discard if t >> 4 == seat]
        tiles += s.rack[seat] + s.laid[seat] + s.reserve[seat] + s.aside[seat]
        faces = Counter(t & 15 for t in tiles if t & 15)
        for troop, c in faces.items():
            if c > COPIES:
                raise NotationError(f"{who} has {c} tiles of {code(troop)}; an army holds {COPIES}")
        if len(tiles) != len(full_army(seat)):
            raise NotationError(f"{who}'s tiles add up to {len(tiles)}, not 24 (use ?xN for unknown tiles)")
        if s.hand_size(seat) > RACK_LIMIT:
            raise NotationError(f"{who}'s rack holds more than {RACK_LIMIT} tiles")
        if len(s.aside[seat]) != SET_ASIDE:
            raise NotationError(f"{who} must have {SET_ASIDE} tiles set aside")
        if Counter(s.public[seat]) - Counter(t for t in s.rack[seat] + s.laid[seat] if t & 15) and \
                any(t & 15 for t in s.rack[seat]):
            raise NotationError(f"{who} public tiles must be on that rack")
        if len(s.public[seat]) > s.hand_size(seat):
            raise NotationError(f"{who} has more public tiles than rack tiles")
    for i, st in enumerate(s.stacks):
        if st and not (b.base_mask >> i) & 1 and s.decision != OVER:
            raise NotationError(f"node {b.ids[i]} is an H.Q.: tiles there mean the game is over")
    for k, (bases, _) in enumerate(b.regions):
        if s.claimed[k] < 0:
            owners = {s.owner(i) for i in bases}
            if len(owners) == 1 and -1 not in owners:
                raise NotationError(f"region {b.terrain.regions[k].id} is fully held by "
                                    f"{SEATS[owners.pop()]} but not marked claimed")
    if s.decision in NODE_DECISIONS and s.dnode < 0:
        raise NotationError(f"decision {DECISION_NAMES[s.decision]} needs the node it is about")
    if s.is_chance and not s.chance_outcomes():
        raise NotationError(f"decision {DECISION_NAMES[s.decision]}: the opponent's rack holds nothing to pick")


# ---------------------------------------------------------------- records

@dataclass
class Record:
    """A game: where it starts (a setup or a position) and the actions played since, in notation."""
    start: State
    actions: list[str] = field(default_factory=list)
    setup_lines: list[str] = field(default_factory=list)

    def replay(self) -> State:
        """The state after every action; IllegalAction names the action's number and the rule."""
        s = self.start.copy()
        for n, text in enumerate(self.actions, start=1):
            try:
                a = A.parse(text, s.b)
            except ValueError as e:
                raise IllegalAction(f"action {n} ({text}): {e}") from None
            while unanswered(s, a):  # a base effect the record never answered: declined (docs/rulings.md)
                s.apply_unchecked(A.SKIP)
            why = s.refusal(a)
            if why:
                raise IllegalAction(f"action {n} ({text}) is illegal: {why}")
            s.apply_unchecked(a)
        return s

    def text(self) -> str:
        head = [RECORD_HEADER] + self.setup_lines
        if not self.setup_lines:
            head += ["position"] + position_text(self.start).splitlines()[1:] + ["end"]
        body = []
        for k in range(0, len(self.actions), 10):
            body.append(" ".join(self.actions[k:k + 10]))
        return "\n".join(head + ["actions"] + body) + "\n"


def setup_record(terrain: str, first_game: bool, first: int, orders: list[list[int]]) -> Record:
    """A record that starts from a new game with these tile orders (first 4 of each set aside)."""
    start = State.new(terrain, first_game, first, orders)
    lines = [f"terrain {terrain}", f"mode {'first-game' if first_game else 'standard'}", f"first {SEATS[first]}"]
    lines += [f"{SEATS[seat]} order " + " ".join(code(t & 15) for t in orders[seat]) for seat in (BLUE, RED)]
    return Record(start, [], lines)


seeded_orders = deal  # the name records and docs use


def parse_record(text: str) -> Record:
    """A Record from the record format; NotationError if malformed."""
    raw_lines = text.splitlines()
    body = [(n, l.split("#", 1)[0].strip()) for n, l in enumerate(raw_lines, start=1)]
    body = [(n, l) for n, l in body if l]
    if not body or body[0][1] != RECORD_HEADER:
        raise NotationError(f"a record must start with the line {RECORD_HEADER!r}")
    k = 1
    setup: dict[str, str] = {}
    setup_lines: list[str] = []
    start = None
    while k < len(body) and body[k][1] != "actions":
        n, line = body[k]
        if line == "position":
            end = next((j for j in range(k + 1, len(body)) if body[j][1] == "end"), None)
            if end is None:
                raise NotationError(f"line {n}: 'position' block without 'end'")
            start = parse_position("\n".join([POSITION_HEADER] + [l for _, l in body[k + 1:end]]))
            k = end + 1
            continue
        key, _, value = line.partition(" ")
        if key in SEATS:
            sub, _, value = value.partition(" ")
            key = f"{key} {sub}"
        if key not in ("terrain", "mode", "first", "seed", "blue order", "red order"):
            raise NotationError(f"line {n}: unknown record line {line!r}")
        if key in setup:
            raise NotationError(f"line {n}: {key!r} given twice")
        setup[key] = value.strip()
        setup_lines.append(line)
        k += 1
    actions = []
    for n, line in body[k + 1:]:
        actions += [w for w in line.split() if not (w.endswith(".") and w[:-1].isdigit())]
    if start is not None:
        if setup:
            raise NotationError("a record starts from a position or from a setup, not both")
        return Record(start, actions, [])
    try:
        terrain = setup.get("terrain", "castle")
        mode = setup.get("mode", "standard")
        if mode not in ("standard", "first-game"):
            raise NotationError(f"mode must be standard or first-game, not {mode!r}")
        first, orders = None, None
        if "seed" in setup:
            first, orders = seeded_orders(_int(setup["seed"], "seed"))
        if "blue order" in setup or "red order" in setup:
            orders = [[(seat << 4) | parse_troop(w) for w in setup.get(f"{SEATS[seat]} order", "").split()]
                      for seat in (BLUE, RED)]
            for seat in (BLUE, RED):
                if sorted(orders[seat]) != full_army(seat):
                    raise NotationError(f"{SEATS[seat]} order must list that army's 24 tiles (3 of each troop)")
        if "first" in setup:
            first = parse_seat(setup["first"])
        if orders is None or first is None:
            raise NotationError("a record needs 'seed N', or 'first' with both 'blue order' and 'red order'")
        start = State.new(terrain, mode == "first-game", first, orders)
    except NotationError:
        raise
    except (ValueError, TerrainError, IllegalAction) as e:
        raise NotationError(f"bad record setup: {e}") from None
    return Record(start, actions, setup_lines)

