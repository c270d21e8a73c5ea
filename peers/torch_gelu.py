"""PyTorch's GELU as a gelucheck implementation over the exec protocol (docs/protocol.md):
torch.nn.functional.gelu on one CPU thread, forward and its autograd backward, on binary32
tensors or (--format) on bfloat16 / float16 ones.

    python3 torch_gelu.py [--approximate none|tanh] [--format binary32|bfloat16|binary16]
                          [--path NAME | --list-paths]

--path NAME serves one of the paths below (PATHS: tensor sizes 1 to 33, two intra-op threads,
torch.compile static and dynamic) as the row NAME@PATH (framework_paths.py).

approximate='none' is the exact GELU (target exact), 'tanh' the tanh form (target tanh). Run it
with the Python that has torch (tools/setup.sh --frameworks makes one). One thread (intra- and
inter-op).

Which code runs, and so the handshake's dispatched_isa (measured with torch 2.15.0, docs/frameworks.md
"PyTorch's code paths"): approximate='none' runs oneDNN's eltwise gelu_erf (the oneDNN bundled
with torch), whose JIT path oneDNN picks at run time, at most ONEDNN_MAX_CPU_ISA; its outputs
change with that cap and not with ATEN_CPU_CAPABILITY. approximate='tanh' runs ATen's own
kernel, at most ATEN_CPU_CAPABILITY=default|avx2|avx512, and not oneDNN. So the client asks:
one call with oneDNN's verbose output on (captured from file descriptor 1, which is the
protocol's) says whether oneDNN ran it and on which path ("jit:avx512_core_bf16" gives
avx512_core_bf16); if it did not, the path is ATen's, torch.backends.cpu.get_cpu_capability()
in lower case. Both caps are read once per process; the contract is that path's.

Floating-point environment (gelucheck --fpenv): ieee, or ftz+daz through PyTorch's own switch,
torch.set_flush_denormal(True), which sets MXCSR's FTZ and DAZ together in the calling thread
(the one that runs the kernels: one thread); PyTorch has no switch for one without the other.
"""
import argparse
import ctypes
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import framework_paths as fp  # noqa: E402

# The paths (framework_paths.py), both forms alike: (name, what, how). how: a size (tensors of
# that many elements), or a word main() reads.
PATHS = fp.size_paths() + [
    ("threads2", "torch.set_num_threads(2): the intra-op pool splits a tensor between 2 threads",
     "threads2"),
    ("compile", "torch.compile(dynamic=False): Inductor's generated C++ kernel, specialised to "
     "each request size, forward and its compiled backward", "compile"),
    ("compile_dynamic", "torch.compile(dynamic=True): Inductor's kernel for symbolic sizes",
     "compile_dynamic"),
]
fp.list_and_exit_if_asked(sys.argv, PATHS)
PATH = fp.path_arg(sys.argv, PATHS)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from gelucheck_exec import asked_fpenv, serve  # noqa: E402

# The tensors' dtype per protocol format.
DTYPES = {"binary32": torch.float32, "bfloat16": torch.bfloat16, "binary16": torch.float16}

# binary32 claims per dispatched path, each path measured under its cap in its own process
# (docs/frameworks.md, "PyTorch's code paths": a 10^6 sample with --grad, and every input of the ranges
# where the maxima lie). torch_gelu (oneDNN's gelu_erf, ONEDNN_MAX_CPU_ISA): the derivative's
# max abs error, 3.203e-07 at 0x1.621b4p-5 on avx2 and the AVX-512 paths, 3.543e-07 at
# 0x1.82e7d6p-5 on sse41 (every input of ±[2^-7, 2^-2]); its forward claims nothing (+inf from
# x = 2^127 in a batch on the AVX-512 path, −0 below ≈ −5.5, not monotone). torch_gelu_tanh
# (ATen's kernel, ATEN_CPU_CAPABILITY): the forward's max abs error against the tanh form,
# 4.332e-07 at 0x1.2d7f06p+2 on every capability (every input of [1, 8], [−8, −1], [5, 40] and
# [−40, −5]); its derivative overflows from |x| ≈ 2^63. A path not measured gets the largest
# bound of those measured. On Intel Sapphire Rapids torch's oneDNN names its uncapped path
# avx10_1_512_amx (oneDNN's header makes avx512_core_amx an alias of it): measured there
# as the AVX-512 paths, 3.203e-07 at 0x1.621b4p-5.
_WIDE = {"grad_max_abs": 3.21e-07}
CONTRACTS = {
    "torch_gelu": {"sse41": {"grad_max_abs": 3.55e-07}, "avx2": _WIDE, "avx512_core": _WIDE,
                   "avx512_core_vnni": _WIDE, "avx512_core_bf16": _WIDE, "avx512_core_amx": _WIDE,
                   "avx10_1_512_amx": _WIDE},
    "torch_gelu_tanh": {cap: {"max_abs": 4.34e-07} for cap in ("default", "avx2", "avx512")},
}
CONTRACTS_ANY = {"torch_gelu": {"grad_max_abs": 3.55e-07}, "torch_gelu_tanh": {"max_abs": 4.34e-07}}


def onednn_path(fn, x):
    """The oneDNN implementation's ISA that ran fn(x) ("avx512_core_bf16"), None when oneDNN did not
    run it: oneDNN's verbose lines, written by C code to file descriptor 1, caught in a file."""
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            with torch.backends.mkldnn.verbose(torch.backends.mkldnn.VERBOSE_ON):
                fn(x)
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode(errors="replace")
    found = re.findall(r"^onednn_verbose,.*,exec,cpu,eltwise,jit:([a-z0-9_]+),", text, re.M)
    return found[0] if found else None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--approximate", choices=["none", "tanh"], default="none")
    p.add_argument("--format", choices=sorted(DTYPES), default="binary32")
    args = p.parse_args(fp.strip_path_args(sys.argv[1:]))
    a, fmt = args.approximate, args.format
    how = PATH[2] if PATH else None
    torch.set_num_threads(2 if how == "threads2" else 1)  # intra-op
    torch.set_num_interop_threads(1)
    # ftz+daz when asked (and the CPU has DAZ: set_flush_denormal says whether it could)
    fpenvs = ["ieee", "ftz+daz"]
    flush = asked_fpenv() == "ftz+daz" and torch.set_flush_denormal(True)
    if asked_fpenv() == "ftz+daz" and not flush:
        fpenvs = ["ieee"]
    gelu = plain = torch.nn.functional.gelu
    if how in ("compile", "compile_dynamic"):
        # every request size its own specialisation (dynamic=False) rather than a fallback to
        # eager code after the default limit of 8
        for key in ("recompile_limit", "cache_size_limit"):
            if hasattr(torch._dynamo.config, key):
                setattr(torch._dynamo.config, key, 4096)
        gelu = torch.compile(torch.nn.functional.gelu, dynamic=how == "compile_dynamic")
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

    if isinstance(how, int):
        forward = fp.in_tensors_of(forward, how, 4 if fmt == "binary32" else 2)
        derivative = fp.in_tensors_of(derivative, how, 4 if fmt == "binary32" else 2)
    name = fp.row_name("torch_gelu" if a == "none" else "torch_gelu_tanh", PATH)
    probe = torch.linspace(-4, 4, 4096).to(dtype)
    with torch.no_grad():
        # the row's path (its contract's): the plain call, not a compiled one (which would
        # compile in the handshake, past the host's patience on a loaded machine)
        cap = onednn_path(lambda t: plain(t, approximate=a), probe)
    cap = cap or torch.backends.cpu.get_cpu_capability().lower()
    on = "" if fmt == "binary32" else " on %s tensors" % str(dtype).replace("torch.", "")
    origin = ("torch %s torch.nn.functional.gelu(approximate='%s')%s, CPU capability %s, 1 "
              "thread, autograd backward" % (torch.__version__, a, on,
                                             torch.backends.cpu.get_cpu_capability()))
    if cap != torch.backends.cpu.get_cpu_capability().lower():
        origin += ", oneDNN eltwise jit:%s" % cap
    if PATH:
        origin += "; path %s: %s" % (PATH[0], PATH[1])
    contract = None
    if fmt == "binary32":  # the row's contract on every path
        row = "torch_gelu" if a == "none" else "torch_gelu_tanh"
        contract = CONTRACTS[row].get(cap, CONTRACTS_ANY[row])
    return serve(name, "exact" if a == "none" else "tanh", forward, derivative, contract=contract,
                 origin=origin, format=fmt, dispatched_isa=cap, fpenv=fpenvs,
                 cut=fp.cut_of(4 if fmt == "binary32" else 2, PATH))


if __name__ == "__main__":
    sys.exit(main())
