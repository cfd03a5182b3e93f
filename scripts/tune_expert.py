"""Tune the expert search level's parameters against the frozen ``expert-1`` with Optuna (seeded).

``--kind reply`` tunes the expert's own numbers instead (plans compared, guesses, beam widths), against
``--opponent`` (e.g. sparring), starting from the shipped level.

Each trial plays duplicate deals (the same tile orders twice, seats swapped) on every terrain in
turn between a search bot with the trial's parameters and ``expert-1``, and scores the trial by
its mean deal score. Both sides are defined by their work (simulations): their time caps are
raised out of reach, so the result does not depend on how loaded the machine is.

Needs the ``tune`` extra (``pip install -e '.[tune]'``); nothing at runtime does. Run it with the
compiled build for speed, at low priority, e.g.::

    nice -n 19 .venv-compiled/bin/python scripts/tune_expert.py --trials 12 --deals 9 --seed 1

The study and every trial's result are printed as JSON lines; ``--out FILE`` keeps them.
``--check LEVEL_OR_JSON`` instead plays one configuration (a level's name, a tree search's parameters
as JSON, or the expert's kind with other numbers: ``{"kind": "reply", "candidates": 8, "samples": 8}``)
against the opponent over ``--deals`` deals and prints its score with a 95% interval, deal
by deal as it goes.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from toybattle.bots import level, make_bot
from toybattle.bots.arena import play_deal
from toybattle.bots.players import Bot, SearchBot
from toybattle.bots.reply import ReplyBot
from toybattle.rules import State
from toybattle.rules.terrain import TERRAIN_IDS

UNCAPPED_S = 60.0  # a cap no search of these sizes reaches: the simulations alone end it


def search_bot(params: dict[str, Any], name: str) -> SearchBot:
    bot = SearchBot(None, budget_s=UNCAPPED_S, **params)
    bot.level = name
    return bot


def uncapped(name: str) -> Bot:
    """Level ``name`` with its time cap out of reach: a search level as its parameters, any other
    level (the sparring bot) as ``make_bot`` builds it."""
    if level(name).kind == "search":
        return search_bot(level_params(name), name)
    bot = make_bot(name)
    bot.budget_s = UNCAPPED_S
    return bot


def candidate(params: dict[str, Any]) -> Bot:
    """The bot ``--check`` plays: a level ({"level": NAME}), the expert's kind with other numbers ({"kind":
    "reply", "candidates": ..., "samples": ..., "width": ..., "reply_width": ...}), or a tree search's
    parameters; its time cap out of reach."""
    if "level" in params:
        bot = uncapped(params["level"])
    elif params.get("kind") == "reply":
        bot = ReplyBot(None, budget_s=UNCAPPED_S, **{k: v for k, v in params.items() if k != "kind"})
    else:
        bot = search_bot(params, "candidate")
    bot.level = "candidate"
    return bot


def configuration(spec: str) -> dict[str, Any]:
    """``--check``'s argument as ``candidate`` reads it: a level's name, or a JSON object of parameters."""
    return {"level": spec} if not spec.lstrip().startswith("{") else dict(json.loads(spec))


class Timed(Bot):
    """A bot whose every decision's processor time is kept: on a shared machine that is what the
    decision would take on an idle core (the wall clock counts the other jobs too)."""

    def __init__(self, inner: Bot):
        super().__init__(None)
        self.inner = inner
        self.level = inner.level
        self.budget_s = inner.budget_s  # what the referee offers the bot each decision
        self.cpu_s: list[float] = []
        self.simulations: list[float] = []

    def choose(self, obs: State, budget_s: float | None = None) -> int:
        t0 = time.process_time()
        a = self.inner.choose(obs, budget_s)
        self.cpu_s.append(time.process_time() - t0)
        self.simulations.append(self.inner.last_info.get("simulations", self.inner.last_info.get("positions", 0.0)))
        self.last_info = self.inner.last_info
        return a

    def new_game(self, seed: int | None = None) -> None:
        self.inner.new_game(seed)


def level_params(name: str) -> dict[str, Any]:
    lv = level(name)
    return {"simulations": lv.simulations, "width": lv.width, "depth": lv.depth, "explore": lv.explore,
            "prior": lv.prior, "scale": lv.scale, "judge": lv.judge}


def match(params: dict[str, Any], opponent: str, deals: int, seed: int,
          workers: int = 1) -> tuple[float, list[float]]:
    """Mean deal score of ``params`` (see ``candidate``) against the level ``opponent`` over ``deals`` deals
    cycling the terrains, in ``workers`` processes (the same deals and results as in one)."""
    jobs = [(params, opponent, k, seed) for k in range(deals)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            scores = list(pool.map(_deal_score, jobs))
    else:
        scores = [_deal_score(job) for job in jobs]
    return sum(scores) / len(scores), scores


def _deal_score(job: tuple[dict[str, Any], str, int, int]) -> float:
    """One deal of a trial (bots are built afresh: a seeded deal is then the same in any process)."""
    params, opponent, k, seed = job
    return play_deal((candidate(params), uncapped(opponent)), k, TERRAIN_IDS[k % len(TERRAIN_IDS)], False,
                     seed).score


def check(spec: str, opponent: str, deals: int, seed: int, terrain: str = "all", first_game: bool = False,
          first: int = 0, records: Path | None = None) -> dict[str, Any]:
    """One configuration against the opponent level, deal by deal on standard error, then its score.
    Deals ``first`` .. ``first + deals - 1`` of the seed (so that runs can share one seed's deals), on
    ``terrain`` or every terrain in turn; ``records`` keeps every game as a .tbr record."""
    params = configuration(spec)
    bots = (Timed(candidate(params)), Timed(uncapped(opponent)))
    scores: list[float] = []
    by_terrain: dict[str, list[float]] = {}
    ends: dict[str, int] = {}
    for k in range(first, first + deals):
        where = TERRAIN_IDS[k % len(TERRAIN_IDS)] if terrain == "all" else terrain
        d = play_deal(bots, k, where, first_game, seed)
        scores.append(d.score)
        by_terrain.setdefault(where, []).append(d.score)
        for g in d.games:
            key = f"{'candidate' if g.a_won else 'opponent'} {g.reason}"
            ends[key] = ends.get(key, 0) + 1
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)
            for a_seat, text in enumerate(d.records):
                (records / f"deal{k:05d}-{where}-cand{'blue' if a_seat == 0 else 'red'}.tbr").write_text(text, "utf-8")
        print(f"deal {k + 1 - first}/{deals} {where}: {d.score} (running {sum(scores) / len(scores):.3f})",
              file=sys.stderr, flush=True)
    mean, half = interval(scores)
    return {"candidate": params, "opponent": opponent, "seed": seed, "first": first, "deals": deals,
            "mode": "first-game" if first_game else "standard", "games": 2 * deals,
            "score": mean, "interval95": [mean - half, mean + half], "elo": elo(mean), "ends": ends,
            "per_terrain": {t: {"games": 2 * len(v), "score": sum(v) / len(v)} for t, v in by_terrain.items()},
            "deal_scores": scores, "think_cpu_s": [think(b) for b in bots]}


def think(bot: Timed) -> dict[str, float]:
    return {"decisions": len(bot.cpu_s), "median": statistics.median(bot.cpu_s), "max": max(bot.cpu_s),
            "mean": statistics.fmean(bot.cpu_s), "median_simulations": statistics.median(bot.simulations)}


def interval(scores: list[float]) -> tuple[float, float]:
    """Mean deal score and the half-width of its 95% interval (normal approximation over deals)."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def elo(score: float) -> float | None:
    return None if score <= 0 or score >= 1 else round(-400 * math.log10(1 / score - 1), 1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=int, default=12)
    p.add_argument("--deals", type=int, default=9, help="deals per trial (two games each; default 9, one per terrain)")
    p.add_argument("--seed", type=int, default=1, help="seeds the sampler and the deals")
    p.add_argument("--opponent", default="expert-1", help="a level (--check: any level, e.g. sparring)")
    p.add_argument("--terrain", default="all", help="--check: a terrain id, or all (in turn, deal by deal)")
    p.add_argument("--mode", choices=("standard", "first-game"), default="standard", help="--check only")
    p.add_argument("--first", type=int, default=0, help="--check: the first deal's index (to split a seed's deals)")
    p.add_argument("--records", type=Path, help="--check: write every game as a .tbr record into this folder")
    p.add_argument("--out", help="append every trial as a JSON line to this file")
    p.add_argument("--check", metavar="LEVEL_OR_JSON", help="play this configuration instead of tuning")
    p.add_argument("--workers", type=int, default=1, help="processes playing a trial's deals (the study only)")
    p.add_argument("--kind", choices=("search", "reply"), default="search",
                   help="what the study tunes: a tree search's parameters, or the expert's plans, guesses and beam "
                        "widths (its shipped numbers are the first trial)")
    args = p.parse_args(argv)
    if args.terrain != "all" and args.terrain not in TERRAIN_IDS:
        p.error(f"unknown terrain {args.terrain!r} (one of: all, {', '.join(TERRAIN_IDS)})")
    if args.check:
        try:
            candidate(configuration(args.check))
        except (TypeError, ValueError) as e:  # a bad level name, JSON or parameter: one line, nothing played
            p.error(f"bad --check configuration {args.check!r}: {e}")
        print(json.dumps(check(args.check, args.opponent, args.deals, args.seed, args.terrain,
                               args.mode == "first-game", args.first, args.records)))
        return 0
    import optuna  # the optional `tune` extra

    def suggest(trial: optuna.Trial) -> dict[str, Any]:
        if args.kind == "reply":
            return {"kind": "reply", "candidates": trial.suggest_int("candidates", 4, 12),
                    "samples": trial.suggest_int("samples", 4, 16), "width": trial.suggest_int("width", 2, 6),
                    "reply_width": trial.suggest_int("reply_width", 1, 4)}
        return {
            "simulations": level_params(args.opponent)["simulations"],
            "width": trial.suggest_int("width", 8, 24),
            "depth": trial.suggest_int("depth", 8, 20),
            "explore": trial.suggest_float("explore", 0.3, 1.0),
            "prior": trial.suggest_float("prior", 0.0, 2.0),
            "scale": trial.suggest_float("scale", 8.0, 40.0),
        }

    def objective(trial: optuna.Trial) -> float:
        params = suggest(trial)
        t0 = time.perf_counter()
        # every trial meets the same deals, so trials differ by their parameters, not their luck
        score, scores = match(params, args.opponent, args.deals, args.seed, args.workers)
        row = {"trial": trial.number, "params": params, "score": score, "deals": scores,
               "seconds": round(time.perf_counter() - t0, 1)}
        line = json.dumps(row)
        print(line, flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        return score

    sampler = optuna.samplers.TPESampler(seed=args.seed, n_startup_trials=min(6, args.trials))
    study = optuna.create_study(direction="maximize", sampler=sampler)
    if args.kind == "reply":  # the shipped expert first, so that every trial is compared with it on the same deals
        shipped = level("expert")
        study.enqueue_trial({"candidates": shipped.candidates, "samples": shipped.samples, "width": shipped.width,
                             "reply_width": shipped.reply_width})
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study.optimize(objective, n_trials=args.trials)
    print(json.dumps({"best": study.best_params, "score": study.best_value}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
