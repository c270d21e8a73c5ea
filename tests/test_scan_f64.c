/* binary64's reference and sampled scan (scan/scan_f64.h): the oracle rounded to binary64 against
 * values derived by hand; the hard inputs in every sample; a kernel planted 3 ULP off at one
 * sampled input, caught there; the same results on 1 and 2 threads. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy_csv.h"
#include "gelu_f64.h"
#include "float_bits.h"
#include "reference.h"
#include "scan_f64.h"

static const gelu_format *b64(void) { return gelu_format_of(GELU_FORMAT_BINARY64); }

static double cr64(gelu_target t, bool grad, double x)
{
    mpfr_t e;
    mpfr_init2(e, REF_EXACT_PREC);
    double r = ref_eval_format(b64(), t, grad, x, e);
    mpfr_clear(e);
    return r;
}

/* GELU at s = RN(√2), by hand from erf(1): GELU(√2) = √2·½·(1 + erf(1)), and
 * GELU(s) = GELU(√2) + δ·GELU'(√2) + O(δ²), δ = s − √2 ≈ 9.7e-17, GELU'(√2) = ½(1 + erf(1)) +
 * √2·e^-1/√(2π) ≈ 1.1289 (δ² ≈ 1e-32: below the 10^-30 this needs). erf(1) =
 * 0.84270079294971486934122063508260926 (Abramowitz & Stegun, table 7.1, to 15 places
 * 0.84270 07929 49715; the rest from Wolfram Alpha's N[Erf[1], 40]). MPFR here is arithmetic on
 * those published digits only, not the oracle's erfc. */
Test(scan_f64, reference_at_sqrt2_from_published_erf1)
{
    mpfr_t r2, erf1, v, d;
    mpfr_inits2(200, r2, erf1, v, d, (mpfr_ptr)0);
    mpfr_sqrt_ui(r2, 2, MPFR_RNDN);
    double s = mpfr_get_d(r2, MPFR_RNDN);
    cr_assert_eq(double_bits(s), UINT64_C(0x3ff6a09e667f3bcd)); /* √2 rounded: 0x1.6a09e667f3bcdp+0 */
    mpfr_set_str(erf1, "0.84270079294971486934122063508260926", 10, MPFR_RNDN);
    mpfr_add_ui(v, erf1, 1, MPFR_RNDN);
    mpfr_mul(v, v, r2, MPFR_RNDN);
    mpfr_div_2ui(v, v, 1, MPFR_RNDN); /* GELU(√2) */
    double slope = 0.5 * (1 + 0.8427007929497149) + sqrt(2.0) * exp(-1.0) / sqrt(2 * 0x1.921fb54442d18p+1); /* π */
    mpfr_set_d(d, s, MPFR_RNDN);
    mpfr_sub(d, d, r2, MPFR_RNDN); /* δ */
    mpfr_mul_d(d, d, slope, MPFR_RNDN);
    mpfr_add(v, v, d, MPFR_RNDN); /* GELU(s) to ~1e-33 */
    double want = mpfr_get_d(v, MPFR_RNDN);
    /* not within 10^-29 of a rounding tie: the hand value decides the rounding */
    mpfr_set_d(d, want, MPFR_RNDN);
    mpfr_sub(d, v, d, MPFR_RNDN);
    double off = fabs(mpfr_get_d(d, MPFR_RNDN)) / (nextafter(want, 2) - want); /* in ULPs */
    cr_assert(off < 0.5 - 1e-13, "hand value %.3f ULP from its rounding: too near a tie", off);
    double got = cr64(GELU_TARGET_EXACT, false, s);
    cr_expect_eq(double_bits(got), double_bits(want), "GELU(%a): oracle %a, by hand %a", s, got, want);
    mpfr_clears(r2, erf1, v, d, (mpfr_ptr)0);
}

/* GELU(−40) rounds to −0: |GELU(−40)| = 40·Φ(−40) < φ(40) = e^-800/√(2π) < 2^-1154 (Mills'
 * ratio Φ(−x) < φ(x)/x), far below half the smallest subnormal 2^-1075; so does GELU'(−40) =
 * Φ(−40) − 40·φ(−40), of size 40·φ(40) < 2^-1148. GELU(x) = x for large x: x·Φ(−x) at x = 40 is
 * below 2^-1148, far below half an ULP of 40 (2^-48); at 2^1000 even more so; GELU'(40) = 1. */
Test(scan_f64, reference_tails_by_hand)
{
    cr_expect_eq(double_bits(cr64(GELU_TARGET_EXACT, false, -40.0)), UINT64_C(0x8000000000000000));
    cr_expect_eq(double_bits(cr64(GELU_TARGET_EXACT, true, -40.0)), UINT64_C(0x8000000000000000));
    cr_expect_eq(cr64(GELU_TARGET_EXACT, false, 40.0), 40.0);
    cr_expect_eq(cr64(GELU_TARGET_EXACT, false, 0x1p1000), 0x1p1000);
    cr_expect_eq(cr64(GELU_TARGET_EXACT, true, 40.0), 1.0);
    /* the smallest subnormal: GELU(x) = x/2 + x²/√(2π) + …; at x = 2^-1074, just above the tie
     * 2^-1075 between 0 and 2^-1074: rounds up to 2^-1074; at x = −2^-1074, −2^-1075 +
     * 2^-2148/√(2π), just inside the tie: rounds to −0 */
    cr_expect_eq(double_bits(cr64(GELU_TARGET_EXACT, false, 0x1p-1074)), UINT64_C(1));
    cr_expect_eq(double_bits(cr64(GELU_TARGET_EXACT, false, -0x1p-1074)), UINT64_C(0x8000000000000000));
}

/* The hard inputs are in every sample, whatever its size and seed; and they are where they
 * should be: the forward's underflow to −0 near x = −38.58 (GELU(x) ≈ −φ(x) there, and
 * e^(−x²/2)/√(2π) = 2^-1075 at x² = 2·(1075·ln 2 − ln √(2π)) = 1488.5), x_min's double, the
 * specials, the first subnormal midpoints. */
Test(scan_f64, hard_inputs_in_every_sample)
{
    uint64_t hard[SCAN_F64_HARD_MAX];
    size_t nh = scan_f64_hard_inputs(hard);
    cr_assert_gt(nh, 100u);
    const uint64_t seeds[2] = {1, 77}, ns[2] = {10, 5000};
    for (int k = 0; k < 2; k++) {
        uint64_t *x, count;
        cr_assert_eq(scan_f64_sample(ns[k], seeds[k], &x, &count), 0);
        for (uint64_t i = 1; i < count; i++) cr_assert_lt(x[i - 1], x[i], "sorted, distinct");
        for (size_t j = 0; j < nh; j++) {
            bool found = false;
            for (uint64_t i = 0; i < count && !found; i++) found = x[i] == hard[j];
            cr_expect(found, "hard input %a (0x%016llx) missing from sample n=%llu seed=%llu",
                      double_from_bits(hard[j]), (unsigned long long)hard[j], (unsigned long long)ns[k],
                      (unsigned long long)seeds[k]);
        }
        free(x);
    }
    double threshold = NAN; /* the forward's last non-zero input from −1 down */
    for (size_t j = 0; j < nh; j++) {
        double t = double_from_bits(hard[j]);
        if (t < -30 && t > -45 && cr64(GELU_TARGET_EXACT, false, t) == 0 &&
            cr64(GELU_TARGET_EXACT, false, double_from_bits(hard[j] - 1)) != 0)
            threshold = t;
    }
    cr_expect(fabs(threshold + sqrt(1488.5)) < 0.05, "underflow threshold %a, by hand -38.58",
              threshold);
    bool has[6] = {false};
    const uint64_t want[6] = {double_bits(-0.75179152469356445746), /* x_min (DESIGN.md) rounded */
                              UINT64_C(0x8000000000000000), UINT64_C(0x7ff0000000000000),
                              UINT64_C(0x7fefffffffffffff), UINT64_C(1), UINT64_C(3)};
    for (size_t j = 0; j < nh; j++)
        for (int w = 0; w < 6; w++) has[w] |= hard[j] == want[w];
    for (int w = 0; w < 6; w++) cr_expect(has[w], "0x%016llx not among the hard inputs", (unsigned long long)want[w]);
}

/* ---- a planted kernel: correctly rounded everywhere (the oracle's values), 3 ULP up at one
 * sampled input */

static double planted_x;

static void cr_forward(const double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        y[i] = cr64(GELU_TARGET_EXACT, false, x[i]);
        if (double_bits(x[i]) == double_bits(planted_x))
            for (int k = 0; k < 3; k++) y[i] = nextafter(y[i], INFINITY);
    }
}

static void cr_derivative(const double *x, double *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = cr64(GELU_TARGET_EXACT, true, x[i]);
}

static const gelu_impl planted_impl = {
    .name = "planted64", .target = GELU_TARGET_EXACT, .format = GELU_FORMAT_BINARY64,
    .forward_f64 = cr_forward, .derivative_f64 = cr_derivative,
    .contract = {.max_ulp = 2, .max_abs = INFINITY, .grad_max_ulp = 0.5, .grad_max_abs = INFINITY},
};

Test(scan_f64, planted_three_ulp_caught_at_its_input)
{
    uint64_t *x, count;
    cr_assert_eq(scan_f64_sample(600, 5, &x, &count), 0);
    uint64_t at = 0; /* a sampled (drawn) input in the core: the first in [1, 2) */
    while (at < count && !(double_from_bits(x[at]) >= 1 && double_from_bits(x[at]) < 2)) at++;
    cr_assert_lt(at, count);
    planted_x = double_from_bits(x[at]);
    free(x);
    const gelu_impl *impls[1] = {&planted_impl};
    scan_f64_config cfg = {.impls = impls, .nimpls = 1, .grad = true, .n = 600, .seed = 5,
                           .threads = 2};
    scan_result r = {0};
    const char *err = NULL;
    cr_assert_eq(scan_f64_run(&cfg, &r, &err), 0, "%s", err ? err : "");
    const error_metrics *e = &r.metrics[0].err[REF_OWN][DIR_FORWARD];
    cr_expect_eq(e->max_ulp.seq, at, "max ULP at position %llu, planted at %llu",
                 (unsigned long long)e->max_ulp.seq, (unsigned long long)at);
    cr_expect_eq(double_bits(scan_result_input(&r, e->max_ulp.seq, e->max_ulp.bits)), double_bits(planted_x));
    cr_expect(e->max_ulp.value > 2.5 && e->max_ulp.value < 3.5, "max ULP %g", e->max_ulp.value);
    cr_expect_eq(e->correctly_rounded, e->count - 1);
    cr_expect_eq(r.metrics[0].err[REF_OWN][DIR_DERIVATIVE].correctly_rounded,
                 r.metrics[0].err[REF_OWN][DIR_DERIVATIVE].count);
    char why[512], xt[64];
    cr_expect_eq(scan_contract_violations(&r, 0, why, sizeof why), 1);
    snprintf(xt, sizeof xt, "at x = %a (0x%016llx)", planted_x, (unsigned long long)double_bits(planted_x));
    cr_expect(strstr(why, "max ULP error") && strstr(why, xt), "%s (wanted '%s')", why, xt);
    scan_result_release(&r);
}

/* ---- 1 and 2 threads: the same CSV */

static char *csv_of(unsigned threads)
{
    const gelu_impl *impls[3] = {gelu_impl_find_in("erfc_libm", GELU_FORMAT_BINARY64), gelu_impl_find_in("tanh_libm", GELU_FORMAT_BINARY64),
                                 gelu_impl_find_in("sigmoid", GELU_FORMAT_BINARY64)};
    scan_f64_config cfg = {.impls = impls, .nimpls = 3, .grad = true, .n = 3000, .seed = 9,
                           .threads = threads};
    scan_result r = {0};
    const char *err = NULL;
    cr_assert_eq(scan_f64_run(&cfg, &r, &err), 0, "%s", err ? err : "");
    char *text;
    size_t size;
    FILE *f = open_memstream(&text, &size);
    accuracy_csv_write(&r, f);
    fclose(f);
    scan_result_release(&r);
    return text;
}

Test(scan_f64, same_results_on_1_and_2_threads)
{
    char *one = csv_of(1), *two = csv_of(2);
    cr_expect_str_eq(one, two);
    cr_expect(strstr(one, "erfc_libm,binary64,exact,own,forward,") != NULL, "%.300s", one);
    free(one);
    free(two);
}

/* A descriptor without binary64 kernels is refused. */
Test(scan_f64, refuses_other_formats)
{
    gelu_impl m = *gelu_impl_find_in("erfc_libm", GELU_FORMAT_BINARY64);
    m.format = GELU_FORMAT_BINARY32;
    const gelu_impl *impls[1] = {&m};
    scan_f64_config cfg = {.impls = impls, .nimpls = 1, .n = 10, .seed = 1, .threads = 1};
    scan_result r = {0};
    const char *err = NULL;
    cr_expect_eq(scan_f64_run(&cfg, &r, &err), -1);
    cr_expect(err && strstr(err, "binary64"));
    scan_result_release(&r);
}
