"""Benchmark: how long a bot takes to answer on the static site (Pyodide in chromium), as a player waits for it.

    .venv/bin/python scripts/bench_browser_bot.py [--site DIR] [--level expert] [--moves 40] [--json]

Builds the site (``toybattle site``) unless ``--site`` names a built one, serves it with
``python -m http.server``, and plays games against the bot in Debian's chromium (headless, Playwright,
phone-sized page) by tapping the UI: a tile onto the highlighted base nearest the enemy H.Q., now and
then a draw, the offered buttons otherwise. A MutationObserver in the page timestamps (performance.now)
every change of the board's ply and of the seat to move, so no Python-side sleep or polling delay enters
the figures:

- decision: from the page showing the bot to move to the page showing its decision (one per bot decision;
  a turn with a Cap'n's extra tile or a special base's effect has several);
- turn: from the page showing the bot to move after your move to the page showing your turn again.

Prints the median, p95 and max of both over at least ``--moves`` bot decisions (games are started again
as they end). Speed figures go to docs/benchmarks.md; nothing here asserts a time.

``--ratio N`` measures instead how much slower Python is in the site's Pyodide than natively: the expert,
unhurried (its fixed work, the same positions scored on both sides), thinks on the same N positions in a
Web Worker of the page (the site's Pyodide, wheels and package) and in this CPython, one after the other;
it prints both think times and their ratio (browser / native), the factor by which a browser budget is
scaled down to the native budget that buys the same work.

``--review FILE`` measures a whole game's review (a record file, ``.tbr``) the same way, in the page's Pyodide and
natively: ``analyse`` at the review's own effort (what the app and the site run), then the puzzle checks the app runs
after it (``candidates``, at most 8 checked with ``puzzle_at``); it prints each one's seconds, the decisions
weighed, the checks made and the puzzles found.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2, "is_mobile": True,
                         "has_touch": True}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
BOARD_READY = "document.querySelector('#board') && document.querySelector('#board').dataset.ply !== undefined"
ME_TURN = ("(() => { const p = document.querySelector('#play'); return p && p.dataset.seat && "
           "!document.querySelector('#cover') && (p.dataset.over === '1' || p.dataset.actor === p.dataset.seat); })()")
# every change of the ply or of the seat to move, with the page's own clock
OBSERVE = """() => {
  window.__botlog = [];
  const note = () => {
    const b = document.querySelector('#board'), p = document.querySelector('#play');
    if (!b || !p) return;
    const row = [performance.now(), b.dataset.ply || '', p.dataset.actor || '', p.dataset.seat || '',
                 p.dataset.over || ''];
    const last = window.__botlog[window.__botlog.length - 1];
    if (!last || last.slice(1).join() !== row.slice(1).join()) window.__botlog.push(row);
  };
  new MutationObserver(note).observe(document.documentElement, {subtree: true, attributes: true,
                                                                 attributeFilter: ['data-ply', 'data-actor']});
  note();
}"""


# the same Python in the browser's Pyodide and natively: the unhurried expert's think time on N positions
RATIO_SNIPPET = """
import json, time
from toybattle.bots import make_bot
from toybattle.bots.bench import sample_positions
positions = sample_positions({n}, "castle")
bot = make_bot("expert", seed=1)
bot.budget_s = 600.0
make_bot("expert", seed=2).choose(positions[0])  # warm up: first calls load the weights and tables
times, work = [], 0.0
for obs in positions:
    t0 = time.perf_counter()
    bot.choose(obs)
    times.append(time.perf_counter() - t0)
    work += bot.last_info.get("positions", 0.0)
json.dumps({{"times": times, "positions": work}})
"""
# a Web Worker that loads the site's own Pyodide, wheels and package (named in its site.json) and runs code
RATIO_WORKER = """
const base = "{base}/static/site/";
const site = await (await fetch(base + "site.json")).json();
const pyodideDir = base + (site.pyodide || "pyodide/");
const {{ loadPyodide }} = await import(pyodideDir + "pyodide.mjs");
const py = await loadPyodide({{ indexURL: pyodideDir }});
for (const wheel of site.wheels) {{
  py.unpackArchive(await (await fetch(base + wheel)).arrayBuffer(), "wheel");
}}
py.unpackArchive(await (await fetch(base + (site.package || "toybattle.zip"))).arrayBuffer(), "zip",
                 {{ extractDir: "/lib/toybattle" }});
py.runPython("import sys; sys.path.insert(0, '/lib/toybattle')");
postMessage(py.runPython({snippet}));
"""


# a whole game's review, then the puzzle checks the app makes after it
REVIEW_SNIPPET = """
import json, time
from toybattle.rules import parse_record
from toybattle.review import analyse
from toybattle.review.puzzles import candidates, puzzle_at
record = parse_record({text})
t0 = time.perf_counter()
review = analyse(record)
t1 = time.perf_counter()
found = [puzzle_at(position, "bench", "") for _, _, position in candidates(review)[:8]]
t2 = time.perf_counter()
json.dumps({{"review_s": t1 - t0, "decisions": len(review.decisions), "checks_s": t2 - t1, "checks": len(found),
             "puzzles": sum(p is not None for p in found)}})
"""


def side_by_side(page: Any, base: str, snippet: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """What ``snippet`` (Python ending in an expression: a JSON text) gives in the page's Pyodide, then natively."""
    code = RATIO_WORKER.format(base=base, snippet=json.dumps(snippet))
    page.goto(base + "/")
    browser = json.loads(page.evaluate("""code => new Promise((ok, fail) => {
        const w = new Worker(URL.createObjectURL(new Blob([code], {type: "text/javascript"})), {type: "module"});
        w.onmessage = (e) => ok(e.data); w.onerror = (e) => fail(e.message); })""", code))
    native = json.loads(subprocess.run([sys.executable, "-c", snippet.replace("json.dumps(", "print(json.dumps(")
                                        + ")"], check=True, capture_output=True, text=True).stdout)
    return browser, native


def review(page: Any, base: str, record: Path) -> dict[str, Any]:
    """A whole game's review and its puzzle checks, in the page's Pyodide and natively."""
    browser, native = side_by_side(page, base, REVIEW_SNIPPET.format(text=repr(record.read_text("utf-8"))))
    out: dict[str, Any] = {"record": record.name, "browser": browser, "native": native}
    for key in ("review_s", "checks_s"):
        out[f"ratio_{key}"] = round(browser[key] / native[key], 2) if native[key] else None
    return out


def ratio(page: Any, base: str, n: int) -> dict[str, Any]:
    """The unhurried expert's think time on the same ``n`` positions in the page's Pyodide and natively."""
    browser, native = side_by_side(page, base, RATIO_SNIPPET.format(n=n))
    out: dict[str, Any] = {"positions": n, "work_same": browser["positions"] == native["positions"]}
    for name, got in (("browser", browser), ("native", native)):
        times = got["times"]
        out[name] = {"total_s": round(sum(times), 3), "median_ms": round(statistics.median(times) * 1000, 1),
                     "max_ms": round(max(times) * 1000, 1)}
    out["ratio_total"] = round(sum(browser["times"]) / sum(native["times"]), 2)
    out["ratio_median_of_positions"] = round(statistics.median(
        b / a for a, b in zip(native["times"], browser["times"], strict=True) if a > 0), 2)
    return out


def serve(directory: Path, port: int) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(directory)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    assert server.stdout is not None
    found = re.search(r" port (\d+) ", server.stdout.readline())
    if not found:
        server.terminate()
        raise SystemExit("the static file server did not start")
    url = f"http://127.0.0.1:{found.group(1)}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/", timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    return server, url


def start_game(page: Any, base: str, level: str, terrain: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#newgame")
    page.locator("#newgame input[name=kind][value=bot]").check(force=True)
    page.select_option("#terrain", terrain)
    page.select_option("#level", level)
    page.locator("#newgame input[name=first][value=blue]").check(force=True)
    page.click("#start")
    page.wait_for_selector("#play")
    page.wait_for_function(BOARD_READY)
    page.evaluate(OBSERVE)


def _targets(page: Any) -> list[tuple[int, float]]:
    got: list[tuple[int, float]] = page.eval_on_selector_all(
        "#board g.node.target", "gs => gs.map(g => [Number(g.dataset.node), g.getBoundingClientRect().y])")
    return got


def _tap(page: Any, node: int) -> None:
    page.locator(f'#board g.node[data-node="{node}"] circle.hit').click()


def play_one(page: Any, rng: random.Random) -> None:
    """One decision of the player's seat through the UI, pushing toward the enemy H.Q. (the top)."""
    before = page.eval_on_selector("#board", "b => b.dataset.ply")
    if page.locator("#btn-use").count():
        page.click("#btn-use" if rng.random() < 0.8 or not page.locator("#btn-skip").count() else "#btn-skip")
    elif page.locator("#buttons [data-action^='recover:']").count():
        page.locator("#buttons [data-action^='recover:']").first.click()
    elif _targets(page):  # Jumbo, a tower recall, a bridge shove: tap a highlighted node (two taps for a shove)
        _tap(page, min(_targets(page), key=lambda t: t[1])[0])
        if page.eval_on_selector("#play", "p => p.dataset.decision") == "jungle_shove" and \
                page.eval_on_selector("#board", "b => b.dataset.ply") == before:
            page.wait_for_function("document.querySelectorAll('#board g.node.target').length > 0")
            _tap(page, min(_targets(page), key=lambda t: t[1])[0])
    else:
        tiles = page.locator("#rack .rack-tile:not(.stuck):not(.laid)")
        if tiles.count() and (rng.random() < 0.85 or not page.locator("#btn-draw").count()):
            tiles.nth(rng.randrange(tiles.count())).click()
            page.wait_for_selector("#board g.node.target")
            _tap(page, min(_targets(page), key=lambda t: t[1])[0])
        elif page.locator("#btn-draw").count():
            page.click("#btn-draw")
        else:
            page.click("#btn-skip")
    page.wait_for_function(
        "([p]) => { const b = document.querySelector('#board'); const t = document.querySelector('#toast');"
        " return (b && b.dataset.ply !== p) || (t && !t.classList.contains('hidden')); }", arg=[before])


def waits(log: list[list[Any]]) -> tuple[list[float], list[float]]:
    """(seconds per bot decision, seconds per bot turn) from one game's observed rows
    (t ms, ply, actor, seat, over)."""
    decisions: list[float] = []
    turns: list[float] = []
    shown: float | None = None  # when the page first showed the bot to move at the current ply
    shown_ply = ""
    turn_from: float | None = None
    for t, ply, actor, seat, over in log:
        bot_to_move = not over and actor not in ("", seat)
        if shown is not None and (ply != shown_ply or not bot_to_move):
            decisions.append((t - shown) / 1000)
            shown = None
        if bot_to_move and shown is None:
            shown, shown_ply = t, ply
            if turn_from is None:
                turn_from = t
        if turn_from is not None and not bot_to_move:
            turns.append((t - turn_from) / 1000)
            turn_from = None
    return decisions, turns


def summary(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "median_s": round(statistics.median(xs), 3),
            "p95_s": round(xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))], 3), "max_s": round(xs[-1], 3)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                epilog="See the module docstring for what is measured.")
    p.add_argument("--site", type=Path, help="a site built by `toybattle site DIR` (default: build one now)")
    p.add_argument("--level", default="expert", help="bot level to play against (default expert)")
    p.add_argument("--terrain", default="castle", help="terrain id (default castle)")
    p.add_argument("--moves", type=int, default=40, help="bot decisions to time at least (default 40)")
    p.add_argument("--seed", type=int, default=1, help="seed of the player's taps (default 1)")
    p.add_argument("--port", type=int, default=0, help="port of the static server (default: any free one)")
    p.add_argument("--chromium", default="/usr/bin/chromium", help="the browser (default /usr/bin/chromium)")
    p.add_argument("--json", action="store_true", help="print the result as JSON, with every wait")
    p.add_argument("--ratio", type=int, metavar="N", default=0,
                   help="measure Pyodide's speed against native CPython on N positions instead (see above)")
    p.add_argument("--review", type=Path, metavar="FILE",
                   help="measure a whole game's review and its puzzle checks instead, browser and native (see above)")
    args = p.parse_args()
    from playwright.sync_api import sync_playwright

    site = args.site
    if site is None:
        site = Path(tempfile.mkdtemp()) / "www"
        subprocess.run([sys.executable, "-m", "toybattle", "site", str(site)], check=True, capture_output=True)
    server, base = serve(site, args.port)
    rng = random.Random(args.seed)
    decisions: list[float] = []
    turns: list[float] = []
    games = 0
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
            ctx = browser.new_context(**PHONE)
            ctx.set_default_timeout(120_000)
            page = ctx.new_page()
            if args.ratio:
                print(json.dumps(ratio(page, base, args.ratio), indent=1))
                return
            if args.review:
                print(json.dumps(review(page, base, args.review), indent=1))
                return
            while len(decisions) < args.moves:
                start_game(page, base, args.level, args.terrain)
                games += 1
                for _ in range(300):
                    page.wait_for_function(ME_TURN)
                    if page.eval_on_selector("#play", "p => p.dataset.over") == "1":
                        break
                    play_one(page, rng)
                    d, _ = waits(page.evaluate("window.__botlog"))
                    if len(decisions) + len(d) >= args.moves:
                        page.wait_for_function(ME_TURN)
                        break
                d, t = waits(page.evaluate("window.__botlog"))
                decisions += d
                turns += t
                print(f"game {games}: {len(d)} bot decisions timed", file=sys.stderr)
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    out: dict[str, Any] = {"level": args.level, "terrain": args.terrain, "games": games,
                           "decision": summary(decisions), "turn": summary(turns)}
    if args.json:
        out["decisions_s"] = [round(x, 3) for x in decisions]
        out["turns_s"] = [round(x, 3) for x in turns]
        print(json.dumps(out, indent=1))
    else:
        for k in ("decision", "turn"):
            s = out[k]
            print(f"{args.level} {k}: n={s['n']} median {s.get('median_s')} s, p95 {s.get('p95_s')} s, "
                  f"max {s.get('max_s')} s")


if __name__ == "__main__":
    main()
