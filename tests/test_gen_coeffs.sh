#!/bin/sh
# tools/gen_coeffs.sh --check catches a committed coefficient header that is not what its Sollya
# script generates: one hex digit planted in a copy of impls/vf_exp_coeffs.h (the smallest
# script) is named with exit 1; the untouched copy passes; bad usage is exit 2.
# Usage: test_gen_coeffs.sh SOURCE_ROOT
set -u
root=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect STATUS TEXT ARGS...: exit status STATUS and TEXT in the output
    want=$1 text=$2
    shift 2
    "$root/tools/gen_coeffs.sh" "$@" > "$tmp/out" 2>&1
    got=$?
    if [ "$got" -ne "$want" ] || ! grep -qF -- "$text" "$tmp/out"; then
        echo "FAIL: gen_coeffs.sh $*: exit $got (want $want), output:"; cat "$tmp/out"
        echo "(wanted '$text')"
        fail=1
    fi
}
mkdir "$tmp/good" "$tmp/bad"
cp "$root/impls/vf_exp_coeffs.h" "$tmp/good/"
# the first hex float's last digit before its exponent, changed by one
sed '0,/\(0x[0-9a-f.]*[0-8]\)p/s//\1Xp/; s/0Xp/1p/; s/1Xp/2p/; s/2Xp/3p/; s/3Xp/4p/; s/4Xp/5p/; s/5Xp/6p/; s/6Xp/7p/; s/7Xp/8p/; s/8Xp/9p/' \
    "$root/impls/vf_exp_coeffs.h" > "$tmp/bad/vf_exp_coeffs.h"
if cmp -s "$tmp/good/vf_exp_coeffs.h" "$tmp/bad/vf_exp_coeffs.h"; then
    echo "FAIL: the planted change did not change the header"; exit 1
fi
expect 0 "$tmp/good/vf_exp_coeffs.h is what tools/vf_exp_coeffs.sol generates" \
    --check --against "$tmp/good" vf_exp_coeffs
expect 1 "$tmp/bad/vf_exp_coeffs.h differs from what tools/vf_exp_coeffs.sol generates" \
    --check --against "$tmp/bad" vf_exp_coeffs
expect 2 "'pw_pieces' is not a coefficient script" --check pw_pieces
expect 2 "unknown argument '--chek'" --chek
expect 2 "--against '$tmp/none': not a directory" --check --against "$tmp/none"
[ $fail -eq 0 ] && echo "gen_coeffs --check: planted difference caught, usage errors named"
exit $fail
