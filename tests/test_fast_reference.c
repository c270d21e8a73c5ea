/* The fast reference validated against MPFR: on stratified inputs (every binade of both signs,
 * and around each target's x_min, the underflow thresholds, the trivial-region thresholds, the
 * tiny-|x| boundary and 0), the exact value lies inside every enclosure, and every rounding the
 * enclosure decides is MPFR's. Reports the largest error seen as a fraction of the bound, and the
 * fraction of inputs that fall back to MPFR. GELUCHECK_FAST_N sets the count (exhaustive tier). */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "fast.h"
#include "sample.h"
#include "targets.h"

static size_t sample_count(void)
{
    const char *s = getenv("GELUCHECK_FAST_N");
    return s ? (size_t)strtoull(s, NULL, 10) : 100000;
}

static size_t build_centers(float *c)
{
    size_t n = 0;
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (!target_def_of((gelu_target)t)->defined) c[n++] = (float)ref_x_min_d((gelu_target)t);
    c[n++] = -13.1462f; /* exact GELU below FLT_MIN, and below half the smallest subnormal */
    c[n++] = -14.3561f;
    for (int t = 0; t < GELU_TARGET_COUNT; t++) { /* the trivial regions' edges */
        const target_def *d = target_def_of((gelu_target)t);
        if (d->defined) continue;
        c[n++] = (float)d->upper;
        c[n++] = (float)d->lower;
    }
    const float fixed[] = {0x1p-8f, -0x1p-8f, 0x1p-30f, -0x1p-30f, 0.0f, 5.4f, 1.0f, -1.0f};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) c[n++] = fixed[i];
    return n;
}

static void validate(gelu_target t, bool grad)
{
    size_t n = sample_count();
    float centers[3 * GELU_TARGET_COUNT + 16]; /* build_centers: 3 per target and 10 more */
    size_t nc = build_centers(centers);
    float *x = malloc(n * sizeof *x);
    sample_stratified(1000 + 2 * (uint64_t)t + grad, centers, nc, x, n);
    /* 400 bits: lo is 2^-150 of hi for the smallest x, and must still be validated to 2^-60. */
    mpfr_t exact, d;
    mpfr_inits2(400, exact, d, (mpfr_ptr)0);
    double worst = 0;
    float worst_x = 0;
    size_t fallbacks = 0, outside = 0;
    for (size_t i = 0; i < n; i++) {
        enclosure e;
        fast_enclose(t, grad, x[i], &e);
        float cr_mpfr = ref_eval(t, grad, x[i], exact), cr;
        if (enclosure_round(&e, &cr))
            cr_expect(contract_same_value(cr_mpfr, cr), "%s%s(%a): enclosure rounds to %a, MPFR %a",
                      gelu_target_name(t), grad ? "'" : "", (double)x[i], (double)cr, (double)cr_mpfr);
        ref_value v;
        double inv_ulp;
        fallbacks += fast_ref_value(t, grad, x[i], &v, &inv_ulp);
        if (!mpfr_number_p(exact)) continue;
        /* |exact − (hi + lo)| against err */
        mpfr_sub_d(d, exact, e.hi, MPFR_RNDN);
        mpfr_sub_d(d, d, e.lo, MPFR_RNDN);
        double diff = fabs(mpfr_get_d(d, MPFR_RNDN));
        if (e.err == 0) {
            /* Trivial and defined regions: the stand-in must be within 2^-151 of exact or exact. */
            if (!(diff <= 0x1p-151 || diff <= fabs(e.hi) * 0x1p-60)) {
                outside++;
                cr_expect(false, "%s%s(%a): trivial-region value off by %g", gelu_target_name(t),
                          grad ? "'" : "", (double)x[i], diff);
            }
            continue;
        }
        double ratio = diff / e.err;
        if (ratio > worst) {
            worst = ratio;
            worst_x = x[i];
        }
        if (ratio > 1) {
            outside++;
            cr_expect(ratio <= 1, "%s%s(%a): error %g is %g times the bound %g", gelu_target_name(t),
                      grad ? "'" : "", (double)x[i], diff, ratio, e.err);
        }
    }
    cr_log_info("%s%s: %zu inputs, largest error %.3g of the bound (at %a), %zu outside, "
                "%zu MPFR fallbacks (%.2g)", gelu_target_name(t), grad ? " derivative" : "", n,
                worst, (double)worst_x, outside, fallbacks, (double)fallbacks / (double)n);
    mpfr_clears(exact, d, (mpfr_ptr)0);
    free(x);
}

/* Every evaluated target of the table (reference/targets.c), both directions: a new row is
 * validated without a line here. */
typedef struct {
    gelu_target t;
    bool grad;
} target_dir;

ParameterizedTestParameters(fast_reference, target)
{
    static target_dir p[2 * GELU_TARGET_COUNT];
    size_t n = 0;
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (!target_def_of((gelu_target)t)->defined) {
            p[n++] = (target_dir){(gelu_target)t, false};
            p[n++] = (target_dir){(gelu_target)t, true};
        }
    return cr_make_param_array(target_dir, p, n);
}

ParameterizedTest(target_dir *p, fast_reference, target) { validate(p->t, p->grad); }

/* fast_ref_block fills whole blocks of one region with the values fast_ref_decide gives point by
 * point (bit for bit: hi, lo, the correctly rounded encoding, inv_ulp), and refuses blocks that
 * straddle regions or hold a special input. Blocks of 4096 consecutive encodings starting at
 * every 2^21-th encoding, the last one ending at each region's edge, and planted specials. */
static size_t block_vs_points(gelu_target t, bool grad, const float *x, size_t n)
{
    ref_value vb[4096], vp;
    double ub[4096], up;
    if (!fast_ref_block(t, grad, x, n, vb, ub)) return 0;
    for (size_t j = 0; j < n; j++) {
        cr_assert(fast_ref_decide(t, grad, x[j], &vp, &up), "%s%s(%a): the block path filled a point "
                  "the enclosure does not decide", gelu_target_name(t), grad ? "'" : "", (double)x[j]);
        cr_assert(memcmp(&vp.hi, &vb[j].hi, sizeof vp.hi) == 0 && memcmp(&vp.lo, &vb[j].lo, sizeof vp.lo) == 0 &&
                      float_bits(vp.cr) == float_bits(vb[j].cr) && up == ub[j],
                  "%s%s(%a): block hi %a lo %a cr %a inv_ulp %a, point hi %a lo %a cr %a inv_ulp %a",
                  gelu_target_name(t), grad ? "'" : "", (double)x[j], vb[j].hi, vb[j].lo,
                  (double)vb[j].cr, ub[j], vp.hi, vp.lo, (double)vp.cr, up);
    }
    return 1;
}

Test(fast_reference, block_path_gives_the_pointwise_values)
{
    static float x[4096];
    size_t filled = 0, blocks = 0;
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int grad = 0; grad < 2; grad++)
            for (uint64_t start = 0; start < (UINT64_C(1) << 32); start += UINT64_C(1) << 21) {
                for (size_t j = 0; j < 4096; j++) x[j] = float_from_bits((uint32_t)(start + j));
                filled += block_vs_points((gelu_target)t, grad, x, 4096);
                blocks++;
            }
    /* edges: blocks ending just below 2^-30 and starting at 2^-125, at 16 and just above -20 */
    const float edges_lo[] = {0x1p-125f, 16.0f, -20.0f, 10.0f, -11.0f};
    for (size_t e = 0; e < sizeof edges_lo / sizeof edges_lo[0]; e++)
        for (int t = 0; t < GELU_TARGET_COUNT; t++) {
            for (size_t j = 0; j < 4096; j++) x[j] = float_from_bits(float_bits(edges_lo[e]) + (uint32_t)j);
            filled += block_vs_points((gelu_target)t, false, x, 4096);
            for (size_t j = 0; j < 4096; j++) x[j] = float_from_bits(float_bits(0x1p-30f) - 1 - (uint32_t)j);
            filled += block_vs_points((gelu_target)t, true, x, 4096);
        }
    cr_log_info("%zu of %zu blocks filled by the block path, every value equal", filled, blocks);
    cr_expect(filled > blocks / 2, "the block path filled only %zu of %zu blocks", filled, blocks);
    /* a planted special (NaN, 0, inf) or a point outside the region makes it refuse */
    const float planted[] = {NAN, 0.0f, INFINITY, 1.0f};
    for (size_t p = 0; p < sizeof planted / sizeof planted[0]; p++) {
        for (size_t j = 0; j < 4096; j++) x[j] = 100.0f + (float)j;
        x[1234] = planted[p];
        ref_value v[4096];
        double u[4096];
        cr_expect(!fast_ref_block(GELU_TARGET_EXACT, false, x, 4096, v, u),
                  "a block with %a at index 1234 was filled", (double)planted[p]);
    }
}
