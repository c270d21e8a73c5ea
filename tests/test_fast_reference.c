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
#include "erf_small.h"
#include "exp_inline.h"
#include "fast_eval.h"
#include "fast_vec.h"
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
 * point (bit for bit: hi, lo, the correctly rounded encoding, inv_ulp, and the bound err as
 * fast_enclose gives it), and refuses blocks that straddle regions or hold a special input.
 * Blocks of 4096 consecutive encodings starting at every 2^21-th encoding, the last one ending at
 * each region's edge, and planted specials; the block's span (span.h) taken by fast_ref_block or
 * handed over (the scan's way), alternately. */
static size_t block_vs_points(gelu_target t, bool grad, const float *x, size_t n, bool given)
{
    static double hb[4096], lb[4096], ub[4096], eb[4096];
    static float cb[4096];
    ref_value vp;
    double up;
    const ref_arrays ra = {hb, lb, ub, eb, cb};
    input_span span;
    if (given) input_span_of(x, n, &span);
    if (!fast_ref_block(t, grad, x, n, &ra, given ? &span : NULL)) return 0;
    for (size_t j = 0; j < n; j++) {
        enclosure e;
        fast_enclose(t, grad, x[j], &e);
        cr_assert(memcmp(&e.err, &eb[j], sizeof e.err) == 0, "%s%s(%a): block err %a, fast_enclose's %a",
                  gelu_target_name(t), grad ? "'" : "", (double)x[j], eb[j], e.err);
        cr_assert(fast_ref_decide(t, grad, x[j], &vp, &up), "%s%s(%a): the block path filled a point "
                  "the enclosure does not decide", gelu_target_name(t), grad ? "'" : "", (double)x[j]);
        cr_assert(memcmp(&vp.hi, &hb[j], sizeof vp.hi) == 0 && memcmp(&vp.lo, &lb[j], sizeof vp.lo) == 0 &&
                      float_bits(vp.cr) == float_bits(cb[j]) && up == ub[j],
                  "%s%s(%a): block hi %a lo %a cr %a inv_ulp %a, point hi %a lo %a cr %a inv_ulp %a",
                  gelu_target_name(t), grad ? "'" : "", (double)x[j], hb[j], lb[j],
                  (double)cb[j], ub[j], vp.hi, vp.lo, (double)vp.cr, up);
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
                filled += block_vs_points((gelu_target)t, grad, x, 4096, blocks % 2);
                blocks++;
            }
    /* edges: blocks ending just below 2^-30 and starting at 2^-125, at 16 and just above -20 */
    const float edges_lo[] = {0x1p-125f, 16.0f, -20.0f, 10.0f, -11.0f};
    for (size_t e = 0; e < sizeof edges_lo / sizeof edges_lo[0]; e++)
        for (int t = 0; t < GELU_TARGET_COUNT; t++) {
            for (size_t j = 0; j < 4096; j++) x[j] = float_from_bits(float_bits(edges_lo[e]) + (uint32_t)j);
            filled += block_vs_points((gelu_target)t, false, x, 4096, e % 2);
            for (size_t j = 0; j < 4096; j++) x[j] = float_from_bits(float_bits(0x1p-30f) - 1 - (uint32_t)j);
            filled += block_vs_points((gelu_target)t, true, x, 4096, e % 2 == 0);
        }
    cr_log_info("%zu of %zu blocks filled by the block path, every value equal", filled, blocks);
    cr_expect(filled > blocks / 2, "the block path filled only %zu of %zu blocks", filled, blocks);
    /* a planted special (NaN, 0, inf) or a point outside the region makes it refuse */
    const float planted[] = {NAN, 0.0f, INFINITY, 1.0f};
    for (size_t p = 0; p < sizeof planted / sizeof planted[0]; p++) {
        for (size_t j = 0; j < 4096; j++) x[j] = 100.0f + (float)j;
        x[1234] = planted[p];
        static double h[4096], l[4096], u[4096], e[4096];
        static float c[4096];
        const ref_arrays ra = {h, l, u, e, c};
        input_span span;
        input_span_of(x, 4096, &span);
        cr_expect(!fast_ref_block(GELU_TARGET_EXACT, false, x, 4096, &ra, NULL),
                  "a block with %a at index 1234 was filled", (double)planted[p]);
        cr_expect(!fast_ref_block(GELU_TARGET_EXACT, false, x, 4096, &ra, &span),
                  "a block with %a at index 1234 was filled (span handed over)", (double)planted[p]);
    }
}

/* fast_ref_fill (the block path in SIMD lanes, forward and derivative together) gives the
 * values fast_ref_decide gives point by point, bit for bit, and leaves undecided exactly the
 * points it leaves undecided, for every ISA build this CPU runs: blocks of 4,096 consecutive
 * encodings at every 2^24-th encoding, around each region's edges and each target's x_min. */
typedef struct {
    double hi[2][4096], lo[2][4096], u[2][4096], err[2][4096];
    float cr[2][4096];
    uint16_t und[2][4096];
    size_t nund[2];
} filled_block;

/* The points of the block where the fill differs from the point path (0 when none); the first
 * such index into *at, logged as an error when log is set (an error log fails the run). */
static size_t fill_vs_points(gelu_target t, const float *x, size_t n, const filled_block *b,
                             size_t *at, bool log)
{
    size_t bad = 0;
    for (int d = 0; d < 2; d++) {
        size_t k = 0;
        for (size_t j = 0; j < n; j++) {
            ref_value vp;
            double up;
            bool decided = fast_ref_decide(t, d == 1, x[j], &vp, &up);
            bool listed = k < b->nund[d] && b->und[d][k] == j;
            k += listed;
            /* the enclosure's bound at every point, and its hi, lo where undecided */
            enclosure e;
            fast_enclose(t, d == 1, x[j], &e);
            bool same_enc = memcmp(&e.err, &b->err[d][j], sizeof e.err) == 0 &&
                            (decided || (memcmp(&e.hi, &b->hi[d][j], sizeof e.hi) == 0 &&
                                         memcmp(&e.lo, &b->lo[d][j], sizeof e.lo) == 0));
            bool same = same_enc && (decided ? !listed && memcmp(&vp.hi, &b->hi[d][j], sizeof vp.hi) == 0 &&
                                                   memcmp(&vp.lo, &b->lo[d][j], sizeof vp.lo) == 0 &&
                                                   float_bits(vp.cr) == float_bits(b->cr[d][j]) &&
                                                   up == b->u[d][j]
                                             : listed);
            if (!same && bad++ == 0) {
                *at = j;
                if (log)
                    cr_log_error("%s%s(%a): point hi %a lo %a cr %a inv_ulp %a err %a (%s), block "
                                 "hi %a lo %a cr %a inv_ulp %a err %a (%s)", gelu_target_name(t),
                                 d ? "'" : "", (double)x[j], decided ? vp.hi : e.hi,
                                 decided ? vp.lo : e.lo, (double)vp.cr, up, e.err,
                                 decided ? "decided" : "undecided", b->hi[d][j], b->lo[d][j],
                                 (double)b->cr[d][j], b->u[d][j], b->err[d][j],
                                 listed ? "undecided" : "decided");
            }
        }
    }
    return bad;
}

/* The fill of a block; where every input has 2^-8 ≤ |x| < 39 (as the scan's dist_exp_half),
 * with exp(−x²/2) handed over (computed here as the normal weights' φ computes it), which exact
 * GELU's derivative takes instead of its own call: the comparisons then check that path. */
static void fill(fast_isa isa, bool block_path, gelu_target t, const float *x, size_t n,
                 filled_block *b)
{
    const ref_arrays out[2] = {{b->hi[0], b->lo[0], b->u[0], b->err[0], b->cr[0]},
                               {b->hi[1], b->lo[1], b->u[1], b->err[1], b->cr[1]}};
    uint16_t *und[2] = {b->und[0], b->und[1]};
    static double e_half[4096];
    bool inside = n <= 4096;
    for (size_t j = 0; j < n && inside; j++) {
        e_half[j] = exp(-(0.5 * ((double)x[j] * (double)x[j])));
        inside = fabsf(x[j]) >= 0x1p-8f && fabsf(x[j]) < 39.0f;
    }
    fast_ref_fill_isa(isa, block_path, t, 2, x, n, out, und, b->nund, inside ? e_half : NULL, NULL);
}

Test(fast_reference, block_fill_gives_the_pointwise_values)
{
    static float x[4096];
    static filled_block b;
    float starts[64];
    size_t ns = 0;
    const float edges[] = {0x1p-8f, 0x1p-30f, 0x1p-125f, 16.0f, 20.0f, 10.0f, 11.0f, 32.0f,
                           72.0f, 48.0f, 112.0f, 14.3561f, 0.0f};
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
        starts[ns++] = float_from_bits(float_bits(edges[e]) - 2048); /* straddling the edge */
        starts[ns++] = float_from_bits(float_bits(-edges[e]) - 2048);
    }
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        if (t != GELU_TARGET_RELU) starts[ns++] = float_from_bits(float_bits((float)ref_x_min_d((gelu_target)t)) - 2048);
    size_t blocks = 0, points = 0, undecided = 0;
    /* every ISA build with the block path, and the widest one without it (the lanes then fill
     * the trivial and micro regions too) */
    for (fast_isa isa = FAST_ISA_AUTO; isa <= FAST_ISA_AVX512; isa++) {
        if (!fast_isa_available(isa)) continue;
        bool block_path = isa != FAST_ISA_AUTO;
        for (int t = 0; t < GELU_TARGET_COUNT; t++) {
            for (uint64_t s = 0; s < ns + 256; s++) {
                uint32_t start = s < ns ? float_bits(starts[s]) : (uint32_t)((s - ns) << 24);
                for (size_t j = 0; j < 4096; j++) x[j] = float_from_bits(start + (uint32_t)j);
                fill(isa, block_path, (gelu_target)t, x, 4096, &b);
                size_t at = 0;
                cr_assert(fill_vs_points((gelu_target)t, x, 4096, &b, &at, true) == 0,
                          "ISA build %d%s, %s: the block fill differs from the point path at %a "
                          "(block from encoding 0x%08x)", (int)isa, block_path ? "" : " (lanes only)",
                          gelu_target_name((gelu_target)t),
                          (double)x[at], start);
                blocks++;
                points += 2 * 4096;
                undecided += b.nund[0] + b.nund[1];
            }
        }
    }
    cr_log_info("%zu blocks, %zu values equal to the point path's, %zu undecided by both", blocks,
                points, undecided);
}

/* The comparison above catches a planted difference: one hi off by one double ULP, one decided
 * point listed as undecided, at the right input. */
Test(fast_reference, block_fill_comparison_catches_a_planted_difference)
{
    static float x[4096];
    static filled_block b;
    for (size_t j = 0; j < 4096; j++) x[j] = float_from_bits(0x3f800000u + (uint32_t)j); /* 1.0 up */
    fill(FAST_ISA_AUTO, true, GELU_TARGET_EXACT, x, 4096, &b);
    size_t at = 0;
    cr_assert(fill_vs_points(GELU_TARGET_EXACT, x, 4096, &b, &at, true) == 0);
    b.hi[1][777] = nextafter(b.hi[1][777], INFINITY);
    cr_expect(fill_vs_points(GELU_TARGET_EXACT, x, 4096, &b, &at, false) == 1 && at == 777,
              "a perturbed hi at index 777 was not caught there");
    fill(FAST_ISA_AUTO, true, GELU_TARGET_EXACT, x, 4096, &b);
    b.und[0][b.nund[0]++] = 4000; /* still ascending unless 4000 was already the last */
    cr_expect(fill_vs_points(GELU_TARGET_EXACT, x, 4096, &b, &at, false) >= 1 && at == 4000,
              "a decided point listed as undecided at index 4000 was not caught there");
    /* the bound the scan's near-tie tolerances take (near_tight_tol) */
    fill(FAST_ISA_AUTO, true, GELU_TARGET_EXACT, x, 4096, &b);
    b.err[0][1500] *= 1 + 0x1p-52;
    cr_expect(fill_vs_points(GELU_TARGET_EXACT, x, 4096, &b, &at, false) == 1 && at == 1500,
              "a perturbed err at index 1500 was not caught there");
}

/* fe_neighbour (fast_eval.h: binary32 neighbours computed in double arithmetic) against the
 * definition, the encoding ± 1 away from or towards zero (±0's neighbours ±2^-149, FLT_MAX's
 * +inf), at every 4,099th finite encoding and around every binade edge and zero. */
static void neighbour_case(uint32_t b, size_t *bad)
{
    float r = float_from_bits(b);
    if (!isfinite(r)) return;
    for (int up = 0; up < 2; up++) {
        uint32_t want;
        if ((b & 0x7fffffffu) == 0) want = up ? 0x00000001u : 0x80000001u;
        else want = (b >> 31) == (up ? 0u : 1u) ? b + 1 : b - 1;
        double got = fe_neighbour((double)r, up);
        double w = (double)float_from_bits(want);
        if (!(memcmp(&got, &w, sizeof got) == 0) && (*bad)++ < 5)
            cr_log_error("neighbour %s of %a (0x%08x): %a, want %a (0x%08x)", up ? "up" : "down",
                         (double)r, b, got, w, want);
    }
}

Test(fast_reference, neighbour_is_the_next_encoding)
{
    size_t bad = 0;
    for (uint64_t b = 0; b < (UINT64_C(1) << 32); b += 4099) neighbour_case((uint32_t)b, &bad);
    for (uint32_t e = 0; e < 256; e++)
        for (uint32_t s = 0; s < 2; s++)
            for (int d = -2; d <= 2; d++) neighbour_case((s << 31) | ((e << 23) + (uint32_t)d), &bad);
    cr_expect(bad == 0, "%zu neighbours differ from the encoding step", bad);
}

/* erf_small.h: erf and erfc of |z| < 0.84375 inline (fdlibm's method as glibc 2.36 evaluates it).
 * Against MPFR (correctly rounded erf and erfc at the same double): within 1 ULP of double (erf)
 * and 2 (erfc: 1.08 seen near 0.8, where ½ − r cancels) at every binade of both signs from 2^-70
 * and 2^-56, inside fast_eval.h's assumptions (erf ≤ 4, erfc ≤ 8 ULP); and against this system's libm bit for bit — required
 * where libm is glibc 2.36, whose s_erf.c these reproduce (a libm with another method may round
 * some of them otherwise: logged, not failed). The domain tests at their edges. */
#include <gnu/libc-version.h>

static double ulps_from(double got, mpfr_t exact)
{
    mpfr_t d;
    mpfr_init2(d, 200);
    mpfr_sub_d(d, exact, got, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    long e;
    mpfr_get_d_2exp(&e, exact, MPFR_RNDN); /* |exact| in [2^(e-1), 2^e): ULP 2^(e-53) */
    mpfr_mul_2si(d, d, 53 - e, MPFR_RNDN);
    double u = mpfr_get_d(d, MPFR_RNDN);
    mpfr_clear(d);
    return u;
}

Test(fast_reference, small_erf_and_erfc_are_glibc_236s)
{
    bool glibc_236 = strcmp(gnu_get_libc_version(), "2.36") == 0;
    mpfr_t z, v;
    mpfr_inits2(200, z, v, (mpfr_ptr)0);
    double worst[2] = {0, 0};
    size_t differ = 0, n = 0;
    srand(236);
    for (int e = -70; e <= 0; e++)
        for (int i = 0; i < 400; i++) {
            double m = 1 + (double)rand() / RAND_MAX; /* [1, 2) */
            double a = ldexp(m, e - 1) * (i % 2 ? -1 : 1);
            for (int f = 0; f < 2; f++) { /* 0: erf, 1: erfc */
                if (f ? !erfc_small_in(a) : !erf_small_in(a)) continue;
                double got = f ? erfc_small(a) : erf_small(a);
                mpfr_set_d(z, a, MPFR_RNDN);
                if (f) mpfr_erfc(v, z, MPFR_RNDN);
                else mpfr_erf(v, z, MPFR_RNDN);
                double u = ulps_from(got, v);
                worst[f] = u > worst[f] ? u : worst[f];
                cr_expect(u <= (f ? 2 : 1), "%s(%a) = %a: %g ULP from MPFR",
                          f ? "erfc_small" : "erf_small", a, got, u);
                double lib = f ? erfc(a) : erf(a);
                n++;
                if (memcmp(&lib, &got, sizeof got) != 0 && differ++ < 5)
                    cr_log_warn("%s(%a): inline %a, libm %a", f ? "erfc" : "erf", a, got, lib);
            }
        }
    cr_log_info("largest error from MPFR: erf %.3f ULP, erfc %.3f ULP; %zu of %zu differ from "
                "this libm (glibc %s)", worst[0], worst[1], differ, n, gnu_get_libc_version());
    cr_expect(!glibc_236 || differ == 0, "%zu of %zu values differ from glibc 2.36's", differ, n);
    cr_expect(n > 40000, "only %zu values compared", n);
    /* the domains' edges: 0.84375 out, its predecessor in; erfc from 2^-56, erf from 2^-1015 */
    const double edge = 0.84375, below = nextafter(0.84375, 0);
    cr_expect(!erf_small_in(edge) && !erfc_small_in(-edge) && erf_small_in(-below) &&
              erfc_small_in(below));
    cr_expect(erfc_small_in(0x1p-56) && !erfc_small_in(nextafter(0x1p-56, 0)));
    cr_expect(erf_small_in(0x1p-1015) && !erf_small_in(nextafter(0x1p-1015, 0)));
    cr_expect(!erf_small_in(NAN) && !erfc_small_in(INFINITY) && !erf_small_in(0.0));
    mpfr_clears(z, v, (mpfr_ptr)0);
}

/* exp_inline.h: e^x for |x| < 512 inline (glibc 2.36's method and, on an FMA CPU, its bits).
 * Its table formed again with MPFR (H[k] = 2^(k/128) rounded, T[k] = 2^(k/128)/H[k] − 1
 * rounded); within 1 ULP of MPFR's exp (the routine's stated bound is ~0.51) over every binade of
 * both signs from 2^-60 to 2^9; equal to this libm's exp bit for bit — required where libm is
 * glibc 2.36 and the CPU has FMA and AVX2 (glibc's ifunc then runs the build these reproduce),
 * logged elsewhere; the domain's edges. */
Test(fast_reference, inline_exp_is_glibc_236s)
{
    mpfr_t v, h, t;
    mpfr_inits2(300, v, h, t, (mpfr_ptr)0);
    for (int k = 0; k < 128; k++) {
        mpfr_set_si(v, k, MPFR_RNDN);
        mpfr_div_ui(v, v, 128, MPFR_RNDN);
        mpfr_exp2(v, v, MPFR_RNDN);
        double H = mpfr_get_d(v, MPFR_RNDN);
        mpfr_div_d(t, v, H, MPFR_RNDN);
        mpfr_sub_ui(t, t, 1, MPFR_RNDN);
        double T = mpfr_get_d(t, MPFR_RNDN);
        cr_expect(EXP_TAB[2 * k] == double_bits(T) &&
                      EXP_TAB[2 * k + 1] == double_bits(H) - ((uint64_t)k << 45),
                  "table entry %d: %016llx %016llx, MPFR's %016llx %016llx", k,
                  (unsigned long long)EXP_TAB[2 * k], (unsigned long long)EXP_TAB[2 * k + 1],
                  (unsigned long long)double_bits(T),
                  (unsigned long long)(double_bits(H) - ((uint64_t)k << 45)));
    }
    bool fma_cpu = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
    bool required = fma_cpu && strcmp(gnu_get_libc_version(), "2.36") == 0;
    double worst = 0;
    size_t differ = 0, n = 0;
    srand(512);
    for (int e = -60; e <= 9; e++)
        for (int i = 0; i < 600; i++) {
            double a = ldexp(1 + (double)rand() / RAND_MAX, e - 1) * (i % 2 ? -1 : 1);
            if (!exp_inline_in(a)) continue;
            double got = exp_inline(a);
            mpfr_set_d(h, a, MPFR_RNDN);
            mpfr_exp(v, h, MPFR_RNDN);
            double u = ulps_from(got, v);
            worst = u > worst ? u : worst;
            cr_expect(u <= 1, "exp_inline(%a) = %a: %g ULP from MPFR", a, got, u);
            double lib = exp(a);
            n++;
            if (memcmp(&lib, &got, sizeof got) != 0 && differ++ < 5)
                cr_log_warn("exp(%a): inline %a, libm %a", a, got, lib);
        }
    cr_log_info("largest error from MPFR: %.3f ULP; %zu of %zu differ from this libm (glibc %s, "
                "FMA %s)", worst, differ, n, gnu_get_libc_version(), fma_cpu ? "yes" : "no");
    cr_expect(!required || differ == 0, "%zu of %zu values differ from glibc 2.36's", differ, n);
    cr_expect(n > 40000, "only %zu values compared", n);
    cr_expect(exp_inline_in(nextafter(512, 0)) && !exp_inline_in(512) && !exp_inline_in(-512) &&
              !exp_inline_in(NAN) && !exp_inline_in(-INFINITY) && exp_inline_in(0));
    cr_expect(exp_inline(0) == 1 && exp_inline(0x1p-60) == 1 && exp_of(-1000) == 0 &&
              exp_of(1000) == INFINITY);
    mpfr_clears(v, h, t, (mpfr_ptr)0);
}
