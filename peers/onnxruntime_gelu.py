"""ONNX Runtime's GELUs as gelucheck implementations over the exec protocol (docs/protocol.md):
a one-node model built with the onnx package, run by onnxruntime's CPU provider on one thread
(intra- and inter-op), in binary32. Inference only: ONNX Runtime has no derivative of these
operators, so the child declares none ('derivative no': gelucheck scans it forward only).

    python3 onnxruntime_gelu.py [--op gelu|gelu_tanh|ms_gelu|ms_fastgelu] [--format binary32|binary16]
                                [--path NAME | --list-paths]

    gelu         ONNX Gelu, opset 20, approximate="none"        ort_gelu         (target exact)
    gelu_tanh    ONNX Gelu, opset 20, approximate="tanh"        ort_gelu_tanh    (target tanh)
    ms_gelu      com.microsoft Gelu (ORT's contrib operator)     ort_ms_gelu      (target exact)
    ms_fastgelu  com.microsoft FastGelu, no bias (tanh form)     ort_ms_fastgelu  (target tanh)

--format binary16 builds the model on float16 tensors (the CPU provider runs all four
operators on them). No bfloat16: onnxruntime 1.32.0's CPU provider has no bfloat16 kernel for
these operators — the session refuses the model ("Could not find an implementation for Sqrt(13)"
for ONNX Gelu, the function it expands to; "Mul(14)" for the contrib ones).

ONNX Runtime offers no ISA cap (its MLAS kernels dispatch on the CPU's features).

--path NAME serves one of the row's paths (paths() below: tensor sizes, two threads, graph
optimisations on, the fusions into BiasGelu and FastGelu and the same graphs unfused) as the
row NAME@PATH (framework_paths.py).
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import framework_paths as fp  # noqa: E402


def paths(argv):
    """The paths of the row argv names (framework_paths.py): (name, what, how). The fusions go
    with the rows of their target — Add + Gelu -> BiasGelu with the exact ones, the tanh formula
    written as ONNX ops -> FastGelu with the tanh ones — in binary32 only: on float16 tensors
    the CPU optimiser fuses neither (measured with onnxruntime 1.32.0: it casts Add + Gelu to
    float and expands Gelu into Erf and arithmetic; its CPU FastGelu is float only)."""
    op = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--op"), "gelu")
    half = "binary16" in argv
    out = fp.size_paths() + [
        ("threads2", "a session of 2 intra-op threads", "threads2"),
        ("optimized", "the one-node model with every graph optimisation on (ORT_ENABLE_ALL)",
         "optimized"),
    ]
    if not half and op in ("gelu", "ms_gelu"):
        out += [("bias_fused", "Add of a zero bias then the operator, optimisations on: fused into "
                 "com.microsoft BiasGelu (checked in the saved optimised model)", "bias_fused"),
                ("bias_unfused", "the same Add + operator with optimisations off", "bias_unfused")]
    elif not half:
        out += [("formula_fused", "the tanh formula written as ONNX ops (Mul, Add, Tanh), "
                 "optimisations on: fused into com.microsoft FastGelu (checked in the saved "
                 "optimised model)", "formula_fused"),
                ("formula_unfused", "the tanh formula as ONNX ops, optimisations off",
                 "formula_unfused")]
    return out


PATHS = paths(sys.argv)
fp.list_and_exit_if_asked(sys.argv, PATHS)
PATH = fp.path_arg(sys.argv, PATHS)

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


def graph_of(how, domain, op, attrs, elem):
    """The model's nodes, initializers, and input/output shape for path `how`: the operator alone
    (x -> y, shape [n]); Add of a zero bias then the operator (shape [n, 1]: the fusion needs the
    bias's dimension to be the input's last); or the tanh formula as ops,
    0.5x·(1 + tanh(0.7978845834732056·x·(1 + 0.044715·x·x))) — ONNX Runtime's FastGelu pattern —
    then Neg twice (exact), so that the fused node's output is not the graph's (the fusion
    requires it)."""
    const = lambda name, v: helper.make_tensor(name, elem, [], [v])  # noqa: E731
    if how in ("bias_fused", "bias_unfused"):
        return ([helper.make_node("Add", ["x", "b"], ["t"]),
                 helper.make_node(op, ["t"], ["y"], domain=domain, **attrs)],
                [helper.make_tensor("b", elem, [1], [0.0])], [None, 1])
    if how in ("formula_fused", "formula_unfused"):
        mul = lambda a, b, o: helper.make_node("Mul", [a, b], [o])  # noqa: E731
        add = lambda a, b, o: helper.make_node("Add", [a, b], [o])  # noqa: E731
        nodes = [mul("k", "x", "m1"), mul("m1", "x", "m2"), add("m2", "one", "a1"),
                 mul("s", "x", "m4"), mul("a1", "m4", "m3"), helper.make_node("Tanh", ["m3"], ["th"]),
                 add("th", "one", "a2"), mul("half", "x", "m6"), mul("a2", "m6", "m5"),
                 helper.make_node("Neg", ["m5"], ["n1"]), helper.make_node("Neg", ["n1"], ["y"])]
        return (nodes, [const("k", 0.044715), const("one", 1.0), const("s", 0.7978845834732056),
                        const("half", 0.5)], [None])
    return [helper.make_node(op, ["x"], ["y"], domain=domain, **attrs)], [], [None]


# The node a fused path's optimised model must hold (the fusion fired), per path.
FUSED = {"bias_fused": "BiasGelu", "formula_fused": "FastGelu"}


def session(how, domain, op, attrs, elem=TensorProto.FLOAT, flush=False):
    """The path's model (graph_of) on the CPU provider, one thread (two on threads2); graph
    optimisations off (the graph as written) but on the optimised and fused paths, whose optimised
    model is saved and read back: a fused path without its fused node is an error. flush: with
    ONNX Runtime's switch "session.set_denormal_as_zero" = "1", which sets MXCSR's FTZ and DAZ
    (both) in the calling thread (the one that runs a one-thread session's kernels), for the whole
    process by its first session (measured: a later session cannot unset it), and in its pool's
    threads. Returns the session and the optimised model's operators ("" when not saved)."""
    nodes, inits, shape = graph_of(how, domain, op, attrs, elem)
    graph = helper.make_graph(nodes, "gelu", [helper.make_tensor_value_info("x", elem, shape)],
                              [helper.make_tensor_value_info("y", elem, shape)], initializer=inits)
    opsets = [helper.make_opsetid("", 20)]
    if domain:
        opsets.append(helper.make_opsetid(domain, 1))
    model = helper.make_model(graph, opset_imports=opsets)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2 if how == "threads2" else 1
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.log_severity_level = 3  # no warning about saving an optimised model
    optimise = how in ("optimized", "bias_fused", "formula_fused")
    opts.graph_optimization_level = (ort.GraphOptimizationLevel.ORT_ENABLE_ALL if optimise else
                                     ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
    if flush:
        opts.add_session_config_entry("session.set_denormal_as_zero", "1")
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, "optimised.onnx")
        if optimise:
            opts.optimized_model_filepath = saved
        sess = ort.InferenceSession(model.SerializeToString(), opts,
                                    providers=["CPUExecutionProvider"])
        ops = " ".join(n.op_type for n in onnx.load(saved).graph.node) if optimise else ""
    if how in FUSED and FUSED[how] not in ops.split():
        raise RuntimeError("path %s: the optimised model holds no %s (its nodes: %s): the fusion "
                           "did not fire" % (how, FUSED[how], ops))
    return sess, ops


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--op", choices=sorted(OPS), default="gelu")
    p.add_argument("--format", choices=["binary32", "binary16"], default="binary32")
    args = p.parse_args(fp.strip_path_args(sys.argv[1:]))
    row, target, domain, op, attrs, what = OPS[args.op]
    name = fp.row_name(row, PATH)
    how = PATH[2] if PATH else None
    half = args.format == "binary16"
    flush = asked_fpenv() == "ftz+daz"  # the process's one session: set before it is made
    sess, ops = session(how, domain, op, attrs, TensorProto.FLOAT16 if half else TensorProto.FLOAT,
                        flush)
    dtype = "<f2" if half else "<f4"
    column = how in ("bias_fused", "bias_unfused")  # the model's input is [n, 1]

    def forward(buf):
        x = np.frombuffer(buf, dtype=dtype)
        return sess.run(["y"], {"x": x.reshape(-1, 1) if column else x})[0].reshape(-1)

    if isinstance(how, int):
        forward = fp.in_tensors_of(forward, how, 2 if half else 4)

    origin = "onnxruntime %s onnx %s %s%s, CPU provider, 1 thread, inference only (no derivative)" % (
        ort.__version__, onnx.__version__, what, " on float16 tensors" if half else "")
    if PATH:
        origin += "; path %s: %s%s" % (PATH[0], PATH[1], "; optimised model: " + ops if ops else "")
    # Max abs error against the row's own target over all 2^32 inputs (onnxruntime 1.32.0, AMD
    # Zen 4; docs/frameworks.md; ONNX Runtime offers
    # no ISA cap): exact form 4.473e-07 at x = 0x1.44cd02p+2, tanh form 8.909e-07 at
    # 0x1.1dc43p+2, the ONNX operator and the contrib one alike.
    contract = None
    if not half:
        contract = {"max_abs": 4.48e-07} if target == "exact" else {"max_abs": 8.92e-07}
    return serve(name, target, forward, None, contract=contract, origin=origin, format=args.format,
                 fpenv=["ieee", "ftz+daz"], cut=fp.cut_of(2 if half else 4, PATH))


if __name__ == "__main__":
    sys.exit(main())
