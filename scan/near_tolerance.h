/* Near ties of the maxima (near.h): the interval holding each point's true error.
 *
 * The reference value hi + lo of a point lies within E of the exact one; a point's true errors
 * then lie within [d − E, d + E] of its computed distance d (and the relative one within that
 * over [|hi| − |lo| − E, |hi| + |lo| + E]), widened by 2^-50 of themselves for the roundings
 * of their computation. E, coarse (near_coarse_tol, from the stored values alone):
 *   0 where the reference is exact (the ReLU target, x = ±0);
 *   2^-151 at fast.c's stand-in for the regions that round to −0 (hi = −2^-1000): the exact
 *     value is below 2^-151 there (fast.c), a quarter ULP;
 *   2^-57 past the upper threshold (fast.c's stand-in hi = x, lo = −2^-1074, or for f' hi = 1,
 *     lo = 2^-1074): |f − x| and |f' − 1| fall with x there, from below 2^-63 at the largest
 *     threshold (fast.c's table: SiLU's, 48);
 *   1e-3 ULP elsewhere (NEAR_TOL_ULP): fast_ref_decide takes the enclosure only when its bound
 *     is below that, MPFR's values are far closer.
 * and tight (near_tight_tol, for the runs and points the coarse one leaves near a maximum):
 * the enclosure's own bound err (fast.h) where the stored value is the enclosure's; 2^-90 of
 * it where it is MPFR's (ref_eval_value: 106 bits of a 128-bit evaluation); past the
 * thresholds, the error itself from each target's asymptotic form (near_upper_bounds).
 * Exactly known: an error of 0 where the reference is exact, a relative error of 1 for an
 * output ±0 (f ≠ 0), and any error whose every possible value rounds to one double. The ULP is
 * that of hi + lo's binade, as everywhere in the scan (where the exact value lies within the
 * tolerance of a power of two, its binade may be the other one: not covered). */
#ifndef GELUCHECK_NEAR_TOLERANCE_H
#define GELUCHECK_NEAR_TOLERANCE_H

#include "scan_internal.h"

#define NEAR_TOL_ULP 0x1.0625p-10     /* 1.00002e-3 ULP, just above fast_ref_decide's 1e-3 */
#define NEAR_STAND_IN (-0x1p-1000)    /* fast.c's NEG_TINY (tests/test_near.c pins it) */
#define NEAR_STAND_IN_TOL 0x1p-151    /* |f| below it in the regions that round to −0 (fast.c) */
#define NEAR_UPPER_TOL 0x1p-57       /* |f − hi| past the upper threshold (above) */
#define NEAR_DOWN (1 - 0x1p-50)

/* near_tolerance.c */
double near_stand_in_bounds(gelu_target t, bool grad, float x, float y, double *rel_lo,
                            double *rel_hi);
double near_tight_tol(gelu_target t, bool grad, float x, const point_ref *r, size_t j,
                      double coarse);
void near_upper_bounds(error_kind k, gelu_target t, bool grad, float x, float y,
                       const point_ref *r, size_t j, double *lo, double *hi);
void near_bounds(error_kind k, float y, const point_ref *r, size_t j, double E, double v,
                 double *lo, double *hi);
void near_prepare(point_ref *p, gelu_target t, bool grad, const float *x,
                  const scan_worker *w);
const near_run *near_tight_run(const point_ref *r, const float *x, size_t k, size_t a,
                               size_t b);
double near_run_upper(const run_sums *s, const near_run *nr, error_kind k,
                      bool stand_in_nonzero, bool cr_outputs);

/* near_points.c */
void near_scan_run(error_metrics *m, int bucket, const bool want[ERR_KINDS],
                   const refine_ctx *ctx, const float *x, const float *y,
                   const point_ref *r, const near_run *nr, size_t a, size_t b,
                   uint64_t seq0, const double *ulp, const double *abs,
                   const double *rel);
void near_scan_flat_cr(error_metrics *m, int bucket, const bool want[ERR_KINDS],
                       const refine_ctx *ctx, const float *x, const point_ref *r, size_t a,
                       uint64_t seq0, const double e[ERR_KINDS]);
bool near_wanted(error_metrics *m, const run_sums *s, const point_ref *r, const float *x,
                 size_t k, size_t a, size_t b, int bucket, bool stand_in_nonzero,
                 bool cr_outputs, bool want[ERR_KINDS], const near_run **nr);

static inline bool near_stand_in(const point_ref *r, size_t j)
{
    return r->hi[j] == NEAR_STAND_IN && r->lo[j] == 0;
}

static inline bool near_upper(const point_ref *r, size_t j)
{
    return r->lo[j] == -DBL_TRUE_MIN || (r->hi[j] == 1 && r->lo[j] == DBL_TRUE_MIN);
}

static inline double near_coarse_tol(gelu_target t, float x, const point_ref *r, size_t j)
{
    if (t == GELU_TARGET_RELU || ref_at_zero(r, x)) return 0;
    if (near_stand_in(r, j)) return NEAR_STAND_IN_TOL;
    if (near_upper(r, j)) return NEAR_UPPER_TOL;
    return NEAR_TOL_ULP / r->inv_ulp[j];
}

/* 1/v for a power of two v whose reciprocal is a normal double (inv_ulp: 2^-1001 to 2^149), from
 * its exponent: exact, as the division is, and without a division's latency. */
static inline double near_recip_pow2(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    b = (uint64_t)(2046 - (int64_t)(b >> 52)) << 52;
    double r;
    memcpy(&r, &b, sizeof r);
    return r;
}

/* A double that is +0, positive or +inf (not NaN, not −0) as an integer with the same order:
 * such doubles order as their encodings. A maximum of them is then an integer maximum, which
 * GCC vectorizes (a maximum of doubles it does not, without -ffast-math). */
static inline int64_t pos_bits(double v) { return (int64_t)double_bits(v); }

/* near_run_coarse's loop where every point of the run lies past one threshold: all near_upper
 * points (plain, |hi| ≥ 2^-900: the loop's |lo| is dropped) or all stand-ins (x ≠ 0 and a
 * target other than ReLU in both: x is finite and past a threshold). There E is one constant,
 * so each value whose maximum the loop takes — E·inv_ulp, E·inv_abs, and g = (1 − 0)·(1 −
 * 2^-50) − E·inv_abs (its minimum) — is a rounded monotone function of inv_ulp or inv_abs
 * alone: the loop's extremes are those functions at the largest inv_ulp and inv_abs, the same
 * operations on the same operands, so the same bits; the largest inv_abs as 1/min |hi| (the
 * same rounded division), so that a block whose inv_abs is not filled (upper_block) needs none.
 * A check at the run's ends first (the regions are intervals of x), then one pass that confirms
 * every point and takes the two extremes. False, and nr untouched, where the run is not of that kind. */
/* near_run_coarse_past's tolerances of a run of stand-ins (si) or of points past the upper
 * threshold, from the pos_bits of its largest inv_ulp and (not si) of its smallest |hi|. */
static inline void near_past_tolerances(bool si, int64_t iu_max, int64_t mag_min, near_run *nr)
{
    double E = si ? NEAR_STAND_IN_TOL : NEAR_UPPER_TOL;
    nr->ulp = E * double_from_bits((uint64_t)iu_max);
    nr->abs = E;
    nr->stand_in = si;
    if (!si) { /* every point in the relative terms: near_run_coarse's g_min and t_max */
        /* the largest inv_abs, 1/|hi| rounded once, is the reciprocal of the smallest |hi|
         * (a plain point's, as every point is in the up case) */
        double inv_max = 1.0 / double_from_bits((uint64_t)mag_min);
        double t = E * inv_max, g = (1 - 0.0) * NEAR_DOWN - t;
        int64_t g_min = g > 0 ? pos_bits(g) : 0;
        double gl = double_from_bits((uint64_t)g_min) - 0x1p-47, raise = 1 + 0x1p-44;
        double scale = gl > 0 ? raise / gl : INFINITY;
        nr->rel_scale = scale > 1 ? scale : 1;
        nr->rel_add = gl > 0 ? t / gl * raise : INFINITY;
    }
}

#endif
