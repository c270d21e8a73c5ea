/* Input distributions' weights of binary32 inputs (see weights.h). */
#include "weights.h"

#include "exp_inline.h"
#include "float_bits.h"
#include "hot_clones.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static const double INV_SQRT_2PI = 0x1.9884533d43651p-2; /* 1/√(2π) */

const char *input_dist_name(input_dist d) { return d == DIST_NORMAL ? "normal" : "uniform"; }

/* The binary32 neighbours of a finite non-zero x towards −inf and +inf, as nextafterf gives
 * them (from the encoding: one step away from zero or towards it; past FLT_MAX, ±inf). */
static void neighbours(float x, float *down, float *up)
{
    uint32_t u, away, toward;
    memcpy(&u, &x, sizeof u);
    away = u + 1;
    toward = u - 1; /* the smallest subnormal's is the zero of its sign */
    bool negative = u >> 31;
    memcpy(down, negative ? &away : &toward, sizeof *down);
    memcpy(up, negative ? &toward : &away, sizeof *up);
}

/* The rounding interval [*a, *b] of a finite x. */
static void rounding_interval(float x, double *a, double *b)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffffffu) == 0) {
        *a = u ? -0x1p-150 : 0;
        *b = u ? 0 : 0x1p-150;
        return;
    }
    float down, up;
    neighbours(x, &down, &up);
    /* past the largest finite value: the overflow threshold, 2^128 − 2^103 */
    *a = isinf(down) ? -0x1.ffffffp127 : 0.5 * ((double)x + (double)down);
    *b = isinf(up) ? 0x1.ffffffp127 : 0.5 * ((double)x + (double)up);
}

/* e^-s by its series to s³, for s < 2^-17 (the next term below 2^-72). */
static inline double exp_neg_series(double s) { return 1 - s * (1 - s * (0.5 - s / 6)); }

/* φ(t) for t with at most 26 significant bits (t² exact). Below 2^-8: exp_neg_series; above,
 * e^-s as glibc 2.36's exp gives it (exp_inline.h, libm past its domain). */
static double phi(double t)
{
    double s = 0.5 * (t * t);
    double e = s < 0x1p-17 ? exp_neg_series(s) : exp_of(-s);
    return INV_SQRT_2PI * e;
}

/* phi at n points t[] into out[]: exp_inline in a loop that vectorizes (both forms at every
 * point, one kept), libm after it at the points past its domain (|t| ≥ 32). */
HOT_CLONES static void phi_block(const double *restrict t, double *restrict out, size_t n)
{
    int64_t rest = 0;
    for (size_t j = 0; j < n; j++) {
        double s = 0.5 * (t[j] * t[j]);
        int64_t series = s < 0x1p-17, in = exp_inline_in(-s);
        double e = series ? exp_neg_series(s) : exp_inline(-s);
        out[j] = INV_SQRT_2PI * e;
        rest |= (series ^ 1) & (in ^ 1);
    }
    for (size_t j = 0; rest && j < n; j++) {
        double s = 0.5 * (t[j] * t[j]);
        if (!(s < 0x1p-17) && !exp_inline_in(-s)) out[j] = INV_SQRT_2PI * exp(-s);
    }
}

/* φ at the ends of the previous rounding intervals: consecutive encodings share an end (the
 * block's inputs mostly are), so that each input evaluates φ at its midpoint and one new end
 * only. The same function at the same argument: the same bits. */
typedef struct {
    double t[2], v[2];
    unsigned next;
} phi_cache;

static double phi_at(phi_cache *c, double t)
{
    if (c) {
        if (t == c->t[0]) return c->v[0];
        if (t == c->t[1]) return c->v[1];
    }
    double v = phi(t);
    if (c) {
        c->t[c->next] = t;
        c->v[c->next] = v;
        c->next ^= 1;
    }
    return v;
}

static double normal_mass_in(float x, double a, double b, phi_cache *c)
{
    if (!(fabsf(x) < 39.0f)) return 0;
    double pa = phi_at(c, a), pb = phi_at(c, b);
    return (b - a) / 6 * (pa + 4 * phi(0.5 * (a + b)) + pb);
}

static double uniform_mass_in(float x, double a, double b)
{
    if (!(fabsf(x) <= 10.0f)) return 0;
    double lo = a > -10 ? a : -10, hi = b < 10 ? b : 10;
    return hi > lo ? (hi - lo) / 20 : 0;
}

double dist_weight(input_dist d, float x)
{
    if (!isfinite(x)) return 0;
    double a, b;
    rounding_interval(x, &a, &b);
    return d == DIST_NORMAL ? normal_mass_in(x, a, b, NULL) : uniform_mass_in(x, a, b);
}

/* dist_weights for n inputs that all have 0 < |x| < 2^-8, without branches or calls (a loop
 * the clones vectorize): there every end and midpoint t of a rounding interval has |t| < 2^-8,
 * so s = t²/2 < 2^-17 and φ takes the series; rounding_interval, normal_mass_in (φ at the same
 * arguments: the cache changes no value) and uniform_mass_in (inside [−10, 10]) with the same
 * operations. False, and nothing written, when some input is outside. */
HOT_CLONES static bool dist_weights_tiny(const float *x, size_t n, double *w_normal,
                                          double *w_uniform, const input_span *span)
{
    if (!input_span_inside(span, 1, 0x3b800000u)) return false; /* 2^-8 */
    for (size_t j = 0; j < n; j++) {
        uint32_t u, away, toward, dn, up;
        memcpy(&u, &x[j], sizeof u);
        away = u + 1;
        toward = u - 1;
        dn = u >> 31 ? away : toward; /* neighbours() */
        up = u >> 31 ? toward : away;
        float fd, fu;
        memcpy(&fd, &dn, sizeof fd);
        memcpy(&fu, &up, sizeof fu);
        double a = 0.5 * ((double)x[j] + (double)fd), b = 0.5 * ((double)x[j] + (double)fu);
        double m = 0.5 * (a + b), sa = 0.5 * (a * a), sb = 0.5 * (b * b), sm = 0.5 * (m * m);
        double pa = INV_SQRT_2PI * exp_neg_series(sa), pb = INV_SQRT_2PI * exp_neg_series(sb);
        double pm = INV_SQRT_2PI * exp_neg_series(sm);
        w_normal[j] = (b - a) / 6 * (pa + 4 * pm + pb);
        double q = (b - a) / 20;
        w_uniform[j] = b > a ? q : 0;
    }
    return true;
}

/* dist_weights_tiny where every input has 0 < |x| < 2^-27: there every end and midpoint t has
 * s = t²/2 ≤ 2^-54, where exp_neg_series(s) is 1 exactly (1 − s·(1 − …) rounds to 1), so φ is
 * INV_SQRT_2PI at all three and the normal weight is (b − a)/6 times their sum, one constant
 * formed by the same operations. The quotients (b − a)/6 and /20 as products by the rounded
 * reciprocals where b − a is a power of two (its rounding intervals but at the powers of two:
 * scaling by a power of two commutes with rounding, all normal doubles here), and as the
 * divisions at the other points, a second loop over the few. The same bits; divisions at every point
 * cost a fifth of a one-implementation shard below 2^-30. False, nothing written, when some input is
 * outside. */
HOT_CLONES static bool dist_weights_flat(const float *x, size_t n, double *w_normal,
                                          double *w_uniform, const input_span *span)
{
    if (!input_span_inside(span, 1, 0x32000000u)) return false; /* 2^-27 */
    const double p = INV_SQRT_2PI * 1.0, sum = p + 4 * p + p; /* (pa + 4·pm + pb) */
    const double r6 = 1.0 / 6, r20 = 1.0 / 20;
    uint64_t others = 0;
    for (size_t j = 0; j < n; j++) {
        uint32_t u = float_bits(x[j]), away = u + 1, toward = u - 1;
        float fd = float_from_bits(u >> 31 ? away : toward), fu = float_from_bits(u >> 31 ? toward : away);
        double a = 0.5 * ((double)x[j] + (double)fd), b = 0.5 * ((double)x[j] + (double)fu);
        double q = b - a; /* > 0 */
        others += (double_bits(q) & 0xfffffffffffffull) != 0;
        w_normal[j] = q * r6 * sum;
        w_uniform[j] = q * r20;
    }
    for (size_t j = 0; others && j < n; j++) {
        double a, b;
        rounding_interval(x[j], &a, &b);
        double q = b - a;
        if ((double_bits(q) & 0xfffffffffffffull) == 0) continue;
        others--;
        w_normal[j] = q / 6 * sum;
        w_uniform[j] = q / 20;
    }
    return true;
}

/* Whether every input has |x| ≥ 39 or is NaN (dist_weights' test on the encodings: NaN's above
 * 39's): the tails, half of all encodings. */
static bool dist_weights_none(const input_span *span)
{
    return span->abs_lo >= 0x421c0000u; /* 39 */
}

/* dist_weights for n ≤ DIST_BLOCK inputs that are all finite, not ±0 and inside ±39 (the
 * core), a block at a time: the rounding intervals and midpoints as loops that vectorize, φ at
 * the lower ends in one (phi_block: glibc 2.36's exp inline), at an upper end the value of the
 * neighbour's lower end it equals (φ elsewhere: φ is a function, so where it is evaluated
 * changes no bit), at the midpoints e_half's where they are the input, then normal_mass_in's and
 * uniform_mass_in's formulas, the same operations. False, and nothing written, when some input
 * is outside. */
enum { DIST_BLOCK = 4096 };
HOT_CLONES static bool dist_weights_core(const float *x, size_t n, double *w_normal,
                                          double *w_uniform, const double *e_half,
                                          const input_span *span)
{
    if (n > DIST_BLOCK || !input_span_inside(span, 1, 0x421c0000u)) return false; /* 39 */
    static _Thread_local double a[DIST_BLOCK], b[DIST_BLOCK], pa[DIST_BLOCK], pb[DIST_BLOCK],
        pm[DIST_BLOCK];
    for (size_t j = 0; j < n; j++) { /* rounding_interval (|x| < 39: no infinite neighbour) */
        uint32_t u = float_bits(x[j]), away = u + 1, toward = u - 1;
        float fd = float_from_bits(u >> 31 ? away : toward), fu = float_from_bits(u >> 31 ? toward : away);
        a[j] = 0.5 * ((double)x[j] + (double)fd);
        b[j] = 0.5 * ((double)x[j] + (double)fu);
    }
    phi_block(a, pa, n); /* (a vector loop) */
    for (size_t j = 0; j < n; j++) { /* b shared with a neighbour's a: upwards or downwards */
        bool next = j + 1 < n && b[j] == a[j + 1], prev = j > 0 && b[j] == a[j - 1];
        pb[j] = next ? pa[j + 1] : prev ? pa[j - 1] : phi(b[j]);
    }
    if (e_half)
        for (size_t j = 0; j < n; j++) { /* φ at the midpoint: the input itself but at the
                                          * powers of two, where e_half holds its exp */
            double m = 0.5 * (a[j] + b[j]);
            pm[j] = m == (double)x[j] ? INV_SQRT_2PI * e_half[j] : phi(m);
        }
    else {
        static _Thread_local double mid[DIST_BLOCK];
        for (size_t j = 0; j < n; j++) mid[j] = 0.5 * (a[j] + b[j]);
        phi_block(mid, pm, n);
    }
    for (size_t j = 0; j < n; j++) {
        w_normal[j] = (b[j] - a[j]) / 6 * (pa[j] + 4 * pm[j] + pb[j]);
        double lo = a[j] > -10 ? a[j] : -10, hi = b[j] < 10 ? b[j] : 10;
        double q = hi > lo ? (hi - lo) / 20 : 0;
        w_uniform[j] = fabsf(x[j]) <= 10.0f ? q : 0;
    }
    return true;
}

/* exp(−x²/2) at x[0 .. n): exp_inline in a loop that vectorizes, libm past its domain. */
HOT_CLONES static void exp_half_fill(const float *restrict x, size_t n, double *restrict e_half)
{
    int64_t rest = 0;
    for (size_t j = 0; j < n; j++) {
        double t = x[j], s = 0.5 * (t * t); /* phi's operations */
        e_half[j] = exp_inline(-s);
        rest |= exp_inline_in(-s) ^ 1;
    }
    for (size_t j = 0; rest && j < n; j++) {
        double t = x[j], s = 0.5 * (t * t);
        if (!exp_inline_in(-s)) e_half[j] = exp(-s);
    }
}

bool dist_exp_half(const float *x, size_t n, double *e_half, const input_span *span)
{
    if (n == 0) return false;
    input_span own;
    if (!span) {
        input_span_of(x, n, &own);
        span = &own;
    }
    if (!input_span_inside(span, 0x3b800000u, 0x421c0000u)) return false; /* 2^-8, 39 */
    exp_half_fill(x, n, e_half);
    return true;
}

bool dist_weights(const float *x, size_t n, double *w_normal, double *w_uniform,
                  const double *e_half, const input_span *span)
{
    input_span own;
    if (!span) {
        input_span_of(x, n, &own);
        span = &own;
    }
    if (dist_weights_none(span)) return false; /* (zeros written would cost more than the test) */
    if (dist_weights_flat(x, n, w_normal, w_uniform, span)) return true;
    if (dist_weights_tiny(x, n, w_normal, w_uniform, span)) return true;
    if (dist_weights_core(x, n, w_normal, w_uniform, e_half, span)) return true;
    phi_cache c = {{NAN, NAN}, {0, 0}, 0};
    for (size_t j = 0; j < n; j++) {
        if (!(fabsf(x[j]) < 39.0f)) { /* no mass under either distribution (nor ±inf, NaN) */
            w_normal[j] = w_uniform[j] = 0;
            continue;
        }
        double a, b;
        rounding_interval(x[j], &a, &b);
        w_normal[j] = normal_mass_in(x[j], a, b, &c);
        w_uniform[j] = uniform_mass_in(x[j], a, b);
    }
    return true;
}
