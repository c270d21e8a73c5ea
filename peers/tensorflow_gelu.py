"""TensorFlow's GELU as a gelucheck implementation over the exec protocol (docs/protocol.md):
tf.nn.gelu on one CPU thread, forward and its gradient (tf.GradientTape), on binary32 tensors
or (--format) on bfloat16 / float16 ones.

    python3 tensorflow_gelu.py [--approximate] [--format binary32|bfloat16|binary16]
                               [--path NAME | --list-paths]
    # tf_gelu (exact) or tf_gelu_tanh (tanh); --path NAME: one of PATHS below, row NAME@PATH

Floating-point environment: ftz+daz, always. TensorFlow sets MXCSR's FTZ and DAZ in the threads that
run its kernels and has no switch to unset them (measured on x86 with this client: gelu(2^-126)
is 0, and a subnormal operand reads as 0; docs/fpenv.md "Floating-point environments"), so the client
lists only ftz+daz: gelucheck runs it under --fpenv ftz,daz, and in an IEEE run its rows say
ftz+daz.
"""
import argparse
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # no banner on stderr
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import framework_paths as fp  # noqa: E402

# The paths (framework_paths.py), both forms alike: (name, what, how). how: a size, or a word.
PATHS = fp.size_paths() + [
    ("threads2", "intra-op parallelism 2: the tensor split between 2 threads", "threads2"),
    ("function", "tf.function (a graph, no XLA), forward and its gradient", "function"),
    ("xla", "tf.function(jit_compile=True): XLA's compiled kernel, forward and its gradient", "xla"),
]
fp.list_and_exit_if_asked(sys.argv, PATHS)
PATH = fp.path_arg(sys.argv, PATHS)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from gelucheck_exec import serve  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--approximate", action="store_true")
    p.add_argument("--format", choices=["binary32", "bfloat16", "binary16"], default="binary32")
    args = p.parse_args(fp.strip_path_args(sys.argv[1:]))
    approx, fmt = args.approximate, args.format
    how = PATH[2] if PATH else None
    tf.get_logger().setLevel("ERROR")  # no retracing warnings: a trace per request size is the path
    tf.config.threading.set_intra_op_parallelism_threads(2 if how == "threads2" else 1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    dtype = {"bfloat16": tf.bfloat16, "binary16": tf.float16}.get(fmt)

    def tensor(buf):  # 16-bit: the encodings as int16, reinterpreted (tf.bitcast)
        if dtype is None:
            return tf.constant(np.frombuffer(buf, dtype="<f4"))
        return tf.bitcast(tf.constant(np.frombuffer(buf, dtype="<i2")), dtype)

    def result(t):
        return t.numpy() if dtype is None else tf.bitcast(t, tf.int16).numpy()

    def gelu(x):
        return tf.nn.gelu(x, approximate=approx)

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.gelu(x, approximate=approx)
        return tape.gradient(y, x)  # elementwise: the gradient of the sum is f'(x)

    if how in ("function", "xla"):  # one trace per shape, as a model's call
        gelu = tf.function(gelu, jit_compile=how == "xla")
        grad = tf.function(grad, jit_compile=how == "xla")

    def forward(buf):
        return result(gelu(tensor(buf)))

    def derivative(buf):
        return result(grad(tensor(buf)))

    if isinstance(how, int):
        forward = fp.in_tensors_of(forward, how, 4 if dtype is None else 2)
        derivative = fp.in_tensors_of(derivative, how, 4 if dtype is None else 2)
    name = fp.row_name("tf_gelu_tanh" if approx else "tf_gelu", PATH)
    on = "" if dtype is None else " on %s tensors" % dtype.name
    origin = "tensorflow %s tf.nn.gelu(approximate=%s)%s, 1 thread, GradientTape" % (
        tf.__version__, approx, on)
    if PATH:
        origin += "; path %s: %s" % (PATH[0], PATH[1])
    # Claims from one scan of all 2^32 inputs with --grad (tensorflow-cpu 2.21.0, AMD Zen 4;
    # docs/frameworks.md): exact form, forward max
    # abs error 3.8404e-07 at x = 0x1.38e61p+2, derivative 1.7911e-07 at 0x1.62e052p+0; tanh
    # form, forward 1.0465e-06 against the tanh form at 0x1.1aae6ap+2 (its derivative is NaN
    # from |x| = 2^64: no claim). TensorFlow offers no switch that changes these kernels: the
    # same bits under ONEDNN_MAX_CPU_ISA=SSE41, TF_ENABLE_ONEDNN_OPTS=0 and an XLA ISA cap
    # (2^20 inputs of [-6, 6], both forms and directions), so the claims are this build's.
    contract = None
    if dtype is None:
        contract = {"max_abs": 1.05e-06} if approx else {"max_abs": 3.85e-07,
                                                          "grad_max_abs": 1.80e-07}
    return serve(name, "tanh" if approx else "exact", forward, derivative, contract=contract,
                 origin=origin, format=fmt, fpenv=["ftz+daz"])


if __name__ == "__main__":
    sys.exit(main())
