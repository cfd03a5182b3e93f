#!/bin/sh
# An engine written in shell, not Python: it asks the arena for the legal actions with every
# position (docs/engine-protocol.md, "option extras") and plays the first one. Every line it
# receives goes to standard error, so a test can read what the arena told it.
set -f
first=""
while IFS= read -r line; do
  echo "$line" >&2
  case "$line" in
    toybattle) printf 'id name first-legal (sh)\nid protocol 1\noption extras legal about\ntoybattleok\n' ;;
    isready) echo readyok ;;
    "legal "*) set -- $line; first=$2 ;;
    go|"go "*) echo "action $first" ;;
    quit) exit 0 ;;
  esac
done
