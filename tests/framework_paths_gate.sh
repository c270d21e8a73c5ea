#!/bin/sh
# The frameworks' paths gated on a sample (docs/frameworks.md, "Paths"; run by .ci/run): per
# installed framework, its rows and a set of their paths (ROW@PATH: tensors of 1 and 17
# elements — the scalar path, and a vector body with a tail of one —, two intra-op threads, and
# the framework's compiled, eager or fused paths), forward and derivative, over a sample, each
# held to its row's contract: exit 1 when a claim breaks (the scan names it), 2 when a path does
# not start (a fusion that did not fire refuses to start: peers/onnxruntime_gelu.py). A framework
# not installed is skipped, said so. The frameworks run in two lanes side by side (one scan
# thread each: a child per row), PyTorch then JAX, TensorFlow then ONNX Runtime.
#   framework_paths_gate.sh GELUCHECK [SAMPLE]
set -u
g=$1 n=${2:-10000}
py=${XDG_CACHE_HOME:-$HOME/.cache}/gelucheck/venv/bin/python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gate SPEC LOG: one framework's rows and paths ("package:row:paths:row:paths"); its status
gate() {
    package=${1%%:*} rest=${1#*:}
    row1=${rest%%:*} rest=${rest#*:}
    paths1=${rest%%:*} rest=${rest#*:}
    row2=${rest%%:*} paths2=${rest#*:}
    if ! [ -x "$py" ] || ! "$py" -c "from importlib.metadata import version; version('$package')" 2>/dev/null; then
        echo "SKIP: $package not installed in $py" >"$2"
        return 0
    fi
    impls=$row1,$row2
    for p in $(echo "$paths1" | tr , ' '); do impls=$impls,$row1@$p; done
    for p in $(echo "$paths2" | tr , ' '); do impls=$impls,$row2@$p; done
    echo "paths gate: $impls" >"$2"
    # a size-1 path answers a request with one framework call per input: TensorFlow's eager
    # calls take minutes for a request of the whole sample on a loaded machine
    "$g" accuracy --impl "$impls" --sample "$n" --grad --threads 1 --exec-timeout 900 >"$2.out" 2>&1
    st=$?
    grep -E '^(CONTRACT BROKEN|every implementation|gelucheck: )' "$2.out" >>"$2"
    [ $st -eq 0 ] || { echo "FAIL: $package's paths: status $st"; tail -5 "$2.out"; } >>"$2"
    return $st
}

lane() { # SPEC SPEC: one after the other; the larger status
    s=0
    gate "$1" "$tmp/$3.1"
    a=$?
    gate "$2" "$tmp/$3.2"
    b=$?
    [ $a -gt $b ] && s=$a || s=$b
    echo $s >"$tmp/$3.status"
}
lane "torch:torch_gelu:size1,size17,threads2,compile,compile_dynamic:torch_gelu_tanh:size1,compile" \
     "jax:jax_gelu:size1,size17,threads2,eager:jax_gelu_tanh:size1,eager" a &
lane "tensorflow-cpu:tf_gelu:size1,size17,threads2,function,xla:tf_gelu_tanh:size1,xla" \
     "onnxruntime:ort_gelu:size1,size17,threads2,optimized,bias_fused,bias_unfused:ort_ms_fastgelu:size1,formula_fused,formula_unfused" b &
wait
status=0
for l in a.1 a.2 b.1 b.2; do cat "$tmp/$l"; done
for l in a b; do
    s=$(cat "$tmp/$l.status" 2>/dev/null || echo 2)
    [ "$s" -le $status ] || status=$s
done
exit $status
