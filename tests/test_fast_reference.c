/* The fast reference validated against MPFR: on stratified inputs (every binade of both signs,
 * and around each target's x_min, the underflow thresholds, the trivial-region thresholds, the
 * tiny-|x| boundary and 0), the exact value lies inside every enclosure, and every rounding the
 * enclosure decides is MPFR's. Reports the largest error seen as a fraction of the bound, and the
 * fraction of inputs that fall back to MPFR. GELUCHECK_FAST_N sets the count (exhaustive tier). */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdlib.h>

#include "contract.h"
#include "fast.h"
#include "sample.h"

static size_t sample_count(void)
{
    const char *s = getenv("GELUCHECK_FAST_N");
    return s ? (size_t)strtoull(s, NULL, 10) : 100000;
}

static size_t build_centers(float *c)
{
    size_t n = 0;
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (t != GELU_TARGET_RELU) c[n++] = (float)ref_x_min_d((gelu_target)t);
    const float fixed[] = {-13.1462f, -14.3561f, 16, -20, 10, -11, 32, -72, 48, -112,
                           0x1p-8f, -0x1p-8f, 0x1p-30f, -0x1p-30f, 0.0f, 5.4f, 1.0f, -1.0f};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) c[n++] = fixed[i];
    return n;
}

static void validate(gelu_target t, bool grad)
{
    size_t n = sample_count();
    float centers[32];
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

Test(fast_reference, exact) { validate(GELU_TARGET_EXACT, false); }
Test(fast_reference, exact_derivative) { validate(GELU_TARGET_EXACT, true); }
Test(fast_reference, tanh) { validate(GELU_TARGET_TANH, false); }
Test(fast_reference, tanh_derivative) { validate(GELU_TARGET_TANH, true); }
Test(fast_reference, sigmoid) { validate(GELU_TARGET_SIGMOID, false); }
Test(fast_reference, sigmoid_derivative) { validate(GELU_TARGET_SIGMOID, true); }
Test(fast_reference, silu) { validate(GELU_TARGET_SILU, false); }
Test(fast_reference, silu_derivative) { validate(GELU_TARGET_SILU, true); }
