/* The widened adapter: a binary32 implementation run in a 16-bit format as frameworks run it,
 * x16 → binary32 (exact) → the binary32 kernel → round to nearest even to the format
 * (gelu_format_widen, gelu_format_narrow). A double rounding: the binary32 result is already
 * rounded, and where it lands on a midpoint of the format (or is its binary32 neighbour across
 * one) the format's rounding of it need not be that of the exact value; `gelucheck accuracy
 * --format` measures how often per implementation. */
#include "format16_bits.h"
#include "gelu_impl.h"

#include <math.h>

gelu_impl gelu_impl_widened(const gelu_impl *b32, gelu_format_id format)
{
    gelu_impl w = *b32;
    w.format = format;
    w.forward_u16 = w.derivative_u16 = NULL; /* binary32 kernels, run widened */
    w.forward_nofma = w.derivative_nofma = NULL;
    /* Only monotonicity carries over: widening is exact and increasing, rounding is monotone.
     * Bounds in ULPs are the format's now, and the binary32 specials claim does not hold in
     * the format (the x/2 of an odd subnormal that binary32 keeps is a 16-bit tie, rounded to
     * even, where GELU(x) > x/2 rounds up). */
    w.contract = (gelu_contract){.max_ulp = INFINITY, .max_abs = INFINITY,
                                 .monotone = b32->contract.monotone, .grad_max_ulp = INFINITY,
                                 .grad_max_abs = INFINITY};
    return w;
}

bool gelu_impl_is_widened(const gelu_impl *m)
{
    return gelu_format_of(m->format)->storage_bits == 16 && !m->forward_u16 && m->forward;
}

void gelu_impl_run_u16(const gelu_impl *m, bool grad, const uint16_t *x, uint16_t *y, size_t n,
                       float *wx, float *wy)
{
    if (!gelu_impl_is_widened(m)) {
        (grad ? m->derivative_u16 : m->forward_u16)(x, y, n);
        return;
    }
    gelu_kernel k = grad ? m->derivative : m->forward;
    if (m->format == GELU_FORMAT_BFLOAT16) { /* one loop per format: the conversions inline */
        for (size_t i = 0; i < n; i++) wx[i] = bfloat16_widen(x[i]);
        k(wx, wy, n);
        for (size_t i = 0; i < n; i++) y[i] = bfloat16_narrow(wy[i]);
    } else {
        for (size_t i = 0; i < n; i++) wx[i] = binary16_widen(x[i]);
        k(wx, wy, n);
        for (size_t i = 0; i < n; i++) y[i] = binary16_narrow(wy[i]);
    }
}
