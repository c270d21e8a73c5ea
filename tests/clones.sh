#!/bin/sh
# The scan's hot loops run in one of three builds chosen by the CPU at load time (impls/hot_clones.h:
# HOT_CLONES; x86-64-v4, v3, any x86-64), and each must give the same bits. This CPU runs one;
# qemu-x86_64 emulating a CPU with AVX2 and no AVX-512 (Haswell) runs the v3 build, one with
# SSE2 only (qemu64) the portable one (and the fast reference's lanes of that ISA). Four shards
# of 65,536 encodings: x in [6.7e8, 7.7e8) past the upper threshold, [-2^-32, -2^-31) in the
# micro region (fast_ref_block's loops), [1, 1.0078) in the core (the lanes), [-32, -31.5) below
# the lower threshold; of five rows of every kind (correctly rounded, near ties, many ULPs),
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
# glibc's libm chooses its FMA or plain builds of exp (and others) by the CPU too, and they can
# differ in the last place (seen in the core shard: the references' hi then differs by an ULP of
# a double, and with it the sums' last bits): the native run that qemu64's is compared with tells
# glibc not to use FMA (its own hwcaps tunable; our clones and lanes still take AVX-512).
for k in 20000 45000 16256 49664; do
    run native $k
    run native_nofma $k env GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA
    for cpu in Haswell qemu64; do
        run "$cpu" $k qemu-x86_64 -cpu "$cpu"
        ref=native
        [ "$cpu" = qemu64 ] && ref=native_nofma
        if ! cmp -s "$d/$ref.$k" "$d/$cpu.$k"; then
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
# The make_moons network's dense layers (experiments/mlp.c, HOT_CLONES too): one seed of 5
# epochs trained through pw_fast (and the baselines ReLU and the reference GELU) on each build;
# the CSVs the same but for the seconds column (a planted last-digit change is caught).
moons() { # moons NAME [qemu-x86_64 -cpu CPU]: the CSV without seconds into $d/moons.NAME
    name=$1
    shift
    "$@" "$g" moons --seeds 1 --epochs 5 --impl pw_fast --threads 1 --csv "$d/m.csv" \
        >"$d/out" 2>"$d/err" || { echo "clones: moons on $name failed:"; cat "$d/err"; exit 1; }
    cut -d, -f1-7,9- "$d/m.csv" >"$d/moons.$name"
}
moons native
for cpu in Haswell qemu64; do
    moons "$cpu" qemu-x86_64 -cpu "$cpu"
    cmp -s "$d/moons.native" "$d/moons.$cpu" ||
        { echo "clones: moons under qemu -cpu $cpu differs from this CPU's:"; diff "$d/moons.native" "$d/moons.$cpu"; exit 1; }
done
sed '2s/[0-9],/X,/' "$d/moons.Haswell" >"$d/planted"
if cmp -s "$d/moons.native" "$d/planted"; then
    echo "clones: a planted difference in the moons CSV was not caught"
    exit 1
fi
echo "clones: the portable, AVX2 and this CPU's builds gave the same partial files (4 shards) and make_moons results"
