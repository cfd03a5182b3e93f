"""Terrains: the board graphs, loaded from data files and checked on load.

A Terrain is the printed board. ``Board`` is a terrain compiled for one mode
(standard or first-game) into bitmasks over node indices, which is what the
engine's hot paths read.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from .troops import BLUE, KWAK, RED, SEATS, TROOPS, parse_troop

AFTER_POWERS = ("recall", "draw", "shove", "recover", "lay_down")
POWERS = AFTER_POWERS + ("nullify",)
TERRAIN_IDS = ("castle", "pool", "clouds", "jungle", "cemetery", "caribbean", "station", "battlefield", "croisette")


class TerrainError(ValueError):
    """A terrain file that does not describe a playable board."""


@dataclass(frozen=True)
class Node:
    id: int
    kind: str  # "base" or "hq"
    x: float
    y: float
    side: int | None = None  # owner seat of an H.Q.
    power: str | None = None
    allowed: frozenset[int] | None = None  # restricted slot: troops allowed (Kwak included)

    # the compiled build's frozen classes have no pickling of their own: each says how it is built again
    def __reduce__(self) -> tuple[Any, ...]:
        return Node, (self.id, self.kind, self.x, self.y, self.side, self.power, self.allowed)


@dataclass(frozen=True)
class Region:
    id: int
    bases: tuple[int, ...]
    medals: int
    medal_spots: tuple[tuple[float, float], ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return Region, (self.id, self.bases, self.medals, self.medal_spots)


@dataclass(frozen=True)
class Terrain:
    id: str
    name: str
    name_fr: str
    objective: tuple[int, int]
    nodes: tuple[Node, ...]
    paths: tuple[tuple[int, int], ...]
    regions: tuple[Region, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return Terrain, (self.id, self.name, self.name_fr, self.objective, self.nodes, self.paths, self.regions)

    def node(self, node_id: int) -> Node:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    @property
    def bases(self) -> tuple[Node, ...]:
        return tuple(n for n in self.nodes if n.kind == "base")

    def hqs(self, seat: int) -> tuple[Node, ...]:
        return tuple(n for n in self.nodes if n.kind == "hq" and n.side == seat)

    @property
    def medals(self) -> int:
        return sum(r.medals for r in self.regions)

    def neighbours(self, node_id: int) -> list[int]:
        return sorted({b for a, b in self.paths if a == node_id} | {a for a, b in self.paths if b == node_id})


def _req(d: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in d:
        raise TerrainError(f"{where}: missing {key!r}")
    v = d[key]
    if kind is float and isinstance(v, int) and not isinstance(v, bool):
        v = float(v)
    if not isinstance(v, kind) or isinstance(v, bool):
        raise TerrainError(f"{where}: {key!r} must be {kind.__name__}")
    return v


def parse_terrain(raw: object) -> Terrain:
    """Build and validate a Terrain from its JSON data; raise TerrainError with a clear message."""
    if not isinstance(raw, dict):
        raise TerrainError("terrain: the file must hold a JSON object")
    tid = _req(raw, "id", str, "terrain")
    where = f"terrain {tid!r}"
    name = _req(raw, "name", str, where)
    objective = _req(raw, "objective", dict, where)
    try:
        obj = (int(objective["blue"]), int(objective["red"]))
    except (KeyError, TypeError, ValueError, OverflowError):  # OverflowError: an infinite number
        raise TerrainError(f"{where}: objective needs whole numbers for 'blue' and 'red'") from None
    nodes = []
    for i, n in enumerate(_req(raw, "nodes", list, where)):
        nw = f"{where} node #{i + 1}"
        if not isinstance(n, dict):
            raise TerrainError(f"{nw}: must be an object")
        nid = _req(n, "id", int, nw)
        kind = _req(n, "kind", str, nw)
        if kind not in ("base", "hq"):
            raise TerrainError(f"{nw}: kind must be 'base' or 'hq'")
        side = None
        if kind == "hq":
            s = _req(n, "side", str, nw)
            if s not in SEATS:
                raise TerrainError(f"{nw}: H.Q. side must be blue or red")
            side = SEATS.index(s)
        power = n.get("power")
        if power is not None and (power not in POWERS or kind != "base"):
            raise TerrainError(f"{nw}: unknown power {power!r} (or power on an H.Q.)")
        allowed = None
        if "allowed" in n:
            try:
                allowed = frozenset(parse_troop(t) for t in n["allowed"])
            except (TypeError, ValueError, AttributeError) as e:  # AttributeError: a non-text entry
                raise TerrainError(f"{nw}: bad 'allowed' list: {e}") from None
            if not allowed or 0 in allowed:
                raise TerrainError(f"{nw}: 'allowed' must name troops")
        nodes.append(Node(nid, kind, _req(n, "x", float, nw), _req(n, "y", float, nw), side, power, allowed))
    ids = [n.id for n in nodes]
    if len(set(ids)) != len(ids):
        raise TerrainError(f"{where}: node ids repeat")
    if len(nodes) > 31:
        raise TerrainError(f"{where}: at most 31 nodes")
    for seat in (BLUE, RED):
        if not any(n.kind == "hq" and n.side == seat for n in nodes):
            raise TerrainError(f"{where}: no H.Q. for {SEATS[seat]}")
    kinds = {n.id: n.kind for n in nodes}
    paths = []
    for p in _req(raw, "paths", list, where):
        if not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) for x in p)):
            raise TerrainError(f"{where}: a path must be a pair of node ids, got {p!r}")
        a, b = p
        if a not in kinds or b not in kinds:
            raise TerrainError(f"{where}: path {a}-{b} names a node that does not exist")
        if a == b:
            raise TerrainError(f"{where}: path {a}-{b} is a loop")
        paths.append((min(a, b), max(a, b)))
    if len(set(paths)) != len(paths):
        raise TerrainError(f"{where}: a path is listed twice (paths are two-way)")
    linked = {x for p in paths for x in p}
    if set(ids) - linked:
        raise TerrainError(f"{where}: node(s) {sorted(set(ids) - linked)} have no path")
    regions = []
    for r in _req(raw, "regions", list, where):
        rw = f"{where} region"
        if not isinstance(r, dict):
            raise TerrainError(f"{rw}: must be an object")
        rid = _req(r, "id", int, rw)
        bases = _req(r, "bases", list, f"{rw} {rid}")
        if not bases or any(not isinstance(b, int) or kinds.get(b) != "base" for b in bases):
            raise TerrainError(f"{rw} {rid}: every region must be bounded by existing bases, got {bases}")
        medals = _req(r, "medals", int, f"{rw} {rid}")
        try:
            spots = tuple((float(x), float(y)) for x, y in r.get("medal_spots", []))
        except (TypeError, ValueError):
            raise TerrainError(f"{rw} {rid}: medal_spots must be a list of [x, y] pairs") from None
        if medals < 0 or len(spots) not in (0, medals):
            raise TerrainError(f"{rw} {rid}: medals must be >= 0, with one spot per medal")
        regions.append(Region(rid, tuple(bases), medals, spots))
    if len({r.id for r in regions}) != len(regions):
        raise TerrainError(f"{where}: region ids repeat")
    return Terrain(tid, name, str(raw.get("name_fr", name)), obj, tuple(nodes), tuple(paths), tuple(regions))


@cache
def load_terrain(terrain_id: str) -> Terrain:
    """One of the shipped terrains, by id (see TERRAIN_IDS)."""
    if terrain_id not in TERRAIN_IDS:
        raise TerrainError(f"unknown terrain {terrain_id!r} (one of: {', '.join(TERRAIN_IDS)})")
    text = resources.files("toybattle.rules").joinpath(f"data/terrains/{terrain_id}.json").read_text("utf-8")
    t = parse_terrain(json.loads(text))
    if t.id != terrain_id:
        raise TerrainError(f"terrain file {terrain_id}.json holds id {t.id!r}")
    return t


class Board:
    """A terrain compiled for one mode into node indices and bitmasks (what the engine reads)."""

    def __init__(self, terrain: Terrain, first_game: bool):
        self.terrain = terrain
        self.first_game = first_game
        self.ids = tuple(n.id for n in terrain.nodes)
        self.index = {nid: i for i, nid in enumerate(self.ids)}
        n = len(self.ids)
        self.size = n
        self.adj = [0] * n
        for a, b in terrain.paths:
            ia, ib = self.index[a], self.index[b]
            self.adj[ia] |= 1 << ib
            self.adj[ib] |= 1 << ia
        self._near = _near_table(self.adj)
        self.neighbours = [tuple(j for j in range(n) if self.adj[i] >> j & 1) for i in range(n)]
        self.bases = tuple(i for i, nd in enumerate(terrain.nodes) if nd.kind == "base")
        self.base_mask = sum(1 << i for i in self.bases)
        self.hq = tuple(tuple(i for i, nd in enumerate(terrain.nodes) if nd.kind == "hq" and nd.side == s)
                        for s in (BLUE, RED))
        self.hq_mask = tuple(sum(1 << i for i in hs) for hs in self.hq)
        # per seat, the nodes next to its H.Q.: where every connection search starts
        self.hq_adj = tuple(_union(self.adj[i] for i in hs) for hs in self.hq)
        self.objective = terrain.objective
        everything = (1 << n) - 1
        allowed = {t: everything for t in TROOPS}
        self.power: list[str | None] = [None] * n
        self.nullify_mask = 0
        if not first_game:
            for i, nd in enumerate(terrain.nodes):
                if nd.allowed is not None:
                    for t in TROOPS:
                        if t not in nd.allowed and t != KWAK:  # Kwak passes every restriction (ruling 18)
                            allowed[t] &= ~(1 << i)
                self.power[i] = nd.power
                if nd.power == "nullify":
                    self.nullify_mask |= 1 << i
        self.effect_mask = _union(1 << i for i, p in enumerate(self.power) if p in AFTER_POWERS)
        self.allowed = [everything] + [allowed[t] for t in TROOPS]  # indexed by troop
        self.regions = tuple((tuple(self.index[b] for b in r.bases), r.medals) for r in terrain.regions)
        self.region_mask = tuple(_union(1 << i for i in bs) for bs, _ in self.regions)  # taken when one seat tops all
        self.regions_of = [tuple(k for k, (bs, _) in enumerate(self.regions) if i in bs) for i in range(n)]

    def node_id(self, i: int) -> int:
        return self.ids[i]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the name of a shipped terrain's board (``board(id, first_game)``), so a state sent
        to another process (a bot worker) arrives on that process's own board for it: one per terrain and
        mode, not a new board per message that every cache keyed by the board would keep. A terrain that
        is not a shipped one goes by value."""
        t = self.terrain
        if t.id in TERRAIN_IDS:
            shipped = load_terrain(t.id)
            if shipped is t or shipped == t:
                return board, (t.id, self.first_game)
        return Board, (t, self.first_game)

    def spread(self, mask: int) -> int:
        """The nodes one path away from any node of ``mask``: one table look-up per byte of it."""
        near = self._near
        out = 0
        k = 0
        while mask:
            out |= near[k | (mask & 255)]
            mask >>= 8
            k += 256
        return out


def _near_table(adj: list[int]) -> list[int]:
    """At ``k << 8 | byte``: the nodes next to those that ``byte`` stands for (nodes 8k to 8k + 7)."""
    table = [0] * (((len(adj) + 7) >> 3) << 8)
    for at in range(1, len(table)):
        k, byte = at & ~255, at & 255
        low = byte & -byte
        if low:
            j = (k >> 5) + low.bit_length() - 1  # node 8 * (at >> 8) + the lowest bit of the byte
            table[at] = table[at ^ low] | (adj[j] if j < len(adj) else 0)
    return table


def _union(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


@cache
def board(terrain_id: str, first_game: bool = False) -> Board:
    return Board(load_terrain(terrain_id), first_game)
