#!/bin/sh
# Our vf methods' AArch64 builds (NEON; SVE at 128, 256, 512 bits), cross-compiled
# (cross/aarch64-linux-gnu.ini) and served by their exec child (cross/exec_vf.c) under
# qemu-aarch64, scanned by the host as exec rows (docs/aarch64.md):
# - on the emulated CPU, every NEON and SVE build gives its portable build's bits (exec_vf
#   --self-check at each vector length);
# - over a sample, forward and derivative, each NEON and SVE-256 build's rows are those of the
#   host's own portable build of the method to the byte (the same bits give the same metrics)
#   and the gate passes;
# - cr_tanh's and cr_sigmoid's builds are correctly rounded at every input around f's minimum,
#   where their derivative's fast path fails and the AArch64 accurate path (binary128, not the
#   x87 one their hard cases were searched for) decides, and that path alone
#   (cross/exec_vf_accurate.c) at every input of a sample;
# - a planted wrong output (the child's --wrong-at) breaks the gate at its input.
# Skipped (77) when the cross compiler, its libc or qemu-aarch64 is missing (tools/setup.sh
# installs them). The cross build is made in BUILD_DIR/aarch64 and kept between runs.
# Usage: test_aarch64.sh GELUCHECK SOURCE_ROOT BUILD_DIR
set -u
g=$1 src=$2 build=$3
sysroot=/usr/aarch64-linux-gnu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cross_lib.sh"
cross_tools "$sysroot" ld-linux-aarch64.so.1 aarch64-linux-gnu-gcc qemu-aarch64
x=$build/aarch64
cross_build aarch64 "$src" "$x"
q="qemu-aarch64 -L $sysroot"
for vq in 1 2 4; do
    $q -cpu "max,sve-max-vq=$vq" "$x/cross/exec_vf" --self-check 5000 >"$d/out" 2>&1 ||
        fail "vector builds against portable on the emulated CPU, SVE at $vq·128 bits: $(cat "$d/out")"
done
run="$q -cpu max,sve-max-vq=2 $x/cross/exec_vf"

methods="erfc_accurate as7126 tanh pw_fast pw_accurate pw_precise pw_tanh cr cr_tanh cr_sigmoid"
impls=""
set --
for m in $methods; do
    set -- "$@" --exec "${m}_neon=$run ${m}_neon" --exec "${m}_sve256=$run ${m}_sve256"
    impls="$impls,${m}_neon,${m}_sve256,$m"
done
"$g" accuracy "$@" --impl "${impls#,}" --sample 20000 --grad --threads 2 --csv "$d/a.csv" \
    >"$d/out" 2>"$d/err" || fail "the NEON and SVE rows' gate: $(tail -5 "$d/out") $(cat "$d/err")"
# rows IMPL: IMPL's rows without the columns that name it (impl) or say how it was added and
# where it runs (batch_independent, dispatched_isa: probed and announced for a child only)
rows() {
    skip=$(head -1 "$d/a.csv" | tr , '\n' | grep -n -e '^batch_independent$' -e '^dispatched_isa$' |
        cut -d: -f1 | paste -sd,)
    grep "^$1," "$d/a.csv" | cut -d, -f"1,$skip" --complement
}
# same_rows A B: B's rows are A's to the byte (both present), else a failure naming B
same_rows() {
    rows "$1" >"$d/plain"
    rows "$2" >"$d/vector"
    [ -s "$d/plain" ] && [ -s "$d/vector" ] && cmp -s "$d/plain" "$d/vector" ||
        fail "$2's rows differ from $1's: $(diff "$d/plain" "$d/vector" | head -4)"
}
for m in $methods; do
    for isa in neon sve256; do same_rows "$m" "${m}_$isa"; done
done

# [-0x1.82p-1, -0x1.8p-1] holds the minimum of both forms (−0.7525, −0.7512), where the
# derivative's fast path fails at 88 (tanh) and 107 (sigmoid) of its 65,537 inputs
set --
for m in cr_tanh cr_sigmoid; do
    set -- "$@" --exec "${m}_neon=$run ${m}_neon" --exec "${m}_sve256=$run ${m}_sve256" \
        --exec "${m}_accurate_path=$run ${m}_accurate_path"
done
"$g" accuracy "$@" --impl cr_tanh_neon,cr_tanh_sve256,cr_sigmoid_neon,cr_sigmoid_sve256 \
    --range -0x1.82p-1:-0x1.8p-1 --grad --threads 2 >"$d/out" 2>&1 ||
    fail "cr_tanh, cr_sigmoid around the minimum: $(tail -5 "$d/out")"
"$g" accuracy "$@" --impl cr_tanh_accurate_path,cr_sigmoid_accurate_path --sample 20000 --grad \
    --threads 2 >"$d/out" 2>&1 || fail "the accurate paths alone: $(tail -5 "$d/out")"
# a wrong value of the accurate path is caught at its input (f(−8.25) ≈ −6e-23: the sign flipped)
# caught ROW ENCODING RANGE X: ROW served with its forward output at ENCODING sign-flipped
# breaks the gate over RANGE (exit 1), named at x = X (ENCODING)
caught() {
    "$g" accuracy --exec "$1=$run $1 --wrong-at $2" --impl "$1" --range "$3" --threads 2 >"$d/out" 2>&1
    st=$?
    [ $st -eq 1 ] && grep -q "$1 forward: .* at x = $4 ($2)" "$d/out" ||
        fail "planted wrong output of $1 at $4: status $st: $(tail -3 "$d/out")"
}
caught cr_tanh_accurate_path 0xc1040000 -8.26:-8.24 -0x1.08p+3
caught cr_neon 0x3fc00000 1.49:1.51 0x1.8p+0

# SLEEF's AArch64 builds (cross/peer_sleef.c, built where libsleef-dev:arm64 is installed): the
# gate on the sample, each row's figures those of the host's SLEEF build of the same function
# (the same bits at every sampled input), and a planted wrong output caught at its input
if $run --list | grep -q '^sleef_erfc_u15_advsimd '; then
    set --
    impls=""
    for f in sleef_erfc_u15 sleef_erf_u10; do
        set -- "$@" --exec "${f}_advsimd=$run ${f}_advsimd" --exec "${f}_sve256=$run ${f}_sve256"
        impls="$impls,${f}_advsimd,${f}_sve256,${f}_avx2"
    done
    "$g" accuracy "$@" --impl "${impls#,}" --sample 20000 --grad --threads 2 --csv "$d/a.csv" \
        >"$d/out" 2>"$d/err" || fail "SLEEF's AArch64 rows' gate: $(tail -5 "$d/out") $(cat "$d/err")"
    for f in sleef_erfc_u15 sleef_erf_u10; do
        for isa in advsimd sve256; do same_rows "${f}_avx2" "${f}_$isa"; done
    done
    caught sleef_erf_u10_sve256 0x3fc00000 1.49:1.51 0x1.8p+0
else
    echo "note: no arm64 libsleef (libsleef-dev:arm64): SLEEF's AArch64 rows not built"
fi

# oneDNN's AArch64 build (cross/peer_dnnl.c): on 256-bit SVE it runs its reference code, which
# the CSV names (dispatched_isa ref_any), and meets the x86 paths' largest bounds on the sample;
# a planted wrong output is caught at its input
if $run --list | grep -q '^dnnl_erf_aarch64 '; then
    set -- --exec "dnnl_erf_aarch64=$run dnnl_erf_aarch64" --exec "dnnl_tanh_aarch64=$run dnnl_tanh_aarch64"
    "$g" accuracy "$@" --impl dnnl_erf_aarch64,dnnl_tanh_aarch64 --sample 5000 --grad --threads 2 \
        --csv "$d/a.csv" >"$d/out" 2>"$d/err" ||
        fail "oneDNN's AArch64 rows' gate: $(tail -5 "$d/out") $(cat "$d/err")"
    col=$(head -1 "$d/a.csv" | tr , '\n' | grep -n '^dispatched_isa$' | cut -d: -f1)
    [ -n "$col" ] && [ "$(grep '^dnnl_erf_aarch64,' "$d/a.csv" | cut -d, -f"$col" | sort -u)" = ref_any ] ||
        fail "dnnl_erf_aarch64's path on 256-bit SVE: not ref_any in $(head -2 "$d/a.csv")"
    caught dnnl_tanh_aarch64 0x3fc00000 1.4999:1.5001 0x1.8p+0
else
    echo "note: no arm64 libdnnl (libdnnl2:arm64): oneDNN's AArch64 rows not built"
fi

# --cross: the cross build's rows by name, each under the CPU its ISA needs (an SVE build is
# refused on another vector length, so the 128- and 512-bit rows answering shows each got its
# own), the plain ones renamed beside the host's; a directory without a child and a child of
# this machine are refused, named
"$g" list --cross "$x" >"$d/out" 2>&1 && grep -q "^  cr_sve512  *sve512  *ours  *-cpu max,sve-max-vq=4$" "$d/out" &&
    grep -q "^  erfc_libm_aarch64  *portable  *libm_gsl " "$d/out" ||
    fail "list --cross: $(grep -A3 '^cross build' "$d/out")"
"$g" accuracy --cross "$x" --impl cr_sve128,cr_sve512,erfc_libm_aarch64 --sample 2000 --grad \
    --threads 2 >"$d/out" 2>&1 || fail "accuracy --cross: $(tail -3 "$d/out")"
# pick reads results scanned with --cross when given the same --cross (the rows they name start
# again); without it they name rows this process lacks
mkdir -p "$d/r"
"$g" accuracy --cross "$x" --impl pw_fast_neon,pw_accurate_sve256 --sample 2000 --grad --threads 2 \
    --csv "$d/r/accuracy.csv" >"$d/out" 2>&1 || fail "accuracy --cross for pick: $(tail -3 "$d/out")"
"$g" pick --cross "$x" --results "$d/r" --platform armv8.2-a+sve --max-abs 4e-7 >"$d/out" 2>&1 &&
    grep -q "^choice: pw_fast_sve256\|^choice: pw_accurate_sve256\|^choice: pw_fast_neon" "$d/out" &&
    grep -q "ESTIMATED on neoverse-v1 by llvm-mca" "$d/out" ||
    fail "pick --cross on --cross results: $(head -8 "$d/out")"
"$g" pick --results "$d/r" --platform armv8.2-a+sve --max-abs 4e-7 >"$d/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "pw_fast_neon" "$d/out" || fail "pick without --cross: status $st: $(head -3 "$d/out")"
mkdir -p "$d/host/cross"
cp "$g" "$d/host/cross/exec_vf"
"$g" list --cross "$d/host" >"$d/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "is for ELF machine 62, none of the cross machines" "$d/out" ||
    fail "--cross on a host build's child: status $st: $(cat "$d/out")"
"$g" list --cross "$d/none" >"$d/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "'$d/none': no cross build's exec child there" "$d/out" ||
    fail "--cross on a directory without a child: status $st: $(cat "$d/out")"

# a cross child that never answers --list is named within --exec-timeout, exit 2
mkdir -p "$d/hang/cross"
printf '#include <unistd.h>\nint main(void) { for (;;) pause(); }\n' >"$d/hang.c"
aarch64-linux-gnu-gcc -O2 "$d/hang.c" -o "$d/hang/cross/exec_vf" || fail "the hanging child's build"
"$g" list --cross "$d/hang" --exec-timeout 2 >"$d/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "gave no listing within its time" "$d/out" ||
    fail "--cross on a child that hangs: status $st: $(cat "$d/out")"

[ $fails -eq 0 ] || exit 1
echo "ok: NEON and SVE builds under qemu-aarch64"
