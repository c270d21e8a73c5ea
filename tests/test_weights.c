/* Distribution-weighted accuracy (scan/weights.h): each input's weight against the mass of its
 * rounding interval computed here with MPFR's erf/erfc at the interval's ends (256 bits); the
 * scan's weighted means over a range against a slow loop of this file's own (the weights and
 * GELU's errors both computed here with MPFR, within the fast reference's tolerance of the
 * scan's); a planted error at one input moves the weighted ULP sum by that input's weight (MPFR,
 * here) times the change of its error (the fast reference's, as the scan sees it), to 1e-12. */
#include <criterion/criterion.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "fast.h"
#include "independent_gelu.h"
#include "reference.h"
#include "scan.h"
#include "weights.h"

/* The normal mass of [a, b] (a < b, doubles) at 256 bits: Φ(b) − Φ(a), through erfc on the
 * side away from 0 so that no digit cancels. */
static double mpfr_normal_mass(double a, double b)
{
    mpfr_t ta, tb, s;
    mpfr_inits2(256, ta, tb, s, (mpfr_ptr)0);
    mpfr_sqrt_ui(s, 2, MPFR_RNDN);
    bool upper = a >= 0; /* Q(a) − Q(b) for a ≥ 0; by symmetry for b ≤ 0 */
    double lo = upper ? a : -b, hi = upper ? b : -a;
    if (a < 0 && b > 0) { /* straddles 0: erf */
        mpfr_set_d(ta, a, MPFR_RNDN);
        mpfr_set_d(tb, b, MPFR_RNDN);
        mpfr_div(ta, ta, s, MPFR_RNDN);
        mpfr_div(tb, tb, s, MPFR_RNDN);
        mpfr_erf(ta, ta, MPFR_RNDN);
        mpfr_erf(tb, tb, MPFR_RNDN);
        mpfr_sub(tb, tb, ta, MPFR_RNDN);
    } else {
        mpfr_set_d(ta, lo, MPFR_RNDN);
        mpfr_set_d(tb, hi, MPFR_RNDN);
        mpfr_div(ta, ta, s, MPFR_RNDN);
        mpfr_div(tb, tb, s, MPFR_RNDN);
        mpfr_erfc(ta, ta, MPFR_RNDN);
        mpfr_erfc(tb, tb, MPFR_RNDN);
        mpfr_sub(tb, ta, tb, MPFR_RNDN);
    }
    mpfr_div_2ui(tb, tb, 1, MPFR_RNDN);
    double m = mpfr_get_d(tb, MPFR_RNDN);
    mpfr_clears(ta, tb, s, (mpfr_ptr)0);
    return m;
}

/* The rounding interval of x, from its neighbours (this file's own). */
static void interval(float x, double *a, double *b)
{
    if (x == 0) {
        *a = signbit(x) ? -0x1p-150 : 0;
        *b = signbit(x) ? 0 : 0x1p-150;
        return;
    }
    *a = ((double)x + (double)nextafterf(x, -INFINITY)) / 2;
    *b = ((double)x + (double)nextafterf(x, INFINITY)) / 2;
}

static double own_weight(input_dist d, float x)
{
    double a, b;
    interval(x, &a, &b);
    if (d == DIST_NORMAL) return mpfr_normal_mass(a, b);
    double lo = fmax(a, -10), hi = fmin(b, 10);
    return hi > lo ? (hi - lo) / 20 : 0;
}

Test(weights, each_weight_is_its_rounding_intervals_mass)
{
    srand(5);
    double worst = 0;
    for (int i = 0; i < 10000; i++) {
        /* every binade from 2^-149 to 2^5, both signs, and the ends of the uniform's support */
        float x = i < 4 ? (float[]){-10.0f, 10.0f, 0.0f, -0.0f}[i]
                        : ldexpf(1 + (float)rand() / (float)RAND_MAX, rand() % 155 - 149) *
                              (rand() % 2 ? 1 : -1);
        for (int d = 0; d < DIST_COUNT; d++) {
            double got = dist_weight((input_dist)d, x), want = own_weight((input_dist)d, x);
            double rel = want ? fabs(got - want) / want : fabs(got);
            worst = rel > worst ? rel : worst;
            cr_expect(rel <= 0x1p-48, "%s weight of %a: %.17g, MPFR %.17g", input_dist_name(d),
                      (double)x, got, want);
        }
    }
    cr_expect_eq(dist_weight(DIST_NORMAL, 40.0f), 0);
    cr_expect_eq(dist_weight(DIST_UNIFORM, 0x1.400002p3f), 0, "outside [-10, 10]");
    cr_expect_eq(dist_weight(DIST_NORMAL, NAN), 0);
    cr_log_info("largest relative difference from MPFR: %g", worst);
}

/* The inputs where dist_weights' block weights differ from dist_weight's (logged), the block's
 * span taken by dist_weights and handed over (the scan's way), each counted. */
static size_t block_vs_single_with(const float *x, size_t n, double *wn, double *wu,
                                   const double *e_half)
{
    size_t wrong = 0;
    for (int given = 0; given < 2; given++) {
    input_span span;
    if (given) input_span_of(x, n, &span);
    if (!dist_weights(x, n, wn, wu, e_half, given ? &span : NULL)) /* nothing written: every weight +0 */
        for (size_t j = 0; j < n; j++) wn[j] = wu[j] = 0;
    for (size_t j = 0; j < n; j++) {
        double want_n = dist_weight(DIST_NORMAL, x[j]), want_u = dist_weight(DIST_UNIFORM, x[j]);
        bool same = memcmp(&wn[j], &want_n, sizeof want_n) == 0 &&
                    memcmp(&wu[j], &want_u, sizeof want_u) == 0;
        wrong += !same;
        if (!same && wrong < 5)
            cr_log_error("input %zu, %a (span %s): block %a %a, single %a %a", j, (double)x[j],
                         given ? "given" : "taken", wn[j], wu[j], want_n, want_u);
    }
    }
    return wrong;
}

static size_t block_vs_single(const float *x, size_t n, double *wn, double *wu)
{
    return block_vs_single_with(x, n, wn, wu, NULL);
}

/* n inputs going down in encoding from the binary32 value whose encoding is top (exclusive),
 * alternately negated, appended at x[*n]. */
static void below_alternating(float *x, size_t *n, uint32_t top, int count)
{
    for (int i = 1; i <= count; i++) {
        uint32_t e = top - (uint32_t)i;
        memcpy(&x[*n], &e, sizeof e);
        x[*n] = i % 2 ? x[*n] : -x[*n];
        (*n)++;
    }
}

/* dist_weights (the scan's, a block at a time, reusing φ at the ends consecutive inputs share)
 * gives dist_weight's bits at every input, whatever the order: runs of consecutive encodings
 * upwards and downwards across binade boundaries, across ±0, the ±39 cut and ±10, ±inf, NaN and
 * random inputs between them; and a block of tiny inputs only (its branch-free path). */
Test(weights, block_weights_equal_single_ones)
{
    enum { N = 4096 };
    static float x[N];
    static double wn[N], wu[N];
    const float starts[] = {0.99999f, -0.99999f, -0x1p-140f, 38.99999f, -9.9999f, 0x1.fffff0p-9f};
    size_t n = 0;
    for (size_t s = 0; s < sizeof starts / sizeof *starts; s++) {
        uint32_t b;
        memcpy(&b, &starts[s], sizeof b);
        for (int i = 0; i < 400; i++) { /* upwards in encoding, then downwards */
            uint32_t e = s % 2 ? b - (uint32_t)i : b + (uint32_t)i;
            memcpy(&x[n++], &e, sizeof e);
        }
    }
    for (int i = 0; i < 64; i++) x[n++] = -0x1p-149f * (float)(i - 32); /* across ±0 */
    x[n++] = INFINITY;
    x[n++] = -INFINITY;
    x[n++] = NAN;
    srand(11);
    while (n < N) x[n++] = ldexpf(1 + (float)rand() / (float)RAND_MAX, rand() % 40 - 30) *
                           (rand() % 2 ? 1 : -1);
    cr_expect_eq(block_vs_single(x, n, wn, wu), 0, "block weights differ from single ones");
    /* a block of tiny inputs only, 0 < |x| < 2^-8 (the branch-free path, dist_weights_tiny):
     * subnormals up, the largest below 2^-8 down, both signs, random ones between */
    n = 0;
    for (int i = 1; i <= 300; i++) x[n++] = 0x1p-149f * (float)i * (i % 2 ? 1 : -1);
    below_alternating(x, &n, 0x3b800000u, 300); /* below 2^-8 */
    while (n < N) x[n++] = ldexpf(1 + (float)rand() / (float)RAND_MAX, -(rand() % 140) - 9) *
                           (rand() % 2 ? 1 : -1);
    cr_expect_eq(block_vs_single(x, n, wn, wu), 0, "tiny block's weights differ from single ones");
    /* a block of inputs below 2^-27 only (dist_weights_flat): subnormals up from both zeros,
     * runs across powers of two (whose intervals are not a power of two wide) both ways, the
     * largest below 2^-27, random ones between */
    n = 0;
    for (int i = 1; i <= 300; i++) x[n++] = 0x1p-149f * (float)i * (i % 2 ? 1 : -1);
    const float flat_starts[] = {0x1p-126f, -0x1p-100f, 0x1p-60f, -0x1p-28f};
    for (size_t s = 0; s < sizeof flat_starts / sizeof *flat_starts; s++) {
        uint32_t b;
        memcpy(&b, &flat_starts[s], sizeof b);
        for (int i = -150; i < 150; i++) {
            uint32_t e = s % 2 ? b - (uint32_t)i : b + (uint32_t)i;
            memcpy(&x[n++], &e, sizeof e);
        }
    }
    below_alternating(x, &n, 0x32000000u, 100); /* below 2^-27 */
    while (n < N) x[n++] = ldexpf(1 + (float)rand() / (float)RAND_MAX, -(rand() % 120) - 28) *
                           (rand() % 2 ? 1 : -1);
    for (size_t j = 0; j < n; j++)
        cr_assert(x[j] != 0 && fabsf(x[j]) < 0x1p-27f, "input %zu, %a: not below 2^-27", j,
                  (double)x[j]);
    cr_expect_eq(block_vs_single(x, n, wn, wu), 0, "flat block's weights differ from single ones");
    /* and with the largest ones below 2^-26, where φ's series is not 1 at every end (the branch
     * above must not take them) */
    for (int i = 1; i <= 300; i++) {
        uint32_t e = 0x32800000u - (uint32_t)i; /* below 2^-26 */
        memcpy(&x[i], &e, sizeof e);
    }
    cr_expect_eq(block_vs_single(x, n, wn, wu), 0, "near 2^-26, weights differ from single ones");
    /* a block of core inputs only, finite, not ±0, inside ±39 (dist_weights_core): runs up and
     * down in encoding across 1, ±10 and 2^-8, the largest below 39 and the smallest
     * subnormals, an isolated input between runs, random ones */
    const float core_starts[] = {0.99999f, -0.99999f, 9.9999f, -10.0001f, 0x1.fffff0p-9f,
                                 -38.99f, 0x1p-149f, -7.0f};
    n = 0;
    for (size_t s = 0; s < sizeof core_starts / sizeof *core_starts; s++) {
        uint32_t b;
        memcpy(&b, &core_starts[s], sizeof b);
        for (int i = 0; i < 300; i++) {
            uint32_t e = s % 3 == 1 ? b - (uint32_t)i : b + (uint32_t)i;
            memcpy(&x[n++], &e, sizeof e);
        }
        x[n++] = (float)s - 3.5f;
    }
    while (n < N) x[n++] = ldexpf(1 + (float)rand() / (float)RAND_MAX, rand() % 150 - 145) *
                           (rand() % 2 ? 1 : -1);
    for (size_t j = 0; j < n; j++)
        cr_assert(x[j] != 0 && fabsf(x[j]) < 39, "input %zu, %a: not a core input", j, (double)x[j]);
    cr_expect_eq(block_vs_single(x, n, wn, wu), 0, "core block's weights differ from single ones");
    /* the same with every |x| in [2^-8, 39) and exp(−x²/2) handed over (dist_exp_half: the
     * midpoints that are the input take it; the powers of two, whose midpoints are not, do not) */
    for (size_t j = 0; j < n; j++)
        if (fabsf(x[j]) < 0x1p-8f) x[j] = copysignf(0x1p-8f, x[j]) * (float)(1 + j % 7);
    static double eh[N];
    cr_assert(dist_exp_half(x, n, eh, NULL), "exp(-x^2/2) of a block in [2^-8, 39) not given");
    cr_expect_eq(block_vs_single_with(x, n, wn, wu, eh), 0,
                 "with exp(-x^2/2) handed over, weights differ from single ones");
    x[n / 2] = 0x1p-9f;
    cr_expect(!dist_exp_half(x, n, eh, NULL), "an input below 2^-8: no exp(-x^2/2)");
    x[n / 2] = 39.0f;
    cr_expect(!dist_exp_half(x, n, eh, NULL), "an input at 39: no exp(-x^2/2)");
    /* a block past ±39 only (NaN, ±inf among them): dist_weights writes nothing and says so; with
     * one input just inside the cut, it weighs that one */
    n = 0;
    for (int i = 0; i < 1000; i++) {
        uint32_t e = 0x421c0000u + (uint32_t)i; /* 39 upwards */
        memcpy(&x[n], &e, sizeof e);
        x[n] = i % 2 ? x[n] : -x[n];
        n++;
    }
    x[n++] = INFINITY;
    x[n++] = -INFINITY;
    x[n++] = NAN;
    x[n++] = -NAN;
    while (n < N) x[n++] = ldexpf(1 + (float)rand() / (float)RAND_MAX, rand() % 122 + 6) *
                           (rand() % 2 ? 1 : -1);
    for (size_t j = 0; j < n; j++) wn[j] = wu[j] = NAN;
    cr_expect(!dist_weights(x, n, wn, wu, NULL, NULL), "a block past ±39: no weight");
    cr_expect(isnan(wn[0]) && isnan(wu[n - 1]), "and nothing written");
    cr_expect_eq(block_vs_single(x, n, wn, wu), 0, "past ±39, every single weight is 0 too");
    x[n / 2] = -38.99999f; /* (its weights are +0: φ underflows, outside the uniform's support) */
    cr_expect(dist_weights(x, n, wn, wu, NULL, NULL), "one input inside ±39: weighed");
    cr_expect_eq(block_vs_single(x, n, wn, wu), 0, "with one inside, the weights are single ones");
    x[n / 2] = -9.5f;
    cr_expect(dist_weights(x, n, wn, wu, NULL, NULL) && wu[n / 2] > 0 && wn[n / 2] > 0, "one at -9.5 is weighed");
    cr_expect_eq(block_vs_single(x, n, wn, wu), 0, "with one inside, the weights are single ones");
}

extern const gelu_impl gelu_impl_erfc_f64, gelu_impl_tanh;

static scan_result *scan_range(const gelu_impl *m, float lo, float hi)
{
    const gelu_impl *impls[] = {m};
    scan_config cfg = {.impls = impls, .nimpls = 1, .grad = true, .threads = 2, .shard_n = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = lo, .hi = hi}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    return r;
}

/* Two blocks and a bit around x = 1 (normal density 0.24 there, uniform in its support) and
 * two in the tail: the weighted means of the ULP error against exact GELU of two
 * implementations, forward and derivative, as a slow loop computes them. */
Test(weights, weighted_means_match_a_slow_loop, .timeout = 300)
{
    const gelu_impl *impls[] = {&gelu_impl_erfc_f64, &gelu_impl_tanh};
    const float ranges[][2] = {{0x1p0f, 0x1.0048p0f}, {-0x1.1p2f, -0x1.0ffp2f}};
    for (int m = 0; m < 2; m++)
        for (int g = 0; g < 2; g++) {
            scan_result *r = scan_range(impls[m], ranges[g][0], ranges[g][1]);
            for (int dir = 0; dir < DIR_COUNT; dir++) {
                const error_metrics *e = &r->metrics[0].err[REF_EXACT][dir];
                double sw[DIST_COUNT] = {0}, su[DIST_COUNT] = {0};
                for (uint32_t b = float_bits(ranges[g][0]);; b += ranges[g][0] < 0 ? -1 : 1) {
                    float x = float_from_bits(b), y;
                    (dir ? impls[m]->derivative : impls[m]->forward)(&x, &y, 1);
                    double u = independent_ulp_error(x, y, dir == DIR_DERIVATIVE);
                    for (int d = 0; d < DIST_COUNT; d++) {
                        double w = own_weight((input_dist)d, x);
                        sw[d] += w;
                        su[d] += w * u;
                    }
                    if (x == ranges[g][1]) break;
                }
                for (int d = 0; d < DIST_COUNT; d++) {
                    double got = error_metrics_dist_mean(e, (input_dist)d, ERR_ULP), want = su[d] / sw[d];
                    /* the scan's errors are the fast reference's, within 4e-8 ULP of MPFR's here */
                    cr_expect(fabs(got - want) <= 1e-7 + 1e-12 * want, "%s %s %s: weighted mean %.17g, slow loop %.17g",
                              impls[m]->name, dir ? "derivative" : "forward", input_dist_name(d), got, want);
                }
            }
            scan_result_free(r);
        }
}

/* The correctly rounded values, and one input 4 ULP off (the planted error). */
static const float PLANT = 0x1.0021p0f;
static bool plant;

static void cr_forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        y[i] = ref_round(GELU_TARGET_EXACT, false, x[i]);
        if (plant && x[i] == PLANT) y[i] = float_from_bits(float_bits(y[i]) + 4);
    }
}

static void cr_derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = ref_round(GELU_TARGET_EXACT, true, x[i]);
}

Test(weights, planted_error_moves_the_sum_by_its_weight_times_the_error, .timeout = 120)
{
    static const gelu_impl cr = {.name = "cr_test", .target = GELU_TARGET_EXACT, .forward = cr_forward,
                                 .derivative = cr_derivative,
                                 .contract = {INFINITY, INFINITY, false, false, INFINITY, INFINITY},
                                 .origin = "test: correctly rounded, one error planted"};
    plant = false;
    scan_result *a = scan_range(&cr, 0x1p0f, 0x1.0048p0f);
    plant = true;
    scan_result *b = scan_range(&cr, 0x1p0f, 0x1.0048p0f);
    plant = false;
    float y_cr, y_bad;
    cr_forward(&PLANT, &y_cr, 1);
    plant = true;
    cr_forward(&PLANT, &y_bad, 1);
    plant = false;
    /* the change of the error as the scan sees it (the fast reference's value, reference.h),
     * and as MPFR at 400 bits does: within the fast reference's 1e-3 ULP of each other */
    ref_value v;
    double inv;
    fast_ref_value(GELU_TARGET_EXACT, false, PLANT, &v, &inv);
    double du = ref_ulp_error_dd(y_bad, v.hi, v.lo) - ref_ulp_error_dd(y_cr, v.hi, v.lo);
    double du_mpfr = independent_ulp_error(PLANT, y_bad, false) - independent_ulp_error(PLANT, y_cr, false);
    cr_expect(fabs(du - du_mpfr) <= 2e-3, "%.17g, MPFR %.17g", du, du_mpfr);
    for (int d = 0; d < DIST_COUNT; d++) {
        const dist_sums *sa = &a->metrics[0].err[REF_OWN][DIR_FORWARD].dist[d],
                        *sb = &b->metrics[0].err[REF_OWN][DIR_FORWARD].dist[d];
        /* the fixed point: the weight to 2^-70, the error to 2^-27 ULP (metrics.h) */
        double w = own_weight((input_dist)d, PLANT);
        double moved = (double)(sb->ulp - sa->ulp) * 0x1p-97, want = w * du;
        cr_expect(fabs(moved - want) <= 0x1p-70 * du + w * 0x1p-26 + 1e-15 * want, "%s: the sum moved by %.17g, weight × error %.17g",
                  input_dist_name(d), moved, want);
        cr_expect_eq(sb->weight, sa->weight, "the weight is the input's, not the output's");
    }
    scan_result_free(a);
    scan_result_free(b);
}
