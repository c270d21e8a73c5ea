#!/bin/sh
# The exhaustive gate: every default implementation's contract over all 2^32 binary32 inputs,
# forward and derivative; with GELUCHECK_GATE_PART=K/N only part K of N (consecutive encodings,
# `accuracy --shard K/N`), CI's rotation (.ci/run).
# With --frameworks first: the same gate over every installed framework row instead
# (`gelucheck list`'s frameworks section; each framework not installed is named and skipped, and
# with none installed the test is skipped, status 77), part GELUCHECK_FRAMEWORK_GATE_PART
# (else GELUCHECK_GATE_PART, else all inputs).
# Usage: exhaustive_gate.sh [--frameworks] GELUCHECK ARGS...
set -eu
frameworks=no
if [ "${1:-}" = --frameworks ]; then
    frameworks=yes
    shift
fi
g=$1
shift
part=${GELUCHECK_GATE_PART:-}
if [ $frameworks = yes ]; then
    part=${GELUCHECK_FRAMEWORK_GATE_PART:-$part}
    # the frameworks' rows: "  NAME  Framework VERSION ..." or "  NAME  Framework not installed"
    rows=$("$g" list | sed -n '/^frameworks (/,/^$/p' | grep '^  [a-z_][a-z0-9_]*  ')
    echo "$rows" | grep ' not installed' | sed 's/^  \([a-z0-9_]*\) *\(.*\) not installed.*/framework gate: \1 skipped: \2 not installed/'
    impls=$(echo "$rows" | grep -v ' not installed' | sed 's/^  \([a-z0-9_]*\) .*/\1/' | paste -sd, -)
    if [ -z "$impls" ]; then
        echo "framework gate: no framework installed (tools/setup.sh --frameworks): skipped"
        exit 77
    fi
    set -- --frameworks --impl "$impls" "$@"
fi
case $part in
'') exec "$g" accuracy --grad "$@" ;;
*/*) exec "$g" accuracy --grad --shard "$part" "$@" ;;
*) echo "exhaustive_gate.sh: GELUCHECK_GATE_PART or GELUCHECK_FRAMEWORK_GATE_PART='$part' is not K/N" >&2; exit 2 ;;
esac
