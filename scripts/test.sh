#!/usr/bin/env bash
# Set everything up (Chromium included), run the gates (ruff, mypy), then the test suite; extra arguments go
# to pytest. The whole suite is the CI gate; for day-to-day work: scripts/test.sh -m "not slow".
# The tests run on two processes (pytest-xdist, one per core of a 2-core machine, one fewer on a single core),
# each taking a whole test file at a time so a file's shared browser, server or site is set up once; `-n 0`
# among the arguments runs them in this one process instead.
# Every gate and the tests run even when one fails, so one run shows every problem; the exit code is 1 if any
# of them failed.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test || exit 1

failed=()
gate() {
  local name=$1; shift
  echo "=== gate: $name: $*"
  if "$@"; then echo "=== gate: $name passed"; else echo "=== gate: $name FAILED"; failed+=("$name"); fi
}
gate ruff .venv/bin/ruff check --output-format=concise src tests scripts
gate mypy .venv/bin/mypy
echo "=== tests: pytest $*"
.venv/bin/python -m pytest --numprocesses auto --maxprocesses 2 --dist loadfile "$@" || failed+=(tests)

if [ ${#failed[@]} -gt 0 ]; then
  echo "=== FAILED: ${failed[*]}"
  exit 1
fi
echo "=== all gates and tests passed"
