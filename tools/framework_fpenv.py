"""Which x86 floating-point environment (MXCSR flush-to-zero, denormals-are-zero) each framework's
CPU kernels run in, by default and under its switch: one elementwise product per framework,
run the way peers/*.py run GELU (one thread), on binary32 tensors:

    2^-140 * 2^100   is 2^-40 in IEEE's environment, 0 when DAZ reads the subnormal operand as 0
    2^-100 * 2^-40   is 2^-140 (subnormal) in IEEE's environment, 0 when FTZ flushes it

    python3 tools/framework_fpenv.py torch|tensorflow|jax|onnxruntime [--switch]

prints the environment found ("ieee", "ftz", "daz", "ftz+daz"). --switch first turns on the
framework's own switch where it has one (PyTorch: torch.set_flush_denormal(True); ONNX Runtime:
the session config entry session.set_denormal_as_zero = 1, set on the process's first session).
Run it with the frameworks' Python (tools/setup.sh --frameworks). docs/fpenv.md, "Floating-point
environments", has what it found.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
# peers/jax_gelu.py's XLA settings
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np  # noqa: E402

A = np.array([2.0 ** -140, 2.0 ** -100], dtype=np.float32)
B = np.array([2.0 ** 100, 2.0 ** -40], dtype=np.float32)


def product(fw, switch):
    if fw == "torch":
        import torch
        torch.set_num_threads(1)
        if switch and not torch.set_flush_denormal(True):
            sys.exit("torch.set_flush_denormal(True): not supported on this CPU")
        return (torch.from_numpy(A) * torch.from_numpy(B)).numpy()
    if fw == "tensorflow":
        import tensorflow as tf
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
        if switch:
            sys.exit("TensorFlow: no switch")
        return (tf.constant(A) * tf.constant(B)).numpy()
    if fw == "jax":
        import jax
        if switch:
            sys.exit("JAX: no switch")
        return np.asarray(jax.jit(lambda a, b: a * b)(A, B))
    if fw == "onnxruntime":
        import onnxruntime as ort
        from onnx import TensorProto, helper
        vi = helper.make_tensor_value_info
        graph = helper.make_graph([helper.make_node("Mul", ["a", "b"], ["y"])], "mul",
                                  [vi("a", TensorProto.FLOAT, [None]), vi("b", TensorProto.FLOAT, [None])],
                                  [vi("y", TensorProto.FLOAT, [None])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        if switch:
            opts.add_session_config_entry("session.set_denormal_as_zero", "1")
        sess = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
        return sess.run(None, {"a": A, "b": B})[0]
    sys.exit("unknown framework %r: torch, tensorflow, jax or onnxruntime" % fw)


def main():
    if len(sys.argv) < 2 or sys.argv[2:] not in ([], ["--switch"]):
        sys.exit(__doc__)
    y = product(sys.argv[1], sys.argv[2:] == ["--switch"])
    daz, ftz = y[0] == 0, y[1] == 0
    print({(False, False): "ieee", (True, False): "ftz", (False, True): "daz",
           (True, True): "ftz+daz"}[(ftz, daz)])


if __name__ == "__main__":
    main()
