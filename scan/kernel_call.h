/* Every kernel call of a scan, judged (issue 43: a wrong kernel must never pass).
 *
 * The kernel reads a copy of the scan's inputs and writes into outputs that end at a guard page
 * (PROT_NONE), with a canary between its last output and the page when the outputs do not fill
 * it; after the call:
 *   - its copy of the inputs is compared with the scan's (a kernel writing into its const
 *     input cannot change what it is judged against, and is caught);
 *   - MXCSR and the x87 control word are compared with those the call began with (a kernel
 *     that leaves the rounding mode, FTZ or DAZ changed is caught) and restored before any other
 *     code runs, so no other row is judged under another environment;
 *   - the canary is checked (a write just past the outputs is caught; further, the guard page
 *     stops it: a plugin's crash report names it).
 * The first violation is kept, naming the row, the call and what it did; the scans end with it
 * as their error (exit 1). The environment a call runs in is the run's (gelu_fpenv.h): MXCSR's
 * FTZ and DAZ set around the call only.
 *
 * Cost per call: copying the inputs in and the outputs out and one comparison (a block of 4,097
 * binary32 values: 16 KiB each, in cache). */
#ifndef GELUCHECK_KERNEL_CALL_H
#define GELUCHECK_KERNEL_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "gelu_fpenv.h"
#include "gelu_impl.h"

/* impl's binary32 forward (grad: derivative) at x[0..n) into y, in environment env. */
void kernel_call_f32(const gelu_impl *impl, int grad, gelu_fpenv env, const float *x, float *y,
                     size_t n);
/* A 16-bit row's (gelu_impl_run_u16: native, or widened through wx, wy), in IEEE's environment. */
void kernel_call_u16(const gelu_impl *impl, int grad, const uint16_t *x, uint16_t *y, size_t n,
                     float *wx, float *wy);
/* A binary64 row's, in IEEE's environment. */
void kernel_call_f64(const gelu_impl *impl, int grad, const double *x, double *y, size_t n);

/* The first violation of any call so far ("implementation 'NAME' (SOURCE) broke the kernel
 * contract: ..."), NULL when none. */
const char *kernel_call_failure(void);
/* That, or the first of the n rows' own call failures (gelu_impl's call_failure: a child that
 * died, hung or lied); NULL when none: a scan's outputs mean something only then. */
const char *kernel_calls_failure(const gelu_impl *const *impls, size_t n);

#endif
