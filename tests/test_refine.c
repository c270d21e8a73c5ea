/* The maxima printed and gated are MPFR's (scan/refine.h): at two inputs where the scan's
 * enclosure gives a maximum's last digits wrong (found with `gelucheck accuracy --impl
 * erfc_accurate --grad --sample 2000000`: forward 0.59775603 printed, derivative 12.8639221),
 * the refined maximum equals the error computed here independently — GELU and its derivative
 * from mpfr_erfc and mpfr_exp at 400 bits, the ULP of binary32 from the exponent — to 1e-15,
 * while the scan's own value is off by more than 1e-9.
 *
 * Near ties (scan/near.h): a planted pair whose enclosure-computed errors are in the opposite
 * order of their true ones (near x_min, where the derivative's enclosure is loosest) gives the
 * true maximum and its input; many planted near ties (a list overflowing, resolved with MPFR in
 * the scan) give the maximum and first input a slow loop over every input finds; threads and
 * shards give the same refined results. */
#include <criterion/criterion.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy_csv.h"
#include "reference.h"
#include "refine.h"
#include "scan.h"
#include "independent_gelu.h"

extern const gelu_impl gelu_impl_erfc_accurate, gelu_impl_cr;

static void check(float x, bool grad)
{
    const gelu_impl *impls[] = {&gelu_impl_erfc_accurate};
    scan_config cfg = {.impls = impls, .nimpls = 1, .grad = grad, .threads = 1, .shard_n = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = x, .hi = x}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    int d = grad ? DIR_DERIVATIVE : DIR_FORWARD;
    double scanned = r->metrics[0].err[REF_OWN][d].max_ulp.value;
    scan_refine_maxima(r);
    double refined = r->metrics[0].err[REF_OWN][d].max_ulp.value;
    float y;
    (grad ? gelu_impl_erfc_accurate.derivative : gelu_impl_erfc_accurate.forward)(&x, &y, 1);
    double want = independent_ulp_error(x, y, grad);
    cr_expect(fabs(refined - want) <= 1e-15 * want, "x = %a: refined %.17g, MPFR at 400 bits %.17g",
              (double)x, refined, want);
    cr_expect(fabs(scanned - want) > 1e-9 * want,
              "x = %a: the scan's value %.17g is already right: the test does not bite", (double)x,
              scanned);
    cr_expect_eq(r->metrics[0].err[REF_EXACT][d].max_ulp.value, refined, "the exact row too");
    scan_result_free(r);
}

Test(refine, forward_maximum_is_mpfrs) { check(-0x1.50763p+3f, false); }
Test(refine, derivative_maximum_is_mpfrs) { check(-0x1.80f284p-1f, true); }

/* The correctly rounded GELU. */
static void cr_forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = ref_round(GELU_TARGET_EXACT, false, x[i]);
}

/* ---- a kernel whose output depends on its batch */

/* Correctly rounded, except inside a call of more than one input, where x = 1.5 gets the
 * correctly rounded value plus 5 ULP — as PyTorch's GELU gives +inf at 2^127 in a batch and the
 * right value alone. The maximum and verdict must be of the output the scan saw: recomputing it
 * alone (as refine did) printed 0.5 ULP and passed a 1 ULP claim. */
static const float BATCH_X = 1.5f;
static void batch_dependent_forward(const float *x, float *y, size_t n)
{
    cr_forward(x, y, n);
    for (size_t i = 0; n > 1 && i < n; i++)
        if (float_bits(x[i]) == float_bits(BATCH_X)) y[i] = float_from_bits(float_bits(y[i]) + 5);
}

Test(refine, the_maximum_is_of_the_output_the_scan_saw)
{
    static const gelu_impl batchy = {.name = "batch_dependent", .target = GELU_TARGET_EXACT,
                                     .forward = batch_dependent_forward, .derivative = cr_forward,
                                     .contract = {1, INFINITY, true, true, INFINITY, INFINITY},
                                     .origin = "test: batch-dependent output"};
    const gelu_impl *impls[] = {&batchy};
    scan_config cfg = {.impls = impls, .nimpls = 1, .threads = 1, .shard_n = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = 1.25f, .hi = 1.75f}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    scan_refine_maxima(r);
    arg_max *m = &r->metrics[0].err[REF_OWN][DIR_FORWARD].max_ulp;
    float y;
    cr_forward(&BATCH_X, &y, 1);
    y = float_from_bits(float_bits(y) + 5);
    double want = independent_ulp_error(BATCH_X, y, false);
    cr_expect(want > 4.5, "the planted output is %.17g ULP off", want);
    cr_expect_eq(m->bits, float_bits(BATCH_X), "maximum at %a, want %a", (double)float_from_bits(m->bits),
                 (double)BATCH_X);
    cr_expect(fabs(m->value - want) <= 1e-15 * want, "maximum %.17g, MPFR at 400 bits %.17g", m->value, want);
    scan_result_free(r);
}

/* ---- stretches of one output past the lower threshold */

/* Below x ≈ −14.2 GELU rounds to −0 (the scan's stand-in points, whose computed relative
 * errors are all alike: the stand-in is −2^-1000). A kernel giving −2^-149 on [−16.4, −16.25]
 * and +0 below −16.4: −2^-149's relative error |y − f|/|f| grows with |x| along its stretch, so
 * the maximum (~2^48) is at its LAST input, −16.4, inside the run (x below −16 is one x bucket,
 * one run) — the scan skips the inside of a stretch of equal outputs there, never its ends. */
static void stretch_forward(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] >= -16.4f ? -0x1p-149f : 0.0f;
}

Test(refine, a_stretch_of_one_output_keeps_its_last_input, .timeout = 120)
{
    static const gelu_impl stretch = {.name = "stretch", .target = GELU_TARGET_EXACT,
                                      .forward = stretch_forward, .derivative = stretch_forward,
                                      .contract = {1, INFINITY, false, false, INFINITY, INFINITY},
                                      .origin = "test: one output over a stretch"};
    const gelu_impl *impls[] = {&stretch};
    scan_config cfg = {.impls = impls, .nimpls = 1, .threads = 1, .shard_n = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = -16.75f, .hi = -16.25f}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    scan_refine_maxima(r);
    const error_metrics *e = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
    double want = independent_error(-16.4f, -0x1p-149f, false, true);
    cr_expect(want > independent_error(-16.25f, -0x1p-149f, false, true),
              "the stretch's last input is its maximum: the test bites");
    cr_expect_eq(e->max_rel.bits, float_bits(-16.4f), "relative maximum at %a, want -16.4",
                 (double)float_from_bits(e->max_rel.bits));
    cr_expect(fabs(e->max_rel.value - want) <= 1e-15 * want, "maximum %.17g, MPFR at 400 bits %.17g",
              e->max_rel.value, want);
    want = independent_ulp_error(-16.4f, -0x1p-149f, false);
    cr_expect_eq(e->max_ulp.bits, float_bits(-16.4f), "ULP maximum at %a, want -16.4",
                 (double)float_from_bits(e->max_ulp.bits));
    cr_expect(fabs(e->max_ulp.value - want) <= 1e-15 * want, "maximum %.17g, MPFR at 400 bits %.17g",
              e->max_ulp.value, want);
    scan_result_free(r);
}

/* ---- near ties */

/* Found by a search over 20,000 inputs around x_min (the enclosure against MPFR, outputs 3 ULP
 * above the correctly rounded derivative): the enclosure's errors are 2.70708466 at X1 and
 * 2.70707703 at X2, the true ones 2.70706862 and 2.70707698. X2 comes first in the domain. */
static const float X1 = -0x1.80d996p-1f, X2 = -0x1.80d9bcp-1f;
static bool plant_all; /* every derivative output 3 ULP off, not only X1's and X2's */


/* The correctly rounded derivative, 3 binary32 steps away from zero at the planted inputs. */
static void planted_derivative(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        y[i] = ref_round(GELU_TARGET_EXACT, true, x[i]);
        bool planted = plant_all ? fabsf(y[i]) > 0x1p-100f
                                 : float_bits(x[i]) == float_bits(X1) || float_bits(x[i]) == float_bits(X2);
        if (planted) y[i] = float_from_bits(float_bits(y[i]) + 3);
    }
}

static const gelu_impl planted = {.name = "planted_near_ties", .target = GELU_TARGET_EXACT,
                                  .forward = cr_forward, .derivative = planted_derivative,
                                  .contract = {0.5, INFINITY, true, true, INFINITY, INFINITY},
                                  .origin = "test: near ties planted"};

static scan_result *scan_planted(float lo, float hi, unsigned threads, unsigned k, unsigned n)
{
    const gelu_impl *impls[] = {&planted};
    scan_config cfg = {.impls = impls, .nimpls = 1, .grad = true, .threads = threads,
                       .shard_k = k, .shard_n = n, .domain = {.kind = DOMAIN_RANGE, .lo = lo, .hi = hi}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    return r;
}

Test(refine, swapped_near_tie_gives_the_true_maximum)
{
    plant_all = false;
    scan_result *r = scan_planted(X2, X1, 1, 0, 1);
    arg_max *m = &r->metrics[0].err[REF_OWN][DIR_DERIVATIVE].max_ulp;
    cr_expect_eq(m->bits, float_bits(X1), "the enclosure puts the maximum at X1: the test bites");
    scan_refine_maxima(r);
    float y;
    planted_derivative(&X2, &y, 1);
    double want = independent_ulp_error(X2, y, true);
    cr_expect_eq(m->bits, float_bits(X2), "refined maximum at %a, want X2 = %a",
                 (double)float_from_bits(m->bits), (double)X2);
    cr_expect(fabs(m->value - want) <= 1e-15 * want, "refined %.17g, MPFR at 400 bits %.17g", m->value, want);
    planted_derivative(&X1, &y, 1);
    cr_expect(independent_ulp_error(X1, y, true) < want - 1e-9, "X1's true error is below X2's");
    scan_result_free(r);
}

static char *csv_of(const scan_result *r)
{
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    accuracy_csv_write(r, f);
    ulp_by_x_csv_write(r, f);
    fclose(f);
    return buf;
}

/* 3 blocks around the planted pair */
static const float WIDE_LO = -0x1.8130p-1f, WIDE_HI = -0x1.80c8p-1f;

Test(refine, threads_and_shards_give_the_same_refined_maxima, .timeout = 300)
{
    plant_all = false;
    scan_result *one = scan_planted(WIDE_LO, WIDE_HI, 1, 0, 1), *two = scan_planted(WIDE_LO, WIDE_HI, 2, 0, 1);
    cr_assert_gt(one->inputs, 2 * SCAN_BLOCK);
    scan_result *acc = scan_planted(WIDE_LO, WIDE_HI, 1, 0, 3);
    for (unsigned k = 1; k < 3; k++) { /* merged in reverse (partial files need a registered
                                          * implementation: test_scan.c goes through them) */
        scan_result *part = scan_planted(WIDE_LO, WIDE_HI, 2, 3 - k, 3);
        const char *error = NULL;
        cr_assert_eq(scan_result_merge(acc, part, &error), 0, "%s", error ? error : "");
        scan_result_free(part);
    }
    scan_refine_maxima(one);
    scan_refine_maxima(two);
    scan_refine_maxima(acc);
    char *a = csv_of(one), *b = csv_of(two), *c = csv_of(acc);
    cr_expect_str_eq(a, b);
    cr_expect_str_eq(a, c);
    cr_expect_eq(one->metrics[0].err[REF_OWN][DIR_DERIVATIVE].max_ulp.bits, float_bits(X2));
    free(a);
    free(b);
    free(c);
    scan_result_free(one);
    scan_result_free(two);
    scan_result_free(acc);
}

/* The correctly rounded GELU's successor: on [12, 13) (where GELU rounds to x), x's. */
static void successor_forward(const float *x, float *y, size_t n)
{
    cr_forward(x, y, n);
    for (size_t i = 0; i < n; i++) y[i] = float_from_bits(float_bits(y[i]) + 1);
}

/* The successor of the correctly rounded output on [12, 12 + n steps]: every error is 1 ULP
 * plus x·Q(x), which is far below the enclosure's tolerance (about 3e-8 ULP there), so every
 * input is a near tie of the maximum (an output x itself would be one the scan knows falls with
 * x, near_points.c's near_tail_point): the list overflows and is resolved with MPFR in the scan; the
 * refined maximum and its first input are those of a slow loop over every input (the error
 * computed independently, above). Past the MPFR budget (near.h), the list keeps a bound instead,
 * at least the true maximum. */
static void check_tiny_errors(uint32_t n, bool past_budget)
{
    static const gelu_impl successor = {.name = "successor", .target = GELU_TARGET_EXACT,
                                        .forward = successor_forward, .derivative = cr_forward,
                                        .contract = {2, INFINITY, true, false, INFINITY, INFINITY},
                                        .origin = "test: near ties of 1 ULP"};
    const gelu_impl *impls[] = {&successor};
    const float lo = 0x1.8p3f, hi = float_from_bits(float_bits(lo) + n - 1);
    scan_config cfg = {.impls = impls, .nimpls = 1, .threads = 2, .shard_n = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = lo, .hi = hi}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    scan_refine_maxima(r);
    const error_metrics *e = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
    double best = -1;
    uint32_t first = 0;
    for (uint32_t b = float_bits(lo); b <= float_bits(hi); b++) {
        float x = float_from_bits(b), y;
        successor_forward(&x, &y, 1);
        double u = independent_ulp_error(x, y, false);
        if (u > best) {
            best = u;
            first = b;
        }
    }
    cr_expect_gt(e->near[ERR_ULP].resolved, 0, "the list overflowed: the test bites");
    /* the x bucket [12, 12.125): its list (2 entries, 256 resolutions) went past its budget; it
     * shows the row's maximum, and its bound holds it */
    const near_bucket *xl = &e->x_near[ERR_ULP][x_bucket_of(lo)];
    cr_expect_neq(xl->dropped, -INFINITY, "the bucket's list went past its budget");
    cr_expect_geq(xl->dropped, best, "the bucket's bound %.17g holds the maximum %.17g", xl->dropped, best);
    cr_expect_eq(e->x_max_ulp[x_bucket_of(lo)], e->max_ulp.value);
    if (past_budget) {
        cr_expect_geq(e->near[ERR_ULP].dropped, best, "the bound %.17g holds the maximum %.17g",
                      e->near[ERR_ULP].dropped, best);
        cr_expect_leq(e->max_ulp.value, best + 0x1p-96);
    } else {
        cr_expect_eq(e->near[ERR_ULP].dropped, -INFINITY);
        cr_expect_eq(e->max_ulp.bits, first, "maximum at %a, the slow loop's at %a",
                     (double)float_from_bits(e->max_ulp.bits), (double)float_from_bits(first));
        /* MPFR's error at 128 bits is exact to about 2^-100 ULP (reference.h) */
        cr_expect(fabs(e->max_ulp.value - best) <= 0x1p-96, "%.17g, the slow loop's %.17g",
                  e->max_ulp.value, best);
    }
    scan_result_free(r);
}

Test(refine, overflowing_lists_give_the_maximum_of_every_input, .timeout = 300)
{
    check_tiny_errors(300, false);
}

Test(refine, lists_past_the_budget_keep_a_bound_of_the_maximum, .timeout = 300)
{
    check_tiny_errors(NEAR_BUDGET + 200, true);
}

/* ---- the x buckets' maxima (ulp_by_x.csv) */

/* Found by a search of [−0x1.812p-1, −0x1.8p-1] (near x_min, where the derivative's enclosure is
 * loosest) for derivative outputs 2 binary32 steps above the correctly rounded one whose MPFR
 * error is just above 2 ULP; all in the x bucket [−0.875, −0.75):
 *   2.00029136 at −0x1.80b1c4p-1 and 2.00011363 at −0x1.80315ep-1: within 1e-3 ULP (the
 *     enclosure's coarse tolerance) of each other;
 *   2.00057064 at −0x1.807846p-1 and 2.00057019 at −0x1.807bd8p-1 (first in the domain): within
 *     the enclosure's own bound there too (about 1e-5 ULP), so the bucket's list keeps both.
 * The row's maximum, 8 steps above, is at BX_TOP in the next bucket [−0.75, −0.625): the
 * planted pair's bucket is not the maximum's. */
static const float BX_TOP = -0x1.7ff8p-1f;
static float bx1, bx2; /* the pair planted: bx1's error the larger */
/* From below the pairs to past BX_TOP: 153 blocks, so that a whole run has probes (run.c) */
static const float BX_LO = -0x1.8120p-1f, BX_HI = -0x1.6ep-1f;

/* The correctly rounded derivative (the cr kernels, fast), moved at the planted inputs. */
static void bucket_planted_derivative(const float *x, float *y, size_t n)
{
    gelu_impl_cr.derivative(x, y, n);
    for (size_t i = 0; i < n; i++) {
        uint32_t b = float_bits(x[i]);
        int steps = b == float_bits(bx1) || b == float_bits(bx2) ? 2 : b == float_bits(BX_TOP) ? 8 : 0;
        y[i] = float_from_bits(float_bits(y[i]) + steps);
    }
}

static void bucket_planted_forward(const float *x, float *y, size_t n) { gelu_impl_cr.forward(x, y, n); }

static const gelu_impl bucket_planted = {.name = "bucket_planted", .target = GELU_TARGET_EXACT,
                                         .forward = bucket_planted_forward, .derivative = bucket_planted_derivative,
                                         .contract = {0.5, INFINITY, true, true, INFINITY, INFINITY},
                                         .origin = "test: near ties in an x bucket"};

static scan_result *scan_buckets(unsigned threads, unsigned k, unsigned n)
{
    const gelu_impl *impls[] = {&bucket_planted};
    scan_config cfg = {.impls = impls, .nimpls = 1, .grad = true, .threads = threads, .shard_k = k,
                       .shard_n = n, .domain = {.kind = DOMAIN_RANGE, .lo = BX_LO, .hi = BX_HI}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    return r;
}

/* The planted pair (p1's error the larger) gives its bucket's maximum as MPFR's at p1, ULP and
 * absolute, the same bits with 1 and 2 threads and 4 shards merged; both_kept: the pair is
 * within the enclosure's own bound, so the bucket's list holds both before refinement. */
static void check_bucket_pair(float p1, float p2, bool both_kept)
{
    bx1 = p1;
    bx2 = p2;
    float y1, y2, yt;
    bucket_planted_derivative(&bx1, &y1, 1);
    bucket_planted_derivative(&bx2, &y2, 1);
    bucket_planted_derivative(&BX_TOP, &yt, 1);
    double e1 = independent_ulp_error(bx1, y1, true), e2 = independent_ulp_error(bx2, y2, true);
    double top = independent_ulp_error(BX_TOP, yt, true);
    cr_assert(e1 > e2 && e1 - e2 < 1e-3 && e2 > 2, "the planted errors %.9g and %.9g are near ties", e1, e2);
    int b = x_bucket_of(bx1);
    cr_assert(b == x_bucket_of(bx2) && b != x_bucket_of(BX_TOP), "one bucket, not the maximum's");

    scan_result *one = scan_buckets(1, 0, 1);
    const error_metrics *e = &one->metrics[0].err[REF_OWN][DIR_DERIVATIVE];
    double scanned = e->x_max_ulp[b];
    const near_bucket *l = &e->x_near[ERR_ULP][b];
    bool both = l->n == 2 && ((l->e[0].bits == float_bits(bx1) && l->e[1].bits == float_bits(bx2)) ||
                              (l->e[0].bits == float_bits(bx2) && l->e[1].bits == float_bits(bx1)));
    if (both_kept) cr_expect(both, "the bucket's list keeps both inputs (%u entries)", l->n);
    scan_refine_maxima(one);
    cr_expect(fabs(e->max_ulp.value - top) <= 1e-15 * top, "the row's maximum %.17g, MPFR's %.17g",
              e->max_ulp.value, top);
    cr_expect(fabs(e->x_max_ulp[b] - e1) <= 1e-15 * e1, "bucket [%g, %g): %.17g, MPFR's at %a %.17g (at %a %.17g)",
              -0.875, -0.75, e->x_max_ulp[b], (double)bx1, e1, (double)bx2, e2);
    cr_expect(fabs(scanned - e1) > 1e-12 * e1,
              "the scan's own %.17g is already MPFR's %.17g: the test does not bite", scanned, e1);
    double a1 = independent_abs_error(bx1, y1, true), a2 = independent_abs_error(bx2, y2, true);
    double amax = a1 > a2 ? a1 : a2;
    cr_expect(fabs(e->x_max_abs[b] - amax) <= 1e-15 * amax, "abs: %.17g, MPFR's %.17g", e->x_max_abs[b], amax);

    /* the same bits with 2 threads, and from 4 shards merged in reverse */
    scan_result *two = scan_buckets(2, 0, 1), *acc = scan_buckets(1, 3, 4);
    for (unsigned k = 3; k-- > 0;) {
        scan_result *part = scan_buckets(2, k, 4);
        const char *error = NULL;
        cr_assert_eq(scan_result_merge(acc, part, &error), 0, "%s", error ? error : "");
        scan_result_free(part);
    }
    scan_refine_maxima(two);
    scan_refine_maxima(acc);
    for (int d = 0; d < DIR_COUNT; d++) {
        const error_metrics *a = &one->metrics[0].err[REF_OWN][d], *t = &two->metrics[0].err[REF_OWN][d],
                            *s = &acc->metrics[0].err[REF_OWN][d];
        cr_expect_eq(memcmp(a->x_max_ulp, t->x_max_ulp, sizeof a->x_max_ulp), 0, "2 threads: ULP by x differs");
        cr_expect_eq(memcmp(a->x_max_abs, t->x_max_abs, sizeof a->x_max_abs), 0, "2 threads: abs by x differs");
        cr_expect_eq(memcmp(a->x_max_ulp, s->x_max_ulp, sizeof a->x_max_ulp), 0, "4 shards: ULP by x differs");
        cr_expect_eq(memcmp(a->x_max_abs, s->x_max_abs, sizeof a->x_max_abs), 0, "4 shards: abs by x differs");
    }
    char *ca = csv_of(one), *cb = csv_of(two), *cc = csv_of(acc);
    cr_expect_str_eq(ca, cb);
    cr_expect_str_eq(ca, cc);
    free(ca);
    free(cb);
    free(cc);
    scan_result_free(one);
    scan_result_free(two);
    scan_result_free(acc);
}

Test(refine, an_x_bucket_maximum_is_mpfrs_among_near_ties, .timeout = 300)
{
    check_bucket_pair(-0x1.80b1c4p-1f, -0x1.80315ep-1f, false); /* 2.0003 and 2.0001 ULP */
}

Test(refine, an_x_bucket_maximum_is_mpfrs_where_the_enclosure_cannot_order_them, .timeout = 300)
{
    check_bucket_pair(-0x1.807846p-1f, -0x1.807bd8p-1f, true); /* 4.5e-7 ULP apart */
}

/* Below x = −39 (no weight: stand_in_block) the correctly rounded outputs −0 feed the near-tie
 * lists without their errors' arrays (near_scan_flat_cr): refined, the maxima are the true errors
 * |f(x)|·2^149 and |f(x)|, below 10^-300 there (|f| < 10^-340), not the stand-in's computed
 * 2^-851 ULP and 2^-1000 (6.7e-257, 9.3e-302), which a run left out of the lists would keep. */
Test(refine, stand_in_blocks_feed_the_near_tie_lists, .timeout = 120)
{
    const gelu_impl *impls[] = {&gelu_impl_cr};
    scan_config cfg = {.impls = impls, .nimpls = 1, .grad = true, .threads = 1, .shard_n = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = -41.0f, .hi = -40.0f}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    double scanned = r->metrics[0].err[REF_OWN][DIR_FORWARD].max_ulp.value;
    scan_refine_maxima(r);
    for (int d = 0; d < DIR_COUNT; d++) {
        const error_metrics *e = &r->metrics[0].err[REF_OWN][d];
        cr_expect(e->max_ulp.value >= 0 && e->max_ulp.value < 1e-300 && e->max_abs.value < 1e-300,
                  "direction %d: refined maxima %g ULP, %g absolute", d, e->max_ulp.value,
                  e->max_abs.value);
    }
    cr_expect(scanned > 1e-300, "the scan's own maximum %g is already the true one: no bite", scanned);
    scan_result_free(r);
}
