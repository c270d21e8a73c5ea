#!/bin/sh
# The frameworks' GELUs registered by default (plugins/exec_frameworks.c, peers/*.py):
# - without the frameworks' environment every row is listed as "not installed" (exit 0), and
#   naming one fails with exit 2 saying how to install it;
# - per installed framework, a sampled scan of its rows (--grad, one thread: one child each):
#   forward rows, derivative rows exactly when it has a derivative (ONNX Runtime: none, said so),
#   the batching probe's finding in accuracy.csv (yes or no, never empty), list's version the
#   environment's; PyTorch's rows carry its CPU capability as dispatched_isa, JAX's its XLA ISA
#   (and a cap's path and claims); per framework its
#   GELU on 16-bit tensors (--format bfloat16 or binary16, all 65,536 encodings) is scanned
#   natively, and ONNX Runtime's bfloat16 row, which it lacks, runs widened with a note; the
#   environment each row runs in (TensorFlow's and JAX's ftz+daz, said in an IEEE run) and its
#   first row under --fpenv ftz,daz (the framework's switch) flushing as expected;
# - the rows' paths (ROW@PATH): every client's list (binary32's and a 16-bit dtype's), a bad
#   selection refused, a path started by --impl, a fusion that does not fire refused, the paths
#   gate's 16-bit part failing on a path the dtype lacks; pick judging a row by its worst path. Under
#   the sanitize setup only the first part runs (the clients' code is not
#   ours; gelucheck's side of a child is test_exec_cli.sh's).
# Usage: test_frameworks.sh GELUCHECK
set -u
g=$1
. "$(dirname "$0")/lib.sh"

XDG_CACHE_HOME=$d/nothing "$g" list >"$d/out" 2>"$d/err" || fail "list without the frameworks: $(cat "$d/err")"
[ "$(grep -c '^  [a-z_]* *\(PyTorch\|TensorFlow\|JAX\|ONNX Runtime\) not installed ' "$d/out")" -eq 10 ] ||
    fail "list without the frameworks: not 10 'not installed' rows: $(tail -14 "$d/out")"
XDG_CACHE_HOME=$d/nothing "$g" accuracy --impl torch_gelu --sample 100 >/dev/null 2>"$d/err"
st=$?
[ $st -eq 2 ] && grep -q "torch_gelu: PyTorch (pip package torch) is not installed in .*nothing/gelucheck/venv/bin/python's environment (tools/setup.sh --frameworks installs it)" "$d/err" ||
    fail "a framework not installed, named: status $st: $(cat "$d/err")"

# The claim a framework row declares (max_abs) is what the gate holds it to: a Python child
# (examples/exec/gelucheck_exec.py, standard library only) claiming max_abs=3.85e-07, as
# tf_gelu and jax_gelu do, with a correctly rounded GELU (from double erfc) plus 1e-6 planted at
# x = 3: the scan of [2.9, 3.1] must break the claim there and exit 1.
ex=$(cd "$(dirname "$0")/../examples/exec" && pwd)
cat >"$d/planted.py" <<PY
import math, struct, sys
sys.path.insert(0, "$ex")
from gelucheck_exec import serve
def forward(buf):
    xs = struct.unpack("<%df" % (len(buf) // 4), buf)
    ys = [0.5 * x * math.erfc(-x / math.sqrt(2)) + (1e-6 if x == 3.0 else 0.0) for x in xs]
    return struct.pack("<%df" % len(ys), *ys)
sys.exit(serve("planted_max_abs", "exact", forward, contract={"max_abs": 3.85e-07}))
PY
"$g" accuracy --exec planted_max_abs="python3 $d/planted.py" --impl planted_max_abs --range 2.9:3.1 \
    --threads 1 >"$d/out" 2>"$d/err"
st=$?
[ $st -eq 1 ] && grep -q '^CONTRACT BROKEN.*planted_max_abs.*0x1.8p+1' "$d/out" ||
    fail "a broken max_abs claim at x = 3: status $st: $(grep -i contract "$d/out") $(tail -2 "$d/err")"

# pick judges a row with paths (ROW@PATH, peers/framework_paths.py) by its worst path and says
# which: two children of the planted client, named planted_max_abs and planted_max_abs@size1,
# and the pick fixture's results with a row for each, the path's max ULP planted at 3 (the
# row's 0.5): need 1 (<= 1 ULP) must fail the row on its path; without the path's rows the row
# fits.
pk=$d/pick_paths
mkdir -p "$pk"
fx=$(dirname "$0")/fixtures/pick
cp "$fx/accuracy.csv" "$fx/bench.csv" "$pk/"
grep '^tie_c,' "$fx/accuracy.csv" | sed 's/^tie_c,/planted_max_abs,/' >>"$pk/accuracy.csv"
grep ',tie_c,' "$fx/bench.csv" | sed 's/,tie_c,/,planted_max_abs,/' >>"$pk/bench.csv"
cp "$pk/accuracy.csv" "$pk/accuracy_no_path.csv"
cp "$pk/bench.csv" "$pk/bench_no_path.csv"
grep '^tie_c,' "$fx/accuracy.csv" | sed 's/^tie_c,\(exact,own,forward,1000,\)0.5,/planted_max_abs@size1,\13,/; s/^tie_c,/planted_max_abs@size1,/' >>"$pk/accuracy.csv"
grep ',tie_c,' "$fx/bench.csv" | sed 's/,tie_c,/,planted_max_abs@size1,/' >>"$pk/bench.csv"
sed -i 's/tie_a/erf_naive/; s/tie_b/erfc_libm/; s/tie_c/erfc_f64/; s/nonmono/as7126/; s/fast_v4/pw_fast_avx512/; s/tanhy/tanh_avx2/; s/relu_base/relu/g; s/avx512f+avx2+fma/fma+avx512f+avx512dq+avx512bw+avx512vl/' "$pk"/*.csv # registry names (test_cli.sh's pick fixture)
sed 's/"planted_max_abs"/"planted_max_abs@size1"/' "$d/planted.py" >"$d/planted_path.py"
pick_paths() {
    "$g" pick --exec planted_max_abs="python3 $d/planted.py" \
        --exec planted_max_abs@size1="python3 $d/planted_path.py" \
        --results "$pk" --platform generic --need 1 2>"$d/err"
}
pick_paths >"$d/out"
grep -q '^  planted_max_abs .*path size1: max ULP vs exact GELU 3 > 1 (judged by its worst of 2 paths: size1)' "$d/out" &&
    ! grep -q 'planted_max_abs@size1' "$d/out" ||
    fail "pick of a row with a worse path: $(cat "$d/out" "$d/err")"
cp "$pk/accuracy_no_path.csv" "$pk/accuracy.csv"
cp "$pk/bench_no_path.csv" "$pk/bench.csv"
pick_paths >"$d/out"
grep -q '^  planted_max_abs .*meets every constraint' "$d/out" && ! grep -q 'judged by its worst' "$d/out" ||
    fail "pick of a row without paths: $(cat "$d/out" "$d/err")"

py=${XDG_CACHE_HOME:-$HOME/.cache}/gelucheck/venv/bin/python
peers=$(cd "$(dirname "$0")/../peers" && pwd)
[ -n "${ASAN_OPTIONS:-}" ] && py=/nonexistent/sanitize-run
"$g" list >"$d/list" 2>&1 || fail "list: $(cat "$d/list")"
# framework label, pip package, its rows, whether they have a derivative
# and the 16-bit format its rows are scanned in here (all 65,536 encodings; one format per
# framework keeps the cost at one start-up each, the four covering both formats)
for spec in "PyTorch:torch:torch_gelu,torch_gelu_tanh:yes:bfloat16" \
            "TensorFlow:tensorflow-cpu:tf_gelu,tf_gelu_tanh:yes:binary16" \
            "JAX:jax:jax_gelu,jax_gelu_tanh:yes:bfloat16" \
            "ONNX Runtime:onnxruntime:ort_gelu,ort_gelu_tanh,ort_ms_gelu,ort_ms_fastgelu:no:binary16"; do
    label=${spec%%:*} rest=${spec#*:}
    package=${rest%%:*} rest=${rest#*:}
    impls=${rest%%:*} rest=${rest#*:}
    deriv=${rest%%:*} f16=${rest#*:}
    version=$([ -x "$py" ] && "$py" -c "from importlib.metadata import version; print(version('$package'))" 2>/dev/null)
    if [ -z "$version" ]; then
        echo "SKIP (reported): $label ($package) not installed in $py"
        continue
    fi
    for name in $(echo "$impls" | tr , ' '); do
        grep -q "^  $name  *$label $version " "$d/list" || fail "list: no '$name $label $version' row"
    done
    # the measured claims (peers/*.py), as their handshakes declare them ('|' for a space);
    # JAX's are its path's: with FMA where the CPU has AVX2, else without
    jax_grad=1.73e-07 jax_tanh=1.1e-06
    grep -qw avx2 /proc/cpuinfo && jax_grad=1.53e-07 jax_tanh=9.16e-07
    case $label in
    TensorFlow) claims="tensorflow_gelu.py::max_abs=3.85e-07|grad_max_abs=1.8e-07 tensorflow_gelu.py:--approximate:max_abs=1.05e-06" ;;
    JAX) claims="jax_gelu.py::max_abs=3.85e-07|grad_max_abs=$jax_grad jax_gelu.py:--approximate:max_abs=$jax_tanh" ;;
    "ONNX Runtime") claims="onnxruntime_gelu.py:--op=gelu:max_abs=4.48e-07 onnxruntime_gelu.py:--op=ms_gelu:max_abs=4.48e-07 onnxruntime_gelu.py:--op=ms_fastgelu:max_abs=8.92e-07" ;;
    PyTorch) claims="torch_gelu.py:--approximate=tanh:max_abs=4.34e-07" ;;
    *) claims= ;;
    esac
    for c in $claims; do
        client=${c%%:*} rest=${c#*:}
        opt=${rest%%:*} claim=$(echo "${rest#*:}" | tr '|' ' ')
        "$py" "$peers/$client" ${opt:+"$opt"} </dev/null 2>/dev/null | grep -qx "contract $claim" ||
            echo "$client $opt: no 'contract $claim' in its handshake"
    done >"$d/claims"
    [ -s "$d/claims" ] && fail "$label: $(cat "$d/claims")"
    "$g" accuracy --impl "$impls" --sample 20000 --grad --threads 1 --csv "$d/a.csv" \
        >"$d/out" 2>"$d/err" || fail "$label: status $?: $(tail -5 "$d/err")"
    for name in $(echo "$impls" | tr , ' '); do
        grep -q "^$name,binary32,[a-z]*,own,forward,20000," "$d/a.csv" || fail "$name: no forward row"
        if [ "$deriv" = yes ]; then
            grep -q "^$name,binary32,[a-z]*,own,derivative,20000," "$d/a.csv" || fail "$name: no derivative row"
        else
            grep -q "^$name,.*,derivative," "$d/a.csv" && fail "$name: a derivative row (forward only)"
            grep -q "^$name: forward only (no derivative kernel)" "$d/out" || fail "$name: forward only not said"
        fi
    done
    python3 - "$d/a.csv" "$impls" <<'PY' || fail "$label: batch_independent not yes/no: $(cat "$d/err")"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["impl"] in sys.argv[2].split(",")]
sys.exit(0 if rows and all(r["batch_independent"] in ("yes", "no") for r in rows) else 1)
PY
    # the floating-point environment each row runs in (peers/*.py's fpenv line): TensorFlow's
    # and JAX's always ftz+daz (their frameworks set FTZ and DAZ, with no switch), which their
    # rows say in this IEEE run; PyTorch's and ONNX Runtime's ieee. Under --fpenv ftz,daz (the
    # framework's own switch for those two) the first row over normal inputs whose GELU is
    # subnormal, [2^-126, 2^-126 + 512 ulp]: 0 ULP, flushed as expected (IEEE's gives 2^22).
    case $label in TensorFlow | JAX) want=ftz+daz ;; *) want=ieee ;; esac
    envs=$(python3 -c 'import csv,sys; print(" ".join(sorted({r["fpenv"] for r in csv.DictReader(open(sys.argv[1])) if r["impl"] in sys.argv[2].split(",")})))' "$d/a.csv" "$impls")
    [ "$envs" = "$want" ] || fail "$label: the rows' fpenv '$envs', not '$want'"
    first=${impls%%,*}
    "$g" accuracy --impl "$first" --fpenv ftz,daz --range 0x1p-126:0x1.0004p-126 --threads 1 \
        --csv "$d/fz.csv" >"$d/out" 2>"$d/err" || fail "$first under ftz,daz: status $?: $(cat "$d/out" "$d/err" | tail -n 5)"
    grep -q "^$first,binary32,exact,own,forward,513,0,.*,ftz+daz," "$d/fz.csv" ||
        fail "$first under ftz,daz: not 0 ULP over [2^-126, 2^-126 + 512 ulp]: $(grep "^$first,.*,own,forward," "$d/fz.csv" | cut -d, -f1-8)"
    # PyTorch reports its path on every row: torch_gelu_tanh ATen's CPU capability (lower case),
    # torch_gelu the path of the oneDNN that runs it (sse41, avx2, avx512_core...)
    if [ "$label" = PyTorch ]; then
        cap=$("$py" -c "import torch; print(torch.backends.cpu.get_cpu_capability().lower())" 2>/dev/null)
        isas() { python3 -c 'import csv,sys; print(" ".join(sorted({r["dispatched_isa"] for r in csv.DictReader(open(sys.argv[1])) if r["impl"] == sys.argv[2]})))' "$d/a.csv" "$1"; }
        [ -n "$cap" ] && [ "$(isas torch_gelu_tanh)" = "$cap" ] ||
            fail "PyTorch: torch_gelu_tanh's dispatched_isa '$(isas torch_gelu_tanh)', its capability '$cap'"
        case $(isas torch_gelu) in # (avx10_1_512*: newer oneDNN's names, e.g. Sapphire Rapids')
        sse41 | avx2 | avx512_core* | avx10_1_512*) ;;
        *) fail "PyTorch: torch_gelu's dispatched_isa '$(isas torch_gelu)' is not a oneDNN path" ;;
        esac
    fi
    # each row's claims are its path's (peers/torch_gelu.py): capped, the child names the capped
    # path and declares that path's contract
    if [ "$label" = PyTorch ]; then
        hs=$(ONEDNN_MAX_CPU_ISA=SSE41 "$py" "$peers/torch_gelu.py" --approximate none </dev/null 2>/dev/null)
        echo "$hs" | grep -qx "dispatched_isa sse41" && echo "$hs" | grep -qx "contract grad_max_abs=3.55e-07" ||
            fail "torch_gelu under ONEDNN_MAX_CPU_ISA=SSE41: $(echo "$hs" | grep -E '^(dispatched_isa|contract)')"
        hs=$(ATEN_CPU_CAPABILITY=default "$py" "$peers/torch_gelu.py" --approximate tanh </dev/null 2>/dev/null)
        echo "$hs" | grep -qx "dispatched_isa default" && echo "$hs" | grep -qx "contract max_abs=4.34e-07" ||
            fail "torch_gelu_tanh under ATEN_CPU_CAPABILITY=default: $(echo "$hs" | grep -E '^(dispatched_isa|contract)')"
    fi
    # JAX's XLA compiles for the host's widest ISA, at most --xla_cpu_max_isa (peers/jax_gelu.py):
    # its rows name the path (xla_*), and capped to SSE4_2 (no FMA, other outputs) the child
    # names that path and declares its claims
    if [ "$label" = JAX ]; then
        isa=$(python3 -c 'import csv,sys; print(" ".join(sorted({r["dispatched_isa"] for r in csv.DictReader(open(sys.argv[1])) if r["impl"] == "jax_gelu"})))' "$d/a.csv")
        case $isa in
        xla_sse4_2 | xla_avx | xla_avx2 | xla_avx512) ;;
        *) fail "JAX: jax_gelu's dispatched_isa '$isa' is not an XLA path" ;;
        esac
        hs=$(XLA_FLAGS="--xla_cpu_max_isa=SSE4_2" "$py" "$peers/jax_gelu.py" </dev/null 2>/dev/null)
        echo "$hs" | grep -qx "dispatched_isa xla_sse4_2" &&
            echo "$hs" | grep -qx "contract max_abs=3.85e-07 grad_max_abs=1.73e-07" ||
            fail "jax_gelu under --xla_cpu_max_isa=SSE4_2: $(echo "$hs" | grep -E '^(dispatched_isa|contract)')"
    fi
    # the framework's GELU on 16-bit tensors: every encoding, natively (not the binary32 child
    # widened), forward and derivative where it has one
    "$g" accuracy --format "$f16" --impl "$impls" --grad --threads 1 --csv "$d/f16.csv" \
        >"$d/out" 2>"$d/err" || fail "$label in $f16: status $?: $(tail -5 "$d/err")"
    for name in $(echo "$impls" | tr , ' '); do
        grep -q "^$name,$f16,[a-z]*,own,forward,65536," "$d/f16.csv" || fail "$name: no $f16 forward row"
        grep -q "^  $name  *native  *forward" "$d/out" || fail "$name: not native in $f16: $(tail -12 "$d/out")"
        if [ "$deriv" = yes ]; then
            grep -q "^$name,$f16,[a-z]*,own,derivative,65536," "$d/f16.csv" || fail "$name: no $f16 derivative row"
        fi
    done
done

# The paths (peers/framework_paths.py): every client lists the sizes 1 to 33, two threads and
# its own, without importing its framework; a selection naming no client's path is refused;
# an --impl ROW@PATH starts that path, named so; a fused path whose fusion does not fire (the
# FastGelu pattern with a planted constant, 0.0447) refuses to start.
for c in "torch_gelu.py:compile compile_dynamic" "tensorflow_gelu.py:function xla" \
         "jax_gelu.py:eager" "onnxruntime_gelu.py:optimized bias_fused bias_unfused"; do
    [ -x "$py" ] || break
    listed=$("$py" "$peers/${c%%:*}" --list-paths | cut -f1 | tr '\n' ' ')
    want="$(seq -f 'size%g' 1 33 | tr '\n' ' ')threads2 ${c#*:} "
    [ "$listed" = "$want" ] || fail "${c%%:*} --list-paths: '$listed', not '$want'"
    # a size path's third field is its tensor size, the cut its row's child serves
    sizes=$("$py" "$peers/${c%%:*}" --list-paths | cut -f3 | grep -v '^$' | tr '\n' ' ')
    want="$(seq -f '%g' 1 33 | tr '\n' ' ')"
    [ "$sizes" = "$want" ] || fail "${c%%:*} --list-paths sizes: '$sizes', not '$want'"
    # a 16-bit dtype: sizes to 65 (32 lanes a vector); ONNX Runtime's fusions are binary32's
    listed=$("$py" "$peers/${c%%:*}" --format binary16 --list-paths | cut -f1 | tr '\n' ' ')
    own=${c#*:}
    case $c in onnxruntime*) own=optimized ;; esac
    want="$(seq -f 'size%g' 1 65 | tr '\n' ' ')threads2 $own "
    [ "$listed" = "$want" ] || fail "${c%%:*} --format binary16 --list-paths: '$listed', not '$want'"
done
# the paths gate's 16-bit part (framework_paths_gate.sh) fails, status 2, on a path the dtype
# does not serve (ONNX Runtime's BiasGelu fusion, binary32 only), and passes on one it does
if [ -x "$py" ] && grep -q "^  ort_gelu  *ONNX Runtime [0-9]" "$d/list"; then
    GELUCHECK_GATE16="onnxruntime:binary16:ort_gelu:bias_fused" \
        sh "$(dirname "$0")/framework_paths_gate.sh" "$g" 0 16 >"$d/out" 2>&1
    st=$?
    [ $st -eq 2 ] && grep -q "ort_gelu@bias_fused: onnxruntime_gelu.py lists no path 'bias_fused'" "$d/out" ||
        fail "the paths gate's 16-bit part on a path binary16 lacks: status $st: $(cat "$d/out")"
    GELUCHECK_GATE16="onnxruntime:binary16:ort_gelu:size3" \
        sh "$(dirname "$0")/framework_paths_gate.sh" "$g" 0 16 >"$d/out" 2>&1 &&
        grep -q "paths gate (binary16, every encoding): ort_gelu,ort_gelu@size3" "$d/out" ||
        fail "the paths gate's 16-bit part on ort_gelu@size3: $(cat "$d/out")"
fi
if [ -x "$py" ] && grep -q "^  ort_gelu  *ONNX Runtime [0-9]" "$d/list"; then
    GELUCHECK_FRAMEWORK_PATHS=size1,nosuch "$g" accuracy --impl ort_gelu --sample 100 >"$d/out" 2>"$d/err"
    st=$?
    [ $st -eq 2 ] && grep -q "GELUCHECK_FRAMEWORK_PATHS: 'nosuch' is no installed framework row's path" "$d/err" ||
        fail "a path selection naming no path: status $st: $(cat "$d/err")"
    "$g" accuracy --impl ort_gelu@bias_fused,ort_gelu --sample 2000 --threads 1 --csv "$d/p.csv" >"$d/out" 2>"$d/err" &&
        grep -q "^ort_gelu@bias_fused,binary32,exact,own,forward,2000," "$d/p.csv" ||
        fail "ort_gelu@bias_fused by --impl: $(tail -3 "$d/err")"
    (cd "$peers" && "$py" -c 'import sys; sys.argv = ["x", "--op", "ms_fastgelu", "--path", "formula_fused"]
import onnxruntime_gelu as o
from onnx import helper
graph_of = o.graph_of
def planted(*a):
    nodes, inits, shape = graph_of(*a)
    inits[0] = helper.make_tensor("k", inits[0].data_type, [], [0.0447])
    return nodes, inits, shape
o.graph_of = planted
o.main()' </dev/null >"$d/out" 2>"$d/err")
    grep -q "path formula_fused: the optimised model holds no FastGelu (its nodes: .*): the fusion did not fire" "$d/err" ||
        fail "a FastGelu fusion planted not to fire: $(tail -2 "$d/err")"
fi

# TensorFlow's size paths run their calls in a graph loop, checked against eager calls before
# serving: a loop planted to differ at the check's sixth input (one bit of its forward) refuses
# to serve, naming that input
if [ -x "$py" ] && grep -q "^  tf_gelu  *TensorFlow [0-9]" "$d/list"; then
    sixth=$("$py" -c 'import numpy as np
print(hex(np.random.default_rng(1).integers(0, 2**32, 256, dtype=np.uint64).astype("<u4")[5]))')
    cat >"$d/planted_loop.py" <<'PY'
import sys
sys.path.insert(0, ".")  # run from peers/
import numpy as np
import tensorflow_gelu as t
loop = t.in_graph_loop
def planted(*a):
    call = loop(*a)
    def wrong(buf):
        y = np.array(call(buf))
        y.view(np.uint32)[5] ^= 1
        return y
    return wrong
t.in_graph_loop = planted
sys.exit(t.main())
PY
    (cd "$peers" && "$py" "$d/planted_loop.py" --path size3 </dev/null >"$d/out" 2>"$d/err")
    st=$?
    [ $st -eq 2 ] && grep -q "path size3: the graph loop's outputs differ from eager calls' (forward at input $sixth: " "$d/err" ||
        fail "a size path's graph loop planted to differ: status $st (sixth input $sixth): $(tail -2 "$d/err")"
    # the same loop served as a cut of the row's child (docs/protocol.md, "Cuts"): the request
    # in tensors of 3 answered with an error naming the input, the row's own requests unharmed
    (cd "$peers" && "$py" -c 'import struct, subprocess, sys
import numpy as np
p = subprocess.Popen([sys.executable, sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
hs = b""
while not hs.endswith(b"end\n"):
    hs += p.stdout.readline()
assert b"\ncuts yes\n" in hs, hs
x = np.linspace(-3, 3, 12).astype("<f4").tobytes()
for op in (1, 1 | 3 << 8):
    p.stdin.write(struct.pack("<4sIQ", b"GXRQ", op, 12) + x)
    p.stdin.flush()
    magic, status, count, ns = struct.unpack("<4sIQQ", p.stdout.read(24))
    body = p.stdout.read(count if status else 4 * count)
    print(op, status, body.decode(errors="replace") if status else len(body))
p.stdin.write(struct.pack("<4sIQ", b"GXRQ", 0, 0))
p.stdin.close()
p.wait()' "$d/planted_loop.py" </dev/null >"$d/out" 2>"$d/err")
    grep -q "^1 0 48$" "$d/out" &&
        grep -q "^769 2 ValueError: the graph loop's outputs differ from eager calls' (forward at input $sixth: .*) in tensors of 3: not served" "$d/out" ||
        fail "a cut's graph loop planted to differ: $(cat "$d/out") $(tail -2 "$d/err")"
fi

# ONNX Runtime's CPU provider has no bfloat16 GELU: its row runs widened there, said so
if grep -q "^  ort_gelu  *ONNX Runtime [0-9]" "$d/list"; then
    "$g" accuracy --format bfloat16 --impl ort_gelu --threads 1 >"$d/out" 2>"$d/err" &&
        grep -q "note: ONNX Runtime serves no bfloat16 tensors: its binary32 GELU runs widened" "$d/err" &&
        grep -q "^  ort_gelu  *widened  *forward" "$d/out" ||
        fail "ort_gelu in bfloat16: not widened or not said: $(tail -3 "$d/err")"
fi

[ $fails -eq 0 ] && echo "frameworks: every case as expected"
exit $((fails > 0))
