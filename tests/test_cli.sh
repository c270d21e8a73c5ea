#!/bin/sh
# The command line: bad input gives exit status 2 and a message naming the bad value on
# stderr with nothing on stdout; good input gives the documented CSV. Usage: test_cli.sh GELUCHECK
set -u
g=$1
fails=0
out=$(mktemp) err=$(mktemp) scratch=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$scratch"' EXIT


# expect_usage_error NEEDLE ARGS...: exit 2, NEEDLE on stderr, empty stdout
expect_usage_error() {
    needle=$1; shift
    "$g" "$@" >"$out" 2>"$err"
    st=$?
    if [ $st -ne 2 ] || ! grep -qF -- "$needle" "$err" || [ -s "$out" ]; then
        echo "FAIL: gelucheck $*: status $st, stderr: $(cat "$err"), stdout: $(head -c 200 "$out")"
        fails=$((fails + 1))
    fi
}

# expect_output_error NEEDLE ARGS...: exit 1 (an output that cannot be written), NEEDLE on
# stderr, nothing on stdout (found before any work)
expect_output_error() {
    needle=$1; shift
    "$g" "$@" >"$out" 2>"$err"
    st=$?
    if [ $st -ne 1 ] || ! grep -qF -- "$needle" "$err" || [ -s "$out" ]; then
        echo "FAIL: gelucheck $*: status $st, stderr: $(cat "$err"), stdout: $(head -c 200 "$out")"
        fails=$((fails + 1))
    fi
}

expect_usage_error "'frobnicate'" frobnicate
expect_usage_error "'nope'" eval --impl nope 1
expect_usage_error "'1.2.3'" eval --impl erfc_f64 1.2.3
expect_usage_error "'1e39'" eval --impl erfc_f64 1e39
expect_usage_error "'1e-60'" eval --impl erfc_f64 1e-60
expect_usage_error "--impl" eval --impl
expect_usage_error "bad --cover 'most': full, quick or paths" accuracy --cover most
expect_usage_error "--cover and --range exclude each other" accuracy --cover quick --range 0:1
expect_usage_error "--cover scans in one process: not with --shard" accuracy --cover quick --shard 1/2
expect_usage_error "does not apply" accuracy --format binary16 --cover quick
expect_usage_error "missing --impl" eval 1
expect_usage_error "no inputs" eval --impl erfc_f64
expect_usage_error "'--bogus'" eval --impl erfc_f64 --bogus 1
expect_usage_error "'wrong'" eval --impl erfc_f64 --against wrong 1
expect_usage_error "'extra'" list extra
expect_usage_error "'--bogus'" moons --bogus
expect_usage_error "'0'" moons --seeds 0
expect_usage_error "'ten'" moons --seeds ten
expect_usage_error "'-3'" moons --epochs -3
expect_usage_error "'-0.1'" moons --noise -0.1
expect_usage_error "'nan'" moons --noise nan
expect_usage_error "'abc'" moons --noise abc
expect_usage_error "'5'" moons --samples 5
expect_usage_error "'0'" moons --first-seed 0
expect_usage_error "'nope'" moons --impl nope
expect_usage_error "'0'" moons --threads 0
expect_usage_error "'2x'" moons --threads 2x
expect_usage_error "--csv" moons --csv

expect_usage_error "'l3'" bench --size l3
expect_usage_error "'0'" bench --size l1,0
expect_usage_error "'2000000000'" bench --size 2000000000
expect_usage_error "'-3'" bench --threads -3
expect_usage_error "'0'" bench --threads 0
expect_usage_error "'1.5'" bench --threads 1.5
expect_usage_error "'abc'" bench --seed abc
expect_usage_error "'gamma'" bench --dist normal,gamma
expect_usage_error "'nope'" bench --impl erfc_f64,nope
expect_usage_error "'--bogus'" bench --bogus
expect_usage_error "--size" bench --size
csvdir=$scratch/bench
mkdir "$csvdir"
expect_output_error "'$csvdir/missing/b.csv'" bench --size 16 --quick --csv "$csvdir/missing/b.csv"


# Help for each subcommand, exit 0: the subcommands as the binary lists them (main.c's table),
# each also named in `gelucheck --help`; the list has the commands this script exercises.
commands=$("$g" --list-commands)
for c in list eval accuracy merge moons bench report pick compare markdown; do
    echo "$commands" | grep -qx "$c" || { echo "FAIL: --list-commands lacks $c: $commands"; fails=$((fails + 1)); }
done
# The format table as the docs print it (--list-formats) names the formats --format takes
formats=$("$g" --list-formats | sed -n 's/^| `\([a-z0-9]*\)` .*/\1/p' | tr '\n' '|')
[ "${formats%|}" = "$("$g" accuracy --help | sed -n 's/^F: //p')" ] ||
    { echo "FAIL: --list-formats '$formats' against accuracy --help's F"; fails=$((fails + 1)); }
"$g" --help >"$scratch/help" 2>&1
for c in "" $commands; do
    # shellcheck disable=SC2086
    if ! "$g" $c --help >"$out" 2>"$err" || ! grep -q usage "$out"; then
        echo "FAIL: gelucheck $c --help"; fails=$((fails + 1))
    fi
    [ -z "$c" ] || grep -q "^  $c " "$scratch/help" || { echo "FAIL: gelucheck --help lacks $c"; fails=$((fails + 1)); }
done

# Negative numbers as plain arguments, hex floats, the CSV header; Done-when figures of the
# foundation issue: erf_naive is > 10^6 ULP off at -10, erfc_f64 within 0.5 ULP.
"$g" eval --impl erf_naive -10 >"$out" 2>"$err"
if [ "$(head -1 "$out")" != "x,y,ref,ulp_error,abs_error" ] ||
   ! awk -F, 'NR==2 && $1=="-0x1.4p+3" && $4 > 1e6 {ok=1} END {exit !ok}' "$out"; then
    echo "FAIL: eval erf_naive -10: $(cat "$out" "$err")"; fails=$((fails + 1))
fi
"$g" eval --impl erfc_f64 -0x1.4p+3 >"$out" 2>"$err"
if ! awk -F, 'NR==2 && $4 <= 0.5 {ok=1} END {exit !ok}' "$out"; then
    echo "FAIL: eval erfc_f64 -10: $(cat "$out" "$err")"; fails=$((fails + 1))
fi
"$g" list >"$out" 2>"$err"
for name in erf_naive erfc_libm erfc_f64 tanh_libm sigmoid relu; do
    grep -q "^$name " "$out" || { echo "FAIL: list lacks $name"; fails=$((fails + 1)); }
done
# the table's columns line up: every row's "available" value starts where its header does
# (AVX-512 rows need a wider "needs" column than the others)
awk 'NR == 1 {col = index($0, " available ") + 1; next}
     NF == 0 {exit}
     { v = substr($0, col, 4); if (v != "yes " && v != "no  ") {print "row " NR ": " $0; bad = 1} }
     END {exit bad}' "$out" || { echo "FAIL: list columns misaligned"; fails=$((fails + 1)); }


# accuracy and merge: bad input, and 4 shards merging to exactly the unsharded CSV.
# an option where a value belongs is refused, not taken as the value (it was written to a
# file named --grad, and --grad dropped)
expect_usage_error "option --csv needs a value, but the next argument is the option '--grad'" \
    accuracy --sample 10 --csv --grad
[ -e ./--grad ] && { echo "FAIL: a file named --grad was written"; fails=$((fails + 1)); rm -f ./--grad; }
expect_usage_error "'1:x'" accuracy --range 1:x
expect_usage_error "'2:1'" accuracy --range 2:1
expect_usage_error "'0'" accuracy --sample 0
expect_usage_error "'0'" accuracy --threads 0
expect_usage_error "'5/4'" accuracy --shard 5/4 --partial /tmp/x
expect_usage_error "'nope'" accuracy --impl erfc_f64,nope
expect_usage_error "needs --shard" accuracy --partial /tmp/x
# a part gated on its own: its inputs only, said so
expect_usage_error "holds no input" accuracy --impl erfc_f64 --range 1:1.0001 --shard 2/4
"$g" accuracy --impl erfc_f64 --range 1:1.01 --shard 2/4 >"$out" 2>"$err" &&
    grep -q "^part 2/4 of the domain: 20480 inputs" "$out" ||
    { echo "FAIL: accuracy --shard 2/4 without --partial: $(cat "$out" "$err")"; fails=$((fails + 1)); }
expect_usage_error "exclude" accuracy --range 1:2 --sample 5
expect_usage_error "no partial" merge
# Issue 11: an empty domain (items 7), messages that name the bad thing and why (12), empty list
# elements, duplicates and repeated single-valued options (13): exit 2 before any work.
expect_usage_error "bad --range '0:-0': empty" accuracy --impl erfc_f64 --range 0:-0
expect_usage_error "empty --impl" accuracy --impl ""
expect_usage_error "LO: overflows binary32" accuracy --range "$(printf '1%.0s' $(seq 70)):2"
expect_usage_error "'relu' approximates relu, which has no MPFR reference" eval --impl relu 0
expect_usage_error "bad --size ',,': element 1 is empty" bench --size ,,
expect_usage_error "bad --impl ',,': element 1 is empty" bench --impl ,,
expect_usage_error "bad --impl 'relu,': element 2 is empty" bench --impl relu,
expect_usage_error "'erfc_f64' is given twice" bench --impl erfc_f64,erfc_f64
expect_usage_error "--impl 'erfc_f64' is given twice" bench --impl erfc_f64 --impl erfc_f64
expect_usage_error "--impl 'erfc_f64' is given twice" accuracy --impl erfc_f64,tanh --impl erfc_f64
expect_usage_error "--impl 'relu' is given twice" moons --impl relu --impl relu
expect_usage_error "option --seed is given twice" bench --seed 1 --seed 2
expect_usage_error "option --csv is given twice" accuracy --csv=a --csv b
expect_usage_error "option --platform is given twice" pick --platform host --platform generic
expect_usage_error "option --out is given twice" report --out a --out b
dir=$scratch/accuracy
mkdir "$dir"
range="-0x1.9p-1:-0x1.7p-1"
# (exit status 0 or 1: the gate's verdict on a range is not what is tested here)
"$g" accuracy --impl erfc_f64,tanh_libm --grad --range "$range" --csv "$dir/whole.csv" >"$out" 2>"$err"
[ $? -le 1 ] && [ -s "$dir/whole.csv" ] || { echo "FAIL: accuracy --range: $(cat "$out" "$err")"; fails=$((fails + 1)); }
for k in 1 2 3 4; do
    "$g" accuracy --impl erfc_f64,tanh_libm --grad --range "$range" --shard $k/4 \
        --partial "$dir/p$k" >"$out" 2>"$err" || { echo "FAIL: shard $k: $(cat "$err")"; fails=$((fails + 1)); }
done
"$g" merge --csv "$dir/merged.csv" "$dir/p1" "$dir/p2" "$dir/p3" "$dir/p4" >"$out" 2>"$err"
[ $? -le 1 ] || { echo "FAIL: merge: $(cat "$out" "$err")"; fails=$((fails + 1)); }
cmp -s "$dir/whole.csv" "$dir/merged.csv" || { echo "FAIL: merged CSV differs from unsharded"; fails=$((fails + 1)); }
# the same where every output is trivially right (x past GELU's upper threshold: the near-tie
# lists hold errors from |f(-x)| there, above the computed maxima; a partial of such a shard was
# refused on reading back)
"$g" accuracy --impl erfc_f64,pw_accurate --grad --range 16:17 --csv "$dir/trivial.csv" >/dev/null 2>&1
for k in 1 2; do
    "$g" accuracy --impl erfc_f64,pw_accurate --grad --range 16:17 --shard $k/2 --partial "$dir/t$k" \
        >/dev/null 2>"$err" || { echo "FAIL: trivial shard $k: $(cat "$err")"; fails=$((fails + 1)); }
done
"$g" merge --csv "$dir/trivial_merged.csv" "$dir/t1" "$dir/t2" >/dev/null 2>"$err" &&
    cmp -s "$dir/trivial.csv" "$dir/trivial_merged.csv" ||
    { echo "FAIL: trivial range merged: $(cat "$err")"; fails=$((fails + 1)); }
expect_usage_error "given twice" merge "$dir/p1" "$dir/p1" "$dir/p2" "$dir/p3"
expect_usage_error "shard 4/4 missing" merge "$dir/p1" "$dir/p2" "$dir/p3"
expect_usage_error "shards 1/4, 3/4 missing" merge "$dir/p2" "$dir/p4"
# An edited shard index is refused by name (issue 11: shard 5/3 used to write out of bounds),
# and so is one flipped bit in the data (the checksum).
sed 's|^shard=2/4$|shard=5/4|' "$dir/p2" >"$dir/p2.edited"
expect_usage_error "key 'shard': '5/4'" merge "$dir/p1" "$dir/p2.edited" "$dir/p3" "$dir/p4"
sed 's|^shard=2/4$|shard=99999999/4|' "$dir/p2" >"$dir/p2.edited"
expect_usage_error "key 'shard': '99999999/4'" merge "$dir/p2.edited"
cp "$dir/p3" "$dir/p3.flipped"
size=$(wc -c <"$dir/p3")
byte=$(od -An -tu1 -j $((size - 100)) -N1 "$dir/p3")
printf "\\$(printf %03o $(((byte ^ 4) & 255)))" |
    dd of="$dir/p3.flipped" bs=1 seek=$((size - 100)) conv=notrunc 2>/dev/null
cmp -s "$dir/p3" "$dir/p3.flipped" && { echo "FAIL: no bit flipped"; fails=$((fails + 1)); }
expect_usage_error "checksum mismatch" merge "$dir/p1" "$dir/p2" "$dir/p3.flipped" "$dir/p4"
echo garbage >"$dir/bad"
expect_usage_error "not a gelucheck partial" merge "$dir/bad"
# An unwritable CSV fails before the scan and leaves nothing behind.
"$g" accuracy --impl relu --range 1:2 --csv /nonexistent/dir/a.csv >"$out" 2>"$err"
if [ $? -ne 1 ] || ! grep -q "/nonexistent/dir/a.csv" "$err"; then
    echo "FAIL: unwritable --csv: $(cat "$err")"; fails=$((fails + 1))
fi
# moons: a tiny run prints the tables and writes the CSV (one row per seed and implementation:
# silu, plus the reference and relu that always run, over 2 seeds), nothing on stderr when it is
# not a terminal; an unwritable CSV path fails with status 1 and leaves no temporary file.
csv=$(mktemp -d)
"$g" moons --seeds 2 --epochs 2 --samples 100 --impl silu --csv "$csv/m.csv" >"$out" 2>"$err"
st=$?
if [ $st -ne 0 ] || [ -s "$err" ] || ! grep -q "^silu " "$out" || ! grep -q "^Note:" "$out" ||
   [ "$(head -1 "$csv/m.csv")" != "seed,impl,target,train_loss,val_acc,test_acc,test_loss,seconds,swap_test_acc,swap_max_logit_change" ] ||
   [ "$(wc -l <"$csv/m.csv")" -ne 7 ]; then
    echo "FAIL: moons tiny run: status $st, $(cat "$err") $(head -c 300 "$out")"; fails=$((fails + 1))
fi
"$g" moons --seeds 1 --epochs 1 --samples 100 --impl silu --csv "$csv/none/m.csv" >"$out" 2>"$err"
st=$?
if [ $st -ne 1 ] || ! grep -qF "$csv/none/m.csv" "$err" || [ -n "$(ls "$csv" | grep -v -e '^m.csv$' -e '^m.csv.manifest.json$')" ]; then
    echo "FAIL: moons unwritable csv: status $st, $(cat "$err")"; fails=$((fails + 1))
fi
rm -rf "$csv"
# A tiny benchmark run writes the documented CSV: the baseline first, then every implementation
# this CPU runs, ratios positive. Timings themselves are not checked (shared, noisy machine).
header="size,n,dist,seed,threads,rounds,calls,impl,target,features,ns_per_element_median,"
header="${header}ns_per_element_q1,ns_per_element_q3,elements_per_s,gb_per_s,ratio_to_baseline,baseline,timed,format,fpenv,"
header="${header}ratio_rounds,ref_cycles_per_element_median,tsc_hz"
csv="$csvdir/bench.csv"
if ! "$g" bench --size 64 --quick --csv "$csv" >"$out" 2>"$err" ||
   [ "$(head -1 "$csv")" != "$header" ] || ! grep -q '^baseline: *relu' "$out"; then
    echo "FAIL: bench --size 64 --quick: $(cat "$err") $(head -3 "$csv" 2>/dev/null)"
    fails=$((fails + 1))
fi
# reference cycles = ns x tsc_hz (to the fields' 6 digits), where the CPU has a TSC
awk -F, 'NR == 2 && $8 != $17 {bad = 1} NR > 1 && (!($16 > 0) || $19 != "binary32" || $20 != "ieee") {bad = 1}
         NR > 1 && $23 != "" && ($22 / ($11 * $23 * 1e-9) < 0.9999 || $22 / ($11 * $23 * 1e-9) > 1.0001) {bad = 1}
         END {exit bad || NR < 3}' "$csv" ||
    { echo "FAIL: bench CSV rows: $(cat "$csv")"; fails=$((fails + 1)); }
"$g" list | awk 'NR > 1 && $4 == "yes" {print $1}' | while read -r name; do
    grep -q ",$name," "$csv" || echo "FAIL: bench CSV lacks $name"
done | grep FAIL && fails=$((fails + 1))
ls "$csvdir" | grep -q tmp && { echo "FAIL: bench left a temporary file"; fails=$((fails + 1)); }


# report and pick: bad arguments (exit 2, the bad value named, nothing written).
expect_output_error "'$scratch/no/such/dir'" report --quick --out "$scratch/no/such/dir"
# issue 11, item 12: messages that say why
expect_output_error "'/proc' exists but the file system there does not allow creating 'x'" report --quick --out /proc/x
expect_output_error "cannot write '$scratch': it is a directory" report --quick --out "$scratch/never" --json "$scratch"
expect_output_error "File name too long" accuracy --impl erfc_f64 --sample 10 --csv "$(printf 'a%.0s' $(seq 4080))"
expect_output_error "the file name is empty" bench --csv ""
expect_usage_error "'--bogus'" report --bogus
expect_usage_error "'0'" report --threads 0
expect_usage_error "missing --platform" pick --max-ulp 2
expect_usage_error "'x86-64-v9'" pick --platform x86-64-v9
expect_usage_error "'-1'" pick --platform host --max-ulp -1
expect_usage_error "'abc'" pick --platform host --max-abs abc
expect_usage_error "'nan'" pick --platform host --grad-max-ulp nan
expect_usage_error "'-2'" pick --platform host --own-max-ulp -2
expect_usage_error "'silu'" pick --platform host --target silu
expect_usage_error "'l3'" pick --platform host --size l3
expect_usage_error "'--fast'" pick --platform host --fast
[ -e "$scratch/no" ] && { echo "FAIL: report --out with a missing parent created something"; fails=$((fails + 1)); }

# pick on the committed fixture results: a deterministic choice, the tie rule, nothing fits.
# pick takes only implementations of this build (with their targets and features), so the
# fixture's made-up names become registry names of the same standing (tie_a < tie_b by name).
fixtures=$scratch/pick
mkdir "$fixtures"
for f in accuracy.csv bench.csv; do
    sed -e 's/fast_v4/pw_fast_avx512/; s/avx512f+avx2+fma/fma+avx512f+avx512dq+avx512bw+avx512vl/' \
        -e 's/tie_a/erf_naive/; s/tie_b/erfc_libm/; s/tie_c/erfc_f64/; s/nonmono/as7126/' \
        -e 's/tanhy/tanh_avx2/; s/relu_base/relu/g' "$(dirname "$0")/fixtures/pick/$f" >"$fixtures/$f"
done
# expect_pick STATUS NEEDLE ARGS...
expect_pick() {
    want=$1 needle=$2; shift 2
    "$g" pick --results "$fixtures" "$@" >"$out" 2>"$err"
    st=$?
    if [ $st -ne "$want" ] || ! grep -qF -- "$needle" "$out"; then
        echo "FAIL: pick $*: status $st (want $want), stdout: $(cat "$out") stderr: $(cat "$err")"
        fails=$((fails + 1))
    fi
}
expect_pick 0 "choice: pw_fast_avx512," --platform x86-64-v4 --max-ulp 2 --monotone
expect_pick 0 "choice: erfc_f64," --platform x86-64-v3 --max-ulp 2 --monotone
expect_pick 0 "needs avx512f,avx512dq,avx512bw,avx512vl, which x86-64-v3 lacks" --platform x86-64-v3 --max-ulp 2 --monotone
expect_pick 0 "choice: erf_naive," --platform generic --max-ulp 1 --size l1
expect_pick 1 "nothing fits" --platform generic --max-ulp 0.1
expect_pick 0 "choice: tanh_avx2," --platform host --target tanh
expect_pick 1 "max ULP vs own target 2 > 1.5" --platform host --target tanh --own-max-ulp 1.5
expect_pick 0 "choice: as7126," --platform generic --correctly-rounded
# Issue 11, item 6: pick validates what it reads (exit 2: the file, the line, the column) and
# refuses a manifest schema it does not know (naming both versions).
# a pick that cannot be printed (item 8)
"$g" pick --results "$fixtures" --platform host >/dev/full 2>"$err"
[ $? -eq 1 ] && grep -q "cannot write standard output" "$err" ||
    { echo "FAIL: pick >/dev/full: $(cat "$err")"; fails=$((fails + 1)); }
# expect_pick_refuses NEEDLE FILE SED-SCRIPT: FILE edited by the script is refused
expect_pick_refuses() {
    needle=$1 file=$2 script=$3
    rm -rf "$scratch/badpick"
    cp -r "$fixtures" "$scratch/badpick"
    sed "$script" "$fixtures/$file" >"$scratch/badpick/$file"
    "$g" pick --results "$scratch/badpick" --platform host >"$out" 2>"$err"
    st=$?
    if [ $st -ne 2 ] || ! grep -qF -- "$needle" "$err" || [ -s "$out" ]; then
        echo "FAIL: pick on $file edited by '$script': status $st, stderr: $(cat "$err")"
        fails=$((fails + 1))
    fi
}
expect_pick_refuses "accuracy.csv:2: column 'impl': 'made_up' is not an implementation of this build" \
    accuracy.csv '2s/^pw_fast_avx512,/made_up,/'
expect_pick_refuses "bench.csv:3: column 'impl': 'made_up' is not an implementation" \
    bench.csv '3s/,pw_fast_avx512,/,made_up,/'
expect_pick_refuses "accuracy.csv:3: column 'max_ulp': 'nan' is not a number" \
    accuracy.csv '3s/,1000,1,0x1p+0,/,1000,nan,0x1p+0,/'
expect_pick_refuses "accuracy.csv:2: column 'cr_fraction': '1.5' is not a number from 0 to 1" \
    accuracy.csv '2s/,900,0.9,/,900,1.5,/'
expect_pick_refuses "bench.csv:2: column 'size': 'l3'" bench.csv '2s/^l2,/l3,/'
expect_pick_refuses "bench.csv:4: column 'ns_per_element_median': 'inf'" bench.csv '4s/,none,2,/,none,inf,/'
expect_pick_refuses "bench.csv:3: column 'features': 'none', but pw_fast_avx512 needs" \
    bench.csv '3s/fma+avx512f+avx512dq+avx512bw+avx512vl/none/'
expect_pick_refuses "accuracy.csv:3: 17 fields where the header has 18" accuracy.csv '3s/,pass,0,0,800$/,pass,0,800/'
expect_pick_refuses "accuracy.csv:4: a second row for erfc_libm" accuracy.csv '4s/^erf_naive,/erfc_libm,/'
expect_pick_refuses "accuracy.csv:2: column 'target': 'tanh', but pw_fast_avx512's target" \
    accuracy.csv '2s/,exact,own,/,tanh,own,/'
# an accuracy.csv that is a directory: named, and why (it was "is empty")
rm -rf "$scratch/badpick" && mkdir -p "$scratch/badpick/accuracy.csv" && cp "$fixtures/bench.csv" "$scratch/badpick/"
"$g" pick --results "$scratch/badpick" --platform host >"$out" 2>"$err"
[ $? -eq 1 ] && grep -qF "accuracy.csv': Is a directory" "$err" ||
    { echo "FAIL: pick with accuracy.csv a directory: $(cat "$err")"; fails=$((fails + 1)); }
rm -rf "$scratch/badpick" && mkdir "$scratch/badpick"
cp "$fixtures/accuracy.csv" "$fixtures/bench.csv" "$scratch/badpick/"
# results of another build are said to be so (a manifest of commit 9401ba8, another CPU)
cp "$(dirname "$0")/fuzz/corpus/manifest/good.json" "$scratch/badpick/manifest.json"
"$g" pick --results "$scratch/badpick" --platform host >"$out" 2>"$err"
[ $? -eq 0 ] && grep -qF "measured by gelucheck 0.1.0 (commit 9401ba8); this is gelucheck" "$err" ||
    { echo "FAIL: pick on another build's results: $(cat "$err")"; fails=$((fails + 1)); }
printf '{"schema": 2}\n' >"$scratch/badpick/manifest.json"
"$g" pick --results "$scratch/badpick" --platform host >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF "manifest schema 2, this gelucheck reads schema 1" "$err" ||
    { echo "FAIL: pick with a schema 2 manifest: $(cat "$err")"; fails=$((fails + 1)); }

# pick --format (issue 15): within a 16-bit format, from its accuracy_<format>.csv. The fixture
# plants pw_fast as accurate and fast but not monotone, erfc_libm with its contract broken (out
# with --contract-kept), and binary32 speeds in bench.csv (cr fastest) that a bfloat16 pick must
# not use; bench_bfloat16.csv then gives bfloat16 speeds (pw_fast, erfc_libm, cr, cr_bfloat16).
pick16=$scratch/pick16
mkdir "$pick16"
cp "$(dirname "$0")/fixtures/pick16/accuracy_bfloat16.csv" "$(dirname "$0")/fixtures/pick16/bench.csv" "$pick16/"
# expect_pick16 STATUS NEEDLE ARGS...: pick --format bfloat16 --platform generic on $pick16
expect_pick16() {
    want=$1 needle=$2; shift 2
    "$g" pick --results "$pick16" --format bfloat16 --platform generic "$@" >"$out" 2>"$err"
    st=$?
    if [ $st -ne "$want" ] || ! grep -qF -- "$needle" "$out"; then
        echo "FAIL: pick --format bfloat16 $*: status $st (want $want), stdout: $(cat "$out") stderr: $(cat "$err")"
        fails=$((fails + 1))
    fi
}
expect_pick16 0 "no bfloat16 speed figures in $pick16/" --monotone
expect_pick16 0 "choice: cr_bfloat16, the most accurate of the 3" --monotone
expect_pick16 0 "pw_fast                           - ns/elem  3 monotonicity violations" --monotone
expect_pick16 0 "erfc_libm                         - ns/elem  breaks its own contract" --monotone --contract-kept
cp "$(dirname "$0")/fixtures/pick16/bench_bfloat16.csv" "$pick16/"
expect_pick16 0 "choice: erfc_libm, the fastest of the 3" --monotone
expect_pick16 0 "choice: cr, the fastest of the 2" --monotone --contract-kept
expect_pick16 0 "bench_bfloat16.csv's bfloat16 rows" --monotone
expect_pick16 0 "choice: cr_bfloat16, the fastest of the 1" --monotone --correctly-rounded --contract-kept
expect_pick16 0 "choice: pw_fast," --max-ulp 0.5
expect_usage_error "unknown --format 'binary8'" pick --platform host --format binary8
# pick --format binary64: within binary64, from accuracy_binary64.csv (a sample, which the
# output says) and bench_binary64.csv. The fixture (tests/fixtures/pick): sigmoid fastest at l2
# but 9e15 ULP from exact GELU, erfc_libm 1535 ULP and next, tanh_libm 1800 ULP and slowest;
# no row within 1 ULP.
pick64=$scratch/pick64
mkdir "$pick64"
cp "$(dirname "$0")/fixtures/pick/accuracy_binary64.csv" "$(dirname "$0")/fixtures/pick/bench_binary64.csv" "$pick64/"
# expect_pick64 STATUS NEEDLE ARGS...: pick --format binary64 --platform generic on $pick64
expect_pick64() {
    want=$1 needle=$2; shift 2
    "$g" pick --results "$pick64" --format binary64 --platform generic "$@" >"$out" 2>"$err"
    st=$?
    if [ $st -ne "$want" ] || ! grep -qF -- "$needle" "$out"; then
        echo "FAIL: pick --format binary64 $*: status $st (want $want), stdout: $(cat "$out") stderr: $(cat "$err")"
        fails=$((fails + 1))
    fi
}
expect_pick64 1 "accuracy SAMPLED, not exhaustive: 1000 inputs per implementation"
expect_pick64 1 "nothing fits; the closest:" # the default need: within 1 ULP, monotone
expect_pick64 0 "choice: sigmoid, the fastest of the 3" --max-abs 1
expect_pick64 0 "choice: erfc_libm, the fastest of the 2" --max-ulp 2000
expect_pick64 0 "(SAMPLED: 1000 inputs; ULPs of binary64)" --max-ulp 2000
expect_pick64 0 "choice: tanh_libm, the fastest of the 1" --target tanh
expect_pick64 1 "nothing fits; the closest:" --max-ulp 1
expect_pick64 1 "erfc_libm                       7.5 ns/elem  max ULP vs exact GELU 1535 > 1" --max-ulp 1
# binary64's bench rows must have binary64's element counts (l2: 65536, half binary32's)
sed 's/^l2,65536,/l2,131072,/' "$(dirname "$0")/fixtures/pick/bench_binary64.csv" >"$pick64/bench_binary64.csv"
"$g" pick --results "$pick64" --format binary64 --platform generic >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF "bench_binary64.csv:6: column 'n': 131072, but size l2 is 65536 elements in binary64" "$err" ||
    { echo "FAIL: pick --format binary64 with binary32's l2 count: $(cat "$out" "$err")"; fails=$((fails + 1)); }
# bench --format binary64: binary64's rows only, their names looked up in its list; --csv rows
# of format binary64 at binary64's element counts (l1: 512), the baseline binary64's ReLU, GB/s
# from 16 bytes per element (8 read, 8 written)
"$g" bench --format binary64 --impl erfc_libm --size l1 --quick --csv "$scratch/b64.csv" >"$out" 2>"$err" &&
    grep -q '^format:    binary64, 16 bytes per element' "$out" &&
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
             { rows++; if ($c["n"] != 512 || $c["size"] != "l1" || $c["format"] != "binary64") bad++
               if (rows == 1 && $c["impl"] != $c["baseline"]) bad++
               if (rows == 2 && $c["impl"] != "erfc_libm") bad++
               if ($c["baseline"] !~ /^relu/) bad++
               b = $c["gb_per_s"] * $c["ns_per_element_median"]; if (b < 15.999 || b > 16.001) bad++ }
             END { exit !(rows == 2 && !bad) }' "$scratch/b64.csv" ||
    { echo "FAIL: bench --format binary64 --csv: $(cat "$scratch/b64.csv" "$err")"; fails=$((fails + 1)); }
# bench --format binary64: binary64's rows only, their names looked up in its list
expect_usage_error "'erf_naive' has no binary64 implementation" bench --format binary64 --impl erf_naive
# binary64 is sampled by accuracy only: eval refuses it with the reason
expect_usage_error "--format binary64 is not evaluated here" eval --format binary64 --impl erfc_libm 1
expect_usage_error "--format binary64 scans a sample: --range does not apply" accuracy --format binary64 --sample 10 --range 1:2
expect_usage_error "--format binary64 scans a sample: --shard does not apply" accuracy --format binary64 --shard 1/2
expect_usage_error "unknown implementation 'erf_naive' for --format binary64" accuracy --format binary64 --impl erf_naive
# binary32's pick refuses 16-bit rows (they are in their own file, accuracy_<format>.csv)
cp "$pick16/accuracy_bfloat16.csv" "$pick16/accuracy.csv"
"$g" pick --results "$pick16" --platform generic >"$out" 2>"$err"
[ $? -eq 2 ] && grep -qF "accuracy.csv:2: column 'format': a bfloat16 row where binary32 rows are read" "$err" ||
    { echo "FAIL: binary32 pick of bfloat16 rows: $(cat "$out" "$err")"; fails=$((fails + 1)); }

# A quick report: every file, the CSV headers, one accuracy row per scanned implementation, a
# well-formed self-contained page with the make_moons section; then pick reads it.
# No frameworks' environment (XDG_CACHE_HOME elsewhere): the report names them as left out.
rep=$scratch/report
XDG_CACHE_HOME=$scratch/no_frameworks "$g" report --quick --out "$rep" --exec-timeout 59 \
    --json "$scratch/answer-copy.json" >"$out" 2>"$err"
st=$?
# --json: the same answer as answer.json, with its manifest beside it
cmp -s "$rep/answer.json" "$scratch/answer-copy.json" && [ -s "$scratch/answer-copy.json.manifest.json" ] ||
    { echo "FAIL: report --json did not write answer.json's answer: $(ls "$scratch")"; fails=$((fails + 1)); }
check=$(dirname "$0")/left_out_check.sh
mkdir -p "$scratch/planted_left_out"
cp "$rep/index.html" "$rep/bench.csv" "$rep/accuracy.csv" "$scratch/planted_left_out/"
sed 's/jax_gelu_tanh, //' "$rep/answer.json" >"$scratch/planted_left_out/answer.json"
sed 's/, ort_ms_fastgelu//' "$out" >"$scratch/planted_left_out/console"
found=$(sh "$check" "$scratch/planted_left_out" "$scratch/planted_left_out/console")
[ "$found" = "left out, not named: answer.json console:ort_ms_fastgelu" ] ||
    { echo "FAIL: the left-out check on planted omissions: '$found'"; fails=$((fails + 1)); }
found=$(sh "$check" "$rep" "$out") ||
    { echo "FAIL: report --quick without frameworks: $found"; fails=$((fails + 1)); }
for f in accuracy.csv ranges.csv ulp_by_x.csv bench.csv moons.csv index.html manifest.json answer.json; do
    [ -s "$rep/$f" ] || { echo "FAIL: report --quick (status $st) lacks $f: $(tail -3 "$err")"; fails=$((fails + 1)); }
done
[ $st -le 1 ] || { echo "FAIL: report --quick status $st"; fails=$((fails + 1)); }
# the answer's capped runs: oneDNN's rows, measured here on an AVX-512 path, again under
# DNNL_MAX_CPU_ISA=AVX2 for x86-64-v3 (reports/capped.h)
if grep -q '^dnnl_erf,.*,avx512_core' "$rep/accuracy.csv"; then
    grep -q '^dnnl_erf,.*,avx2,' "$rep/accuracy_cap_DNNL_MAX_CPU_ISA_AVX2.csv" &&
        grep -q '"cap": "DNNL_MAX_CPU_ISA=AVX2", "implementations": "dnnl_erf,dnnl_tanh"' "$rep/answer.json" ||
        { echo "FAIL: report --quick made no capped run of oneDNN: $(ls "$rep")"; fails=$((fails + 1)); }
fi
# the manifest records the real argv, the options every command takes included (no prefix of
# another command)
grep -qF "\"command\": \"$g report --quick --out $rep --exec-timeout 59 --json $scratch/answer-copy.json\"," "$rep/manifest.json" ||
    { echo "FAIL: report's manifest: $(grep '"command"' "$rep/manifest.json")"; fails=$((fails + 1)); }
# The report's files are report --list-outputs' list (reports/report_files.c): every file of the
# directory matches a listed name (F: each format the list names), every listed file written
# always or per format is there; shown to catch a planted unlisted file and a missing one.
"$g" report --list-outputs >"$scratch/outputs.md"
report_files_check() { # DIR: prints "unlisted NAME" and "missing NAME" lines
    awk -F'|' -v dir="$1" '
        /^F: / { sub(/^F: /, ""); sub(/\.$/, ""); nf = split($0, fmts, ", "); next }
        /^\| `/ { n++; name[n] = $2; when[n] = $3; gsub(/[` ]/, "", name[n]); gsub(/^ +| +$/, "", when[n]) }
        END {
            for (i = 1; i <= n; i++) {
                k = split(name[i], alts, ",")
                for (a = 1; a <= k; a++) {
                    if (index(alts[a], "F") && when[i] == "per format F")
                        for (f = 1; f <= nf; f++) { p = alts[a]; sub(/F/, fmts[f], p); print p, when[i] }
                    else print alts[a], when[i]
                }
            }
        }' "$scratch/outputs.md" >"$scratch/outputs.names"
    ls -A "$1" | while read -r f; do
        listed=0
        while read -r pat when; do
            # shellcheck disable=SC2254
            case $f in $pat) listed=1 ;; esac
        done <"$scratch/outputs.names"
        [ $listed = 1 ] || echo "unlisted $f"
    done
    while read -r pat when; do
        case $pat in *'*'*) continue ;; esac
        [ "$when" = "with --baseline" ] || [ -e "$1/$pat" ] || echo "missing $pat"
    done <"$scratch/outputs.names"
}
found=$(report_files_check "$rep")
[ -z "$found" ] || { echo "FAIL: report --quick against report --list-outputs: $found"; fails=$((fails + 1)); }
[ "$(grep -c . "$scratch/outputs.names")" -ge 21 ] || # 14 rows, F three formats, plots two patterns
    { echo "FAIL: report --list-outputs read as $(cat "$scratch/outputs.names")"; fails=$((fails + 1)); }
cp -r "$rep" "$scratch/rep_planted" && touch "$scratch/rep_planted/extra.csv" && rm "$scratch/rep_planted/ranges.csv"
found=$(report_files_check "$scratch/rep_planted" | sort | tr '\n' ' ')
[ "$found" = "missing ranges.csv unlisted extra.csv " ] ||
    { echo "FAIL: the report files check on a planted extra.csv and a removed ranges.csv: '$found'"; fails=$((fails + 1)); }
rm -rf "$scratch/rep_planted"
# where the time went: every section in the order it ran, then the total, which is at least
# their sum (the sections are laps of one clock) less the rounding of the printed values (0.05 s
# each, sections and total: a fixed 0.2 failed at sum 26.2, total 25.9 with 16 sections), and
# the binary32 scan's kernels alone
awk '/^where the time went:/ {on = 1; next}
     on && $1 == "total" {total = $(NF - 1); done = 1; on = 0; next}
     /^the binary32 scan.s kernels alone: [0-9.]+ thread s, [0-9.]+ s of wall on [0-9]+ threads?: the scan [0-9.]+x that, the whole job [0-9.]+x$/ {kernels = 1}
     on && $1 != "section" {names = names "|" substr($0, 1, 40); sum += $(NF - 1); n++}
     END {
         gsub(/ +\|/, "|", names); sub(/ +$/, "", names)
         want = "|binary32: scan (--quick sample)|binary32: table and files|binary32: benchmark|make_moons|binary32: read back, plots, baseline|answer: capped runs, answer.json|bfloat16: scan|bfloat16: benchmark|bfloat16: read back, plots|binary16: scan|binary16: benchmark|binary16: read back, plots|e4m3: scan|e4m3: benchmark|e4m3: read back, plots|e5m2: scan|e5m2: benchmark|e5m2: read back, plots|binary64: scan (sampled)|binary64: benchmark|binary64: read back, plots|ftz,daz|page, publishing"
         if (!done || !kernels || names != want || sum > total + 0.05 * (n + 1) + 1e-9 || total <= 0)
             { print "FAIL: report --quick time table: " names " (sum " sum ", total " total ")"; exit 1 }
     }' "$out" || fails=$((fails + 1))
# the report ends with the answer: after the time table, every need x every platform
awk '/^where the time went:/ {on = 1} on && /^the answer \(binary32; / {answer = 1}
     answer && /^need [0-9]+: / {needs++} answer && /^  (generic|x86-64-v2|x86-64-v3|x86-64-v4|host) / {cells++}
     END { if (!answer || needs < 4 || cells != 5 * needs) { print "FAIL: report --quick does not end with the answer: " needs " needs, " cells " cells"; exit 1 } }' "$out" ||
    fails=$((fails + 1))
head -1 "$rep/accuracy.csv" | grep -q "^impl,format,target,reference,direction,inputs,max_ulp,.*,contract,benchdnn_failed,xnnpack_failed,xnnpack_checked,normal_mean_ulp,.*,uniform_max_abs,dispatched_isa,ulp_0," ||
    { echo "FAIL: accuracy.csv header: $(head -1 "$rep/accuracy.csv")"; fails=$((fails + 1)); }
[ "$(head -1 "$rep/ulp_by_x.csv")" = "impl,reference,direction,x_lo,x_hi,max_ulp,max_abs" ] ||
    { echo "FAIL: ulp_by_x.csv header"; fails=$((fails + 1)); }
# moons.csv: the quick experiment (3 seeds) over the scanned implementations, as moons --csv.
[ "$(head -1 "$rep/moons.csv")" = "seed,impl,target,train_loss,val_acc,test_acc,test_loss,seconds,swap_test_acc,swap_max_logit_change" ] ||
    { echo "FAIL: moons.csv header: $(head -1 "$rep/moons.csv")"; fails=$((fails + 1)); }
scanned=$(grep -c ',own,forward,' "$rep/accuracy.csv")
[ "$(wc -l <"$rep/moons.csv")" -eq $((1 + 3 * scanned)) ] ||
    { echo "FAIL: moons.csv has $(wc -l <"$rep/moons.csv") lines for $scanned implementations"; fails=$((fails + 1)); }
for needle in '<h2 id="moons">' '<b>Conclusion</b>' 'Bonferroni threshold' 'Inference swap' 'moons.csv'; do
    grep -qF "$needle" "$rep/index.html" || { echo "FAIL: index.html lacks $needle"; fails=$((fails + 1)); }
done
"$g" list | awk 'NR > 1 && $4 == "yes" {print $1}' | grep -v _omp | while read -r name; do
    grep -q "^$name,binary32,[a-z]*,own,forward," "$rep/accuracy.csv" || echo "FAIL: accuracy.csv lacks $name"
    grep -q ",$name," "$rep/bench.csv" || echo "FAIL: bench.csv lacks $name"
    grep -q "<b>$name</b>" "$rep/index.html" || echo "FAIL: index.html lacks $name"
done | grep FAIL && fails=$((fails + 1))
python3 - "$rep/index.html" <<'PY' || fails=$((fails + 1))
import re, sys, xml.etree.ElementTree as ET
text = open(sys.argv[1], encoding="utf-8").read()
try:
    ET.fromstring(text)
except ET.ParseError as e:
    sys.exit(f"FAIL: index.html is not well-formed: {e}")
bad = re.findall(r"https?://|\bsrc=|<link|url\((?!#)", text)  # url(#id): inside the page
if bad:
    sys.exit(f"FAIL: index.html references something external: {bad[:3]}")
if text.count("<script") != 1:
    sys.exit("FAIL: index.html should have exactly one inline script (the table sort)")
PY
# The 16-bit formats' sections: each format's files (its scan, its benchmark, bench --format
# F's columns and rows of F only, its baseline the widened ReLU), its section and summary table
# on the page, its plots' scripts (and SVGs where gnuplot is installed).
for f16 in bfloat16 binary16; do
    for f in accuracy_$f16.csv ulp_by_x_$f16.csv bench_$f16.csv ${f16}_pareto.gp ${f16}_ulp_by_x.gp ${f16}_not_cr.gp; do
        [ -s "$rep/$f" ] || { echo "FAIL: report --quick lacks $f"; fails=$((fails + 1)); }
    done
    head -1 "$rep/bench_$f16.csv" | grep -q ',format,fpenv,ratio_rounds,ref_cycles_per_element_median,tsc_hz$' &&
        [ "$(tail -n +2 "$rep/bench_$f16.csv" | grep -vc ",$f16,ieee,[0-9.e;+-]*,[0-9.e+-]*,[0-9.e+-]*\$")" -eq 0 ] &&
        grep -q "^l2,.*,cr_$f16,exact," "$rep/bench_$f16.csv" ||
        { echo "FAIL: bench_$f16.csv: $(head -3 "$rep/bench_$f16.csv")"; fails=$((fails + 1)); }
    [ "$(grep -c ",$f16,[a-z]*,own,forward," "$rep/accuracy_$f16.csv")" -eq $((scanned + 1)) ] ||
        { echo "FAIL: accuracy_$f16.csv has not the $scanned implementations widened and cr_$f16"; fails=$((fails + 1)); }
    for needle in "<h3 id=\"$f16\">$f16</h3>" "id=\"summary-$f16\"" "<b>cr_$f16</b>" "<code>bench_$f16.csv</code>"; do
        grep -qF "$needle" "$rep/index.html" || { echo "FAIL: index.html lacks $needle"; fails=$((fails + 1)); }
    done
    if command -v gnuplot >/dev/null; then
        grep -qF "<figure id=\"${f16}_not_cr\">" "$rep/index.html" && [ -s "$rep/${f16}_pareto.svg" ] ||
            { echo "FAIL: report --quick lacks the $f16 plots"; fails=$((fails + 1)); }
    fi
done
# binary64's section: its sampled scan's file (every binary64 row, forward and derivative, of
# format binary64), the page's section saying it is sampled and how many inputs
grep -q "^erfc_libm,binary64,exact,own,derivative," "$rep/accuracy_binary64.csv" &&
    [ "$(tail -n +2 "$rep/accuracy_binary64.csv" | grep -vc '^[a-z0-9_]*,binary64,')" -eq 0 ] ||
    { echo "FAIL: accuracy_binary64.csv: $(head -3 "$rep/accuracy_binary64.csv")"; fails=$((fails + 1)); }
grep -q '<h2 id="binary64">binary64: a sample</h2>' "$rep/index.html" &&
    grep -q '<p><b>Sampled, not exhaustive: [0-9]* inputs (20000 draws, seed 1' "$rep/index.html" ||
    { echo "FAIL: index.html lacks binary64's sampled section"; fails=$((fails + 1)); }
# The ftz,daz section: its file (the scanned implementations, forward and derivative, fpenv
# ftz+daz in every row) and the page's section saying what it covered
[ "$(grep -c ',binary32,[a-z]*,own,forward,.*,ftz+daz,' "$rep/accuracy_ftz_daz.csv")" -eq "$scanned" ] &&
    grep -q '^cr,binary32,exact,own,derivative,' "$rep/accuracy_ftz_daz.csv" ||
    { echo "FAIL: accuracy_ftz_daz.csv: $(head -3 "$rep/accuracy_ftz_daz.csv")"; fails=$((fails + 1)); }
grep -q '<h2 id="ftz_daz">ftz,daz (FTZ+DAZ)</h2>' "$rep/index.html" &&
    grep -q '<b>Covered: one input in 61 (and the ends) of \[-0x1.cp+6, -0x1.2p+3\]' "$rep/index.html" ||
    { echo "FAIL: index.html lacks the ftz,daz section"; fails=$((fails + 1)); }
# its benchmark (bench --format binary64 --quick: l1 and l2 at binary64's counts, every row of
# format binary64, against the binary64 ReLU), its summary table with speed, its plots
for f in ulp_by_x_binary64.csv bench_binary64.csv binary64_pareto.gp binary64_ulp_by_x.gp; do
    [ -s "$rep/$f" ] || { echo "FAIL: report --quick lacks $f"; fails=$((fails + 1)); }
done
[ ! -e "$rep/binary64_not_cr.gp" ] || { echo "FAIL: report --quick drew binary64_not_cr"; fails=$((fails + 1)); }
[ "$(tail -n +2 "$rep/bench_binary64.csv" | grep -vc ',binary64,ieee,[0-9.e;+-]*,[0-9.e+-]*,[0-9.e+-]*$')" -eq 0 ] &&
    grep -q '^l1,512,normal,.*,erfc_libm,exact,.*,relu[a-z0-9_]*,host,binary64,ieee,[0-9.e;+-]*,[0-9.e+-]*,[0-9.e+-]*$' "$rep/bench_binary64.csv" &&
    grep -q '^l2,65536,normal,.*,relu,relu,' "$rep/bench_binary64.csv" ||
    { echo "FAIL: bench_binary64.csv: $(head -3 "$rep/bench_binary64.csv")"; fails=$((fails + 1)); }
for needle in 'id="summary-binary64"' "<code>bench_binary64.csv</code>" "binary64's own ReLU" "8 bytes read and 8 written per element"; do
    grep -qF "$needle" "$rep/index.html" || { echo "FAIL: index.html lacks $needle"; fails=$((fails + 1)); }
done
if command -v gnuplot >/dev/null; then
    grep -qF '<figure id="binary64_pareto">' "$rep/index.html" && grep -qF '<figure id="binary64_ulp_by_x">' "$rep/index.html" &&
        [ -s "$rep/binary64_pareto.svg" ] ||
        { echo "FAIL: report --quick lacks the binary64 plots"; fails=$((fails + 1)); }
fi
"$g" pick --results "$rep" --format binary64 --platform host --max-ulp 4000 >"$out" 2>"$err" &&
    grep -qF "accuracy SAMPLED, not exhaustive: " "$out" && grep -q "^choice: " "$out" ||
    { echo "FAIL: pick --format binary64 on the quick report: $(cat "$out" "$err")"; fails=$((fails + 1)); }
# The widened bfloat16 conversions: AVX-512 BF16's around the AVX-512 builds where the CPU has
# it (list says which path), the portable ones with GELUCHECK_NO_BF16=1: the same scan of every
# input of those builds, forward and derivative, byte for byte (bites: without the fix-up of
# binary32 subnormals, pw_fast_avx512's forward row differs, 64852 correctly rounded, not 65265).
"$g" list >"$out" 2>&1
if grep -A1 '^widened bfloat16 conversions' "$out" | grep -q '^  avx512_bf16 (vcvtneps2bf16) around the AVX-512 builds'; then
    avx512_rows=$(awk '$1 ~ /_avx512f?$/ { print $1 }' "$out" | paste -sd, -)
    "$g" accuracy --format bfloat16 --impl "$avx512_rows" --grad --csv "$scratch/bf16_native.csv" >/dev/null 2>"$err" &&
        GELUCHECK_NO_BF16=1 "$g" accuracy --format bfloat16 --impl "$avx512_rows" --grad \
            --csv "$scratch/bf16_portable.csv" >/dev/null 2>>"$err" &&
        [ "$(wc -l <"$scratch/bf16_native.csv")" -gt 8 ] &&
        cmp "$scratch/bf16_native.csv" "$scratch/bf16_portable.csv" >>"$err" 2>&1 ||
        { echo "FAIL: bfloat16 scan of $avx512_rows: avx512_bf16 and portable conversions differ: $(cat "$err")"; fails=$((fails + 1)); }
    GELUCHECK_NO_BF16=1 "$g" list 2>&1 | grep -A1 '^widened bfloat16 conversions' | grep -q '^  portable (GELUCHECK_NO_BF16 set)' ||
        { echo "FAIL: list with GELUCHECK_NO_BF16=1 does not name the portable path"; fails=$((fails + 1)); }
else
    echo "cli: no avx512_bf16 path here ($(grep -A1 '^widened bfloat16 conversions' "$out" | tail -1)): its scan not compared"
fi
# The widened binary16 conversions the same way: AVX-512 FP16's around the AVX-512 builds where
# the CPU has it, F16C's with GELUCHECK_NO_FP16=1 (tests/test_format_paths.c holds
# the conversions themselves to the portable ones). The switch is named
# by list on any CPU.
if grep -A1 '^widened binary16 conversions' "$out" | grep -q '^  avx512_fp16 (vcvtph2psx, vcvtps2phx) around the AVX-512 builds'; then
    avx512_rows=$(awk '$1 ~ /_avx512f?$/ { print $1 }' "$out" | paste -sd, -)
    "$g" accuracy --format binary16 --impl "$avx512_rows" --grad --csv "$scratch/b16_native.csv" >/dev/null 2>"$err" &&
        GELUCHECK_NO_FP16=1 "$g" accuracy --format binary16 --impl "$avx512_rows" --grad \
            --csv "$scratch/b16_f16c.csv" >/dev/null 2>>"$err" &&
        [ "$(wc -l <"$scratch/b16_native.csv")" -gt 8 ] &&
        cmp "$scratch/b16_native.csv" "$scratch/b16_f16c.csv" >>"$err" 2>&1 ||
        { echo "FAIL: binary16 scan of $avx512_rows: avx512_fp16 and f16c conversions differ: $(cat "$err")"; fails=$((fails + 1)); }
else
    echo "cli: no avx512_fp16 path here ($(grep -A1 '^widened binary16 conversions' "$out" | tail -1)): its scan not compared"
fi
GELUCHECK_NO_FP16=1 "$g" list 2>&1 | grep -A1 '^widened binary16 conversions' | grep -q 'no avx512_fp16 path: GELUCHECK_NO_FP16 set)$' ||
    { echo "FAIL: list with GELUCHECK_NO_FP16=1 does not name the switch"; fails=$((fails + 1)); }
# pick --format chooses within the format from the report's files: cr_F is the only correctly
# rounded one, ranked by F's own benchmark
for f16 in bfloat16 binary16; do
    "$g" pick --platform host --format $f16 --correctly-rounded --results "$rep" >"$out" 2>"$err"
    st=$?
    if [ $st -ne 0 ] || ! grep -q "^choice: cr_$f16, the fastest of the 1 " "$out" ||
       ! grep -qF "($rep/bench_$f16.csv's $f16 rows)" "$out"; then
        echo "FAIL: pick --format $f16 on the quick report: status $st: $(cat "$out" "$err")"; fails=$((fails + 1))
    fi
done
ls -a "$rep" | grep -q staging && { echo "FAIL: report left its staging directory"; fails=$((fails + 1)); }
# A run killed midway leaves the previous report as it was.
cp "$rep/index.html" "$scratch/index.before"
cp "$rep/accuracy.csv" "$scratch/accuracy.before"
"$g" report --quick --out "$rep" >/dev/null 2>&1 &
sleep 1
if kill -TERM $! 2>/dev/null; then
    wait $!
    if ! cmp -s "$rep/index.html" "$scratch/index.before" || ! cmp -s "$rep/accuracy.csv" "$scratch/accuracy.before" ||
       [ -n "$(ls "$rep" | grep -v -e '\.csv$' -e '\.gp$' -e '\.svg$' -e '^index.html$' -e '^manifest.json$' -e '^answer.json$')" ]; then
        echo "FAIL: a killed report run changed the previous report: $(ls -a "$rep")"; fails=$((fails + 1))
    fi
else
    wait $!
fi
"$g" pick --platform host --max-ulp 2 --monotone --results "$rep" >"$out" 2>"$err"
st=$?
if [ $st -ne 0 ] || ! grep -q "^choice: " "$out" || ! grep -q "ns/element" "$out"; then
    echo "FAIL: pick on the quick report: status $st: $(cat "$out" "$err")"; fails=$((fails + 1))
fi

# compare: bad usage and unreadable sets (exit 2, named); the quick report against itself (no
# change, exit 0) and against a copy whose erfc_f64 forward max ULP is 1 larger (exit 1, named).
expect_usage_error "needs OLD and NEW" compare "$rep"
expect_usage_error "'--bogus'" compare "$rep" "$rep" --bogus
expect_usage_error "'$scratch/nothing' has no manifest.json" compare "$rep" "$scratch/nothing"
expect_usage_error "bad --baseline: '$scratch/nothing' has no manifest.json" report --quick --out "$scratch/r2" --baseline "$scratch/nothing"
"$g" compare "$rep" "$rep" --csv "$scratch/same.csv" >"$out" 2>"$err"
st=$?
if [ $st -ne 0 ] || ! grep -q " 0 regressions" "$out" || [ "$(cat "$scratch/same.csv")" != "impl,metric,old,new,change" ]; then
    echo "FAIL: compare of a report with itself: status $st: $(cat "$out" "$err")"; fails=$((fails + 1))
fi
cp -r "$rep" "$scratch/worse"
awk -F, -v OFS=, '$1 == "erfc_f64" && $4 == "own" && $5 == "forward" { $7 = $7 + 1 } { print }' \
    "$rep/accuracy.csv" >"$scratch/worse/accuracy.csv"
"$g" compare "$rep" "$scratch/worse" --csv "$scratch/worse.csv" >"$out" 2>"$err"
st=$?
if [ $st -ne 1 ] || ! grep -q "^  worse  *erfc_f64  *max ULP vs own target" "$out" ||
   ! grep -q "^erfc_f64,max ULP vs own target,.*,worse$" "$scratch/worse.csv"; then
    echo "FAIL: compare with erfc_f64 1 ULP worse: status $st: $(cat "$out" "$err")"; fails=$((fails + 1))
fi

# markdown: the README table from a results directory, rows as the fixture's figures read by
# hand (tanhy has no derivative row: its cells are dashes; its criteria are the exact row's).
mkdir -p "$scratch/md"
cp "$(dirname "$0")/fixtures/pick/accuracy.csv" "$scratch/md/"
if ! "$g" markdown "$scratch/md" >"$out" 2>"$err"; then
    echo "FAIL: markdown on the pick fixture: $(cat "$err")"; fails=$((fails + 1))
fi
for want in '| `tie_c` | exact | 0.5 (0x1p+0) | 0.5 | 6e-08 | 100.00 | 0 | 0/0 | 0.6 | 6e-08 | 0 / 0 |' \
    '| `tanhy` | tanh | 2 (0x1p+2) | 1.2e+07 | 2e-07 | 80.00 | 0 | 0/– | – | – | 3 / 700 |'; do
    grep -qxF -- "$want" "$out" || { echo "FAIL: markdown lacks the row $want: $(cat "$out")"; fails=$((fails + 1)); }
done
expect_usage_error "cannot read '$scratch/none/accuracy.csv'" markdown "$scratch/none"
expect_usage_error "'b': one directory only" markdown "$scratch/md" b
expect_usage_error "'--csv'" markdown --csv x
# markdown --format: the README's 16-bit table from planted accuracy_<format>.csv files, the
# expected rows worked out by hand from the fixture's counts (inputs - correctly_rounded, e.g.
# 65536 - 65265 = 271, 100*271/65536 = 0.4135 %): cr and pw_accurate share a row (equal cells);
# tanh is forward only; dnnl_erf is not in the binary16 file; the natives only in their format;
# ort_gelu (tanh's counts, target exact) is in both files and its client serves binary16 only
# (exec_frameworks.c), so it is native there only. Without the default peers: where oneDNN has
# a bf16 eltwise, dnnl_erf would be a bfloat16 native (peers/dnnl.c) and this table the machine's.
md16=$(dirname "$0")/fixtures/markdown16
if ! GELUCHECK_NO_DEFAULT_PEERS=1 "$g" markdown --format bfloat16,binary16 "$md16" >"$out" 2>"$err"; then
    echo "FAIL: markdown --format on the planted 16-bit files: $(cat "$err")"; fails=$((fails + 1))
fi
cat >"$scratch/md16.want" <<'WANT'
| implementation (run widened unless native) | bfloat16 forward | bfloat16 derivative | binary16 forward | binary16 derivative |
|---|---:|---:|---:|---:|
| `pw_fast` | 271 (0.414%) | 179 (0.273%) | 118 (0.18%) | 189 (0.288%) |
| `cr`, `pw_accurate` | 128 (0.195%) | 0 | 3 (0.00458%) | 0 |
| `tanh` (tanh target) | 128 (0.195%) | – | 8 (0.0122%) | – |
| `dnnl_erf` | 16,241 (24.8%) | – | – | – |
| `cr_bfloat16` (native) | 0 | 0 | – | – |
| `ort_gelu` (native in binary16) | 128 (0.195%) | – | 8 (0.0122%) | – |
| `cr_binary16` (native) | – | – | 0 | 0 |
WANT
cmp -s "$out" "$scratch/md16.want" ||
    { echo "FAIL: markdown --format bfloat16,binary16: $(diff "$scratch/md16.want" "$out")"; fails=$((fails + 1)); }
"$g" markdown --format binary16 "$md16" >"$out" 2>"$err"
[ "$(sed -n 3p "$out")" = '| `pw_fast` | 118 (0.18%) | 189 (0.288%) |' ] ||
    { echo "FAIL: markdown --format binary16: $(cat "$out" "$err")"; fails=$((fails + 1)); }
# a missing or bad 16-bit file is refused, the file (line, column) named; bad lists are usage errors
mkdir -p "$scratch/md16"
cp "$md16/accuracy_bfloat16.csv" "$scratch/md16/"
expect_usage_error "cannot read '$scratch/md16/accuracy_binary16.csv'" markdown --format bfloat16,binary16 "$scratch/md16"
sed '2s/^pw_fast,bfloat16,/pw_fast,binary16,/' "$md16/accuracy_bfloat16.csv" >"$scratch/md16/accuracy_bfloat16.csv"
expect_usage_error "$scratch/md16/accuracy_bfloat16.csv:2: column 'format': a binary16 row where bfloat16 rows are read" markdown --format bfloat16 "$scratch/md16"
awk -F, -v OFS=, 'NR == 3 { $9 = 70000 } { print }' "$md16/accuracy_bfloat16.csv" >"$scratch/md16/accuracy_bfloat16.csv"
expect_usage_error "$scratch/md16/accuracy_bfloat16.csv:3: column 'correctly_rounded': 70000 of 65536 inputs" markdown --format bfloat16 "$scratch/md16"
expect_usage_error "--format binary32 is a table of its own" markdown --format bfloat16,binary32 "$md16"
expect_usage_error "unknown --format 'binary8'" markdown --format binary8 "$md16"
expect_usage_error "'bfloat16' is given twice" markdown --format bfloat16,bfloat16 "$md16"
# markdown --format binary64: binary64's own rows (tests/fixtures/pick: 1000 sampled inputs,
# erfc_libm 727 forward correctly rounded), the header saying it is a sample and its size; alone
"$g" markdown --format binary64 "$(dirname "$0")/fixtures/pick" >"$out" 2>"$err" &&
    grep -qxF "| implementation (binary64's own) | binary64 forward (SAMPLED: 1,000 inputs) | binary64 derivative (SAMPLED: 1,000 inputs) |" "$out" &&
    grep -qxF '| `erfc_libm` | 273 (27.3%) | 300 (30%) |' "$out" &&
    grep -qxF '| `tanh_libm` (tanh target) | 283 (28.3%) | 300 (30%) |' "$out" ||
    { echo "FAIL: markdown --format binary64: $(cat "$out" "$err")"; fails=$((fails + 1)); }
expect_usage_error "--format binary64 is a table of its own" markdown --format binary64,bfloat16 "$md16"

# --format: 16-bit values only, known formats, whole-domain scans only; the widened adapter and
# the correctly rounded bfloat16 GELU at the smallest subnormal 2^-133, by hand: binary32's
# GELU(2^-133) is 2^-134, a bfloat16 tie that goes to even (0); the exact value is above it (2^-133).
expect_usage_error "0x1.19999ap+0 is not a binary16 value" eval --format binary16 --impl cr 1.1
expect_usage_error "'binary8'" eval --format binary8 --impl cr 1
expect_usage_error "'cr_bfloat16' for --format binary16" eval --format binary16 --impl cr_bfloat16 1
expect_usage_error "'binary8'" accuracy --format binary8
expect_usage_error "--sample does not apply" accuracy --format bfloat16 --sample 10
expect_usage_error "--shard does not apply" accuracy --format binary16 --shard 1/2
expect_usage_error "'nope' for --format bfloat16" accuracy --format bfloat16 --impl nope
expect_usage_error "--impl 'cr' is given twice" accuracy --format bfloat16 --impl cr --impl cr_bfloat16,cr
# A 16-bit bench.csv: every row (the widened baseline first) says its format, and GB/s counts
# the format's 4 bytes per element (2 read + 2 written), not binary32's 8.
if ! "$g" bench --format binary16 --size 64 --quick --impl cr_binary16,pw_fast --csv "$scratch/b16.csv" >"$out" 2>"$err" ||
   [ "$(head -1 "$scratch/b16.csv")" != "$header" ] ||
   ! awk -F, 'NR > 1 && ($19 != "binary16" || $15 * $11 < 3.99 || $15 * $11 > 4.01) {bad = 1}
              END {exit bad || NR != 4}' "$scratch/b16.csv"; then
    echo "FAIL: bench --format binary16 --csv: $(cat "$err" "$scratch/b16.csv" 2>/dev/null)"
    fails=$((fails + 1))
fi
expect_usage_error "give --format bfloat16" bench --impl cr_bfloat16 --quick
expect_usage_error "'binary8'" bench --format binary8
"$g" eval --format bfloat16 --impl cr 0x1p-133 >"$out" 2>"$err"
grep -q '^0x1p-133,0x0p+0,0x1p-133,' "$out" || { echo "FAIL: widened cr at 2^-133: $(cat "$out" "$err")"; fails=$((fails + 1)); }
"$g" eval --format bfloat16 --impl cr_bfloat16 0x1p-133 1 >"$out" 2>"$err"
grep -q '^0x1p-133,0x1p-133,0x1p-133,' "$out" && grep -q '^0x1p+0,0x1.aep-1,0x1.aep-1,' "$out" ||
    { echo "FAIL: cr_bfloat16 at 2^-133 and 1: $(cat "$out" "$err")"; fails=$((fails + 1)); }

# --fpenv: bad values named; the flags' reference at the inputs they touch (cr: ±0 at subnormal
# inputs and where the GELU is subnormal or flushed by x86 at 0x1.fffffep-126; pw_accurate's
# integer halving gives a subnormal where 0 is expected: 2^22 ULP); the CSV's column and the
# console's line; parts of two environments refused by merge, naming them.
expect_usage_error "'foo'" accuracy --fpenv foo
expect_usage_error "'foo'" eval --fpenv foo --impl cr 1
expect_usage_error "--fpenv ftz+daz: the bfloat16 scan" accuracy --fpenv ftz,daz --format bfloat16
"$g" eval --fpenv ftz,daz --impl cr 0x1p-140 -0x1p-140 0x1.8p-126 0x1.fffffep-126 >"$out" 2>"$err"
[ "$(tail -n +2 "$out")" = "0x1p-140,0x0p+0,0x0p+0,0,0
-0x1p-140,-0x0p+0,-0x0p+0,0,0
0x1.8p-126,0x0p+0,0x0p+0,0,0
0x1.fffffep-126,0x0p+0,0x0p+0,0,0" ] || { echo "FAIL: eval --fpenv ftz,daz cr: $(cat "$out" "$err")"; fails=$((fails + 1)); }
"$g" eval --fpenv ftz,daz --impl pw_accurate 0x1p-126 >"$out" 2>"$err"
grep -q '^0x1p-126,0x1p-127,0x0p+0,4194304,' "$out" ||
    { echo "FAIL: eval --fpenv ftz,daz pw_accurate: $(cat "$out" "$err")"; fails=$((fails + 1)); }
"$g" eval --impl cr 0x1p-140 >"$out" 2>"$err"
grep -q '^0x1p-140,0x1p-141,0x1p-141,0,0$' "$out" || { echo "FAIL: eval cr in IEEE: $(cat "$out" "$err")"; fails=$((fails + 1)); }
if ! "$g" accuracy --fpenv ftz,daz --impl cr --range -0x1p-140:0x1p-140 --csv "$scratch/ftz.csv" >"$out" 2>"$err" ||
   ! grep -q '^fpenv ftz+daz: ' "$out" ||
   ! awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "fpenv") c = i}
              NR > 1 && $c != "ftz+daz" {bad = 1} END {exit bad || !c || NR != 3}' "$scratch/ftz.csv"; then
    echo "FAIL: accuracy --fpenv ftz,daz: $(cat "$out" "$err" "$scratch/ftz.csv")"
    fails=$((fails + 1))
fi
"$g" accuracy --impl cr --range 1:1.01 --shard 1/2 --partial "$scratch/e1" >/dev/null 2>"$err" &&
"$g" accuracy --impl cr --range 1:1.01 --shard 2/2 --partial "$scratch/e2" --fpenv ftz,daz >/dev/null 2>>"$err" ||
    { echo "FAIL: partials for the fpenv merge: $(cat "$err")"; fails=$((fails + 1)); }
grep -q '^fpenv=ftz+daz$' "$scratch/e2" && ! grep -q '^fpenv=' "$scratch/e1" ||
    { echo "FAIL: the partials' fpenv key"; fails=$((fails + 1)); }
expect_usage_error "its --fpenv is ftz+daz, the other part's ieee" merge "$scratch/e1" "$scratch/e2"
expect_usage_error "'foo'" bench --fpenv foo
"$g" bench --size 64 --quick --impl pw_fast --fpenv ftz,daz --csv "$scratch/bftz.csv" >"$out" 2>"$err" &&
    grep -q '^fpenv: *ftz+daz' "$out" &&
    awk -F, 'NR > 1 && $20 != "ftz+daz" {bad = 1} END {exit bad || NR != 3}' "$scratch/bftz.csv" ||
    { echo "FAIL: bench --fpenv ftz,daz: $(cat "$err" "$scratch/bftz.csv")"; fails=$((fails + 1)); }

[ $fails -eq 0 ] && echo "cli: all checks passed"
exit $fails
