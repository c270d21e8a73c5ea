"""PyTorch's GELU as a gelucheck implementation over the exec protocol (docs/protocol.md):
torch.nn.functional.gelu on one CPU thread, forward and its autograd backward, on binary32
tensors or (--format) on bfloat16 / float16 ones.

    python3 torch_gelu.py [--approximate none|tanh] [--format binary32|bfloat16|binary16]

approximate='none' is the exact GELU (target exact), 'tanh' the tanh form (target tanh). Run it
with the Python that has torch (tools/setup.sh --frameworks makes one). One thread (intra- and
inter-op). torch.backends.cpu.get_cpu_capability() (the ISA ATen dispatched to, at most what
ATEN_CPU_CAPABILITY=default|avx2|avx512 allows, read once per process) is sent as the
handshake's dispatched_isa (lower case) and is in the origin; the contract is that path's.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from gelucheck_exec import serve  # noqa: E402

# The tensors' dtype per protocol format.
DTYPES = {"binary32": torch.float32, "bfloat16": torch.bfloat16, "binary16": torch.float16}

# binary32 claims per dispatched path (the derivative's max abs error against exact GELU's
# derivative; the forward claims nothing: +inf from x = 2^127 in a batch, −0 below ≈ −5.5, not
# monotone). Measured under each ATEN_CPU_CAPABILITY cap, each in its own process (README,
# "PyTorch's code paths"). A path not measured gets the largest bound of those measured.
CONTRACTS = {}
CONTRACTS_ANY = {}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--approximate", choices=["none", "tanh"], default="none")
    p.add_argument("--format", choices=sorted(DTYPES), default="binary32")
    args = p.parse_args()
    a, fmt = args.approximate, args.format
    torch.set_num_threads(1)  # intra-op
    torch.set_num_interop_threads(1)
    gelu = torch.nn.functional.gelu
    dtype = DTYPES[fmt]

    def tensor(buf):
        if fmt == "binary32":
            return torch.from_numpy(np.frombuffer(buf, dtype="<f4").copy())
        return torch.from_numpy(np.frombuffer(buf, dtype="<i2").copy()).view(dtype)

    def result(t):
        return t.numpy() if fmt == "binary32" else t.view(torch.int16).numpy()

    def forward(buf):
        x = tensor(buf)
        with torch.no_grad():
            return result(gelu(x, approximate=a))

    def derivative(buf):
        x = tensor(buf).requires_grad_(True)
        y = gelu(x, approximate=a)
        (g,) = torch.autograd.grad(y, x, torch.ones_like(y))
        return result(g)

    name = "torch_gelu" if a == "none" else "torch_gelu_tanh"
    cap = torch.backends.cpu.get_cpu_capability().lower()
    on = "" if fmt == "binary32" else " on %s tensors" % str(dtype).replace("torch.", "")
    origin = ("torch %s torch.nn.functional.gelu(approximate='%s')%s, CPU capability %s, 1 "
              "thread, autograd backward" % (torch.__version__, a, on,
                                             torch.backends.cpu.get_cpu_capability()))
    contract = None
    if fmt == "binary32":
        contract = CONTRACTS.get((name, cap), CONTRACTS_ANY.get(name))
    return serve(name, "exact" if a == "none" else "tanh", forward, derivative, contract=contract,
                 origin=origin, format=fmt, dispatched_isa=cap)


if __name__ == "__main__":
    sys.exit(main())
