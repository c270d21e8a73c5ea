#!/bin/sh
# Every output file of every command, used as a hostile but fair user would (issue 11): a FIFO,
# a character device and symbolic links are never replaced (a link to a regular file is
# followed and survives), "-" is standard output, a directory, an empty name or a missing
# directory fails before any work with exit 1, new files follow the umask and replaced ones
# keep their mode; and with the fault shim (tests/fault_shim.c) a failing rename, a full disk
# at close and a refused creation each give exit 1, a message naming the file, the previous
# file intact and no temporary file. Also: standard output that cannot be written (/dev/full)
# gives exit 1, and an interrupted bench leaves no temporary file.
# Usage: test_outputs.sh GELUCHECK FAULT_SHIM
set -u
g=$1 shim=$2
fails=0
d=$(mktemp -d)
out=$d/stdout err=$d/stderr
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# the shim beside AddressSanitizer (the sanitize setup): the runtime need not come first
asan_preload="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# A partial for merge to read.
"$g" accuracy --impl erfc_f64 --sample 50 --shard 1/1 --partial "$d/part" >/dev/null 2>&1 ||
    fail "cannot make the partial for merge"

# run KIND PATH: the command of KIND writing its file to PATH (small and quick).
run() {
    case $1 in
    accuracy-csv) "$g" accuracy --impl erfc_f64 --sample 50 --csv "$2" ;;
    accuracy-ranges) "$g" accuracy --impl erfc_f64 --sample 50 --ranges-csv "$2" ;;
    accuracy-partial) "$g" accuracy --impl erfc_f64 --sample 50 --shard 1/1 --partial "$2" ;;
    merge-csv) "$g" merge --csv "$2" "$d/part" ;;
    merge-ranges) "$g" merge --ranges-csv "$2" "$d/part" ;;
    bench-csv) "$g" bench --quick --size 64 --impl relu --csv "$2" ;;
    moons-csv) "$g" moons --seeds 1 --epochs 1 --samples 100 --impl relu --csv "$2" ;;
    accuracy16-csv) "$g" accuracy --format bfloat16 --impl cr_bfloat16 --csv "$2" ;;
    accuracy64-csv) "$g" accuracy --format binary64 --impl erfc_libm --sample 50 --csv "$2" ;;
    accuracy-fpenv-csv) "$g" accuracy --impl erfc_f64 --sample 50 --fpenv ftz,daz --csv "$2" ;;
    accuracy-cover-csv) "$g" accuracy --impl relu --cover quick --fpenv ftz,daz --csv "$2" ;;
    bench16-csv) "$g" bench --format binary16 --quick --size 64 --impl relu --csv "$2" ;;
    bench64-csv) "$g" bench --format binary64 --quick --size 64 --impl relu --csv "$2" ;;
    esac
}
# every command's file, the other formats' and environment's too
kinds="accuracy-csv accuracy-ranges accuracy-partial merge-csv merge-ranges bench-csv moons-csv
       accuracy16-csv accuracy64-csv accuracy-fpenv-csv accuracy-cover-csv bench16-csv bench64-csv"

for k in $kinds; do
    w=$d/$k
    mkdir "$w"
    # a FIFO through a link: written in place (a reader drains it), both stay what they were
    mkfifo "$w/fifo"
    ln -s fifo "$w/to-fifo"
    cat "$w/fifo" >"$w/drained" &
    reader=$!
    run "$k" "$w/to-fifo" >"$out" 2>"$err" || fail "$k to a FIFO: status $?: $(cat "$err")"
    wait $reader
    [ -p "$w/fifo" ] && [ -L "$w/to-fifo" ] && [ -s "$w/drained" ] ||
        fail "$k: the FIFO or its link was replaced, or nothing came through"
    # a link to a regular file: the file is replaced, the link survives
    echo old >"$w/real"
    ln -s real "$w/to-real"
    run "$k" "$w/to-real" >"$out" 2>"$err" || fail "$k through a link: $(cat "$err")"
    [ -L "$w/to-real" ] && [ "$(readlink "$w/to-real")" = real ] && [ "$(cat "$w/real")" != old ] ||
        fail "$k: the link to a regular file did not survive, or the file is unchanged"
    # a character device made here (as root): written in place, still a device
    if mknod "$w/null" c 1 3 2>/dev/null; then
        run "$k" "$w/null" >"$out" 2>"$err" || fail "$k to a device: $(cat "$err")"
        [ -c "$w/null" ] || fail "$k replaced a character device"
    fi
    # refused before the work (nothing on stdout): a directory, an empty name, a missing directory
    for bad in "$w" "" "$w/missing/x"; do
        run "$k" "$bad" >"$out" 2>"$err"
        st=$?
        [ $st -eq 1 ] && grep -q "cannot write '" "$err" && [ ! -s "$out" ] ||
            fail "$k to '$bad': status $st, stdout $(head -c 80 "$out"), stderr $(cat "$err")"
    done
    # the run manifest beside a file (not beside a FIFO or a device)
    run "$k" "$w/m" >/dev/null 2>&1
    grep -q '"schema": 1' "$w/m.manifest.json" && grep -q '"command": "[^"]*gelucheck ' "$w/m.manifest.json" ||
        fail "$k: no run manifest beside its file"
    ls "$w" | grep -q -e '^fifo.manifest' -e '^to-fifo.manifest' -e '^null.manifest' &&
        fail "$k: a manifest beside a FIFO or device: $(ls "$w")"
    (export LD_PRELOAD="$shim" ASAN_OPTIONS="$asan_preload" GELUCHECK_FAIL_RENAME=m.manifest.json;
     run "$k" "$w/m") >"$out" 2>"$err"
    [ $? -eq 1 ] && grep -q "m.manifest.json" "$err" || fail "$k: a manifest not written is not exit 1"
    # modes: a new file follows the umask, a replaced one keeps its mode
    (umask 027 && run "$k" "$w/new" >/dev/null 2>&1)
    [ "$(stat -c %a "$w/new")" = 640 ] || fail "$k: new file mode $(stat -c %a "$w/new"), umask 027"
    chmod 604 "$w/new"
    run "$k" "$w/new" >/dev/null 2>&1
    [ "$(stat -c %a "$w/new")" = 604 ] || fail "$k: replaced file mode $(stat -c %a "$w/new")"
    # faults: a rename that fails, a full disk at close, a creation refused
    for fault in RENAME WRITE CREATE; do
        echo previous >"$w/target"
        (export LD_PRELOAD="$shim" ASAN_OPTIONS="$asan_preload" "GELUCHECK_FAIL_$fault=target";
         run "$k" "$w/target") >"$out" 2>"$err"
        st=$?
        [ $st -eq 1 ] || fail "$k with $fault failing: status $st"
        grep -q "$w/target" "$err" || fail "$k with $fault failing: no message naming the file: $(cat "$err")"
        [ "$(cat "$w/target")" = previous ] || fail "$k with $fault failing: the previous file changed"
        ls -A "$w" | grep -q '\.tmp\.' && fail "$k with $fault failing left $(ls -A "$w" | grep tmp)"
    done
done

# report: a path that is not a directory fails at once; a rename failing at publication
# (index.html, the last) leaves the previous report byte for byte, adds nothing, and says so.
echo file >"$d/notdir"
"$g" report --quick --out "$d/notdir" >"$out" 2>"$err"
st=$?
[ $st -eq 1 ] && grep -q "not a directory" "$err" && [ ! -s "$out" ] ||
    fail "report --out a file: status $st, $(cat "$err")"
mkdir "$d/rep"
for f in index.html accuracy.csv cost.svg manifest.json; do echo "previous $f" >"$d/rep/$f"; done
(export LD_PRELOAD="$shim" ASAN_OPTIONS="$asan_preload" GELUCHECK_FAIL_RENAME=index.html;
 "$g" report --quick --out "$d/rep") >"$out" 2>"$err"
st=$?
[ $st -eq 1 ] && grep -q "holds the previous report, unchanged" "$err" ||
    fail "report with index.html's rename failing: status $st, $(tail -3 "$err")"
for f in index.html accuracy.csv cost.svg manifest.json; do
    [ "$(cat "$d/rep/$f")" = "previous $f" ] || fail "report with a failing rename changed $f"
done
[ "$(ls -A "$d/rep" | wc -l)" -eq 4 ] || fail "report with a failing rename left $(ls -A "$d/rep")"

# "-" is standard output
"$g" accuracy --impl erfc_f64 --sample 50 --csv - >"$out" 2>"$err"
grep -q '^impl,format,target,reference,direction' "$out" || fail "accuracy --csv - wrote no CSV on stdout"
"$g" bench --quick --size 64 --impl relu --csv - >"$out" 2>"$err"
grep -q '^size,n,dist,seed' "$out" || fail "bench --csv - wrote no CSV on stdout"

# Standard output that cannot be written: exit 1 and a message, for every command that prints.
for args in "list" "eval --impl erfc_f64 1" "accuracy --impl erfc_f64 --sample 50" \
    "merge $d/part" "bench --quick --size 64 --impl relu"; do
    # shellcheck disable=SC2086
    "$g" $args >/dev/full 2>"$err"
    st=$?
    [ $st -eq 1 ] && grep -q "cannot write standard output" "$err" ||
        fail "gelucheck $args >/dev/full: status $st, stderr $(cat "$err")"
done

# An interrupted bench leaves no temporary file (it is hidden and removed on the signal).
mkdir "$d/int"
for sig in TERM INT; do
    "$g" bench --size 1048576 --csv "$d/int/b.csv" >/dev/null 2>&1 &
    pid=$!
    sleep 1
    kill -"$sig" $pid
    wait $pid
    [ -z "$(ls -A "$d/int")" ] || fail "bench killed by SIG$sig left $(ls -A "$d/int")"
done

# Item 14: threads are capped at the work available (1024 threads on a 100-input sample took
# 1.4 GiB), and a size label keeps its value whatever its length (it was cut at 23 characters).
"$g" accuracy --impl erfc_f64 --sample 100 --threads 1024 >"$out" 2>"$err"
peak=$(sed -n 's/.*peak memory \([0-9]*\).*/\1/p' "$out")
[ -n "$peak" ] && [ "$peak" -lt 256 ] || fail "accuracy --threads 1024 on 100 inputs: peak memory '$peak' MiB"
"$g" bench --quick --size 000000000000000000000000064 --impl relu --csv "$d/label.csv" >/dev/null 2>&1
[ "$(sed -n 2p "$d/label.csv" | cut -d, -f1,2)" = "64,64" ] || fail "bench size label: $(sed -n 2p "$d/label.csv")"

[ $fails -eq 0 ] && echo "outputs: all checks passed"
exit $fails
