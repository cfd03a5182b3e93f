#!/usr/bin/env bash
# Mutation testing of the code that hides, commits and checks (issue 26; results in docs/benchmarks.md,
# "Mutation testing"). mutmut ([tool.mutmut] in pyproject.toml) copies src/ to mutants/, mutates the four
# files named there, and runs, for each mutant, the fast tests that reach the mutated function: a mutant
# no test notices "survives".
# Usage: scripts/mutation.sh            the functions that matter (below): 738 mutants, an hour or more on 2 busy cores
#        scripts/mutation.sh all        every mutant of the four files (~4,100: hours)
#        scripts/mutation.sh GLOB...    mutmut's own mutant-name globs, e.g. 'toybattle.online.wire.*'
# Then: .venv/bin/mutmut results (survivors), .venv/bin/mutmut show NAME (one mutant's diff).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! .venv/bin/python -c "import mutmut" 2>/dev/null; then
  scripts/setup.sh --test
  .venv/bin/python -m pip install -q -c scripts/constraints.txt -e ".[test,browser,lint,cluster,mutation]"
fi

P=toybattle.online.protocol
S=toybattle.app.guard
SELECTED=(
  # rules: observation(state, seat), the one place hidden tiles are hidden
  "toybattle.rules.observation.x_observation__mutmut_*"
  # the wire: every function of online/wire.py
  "toybattle.online.wire.*"
  # the commitments: how they are made and every check of an opening against them
  "$P.x__opening__*" "$P.x__final_tile__*" "$P.x__is_hex__*" "$P.x_sha__*" "$P.x_tile_commitment__*"
  "$P.xǁSecretsǁcommitments__*" "$P.xǁMatchǁ_on_commit__*" "$P.xǁMatchǁ_take_value__*" "$P.xǁMatchǁ_commits__*"
  "$P.xǁMatchǁ_check_opening__*" "$P.xǁMatchǁ_check_final_tiles__*" "$P.xǁMatchǁ_on_open__*"
  "$P.xǁMatchǁobservation__*"
  # the request guard's decisions: what it refuses, the body it reads, the headers it adds
  "$S.xǁGuardǁrefusal__*" "$S.xǁGuardǁread_body__*" "$S.xǁGuardǁsecure__*" "$S.xǁGuardǁpolicy__*"
)

case "${1:-}" in
  "") set -- "${SELECTED[@]}" ;;
  all) set -- ;;
esac
# mutants/ is a copy of src/ made once: a stale copy would test old code
rm -rf mutants
exec .venv/bin/mutmut run "$@"
