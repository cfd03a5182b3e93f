#!/usr/bin/env bash
# Set up .venv with toybattle installed. The first run does everything; later runs only compare a stamp
# (a hash of pyproject.toml and this script, and the mode) and return at once, with no pip and no apt, when
# nothing changed.
# Usage: scripts/setup.sh [--test]   (--test adds the pinned test and lint tools, and Debian's chromium)
# Works as root without sudo and in a bare environment (env -i PATH=/usr/local/bin:/usr/bin:/bin).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=plain
case "${1:-}" in
  "") ;;
  --test) mode=test ;;
  *) echo "usage: scripts/setup.sh [--test]" >&2; exit 2 ;;
esac
STAMP=.venv/toybattle-setup.stamp
CHROMIUM=${TOYBATTLE_CHROMIUM:-/usr/bin/chromium}

# Runs a system command as root: directly when we are root, through sudo otherwise. dpkg needs the sbin
# directories on PATH, which a bare environment does not have.
as_root() {
  local path="/usr/local/sbin:/usr/sbin:/sbin:$PATH"
  if [ "$(id -u)" = 0 ]; then
    env PATH="$path" DEBIAN_FRONTEND=noninteractive "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo env PATH="$path" DEBIAN_FRONTEND=noninteractive "$@"
  else
    echo "setup: needs root for: $*  (run it as root, then run this script again)" >&2
    exit 1
  fi
}

apt_install() {
  echo "setup: installing $* from apt" >&2
  as_root apt-get update -qq
  as_root apt-get install -y -qq "$@" >/dev/null
}

# The browser tests drive Debian's chromium; it is checked on every --test run (a file test, no apt).
if [ "$mode" = test ] && [ ! -x "$CHROMIUM" ]; then
  apt_install chromium
fi

# What was installed follows from pyproject.toml, the pinned versions and this script: a change to any sets up again.
want="$(cat pyproject.toml scripts/setup.sh scripts/constraints.txt | sha256sum | cut -d' ' -f1)"
have="$(cat "$STAMP" 2>/dev/null || true)"
if [ -x .venv/bin/python ] && .venv/bin/python -c "" 2>/dev/null; then
  # A --test install holds everything a plain one does.
  if [ "$have" = "$want test" ] || { [ "$mode" = plain ] && [ "$have" = "$want plain" ]; }; then
    exit 0
  fi
else
  echo "setup: creating .venv" >&2
  rm -rf .venv
  if ! python3 -m venv .venv 2>/dev/null; then  # Debian ships venv's pip in a package of its own
    rm -rf .venv
    apt_install python3-venv
    python3 -m venv .venv
  fi
fi

rm -f "$STAMP"  # a failed install must not leave a stamp that claims success
if [ "$mode" = test ]; then
  echo "setup: installing toybattle with its test, browser-test, lint and cluster extras into .venv" >&2
  .venv/bin/python -m pip install -q -c scripts/constraints.txt -e ".[test,browser,lint,cluster]"
else
  echo "setup: installing toybattle into .venv" >&2
  .venv/bin/python -m pip install -q -c scripts/constraints.txt -e .
fi
if [ "$mode" = test ]; then  # the accessibility checker the browser tests inject (pinned, verified)
  .venv/bin/python tests/browser/axe.py || echo "setup: axe-core was not fetched; the accessibility tests fetch it when first run" >&2
fi
.venv/bin/python -m toybattle.site.assets || echo "setup: the static site's assets (Pyodide, wheels) were not fetched; \`toybattle site\` fetches them when first run" >&2
if [ "$mode" = test ]; then  # the optional compiled engine, in .venv-compiled, for its fingerprint test
  scripts/build-compiled.sh --if-compiler
fi
echo "$want $mode" > "$STAMP"
