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
#include <stdint.h>

#include <dnnl.h>

/* y = f(x) (grad: y = f'(x), as backward with diff_dst = 1) for oneDNN's eltwise `alg`. */
void dnnl_eltwise_run(dnnl_alg_kind_t alg, bool grad, bool threaded, const float *x, float *y,
                      size_t n);
/* The same on bf16 memory: arrays of bfloat16 encodings (diff_dst the encodings of 1); on error
 * the outputs are bfloat16's quiet NaN. */
void dnnl_eltwise_run_bf16(dnnl_alg_kind_t alg, bool grad, bool threaded, const uint16_t *x,
                           uint16_t *y, size_t n);
/* Whether oneDNN, on the path it dispatches to in this process, has the primitive for `alg` in
 * that direction on memory of `type`: dnnl_success, or its status (dnnl_unimplemented when it
 * has none). */
dnnl_status_t dnnl_eltwise_probe(dnnl_alg_kind_t alg, bool grad, dnnl_data_type_t type);

#endif
