#!/bin/sh
# Runs every libFuzzer target (tests/fuzz) for SECONDS each (default 60) on a copy of its seed
# corpus, in a clang build with ASan + UBSan (build-fuzz/, configured when needed). A crash, a
# sanitizer report or a leak fails the run (exit 1) and leaves the input in build-fuzz/crashes.
# Every file is built with coverage instrumentation (-fsanitize=fuzzer-no-link), the targets
# linked with libFuzzer.
# Usage: tools/fuzz.sh [SECONDS]
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
./tools/setup.sh
if [ ! -f build-fuzz/build.ninja ]; then
    rm -rf build-fuzz
    CC=clang meson setup build-fuzz -Dfuzz=enabled -Dtests=disabled \
        -Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link
fi
meson compile -C build-fuzz
work=build-fuzz/fuzz-work
rm -rf "$work"
mkdir -p "$work" build-fuzz/crashes
# the partial reader accepts only this build's files: add fresh ones to the committed seeds
cp -r tests/fuzz/corpus "$work/corpus"
build-fuzz/cli/gelucheck accuracy --impl relu,erfc_f64 --grad --sample 10000 --shard 1/2 \
    --partial "$work/corpus/partial/fresh-1" >/dev/null 2>&1
build-fuzz/cli/gelucheck accuracy --impl tanh_libm --range 1:1.001 --shard 2/2 \
    --partial "$work/corpus/partial/fresh-2" >/dev/null 2>&1
failed=0
for t in partial manifest results cli plugin_description; do
    echo "fuzz_$t: $seconds s"
    if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1 \
        "build-fuzz/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -close_fd_mask=1 \
        -artifact_prefix=build-fuzz/crashes/"$t"- "$work/corpus/$t" >"$work/$t.log" 2>&1; then
        echo "fuzz_$t FAILED:"
        tail -40 "$work/$t.log"
        failed=1
    else
        tail -1 "$work/$t.log"
    fi
done
exit $failed
