"""PyTorch's GELU as a gelucheck implementation over the exec protocol (docs/protocol.md):
torch.nn.functional.gelu in binary32 on one CPU thread, forward and its autograd backward.

    python3 torch_gelu.py [--approximate none|tanh]

approximate='none' is the exact GELU (target exact), 'tanh' the tanh form (target tanh). Run it
with the Python that has torch (tools/setup.sh --frameworks makes one).
"""
import argparse
import sys

import numpy as np
import torch

from gelucheck_exec import serve


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--approximate", choices=["none", "tanh"], default="none")
    a = p.parse_args().approximate
    torch.set_num_threads(1)
    gelu = torch.nn.functional.gelu

    def forward(buf):
        x = torch.from_numpy(np.frombuffer(buf, dtype="<f4").copy())
        with torch.no_grad():
            return gelu(x, approximate=a).numpy()

    def derivative(buf):
        x = torch.from_numpy(np.frombuffer(buf, dtype="<f4").copy()).requires_grad_(True)
        y = gelu(x, approximate=a)
        (g,) = torch.autograd.grad(y, x, torch.ones_like(y))
        return g.numpy()

    name = "torch_gelu" if a == "none" else "torch_gelu_tanh"
    origin = "torch %s torch.nn.functional.gelu(approximate='%s'), 1 thread, autograd backward" % (
        torch.__version__, a)
    return serve(name, "exact" if a == "none" else "tanh", forward, derivative, origin=origin)


if __name__ == "__main__":
    sys.exit(main())
