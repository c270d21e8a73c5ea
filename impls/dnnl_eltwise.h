/* oneDNN's eltwise primitive as a gelu_kernel: shared by the dnnl_* peers.
 *
 * The engine is created once (pthread_once), each calling thread has its own stream, and the
 * primitive for each (algorithm, direction, n) is created on first use and kept, so a repeated
 * call (the benchmark) costs one execute, as in a framework that caches primitives. The Debian
 * build of oneDNN threads with OpenMP: a single-threaded call sets the calling thread's OpenMP
 * thread count to 1 around the execute and restores it; a threaded call leaves oneDNN's default
 * (all cores). On any oneDNN error the outputs are NaN, so the contract checks catch it. */
#ifndef GELUCHECK_DNNL_ELTWISE_H
#define GELUCHECK_DNNL_ELTWISE_H

#include <stdbool.h>
#include <stddef.h>

#include <dnnl.h>

#include "gelu_impl.h"

/* y = f(x) (grad: y = f'(x), as backward with diff_dst = 1) for oneDNN's eltwise `alg`. */
void dnnl_eltwise_run(dnnl_alg_kind_t alg, bool grad, bool threaded, const float *x, float *y,
                      size_t n);

/* Defines the pair of peers for oneDNN's eltwise `alg`: gelu_impl_dnnl_<suffix>, single-threaded,
 * and gelu_impl_dnnl_<suffix>_omp on oneDNN's own OpenMP threads, both with target `tgt` and the
 * contract `contract_init` (a braced gelu_contract initializer). */
#define DNNL_GELU_KERNEL(fn, alg, grad, threaded)                                                \
    static void fn(const float *x, float *y, size_t n)                                           \
    {                                                                                            \
        dnnl_eltwise_run(alg, grad, threaded, x, y, n);                                          \
    }

#define DNNL_GELU_IMPLS(suffix, alg, tgt, contract_init)                                         \
    DNNL_GELU_KERNEL(forward, alg, false, false)                                                 \
    DNNL_GELU_KERNEL(derivative, alg, true, false)                                               \
    DNNL_GELU_KERNEL(forward_omp, alg, false, true)                                              \
    DNNL_GELU_KERNEL(derivative_omp, alg, true, true)                                            \
    const gelu_impl gelu_impl_dnnl_##suffix = {                                                  \
        .name = "dnnl_" #suffix, .method = "dnnl_" #suffix, .isa = GELU_ISA_PORTABLE,            \
        .target = tgt, .features = 0, .forward = forward,                                        \
        .derivative = derivative, .contract = contract_init,                                     \
        .origin = "peer: oneDNN eltwise " #alg ", single-threaded",                             \
    };                                                                                           \
    const gelu_impl gelu_impl_dnnl_##suffix##_omp = {                                            \
        .name = "dnnl_" #suffix "_omp", .method = "dnnl_" #suffix "_omp",                        \
        .isa = GELU_ISA_PORTABLE, .target = tgt, .features = 0, .forward = forward_omp,          \
        .derivative = derivative_omp, .contract = contract_init, .own_threads = true,                                 \
        .origin = "peer: oneDNN eltwise " #alg " on its own OpenMP threads (all cores)",        \
    }

#endif
