/* The fast reference (see fast.h): double-precision enclosures, their arithmetic and error
 * analysis in fast_eval.h (shared with the block path, fast_vec.c), the libm calls here. */
#include "fast.h"

#include "targets.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "erf_small.h"
#include "exp_inline.h"
#include "fast_eval.h"
#include "hot_clones.h"

static void set(enclosure *e, double hi, double lo, double err)
{
    e->hi = hi;
    e->lo = lo;
    e->err = err;
}

static void micro(const target_def *t, bool grad, double x, enclosure *e)
{
    micro_enclose(t->s_prime_0, grad, x, &e->hi, &e->lo, &e->err);
}

/* erfc, erf and exp: erf_small.h's and exp_inline.h's where they hold (the block path's
 * values), libm's elsewhere. */
static double erfc_of(double z) { return erfc_small_in(z) ? erfc_small(z) : erfc(z); }
static double erf_of(double z) { return erf_small_in(z) ? erf_small(z) : erf(z); }

/* The target table's enclosures (targets.c): fast_eval.h's arithmetic on libm's values. */
void fast_exact_enclose(const target_def *t, bool grad, double x, enclosure *e)
{
    (void)t;
    double erfc_z = erfc_of(exact_erfc_arg(x)), ex = grad ? exp_of(exact_exp_arg(x)) : 0;
    exact_enclose(grad, x, erfc_z, ex, &e->hi, &e->lo, &e->err);
}

void fast_tanh_enclose(const target_def *target, bool grad, double x, enclosure *e)
{
    (void)target;
    double t = tanh_t(x);
    tanh_enclose(grad, x, t, exp(-t), grad ? exp(t) : 0, &e->hi, &e->lo, &e->err);
}

void fast_sigmoid_enclose(const target_def *target, bool grad, double x, enclosure *e)
{
    double t = target->slope * x;
    sigmoid_enclose(target->slope, grad, x, exp(-t), grad ? exp(t) : 0, &e->hi, &e->lo, &e->err);
}

/* Forward for |x| < 2^-8: f = x/2 + x·g/2 (fast_eval.h's tiny_enclose), g from libm. */
double fast_exact_tiny_g(const target_def *t, double x)
{
    (void)t;
    return erf_of(exact_erf_arg(x));
}

double fast_tanh_tiny_g(const target_def *t, double x)
{
    (void)t;
    return tanh(tanh_tiny_arg(x));
}

double fast_sigmoid_tiny_g(const target_def *t, double x) { return tanh(sigmoid_tiny_arg(t->slope, x)); }

static void forward_tiny(const target_def *t, double x, enclosure *e)
{
    tiny_enclose(x, t->tiny_g(t, x), &e->hi, &e->lo, &e->err);
}

/* The definitions at NaN, ±inf, ±0 and ReLU everywhere; false for other inputs. */
static bool defined_value(gelu_target t, bool grad, float x, enclosure *e)
{
    float r;
    if (!ref_defined_value(t, grad, x, &r)) return false;
    set(e, r, 0, 0);
    return true;
}

void fast_enclose(gelu_target target, bool grad, float xf, enclosure *e)
{
    if (defined_value(target, grad, xf, e)) return;
    const target_def *t = target_def_of(target);
    double x = xf;
    if (x >= t->upper) {
        /* f just below x; f' just above 1: lo carries the side for the binade of the ULP. */
        if (grad) set(e, 1.0, DBL_TRUE_MIN, 0);
        else set(e, x, -DBL_TRUE_MIN, 0);
        return;
    }
    if (x <= t->lower) {
        set(e, NEG_TINY, 0, 0);
        return;
    }
    if (fabs(x) < MICRO) {
        micro(t, grad, x, e);
        return;
    }
    if (!grad && fabs(x) < TINY) {
        forward_tiny(t, x, e);
        return;
    }
    t->enclose(t, grad, x, e);
}

bool enclosure_round(const enclosure *e, float *cr)
{
    if (isnan(e->hi) || isinf(e->hi)) {
        *cr = (float)e->hi;
        return e->err == 0;
    }
    double r;
    bool decided = fe_round_finite(e->hi, e->lo, e->err, &r);
    *cr = (float)r;
    return decided;
}

bool fast_ref_decide(gelu_target t, bool grad, float x, ref_value *out, double *inv_ulp)
{
    enclosure e;
    fast_enclose(t, grad, x, &e);
    float cr;
    *inv_ulp = ref_inv_ulp(e.hi, e.lo);
    /* Decided, and the ULP error of any output known to 1e-3 ULP. */
    if (!enclosure_round(&e, &cr) || e.err * *inv_ulp > 1e-3) return false;
    out->hi = e.hi;
    out->lo = e.lo;
    out->cr = cr;
    return true;
}

void fast_ref_fallback(gelu_target t, bool grad, float x, ref_value *out, double *inv_ulp)
{
    ref_eval_value(t, grad, x, out);
    *inv_ulp = ref_inv_ulp(out->hi, out->lo);
}

bool fast_ref_value(gelu_target t, bool grad, float x, ref_value *out, double *inv_ulp)
{
    if (fast_ref_decide(t, grad, x, out, inv_ulp)) return false;
    fast_ref_fallback(t, grad, x, out, inv_ulp);
    return true;
}

/* The binary32 value of an order key (fast_ref_block; −0 comes back as +0). */
static float float_of_key(int32_t k)
{
    uint32_t b = k < 0 ? (uint32_t)-k | 0x80000000u : (uint32_t)k;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* fast_ref_block's loops, one per region and direction (no loop-invariant selection left in
 * them, the arrays distinct: loops the compiler vectorizes, inlined into its clones). */
#define BLOCK_ARRAYS                                                                              \
    double *restrict hi, double *restrict lo, float *restrict cr, double *restrict inv_ulp,       \
        double *restrict err

static inline void block_upper_f(const float *restrict x, size_t n, BLOCK_ARRAYS)
{
    for (size_t j = 0; j < n; j++) { /* f just below x */
        hi[j] = x[j];
        lo[j] = -DBL_TRUE_MIN;
        cr[j] = x[j];
        inv_ulp[j] = ref_inv_ulp(x[j], -DBL_TRUE_MIN);
        err[j] = 0;
    }
}

static inline void block_upper_d(size_t n, BLOCK_ARRAYS)
{
    double iu = ref_inv_ulp(1.0, DBL_TRUE_MIN);
    for (size_t j = 0; j < n; j++) { /* f' just above 1 */
        hi[j] = 1.0;
        lo[j] = DBL_TRUE_MIN;
        cr[j] = 1.0f;
        inv_ulp[j] = iu;
        err[j] = 0;
    }
}

static inline void block_lower(size_t n, BLOCK_ARRAYS)
{
    double iu = ref_inv_ulp(NEG_TINY, 0);
    for (size_t j = 0; j < n; j++) {
        hi[j] = NEG_TINY;
        lo[j] = 0;
        cr[j] = -0.0f;
        inv_ulp[j] = iu;
        err[j] = 0;
    }
}

/* grad a constant at each call (inlined): no selection left in the loop */
static inline void block_micro(bool grad, double a, const float *restrict x, size_t n, BLOCK_ARRAYS)
{
    for (size_t j = 0; j < n; j++) {
        double h, l, e;
        micro_enclose(a, grad, x[j], &h, &l, &e);
        hi[j] = h;
        lo[j] = l;
        cr[j] = (float)h;
        inv_ulp[j] = ref_inv_ulp(h, l);
        err[j] = e;
    }
}

/* Whole blocks inside one region where fast_ref_decide needs no evaluation, filled by loops
 * without calls (the scan's blocks of consecutive encodings mostly lie in one): the values are
 * those fast_ref_decide gives point by point (tests/test_fast_reference.c compares them), none
 * of them a fallback:
 *   ReLU: the definitions, hi = r, lo = 0, decided as r;
 *   x ≥ the upper threshold: f as x − ε (f' as 1 + ε), decided as x (1);
 *   x ≤ the lower threshold: the stand-in NEG_TINY, decided as −0;
 *   2^-125 ≤ |x| < 2^-30 (micro): hi = x/2 (1/2) is a normal binary32 value and |lo| + err is
 *     below 2^-29 of it, far inside half an ULP (2^-25 of it): decided as hi, with err·2^e
 *     below 2^-26. */
HOT_CLONES bool fast_ref_block(gelu_target target, bool grad, const float *x, size_t n,
                               const ref_arrays *out, const input_span *span)
{
    const target_def *t = target_def_of(target);
    double *hi = out->hi, *lo = out->lo, *inv_ulp = out->inv_ulp, *err = out->err;
    float *cr = out->cr;
    if (t->defined) { /* the definitions, NaN inputs then as the point path makes them (quiet) */
        t->defined_block(grad, x, n, cr);
        for (size_t j = 0; j < n; j++) {
            hi[j] = cr[j];
            lo[j] = 0;
            inv_ulp[j] = ref_inv_ulp(cr[j], 0);
            err[j] = 0;
        }
        uint32_t any_nan = 0; /* integer compares first, a loop that vectorizes: the point
                               * test alone was a third of this function for ReLU (perf) */
        for (size_t j = 0; j < n; j++) any_nan |= (float_bits(x[j]) & 0x7fffffffu) > 0x7f800000u;
        for (size_t j = 0; any_nan && j < n; j++)
            if (isnan(x[j])) {
                ref_value v;
                fast_ref_decide(target, grad, x[j], &v, &inv_ulp[j]);
                ref_arrays_set(out, j, v);
                err[j] = 0; /* a definition */
            }
        return true;
    }
    if (n == 0) return false;
    input_span own;
    if (!span) {
        input_span_of(x, n, &own);
        span = &own;
    }
    if (span->special) return false;
    /* no NaN, inf or zero: keys and magnitudes are those of finite non-zero values */
    float lo_x = float_of_key(span->key_lo), hi_x = float_of_key(span->key_hi);
    float lo_abs = float_of_key((int32_t)span->abs_lo), hi_abs = float_of_key((int32_t)span->abs_hi);
    if (lo_x >= t->upper) {
        if (grad) block_upper_d(n, hi, lo, cr, inv_ulp, err);
        else block_upper_f(x, n, hi, lo, cr, inv_ulp, err);
        return true;
    }
    if (hi_x <= t->lower) {
        block_lower(n, hi, lo, cr, inv_ulp, err);
        return true;
    }
    if (lo_abs >= 0x1p-125f && hi_abs < MICRO) {
        if (grad) block_micro(true, t->s_prime_0, x, n, hi, lo, cr, inv_ulp, err);
        else block_micro(false, t->s_prime_0, x, n, hi, lo, cr, inv_ulp, err);
        return true;
    }
    return false;
}
