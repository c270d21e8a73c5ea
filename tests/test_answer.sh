#!/bin/sh
# The answer from the command line, on tests/fixtures/answer (test_answer.c says what it holds:
# pw_fast and pw_fast_avx512 the fastest rows, 16,780,000 ULP off in the tail): pick without a
# need judges by the stated default and never chooses them; --platform all prints the matrix;
# --json writes it as data; markdown --answer renders it. Usage: test_answer.sh GELUCHECK
set -u
. "$(dirname "$0")/lib.sh"
g=$1
fx=$(dirname "$0")/fixtures/answer
out=$d/out err=$d/err

# pick without a need: the default, said so, and never a pw_fast row, on every platform
for p in generic x86-64-v2 x86-64-v3 x86-64-v4 host; do
    "$g" pick --results "$fx" --platform $p >"$out" 2>"$err"
    st=$?
    grep -qF 'no need given: judging by the default need, "Exact GELU, ≤ 1 ULP, monotone"' "$out" ||
        fail "pick --platform $p without a need does not say it judges by the default: $(cat "$out")"
    if [ $st -ne 0 ] || grep -q '^choice: pw_fast' "$out" || ! grep -q '^choice: ' "$out"; then
        fail "pick --platform $p without a need: status $st, $(grep '^choice' "$out")"
    fi
done
# the plant is live: the need that admits the tail (within 4e-7) chooses pw_fast_avx512 on v4
"$g" pick --results "$fx" --platform x86-64-v4 --max-abs 4e-7 >"$out" 2>"$err"
grep -q '^choice: pw_fast_avx512,' "$out" || fail "pick --max-abs 4e-7 on v4: $(grep '^choice' "$out")"
# x ReLU against the platform's ReLU: erfc_accurate_avx2 on v3 is 0.8 / 0.06 ns (relu_avx2)
"$g" pick --results "$fx" --platform x86-64-v3 >"$out" 2>"$err"
grep -qF "13.3 x relu_avx2 (x86-64-v3's ReLU)" "$out" || fail "x ReLU on v3: $(grep speed "$out")"
# sampled binary32 figures are marked as such
grep -qF "SAMPLED: 1000000 of 4294967296 inputs" "$out" || fail "pick does not mark a sample: $(cat "$out")"

# an Arm platform on x86-64 rows only: nothing fits, each row refused as another machine's build,
# the estimate named as the speed's source; a truncated estimates file is an error naming its line
"$g" pick --results "$fx" --platform armv8-a >"$out" 2>"$err"
st=$?
[ $st -eq 1 ] && grep -q "a build for x86-64, which armv8-a (AArch64) does not run" "$out" &&
    grep -q "speed estimated (llvm-mca, model CortexA57, for neoverse-n1)" "$out" ||
    fail "pick --platform armv8-a on x86-64 rows: status $st, $(cat "$out" "$err")"
printf 'impl,cpu,model,rthroughput_cycles_per_element\ncr_neon,neoverse-n1,CortexA57,3' >"$d/est.csv"
"$g" pick --results "$fx" --platform armv8-a --estimates "$d/est.csv" >"$out" 2>"$err"
st=$?
[ $st -eq 1 ] && grep -qF "$d/est.csv:2: truncated: the last line has no end" "$err" ||
    fail "a truncated estimates file: status $st, $(cat "$err")"

# --need K and its conflicts
"$g" pick --results "$fx" --platform x86-64-v2 --need 2 >"$out" 2>"$err"
grep -q '^choice: pw_fast,' "$out" || fail "pick --need 2 on v2: $(grep '^choice' "$out")"
for args in "--need 9" "--need 0" "--need 2 --max-ulp 1"; do
    # shellcheck disable=SC2086
    "$g" pick --results "$fx" --platform host $args >"$out" 2>"$err"
    [ $? -eq 2 ] && [ ! -s "$out" ] || fail "pick $args: not a usage error: $(cat "$err")"
done

# --platform all: the matrix (every need x every platform) and the answer as data
"$g" pick --results "$fx" --platform all --json "$d/answer.json" >"$out" 2>"$err" ||
    fail "pick --platform all: status $?: $(cat "$err")"
[ "$(grep -c '^need [0-9]' "$out")" -eq 4 ] || fail "the matrix has not 4 needs: $(cat "$out")"
[ "$(grep -c '^  x86-64-v3 ' "$out")" -eq 4 ] || fail "the matrix has not 4 v3 cells: $(cat "$out")"
grep -q '^  x86-64-v2  erfc_f64 .* 20x relu;' "$out" || fail "v2 default cell: $(cat "$out")"
[ -s "$d/answer.json.manifest.json" ] || fail "pick --json wrote no manifest beside the answer"
grep -q '"schema": 1' "$d/answer.json" || fail "answer.json has no schema: $(head -3 "$d/answer.json")"
if command -v python3 >/dev/null; then # an independent reader: every cell's fields
    python3 - "$d/answer.json" <<'EOF' || fail "answer.json does not hold its schema"
import json, sys
a = json.load(open(sys.argv[1]))
assert a["schema"] == 1 and a["format"] == "binary32" and a["size"] == "l2"
assert a["coverage"] == {"inputs": 1000000, "encodings": 4294967296, "all": False}
assert [n["default"] for n in a["needs"]] == [True, False, False, False]
plats = [p["name"] for p in a["platforms"]]
assert plats == ["generic", "x86-64-v2", "x86-64-v3", "x86-64-v4", "host"], plats
assert [p["relu"] for p in a["platforms"][:4]] == ["relu", "relu", "relu_avx2", "relu_avx512f"]
assert len(a["cells"]) == 4 * 5
fields = {"name", "target", "ns_per_element", "x_relu", "estimated_cycles_per_element", "max_ulp",
          "max_abs", "mean_ulp_normal",
          "cr_fraction", "own_max_ulp", "grad_max_ulp", "mono_violations", "inputs",
          "measured_under"}
for c in a["cells"]:
    assert (c["choice"] is not None) == (c["fits"] > 0), c
    assert (c["runner_up"] is not None) == (c["fits"] > 1), c
    for k in ("choice", "runner_up"):
        assert c[k] is None or set(c[k]) == fields, c[k]
    if c["need"] == 0:
        assert not c["choice"]["name"].startswith("pw_fast"), c
v3 = [c for c in a["cells"] if c["need"] == 0 and c["platform"] == "x86-64-v3"][0]
assert v3["choice"]["name"] == "erfc_accurate_avx2" and v3["choice"]["max_ulp"] == 0.634
assert abs(v3["choice"]["x_relu"] - 0.8 / 0.06) < 1e-12
EOF
fi

# markdown --answer: need x platform, pasted into the README unedited
"$g" markdown --answer "$d/answer.json" >"$out" 2>"$err" || fail "markdown --answer: $(cat "$err")"
head -1 "$out" | grep -qF "| need | x86-64-v2<br>(none) | x86-64-v3<br>(avx2,fma) | x86-64-v4<br>" ||
    fail "markdown --answer header: $(head -1 "$out")"
[ "$(grep -c '^| ' "$out")" -eq 5 ] || fail "markdown --answer: not a header and 4 needs: $(cat "$out")"
"$g" markdown --answer "$d/answer.json" "$fx" >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF -- "--answer is a table of its own" "$err" || fail "markdown --answer DIR: $(cat "$err")"
"$g" markdown --answer "$fx/accuracy.csv" >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF "not JSON" "$err" || fail "markdown --answer on a CSV: $(cat "$err")"

# markdown --answer on framework rows whose paths differ (planted into pick's answer, which
# knows no paths: "framework_paths": null): the sentence, the row, how many, the worst path
grep -q '"framework_paths": null' "$d/answer.json" || fail "pick's answer.json: framework_paths not null"
grep -q "depends on how you call it" "$out" && fail "markdown --answer without paths speaks of them"
plant() { # JSON: answer.json with framework_paths JSON, into $d/planted.json
    sed "s/\"framework_paths\": null/\"framework_paths\": $1/" "$d/answer.json" >"$d/planted.json"
}
plant '[{"row": "torch_gelu", "paths": 3, "differ": 2, "differing": "size1, compile", "worst_path": "size1"}, {"row": "tf_gelu", "paths": 2, "differ": 0, "differing": "", "worst_path": "the batch path"}]'
"$g" markdown --answer "$d/planted.json" >"$out" 2>"$err" || fail "markdown --answer, paths planted: $(cat "$err")"
grep -qF '**The GELU you get depends on how you call it**' "$out" ||
    fail "markdown --answer: no 'depends on how you call it': $(cat "$out")"
grep -qxF -- '- `torch_gelu`: 2 of its 3 paths differ from the batch path (size1, compile); worst path: size1' "$out" ||
    fail "markdown --answer: torch_gelu's paths: $(grep torch_gelu "$out")"
grep -q 'tf_gelu' "$out" && fail "markdown --answer names tf_gelu, whose paths agree: $(cat "$out")"
plant '[{"row": "tf_gelu", "paths": 2, "differ": 0, "differing": "", "worst_path": "the batch path"}]'
"$g" markdown --answer "$d/planted.json" >"$out" 2>"$err" || fail "markdown --answer, agreeing paths: $(cat "$err")"
grep -q "depends on how you call it" "$out" && fail "markdown --answer: paths that agree said to differ"
grep -qF "The frameworks' paths scanned (1 row) gave their rows' GELU" "$out" ||
    fail "markdown --answer: agreeing paths not said: $(tail -3 "$out")"
plant '[{"row": "torch_gelu", "paths": 1, "differ": 2, "differing": "size1", "worst_path": "size1"}]'
"$g" markdown --answer "$d/planted.json" >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF 'counts out of range' "$err" || fail "markdown --answer, differ > paths: $(cat "$err")"

[ $fails -eq 0 ] || exit 1
