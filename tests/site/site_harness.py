"""Serving a built site and recording a browser context's requests (shared by the site's tests)."""
from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

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
