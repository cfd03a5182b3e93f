"""What the site ships besides toybattle itself: Pyodide and the pure-Python wheels the app needs.

Each is pinned by version and SHA-256 and fetched once, with the registries' own clients (``npm pack``
for Pyodide, ``pip download`` for wheels), into a cache directory ($TOYBATTLE_CACHE, else
``toybattle/site`` in the user's cache directory). Anything whose checksum differs is refused and
deleted. The site never fetches anything at run time: ``build`` copies these files into it.

    python -m toybattle.site.assets      # fetch (or check) everything; scripts/setup.sh runs this
"""
from __future__ import annotations

import hashlib
import os
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
# natively. uvicorn, websockets, segno, rich and magic-wormhole are not needed in the browser.
WHEELS = (
    Wheel("starlette", "1.10.0", "478c0ab3b4ced6e82719849c118fa406f0278a3499c1a898cd15cd31bdc38ce4"),
    Wheel("anyio", "4.16.0", "c66ae634e0b8228396b801741beb3294326d4b6102f7bba4041c0dfb58c29026"),
    Wheel("idna", "3.20", "ab7ae7122974553370f0bdb919e1a960b2cd1bc1ef0276416d896db81c14582c"),
    Wheel("typing_extensions", "4.16.0", "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8"),
    # the bots mark a class for the optional compiled build (mypyc_attr): a no-op, but imported
    Wheel("mypy_extensions", "1.2.0", "993e7a20aa5671eb41a7132cf555af30062da99729601601b9a8382b11cae768"),
)


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


def _fetch_pyodide(dest: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        raise AssetError("npm is needed once to fetch Pyodide (install Node.js 20 or later)")
    with tempfile.TemporaryDirectory() as tmp:
        _run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
             f"pyodide {PYODIDE_VERSION} from the npm registry")
        shutil.move(str(Path(tmp) / dest.name), dest)


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


def main() -> int:
    try:
        root = ensure(log=True)
    except AssetError as e:
        print(f"toybattle site assets: {e}", file=sys.stderr)
        return 2
    print(f"site assets ready in {root} (pyodide {PYODIDE_VERSION}, {len(WHEELS)} wheels, checksums verified)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
