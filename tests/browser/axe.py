"""axe-core, the accessibility checker the browser tests inject into every page: a test tool, kept with the
tests (never in the package).

Pinned by version and SHA-256 like the site's assets (toybattle/site/assets.py), fetched once with ``npm pack``
into the same cache; a tarball whose checksum differs is refused and deleted. The tests import it as ``axe``
(tests/browser is on their path).

    python tests/browser/axe.py      # fetch (or check) it; scripts/setup.sh runs this in test mode
"""
from __future__ import annotations

import shutil
import sys
import tarfile
import tempfile
from pathlib import Path

from toybattle.site.assets import AssetError, _run, _verified, cache_dir

AXE_VERSION = "4.14.1"
AXE_SHA256 = "e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745"


def tarball() -> Path:
    return cache_dir() / f"axe-core-{AXE_VERSION}.tgz"


def ensure(log: bool = False) -> Path:
    """The verified axe-core tarball in the cache, fetched if missing."""
    tgz = tarball()
    if _verified(tgz, AXE_SHA256):
        return tgz
    npm = shutil.which("npm")
    if npm is None:
        raise AssetError("npm is needed once to fetch axe-core (install Node.js 20 or later)")
    tgz.parent.mkdir(parents=True, exist_ok=True)
    if log:
        print(f"fetching axe-core {AXE_VERSION} (npm pack) into {tgz.parent}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        _run([npm, "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", tmp, "--silent"],
             f"axe-core {AXE_VERSION} from the npm registry")
        shutil.move(str(Path(tmp) / tgz.name), tgz)
    if not _verified(tgz, AXE_SHA256):
        raise AssetError(f"axe-core {AXE_VERSION} from the registry does not match its pinned checksum")
    return tgz


def script() -> str:
    """axe.min.js from the verified tarball (fetched first if needed)."""
    with tarfile.open(ensure()) as tar:
        member = tar.extractfile("package/axe.min.js")
        if member is None:
            raise AssetError(f"axe-core {AXE_VERSION} has no axe.min.js")
        return member.read().decode()


def main() -> int:
    try:
        path = ensure(log=True)
    except AssetError as e:
        print(f"toybattle axe-core: {e}", file=sys.stderr)
        return 2
    print(f"axe-core {AXE_VERSION} ready in {path} (checksum verified)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
