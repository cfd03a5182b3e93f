"""The static site, built into a temporary directory and served by a plain static file server.

``site``: the base URL of a site built by ``toybattle site`` and served by ``python -m http.server``
(both started through sys.executable). ``site_page``: a 360x640 page whose context records every
request, so a test can assert that nothing left localhost.
"""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

PHONE = {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
BOOT = 90_000  # ms: Pyodide's first start in a headless browser on a busy 2-core machine


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: builds the static site and plays it in a browser")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "www"
    done = subprocess.run([sys.executable, "-m", "toybattle", "site", str(out)], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    assert (out / "sw.js").is_file() and (out / "static/site/pyodide/pyodide.asm.wasm").is_file()
    return out


@pytest.fixture(scope="module")
def site(site_dir: Path):
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(site_dir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/sw.js", timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield url
    server.terminate()
    server.wait(10)


class Recorded:
    """A browser context at phone size that records every request it makes and every page error."""

    def __init__(self, browser):
        self.context = browser.new_context(**PHONE)
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


@pytest.fixture
def recorded(browser):
    rec = Recorded(browser)
    yield rec
    rec.context.close()
