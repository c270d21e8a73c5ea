/* The fast reference (see fast.h): double-precision enclosures, their arithmetic and error
 * analysis in fast_eval.h (shared with the block path, fast_vec.c), the libm calls here. */
#include "fast.h"

#include "targets.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fast_eval.h"

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

/* The target table's enclosures (targets.c): fast_eval.h's arithmetic on libm's values. */
void fast_exact_enclose(const target_def *t, bool grad, double x, enclosure *e)
{
    (void)t;
    double erfc_z = erfc(exact_erfc_arg(x)), ex = grad ? exp(exact_exp_arg(x)) : 0;
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
    return erf(exact_erf_arg(x));
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
bool fast_ref_block(gelu_target target, bool grad, const float *x, size_t n, const ref_arrays *out)
{
    const target_def *t = target_def_of(target);
    double *hi = out->hi, *lo = out->lo, *inv_ulp = out->inv_ulp, *err = out->err;
    float *cr = out->cr;
    if (t->defined) {
        for (size_t j = 0; j < n; j++) {
            float r = 0;
            if (isnan(x[j])) { /* NaN encodings as the point path makes them (quiet) */
                ref_value v;
                fast_ref_decide(target, grad, x[j], &v, &inv_ulp[j]);
                ref_arrays_set(out, j, v);
                err[j] = 0; /* a definition */
                continue;
            }
            ref_defined_value(target, grad, x[j], &r);
            hi[j] = r;
            lo[j] = 0;
            cr[j] = r;
            inv_ulp[j] = ref_inv_ulp(r, 0);
            err[j] = 0;
        }
        return true;
    }
    float lo_x = INFINITY, hi_x = -INFINITY, lo_abs = INFINITY, hi_abs = 0;
    uint32_t special = 0; /* NaN, ±inf or ±0 among the inputs */
    for (size_t j = 0; j < n; j++) {
        uint32_t b;
        memcpy(&b, &x[j], sizeof b);
        special |= ((b & 0x7f800000u) == 0x7f800000u) | ((b & 0x7fffffffu) == 0);
        float a = fabsf(x[j]);
        lo_x = x[j] < lo_x ? x[j] : lo_x;
        hi_x = x[j] > hi_x ? x[j] : hi_x;
        lo_abs = a < lo_abs ? a : lo_abs;
        hi_abs = a > hi_abs ? a : hi_abs;
    }
    if (special || n == 0) return false;
    if (lo_x >= t->upper) {
        for (size_t j = 0; j < n; j++) {
            hi[j] = grad ? 1.0 : x[j];
            lo[j] = grad ? DBL_TRUE_MIN : -DBL_TRUE_MIN;
            cr[j] = grad ? 1.0f : x[j];
            inv_ulp[j] = ref_inv_ulp(hi[j], lo[j]);
            err[j] = 0;
        }
        return true;
    }
    if (hi_x <= t->lower) {
        double iu = ref_inv_ulp(NEG_TINY, 0);
        for (size_t j = 0; j < n; j++) {
            hi[j] = NEG_TINY;
            lo[j] = 0;
            cr[j] = -0.0f;
            inv_ulp[j] = iu;
            err[j] = 0;
        }
        return true;
    }
    if (lo_abs >= 0x1p-125f && hi_abs < MICRO) {
        double a = t->s_prime_0;
        for (size_t j = 0; j < n; j++) {
            double h, l, e;
            micro_enclose(a, grad, x[j], &h, &l, &e);
            hi[j] = h;
            lo[j] = l;
            cr[j] = (float)h;
            inv_ulp[j] = ref_inv_ulp(h, l);
            err[j] = e;
        }
        return true;
    }
    return false;
}
