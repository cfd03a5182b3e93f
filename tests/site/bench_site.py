"""Benchmark of the static site (docs/benchmarks.md): bytes and time to a playable board on a first and
a later visit, and the engine's speed in the browser's Pyodide against native CPython.

    PYTHONPATH=src python tests/site/bench_site.py [--positions 12]

Builds the site into a temporary directory, serves it from localhost with a static server that counts
the bytes it sends, and drives Debian's chromium (headless) with Playwright.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
PLAYABLE = "(() => { const b = document.querySelector('#board'); return b && b.dataset.ply !== undefined; })()"
# the same Python, run natively and in the browser: median think time per level, rules speed
SNIPPET = """
import json
from toybattle.bots.bench import measure, sample_positions
from toybattle.cli_rules import bench
out = measure(sample_positions({positions}, "castle"))
out["rules"] = bench(3.0, 1)
json.dumps(out)
"""
WORKER = """
// as the site's worker does: site.json names the build's content-hashed files, then the pinned wheels the
// app needs, then toybattle itself
const site = await (await fetch("{base}/static/site/site.json")).json();
const {{ loadPyodide }} = await import("{base}/static/site/" + site.pyodide + "pyodide.mjs");
const py = await loadPyodide({{ indexURL: "{base}/static/site/" + site.pyodide }});
for (const wheel of site.wheels) {{
  py.unpackArchive(await (await fetch("{base}/static/site/" + wheel)).arrayBuffer(), "wheel");
}}
py.unpackArchive(await (await fetch("{base}/static/site/" + site.package)).arrayBuffer(), "zip",
                 {{ extractDir: "/lib/toybattle" }});
py.runPython("import sys; sys.path.insert(0, '/lib/toybattle')");
postMessage(py.runPython({snippet}));
"""


class Counting(http.server.SimpleHTTPRequestHandler):
    sent = 0

    def log_message(self, *args: object) -> None:
        pass

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        data = source.read()
        Counting.sent += len(data)
        outputfile.write(data)


def visit(page, base: str) -> float:
    t0 = time.perf_counter()
    page.goto(base + "/")
    page.wait_for_selector("#start")
    page.click("#start")
    page.wait_for_function(PLAYABLE)
    return time.perf_counter() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=12)
    args = p.parse_args()
    out = Path(tempfile.mkdtemp()) / "www"
    subprocess.run([sys.executable, "-m", "toybattle", "site", str(out)], check=True, capture_output=True)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    result: dict = {"site_bytes": sum(f.stat().st_size for f in out.rglob("*") if f.is_file())}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        ctx = browser.new_context(viewport={"width": 360, "height": 640})
        ctx.set_default_timeout(180_000)
        page = ctx.new_page()
        result["cold_s"] = visit(page, base)
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        time.sleep(1)
        result["first_visit_bytes"] = Counting.sent
        page.close()
        Counting.sent = 0
        page = ctx.new_page()
        result["warm_s"] = visit(page, base)
        time.sleep(1)
        result["later_visit_bytes"] = Counting.sent
        code = WORKER.format(base=base, snippet=json.dumps(SNIPPET.format(positions=args.positions)))
        result["browser"] = json.loads(page.evaluate("""code => new Promise((ok, fail) => {
            const w = new Worker(URL.createObjectURL(new Blob([code], {type: "text/javascript"})), {type: "module"});
            w.onmessage = (e) => ok(e.data); w.onerror = (e) => fail(e.message); })""", code))
        browser.close()
    native = subprocess.run([sys.executable, "-c", SNIPPET.format(positions=args.positions).replace(
        "json.dumps(out)", "print(json.dumps(out))")], check=True, capture_output=True, text=True)
    result["native"] = json.loads(native.stdout)
    server.shutdown()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
