"""JAX's GELU as a gelucheck implementation over the exec protocol (docs/protocol.md):
jax.nn.gelu jitted on the CPU backend, forward and its derivative (jax.vmap of jax.grad), XLA
on one thread, on binary32 arrays or (--format) on bfloat16 / float16 ones.

    python3 jax_gelu.py [--approximate] [--format binary32|bfloat16|binary16]
                        [--path NAME | --list-paths]
    # jax_gelu (exact) or jax_gelu_tanh (tanh); --path NAME: one of PATHS below, row NAME@PATH

Floating-point environment: ftz+daz, always. JAX sets MXCSR's FTZ and DAZ in the threads that
run its kernels and has no switch to unset them (measured on x86 with this client: gelu(2^-126)
is 0, and a subnormal operand reads as 0; docs/fpenv.md "Floating-point environments"), so the client
lists only ftz+daz: gelucheck runs it under --fpenv ftz,daz, and in an IEEE run its rows say
ftz+daz.
"""
import argparse
import os
import re
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import framework_paths as fp  # noqa: E402

# The paths (framework_paths.py), both forms alike: (name, what, how). how: a size, or a word.
PATHS = fp.size_paths() + [
    ("threads2", "XLA's intra-op pool of 2 threads (Eigen multi-threaded)", "threads2"),
    ("eager", "no outer jax.jit: jax.nn.gelu and vmap(grad) dispatched op by op", "eager"),
]
fp.list_and_exit_if_asked(sys.argv, PATHS)
PATH = fp.path_arg(sys.argv, PATHS)
# One thread (two on the threads2 path), added to the caller's XLA_FLAGS (which may hold an ISA
# cap, below) rather than replacing them; read by XLA when jax starts.
_THREADS = ("--xla_cpu_multi_thread_eigen=true intra_op_parallelism_threads=2"
            if PATH and PATH[2] == "threads2" else
            "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _THREADS).strip()

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from gelucheck_exec import serve  # noqa: E402


# XLA's CPU ISAs in order (its --xla_cpu_max_isa values, lower case) and the /proc/cpuinfo flag
# each needs. XLA compiles for the host's widest ISA, at most --xla_cpu_max_isa.
ISAS = [("sse4_2", "sse4_2"), ("avx", "avx"), ("avx2", "avx2"), ("avx512", "avx512f")]


def dispatched_isa():
    """The ISA XLA compiles for here: min(the host's widest, the cap in XLA_FLAGS), as xla_<isa>.
    Its outputs differ between two paths (measured with jax 0.10.2 over 2^20 inputs of [-6, 6]:
    sse4_2 = avx, avx2 = avx512, 89,632 forwards and 218,598 derivatives apart): without FMA
    (sse4_2, avx) and with it (avx2, avx512). Caps past AVX512 (AVX512_VNNI, ...) count as avx512."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = set(next((l for l in f if l.startswith("flags")), "").split())
    except OSError:
        flags = set()
    host = max((i for i, (_, flag) in enumerate(ISAS) if flag in flags), default=0)
    m = re.search(r"--xla_cpu_max_isa=(\w+)", os.environ.get("XLA_FLAGS", ""))
    cap = len(ISAS) - 1
    if m:
        names = [n for n, _ in ISAS]
        v = m.group(1).lower()
        cap = names.index(v) if v in names else len(ISAS) - 1
    return "xla_" + ISAS[min(host, cap)][0]


# binary32 claims per path (jax 0.10.2; docs/frameworks.md), max
# abs error against the row's own target. With FMA (xla_avx2, xla_avx512), from one scan of all
# 2^32 inputs with --grad on AMD Zen 4: exact form, forward 3.8404e-07 at
# x = 0x1.38e61p+2, derivative 1.5222e-07 at 0x1.63ce2p+0; tanh form, forward 9.1537e-07 at
# 0x1.1dcf8ep+2. Without (XLA_FLAGS=--xla_cpu_max_isa=SSE4_2, in its own process), from every
# input of [2^-8, 40] and [-40, -2^-8] and a 10^6 sample: exact form, forward 3.8404e-07 (the
# same input), derivative 1.7232e-07 at 0x1.4cb9a8p+0; tanh form, forward 1.0954e-06 at
# 0x1.089bdep+2. The tanh form's derivative is NaN from |x| ~ 2^63 (no claim). A path not
# measured gets the larger bound.
_FMA = {"jax_gelu": {"max_abs": 3.85e-07, "grad_max_abs": 1.53e-07},
        "jax_gelu_tanh": {"max_abs": 9.16e-07}}
_NO_FMA = {"jax_gelu": {"max_abs": 3.85e-07, "grad_max_abs": 1.73e-07},
           "jax_gelu_tanh": {"max_abs": 1.10e-06}}
CONTRACTS = {name: {"xla_sse4_2": _NO_FMA[name], "xla_avx": _NO_FMA[name],
                    "xla_avx2": _FMA[name], "xla_avx512": _FMA[name]} for name in _FMA}
CONTRACTS_ANY = _NO_FMA


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--approximate", action="store_true")
    p.add_argument("--format", choices=["binary32", "bfloat16", "binary16"], default="binary32")
    args = p.parse_args(fp.strip_path_args(sys.argv[1:]))
    approx, fmt = args.approximate, args.format
    how = PATH[2] if PATH else None
    f = lambda x: jax.nn.gelu(x, approximate=approx)  # noqa: E731
    df = jax.vmap(jax.grad(lambda x: jax.nn.gelu(x, approximate=approx)))
    if how != "eager":
        f, df = jax.jit(f), jax.jit(df)
    # numpy's view of the storage: bfloat16 is ml_dtypes' (a dependency of jax)
    dtype = {"binary32": np.dtype("<f4"), "bfloat16": np.dtype(jnp.bfloat16),
             "binary16": np.dtype("<f2")}[fmt]

    def forward(buf):
        return np.asarray(f(jnp.asarray(np.frombuffer(buf, dtype=dtype))))

    def derivative(buf):
        return np.asarray(df(jnp.asarray(np.frombuffer(buf, dtype=dtype))))

    if isinstance(how, int):
        forward = fp.in_tensors_of(forward, how, dtype.itemsize)
        derivative = fp.in_tensors_of(derivative, how, dtype.itemsize)
    row = "jax_gelu_tanh" if approx else "jax_gelu"
    name = fp.row_name(row, PATH)
    on = "" if fmt == "binary32" else " on %s arrays" % dtype.name
    origin = "jax %s jax.nn.gelu(approximate=%s)%s %s, CPU, vmap(grad)" % (
        jax.__version__, approx, on, "eager" if how == "eager" else "jitted")
    if PATH:
        origin += "; path %s: %s" % (PATH[0], PATH[1])
    isa = dispatched_isa()
    contract = None
    if fmt == "binary32":
        contract = CONTRACTS[row].get(isa, CONTRACTS_ANY[row])  # the row's, on every path
    origin += ", XLA %s" % isa[4:]
    return serve(name, "tanh" if approx else "exact", forward, derivative, contract=contract,
                 origin=origin, format=fmt, dispatched_isa=isa, fpenv=["ftz+daz"],
                 cut=fp.cut_of(dtype.itemsize, PATH))


if __name__ == "__main__":
    sys.exit(main())
