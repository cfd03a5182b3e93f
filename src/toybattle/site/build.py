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
import asyncio
import gzip
import hashlib
import json
import re
import shutil
import tempfile
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any

from toybattle.app.context import web_dir
from toybattle.app.words import LANGS
from toybattle.assembly import build_app
from toybattle.errors import UserError
from toybattle.said import Said, say
from toybattle.store import Store

from . import assets
from .browser import Bridge

MARK = ".toybattle-site"  # names a directory this command built, so a rebuild may replace it
TRANSPORT = '<meta name="toybattle-transport" content="worker">'
# {up}: the way from the page's directory to the site's root ("" or "../"): every address in a built page
# is relative, so the site works at the root of its host and under any path (a project page's /toybattle/)
HEAD_EXTRA = (TRANSPORT + '\n<link rel="manifest" href="{up}manifest.webmanifest">\n'
              '<link rel="apple-touch-icon" href="{up}static/site/icon-192.png">\n')
# the API paths whose answers are files in static/site/data/<lang>/ (net.js reads them instead of asking Python)
BUILT = '<meta name="toybattle-built" content="{paths}">\n'
# the parts of the package the browser runs: everything but the front end (served as files) and this
# builder; online rooms run there through the pure-Python wormhole client (online/mailbox)
PACKAGE_SKIP = ("web/", "site/build.py", "site/assets.py", "site/static/")
ZIP_TIME = (2026, 1, 1, 0, 0, 0)  # fixed, so an unchanged package gives the same zip and version
HASH_LEN = 16  # hex digits of SHA-256 naming a file's content
GZIP_FROM = 64 * 1024  # smaller files gain too little from a gzip copy


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


def _page(src: Path, dest: Path, up: str, built: list[str]) -> None:
    """The app's page ``src`` (whose addresses name the server's root: ``/static/...``, ``/``) as the site's
    page ``dest``, ``up`` below the site's root, with every address relative to it; ``built``: the API paths
    answered by files (``_built_data``)."""
    html = src.read_text("utf-8")
    if "</head>" not in html:
        raise UserError(f"{src.name} has no </head>")
    html = html.replace('="/static/', f'="{up}static/').replace('href="/"', f'href="{up or "./"}"')
    left = re.search(r'(?:href|src)="/[^"]*"', html)
    if left:  # an address the site could not follow under a sub-path
        raise UserError(f"{src.name}: {left.group(0)} names the server's root")
    dest.parent.mkdir(parents=True, exist_ok=True)
    # every module of the front end, asked for at once: the browser would otherwise find them one level of
    # imports at a time, and a slow phone waits for each level in turn before the home shows
    preload = "".join(f'<link rel="modulepreload" href="{up}static/js/{m.name}">\n'
                      for m in sorted((web_dir() / "js").glob("*.js")))
    extra = HEAD_EXTRA.format(up=up) + BUILT.format(paths=" ".join(built)) + preload
    dest.write_text(html.replace("</head>", extra + "</head>", 1), "utf-8")


def _prepare(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UserError(Said("cli.site.error.file", name=str(out)))
    if out.is_dir() and any(out.iterdir()):
        if not (out / MARK).is_file():
            raise UserError(Said("cli.site.error.notEmpty", name=str(out)))
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)


def build(out: Path, log: bool = False) -> dict[str, Any]:
    """Build the site into ``out``; answers ``{"version", "files", "bytes"}`` (bytes: what a first visit
    downloads, the gzip copies where the service worker fetches those)."""
    try:
        cache = assets.ensure(log=log)
    except assets.AssetError as e:
        raise UserError(str(e)) from None
    _prepare(out)
    shutil.copytree(web_dir(), out / "static", ignore=shutil.ignore_patterns("__pycache__", "*.html"))  # pages below
    built = _built_data(out / "static" / "site" / "data")
    _page(web_dir() / "index.html", out / "index.html", "", built)
    # the old Learn page's address: the one page, which moves itself to its Learn screen (app.js)
    _page(web_dir() / "index.html", out / "learn" / "index.html", "../", built)
    site = out / "static" / "site"
    # the large files are named by their content: an update that leaves them alone leaves their names (and every
    # cache's copy) alone, and a changed one can never be mixed up with its old bytes
    pyodide = _pyodide_dir(cache, site)
    (site / "wheels").mkdir()
    for wheel in assets.WHEELS:  # a wheel's name carries its version
        shutil.copy(cache / "wheels" / wheel.file, site / "wheels" / wheel.file)
    zipped = site / "toybattle.zip"
    _package_zip(zipped)
    package = zipped.rename(site / f"toybattle-{_digest(zipped.read_bytes())}.zip")
    # imported by crypto.js (the glue that online/mailbox/browser_crypto.py calls), relative to the worker
    assets.unpack_npm_modules(cache, site / "npm")
    static = _static()
    # crypto.js and python.js: imported by worker.js; snapshot.js: the worker that makes Python's snapshot
    for name in ("worker.js", "python.js", "snapshot.js", "crypto.js", "icon-192.png", "icon-512.png"):
        shutil.copy(static / name, site / name)
    shutil.copy(static / "manifest.webmanifest", out / "manifest.webmanifest")
    (site / "site.json").write_text(json.dumps({
        "wheels": [f"wheels/{w.file}" for w in assets.WHEELS], "package": package.name,
        "pyodide": pyodide, "pyodide_version": assets.PYODIDE_VERSION}, indent=1), "utf-8")
    return _service_worker(out, static)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:HASH_LEN]


def _pyodide_dir(cache: Path, site: Path) -> str:
    """Pyodide's files in ``site/pyodide-<hash of them all>/`` (its loader wants them side by side, under their own
    names); answers that directory's name and a slash. Beside each large file that compresses well lies a gzip copy
    (``.gz``) that the service worker fetches instead and unpacks (sw.js): a first visit downloads about half the
    bytes, from any plain static host."""
    tmp = site / "pyodide"
    assets.unpack_pyodide(cache, tmp)
    digest = hashlib.sha256()
    for p in sorted(tmp.iterdir()):
        digest.update(p.name.encode() + b"\0" + p.read_bytes())
    final = tmp.rename(site / f"pyodide-{digest.hexdigest()[:HASH_LEN]}")
    for p in sorted(final.iterdir()):
        data = p.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(data) >= GZIP_FROM and len(packed) < 0.8 * len(data):
            p.with_name(p.name + ".gz").write_bytes(packed)
    return final.name + "/"


def _built_data(dest: Path) -> list[str]:
    """The app's answers that depend on nothing but the package (terrains, troops, levels, rules, lessons), in each
    language, asked of the browser's own app at build time and written as files that the page reads at once,
    before Python has started (net.js). Answers the API paths built."""
    async def ask(store: Store) -> list[str]:
        app = build_app(store, lan=False, resume=False)  # as in the browser: no feature that needs the network
        app.state.ctx.allowed_hosts.add("site")
        bridge = Bridge(app, lambda _msg: None)
        async def listed(path: str) -> Any:
            return json.loads((await bridge.http("GET", path, [], ""))["body"])

        paths = ["/api/meta", "/api/rules", "/api/lessons"]  # and each terrain and lesson these two list
        paths += [f"/api/terrains/{t['id']}" for t in (await listed("/api/meta"))["terrains"]]
        paths += [f"/api/lessons/{x['id']}" for t in (await listed("/api/lessons"))["topics"] for x in t["lessons"]]
        for lang in LANGS:
            for path in paths:
                got = await bridge.http("GET", path, [("accept-language", lang)], "")
                if got["status"] != 200:
                    raise UserError(f"the app answered {got['status']} to {path} while building the site")
                file = dest / lang / (path.removeprefix("/api/") + ".json")
                file.parent.mkdir(parents=True, exist_ok=True)
                file.write_text(got["body"], "utf-8")
        return paths

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(str(Path(tmp) / "games.sqlite3"))
        try:
            return asyncio.run(ask(store))
        finally:
            store.close()


def _service_worker(out: Path, static: Path) -> dict[str, Any]:
    """sw.js with the site's manifest: each file's path under the site's root (which sw.js finds from its own
    address), a hash of its bytes, the bytes it costs to fetch and whether its gzip copy is fetched instead; and a
    version derived from them all. Any change to the site changes sw.js, which is what makes browsers pick the
    update up; the service worker then fetches only the files whose hash changed."""
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.suffix != ".gz"
                   and p.relative_to(out).as_posix() not in (MARK, "sw.js"))
    manifest: dict[str, dict[str, Any]] = {}
    for p in files:
        packed = p.with_name(p.name + ".gz")
        entry: dict[str, Any] = {"h": _digest(p.read_bytes()), "n": p.stat().st_size}
        if packed.is_file():
            entry |= {"gz": 1, "n": packed.stat().st_size}
        manifest["/" + p.relative_to(out).as_posix()] = entry
    version = _digest(json.dumps(manifest, sort_keys=True).encode())
    sw = static.joinpath("sw.js").read_text("utf-8")
    sw = sw.replace('"__VERSION__"', json.dumps(version)).replace('{"__FILES__": 0}', json.dumps(manifest))
    (out / "sw.js").write_text(sw, "utf-8")
    (out / MARK).write_text(version + "\n", "utf-8")
    return {"version": version, "files": len(manifest) + 1,
            "bytes": sum(e["n"] for e in manifest.values()) + (out / "sw.js").stat().st_size}


def run(args: argparse.Namespace) -> int:
    out = Path(args.dir).expanduser().resolve()
    info = build(out, log=True)
    print(say(Said("cli.site.built", code=info["version"], name=str(out), n=info["files"],
                   text=f"{info['bytes'] / 1e6:.1f}"), args.lang))
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("site", help=Said("cli.site.help"))
    p.add_argument("dir", metavar=Said("cli.metavar.dir"), help=Said("cli.site.help.dir"))
    p.set_defaults(run=run)
