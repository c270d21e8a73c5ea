/* Every small format row carries its behaviour, so a new row is tested by being added: for each
 * row of the table (the built-in ones and a throwaway `e6m9` added here at run time, IEEE-style,
 * 6 exponent bits and 9 fraction bits), at every encoding,
 *   - widen is exact and narrow(widen(b)) is b, against a decoder written here from the fields;
 *   - narrow rounds to nearest even: every midpoint of two neighbours that is a binary32 value
 *     goes to the even one, its binary32 neighbours to the nearer one, past the largest finite
 *     to infinity (MPFR's rounding to the format as the oracle, not the project's);
 *   - the row's arrays and every fast path this CPU runs give the scalar conversions' bits;
 *   - the scan of a widened ReLU finds every output correctly rounded and every special right;
 *   - the scan's count of outputs not correctly rounded for a widened erfc_f64 equals a count
 *     made here: the binary32 kernel's value rounded by MPFR to the format, against
 *     x·erfc(−x/√2)/2 at 256 bits rounded by MPFR to the format.
 * The e6m9 row is the defect this file exists for: a format that runs with another's
 * conversions (binary16's, which it resembles) fails the first and last checks. */
#include <criterion/criterion.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gelu_cr16.h"
#include "scan_small.h"

/* The throwaway row: emax 31, emin −30, precision 10; its values are binary32 values. */
static double e6m9_to_double(uint64_t bits);
static uint64_t e6m9_from_double(double v);
static const gelu_format e6m9_row = {
    .name = "e6m9", .storage_bits = 16, .precision = 10, .emin = -30, .emax = 31,
    .to_double = e6m9_to_double, .from_double = e6m9_from_double,
    .widen = gelu_format_widen_fields, .narrow = gelu_format_narrow_fields,
    .widen_array = gelu_format_widen_array_fields,
    .narrow_array = gelu_format_narrow_array_fields,
};
static int e6m9_id = -1;
static double e6m9_to_double(uint64_t bits)
{
    return gelu_format_to_double_fields(gelu_format_of((gelu_format_id)e6m9_id), bits);
}
static uint64_t e6m9_from_double(double v)
{
    return gelu_format_round(gelu_format_of((gelu_format_id)e6m9_id), v);
}

static void add_e6m9(void)
{
    char err[256];
    if (e6m9_id < 0) e6m9_id = gelu_format_add(&e6m9_row, err, sizeof err);
    cr_assert_geq(e6m9_id, GELU_FORMAT_COUNT, "%s", err);
}

TestSuite(format_rows, .init = add_e6m9);

/* The fields of an encoding, decoded here. */
typedef struct {
    bool neg, nan, inf;
    double value; /* finite: exact */
    uint32_t frac;
} decoded;

static decoded decode(const gelu_format *f, uint32_t b)
{
    unsigned t = (unsigned)f->precision - 1, ebits = f->storage_bits - t - 1;
    uint32_t field = b >> t & ((1u << ebits) - 1), frac = b & ((1u << t) - 1);
    decoded d = {.neg = b >> (f->storage_bits - 1) & 1, .frac = frac};
    int bias = (1 << (ebits - 1)) - 1;
    if (f->no_infinity && field == (1u << ebits) - 1 && frac == (1u << t) - 1) {
        d.nan = true; /* the only NaN of its sign; the other all-ones-exponent encodings are normals */
        return d;
    }
    if (!f->no_infinity && field == (1u << ebits) - 1) {
        d.nan = frac != 0;
        d.inf = frac == 0;
        return d;
    }
    d.value = field ? ldexp(frac + ldexp(1, (int)t), (int)field - bias - (int)t)
                    : ldexp(frac, 1 - bias - (int)t);
    if (d.neg) d.value = -d.value;
    return d;
}

static uint32_t float_bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* The rounding of the real v (any precision) to format f by MPFR: nearest even, subnormals,
 * overflow to infinity; the result as a double (exact). */
static double mpfr_round_to(const gelu_format *f, mpfr_t v)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t r;
    mpfr_init2(r, f->precision);
    mpfr_set_emin(f->emin - f->precision + 2); /* MPFR's 0.1m·2^e: the smallest subnormal's */
    mpfr_set_emax(f->emax + 1);
    int i = mpfr_set(r, v, MPFR_RNDN);
    i = mpfr_check_range(r, i, MPFR_RNDN);
    mpfr_subnormalize(r, i, MPFR_RNDN);
    double d = mpfr_get_d(r, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear(r);
    return d;
}

static int small_rows(const gelu_format **rows)
{
    int n = 0;
    for (int k = 0; k < gelu_format_count(); k++)
        if (gelu_format_small(gelu_format_of((gelu_format_id)k)))
            rows[n++] = gelu_format_of((gelu_format_id)k);
    return n;
}

/* The first encoding of f whose widening is not exact or whose narrowing does not give it back
 * (a NaN: the quiet NaN of its sign), with why; −1 when none. */
static long first_bad_conversion(const gelu_format *f, char *why, size_t size)
{
    unsigned t = (unsigned)f->precision - 1;
    uint32_t sign = 1u << (f->storage_bits - 1), count = 1u << f->storage_bits;
    for (uint32_t b = 0; b < count; b++) {
        decoded d = decode(f, b);
        float w = gelu_format_widen(f, (uint16_t)b);
        uint16_t back = gelu_format_narrow(f, w);
        uint32_t u = float_bits_of(w);
        if (d.nan) {
            /* the quiet NaN of its sign: all-ones fraction where there is no infinity */
            uint16_t quiet = (uint16_t)((b & sign) | ((sign - 1) & ~((1u << t) - 1)) |
                                        (f->no_infinity ? (1u << t) - 1 : 1u << (t - 1)));
            if (!isnan(w) || (u >> 31) != d.neg ||
                (!f->no_infinity && (u >> (23 - t) & ((1u << t) - 1)) != d.frac))
                return snprintf(why, size, "widen(0x%04x) = 0x%08x, not the NaN with its payload", b, u), b;
            if (back != quiet)
                return snprintf(why, size, "narrow(widen(0x%04x)) = 0x%04x, want the quiet NaN 0x%04x", b,
                                back, quiet), b;
            continue;
        }
        double want = d.inf ? (d.neg ? -INFINITY : INFINITY) : d.value;
        if (u != float_bits_of((float)want))
            return snprintf(why, size, "widen(0x%04x) = %a, want %a", b, w, want), b;
        if (back != b) return snprintf(why, size, "narrow(widen(0x%04x)) = 0x%04x", b, back), b;
        if (f->from_double(f->to_double(b)) != b)
            return snprintf(why, size, "0x%04x through a double", b), b;
    }
    return -1;
}

Test(format_rows, widen_exact_and_narrow_inverts)
{
    const gelu_format *rows[16];
    int nrows = small_rows(rows);
    cr_assert_geq(nrows, 3, "bfloat16, binary16 and e6m9 at least");
    for (int k = 0; k < nrows; k++) {
        char why[160] = "";
        cr_expect_eq(first_bad_conversion(rows[k], why, sizeof why), -1, "%s: %s", rows[k]->name, why);
    }
}

/* Planted: e6m9 run with binary16's conversions (the defect of a format falling into another's):
 * caught at its smallest subnormal, 0x0001 (2^-39, widened as binary16's 2^-24). */
Test(format_rows, planted_conversions_of_another_format_caught)
{
    const gelu_format *b16 = gelu_format_of(GELU_FORMAT_BINARY16);
    static gelu_format planted;
    planted = e6m9_row;
    planted.name = "e6m9_planted";
    planted.widen = b16->widen;
    planted.narrow = b16->narrow;
    planted.widen_array = b16->widen_array;
    planted.narrow_array = b16->narrow_array;
    char err[256], why[160] = "";
    int id = gelu_format_add(&planted, err, sizeof err);
    cr_assert_geq(id, 0, "%s", err);
    cr_expect_eq(first_bad_conversion(gelu_format_of((gelu_format_id)id), why, sizeof why), 0x0001,
                 "%s", why);
}

/* Rows this code cannot run are refused, naming the row. */
Test(format_rows, refuses_rows_it_cannot_run)
{
    gelu_format wide = e6m9_row, twice = e6m9_row;
    wide.name = "e9m6";
    wide.precision = 7, wide.emin = -254, wide.emax = 255; /* past binary32's range */
    char err[256] = "";
    cr_expect_eq(gelu_format_add(&wide, err, sizeof err), -1);
    cr_expect(strstr(err, "e9m6"), "%s", err);
    twice.name = "binary16";
    cr_expect_eq(gelu_format_add(&twice, err, sizeof err), -1);
    cr_expect(strstr(err, "binary16"), "%s", err);
}

/* y's rounding to f by the row and by MPFR. */
static void expect_rounds_as_mpfr(const gelu_format *f, float y)
{
    mpfr_t v;
    mpfr_init2(v, 24);
    mpfr_set_flt(v, y, MPFR_RNDN);
    double want = mpfr_round_to(f, v);
    mpfr_clear(v);
    /* where there is no infinity, past the largest finite is a NaN (gelu_format.h) */
    uint32_t largest = (1u << (f->storage_bits - 1)) - 2;
    if (f->no_infinity && fabs(want) > decode(f, largest).value) want = copysign(NAN, y);
    uint16_t got = gelu_format_narrow(f, y);
    double g = f->to_double(got);
    cr_assert(float_bits_of((float)g) == float_bits_of((float)want) || (isnan(g) && isnan(want)),
              "%s: narrow(%a) = 0x%04x = %a, MPFR rounds to %a", f->name, y, got, g, want);
}

Test(format_rows, narrow_rounds_to_nearest_even)
{
    const gelu_format *rows[16];
    int nrows = small_rows(rows);
    for (int k = 0; k < nrows; k++) {
        const gelu_format *f = rows[k];
        uint32_t sign = 1u << (f->storage_bits - 1);
        uint32_t inf = (sign - 1) & ~((1u << (f->precision - 1)) - 1);
        uint32_t last = f->no_infinity ? sign - 2 : inf - 1; /* the largest finite */
        for (uint32_t b = 0; b <= last; b++) { /* every positive finite a and its successor */
            double a = decode(f, b).value;
            double c = b == last ? a + (a - decode(f, b - 1).value) : decode(f, b + 1).value;
            float m = (float)((a + c) / 2);
            if ((double)m != (a + c) / 2) continue; /* not a binary32 value */
            for (int s = 0; s < 2; s++) {
                float ms = s ? -m : m;
                expect_rounds_as_mpfr(f, ms);
                expect_rounds_as_mpfr(f, nextafterf(ms, INFINITY));
                expect_rounds_as_mpfr(f, nextafterf(ms, -INFINITY));
            }
        }
    }
}

Test(format_rows, arrays_and_fast_paths_give_the_scalar_bits)
{
    enum { N = 1 << 16 };
    static uint16_t x[N], want16[N], got16[N];
    static float wantf[N], gotf[N];
    const gelu_format *rows[16];
    int nrows = small_rows(rows);
    for (int k = 0; k < nrows; k++) {
        const gelu_format *f = rows[k];
        size_t n = (size_t)1 << f->storage_bits;
        for (size_t i = 0; i < n; i++) {
            x[i] = (uint16_t)i;
            wantf[i] = gelu_format_widen(f, x[i]);
            want16[i] = gelu_format_narrow(f, wantf[i] * 1.0009765625f); /* off the grid */
        }
        for (size_t i = 0; i < n; i++) wantf[i] = gelu_format_widen(f, x[i]);
        f->widen_array(f, x, gotf, n);
        cr_assert_eq(memcmp(gotf, wantf, n * sizeof *gotf), 0, "%s: widen_array", f->name);
        for (size_t i = 0; i < n; i++) gotf[i] = wantf[i] * 1.0009765625f;
        f->narrow_array(f, gotf, got16, n);
        cr_assert_eq(memcmp(got16, want16, n * sizeof *got16), 0, "%s: narrow_array", f->name);
        for (size_t p = 0; p < f->nfast_paths; p++) {
            const gelu_format_fast_path *fp = &f->fast_paths[p];
            if (!fp->widen || (cpu_features() & fp->cpu_features) != fp->cpu_features) {
                cr_log_info("%s: %s not run here (not built or not on this CPU)", f->name, fp->name);
                continue;
            }
            fp->widen(x, gotf, n);
            for (size_t i = 0; i < n; i++)
                cr_assert_eq(float_bits_of(gotf[i]), float_bits_of(wantf[i]),
                             "%s: %s widens 0x%04zx to 0x%08x", f->name, fp->name, i, float_bits_of(gotf[i]));
            for (size_t i = 0; i < n; i++) gotf[i] = wantf[i] * 1.0009765625f;
            fp->narrow(gotf, got16, n);
            for (size_t i = 0; i < n; i++)
                cr_assert_eq(got16[i], want16[i], "%s: %s narrows %a to 0x%04x", f->name, fp->name,
                             gotf[i], got16[i]);
        }
    }
}

static scan_result *scan_widened(const gelu_format *f, const char *name)
{
    gelu_impl w = gelu_impl_widened(gelu_impl_find(name), f->id);
    const gelu_impl *impls[] = {&w};
    scan_small_config cfg = {.format = f->id, .impls = impls, .nimpls = 1, .threads = 2};
    scan_result *r = calloc(1, sizeof *r);
    const char *err = NULL;
    cr_assert_not_null(r);
    cr_assert_eq(scan_small_run(&cfg, r, &err), 0, "%s: %s", f->name, err ? err : "");
    return r;
}

Test(format_rows, widened_relu_exact_with_its_specials)
{
    const gelu_format *rows[16];
    int nrows = small_rows(rows);
    for (int k = 0; k < nrows; k++) {
        const gelu_format *f = rows[k];
        scan_result *r = scan_widened(f, "relu");
        uint64_t n = (uint64_t)1 << f->storage_bits;
        const error_metrics *e = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
        cr_expect_eq(r->inputs, n, "%s", f->name);
        cr_expect_eq(e->correctly_rounded, n, "%s: %llu of %llu correctly rounded (max %g ULP at 0x%08x)",
                     f->name, (unsigned long long)e->correctly_rounded, (unsigned long long)n,
                     e->max_ulp.value, e->max_ulp.bits);
        cr_expect_eq(r->extras[0].nspecial_failed[DIR_FORWARD], 0u, "%s", f->name);
        cr_expect_eq(r->metrics[0].mono.violations, 0u, "%s", f->name);
        scan_result_free(r);
    }
}

Test(format_rows, widened_method_counted_independently)
{
    const gelu_format *rows[16];
    int nrows = small_rows(rows);
    const gelu_impl *m = gelu_impl_find("erfc_f64");
    cr_assert_not_null(m);
    mpfr_t x, g, y;
    mpfr_inits2(256, x, g, y, (mpfr_ptr)0);
    for (int k = 0; k < nrows; k++) {
        const gelu_format *f = rows[k];
        uint32_t count = 1u << f->storage_bits;
        uint64_t wrong = 0;
        for (uint32_t b = 0; b < count; b++) {
            decoded d = decode(f, b);
            if (d.nan) continue; /* any NaN is right: the kernel's is checked by the specials */
            float xf = d.inf ? (d.neg ? -INFINITY : INFINITY) : (float)d.value, yf;
            m->forward(&xf, &yf, 1);
            mpfr_set_flt(y, yf, MPFR_RNDN);
            double got = mpfr_round_to(f, y), want;
            if (d.inf) {
                want = d.neg ? -0.0 : INFINITY;
            } else { /* x·erfc(−x/√2)/2 */
                mpfr_set_d(x, d.value, MPFR_RNDN);
                mpfr_sqrt_ui(g, 2, MPFR_RNDN);
                mpfr_div(g, x, g, MPFR_RNDN);
                mpfr_neg(g, g, MPFR_RNDN);
                mpfr_erfc(g, g, MPFR_RNDN);
                mpfr_mul(g, g, x, MPFR_RNDN);
                mpfr_div_2ui(g, g, 1, MPFR_RNDN);
                want = mpfr_round_to(f, g);
            }
            wrong += float_bits_of((float)got) != float_bits_of((float)want);
        }
        scan_result *r = scan_widened(f, "erfc_f64");
        const error_metrics *e = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
        cr_expect_eq(count - e->correctly_rounded, wrong,
                     "%s: the scan counts %llu outputs not correctly rounded, this test %llu",
                     f->name, (unsigned long long)(count - e->correctly_rounded),
                     (unsigned long long)wrong);
        cr_log_info("%s: widened erfc_f64 %llu of %u outputs not correctly rounded", f->name,
                    (unsigned long long)wrong, count);
        scan_result_free(r);
    }
    mpfr_clears(x, g, y, (mpfr_ptr)0);
}

/* Every built-in small format has a correctly rounded native, and the scan proves it over all
 * the format's encodings, forward and derivative (the cr16 gates of meson test do the same
 * through the command line). */
Test(format_rows, every_builtin_small_format_has_a_proven_correctly_rounded_native)
{
    for (int k = 0; k < GELU_FORMAT_COUNT; k++) {
        const gelu_format *f = gelu_format_of((gelu_format_id)k);
        if (!gelu_format_small(f)) continue;
        const gelu_impl *native = NULL;
        for (size_t i = 0; i < gelu_impl_count_in(f->id) && !native; i++) {
            const gelu_impl *m = gelu_impl_at_in(f->id, i);
            if (m->format == f->id && m->contract.correctly_rounded) native = m;
        }
        cr_assert_not_null(native, "%s: no correctly rounded native", f->name);
        const gelu_impl *impls[] = {native};
        scan_small_config cfg = {.format = f->id, .impls = impls, .nimpls = 1, .grad = true,
                                 .threads = 2};
        scan_result *r = calloc(1, sizeof *r);
        const char *err = NULL;
        cr_assert_eq(scan_small_run(&cfg, r, &err), 0, "%s: %s", f->name, err ? err : "");
        for (int d = 0; d < DIR_COUNT; d++)
            cr_expect_eq(r->metrics[0].err[REF_OWN][d].correctly_rounded, gelu_format_encodings(f),
                         "%s: %s direction %d", f->name, native->name, d);
        char why[512];
        cr_expect_eq(scan_contract_violations(r, 0, why, sizeof why), 0, "%s: %s", f->name, why);
        scan_result_free(r);
    }
}
