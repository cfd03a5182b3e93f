"""In the browser (the static site: Pyodide, where the app's bots think in-process), a bot thinks at most
app/bot_levels.py's BROWSER_THINK_S per decision, and its answer is released at that pace; natively the levels
keep their own budgets. The platform flag is patched here, the rest is the app's real code."""
from __future__ import annotations

import asyncio

import pytest

from toybattle.app import bot_levels
from toybattle.app.pool import BotPool, browser_budget_s
from toybattle.app.session import LocalSession
from toybattle.bots import LEVELS, level
from toybattle.bots.bench import sample_positions
from toybattle.store import Store


def test_the_browser_budget_is_shorter_than_the_expert_s_own_and_bounds_every_level():
    expert = level("expert")
    assert 0.6 <= bot_levels.BROWSER_THINK_S < 1.0 < expert.budget_s
    assert bot_levels.think_budget_s(expert.budget_s, True) == bot_levels.BROWSER_THINK_S
    assert bot_levels.think_budget_s(expert.budget_s, False) == expert.budget_s
    for lv, there in zip(LEVELS, bot_levels.levels(browser=True), strict=True):
        assert there.name == lv.name and there.budget_s == min(lv.budget_s, bot_levels.BROWSER_THINK_S)
    assert bot_levels.levels(browser=False) == LEVELS
    assert bot_levels.make_bot("expert", 1, browser=True).budget_s == bot_levels.BROWSER_THINK_S
    assert bot_levels.make_bot("expert", 1, browser=False).budget_s == expert.budget_s


@pytest.mark.parametrize("browser", [False, True])
def test_the_session_paces_and_caps_the_expert_by_where_it_runs(tmp_path, monkeypatch, browser):
    """The session's pace (when the answer is released) and the budget it hands the bot follow the level's
    budget where the app runs: 0.7 s in the browser instead of the expert's 1.8 s."""
    monkeypatch.setattr(bot_levels, "IN_BROWSER", browser)
    store = Store(tmp_path / "games.sqlite3")
    given: list[float | None] = []

    async def run() -> None:
        s = LocalSession.create(store, BotPool(), "bot", terrain="castle", first="red", human="blue", level="expert",
                                bot_delay=0.6)
        store.put(s.row)

        async def think(level_name, obs, budget_s=None):
            given.append(budget_s)
            return obs.legal_actions()[0]

        async def wait(_seconds: float) -> None:
            pass

        s._think = think  # type: ignore[method-assign]
        s._wait = wait  # type: ignore[method-assign]
        s.kick_bot()
        await asyncio.wait_for(s._bot_task, 30)  # type: ignore[arg-type]
        want = bot_levels.BROWSER_THINK_S if browser else level("expert").budget_s
        assert s.pace == want and given and given[0] == want

    try:
        asyncio.run(run())
    finally:
        store.close()


def test_in_the_browser_the_pool_thinks_in_process_within_the_browser_budget(monkeypatch):
    """The in-process path (BotPool's in_process, true on Pyodide) bounds whatever budget it is asked for,
    and its bots carry the browser's budget (which bounds their hints too)."""
    pool = BotPool(in_process=True)
    assert BotPool().in_process == bot_levels.IN_BROWSER  # the app's pool: in process only in the browser
    obs = sample_positions(1, "castle", seed=4)[0]
    asked: list[float | None] = []
    bot = pool.bot("expert")
    real = bot.choose

    def spy(o, budget_s=None):
        asked.append(budget_s)
        return real(o, budget_s)

    monkeypatch.setattr(bot, "choose", spy)
    for budget in (None, 1.8, 0.5):
        a = asyncio.run(pool.choose("expert", obs, budget))
        assert a in obs.legal_actions()
    assert asked == [bot_levels.BROWSER_THINK_S, bot_levels.BROWSER_THINK_S, 0.5]
    assert pool.bots["expert"] is bot and bot.budget_s == bot_levels.BROWSER_THINK_S
    assert browser_budget_s(None) == bot_levels.BROWSER_THINK_S


def test_the_arena_plays_a_level_at_a_given_budget_as_level_at_seconds():
    """``expert@0.35``: the expert thinking at most 0.35 s a decision (how the site's expert is measured
    natively); reports name it so. A bad budget is refused by name, before any game."""
    from toybattle.bots.arena import MatchSpec, build_bot, run_match, split_budget

    bot = build_bot("expert@0.35", 1)
    assert bot.budget_s == 0.35 and bot.name == "expert@0.35" and isinstance(bot, type(build_bot("expert", 1)))
    assert split_budget("expert") == ("expert", None)
    for bad in ("expert@", "expert@0", "expert@-1", "expert@fast", "expert@inf"):
        with pytest.raises(ValueError, match="bad time budget"):
            split_budget(bad)
    report = run_match(MatchSpec("sparring@0.2", "greedy", deals=1, terrains=("castle",), seed=3))
    assert report.deals[0].names == ("sparring@0.2", "greedy") and len(report.deals[0].games) == 2


def test_the_arena_command_refuses_a_bad_budget_in_one_line(capsys):
    from toybattle.cli import main

    code = main(["arena", "expert@soon", "greedy", "--games", "2"])
    err = capsys.readouterr().err
    assert code != 0 and "bad time budget in 'expert@soon'" in err and "Traceback" not in err
