"""How the static site starts (issue 24): the pages that need no Python show before it has loaded, one Python
serves a whole visit, a download cut off midway is answered and tried again, and an update downloads only
the files it changed. The site is served under a nested path by a static server the test controls
(site_harness.StaticServer): it holds Python's files back, cuts a download, and logs what it served."""
from __future__ import annotations

import json
import os
import shutil
import sys
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from toybattle.site import build

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "browser"))
from site_harness import BOOT, PHONE, StaticServer, wait_installed
from test_app_browser import ME_TURN  # the app's own UI steps

pytestmark = pytest.mark.slow

UNDER = "/a/toybattle"
READY = "document.documentElement.dataset.python === 'ready'"
CONTROLLED = "navigator.serviceWorker && navigator.serviceWorker.controller !== null"
# what the page shows while it waits for Python, to explain a wait that never ended
SHOWN = """() => JSON.stringify({python: document.documentElement.dataset.python || null,
  controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
  notice: document.getElementById('site-notice') ? document.getElementById('site-notice').dataset.line : null,
  progress: document.getElementById('site-progress') ? document.getElementById('site-progress').innerText : null,
  text: document.body ? document.body.innerText.slice(0, 400) : null})"""


def wait_ready(page) -> None:
    """Wait until Python is ready on ``page``; if it never is, say what the page shows instead."""
    try:
        page.wait_for_function(READY)
    except PlaywrightTimeout:
        raise AssertionError(f"Python never became ready; the page shows {page.evaluate(SHOWN)}") from None


def hosted(site_dir: Path, tmp: Path, copy: bool = False) -> Path:
    """A host's root with the site at UNDER: a link to the shared build, or a copy a test may change."""
    (tmp / "a").mkdir()
    if copy:
        shutil.copytree(site_dir, tmp / "a" / "toybattle", symlinks=False)
    else:
        (tmp / "a" / "toybattle").symlink_to(site_dir, target_is_directory=True)
    return tmp


def site_json(www: Path) -> dict:
    return json.loads((www / "static/site/site.json").read_text())


def new_context(browser):
    context = browser.new_context(**PHONE)
    context.set_default_timeout(BOOT)
    return context


def test_pages_show_before_python_and_one_python_serves_the_whole_visit(site_dir, tmp_path, browser):
    root = hosted(site_dir, tmp_path)
    pyodide = f"{UNDER}/static/site/{site_json(site_dir)['pyodide']}"
    with StaticServer(root) as server:
        server.hold(pyodide)  # Python's files wait until the pages that need none have been seen
        context = new_context(browser)
        page = context.new_page()
        workers: list[str] = []
        page.on("worker", lambda w: workers.append(w.url))
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        site = server.url + UNDER
        page.goto(site + "/")
        page.wait_for_selector("#newgame")
        assert page.locator("#terrain option").count() >= 9 and page.locator("#level option").count() >= 3
        page.click("#troops-link")
        page.wait_for_selector(".card-grid .card")
        page.go_back()
        page.locator("a.btn.primary[href$='/#/learn']").click()
        page.wait_for_selector("[data-lesson] a")
        page.click("#nav-rules")
        page.wait_for_selector(".rules-topic")
        page.go_back()
        page.wait_for_selector("[data-lesson] a")
        page.go_back()
        page.wait_for_selector("#newgame")
        # all of it while Python's files were still held back
        assert page.evaluate("document.documentElement.dataset.python") != "ready"
        assert not [p for p in server.served() if p.startswith(pyodide) and not p.endswith(".gz")]
        # a game waits for Python, and says what it waits for
        page.click("#start")
        page.wait_for_selector("#site-progress progress")
        server.release()
        page.wait_for_function(ME_TURN)
        assert not page.locator("#site-progress").count()
        # then Learn, the rules and back to the game: the same page, the same Python
        game = page.url
        page.goto(site + "/#/learn")
        page.wait_for_selector("[data-lesson] a")
        page.click("#nav-rules")
        page.wait_for_selector(".rules-topic")
        page.go_back()
        page.go_back()
        page.wait_for_url(game)
        page.wait_for_function(ME_TURN)
        assert [w for w in workers if w.endswith("/worker.js")] == [f"{site}/static/site/worker.js"]
        assert errors == []
        context.close()


def test_a_download_cut_off_on_the_first_visit_is_said_and_tried_again(site_dir, tmp_path, browser):
    root = hosted(site_dir, tmp_path)
    wasm = f"{UNDER}/static/site/{site_json(site_dir)['pyodide']}pyodide.asm.wasm"
    with StaticServer(root) as server:
        server.cut(wasm + ".gz")  # the service worker's copy: its install fails, the next visit installs again
        server.cut(wasm)  # and the worker's own fetch of it, so Python fails to start this time
        context = new_context(browser)
        page = context.new_page()
        page.goto(server.url + UNDER + "/")
        page.wait_for_selector("#newgame")
        page.click("#start")
        error = page.locator("#form-error")
        error.wait_for(state="visible")
        page.wait_for_function("document.querySelector('#form-error').textContent.includes('Try again')")
        assert "Traceback" not in error.inner_text() and len(error.inner_text().splitlines()) == 1
        assert page.locator("#newgame").is_visible()  # the home is all there
        # pressing Start again starts Python again, and this time it comes
        page.click("#start")
        page.wait_for_function(ME_TURN)
        # the next visit installs the offline copy that the cut download stopped
        page.goto(server.url + UNDER + "/")
        page.wait_for_function(CONTROLLED)
        page.wait_for_selector(".game-item")
        context.set_offline(True)
        page.reload()
        page.wait_for_selector(".game-item a.btn.primary")
        page.locator(".game-item a.btn.primary").first.click()
        page.wait_for_function(ME_TURN)
        context.close()


def _change_one_python_file(www: Path) -> str:
    """What a build differing in one Python file gives: the package zip with that file changed (under its new
    content-hashed name) and the manifest written again by the builder's own code. Answers the new zip's path."""
    site = www / "static/site"
    info = site_json(www)
    old = site / info["package"]
    with zipfile.ZipFile(old) as z:
        files = {i: z.read(i) for i in z.infolist()}
    for i in files:
        if i.filename == "toybattle/rules/state.py":
            files[i] += b"\n# a release that changed one line\n"
    changed = site / "toybattle-new.zip"
    with zipfile.ZipFile(changed, "w", zipfile.ZIP_DEFLATED) as z:
        for i, data in files.items():
            z.writestr(i, data)
    old.unlink()
    named = changed.rename(site / f"toybattle-{build._digest(changed.read_bytes())}.zip")
    (site / "site.json").write_text(json.dumps(info | {"package": named.name}, indent=1))
    build._service_worker(www, build._static())
    return f"{UNDER}/static/site/{named.name}"


def test_an_update_that_changes_one_python_file_downloads_only_what_changed(site_dir, tmp_path, browser):
    root = hosted(site_dir, tmp_path, copy=True)
    www = root / "a" / "toybattle"
    with StaticServer(root) as server:
        context = new_context(browser)
        page = context.new_page()
        page.goto(server.url + UNDER + "/")
        page.wait_for_function(CONTROLLED)
        page.click("#start")  # a game, which the update must keep
        page.wait_for_function(ME_TURN)
        first = server.served()
        assert sum(1 for p in first if "/pyodide-" in p) >= 3  # the first visit fetched everything
        package = _change_one_python_file(www)
        page.goto(server.url + UNDER + "/")  # the browser finds the new sw.js, which installs the update
        wait_installed(page, www)
        fetched = {p for p, _ in server.log}
        sent = sum(n for _, n in server.log)
        assert fetched <= {f"{UNDER}/sw.js", f"{UNDER}/static/site/site.json", package}, fetched
        assert package in fetched and sent < 1_000_000, (fetched, sent)
        # the next visit runs the new package, and the saved game is there
        server.served()
        page.goto(server.url + UNDER + "/")
        wait_ready(page)
        page.wait_for_selector(".game-item a.btn.primary")
        assert package in page.evaluate("caches.keys().then((ks) => caches.open(ks.at(-1))).then((c) => c.keys())"
                                        ".then((rs) => rs.map((r) => new URL(r.url).pathname))")
        assert not [p for p in server.served() if p != f"{UNDER}/sw.js"]  # all from this browser's cache
        context.close()


STAGES = ("performance.getEntriesByType('mark').filter((m) => m.name.startsWith('toybattle:'))"
          ".map((m) => m.name.slice(10))")
DRAWS = """self.pyodide.runPython(`
import gc, random
import toybattle.site.browser
[random.getrandbits(64)] + [r.getrandbits(64) for r in gc.get_objects() if type(r) is random.Random][:3]
`).toJs()"""


FETCHES = "self.pyodide.runPythonAsync(`import js\n(await js.fetch('site.json')).status`)"


def test_a_later_visit_restores_python_from_its_snapshot_with_fresh_random_numbers(site_dir, tmp_path, browser):
    root = hosted(site_dir, tmp_path)
    with StaticServer(root) as server:
        context = new_context(browser)
        draws = []
        for visit in range(3):
            page = context.new_page()
            with page.expect_worker(lambda w: w.url.endswith("/worker.js")) as started:
                page.goto(server.url + UNDER + "/")
            wait_ready(page)
            # the first visit plays in a Python started the long way, then makes the snapshot in a worker of its
            # own once the game is playable; every later visit plays in a Python restored from it
            stages = page.evaluate(STAGES)
            assert ("restored" in stages) is (visit > 0) and ("python" in stages) is (visit == 0), stages
            if visit == 0:
                page.wait_for_function(f"{STAGES}.includes('snapshot')", timeout=90_000)
            # the Python that plays may use JavaScript's globals (a Python that makes a snapshot may not)
            assert started.value.evaluate(FETCHES) == 200
            draws.append(started.value.evaluate(DRAWS))
            if visit == 2:  # the restored app plays
                page.click("#start")
                page.wait_for_function(ME_TURN)
            page.close()
        context.close()
        # and another browser's first visit, which plays in its own Python
        other = new_context(browser)
        page = other.new_page()
        with page.expect_worker(lambda w: w.url.endswith("/worker.js")) as started:
            page.goto(server.url + UNDER + "/")
        wait_ready(page)
        draws.append(started.value.evaluate(DRAWS))
        other.close()
        # no random source repeats its numbers from one visit to the next, restored or not
        assert len({tuple(d) for d in draws}) == len(draws), draws
