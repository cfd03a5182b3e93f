"""Every rule stated by the FAQ ("How to play Toy Battle: connections, covering and medals": its
questions, troop and terrain answers, and its "Gameplay" page), checked on the engine. Each test's
docstring says what the FAQ states (names in our words, the one sentence a test relies on quoted).

Test names are stable ids: docs/rulings.md maps each FAQ question to its test and the lessons link
their answers to these names. Where the FAQ and the rulings of docs/rules.md §5 disagree, the ruling wins and the
docstring says so.
"""
from __future__ import annotations

import pytest

from toybattle.rules import BLUE, RED, State, action_text, load_terrain, observation
from toybattle.rules import state as S
from toybattle.rules.terrain import TERRAIN_IDS


def node(s: State, nid: int) -> int:
    return s.b.index[nid]


def tile(seat: int, troop: str) -> int:
    return seat << 4 | (8 if troop == "K" else int(troop))


# ----------------------------------------------------------------- winning, setup, turns

def test_faq_win_immediately(kit):
    """FAQ: Winning and ending the game: capturing any enemy H.Q. or reaching the
    medal target printed on your side wins at once; Castle Field needs 7 for either side."""
    s = kit.build("castle", blue="7", stacks={11: "b1", 13: "b1", 18: "b2", 23: "b2", 25: "b3"})
    kit.play(s, "7@41")
    assert s.over and s.winner == BLUE and s.reason == S.HQ
    s = kit.build("castle", blue="7", claimed="8:blue 4:blue 7:blue", stacks={11: "b1", 13: "b1", 15: "b1"})
    assert s.medals(BLUE) == 6 and s.b.objective == (7, 7)
    kit.play(s, "7@17")
    assert s.over and s.winner == BLUE and s.reason == S.MEDALS


def test_faq_starting_troops():
    """FAQ: Rules p. 2 · Setup: the first player takes 3 troops, the second 4; each shuffles 24
    and removes 4 unseen; the starting player is random."""
    starters = set()
    for seed in range(12):
        s = State.new("castle", seed=seed)
        starters.add(s.first)
        assert s.turn == s.first and s.decision == S.TURN
        assert s.hand_size(s.first) == 3 and s.hand_size(1 - s.first) == 4
        for seat in (BLUE, RED):
            assert len(s.aside[seat]) == 4 and s.hand_size(seat) + len(s.reserve[seat]) == 20
            assert sorted(s.aside[seat] + s.rack[seat] + s.reserve[seat]) == sorted(
                seat << 4 | t for t in range(1, 9) for _ in range(3))
        for seat in (BLUE, RED):  # nobody, not even the owner, sees the set-aside tiles
            assert all(t & 15 == 0 for t in observation(s, seat).aside[seat])
    assert starters == {BLUE, RED}


@pytest.mark.parametrize("rack, reserve, drawn", [
    ("1 1 1 2 2 2", 5, 2),  # 6 on the rack: draw 2
    ("1 1 1 2 2 2 3", 5, 1),  # 7 on the rack: one slot left, draw 1
    ("1 1", 1, 1),  # one tile left in the reserve: draw 1
])
def test_faq_draw_with_one_slot_left(kit, rack, reserve, drawn):
    """FAQ: Rules p. 3 · Turns and rack limit: draw 2, or only 1 with 7 on the rack or 1 left in
    the reserve; the rack holds at most 8; drawing is the whole turn."""
    s = kit.build("castle", blue=rack, blue_reserve=reserve)
    top = s.reserve[BLUE][-drawn:]
    kit.play(s, "draw")
    assert s.hand_size(BLUE) == len(rack.split()) + drawn and len(s.reserve[BLUE]) == reserve - drawn
    assert all(t in s.rack[BLUE] for t in top)
    assert s.turn == RED  # no placement after a draw


def test_faq_cannot_draw_with_full_rack_or_empty_reserve(kit):
    """FAQ: Rules p. 3 · Turns and rack limit: with 8 on your rack (or nothing in the reserve)
    you cannot choose to draw."""
    s = kit.build("castle", blue="1 1 1 2 2 2 3 3")
    assert "draw" not in kit.legal(s) and kit.refused(s, "draw") == "your rack is full (8 tiles)"
    s = kit.build("castle", blue="1", blue_reserve=0)
    assert "draw" not in kit.legal(s) and kit.refused(s, "draw") == "your reserve is empty"


def test_faq_turn_is_one_action(kit):
    """FAQ: Turn sequence: a turn is either a draw or one placement (then its
    effects); drawing gives no placement, placing gives no draw."""
    s = kit.build("castle", blue="7 7")
    kit.play(s, "7@11")
    assert s.turn == RED
    s = kit.build("castle", blue="7 7")
    kit.play(s, "draw")
    assert s.turn == RED and s.hand_size(BLUE) == 4


def test_faq_covering_enemy_vs_friendly(kit):
    """FAQ: Rules p. 4 · Placement; player aid p. 1 · Troops: covering your own troop ignores
    strength; an ordinary enemy needs strictly greater strength: Roxy covers Star, not Roxy."""
    s = kit.build("castle", blue="7 1", stacks={11: "b7", 13: "r6", 12: "b2", 14: "r7"})
    got = kit.legal(s)
    assert {"7@13", "1@11", "7@11"} <= got and not {"7@14", "1@13"} & got
    assert kit.refused(s, "7@14") == "too weak to cover Roxy"
    assert kit.refused(s, "1@13") == "too weak to cover Star"


def test_faq_hq_is_not_a_base(kit):
    """FAQ: Getting started: headquarters are not bases; Hook cannot ignore connections and jump
    straight into headquarters."""
    t = load_terrain("castle")
    assert {n.id for n in t.bases}.isdisjoint({1, 41})
    s = kit.build("castle", blue="4", stacks={24: "b1", 25: "b1"})
    assert "4@41" not in kit.legal(s)


# ----------------------------------------------------------------- effects, regions, ending

def test_faq_effect_order(kit):
    """FAQ: Rules pp. 3, 5-6; player aid p. 1 · Cap'n: the newly placed troops' abilities (a
    Cap'n extra included) resolve before special-base effects; optional effects may be declined;
    medals are claimed as soon as a region is controlled."""
    s = kit.build("castle", blue="2 6 7", stacks={11: "b4", 13: "b4", 17: "b5"})
    kit.play(s, "2@15")  # tower 15 now waits for the troop effects
    assert s.decision == S.EXTRA
    kit.play(s, "6@20")
    assert s.decision == S.STAR_DRAW  # the extra troop's ability first
    kit.play(s, "skip")  # declined
    assert s.decision == S.RECALL and s.dnode == node(s, 15)
    assert s.claimed[1] == BLUE  # R2 [13 15 17] was claimed the moment 15 was taken
    kit.play(s, "skip")
    assert s.decision == S.RECALL and s.dnode == node(s, 20)
    kit.play(s, "skip")
    assert s.turn == RED


@pytest.mark.parametrize("claimed, winner", [("2:blue 3:blue 6:red 7:red", RED), ("1:blue 6:red", BLUE)])
def test_faq_stuck_compare_medals(kit, claimed, winner):
    """FAQ: Rules p. 6 · End of the game: if the player to act can neither draw nor place,
    compare medals (not bases): more medals wins, and with 2 medals each the stuck player loses."""
    # Blue holds more bases (three islands) but is walled in by red Roxys on 11 and 12, with a full
    # rack and no Kwak or Hook.
    s = kit.build("castle", turn="red", red="1", blue="1 1 2 2 2 3 3 5", claimed=claimed,
                  stacks={11: "r7", 12: "r7", 17: "b1", 19: "b6", 20: "b6"})
    kit.play(s, "draw")
    assert s.over and s.reason == S.STUCK and s.winner == winner


@pytest.mark.parametrize("terrain, target", [("castle", 7), ("pool", 6), ("clouds", 8), ("jungle", 7),
                                             ("cemetery", 7), ("caribbean", 5), ("station", 7),
                                             ("battlefield", 8)])
def test_faq_medal_target_per_terrain(terrain, target):
    """FAQ: Rules pp. 2, 5-6 · Map targets and regions: read the medal target printed on your
    side of the map (the same for both sides on every terrain)."""
    assert load_terrain(terrain).objective == (target, target)
    assert State.new(terrain, seed=1).b.objective == (target, target)


def test_faq_three_medals_is_not_a_win_and_medals_stay(kit):
    """FAQ: Rules pp. 2, 5-6 · Map targets and regions: claiming 3 medals on Castle Field is not
    a win (7 needed); claimed medals stay even after the region is lost. Also the lesson 'Which Roxy
    placement claims medals now?': the fifth southern base claims 3 medals."""
    s = kit.build("castle", blue="7", red="7", stacks={11: "b1", 12: "b2", 13: "b3", 18: "b4", 22: "r1",
                                                       24: "r1"})
    kit.play(s, "7@14")
    assert s.medals(BLUE) == 3 and not s.over
    kit.play(s, "7@18")  # red takes a base of that region back
    assert s.owner(node(s, 18)) == RED and s.medals(BLUE) == 3


def test_faq_hook_cannot_jump_to_hq(kit):
    """FAQ: Player aid p. 1 · Hook: Hook ignores connection only onto a base; the enemy H.Q.
    still needs a connection (and terrain restrictions)."""
    s = kit.build("castle", blue="4", stacks={25: "b1"})
    assert "4@25" in kit.legal(s) and "4@41" not in kit.legal(s)
    assert "not the H.Q." in kit.refused(s, "4@41")
    p = kit.build("pool", blue="4", stacks={11: "b4", 13: "b4", 17: "b7", 21: "b5"})
    assert "4@41" not in kit.legal(p)  # connected, but H.Q. 41 takes only 6, 7 or Kwak


def test_faq_disconnected_troops_stay(kit):
    """FAQ: Rules p. 4 · Stacks and HQ connection: a cut-off troop stays and still controls its
    base; it does not start a connection for ordinary placements; Hook may still go past."""
    s = kit.build("castle", turn="red", red="3", blue="7 4",
                  stacks={11: "b1", 13: "b2", 17: "b3", 22: "r1", 24: "r1"})
    kit.play(s, "3@18", "jumbo@13")  # red's Jumbo cuts blue's line at 13
    assert s.turn == BLUE and s.stacks[node(s, 13)] == ()
    assert s.owner(node(s, 17)) == BLUE and not (s.connected(BLUE) >> node(s, 17)) & 1
    got = kit.legal(s)
    assert "7@20" not in got and "7@15" not in got and {"4@20", "4@15"} <= got


def test_faq_kwak_cannot_place_anywhere(kit):
    """FAQ: Rules p. 4; player aid p. 1 · Kwak: Kwak changes only the covering comparison; it
    still needs a connection, never goes on your own H.Q., and any enemy troop may cover it.
    (The FAQ adds that terrain restrictions apply to Kwak; rules.md ruling 18 rules that Kwak passes
    them, as the printed duck icon shows, and the engine follows that ruling.)"""
    s = kit.build("castle", blue="K", stacks={11: "b1", 24: "r7"})
    got = kit.legal(s)
    assert "K@24" not in got and "K@1" not in got and {"K@11", "K@12", "K@13"} <= got
    assert kit.refused(s, "K@24") == "no path from your H.Q."
    s = kit.build("castle", turn="red", red="1", stacks={11: "b1", 13: "bK", 18: "r4", 23: "r4", 25: "r5"})
    assert "1@13" in kit.legal(s)
    p = kit.build("pool", blue="K", stacks={11: "b1", 13: "b1"})
    assert {"K@12", "K@17"} <= kit.legal(p)


def test_faq_inspect_stacks_no_retrigger(kit):
    """FAQ: Rules pp. 3-4 · Placement, stacks and connections: anyone may inspect whole stacks
    (never reorder them); uncovering a troop does not trigger its ability again; a covered friendly
    troop does not carry a connection."""
    s = kit.build("castle", blue="3 7", red="1", stacks={11: "b1", 13: "b4", 17: "b2 r7", 18: "b1 r6"})
    for seat in (BLUE, RED):
        assert observation(s, seat).stacks == s.stacks  # stacks are public, bottom to top
    got = kit.legal(s)
    assert "7@22" not in got and "7@23" not in got  # blue tiles under red tops carry no connection
    kit.play(s, "3@15", "jumbo@17")  # uncovers blue's Cap'n on 17
    assert s.owner(node(s, 17)) == BLUE
    assert s.decision == S.RECALL  # the tower, not a Cap'n extra placement: no new ability
    kit.play(s, "skip")
    assert s.turn == RED


def test_faq_region_control_needs_no_hq_connection(kit):
    """FAQ: Rules p. 5 · Controlling a region: visible troops on every surrounding base claim the
    medals, connected to an H.Q. or not (here by an island Hook); a claimed region pays only once."""
    s = kit.build("castle", blue="4", stacks={19: "b1", 21: "b2"})
    assert s.connected(BLUE) == 0
    kit.play(s, "4@23")
    assert s.claimed[6] == BLUE and s.medals(BLUE) == 1


def test_faq_battlefield_tile_counts_toward_8(kit):
    """FAQ: Player aid p. 2 · Battlefield: a tile laid down still counts toward the rack limit
    of 8 (not discarded); a rack of 8 including it cannot draw."""
    s = kit.build("battlefield", blue="1 1 1 2 2 2 3", blue_laid="7")
    assert s.hand_size(BLUE) == 8 and "draw" not in kit.legal(s)
    assert kit.refused(s, "draw") == "your rack is full (8 tiles)"
    assert BLUE << 4 | 7 not in s.discard


def test_faq_several_regions_at_once(kit):
    """FAQ Gameplay page · Closed regions and medals: one move may complete several regions; a medal
    already claimed is not gained again."""
    s = kit.build("castle", blue="7", claimed="6:red",
                  stacks={11: "b1", 12: "b2", 13: "b3", 14: "b4", 15: "b5", 20: "b6", 22: "b5"})
    kit.play(s, "7@17")  # completes R2 [13 15 17]; R6 [17 20 22] was taken by red before
    assert s.claimed[1] == BLUE and s.claimed[5] == RED and s.medals(BLUE) == 1
    s = kit.build("castle", blue="7", stacks={11: "b1", 12: "b2", 13: "b3", 14: "b4", 15: "b5", 20: "b6",
                                              22: "b5"})
    kit.play(s, "7@17")
    assert s.claimed[1] == BLUE and s.claimed[5] == BLUE and s.medals(BLUE) == 2


# ----------------------------------------------------------------- troop abilities

def test_faq_skully_draws_two(kit):
    """FAQ troop abilities · Skully: after placement you may draw 2 (only 1 if 7 stay on the rack);
    no extra placement."""
    s = kit.build("castle", blue="1 7")
    r = len(s.reserve[BLUE])
    kit.play(s, "1@11", "use")
    assert s.hand_size(BLUE) == 3 and len(s.reserve[BLUE]) == r - 2 and s.turn == RED
    s = kit.build("castle", blue="1 1 1 2 2 2 3 3")
    kit.play(s, "1@11", "use")
    assert s.hand_size(BLUE) == 8


def test_faq_capn_extra_placement(kit):
    """FAQ troop abilities · Cap'n: one extra legal placement (connection, strength, terrain all
    checked), whose troop effect applies; the extra troop may advance along the new connection."""
    s = kit.build("castle", blue="2 1 7", stacks={13: "r7"})
    kit.play(s, "2@11")
    got = kit.legal(s)
    assert {"1@12", "7@12", "skip"} <= got and not {"7@13", "1@13", "draw"} & got
    kit.play(s, "1@12")
    assert s.decision == S.SKULLY_DRAW
    s = kit.build("castle", blue="2 7", stacks={11: "b1"})
    kit.play(s, "2@13")
    assert {"7@15", "7@17", "7@18"} <= kit.legal(s)  # reachable only through the new Cap'n
    p = kit.build("pool", blue="2 1 7", stacks={11: "b1"})
    kit.play(p, "2@13")
    got = kit.legal(p)
    assert {"7@17", "1@12"} <= got and not {"1@17", "7@12"} & got


def test_faq_jumbo_removes_visible_roxy(kit):
    """FAQ troop abilities · Jumbo: discard 1 visible enemy troop one path section away, whatever
    its strength (Roxy too); only the top troop goes, not the stack."""
    s = kit.build("castle", blue="3", stacks={11: "b1", 13: "b1", 22: "r1 r7"})
    kit.play(s, "3@18", "jumbo@22")
    assert s.stacks[node(s, 22)] == (RED << 4 | 1,) and s.discard[-1] == RED << 4 | 7


def test_faq_hook_bypass_connection(kit):
    """FAQ troop abilities · Hook: ignores connection onto a base, but covering still compares
    strength, the enemy H.Q. still needs connection, terrain restrictions remain."""
    s = kit.build("castle", blue="4", stacks={20: "r6", 21: "r3"})
    got = kit.legal(s)
    assert "4@21" in got and "4@20" not in got and kit.refused(s, "4@20") == "too weak to cover Star"
    p = kit.build("pool", blue="4")
    assert "4@22" not in kit.legal(p)


def test_faq_xb42_random_discard(kit):
    """FAQ troop abilities · XB-42: a random troop of the opponent's rack (not chosen, not from the
    map) goes face up to the discard: 3 rack troops become 2."""
    s = kit.build("castle", blue="5", red="7 2 1", stacks={11: "b1", 17: "r6"})
    board = list(s.stacks)
    kit.play(s, "5@13", "use")
    assert s.is_chance and s.actor == -1
    assert {a for a, _ in s.chance_outcomes()} == set(s.legal_actions())
    kit.play(s, "pick:7")
    assert s.hand_size(RED) == 2 and s.discard[-1] == RED << 4 | 7
    assert [st for k, st in enumerate(s.stacks) if k != node(s, 13)] == \
        [st for k, st in enumerate(board) if k != node(s, 13)]


def test_faq_star_optional(kit):
    """FAQ troop abilities · Star: you may draw 1 (or decline); no extra placement; needs a
    tile in the reserve and room on the rack."""
    s = kit.build("castle", blue="6")
    kit.play(s, "6@11")
    assert kit.legal(s) == {"use", "skip"}
    kit.play(s, "skip")
    assert s.hand_size(BLUE) == 0 and s.turn == RED
    s = kit.build("castle", blue="6")
    kit.play(s, "6@11", "use")
    assert s.hand_size(BLUE) == 1 and s.turn == RED
    s = kit.build("castle", blue="6", blue_reserve=0)
    kit.play(s, "6@11")
    assert s.turn == RED  # nothing to draw: no question asked


def test_faq_roxy_no_effect(kit):
    """FAQ troop abilities · Roxy: strength 7, no effect; covers Star, not another Roxy; Kwak may
    cover her and effects (Jumbo) may remove her."""
    s = kit.build("castle", blue="7", stacks={11: "b1", 12: "b2", 13: "r6", 14: "r7"})
    assert "7@13" in kit.legal(s) and "7@14" not in kit.legal(s)
    kit.play(s, "7@11")
    assert s.turn == RED and s.decision == S.TURN
    s = kit.build("castle", turn="red", red="K 3", stacks={11: "b1", 13: "b1", 18: "b7", 22: "r1", 24: "r1"})
    assert "K@18" in kit.legal(s) and "3@18" not in kit.legal(s)
    s = kit.build("castle", turn="red", red="3", stacks={11: "b1", 13: "b1", 18: "b7", 24: "r1"})
    kit.play(s, "3@22", "jumbo@18")
    assert s.stacks[node(s, 18)] == ()


def test_faq_kwak_covers_roxy(kit):
    """FAQ troop abilities · Kwak: Kwak may cover any enemy (Roxy 7 too) and any enemy troop,
    even Skully 1, may cover Kwak; Kwak has no effect."""
    s = kit.build("castle", blue="K", stacks={11: "r7"})
    kit.play(s, "K@11")
    assert s.turn == RED and s.owner(node(s, 11)) == BLUE
    s = kit.build("castle", turn="red", red="1", stacks={11: "bK", 13: "r4", 17: "r4", 22: "r5", 24: "r5"})
    assert "1@11" in kit.legal(s)
    s = kit.build("castle", turn="red", red="1", stacks={11: "b1", 13: "bK", 18: "r4", 23: "r4", 25: "r5"})
    kit.play(s, "1@13")
    assert s.owner(node(s, 13)) == RED


# ----------------------------------------------------------------- terrains

def test_faq_castle_recall(kit):
    """FAQ terrain · Castle Field: a tower may return another visible friendly troop to your rack,
    never a covered one, never past 8; retrieving a link may disconnect the front."""
    s = kit.build("castle", blue="7", stacks={11: "b1", 13: "b2", 17: "b3 r7", 18: "b4"})
    kit.play(s, "7@15")
    assert kit.legal(s) == {"recall@11", "recall@13", "recall@18", "skip"}
    kit.play(s, "recall@13")
    assert BLUE << 4 | 2 in s.rack[BLUE]
    assert not (s.connected(BLUE) >> node(s, 18)) & 1 and not (s.connected(BLUE) >> node(s, 15)) & 1


def test_faq_pool_restrictions(kit):
    """FAQ terrain · Tropical Pool: marked bases and H.Q. accept only their printed strengths,
    checked before placement; Hook is excluded where 4 is not printed. (The FAQ adds that Kwak does
    not bypass them; rules.md ruling 18 lets Kwak pass, and the engine follows that ruling.)"""
    s = kit.build("pool", blue="1 3 4 5 6 7", stacks={11: "b2", 12: "b1", 13: "b2", 14: "b1", 15: "b2"})
    got = kit.legal(s)
    allowed = {12: "12", 16: "345", 17: "67", 18: "345"}  # 12..18 all reachable from blue's line
    for n, ok in allowed.items():
        for troop in "134567":
            assert (f"{troop}@{n}" in got) == (troop in ok), f"{troop}@{n}"
        if "4" not in ok:
            assert kit.refused(s, f"4@{n}").startswith("only ")
    assert load_terrain("pool").node(2).allowed == load_terrain("pool").node(41).allowed


def test_faq_clouds_draw(kit):
    """FAQ terrain · City of Clouds: a rainbow base draws 1 after the troop effects; not from an
    empty reserve; not to a ninth tile."""
    s = kit.build("clouds", blue="6 7", stacks={11: "b1"})
    kit.play(s, "6@13")
    assert s.decision == S.STAR_DRAW
    kit.play(s, "use")
    assert s.decision == S.RAINBOW_DRAW
    kit.play(s, "use")
    assert s.hand_size(BLUE) == 3 and s.turn == RED
    s = kit.build("clouds", blue="7", blue_reserve=0, stacks={11: "b1"})
    kit.play(s, "7@13")
    assert s.turn == RED


def test_faq_jungle_shove(kit):
    """FAQ terrain · Volcanic Jungle: move a visible enemy next to the bridge onto a base next to
    its starting base, ignoring placement rules; never onto an H.Q.; regions are re-checked."""
    s = kit.build("jungle", blue="7", stacks={11: "b1", 12: "b1", 14: "r1", 18: "r2", 21: "r3 r4"})
    kit.play(s, "7@15")
    moves = kit.legal(s) - {"skip"}
    assert moves and all(m.startswith("shove@") for m in moves)
    hq = {n.id for n in s.terrain.nodes if n.kind == "hq"}
    assert all(int(m.split(">")[1]) not in hq for m in moves)
    assert "shove@18>21" in moves  # onto a red stack, whatever the strengths
    kit.play(s, "shove@14>17")
    assert s.owner(node(s, 14)) == -1 and s.owner(node(s, 17)) == RED


def test_faq_cemetery_no_setup_removals(kit):
    """FAQ terrain · Cursed Cemetery: a pumpkin returns one of your own troops from the face-up
    discard; the 4 tiles removed at setup are not in the discard; the rack limit stays 8."""
    s = kit.build("cemetery", blue="7", discard="b3 r6", stacks={11: "b1"})
    assert BLUE << 4 | 1 in s.aside[BLUE]  # a Skully was set aside unseen
    kit.play(s, "7@14")
    assert kit.legal(s) == {"recover:3", "skip"}
    assert "from the discard" in kit.refused(s, "recover:1")
    assert "from the discard" in kit.refused(s, "recover:6")
    kit.play(s, "recover:3")
    assert BLUE << 4 | 3 in s.rack[BLUE] and BLUE << 4 | 3 in s.public[BLUE] and s.discard == [RED << 4 | 6]


def test_faq_caribbean_capture_either_hq(kit):
    """FAQ terrain · Caribbean Sea: no special bases; blue has two H.Q. and red one; red wins by
    capturing either blue H.Q.; target 5."""
    t = load_terrain("caribbean")
    assert not any(n.power or n.allowed for n in t.nodes) and t.objective == (5, 5)
    assert len(t.hqs(BLUE)) == 2 and len(t.hqs(RED)) == 1
    for hq, stacks in ((1, {20: "r4", 17: "r4", 12: "r5", 11: "r5"}), (2, {20: "r4", 21: "r4", 18: "r5", 15: "r5"})):
        s = kit.build("caribbean", turn="red", red="1", stacks=stacks)
        assert {f"1@{h}" for h in (1, 2)} & kit.legal(s) == {f"1@{hq}"}
        kit.play(s, f"1@{hq}")
        assert s.over and s.winner == RED and s.reason == S.HQ


def test_faq_station_nullify(kit):
    """FAQ terrain · Station Metal-X: troop effects do not apply on the laser bases (a Star there
    draws nothing); Hook cannot enter a disconnected laser base."""
    s = kit.build("station", blue="6", stacks={11: "b1", 15: "b1"})
    r = len(s.reserve[BLUE])
    kit.play(s, "6@16")
    assert s.turn == RED and len(s.reserve[BLUE]) == r
    s = kit.build("station", blue="4")
    assert not {"4@16", "4@17", "4@18"} & kit.legal(s)


def test_faq_battlefield_blocked_tile(kit):
    """FAQ terrain · Battlefield: the pointed tile stays on the opponent's rack, face down, cannot
    be placed during their next turn and stands up at its end; picked without looking."""
    s = kit.build("battlefield", turn="red", red="7", blue="6 1", stacks={23: "r1", 20: "r1"})
    kit.play(s, "7@21", "use")
    assert s.is_chance and s.actor == -1
    kit.play(s, "pick:6")
    assert s.laid[BLUE] == [BLUE << 4 | 6] and s.hand_size(BLUE) == 2
    assert observation(s, RED).laid[BLUE] == [BLUE << 4]  # red never sees the face
    assert not any(m.startswith("6@") for m in kit.legal(s))
    kit.play(s, "1@11", "skip")
    assert s.rack[BLUE] == [BLUE << 4 | 6] and s.laid[BLUE] == []


def test_faq_special_base_retriggers_on_own_cover(kit):
    """FAQ Gameplay page · Special bases: "A special base can trigger again when another Troop is placed
    on it, including when you cover your own Troop there." Here in a later turn; the same turn (Cap'n and
    its extra tile) is in tests/rules/test_special_bases.py."""
    s = kit.build("castle", blue="7", stacks={11: "b1", 13: "b1", 15: "b2"})
    kit.play(s, "7@15")
    assert s.decision == S.RECALL


def test_faq_lesson_map_first_game(kit):
    """FAQ: Current map rules · Which map and mode does this lesson use?: Castle Field in first-game
    mode: special-base effects are off, troop abilities and covering still apply."""
    s = kit.build("castle", mode="first-game", blue="1 2", stacks={11: "b1", 13: "b1"})
    kit.play(s, "1@15")
    assert s.decision == S.SKULLY_DRAW
    kit.play(s, "skip")
    assert s.turn == RED


def test_faq_worked_example_roxy_covers_star(kit):
    """FAQ worked example · Cover Star with Roxy for a full deployment turn: H.Q. -> friendly A ->
    enemy Star on B: Roxy may cover it; Roxy tops B with Star below; no ability, no draw."""
    s = kit.build("castle", blue="7", stacks={11: "b4", 13: "r6"})
    r = len(s.reserve[BLUE])
    kit.play(s, "7@13")
    assert s.stacks[node(s, 13)] == (RED << 4 | 6, BLUE << 4 | 7)
    assert s.turn == RED and len(s.reserve[BLUE]) == r and s.hand_size(BLUE) == 0


def test_faq_every_terrain_loads_in_both_modes():
    """FAQ: Current map rules (all eight maps): every terrain can start a game in either mode."""
    for tid in TERRAIN_IDS:
        for first_game in (False, True):
            s = State.new(tid, first_game, seed=3)
            assert s.legal_actions() and action_text(s.legal_actions()[0], s.b)
