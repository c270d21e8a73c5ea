/* cr_tanh and cr_sigmoid (impls/cr_sigma.h), every build: correctly rounded, by encoding, at the
 * inputs where their paths meet — the accurate path's hard cases (impls/cr_sigma_hard_cases.h),
 * every float within 2^-9 of x_min (the derivative's zero, where the fast path's rounding test
 * fails most), both sides of the clamp u_max, of the targets' thresholds and of the tiny cut
 * 2^-60, subnormal inputs, and the special values. The exhaustive gate proves every input; this
 * is its quick stand-in where a change to the paths would break first. A planted wrong value at
 * one of these inputs is caught and named. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "cr_sigma_hard_cases.h"
#include "float_bits.h"
#include "gelu_impl.h"
#include "reference.h"

enum { MAX_INPUTS = 1 << 18 };

typedef struct {
    const char *method;
    gelu_target target;
    double x_min, u_max, upper, lower; /* x_min ≈ the derivative's zero; targets.c's thresholds */
    const uint32_t *hard[2];
    size_t nhard[2];
} form_case;

static const form_case forms[] = {
    {"cr_tanh", GELU_TARGET_TANH, -0.7524614, 11, 10, -11,
     {cr_tanh_hard_fwd_x, cr_tanh_hard_der_x}, {CR_TANH_HARD_FWD_N, CR_TANH_HARD_DER_N}},
    {"cr_sigmoid", GELU_TARGET_SIGMOID, -0.7511543, 72, 32, -72,
     {cr_sigmoid_hard_fwd_x, cr_sigmoid_hard_der_x},
     {CR_SIGMOID_HARD_FWD_N, CR_SIGMOID_HARD_DER_N}},
};

static size_t add_around(float *x, size_t n, double at, int count)
{
    float c = (float)at;
    for (int k = 0; k < count && n < MAX_INPUTS; k++) {
        x[n++] = c;
        x[n++] = -c;
        c = nextafterf(c, INFINITY);
    }
    c = (float)at;
    for (int k = 0; k < count && n < MAX_INPUTS; k++) {
        c = nextafterf(c, 0.0f);
        x[n++] = c;
        x[n++] = -c;
    }
    return n;
}

/* The inputs of one form, both signs where it makes sense. */
static size_t form_inputs(const form_case *f, float *x)
{
    size_t n = 0;
    for (int g = 0; g < 2; g++)
        for (size_t i = 0; i < f->nhard[g]; i++) x[n++] = float_from_bits(f->hard[g][i]);
    for (float v = (float)(f->x_min - 0x1p-9); v <= (float)(f->x_min + 0x1p-9);
         v = nextafterf(v, INFINITY))
        x[n++] = v;
    n = add_around(x, n, f->u_max, 64);
    n = add_around(x, n, f->upper, 64);
    n = add_around(x, n, f->lower, 64);
    n = add_around(x, n, 0x1p-60, 64);
    n = add_around(x, n, 0x1p-126, 64); /* the subnormals' top */
    n = add_around(x, n, 0x1p-149, 64); /* and bottom */
    float sp[CONTRACT_SPECIAL_COUNT];
    contract_special_inputs(sp);
    for (size_t i = 0; i < CONTRACT_SPECIAL_COUNT; i++) x[n++] = sp[i];
    return n;
}

/* The first input where y is not the correctly rounded value want, or n. */
static size_t first_wrong(const float *want, const float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!contract_same_value(want[i], y[i])) return i;
    return n;
}

static float *xs, *want[2], *got;

static void setup(void)
{
    xs = malloc(MAX_INPUTS * sizeof *xs);
    got = malloc(MAX_INPUTS * sizeof *got);
    want[0] = malloc(MAX_INPUTS * sizeof *got);
    want[1] = malloc(MAX_INPUTS * sizeof *got);
    cr_assert(xs && got && want[0] && want[1]);
}

static void teardown(void)
{
    free(xs);
    free(got);
    free(want[0]);
    free(want[1]);
}

TestSuite(cr_sigma, .init = setup, .fini = teardown, .timeout = 300);

Test(cr_sigma, correctly_rounded_where_the_paths_meet)
{
    static const char *const isa_suffix[] = {"", "_avx2", "_avx512"};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        size_t n = form_inputs(&forms[f], xs);
        cr_assert_lt(n, (size_t)MAX_INPUTS);
        for (int g = 0; g < 2; g++)
            for (size_t i = 0; i < n; i++) want[g][i] = ref_round(forms[f].target, g, xs[i]);
        for (size_t s = 0; s < 3; s++) {
            char name[64];
            snprintf(name, sizeof name, "%s%s", forms[f].method, isa_suffix[s]);
            const gelu_impl *m = gelu_impl_find(name);
            if (!m || !gelu_impl_available(m)) continue; /* not built, or not this CPU's */
            cr_expect(m->contract.correctly_rounded, "%s claims correct rounding", name);
            for (int g = 0; g < 2; g++) {
                (g ? m->derivative : m->forward)(xs, got, n);
                size_t i = first_wrong(want[g], got, n);
                cr_expect_eq(i, n, "%s %s at x = %a (0x%08x): expected 0x%08x, got 0x%08x", name,
                             g ? "derivative" : "forward", (double)xs[i % n],
                             float_bits(xs[i % n]), float_bits(want[g][i % n]),
                             float_bits(got[i % n]));
            }
        }
    }
}

/* The comparison above catches one wrong value among the inputs, at its input. */
Test(cr_sigma, planted_wrong_value_is_named)
{
    size_t n = form_inputs(&forms[0], xs);
    for (size_t i = 0; i < n; i++) want[0][i] = ref_round(forms[0].target, false, xs[i]);
    gelu_impl_find(forms[0].method)->forward(xs, got, n);
    cr_assert_eq(first_wrong(want[0], got, n), n);
    size_t at = n / 2;
    got[at] = nextafterf(got[at], INFINITY);
    cr_expect_eq(first_wrong(want[0], got, n), at);
}
