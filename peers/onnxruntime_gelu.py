"""ONNX Runtime's GELUs as gelucheck implementations over the exec protocol (docs/protocol.md):
a one-node model built with the onnx package, run by onnxruntime's CPU provider on one thread
(intra- and inter-op), in binary32. Inference only: ONNX Runtime has no derivative of these
operators, so the child declares none ('derivative no': gelucheck scans it forward only).

    python3 onnxruntime_gelu.py [--op gelu|gelu_tanh|ms_gelu|ms_fastgelu] [--format binary32|binary16]

    gelu         ONNX Gelu, opset 20, approximate="none"        ort_gelu         (target exact)
    gelu_tanh    ONNX Gelu, opset 20, approximate="tanh"        ort_gelu_tanh    (target tanh)
    ms_gelu      com.microsoft Gelu (ORT's contrib operator)     ort_ms_gelu      (target exact)
    ms_fastgelu  com.microsoft FastGelu, no bias (tanh form)     ort_ms_fastgelu  (target tanh)

--format binary16 builds the model on float16 tensors (the CPU provider runs all four
operators on them). No bfloat16: onnxruntime 1.32.0's CPU provider has no bfloat16 kernel for
these operators — the session refuses the model ("Could not find an implementation for Sqrt(13)"
for ONNX Gelu, the function it expands to; "Mul(14)" for the contrib ones).

ONNX Runtime offers no ISA cap (its MLAS kernels dispatch on the CPU's features).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402
import onnxruntime as ort  # noqa: E402

from gelucheck_exec import asked_fpenv, serve  # noqa: E402

# --op: (name, target, domain, operator, attributes, what the origin line calls it)
OPS = {
    "gelu": ("ort_gelu", "exact", "", "Gelu", {"approximate": "none"},
             "ONNX Gelu opset 20 approximate=none"),
    "gelu_tanh": ("ort_gelu_tanh", "tanh", "", "Gelu", {"approximate": "tanh"},
                  "ONNX Gelu opset 20 approximate=tanh"),
    "ms_gelu": ("ort_ms_gelu", "exact", "com.microsoft", "Gelu", {}, "com.microsoft Gelu"),
    "ms_fastgelu": ("ort_ms_fastgelu", "tanh", "com.microsoft", "FastGelu", {},
                    "com.microsoft FastGelu (no bias)"),
}


def session(domain, op, attrs, elem=TensorProto.FLOAT, flush=False):
    """A one-node model x -> y of the operator, on the CPU provider, one thread; flush: with ONNX
    Runtime's switch "session.set_denormal_as_zero" = "1", which sets MXCSR's FTZ and DAZ (both)
    in the calling thread (the one that runs a one-thread session's kernels), for the whole
    process by its first session (measured: a later session cannot unset it), and in its pool's
    threads."""
    node = helper.make_node(op, ["x"], ["y"], domain=domain, **attrs)
    graph = helper.make_graph([node], "gelu",
                              [helper.make_tensor_value_info("x", elem, [None])],
                              [helper.make_tensor_value_info("y", elem, [None])])
    opsets = [helper.make_opsetid("", 20)]
    if domain:
        opsets.append(helper.make_opsetid(domain, 1))
    model = helper.make_model(graph, opset_imports=opsets)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # the graph as written: no fusion or rewriting of the one node
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    if flush:
        opts.add_session_config_entry("session.set_denormal_as_zero", "1")
    return ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--op", choices=sorted(OPS), default="gelu")
    p.add_argument("--format", choices=["binary32", "binary16"], default="binary32")
    args = p.parse_args()
    name, target, domain, op, attrs, what = OPS[args.op]
    half = args.format == "binary16"
    flush = asked_fpenv() == "ftz+daz"  # the process's one session: set before it is made
    sess = session(domain, op, attrs, TensorProto.FLOAT16 if half else TensorProto.FLOAT, flush)
    dtype = "<f2" if half else "<f4"

    def forward(buf):
        return sess.run(["y"], {"x": np.frombuffer(buf, dtype=dtype)})[0]

    origin = "onnxruntime %s onnx %s %s%s, CPU provider, 1 thread, inference only (no derivative)" % (
        ort.__version__, onnx.__version__, what, " on float16 tensors" if half else "")
    # Max abs error against the row's own target over all 2^32 inputs (onnxruntime 1.32.0, AMD
    # Zen 4; docs/frameworks.md; ONNX Runtime offers
    # no ISA cap): exact form 4.473e-07 at x = 0x1.44cd02p+2, tanh form 8.909e-07 at
    # 0x1.1dc43p+2, the ONNX operator and the contrib one alike.
    contract = None
    if not half:
        contract = {"max_abs": 4.48e-07} if target == "exact" else {"max_abs": 8.92e-07}
    return serve(name, target, forward, None, contract=contract, origin=origin, format=args.format,
                 fpenv=["ieee", "ftz+daz"])


if __name__ == "__main__":
    sys.exit(main())
