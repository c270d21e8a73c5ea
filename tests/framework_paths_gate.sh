#!/bin/sh
# The frameworks' paths gated on a sample (docs/frameworks.md, "Paths"; run by .ci/run): per
# installed framework, its rows and a set of their paths (ROW@PATH: tensors of 1 and 17
# elements — the scalar path, and a vector body with a tail of one —, two intra-op threads, and
# the framework's compiled, eager or fused paths), forward and derivative, over a sample, each
# held to its row's contract: exit 1 when a claim breaks (the scan names it), 2 when a path does
# not start (a fusion that did not fire refuses to start: peers/onnxruntime_gelu.py). A framework
# not installed is skipped, said so.
#   framework_paths_gate.sh GELUCHECK [SAMPLE]
set -u
g=$1 n=${2:-10000}
py=${XDG_CACHE_HOME:-$HOME/.cache}/gelucheck/venv/bin/python
status=0
for spec in "torch:torch_gelu:size1,size17,threads2,compile,compile_dynamic:torch_gelu_tanh:size1,compile" \
            "tensorflow-cpu:tf_gelu:size1,size17,threads2,function,xla:tf_gelu_tanh:size1,xla" \
            "jax:jax_gelu:size1,size17,threads2,eager:jax_gelu_tanh:size1,eager" \
            "onnxruntime:ort_gelu:size1,size17,threads2,optimized,bias_fused,bias_unfused:ort_ms_fastgelu:size1,formula_fused,formula_unfused"; do
    package=${spec%%:*} rest=${spec#*:}
    row1=${rest%%:*} rest=${rest#*:}
    paths1=${rest%%:*} rest=${rest#*:}
    row2=${rest%%:*} paths2=${rest#*:}
    if ! [ -x "$py" ] || ! "$py" -c "from importlib.metadata import version; version('$package')" 2>/dev/null; then
        echo "SKIP: $package not installed in $py"
        continue
    fi
    impls=$row1,$row2
    for p in $(echo "$paths1" | tr , ' '); do impls=$impls,$row1@$p; done
    for p in $(echo "$paths2" | tr , ' '); do impls=$impls,$row2@$p; done
    echo "paths gate: $impls"
    # a size-1 path answers a request with one framework call per input: TensorFlow's eager
    # calls take minutes for a request of the whole sample on a loaded machine
    "$g" accuracy --impl "$impls" --sample "$n" --grad --threads 1 --exec-timeout 900 \
        >"${TMPDIR:-/tmp}/paths_gate.$$" 2>&1
    st=$?
    grep -E '^(CONTRACT BROKEN|every implementation|gelucheck: )' "${TMPDIR:-/tmp}/paths_gate.$$"
    [ $st -eq 0 ] || { echo "FAIL: $package's paths: status $st"; tail -5 "${TMPDIR:-/tmp}/paths_gate.$$"; }
    [ $st -le $status ] || status=$st
done
rm -f "${TMPDIR:-/tmp}/paths_gate.$$"
exit $status
