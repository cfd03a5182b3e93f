"""Engine tests for the FAQ answers that no rules test covered yet (each FAQ entry in
lessons/data/rules.json names its test; test_rulebook.py proves the names exist)."""
from __future__ import annotations

import random

from toybattle.rules import BLUE, RED, State, load_terrain, parse_action
from toybattle.rules.state import EXTRA, TURN


def act(s: State, text: str) -> str:
    """Play ``text`` if legal; return the engine's refusal ('' when played)."""
    a = parse_action(text, s.b)
    why = s.refusal(a)
    if not why:
        s.apply(a)
    return why


def test_faq_opening_racks_and_set_aside():
    for seed in range(20):
        s = State.new("castle", seed=seed)
        first = s.first
        assert len(s.rack[first]) == 3 and len(s.rack[1 - first]) == 4
        assert len(s.aside[BLUE]) == len(s.aside[RED]) == 4
        assert len(s.reserve[first]) == 17 and len(s.reserve[1 - first]) == 16
    assert {State.new("castle", seed=k).first for k in range(20)} == {BLUE, RED}  # random starter


def test_faq_draw_with_one_slot_left(pos):
    s = pos(stacks={11: "b1"}, blue="7 7 6 5 4 3 K", red="7 6 5 4")
    assert act(s, "draw") == "" and s.hand_size(BLUE) == 8
    s = pos(stacks={11: "b1"}, blue="7 6", blue_reserve="3", discard="b1 b2 b2 b3 b3 b4 b4 b5 b5 b6 b6 b7 b1 b4 "
            "b5 b2", red="7 6 5 4")
    assert len(s.reserve[BLUE]) == 1
    assert act(s, "draw") == "" and s.hand_size(BLUE) == 3
    s = pos(stacks={11: "b1"}, blue="7 7 6 6 5 4 3 K", red="7 6 5 4")
    assert act(s, "draw") == "your rack is full (8 tiles)"


def test_faq_covering_own_any_enemy_strictly_stronger(pos):
    s = pos(stacks={11: "b7", 12: "b2", 14: "r6", 13: "r7"}, blue="1 7 4", red="7 6 5 4")
    assert act(s.copy(), "1@11") == ""            # Skully on your own Roxy: strength does not matter
    assert act(s.copy(), "7@14") == ""            # 7 beats 6
    assert "too weak" in act(s.copy(), "7@13")    # 7 does not beat 7
    assert "too weak" in act(s.copy(), "4@14")


def test_faq_objective_is_the_badge_and_medals_stay(pos):
    badges = {t: load_terrain(t).objective for t in ("castle", "pool", "clouds", "caribbean", "battlefield")}
    assert badges == {"castle": (7, 7), "pool": (6, 6), "clouds": (8, 8), "caribbean": (5, 5),
                      "battlefield": (8, 8)}
    s = pos(stacks={11: "b1", 13: "b3", 14: "b2", 18: "b5", 22: "r4", 23: "r6", 25: "r1"}, blue="7 6",
            red="7 K 5 4")
    assert act(s, "7@12") == "" and s.medals(BLUE) == 3 and not s.over   # 3 medals, the game goes on
    assert act(s, "K@18") == "" and s.owner(s.b.index[18]) == RED        # Red takes a base back...
    assert s.medals(BLUE) == 3                                           # ...the medals stay Blue's


def test_faq_cut_off_tiles_stay_and_hold_their_base(pos):
    # Red's Roxy on 13 covers the Cap'n that linked Blue's 18 and 22 to 11.
    s = pos(stacks={11: "b1", 13: "b2 r7", 18: "b5", 22: "b4", 14: "r7", 23: "r3"}, blue="3 K",
            red="7 K 5 4")
    i18, i22 = s.b.index[18], s.b.index[22]
    assert not s.connected(BLUE) >> i18 & 1 and not s.connected(BLUE) >> i22 & 1
    assert s.owner(i18) == BLUE and s.owner(i22) == BLUE      # still there, still holding their bases
    assert act(s.copy(), "3@24") == "no path from your H.Q."  # 24 touches only the cut-off 22
    assert act(s, "K@13") == ""                               # retaking the link joins them again
    assert s.connected(BLUE) >> i22 & 1


def test_faq_kwak_needs_connection_and_can_be_covered(pos):
    s = pos(stacks={11: "b1", 24: "r7"}, blue="K 3", red="1 6 5 4")
    assert act(s.copy(), "K@24") == "no path from your H.Q."
    assert act(s.copy(), "K@1") == "your own H.Q."
    assert act(s, "K@13") == "" and s.turn == RED


def test_faq_uncovered_troop_does_not_act_again(pos):
    # Blue's Skully lies under Red's Hook on 18; Jumbo removes the Hook: the Skully shows, and nothing is drawn.
    s = pos(stacks={11: "b1", 13: "b2", 18: "b1 r4"}, blue="3", red="7 6 5 4")
    rack_before = s.hand_size(BLUE)
    assert act(s, "3@13") == "" and act(s, "jumbo@18") == ""
    assert s.owner(s.b.index[18]) == BLUE
    assert s.turn == RED and s.decision == TURN and s.hand_size(BLUE) == rack_before - 1


def test_faq_region_claimed_by_cut_off_tiles(pos):
    # Blue's 19 and 23 are cut off (Red holds 14 and 18); a Hook on 21 still closes region 7.
    s = pos(stacks={11: "b1", 19: "b3", 23: "b5", 14: "r5", 18: "r7"}, blue="4", red="7 6 5 1")
    assert not s.connected(BLUE) >> s.b.index[23] & 1
    assert act(s, "4@21") == ""
    assert s.claimed[6] == BLUE and s.medals(BLUE) == 1


def test_faq_laid_tile_counts_toward_rack_limit(pos):
    s = pos(terrain="battlefield", mode="standard", stacks={11: "b1", 13: "b2"}, blue="7 6 5 4 3 2 1",
            blue_laid="K", red="7 6 5 4")
    assert s.hand_size(BLUE) == 8
    assert act(s.copy(), "draw") == "your rack is full (8 tiles)"
    assert "laid face down" in act(s.copy(), "K@12")
    assert act(s, "7@12") == ""
    assert s.laid[BLUE] == [] and (BLUE << 4 | 8) in s.rack[BLUE]   # stands up at the end of the turn


def test_faq_capn_extra_uses_the_new_connection(pos):
    s = pos(stacks={11: "b1", 18: "r3"}, blue="2 7", red="7 6 5 4")
    assert act(s.copy(), "7@18") == "no path from your H.Q."
    assert act(s, "2@13") == "" and s.decision == EXTRA
    assert act(s, "7@18") == ""
    assert s.owner(s.b.index[13]) == BLUE and s.owner(s.b.index[18]) == BLUE and s.turn == RED


def test_faq_hook_waiver_bases_only(pos):
    s = pos(stacks={11: "b1", 25: "b6", 22: "r7", 23: "r3", 24: "r2"}, blue="4 5", red="7 6 5 1")
    assert act(s.copy(), "5@20") == "no path from your H.Q."
    assert "too weak" in act(s.copy(), "4@22")     # the waiver does not lift strength
    assert "not the H.Q." in act(s.copy(), "4@41")
    assert act(s, "4@20") == ""                    # any base, connected or not
    assert not s.connected(BLUE) >> s.b.index[20] & 1


def test_faq_star_draw_is_optional(pos):
    for choice, size in (("use", 3), ("skip", 2)):
        s = pos(stacks={11: "b1"}, blue="6 1 2", red="7 6 5 4")
        assert act(s, "6@13") == "" and act(s, choice) == ""
        assert s.hand_size(BLUE) == size and s.turn == RED


def test_faq_roxy_covers_star_not_roxy(pos):
    s = pos(stacks={11: "b1", 13: "r6", 12: "b2", 14: "r7"}, blue="7", red="7 5 4 3")
    assert "too weak to cover Roxy" in act(s.copy(), "7@14")
    assert act(s, "7@13") == "" and s.turn == RED    # no effect: the turn passes at once


def test_faq_kwak_covers_roxy_and_skully_covers_kwak(pos):
    s = pos(stacks={11: "b1", 13: "r7", 24: "r2", 22: "r3", 17: "r4"}, blue="K 3", red="1 6 5 4")
    assert act(s, "K@13") == "" and s.owner(s.b.index[13]) == BLUE
    assert act(s, "1@13") == "" and s.owner(s.b.index[13]) == RED


def test_faq_pumpkin_recovers_only_own_discarded_tiles(pos):
    s = pos(terrain="cemetery", mode="standard", stacks={11: "b2"}, blue="K", red="7 6 5 4",
            discard="b7 r3")
    assert act(s, "K@14") == ""
    offered = {a for a in s.legal_actions()}
    assert offered == {parse_action("recover:7", s.b), parse_action("skip", s.b)}  # not Red's Jumbo, not aside
    assert act(s, "recover:7") == "" and (BLUE << 4 | 7) in s.rack[BLUE] and s.discard == [RED << 4 | 3]
