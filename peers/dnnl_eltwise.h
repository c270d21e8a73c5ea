/* oneDNN's eltwise primitive as an array kernel, for the oneDNN peer (peers/dnnl.c).
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

/* y = f(x) (grad: y = f'(x), as backward with diff_dst = 1) for oneDNN's eltwise `alg`. */
void dnnl_eltwise_run(dnnl_alg_kind_t alg, bool grad, bool threaded, const float *x, float *y,
                      size_t n);

#endif
