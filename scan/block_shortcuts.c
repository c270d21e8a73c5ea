/* A block's reference values prepared for the metric loop (prepare_refs), with the closed-form
 * shortcuts that give the correctly rounded values' errors, sums and criteria counts without
 * the per-point arithmetic: blocks wholly past the upper threshold (upper_block), in the
 * stand-in region that rounds to −0 (stand_in_block), below 2^-30 (micro_block, micro_sums),
 * and ReLU's exact references (exact_block); refs_fill_errors fills the arrays those leave
 * unset where a row reads them. Each shortcut gives the general path's bits (its comment says
 * why). */
#include "scan_internal.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "near_tolerance.h"
#include "hot_clones.h"
#include "weights.h"

/* Whether every point of the block has the fast reference's form below 2^-30
 * (fast_ref_block's micro region, fast_eval.h: micro_enclose): hi plain and the correctly
 * rounded value itself (x/2 or 1/2), 2^-900 ≤ |lo| ≤ 2^-28·|hi| and err = |lo|·2^-50; t not
 * ReLU. (x is not among them: near_run_tight_plain's tolerance at x = 0 is 0.) Compares of
 * encodings — products of a normal |lo| by powers of two as sums of exponents — in one loop
 * that vectorizes. */
HOT_CLONES static bool micro_block(const point_ref *p, gelu_target t, size_t n)
{
    if (t == GELU_TARGET_RELU || n == 0) return false;
    const uint64_t mag = 0x7fffffffffffffffull, lo_min = double_bits(0x1p-900);
    const uint64_t e28 = (uint64_t)28 << 52, e50 = (uint64_t)50 << 52;
    int64_t all = 1;
    for (size_t e = 0; e < 2; e++) { /* the ends first (the region is an interval of x) */
        size_t j = e ? n - 1 : 0;
        uint64_t lb = double_bits(p->lo[j]) & mag, hb = double_bits(p->hi[j]);
        if (!(lb >= lo_min && lb + e28 <= (hb & mag))) return false;
    }
    for (size_t j = 0; j < n; j++) {
        uint64_t lb = double_bits(p->lo[j]) & mag, hb = double_bits(p->hi[j]);
        all &= (int64_t)(p->plain[j] != 0) & (int64_t)(double_bits((double)p->cr[j]) == hb) &
               (int64_t)(lb >= lo_min) & (int64_t)(lb + e28 <= (hb & mag)) &
               (int64_t)(double_bits(p->err[j]) == lb - e50);
    }
    return all != 0;
}

/* What upper_block and stand_in_block ask of a block first: a target other than ReLU (whose
 * references are exact: none of them), points, and no weighted run (dist_run reads the errors'
 * arrays). */
static inline bool past_block_may(gelu_target t, const scan_worker *w, size_t n)
{
    if (t == GELU_TARGET_RELU || n == 0) return false;
    for (size_t k = 0; k < w->nruns; k++)
        if (w->run_weighted[k]) return false;
    return true;
}

/* count_criteria's `checked` (|x| ≤ 10) over a block whose correctly rounded values' errors are
 * below 2^-900 (past_block_may's blocks), where that is its only count: such an error fails no
 * rule (d/|f| < 2^-900/1e-5 for benchdnn, d ≤ XNNPACK's absolute tolerance). */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline uint64_t points_checked(const float *x, size_t n)
{
    const uint32_t domain_bits = float_bits((float)XNNPACK_GELU_DOMAIN);
    uint64_t checked = 0;
    for (size_t j = 0; j < n; j++) checked += (float_bits(x[j]) & 0x7fffffffu) <= domain_bits;
    return checked;
}

/* A block of target t wholly past the upper threshold: at every point hi is the correctly
 * rounded value (x, or 1 for a derivative) as a double with 2^-900 ≤ |hi| < ∞ (plain), lo is
 * near_upper's mark (−2^-1074, or 2^-1074 where hi = 1), x finite and not 0; t not ReLU; no run
 * weighted. There cr_errors gives every point the errors 2^-1074·inv_ulp (times_true_min),
 * 2^-1074 and 2^-1074·inv_abs, ULP errors below 2^-20 (inv_ulp ≤ 2^149), so each run's sums are
 * run_sums_of's without its arrays: every point finite and correctly rounded, a sum of 0, the
 * histogram's bucket 0 (the products that round to 0: inv_ulp ≤ 1/2) and 1 (the others), the
 * maxima the products at the largest inv_ulp and the largest inv_abs (1/min |hi|, the same
 * rounded division: each product is a rounded monotone function of its operand), first indices
 * left unknown as run_sums_of leaves them; and count_criteria's counts are the points checked
 * (|x| ≤ 10): an error of 2^-1074 fails no rule. Then prepare_refs leaves inv_abs and the
 * errors' arrays to refs_fill_errors (p->lazy), for the rows that read them: a row differing
 * from the correctly rounded values in the block, or a run whose maxima or near ties are looked
 * at point by point. In the one-implementation scan, a fifth of the time past the threshold
 * (`accuracy --impl pw_accurate_avx512 --grad --threads 1 --shard 104/256`). The points' test is
 * refs_flags_upper's, which prepare_refs calls first where past_block_may allows; given it
 * passed, the runs' sums here. False, the sums then unset, where a run's ULP errors are not
 * below 2^-20 (never: inv_ulp ≤ 2^149). */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool upper_block(point_ref *p, const float *x, const scan_worker *w, size_t n)
{
    const uint64_t sign = 0x8000000000000000ull, inf = double_bits(INFINITY);
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1];
        uint64_t u_max = 0, zeros = 0, mag_min = inf;
        int64_t iu_max = 0;
        for (size_t j = a; j < b; j++) {
            uint64_t u = double_bits(times_true_min(p->inv_ulp[j]));
            uint64_t mag = double_bits(p->hi[j]) & ~sign;
            int64_t iu = pos_bits(p->inv_ulp[j]);
            iu_max = iu > iu_max ? iu : iu_max;
            u_max = u > u_max ? u : u_max;
            zeros += u == 0;
            mag_min = mag < mag_min ? mag : mag_min;
        }
        if (!(double_from_bits(u_max) < 0x1p-20)) return false; /* (inv_ulp ≤ 2^149: never) */
        run_sums *s = &p->cr_sums[k];
        memset(s, 0, sizeof *s);
        s->finite = s->crs = b - a;
        s->hist[0] = (uint32_t)zeros;
        s->hist[1] = (uint32_t)(b - a - zeros);
        s->hist_used = (uint32_t)(s->hist[0] != 0) | (uint32_t)(s->hist[1] != 0) << 1;
        s->max_ulp = double_from_bits(u_max);
        s->max_abs = DBL_TRUE_MIN;
        s->max_rel = times_true_min(1.0 / double_from_bits(mag_min));
        s->at_ulp = RUN_AT_UNKNOWN;
        s->at_abs = s->at_rel = b;
        /* near_run_coarse's (its past case; no correctly rounded value is 0: |hi| ≥ 2^-900) */
        p->near[k] = (near_run){0, 0, 1, 0, false, false, false};
        near_past_tolerances(false, iu_max, (int64_t)mag_min, &p->near[k]);
    }
    p->cr_criteria = (criteria_counts){0, 0, points_checked(x, n)};
    p->past = PAST_UPPER;
    return true;
}

/* A block of target t wholly below the lower threshold: at every point the stand-in reference
 * (hi = NEAR_STAND_IN, lo = ±0: near_stand_in), one correctly rounded value ±0, one inv_ulp, x
 * finite and not 0; t not ReLU; no run weighted. There block_errors (cr_errors' path where lo is
 * not subnormal) gives every point the same errors, d = |(±0 − hi) − lo| = 2^-1000, d·inv_ulp
 * and d·(1/|hi|) (= 1), formed here at the first point by the same operations; so each run's sums
 * are counts (d·inv_ulp below 2^-20 ULP: a sum of 0, one histogram bucket), its maxima those
 * errors, and count_criteria's counts the points checked (an error below 2^-900 fails no rule).
 * prepare_refs then leaves the arrays to refs_fill_errors, which writes the constants: the rows
 * equal to the correctly rounded values there (−0 throughout) feed the near-tie lists from them.
 * False, the sums then unset, where the block is not of that kind. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool stand_in_block(point_ref *p, gelu_target t, const float *x, const scan_worker *w,
                                  size_t n)
{
    if (!past_block_may(t, w, n) || !near_stand_in(p, 0) || !near_stand_in(p, n - 1))
        return false; /* (the ends first: the regions are intervals of x) */
    const uint64_t stand_in = double_bits(NEAR_STAND_IN), iu0 = double_bits(p->inv_ulp[0]);
    int64_t all = 1; /* integer compares of encodings (lo = ±0): the loop vectorizes */
    for (size_t j = 0; j < n; j++) {
        uint32_t xb = float_bits(x[j]) & 0x7fffffffu;
        all &= (int64_t)(double_bits(p->hi[j]) == stand_in) &
               (int64_t)((double_bits(p->lo[j]) << 1) == 0) &
               (int64_t)(float_bits(p->cr[j]) == float_bits(p->cr[0])) & (int64_t)((float_bits(p->cr[j]) & 0x7fffffffu) == 0) &
               (int64_t)(double_bits(p->inv_ulp[j]) == iu0) & (int64_t)(xb != 0) &
               (int64_t)(xb < 0x7f800000u);
    }
    if (!all) return false;
    double d = fabs(((double)p->cr[0] - p->hi[0]) - p->lo[0]); /* block_errors' operations */
    double inv = 1.0 / fabs(p->hi[0]), u = d * p->inv_ulp[0], rel = d * inv;
    if (!(u < 0x1p-20) || !(d < 0x1p-900)) return false; /* (2^-851 and 2^-1000: never) */
    int bucket = hist_bucket_sel(u);
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1];
        run_sums *s = &p->cr_sums[k];
        memset(s, 0, sizeof *s);
        s->finite = s->crs = b - a;
        s->hist[bucket] = (uint32_t)(b - a);
        s->hist_used = 1u << bucket;
        s->max_ulp = u;
        s->max_abs = d;
        s->max_rel = rel;
        s->at_ulp = RUN_AT_UNKNOWN;
        s->at_abs = s->at_rel = b;
        /* near_run_coarse's (its past case; every correctly rounded value ±0, hi plain) */
        p->near[k] = (near_run){0, 0, 1, 0, false, true, false};
        near_past_tolerances(true, (int64_t)iu0, 0, &p->near[k]);
    }
    p->past = PAST_STAND_IN;
    p->cr_criteria = (criteria_counts){0, 0, points_checked(x, n)};
    p->lazy_c[0] = inv;
    p->lazy_c[1] = u;
    p->lazy_c[2] = d;
    p->lazy_c[3] = rel;
    return true;
}

/* The correctly rounded value's errors at point j of a micro_block as block_errors forms them:
 * there y = cr = hi, so (y − hi) − lo = −lo exactly and d = |lo|; inv_abs = 1/|hi| (plain),
 * zero[j] = 0. */
static inline void micro_errors(const point_ref *p, size_t j, double *u, double *d, double *rel)
{
    *d = fabs(p->lo[j]);
    *u = *d * p->inv_ulp[j];
    *rel = *d * (1.0 / fabs(p->hi[j]));
}

/* The first index in [a, b) whose error of kind k (micro_errors) is m, given the maxima gmax[]
 * of the groups of 32 points from a (as run_first: the first group holding m, then its points). */
static size_t micro_first(const point_ref *p, const int64_t *gmax, size_t a, size_t b, int k,
                          int64_t m)
{
    size_t g = 0;
    while (gmax[g] != m) g++;
    for (size_t j = a + 32 * g;; j++) {
        double v[ERR_KINDS];
        micro_errors(p, j, &v[0], &v[1], &v[2]);
        if (pos_bits(v[k]) == m || j + 1 == b) return j;
    }
}

/* The sums of the correctly rounded values' runs over a micro_block without the errors' arrays,
 * where every run's largest ULP error is below 2^-27 (|x| below about 2^-52): one pass takes the
 * maxima of each group of 32 points (micro_errors: block_errors' values), whose maxima are the
 * run's, and the first point reaching each (run_sums_firsts' indices: the first group holding
 * it, then its points); the ULP errors, positive and below 2^-20, sum to 0 (ulp_sum_term) and
 * fall in one histogram bucket (hist_bucket_sel: 0 < u ≤ 1/2); every point is finite and
 * correctly rounded; a weighted run's sums are 0 with its whole weight (dist_run: every ULP
 * error usual — finite, 1/ULP ≥ 1 — and its ⌊u·2^27⌋ 0; the fixed-point weights are 0 there
 * too); and no point fails a peer's criterion (count_criteria: d ≤ 2^-28·|hi|, so d/|hi| < 4e-6
 * above benchdnn's floor and d < 4e-6·1e-5 below it, and d ≤ xnnpack's 5ε·|hi|), the points
 * checked counted. The errors' arrays are left to refs_fill_errors. False where some run's
 * largest ULP error is 2^-27 or more (the runs' sums are then prepare_refs' general path's, which
 * writes them all again). Most blocks below 2^-30 are such, and the passes over the arrays
 * that this skips cost a third of such a block. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool micro_sums(point_ref *p, const float *x, const scan_worker *w, size_t n,
                              bool grad)
{
    /* (as doubles: the criteria's constants are not integer constant expressions) */
    assert(BENCHDNN_GELU_ERF_THRESHOLD >= 0x1p-27 &&
           BENCHDNN_GELU_ERF_REL_FLOOR * 0x1p-28 < BENCHDNN_GELU_ERF_THRESHOLD &&
           XNNPACK_GELU_REL_TOL >= 0x1p-27);
    static _Thread_local int64_t gmax[ERR_KINDS][SCAN_BLOCK / 32 + 1];
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1], ng = 0;
        int64_t mu = 0, ma = 0, mr = 0; /* pos_bits: every error here is positive */
        for (size_t g = a; g < b; g += 32, ng++) {
            size_t end = g + 32 < b ? g + 32 : b;
            int64_t gu = 0, ga = 0, gr = 0;
            for (size_t j = g; j < end; j++) {
                double u, d, rel;
                micro_errors(p, j, &u, &d, &rel);
                int64_t ku = pos_bits(u), ka = pos_bits(d), kr = pos_bits(rel);
                gu = ku > gu ? ku : gu;
                ga = ka > ga ? ka : ga;
                gr = kr > gr ? kr : gr;
            }
            gmax[0][ng] = gu;
            gmax[1][ng] = ga;
            gmax[2][ng] = gr;
            mu = gu > mu ? gu : mu;
            ma = ga > ma ? ga : ma;
            mr = gr > mr ? gr : mr;
        }
        if (!(double_from_bits((uint64_t)mu) < 0x1p-27)) return false;
        run_sums *s = &p->cr_sums[k];
        memset(s, 0, sizeof *s);
        s->finite = s->crs = b - a;
        s->hist[1] = (uint32_t)(b - a);
        s->hist_used = 1u << 1;
        s->max_ulp = double_from_bits((uint64_t)mu);
        s->max_abs = double_from_bits((uint64_t)ma);
        s->max_rel = double_from_bits((uint64_t)mr);
        s->at_ulp = micro_first(p, gmax[0], a, b, 0, mu);
        s->at_abs = micro_first(p, gmax[1], a, b, 1, ma);
        s->at_rel = micro_first(p, gmax[2], a, b, 2, mr);
        if (w->run_weighted[k])
            for (int d = 0; d < DIST_COUNT; d++)
                p->cr_dist[k][d] = (dist_sums){0, 0, w->run_weight[k][d]};
    }
    if (!grad) p->cr_criteria = (criteria_counts){0, 0, points_checked(x, n)};
    return true;
}

/* A block of target t whose correctly rounded values' errors are all exactly 0: ReLU's (exact
 * references: hi the correctly rounded value, x, 1 or ±0, lo = ±0), every x finite, every point
 * plain or an exact zero, 1 ≤ inv_ulp < ∞ (|x| < 2^24 or a zero: each ULP error "usual" for
 * dist_run). There block_errors gives every point d = |((double)cr − hi) − lo| = +0, ULP error
 * d·inv_ulp = +0, relative error d·inv_abs = +0 (inv_abs finite: 1/|hi| or 0), no special
 * point, every output correctly rounded; so each run's sums are run_sums_of's without the arrays
 * (finite and correctly rounded b − a, a sum of 0, histogram bucket 0, maxima +0, first indices
 * left unknown as there), a weighted run's dist_run's (its first loop: every point usual with a
 * term of 0: sums of 0, the run's whole weight), count_criteria's counts the points checked (an
 * error of 0 fails no rule), and near_run_coarse's tolerances E = 0 (ReLU's exact references:
 * ULP and absolute 0; relative terms g = NEAR_DOWN at the plain points, t = 0; no stand-in, no
 * run of ±0 outputs): near_prepare sets them from any_plain. prepare_refs then leaves inv_abs and
 * the errors' arrays to refs_fill_errors, as for upper_block. On the general path ReLU's
 * references cost 4× the others' in the default set's scan (9 against 2–4 ns per input and
 * direction: `accuracy --grad --shard 241/256 --profile` on Sapphire Rapids), its passes over
 * the arrays (block_errors, fill_inv_abs, near_run_coarse, the weighted sums) on errors that are
 * all 0.
 * False, the sums then unset, where the block is not of that kind. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool exact_block(point_ref *p, gelu_target t, const float *x, const scan_worker *w,
                               size_t n, bool grad)
{
    if (t != GELU_TARGET_RELU || n == 0) return false;
    const uint64_t one = double_bits(1.0), inf = double_bits(INFINITY);
    int64_t all = 1; /* integer compares of encodings: the loop vectorizes */
    for (size_t j = 0; j < n; j++) {
        uint32_t xb = float_bits(x[j]) & 0x7fffffffu;
        uint64_t iu = double_bits(p->inv_ulp[j]), hb = double_bits(p->hi[j]);
        uint64_t cb = double_bits((double)p->cr[j]);
        all &= (int64_t)(xb < 0x7f800000u) & (int64_t)((double_bits(p->lo[j]) << 1) == 0) &
               (int64_t)((p->plain[j] | p->zero[j]) != 0) &
               (int64_t)((cb == hb) | (((cb | hb) << 1) == 0)) & /* (double)cr = hi */
               (int64_t)(iu >= one) & (int64_t)(iu < inf);
    }
    if (!all) return false;
    for (size_t k = 0; k < w->nruns; k++) {
        size_t a = w->run_start[k], b = w->run_start[k + 1];
        run_sums *s = &p->cr_sums[k];
        memset(s, 0, sizeof *s);
        s->finite = s->crs = b - a;
        s->hist[0] = (uint32_t)(b - a);
        s->hist_used = 1u;
        s->max_ulp = s->max_abs = s->max_rel = 0;
        s->at_ulp = RUN_AT_UNKNOWN;
        s->at_abs = s->at_rel = b;
        if (w->run_weighted[k])
            for (int d = 0; d < DIST_COUNT; d++)
                p->cr_dist[k][d] = (dist_sums){0, 0, w->run_weight[k][d]};
        uint32_t any = 0;
        for (size_t j = a; j < b; j++) any |= p->plain[j];
        p->any_plain[k] = any != 0;
    }
    if (!grad) p->cr_criteria = (criteria_counts){0, 0, points_checked(x, n)};
    return true;
}

/* The point flags prepare_refs reads: plain, 0 < |hi| ≤ DBL_MAX (NaN's magnitude is above
 * inf's); zero, hi = ±0, lo = ±0 and inv_ulp = 2^149. Compares of encodings: no branch, no
 * floating-point compare. Where every hi is plain (a test on hi alone, of 64-bit lanes only),
 * the flags are the constants 1 and 0: the loop that forms them mixes 64-bit compares with 32-bit
 * stores, a twentieth of the one-implementation scan where it runs. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline void refs_flags(point_ref *p, size_t n)
{
    const uint64_t mag_inf = double_bits(INFINITY) << 1, iu_zero = double_bits(0x1p149);
    uint64_t odd = 0; /* a hi that is ±0, ±inf or NaN: (mag − 1) wraps at 0 */
    for (size_t j = 0; j < n; j++) odd |= (double_bits(p->hi[j]) << 1) - 1 >= mag_inf - 1;
    if (!odd) {
        for (size_t j = 0; j < n; j++) p->plain[j] = 1;
        for (size_t j = 0; j < n; j++) p->zero[j] = 0;
        return;
    }
    for (size_t j = 0; j < n; j++) {
        uint64_t mag = double_bits(p->hi[j]) << 1, lo2 = double_bits(p->lo[j]) << 1;
        p->plain[j] = (uint32_t)((mag != 0) & (mag < mag_inf));
        p->zero[j] = (uint32_t)((mag == 0) & (lo2 == 0) & (double_bits(p->inv_ulp[j]) == iu_zero));
    }
}

/* refs_flags where the block's ends carry near_upper's mark, with upper_block's test of every
 * point: hi the correctly rounded value as a double with 2^-900 ≤ |hi| < ∞, lo near_upper's mark
 * (−2^-1074, or 2^-1074 where hi = 1), x finite and not 0. Where every point passes, every hi is
 * plain: the flags are then the constants, without refs_flags' own test. Whether they pass. */
__attribute__((always_inline)) /* into prepare_refs' clones */
static inline bool refs_flags_upper(point_ref *p, const float *x, size_t n)
{
    const uint64_t sign = 0x8000000000000000ull, one = double_bits(1.0);
    const uint64_t tiny = double_bits(0x1p-900), inf = double_bits(INFINITY);
    int64_t all = 1;
    for (size_t j = 0; j < n; j++) {
        uint64_t hb = double_bits(p->hi[j]), lb = double_bits(p->lo[j]), mag = hb & ~sign;
        uint32_t xb = float_bits(x[j]) & 0x7fffffffu;
        int64_t up = (int64_t)(lb == (sign | 1)) | ((int64_t)(hb == one) & (int64_t)(lb == 1));
        all &= up & (int64_t)(mag >= tiny) & (int64_t)(mag < inf) &
               (int64_t)(double_bits((double)p->cr[j]) == hb) & (int64_t)(xb != 0) &
               (int64_t)(xb < 0x7f800000u);
    }
    if (!all) {
        refs_flags(p, n);
        return false;
    }
    for (size_t j = 0; j < n; j++) p->plain[j] = 1;
    for (size_t j = 0; j < n; j++) p->zero[j] = 0;
    return true;
}

/* The references of target t, direction dir, at the block's inputs (from fill_refs), and the
 * metrics of their correctly rounded values as outputs. */
HOT_CLONES void prepare_refs(scan_worker *w, gelu_target t, int dir, const float *x,
                              size_t n)
{
    point_ref *p = w->ref[t][dir];
    bool grad = dir == DIR_DERIVATIVE;
    double t0 = w->profiling ? now_s() : 0;
    bool upper_ends = n > 0 && near_upper(p, 0) && near_upper(p, n - 1); /* (intervals of x) */
    bool upper_all = upper_ends && past_block_may(t, w, n) ? refs_flags_upper(p, x, n)
                                                           : (refs_flags(p, n), false);
    w->part->refs[t][dir] += n;
    p->past = PAST_NONE;
    p->lazy_const = !upper_ends && stand_in_block(p, t, x, w, n);
    p->lazy = p->lazy_const || (upper_all && upper_block(p, x, w, n));
    p->exact = !p->lazy && exact_block(p, t, x, w, n, grad);
    p->lazy = p->lazy || p->exact;
    p->micro = !p->lazy && micro_block(p, t, n);
    p->lazy = p->lazy || (p->micro && micro_sums(p, x, w, n, grad));
    if (!p->lazy) {
        fill_inv_abs(p, n);
        bool any_special = cr_errors(p, n, p->cr_ulp, p->cr_abs, p->cr_rel, w->cr);
        for (size_t k = 0; k < w->nruns; k++) {
            size_t a = w->run_start[k], b = w->run_start[k + 1];
            run_sums_of(&p->cr_sums[k], a, b, isfinite(x[a]), false, p->cr_ulp, p->cr_abs,
                        p->cr_rel, w->cr);
            if (w->run_weighted[k])
                dist_run(p->cr_dist[k], w->wfixes, a, b, p->cr_ulp, p->cr_abs, p->inv_ulp,
                         w->run_weight[k], w->run_wmax[k], p->cr_sums[k].max_ulp);
        }
        if (!grad) {
            p->cr_criteria = (criteria_counts){0};
            count_criteria(&p->cr_criteria, x, p->cr, p, p->cr_abs, n, any_special);
        }
    }
    double x_min = w->sh->x_min[t];
    if (!grad) {
        mono_metrics mono = {0};
        check_monotone(&mono, x, p->cr, n, 0, x_min);
        p->cr_monotone = mono.violations == 0;
    } else {
        sign_metrics sign = {0};
        check_sign(&sign, x, p->cr, p, n, 0, x_min);
        p->cr_sign_ok = sign.violations == 0;
    }
    near_prepare(p, t, grad, x, w);
    lap(w, &t0, &w->prof.reference[t][dir]);
}

