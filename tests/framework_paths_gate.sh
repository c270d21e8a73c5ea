#!/bin/sh
# The frameworks' paths gated on a sample (docs/frameworks.md, "Paths"; run by .ci/run): per
# installed framework, its rows and a set of their paths (ROW@PATH: tensors of 1 and 17
# elements — the scalar path, and a vector body with a tail of one —, two intra-op threads, and
# the framework's compiled, eager or fused paths), forward and derivative, over a sample, each
# held to its row's contract: exit 1 when a claim breaks (the scan names it), 2 when a path does
# not start (a fusion that did not fire refuses to start: peers/onnxruntime_gelu.py). A framework
# not installed is skipped, said so. The frameworks run in two lanes side by side (one scan
# thread each: a child per row), PyTorch then JAX, TensorFlow then ONNX Runtime.
# Then, per framework, one row and a few of its paths on 16-bit tensors over all 65,536
# encodings (GATE16 below: the scalar path or a short size, a vector body with a tail, the
# compiled or eager one): the clients declare no 16-bit claims, so that part gates that each
# path starts in the dtype and answers every encoding (exit 2 when one does not).
#   framework_paths_gate.sh GELUCHECK [SAMPLE [16]]    16: the 16-bit part alone
# GELUCHECK_GATE16 (the 16-bit specs, "package:format:row:paths" separated by spaces) replaces
# GATE16 (tests/test_frameworks.sh plants a path the dtype does not serve).
set -u
g=$1 n=${2:-10000} only16=${3:-}
# TensorFlow's size-1 path makes 2 x 65,536 eager calls in 16 bits (minutes on a loaded
# machine): its short size there is 17, a vector body and a tail of one.
GATE16=${GELUCHECK_GATE16:-"torch:bfloat16:torch_gelu:size1,size65,compile jax:bfloat16:jax_gelu:size1,eager tensorflow-cpu:binary16:tf_gelu:size17,xla onnxruntime:binary16:ort_gelu:size1,optimized"}
py=${XDG_CACHE_HOME:-$HOME/.cache}/gelucheck/venv/bin/python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# installed PACKAGE LOG: whether the frameworks' Python has PACKAGE (else LOG says it is skipped)
installed() {
    [ -x "$py" ] && "$py" -c "from importlib.metadata import version; version('$1')" 2>/dev/null && return 0
    echo "SKIP: $1 not installed in $py" >"$2"
    return 1
}

# judged LOG WHAT ARGS...: gelucheck accuracy ARGS --grad, one scan thread; its verdict lines
# into LOG (after its first line), what failed named; its status. A size-1 path answers a
# request with one framework call per input: TensorFlow's eager calls take minutes for a
# request of the whole sample on a loaded machine (the timeout).
judged() {
    log=$1 what=$2
    shift 2
    "$g" accuracy "$@" --grad --threads 1 --exec-timeout 900 >"$log.out" 2>&1
    st=$?
    grep -E '^(CONTRACT BROKEN|every implementation|gelucheck: )' "$log.out" >>"$log"
    [ $st -eq 0 ] || { echo "FAIL: $what: status $st"; tail -5 "$log.out"; } >>"$log"
    return $st
}

# gate SPEC LOG: one framework's rows and paths ("package:row:paths:row:paths"); its status
gate() {
    package=${1%%:*} rest=${1#*:}
    row1=${rest%%:*} rest=${rest#*:}
    paths1=${rest%%:*} rest=${rest#*:}
    row2=${rest%%:*} paths2=${rest#*:}
    installed "$package" "$2" || return 0
    impls=$row1,$row2
    for p in $(echo "$paths1" | tr , ' '); do impls=$impls,$row1@$p; done
    for p in $(echo "$paths2" | tr , ' '); do impls=$impls,$row2@$p; done
    echo "paths gate: $impls" >"$2"
    judged "$2" "$package's paths" --impl "$impls" --sample "$n"
}

# gate16 SPEC LOG: one row and its paths on 16-bit tensors ("package:format:row:paths"), every
# encoding; its status
gate16() {
    package=${1%%:*} rest=${1#*:}
    fmt=${rest%%:*} rest=${rest#*:}
    row=${rest%%:*} paths=${rest#*:}
    installed "$package" "$2" || return 0
    impls=$row
    for p in $(echo "$paths" | tr , ' '); do impls=$impls,$row@$p; done
    echo "paths gate ($fmt, every encoding): $impls" >"$2"
    judged "$2" "$package's paths in $fmt" --format "$fmt" --impl "$impls"
}

lane() { # NAME SPEC...: one after the other (a 16-bit spec has a format: "torch:bfloat16:..."); the largest status
    name=$1 s=0 k=0
    shift
    for spec; do
        k=$((k + 1))
        case ${spec#*:} in
            bfloat16:* | binary16:*) gate16 "$spec" "$tmp/$name.$k" ;;
            *) gate "$spec" "$tmp/$name.$k" ;;
        esac
        st=$?
        [ $st -le $s ] || s=$st
    done
    echo $s >"$tmp/$name.status"
}
# the 16-bit specs, alternately to the two lanes
# shellcheck disable=SC2086
set -- $GATE16
a16='' b16=
while [ $# -gt 0 ]; do a16="$a16 $1"; shift; [ $# -gt 0 ] && { b16="$b16 $1"; shift; }; done
if [ "$only16" = 16 ]; then
    # shellcheck disable=SC2086
    lane a $a16 &
    # shellcheck disable=SC2086
    lane b $b16 &
else
    # shellcheck disable=SC2086
    lane a "torch:torch_gelu:size1,size17,threads2,compile,compile_dynamic:torch_gelu_tanh:size1,compile" \
         "jax:jax_gelu:size1,size17,threads2,eager:jax_gelu_tanh:size1,eager" $a16 &
    # shellcheck disable=SC2086
    lane b "tensorflow-cpu:tf_gelu:size1,size17,threads2,function,xla:tf_gelu_tanh:size1,xla" \
         "onnxruntime:ort_gelu:size1,size17,threads2,optimized,bias_fused,bias_unfused:ort_ms_fastgelu:size1,formula_fused,formula_unfused" $b16 &
fi
wait
status=0
for l in "$tmp"/a.[0-9]* "$tmp"/b.[0-9]*; do
    case $l in *.out) continue ;; esac
    [ -e "$l" ] && cat "$l"
done
for l in a b; do
    s=$(cat "$tmp/$l.status" 2>/dev/null || echo 2)
    [ "$s" -le "$status" ] || status=$s
done
exit "$status"
