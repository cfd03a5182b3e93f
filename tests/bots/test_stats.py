"""The arena's statistics against hand-computed values and known matches."""
from __future__ import annotations

import math

import pytest

from toybattle.bots.arena import MatchSpec, run_match
from toybattle.bots.stats import elo, expected_score, score_interval, sprt_bounds, sprt_decision, sprt_llr


def test_interval_matches_hand_computation():
    # deals 1, 1/2, 0, 1: mean 0.625; population variance 0.171875; standard error sqrt(0.171875 / 3)
    m, lo, hi = score_interval([1, 0.5, 0, 1])
    assert m == pytest.approx(0.625)
    assert lo == pytest.approx(0.625 - 1.959964 * math.sqrt(0.171875 / 3), abs=1e-6)
    assert hi == 1.0  # clipped


def test_interval_of_identical_results_is_a_point_and_one_deal_says_nothing():
    assert score_interval([0.5] * 10) == (0.5, 0.5, 0.5)
    assert score_interval([1.0]) == (1.0, 0.0, 1.0)


def test_elo_conversions():
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(400 * math.log10(3))
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    assert expected_score(elo(0.3)) == pytest.approx(0.3)


def test_sprt_llr_matches_hand_computation():
    # n=4, mean 0.875; variance of the deals plus pseudo-deals 0, 1/2, 1 is 0.9285714 / 7
    s0, s1 = 0.5, 1 / (1 + 10 ** (-100 / 400))
    want = 4 * (s1 - s0) * (2 * 0.875 - s0 - s1) / (2 * 0.9285714285714 / 7)
    assert sprt_llr([1, 1, 0.5, 1], 0, 100) == pytest.approx(want)
    assert sprt_bounds() == pytest.approx((-math.log(19), math.log(19)))


def test_sprt_decisions_on_clear_data():
    assert sprt_decision([1.0] * 30, 0, 50) == "H1"
    assert sprt_decision([0.0] * 30, 0, 50) == "H0"
    assert sprt_decision([1.0, 0.0], 0, 50) == ""


def test_a_bot_against_itself_scores_about_half():
    report = run_match(MatchSpec("random", "random", 150, ("castle",), seed=3))
    s = report.summary()
    assert s["games"] == 300
    assert s["score_low"] < 0.5 < s["score_high"]
    assert 0.4 < s["score"] < 0.6


def test_sprt_stops_early_on_a_clearly_stronger_bot():
    report = run_match(MatchSpec("greedy", "random", 200, ("castle",), seed=5), sprt=(0, 100))
    assert report.decision == "H1"
    assert len(report.deals) < 50
    assert report.summary()["sprt"]["decision"] == "H1"


def test_sprt_accepts_h0_when_there_is_no_difference():
    report = run_match(MatchSpec("random", "random", 400, ("castle",), seed=4), sprt=(100, 200))
    assert report.decision == "H0"
    assert len(report.deals) < 400


def test_plot_is_well_formed_svg_with_the_running_score():
    import xml.etree.ElementTree as ET

    from toybattle.bots.arena import plot_svg
    report = run_match(MatchSpec("greedy", "random", 12, ("castle",), seed=2))
    root = ET.fromstring(plot_svg(report))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == ns + "svg"
    line = root.find(ns + "polyline")
    assert line is not None and len(line.get("points").split()) == 12
    assert root.find(ns + "polygon") is not None  # the interval band
    assert "greedy vs random" in "".join(root.itertext())


def test_results_do_not_depend_on_the_number_of_workers():
    one = run_match(MatchSpec("greedy", "random", 6, ("castle", "pool"), seed=9, workers=1))
    two = run_match(MatchSpec("greedy", "random", 6, ("castle", "pool"), seed=9, workers=2))
    assert [d.games for d in one.deals] == [d.games for d in two.deals]
    assert [d.terrain for d in two.deals] == ["castle", "pool"] * 3
