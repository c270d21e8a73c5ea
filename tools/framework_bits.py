#!/usr/bin/env python3
"""Which frameworks' GELUs compute bit-identical outputs: the forward of the framework rows
(the calls peers/*.py make, one thread each) over a range of binary32 encodings, in batches of
2^16 consecutive inputs as gelucheck's scan sends them; per pair of rows, the inputs whose
outputs differ by encoding (every NaN equal to every NaN) and the first of them; per row, the
signs of its outputs at negative inputs (GELU(x) < 0 there: how many are -0, +0, positive —
the wrong sign —, with the first input of each, first meaning lowest encoding, nearest 0).

    VENV/bin/python tools/framework_bits.py [--rows A,B,...] [--stride S] LO:HI [LO:HI ...]

LO and HI are binary32 values (decimal or hex floats, LO <= HI, same sign): every S-th encoding
from LO's to HI's (default S = 1: all of them). Rows: torch_gelu, tf_gelu, jax_gelu, ort_gelu,
ort_ms_gelu and their tanh forms (default: all ten). Run it with the frameworks' Python
(tools/setup.sh --frameworks). Prints one line per pair; exit 2 for bad usage.
"""
import argparse
import os
import struct
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402

BATCH = 1 << 16
ALL = ["torch_gelu", "tf_gelu", "jax_gelu", "ort_gelu", "ort_ms_gelu",
       "torch_gelu_tanh", "tf_gelu_tanh", "jax_gelu_tanh", "ort_gelu_tanh", "ort_ms_fastgelu"]


def torch_row(approx):
    import torch
    torch.set_num_threads(1)
    return lambda x: torch.nn.functional.gelu(torch.from_numpy(x.copy()), approximate=approx).numpy()


def tf_row(approx):
    import tensorflow as tf
    try:
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
    except RuntimeError:  # already initialized by an earlier row
        pass
    return lambda x: tf.nn.gelu(tf.constant(x), approximate=approx).numpy()


def jax_row(approx):
    import jax
    f = jax.jit(lambda x: jax.nn.gelu(x, approximate=approx))
    return lambda x: np.asarray(f(x))


def ort_row(domain, op, attrs):
    import onnxruntime as ort
    from onnx import TensorProto, helper
    node = helper.make_node(op, ["x"], ["y"], domain=domain, **attrs)
    graph = helper.make_graph([node], "gelu",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None])])
    opsets = [helper.make_opsetid("", 20)] + ([helper.make_opsetid(domain, 1)] if domain else [])
    model = helper.make_model(graph, opset_imports=opsets)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    s = ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    return lambda x: s.run(None, {"x": x})[0]


MAKERS = {
    "torch_gelu": lambda: torch_row("none"), "torch_gelu_tanh": lambda: torch_row("tanh"),
    "tf_gelu": lambda: tf_row(False), "tf_gelu_tanh": lambda: tf_row(True),
    "jax_gelu": lambda: jax_row(False), "jax_gelu_tanh": lambda: jax_row(True),
    "ort_gelu": lambda: ort_row("", "Gelu", {"approximate": "none"}),
    "ort_gelu_tanh": lambda: ort_row("", "Gelu", {"approximate": "tanh"}),
    "ort_ms_gelu": lambda: ort_row("com.microsoft", "Gelu", {}),
    "ort_ms_fastgelu": lambda: ort_row("com.microsoft", "FastGelu", {}),
}


def f32hex(bits):
    """A binary32 encoding as a C99 hex float of the value (0x1.8p+1), as gelucheck prints it."""
    h = float(np.array([bits], dtype=np.uint32).view(np.float32)[0]).hex()
    if "p" in h:
        m, e = h.split("p")
        h = (m.rstrip("0").rstrip(".") if "." in m else m) + "p" + e
    return h


def value(text):
    return float.fromhex(text) if "0x" in text.lower() else float(text)


def encoding(text):
    v = value(text)
    b = struct.unpack("<I", struct.pack("<f", v))[0]
    if struct.unpack("<f", struct.pack("<I", b))[0] != v:
        raise ValueError("%s is not a binary32 value" % text)
    return b


def parse_range(text):
    """LO:HI as the interval of encodings between them (one sign)."""
    lo, sep, hi = text.partition(":")
    if not sep:
        raise ValueError("range '%s' is not LO:HI" % text)
    a, b = encoding(lo), encoding(hi)
    if value(lo) > value(hi):
        raise ValueError("range '%s': LO > HI" % text)
    if (a >> 31) != (b >> 31):
        raise ValueError("range '%s' crosses zero: give each sign its own range" % text)
    return (min(a, b), max(a, b))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", default=",".join(ALL))
    p.add_argument("--stride", type=int, default=1)
    p.add_argument("ranges", nargs="+")
    a = p.parse_args()
    try:
        rows = a.rows.split(",")
        bad = [r for r in rows if r not in MAKERS]
        if bad or len(rows) < 2:
            raise ValueError("--rows '%s': at least two of %s" % (a.rows, ",".join(ALL)))
        if a.stride < 1:
            raise ValueError("--stride %d: at least 1" % a.stride)
        ranges = [parse_range(r) for r in a.ranges]
    except ValueError as e:
        print("framework_bits.py: %s" % e, file=sys.stderr)
        return 2
    fns = {r: MAKERS[r]() for r in rows}
    pairs = [(rows[i], rows[j]) for i in range(len(rows)) for j in range(i + 1, len(rows))]
    diff = {pr: 0 for pr in pairs}
    signs = {r: {"-0": [0, None], "+0": [0, None], ">0": [0, None]} for r in rows}
    first = {}
    n = 0
    for lo, hi in ranges:
        for start in range(lo, hi + 1, BATCH * a.stride):
            enc = np.arange(start, min(hi + 1, start + BATCH * a.stride), a.stride, dtype=np.uint32)
            x = enc.view(np.float32)
            out = {r: np.asarray(f(x), dtype=np.float32).view(np.uint32) for r, f in fns.items()}
            nan = {r: np.isnan(out[r].view(np.float32)) for r in rows}
            n += len(x)
            neg = (enc >> 31) == 1
            for r in rows:
                for kind, hit in (("-0", out[r] == 0x80000000), ("+0", out[r] == 0),
                                  (">0", (out[r] > 0) & (out[r] < 0x7f800001))):
                    hit = hit & neg
                    c = int(hit.sum())
                    if c:
                        signs[r][kind][0] += c
                        if signs[r][kind][1] is None:
                            signs[r][kind][1] = f32hex(enc[int(np.argmax(hit))])
            for r, s in pairs:
                d = (out[r] != out[s]) & ~(nan[r] & nan[s])
                c = int(d.sum())
                if c:
                    diff[(r, s)] += c
                    if (r, s) not in first:
                        k = int(np.argmax(d))
                        first[(r, s)] = (f32hex(enc[k]), f32hex(out[r][k]), f32hex(out[s][k]))
    print("%d inputs, ranges %s, stride %d" % (n, " ".join(a.ranges), a.stride))
    for r, s in pairs:
        f = first.get((r, s))
        where = " first at x = %s: %s vs %s" % f if f else ""
        print("%-16s %-16s %10d differ%s" % (r, s, diff[(r, s)], where))
    for r in rows:
        print("%-16s at x < 0: %s" % (r, ", ".join(
            "%d %s%s" % (c, kind, " (first at x = %s)" % x0 if x0 else "")
            for kind, (c, x0) in signs[r].items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
