"""Refit the sparring bot's evaluation (src/toybattle/bots/data/sparring.json) to the outcomes of games.

Needs the `tune` extra (scikit-learn; never needed to play): `pip install -e '.[tune]'`. Then
    python scripts/fit_sparring.py --seed 1 --games 600 --rounds 3
plays the games, fits, and rewrites the weights file; the same seed and counts give the same file.

Every game is played on a terrain and mode taken in turn (all nine terrains, standard and first-game).
Round 1 plays greedy against greedy; each later round plays the sparring bot with the weights of the
round before against itself and against greedy (search levels would give better-played games, but at
a hundred times the cost per game). With chance EPSILON a seat plays a random
legal action instead of its bot's, so that the positions are varied. A position is recorded each time a
turn passes, from the observation of the seat that has just played, labelled 1 if that seat went on to
win; the fit uses every round's positions. The model is a logistic regression (scikit-learn, L2
penalty) on the features of toybattle.bots.evaluate: one shared weight per feature, plus a correction per
terrain (penalised more, so that a terrain departs from the shared weights only where its games show it).
A fifth of the games (every fifth) is held out to report how well the weights predict; the weights
written are then fitted on all games.

``--plus`` fits the longer feature list (evaluate.FEATURES_PLUS: the medal counts uncapped, and whether a
seat is one medal short) and writes src/toybattle/bots/data/expert.json, the expert's judge, instead:
    python scripts/fit_sparring.py --seed 1 --games 600 --rounds 3 --plus
(its rounds' sparring bots play with the weights being fitted; the sparring bot's own file is untouched).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, log_loss

from toybattle.bots import evaluate as E
from toybattle.bots import make_bot
from toybattle.bots.beam import BeamBot
from toybattle.bots.players import Bot
from toybattle.rules import State, observation
from toybattle.rules.state import TURN
from toybattle.rules.terrain import TERRAIN_IDS

EPSILON = 0.08
C = 0.5  # inverse strength of the L2 penalty on the standardised features
GAMMA = 0.4  # scale of the per-terrain columns: smaller penalises a terrain's correction more
DATA = Path(__file__).resolve().parent.parent / "src" / "toybattle" / "bots" / "data"


def _bot(name: str, seed: int, weights: E.Weights | None) -> Bot:
    if name == "sparring":  # no time cap: the same games on a loaded machine
        return BeamBot(seed, width=4, budget_s=600.0, weights=weights)
    return make_bot(name, seed)


def play(pair: tuple[str, str], k: int, seed: int, weights: E.Weights | None,
         plus: bool = False) -> list[tuple[int, list[float], int]]:
    """One game; (terrain index, features, 1 if that seat won) each time a turn passed."""
    terrain, first_game = TERRAIN_IDS[k % len(TERRAIN_IDS)], (k // len(TERRAIN_IDS)) % 2 == 1
    rng = random.Random(seed)
    s = State.new(terrain, first_game, seed=seed)
    bots = [_bot(pair[0], seed, weights), _bot(pair[1], seed + 1, weights)]
    if k % 2:
        bots.reverse()
    rows: list[tuple[int, list[float], int]] = []
    features = E.features_plus if plus else E.features
    while True:
        s.resolve_chance(rng)
        if s.over:
            break
        seat = s.actor
        obs = observation(s, seat)
        a = rng.choice(obs.legal_actions()) if s.decision == TURN and rng.random() < EPSILON else bots[seat].choose(obs)
        s.apply(a)
        if not s.over and s.turn != seat:
            rows.append((k % len(TERRAIN_IDS), features(observation(s, seat), seat), seat))
    return [(t, x, int(s.winner == seat)) for t, x, seat in rows]


def design(terrains: np.ndarray, x: np.ndarray, mu: np.ndarray, sd: np.ndarray,
           shared_only: np.ndarray | None = None) -> np.ndarray:
    """Standardised features (the bias stays 1), then the same once more for each terrain's own columns
    (zero for the features in ``shared_only``, a 0/1 mask: those get no per-terrain correction)."""
    z = x.copy()
    z[:, 1:] = (x[:, 1:] - mu[1:]) / sd[1:]
    zt = z if shared_only is None else z * (1 - shared_only)
    cols = [z] + [GAMMA * zt * (terrains == t)[:, None] for t in range(len(TERRAIN_IDS))]
    return np.hstack(cols)


def unstandardise(c: np.ndarray, mu: np.ndarray, sd: np.ndarray) -> list[float]:
    """Weights on the raw features from weights on the standardised ones."""
    w = np.zeros_like(c)
    w[1:] = c[1:] / sd[1:]
    w[0] = c[0] - float(np.sum(c[1:] * mu[1:] / sd[1:]))
    return [round(float(v), 5) for v in w]


def fit(terrains: np.ndarray, x: np.ndarray, y: np.ndarray,
        shared_only: np.ndarray | None = None) -> tuple[LogisticRegression, np.ndarray, np.ndarray]:
    mu, sd = x.mean(axis=0), x.std(axis=0)
    sd[sd == 0] = 1.0
    model = LogisticRegression(C=C, fit_intercept=False, max_iter=5000)
    model.fit(design(terrains, x, mu, sd, shared_only), y)
    return model, mu, sd


def to_weights(model: LogisticRegression, mu: np.ndarray, sd: np.ndarray,
               names: tuple[str, ...]) -> dict[str, object]:
    f = len(names)
    coef = model.coef_[0]
    shared = unstandardise(coef[:f], mu, sd)
    per = {}
    for t, tid in enumerate(TERRAIN_IDS):
        c = GAMMA * coef[f * (t + 1):f * (t + 2)]
        per[tid] = unstandardise(c, mu, sd)
    return {"features": list(names), "shared": shared, "terrain": per}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=600, help="games per pairing per round (default 300)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--plus", action="store_true", help="fit FEATURES_PLUS into data/expert.json (the expert's judge)")
    p.add_argument("--shared", action="append", default=[], metavar="FEATURE",
                   help="give this feature one weight on every terrain (no per-terrain correction); repeatable")
    p.add_argument("--out", type=Path, help="the file to write (default: data/sparring.json, or expert.json)")
    args = p.parse_args()
    names = E.FEATURES_PLUS if args.plus else E.FEATURES
    unknown = [f for f in args.shared if f not in names]
    if unknown:
        p.error(f"--shared: unknown feature {unknown[0]!r} (one of: {', '.join(names)})")
    shared_only = np.array([float(f in args.shared) for f in names]) if args.shared else None
    out_path = args.out or DATA / (E.EXPERT_FILE if args.plus else E.DATA_FILE)
    data: list[tuple[int, int, list[float], int]] = []  # (game, terrain, features, won)
    weights: E.Weights | None = None
    game = 0
    for r in range(args.rounds):
        pairs = [("greedy", "greedy")] if r == 0 else [("sparring", "sparring"), ("sparring", "greedy")]
        for pair in pairs:
            t0 = time.perf_counter()
            for k in range(args.games):
                seed = args.seed * 1_000_003 + game
                data += [(game, t, x, won) for t, x, won in play(pair, k, seed, weights, args.plus)]
                game += 1
            print(f"round {r + 1}: {args.games} games {pair[0]} vs {pair[1]} in {time.perf_counter() - t0:.0f} s; "
                  f"{len(data)} positions so far", file=sys.stderr)
        games = np.array([d[0] for d in data])
        terrains = np.array([d[1] for d in data])
        x = np.array([d[2] for d in data], dtype=float)
        y = np.array([d[3] for d in data])
        held = games % 5 == 4
        model, mu, sd = fit(terrains[~held], x[~held], y[~held], shared_only)
        prob = model.predict_proba(design(terrains[held], x[held], mu, sd, shared_only))[:, 1]
        quality = {"held_out_positions": int(held.sum()), "held_out_log_loss": round(float(log_loss(y[held], prob)), 4),
                   "held_out_accuracy": round(float(accuracy_score(y[held], prob > 0.5)), 4)}
        print(f"round {r + 1}: held out {quality}", file=sys.stderr)
        model, mu, sd = fit(terrains, x, y, shared_only)
        out = to_weights(model, mu, sd, names)
        weights = E.parse_weights(out)
    whose = "the expert's judge" if args.plus else "the sparring bot's evaluation"
    about = (f"Weights of {whose} (toybattle.bots.evaluate): the log-odds that the seat that "
             "has just played wins. 'shared' holds one weight per feature, in the order of 'features'; 'terrain' "
             "the correction each terrain adds to them. Written by scripts/fit_sparring.py (see 'fitted').")
    command = (f"python scripts/fit_sparring.py --seed {args.seed} --games {args.games} --rounds {args.rounds}"
               + (" --plus" if args.plus else "") + "".join(f" --shared {f}" for f in args.shared))
    fitted = {"command": command,
              "games": game, "positions": len(data), "epsilon": EPSILON, "C": C, "gamma": GAMMA,
              **({"shared_only": list(args.shared)} if args.shared else {}),
              "scikit_learn": sklearn.__version__, **quality}
    out_path.write_text(json.dumps({"about": about, **out, "fitted": fitted}, indent=1) + "\n", "utf-8")
    print(f"wrote {out_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
