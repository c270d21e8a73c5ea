"""TensorFlow's GELU as a gelucheck implementation over the exec protocol (docs/protocol.md):
tf.nn.gelu in binary32 on one CPU thread, forward and its gradient (tf.GradientTape).

    python3 tensorflow_gelu.py [--approximate]     # tf_gelu (exact) or tf_gelu_tanh (tanh)
"""
import argparse
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # no banner on stderr
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from gelucheck_exec import serve  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--approximate", action="store_true")
    approx = p.parse_args().approximate
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)

    def forward(buf):
        x = tf.constant(np.frombuffer(buf, dtype="<f4"))
        return tf.nn.gelu(x, approximate=approx).numpy()

    def derivative(buf):
        x = tf.constant(np.frombuffer(buf, dtype="<f4"))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.gelu(x, approximate=approx)
        return tape.gradient(y, x).numpy()  # elementwise: the gradient of the sum is f'(x)

    name = "tf_gelu_tanh" if approx else "tf_gelu"
    origin = "tensorflow %s tf.nn.gelu(approximate=%s), 1 thread, GradientTape" % (tf.__version__, approx)
    # Exact form: max abs error 3.8405e-07 at x = 0x1.38e61p+2, over every input of [2^-8, 40]
    # and [-40, -2^-8] (tensorflow-cpu 2.21.0; README "Which framework's GELU is closest"), a
    # 10^6 sample elsewhere; the exhaustive framework gate holds it to all 2^32 inputs.
    contract = None if approx else {"max_abs": 3.85e-07}
    return serve(name, "tanh" if approx else "exact", forward, derivative, contract=contract, origin=origin)


if __name__ == "__main__":
    sys.exit(main())
