/* The near-tie tolerances (near_tolerance.h): per point, the interval holding its true error
 * (near_bounds) from the coarse and tight tolerances, and past the thresholds from each
 * target's asymptotic form (near_upper_bounds, near_stand_in_bounds); per run of a block, the
 * tolerances bounding its errors' upper bounds (near_run_of, near_prepare, near_run_upper). */
#include "near_tolerance.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "hot_clones.h"

#define NEAR_UP (1 + 0x1p-50)

/* ln|f(x)| (grad: ln|f'(x)|) in the regions fast.c replaces by its stand-in (x at or below the
 * lower threshold, where |f| < 2^-151 and f < 0), within *err, from each target's asymptotic
 * form (t the argument of σ; the terms dropped are below e^t ≤ e^-112, or, for exact GELU, the
 * Mills ratio's series cut after x^-6, below 105/x^8 < 1e-8 at |x| ≥ 20):
 *   exact:  f = x·Φ(x) = −φ(x)·S, S = 1 − 1/x² + 3/x⁴ − 15/x⁶;  f' = −φ(x)|x|·(1 − S/x²);
 *   others: f = x·σ(t) ≈ x·e^t;  f' = σ(t)(1 + x·σ(−t)·t') ≈ e^t·(1 + x·t').
 * The roundings: 2^-48 of every term's magnitude (x² is exact in double; t within 3u, fast.c). */
static double near_stand_in_log(gelu_target t, bool grad, double x, double *err)
{
    static const double LN_SQRT_2PI = 0x1.d67f1c864beb5p-1; /* ln √(2π) */
    static const double SQRT_2_PI = 0x1.9884533d43651p-1;   /* √(2/π), as fast.c */
    double ax = fabs(x), lx = log(ax), v, mag;
    if (t == GELU_TARGET_EXACT) {
        double q = 1 / (x * x), S = 1 - q * (1 - q * (3 - 15 * q));
        double h = -0.5 * (x * x) - LN_SQRT_2PI;
        v = grad ? h + lx + log1p(-S * q) : h + log(S);
        mag = 0.5 * (x * x) + LN_SQRT_2PI + fabs(lx) + 2 * fabs(log(q));
        *err = mag * 0x1p-48 + 1e-7;
        return v;
    }
    double arg, slope;
    if (t == GELU_TARGET_TANH) {
        arg = 2 * SQRT_2_PI * (x + 0.044715 * (x * x * x));
        slope = 2 * SQRT_2_PI * (1 + 3 * 0.044715 * (x * x));
    } else {
        slope = t == GELU_TARGET_SIGMOID ? 1.702 : 1;
        arg = slope * x;
    }
    v = grad ? arg + log(fabs(1 + x * slope)) : lx + arg;
    mag = fabs(arg) + fabs(lx) + fabs(log(fabs(1 + x * slope)));
    *err = mag * 0x1p-48 + 1e-12;
    return v;
}

/* At a stand-in point: the bound E of |f − hi| (|f| + 2^-1000: both negative) and, for an
 * output y ≠ 0, the interval of its relative error |y − f|/|f| in [*rel_lo, *rel_hi]: from
 * ln(|y|/|f|) ± err, e^L ∓ 1 (|f| < |y|/4); above 2^1024 it is +inf, as MPFR's double. */
double near_stand_in_bounds(gelu_target t, bool grad, float x, float y, double *rel_lo,
                            double *rel_hi)
{
    double err, lf = near_stand_in_log(t, grad, x, &err);
    double f_hi = exp(lf + err), E = (f_hi > 0x1p-1073 ? f_hi : 0x1p-1073) * NEAR_UP + 0x1p-1000;
    if (y != 0) {
        double L = log(fabs((double)y)) - lf, w = err + 0x1p-50 * fabs(L);
        static const double LN_2_1024 = 0x1.62e42fefa39efp+9; /* ln 2^1024 */
        *rel_lo = L - w > LN_2_1024 ? INFINITY : (exp(L - w) - 1) * NEAR_DOWN;
        *rel_hi = L + w > LN_2_1024 - 1e-9 ? INFINITY : (exp(L + w) + 1) * NEAR_UP;
    }
    return E;
}

double near_tight_tol(gelu_target t, bool grad, float x, const point_ref *r, size_t j,
                      double coarse)
{
    if (near_stand_in(r, j)) {
        double lo, hi;
        return near_stand_in_bounds(t, grad, x, 0.0f, &lo, &hi);
    }
    if (coarse == 0) return 0;
    if (near_upper(r, j)) { /* |f − x| (|f' − 1|) is |f(−x)| (|f'(−x)|): the stand-in's form */
        double err, d = exp(near_stand_in_log(t, grad, -(double)x, &err) + err) * NEAR_UP;
        return d < coarse ? d : coarse;
    }
    double err = r->err[j]; /* NaN where the value is MPFR's */
    double tight = err != err ? 0x1p-90 * fabs(r->hi[j]) : err * (1 + 0x1p-20);
    return tight < coarse ? tight : coarse;
}

/* Where the stored value is a marker — past the upper threshold x (f) or 1 (f') with a marker
 * lo, below the lower one fast.c's stand-in −2^-1000: the interval [*lo, *hi] of the error of
 * kind k of output y, from f = x − δ (f' = 1 + δ; below, f = −δ) and ln δ = ln|f(−x)| ± err
 * (near_stand_in_log, f(x) − x = f(−x) and f'(x) − 1 = −f'(−x) by the targets' symmetry
 * S(−x) = 1 − S(x); below, ln|f(x)|). Where δ is below the doubles (|x| ≳ 39 for exact GELU),
 * the error is |y − x| (|y − 1|, |y|), exactly when that difference is. */
void near_upper_bounds(error_kind k, gelu_target t, bool grad, float x, float y,
                       const point_ref *r, size_t j, double *lo, double *hi)
{
    bool stand_in = near_stand_in(r, j); /* below the lower threshold: f = −δ, base 0 */
    double err, L = near_stand_in_log(t, grad, stand_in ? (double)x : -(double)x, &err);
    double d_lo = exp(L - err) * NEAR_DOWN, d_hi = exp(L + err) * NEAR_UP;
    double cap = stand_in ? NEAR_STAND_IN_TOL : NEAR_UPPER_TOL;
    if (!(d_hi <= cap)) { /* the form does not apply: the threshold's bound */
        d_lo = 0;
        d_hi = cap;
    }
    double base = stand_in ? 0 : r->hi[j], D = (double)y - base, bb = D - (double)y;
    bool exact = ((double)y - (D - bb)) + (-base - bb) == 0 && d_hi == 0;
    double sigma = grad && !stand_in ? -1 : 1; /* y − f = D + σδ */
    double s1 = D + sigma * d_lo, s2 = D + sigma * d_hi;
    double a = s1 < s2 ? s1 : s2, b = s1 < s2 ? s2 : s1;
    double m_lo = a > 0 ? a : b < 0 ? -b : 0, m_hi = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    if (!exact) {
        m_lo *= NEAR_DOWN;
        m_hi = m_hi * NEAR_UP + 0x1p-1074;
    }
    double f_lo = stand_in ? d_lo : grad ? 1 + d_lo : base - d_hi;
    double f_hi = stand_in ? d_hi : grad ? 1 + d_hi : base - d_lo;
    if (k == ERR_ULP) {
        *lo = m_lo * r->inv_ulp[j];
        *hi = m_hi * r->inv_ulp[j];
    } else if (k == ERR_ABS) {
        *lo = m_lo;
        *hi = m_hi;
    } else {
        *lo = exact && !stand_in ? m_lo / base : m_lo / f_hi * NEAR_DOWN;
        *hi = exact && !stand_in ? *lo : f_lo > 0 ? m_hi / f_lo * NEAR_UP : INFINITY;
    }
    if (!isfinite(y)) *lo = *hi = INFINITY;
}

/* |y − (hi + lo)| as an unevaluated sum *dh + *dl, to within 2^-100 of itself (two exact
 * two-sums, their errors added once). */
static void near_distance(float y, double hi, double lo, double *dh, double *dl)
{
    double s1 = (double)y - hi, b1 = s1 - (double)y, e1 = ((double)y - (s1 - b1)) + (-hi - b1);
    double s2 = s1 - lo, b2 = s2 - s1, e2 = (s1 - (s2 - b2)) + (-lo - b2);
    double r = e1 + e2;
    *dh = s2 < 0 ? -s2 : s2;
    *dl = s2 < 0 ? -r : r;
}

/* nextafter(h, up ? +inf : −inf) from the encoding, inline (as a call, near_point's share of the
 * scan is a tenth in the tiny regions, where rows off by a constant give every point a near tie): the
 * same value for every finite h; for ±inf and NaN the differences below are NaN either way. */
static inline double near_next(double h, bool up)
{
    if (h == 0) return up ? DBL_TRUE_MIN : -DBL_TRUE_MIN;
    uint64_t b;
    memcpy(&b, &h, sizeof b);
    b = up != (bool)(b >> 63) ? b + 1 : b - 1;
    double r;
    memcpy(&r, &b, sizeof r);
    return r;
}

/* Whether every real in [h + l − e, h + l + e] rounds to nearest to the double h (e ≥ 0). */
static bool near_rounds_to(double h, double l, double e)
{
    double up = near_next(h, true) - h, down = h - near_next(h, false);
    return l + e < 0.5 * up && e - l < 0.5 * down;
}

/* The interval [*lo, *hi] of the double MPFR's error of kind k would be (refine_mpfr_error,
 * the true error rounded to nearest) for output y at point j, whose computed error of kind k
 * is v, for a reference within E of the exact value: ULP and absolute errors from the distance
 * as a double-double (near_distance), the relative error as |1 − y/f| from the bounds of
 * |y|/|f|. Where every real the error could be rounds to one double, that double is the error,
 * exactly: MPFR's would be the same (ties at that resolution are ties). */
void near_bounds(error_kind k, float y, const point_ref *r, size_t j, double E, double v,
                 double *lo, double *hi)
{
    if (!r->plain[j] || !isfinite(y) || (k == ERR_REL && y == 0)) {
        /* the general rules (exact references, infinite errors), a relative error of 1 */
        *lo = *hi = k == ERR_REL && y == 0 && r->plain[j] ? 1 : v;
        return;
    }
    double dh, dl;
    near_distance(y, r->hi[j], r->lo[j], &dh, &dl);
    double slack = fabs(dl) + E + 0x1p-100 * dh;
    if (k != ERR_REL) {
        double scale = k == ERR_ULP ? r->inv_ulp[j] : 1;
        if (near_rounds_to(dh, dl, E + 0x1p-100 * dh) || dh + slack == 0) {
            *lo = *hi = dh * scale; /* a power of two: exact */
            return;
        }
        double down = (dh - slack) * NEAR_DOWN;
        *lo = (down > 0 ? down : 0) * scale;
        *hi = (dh + slack) * NEAR_UP * scale;
        return;
    }
    /* rel = |1 − y/f|: g = |y|/|f| within [|y|/(m + E), |y|/(m − E)], m = |hi + lo| */
    double m = fabs(r->hi[j] + r->lo[j]), ay = fabs((double)y);
    double den_lo = m * (1 - 0x1p-52) - E, den_hi = m * (1 + 0x1p-52) + E;
    if (!(den_lo > 0)) { /* the reference does not bound |f| away from 0 */
        *lo = 0;
        *hi = INFINITY;
        return;
    }
    double g_lo = ay / den_hi * NEAR_DOWN, g_hi = ay / den_lo * NEAR_UP;
    double a, b;
    bool same_sign = (y < 0) == (r->hi[j] < 0);
    if (same_sign && g_hi > 0.5 && g_lo < 2) {
        /* y near f: rel = d/|f| from the exact distance, q0 + c with q0 = dh/m and c from the
         * division's exact residual (FMA); |f| ≥ den_lo */
        double q0 = dh / m, c = (fma(-q0, m, dh) + dl) / m;
        double err = fabs(c) * 0x1p-50 + E * (1 + q0) / den_lo * NEAR_UP + 0x1p-100 * q0 +
                     q0 * 0x1p-51; /* m's own rounding */
        if (E == 0 && dh == 0) { /* y = f exactly */
            *lo = *hi = 0;
            return;
        }
        if (near_rounds_to(q0, c, err)) {
            *lo = *hi = q0;
            return;
        }
        a = q0 + c - err;
        b = q0 + c + err;
        *lo = a > 0 ? a * NEAR_DOWN : 0;
        *hi = b * NEAR_UP;
        return;
    }
    if (!same_sign) {
        a = 1 + g_lo;
        b = 1 + g_hi;
    } else if (g_hi <= 1) {
        a = 1 - g_hi;
        b = 1 - g_lo;
    } else if (g_lo >= 1) {
        a = g_lo - 1;
        b = g_hi - 1;
    } else {
        a = 0;
        b = 1 - g_lo > g_hi - 1 ? 1 - g_lo : g_hi - 1;
    }
    /* one rounded operation on the bounds of g each: a and b are the roundings of the ends,
     * so MPFR's double (the rounding of the true value) lies in [a, b] */
    *lo = a;
    *hi = b;
}

/* One point's relative terms (near_run_upper's scale |hi|/den and add E/den, den = (|hi| −
 * |lo|)·(1 − 2^-50) − E; +inf both where den ≤ 0) folded into the maxima *rel_scale, *rel_add
 * (pos_bits) when in_rel. |lo| is dropped where it cannot change |hi| − |lo| (a subnormal lo
 * under a large |hi|: no subnormal arithmetic, which costs microcode assists on Intel cores).
 * Without branches: the loops calling it vectorize. */
static inline void near_rel_fold(double hi, double lo, double E, int64_t in_rel,
                                 int64_t *rel_scale, int64_t *rel_add)
{
    double mag = fabs(hi), alo = fabs(lo);
    alo = ((alo < DBL_MIN) & (mag >= 0x1p-900)) ? 0 : alo;
    double den = (mag - alo) * NEAR_DOWN - E;
    double q_scale = mag / den, q_add = E / den; /* unconditional: no branch */
    int64_t pos = den > 0;
    int64_t scale = pos ? pos_bits(q_scale) : pos_bits(INFINITY);
    int64_t add = pos ? pos_bits(q_add) : pos_bits(INFINITY);
    scale = in_rel ? scale : 0;
    add = in_rel ? add : 0;
    *rel_scale = scale > *rel_scale ? scale : *rel_scale;
    *rel_add = add > *rel_add ? add : *rel_add;
}

__attribute__((always_inline)) /* into near_run_coarse's clones */
static inline bool near_run_coarse_past(const point_ref *p, const float *x, size_t a, size_t b,
                                        near_run *nr)
{
    if (p->target == GELU_TARGET_RELU || x[a] == 0 || x[b - 1] == 0) return false;
    bool si_ends = near_stand_in(p, a) && near_stand_in(p, b - 1);
    bool up_ends = near_upper(p, a) && near_upper(p, b - 1);
    if (!si_ends && !up_ends) return false;
    /* the tests as integer compares of the encodings (lo == 0 for either zero; fabs(hi) ≥ 2^-900
     * with hi plain, not NaN), so that GCC vectorizes the loop */
    const uint64_t sign = 0x8000000000000000ull, one = double_bits(1.0);
    const uint64_t stand_in = double_bits(NEAR_STAND_IN), tiny = double_bits(0x1p-900);
    int64_t all_si = 1, all_up = 1, iu_max = 0, mag_min = (int64_t)double_bits(INFINITY);
    for (size_t j = a; j < b; j++) {
        uint64_t hb = double_bits(p->hi[j]), lb = double_bits(p->lo[j]);
        int64_t nonzero = (float_bits(x[j]) & 0x7fffffffu) != 0;
        int64_t si = (int64_t)(hb == stand_in) & (int64_t)((lb << 1) == 0);
        int64_t up = ((int64_t)(lb == (sign | 1)) | ((int64_t)(hb == one) & (int64_t)(lb == 1))) &
                     (int64_t)(p->plain[j] != 0) & (int64_t)((hb & ~sign) >= tiny);
        all_si &= si & nonzero;
        all_up &= up & nonzero;
        int64_t iu = pos_bits(p->inv_ulp[j]), mag = (int64_t)(hb & ~sign);
        iu_max = iu > iu_max ? iu : iu_max;
        mag_min = mag < mag_min ? mag : mag_min;
    }
    int64_t all = si_ends ? all_si : all_up;
    if (!all) return false;
    near_past_tolerances(si_ends, iu_max, mag_min, nr);
    return true;
}

/* near_run_of's coarse tolerances (tight false) as selections over arrays of doubles, without
 * branches: the same ULP and absolute tolerances as near_coarse_tol's per point (its cases in its
 * order; E·inv_ulp and the maxima are the same operations; NEAR_TOL_ULP/inv_ulp as a product by
 * the exact reciprocal). Every value whose maximum is taken is +0, positive or +inf — E ≥ +0 and
 * inv_ulp a positive power of two — so the maxima are those of their pos_bits. A run's inputs
 * are all finite or all not (run_block).
 * The relative terms are bounds of near_rel_fold's maxima rather than those maxima, without its
 * two divisions per point (a tenth of a one-implementation scan): near_rel_fold's |hi|/den and
 * E/den are 1/g and t/g with g = den/|hi| = (1 − |lo|/|hi|)·(1 − 2^-50) − E/|hi| and
 * t = E/|hi|, so the run's largest are at most 1/min g and max t/min g. Per point, g and t
 * come from products by inv_abs (1/|hi| rounded once): t ≤ 2^-8 (|hi| ≥ 2^-150 outside the
 * stand-ins), |lo|/|hi| ≤ 2^-52, g ≤ 1, so a few roundings of numbers below 1 leave g within
 * 2^-49 of its exact value, as they leave near_rel_fold's den/|hi|; with min g lowered by 2^-47
 * and the quotients raised by 2^-44 the bounds are at least near_rel_fold's values (+inf where
 * some g is not above 2^-47). Coarse tolerances only decide whether a run's tight ones are
 * looked at (near_wanted), and the tight relative terms are at most the coarse ones point by
 * point (near_tight_tol takes the lesser away from the stand-ins, which the relative terms
 * leave out; near_rel_fold grows with E), so a larger coarse bound changes no result, only how
 * often the tight ones are formed: hardly more often, g being 1 − 2^-50 − t within 2^-49. */
HOT_CLONES static near_run near_run_coarse(const point_ref *p, const float *x, size_t a, size_t b)
{
    near_run nr = {0, 0, 1, 0, false, true, false};
    if (a == b || !isfinite(x[a])) return nr;
    uint32_t cr_zero = 1;
    for (size_t j = a; j < b; j++) cr_zero &= p->plain[j] & ((float_bits(p->cr[j]) & 0x7fffffffu) == 0);
    nr.cr_zero = cr_zero;
    if (near_run_coarse_past(p, x, a, b, &nr)) return nr;
    assert(!p->lazy); /* inv_abs is read below (the lazy blocks' runs all take the line above) */
    int64_t relu = p->target == GELU_TARGET_RELU;
    const int64_t none = pos_bits(INFINITY);
    int64_t ulp = 0, abs = 0, g_min = none, t_max = 0, stand_in = 0;
    for (size_t j = a; j < b; j++) {
        double hi = p->hi[j], lo = p->lo[j], iu = p->inv_ulp[j];
        int64_t si = (int64_t)(hi == NEAR_STAND_IN) & (int64_t)(lo == 0);
        int64_t up = (int64_t)(lo == -DBL_TRUE_MIN) | ((int64_t)(hi == 1) & (int64_t)(lo == DBL_TRUE_MIN));
        int64_t zero = relu | ref_at_zero(p, x[j]);
        double E = NEAR_TOL_ULP * near_recip_pow2(iu);
        E = up ? NEAR_UPPER_TOL : E;
        E = si ? NEAR_STAND_IN_TOL : E;
        E = zero ? 0 : E;
        int64_t u = pos_bits(E * iu), e = pos_bits(E);
        ulp = u > ulp ? u : ulp;
        abs = e > abs ? e : abs;
        stand_in |= si;
        /* the relative terms where the point is plain and not a stand-in (near_rel_fold's |lo|,
         * dropped as there: no subnormal operand) */
        double mag = fabs(hi), alo = fabs(lo), inv = p->inv_abs[j];
        alo = ((alo < DBL_MIN) & (mag >= 0x1p-900)) ? 0 : alo;
        double t = E * inv, g = (1 - alo * inv) * NEAR_DOWN - t;
        int64_t in_rel = (int64_t)(p->plain[j] != 0) & (si ^ 1);
        int64_t gb = g > 0 ? pos_bits(g) : 0; /* ≤ 0 (or NaN): as 0, which gives +inf */
        gb = in_rel ? gb : none;
        int64_t tb = in_rel ? pos_bits(t) : 0;
        g_min = gb < g_min ? gb : g_min;
        t_max = tb > t_max ? tb : t_max;
    }
    nr.ulp = double_from_bits((uint64_t)ulp);
    nr.abs = double_from_bits((uint64_t)abs);
    if (g_min != none) { /* some point of the run is in the relative terms */
        double gl = double_from_bits((uint64_t)g_min) - 0x1p-47, raise = 1 + 0x1p-44;
        double scale = gl > 0 ? raise / gl : INFINITY;
        nr.rel_scale = scale > 1 ? scale : 1; /* near_rel_fold's maximum starts at 1 */
        nr.rel_add = gl > 0 ? double_from_bits((uint64_t)t_max) / gl * raise : INFINITY;
    }
    nr.stand_in = stand_in != 0;
    return nr;
}

/* The tight tolerances of a finite run without points past the thresholds (neither near_upper
 * nor near_stand_in), without branches: near_run_of's loop on such points, where
 * near_coarse_tol is 0 or NEAR_TOL_ULP/inv_ulp (as near_run_coarse forms it) and near_tight_tol
 * the lesser of it and the enclosure's bound (2^-90 of |hi| where the value is MPFR's); the
 * maxima as in near_run_coarse (every value +0, positive or +inf). */
HOT_CLONES static near_run near_run_tight_plain(const point_ref *p, const float *x, size_t a,
                                                 size_t b)
{
    near_run nr = {0, 0, 1, 0, false, true, true};
    uint32_t cr_zero = 1;
    for (size_t j = a; j < b; j++) cr_zero &= p->plain[j] & ((float_bits(p->cr[j]) & 0x7fffffffu) == 0);
    nr.cr_zero = cr_zero;
    nr.cr_exact = false; /* no point past the upper threshold (and the run is not empty) */
    int64_t relu = p->target == GELU_TARGET_RELU;
    int64_t ulp = 0, abs = 0, rel_scale = pos_bits(1), rel_add = 0;
    for (size_t j = a; j < b; j++) {
        double hi = p->hi[j], lo = p->lo[j], iu = p->inv_ulp[j], err = p->err[j];
        int64_t zero = relu | ref_at_zero(p, x[j]);
        double E = NEAR_TOL_ULP * near_recip_pow2(iu);
        E = zero ? 0 : E;
        double t = err != err ? 0x1p-90 * fabs(hi) : err * (1 + 0x1p-20);
        E = t < E ? t : E; /* 0 where the coarse one is 0 (t ≥ 0) */
        int64_t u = pos_bits(E * iu), e = pos_bits(E);
        ulp = u > ulp ? u : ulp;
        abs = e > abs ? e : abs;
        near_rel_fold(hi, lo, E, p->plain[j] != 0, &rel_scale, &rel_add);
    }
    nr.ulp = double_from_bits((uint64_t)ulp);
    nr.abs = double_from_bits((uint64_t)abs);
    nr.rel_scale = double_from_bits((uint64_t)rel_scale);
    nr.rel_add = double_from_bits((uint64_t)rel_add);
    return nr;
}

/* One point's share of a run's tolerances (near_run_of's loop; coarse or tight). */
static inline void near_tight_point(const point_ref *p, const float *x, size_t j, bool tight,
                                    near_run *nr)
{
    double E = near_coarse_tol(p->target, x[j], p, j);
    if (tight) E = near_tight_tol(p->target, p->grad, x[j], p, j, E);
    nr->cr_exact &= near_upper(p, j) && E == 0;
    double u = E * p->inv_ulp[j];
    nr->ulp = u > nr->ulp ? u : nr->ulp;
    nr->abs = E > nr->abs ? E : nr->abs;
    if (near_stand_in(p, j)) {
        nr->stand_in = true;
    } else if (p->plain[j]) {
        double mag = fabs(p->hi[j]), den = (mag - fabs(p->lo[j])) * NEAR_DOWN - E;
        double scale = den > 0 ? mag / den : INFINITY, add = den > 0 ? E / den : INFINITY;
        nr->rel_scale = scale > nr->rel_scale ? scale : nr->rel_scale;
        nr->rel_add = add > nr->rel_add ? add : nr->rel_add;
    }
}

/* The tight tolerances of the points first and last (first ≤ last) of a run all past the
 * thresholds, which bound the others' (near_run_of). */
static inline void near_run_points(const point_ref *p, const float *x, size_t first, size_t last,
                                   near_run *nr)
{
    near_tight_point(p, x, first, true, nr);
    if (last != first) near_tight_point(p, x, last, true, nr);
}

/* The tolerances of the points [a, b) of a block (coarse, or tight). */
HOT_CLONES static near_run near_run_of(const point_ref *p, const float *x, size_t a, size_t b,
                                        bool tight)
{
    if (!tight) return near_run_coarse(p, x, a, b);
    if (p->past) { /* the all_tail case below, its loops' outcome known (upper_block,
                    * stand_in_block: every point marked, hi plain, the correctly rounded value
                    * ±0 exactly at the stand-ins) */
        near_run nr = {0, 0, 1, 0, false, p->past == PAST_STAND_IN, true};
        near_run_points(p, x, a, b - 1, &nr);
        return nr;
    }
    bool all_tail = false;
    if (a < b && isfinite(x[a])) { /* a run without points past the thresholds: branch-free */
        uint32_t tail = 0, ntail = 0;
        for (size_t j = a; j < b; j++) {
            double hi = p->hi[j], lo = p->lo[j];
            uint32_t t = (uint32_t)((hi == NEAR_STAND_IN) & (lo == 0)) |
                         (uint32_t)(lo == -DBL_TRUE_MIN) | (uint32_t)((hi == 1) & (lo == DBL_TRUE_MIN));
            tail |= t;
            ntail += t;
        }
        if (!tail) return near_run_tight_plain(p, x, a, b);
        all_tail = ntail == b - a; /* (a run's x are all finite or none) */
    }
    near_run nr = {0, 0, 1, 0, false, true, tight};
    if (all_tail) { /* every point past the thresholds: the loop below on the first and the last,
                     * the others only in cr_zero (a loop that vectorizes) */
        uint32_t cr_zero = 1;
        for (size_t j = a; j < b; j++)
            cr_zero &= p->plain[j] & ((float_bits(p->cr[j]) & 0x7fffffffu) == 0);
        nr.cr_zero = cr_zero;
        near_run_points(p, x, a, b - 1, &nr);
        return nr;
    }
    /* Past the thresholds (the markers of near_upper and near_stand_in) a point's tight
     * tolerance is |f(−x)| or |f(x)| (a log and an exp each), which falls as |x| grows, and
     * its ULP with it: over the run's points there, in either order, the largest tolerance,
     * its ULP multiple and its relative terms are at the first or the last one, which bound
     * the others. Only those two are evaluated. */
    size_t tail_first = b, tail_last = b;
    if (tight)
        for (size_t j = a; j < b; j++)
            if (isfinite(x[j]) && (near_upper(p, j) || near_stand_in(p, j))) {
                tail_first = tail_first == b ? j : tail_first;
                tail_last = j;
            }
    for (size_t j = a; j < b; j++) {
        if (!isfinite(x[j])) continue;
        nr.cr_zero &= p->plain[j] && p->cr[j] == 0;
        if (j > tail_first && j < tail_last && (near_upper(p, j) || near_stand_in(p, j))) continue;
        near_tight_point(p, x, j, tight, &nr);
    }
    return nr;
}

/* The coarse tolerances of every run of the block (point_ref's near[]), target t.
 * In a micro_block they are bounds from the correctly rounded values' own errors, which serve as
 * the tight ones too. There at each point the correctly rounded value is hi, so its errors are
 * d = |lo| exactly, u = |lo|·inv_ulp and rel = |lo|·inv_abs rounded (block_errors); the tight
 * tolerance E is at most err·(1 + 2^-20) rounded, ≤ |lo|·2^-50·(1 + 2^-19): so E·inv_ulp ≤
 * u·2^-49 and E ≤ d·2^-49; near_rel_fold's den = (|hi| − |lo|)·(1 − 2^-50) − E ≥ |hi|·(1 − 2^-27)
 * (|lo| ≤ 2^-28·|hi|, E ≤ 2^-77·|hi|, three roundings), so its scale ≤ 1 + 2^-26 and its add
 * ≤ (|lo|/|hi|)·2^-49·(1 + 2^-25) ≤ rel·2^-48 (inv_abs ≥ (1 − 2^-53)/|hi|). A run's tolerances
 * are then at most {max_ulp·2^-48, max_abs·2^-48, 1 + 2^-26, max_rel·2^-48}, its correctly
 * rounded values' maxima (cr_sums, formed before). Tolerances only filter — near_wanted: whether
 * a run's lists are looked at; near_scan_run: which points take near_point, whose intervals are
 * each point's own — so larger ones change no list, only how many points are looked at. There
 * every run's coarse tolerances (NEAR_TOL_ULP, far above its errors) let its tight ones be
 * formed, which then closed nearly every list: the two passes cost a fifth of a shard of
 * |x| < 2^-30 (`accuracy --impl pw_accurate_avx512 --grad --shard 13/128`). */
/* near_run_coarse's tolerances of a run of an exact_block, where E = 0 at every point and the
 * relative terms are g = (1 − 0·inv_abs)·NEAR_DOWN − 0 = NEAR_DOWN and t = 0 at the plain ones
 * (any_plain: the run has some), the same operations on the same values after the loop; no
 * stand-in, and not every correctly rounded output ±0 (a plain point's is hi ≠ 0, a zero's
 * reference is not plain). */
static near_run near_run_exact(bool any_plain)
{
    near_run nr = {0, 0, 1, 0, false, false, false};
    if (any_plain) {
        double gl = NEAR_DOWN - 0x1p-47, raise = 1 + 0x1p-44;
        double scale = gl > 0 ? raise / gl : INFINITY;
        nr.rel_scale = scale > 1 ? scale : 1;
        nr.rel_add = gl > 0 ? 0.0 / gl * raise : INFINITY;
    }
    return nr;
}

void near_prepare(point_ref *p, gelu_target t, bool grad, const float *x,
                  const scan_worker *w)
{
    p->target = t;
    p->grad = grad;
    for (size_t k = 0; k < w->nruns; k++) {
        p->tight_ready[k] = false;
        if (p->exact) {
            p->near[k] = near_run_exact(p->any_plain[k]);
        } else if (p->micro) {
            const run_sums *s = &p->cr_sums[k];
            near_run nr = {s->max_ulp * 0x1p-48, s->max_abs * 0x1p-48, 1 + 0x1p-26,
                           s->max_rel * 0x1p-48, false, false, false};
            p->near[k] = p->near_tight[k] = nr;
            p->tight_ready[k] = true;
        } else if (!p->past) {
            p->near[k] = near_run_of(p, x, w->run_start[k], w->run_start[k + 1], false);
        }
    }
}

/* The tight tolerances of run k, [a, b) (computed once per block and reference). */
const near_run *near_tight_run(const point_ref *r, const float *x, size_t k, size_t a,
                               size_t b)
{
    point_ref *p = (point_ref *)r; /* the worker's own buffer: a cache */
    if (!p->tight_ready[k]) {
        p->near_tight[k] = near_run_of(p, x, a, b, true);
        p->tight_ready[k] = true;
    }
    return &p->near_tight[k];
}

/* An upper bound of the true errors of kind k over a run whose computed maxima are at most s's,
 * with tolerances nr; stand_in_nonzero: an output other than ±0 at a stand-in point (its
 * relative error is unbounded: the exact value is only known to be below 2^-151); cr_outputs:
 * the outputs are the correctly rounded ones on the whole run. */
double near_run_upper(const run_sums *s, const near_run *nr, error_kind k,
                      bool stand_in_nonzero, bool cr_outputs)
{
    if (k == ERR_REL && cr_outputs && nr->cr_zero) return 1; /* exactly, at every point */
    if (cr_outputs && nr->cr_exact) return 0;
    const double up = 1 + 0x1p-46; /* the per-point roundings (near_bounds), with room */
    if (k == ERR_ULP) return (s->max_ulp + nr->ulp) * up;
    if (k == ERR_ABS) return (s->max_abs + nr->abs) * up;
    if (stand_in_nonzero) return INFINITY;
    double b = (s->max_rel * nr->rel_scale + nr->rel_add) * up;
    return nr->stand_in && !(b >= 1) ? 1 : b;
}
