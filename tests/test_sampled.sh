#!/bin/sh
# Sampled is said: every verdict line says whether it covers every input of the format or a
# part, with its size. The test plugin's case "wrong" flips the forward sign at x = 1.5 alone: a
# sample of 1,000 misses it and its verdict must not read like the gate's; a range holding 1.5
# breaks the contract, judged over that range's inputs; bfloat16's scan covers all 65,536.
# Usage: test_sampled.sh GELUCHECK PLUGIN.so
set -u
. "$(dirname "$0")/lib.sh"
g=$1 plugin=$2
out=$d/out
export GELUCHECK_TEST_PLUGIN_CASE=wrong
"$g" accuracy --plugin "$plugin" --impl plug_erfc_f64 --sample 1000 --threads 2 >"$out" 2>&1
[ $? -eq 0 ] && grep -qx "every implementation meets its declared contract over 1000 of the 4294967296 binary32 inputs only (a SAMPLE or a range: not every input)" "$out" ||
    fail "a sample's verdict: $(grep -i contract "$out")"
"$g" accuracy --plugin "$plugin" --impl plug_erfc_f64 --range 1:2 --threads 2 >"$out" 2>&1
[ $? -eq 1 ] && grep -q "^CONTRACT BROKEN .*0x1.8p+0.*; judged over 8388609 of the 4294967296 binary32 inputs only (a SAMPLE or a range: not every input)$" "$out" ||
    fail "a range's broken verdict: $(grep -i contract "$out")"
unset GELUCHECK_TEST_PLUGIN_CASE
"$g" accuracy --format bfloat16 --impl cr_bfloat16 --threads 2 >"$out" 2>&1
[ $? -eq 0 ] && grep -qx "every implementation meets its declared contract over all 65536 bfloat16 inputs" "$out" ||
    fail "bfloat16's verdict: $(grep -i contract "$out")"
"$g" accuracy --format binary64 --impl erfc_libm --sample 1000 --threads 2 >"$out" 2>&1
grep -q "declared contract over a SAMPLE of [0-9]* binary64 inputs (not every input)$" "$out" ||
    fail "binary64's verdict: $(grep -i contract "$out")"
[ $fails -eq 0 ] || exit 1
