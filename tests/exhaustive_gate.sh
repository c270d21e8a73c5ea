#!/bin/sh
# The exhaustive gate: every default implementation's contract over all 2^32 binary32 inputs,
# forward and derivative; with GELUCHECK_GATE_PART=K/N only part K of N (consecutive encodings,
# `accuracy --shard K/N`), CI's rotation (.ci/run). Usage: exhaustive_gate.sh GELUCHECK ARGS...
set -eu
g=$1
shift
part=${GELUCHECK_GATE_PART:-}
case $part in
'') exec "$g" accuracy --grad "$@" ;;
*/*) exec "$g" accuracy --grad --shard "$part" "$@" ;;
*) echo "exhaustive_gate.sh: GELUCHECK_GATE_PART='$part' is not K/N" >&2; exit 2 ;;
esac
