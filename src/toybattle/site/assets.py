"""What the site ships besides toybattle itself: Pyodide, the pure-Python wheels the app needs, and the
audited JavaScript cryptography (the noble packages) that the wormhole client calls in the browser.

Each is pinned by version and SHA-256 and fetched once, with the registries' own clients (``npm pack``
for Pyodide and the noble packages, ``pip download`` for wheels), into a cache directory ($TOYBATTLE_CACHE, else
``toybattle/site`` in the user's cache directory). Anything whose checksum differs is refused and
deleted. The site never fetches anything at run time: ``build`` copies these files into it.

    python -m toybattle.site.assets      # fetch (or check) everything; scripts/setup.sh runs this
"""
from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

PYODIDE_VERSION = "314.0.7"  # CPython 3.14.2 for wasm32/emscripten
PYODIDE_SHA256 = "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0"
# the runtime's own files; the package's source maps, type stubs and demo consoles stay out
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


@dataclass(frozen=True)
class Wheel:
    name: str
    version: str
    sha256: str

    @property
    def file(self) -> str:
        return f"{self.name}-{self.version}-py3-none-any.whl"


# The app's web layer (Starlette) and what it and the bots need on Python 3.14; the same versions the app runs
# natively. uvicorn, websockets, segno, rich, PyNaCl and cryptography are not needed in the browser (its crypto
# comes from the @noble npm packages below).
WHEELS = (
    Wheel("starlette", "1.10.0", "478c0ab3b4ced6e82719849c118fa406f0278a3499c1a898cd15cd31bdc38ce4"),
    Wheel("anyio", "4.16.0", "c66ae634e0b8228396b801741beb3294326d4b6102f7bba4041c0dfb58c29026"),
    Wheel("idna", "3.20", "ab7ae7122974553370f0bdb919e1a960b2cd1bc1ef0276416d896db81c14582c"),
    Wheel("typing_extensions", "4.16.0", "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8"),
    # the bots mark a class for the optional compiled build (mypyc_attr): a no-op, but imported
    Wheel("mypy_extensions", "1.2.0", "993e7a20aa5671eb41a7132cf555af30062da99729601601b9a8382b11cae768"),
)


@dataclass(frozen=True)
class NpmModules:
    """An npm package of plain ES modules, of which the site ships ``entries`` and what they import."""
    name: str
    version: str
    sha256: str
    entries: tuple[str, ...]

    @property
    def file(self) -> str:
        return f"{self.name.lstrip('@').replace('/', '-')}-{self.version}.tgz"  # the name `npm pack` gives


# The wormhole client's primitives in the browser (toybattle.online.mailbox.browser_crypto): Ed25519 group
# operations, XSalsa20-Poly1305 (NaCl's secretbox) and HKDF-SHA256. @noble/curves 2.4.0 depends on exactly
# @noble/hashes 2.4.0 (checked when unpacked); @noble/ciphers depends on nothing.
NPM_MODULES = (
    NpmModules("@noble/curves", "2.4.0", "55279c71b0201d6c0e58d0206d15825359e02a3932f326ba7b7909ac2d334aa9",
               ("ed25519.js",)),
    NpmModules("@noble/ciphers", "2.4.0", "4a398bcc280c8742d474f9162f6d3c153e52ab1078e8ab592b4720410fb3c3e9",
               ("salsa.js",)),
    NpmModules("@noble/hashes", "2.4.0", "e1946149b780017b2564fcc092cb01c04e1d7f20627d0296c17da8868f4436dc",
               ("hkdf.js", "sha2.js")),
)
# A static import or re-export at the start of a line (``import {a,\n b} from "./x.js"``, ``export * from``,
# ``import "./x.js"``); the same words in the packages' doc comments follow a `*` and are not matched.
_IMPORT = re.compile(r"""^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom[ \t]*(['"])(?P<a>[^'"\n]+)\1"""
                     r"""|^[ \t]*import[ \t]*(['"])(?P<b>[^'"\n]+)\3""", re.M)


class AssetError(Exception):
    """An asset cannot be fetched or does not match its pinned checksum (one line says which)."""


def cache_dir() -> Path:
    env = os.environ.get("TOYBATTLE_CACHE")
    if env:
        return Path(env).expanduser() / "site"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "toybattle" / "site"


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _verified(path: Path, expected: str) -> bool:
    """True if ``path`` holds the pinned bytes; a file that does not is deleted."""
    if not path.is_file():
        return False
    if sha256(path) == expected:
        return True
    path.unlink()
    return False


def _run(cmd: list[str], what: str) -> None:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise AssetError(f"cannot fetch {what}: {e}") from None
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["no output"]
        raise AssetError(f"cannot fetch {what}: {last[0]}")


def _npm_pack(spec: str, dest: Path, what: str) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise AssetError(f"npm is needed once to fetch {what} (install Node.js 20 or later)")
    with tempfile.TemporaryDirectory() as tmp:
        _run([npm, "pack", spec, "--pack-destination", tmp, "--silent"], f"{what} from the npm registry")
        shutil.move(str(Path(tmp) / dest.name), dest)


def _fetch_pyodide(dest: Path) -> None:
    _npm_pack(f"pyodide@{PYODIDE_VERSION}", dest, f"pyodide {PYODIDE_VERSION}")


def _fetch_wheel(wheel: Wheel, dest: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", tmp,
              f"{wheel.name}=={wheel.version}"], f"{wheel.name} {wheel.version} from PyPI")
        shutil.move(str(Path(tmp) / wheel.file), dest)


def ensure(log: bool = False) -> Path:
    """Every pinned asset in the cache, fetched if missing; answers the cache directory."""
    root = cache_dir()
    (root / "wheels").mkdir(parents=True, exist_ok=True)
    tgz = root / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not _verified(tgz, PYODIDE_SHA256):
        if log:
            print(f"fetching pyodide {PYODIDE_VERSION} (npm pack) into {root}", flush=True)
        _fetch_pyodide(tgz)
        if not _verified(tgz, PYODIDE_SHA256):
            raise AssetError(f"pyodide {PYODIDE_VERSION} from the registry does not match its pinned checksum")
    (root / "npm").mkdir(exist_ok=True)
    for pkg in NPM_MODULES:
        path = root / "npm" / pkg.file
        if not _verified(path, pkg.sha256):
            if log:
                print(f"fetching {pkg.name} {pkg.version} (npm pack)", flush=True)
            _npm_pack(f"{pkg.name}@{pkg.version}", path, f"{pkg.name} {pkg.version}")
            if not _verified(path, pkg.sha256):
                raise AssetError(f"{pkg.name} {pkg.version} from the registry does not match its pinned checksum")
    for wheel in WHEELS:
        path = root / "wheels" / wheel.file
        if not _verified(path, wheel.sha256):
            if log:
                print(f"fetching {wheel.file} (pip download)", flush=True)
            _fetch_wheel(wheel, path)
            if not _verified(path, wheel.sha256):
                raise AssetError(f"{wheel.file} from PyPI does not match its pinned checksum")
    return root


def unpack_pyodide(root: Path, dest: Path) -> None:
    """Copy the runtime's files out of the verified tarball into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(root / f"pyodide-{PYODIDE_VERSION}.tgz") as tar:
        for name in PYODIDE_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise AssetError(f"pyodide {PYODIDE_VERSION} has no {name}")
            (dest / name).write_bytes(member.read())


def unpack_npm_modules(root: Path, dest: Path) -> list[str]:
    """Copy each package's entry modules, and every module they import, out of the verified tarballs into
    ``dest/<package name>/`` (``dest/@noble/curves/ed25519.js``...), keeping each package's own layout, so
    the relative imports resolve as they are. A browser worker has no import map, so an import of another
    pinned package by its name (``@noble/hashes/sha2.js``) is rewritten to the relative path of that file:
    the only change made to the packages' bytes. Answers the files written, relative to ``dest``."""
    files: dict[str, bytes] = {}  # "@noble/curves/ed25519.js": its bytes
    for pkg in NPM_MODULES:
        with tarfile.open(root / "npm" / pkg.file) as tar:
            for member in tar.getmembers():
                data = tar.extractfile(member) if member.isfile() and member.name.startswith("package/") else None
                if data is not None:
                    files[f"{pkg.name}/{member.name.removeprefix('package/')}"] = data.read()
    for pkg in NPM_MODULES:
        meta = json.loads(files.get(f"{pkg.name}/package.json", b"{}"))
        for dep, wanted in (meta.get("dependencies") or {}).items():
            pinned = next((p.version for p in NPM_MODULES if p.name == dep), None)
            if pinned != wanted:
                raise AssetError(f"{pkg.name} {pkg.version} needs {dep} {wanted}, but {pinned} is pinned")
    todo = [f"{pkg.name}/{entry}" for pkg in NPM_MODULES for entry in pkg.entries]
    done: set[str] = set()
    while todo:
        path = todo.pop()
        if path in done:
            continue
        if path not in files:
            raise AssetError(f"the pinned npm packages have no {path}")
        done.add(path)
        text = files[path].decode("utf-8")
        out, last = [], 0
        for m in _IMPORT.finditer(text):
            group = "a" if m.group("a") is not None else "b"
            spec = m.group(group)
            if spec.startswith(("./", "../")):
                target = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
            else:  # another package by its name
                target = spec
                spec = posixpath.relpath(target, posixpath.dirname(path))
                spec = spec if spec.startswith("../") else "./" + spec
            if target not in files or not target.endswith(".js"):
                raise AssetError(f"{path} imports {m.group(group)}, which is not a module of the pinned packages")
            out.append(text[last:m.start(group)] + spec)
            last = m.end(group)
            todo.append(target)
        out.append(text[last:])
        (dest / path).parent.mkdir(parents=True, exist_ok=True)
        (dest / path).write_text("".join(out), "utf-8")
    return sorted(done)


def main() -> int:
    try:
        root = ensure(log=True)
    except AssetError as e:
        print(f"toybattle site assets: {e}", file=sys.stderr)
        return 2
    print(f"site assets ready in {root} (pyodide {PYODIDE_VERSION}, {len(WHEELS)} wheels, "
          f"{len(NPM_MODULES)} npm packages, checksums verified)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
