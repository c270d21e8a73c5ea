#!/bin/sh
# Provenance that reproduces: a run with a plugin and an ISA cap in the environment records the
# real argv, the variable, the plugin's path and SHA-256 and the line that reruns it; that line,
# run from elsewhere without the variable, gives the same accuracy CSV byte for byte; pick on the
# results without the plugin names exactly what to pass. Usage: test_provenance.sh GELUCHECK
# PLUGIN.so
set -u
. "$(dirname "$0")/lib.sh"
g=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cp "$2" "$d/mine.so"
cd "$d" || exit 1
mkdir r
impls=plug_erfc_f64
"$g" list 2>/dev/null | grep -q '^dnnl_erf ' && impls=$impls,dnnl_erf
DNNL_MAX_CPU_ISA=AVX2 "$g" accuracy --plugin ./mine.so --impl "$impls" --range 1:1.01 --grad \
    --csv r/accuracy.csv >out 2>err || fail "the recorded run: status $?: $(cat err)"
m=r/accuracy.csv.manifest.json
field() { # field KEY: the value of "KEY": "..." in the manifest (no quotes inside)
    sed -n "s|^ *\"$1\": \"\\([^\"]*\\)\"[},]*\$|\\1|p" "$m" | head -1
}
[ "$(field command)" = "$g accuracy --plugin ./mine.so --impl $impls --range 1:1.01 --grad --csv r/accuracy.csv" ] ||
    fail "run.command is not the argv: $(field command)"
[ "$(field DNNL_MAX_CPU_ISA)" = AVX2 ] || fail "the cap is not recorded: $(cat "$m")"
[ "$(field ./mine.so)" = "$(sha256sum mine.so | cut -d' ' -f1)" ] || fail "the plugin's SHA-256: $(field ./mine.so)"
[ "$(field plug_erfc_f64)" = "plugin './mine.so'" ] || fail "the source of plug_erfc_f64: $(field plug_erfc_f64)"
reproduce=$(field reproduce)
[ "$reproduce" = "cd $d && DNNL_MAX_CPU_ISA=AVX2 $(field command)" ] || fail "run.reproduce: $reproduce"
case $impls in *dnnl_erf)
    grep -q '^dnnl_erf,.*,avx2,' r/accuracy.csv || fail "dnnl_erf did not run capped: $(grep ^dnnl r/accuracy.csv | head -1)"
esac

# the recorded line, from another directory and without the variable: the same CSV
mv r/accuracy.csv first.csv
(cd / && env -u DNNL_MAX_CPU_ISA sh -c "$reproduce") >out 2>err || fail "the reproduce line: status $?: $(cat err)"
cmp -s first.csv r/accuracy.csv || fail "the reproduce line gave another CSV: $(diff first.csv r/accuracy.csv | head -5)"
# the plant: the command alone, without the cap, measures another dnnl path (on a CPU past AVX2)
if case $impls in *dnnl_erf) ! grep -q '^dnnl_erf,.*,avx2,' first.csv || "$g" list 2>/dev/null | grep -q 'dispatched ISA: avx512';; *) false;; esac; then
    (env -u DNNL_MAX_CPU_ISA sh -c "$(field command)") >out 2>err
    cmp -s first.csv r/accuracy.csv && fail "without the recorded variable the CSV is the same: the test proves nothing"
fi

# pick on the results without the plugin: what to pass, from the manifest
DNNL_MAX_CPU_ISA=AVX2 "$g" bench --plugin ./mine.so --impl "$impls" --quick --size l1 --csv r/bench.csv >out 2>err ||
    fail "bench: $(cat err)"
cp first.csv r/accuracy.csv
"$g" pick --results r --platform host >out 2>err
[ $? -eq 2 ] && grep -qF "the results in r/ name 'plug_erfc_f64', of plugin './mine.so', SHA-256 $(sha256sum mine.so | cut -d' ' -f1), which is not loaded: pass --plugin ./mine.so" err ||
    fail "pick without the plugin: $(cat err)"
"$g" pick --results r --platform host --size l1 --plugin ./mine.so >out 2>err
grep -q '^choice: ' out || fail "pick with the plugin passed: $(cat out err)"
[ $fails -eq 0 ] || exit 1
