/* The widened adapter: a binary32 implementation run in a 16-bit format as frameworks run it,
 * x16 → binary32 (exact) → the binary32 kernel → round to nearest even to the format
 * (gelu_format_widen, gelu_format_narrow). A double rounding: the binary32 result is already
 * rounded, and where it lands on a midpoint of the format (or is its binary32 neighbour across
 * one) the format's rounding of it need not be that of the exact value; `gelucheck accuracy
 * --format` measures how often per implementation. */
#include "format16_bits.h"
#include "gelu_impl.h"
#include "gelucheck_config.h"

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

/* Whether binary16's conversions around m's kernels are F16C's (format16_f16c.c, the same
 * bits): for a vector build (any ISA but PORTABLE: the portable build stays portable end to
 * end) on a CPU with F16C. */
static bool binary16_by_f16c(const gelu_impl *m)
{
#if GELUCHECK_HAVE_AVX2
    static int f16c = -1; /* the CPU's answer, asked once (any thread may ask: the same answer) */
    int has = __atomic_load_n(&f16c, __ATOMIC_RELAXED);
    if (has < 0) {
        has = (cpu_features() & CPU_FEATURE_F16C) != 0;
        __atomic_store_n(&f16c, has, __ATOMIC_RELAXED);
    }
    return has && m->isa != GELU_ISA_PORTABLE;
#else
    (void)m;
    return false;
#endif
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
    } else if (binary16_by_f16c(m)) {
        binary16_widen_f16c(x, wx, n);
        k(wx, wy, n);
        binary16_narrow_f16c(wy, y, n);
    } else {
        for (size_t i = 0; i < n; i++) wx[i] = binary16_widen(x[i]);
        k(wx, wy, n);
        for (size_t i = 0; i < n; i++) y[i] = binary16_narrow(wy[i]);
    }
}
