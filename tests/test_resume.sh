#!/bin/sh
# Checkpoints and MPI ranks give the result of one uninterrupted run, to the byte:
# - a run with --checkpoint killed (SIGKILL) after 1, about half and all but a few of its chunks
#   were written, once also killed again while resuming, then resumed, writes the same CSVs;
# - a checkpoint of another run, a damaged or misplaced chunk file, a non-empty directory without
#   a checkpoint id, a file where the directory should be: refused (exit 2) naming it;
# - with MPI (MPIRUN not "none"): 2 ranks write the same CSVs, rank 1 having scanned chunks;
#   with a checkpoint left by a killed run too.
# Usage: test_resume.sh GELUCHECK MPIRUN|none FAULT_SHIM
set -u
g=$1
mpirun=$2
shim=$3
fails=0
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
run="accuracy --range 1:1.25 --grad --impl erfc_libm,pw_accurate,tanh --threads 2"
chunks=256 # 513 blocks of 4096 inputs: CHUNKS_MAX chunks

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# same NAME: NAME.csv and NAME.ranges.csv equal the uninterrupted run's
same() {
    cmp -s "$d/full.csv" "$d/$1.csv" && cmp -s "$d/full.ranges.csv" "$d/$1.ranges.csv" ||
        fail "$1: the CSVs differ from the uninterrupted run's"
}

n_chunks() { ls "$1" 2>/dev/null | grep -c '^chunk-.*\.partial$'; }

# kill_after DIR N ARGS...: runs gelucheck ARGS, SIGKILLed right after it put its N-th chunk
# file in place (the fault shim's GELUCHECK_KILL_AFTER: exact, however fast the machine; polling
# the directory missed the last chunks on a fast run); prints the number of chunk files left.
kill_after() {
    dir=$1 want=$2
    shift 2
    LD_PRELOAD=$shim GELUCHECK_KILL_AFTER=chunk-:$want \
        ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0 "$g" "$@" >/dev/null 2>&1
    n_chunks "$dir"
}

# shellcheck disable=SC2086
"$g" $run --csv "$d/full.csv" --ranges-csv "$d/full.ranges.csv" >/dev/null 2>&1 ||
    fail "the uninterrupted run failed"

# Killed at three points, resumed.
for want in 1 128 250; do
    ck="$d/ck$want"
    # shellcheck disable=SC2086
    left=$(kill_after "$ck" "$want" $run --checkpoint "$ck")
    if [ "$left" -lt "$want" ] || [ "$left" -ge $chunks ]; then
        fail "kill after $want chunks: $left chunk files left (the kill missed the run)"
    fi
    # shellcheck disable=SC2086
    "$g" $run --checkpoint "$ck" --csv "$d/k$want.csv" --ranges-csv "$d/k$want.ranges.csv" \
        >/dev/null 2>"$d/err" || fail "resume after $want chunks: status $?: $(cat "$d/err")"
    grep -q "resuming from '$ck': [0-9]* of 513 blocks already scanned" "$d/err" ||
        fail "resume after $want chunks: no resume message: $(cat "$d/err")"
    same "k$want"
done

# Killed, killed again while resuming, resumed.
ck="$d/twice"
# shellcheck disable=SC2086
first=$(kill_after "$ck" 40 $run --checkpoint "$ck")
# shellcheck disable=SC2086
second=$(kill_after "$ck" 60 $run --checkpoint "$ck") # 60 more chunks
[ "$second" -gt "$first" ] || fail "second kill: $second chunk files after $first"
# shellcheck disable=SC2086
"$g" $run --checkpoint "$ck" --csv "$d/twice.csv" --ranges-csv "$d/twice.ranges.csv" \
    >/dev/null 2>"$d/err" || fail "resume after two kills: $(cat "$d/err")"
same twice
ls -a "$ck" | grep -q '\.tmp\.' && fail "temporary files left in the checkpoint"

# expect_refusal NEEDLE ARGS...: exit 2 with NEEDLE on stderr
expect_refusal() {
    needle=$1
    shift
    "$g" "$@" >/dev/null 2>"$d/err"
    st=$?
    if [ $st -ne 2 ] || ! grep -qF -- "$needle" "$d/err"; then
        fail "gelucheck $*: status $st, stderr: $(cat "$d/err")"
    fi
}

ck="$d/ck128"
# shellcheck disable=SC2086
expect_refusal "impls is 'erfc_libm,pw_accurate' for this run but 'erfc_libm,pw_accurate,tanh'" \
    accuracy --range 1:1.25 --grad --impl erfc_libm,pw_accurate --threads 2 --checkpoint "$ck"
# shellcheck disable=SC2086
expect_refusal "grad is '0' for this run but '1'" \
    accuracy --range 1:1.25 --impl erfc_libm,pw_accurate,tanh --checkpoint "$ck"
cp "$ck/chunk-7-of-$chunks.partial" "$d/saved"
# one byte of the data changed: the checksum refuses it, naming the file
printf 'X' | dd of="$ck/chunk-7-of-$chunks.partial" bs=1 seek=2000 conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
expect_refusal "checkpoint chunk '$ck/chunk-7-of-$chunks.partial'" $run --checkpoint "$ck"
# truncated
head -c 500 "$d/saved" >"$ck/chunk-7-of-$chunks.partial"
# shellcheck disable=SC2086
expect_refusal "checkpoint chunk '$ck/chunk-7-of-$chunks.partial'" $run --checkpoint "$ck"
# another chunk's file under this chunk's name
cp "$ck/chunk-8-of-$chunks.partial" "$ck/chunk-7-of-$chunks.partial"
# shellcheck disable=SC2086
expect_refusal "holds shard 8/256, not 7/256" $run --checkpoint "$ck"
cp "$d/saved" "$ck/chunk-7-of-$chunks.partial"
mkdir "$d/other" && echo keep >"$d/other/notes.txt"
# shellcheck disable=SC2086
expect_refusal "files but no checkpoint.id" $run --checkpoint "$d/other"
[ "$(cat "$d/other/notes.txt")" = keep ] || fail "a foreign directory's file was changed"
echo x >"$d/plainfile"
# shellcheck disable=SC2086
expect_refusal "is not a directory" $run --checkpoint "$d/plainfile"
# shellcheck disable=SC2086
expect_refusal "--checkpoint needs a directory name" $run --checkpoint ""

if [ "$mpirun" != none ]; then
    # Under the sanitize setup the ranks run without LeakSanitizer: Open MPI's allocations
    # kept to the end are reported from its unloaded components (<unknown module>), which no
    # suppression can name; gelucheck's own chunk code is leak-checked by the checkpoint runs
    # above, and ASan's other checks and UBSan stay on.
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    export ASAN_OPTIONS
    mpi="$mpirun --allow-run-as-root --oversubscribe -n 2"
    # shellcheck disable=SC2086
    $mpi "$g" $run --csv "$d/mpi.csv" --ranges-csv "$d/mpi.ranges.csv" >"$d/out" 2>"$d/err" ||
        fail "mpirun -n 2: status $?: $(cat "$d/err")"
    same mpi
    grep -q "2 MPI ranks shared $chunks chunks: rank 0 took [0-9]*, rank 1 took [1-9]" "$d/err" ||
        fail "mpirun -n 2: rank 1 scanned nothing: $(cat "$d/err")"
    [ "$(grep -c 'every implementation meets its declared contract' "$d/out")" -eq 1 ] ||
        fail "mpirun -n 2: the table printed other than once"
    # the killed run's checkpoint, finished by two ranks
    ck="$d/mpick"
    # shellcheck disable=SC2086
    kill_after "$ck" 100 $run --checkpoint "$ck" >/dev/null
    # shellcheck disable=SC2086
    $mpi "$g" $run --checkpoint "$ck" --csv "$d/mpick.csv" --ranges-csv "$d/mpick.ranges.csv" \
        >/dev/null 2>"$d/err" || fail "mpirun -n 2 --checkpoint: $(cat "$d/err")"
    same mpick
    # rank 0's exit status is every rank's: a CSV on a full device (mknod, as root) fails
    # only on rank 0, where the files are written
    if mknod "$d/full" c 1 7 2>/dev/null; then
        # shellcheck disable=SC2086
        $mpi "$g" $run --csv "$d/full" >/dev/null 2>"$d/err"
        st=$?
        [ $st -eq 1 ] || fail "mpirun -n 2, CSV on a full device: status $st, not 1"
    fi
    # shellcheck disable=SC2086
    $mpi "$g" $run --profile >/dev/null 2>"$d/err"
    st=$?
    [ $st -eq 2 ] && grep -q "run it without mpirun" "$d/err" || fail "--profile under mpirun: $st"
fi

[ $fails -eq 0 ] && echo "resume and MPI: every run gave the uninterrupted run's CSVs"
exit $((fails > 0))
