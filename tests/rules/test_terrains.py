"""The shipped terrain data checked against FACTS.md, and malformed terrain data rejected clearly.

FACTS_BOARDS below is transcribed from FACTS.md §3 (counts, objectives) and §4 (paths, regions with
medals, special nodes), itself read from BGA's material file and checked against the board art.
"""
from __future__ import annotations

import copy
import json
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toybattle.rules import TERRAIN_IDS, Board, TerrainError, load_terrain, parse_terrain
from toybattle.rules.troops import parse_troop

# id: (bases, H.Q. blue, H.Q. red, objective, paths, regions as (bases, medals), special nodes)
FACTS_BOARDS = {
    "castle": (15, [1], [41], 7,
               "1-11 1-12 11-13 12-14 13-15 13-17 13-18 14-16 14-18 14-19 15-17 16-19 17-20 17-22 18-22 18-23 "
               "19-21 19-23 20-22 21-23 22-24 23-25 24-41 25-41",
               "11 12 13 14 18:3 | 13 15 17:1 | 14 16 19:1 | 13 17 18 22:2 | 14 18 19 23:2 | 17 20 22:1 | "
               "19 21 23:1 | 18 22 23 24 25:3",
               "15=recall 16=recall 20=recall 21=recall"),
    "pool": (13, [1, 2], [41, 42], 6,
             "1-11 2-13 11-12 11-13 12-13 12-15 13-14 13-17 14-16 14-17 15-17 15-18 16-19 17-19 17-20 17-21 "
             "18-20 19-22 20-21 21-22 21-23 21-41 22-23 23-42",
             "11 12 13:1 | 12 13 15 17:2 | 13 14 17:1 | 14 16 17 19:2 | 15 17 18 20:2 | 17 20 21:1 | "
             "17 19 21 22:2 | 21 22 23:1",
             "2=67K 12=12K 16=345K 17=67K 18=345K 22=12K 41=67K"),
    "clouds": (14, [1], [41], 8,
               "1-11 1-12 11-13 11-14 12-13 12-15 13-14 13-15 14-16 14-17 15-16 15-18 16-17 16-18 17-19 17-20 "
               "18-19 18-21 19-20 19-21 20-22 20-23 21-22 21-24 22-23 22-24 23-41 24-41",
               "11 12 13:1 | 11 13 14:1 | 12 13 15:1 | 13 14 15 16:2 | 14 16 17:1 | 15 16 18:1 | "
               "16 17 18 19:2 | 17 19 20:1 | 18 19 21:1 | 19 20 21 22:2 | 20 22 23:1 | 21 22 24:1 | 22 23 24:1",
               "13=draw 16=draw 19=draw 22=draw"),
    "jungle": (13, [1], [41], 7,
               "1-11 1-13 11-12 11-13 11-14 12-15 13-16 14-15 14-17 15-18 16-17 16-19 17-18 17-20 18-21 19-20 "
               "19-22 20-23 21-23 21-41 22-23 23-41",
               "11 13 14 16 17:3 | 11 12 14 15:2 | 14 15 17 18:2 | 16 17 19 20:2 | 17 18 20 21 23:3 | "
               "19 20 22 23:2",
               "15=shove 19=shove"),
    "cemetery": (15, [1], [41], 7,
                 "1-11 1-13 11-13 11-14 11-16 12-13 12-15 13-15 14-16 15-16 15-17 15-18 16-18 16-19 17-20 18-20 "
                 "18-21 19-21 20-21 20-22 20-25 21-23 21-24 22-25 23-24 23-25 23-41 25-41",
                 "11 14 16:1 | 11 13 15 16:2 | 12 13 15:1 | 15 16 18:1 | 15 17 18 20:2 | 16 18 19 21:2 | "
                 "18 20 21:1 | 20 22 25:1 | 20 21 23 25:2 | 21 23 24:1",
                 "12=recover 14=recover 22=recover 24=recover"),
    "caribbean": (12, [1, 2], [41], 5,
                  "1-11 1-13 2-15 11-12 11-14 12-15 12-17 12-21 13-14 14-16 15-18 16-17 16-19 17-20 18-21 19-20 "
                  "19-22 20-21 20-41 22-41",
                  "11 13 14:1 | 11 12 14 16 17:3 | 12 15 18 21:2 | 12 17 20 21:2 | 16 17 19 20:2 | 19 20 22:1",
                  ""),
    "station": (13, [1], [41], 7,
                "1-11 1-12 11-14 11-15 12-13 12-15 13-15 13-16 14-15 14-18 15-16 15-17 15-18 16-17 16-19 16-20 "
                "17-18 17-19 18-19 18-21 19-20 19-21 19-22 19-23 20-23 21-22 22-41 23-41",
                "11 12 15:1 | 11 14 15:1 | 12 13 15:1 | 13 15 16:1 | 14 15 18:1 | 15 16 17:1 | 15 17 18:1 | "
                "16 17 19:1 | 17 18 19:1 | 16 19 20:1 | 18 19 21:1 | 19 20 23:1 | 19 21 22:1 | 19 22 23:1",
                "16=nullify 17=nullify 18=nullify"),
    "battlefield": (14, [1], [41], 8,
                    "1-11 1-12 11-13 12-15 13-14 13-16 13-17 14-15 14-17 14-18 15-18 15-19 16-20 17-20 17-21 "
                    "18-21 18-22 19-22 20-21 20-23 21-22 22-24 23-41 24-41",
                    "11 12 13 14 15:3 | 13 14 17:1 | 14 15 18:1 | 13 16 17 20:2 | 14 17 18 21:2 | "
                    "15 18 19 22:2 | 17 20 21:1 | 18 21 22:1 | 20 21 22 23 24:3",
                    "14=lay_down 16=lay_down 19=lay_down 21=lay_down"),
    "croisette": (13, [1], [41], 5,
                  "1-11 1-13 1-14 11-12 12-13 13-15 13-16 14-17 15-16 15-18 16-17 16-19 17-19 17-20 18-19 18-21 "
                  "19-21 20-41 21-22 21-41 22-23 23-41",
                  "11 12 13:1 | 13 15 16:1 | 15 16 18 19:2 | 18 19 21:1 | 21 22 23:1 | 13 14 16 17:2 | "
                  "16 17 19:1 | 17 19 20 21:2",
                  "12=draw 14=4567K 15=lay_down 17=nullify 18=lay_down 20=4567K 22=draw"),
}
# FACTS.md §3 table: (paths, regions, medals) per terrain
FACTS_COUNTS = {"castle": (24, 8, 14), "pool": (24, 8, 12), "clouds": (28, 13, 16), "jungle": (22, 6, 14),
                "cemetery": (28, 10, 14), "caribbean": (20, 6, 11), "station": (28, 14, 14),
                "battlefield": (24, 9, 16), "croisette": (22, 8, 11)}


def test_every_facts_terrain_is_shipped():
    """FACTS.md §3: the 8 printed terrains and La Croisette, and nothing else."""
    assert set(TERRAIN_IDS) == set(FACTS_BOARDS)


@pytest.mark.parametrize("tid", TERRAIN_IDS)
def test_terrain_counts_match_facts(tid):
    """FACTS.md §3 table and §4 counts: bases, H.Q. per side, paths, regions, medals, objective."""
    t = load_terrain(tid)
    bases, hq_blue, hq_red, objective, *_ = FACTS_BOARDS[tid]
    assert len(t.bases) == bases
    assert [n.id for n in t.hqs(0)] == hq_blue and [n.id for n in t.hqs(1)] == hq_red
    assert (len(t.paths), len(t.regions), t.medals) == FACTS_COUNTS[tid]
    assert t.objective == (objective, objective)


@pytest.mark.parametrize("tid", TERRAIN_IDS)
def test_terrain_graph_matches_facts(tid):
    """FACTS.md §4: every path, every region (bases and medals) and every special node, exactly."""
    t = load_terrain(tid)
    _, _, _, _, paths, regions, special = FACTS_BOARDS[tid]
    want_paths = {tuple(sorted(int(x) for x in p.split("-"))) for p in paths.split()}
    assert set(t.paths) == want_paths
    want_regions = sorted((tuple(sorted(int(x) for x in r.split(":")[0].split())), int(r.split(":")[1]))
                          for r in regions.split("|"))
    assert sorted((tuple(sorted(r.bases)), r.medals) for r in t.regions) == want_regions
    got = {}
    for n in t.nodes:
        if n.power:
            got[n.id] = n.power
        if n.allowed:
            got[n.id] = frozenset(n.allowed)
    want = {}
    for item in special.split():
        nid, _, what = item.partition("=")
        want[int(nid)] = frozenset(parse_troop(c) for c in what) if what[0] in "1234567K" else what
    assert got == want


@pytest.mark.parametrize("tid", TERRAIN_IDS)
def test_terrain_structure(tid):
    """FACTS.md §1.5 and §3: every region's medals = its bases - 2; objective = floor(total medals / 2);
    paths are two-way (adjacency symmetric); regions are bounded by existing bases; ids unique."""
    t = load_terrain(tid)
    bases = {n.id for n in t.bases}
    for r in t.regions:
        assert r.medals == len(r.bases) - 2, r
        assert set(r.bases) <= bases and len(set(r.bases)) == len(r.bases)
        assert not r.medal_spots or len(r.medal_spots) == r.medals
    assert t.objective == (t.medals // 2, t.medals // 2)
    for first_game in (False, True):
        b = Board(t, first_game)
        for i in range(b.size):
            for j in range(b.size):
                assert (b.adj[i] >> j & 1) == (b.adj[j] >> i & 1)
            assert not b.adj[i] >> i & 1
    for n in t.nodes:
        for m in t.neighbours(n.id):
            assert n.id in t.neighbours(m)
    assert len({n.id for n in t.nodes}) == len(t.nodes)
    # every H.Q. has a way in, and every region's bases are joined by paths into one ring piece
    for n in t.nodes:
        assert t.neighbours(n.id)


def test_first_game_board_drops_powers_and_restrictions():
    """FACTS.md §5 #28: first-game mode compiles every terrain without powers, restrictions or nullify."""
    for tid in TERRAIN_IDS:
        b = Board(load_terrain(tid), True)
        assert b.power == [None] * b.size and b.nullify_mask == 0
        assert all(m == (1 << b.size) - 1 for m in b.allowed)


# ----------------------------------------------------------------- malformed terrain data

def castle_raw() -> dict:
    return json.loads(resources.files("toybattle.rules").joinpath("data/terrains/castle.json").read_text("utf-8"))


def broken(change) -> dict:
    raw = castle_raw()
    change(raw)
    return raw


def _drop_red_hq(raw):
    raw["nodes"] = [n for n in raw["nodes"] if n["id"] != 41]
    raw["paths"] = [p for p in raw["paths"] if 41 not in p]


@pytest.mark.parametrize("raw, message", [
    (broken(_drop_red_hq), "no H.Q. for red"),
    (broken(lambda r: r["paths"].append([25, 99])), "path 25-99 names a node that does not exist"),
    (broken(lambda r: r["regions"][0]["bases"].append(41)), "bounded by existing bases"),
    (broken(lambda r: r["regions"][0]["bases"].append(77)), "bounded by existing bases"),
    (broken(lambda r: r["nodes"].append(dict(r["nodes"][1]))), "node ids repeat"),
    (broken(lambda r: r["regions"].append(dict(r["regions"][0]))), "region ids repeat"),
    (broken(lambda r: r["paths"].append([11, 1])), "listed twice"),
    (broken(lambda r: r["paths"].append([11, 11])), "loop"),
    (broken(lambda r: r.pop("nodes")), "missing 'nodes'"),
    (broken(lambda r: r.__setitem__("nodes", {"1": {}})), "'nodes' must be list"),
    (broken(lambda r: r["nodes"].__setitem__(0, [1, "hq"])), "must be an object"),
    (broken(lambda r: r["nodes"][0].__setitem__("kind", "castle")), "kind must be 'base' or 'hq'"),
    (broken(lambda r: r["nodes"][0].__setitem__("side", "green")), "side must be blue or red"),
    (broken(lambda r: r["nodes"][1].__setitem__("power", "teleport")), "unknown power"),
    (broken(lambda r: r["nodes"][1].__setitem__("allowed", ["Bob"])), "bad 'allowed' list"),
    (broken(lambda r: r["nodes"][1].__setitem__("x", "left")), "'x' must be float"),
    (broken(lambda r: r.__setitem__("objective", {"blue": 7})), "objective needs whole numbers"),
    (broken(lambda r: r["paths"].append([11])), "a path must be a pair"),
    (broken(lambda r: r["regions"][0].__setitem__("medals", -1)), "medals must be >= 0"),
    ([1, 2, 3], "must hold a JSON object"),
    ("castle", "must hold a JSON object"),
])
def test_malformed_terrain_rejected_with_clear_message(raw, message):
    """A terrain file that does not describe a playable board is refused with a TerrainError naming the
    problem (missing H.Q., path to a missing node, region with a non-base, bad shape, duplicate ids)."""
    with pytest.raises(TerrainError) as e:
        parse_terrain(raw)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_unknown_terrain_id():
    """load_terrain names the known ids when asked for an unknown one."""
    with pytest.raises(TerrainError, match=r"unknown terrain 'moon'.*castle"):
        load_terrain("moon")


def _json_values():
    return st.recursive(st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) |
                        st.text(max_size=6) | st.sampled_from(["hq", "base", "blue", "red", "Kwak", "7", "recall"]),
                        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                    max_size=3),
                        max_leaves=6)


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


CASTLE_PATHS = [p for p in _paths(castle_raw()) if p]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(CASTLE_PATHS), _json_values() | st.just("<delete>")), min_size=1,
                max_size=3))
def test_mutated_terrain_gives_terrain_error_or_a_valid_terrain(mutations):
    """Fuzz: any mutation of a valid terrain file is either still a valid terrain or a TerrainError with
    a one-line message; never another exception."""
    raw = copy.deepcopy(castle_raw())
    for path, value in mutations:
        holder = raw
        try:
            for k in path[:-1]:
                holder = holder[k]
            if value == "<delete>":
                del holder[path[-1]]
            else:
                holder[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        parse_terrain(raw)
    except TerrainError as e:
        assert str(e) and "\n" not in str(e)
