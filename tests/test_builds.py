"""The compiled build (scripts/build-compiled.sh, in .venv-compiled) plays exactly the rules of the
pure-Python package: the same fingerprint generator runs under both and must print the same hashes.

No skip: a missing or stale compiled build fails here, saying how to build it (CI has a C compiler,
and scripts/setup.sh builds it wherever one is present)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "tests" / "fingerprint_builds.py"
COMPILED_PYTHON = Path(os.environ.get("TOYBATTLE_COMPILED_PYTHON", ROOT / ".venv-compiled" / "bin" / "python"))
pytestmark = pytest.mark.slow  # the generator runs about a minute; the whole module goes with it
HOW = "build it with scripts/build-compiled.sh (needs a C compiler)"


def _env(pythonpath: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return env


def _installed_package() -> Path:
    if not COMPILED_PYTHON.exists():
        pytest.fail(f"no compiled build at {COMPILED_PYTHON}: {HOW}")
    out = subprocess.run([str(COMPILED_PYTHON), "-c", "import toybattle; print(toybattle.__file__)"],
                         capture_output=True, text=True, env=_env(None), cwd="/", timeout=120)
    assert out.returncode == 0, f"the compiled build does not import toybattle: {out.stderr[-2000:]}\n{HOW}"
    return Path(out.stdout.strip()).parent


def test_compiled_build_is_built_from_these_sources() -> None:
    """Every source and data file of the compiled venv's package is the one in src/ (else it is stale)."""
    installed = _installed_package()
    src = ROOT / "src" / "toybattle"
    changed = [str(p.relative_to(src)) for p in sorted(src.rglob("*")) if p.suffix in (".py", ".json")
               and "__pycache__" not in p.parts
               and (not (installed / p.relative_to(src)).exists()
                    or (installed / p.relative_to(src)).read_bytes() != p.read_bytes())]
    assert not changed, f"the compiled build is stale ({', '.join(changed[:8])} changed): re{HOW}"
    assert list(installed.glob("rules/state.*.so")), "the compiled venv holds no compiled rules core"


def test_compiled_and_pure_builds_have_the_same_fingerprint() -> None:
    _installed_package()
    runs = {
        "pure Python": subprocess.Popen([sys.executable, str(GENERATOR)], stdout=subprocess.PIPE, text=True,
                                        env=_env(str(ROOT / "src")), cwd=ROOT),
        "compiled": subprocess.Popen([str(COMPILED_PYTHON), str(GENERATOR)], stdout=subprocess.PIPE, text=True,
                                     env=_env(None), cwd="/"),
    }
    prints = {}
    for want, proc in runs.items():
        out, _ = proc.communicate(timeout=1800)
        assert proc.returncode == 0, f"the fingerprint generator failed under the {want} build"
        prints[want] = json.loads(out)
        assert prints[want].pop("build") == want
    pure, compiled = prints["pure Python"], prints["compiled"]
    assert pure["plies"] > 10_000  # hundreds of whole games were played
    differ = [k for k in pure if pure[k] != compiled.get(k)]
    assert not differ, f"the compiled build differs from pure Python in: {', '.join(differ)}"


def test_rules_tests_pass_on_the_compiled_build() -> None:
    """The rules' own tests, run by the compiled venv's Python (which imports its compiled package:
    with no PYTHONPATH, and the sources under src/, the tree's modules are not importable)."""
    _installed_package()
    run = subprocess.run([str(COMPILED_PYTHON), "-m", "pytest", "tests/rules", "-q", "-x", "-m", "not slow",
                          "-p", "no:cacheprovider"], capture_output=True, text=True, env=_env(None), cwd=ROOT,
                         timeout=1800)
    assert run.returncode == 0, f"rules tests fail on the compiled build:\n{run.stdout[-3000:]}{run.stderr[-2000:]}"
