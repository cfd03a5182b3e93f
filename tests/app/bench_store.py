"""Benchmark (not a test): what one durable game write costs, with SQLite's synchronous=FULL (what
toybattle.store uses) against NORMAL. Run: python tests/app/bench_store.py [DIR]  (DIR on the disk
to measure; default a temp dir). Each write stores a real mid-game row, as the app does after an action."""
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from toybattle.rules import State, action_text
from toybattle.rules.notation import Record
from toybattle.store import GameRow, Store

WRITES = 400


def game_row() -> GameRow:
    rng = random.Random(1)
    s = State.new("castle", seed=1)
    rec = Record(s.copy())
    for _ in range(60):
        s.resolve_chance(rng)
        if s.over:
            break
        a = rng.choice(s.legal_actions())
        rec.actions.append(action_text(a, s.b))
        s.apply_unchecked(a)
    meta = {"tokens": {"blue": "x" * 24, "red": "y" * 24}, "settings": {"kind": "hotseat", "terrain": "castle"}}
    return GameRow(id="bench", kind="hotseat", record=rec.text(), meta=meta)


def measure(directory: Path, synchronous: str) -> list[float]:
    store = Store(directory / f"{synchronous.lower()}.sqlite3")
    store._db.execute(f"PRAGMA synchronous={synchronous}")
    row = game_row()
    times = []
    for _ in range(WRITES):
        t = time.perf_counter()
        store.put(row)
        times.append(time.perf_counter() - t)
    store.close()
    return times


def main() -> None:
    directory = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    print(f"{WRITES} writes of a {len(game_row().record)}-character record to {directory}")
    for sync in ("NORMAL", "FULL", "NORMAL", "FULL"):
        ms = [t * 1000 for t in measure(directory, sync)]
        q = statistics.quantiles(ms, n=10)
        print(f"synchronous={sync:<6}  median {statistics.median(ms):.2f} ms  p90 {q[8]:.2f} ms  max {max(ms):.1f} ms")


if __name__ == "__main__":
    main()
