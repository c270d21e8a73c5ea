/* The target table: per target function (impls/gelu_impl.h's GELU_TARGETS, same order) its MPFR
 * evaluation, its fast double enclosure, the thresholds of the regions decided without
 * evaluation, the bracket of its minimum x_min and its constants; each evaluation gives f or,
 * with `grad`, f'. reference.c and fast.c read every per-target fact from here: a new target is
 * a line in GELU_TARGETS, a row here and its math (docs/DESIGN.md, "Targets"). */
#ifndef GELUCHECK_TARGETS_H
#define GELUCHECK_TARGETS_H

#include <stdbool.h>

#include <mpfr.h>

#include "fast.h"
#include "gelu_impl.h"

typedef struct target_def target_def;

/* The forms a target's formula takes, each with its own enclosure and tail asymptotics:
 * x·Φ(x) (erf), ½x(1 + tanh(c(x + a·x³))) (tanh), x·σ(k·x) with the row's slope k (sigmoid),
 * a formula with no rounding (defined). Code that treats targets by form switches over this,
 * every case handled, no default. */
typedef enum {
    TARGET_FAMILY_ERF,
    TARGET_FAMILY_TANH,
    TARGET_FAMILY_SIGMOID,
    TARGET_FAMILY_DEFINED,
} target_family;

struct target_def {
    gelu_target id;
    target_family family;
    /* A target defined everywhere by a formula with no rounding (ReLU): f (grad: f') at x, NaN
     * excepted; NULL for the others, which are evaluated below. */
    double (*defined)(bool grad, double x);
    /* defined at the n inputs x[] as binary32 values into r[] (NaN inputs: anything), in a
     * loop the compiler vectorizes (fast_ref_block); NULL where defined is. */
    void (*defined_block)(bool grad, const float *x, size_t n, float *r);
    /* MPFR: f(x) (grad: f'(x)) at precision p as one or two terms term[], each within
     * 2^-(p-3) relative (reference.c); returns how many. For finite non-zero x. */
    int (*mpfr_terms)(const target_def *t, bool grad, const mpfr_t x, mpfr_prec_t p,
                      mpfr_t term[2]);
    /* The enclosure (fast.c) for 2^-8 ≤ |x| (forward) or 2^-30 ≤ |x| (derivative), inside the
     * thresholds. */
    void (*enclose)(const target_def *t, bool grad, double x, enclosure *e);
    /* For 2^-30 ≤ |x| < 2^-8, forward: g = 2S − 1 for f = x·S (so f = x/2 + x·g/2), within 4u
     * of libm plus the argument's 3u (fast.c). */
    double (*tiny_g)(const target_def *t, double x);
    /* S'(0): f = x/2 + S'(0)·x² + O(x⁴) below 2^-30 (fast.c). */
    double s_prime_0;
    /* x ≥ upper: f rounds to x and f' to 1; x ≤ lower: both to −0, for every binary32 x (the
     * reasons beside each row in targets.c). */
    double upper, lower;
    /* x_min, f's minimum, lies in [xmin_lo, xmin_hi] (f' < 0 at xmin_lo, > 0 at xmin_hi);
     * both 0 for a target without one. */
    double xmin_lo, xmin_hi;
    /* The sigmoid family's slope k in f = x·σ(k·x): the published decimal (MPFR) and its
     * double. */
    const char *slope_decimal;
    double slope;
};

/* The row of target t (t < GELU_TARGET_COUNT). */
const target_def *target_def_of(gelu_target t);

/* The math the rows point to (reference.c, fast.c). */
int ref_exact_terms(const target_def *t, bool grad, const mpfr_t x, mpfr_prec_t p, mpfr_t term[2]);
int ref_tanh_terms(const target_def *t, bool grad, const mpfr_t x, mpfr_prec_t p, mpfr_t term[2]);
int ref_sigmoid_terms(const target_def *t, bool grad, const mpfr_t x, mpfr_prec_t p,
                       mpfr_t term[2]);
void fast_exact_enclose(const target_def *t, bool grad, double x, enclosure *e);
void fast_tanh_enclose(const target_def *t, bool grad, double x, enclosure *e);
void fast_sigmoid_enclose(const target_def *t, bool grad, double x, enclosure *e);
double fast_exact_tiny_g(const target_def *t, double x);
double fast_tanh_tiny_g(const target_def *t, double x);
double fast_sigmoid_tiny_g(const target_def *t, double x);

#endif
