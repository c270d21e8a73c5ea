#!/bin/sh
# Our vf methods' RISC-V V builds (rvv128, rvv256: impls/vf_rvv.h), cross-compiled with clang 16
# (cross/riscv64-linux-gnu.ini) and served by their exec child (cross/exec_vf.c) under
# qemu-riscv64, scanned by the host as exec rows (docs/riscv64.md):
# - on the emulated CPU, every RVV build gives its portable build's bits (exec_vf --self-check
#   at VLEN 128 and 256), and a build for a longer VLEN than the CPU's is refused;
# - over a sample, forward and derivative, each rvv128 build at VLEN 128 and each rvv256 build
#   at VLEN 256 gives rows that are those of the host's own portable build of the method to the
#   byte (the same bits give the same metrics), and the gate passes;
# - cr_tanh's and cr_sigmoid's builds are correctly rounded at every input around f's minimum,
#   where their derivative's fast path fails and the riscv64 accurate path (binary128, not the
#   x87 one their hard cases were searched for) decides;
# - a planted wrong output (the child's --wrong-at) breaks the gate at its input.
# Skipped (77) when clang 16, the riscv64 binutils, its libc or qemu-riscv64 is missing
# (tools/setup.sh installs them). The cross build is made in BUILD_DIR/riscv64, kept between runs.
# Usage: test_riscv64.sh GELUCHECK SOURCE_ROOT BUILD_DIR
set -u
g=$1 src=$2 build=$3
sysroot=/usr/riscv64-linux-gnu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cross_lib.sh"
cross_tools "$sysroot" ld-linux-riscv64-lp64d.so.1 clang-16 llvm-ar-16 riscv64-linux-gnu-ld qemu-riscv64
x=$build/riscv64
cross_build riscv64 "$src" "$x"
# qemu 7.2 aborts on a translation block that starts with a whole-register vector move
# (cross/riscv64-linux-gnu.ini): none may sit at a 4 KiB page start of the child
if command -v llvm-objdump-16 >/dev/null; then
    at=""
    for a in $(llvm-objdump-16 -d "$x/cross/exec_vf" | awk '/\tvmv[1248]r\.v/ { sub(":", "", $1); print $1 }'); do
        [ $((0x$a % 4096)) -ne 0 ] || at="$at $a"
    done
    [ -z "$at" ] || fail "a whole-register move at a page start of exec_vf (at$at), where qemu 7.2 aborts (qemu issue 1441): change the cross file's alignment"
fi
q="qemu-riscv64 -L $sysroot -cpu rv64,v=true,vext_spec=v1.0,vlen="
for vlen in 128 256; do
    $q$vlen "$x/cross/exec_vf" --self-check 5000 >"$d/out" 2>&1 ||
        fail "vector builds against portable on the emulated CPU, VLEN $vlen: $(cat "$d/out")"
done
# a build for VLEN 256 on a CPU of 128 is refused, naming both
${q}128 "$x/cross/exec_vf" cr_rvv256 </dev/null >"$d/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "cr_rvv256 needs V vectors of at least 256 bits; this CPU's are 128" "$d/out" ||
    fail "cr_rvv256 at VLEN 128: status $st: $(cat "$d/out")"

methods="erfc_accurate as7126 tanh pw_fast pw_accurate pw_precise pw_tanh cr cr_tanh cr_sigmoid"
impls=""
set --
for m in $methods; do
    set -- "$@" --exec "${m}_rvv128=${q}128 $x/cross/exec_vf ${m}_rvv128" \
        --exec "${m}_rvv256=${q}256 $x/cross/exec_vf ${m}_rvv256"
    impls="$impls,${m}_rvv128,${m}_rvv256,$m"
done
"$g" accuracy "$@" --impl "${impls#,}" --sample 10000 --grad --threads 2 --csv "$d/a.csv" \
    >"$d/out" 2>"$d/err" || fail "the RVV rows' gate: $(tail -5 "$d/out") $(cat "$d/err")"
# rows IMPL: IMPL's rows without the columns that name it (impl) or say how it was added and
# where it runs (batch_independent, dispatched_isa: probed and announced for a child only)
rows() {
    skip=$(head -1 "$d/a.csv" | tr , '\n' | grep -n -e '^batch_independent$' -e '^dispatched_isa$' |
        cut -d: -f1 | paste -sd,)
    grep "^$1," "$d/a.csv" | cut -d, -f"1,$skip" --complement
}
for m in $methods; do
    rows "$m" >"$d/plain"
    for isa in rvv128 rvv256; do
        rows "${m}_$isa" >"$d/vector"
        [ -s "$d/vector" ] && cmp -s "$d/plain" "$d/vector" ||
            fail "${m}_$isa's rows differ from $m's: $(diff "$d/plain" "$d/vector" | head -4)"
    done
done

# [-0x1.82p-1, -0x1.8p-1] holds the minimum of both forms (−0.7525, −0.7512), where the
# derivative's fast path fails at 88 (tanh) and 107 (sigmoid) of its 65,537 inputs
set --
for m in cr_tanh cr_sigmoid; do
    set -- "$@" --exec "${m}_rvv128=${q}128 $x/cross/exec_vf ${m}_rvv128"
done
"$g" accuracy "$@" --impl cr_tanh_rvv128,cr_sigmoid_rvv128 --range -0x1.82p-1:-0x1.8p-1 --grad \
    --threads 2 >"$d/out" 2>&1 || fail "cr_tanh, cr_sigmoid around the minimum: $(tail -5 "$d/out")"

"$g" accuracy --exec "cr_rvv128=${q}128 $x/cross/exec_vf cr_rvv128 --wrong-at 0x3fc00000" \
    --impl cr_rvv128 --range 1.49:1.51 --threads 2 >"$d/out" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "cr_rvv128 forward: .* at x = 0x1.8p+0 (0x3fc00000)" "$d/out" ||
    fail "planted wrong output at 1.5: status $st: $(tail -3 "$d/out")"

# --cross: the RVV rows by name, each at the VLEN its build needs (cr_rvv256 is refused at 128)
"$g" list --cross "$x" >"$d/out" 2>&1 &&
    grep -q "^  cr_rvv256  *rvv256  *ours  *-cpu rv64,v=true,vext_spec=v1.0,vlen=256$" "$d/out" ||
    fail "list --cross: $(grep -A3 '^cross build' "$d/out")"
mkdir -p "$d/r"
"$g" accuracy --cross "$x" --impl cr_rvv128,cr_rvv256,pw_fast_rvv128 --sample 2000 --grad --threads 2 \
    --csv "$d/r/accuracy.csv" >"$d/out" 2>&1 || fail "accuracy --cross: $(tail -3 "$d/out")"
# pick for rv64gcv on them: ranked by accuracy (no speed model), the VLEN-256 build not a candidate
"$g" pick --cross "$x" --results "$d/r" --platform rv64gcv >"$d/out" 2>&1 &&
    grep -q "^choice: cr_rvv128, the most accurate" "$d/out" && grep -q "speed not estimated" "$d/out" &&
    ! grep -q "cr_rvv256.*meets every" "$d/out" || fail "pick --platform rv64gcv: $(head -8 "$d/out")"

[ $fails -eq 0 ] || exit 1
echo "ok: RVV builds under qemu-riscv64 at VLEN 128 and 256"
