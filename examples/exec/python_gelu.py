"""The exact GELU in plain Python (standard library only) as a gelucheck implementation over the
exec protocol: x·Φ(x) = x·erfc(−x/√2)/2 in binary64, rounded to binary32; the derivative
Φ(x) + x·φ(x). A template for any language: read binary32 inputs, write binary32 outputs.

    gelucheck accuracy --exec py_gelu="python3 examples/exec/python_gelu.py" --impl py_gelu
"""
import math
import os
import sys
from array import array

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gelucheck_exec import serve  # noqa: E402

SQRT1_2 = math.sqrt(0.5)
INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


def gelu(x):
    if math.isinf(x):
        return x if x > 0 else -0.0
    return x * math.erfc(-x * SQRT1_2) / 2


def gelu_derivative(x):
    if math.isinf(x):
        return 1.0 if x > 0 else 0.0
    return math.erfc(-x * SQRT1_2) / 2 + x * INV_SQRT_2PI * math.exp(-x * x / 2)


def elementwise(f):
    def kernel(buf):
        x = array("f")
        x.frombytes(bytes(buf))
        if sys.byteorder != "little":
            x.byteswap()
        y = array("f", (f(v) for v in x))  # array("f") rounds each double to binary32
        if sys.byteorder != "little":
            y.byteswap()
        return y.tobytes()
    return kernel


if __name__ == "__main__":
    sys.exit(serve("py_gelu", "exact", elementwise(gelu), elementwise(gelu_derivative),
                   origin="Python %d.%d math.erfc in binary64, rounded to binary32"
                   % sys.version_info[:2]))
