#!/bin/sh
# --exec on the command line: a child is an implementation like a built-in one.
# - tests/exec_child serving erfc_f64 under another name gives erfc_f64's rows to the byte, over
#   shared memory (offered, taken) and over the pipes (the child's environment without
#   GELUCHECK_EXEC_SHM: offered nothing it can name, it keeps the pipes);
# - a child whose outputs depend on the batching gets a note naming the input;
# - a planted wrong output breaks the gate at its input; a child that dies mid-scan fails the
#   run (exit 1, the child and its status named) and leaves the CSV as it was;
# - names: a clash with a built-in one and a hostile name are refused (exit 2);
# - the Python client (examples/exec/python_gelu.py, standard library) runs through the scan
#   (the frameworks' clients: test_frameworks.sh), with the same rows over shared memory and the
#   pipes, and so does a Python child that writes its outputs into the region (serve(out=True));
# - a 16-bit child (format bfloat16/binary16) gives cr_bfloat16's rows over both transports, a
#   planted 1-ULP-off output is caught at its input; dispatched_isa is shown (list, CSV); a bad
#   format or dispatched_isa line is refused (exit 2) naming the value.
# Usage: test_exec_cli.sh GELUCHECK EXEC_CHILD EXAMPLES_DIR
set -u
g=$1 child=$2 examples=$3
. "$(dirname "$0")/lib.sh"
# rows IMPL CSV: IMPL's rows of CSV without the columns that name it (impl) or say how it was
# added (batch_independent: probed for a child, empty for a built-in kernel)
rows() {
    skip=$(head -1 "$2" | tr , '\n' | grep -n '^batch_independent$' | cut -d: -f1)
    grep "^$1," "$2" | cut -d, -f"1,$skip" --complement
}

"$g" accuracy --exec "ef=$child erfc_f64 --name ef" --exec "ep=env -u GELUCHECK_EXEC_SHM $child erfc_f64 --name ep" \
    --impl ef,ep,erfc_f64 --sample 100000 --grad --csv "$d/a.csv" >/dev/null 2>"$d/err" ||
    fail "exec twin: $(cat "$d/err")"
grep -q "note:" "$d/err" && fail "a batch-independent child got a note: $(cat "$d/err")"
# a child whose outputs depend on the batching is named, with the input and both outputs
"$g" list --exec "ef=$child erfc_f64 --name ef --alone-differs" >/dev/null 2>"$d/err"
grep -q "note: exec child 'ef' gives other outputs for the same input in other batches: forward at x = .* in a batch of 1024 and .* alone" "$d/err" ||
    fail "batch dependence not noted: $(cat "$d/err")"
rows erfc_f64 "$d/a.csv" >"$d/builtin"
rows ef "$d/a.csv" >"$d/exec"
rows ep "$d/a.csv" >"$d/exec_pipe"
[ -s "$d/exec" ] && cmp -s "$d/builtin" "$d/exec" || fail "the exec twin's rows differ from erfc_f64's"
[ -s "$d/exec_pipe" ] && cmp -s "$d/builtin" "$d/exec_pipe" ||
    fail "the exec twin's rows over the pipes differ from erfc_f64's"

# a forward-only child ('derivative no'): scanned forward under --grad, the same forward rows as
# erfc_f64's, no derivative row, 'n/a' in list, eval --grad refused, left out of moons
fo="ef=$child erfc_f64 --name ef --no-derivative"
"$g" accuracy --exec "$fo" --impl ef,erfc_f64 --sample 20000 --grad --csv "$d/fo.csv" \
    >"$d/out" 2>"$d/err" || fail "forward-only child: $(cat "$d/err")"
grep -q "^ef: forward only (no derivative kernel): its derivative is not scanned" "$d/out" ||
    fail "forward only not said: $(cat "$d/out")"
grep -q '^ef,.*,derivative,' "$d/fo.csv" && fail "a derivative row for a forward-only child"
[ "$(rows ef "$d/fo.csv")" = "$(rows erfc_f64 "$d/fo.csv" | grep ',forward,')" ] ||
    fail "the forward-only child's forward rows differ from erfc_f64's"
"$g" list --exec "$fo" | grep -q '^ef  .* n/a  *n/a ' || fail "list: no n/a for a forward-only child"
"$g" eval --exec "$fo" --impl ef --grad 1 >/dev/null 2>"$d/err"
st=$?
[ $st -eq 2 ] && grep -q "'ef' is forward only" "$d/err" || fail "eval --grad of a forward-only child: $st"
"$g" moons --quick --seeds 2 --exec "$fo" --impl ef >"$d/out" 2>"$d/err" &&
    grep -q "left out (forward only: no derivative to train through): ef" "$d/out" ||
    fail "moons with a forward-only child: $(tail -3 "$d/err")"

# the same child in bfloat16 under --grad (issue 15): widened and scanned forward only, its
# forward rows those of erfc_f64 widened, no derivative row (n/a in the summary); the native
# cr_bfloat16 beside it keeps its derivative rows (a native's derivative is its 16-bit kernel)
"$g" accuracy --format bfloat16 --threads 2 --exec "$fo" --impl ef,erfc_f64,cr_bfloat16 --grad \
    --csv "$d/fo16.csv" >"$d/out" 2>"$d/err" || fail "forward-only child in bfloat16: $(cat "$d/err")"
grep -q "^ef: forward only (no derivative kernel): its derivative is not scanned" "$d/out" &&
    grep -q "^  ef  *widened   forward .* derivative    n/a (forward only)" "$d/out" ||
    fail "bfloat16: forward only not said: $(cat "$d/out")"
grep -q '^ef,.*,derivative,' "$d/fo16.csv" && fail "bfloat16: a derivative row for a forward-only child"
[ "$(rows ef "$d/fo16.csv")" = "$(rows erfc_f64 "$d/fo16.csv" | grep ',forward,')" ] ||
    fail "bfloat16: the forward-only child's forward rows differ from erfc_f64's"
[ "$(grep -c '^cr_bfloat16,.*,derivative,' "$d/fo16.csv")" -eq 2 ] ||
    fail "bfloat16: cr_bfloat16's derivative rows (own, exact) missing: $(cut -d, -f1-5 "$d/fo16.csv")"

"$g" accuracy --exec "ef=$child erfc_f64 --name ef --wrong-at 0x3fc00000" --impl ef \
    --range 1.4:1.6 >"$d/out" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "ef forward: max ULP error .* at x = 0x1.8p+0 (0x3fc00000)" "$d/out" ||
    fail "planted wrong output at 1.5: status $st: $(tail -3 "$d/out")"

echo keep >"$d/keep.csv"
"$g" accuracy --exec "ef=$child erfc_f64 --name ef --die-after 1" --impl ef --sample 300000 \
    --csv "$d/keep.csv" >"$d/out" 2>"$d/err"
st=$?
[ $st -eq 1 ] && grep -q "exec child 'ef' (.*): .* request of .* the child exited with status 3; nothing was written" "$d/err" ||
    fail "a child dying mid-scan: status $st: $(cat "$d/err")"
[ "$(cat "$d/keep.csv")" = keep ] || fail "the CSV was replaced after the child died"
# the same over shared memory: a child that claims it and answers over the pipe mid-scan
"$g" accuracy --exec "ef=$child erfc_f64 --name ef --pipe-reply-after 1" --impl ef --sample 300000 \
    --csv "$d/keep.csv" >"$d/out" 2>"$d/err"
st=$?
[ $st -eq 1 ] && grep -q "exec child 'ef' (.*): .* request of .* a pipe reply ('GXRP'), though it announced 'transport shm'.*; nothing was written" "$d/err" ||
    fail "a shared-memory child answering over the pipe mid-scan: status $st: $(cat "$d/err")"
[ "$(cat "$d/keep.csv")" = keep ] || fail "the CSV was replaced after the shm child failed"
[ -s "$d/out" ] && fail "a verdict was printed after the child died: $(head -3 "$d/out")"

"$g" list --exec "erfc_f64=$child erfc_f64" >/dev/null 2>"$d/err"
st=$?
[ $st -eq 2 ] && grep -q "two implementations are named 'erfc_f64': the built-in one and exec child" "$d/err" ||
    fail "name clash: status $st: $(cat "$d/err")"
"$g" list --exec "a<script>=$child erfc_f64" >/dev/null 2>"$d/err"
st=$?
[ $st -eq 2 ] && grep -q "a name is 1 to 48 of" "$d/err" || fail "hostile name: status $st: $(cat "$d/err")"
"$g" list --exec "ef=$child erfc_f64" >/dev/null 2>"$d/err"
st=$?
[ $st -eq 2 ] && grep -q "the child calls itself 'erfc_f64'" "$d/err" || fail "names disagree: $st: $(cat "$d/err")"
"$g" list --exec "ef=$child erfc_f64 --name ef" >"$d/out" 2>&1 && grep -q "^ef " "$d/out" &&
    grep -q "^  ef: exec child '$child erfc_f64 --name ef'" "$d/out" ||
    fail "list does not show the exec implementation: $(cat "$d/out")"
# without NAME=, the handshake names it (a '=' after the command's first space is the command's)
"$g" list --exec "env A=1 $child erfc_f64 --name ef2" >"$d/out" 2>&1 && grep -q "^ef2 " "$d/out" &&
    grep -q "^  ef2: exec child 'env A=1 $child erfc_f64 --name ef2'" "$d/out" ||
    fail "--exec COMMAND: not named by its handshake: $(cat "$d/out")"
"$g" list --exec "=$child erfc_f64" >/dev/null 2>"$d/err"
[ $? -eq 2 ] && grep -qF "expected [NAME=]COMMAND" "$d/err" || fail "--exec =COMMAND: $(cat "$d/err")"

# the Python client over shared memory, and the same functions under other names over the pipes
# and writing into the region (serve(out=True)): the same rows
cat >"$d/py_child.py" <<EOF
import sys
sys.path.insert(0, "$examples")
import python_gelu
from gelucheck_exec import serve
out = len(sys.argv) > 2
def into(f):
    def kernel(x, y):
        memoryview(y)[:] = f(x)
    return kernel if out else f
sys.exit(serve(sys.argv[1], "exact", into(python_gelu.elementwise(python_gelu.gelu)),
               into(python_gelu.elementwise(python_gelu.gelu_derivative)), out=out))
EOF
"$g" accuracy --exec "py_gelu=python3 $examples/python_gelu.py" \
    --exec "py_pipe=env -u GELUCHECK_EXEC_SHM python3 $d/py_child.py py_pipe" \
    --exec "py_out=python3 $d/py_child.py py_out out" --impl py_gelu,py_pipe,py_out --sample 20000 \
    --grad --csv "$d/py.csv" >"$d/out" 2>"$d/err" && grep -q "^py_gelu .* forward" "$d/out" ||
    fail "the Python client: $(cat "$d/err")"
[ -n "$(rows py_gelu "$d/py.csv")" ] && [ "$(rows py_gelu "$d/py.csv")" = "$(rows py_pipe "$d/py.csv")" ] &&
    [ "$(rows py_gelu "$d/py.csv")" = "$(rows py_out "$d/py.csv")" ] ||
    fail "the Python client's rows differ between transports (shm, pipes, out=True)"

# --fpenv and exec children (docs/protocol.md, 'fpenv'). A child without an fpenv line runs in
# IEEE's environment only: under ftz,daz (accuracy) or daz (eval) it is refused by name with the
# reason, exit 2 before any work; with ieee it runs.
"$g" accuracy --exec "ef=$child erfc_f64 --name ef" --impl ef,cr --fpenv ftz,daz --sample 100 \
    >"$d/out" 2>"$d/err"
[ $? -eq 2 ] && grep -q "fpenv ftz+daz: exec child 'ef' (exec child '.*') cannot run its kernels in that environment: its handshake has no 'fpenv' line (IEEE's only)" "$d/err" &&
    [ ! -s "$d/out" ] || fail "accuracy --fpenv ftz,daz with an old exec child: $(cat "$d/out" "$d/err")"
"$g" eval --exec "ef=$child erfc_f64 --name ef" --impl ef --fpenv daz 1 >"$d/out" 2>"$d/err"
[ $? -eq 2 ] && grep -q "exec child 'ef' .* has no 'fpenv' line" "$d/err" ||
    fail "eval --fpenv daz with an old exec child: $(cat "$d/err")"
"$g" accuracy --exec "ef=$child erfc_f64 --name ef" --impl ef --fpenv ieee --sample 100 >/dev/null 2>"$d/err" ||
    fail "accuracy --fpenv ieee with an exec child: $(cat "$d/err")"
# A child listing 'fpenv ieee ftz+daz' (exec_child --fpenv: MXCSR set around its kernel calls as
# GELUCHECK_EXEC_FPENV asks) is refused under ftz and daz, the list named; under ieee and ftz,daz
# its rows are in-process cr's to the byte around the subnormals of both signs (subnormal inputs,
# normal ones with subnormal results, the results that round to 2^-126).
xc="$child cr --name xc --fpenv 'ieee ftz+daz'"
for e in ftz daz; do
    "$g" accuracy --exec "xc=$xc" --impl xc --fpenv $e --range 0x1p-149:0x1p-148 >"$d/out" 2>"$d/err"
    [ $? -eq 2 ] && grep -q "fpenv $e: exec child 'xc' .* its handshake lists 'fpenv ieee ftz+daz'" "$d/err" &&
        [ ! -s "$d/out" ] || fail "--fpenv $e with a child listing ieee ftz+daz: $(cat "$d/err")"
done
for e in ieee ftz,daz; do
    for r in -0x1p-140:0x1p-140 0x1.fffcp-126:0x1.0004p-125 -0x1.0004p-126:-0x1.fff8p-127; do
        "$g" accuracy --exec "xc=$xc" --impl xc,cr --fpenv $e --range $r --grad --csv "$d/fe.csv" \
            >/dev/null 2>"$d/err" || fail "--fpenv $e over $r: $(cat "$d/err")"
        [ -n "$(rows xc "$d/fe.csv")" ] && [ "$(rows xc "$d/fe.csv")" = "$(rows cr "$d/fe.csv")" ] ||
            fail "--fpenv $e over $r: the child's rows differ from in-process cr's: $(cut -d, -f1-12 "$d/fe.csv")"
    done
done
# A planted child listing ieee ftz+daz that sets nothing is caught under ftz,daz at the first
# subnormal input (2^-149: its output 2^-149, expected 0 with DAZ; 1 ULP > cr's claimed 0.5).
"$g" accuracy --exec "xp=$child cr --name xp --fpenv 'ieee ftz+daz' --fpenv-unset" --impl xp \
    --fpenv ftz,daz --range 0x1p-149:0x1p-148 >"$d/out" 2>"$d/err"
st=$?
[ $st -eq 1 ] && grep -q "CONTRACT BROKEN (1 claim): xp forward: max ULP error 1 > claimed 0.5 at x = 0x1p-149 (0x00000001)" "$d/out" ||
    fail "a child that claims ftz+daz and sets nothing: status $st: $(cat "$d/out" "$d/err")"
# A child listing no ieee ('fpenv ftz daz': a fixed environment, as TensorFlow's) runs in the
# first it lists when the run is IEEE's: list says so, its CSV rows say fpenv ftz (cr's ieee),
# and they are cr's under --fpenv ftz; --fpenv daz is accepted, ftz,daz refused.
xf="$child cr --name xf --fpenv 'ftz daz'"
"$g" list --exec "xf=$xf" >"$d/out" 2>"$d/err" &&
    grep -A3 "^  xf: exec child" "$d/out" | grep -q "fpenv: always ftz (MXCSR's FTZ/DAZ; it lists 'fpenv ftz daz', no ieee)" ||
    fail "list: a fixed environment not shown: $(cat "$d/out" "$d/err")"
r=0x1.fffcp-126:0x1.0004p-125
"$g" accuracy --exec "xf=$xf" --impl xf,cr --range $r --csv "$d/ff.csv" >/dev/null 2>"$d/err"
"$g" accuracy --impl cr --fpenv ftz --range $r --csv "$d/fc.csv" >/dev/null 2>>"$d/err"
col=$(head -1 "$d/ff.csv" | tr , '\n' | grep -n '^fpenv$' | cut -d: -f1)
[ "$(grep '^xf,' "$d/ff.csv" | cut -d, -f"$col" | sort -u)" = ftz ] &&
    [ "$(grep '^cr,' "$d/ff.csv" | cut -d, -f"$col" | sort -u)" = ieee ] ||
    fail "the fixed environment's fpenv column: $(cut -d, -f1,5,"$col" "$d/ff.csv") $(cat "$d/err")"
"$g" accuracy --exec "xf=$xf" --impl xf --fpenv ftz --range $r --csv "$d/ff2.csv" >/dev/null 2>>"$d/err"
[ -n "$(rows xf "$d/ff2.csv")" ] && [ "$(rows xf "$d/ff2.csv")" = "$(rows cr "$d/fc.csv")" ] ||
    fail "a fixed-ftz child under --fpenv ftz: rows differ from cr's: $(cat "$d/err")"
"$g" eval --exec "xf=$xf" --impl xf --fpenv daz 0x1p-140 >/dev/null 2>"$d/err" ||
    fail "eval --fpenv daz with a child listing ftz daz: $(cat "$d/err")"
"$g" eval --exec "xf=$xf" --impl xf --fpenv ftz,daz 0x1p-140 >/dev/null 2>"$d/err"
[ $? -eq 2 ] && grep -q "its handshake lists 'fpenv ftz daz'" "$d/err" ||
    fail "eval --fpenv ftz,daz with a child listing ftz daz: $(cat "$d/err")"
# A bad fpenv line is refused naming the word.
printf 'gelucheck-exec 1\nname hb\ntarget exact\nformat binary32\nfpenv ieee fast\nend\n' >"$d/hs_fpenv"
"$g" list --exec "hb=$child erfc_f64 --handshake $d/hs_fpenv" >/dev/null 2>"$d/err"
st=$?
[ $st -eq 2 ] && grep -q "handshake line 5: fpenv: 'fast' is not one of ieee, ftz, daz, ftz+daz" "$d/err" ||
    fail "a bad fpenv line: status $st: $(cat "$d/err")"
# a 16-bit child (format bfloat16, binary16: 2-byte encodings; issue 15): serving cr_bfloat16
# natively it gives cr_bfloat16's rows to the byte over shared memory and over the pipes, and
# its dispatched_isa is in list and in every row of the CSV; a planted output 1 ULP off at
# x = 1.5 (0x3fc0) breaks its max_ulp=0.5 claim at that input
cb="$child cr_bfloat16 --format bfloat16 --name cb --isa test_path"
"$g" accuracy --format bfloat16 --threads 2 --exec "cb=$cb" \
    --exec "cp=env -u GELUCHECK_EXEC_SHM $child cr_bfloat16 --format bfloat16 --name cp" \
    --impl cb,cp,cr_bfloat16 --grad --csv "$d/b16.csv" >"$d/out" 2>"$d/err" ||
    fail "16-bit child: $(cat "$d/err")"
isa_col=$(head -1 "$d/b16.csv" | tr , '\n' | grep -n '^dispatched_isa$' | cut -d: -f1)
bi_col=$(head -1 "$d/b16.csv" | tr , '\n' | grep -n '^batch_independent$' | cut -d: -f1)
rows16() { grep "^$1," "$d/b16.csv" | cut -d, -f"1,$bi_col,$isa_col" --complement; }
[ "$(rows cr_bfloat16 "$d/b16.csv" | wc -l)" -eq 4 ] && [ "$(rows16 cb)" = "$(rows16 cr_bfloat16)" ] &&
    [ "$(rows16 cp)" = "$(rows16 cr_bfloat16)" ] ||
    fail "the 16-bit child's rows differ from cr_bfloat16's: $(cut -d, -f1-8 "$d/b16.csv")"
[ "$(grep '^cb,' "$d/b16.csv" | cut -d, -f"$isa_col" | sort -u)" = test_path ] ||
    fail "dispatched_isa test_path not in cb's rows"
"$g" accuracy --format bfloat16 --exec "cb=$cb --wrong-at 0x3fc0" --impl cb >"$d/out" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "cb forward: max ULP error .* > claimed 0.5 at x = 0x1.8p+0 (0x3fc00000)" "$d/out" ||
    fail "planted 1-ULP-off bfloat16 output at 1.5: status $st: $(tail -3 "$d/out")"
"$g" accuracy --format binary16 --exec "ch=$child cr_binary16 --format binary16 --name ch --wrong-at 0x3e00" \
    --impl ch >"$d/out" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "ch forward: max ULP error .* > claimed 0.5 at x = 0x1.8p+0 (0x3fc00000)" "$d/out" ||
    fail "planted 1-ULP-off binary16 output at 1.5: status $st: $(tail -3 "$d/out")"
# a binary64 child (8-byte values): the same figures as the built-in row it serves, on a sample;
# planted: a child serving tanh_libm's binary64 kernels differs
b64() { # NAME ROW: the console rows of NAME, its name column removed
    "$g" accuracy --format binary64 --grad --sample 20000 --impl "$1" --exec "$1=$child $2 --format binary64 --name $1" \
        2>&1 | awk -v n="$1" '$1 == n { $1 = ""; print }'
}
"$g" accuracy --format binary64 --grad --sample 20000 --impl erfc_libm 2>&1 |
    awk '$1 == "erfc_libm" { $1 = ""; print }' >"$d/b64_builtin"
b64 xe erfc_libm >"$d/b64_child"
[ -s "$d/b64_builtin" ] && cmp -s "$d/b64_builtin" "$d/b64_child" ||
    fail "the binary64 child's rows differ from erfc_libm's: $(diff "$d/b64_builtin" "$d/b64_child" | head -4)"
b64 xt tanh_libm >"$d/b64_other"
cmp -s "$d/b64_builtin" "$d/b64_other" && fail "planted: tanh_libm's binary64 rows are erfc_libm's"
"$g" list --exec "cb=$cb" >"$d/out" 2>&1 &&
    grep -q "^  cb: bfloat16, target exact, .*exec child .*dispatched ISA: test_path" "$d/out" ||
    fail "list: the 16-bit child or its dispatched ISA not shown: $(cat "$d/out")"
"$g" list --exec "ef=$child erfc_f64 --name ef --isa avx2" >"$d/out" 2>&1 &&
    grep -A1 "^  ef: exec child" "$d/out" | grep -q "dispatched ISA: avx2" ||
    fail "list: a binary32 child's dispatched ISA not shown: $(cat "$d/out")"
# a bad format line, a bad dispatched_isa: refused, the value named (exit 2)
printf 'gelucheck-exec 1\nname hb\ntarget exact\nformat binary128\nend\n' >"$d/hs_format"
"$g" list --exec "hb=$child erfc_f64 --handshake $d/hs_format" >/dev/null 2>"$d/err"
st=$?
[ $st -eq 2 ] && grep -q "handshake line 4: bad format 'binary128' (binary32, bfloat16, binary16, binary64, e4m3 or e5m2)" "$d/err" ||
    fail "a bad format line: status $st: $(cat "$d/err")"
printf 'gelucheck-exec 1\nname hb\ntarget exact\nformat binary32\ndispatched_isa AVX-512\nend\n' >"$d/hs_isa"
"$g" list --exec "hb=$child erfc_f64 --handshake $d/hs_isa" >/dev/null 2>"$d/err"
st=$?
[ $st -eq 2 ] && grep -q "handshake line 5: bad dispatched_isa 'AVX-512' (1 to 31 of a-z 0-9 _)" "$d/err" ||
    fail "a bad dispatched_isa line: status $st: $(cat "$d/err")"

[ $fails -eq 0 ] && echo "exec children: every case as expected"
exit $((fails > 0))
