#!/bin/sh
# oneDNN's bfloat16 rows (dnnl_erf, dnnl_tanh on bf16 memory: peers/dnnl.c) held to their
# contracts over all 65,536 inputs, forward and derivative. Skipped (status 77) with the reason
# when the oneDNN peer is not built or oneDNN has no bf16 eltwise on this process's path
# (`gelucheck list` says which).
# Usage: dnnl16_gate.sh GELUCHECK
set -u
g=$1
list=$("$g" list) || exit 1
if ! echo "$list" | grep -q '^  dnnl_erf: bfloat16,'; then
    why=$(echo "$list" | grep "left out by default peer '[^']*gelucheck_peer_dnnl" | sed 's/^  //')
    # no such line: the peer is not built, not found, or default peers are off
    [ -n "$why" ] || why="the oneDNN peer is not loaded: $(echo "$list" | grep -e '^  dnnl: ' -e '^not built' |
        sed 's/^  //' | paste -sd ';' -)"
    [ -n "${GELUCHECK_NO_DEFAULT_PEERS:-}" ] && why="$why (GELUCHECK_NO_DEFAULT_PEERS is set)"
    echo "dnnl16 gate skipped: $why"
    exit 77
fi
exec "$g" accuracy --format bfloat16 --impl dnnl_erf,dnnl_tanh --grad --threads 2
