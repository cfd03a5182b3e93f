"""Serving a built site and recording a browser context's requests (shared by the site's tests)."""
from __future__ import annotations

import contextlib
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PHONE = {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
CHROMIUM = os.environ.get("TOYBATTLE_CHROMIUM", "/usr/bin/chromium")
BOOT = 90_000  # ms: Pyodide's first start in a headless browser on a busy 2-core machine


@contextlib.contextmanager
def serving(directory: Path, probe: str = "/sw.js") -> Iterator[str]:
    """``python -m http.server`` over ``directory`` on a port the system picks (port 0: none is guessed, which
    a parallel test process could take first), once it answers ``probe``; yields its base URL."""
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                               "--directory", str(directory)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    try:
        said = server.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N (http://127.0.0.1:N/) ..."
        found = re.search(r" port (\d+) ", said)
        assert found, f"the static file server did not start: {said!r}"
        url = f"http://127.0.0.1:{found.group(1)}"
        for _ in range(100):
            try:
                urllib.request.urlopen(url + probe, timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(10)


class Recorded:
    """A browser context at phone size that records every request it makes and every page error."""

    def __init__(self, browser, profile: Path | None = None):
        """A fresh context of ``browser``; with ``profile``, a whole browser on that profile directory,
        so that closing it and starting it again is a later visit by the same person."""
        if profile is None:
            self.context = browser.new_context(**PHONE)
        else:
            self.context = browser.browser_type.launch_persistent_context(
                str(profile), executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"], headless=True, **PHONE)
        self.context.set_default_timeout(BOOT)
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context.on("request", lambda r: self.requests.append(r.url))

    def page(self):
        page = self.context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def foreign(self) -> list[str]:
        """Requests to anywhere but this machine (data: and blob: URLs stay in the page)."""
        return [u for u in self.requests
                if not u.startswith(("http://127.0.0.1:", "data:", "blob:"))]


class StaticServer:
    """A plain static file server over ``directory`` on a port the system picks, run in this process so the
    test controls it: it logs every path it serves with the bytes it sent, and ``cut(path)`` makes the next
    answer for ``path`` stop midway (the connection closed after half the body), as a phone's download
    that drops; ``hold(prefix)`` keeps every answer for a path under ``prefix`` waiting until ``release()``."""

    def __init__(self, directory: Path):
        self.log: list[tuple[str, int]] = []  # (path, bytes of body sent)
        self.cuts: set[str] = set()
        self.held: str | None = None
        self.go = threading.Event()
        owner = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, directory=str(directory), **kwargs)

            def log_message(self, *args: Any) -> None:
                pass

            def copyfile(self, source: Any, outputfile: Any) -> None:
                data = source.read()
                path = self.path.split("?")[0]
                if owner.held is not None and path.startswith(owner.held):
                    owner.go.wait(120)
                if path in owner.cuts:
                    owner.cuts.discard(path)
                    data = data[: len(data) // 2]
                    self.close_connection = True
                owner.log.append((path, len(data)))
                outputfile.write(data)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> StaticServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
        self.httpd.shutdown()
        self.httpd.server_close()

    def cut(self, path: str) -> None:
        self.cuts.add(path)

    def hold(self, prefix: str) -> None:
        self.go.clear()
        self.held = prefix

    def release(self) -> None:
        self.held = None
        self.go.set()

    def served(self) -> list[str]:
        """The paths served so far, and forget them."""
        paths = [p for p, _ in self.log]
        self.log.clear()
        return paths


def wait_installed(page: Any, www: Path) -> None:
    """Wait until the service worker of the site built in ``www`` has cached every file of its manifest (a
    promise-returning page function is polled through evaluate, which awaits it)."""
    sw = (www / "sw.js").read_text()
    version = re.search(r'const VERSION = "(\w+)";', sw).group(1)  # type: ignore[union-attr]
    files = len(json.loads(re.search(r"const FILES = (\{.*?\});\n", sw).group(1)))  # type: ignore[union-attr]
    count = ("v => caches.has(v).then((has) => has ? caches.open(v).then((c) => c.keys()).then((ks) => ks.length)"
             " : 0)")
    page.evaluate("navigator.serviceWorker.ready.then((r) => r.update())")  # as the browser does after a navigation
    for _ in range(900):
        if page.evaluate(count, f"toybattle-{version}") == files:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"version {version} of the site was never installed")
