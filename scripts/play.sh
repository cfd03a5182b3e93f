#!/usr/bin/env bash
# Set everything up, then start the app (extra arguments go to `toybattle`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/toybattle "$@"
