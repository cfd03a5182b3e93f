"""One test per ruling of rules.md §5 (the table of 28 rows and its "Other clarifications").

Each test builds a small position in the position format, plays the actions the ruling is about
and checks the legal actions, the refusal or the outcome. Sources are cited in each docstring;
docs/rulings.md maps every row to its test.

Castle Field paths used below: 1-11 1-12 11-13 12-14 13-15 13-17 13-18 14-16 14-18 14-19 15-17
16-19 17-20 17-22 18-22 18-23 19-21 19-23 20-22 21-23 22-24 23-25 24-41 25-41; towers 15 16 20 21;
regions R1 [11 12 13 14 18]=3, R2 [13 15 17]=1, R3 [14 16 19]=1, R4 [13 17 18 22]=2,
R5 [14 18 19 23]=2, R6 [17 20 22]=1, R7 [19 21 23]=1, R8 [18 22 23 24 25]=3.
"""
from __future__ import annotations

import pytest

from toybattle.rules import BLUE, RED, State, action_text
from toybattle.rules import state as S


def region(s: State, rid: int) -> int:
    """Who claimed the region with printed id ``rid`` (-1 if nobody)."""
    return s.claimed[[r.id for r in s.terrain.regions].index(rid)]


def node(s: State, nid: int) -> int:
    return s.b.index[nid]


# ----------------------------------------------------------------- #1, #2 stuck ending

@pytest.mark.parametrize("claimed, winner", [("", RED), ("2:blue", BLUE), ("2:blue 3:red", RED)])
def test_01_stuck_tie_lost_by_the_stuck_player(kit, claimed, winner):
    """rules.md ruling 1: when the player to act can neither draw nor place, more medals wins and a tie
    is lost by the stuck player; rulebook p. 6 [S2], BGA [S1]."""
    s = kit.build("castle", turn="red", red="1", blue="1 1 1 2 2 2 3 3",
                  stacks={11: "r7", 12: "r7"}, claimed=claimed)
    kit.play(s, "draw")  # red's turn ends; blue (8 weak tiles, full rack, both exits held by Roxy) is stuck
    assert s.over and s.reason == S.STUCK and s.winner == winner


def test_01_not_stuck_while_a_draw_is_possible(kit):
    """rules.md ruling 1 (converse): a player who can still draw is not stuck; rulebook p. 6 [S2]."""
    s = kit.build("castle", turn="red", red="1", blue="1 1 1 2 2 2 3", stacks={11: "r7", 12: "r7"})
    kit.play(s, "draw")
    assert not s.over and s.turn == BLUE and kit.legal(s) == {"draw"}


def battlefield_lay(kit, blue_rack: str, pick: str) -> State:
    """Red places Star on tank 21 (via 23, 20), skips Star's draw, lays down blue's ``pick``."""
    s = kit.build("battlefield", turn="red", red="6", blue=blue_rack,
                  stacks={11: "r7", 12: "r7", 23: "r1", 20: "r1"})
    kit.play(s, "6@21", "skip")
    assert s.decision == S.LAY_USE and s.dnode == node(s, 21)
    kit.play(s, "use")
    assert s.decision == S.LAY_PICK and s.actor == -1
    kit.play(s, pick)
    return s


def test_02_stuck_check_counts_only_standing_tiles(kit):
    """rules.md ruling 2: the stuck check looks only at standing (not laid-down) rack tiles with a legal
    slot; BGA [S1]; rules.md §3.8. Blue's only tile able to cover a Roxy is a Kwak; once the tank
    lays it down, blue (8 tiles, no legal placement) is stuck and loses the 0-0 tie."""
    s = battlefield_lay(kit, "1 1 1 2 2 2 3 K", "pick:K")
    assert s.over and s.reason == S.STUCK and s.winner == RED


def test_02_standing_kwak_is_a_legal_placement(kit):
    """rules.md ruling 2 (control): with the Kwak still standing blue is not stuck; BGA [S1]."""
    s = battlefield_lay(kit, "1 1 1 2 2 2 3 K", "pick:1")
    assert not s.over and s.turn == BLUE and kit.legal(s) == {"K@11", "K@12"}


# ----------------------------------------------------------------- #3 regions claimed after every change

def test_03_region_claimed_on_placement(kit):
    """rules.md ruling 3: a region is claimed the moment its last base is occupied (placement);
    rulebook "as soon as" [S2]; BGA [S1]."""
    s = kit.build("castle", blue="7", stacks={11: "b1", 13: "b1", 15: "b1"})
    kit.play(s, "7@17")
    assert region(s, 2) == BLUE and s.medals(BLUE) == 1 and s.medals(RED) == 0


def test_03_region_claimed_after_jumbo_removal(kit):
    """rules.md ruling 3: Jumbo's discard uncovers a blue tile and completes a region for blue at once;
    BGA re-checks the regions of that base [S1]."""
    s = kit.build("castle", blue="3", stacks={11: "b1", 13: "b1", 15: "b1", 17: "b2 r7"})
    kit.play(s, "3@13")
    assert kit.legal(s) == {"jumbo@17", "skip"}
    kit.play(s, "jumbo@17")
    assert region(s, 2) == BLUE and s.medals(BLUE) == 1 and s.discard[-1] == (RED << 4 | 7)


def test_03_region_claimed_for_the_inactive_player_after_castle_recall(kit):
    """rules.md ruling 3: a Castle recall that uncovers an enemy tile completes the region for the
    inactive player (red), during blue's turn; BGA [S1]; rules.md §3.1."""
    s = kit.build("castle", blue="7", stacks={11: "b1", 13: "b1", 17: "r1", 20: "r1", 22: "r1 b2"})
    kit.play(s, "7@15")
    assert s.decision == S.RECALL and kit.legal(s) == {"recall@11", "recall@13", "recall@22", "skip"}
    kit.play(s, "recall@22")
    assert region(s, 6) == RED and s.medals(RED) == 1 and s.medals(BLUE) == 0
    assert s.turn == RED and s.decision == S.TURN


JUNGLE = dict(blue="7", stacks={11: "b1", 12: "b1", 14: "b1 r5", 16: "r1", 19: "r1", 20: "r1"})


def test_03_region_claimed_at_both_ends_of_a_jungle_shove(kit):
    """rules.md ruling 3: a Volcanic Jungle shove re-checks the regions at both ends: blue takes
    R2 [11 12 14 15] where the red tile left, red takes R4 [16 17 19 20] where it landed; BGA [S1]."""
    s = kit.build("jungle", **JUNGLE)
    kit.play(s, "7@15", "shove@14>17")
    assert region(s, 2) == BLUE and region(s, 4) == RED
    assert s.medals(BLUE) == 2 and s.medals(RED) == 2 and not s.over


# ----------------------------------------------------------------- #4, #5 medals

def test_04_region_pays_once_and_medals_are_kept(kit):
    """rules.md ruling 4: a claimed region never pays again, and its medals stay with the player who
    took them even after the region is lost; rulebook [S2]; BGA sets the region's medals to 0 [S1]."""
    s = kit.build("castle", turn="red", red="7", claimed="2:blue",
                  stacks={13: "b1", 15: "r2", 17: "r1", 22: "r1", 24: "r1"})
    kit.play(s, "7@13")  # red now holds every base of R2
    assert s.stacks[node(s, 13)][-1] == RED << 4 | 7
    assert region(s, 2) == BLUE and s.medals(BLUE) == 1 and s.medals(RED) == 0


@pytest.mark.parametrize("rid, place, stacks", [
    (8, "7@25", {11: "b1", 13: "b2", 18: "b3", 22: "b4", 23: "b5", 24: "b6"}),  # ring closed by red H.Q. 41
    (1, "7@14", {11: "b1", 12: "b2", 13: "b3", 18: "b4"}),  # ring closed by blue H.Q. 1
])
def test_05_hq_on_a_region_border_does_not_count(kit, rid, place, stacks):
    """rules.md ruling 5: only bases count for a region; an H.Q. on its border (own or enemy) need not be
    held; rulebook [S2]; BGA [S1] (Yujun's reading deviates)."""
    s = kit.build("castle", blue="7", stacks=stacks)
    kit.play(s, place)
    assert region(s, rid) == BLUE and s.medals(BLUE) == 3


# ----------------------------------------------------------------- #6, #7 Cap'n

def test_06_capn_chain_extra_may_be_capn(kit):
    """rules.md §2.1 Cap'n chain / §5 #6: the extra tile may itself be a Cap'n, giving another extra
    placement; BGA [S1]; crossplay [S4]."""
    s = kit.build("castle", blue="2 2 7", stacks={11: "b1"})
    kit.play(s, "2@13")
    assert s.decision == S.EXTRA and "2@17" in kit.legal(s) and "skip" in kit.legal(s)
    assert "draw" not in kit.legal(s)
    kit.play(s, "2@17")
    assert s.decision == S.EXTRA and s.turn == BLUE
    kit.play(s, "7@22")
    assert s.turn == RED and s.decision == S.TURN and s.hand_size(BLUE) == 0


def test_06_capn_with_nothing_placeable_simply_ends(kit):
    """rules.md §2.1 Cap'n: with an empty rack, or nothing placeable, the effect simply ends; BGA [S1].
    (Tiles standing on the rack that cannot be placed still bring the decision, with skip as its only
    choice: which tiles stand there is hidden from the opponent, tests/rules/test_hidden_offer.py.)"""
    s = kit.build("castle", blue="2", stacks={11: "b1"})
    kit.play(s, "2@13")
    assert s.turn == RED and s.decision == S.TURN
    s = kit.build("battlefield", blue="2", blue_laid="7", stacks={11: "b1"})
    kit.play(s, "2@13")  # the only tile left is laid face down: nothing to place
    assert s.turn == RED and s.decision == S.TURN


def test_06_capn_chain_win_mid_chain_ends_at_once(kit):
    """rules.md ruling 6: wins are immediate; a Cap'n whose placement reaches the objective ends the game
    before its extra placement; BGA [S1]; crossplay [S4]."""
    s = kit.build("castle", blue="2 7", claimed="8:blue 5:blue 7:blue", stacks={11: "b1", 13: "b1", 15: "b1"})
    assert s.medals(BLUE) == 6
    kit.play(s, "2@17")
    assert s.over and s.winner == BLUE and s.reason == S.MEDALS and s.legal_actions() == []
    assert s.rack[BLUE] == [BLUE << 4 | 7]


def test_06_capn_extra_onto_enemy_hq_wins(kit):
    """rules.md §2.1: placing the Cap'n's extra tile on the enemy H.Q. wins; BGA [S1]."""
    s = kit.build("castle", blue="2 1", stacks={11: "b4", 13: "b4", 17: "b5", 22: "b5", 24: "b6"})
    kit.play(s, "2@20")
    assert "1@41" in kit.legal(s)
    kit.play(s, "1@41")
    assert s.over and s.winner == BLUE and s.reason == S.HQ


@pytest.mark.parametrize("capn, skully", [(15, 16), (16, 15)])
def test_07_troop_effects_first_then_bases_in_order_occupied(kit, capn, skully):
    """rules.md ruling 7: troop effects in chain order, then special-base effects in the order the bases
    were occupied; rulebook [S2]; BGA [S1]; crossplay [S4]."""
    s = kit.build("castle", blue="2 1 7", stacks={11: "b4", 12: "b4", 13: "b5", 14: "b5"})
    kit.play(s, f"2@{capn}", f"1@{skully}")
    assert s.decision == S.SKULLY_DRAW  # the troop effect comes before either tower
    kit.play(s, "use")
    assert s.decision == S.RECALL and s.dnode == node(s, capn)
    kit.play(s, "skip")
    assert s.decision == S.RECALL and s.dnode == node(s, skully)
    kit.play(s, "skip")
    assert s.turn == RED and s.decision == S.TURN


# ----------------------------------------------------------------- #8-#10 XB-42

def test_08_xb42_against_an_empty_rack_does_nothing(kit):
    """rules.md ruling 8: XB-42 against an empty rack has no effect and the turn goes on; BGA [S1]."""
    s = kit.build("castle", blue="5", red="", stacks={11: "b1"})
    discard = list(s.discard)
    kit.play(s, "5@13")
    assert s.turn == RED and s.decision == S.TURN and s.discard == discard


def test_08_xb42_offered_when_only_laid_tiles_remain(kit):
    """rules.md ruling 8/#10: a rack holding only a laid-down tile is not empty for XB-42; BGA [S1]."""
    s = kit.build("castle", blue="5", red="", red_laid="7", stacks={11: "b1"})
    kit.play(s, "5@13")
    assert s.decision == S.XB_USE
    kit.play(s, "use")
    assert s.is_chance and s.chance_outcomes() == [(s.legal_actions()[0], 1.0)]
    assert kit.legal(s) == {"pick:7*"}


def test_09_xb42_is_plain_uniform_random(kit):
    """rules.md ruling 9: XB-42 takes a tile uniformly at random (a chance node, nobody chooses); BGA
    server draw [S1]; recommendation: plain uniform random."""
    s = kit.build("castle", blue="5", red="7 7 1", stacks={11: "b1"})
    kit.play(s, "5@13", "use")
    assert s.is_chance and s.actor == -1
    probs = {action_text(a, s.b): p for a, p in s.chance_outcomes()}
    assert probs == pytest.approx({"pick:1": 1 / 3, "pick:7": 2 / 3})


def test_10_xb42_can_hit_a_laid_down_tile(kit):
    """rules.md ruling 10: XB-42 picks among all rack tiles, laid-down ones included; BGA [S1]."""
    s = kit.build("castle", blue="5", red="1", red_laid="7", stacks={11: "b1"})
    kit.play(s, "5@13", "use")
    probs = {action_text(a, s.b): p for a, p in s.chance_outcomes()}
    assert probs == pytest.approx({"pick:1": 0.5, "pick:7*": 0.5})
    kit.play(s, "pick:7*")
    assert s.laid[RED] == [] and s.rack[RED] == [RED << 4 | 1] and s.discard[-1] == RED << 4 | 7
    assert s.turn == RED


# ----------------------------------------------------------------- #11-#15 Jumbo, H.Q., covering, Hook

def test_11_jumbo_on_enemy_hq_just_wins(kit):
    """rules.md ruling 11: Jumbo placed on the enemy H.Q. wins at once; no effect is resolved; BGA [S1]."""
    s = kit.build("castle", blue="3", stacks={11: "b4", 13: "b4", 17: "b5", 22: "b5", 24: "b6", 25: "r1"})
    discard = list(s.discard)
    kit.play(s, "3@41")
    assert s.over and s.winner == BLUE and s.reason == S.HQ
    assert s.stacks[node(s, 25)] == (RED << 4 | 1,) and s.discard == discard and s.legal_actions() == []


def test_12_jumbo_range_is_one_path_section(kit):
    """rules.md ruling 12: Jumbo reaches only visible enemy tiles one path section away, whatever their
    strength; a covered enemy tile is not a target; rulebook/player aid [S2][S3]; BGA [S1]."""
    s = kit.build("castle", blue="3", stacks={11: "b1", 13: "b1", 22: "r7", 23: "r1", 24: "r2", 17: "r2",
                                             14: "r1 b1"})
    kit.play(s, "3@18")
    assert kit.legal(s) == {"jumbo@22", "jumbo@23", "skip"}
    assert "one path section" in kit.refused(s, "jumbo@24")


def test_13_never_on_own_hq(kit):
    """rules.md ruling 13: a player never places on their own H.Q.; rulebook [S2]."""
    s = kit.build("castle", blue="K 7 4")
    assert not any(m.endswith("@1") for m in kit.legal(s))
    assert kit.refused(s, "K@1") == "your own H.Q."
    c = kit.build("caribbean", blue="K 4")
    assert not any(m.endswith(("@1", "@2")) for m in kit.legal(c))
    assert kit.refused(c, "4@2") == "your own H.Q."


def test_14_cover_own_tiles_of_any_strength(kit):
    """rules.md ruling 14: any own tile may be covered by any of your tiles, and the base still carries
    your connection; rulebook [S2]; BGA [S1]."""
    s = kit.build("castle", blue="1 1", stacks={11: "b7", 13: "b6"})
    assert {"1@11", "1@13"} <= kit.legal(s)
    kit.play(s, "1@13", "skip")
    assert s.stacks[node(s, 13)] == (BLUE << 4 | 6, BLUE << 4 | 1)
    assert (s.connected(BLUE) >> node(s, 13)) & 1


def test_15_hook_onto_enemy_hq_needs_connection(kit):
    """rules.md ruling 15: Hook's waiver is for bases; taking the enemy H.Q. still needs a path from your
    H.Q.; player aid [S3]; BGA [S1]."""
    s = kit.build("castle", blue="4", stacks={25: "b1"})  # an island next to the red H.Q.
    assert "4@41" not in kit.legal(s)
    assert kit.refused(s, "4@41") == "no path from your H.Q. (Hook's waiver is for bases, not the H.Q.)"
    s = kit.build("castle", blue="4", stacks={11: "b1", 13: "b1", 18: "b5", 23: "b5", 25: "b6"})
    kit.play(s, "4@41")
    assert s.over and s.winner == BLUE and s.reason == S.HQ


# ----------------------------------------------------------------- #16-#19 restrictions and nullify

def test_16_hook_waiver_refused_onto_station_nullify_bases(kit):
    """rules.md ruling 16: Hook's waiver does not reach Station Metal-X laser bases (16 17 18), but a
    connected Hook may go there; BGA [S1]; crossplay owner ruling [S4]."""
    s = kit.build("station", blue="4")
    got = kit.legal(s)
    assert {"4@13", "4@19", "4@23"} <= got  # the waiver reaches unconnected bases ...
    assert not {"4@16", "4@17", "4@18"} & got  # ... but not the laser bases
    assert "laser base" in kit.refused(s, "4@17")
    s = kit.build("station", blue="4", stacks={11: "b1", 15: "b1"})
    assert {"4@16", "4@17", "4@18"} <= kit.legal(s)
    kit.play(s, "4@17")
    assert s.turn == RED


def test_17_hook_waiver_refused_on_pool_bases_excluding_4(kit):
    """rules.md ruling 17: on Tropical Pool the restriction wins over Hook's waiver: not onto 12/22
    (1-2) nor 17 (6-7), but onto 16/18 (3-5); BGA [S1]."""
    s = kit.build("pool", blue="4")
    got = kit.legal(s)
    assert {"4@16", "4@18", "4@19", "4@23"} <= got
    assert not {"4@12", "4@22", "4@17"} & got
    assert kit.refused(s, "4@17") == "only Star, Roxy and Kwak may go on 17"


def test_18_kwak_allowed_on_restricted_slots(kit):
    """rules.md ruling 18: Kwak passes every restriction (printed duck icon); crossplay and La Croisette
    rulebook agree [S4]; Yujun deviates. Includes the restricted red H.Q. 41 (6-7)."""
    s = kit.build("pool", blue="K 1 7", stacks={11: "b1", 13: "b1"})
    got = kit.legal(s)
    assert {"K@12", "K@17", "1@12", "7@17"} <= got and not {"1@17", "7@12"} & got
    s = kit.build("pool", blue="K 1", stacks={11: "b4", 13: "b4", 17: "b7", 21: "b5"})
    assert "K@41" in kit.legal(s) and "1@41" not in kit.legal(s)
    assert kit.refused(s, "1@41") == "only Star, Roxy and Kwak may go on 41"
    kit.play(s, "K@41")
    assert s.over and s.winner == BLUE and s.reason == S.HQ
    c = kit.build("croisette", blue="K 1", stacks={13: "b1"})  # pier 14: 4-7 and Kwak
    assert "K@14" in kit.legal(c) and "1@14" not in kit.legal(c)


@pytest.mark.parametrize("troop", ["1", "2", "3", "5", "6"])
def test_19_no_troop_effect_on_station_nullify(kit, troop):
    """rules.md ruling 19 and §2.1: on a Station laser base the troop effect is not applied: Cap'n gives
    no extra placement, Skully/Star draw nothing, Jumbo/XB-42 do nothing; player aid [S3]; BGA [S1]."""
    s = kit.build("station", blue=f"{troop} 7", red="1 1", stacks={11: "b1", 15: "b1", 19: "r1"})
    before = len(s.reserve[BLUE])
    kit.play(s, f"{troop}@17")
    assert s.turn == RED and s.decision == S.TURN
    assert len(s.reserve[BLUE]) == before and s.hand_size(RED) == 2 and s.stacks[node(s, 19)] == (RED << 4 | 1,)


# ----------------------------------------------------------------- #20-#23 special bases

def test_20_castle_recall_targets(kit):
    """rules.md ruling 20: the tower takes back any own visible tile except the one on the triggering
    tower (never a covered one); it goes to the rack in view; BGA [S1]; Yujun [S6]."""
    s = kit.build("castle", blue="7", stacks={11: "b1", 13: "b7", 17: "b1 b5", 22: "b3 r7"})
    kit.play(s, "7@15")
    assert kit.legal(s) == {"recall@11", "recall@13", "recall@17", "skip"}
    assert "other of your own" in kit.refused(s, "recall@15")
    kit.play(s, "recall@17")
    assert s.stacks[node(s, 17)] == (BLUE << 4 | 1,) and BLUE << 4 | 5 in s.rack[BLUE]
    assert s.public[BLUE] == [BLUE << 4 | 5]


def test_20_castle_recall_needs_a_free_rack_slot(kit):
    """rules.md ruling 20/#27: no recall with 8 on the rack (here Skully's draw filled it); BGA [S1]."""
    s = kit.build("castle", blue="1 1 1 2 2 2 3 3", stacks={11: "b4", 13: "b4"})
    kit.play(s, "1@15", "use")
    assert s.hand_size(BLUE) == 8 and s.turn == RED and s.decision == S.TURN


def test_20_recalling_a_tile_placed_this_turn_cancels_its_base_effect(kit):
    """rules.md ruling 20 / §3.1: recalling a tile placed this turn on another tower cancels that tower's
    pending effect; BGA [S1]."""
    s = kit.build("castle", blue="2 1 7", stacks={11: "b4", 13: "b4", 17: "b5"})
    kit.play(s, "2@15", "1@20", "skip")
    assert s.decision == S.RECALL and s.dnode == node(s, 15)
    kit.play(s, "recall@20")
    assert s.turn == RED and s.decision == S.TURN
    s = kit.build("castle", blue="2 1 7", stacks={11: "b4", 13: "b4", 17: "b5"})
    kit.play(s, "2@15", "1@20", "skip", "recall@11")  # a tile from an earlier turn: 20 still acts
    assert s.decision == S.RECALL and s.dnode == node(s, 20)


def test_21_jungle_shove_destinations(kit):
    """rules.md ruling 21: the shove moves a visible enemy tile next to the bridge onto any base next to
    where it stands, the bridge itself included, ignoring placement rules; BGA [S1]; rules.md §3.4."""
    s = kit.build("jungle", blue="7", stacks={11: "b7", 12: "b1", 14: "r1", 18: "r7"})
    kit.play(s, "7@15")
    assert s.decision == S.SHOVE and s.dnode == node(s, 15)
    assert kit.legal(s) == {"shove@14>11", "shove@14>15", "shove@14>17",
                            "shove@18>15", "shove@18>17", "shove@18>21", "skip"}
    kit.play(s, "shove@14>11")  # a red Skully lands on a blue Roxy: placement rules do not apply
    assert s.stacks[node(s, 11)] == (BLUE << 4 | 7, RED << 4 | 1) and s.stacks[node(s, 14)] == ()


def test_22_shoved_tile_triggers_no_base_effect(kit):
    """rules.md ruling 22: a tile arriving by shove (even onto the bridge itself) triggers no base
    effect; only placement does; rulebook [S2]; BGA [S1]."""
    s = kit.build("jungle", blue="7", red="1", stacks={11: "b7", 12: "b1", 14: "r1", 18: "r7"})
    kit.play(s, "7@15", "shove@18>15")
    assert s.stacks[node(s, 15)] == (BLUE << 4 | 7, RED << 4 | 7)
    assert s.turn == RED and s.decision == S.TURN and s.queue == []


def test_23_battlefield_lays_a_random_standing_tile_until_the_end_of_the_victims_turn(kit):
    """rules.md ruling 23 and §3.8: the tank lays down a tile picked at random among the standing ones; it
    cannot be placed during the victim's next turn, still counts toward the 8, and stands up again at
    the end of that turn; player aid [S3]; BGA [S1]."""
    s = kit.build("battlefield", turn="red", red="6", blue="1 1 1 2 2 2 7", stacks={23: "r1", 20: "r1"})
    kit.play(s, "6@21", "skip", "use")
    probs = {action_text(a, s.b): p for a, p in s.chance_outcomes()}
    assert probs == pytest.approx({"pick:1": 3 / 7, "pick:2": 3 / 7, "pick:7": 1 / 7})
    kit.play(s, "pick:7")
    assert s.turn == BLUE and s.laid[BLUE] == [BLUE << 4 | 7] and s.hand_size(BLUE) == 7
    assert not any(m.startswith("7@") for m in kit.legal(s))
    assert "laid face down" in kit.refused(s, "7@11")
    kit.play(s, "draw")  # only 1 slot is free: the laid tile counts toward the 8
    assert s.hand_size(BLUE) == 8 and s.laid[BLUE] == [] and BLUE << 4 | 7 in s.rack[BLUE]


def test_23_battlefield_never_picks_an_already_laid_tile(kit):
    """rules.md ruling 23: the pick is among the not-yet-laid tiles (two tanks in one turn lay two); BGA [S1]."""
    s = kit.build("battlefield", turn="red", decision="battlefield_pick 21", red="1", blue="1", blue_laid="7",
                  stacks={23: "r1", 20: "r1", 21: "r6"})
    assert {action_text(a, s.b): p for a, p in s.chance_outcomes()} == {"pick:1": 1.0}


# ----------------------------------------------------------------- #24-#28

def test_24_both_reach_the_objective_the_acting_player_wins(kit):
    """rules.md ruling 24: one shove completes a region for each side and both reach 7; the acting
    player wins (rules.md ruling 24; Yujun [S6])."""
    s = kit.build("jungle", claimed="5:blue 6:blue 1:red 3:red", **JUNGLE)
    assert s.medals(BLUE) == 5 and s.medals(RED) == 5
    kit.play(s, "7@15", "shove@14>17")
    assert s.medals(BLUE) == 7 and s.medals(RED) == 7
    assert s.over and s.winner == BLUE and s.reason == S.MEDALS


def test_24_inactive_player_reaching_the_objective_wins(kit):
    """rules.md ruling 3/#24: when only the inactive player reaches the objective, that player wins at
    once, during the other's turn; BGA [S1]."""
    s = kit.build("jungle", claimed="5:blue 1:red 3:red", **JUNGLE)
    kit.play(s, "7@15", "shove@14>17")
    assert s.medals(BLUE) == 5 and s.medals(RED) == 7 and s.over and s.winner == RED


def test_25_two_enemy_hq_capturing_one_suffices(kit):
    """rules.md ruling 25: with two enemy H.Q., capturing either one wins; rulebook [S2]; BGA [S1]."""
    s = kit.build("caribbean", turn="red", red="1", stacks={20: "r4", 21: "r4", 18: "r5", 15: "r5"})
    assert "1@2" in kit.legal(s) and "1@1" not in kit.legal(s)
    kit.play(s, "1@2")
    assert s.over and s.winner == RED and s.reason == S.HQ
    p = kit.build("pool", blue="1", stacks={11: "b4", 13: "b4", 17: "b7", 21: "b5", 23: "b5"})
    kit.play(p, "1@42")
    assert p.over and p.winner == BLUE and p.reason == S.HQ


def test_26_connection_from_any_own_hq(kit):
    """rules.md ruling 26: placements may start from either of your H.Q.; BGA BFS from every own H.Q. [S1]."""
    c = kit.build("caribbean", blue="1")
    assert kit.legal(c) == {"draw", "1@11", "1@13", "1@15"}
    p = kit.build("pool", blue="1")
    assert kit.legal(p) == {"draw", "1@11", "1@13"}


def test_27_skully_draws_one_with_seven_on_the_rack(kit):
    """rules.md ruling 27 and §2.1: Skully with 7 tiles left on the rack draws only 1; rulebook [S2];
    BGA [S1]."""
    s = kit.build("castle", blue="1 1 1 2 2 2 3 3", stacks={11: "b4"})
    r = len(s.reserve[BLUE])
    kit.play(s, "1@13", "use")
    assert s.hand_size(BLUE) == 8 and len(s.reserve[BLUE]) == r - 1


def test_27_rainbow_cannot_add_a_ninth_tile(kit):
    """rules.md ruling 27: after Skully fills the rack to 8, the rainbow base's draw is impossible and is
    skipped; without Skully's draw it is offered; BGA [S1]."""
    s = kit.build("clouds", blue="1 1 1 2 2 2 3 3", stacks={11: "b4"})
    kit.play(s, "1@13", "use")
    assert s.hand_size(BLUE) == 8 and s.turn == RED
    s = kit.build("clouds", blue="1 1 1 2 2 2 3 3", stacks={11: "b4"})
    kit.play(s, "1@13", "skip")
    assert s.decision == S.RAINBOW_DRAW
    kit.play(s, "use")
    assert s.hand_size(BLUE) == 8 and s.turn == RED


def test_27_pumpkin_needs_a_free_rack_slot(kit):
    """rules.md ruling 27 and §3.5: the pumpkin recovers an own discarded tile only if the rack has room;
    BGA [S1]."""
    s = kit.build("cemetery", blue="1 1 2 2 2 3 3 4", discard="b5", stacks={11: "b1"})
    kit.play(s, "1@14", "use")
    assert s.hand_size(BLUE) == 8 and s.turn == RED
    s = kit.build("cemetery", blue="1 1 2 2 2 3 3 4", discard="b5 r5", stacks={11: "b1"})
    kit.play(s, "1@14", "skip")
    assert kit.legal(s) == {"recover:5", "skip"}


def test_28_first_game_mode_disables_special_bases_restrictions_and_nullify(kit):
    """rules.md ruling 28: first-game ("Beginners") mode disables special-base effects, Tropical Pool
    restrictions and Station nullify; rulebook/player aid [S2][S3]; BGA game mode [S1]."""
    s = kit.build("castle", mode="first-game", blue="7", stacks={11: "b1", 13: "b1"})
    kit.play(s, "7@15")
    assert s.turn == RED and s.decision == S.TURN  # no recall
    p = kit.build("pool", mode="first-game", blue="1 4", stacks={11: "b1", 13: "b1"})
    assert {"1@17", "4@12", "4@22", "4@17"} <= kit.legal(p)
    p = kit.build("pool", mode="first-game", blue="1", stacks={11: "b4", 13: "b4", 17: "b7", 21: "b5"})
    assert "1@41" in kit.legal(p)
    st = kit.build("station", mode="first-game", blue="2 7", stacks={11: "b1", 15: "b1"})
    kit.play(st, "2@17")
    assert st.decision == S.EXTRA
    assert "4@17" in kit.legal(kit.build("station", mode="first-game", blue="4"))


# ----------------------------------------------------------------- other clarifications

def test_other_kwak_on_empty_or_own_base(kit):
    """rules.md §5 (other points): a Kwak may go on an empty base or on your own tile like any
    tile; rules.md §2 covering predicate: any enemy tile may cover Kwak."""
    s = kit.build("castle", blue="K", red="1", stacks={11: "b1"})
    assert kit.legal(s) == {"draw", "K@11", "K@12", "K@13"}
    kit.play(s, "K@13")
    assert "1@13" not in kit.legal(s)  # red is not connected there ...
    s = kit.build("castle", turn="red", red="1", stacks={11: "b1", 13: "bK", 18: "r4", 23: "r4", 25: "r5"})
    assert "1@13" in kit.legal(s)  # ... but any red tile covers a blue Kwak it can reach


def test_other_uncovering_flips_ownership_and_cuts_connection(kit):
    """rules.md §5 (other points): removing a top tile (here a Castle recall) flips the base to
    the tile beneath and can break connections several bases away; keep full stacks [S1][S4]."""
    s = kit.build("castle", blue="7 7", stacks={11: "b1", 13: "r1 b2", 17: "b1", 20: "b1"})
    assert (s.connected(BLUE) >> node(s, 20)) & 1 and "7@22" in kit.legal(s)
    kit.play(s, "7@15", "recall@13")
    assert s.owner(node(s, 13)) == RED
    assert not (s.connected(BLUE) >> node(s, 17)) & 1 and not (s.connected(BLUE) >> node(s, 20)) & 1
    kit.play(s, "draw")  # red's turn; now blue may retake 13 but not reach 22 any more
    assert "7@13" in kit.legal(s) and not {"7@22", "2@22"} & kit.legal(s)


def test_other_caribbean_blue_has_two_hq_whoever_starts(kit):
    """rules.md §5 (other points) and §1.2: colours come from seating, the first player is random;
    on Caribbean Sea blue always has the 2 H.Q.; the first player draws 3, the other 4; 4 set aside."""
    for first in (BLUE, RED):
        s = State.new("caribbean", first=first, seed=5)
        assert len(s.b.hq[BLUE]) == 2 and len(s.b.hq[RED]) == 1
        assert s.turn == first and s.hand_size(first) == 3 and s.hand_size(1 - first) == 4
        assert all(len(a) == 4 for a in s.aside)
        assert len(s.reserve[first]) == 17 and len(s.reserve[1 - first]) == 16
    assert {State.new("castle", seed=k).first for k in range(20)} == {BLUE, RED}
