"""PyTorch's GELU as a gelucheck implementation over the exec protocol (docs/protocol.md):
torch.nn.functional.gelu in binary32 on one CPU thread, forward and its autograd backward.

    python3 torch_gelu.py [--approximate none|tanh]

approximate='none' is the exact GELU (target exact), 'tanh' the tanh form (target tanh). Run it
with the Python that has torch (tools/setup.sh --frameworks makes one). One thread (intra- and
inter-op); torch.backends.cpu.get_cpu_capability() (the ISA ATen dispatched to) is in the origin.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from gelucheck_exec import serve  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--approximate", choices=["none", "tanh"], default="none")
    a = p.parse_args().approximate
    torch.set_num_threads(1)  # intra-op
    torch.set_num_interop_threads(1)
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
    origin = ("torch %s torch.nn.functional.gelu(approximate='%s'), CPU capability %s, 1 thread, "
              "autograd backward" % (torch.__version__, a, torch.backends.cpu.get_cpu_capability()))
    return serve(name, "exact" if a == "none" else "tanh", forward, derivative, origin=origin)


if __name__ == "__main__":
    sys.exit(main())
