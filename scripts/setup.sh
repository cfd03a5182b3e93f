#!/usr/bin/env bash
# Set up a virtual environment in .venv with toybattle installed (idempotent).
# Usage: scripts/setup.sh [--test]   (--test also installs the test tools and Debian's chromium)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
if [ "${1:-}" = "--test" ]; then
  .venv/bin/python -m pip install -q -e ".[test]"
  if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
  fi
else
  .venv/bin/python -m pip install -q -e .
fi
scripts/build-compiled.sh --if-compiler  # the optional compiled engine, in .venv-compiled (skipped without a C compiler)
