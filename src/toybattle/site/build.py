"""``toybattle site DIR``: build the static site (docs/browser.md).

DIR gets the app's own front end (``static/``, ``index.html``, ``learn/index.html``), told by one
``<meta name="toybattle-transport" content="worker">`` to talk to a Web Worker instead of a server;
the worker (``static/site/``) with Pyodide, the pinned wheels, toybattle itself as a zip, and the ES modules
of the pinned noble packages (``static/site/npm/``) with their glue (``crypto.js``) that the wormhole
client's cryptography calls; a service worker (``sw.js``) that caches every one of those files under the
site's version, and the web app manifest. Every file the site needs is in DIR: it fetches nothing from any
other host.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any

from toybattle.app.server import web_dir
from toybattle.errors import UserError

from . import assets

MARK = ".toybattle-site"  # names a directory this command built, so a rebuild may replace it
TRANSPORT = '<meta name="toybattle-transport" content="worker">'
# {up}: the way from the page's directory to the site's root ("" or "../"): every address in a built page
# is relative, so the site works at the root of its host and under any path (a project page's /toybattle/)
HEAD_EXTRA = (TRANSPORT + '\n<link rel="manifest" href="{up}manifest.webmanifest">\n'
              '<link rel="apple-touch-icon" href="{up}static/site/icon-192.png">\n')
# the parts of the package the browser runs: everything but the front end (served as files) and this
# builder; online rooms run there through the pure-Python wormhole client (online/mailbox)
PACKAGE_SKIP = ("web/", "site/build.py", "site/assets.py", "site/static/")
ZIP_TIME = (2026, 1, 1, 0, 0, 0)  # fixed, so an unchanged package gives the same zip and version


def _static() -> Path:
    return Path(str(resources.files("toybattle.site").joinpath("static")))


def _package_zip(dest: Path) -> None:
    root = Path(str(resources.files("toybattle")))
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        # the app mounts its front end's directory; in the site the files are served beside it
        z.writestr(zipfile.ZipInfo("toybattle/web/", ZIP_TIME), b"")
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if not path.is_file() or "__pycache__" in rel or rel.startswith(PACKAGE_SKIP):
                continue
            if path.suffix not in (".py", ".json", ".md", ".txt"):
                continue
            info = zipfile.ZipInfo(f"toybattle/{rel}", ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())


def _page(src: Path, dest: Path, up: str) -> None:
    """The app's page ``src`` (whose addresses name the server's root: ``/static/...``, ``/``) as the site's
    page ``dest``, ``up`` below the site's root, with every address relative to it."""
    html = src.read_text("utf-8")
    if "</head>" not in html:
        raise UserError(f"{src.name} has no </head>")
    html = html.replace('="/static/', f'="{up}static/').replace('href="/"', f'href="{up or "./"}"')
    left = re.search(r'(?:href|src)="/[^"]*"', html)
    if left:  # an address the site could not follow under a sub-path
        raise UserError(f"{src.name}: {left.group(0)} names the server's root")
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(html.replace("</head>", HEAD_EXTRA.format(up=up) + "</head>", 1), "utf-8")


def _prepare(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} is a file, not a directory")
    if out.is_dir() and any(out.iterdir()):
        if not (out / MARK).is_file():
            raise UserError(f"{out} is not empty and was not built by `toybattle site`; choose an empty directory")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)


def build(out: Path, log: bool = False) -> dict[str, Any]:
    """Build the site into ``out``; answers ``{"version", "files", "bytes"}``."""
    try:
        cache = assets.ensure(log=log)
    except assets.AssetError as e:
        raise UserError(str(e)) from None
    _prepare(out)
    shutil.copytree(web_dir(), out / "static", ignore=shutil.ignore_patterns("__pycache__", "*.html"))  # pages below
    _page(web_dir() / "index.html", out / "index.html", "")
    _page(web_dir() / "learn.html", out / "learn" / "index.html", "../")
    site = out / "static" / "site"
    site.mkdir()
    assets.unpack_pyodide(cache, site / "pyodide")
    (site / "wheels").mkdir()
    for wheel in assets.WHEELS:
        shutil.copy(cache / "wheels" / wheel.file, site / "wheels" / wheel.file)
    _package_zip(site / "toybattle.zip")
    # imported by crypto.js (the glue that online/mailbox/browser_crypto.py calls), relative to the worker
    assets.unpack_npm_modules(cache, site / "npm")
    static = _static()
    for name in ("worker.js", "crypto.js", "icon-192.png", "icon-512.png"):  # crypto.js: imported by worker.js
        shutil.copy(static / name, site / name)
    shutil.copy(static / "manifest.webmanifest", out / "manifest.webmanifest")
    (site / "site.json").write_text(json.dumps({
        "wheels": [f"wheels/{w.file}" for w in assets.WHEELS], "package": "toybattle.zip",
        "pyodide": assets.PYODIDE_VERSION}, indent=1), "utf-8")
    return _service_worker(out, static)


def _service_worker(out: Path, static: Path) -> dict[str, Any]:
    """sw.js with the list of every file (its path under the site's root, which sw.js finds from its own
    address) and a version derived from their bytes: any change to the site changes sw.js, which is what
    makes browsers pick the update up."""
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.relative_to(out).as_posix() not in (MARK, "sw.js"))
    digest = hashlib.sha256()
    urls = []
    for p in files:
        rel = p.relative_to(out).as_posix()
        digest.update(rel.encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
        urls.append("/" + rel)
    version = digest.hexdigest()[:16]
    sw = static.joinpath("sw.js").read_text("utf-8")
    sw = sw.replace('"__VERSION__"', json.dumps(version)).replace('["__FILES__"]', json.dumps(urls))
    (out / "sw.js").write_text(sw, "utf-8")
    (out / MARK).write_text(version + "\n", "utf-8")
    return {"version": version, "files": len(urls) + 1, "bytes": sum(p.stat().st_size for p in files)}


def run(args: argparse.Namespace) -> int:
    out = Path(args.dir).expanduser().resolve()
    info = build(out, log=True)
    print(f"site {info['version']} built in {out}: {info['files']} files, {info['bytes'] / 1e6:.1f} MB. "
          f"Serve it with any static file server, e.g. `python3 -m http.server -d {out}`, and open it at its "
          "address (http://localhost:8000/), at a host's root or under any path.")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("site", help="build the static site (the app on Pyodide, works offline) into DIR")
    p.add_argument("dir", metavar="DIR", help="directory to build into (empty, or a site built before)")
    p.set_defaults(run=run)
