#!/bin/sh
# tools/record_run.sh on a planted report directory: the record carries the manifest's CPU,
# commit and command, the time table's sections and kernels' line, the fallbacks per format
# (one count per target and direction, not per row), and answer.json beside it; a directory
# without a manifest, or a log without a time table, is refused with exit 2.
# Usage: test_docs_record.sh SOURCE_ROOT
. "$(dirname "$0")/lib.sh"
rec=$1/tools/record_run.sh
r=$d/report
mkdir -p "$r"
cat >"$r/manifest.json" <<'J'
{"schema": 1, "gelucheck": {"version": "0.1.0", "commit": "abc1234"},
 "build": {"compiler": "gcc 12.2.0", "flags": "-O2"},
 "cpu": {"model": "Test(R) CPU 9000", "features": "avx2"},
 "libraries": {"mpfr": "4.2.0"},
 "run": {"command": "gelucheck report --out report", "created": "2031-02-03T04:05:06Z"}}
J
cat >"$r/report.log" <<'L'
noise
where the time went:
section                                      wall s      CPU s
binary32: scan                                 100.0      199.0
make_moons                                      11.5        3.8
total                                          111.5      202.8
the binary32 scan's kernels alone: 50.0 thread s, 25.0 s of wall on 2 threads: the scan 4.00x that, the whole job 4.46x
L
cat >"$r/accuracy.csv" <<'C'
impl,target,direction,ref_fallbacks
a,exact,forward,5
b,exact,forward,5
a,exact,derivative,3
c,tanh,forward,
C
echo '{"answer": 1}' >"$r/answer.json"

out=$("$rec" --dest "$d/m" "$r") || fail "record_run exited $? on a complete report"
[ "$out" = "$d/m/2031-02-03-test-cpu-9000.md" ] || fail "record path: '$out'"
f=$d/m/2031-02-03-test-cpu-9000.md
grep -q '| command | `gelucheck report --out report` |' "$f" || fail "no command row"
grep -q 'commit abc1234' "$f" || fail "no commit"
grep -q '| binary32: scan | 100.0 | 199.0 |' "$f" || fail "no scan section"
grep -q '| \*\*total\*\* | \*\*111.5\*\* | \*\*202.8\*\* |' "$f" || fail "no total"
grep -q 'the whole job 4.46x' "$f" || fail "no ratio to the kernels"
grep -q '| accuracy.csv | 8 |' "$f" || fail "fallbacks not 5 + 3: $(grep accuracy.csv "$f")"
cmp -s "$r/answer.json" "$d/m/2031-02-03-test-cpu-9000.answer.json" || fail "answer.json not copied"
out2=$("$rec" --dest "$d/m" "$r")
[ "$out2" = "$d/m/2031-02-03-test-cpu-9000-2.md" ] || fail "second record overwrote: '$out2'"

cp "$r/manifest.json" "$d/manifest.json"
rm "$r/manifest.json"
msg=$("$rec" --dest "$d/m" "$r" 2>&1); st=$?
[ $st -eq 2 ] || fail "no manifest: exit $st, not 2"
case $msg in *"has no manifest.json"*) ;; *) fail "no manifest: message '$msg'" ;; esac
echo '{}' >"$r/manifest.json"
msg=$("$rec" --dest "$d/m" "$r" 2>&1); st=$?
[ $st -eq 2 ] || fail "incomplete manifest: exit $st, not 2 ($msg)"
cp "$d/manifest.json" "$r/manifest.json"
echo 'no table' >"$r/report.log"
msg=$("$rec" --dest "$d/m" "$r" 2>&1); st=$?
[ $st -eq 2 ] || fail "no time table: exit $st, not 2 ($msg)"
case $msg in *"no time table"*) ;; *) fail "no time table: message '$msg'" ;; esac
# --accuracy: an accuracy run's CSV, its manifest and closing line; every row in the table; a
# CSV without the columns, a missing manifest and a log without the closing line refused
a=$d/acc.csv
cp "$d/manifest.json" "$a.manifest.json"
cat >"$a" <<'C'
impl,format,target,reference,direction,inputs,max_ulp,correctly_rounded,contract
cr,binary32,exact,own,forward,4294967296,0.5,4294967296,pass
cr,binary32,exact,own,derivative,4294967296,0.5,4294967295,fail
C
echo 'wall 812.5 s, 2 threads, 2.6e+06 inputs/s/thread, peak memory 30 MiB' >"$d/acc.log"
out=$("$rec" --dest "$d/m" --accuracy "$a" "$d/acc.log") || fail "record_run --accuracy exited $?"
[ "$out" = "$d/m/2031-02-03-test-cpu-9000-accuracy.md" ] || fail "accuracy record path: '$out'"
grep -q '| `cr` | exact | own | derivative | 4294967296 | 0.5 | 4294967295 | fail |' "$out" ||
    fail "accuracy rows: $(cat "$out")"
grep -q '| run | wall 812.5 s, 2 threads' "$out" || fail "accuracy closing line: $(cat "$out")"
echo 'impl,direction' >"$d/bad.csv"
cp "$a.manifest.json" "$d/bad.csv.manifest.json"
msg=$("$rec" --dest "$d/m" --accuracy "$d/bad.csv" 2>&1); st=$?
[ $st -eq 2 ] && case $msg in *"not an accuracy CSV"*) true ;; *) false ;; esac ||
    fail "a CSV without the columns: exit $st ($msg)"
rm "$a.manifest.json"
msg=$("$rec" --dest "$d/m" --accuracy "$a" 2>&1); st=$?
[ $st -eq 2 ] || fail "no accuracy manifest: exit $st ($msg)"
cp "$d/manifest.json" "$a.manifest.json"
echo 'noise' >"$d/acc.log"
msg=$("$rec" --dest "$d/m" --accuracy "$a" "$d/acc.log" 2>&1); st=$?
[ $st -eq 2 ] || fail "a log without the closing line: exit $st ($msg)"
exit $((fails > 0))
