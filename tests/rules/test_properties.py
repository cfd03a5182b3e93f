"""Properties of the engine over many random games, on every terrain and in both modes.

Each hypothesis example plays one whole game with uniformly random legal actions (and random chance
outcomes) and checks an invariant after every action. About 200 games in all.
"""
from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from toybattle.rules import (
    BLUE,
    RED,
    IllegalAction,
    State,
    action_text,
    actions,
    determinize,
    observation,
    parse_position,
    parse_record,
    position_text,
    setup_record,
)
from toybattle.rules.observation import hidden_from
from toybattle.rules.state import EXTRA, TURN, XB_PICK, deal
from toybattle.rules.terrain import TERRAIN_IDS
from toybattle.rules.troops import CAPN, RACK_LIMIT, full_army

SEEDS = st.integers(0, 2**31)
TERRAINS = st.sampled_from(TERRAIN_IDS)
MODES = st.booleans()
FEW = settings(max_examples=30, deadline=None)


def new_game(seed: int, terrain: str, first_game: bool) -> tuple[State, random.Random, int, list[list[int]]]:
    first, orders = deal(seed)
    return State.new(terrain, first_game, first, orders), random.Random(seed), first, orders


def walk(seed: int, terrain: str, first_game: bool):
    """Play one random game; yield (state before, action, state after) for every action."""
    s, rng, _, _ = new_game(seed, terrain, first_game)
    while not s.over:
        a = s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions())
        before = s.copy()
        s.apply(a)
        yield before, a, s
    assert s.ply < 1000


def all_tiles(s: State, seat: int) -> list[int]:
    return sorted(s.aside[seat] + s.reserve[seat] + s.rack[seat] + s.laid[seat] +
                  [t for st_ in s.stacks for t in st_ if t >> 4 == seat] + [t for t in s.discard if t >> 4 == seat])


# ----------------------------------------------------------------- conservation, rack cap, claims

@FEW
@given(SEEDS, TERRAINS, MODES)
def test_tiles_conserved_rack_capped_regions_pay_once(seed, terrain, first_game):
    """Each army's 24 tiles stay across set-aside, reserve, rack, laid, board and discard; no rack ever
    holds more than 8; a claimed region never changes hands and medals never go down."""
    for before, _, s in walk(seed, terrain, first_game):
        assert s.ply == before.ply + 1
        for seat in (BLUE, RED):
            assert all_tiles(s, seat) == full_army(seat)
            assert s.hand_size(seat) <= RACK_LIMIT
            assert len(s.aside[seat]) == 4
            assert s.medals(seat) >= before.medals(seat)
        for k, who in enumerate(before.claimed):
            if who >= 0:
                assert s.claimed[k] == who
        for k, (bases, _) in enumerate(s.b.regions):  # every fully held region is claimed
            owners = {s.owner(i) for i in bases}
            if len(owners) == 1 and -1 not in owners:
                assert s.claimed[k] >= 0


# ----------------------------------------------------------------- hidden information

def check_observation(s: State, seat: int, arrived: Counter) -> None:
    obs = observation(s, seat)
    enemy = 1 - seat
    hidden = hidden_from(s, seat)
    zones = {"rack": obs.rack[enemy], "laid": obs.laid[enemy], "reserve": obs.reserve[enemy],
             "aside": obs.aside[enemy], "own_reserve": obs.reserve[seat], "own_aside": obs.aside[seat]}
    for zone, tiles in zones.items():
        assert len(tiles) == len(hidden[zone]) and all(t & 15 == 0 for t in tiles), zone
    assert obs.rack[seat] == s.rack[seat] and obs.laid[seat] == s.laid[seat]
    assert obs.stacks == s.stacks and obs.discard == s.discard and obs.claimed == s.claimed
    assert (obs.turn, obs.decision, obs.dnode, obs.queue) == (s.turn, s.decision, s.dnode, s.queue)
    for who in (BLUE, RED):  # public tiles are exactly those seen arriving and not seen leaving since
        assert Counter(obs.public[who]) == arrived[who]
        assert arrived[who] <= Counter(s.rack[who] + s.laid[who])
    text = position_text(obs)  # the observation's text shows no hidden face either
    for line in text.splitlines():
        if line.startswith((f"{('blue', 'red')[enemy]} rack", f"{('blue', 'red')[enemy]} laid",
                            "blue reserve", "red reserve", "blue aside", "red aside")):
            assert line.split()[2] == "-" or line.split()[2].startswith("?x"), line


@FEW
@given(SEEDS, TERRAINS, MODES)
def test_observation_hides_what_the_seat_may_not_know(seed, terrain, first_game):
    """An observation never shows the opponent's rack, laid tiles, reserve or set-aside tiles, nor the
    seat's own reserve order or set-aside tiles; public tiles are only ones that arrived in view (a
    recall or a recovery), less one of a kind each time a tile of that kind leaves the rack in view."""
    arrived = [Counter(), Counter()]
    s0, _, _, _ = new_game(seed, terrain, first_game)
    for seat in (BLUE, RED):
        check_observation(s0, seat, arrived)
    for before, a, s in walk(seed, terrain, first_game):
        seat = before.turn
        if actions.RECALL <= a < actions.RECALL_END:
            arrived[seat][before.stacks[a - actions.RECALL][-1]] += 1
        elif actions.RECOVER <= a < actions.RECOVER_END:
            arrived[seat][seat << 4 | (a - actions.RECOVER)] += 1
        elif actions.PLACE <= a < actions.PLACE_END:
            arrived[seat] -= Counter([seat << 4 | (a - actions.PLACE) >> 5])
        elif actions.PICK <= a < actions.PICK_END and before.decision == XB_PICK:
            arrived[1 - seat] -= Counter([(1 - seat) << 4 | (a & 15)])
        for seat in (BLUE, RED):
            check_observation(s, seat, arrived)


@FEW
@given(SEEDS, TERRAINS, MODES)
def test_observation_legal_actions_and_determinize(seed, terrain, first_game):
    """At the observer's own decisions the observation lists exactly the true legal actions; determinize
    fills every unknown consistently: 24 tiles per army, the same public information and stacks."""
    rng = random.Random(seed ^ 0x5EED)
    for _, _, s in walk(seed, terrain, first_game):
        if s.over:
            break
        for seat in (BLUE, RED):
            obs = observation(s, seat)
            if s.actor == seat:
                assert obs.legal_actions() == s.legal_actions()
            full = determinize(obs, rng)
            for who in (BLUE, RED):
                assert all_tiles(full, who) == full_army(who)
                assert all(t & 15 for t in all_tiles(full, who))
                for zone in ("rack", "laid", "reserve", "aside"):
                    assert len(getattr(full, zone)[who]) == len(getattr(s, zone)[who])
                assert Counter(full.public[who]) <= Counter(full.rack[who] + full.laid[who])
            assert full.rack[seat] == s.rack[seat] and full.laid[seat] == s.laid[seat]
            assert full.stacks == s.stacks and full.discard == s.discard and full.claimed == s.claimed
            assert full.public == s.public
            assert (full.turn, full.decision, full.dnode, full.queue, full.ply) == \
                (s.turn, s.decision, s.dnode, s.queue, s.ply)
            assert observation(full, seat) == obs
            if s.actor == seat:
                assert full.legal_actions() == s.legal_actions()


def test_determinize_does_not_favour_where_seen_tiles_are(kit):
    """A tile red was seen taking back (public) may be standing or laid down from blue's view: across
    determinizations both occur, and the unseen tiles vary too."""
    s = kit.build("castle", red="1 7", red_laid="2", red_public="7", stacks={11: "b1"})
    obs = observation(s, BLUE)
    rng = random.Random(7)
    laid_faces = set()
    rack_faces = set()
    for _ in range(60):
        full = determinize(obs, rng)
        assert RED << 4 | 7 in full.rack[RED] + full.laid[RED]
        laid_faces.add(full.laid[RED][0] & 15)
        rack_faces.update(t & 15 for t in full.rack[RED])
    assert 7 in laid_faces and len(laid_faces) > 2 and len(rack_faces) > 2


# ----------------------------------------------------------------- records and positions

@FEW
@given(SEEDS, TERRAINS, MODES)
def test_replaying_a_record_reproduces_the_game(seed, terrain, first_game):
    """A game written as a record (setup + actions as text) and read back replays to the same state."""
    s, rng, first, orders = new_game(seed, terrain, first_game)
    record = setup_record(terrain, first_game, first, orders)
    while not s.over:
        a = s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions())
        record.actions.append(action_text(a, s.b))
        s.apply(a)
    assert record.replay() == s
    again = parse_record(record.text())
    assert again.replay() == s
    assert again.text() == record.text()


@FEW
@given(SEEDS, TERRAINS, MODES)
def test_position_format_round_trips(seed, terrain, first_game):
    """position_text -> parse_position -> position_text is exact, for true states and observations; a
    record that starts from a mid-game position replays to the same end."""
    states = [s.copy() for _, _, s in walk(seed, terrain, first_game)]
    for s in states:
        text = position_text(s)
        back = parse_position(text)
        assert back == s and position_text(back) == text
        for seat in (BLUE, RED):
            obs = observation(s, seat)
            assert parse_position(position_text(obs)) == obs


# ----------------------------------------------------------------- refusals change nothing

def some_actions(s: State, rng: random.Random) -> list[int]:
    """A sample of every kind of action, most of them illegal now."""
    n = s.b.size
    pool = [actions.DRAW, actions.USE, actions.SKIP, -1, 0, 4, 10**9, actions.PLACE_END, actions.PICK_END]
    pool += [actions.place(t, rng.randrange(n)) for t in range(0, 10)]
    pool += [actions.place(rng.randrange(1, 9), 31)]
    pool += [actions.JUMBO + rng.randrange(32), actions.RECALL + rng.randrange(32)]
    pool += [actions.SHOVE + (rng.randrange(n) << 5) + rng.randrange(n), actions.RECOVER + rng.randrange(9)]
    pool += [actions.PICK + rng.randrange(32)]
    return pool


@FEW
@given(SEEDS, TERRAINS, MODES)
def test_illegal_action_leaves_the_state_exactly_as_it_was(seed, terrain, first_game):
    """apply() of a refused action raises IllegalAction with the rule in words and changes nothing;
    every listed action is accepted (refusal is empty)."""
    rng = random.Random(seed)
    previous = None
    for before, _, s in walk(seed, terrain, first_game):
        if previous is not None:  # playing on a state never changes an earlier copy of it
            assert position_text(before) == previous
        previous = position_text(s)
        legal = set(s.legal_actions())
        for a in legal:
            assert s.refusal(a) == ""
        for a in some_actions(s, rng):
            if a in legal:
                continue
            before = s.copy()
            why = s.refusal(a)
            assert why and "\n" not in why
            try:
                s.apply(a)
            except IllegalAction as e:
                assert str(e) == why
            else:
                raise AssertionError(f"illegal action {a} was applied")
            assert s == before


# ----------------------------------------------------------------- a second, plain reading of the rules

def plain_connected(s: State, seat: int) -> set[int]:
    """The bases joined to one of ``seat``'s H.Q. through bases its tiles top, searched from scratch."""
    b, t = s.b, s.terrain
    connected: set[int] = set()
    frontier = [i for i, n in enumerate(t.nodes) if n.kind == "hq" and n.side == seat]
    while frontier:
        for j in b.neighbours[frontier.pop()]:
            if t.nodes[j].kind == "base" and j not in connected and s.owner(j) == seat:
                connected.add(j)
                frontier.append(j)
    return connected


def plain_placements(s: State, seat: int) -> set[tuple[int, int]]:
    """(troop, node index) pairs legal for ``seat``, written straight from docs/rules.md §1.4, §2 and §5
    without bitmasks: placement (empty, own top, strictly weaker enemy top, Kwak either way, enemy
    H.Q.; never own H.Q.), restrictions (Kwak passes), connection from any own H.Q. through own-topped
    bases, Hook's waiver onto bases that are not laser bases."""
    b, t = s.b, s.terrain
    own_hq = {i for i, n in enumerate(t.nodes) if n.kind == "hq" and n.side == seat}
    connected = plain_connected(s, seat)
    out = set()
    for troop in {x & 15 for x in s.rack[seat]}:
        for i, n in enumerate(t.nodes):
            if i in own_hq:
                continue
            if not s.first_game and n.allowed is not None and troop != 8 and troop not in n.allowed:
                continue
            if n.kind == "base" and s.stacks[i] and s.owner(i) != seat:
                theirs = s.stacks[i][-1] & 15
                if not (troop == 8 or theirs == 8 or troop > theirs):
                    continue
            joined = any(j in own_hq or j in connected for j in b.neighbours[i])
            waiver = troop == 4 and n.kind == "base" and (s.first_game or n.power != "nullify")
            if joined or waiver:
                out.add((troop, i))
    return out


@FEW
@given(SEEDS, TERRAINS, MODES)
def test_legal_placements_match_a_plain_reading_of_the_rules(seed, terrain, first_game):
    """At every turn and Cap'n decision the engine's placements equal those of a slow, plain reading of
    the rules; drawing is offered exactly when the reserve has a tile and the rack (laid tiles counted)
    holds fewer than 8."""
    for _, _, s in walk(seed, terrain, first_game):
        if s.decision not in (TURN, EXTRA):
            continue
        seat = s.turn
        got = {((a - actions.PLACE) >> 5, a & 31) for a in s.legal_actions() if actions.PLACE <= a < actions.PLACE_END}
        assert got == plain_placements(s, seat), position_text(s)
        can_draw = s.decision == TURN and bool(s.reserve[seat]) and len(s.rack[seat]) + len(s.laid[seat]) < 8
        assert (actions.DRAW in s.legal_actions()) == can_draw
        assert s.legal_actions(), "a turn with nothing to do is a stuck ending, not a decision"


@FEW
@given(SEEDS, TERRAINS, MODES)
def test_capn_offers_an_extra_placement_exactly_when_there_is_one(seed, terrain, first_game):
    """After Cap'n is placed (not on a laser base, the game going on), the extra placement is the
    decision exactly when a tile stands on that seat's rack (public: tests/rules/test_hidden_offer.py);
    on the printed terrains that is also exactly when a plain reading of the rules finds a placement for
    it (the base the Cap'n took takes any of its owner's troops). (Skipped while the seat has tiles laid
    down: they stand up on its rack when the turn ends, before this test looks.)"""
    for before, a, s in walk(seed, terrain, first_game):
        if s.over or not actions.PLACE <= a < actions.PLACE_END or (a - actions.PLACE) >> 5 != CAPN:
            continue
        if before.laid[before.turn]:
            continue
        if not first_game and s.terrain.nodes[a & 31].power == "nullify":
            continue
        assert (s.decision == EXTRA) == bool(s.rack[before.turn]), position_text(s)
        assert (s.decision == EXTRA) == bool(plain_placements(s, before.turn)), position_text(s)


@FEW
@given(SEEDS, TERRAINS, MODES)
def test_the_kept_connection_search_matches_a_fresh_one(seed, terrain, first_game):
    """A state keeps each seat's last connection search and reuses or grows it while that seat's bases
    stay or only grow: after every action, for both seats, it equals a plain search from scratch (on
    the game's own state, which carries what was kept, and on its copies)."""
    for before, _, s in walk(seed, terrain, first_game):
        for seat in (BLUE, RED):
            want = sum(1 << i for i in plain_connected(s, seat))
            assert s.connected(seat) == want, position_text(s)
            assert before.connected(seat) == sum(1 << i for i in plain_connected(before, seat))


@FEW
@given(SEEDS, TERRAINS, MODES)
def test_claims_and_endings_follow_the_board(seed, terrain, first_game):
    """A region claimed by an action is fully held by its claimer right after it; a game goes on only
    while both are below their objective; each ending matches the board: an H.Q. win puts the winner's
    tile on an enemy H.Q., a medal win reaches the objective, a stuck ending leaves the player to act
    with no draw and no placement and gives the tie to the other player."""
    for before, _, s in walk(seed, terrain, first_game):
        for k, (bases, _) in enumerate(s.b.regions):
            if before.claimed[k] < 0 <= s.claimed[k]:
                assert all(s.owner(i) == s.claimed[k] for i in bases)
        if not s.over:
            assert all(s.medals(x) < s.b.objective[x] for x in (BLUE, RED))
            continue
        w = s.winner
        if s.reason == "hq":
            assert any(s.stacks[i] and s.stacks[i][-1] >> 4 == w for i in s.b.hq[1 - w])
        elif s.reason == "medals":
            assert s.medals(w) >= s.b.objective[w]
        else:
            assert s.reason == "stuck"
            stuck = s.turn
            assert not plain_placements(s, stuck)
            assert not s.reserve[stuck] or s.hand_size(stuck) >= 8
            m, o = s.medals(stuck), s.medals(1 - stuck)
            assert w == (stuck if m > o else 1 - stuck)


def test_determinize_keeps_known_reserve_faces_and_deals_only_what_is_missing():
    """A prepared position may state some reserve tiles and leave others unknown (lessons do):
    determinize must fill only the unknown slots, from the tiles that army really lacks, so each
    army still holds exactly its 24 tiles (3 of each troop) — docs/rules.md §1.1, §1.8."""
    import random as _random
    from collections import Counter as _Counter

    from toybattle.rules import State, determinize, parse_position, position_text
    from toybattle.rules.troops import full_army

    s = State.new("castle", seed=11)
    text = position_text(s).splitlines()
    for k, line in enumerate(text):  # keep blue's reserve top 3 faces, hide the rest
        if line.startswith("blue reserve "):
            faces = line.split()[2:]
            text[k] = "blue reserve " + " ".join(faces[:3] + [f"?x{len(faces) - 3}"])
        if line.startswith("blue aside "):
            text[k] = "blue aside ?x4"
    partial = parse_position("\n".join(text) + "\n")
    for seed in range(20):
        d = determinize(partial, _random.Random(seed))
        tiles = [t for st in d.stacks for t in st if t >> 4 == 0] + [t for t in d.discard if t >> 4 == 0]
        tiles += d.rack[0] + d.laid[0] + d.reserve[0] + d.aside[0]
        assert sorted(tiles) == full_army(0), _Counter(t & 15 for t in tiles)
        assert d.reserve[0][::-1][:3] == s.reserve[0][::-1][:3]
