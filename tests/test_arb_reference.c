/* A second, independent reference: Arb's ball arithmetic evaluates each GELU target and its
 * derivative from its own formulas (below), rounds to binary32 by its own rules, and must give
 * the MPFR reference's value (reference/reference.c) by encoding, on 10^5 stratified inputs per
 * target and direction: every binade of both signs, subnormals, each target's x_min, the
 * underflow and trivial thresholds, and tiny inputs where x/2 of an odd subnormal is a rounding
 * midpoint. The precision doubles from 96 bits until both ends of the ball round to the same
 * binary32 value (Ziv), up to 8192 bits.
 *
 * Formulas, written without cancellation (1 + tanh u = 2σ(2u), 1 − tanh² u = 4σ(2u)σ(−2u)):
 *   exact    f = x·erfc(−x/√2)/2          f' = erfc(−x/√2)/2 + x·exp(−x²/2)/√(2π)
 *   tanh     f = x·σ(2u), u = √(2/π)(x + 0.044715x³)
 *            f' = σ(2u) + 2x·σ(2u)σ(−2u)·√(2/π)(1 + 3·0.044715x²)
 *   sigmoid  f = x·σ(1.702x)               f' = σ(1.702x) + 1.702x·σ(1.702x)σ(−1.702x)
 * with σ(z) = 1/(1 + exp(−z)). Zeros, infinities and NaN are defined values, not computed, and
 * are left out. */
#include <arb_hypgeom.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "contract.h"
#include "reference.h"
#include "sample.h"

enum { ARB_N = 100000, START_PREC = 96, MAX_PREC = 8192 };

/* σ(z) and σ(−z) into s and sm. */
static void sigmoid_pair(arb_t s, arb_t sm, const arb_t z, slong prec)
{
    arb_t e;
    arb_init(e);
    arb_neg(e, z);
    arb_exp(e, e, prec); /* exp(−z) */
    arb_add_ui(s, e, 1, prec);
    arb_inv(s, s, prec);       /* 1/(1 + exp(−z)) */
    arb_mul(sm, s, e, prec);   /* exp(−z)/(1 + exp(−z)) = σ(−z) */
    arb_clear(e);
}

static void eval(arb_t out, gelu_target t, bool grad, const arb_t x, slong prec)
{
    arb_t a, b, c, s, sm;
    arb_init(a);
    arb_init(b);
    arb_init(c);
    arb_init(s);
    arb_init(sm);
    switch (t) {
    case GELU_TARGET_EXACT:
        arb_sqrt_ui(a, 2, prec);
        arb_div(a, x, a, prec);
        arb_neg(a, a);
        arb_hypgeom_erfc(b, a, prec);
        arb_mul_2exp_si(b, b, -1); /* Φ(x) */
        if (!grad) {
            arb_mul(out, b, x, prec);
        } else {
            arb_sqr(a, x, prec);
            arb_mul_2exp_si(a, a, -1);
            arb_neg(a, a);
            arb_exp(a, a, prec);
            arb_const_pi(c, prec);
            arb_mul_2exp_si(c, c, 1);
            arb_rsqrt(c, c, prec);
            arb_mul(a, a, c, prec);
            arb_mul(a, a, x, prec); /* x·φ(x) */
            arb_add(out, b, a, prec);
        }
        break;
    case GELU_TARGET_TANH:
        arb_const_pi(c, prec);
        arb_ui_div(c, 2, c, prec);
        arb_sqrt(c, c, prec); /* √(2/π) */
        arb_set_ui(a, 44715);
        arb_div_ui(a, a, 1000000, prec); /* 0.044715 */
        arb_sqr(b, x, prec);
        arb_mul(b, b, a, prec);
        arb_add_ui(b, b, 1, prec);
        arb_mul(b, b, x, prec);
        arb_mul(b, b, c, prec); /* u */
        arb_mul_2exp_si(b, b, 1);
        sigmoid_pair(s, sm, b, prec);
        if (!grad) {
            arb_mul(out, s, x, prec);
        } else {
            arb_sqr(b, x, prec);
            arb_mul(b, b, a, prec);
            arb_mul_ui(b, b, 3, prec);
            arb_add_ui(b, b, 1, prec);
            arb_mul(b, b, c, prec); /* u' */
            arb_mul(b, b, s, prec);
            arb_mul(b, b, sm, prec);
            arb_mul(b, b, x, prec);
            arb_mul_2exp_si(b, b, 1);
            arb_add(out, s, b, prec);
        }
        break;
    default: /* sigmoid */
        arb_set_ui(a, 1702);
        arb_div_ui(a, a, 1000, prec);
        arb_mul(a, a, x, prec); /* 1.702x */
        sigmoid_pair(s, sm, a, prec);
        if (!grad) {
            arb_mul(out, s, x, prec);
        } else {
            arb_mul(b, a, s, prec);
            arb_mul(b, b, sm, prec);
            arb_add(out, s, b, prec);
        }
        break;
    }
    arb_clear(a);
    arb_clear(b);
    arb_clear(c);
    arb_clear(s);
    arb_clear(sm);
}

/* v rounded to nearest binary32, ties to even, gradual underflow (below 2^-126, to the nearest
 * multiple of 2^-149), the sign of a zero kept; ±inf above the largest finite value. */
static float round_binary32(const arf_t v)
{
    if (arf_is_zero(v)) return 0.0f;
    int neg = arf_sgn(v) < 0;
    slong e = fmpz_get_si(ARF_EXPREF(v)); /* |v| in [2^(e−1), 2^e) */
    arf_t q;
    arf_init(q);
    arf_abs(q, v);
    float r;
    if (e > 129) {
        r = INFINITY;
    } else if (e - 1 >= -126) { /* normal: 24 bits */
        arf_set_round(q, q, 24, ARF_RND_NEAR);
        double d = arf_get_d(q, ARF_RND_NEAR); /* exact: 24 bits, below 2^130 */
        r = d > 0x1.fffffep127 ? INFINITY : (float)d;
    } else { /* subnormal: the nearest integer count of 2^-149, ties to even */
        fmpz_t n;
        fmpz_init(n);
        arf_mul_2exp_si(q, q, 149);
        arf_get_fmpz(n, q, ARF_RND_NEAR);
        r = ldexpf((float)fmpz_get_si(n), -149); /* n <= 2^23: exact */
        fmpz_clear(n);
    }
    arf_clear(q);
    return neg ? -r : r;
}

/* The correctly rounded value from Arb; false when MAX_PREC does not decide it. */
static bool arb_round(gelu_target t, bool grad, float x, float *out)
{
    arb_t xa, v;
    arf_t lo, hi;
    arb_init(xa);
    arb_init(v);
    arf_init(lo);
    arf_init(hi);
    arb_set_d(xa, x);
    bool decided = false;
    for (slong prec = START_PREC; prec <= MAX_PREC && !decided; prec *= 2) {
        eval(v, t, grad, xa, prec);
        if (!arb_is_finite(v)) continue;
        arb_get_lbound_arf(lo, v, prec);
        arb_get_ubound_arf(hi, v, prec);
        float a = round_binary32(lo), b = round_binary32(hi);
        if (a == 0 && b == 0 && arf_cmpabs_2exp_si(lo, -151) < 0 && arf_cmpabs_2exp_si(hi, -151) < 0) {
            /* a ball inside (−2^-151, 2^-151) that holds 0 (erfc of a huge argument): the value
             * rounds to a zero whose sign is the function's, which is x's wherever it is that
             * small (f = x·(a positive factor); f' is that small only far below x_min) */
            a = b = x < 0 ? -0.0f : 0.0f;
        }
        /* a ball across 0 is decided only if both ends give the same signed value */
        decided = float_bits(a) == float_bits(b);
        *out = a;
    }
    arb_clear(xa);
    arb_clear(v);
    arf_clear(lo);
    arf_clear(hi);
    return decided;
}

static size_t centers(gelu_target t, float *c)
{
    size_t n = 0;
    double xm = ref_x_min_d(t);
    c[n++] = (float)xm;
    c[n++] = nextafterf((float)xm, -INFINITY);
    const float fixed[] = {
        -13.1462f, -14.3561f, /* exact GELU: below FLT_MIN, rounds to −0 */
        5.4f, 9.0f, -9.0f,    /* trivial regions begin (x itself, 1, −0) */
        0x1p-149f, -0x1p-149f, 0x1p-126f, -0x1p-126f, /* subnormals: x/2 of an odd one is a midpoint */
        0x1p-8f, -0x1p-8f, 3.0f, -3.0f, 1.0f, -1.0f,
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) c[n++] = fixed[i];
    return n;
}

static void agree(gelu_target t, bool grad)
{
    float c[32], *x = malloc(ARB_N * sizeof *x);
    size_t nc = centers(t, c), compared = 0, undecided = 0;
    sample_stratified(7000 + 2 * (uint64_t)t + grad, c, nc, x, ARB_N);
    for (size_t i = 0; i < ARB_N; i++) {
        if (x[i] == 0 || !isfinite(x[i])) continue;
        float want = ref_round(t, grad, x[i]), got;
        if (!arb_round(t, grad, x[i], &got)) {
            undecided++;
            cr_expect(false, "%s%s(%a): Arb undecided at %d bits", gelu_target_name(t),
                      grad ? "'" : "", (double)x[i], MAX_PREC);
            continue;
        }
        compared++;
        cr_expect(float_bits(got) == float_bits(want),
                  "%s%s(%a = 0x%08x): Arb %a (0x%08x), MPFR %a (0x%08x)", gelu_target_name(t),
                  grad ? "'" : "", (double)x[i], float_bits(x[i]), (double)got, float_bits(got),
                  (double)want, float_bits(want));
    }
    cr_expect_gt(compared, ARB_N * 9 / 10, "%zu of %d compared", compared, ARB_N);
    free(x);
    flint_cleanup();
}

Test(arb, exact_forward, .timeout = 300) { agree(GELU_TARGET_EXACT, false); }
Test(arb, exact_derivative, .timeout = 300) { agree(GELU_TARGET_EXACT, true); }
Test(arb, tanh_forward, .timeout = 300) { agree(GELU_TARGET_TANH, false); }
Test(arb, tanh_derivative, .timeout = 300) { agree(GELU_TARGET_TANH, true); }
Test(arb, sigmoid_forward, .timeout = 300) { agree(GELU_TARGET_SIGMOID, false); }
Test(arb, sigmoid_derivative, .timeout = 300) { agree(GELU_TARGET_SIGMOID, true); }

/* The rounding rules themselves, on values whose binary32 rounding is known by hand. */
Test(arb, rounding_to_binary32)
{
    static const struct {
        double v;
        float want;
    } cases[] = {
        {1.0, 1.0f},
        {1.0 + 0x1p-24, 1.0f},                   /* tie: to even */
        {1.0 + 0x1p-24 + 0x1p-40, 0x1.000002p0f}, /* above the tie */
        {1.0 + 3 * 0x1p-24, 0x1.000004p0f},      /* tie: to even (up) */
        {0x1p-150, 0.0f},                        /* tie between 0 and 2^-149: 0 */
        {0x1.0000001p-150, 0x1p-149f},
        {-0x1p-151, -0.0f},
        {0x1.8p-149, 0x1p-148f},                 /* subnormal tie: to even */
        {0x1.fffffefp127, 0x1.fffffep127f},
        {0x1.ffffffp127, INFINITY},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        arf_t a;
        arf_init(a);
        arf_set_d(a, cases[i].v);
        float got = round_binary32(a);
        cr_expect(float_bits(got) == float_bits(cases[i].want), "%a: got %a, want %a", cases[i].v,
                  (double)got, (double)cases[i].want);
        arf_clear(a);
    }
    flint_cleanup();
}
