"""The static site's budgets (issue 24, docs/benchmarks.md): how long a player waits, and how many bytes cross
the network, on the site served under a nested path by a plain static server, in Debian's chromium.

    .venv/bin/python scripts/bench_site.py [--runs 3] [--conditions idle,half-core] [--json FILE]
    .venv/bin/python scripts/bench_site.py --ref HEAD      # the committed tree, not the working tree
    .venv/bin/python scripts/bench_site.py --site DIR [--update-site DIR2]   # sites built already

What it builds: the package is copied (this checkout's src/toybattle, or REV's with --ref) to a temporary
directory and `toybattle site` is run from that copy (PYTHONPATH first): build A. Then one line, a comment,
is appended to one Python file of the copy (--change, default rules/state.py) and the site is built again:
build B, a release that changes exactly one Python file, whatever the builder does with it (a zip, hashed
names, a manifest). Both builds come from the same copy, so nothing else differs.

How it serves them: a threaded static file server of this script on 127.0.0.1, the site at /a/toybattle/ (a
symlink in a host directory; its root answers a page of its own). It counts the bytes of every response body
it sends (service-worker precache fetches included), which is exact and needs no browser instrumentation.

What it measures, each in a fresh chromium profile per run, the median over --runs runs:
  home      navigation start -> the home's #newgame form visible (marks taken in the page, from
            performance.timeOrigin, by a script that runs before the page's own);
  board     pressing #start on the home (a bot game, the form's defaults; pressed as soon as it can be) ->
            the board #board drawn (its data-ply set) and a rack tile enabled; also from navigation start;
  learn     home -> Learn: clicking the home's Learn link -> Learn's list (#progress) visible; works with a
            Learn page of its own (/learn/) and with a Learn screen of the same page (#/learn);
  bytes     first visit (home, a game, Learn, until the service worker controls the page and the server is
            quiet for 2 s), then the one-file update: build B swapped in, a visit that finds the new sw.js
            and lets it install, and a further visit that plays (home, board): every byte sent from the swap.
COLD is the first visit of a new profile (no HTTP cache, no service worker); WARM is a second visit, the
browser restarted on the same profile, after the service worker installed and the first visit's worker kept
Python's memory snapshot (made in the background once the game is playable; the time it was kept is printed:
a visit that ends sooner leaves the next one to start the long way).

Conditions: idle (nothing else of this script runs), and half-core, a stand-in for a mid-range phone:
chromium (every one of its processes) in a child cgroup with a CPU quota of 50 ms per 100 ms (cgroup v2
cpu.max "50000 100000", or v1 cpu.cfs_quota_us); where no cgroup can be made (not root, no cpu controller),
chromium's own CPU throttling (CDP Emulation.setCPUThrottlingRate, rate = cores / 0.5), which reaches only
the page's main thread, not the worker that runs Python. The output says which was used. Timings are
benchmarks: a shared machine's load changes them (the load average before each run is printed; --wait-idle
waits for a quieter moment).
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import http.server
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("TOYBATTLE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2, "is_mobile": True,
                         "has_touch": True}
UNDER = "/a/toybattle"  # nested, as a project page under a user's site would be
QUIET = 2.0  # s without a byte sent: the network is done
LEARN_LINK = ".home-links a[href*='learn'], a#learn-link"

# Runs in every document before its own scripts: marks (epoch ms, kept in sessionStorage so that they survive
# a navigation to another page of the site) of when each state is first seen, and of the presses.
MARKS = r"""
(() => {
  const KEY = "tb-bench-marks";
  const now = () => performance.timeOrigin + performance.now();
  const read = () => { try { return JSON.parse(sessionStorage.getItem(KEY) || "{}"); } catch { return {}; } };
  const write = (m) => { try { sessionStorage.setItem(KEY, JSON.stringify(m)); } catch {} };
  const mark = (k, force) => { const m = read(); if (force || !(k in m)) { m[k] = now(); write(m); } };
  const shown = (sel) => { const e = document.querySelector(sel);
    return !!(e && e.getClientRects().length && getComputedStyle(e).visibility !== "hidden"); };
  const states = {
    home: () => shown("#newgame"),
    board: () => { const b = document.querySelector("#board");
      return !!(b && b.dataset.ply !== undefined &&
                document.querySelector("#rack button[data-troop]:not([disabled])")); },
    learn: () => shown("#progress"),
  };
  { const m = read(); m.nav = performance.timeOrigin; write(m); }
  const check = () => {
    const m = read();
    for (const k in states) { try { if (!(k in m) && states[k]()) mark(k); } catch {} }
  };
  new MutationObserver(check).observe(document,
    { subtree: true, childList: true, attributes: true, characterData: true });
  setInterval(check, 25);
  document.addEventListener("click", (e) => {
    const el = e.target && e.target.closest && e.target.closest("#start, a");
    if (!el) return;
    if (el.id === "start") mark("press", true);
    else if ((el.getAttribute("href") || "").includes("learn")) mark("learnClick", true);
  }, true);
  window.__tbBench = { marks: read, clear: () => write({}) };
})();
"""
CONTROLLED = "navigator.serviceWorker && navigator.serviceWorker.controller !== null"
SNAPSHOT_KEPT = "caches.open('tb-python-snapshot').then((c) => c.keys()).then((k) => k.length > 0)"


def log(*words: object) -> None:
    print(*words, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------- builds


def _source(ref: str | None, source: Path | None, into: Path) -> Path:
    """A copy of the package to build from, in ``into/src/toybattle``: REV's (git archive), or ``source``'s."""
    (into / "src").mkdir(parents=True)
    if ref:
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref, "src/toybattle"],
                             check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            t.extractall(into, filter="data")
    else:
        shutil.copytree(source or ROOT / "src" / "toybattle", into / "src" / "toybattle",
                        ignore=shutil.ignore_patterns("__pycache__"))
    return into / "src"


def _build(src: Path, out: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(src)}
    where = subprocess.run([sys.executable, "-c", "import toybattle; print(toybattle.__file__)"], env=env,
                           check=True, capture_output=True, text=True).stdout.strip()
    if not Path(where).is_relative_to(src):
        raise SystemExit(f"bench_site: the build would not use the copy in {src} but {where}")
    done = subprocess.run([sys.executable, "-m", "toybattle", "site", str(out)], env=env, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"bench_site: `toybattle site` failed:\n{done.stdout}{done.stderr}")


def build_two(work: Path, ref: str | None, source: Path | None, change: str) -> tuple[Path, Path]:
    """Build A, then build B from the same copy with one Python file changed (a comment appended)."""
    src = _source(ref, source, work / "tree")
    changed = src / "toybattle" / change
    if changed.suffix != ".py" or not changed.is_file():
        raise SystemExit(f"bench_site: --change {change}: no such Python file in the package")
    a, b = work / "site-a", work / "site-b"
    t0 = time.perf_counter()
    _build(src, a)
    log(f"built A in {time.perf_counter() - t0:.1f} s from {src}")
    with changed.open("a", encoding="utf-8") as f:
        f.write("\n# a one-file release (scripts/bench_site.py)\n")
    _build(src, b)
    return a, b


def _files(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in site.rglob("*") if p.is_file()}


def describe(a: Path, b: Path | None) -> dict[str, Any]:
    fa = _files(a)
    out: dict[str, Any] = {"files": len(fa), "bytes": sum((a / f).stat().st_size for f in fa)}
    if b is not None:
        fb = _files(b)
        diff = sorted(f for f in fa.keys() | fb.keys() if fa.get(f) != fb.get(f))
        out["differ_in_update"] = {f: (b / f).stat().st_size if f in fb else None for f in diff}
    return out


# ---------------------------------------------------------------------------------------------- server


class Host:
    """A plain static file server (threaded) of a host directory holding the site at UNDER, a symlink that
    ``serve`` swaps; it counts the bytes of every response body it sends."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="tb-bench-host-"))
        (self.root / "index.html").write_text("the host's own page, not the site's\n")
        self.lock = threading.Lock()
        self.sent = 0
        self.log: list[list[Any]] = []  # [path, status, body bytes]
        self.busy = 0
        self.last = time.monotonic()
        host = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def handle(self) -> None:
                with host.lock:
                    host.busy += 1
                try:
                    super().handle()
                finally:
                    with host.lock:
                        host.busy -= 1
                        host.last = time.monotonic()

            def send_response(self, code: int, message: str | None = None) -> None:
                self.entry: list[Any] = [self.path, code, 0]
                with host.lock:
                    host.log.append(self.entry)
                    host.last = time.monotonic()
                super().send_response(code, message)

            def copyfile(self, source: Any, outputfile: Any) -> None:
                while chunk := source.read(64 * 1024):
                    outputfile.write(chunk)
                    with host.lock:
                        host.sent += len(chunk)
                        self.entry[2] += len(chunk)
                        host.last = time.monotonic()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler,
                                                                                          directory=str(self.root)))
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{UNDER}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def serve(self, site: Path) -> None:
        link = self.root / UNDER.lstrip("/")
        link.parent.mkdir(parents=True, exist_ok=True)
        tmp = link.with_name(".swap")
        tmp.symlink_to(site.resolve(), target_is_directory=True)
        os.replace(tmp, link)

    def reset(self) -> None:
        with self.lock:
            self.sent = 0
            self.log = []

    def take(self) -> tuple[int, list[list[Any]]]:
        with self.lock:
            return self.sent, list(self.log)

    def quiet(self, timeout: float, quiet: float = QUIET) -> None:
        """Waits until nothing has been served for ``quiet`` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                idle = self.busy == 0 and time.monotonic() - self.last >= quiet
            if idle:
                return
            time.sleep(0.1)

    def close(self) -> None:
        self.server.shutdown()
        shutil.rmtree(self.root, ignore_errors=True)


# ---------------------------------------------------------------------------------------------- CPU quota


class Quota:
    """chromium with half a core: in a child cgroup with a CPU quota (through a wrapper that puts itself there
    and execs chromium, so every process chromium starts is in it), else through CDP throttling."""

    def __init__(self, mode: str, quota_us: int = 50_000, period_us: int = 100_000) -> None:
        self.group: Path | None = None
        self.version = ""
        self.wrapper: Path | None = None
        self.rate = max(1.0, (os.cpu_count() or 1) * period_us / quota_us)
        if mode in ("auto", "cgroup"):
            try:
                self._cgroup(quota_us, period_us)
            except OSError as e:
                if mode == "cgroup":
                    raise SystemExit(f"bench_site: no cgroup with a CPU quota could be made: {e}") from None
                log(f"no cgroup ({e}): CDP throttling instead")
        self.method = (f"cgroup {self.version}, cpu quota {quota_us} us per {period_us} us (half a core) for "
                       "every chromium process" if self.group else
                       f"CDP Emulation.setCPUThrottlingRate {self.rate:g} on the page's main thread only (its workers, "
                       "Python's included, run unthrottled: far milder than half a core)")

    def _cgroup(self, quota_us: int, period_us: int) -> None:
        base = Path("/sys/fs/cgroup")
        name = f"toybattle-bench-{os.getpid()}"
        if (base / "cgroup.controllers").is_file():  # v2: a child of the root, the cpu controller enabled for it
            if "cpu" not in (base / "cgroup.controllers").read_text().split():
                raise OSError("no cpu controller")
            if "cpu" not in (base / "cgroup.subtree_control").read_text().split():
                (base / "cgroup.subtree_control").write_text("+cpu")
            group = base / name
            group.mkdir()
            self.group, self.version = group, "v2"
            (group / "cpu.max").write_text(f"{quota_us} {period_us}")
        else:  # v1: a child of this process's cpu cgroup
            mine = next((line.split(":", 2)[2] for line in Path("/proc/self/cgroup").read_text().splitlines()
                         if "cpu" in line.split(":")[1].split(",")), "/")
            group = base / "cpu" / mine.strip("/") / name
            group.mkdir()
            self.group, self.version = group, "v1"
            (group / "cpu.cfs_period_us").write_text(str(period_us))
            (group / "cpu.cfs_quota_us").write_text(str(quota_us))
        wrapper = Path(tempfile.mkdtemp(prefix="tb-bench-")) / "chromium"
        wrapper.write_text(f"#!/bin/sh\necho $$ > '{group}/cgroup.procs' || exit 97\nexec '{CHROMIUM}' \"$@\"\n")
        wrapper.chmod(0o755)
        self.wrapper = wrapper

    def stats(self) -> dict[str, int]:
        if not self.group:
            return {}
        with contextlib.suppress(OSError):
            pairs = (line.split() for line in (self.group / "cpu.stat").read_text().splitlines())
            return {k: int(v) for k, v in pairs}
        return {}

    def throttle(self, context: Any, page: Any) -> None:
        """CDP throttling of ``page``: its main thread only. Playwright's CDP sessions cannot reach a page's
        workers (they are attached in flat mode by Playwright itself), so Pyodide's worker is not slowed."""
        if not self.group:
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": self.rate})

    def close(self) -> None:
        if self.wrapper:
            shutil.rmtree(self.wrapper.parent, ignore_errors=True)
        if self.group:
            for _ in range(50):  # chromium's last processes may take a moment to leave
                try:
                    self.group.rmdir()
                    return
                except OSError:
                    time.sleep(0.2)
            log(f"could not remove {self.group}")


# ---------------------------------------------------------------------------------------------- visits


class Visit:
    """One visit: a browser started on ``profile`` (new: cold; used before: warm) and one page."""

    def __init__(self, pw: Any, profile: Path, quota: Quota | None, timeout_s: float) -> None:
        exe = quota.wrapper if quota and quota.wrapper else CHROMIUM
        self.context = pw.chromium.launch_persistent_context(str(profile), executable_path=str(exe), headless=True,
                                                             args=ARGS, **PHONE)
        self.context.set_default_timeout(timeout_s * 1000)
        self.context.add_init_script(MARKS)
        self.errors: list[str] = []
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        if quota:
            quota.throttle(self.context, self.page)

    def marks(self) -> dict[str, float]:
        return dict(self.page.evaluate("window.__tbBench.marks()"))

    def wait_mark(self, name: str) -> dict[str, float]:
        self.page.wait_for_function("k => window.__tbBench && window.__tbBench.marks()[k] !== undefined", arg=name)
        return self.marks()

    def home(self, url: str) -> float:
        self.page.goto(url + "/", wait_until="commit")
        m = self.wait_mark("home")
        return (m["home"] - m["nav"]) / 1000

    def board(self) -> tuple[float, float]:
        """Presses Start (a bot game, the form's defaults) as soon as it can be pressed; answers the time from
        the press, and from the navigation start, to a playable board."""
        nav = self.marks()["nav"]
        self.page.evaluate("window.__tbBench.clear()")
        self.page.click("#start")
        m = self.wait_mark("board")
        return (m["board"] - m["press"]) / 1000, (m["board"] - nav) / 1000

    def stages(self) -> dict[str, float]:
        """Where the wait went: each start-up stage the worker reported (net.js marks them: worker, python or
        restored, unpacked, imported, ready), in seconds from the navigation start."""
        marks = self.page.evaluate("performance.getEntriesByType('mark').filter((m) => m.name.startsWith("
                                   "'toybattle:')).map((m) => [m.name.slice(10), m.startTime / 1000])")
        return {name: round(at, 3) for name, at in marks}

    def learn(self) -> float:
        """From the game back to the home (history), then the home's Learn link to Learn's list."""
        self.page.go_back(wait_until="commit")
        self.page.wait_for_selector("#newgame", state="visible")
        link = self.page.locator(LEARN_LINK).first
        link.wait_for(state="visible")
        self.page.evaluate("window.__tbBench.clear()")
        link.click()
        m = self.wait_mark("learn")
        return (m["learn"] - m["learnClick"]) / 1000

    def installed(self) -> None:
        self.page.wait_for_function(CONTROLLED)

    def snapshot_kept(self, timeout_s: float) -> float:
        """Waits until the worker has kept Python's memory snapshot (a later visit restores it); answers when,
        in seconds from the navigation start."""
        deadline = time.monotonic() + timeout_s
        while not self.page.evaluate(SNAPSHOT_KEPT):
            if time.monotonic() > deadline:
                raise TimeoutError("no Python snapshot was kept")
            time.sleep(0.1)
        return float(self.page.evaluate("performance.now()")) / 1000

    def update_installed(self) -> None:
        """Asks the registration to look for a new sw.js (the navigation did too) and waits until whatever it
        found has finished installing."""
        self.page.evaluate("""async () => { const r = await navigator.serviceWorker.getRegistration();
                              if (r) { try { await r.update(); } catch (e) {} } }""")
        self.page.wait_for_function("navigator.serviceWorker.getRegistration().then(r => !!r && !r.installing)")

    def close(self) -> None:
        self.context.close()


def one_run(pw: Any, host: Host, a: Path, b: Path | None, quota: Quota | None, timeout_s: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="tb-bench-profile-") as profile_dir:
        profile = Path(profile_dir)
        host.serve(a)
        for visit in ("cold", "warm"):
            host.reset()
            v = Visit(pw, profile, quota, timeout_s)
            try:
                r: dict[str, Any] = {"home_s": v.home(host.url)}
                r["board_from_press_s"], r["board_from_nav_s"] = v.board()
                r["stages_s"] = v.stages()
                r["learn_s"] = v.learn()
                v.installed()
                if visit == "cold":  # a returning player's visit restores the snapshot the first one made
                    r["snapshot_kept_s"] = v.snapshot_kept(timeout_s)
                host.quiet(timeout_s)
                r["bytes"], served = host.take()
                r["requests"] = len(served)
                r["errors"] = v.errors
            finally:
                v.close()
            out[visit] = r
            kept = f", snapshot kept at {r['snapshot_kept_s']:.2f} s" if "snapshot_kept_s" in r else ""
            log(f"  {visit}: home {r['home_s']:.2f} s, board {r['board_from_press_s']:.2f} s from Start "
                f"({r['board_from_nav_s']:.2f} s from navigation), Learn {r['learn_s']:.2f} s, "
                f"{r['bytes'] / 1e6:.2f} MB{kept}")
            log("    stages from navigation: " + ", ".join(f"{k} {t:.2f} s" for k, t in r["stages_s"].items()))
        if b is not None:
            host.serve(b)
            host.reset()
            v = Visit(pw, profile, quota, timeout_s)  # finds the new sw.js, which installs in the background
            try:
                v.home(host.url)
                v.update_installed()
                host.quiet(timeout_s)
            finally:
                v.close()
            found, _ = host.take()
            v = Visit(pw, profile, quota, timeout_s)  # the next visit runs the new version
            try:
                home = v.home(host.url)
                v.board()
                host.quiet(timeout_s)
                version = (b / ".toybattle-site").read_text().strip() if (b / ".toybattle-site").is_file() else ""
                runs_b = bool(version) and bool(v.page.evaluate(
                    "v => caches.keys().then(k => k.some(n => n.includes(v)))", version))
            finally:
                v.close()
            sent, served = host.take()
            out["update"] = {"bytes": sent, "bytes_first_visit": found, "bytes_next_visit": sent - found,
                             "home_s": home, "runs_new_version": runs_b,
                             "fetched": sorted(([p, n] for p, status, n in served if n), key=lambda e: -e[1])}
            log(f"  update: {sent / 1e6:.3f} MB ({len(out['update']['fetched'])} files with a body)")
    return out


def wait_idle(load: float | None, most: float) -> float:
    """Waits (up to ``most`` seconds) until the 1-minute load average is at most ``load``; answers it."""
    end = time.monotonic() + most
    while load is not None and os.getloadavg()[0] > load and time.monotonic() < end:
        time.sleep(5)
    return os.getloadavg()[0]


# ---------------------------------------------------------------------------------------------- summary


def median(runs: list[dict[str, Any]], *path: str) -> float | None:
    values = []
    for run in runs:
        value: Any = run
        for k in path:
            value = value.get(k) if isinstance(value, dict) else None
        if isinstance(value, (int, float)):
            values.append(float(value))
    return statistics.median(values) if values else None


def table(result: dict[str, Any]) -> str:
    conds = list(result["conditions"])
    titles = {"idle": "idle", "half-core": "half core"}

    def s(x: float | None) -> str:
        return "-" if x is None else f"{x:.2f} s"

    def mb(x: float | None) -> str:
        return "-" if x is None else f"{x / 1e6:.2f} MB"

    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
            ("home / menu visible", lambda m: f"{s(m['cold']['home_s'])} cold, {s(m['warm']['home_s'])} warm"),
            ("playable board against a bot, from pressing Start",
             lambda m: f"{s(m['cold']['board_from_press_s'])} cold, {s(m['warm']['board_from_press_s'])} warm"),
            ("(the same, from navigation start)",
             lambda m: f"{s(m['cold']['board_from_nav_s'])} cold, {s(m['warm']['board_from_nav_s'])} warm"),
            ("page to page: home → Learn list",
             lambda m: f"{s(m['cold']['learn_s'])} cold, {s(m['warm']['learn_s'])} warm"),
            ("Python's snapshot kept, first visit, from navigation start",
             lambda m: s(m['cold'].get('snapshot_kept_s'))),
            ("bytes, first visit / one-file update",
             lambda m: f"{mb(m['cold']['bytes'])} / {mb(m['update']['bytes'])}")]
    lines = ["| figure | " + " | ".join(titles.get(c, c) for c in conds) + " |", "|---|" + "---|" * len(conds)]
    for title, cell in rows:
        lines.append(f"| {title} | " + " | ".join(cell(result["conditions"][c]["median"]) for c in conds) + " |")
    site = result["site"]
    notes = [f"Medians of {result['runs']} runs per condition (fresh chromium profile each); site: "
             f"{site['files']} files, {site['bytes'] / 1e6:.2f} MB on disk, from {result['source']}."]
    for c in conds:
        info = result["conditions"][c]
        loads = ", ".join(f"{r['load_before']:.1f}" for r in info["runs"])
        notes.append(f"{titles.get(c, c)}: {info['method']}; 1-minute load average before each run: {loads}.")
    return "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0].replace("\n", " "),
                                epilog="See the module's docstring (the top of this file) for the method.")
    p.add_argument("--runs", type=int, default=3, help="runs per condition, each in a fresh profile (default 3)")
    p.add_argument("--conditions", default="idle,half-core", help="idle, half-core or both (default both)")
    p.add_argument("--throttle", choices=("auto", "cgroup", "cdp"), default="auto",
                   help="how half a core is made: a cgroup CPU quota if one can be made (auto), or CDP throttling")
    p.add_argument("--ref", help="build the package of this git revision (git archive) instead of the working tree")
    p.add_argument("--source", type=Path, help="the toybattle package directory to build from (default src/toybattle)")
    p.add_argument("--change", default="rules/state.py",
                   help="the Python file (under the package) that the one-file update changes (default rules/state.py)")
    p.add_argument("--site", type=Path, help="a site built already (no build); the update is measured only with "
                   "--update-site")
    p.add_argument("--update-site", type=Path, help="with --site: the same site after a one-file release")
    p.add_argument("--timeout", type=float, default=300, help="seconds to wait for any one state (default 300)")
    p.add_argument("--wait-idle", type=float, metavar="LOAD",
                   help="before each run, wait until the 1-minute load average is at most LOAD (a shared machine)")
    p.add_argument("--wait-max", type=float, default=900, help="seconds to wait for that at most (default 900)")
    p.add_argument("--json", metavar="FILE", help="also write the raw numbers as JSON to FILE ('-': stdout, "
                   "instead of the table)")
    args = p.parse_args(argv)
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    if not conditions or set(conditions) - {"idle", "half-core"}:
        p.error("--conditions: idle, half-core or both")

    from playwright.sync_api import sync_playwright  # a test dependency: imported once the arguments are fine

    with tempfile.TemporaryDirectory(prefix="tb-bench-") as tmp:
        work = Path(tmp)
        if args.site:
            a, b = args.site.resolve(), args.update_site.resolve() if args.update_site else None
            source = str(a)
        else:
            a, b = build_two(work, args.ref, args.source, args.change)
            rev = args.ref or "the working tree"
            if args.ref:
                rev += " " + subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.ref],
                                            capture_output=True, text=True).stdout.strip()
            source = f"{rev} (`toybattle site`; the update: one comment appended to {args.change})"
        result: dict[str, Any] = {"runs": args.runs, "source": source, "site": describe(a, b), "under": UNDER,
                                  "chromium": CHROMIUM, "cores": os.cpu_count(), "conditions": {}}
        host = Host()
        try:
            with sync_playwright() as pw:
                for cond in conditions:
                    quota = Quota(args.throttle) if cond == "half-core" else None
                    try:
                        info: dict[str, Any] = {"method": quota.method if quota else "no limit",
                                                "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg())}
                        runs, failures = [], []
                        for n in range(args.runs):
                            load = wait_idle(args.wait_idle, args.wait_max)
                            log(f"{cond}: run {n + 1} of {args.runs} (load average {load:.2f})")
                            try:
                                runs.append({"load_before": load} | one_run(pw, host, a, b, quota, args.timeout))
                            except Exception as e:  # one failed run is reported, the others still count
                                log(f"  failed: {e}")
                                failures.append(f"{type(e).__name__}: {e}")
                        keys: list[tuple[str, ...]] = [(v, k) for v in ("cold", "warm") for k in
                                                       ("home_s", "board_from_press_s", "board_from_nav_s", "learn_s",
                                                        "bytes")]
                        keys += [("update", "bytes"), ("cold", "snapshot_kept_s")]
                        med: dict[str, dict[str, float | None]] = {"cold": {}, "warm": {}, "update": {}}
                        for key in keys:
                            med[key[0]][key[1]] = median(runs, *key)
                        info.update(median=med, runs=runs, failures=failures,
                                    load_after=" ".join(f"{x:.2f}" for x in os.getloadavg()))
                        if quota:
                            info["cgroup_cpu_stat"] = quota.stats()
                        result["conditions"][cond] = info
                    finally:
                        if quota:
                            quota.close()
        finally:
            host.close()
    if args.json == "-":
        print(json.dumps(result, indent=1))
        return 0
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
