/* The lane kernels of the block path (fast_vec.h): the enclosure of one target and direction at
 * an array of finite non-zero inputs whose libm values are given, and its rounding decision, as
 * loops without calls that the compiler vectorizes. One source, compiled once per ISA
 * (reference/meson.build: portable SSE2, AVX2, AVX-512) with FAST_LANES_NAME naming the build;
 * the arithmetic is fast_eval.h's, so every build gives fast_ref_decide's bits. */
#include "fast_vec.h"

#include "fast_eval.h"
#include "reference.h"

#ifndef FAST_LANES_NAME
#error "FAST_LANES_NAME names the ISA build (reference/meson.build)"
#endif

/* fast_enclose's regions, as selections: past the thresholds, |x| < 2^-30, the forward's
 * |x| < 2^-8, the general formulas. general() is the target's formula from the libm values.
 * The enclosures first (a loop that vectorizes), then their decisions. */
#define LANES_LOOP(general)                                                                      \
    for (size_t j = 0; j < m; j++) {                                                             \
        double x = in->x[j], ax = fabs(x), hi, lo, err, mh, ml, me, th, tl, te;                  \
        general;                                                                                 \
        micro_enclose(a, grad, x, &mh, &ml, &me);                                                \
        tiny_enclose(x, in->l2[j], &th, &tl, &te);                                               \
        bool is_micro = ax < MICRO, is_tiny = !grad & (ax < TINY);                               \
        hi = is_micro ? mh : is_tiny ? th : hi;                                                  \
        lo = is_micro ? ml : is_tiny ? tl : lo;                                                  \
        err = is_micro ? me : is_tiny ? te : err;                                                \
        bool up = x >= upper, down = x <= lower;                                                 \
        hi = up ? (grad ? 1.0 : x) : down ? NEG_TINY : hi;                                       \
        lo = up ? (grad ? DBL_TRUE_MIN : -DBL_TRUE_MIN) : down ? 0 : lo;                         \
        err = up | down ? 0 : err;                                                               \
        out->hi[j] = hi;                                                                         \
        out->lo[j] = lo;                                                                         \
        out->err[j] = err;                                                                       \
    }

/* fast_ref_decide's test on each lane's enclosure: rounded, and the ULP error of any output
 * known to 1e-3 ULP. */
static void lanes_decide(fast_lanes_out *out, size_t m)
{
    for (size_t j = 0; j < m; j++) out->inv_ulp[j] = ref_inv_ulp(out->hi[j], out->lo[j]);
    int64_t second[FAST_LANES_CHUNK], any_second = 0;
    for (size_t j = 0; j < m; j++) { /* fe_round_finite's first candidate */
        double cr, err = out->err[j];
        int64_t ok = fe_round_first(out->hi[j], out->lo[j], err, &cr, &second[j]);
        out->cr[j] = cr;
        out->decided[j] = ok & !(err * out->inv_ulp[j] > 1e-3);
        any_second |= second[j];
    }
    for (size_t j = 0; any_second && j < m; j++) /* the few lanes it leaves: both candidates */
        if (second[j]) {
            double cr, err = out->err[j];
            int64_t ok = fe_round_finite(out->hi[j], out->lo[j], err, &cr);
            out->cr[j] = cr;
            out->decided[j] = ok & !(err * out->inv_ulp[j] > 1e-3);
        }
}

/* One loop per target and direction (a constant grad: no selection on it inside the loop). */
#define LANES_BOTH(general)                                                                      \
    do {                                                                                         \
        if (grad_arg) {                                                                          \
            const bool grad = true;                                                              \
            LANES_LOOP(general);                                                                 \
        } else {                                                                                 \
            const bool grad = false;                                                             \
            LANES_LOOP(general);                                                                 \
        }                                                                                        \
    } while (0)

void FAST_LANES_NAME(gelu_target t, bool grad_arg, const fast_lanes_in *in, fast_lanes_out *out,
                     size_t m)
{
    const target_def *def = target_def_of(t);
    double upper = def->upper, lower = def->lower, a = def->s_prime_0;
    switch (def->family) {
    case TARGET_FAMILY_ERF:
        LANES_BOTH(exact_enclose(grad, x, in->l0[j], in->l1[j], &hi, &lo, &err));
        break;
    case TARGET_FAMILY_TANH:
        LANES_BOTH(tanh_enclose(grad, x, tanh_t(x), in->l0[j], in->l1[j], &hi, &lo, &err));
        break;
    case TARGET_FAMILY_SIGMOID: {
        double k = def->slope;
        LANES_BOTH(sigmoid_enclose(k, grad, x, in->l0[j], in->l1[j], &hi, &lo, &err));
        break;
    }
    case TARGET_FAMILY_DEFINED: /* decided by their formula before any lane (fast_vec.c) */
        for (size_t j = 0; j < m; j++) out->decided[j] = 0;
        return;
    }
    lanes_decide(out, m);
}
