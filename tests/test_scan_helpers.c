/* The scan's metric-loop helpers (scan/metrics.h) and its monotonicity and sign filters
 * (scan/mono_filter.h) against their plain definitions, on random and planted values: the scan's
 * results are these helpers' sums and maxima, so each must give the same bits. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mono_filter.h"
#include "scan.h"

/* ---- the metric loop's branch-free helpers (scan/metrics.h) against their plain definitions:
 * the scan's results are these helpers' sums and maxima, so each must give the same bits */

static double rand_error(void)
{
    switch (rand() % 8) {
    case 0: return 0;
    case 1: return (rand() % 2) ? INFINITY : NAN;
    case 2: return ldexp((double)rand() / RAND_MAX, -(rand() % 1100)); /* down to subnormal */
    case 3: return ldexp(1, rand() % 50 - 25);                        /* powers of two */
    case 4: return nextafter(ldexp(1, rand() % 50 - 25), rand() % 2 ? 0 : INFINITY);
    case 5: return ldexp(1 + (double)rand() / RAND_MAX, 20 + rand() % 20); /* past 2^20, 2^30 */
    default: return 4 * (double)rand() / RAND_MAX;
    }
}

/* The run [lo, hi)'s sum of each distribution's weights w0[], w1[] into total[], and the
 * largest weight of either (dist_run's arguments). */
static uint64_t run_weights(const uint64_t *w0, const uint64_t *w1, size_t lo, size_t hi,
                            u128 total[DIST_COUNT])
{
    uint64_t w_max = 0;
    total[0] = total[1] = 0;
    for (size_t j = lo; j < hi; j++) {
        w_max = w0[j] > w_max ? w0[j] : w_max;
        w_max = w1[j] > w_max ? w1[j] : w_max;
        total[0] += w0[j];
        total[1] += w1[j];
    }
    return w_max;
}

Test(scan, hot_loop_helpers_agree_with_their_definitions)
{
    enum { N = 4096 };
    static double u[N], a[N], iu[N];
    static uint64_t w0[N], w1[N];
    static uint32_t cr[N];
    srand(17);
    for (int rep = 0; rep < 20; rep++) {
        for (size_t j = 0; j < N; j++) {
            u[j] = rand_error();
            a[j] = rand_error();
            iu[j] = ldexp(1, rand() % 180 - 30);
            w0[j] = (uint64_t)rand() << 20 ^ (uint64_t)rand();
            w1[j] = rand() % 3 ? 0 : (uint64_t)rand() << 30;
            cr[j] = rand() % 2;
        }
        size_t lo = (size_t)(rand() % 100), hi = N - (size_t)(rand() % 100);
        for (size_t j = lo; j < hi; j++)
            cr_assert_eq(hist_bucket_sel(u[j]), hist_bucket(u[j]), "bucket of %a", u[j]);
        /* run_sums_of against run_sums_point one by one (and the maxima against one chain) */
        run_sums s, t = {0};
        run_sums_of(&s, lo, hi, true, true, u, a, u, cr);
        double mu = -INFINITY, ma = -INFINITY;
        for (size_t j = lo; j < hi; j++) {
            run_sums_point(&t, u[j], cr[j], +1);
            mu = u[j] > mu ? u[j] : mu;
            ma = a[j] > ma ? a[j] : ma;
        }
        cr_expect_eq(s.finite, t.finite);
        cr_expect_eq(s.q_sum, t.q_sum);
        cr_expect_eq(s.crs, t.crs);
        cr_expect_eq(memcmp(s.hist, t.hist, sizeof s.hist), 0, "histograms differ");
        cr_expect_eq(s.hist_used, t.hist_used);
        { /* errors in at most four buckets: the histogram's counting passes */
            static double f[N];
            run_sums sf, tf = {0};
            for (size_t j = lo; j < hi; j++) f[j] = ldexp(1, -(rand() % 3)) * (rand() % 2);
            run_sums_of(&sf, lo, hi, true, true, f, f, f, cr);
            for (size_t j = lo; j < hi; j++) run_sums_point(&tf, f[j], cr[j], +1);
            cr_expect(memcmp(sf.hist, tf.hist, sizeof sf.hist) == 0 && sf.hist_used == tf.hist_used,
                      "few buckets: histograms differ");
        }
        cr_expect(memcmp(&s.max_ulp, &mu, sizeof mu) == 0 && memcmp(&s.max_abs, &ma, sizeof ma) == 0,
                  "maxima %a %a, one chain %a %a", s.max_ulp, s.max_abs, mu, ma);
        /* max_of over errors without infinities (one of them makes every maximum +inf) */
        static double v[N];
        for (size_t j = 0; j < N; j++) v[j] = isinf(u[j]) ? (double)rand() / RAND_MAX : u[j];
        double mv = -INFINITY;
        for (size_t j = lo; j < hi; j++) mv = v[j] > mv ? v[j] : mv;
        double got_v = max_of(v, lo, hi);
        cr_expect(memcmp(&got_v, &mv, sizeof mv) == 0, "max_of %a, one chain %a", got_v, mv);
        /* max_at's index (and run_sums_of's): the first one holding the maximum; values repeat
         * (powers of two, zeros), so ties across the chains occur */
        size_t first_max = lo;
        while (v[first_max] != mv) first_max++;
        size_t at = 0;
        double got_at = max_at(v, lo, hi, &at);
        cr_expect(got_at == mv && at == first_max, "max_at %a at %zu, want %a at %zu", got_at, at,
                  mv, first_max);
        for (int t = 0; t < 50; t++) { /* few distinct values: the maximum in every chain */
            static double small[N];
            size_t a0 = (size_t)(rand() % 40), b0 = a0 + 1 + (size_t)(rand() % 200);
            for (size_t j = a0; j < b0; j++) small[j] = rand() % 4;
            double ms = -INFINITY;
            size_t fs = b0;
            for (size_t j = a0; j < b0; j++)
                if (small[j] > ms) ms = small[j], fs = j;
            size_t as = 0;
            cr_expect(max_at(small, a0, b0, &as) == ms && as == fs, "ties: max_at's index %zu, "
                      "want %zu", as, fs);
        }
        run_sums sv;
        run_sums_of(&sv, lo, hi, true, true, v, v, v, cr);
        cr_expect(sv.at_ulp == first_max && sv.at_abs == first_max && sv.at_rel == first_max,
                  "run_sums_of's first index of the maximum %zu, want %zu", sv.at_ulp, first_max);
        /* without the first indices, then run_sums_firsts: the same run_sums */
        run_sums lazy;
        run_sums_of(&lazy, lo, hi, true, false, v, v, v, cr);
        cr_expect(lazy.at_ulp == RUN_AT_UNKNOWN, "first indices set: %zu", lazy.at_ulp);
        run_sums_firsts(&lazy, lo, hi, v, v, v);
        cr_expect(lazy.finite == sv.finite && lazy.q_sum == sv.q_sum && lazy.crs == sv.crs &&
                      memcmp(lazy.hist, sv.hist, sizeof sv.hist) == 0 &&
                      lazy.hist_used == sv.hist_used && lazy.max_ulp == sv.max_ulp &&
                      lazy.max_abs == sv.max_abs && lazy.max_rel == sv.max_rel &&
                      lazy.at_ulp == sv.at_ulp && lazy.at_abs == sv.at_abs &&
                      lazy.at_rel == sv.at_rel,
                  "run_sums_firsts gave other sums");
        /* run_first: the first index holding a value */
        size_t k = lo + (size_t)rand() % (hi - lo);
        while (isnan(u[k])) k++; /* a value among them */
        size_t first = lo;
        while (u[first] != u[k]) first++;
        cr_expect_eq(run_first(u, lo, hi, u[k]), first);
        /* dist_run against dist_point one by one */
        const uint64_t *W[DIST_COUNT] = {w0, w1};
        u128 total[DIST_COUNT];
        uint64_t w_max = run_weights(w0, w1, lo, hi, total);
        dist_sums got[DIST_COUNT], want[DIST_COUNT] = {{0}};
        dist_run(got, W, lo, hi, u, a, iu, total, w_max, max_of(u, lo, hi));
        for (int d = 0; d < DIST_COUNT; d++)
            for (size_t j = lo; j < hi; j++) dist_point(&want[d], W[d][j], u[j], a[j], iu[j], +1);
        for (int d = 0; d < DIST_COUNT; d++)
            cr_expect(got[d].ulp == want[d].ulp && got[d].abs == want[d].abs &&
                          got[d].weight == want[d].weight,
                      "distribution %d: dist_run differs from dist_point", d);
        /* its 64-bit loop: small weights (below 2^36) and errors up to 2^-1 (the correctly
         * rounded values'), with NaN among them (left out) and 1/ULP from 2^-30 to 2^149 (past
         * 2^64 and 2^128 the absolute term is 0); the same sums as dist_point's, and as the
         * 128-bit loop's (a bound that does not admit the 64-bit one) */
        static double us[N];
        for (size_t j = 0; j < N; j++) {
            us[j] = rand() % 50 ? 0.5 * (double)rand() / RAND_MAX : rand() % 2 ? NAN : 0.5;
            w0[j] = ((uint64_t)rand() << 5 ^ (uint64_t)rand()) & (((uint64_t)1 << 36) - 1);
            w1[j] = rand() % 3 ? 0 : (uint64_t)rand() << 4;
            iu[j] = ldexp(1, rand() % 180 - 30);
        }
        w_max = run_weights(w0, w1, lo, hi, total);
        dist_sums narrow[DIST_COUNT], wide[DIST_COUNT], one[DIST_COUNT] = {{0}};
        double us_max = max_of(us, lo, hi);
        cr_assert((double)w_max * (us_max * 0x1p27 + 1) < 0x1p63, "the 64-bit loop is not taken");
        dist_run(narrow, W, lo, hi, us, a, iu, total, w_max, us_max);
        dist_run(wide, W, lo, hi, us, a, iu, total, w_max, INFINITY);
        for (int d = 0; d < DIST_COUNT; d++)
            for (size_t j = lo; j < hi; j++) dist_point(&one[d], W[d][j], us[j], a[j], iu[j], +1);
        for (int d = 0; d < DIST_COUNT; d++) {
            cr_expect(narrow[d].ulp == one[d].ulp && narrow[d].abs == one[d].abs &&
                          narrow[d].weight == one[d].weight,
                      "distribution %d: dist_run's 64-bit loop differs from dist_point", d);
            cr_expect(narrow[d].ulp == wide[d].ulp && narrow[d].abs == wide[d].abs &&
                          narrow[d].weight == wide[d].weight,
                      "distribution %d: dist_run's two loops differ", d);
        }
        cr_expect(one[0].ulp != 0 && one[0].abs != 0, "the 64-bit case summed nothing");
        /* errors below 2^-27, whose terms are all 0 (the loop that only counts the others),
         * among them +inf (its weight taken back), NaN and 1/ULP below 1; then the same with
         * the largest error 1.5·2^-27 (q = 1 there: that loop must not be taken) */
        for (int pass = 0; pass < 2; pass++) {
            for (size_t j = 0; j < N; j++) {
                us[j] = rand() % 40 ? 0x1p-27 * (double)rand() / ((double)RAND_MAX + 1)
                        : rand() % 2 ? INFINITY : NAN;
                iu[j] = ldexp(1, rand() % 60 - 10);
                a[j] = us[j] / iu[j];
            }
            if (pass == 1) us[lo + (hi - lo) / 2] = 0x1.8p-27;
            w_max = run_weights(w0, w1, lo, hi, total);
            double finite_max = 0; /* the bound dist_run asks for: errors within the cap */
            for (size_t j = lo; j < hi; j++)
                finite_max = us[j] <= ULP_SUM_CAP && us[j] > finite_max ? us[j] : finite_max;
            dist_sums small[DIST_COUNT], small_one[DIST_COUNT] = {{0}};
            dist_run(small, W, lo, hi, us, a, iu, total, w_max, finite_max);
            for (int d = 0; d < DIST_COUNT; d++)
                for (size_t j = lo; j < hi; j++)
                    dist_point(&small_one[d], W[d][j], us[j], a[j], iu[j], +1);
            for (int d = 0; d < DIST_COUNT; d++)
                cr_expect(small[d].ulp == small_one[d].ulp && small[d].abs == small_one[d].abs &&
                              small[d].weight == small_one[d].weight,
                          "errors below 2^-27 (pass %d), distribution %d: dist_run differs from "
                          "dist_point", pass, d);
            cr_expect((small_one[0].weight != total[0]) && (pass == 0) == (small_one[0].ulp == 0),
                      "pass %d: no weight taken back, or the sums are not what the case needs",
                      pass);
        }
        /* finite errors up to 2^10 with weights up to 2^51: products past 2^64, which the bound
         * sends to the 128-bit loop */
        for (size_t j = 0; j < N; j++) {
            us[j] = ldexp((double)rand() / RAND_MAX, rand() % 11);
            w0[j] = (uint64_t)rand() << 20 ^ (uint64_t)rand();
        }
        w_max = run_weights(w0, w1, lo, hi, total);
        dist_sums big[DIST_COUNT], big_one[DIST_COUNT] = {{0}};
        dist_run(big, W, lo, hi, us, a, iu, total, w_max, max_of(us, lo, hi));
        for (int d = 0; d < DIST_COUNT; d++)
            for (size_t j = lo; j < hi; j++) dist_point(&big_one[d], W[d][j], us[j], a[j], iu[j], +1);
        cr_expect(big[0].ulp == big_one[0].ulp && big[0].abs == big_one[0].abs,
                  "large products: dist_run differs from dist_point");
    }
}

/* The monotonicity and sign filters (mono_filter.h) flag every violation the checks' definitions
 * (scan_internal.h's check_pair, check_sign_at, restated here on floats) find, over every pair of inputs
 * and outputs drawn from values around x_min, the zeros, subnormals, the extremes, infinities and
 * NaN, for x_min inside the range, on a binary32 value, NaN and −inf; and they filter: a
 * non-decreasing right branch and a non-increasing left one are not flagged. */
static bool pair_violates(float a, float b, float ya, float yb, double x_min)
{
    if (!isfinite(a) || !isfinite(b) || a == b) return false;
    float lo = a < b ? a : b, hi = a < b ? b : a;
    float y_lo = a < b ? ya : yb, y_hi = a < b ? yb : ya;
    if (hi <= x_min) return !(y_lo >= y_hi);
    if (lo >= x_min) return !(y_hi >= y_lo);
    return false;
}

Test(scan, monotonicity_and_sign_filters_flag_every_violation)
{
    const double x_mins[] = {ref_x_min_d(GELU_TARGET_EXACT), -0.5, NAN, -INFINITY};
    for (size_t m = 0; m < sizeof x_mins / sizeof *x_mins; m++) {
        double x_min = x_mins[m];
        float xm = isfinite(x_min) ? (float)x_min : -1.0f;
        const float v[] = {NAN, -INFINITY, -FLT_MAX, -3, nextafterf(xm, -INFINITY), xm,
                           nextafterf(xm, INFINITY), -0.25f, -0x1p-149f, -0.0f, 0.0f, 0x1p-149f,
                           0.5f, 3, FLT_MAX, INFINITY, -NAN};
        enum { NV = sizeof v / sizeof *v };
        int32_t le, ge;
        x_min_keys(x_min, &le, &ge);
        size_t flagged = 0, violations = 0;
        for (size_t i = 0; i < NV * NV * NV * NV; i++) {
            float x[2] = {v[i % NV], v[i / NV % NV]}, y[2] = {v[i / NV / NV % NV], v[i / NV / NV / NV]};
            bool bad = pair_violates(x[0], x[1], y[0], y[1], x_min);
            uint32_t s = pair_suspect(x, y, 1, le, ge);
            violations += bad;
            flagged += s != 0;
            cr_assert(!bad || s, "x_min %a: the break %a -> %a, %a -> %a not flagged", x_min, x[0],
                      y[0], x[1], y[1]);
            bool monotone_right = x[0] >= x_min && x[1] >= x_min && !isnan(y[0]) && !isnan(y[1]) &&
                                  (x[0] < x[1]) == (y[0] < y[1]) && y[0] != y[1];
            cr_assert(!monotone_right || !s, "x_min %a: a rising pair %a -> %a, %a -> %a flagged",
                      x_min, x[0], y[0], x[1], y[1]);
            if (isnan(x_min)) continue;
            /* the sign: negative below x_min, positive above, where the correctly rounded
             * value (cr) is not ±0 (check_sign_at exempts those) */
            const float cr_nonzero[2] = {-0x1p-149f, NAN};
            const float cr_zero[2] = {0.0f, -0.0f};
            for (int c = 0; c < 2; c++) {
                uint32_t ss = sign_suspect(x, y, cr_nonzero, c, ge);
                float xc = x[c], yc = y[c];
                bool wrong_c = !isnan(xc) && (xc < x_min ? !(yc < 0) : !(yc > 0));
                cr_assert(!wrong_c || ss, "x_min %a: the sign of %a at %a not flagged", x_min,
                          yc, xc);
                bool right = !isnan(xc) && (xc < x_min ? yc < 0 : yc > 0);
                cr_assert(!right || !ss, "x_min %a: the right sign of %a at %a flagged", x_min,
                          yc, xc);
                cr_assert(!sign_suspect(x, y, cr_zero, c, ge),
                          "x_min %a: %a at %a flagged where the correctly rounded value is 0",
                          x_min, yc, xc);
            }
        }
        if (isnan(x_min)) /* every pair straddles it: exempt */
            cr_assert(violations == 0 && flagged == 0, "x_min NaN: %zu violations, %zu flagged",
                      violations, flagged);
        else
            cr_assert(violations > 0 && flagged >= violations && flagged < NV * NV * NV * NV,
                      "x_min %a: %zu violations, %zu flagged", x_min, violations, flagged);
    }
}

/* times_true_min (metrics.h) is IEEE's product 2^-1074·p: subnormal results rounded to nearest
 * even (p on and near half-integers), the change to normal at 2^52, large and zero p. */
Test(scan, times_true_min_is_the_product_by_the_smallest_subnormal)
{
    srand(23);
    for (int i = 0; i < 200000; i++) {
        double p;
        switch (i % 5) {
        case 0: p = (rand() % 4096) * 0.5; break;                                    /* ties */
        case 1: p = nextafter((rand() % 4096) * 0.5, rand() % 2 ? 0 : INFINITY); break; /* beside */
        case 2: p = ldexp(1 + (double)rand() / RAND_MAX, rand() % 60); break;       /* to 2^60 */
        case 3: p = nextafter(0x1p52, rand() % 2 ? 0 : INFINITY) - (rand() % 3) * 0.5; break;
        default: p = ldexp((double)rand() / RAND_MAX, rand() % 300 - 100);
        }
        volatile double d = DBL_TRUE_MIN; /* the product itself, at run time */
        double want = d * p, got = times_true_min(p);
        cr_assert(memcmp(&want, &got, sizeof got) == 0, "p = %a: %a, want %a", p, got, want);
    }
    cr_assert(times_true_min(0) == 0 && times_true_min(0.5) == 0 && times_true_min(1.5) == 2 * DBL_TRUE_MIN);
}
