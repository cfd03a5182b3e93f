#!/usr/bin/env bash
# Build the optional compiled engine: mypyc compiles the rules core and the bots' hot paths (the modules
# listed in pyproject.toml's [tool.toybattle.compiled]) into a wheel, installed in its own venv,
# .venv-compiled (or $TOYBATTLE_COMPILED_VENV). Run it with that venv's python, e.g.
#   .venv-compiled/bin/python -m toybattle bench      # says "build: compiled"
# Every other install (.venv, editable) stays pure Python and never meets a compiled module, so it cannot
# run a stale one; the compiled venv is a snapshot of the sources at build time: rerun this script after
# changing them (the fingerprint test fails, naming the changed files, until you do).
# Usage: scripts/build-compiled.sh [--if-compiler]   (--if-compiler: no C compiler is not an error, just skip)
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TOYBATTLE_COMPILED_VENV:-$PWD/.venv-compiled}"
if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
  echo "build-compiled: no C compiler (${CC:-cc}); the compiled engine is not built, pure Python runs" >&2
  [ "${1:-}" = "--if-compiler" ] && exit 0
  exit 1
fi
mypy_pin=$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["tool"]["toybattle"]["compiled"]["mypy"])')
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip >/dev/null
"$venv/bin/python" -m pip install -q "$mypy_pin" "setuptools>=68" wheel
# Build from a copy of the sources, so that no generated C or compiled module is ever left in the tree.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar --exclude=__pycache__ -cf - pyproject.toml setup.py README.md LICENSE src | tar -xf - -C "$tmp"
(cd "$tmp" && TOYBATTLE_COMPILE=1 "$venv/bin/python" -m pip wheel -q --no-build-isolation --no-deps -w dist .)
"$venv/bin/python" -m pip uninstall -q -y toybattle 2>/dev/null || true
"$venv/bin/python" -m pip install -q "$tmp"/dist/toybattle-*.whl
# pytest and hypothesis (the test extra's pins): tests/test_builds.py runs the rules tests on this build too
mapfile -t tools < <(python3 -c 'import tomllib; print("\n".join(r for r in tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["test"] if r.startswith(("pytest", "hypothesis"))))')
"$venv/bin/python" -m pip install -q "${tools[@]}"
echo "build-compiled: $("$venv/bin/python" -c 'from toybattle import cli_rules; print(cli_rules.build())') toybattle in $venv"
