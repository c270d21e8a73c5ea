/* The fast reference a block at a time (fast.h: fast_ref_fill): per chunk of points, the libm
 * values each point's region needs, computed once and shared by the forward and the derivative
 * (exact: erfc(−x·√½) is in both; tanh, sigmoid, SiLU: e^-t); then the lane kernels of the widest
 * ISA build this CPU runs (fast_vec_lanes.c) compute the enclosures and their decisions; special
 * inputs (NaN, ±inf, ±0) take the point path. Values are fast_ref_decide's, bit for bit. */
#include "fast.h"

#include <math.h>

#include "erf_small.h"
#include "exp_inline.h"
#include "fast_eval.h"
#include "fast_vec.h"
#include "gelucheck_config.h"
#include "hot_clones.h"

bool fast_isa_available(fast_isa isa)
{
    switch (isa) {
    case FAST_ISA_AUTO:
    case FAST_ISA_PORTABLE: return true;
    case FAST_ISA_AVX2:
        return GELUCHECK_HAVE_AVX2 && __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("fma");
    case FAST_ISA_AVX512:
        return GELUCHECK_HAVE_AVX512 && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl");
    }
    return false;
}

static fast_lanes_fn *lanes_of(fast_isa isa)
{
    if (isa == FAST_ISA_AUTO)
        isa = fast_isa_available(FAST_ISA_AVX512) ? FAST_ISA_AVX512
            : fast_isa_available(FAST_ISA_AVX2)   ? FAST_ISA_AVX2
                                                  : FAST_ISA_PORTABLE;
#if GELUCHECK_HAVE_AVX512
    if (isa == FAST_ISA_AVX512) return fast_lanes_avx512;
#endif
#if GELUCHECK_HAVE_AVX2
    if (isa == FAST_ISA_AVX2) return fast_lanes_avx2;
#endif
    return fast_lanes_portable;
}

static bool is_special(float x)
{
    return !isfinite(x) || x == 0;
}

/* The regions of a chunk's point xf that take libm values (as fast_enclose picks them): the
 * general formula's (forward |x| ≥ 2^-8, derivative |x| ≥ 2^-30) and the forward's tiny form; a
 * special input (NaN, ±inf, ±0) gets those of the stand-in 1, forward only (the point path takes
 * it). Into *x the double the lanes read. */
typedef struct {
    bool general_f, general_d, tiny_f;
} libm_regions;

__attribute__((always_inline)) static inline libm_regions regions_of(double lower, double upper,
                                                                     bool grad, float xf,
                                                                     double *x)
{
    uint32_t a = float_bits(xf) & 0x7fffffffu;
    int special = (a >= 0x7f800000u) | (a == 0);
    double v = special ? 1.0 : xf, av = fabs(v);
    int inside = (v > lower) & (v < upper), micro = av >= MICRO, tiny = av < TINY;
    *x = v;
    return (libm_regions){inside & !tiny, grad & !special & inside & micro, micro & tiny};
}

/* libm_values for exact GELU: erfc(−x·√½), erf(x·√½) and e^(−x²/2) from erf_small.h and
 * exp_inline.h in a loop that vectorizes (each formed at every point, kept where the point's
 * regions use it and the argument is in its domain: |x| below 1.19 for erfc, every tiny x for
 * erf, |x| below 32 for exp), e^(−x²/2) from e_half where given (the same value); then libm at
 * the points left. In a one-implementation scan the erf, erfc and exp calls here were ~10% of
 * the profile (perf over the whole run). */
HOT_CLONES static void libm_values_exact(const target_def *def, bool grad, const float *xs,
                                         size_t m, fast_lanes_in *in, const double *e_half)
{
    const double lower = def->lower, upper = def->upper;
    int64_t gd[FAST_LANES_CHUNK];
    int64_t rest = 0, no_e = e_half == NULL;
    double *restrict ix = in->x, *restrict l0 = in->l0, *restrict l1 = in->l1,
                     *restrict l2 = in->l2;
    const int64_t gr = grad;
    for (size_t j = 0; j < m; j++) { /* (apart: in one loop with the next GCC 12 vectorizes
                                      * neither) */
        uint32_t a = float_bits(xs[j]) & 0x7fffffffu;
        int64_t special = (a >= 0x7f800000u) | (a == 0);
        ix[j] = special ? 1.0 : (double)xs[j];
        gd[j] = special;
    }
    for (size_t j = 0; j < m; j++) { /* regions_of's selections, as 64-bit masks */
        int64_t special = gd[j];
        double x = ix[j], ax = fabs(x);
        int64_t inside = (x > lower) & (x < upper), micro = ax >= MICRO, small = ax < TINY;
        int64_t need0 = (inside & (small ^ 1)) | (gr & (special ^ 1) & inside & micro);
        int64_t g = gr & (special ^ 1) & inside & micro, tiny = micro & small;
        double a0 = exact_erfc_arg(x), a1 = exact_exp_arg(x), a2 = exact_erf_arg(x);
        int64_t in0 = erfc_small_in(a0), in1 = exp_inline_in(a1), in2 = erf_small_in(a2);
        double v0 = erfc_small(a0), v1 = exp_inline(a1), v2 = erf_small(a2);
        l0[j] = need0 & in0 ? v0 : 0;
        l1[j] = g & in1 ? v1 : 0;
        l2[j] = tiny & in2 ? v2 : 0;
        gd[j] = g;
        rest |= (need0 & (in0 ^ 1)) | (tiny & (in2 ^ 1)) | (g & no_e & (in1 ^ 1));
    }
    if (e_half)
        for (size_t j = 0; j < m; j++) { /* (fast.h: the same value as exp's here) */
            double e = e_half[j];
            l1[j] = gd[j] ? e : 0;
        }
    for (size_t j = 0; rest && j < m; j++) { /* the points left: libm, as before */
        double x;
        libm_regions r = regions_of(lower, upper, grad, xs[j], &x);
        double a0 = exact_erfc_arg(x), a2 = exact_erf_arg(x);
        if ((r.general_f || r.general_d) && !erfc_small_in(a0)) l0[j] = erfc(a0);
        if (r.tiny_f && !erf_small_in(a2)) l2[j] = erf(a2);
        if (r.general_d && !e_half && !exp_inline_in(exact_exp_arg(x)))
            l1[j] = exp(exact_exp_arg(x));
    }
}

/* The libm values (fast_vec.h) of a chunk's m points x[0 .. m) into in, for the regions their
 * directions use (regions_of). The target's row def is read once per chunk. */
static void libm_values(gelu_target t, const target_def *def, bool grad, const float *xs, size_t m,
                        fast_lanes_in *in, const double *e_half)
{
    bool tanh_form = false;
    switch (def->family) {
    case TARGET_FAMILY_ERF:
        libm_values_exact(def, grad, xs, m, in, e_half);
        return;
    case TARGET_FAMILY_DEFINED: /* no libm values: decided by the formula */
        return;
    case TARGET_FAMILY_TANH:
    case TARGET_FAMILY_SIGMOID:
        tanh_form = def->family == TARGET_FAMILY_TANH;
        break;
    }
    (void)t;
    for (size_t j = 0; j < m; j++) {
        double x;
        libm_regions r = regions_of(def->lower, def->upper, grad, xs[j], &x);
        double k = def->slope, u = tanh_form ? tanh_t(x) : k * x;
        double l0 = 0, l1 = 0, l2 = 0;
        if (r.general_f || r.general_d) l0 = exp(-u);
        if (r.general_d) l1 = exp(u);
        if (r.tiny_f) l2 = tanh(tanh_form ? tanh_tiny_arg(x) : sigmoid_tiny_arg(k, x));
        in->x[j] = x;
        in->l0[j] = l0;
        in->l1[j] = l1;
        in->l2[j] = l2;
    }
}

/* The lanes' values of points c .. c + m − 1 into o, as the loop of fast_ref_fill_isa sets a
 * point that is not special: hi, lo, cr, err, and inv_ulp where decided (elsewhere it keeps
 * what it held, as there). */
HOT_CLONES static void copy_lanes(const ref_arrays *o, size_t c, const fast_lanes_out *restrict lo,
                                  size_t m)
{
    double *restrict hi = o->hi + c, *restrict l = o->lo + c, *restrict err = o->err + c;
    double *restrict iu = o->inv_ulp + c;
    float *restrict cr = o->cr + c;
    for (size_t j = 0; j < m; j++) hi[j] = lo->hi[j];
    for (size_t j = 0; j < m; j++) l[j] = lo->lo[j];
    for (size_t j = 0; j < m; j++) cr[j] = (float)lo->cr[j];
    for (size_t j = 0; j < m; j++) err[j] = lo->err[j];
    for (size_t j = 0; j < m; j++) iu[j] = lo->decided[j] ? lo->inv_ulp[j] : iu[j];
}

size_t fast_ref_fill_isa(fast_isa isa, bool block_path, gelu_target t, int ndir, const float *x,
                         size_t n, const ref_arrays out[], uint16_t *const undecided[],
                         size_t nundecided[], const double *e_half, const input_span *span)
{
    for (int d = 0; d < ndir; d++) nundecided[d] = 0;
    bool blocks = block_path || target_def_of(t)->family == TARGET_FAMILY_DEFINED;
    input_span own;
    if (blocks && !span && n > 0) { /* once, for both */
        input_span_of(x, n, &own);
        span = &own;
    }
    for (int d = 0; d < ndir && blocks; d++)
        blocks = fast_ref_block(t, d == 1, x, n, &out[d], span);
    if (blocks) return 0;
    fast_lanes_fn *lanes = lanes_of(isa);
    const target_def *def = target_def_of(t);
    fast_lanes_in in;
    fast_lanes_out lane_out;
    for (size_t c = 0; c < n; c += FAST_LANES_CHUNK) {
        size_t m = n - c < FAST_LANES_CHUNK ? n - c : FAST_LANES_CHUNK;
        uint32_t any_special = 0;
        libm_values(t, def, ndir > 1, x + c, m, &in, e_half ? e_half + c : NULL);
        for (size_t j = 0; j < m; j++) any_special |= is_special(x[c + j]);
        for (int d = 0; d < ndir; d++) {
            const ref_arrays *o = &out[d];
            lanes(t, d == 1, &in, &lane_out, m);
            if (!any_special) { /* the loop below without its special case: copies that
                                 * vectorize, the undecided points (few) then one by one */
                copy_lanes(o, c, &lane_out, m);
                int64_t all = 1;
                for (size_t j = 0; j < m; j++) all &= lane_out.decided[j];
                for (size_t j = 0; !all && j < m; j++)
                    if (!lane_out.decided[j]) undecided[d][nundecided[d]++] = (uint16_t)(c + j);
                continue;
            }
            for (size_t j = 0; j < m; j++) {
                size_t k = c + j;
                if (is_special(x[k])) {
                    enclosure e;
                    fast_enclose(t, d == 1, x[k], &e);
                    o->err[k] = e.err;
                    ref_value v;
                    if (fast_ref_decide(t, d == 1, x[k], &v, &o->inv_ulp[k])) {
                        ref_arrays_set(o, k, v);
                        continue;
                    }
                    ref_arrays_set(o, k, (ref_value){e.hi, e.lo, 0});
                } else {
                    o->hi[k] = lane_out.hi[j];
                    o->lo[k] = lane_out.lo[j];
                    o->cr[k] = (float)lane_out.cr[j];
                    o->err[k] = lane_out.err[j];
                    if (lane_out.decided[j]) {
                        o->inv_ulp[k] = lane_out.inv_ulp[j];
                        continue;
                    }
                }
                undecided[d][nundecided[d]++] = (uint16_t)k;
            }
        }
    }
    size_t total = 0;
    for (int d = 0; d < ndir; d++) total += nundecided[d];
    return total;
}

size_t fast_ref_fill(gelu_target t, int ndir, const float *x, size_t n, const ref_arrays out[],
                     uint16_t *const undecided[], size_t nundecided[], const double *e_half,
                     const input_span *span)
{
    return fast_ref_fill_isa(FAST_ISA_AUTO, true, t, ndir, x, n, out, undecided, nundecided,
                             e_half, span);
}
