#!/bin/sh
# The scan's hot loops run in one of three builds chosen by the CPU at load time (scan/scan.c:
# SCAN_CLONES; x86-64-v4, v3, any x86-64), and each must give the same bits. This CPU runs one;
# qemu-x86_64 emulating a CPU with AVX2 and no AVX-512 (Haswell) runs the v3 build, one with
# SSE2 only (qemu64) the portable one (and the fast reference's lanes of that ISA). Two shards
# (tiny and core inputs) of five rows of every kind (correctly rounded, near ties, many ULPs),
# forward and derivative: the partial files must be byte for byte the same (the same binary
# writes them, so even the commit and checksum). Skipped (77) without qemu-x86_64 (tools/setup.sh
# installs qemu-user), off x86-64, or for a sanitizer build.
# Usage: sh tests/clones.sh path/to/gelucheck
set -eu
g=$1
[ "$(uname -m)" = x86_64 ] || { echo "clones: not x86-64: skipped"; exit 77; }
command -v qemu-x86_64 >/dev/null 2>&1 || { echo "clones: qemu-x86_64 not found (qemu-user): skipped"; exit 77; }
# ASan's shadow memory does not fit under qemu-user (the emulated process is killed): the
# sanitize setup's build skips, the plain build runs this.
if ldd "$g" 2>/dev/null | grep -q -e libasan -e libubsan; then
    echo "clones: a sanitizer build (qemu-user cannot host it): skipped"
    exit 77
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
impls=pw_accurate,cr,tanh,erfc_libm,pw_fast
run() { # run NAME K [qemu-x86_64 -cpu CPU]: shard K/65536 into $d/NAME.K
    name=$1 k=$2
    shift 2
    "$@" "$g" accuracy --grad --shard "$k/65536" --threads 1 --impl $impls \
        --partial "$d/$name.$k" >"$d/out" 2>"$d/err" || {
        echo "clones: $name, shard $k/65536 failed:"; cat "$d/err"; exit 1; }
}
for k in 20000 45000; do
    run native $k
    for cpu in Haswell qemu64; do
        run "$cpu" $k qemu-x86_64 -cpu "$cpu"
        if ! cmp -s "$d/native.$k" "$d/$cpu.$k"; then
            echo "clones: shard $k/65536: the partial file under qemu -cpu $cpu differs from this CPU's"
            exit 1
        fi
    done
done
# The comparison bites: one byte changed is caught.
cp "$d/Haswell.20000" "$d/planted"
printf 'X' | dd of="$d/planted" bs=1 seek=200 conv=notrunc 2>/dev/null
if cmp -s "$d/native.20000" "$d/planted"; then
    echo "clones: a planted difference was not caught"
    exit 1
fi
echo "clones: the portable, AVX2 and this CPU's builds gave the same partial files (2 shards)"
