/* The 16-bit scan (scan/scan_small.h) catches what it exists to catch, at the right input: one
 * wrong output, a monotonicity break, a derivative of the wrong sign and a wrong special value,
 * each planted in cr_bfloat16 at one known input; the widened adapter's double rounding at the
 * smallest subnormal (by hand: cr's binary32 GELU(2^-133) is 2^-134 exactly, a bfloat16 tie
 * between 0 and 2^-133 that goes to even, 0, where GELU(2^-133) > 2^-134 rounds up); and a
 * descriptor without kernels of the format is refused. One scan of all bfloat16 inputs. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "float_bits.h"
#include "gelu_cr16.h"
#include "scan_small.h"

static const gelu_impl *cr16(void) { return gelu_impl_find_in("cr_bfloat16", GELU_FORMAT_BFLOAT16); }

/* The planted inputs (bfloat16 encodings) and what they become. */
enum {
    X_ONE = 0x3f80,     /* 1: CR 0x3f57 (0.84134 = 215.38/256), planted 0x3f58 (0.62 ULP off) */
    X_TWO = 0x4000,     /* 2: forward planted one step below the output at 0x3fff: a break */
    X_THREE = 0x4040,   /* 3: derivative planted with its sign flipped */
    X_NEG_INF = 0xff80, /* −inf: forward planted NaN instead of −0 */
};

static void plant_value(const uint16_t *x, uint16_t *y, size_t n)
{
    cr16()->forward_u16(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (x[i] == X_ONE) y[i]++;
}

static void plant_mono(const uint16_t *x, uint16_t *y, size_t n)
{
    cr16()->forward_u16(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (x[i] == X_TWO) {
            uint16_t prev = X_TWO - 1, yp;
            cr16()->forward_u16(&prev, &yp, 1);
            y[i] = yp - 1; /* positive: one step below the previous input's output */
        }
}

static void plant_sign(const uint16_t *x, uint16_t *y, size_t n)
{
    cr16()->derivative_u16(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (x[i] == X_THREE) y[i] ^= 0x8000u;
}

static void plant_special(const uint16_t *x, uint16_t *y, size_t n)
{
    cr16()->forward_u16(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (x[i] == X_NEG_INF) y[i] = 0xffc0u;
}

static gelu_impl planted(void (*fwd)(const uint16_t *, uint16_t *, size_t),
                         void (*der)(const uint16_t *, uint16_t *, size_t), const char *name)
{
    gelu_impl m = *cr16();
    m.name = name;
    if (fwd) m.forward_u16 = fwd;
    if (der) m.derivative_u16 = der;
    return m;
}

static uint32_t bits_of_bf16(uint16_t b) { return (uint32_t)b << 16; }

Test(scan_small, planted_defects_caught_where_planted)
{
    gelu_impl v = planted(plant_value, NULL, "value"), mo = planted(plant_mono, NULL, "mono"),
              s = planted(NULL, plant_sign, "sign"), sp = planted(plant_special, NULL, "special"),
              w = gelu_impl_widened(gelu_impl_find("cr"), GELU_FORMAT_BFLOAT16);
    const gelu_impl *impls[] = {cr16(), &v, &mo, &s, &sp, &w};
    scan_small_config cfg = {.format = GELU_FORMAT_BFLOAT16, .impls = impls, .nimpls = 6,
                             .grad = true, .threads = 2};
    scan_result *r = calloc(1, sizeof *r);
    const char *err = NULL;
    cr_assert_not_null(r);
    cr_assert_eq(scan_small_run(&cfg, r, &err), 0, "%s", err ? err : "");
    cr_assert_eq(r->inputs, 65536u);
    /* the clean row: every output correctly rounded, monotone, signs and specials right */
    for (int d = 0; d < DIR_COUNT; d++)
        cr_expect_eq(r->metrics[0].err[REF_OWN][d].correctly_rounded, 65536u, "direction %d", d);
    cr_expect_eq(r->metrics[0].mono.violations, 0u);
    cr_expect_eq(r->metrics[0].sign.violations, 0u);
    cr_expect_eq(r->extras[0].nspecial_failed[0] + r->extras[0].nspecial_failed[1], 0u);
    char why[512];
    cr_expect_eq(scan_contract_violations(r, 0, why, sizeof why), 0, "%s", why);
    /* the peers' f32 rules judge 16-bit outputs as they are: at x = 1 the correctly rounded
     * 0x1.aep-1 is 1.8e-3 off relatively, past benchdnn's 4e-6; XNNPACK's rule covers [−10, 10] */
    const error_metrics *c = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
    cr_expect_geq(c->benchdnn_failed, 1u);
    cr_expect(c->xnnpack_checked > 0 && c->xnnpack_checked < 65536u, "%llu", (unsigned long long)c->xnnpack_checked);
    /* one wrong output: one not correctly rounded, the maximum there, in bfloat16 ULPs */
    const error_metrics *e = &r->metrics[1].err[REF_OWN][DIR_FORWARD];
    cr_expect_eq(e->correctly_rounded, 65535u);
    cr_expect_eq(e->max_ulp.bits, bits_of_bf16(X_ONE), "max at 0x%08x", e->max_ulp.bits);
    cr_expect(e->max_ulp.value > 0.6 && e->max_ulp.value < 0.63, "%g", e->max_ulp.value);
    cr_expect_gt(scan_contract_violations(r, 1, why, sizeof why), 0);
    /* the break: at the pair's second input, 2, one step */
    cr_expect_eq(r->metrics[2].mono.violations, 1u);
    cr_expect_eq(r->metrics[2].mono.listed_bits[0], bits_of_bf16(X_TWO));
    cr_expect_eq(r->metrics[2].mono.largest.value, 1.0);
    /* the wrong sign, at 3 */
    cr_expect_eq(r->metrics[3].sign.violations, 1u);
    cr_expect_eq(r->metrics[3].sign.first_bits, bits_of_bf16(X_THREE));
    /* the special value: NaN at −inf, expected −0 */
    cr_expect_eq(r->extras[4].nspecial_failed[DIR_FORWARD], 1u);
    cr_expect_eq(r->extras[4].special_failed[DIR_FORWARD][0].x, -INFINITY);
    cr_expect(isnan(r->extras[4].special_failed[DIR_FORWARD][0].actual));
    /* widened cr: the smallest subnormal's tie goes to 0 where 2^-133 is right */
    cr_expect(r->metrics[5].err[REF_OWN][DIR_FORWARD].correctly_rounded < 65536u);
    bool found = false;
    for (size_t k = 0; k < r->extras[5].nspecial_failed[DIR_FORWARD]; k++) {
        special_failure f = r->extras[5].special_failed[DIR_FORWARD][k];
        found |= f.x == 0x1p-133f && f.expected == 0x1p-133f && f.actual == 0.0f;
    }
    cr_expect(found, "widened cr at 2^-133: no special failure 2^-133 -> 0");
    scan_result_free(r);
}

Test(scan_small, refuses_kernels_of_another_format)
{
    const gelu_impl *impls[] = {gelu_impl_find("cr")}; /* binary32, not widened */
    scan_small_config cfg = {.format = GELU_FORMAT_BFLOAT16, .impls = impls, .nimpls = 1};
    scan_result *r = calloc(1, sizeof *r);
    const char *err = NULL;
    cr_assert_not_null(r);
    cr_expect_eq(scan_small_run(&cfg, r, &err), -1);
    cr_expect(err && strstr(err, "format"), "%s", err ? err : "(none)");
    scan_result_free(r);
}

/* scan_small_weight: normal mass of bfloat16's 1 (interval [1 − 2^-9, 1 + 2^-8]) against
 * Φ(b) − Φ(a) computed here by hand from erfc, and uniform mass of 8 (spacing 2^-4 both sides:
 * [8 − 2^-6, 8 + 2^-5], width 3·2^-6, /20). */
Test(scan_small, weights_of_16_bit_inputs)
{
    const gelu_format *bf = gelu_format_of(GELU_FORMAT_BFLOAT16);
    double a = 1 - 0x1p-9, b = 1 + 0x1p-8;
    double want = 0.5 * (erfc(a / sqrt(2)) - erfc(b / sqrt(2)));
    cr_expect(fabs(scan_small_weight(bf, DIST_NORMAL, 0x3f80) - want) < 1e-12 * want); /* 2^-40 */
    cr_expect_eq(scan_small_weight(bf, DIST_UNIFORM, 0x4100), 3 * 0x1p-6 / 20);
    cr_expect_eq(scan_small_weight(bf, DIST_UNIFORM, 0x7f80), 0.0); /* +inf weighs 0 */
}
