#!/bin/sh
# Regenerates the coefficient headers in impls/ from their committed Sollya scripts in tools/
# (the build itself never runs Sollya: the headers are committed). Run through Meson:
#   meson compile -C build coeffs
set -eu
cd "$(dirname "$0")/.."
for script in tools/*_coeffs.sol; do
    name=$(basename "$script" .sol)
    sollya "$script" > "impls/$name.h.tmp"
    mv "impls/$name.h.tmp" "impls/$name.h"
    echo "gen_coeffs: impls/$name.h"
done
