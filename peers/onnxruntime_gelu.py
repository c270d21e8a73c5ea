"""ONNX Runtime's GELU as a gelucheck implementation over the exec protocol (docs/protocol.md):
the ONNX Gelu operator (opset 20, approximate "none" or "tanh") in a one-node model built with
the onnx package, run by onnxruntime's CPU provider on one thread. Inference only: ONNX Runtime
has no derivative of it, so the child declares none (this gelucheck scans it once forward-only
scans exist; until then it refuses the child, saying so).

    python3 onnxruntime_gelu.py [--approximate]   # ort_gelu (exact) or ort_gelu_tanh (tanh)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402
import onnxruntime as ort  # noqa: E402

from gelucheck_exec import serve  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--approximate", action="store_true")
    approx = "tanh" if p.parse_args().approximate else "none"
    node = helper.make_node("Gelu", ["x"], ["y"], approximate=approx)
    graph = helper.make_graph([node], "gelu",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])

    def forward(buf):
        return sess.run(["y"], {"x": np.frombuffer(buf, dtype="<f4")})[0]

    name = "ort_gelu_tanh" if approx == "tanh" else "ort_gelu"
    origin = "onnxruntime %s onnx %s Gelu opset 20 approximate=%s, CPU, 1 thread, inference only" % (
        ort.__version__, onnx.__version__, approx)
    return serve(name, "tanh" if approx == "tanh" else "exact", forward, None, origin=origin)


if __name__ == "__main__":
    sys.exit(main())
