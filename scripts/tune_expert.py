"""Tune the expert search level's parameters against the frozen ``expert-1`` with Optuna (seeded).

Each trial plays duplicate deals (the same tile orders twice, seats swapped) on every terrain in
turn between a search bot with the trial's parameters and ``expert-1``, and scores the trial by
its mean deal score. Both sides are defined by their work (simulations): their time caps are
raised out of reach, so the result does not depend on how loaded the machine is.

Needs the ``tune`` extra (``pip install -e '.[tune]'``); nothing at runtime does. Run it with the
compiled build for speed, at low priority, e.g.::

    nice -n 19 .venv-compiled/bin/python scripts/tune_expert.py --trials 12 --deals 9 --seed 1

The study and every trial's result are printed as JSON lines; ``--out FILE`` keeps them.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from toybattle.bots import level
from toybattle.bots.arena import play_deal
from toybattle.bots.players import SearchBot
from toybattle.rules.terrain import TERRAIN_IDS

UNCAPPED_S = 60.0  # a cap no search of these sizes reaches: the simulations alone end it


def search_bot(params: dict[str, Any], name: str) -> SearchBot:
    bot = SearchBot(None, budget_s=UNCAPPED_S, **params)
    bot.level = name
    return bot


def level_params(name: str) -> dict[str, Any]:
    lv = level(name)
    return {"simulations": lv.simulations, "width": lv.width, "depth": lv.depth, "explore": lv.explore,
            "prior": lv.prior, "scale": lv.scale}


def match(params: dict[str, Any], opponent: dict[str, Any], deals: int, seed: int,
          first: int = 0) -> tuple[float, list[float]]:
    """Mean deal score of ``params`` against ``opponent`` over ``deals`` deals cycling the terrains."""
    bots = (search_bot(params, "candidate"), search_bot(opponent, "opponent"))
    scores = []
    for k in range(first, first + deals):
        scores.append(play_deal(bots, k, TERRAIN_IDS[k % len(TERRAIN_IDS)], False, seed).score)
    return sum(scores) / len(scores), scores


def main(argv: list[str] | None = None) -> int:
    import optuna  # the optional `tune` extra

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=int, default=12)
    p.add_argument("--deals", type=int, default=9, help="deals per trial (two games each; default 9, one per terrain)")
    p.add_argument("--seed", type=int, default=1, help="seeds the sampler and the deals")
    p.add_argument("--opponent", default="expert-1")
    p.add_argument("--out", help="append every trial as a JSON line to this file")
    args = p.parse_args(argv)
    opponent = level_params(args.opponent)

    def objective(trial: optuna.Trial) -> float:
        params = {
            "simulations": opponent["simulations"],
            "width": trial.suggest_int("width", 8, 24),
            "depth": trial.suggest_int("depth", 8, 20),
            "explore": trial.suggest_float("explore", 0.3, 1.0),
            "prior": trial.suggest_float("prior", 0.0, 2.0),
            "scale": trial.suggest_float("scale", 8.0, 40.0),
        }
        t0 = time.perf_counter()
        # every trial meets the same deals, so trials differ by their parameters, not their luck
        score, scores = match(params, opponent, args.deals, args.seed)
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
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study.optimize(objective, n_trials=args.trials)
    print(json.dumps({"best": study.best_params, "score": study.best_value}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
