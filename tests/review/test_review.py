"""A game's review (issue 28): the known blunder is among the costliest turns with a better move the engine confirms
on other guesses; the command line's chart is analyse()'s; the engine is given each seat's observation only; an
online side's review uses that side's information alone."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from toybattle import review as review_pkg
from toybattle.bots import analysis
from toybattle.bots.analysis import Effort
from toybattle.review import Review, analyse, steps
from toybattle.review.why import stored
from toybattle.rules import observation, parse_action, position_text
from toybattle.said import Said, catalogue, say


@pytest.fixture(scope="module")
def review(blunder):
    return analyse(blunder.record, effort=blunder.effort)


def test_the_blunder_is_as_described(blunder):
    s = blunder.state_before(blunder.index)
    assert s.actor == blunder.seat
    winning = blunder.wins_at_once(s)
    assert [parse_action(blunder.winning, s.b)] == winning
    assert blunder.record.actions[blunder.index - 1] == blunder.played
    end = blunder.record.replay()
    assert end.over and end.winner == 1 - blunder.seat and len(blunder.record.actions) == blunder.index + 1


def test_the_blunder_is_among_the_costliest_and_the_better_move_is_confirmed(blunder, review):
    costly = review.costly(blunder.seat)
    assert blunder.index in [d.index for d in costly]
    d = next(d for d in costly if d.index == blunder.index)
    assert d.action == blunder.played and d.drop >= 0.5
    assert d.best == blunder.winning
    assert d.why and d.why[0].key == "review.why.winsHQ"
    # an independent check: more guesses, another seed, only the two actions compared
    obs = observation(blunder.state_before(blunder.index), blunder.seat)
    better, played = parse_action(d.best, obs.b), parse_action(d.action, obs.b)
    chances = analysis.action_chances(obs, include=(better, played), effort=Effort(samples=16, candidates=0),
                                      seed=987_654)
    assert chances.mean(better) - chances.mean(played) >= 0.5


def test_the_chart_has_a_point_per_turn_for_each_side(blunder, review):
    n = len(review.turns)
    assert len(review.chart[0]) == len(review.chart[1]) == n
    assert all(0.0 <= p <= 1.0 for series in review.chart for p in series)
    assert review.chart[1 - blunder.seat][-1] == 1.0 and review.chart[blunder.seat][-1] == 0.0
    assert review.winner == 1 - blunder.seat and review.reason == "hq"
    decisions = [s for s, _ in steps(blunder.record)[0] if s.actor >= 0]
    assert [d.index for d in review.decisions] == [k + 1 for k, (s, _) in enumerate(steps(blunder.record)[0])
                                                   if s.actor >= 0]
    assert len(review.decisions) == len(decisions)


@pytest.mark.slow
def test_a_review_is_the_same_every_time_and_survives_json(blunder, review):
    again = analyse(blunder.record, effort=blunder.effort)
    assert again.to_json() == review.to_json()
    assert Review.from_json(json.loads(json.dumps(review.to_json()))).to_json() == review.to_json()


def test_progress_is_reported_decision_by_decision(blunder):
    seen: list[tuple[int, int]] = []
    head = type(blunder.record)(blunder.record.start, blunder.record.actions[:12], blunder.record.setup_lines)
    analyse(head, effort=Effort(samples=2, candidates=2), progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] and [d for d, _ in seen] == list(range(1, len(seen) + 1))


@pytest.mark.slow
def test_the_cli_json_chart_is_analyses(blunder, review, tmp_path):
    path = tmp_path / "blunder.tbr"
    path.write_text(blunder.record.text(), "utf-8")
    run = subprocess.run([sys.executable, "-m", "toybattle", "review", str(path), "--json",
                          "--samples", str(blunder.effort.samples)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    mine = analyse(blunder.record, effort=Effort(samples=blunder.effort.samples, candidates=4)).to_json()
    assert data["chart"] == mine["chart"] and data["turns"] == mine["turns"]
    assert data == mine


@pytest.mark.slow
def test_the_cli_text_names_the_better_move_and_why(blunder, tmp_path, capsys):
    from toybattle import cli

    path = tmp_path / "blunder.tbr"
    path.write_text(blunder.record.text(), "utf-8")
    assert cli.main(["review", str(path), "--samples", "4"]) == 0
    out = capsys.readouterr().out
    assert f"played {blunder.played}, better {blunder.winning}" in out
    assert "this wins the game at once: a tile on the enemy H.Q." in out
    assert cli.main(["review", str(tmp_path / "missing.tbr")]) == 2


def test_the_engine_sees_only_the_deciding_seats_observation(blunder, monkeypatch):
    """Every state the engine receives is the deciding seat's observation of the true state at that decision."""
    given: list = []
    real = analysis.action_chances

    def spy(obs, *args, **kwargs):
        given.append(obs.copy())
        return real(obs, *args, **kwargs)

    monkeypatch.setattr(analysis, "action_chances", spy)
    r = analyse(blunder.record, effort=Effort(samples=2, candidates=2))
    truth = [s for s, _ in steps(blunder.record)[0] if s.actor >= 0]
    assert len(given) == len(truth) == len(r.decisions)
    for obs, s in zip(given, truth, strict=True):
        seat = s.actor
        assert obs == observation(s, seat)
        assert observation(obs, seat) == obs  # holds nothing the seat may not know
        enemy = 1 - seat
        assert all(not t & 15 for t in obs.rack[enemy] if t not in obs.public[enemy])
        assert all(not t & 15 for t in obs.reserve[0] + obs.reserve[1] + obs.aside[0] + obs.aside[1])
    for d in r.decisions:  # the positions kept in the review are observations too
        if d.position is not None:
            assert d.position == position_text(observation(blunder.state_before(d.index), d.seat))


@pytest.mark.slow
def test_an_online_sides_review_uses_its_information_only(blunder, review):
    """A peer's states hide the other rack: reviewed with viewer=seat, only that seat's decisions are weighed, with
    the same figures as from the full record; without a viewer such states are refused."""
    seat = blunder.seat
    full, end = steps(blunder.record)
    peer = [(observation(s, seat), a) for s, a in full]
    with pytest.raises(ValueError, match="viewer"):
        analyse(peer, effort=blunder.effort)
    mine = analyse(peer, viewer=seat, effort=blunder.effort, end=observation(end, seat))
    assert {d.seat for d in mine.decisions} == {seat}
    assert [d.to_json() for d in mine.decisions] == [d.to_json() for d in review.decisions if d.seat == seat]
    assert mine.costliest[1 - seat] == ()
    assert len(mine.chart[0]) == len(review.turns)
    again = analyse(blunder.record, viewer=seat, effort=blunder.effort)
    assert again.chart == mine.chart


def test_every_reason_is_said_in_both_languages(review):
    for d in review.decisions:
        for m in d.why:
            for lang in ("en", "fr"):
                text = say(m, lang)
                assert text and "{" not in text


def test_the_reviews_words_are_messages_of_the_one_catalogue():
    """The review and the puzzles speak through toybattle.said: every id they name is in both of its catalogues
    (a count's message with its plural forms), and none lives in a catalogue of the review's own."""
    en, fr = catalogue("en"), catalogue("fr")
    here = Path(review_pkg.__file__).parent
    source = "".join((here / f).read_text("utf-8") for f in ("why.py", "puzzles.py", "cli.py"))
    ids = set(re.findall(r'"((?:review|puzzles)\.(?:why|hint|cli|reason)\.\w+)"', source))
    assert len(ids) > 30
    for mid in ids:
        assert mid in en and mid in fr, mid
    assert not list((here / "data").glob("??.json"))
    assert isinstance(en["review.why.closerHQ"], dict)


def test_a_reason_is_said_in_french_with_the_games_words():
    m = Said("review.why.cutsOffBase", seat="Red", node=15, power="recall")
    assert say(m, "fr") == "ce coup coupe Rouge de la base 15 (Tour catapulte)"
    assert say(Said("review.why.pushesBack", seat="Blue", n=1), "fr") == "ce coup repousse Bleu à 1 pose de votre Q.G."
    two = Said("review.why.pushesBack", seat="Blue", n=2)
    assert say(two, "en") == two == "this pushes Blue back to 2 placements from your H.Q."


def test_a_kept_reason_reads_back_also_as_kept_before_said():
    m = Said("review.why.keepsRegion", seat="Blue", region=2, n=2)
    assert stored(json.loads(json.dumps(m.to_json()))) == m and stored(m.to_json()).to_json() == m.to_json()
    assert stored({"id": "review.why.keepsRegion", "args": {"seat": 0, "region": 2, "n": 2}}).to_json() == m.to_json()
    with pytest.raises(ValueError):
        stored({"id": "review.why.nope", "args": {}})


@pytest.mark.slow
def test_the_cli_text_in_french(blunder, tmp_path, capsys):
    from toybattle import cli

    path = tmp_path / "blunder.tbr"
    path.write_text(blunder.record.text(), "utf-8")
    assert cli.main(["review", str(path), "--samples", "4", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert f"joué {blunder.played}, mieux {blunder.winning}" in out
    assert "ce coup gagne la partie tout de suite : une tuile sur le Q.G. adverse" in out
