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
import functools
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


# A size path computed fast: TensorFlow's eager calls cost about a millisecond each (5 with the
# gradient tape), hours for the paths' sample one input at a time. The same calls on tensors of
# SIZE elements run instead inside one graph, a tf.while_loop over the request's rows (grappler
# off, so that the graph holds the ops eager mode runs, unchanged: the same kernels on tensors of
# the same shape), and the last, shorter piece as one eager call. Each path checks it on
# CHECK_INPUTS inputs against the eager calls before it serves (loop_differs) and refuses to serve
# when any output differs.
CHECK_INPUTS = 256


def in_graph_loop(fn, size, dtype, tensor, result, itemsize):
    @tf.function(input_signature=[tf.TensorSpec([None, size], dtype)])  # one trace
    def rows(xs):  # [k, size] -> fn of each row, one call each
        k = tf.shape(xs)[0]
        out = tf.TensorArray(xs.dtype, size=k)
        body = lambda i, out: (i + 1, out.write(i, fn(xs[i])))  # noqa: E731
        _, out = tf.while_loop(lambda i, out: i < k, body, (0, out), parallel_iterations=1)
        return tf.reshape(out.stack(), [-1])

    def call(buf):
        t = tensor(buf)
        n = len(buf) // itemsize
        k = n // size
        parts = []
        if k:
            parts.append(rows(tf.reshape(t[:k * size], [k, size])))
        if n % size:
            parts.append(fn(tensor(bytes(memoryview(buf).cast("B")[k * size * itemsize:]))))
        return result(tf.concat(parts, 0))
    return call


def loop_differs(eager, looped, size, itemsize):
    """'' when both pairs of functions give the same encodings at CHECK_INPUTS inputs spread
    over the encodings (a seeded draw and the specials; 16-bit: every 128th encoding), else the
    first difference in words."""
    if itemsize == 4:
        x = np.random.default_rng(1).integers(0, 2**32, CHECK_INPUTS, dtype=np.uint64).astype("<u4")
        x[:4] = [0x00000000, 0x80000000, 0x7f800000, 0xff800000]
    else:
        x = (np.arange(CHECK_INPUTS, dtype=np.uint32) * 128 + 1).astype("<u2")
    buf = x.tobytes()
    for d, (e, g) in enumerate(zip(eager, looped)):
        want = np.frombuffer(e(buf), dtype=x.dtype)
        got = np.frombuffer(g(buf), dtype=x.dtype)
        for i in np.flatnonzero(want != got):
            return "%s at input %#x: %#x, eager %#x" % (("forward", "derivative")[d], x[i], got[i], want[i])
    return ""


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
    if isinstance(how, int) or how is None:  # a size's graph loop holds eager mode's ops
        tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
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

    itemsize = 4 if dtype is None else 2

    @functools.lru_cache(maxsize=None)  # each size once, both directions
    def sized(size):
        """forward and derivative in tensors of size, in a graph loop checked against eager
        calls (in_graph_loop, loop_differs); ValueError when they differ."""
        eager = (fp.in_tensors_of(forward, size, itemsize), fp.in_tensors_of(derivative, size, itemsize))
        looped = tuple(in_graph_loop(f, size, dtype or tf.float32, tensor, result, itemsize)
                       for f in (gelu, grad))
        bad = loop_differs(eager, looped, size, itemsize)
        if bad:
            raise ValueError("the graph loop's outputs differ from eager calls' (%s) in tensors "
                             "of %d: not served" % (bad, size))
        return looped

    if isinstance(how, int):
        try:
            forward, derivative = sized(how)
        except ValueError as e:
            print("tensorflow_gelu.py: path %s: %s" % (PATH[0], e), file=sys.stderr)
            return 2
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
    row = (forward, derivative)  # a cut (the batch path's, docs/protocol.md "Cuts"): a size path
    cut = None if PATH else lambda fn, size: sized(size)[row.index(fn)]
    return serve(name, "tanh" if approx else "exact", forward, derivative, contract=contract,
                 origin=origin, format=fmt, fpenv=["ftz+daz"], cut=cut)


if __name__ == "__main__":
    sys.exit(main())
