#!/bin/sh
# compare from the command line on tests/fixtures/compare (test_compare_columns.c says what it
# plants): directories of runs with accuracy.csv.manifest.json (no manifest.json) and accuracy
# CSV files are accepted; the planted 119x own-target regression is the first line; --impl
# restricts. Usage: test_compare_cli.sh GELUCHECK
set -u
. "$(dirname "$0")/lib.sh"
g=$1
fx=$(dirname "$0")/fixtures/compare
out=$d/out err=$d/err
"$g" compare "$fx/old" "$fx/new" --csv "$d/c.csv" >"$out" 2>"$err"
[ $? -eq 1 ] || fail "compare of runs: not status 1: $(cat "$out" "$err")"
sed -n 3p "$out" | grep -q "^  worse    tanh_avx2  *max abs vs own target  *5.05e-07 @ 0x1.8p+2 -> 6.03e-05 @ 0x1.8p+2  (x119.4)$" ||
    fail "the planted regression is not first: $(cat "$out")"
sed -n 2p "$d/c.csv" | grep -q "^tanh_avx2,max abs vs own target," || fail "the CSV's first change: $(cat "$d/c.csv")"
"$g" compare "$fx/old/accuracy.csv" "$fx/new/accuracy.csv" >"$out" 2>"$err"
[ $? -eq 1 ] && grep -q "4 regressions" "$out" || fail "compare of two accuracy CSV files: $(cat "$out" "$err")"
"$g" compare "$fx/old" "$fx/new" --impl erfc_f64 >"$out" 2>"$err"
[ $? -eq 1 ] && grep -q "^1 implementations compared: 1 regression " "$out" || fail "compare --impl: $(cat "$out" "$err")"
"$g" compare "$fx/old" "$fx/new" --impl nope >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF -- "--impl 'nope': in neither result set" "$err" || fail "compare --impl nope: $(cat "$err")"
cp "$fx/old/accuracy.csv" "$d/bare.csv"
"$g" compare "$d/bare.csv" "$fx/new/accuracy.csv" >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF "'$d/bare.csv' has no $d/bare.csv.manifest.json beside it" "$err" ||
    fail "an accuracy CSV without its manifest: $(cat "$err")"
[ $fails -eq 0 ] || exit 1
