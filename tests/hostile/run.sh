#!/bin/sh
# The hostile suite (issue 43): a wrong kernel must never pass. Each case runs one command
# (bounded: 60 s) and names the exit status and a message it must print; a case prints "ok NAME"
# or "FAIL: NAME ...", and the suite exits 1 when any failed. The kernels are
# tests/hostile/hostile_plugin.c (misbehaviour by GELUCHECK_HOSTILE), its build one ULP off at
# x = 3, and tests/exec_child.c.
# Usage: run.sh GELUCHECK HOSTILE.so HOSTILE_WRONG3.so EXEC_CHILD
set -u
g=$1 good=$2 wrong=$3 child=$4
. "$(dirname "$0")/../lib.sh"
export GELUCHECK_NO_DEFAULT_PEERS=1 # the cases need no peers; they load faster without
# Under AddressSanitizer (the sanitize setup) its own handlers would take the kernels' SIGSEGV,
# SIGBUS and SIGFPE before gelucheck's and the plugin host's, which are what these cases check;
# its instrumentation still checks every access.
if [ -n "${ASAN_OPTIONS:-}" ]; then
    export ASAN_OPTIONS="$ASAN_OPTIONS:handle_segv=0:handle_sigbus=0:handle_sigfpe=0"
fi
cases=0

# expect NAME STATUS NEEDLE COMMAND...: COMMAND exits STATUS with NEEDLE in its output
expect() {
    name=$1 want=$2 needle=$3
    shift 3
    cases=$((cases + 1))
    timeout -k 5 60 "$@" >"$d/out" 2>&1
    st=$?
    if [ "$st" -eq "$want" ] && grep -qF -- "$needle" "$d/out"; then
        echo "ok $name"
    else
        fail "$name: status $st (want $want), '$needle' not in: $(tail -c 600 "$d/out")"
    fi
}

# ---- S1: a checkpoint is bound to the kernels' bytes
r="--range 2.9:3.1 --threads 2"
expect S1-good-run 0 "every implementation meets its declared contract" \
    "$g" accuracy --plugin "$good" --impl hx $r --checkpoint "$d/ck"
expect S1-wrong-alone 1 "at x = 0x1.8p+1" "$g" accuracy --plugin "$wrong" --impl hx $r
expect S1-plugin-swapped 2 "code.hx is 'plugin-sha256:" \
    "$g" accuracy --plugin "$wrong" --impl hx $r --checkpoint "$d/ck"
expect S1-exec-good-run 0 "every implementation meets its declared contract" \
    "$g" accuracy --exec "hxe=$child erfc_f64 --name hxe" --impl hxe $r --checkpoint "$d/cke"
expect S1-exec-swapped 2 "code.hxe is 'exec-sha256:" \
    "$g" accuracy --exec "hxe=$child erfc_f64 --name hxe --wrong-at 0x40400000" --impl hxe $r \
    --checkpoint "$d/cke"
expect S1-builtin-id 0 "code.erfc_f64=build-id:" sh -c \
    "'$g' accuracy --impl erfc_f64 $r --checkpoint '$d/ckb' && cat '$d/ckb/checkpoint.id'"

# ---- S2, S3, S4, S5, M2, M3: a kernel that writes into its input or past its outputs, leaks FP
# state, crashes, aborts, hangs or ends the process. By default a plugin's row runs in its own
# process (gelucheck-plugin-host): every defect is named there with the row and the request,
# exit 1. --in-process runs it in gelucheck's (the same defects named by the in-process guards).
H="env GELUCHECK_HOSTILE"
own="plugin '$good', implementation 'hx' (in its own process): exec child 'hx'"
# expect_own NAME NEEDLE COMMAND...: exit 1, the row named as run in its own process, NEEDLE
expect_own() {
    name=$1 needle=$2
    shift 2
    expect "$name" 1 "$needle" "$@"
    grep -qF -- "$own" "$d/out" || fail "$name: the row is not named ('$own')"
}
# (scribble writes at every call: one thread, so that the first request is the one named)
req="forward request of 65536 inputs from x = 0x1.733334p+1"
expect_own S2-scribble "$req: error 1: the kernel wrote into its input (const) at x[0]" \
    $H=scribble "$g" accuracy --plugin "$good" --impl hx --range 2.9:3.1 --threads 1
expect_own S2-scribble-after "the kernel wrote into its input (const)" \
    $H=scribble_after "$g" accuracy --plugin "$good" --impl hx,erfc_f64 $r
expect_own M2-rounding "the kernel left MXCSR 0x5fa0 (the call began with 0x1f80: SSE rounding upward)" \
    $H=round "$g" accuracy --plugin "$good" --impl hx,cr $r
expect_own M2-ftz "flush-to-zero set, denormals-are-zero set" \
    $H=ftz "$g" accuracy --plugin "$good" --impl hx,cr $r
expect_own M2-derivative ": derivative request of " \
    $H=ftz_grad "$g" accuracy --plugin "$good" --impl hx --grad $r
expect_own S3-overrun-guard-page "the kernel wrote past its 65536 outputs, into the guard page after y[65535]" \
    $H=overrun "$g" accuracy --plugin "$good" --impl hx --range 3:3.1 --threads 2
expect_own S3-overrun-canary "the kernel wrote past its 65537 outputs (byte 0 after y[65536])" \
    $H=overrun "$g" accuracy --plugin "$good" --impl hx $r
expect_own S4-segv "its output ended after 0 of 24 bytes; the child killed by signal 11" \
    $H=segv "$g" accuracy --plugin "$good" --impl hx $r
expect_own S4-sigkill "its output ended after 0 of 24 bytes; the child killed by signal 9" \
    $H=sigkill "$g" accuracy --plugin "$good" --impl hx $r
expect_own S4-abort "its output ended after 0 of 24 bytes; the child killed by signal 6" \
    $H=abort "$g" accuracy --plugin "$good" --impl hx $r
expect_own S5-hang "no answer within 2 s" \
    $H=hang "$g" accuracy --plugin "$good" --impl hx $r --exec-timeout 2
expect_own M3-exit "error 1: the kernel called _exit(0)" \
    $H=exit "$g" accuracy --plugin "$good" --impl hx $r
expect_own M3-exit-eval "the kernel called _exit(0)" $H=exit "$g" eval --plugin "$good" --impl hx 3
# the plugin's own code (its loading, gelucheck_plugin_v1) runs in the host, never in gelucheck
# (/proc/self/comm: "gelucheck-plugi", the first 15 bytes of the host's name):
# a crash, a hang or an exit there is named, exit 2, and the plugin's constructor ran only in
# the host (gelucheck-plugin-host; with --in-process, in gelucheck too: the planted check)
desc="plugin '$good': its description, read in its own process"
expect D1-describe-segv 2 "$desc (" $H=describe_segv "$g" list --plugin "$good"
grep -qF "killed by signal 11" "$d/out" || fail "D1-describe-segv: the signal is not named: $(cat "$d/out")"
expect D2-load-abort 2 "killed by signal 6" $H=load_abort "$g" list --plugin "$good"
expect D3-describe-hang 2 "did not end within 2 s (--exec-timeout)" \
    $H=describe_hang "$g" list --plugin "$good" --exec-timeout 2
expect D4-describe-exit 2 "failed: the host exited with status 0" $H=describe_exit "$g" list --plugin "$good"
grep -qF "$desc" "$d/out" || fail "D4-describe-exit: the plugin is not named: $(cat "$d/out")"
rm -f "$d/mark"
expect D5-code-not-here 0 "every implementation meets its declared contract" \
    env GELUCHECK_HOSTILE=load_mark GELUCHECK_HOSTILE_MARK="$d/mark" "$g" accuracy --plugin "$good" --impl hx $r
grep -q "^gelucheck$" "$d/mark" && fail "D5-code-not-here: the plugin was loaded into gelucheck: $(cat "$d/mark")"
grep -q "^gelucheck-plugi" "$d/mark" || fail "D5-code-not-here: not loaded by its host: $(cat "$d/mark")"
rm -f "$d/mark"
GELUCHECK_HOSTILE=load_mark GELUCHECK_HOSTILE_MARK="$d/mark" "$g" list --in-process --plugin "$good" >/dev/null 2>&1
grep -q "^gelucheck$" "$d/mark" || fail "D5-planted: --in-process did not load it into gelucheck: $(cat "$d/mark" 2>&1)"
# a failed call stops the scan: over all 2^32 inputs (erfc_f64's scalar kernels: minutes) the
# crash at x = 3 ends the run within the case's 60 s
expect S4-stops-early 1 "the child killed by signal 11" $H=segv "$g" accuracy --plugin "$good" --impl hx --threads 2
# a plugin path that is not a regular file is refused at once (not read forever)
mkfifo "$d/fifo.so"
expect P1-fifo 2 "cannot load plugin '$d/fifo.so': not a regular file" "$g" list --plugin "$d/fifo.so"
expect P2-device 2 "cannot load plugin '/dev/zero': not a regular file" "$g" list --plugin /dev/zero
expect P3-directory 2 "cannot load plugin '$d': Is a directory" "$g" list --plugin "$d"
# input files that are FIFOs are refused, not read forever: a report's manifest, an answer
mkdir "$d/fifodir"
mkfifo "$d/fifodir/manifest.json" "$d/fifodir/accuracy.csv" "$d/answer.json"
expect P4-compare-fifo 2 "$d/fifodir/manifest.json: cannot read: not a regular file" \
    "$g" compare "$d/fifodir" "$d/fifodir"
expect P5-answer-fifo 2 "$d/answer.json: cannot read: not a regular file" "$g" markdown --answer "$d/answer.json"
# the previous outputs survive each of them
for h in abort segv sigkill hang exit overrun scribble round; do
    echo previous >"$d/keep.csv"
    expect S4-outputs-kept-$h 0 "previous" sh -c "GELUCHECK_HOSTILE=$h '$g' accuracy --plugin '$good' \
        --impl hx $r --exec-timeout 2 --csv '$d/keep.csv' 2>/dev/null; [ \$? -eq 1 ] && \
        cat '$d/keep.csv' && ! ls -a '$d' | grep -q tmp"
done
# a missing host program is named, with the way out
expect host-missing 2 "no program '$d/nohost'" \
    env GELUCHECK_PLUGIN_HOST="$d/nohost" "$g" list --plugin "$good"

# the same defects --in-process: the in-process guards (scan/kernel_call.c, plugins/plugin.c)
ip="--in-process"
expect S2-scribble-in-process 1 "implementation 'hx' (plugin '$good') broke the kernel contract in a forward call" \
    $H=scribble "$g" accuracy $ip --plugin "$good" --impl hx $r
expect S2-scribble-names-input-in-process 1 "it wrote into its input (const): x[0] was 0x40" \
    $H=scribble "$g" accuracy --plugin "$good" --impl hx $r $ip
expect S2-scribble-after-in-process 1 "it wrote into its input (const)" \
    $H=scribble_after "$g" accuracy $ip --plugin "$good" --impl hx,erfc_f64 $r
# a leaked rounding mode or FTZ/DAZ: named at the row that leaked it, never blamed on cr
expect M2-rounding-in-process 1 "implementation 'hx' (plugin '$good') broke the kernel contract" \
    $H=round "$g" accuracy $ip --plugin "$good" --impl hx,cr $r
expect M2-rounding-what-in-process 1 "SSE rounding upward" $H=round "$g" accuracy $ip --plugin "$good" --impl hx,cr $r
expect M2-ftz-in-process 1 "flush-to-zero set, denormals-are-zero set" $H=ftz "$g" accuracy $ip --plugin "$good" --impl hx,cr $r
expect M2-derivative-in-process 1 "in a derivative call" $H=ftz_grad "$g" accuracy $ip --plugin "$good" --impl hx --grad $r
expect S3-overrun-guard-page-in-process 1 "plugin '$good', implementation 'hx', crashed (signal 11) in a forward call of 4096 inputs from x = 0x40400000" \
    $H=overrun "$g" accuracy $ip --plugin "$good" --impl hx --range 3:3.1 --threads 2
expect S3-overrun-canary-in-process 1 "it wrote past its 4097 outputs (byte 0 after y[4096])" \
    $H=overrun "$g" accuracy $ip --plugin "$good" --impl hx --range 2.99:3.1 --threads 2
expect S4-segv-in-process 1 "implementation 'hx', crashed (signal 11) in a forward call" \
    $H=segv "$g" accuracy $ip --plugin "$good" --impl hx $r
expect S4-abort-in-process 1 "implementation 'hx', crashed (signal 6: SIGABRT, an abort() or a failed assert) in a forward call" \
    $H=abort "$g" accuracy $ip --plugin "$good" --impl hx $r
expect S5-hang-in-process 1 "implementation 'hx', has not returned within 2 s (--exec-timeout) in a forward call" \
    $H=hang "$g" accuracy $ip --plugin "$good" --impl hx $r --exec-timeout 2
expect M3-exit-in-process 1 "implementation 'hx', called _exit(0) in a forward call" \
    $H=exit "$g" accuracy $ip --plugin "$good" --impl hx $r
echo previous >"$d/keep.csv"
expect S4-outputs-kept-in-process 0 "previous" sh -c "GELUCHECK_HOSTILE=abort '$g' accuracy $ip --plugin '$good' \
    --impl hx $r --csv '$d/keep.csv' 2>/dev/null; cat '$d/keep.csv'; ! ls -a '$d' | grep -q tmp"

# ---- the command line: M6, M8, M11, M14, C5, C7
t="--impl relu --range 1:1.001 --threads 2"
expect M6-file-size-limit 1 "cannot write '$d/big.csv': File too large" sh -c \
    "ulimit -f 4; exec '$g' accuracy --range 1:1.001 --threads 2 --csv '$d/big.csv' >/dev/null"
expect M6-no-temporaries 0 "none left" sh -c "ls -a '$d' | grep -q 'big.csv.tmp' || echo none left"
expect M8-same-file 2 "--csv '$d/s.csv' and --ranges-csv '$d/./s.csv' name the same file" \
    "$g" accuracy $t --csv "$d/s.csv" --ranges-csv "$d/./s.csv"
expect M8-manifest 2 "--ranges-csv '$d/s.csv.manifest.json' is the manifest --csv '$d/s.csv' gets" \
    "$g" accuracy $t --csv "$d/s.csv" --ranges-csv "$d/s.csv.manifest.json"
expect M8-nothing-written 0 "nothing" sh -c "ls '$d' | grep -q '^s.csv' || echo nothing"
expect M11-exec-timeout-twice 2 "option --exec-timeout is given twice" \
    "$g" list --exec-timeout 5 --exec-timeout 6
expect M14-stdout-closed 0 "size,n,dist,seed" sh -c \
    "'$g' bench --quick --size l1 --impl relu --csv '$d/bc.csv' >&- 2>/dev/null; head -c 20 '$d/bc.csv'"
expect C5-seed-without-sample 2 "--seed seeds --sample's draws: give --sample N with it" \
    "$g" accuracy $t --seed 3
expect C7-empty-csv 1 "cannot write '': the file name is empty" "$g" accuracy $t --csv ""
expect C7-empty-out 1 "cannot write the report directory '': the name is empty" "$g" report --out ""
# M9: a manifest path that is a directory is an output that cannot be written: exit 1, before
# the work (a report's DIR/manifest.json too, not after the whole run)
mkdir -p "$d/m9.csv.manifest.json" "$d/m9rep/manifest.json"
expect M9-csv-manifest-directory 1 "cannot write '$d/m9.csv.manifest.json': it is a directory" \
    "$g" accuracy $t --csv "$d/m9.csv"
expect M9-report-manifest-directory 1 "'$d/m9rep/manifest.json' is a directory, where the report puts a file; nothing was run" \
    "$g" report --quick --threads 2 --out "$d/m9rep"
# M4: a baseline whose accuracy.csv is corrupt is refused before any work (no report written)
mkdir "$d/bl"
"$g" accuracy $t --csv "$d/bl/accuracy.csv" >/dev/null 2>&1
cp "$d/bl/accuracy.csv.manifest.json" "$d/bl/manifest.json"
sed -i '2s/,/,,/' "$d/bl/accuracy.csv"
expect M4-baseline-first 2 "bad --baseline: $d/bl/accuracy.csv:2: 66 fields" sh -c \
    "'$g' report --quick --baseline '$d/bl' --out '$d/rep'; st=\$?; [ ! -e '$d/rep' ] && exit \$st"

# M5: an implementation whose accuracy rows are gone while its bench rows remain is "removed"
mkdir "$d/cmp_old" "$d/cmp_new"
"$g" accuracy --impl relu,erfc_f64 --range 1:1.001 --threads 2 --csv "$d/cmp_old/accuracy.csv" >/dev/null 2>&1
"$g" bench --quick --size l1 --impl relu,erfc_f64 --csv "$d/cmp_old/bench.csv" >/dev/null 2>&1
cp "$d/cmp_old/accuracy.csv.manifest.json" "$d/cmp_old/manifest.json"
cp "$d/cmp_old/manifest.json" "$d/cmp_old/bench.csv" "$d/cmp_new/"
grep -v '^erfc_f64,' "$d/cmp_old/accuracy.csv" >"$d/cmp_new/accuracy.csv"
expect M5-accuracy-rows-removed 0 "present -> absent" "$g" compare "$d/cmp_old" "$d/cmp_new"
grep -q "removed *erfc_f64 *accuracy rows *present -> absent" "$d/out" ||
    fail "M5-accuracy-rows-removed: erfc_f64's accuracy rows not named: $(cat "$d/out")"
expect M5-counted 0 "0 added, 1 removed" "$g" compare "$d/cmp_old" "$d/cmp_new"

# ---- M1: an exec child failing while it answers the batching probe's requests exits 1, as
# later in the scan (a bad handshake stays a usage error, exit 2). A probe request is 16 bytes
# and 1,024 inputs (4,112 bytes): a child exiting before gelucheck has written it all gives
# another message (its input closed), so the cases whose message is checked keep it open.
hs="printf 'gelucheck-exec 1\\nname hxd\\ntarget exact\\nformat binary32\\nend\\n'"
expect M1-probe-exit 1 "forward request of 1024 inputs from x = 0x1.2d2d28p-128: its output ended after 0 of 24 bytes; the child exited with status 3" \
    "$g" list --exec "hxd=$hs; head -c 4112 >/dev/null; exit 3"
expect M1-probe-bad-reply 1 "exec child 'hxd'" \
    "$g" accuracy $t --exec "hxd=$hs; printf GXRPxxxxxxxxxxxxxxxxxxxxxxxx; sleep 2"
expect M1-probe-segv 1 "exec child 'hxd'" \
    "$g" accuracy $t --exec "hxd=$hs; head -c 16 >/dev/null; kill -SEGV \$\$"

expect M1-probe-stdout-closed 1 "its output ended after 0 of 24 bytes" \
    "$g" accuracy $t --exec "hxd=$hs; exec >&-; sleep 1"
expect M1-probe-hang 1 "no answer within 2 s" \
    "$g" accuracy $t --exec-timeout 2 --exec "hxd=$hs; head -c 16 >/dev/null; sleep 10"
z8='\000\000\000\000\000\000\000\000'
expect M1-probe-error-status 1 "forward request of 1024 inputs from x = 0x1.2d2d28p-128: error 5" \
    "$g" accuracy $t --exec "hxd=$hs; head -c 16 >/dev/null; printf 'GXRP\005\000\000\000$z8$z8'; sleep 2"
expect M1-probe-wrong-count 1 "the reply holds 3 outputs" \
    "$g" accuracy $t --exec "hxd=$hs; head -c 16 >/dev/null; printf 'GXRP\000\000\000\000\003\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000abcdefghijkl'; sleep 2"
expect M1-probe-short-reply 1 "its output ended after 6 of 24 bytes" \
    "$g" accuracy $t --exec "hxd=$hs; head -c 16 >/dev/null; printf 'GXRP\000\000'; sleep 1"

# ---- C1, C3: an exec child's untrusted first line escaped; named by --exec before its handshake
expect C1-first-line-escaped 2 "the first line is '\x1b[31mred'" \
    "$g" list --exec "hxe=printf '\\033[31mred\\n'"
expect C3-named-before-handshake 2 "exec child 'hxq' (exit 5): handshake:" "$g" list --exec "hxq=exit 5"

# ---- C6: a damaged checkpoint is refused before the run says it resumes; an empty id named
mkdir "$d/cke0" && : >"$d/cke0/checkpoint.id" && : >"$d/cke0/chunk-1-of-51.partial"
expect C6-empty-id 2 "belongs to another run: its checkpoint.id is empty" \
    "$g" accuracy --impl hx --plugin "$good" $r --checkpoint "$d/cke0"
chunk=$(ls "$d/ck"/chunk-*.partial | sed -n 7p)
printf 'damaged' | dd of="$chunk" bs=1 seek=300 conv=notrunc 2>/dev/null
expect C6-damaged-chunk-first 2 "checkpoint chunk '$chunk'" sh -c \
    "'$g' accuracy --plugin '$good' --impl hx $r --checkpoint '$d/ck' >'$d/c6' 2>&1; st=\$?
     cat '$d/c6'; if grep -q resuming '$d/c6'; then exit 9; fi; exit \$st"

# ---- C4: list --format F is the format --frameworks starts its rows in: alone, or a format the
# frameworks do not run in, refused naming what it needs
expect C4-format-alone 2 "--format bfloat16 chooses the format --frameworks starts" \
    "$g" list --format bfloat16
expect C4-format-binary64 2 "--frameworks --format binary64: the frameworks' rows run in binary32 or a 16-bit format" \
    "$g" list --frameworks --format binary64

# ---- C10: the frameworks' environment: a relative XDG_CACHE_HOME ignored, HOME unset read from
# the password database; a plugin row named as a framework row is not that row "started"
pwhome=$(getent passwd "$(id -u)" | cut -d: -f6)
expect C10-no-home 0 "  $pwhome/.cache/gelucheck/venv/bin/python;" \
    env -u HOME XDG_CACHE_HOME=rel "$g" list
expect C10-framework-name-taken 0 "not started: its name is taken by plugin '$good'" \
    env GELUCHECK_HOSTILE=torch_name "$g" list --plugin "$good"

# ---- C2: a report interrupted (SIGINT) while it writes leaves no staging directory
"$g" report --quick --threads 2 --out "$d/repint" >/dev/null 2>&1 &
pid=$!
i=0
until ls -A "$d/repint" 2>/dev/null | grep -q staging || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pid
wait $pid
expect C2-interrupted-report 0 "no staging left" sh -c \
    "ls -A '$d/repint' | grep -q staging && ls -A '$d/repint' || echo 'no staging left'"

# ---- C9: a merge of parts that differ names both files and the field (either may be the edited
# one): the first part's domain edited, its checksum recomputed
for k in 1 2; do
    "$g" accuracy --impl relu --range 1:1.01 --shard $k/2 --threads 1 --partial "$d/part$k" >/dev/null 2>&1
done
python3 - "$d/part1" <<'PY'
import sys, zlib
p = sys.argv[1]
s = open(p, 'rb').read().replace(b'domain=range 0x3f800000 0x3f8147ae', b'domain=range 0x3f800000 0x3f8147af')
body = s[:s.rindex(b'crc32=')]
open(p, 'wb').write(body + b'crc32=%08x\n' % zlib.crc32(body))
PY
expect C9-merge-names-both 2 "'$d/part2' and '$d/part1' are not parts of the same run: the domain is 'range 0x3f800000 0x3f8147ae' in '$d/part2', 'range 0x3f800000 0x3f8147af' in '$d/part1'" \
    "$g" merge "$d/part2" "$d/part1"

# ---- M10: a plugin's row limit is its own (64), not shared with the default peers
peers=$(dirname "$(dirname "$g")")/peers # the build's default peers, beside cli/
expect M10-twenty-rows-beside-peers 0 "hx_19: plugin '$good'" env -u GELUCHECK_NO_DEFAULT_PEERS \
    GELUCHECK_PEERS_DIR="$peers" GELUCHECK_HOSTILE=rows20 "$g" list --plugin "$good"

echo "$((cases - fails)) of $cases cases passed"
[ "$fails" -eq 0 ]
