"""JAX's GELU as a gelucheck implementation over the exec protocol (docs/protocol.md):
jax.nn.gelu jitted on the CPU backend, forward and its derivative (jax.vmap of jax.grad), XLA
on one thread, on binary32 arrays or (--format) on bfloat16 / float16 ones.

    python3 jax_gelu.py [--approximate] [--format binary32|bfloat16|binary16]
    # jax_gelu (exact) or jax_gelu_tanh (tanh)

Floating-point environment: ftz+daz, always. JAX sets MXCSR's FTZ and DAZ in the threads that
run its kernels and has no switch to unset them (measured on x86 with this client: gelu(2^-126)
is 0, and a subnormal operand reads as 0; README "Floating-point environments"), so the client
lists only ftz+daz: gelucheck runs it under --fpenv ftz,daz, and in an IEEE run its rows say
ftz+daz.
"""
import argparse
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "exec"))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from gelucheck_exec import serve  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--approximate", action="store_true")
    p.add_argument("--format", choices=["binary32", "bfloat16", "binary16"], default="binary32")
    args = p.parse_args()
    approx, fmt = args.approximate, args.format
    f = jax.jit(lambda x: jax.nn.gelu(x, approximate=approx))
    df = jax.jit(jax.vmap(jax.grad(lambda x: jax.nn.gelu(x, approximate=approx))))
    # numpy's view of the storage: bfloat16 is ml_dtypes' (a dependency of jax)
    dtype = {"binary32": np.dtype("<f4"), "bfloat16": np.dtype(jnp.bfloat16),
             "binary16": np.dtype("<f2")}[fmt]

    def forward(buf):
        return np.asarray(f(jnp.asarray(np.frombuffer(buf, dtype=dtype))))

    def derivative(buf):
        return np.asarray(df(jnp.asarray(np.frombuffer(buf, dtype=dtype))))

    name = "jax_gelu_tanh" if approx else "jax_gelu"
    on = "" if fmt == "binary32" else " on %s arrays" % dtype.name
    origin = "jax %s jax.nn.gelu(approximate=%s)%s jitted, CPU, vmap(grad)" % (
        jax.__version__, approx, on)
    # Exact form: max abs error 3.8405e-07 at x = 0x1.38e61p+2, over every input of [2^-8, 40]
    # and [-40, -2^-8] (jax 0.10.2; README "Which framework's GELU is closest"), a 10^6 sample
    # elsewhere; the exhaustive framework gate holds it to all 2^32 inputs.
    contract = None if approx or fmt != "binary32" else {"max_abs": 3.85e-07}
    return serve(name, "tanh" if approx else "exact", forward, derivative, contract=contract,
                 origin=origin, format=fmt, fpenv=["ftz+daz"])


if __name__ == "__main__":
    sys.exit(main())
