#!/bin/sh
# Regenerates the coefficient headers impls/<name>.h from their committed Sollya scripts
# tools/<name>.sol (every tools/*_coeffs.sol; the build itself never runs Sollya: the headers are
# committed). Run through Meson:
#   meson compile -C build coeffs
# Check instead of write:
#   tools/gen_coeffs.sh --check [--against DIR] [NAME...]
# generates into a temporary directory and compares each with the committed header (in DIR,
# default impls/; NAME: only those, e.g. vf_exp_coeffs): exit 0 when all are identical, 1 naming
# each one that differs (with the diff) or whose script fails, 2 for bad usage. The scripts run
# side by side (one process each). CI runs the check (.ci/run): 318 CPU s in all (`/usr/bin/time
# tools/gen_coeffs.sh --check`, without pw_precise); cr_coeffs 140,
# pw_accurate 82, pw_fast 69, gelu_tail 28, erfc_accurate 5 (`/usr/bin/time sollya
# tools/NAME.sol` each, Sapphire Rapids, cores shared with other jobs); pw_precise 150 (the
# same command on the 2-core development VM); pw_precise and pw_tanh 270 together
# (`/usr/bin/time tools/gen_coeffs.sh --check pw_precise_coeffs pw_tanh_coeffs`, same VM).
set -eu
cd "$(dirname "$0")/.."
usage() {
    echo "gen_coeffs: $1" >&2
    echo "usage: tools/gen_coeffs.sh [--check [--against DIR] [NAME...]]" >&2
    exit 2
}
check=false
against=impls
if [ "${1-}" = --check ]; then
    check=true
    shift
    if [ "${1-}" = --against ]; then
        [ $# -ge 2 ] || usage "--against needs a directory"
        [ -d "$2" ] || usage "--against '$2': not a directory"
        against=$2
        shift 2
    fi
elif [ $# -gt 0 ]; then
    usage "unknown argument '$1'"
fi
scripts=""
for name in "$@"; do
    [ -f "tools/$name.sol" ] && [ "${name%_coeffs}" != "$name" ] ||
        usage "'$name' is not a coefficient script (tools/NAME.sol, NAME ending in _coeffs)"
    scripts="$scripts tools/$name.sol"
done
[ -n "$scripts" ] || scripts=$(ls tools/*_coeffs.sol)

if ! $check; then
    for script in $scripts; do
        name=$(basename "$script" .sol)
        sollya "$script" > "impls/$name.h.tmp"
        mv "impls/$name.h.tmp" "impls/$name.h"
        echo "gen_coeffs: impls/$name.h"
    done
    exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for script in $scripts; do
    name=$(basename "$script" .sol)
    { sollya "$script" > "$tmp/$name.h" 2> "$tmp/$name.err"; echo $? > "$tmp/$name.rc"; } &
done
wait
status=0
for script in $scripts; do
    name=$(basename "$script" .sol)
    if [ "$(cat "$tmp/$name.rc")" != 0 ]; then
        echo "gen_coeffs --check: $script failed:" >&2
        cat "$tmp/$name.err" >&2
        status=1
    elif ! diff -u "$against/$name.h" "$tmp/$name.h" > "$tmp/$name.diff" 2>&1; then
        echo "gen_coeffs --check: $against/$name.h differs from what $script generates:" >&2
        cat "$tmp/$name.diff" >&2
        status=1
    else
        echo "gen_coeffs --check: $against/$name.h is what $script generates"
    fi
done
exit $status
