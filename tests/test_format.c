/* The format descriptor (impls/gelu_format.h) and what is threaded through it: the registered
 * descriptors against IEEE 754's parameters, the special encodings derived from a descriptor
 * (binary32's against its literal list, and bfloat16's and binary16's from descriptors written
 * here, the registered rows held to them), the 16-bit rounding and widening against values
 * known by hand and against MPFR, the reference's rounding to a format and its
 * ULP function per format against values known by hand, the binary32 specialisation of the
 * ULP function against the general one, and the checks' planted failures: an inconsistent
 * descriptor, a descriptor whose kernels are not its format's, a scan of another format. The
 * fast conversion paths are tests/test_format_paths.c's. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format16_bits.h"
#include "gelu_cr16.h"
#include "gelu_format.h"
#include "gelu_fpenv.h"
#include "gelucheck_config.h"
#include "reference.h"
#include "scan.h"

/* 16-bit descriptors as the formats issue will register them (IEEE 754-2019 table 3.5 for
 * binary16; bfloat16 is binary32's upper half). Only the fields the functions under test read. */
static const gelu_format bfloat16 = {.name = "bfloat16", .storage_bits = 16, .precision = 8,
                                     .emin = -126, .emax = 127};
static const gelu_format binary16 = {.name = "binary16", .storage_bits = 16, .precision = 11,
                                     .emin = -14, .emax = 15};

/* An IEEE interchange format: w = storage − precision exponent bits, emax = 2^(w−1) − 1,
 * emin = 1 − emax. Returns the first field that disagrees, NULL when consistent. */
static const char *inconsistency(const gelu_format *f)
{
    int w = (int)f->storage_bits - f->precision;
    if (w < 2 || f->precision < 2) return "storage_bits/precision";
    /* no infinity (OFP8 E4M3): the all-ones exponent holds normals, one binade more */
    if (f->emax != (1 << (w - 1)) - 1 + f->no_infinity) return "emax";
    if (f->no_infinity) return f->emin != 2 - f->emax ? "emin" : NULL;
    if (f->emin != 1 - f->emax) return "emin";
    return NULL;
}

Test(format, registered_descriptors_are_ieee)
{
    const gelu_format *f = gelu_format_of(GELU_FORMAT_BINARY32);
    cr_expect_str_eq(f->name, "binary32");
    cr_expect_eq(f->storage_bits, 32u);
    cr_expect_eq(f->precision, 24);
    cr_expect_eq(f->emin, -126);
    cr_expect_eq(f->emax, 127);
    cr_expect_eq(gelu_format_encodings(f), UINT64_C(1) << 32);
    cr_expect_eq(gelu_format_find("binary32"), f);
    cr_expect_null(gelu_format_find("binary33"));
    for (int i = 0; i < GELU_FORMAT_COUNT; i++) {
        const gelu_format *g = gelu_format_of((gelu_format_id)i);
        const char *bad = inconsistency(g);
        cr_expect_null(bad, "%s: %s is not IEEE's", g->name, bad);
        cr_expect_eq(g->id, (gelu_format_id)i, "%s: id %d in row %d", g->name, g->id, i);
    }
    /* planted: the check catches a wrong field */
    gelu_format wrong = binary16;
    wrong.emax = 16;
    cr_expect_str_eq(inconsistency(&wrong), "emax");
    wrong = bfloat16;
    wrong.emin = -127;
    cr_expect_str_eq(inconsistency(&wrong), "emin");
    cr_expect_null(inconsistency(&bfloat16));
    cr_expect_null(inconsistency(&binary16));
}

static void expect_specials(const gelu_format *f, const uint64_t want[GELU_FORMAT_SPECIAL_COUNT])
{
    uint64_t got[GELU_FORMAT_SPECIAL_COUNT];
    gelu_format_special_encodings(f, got);
    for (int i = 0; i < GELU_FORMAT_SPECIAL_COUNT; i++)
        cr_expect_eq(got[i], want[i], "%s special %d: 0x%llx, want 0x%llx", f->name, i,
                     (unsigned long long)got[i], (unsigned long long)want[i]);
}

Test(format, special_encodings)
{
    static const uint64_t b32[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                   0xffc00000, 0x7fa00000, 0xffa00000, 0x7f7fffff, 0xff7fffff,
                                   0x00800000, 0x80800000, 0x00000001, 0x80000001};
    static const uint64_t bf16[] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7fa0,
                                    0xffa0, 0x7f7f, 0xff7f, 0x0080, 0x8080, 0x0001, 0x8001};
    static const uint64_t b16[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7d00,
                                   0xfd00, 0x7bff, 0xfbff, 0x0400, 0x8400, 0x0001, 0x8001};
    expect_specials(gelu_format_of(GELU_FORMAT_BINARY32), b32);
    expect_specials(&bfloat16, bf16);
    expect_specials(&binary16, b16);
    /* the values they stand for */
    const gelu_format *f = gelu_format_of(GELU_FORMAT_BINARY32);
    cr_expect_eq(f->to_double(0x7f7fffff), 0x1.fffffep127);
    cr_expect_eq(f->to_double(0x80000001), -0x1p-149);
    cr_expect(isnan(f->to_double(0xffa00000)));
    cr_expect_eq(f->from_double(-0x1p-149), 0x80000001u);
    cr_expect_eq(f->from_double(-0.0), 0x80000000u);
    cr_expect_eq(f->from_double(-NAN), 0xffc00000u);
}

static double round_to(const gelu_format *f, const char *value)
{
    mpfr_t v;
    mpfr_init2(v, 200);
    mpfr_set_str(v, value, 0, MPFR_RNDN);
    double r = ref_round_format(f, v);
    mpfr_clear(v);
    return r;
}

Test(format, rounding_to_a_format)
{
    const gelu_format *b32 = gelu_format_of(GELU_FORMAT_BINARY32);
    /* ties to even at the smallest subnormals, and just past the tie */
    cr_expect_eq(round_to(b32, "0x3p-150"), 0x1p-148);
    cr_expect_eq(round_to(b32, "0x1p-150"), 0.0);
    cr_expect_eq(round_to(b32, "0x1.0000000001p-150"), 0x1p-149);
    /* FLT_MAX's half-way point to 2^128 is 0x1.ffffffp127 */
    cr_expect_eq(round_to(b32, "0x1.ffffff1p127"), INFINITY);
    cr_expect_eq(round_to(b32, "0x1.fffffefp127"), 0x1.fffffep127);
    /* bfloat16: 8 bits */
    cr_expect_eq(round_to(&bfloat16, "0x1.01p0"), 1.0); /* the tie between 1 and 1 + 2^-7 */
    cr_expect_eq(round_to(&bfloat16, "0x1.0100001p0"), 0x1.02p0);
    cr_expect_eq(round_to(&bfloat16, "0x3p-134"), 0x1p-132); /* subnormal tie, to even */
    /* binary16: 65504 is the largest finite, 65520 the tie with 2^16, which overflows */
    cr_expect_eq(round_to(&binary16, "65519"), 65504.0);
    cr_expect_eq(round_to(&binary16, "65520"), INFINITY);
    cr_expect_eq(round_to(&binary16, "-0x1.0000001p-25"), -0x1p-24);
    cr_expect(signbit(round_to(&binary16, "-0x1p-25")) && round_to(&binary16, "-0x1p-25") == 0);
    /* the binary32 wrapper is the format's rounding */
    mpfr_t v;
    mpfr_init2(v, 200);
    mpfr_set_str(v, "0x1.234567891p-140", 0, MPFR_RNDN);
    cr_expect_eq((double)ref_round_binary32(v), ref_round_format(b32, v));
    mpfr_clear(v);
}

Test(format, ulp_per_format)
{
    const gelu_format *b32 = gelu_format_of(GELU_FORMAT_BINARY32);
    cr_expect_eq(ref_inv_ulp_format(b32, 1.0, 0), 0x1p23);
    cr_expect_eq(ref_inv_ulp_format(b32, 1.0, -0x1p-60), 0x1p24); /* just below 1: binade below */
    cr_expect_eq(ref_inv_ulp_format(b32, 0x1p-130, 0), 0x1p149);
    cr_expect_eq(ref_inv_ulp_format(b32, 0, 0), 0x1p149);
    cr_expect_eq(ref_inv_ulp_format(&bfloat16, 1.5, 0), 0x1p7);
    cr_expect_eq(ref_inv_ulp_format(&bfloat16, -0x1p-130, 0), 0x1p133);
    cr_expect_eq(ref_inv_ulp_format(&binary16, 1000.0, 0), 0x1p1); /* [512, 1024): spacing 1/2 */
    cr_expect_eq(ref_inv_ulp_format(&binary16, 0x1p-20, 0), 0x1p24);
    mpfr_t e;
    mpfr_init2(e, REF_EXACT_PREC);
    mpfr_set_d(e, 1.0, MPFR_RNDN);
    cr_expect_eq(ref_ulp_error_format(&binary16, 1.0 + 0x1p-10, e), 1.0);
    cr_expect_eq(ref_ulp_error_format(&bfloat16, 1.0 + 0x1p-7, e), 1.0);
    cr_expect_eq(ref_ulp_error_format(b32, 1.0 + 0x1p-23, e), 1.0);
    mpfr_clear(e);
}

/* ref_inv_ulp (binary32's constants folded) is ref_inv_ulp_format(binary32) bit for bit, on
 * doubles spread over every binade binary32 reaches and on the binade edges. */
Test(format, binary32_specialisation)
{
    const gelu_format *b32 = gelu_format_of(GELU_FORMAT_BINARY32);
    srand(12);
    for (int i = 0; i < 100000; i++) {
        double hi = ldexp((double)rand() / RAND_MAX + 0.5, rand() % 300 - 160) * (i & 1 ? -1 : 1);
        double lo = i % 3 == 0 ? 0 : hi * 0x1p-60 * (i % 3 == 1 ? 1 : -1);
        if (i % 7 == 0) hi = ldexp(1.0, rand() % 300 - 160); /* on an edge */
        double a = ref_inv_ulp(hi, lo), b = ref_inv_ulp_format(b32, hi, lo);
        cr_assert_eq(a, b, "hi %a lo %a: %a vs %a", hi, lo, a, b);
    }
}

/* Every registered implementation sets the kernel pair of its format and no other. */
static bool kernels_match_format(const gelu_impl *m)
{
    bool f32 = m->forward && m->derivative, u16 = m->forward_u16 && m->derivative_u16,
         f64 = m->forward_f64 && m->derivative_f64;
    bool any16 = m->forward_u16 || m->derivative_u16, any64 = m->forward_f64 || m->derivative_f64;
    switch (gelu_format_of(m->format)->storage_bits) {
    case 32: return f32 && !any16 && !any64;
    case 16: return u16 && !m->forward && !m->derivative && !any64;
    default: return f64 && !m->forward && !m->derivative && !any16;
    }
}

static void copy16(const uint16_t *x, uint16_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i];
}

Test(format, kernels_are_the_formats)
{
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        cr_expect(m->format < GELU_FORMAT_COUNT, "%s: unregistered format %d", m->name, m->format);
        cr_expect(kernels_match_format(m), "%s: its kernels are not those of %s", m->name,
                  gelu_format_of(m->format)->name);
    }
    gelu_impl planted = *gelu_impl_find("relu");
    planted.forward_u16 = copy16; /* a 16-bit kernel on a binary32 row */
    cr_expect(!kernels_match_format(&planted));
}

Test(format, scan_refuses_another_format)
{
    gelu_impl other = *gelu_impl_find("relu");
    other.format = GELU_FORMAT_COUNT; /* stands for a format the scan does not run */
    const gelu_impl *impls[] = {gelu_impl_find("relu"), &other};
    scan_config cfg = {.impls = impls, .nimpls = 2, .shard_n = 1, .threads = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = 1, .hi = 2}};
    scan_result *r = calloc(1, sizeof *r);
    const char *err = NULL;
    cr_assert_not_null(r);
    cr_expect_eq(scan_run(&cfg, r, &err), -1);
    cr_expect(err && strstr(err, "binary32"), "error: %s", err ? err : "(none)");
    scan_result_free(r);
}

static double eval_in(const gelu_format *f, gelu_target t, bool grad, double x)
{
    mpfr_t e;
    mpfr_init2(e, REF_EXACT_PREC);
    double r = ref_eval_format(f, t, grad, x, e);
    mpfr_clear(e);
    return r;
}

/* The MPFR oracle rounds straight to a format: GELU(1) = 0.84134474606854294858 (DESIGN.md) is
 * 215.38/256 in bfloat16's binade and 1723.07/2048 in binary16's; at the smallest subnormals
 * the x/2 midpoint traps go up for x > 0 and to −0 (or one step less) for x < 0, as in binary32;
 * and binary32's wrapper is the general function. */
Test(format, oracle_rounds_to_the_format)
{
    cr_expect_eq(eval_in(&bfloat16, GELU_TARGET_EXACT, false, 1.0), 0x1.aep-1);
    cr_expect_eq(eval_in(&binary16, GELU_TARGET_EXACT, false, 1.0), 0x1.aecp-1);
    cr_expect_eq(eval_in(&binary16, GELU_TARGET_EXACT, false, 0x1p-24), 0x1p-24);
    double r = eval_in(&binary16, GELU_TARGET_EXACT, false, -0x1p-24);
    cr_expect(r == 0 && signbit(r), "GELU(-2^-24) in binary16: %a, want -0", r);
    cr_expect_eq(eval_in(&binary16, GELU_TARGET_EXACT, false, 0x3p-24), 0x1p-23);
    cr_expect_eq(eval_in(&bfloat16, GELU_TARGET_EXACT, false, 0x1p-133), 0x1p-133);
    r = eval_in(&bfloat16, GELU_TARGET_EXACT, false, -0x1p-133);
    cr_expect(r == 0 && signbit(r), "GELU(-2^-133) in bfloat16: %a, want -0", r);
    cr_expect_eq(eval_in(&binary16, GELU_TARGET_EXACT, false, -0x3p-24), -0x1p-24);
    cr_expect_eq(eval_in(&bfloat16, GELU_TARGET_TANH, false, 0x1p-133), 0x1p-133);
    cr_expect_eq(eval_in(&binary16, GELU_TARGET_EXACT, true, 0.0), 0.5);
    cr_expect_eq(eval_in(&binary16, GELU_TARGET_RELU, false, -3.0), 0.0);
    /* GELU'(1) = Φ(1) + φ(1) = 0.84134474606854 + 0.24197072451914 = 1.08331547058768: 138.66
     * steps of 2^-7 (bfloat16) and 1109.31 of 2^-10 (binary16) above 1 */
    cr_expect_eq(eval_in(&bfloat16, GELU_TARGET_EXACT, true, 1.0), 139 * 0x1p-7);
    cr_expect_eq(eval_in(&binary16, GELU_TARGET_EXACT, true, 1.0), 1109 * 0x1p-10);
    /* at the largest finite inputs, GELU(x) = x − (a value below 2^-10^8) rounds to x, GELU' to
     * 1; at their negatives to −0 */
    cr_expect_eq(eval_in(&binary16, GELU_TARGET_EXACT, false, 65504.0), 65504.0);
    cr_expect_eq(eval_in(&bfloat16, GELU_TARGET_EXACT, false, 0x1.fep127), 0x1.fep127);
    cr_expect_eq(eval_in(&bfloat16, GELU_TARGET_EXACT, true, 0x1.fep127), 1.0);
    r = eval_in(&binary16, GELU_TARGET_EXACT, true, -65504.0);
    cr_expect(r == 0 && signbit(r), "GELU'(-65504) in binary16: %a, want -0", r);
    const gelu_format *b32 = gelu_format_of(GELU_FORMAT_BINARY32);
    for (float x = -20.0f; x < 20.0f; x += 0.37f)
        cr_expect_eq((double)ref_round(GELU_TARGET_EXACT, true, x),
                     eval_in(b32, GELU_TARGET_EXACT, true, x), "x = %a", (double)x);
}

/* The registered 16-bit rows are the descriptors written above (IEEE 754 table 3.5, bfloat16 as
 * binary32's upper half), and their encodings mean what they do by hand. */
Test(format, registered_16_bit_formats)
{
    const gelu_format *bf = gelu_format_find("bfloat16"), *h = gelu_format_find("binary16");
    cr_assert_not_null(bf);
    cr_assert_not_null(h);
    const gelu_format *want[2] = {&bfloat16, &binary16}, *got[2] = {bf, h};
    for (int i = 0; i < 2; i++) {
        cr_expect_eq(got[i]->storage_bits, 16u, "%s", want[i]->name);
        cr_expect_eq(got[i]->precision, want[i]->precision, "%s", want[i]->name);
        cr_expect_eq(got[i]->emin, want[i]->emin, "%s", want[i]->name);
        cr_expect_eq(got[i]->emax, want[i]->emax, "%s", want[i]->name);
        cr_expect_eq(gelu_format_encodings(got[i]), 65536u, "%s", want[i]->name);
    }
    /* bfloat16: 1 = 0x3f80, 0x1.aep-1 = 0 01111110 1010111 = 0x3f57 (GELU(1), test below),
     * 2^-133 = 0x0001, the largest finite 0x1.fep127 = 0x7f7f */
    cr_expect_eq(bf->to_double(0x3f80), 1.0);
    cr_expect_eq(bf->to_double(0x3f57), 0x1.aep-1);
    cr_expect_eq(bf->to_double(0x8001), -0x1p-133);
    cr_expect_eq(bf->to_double(0x7f7f), 0x1.fep127);
    cr_expect_eq(bf->to_double(0x0080), 0x1p-126);
    cr_expect_eq(bf->from_double(0x1.aep-1), 0x3f57u);
    /* binary16: 0x1.aecp-1 = 0 01110 1010111011 = 0x3abb, 2^-24 = 0x0001, 65504 = 0x7bff */
    cr_expect_eq(h->to_double(0x3abb), 0x1.aecp-1);
    cr_expect_eq(h->to_double(0x0001), 0x1p-24);
    cr_expect_eq(h->to_double(0x03ff), 0x3ffp-24);
    cr_expect_eq(h->to_double(0x0400), 0x1p-14);
    cr_expect_eq(h->to_double(0xfbff), -65504.0);
    cr_expect(isinf(h->to_double(0x7c00)) && isnan(h->to_double(0x7e01)));
    cr_expect_eq(h->from_double(-0x1p-24), 0x8001u);
    cr_expect_eq(h->from_double(-0.0), 0x8000u);
    cr_expect_eq(h->from_double(NAN), 0x7e00u);
}

/* gelu_format_round (a framework's narrowing, in impls/, no MPFR) on values known by hand. */
Test(format, narrowing_by_hand)
{
    const gelu_format *bf = gelu_format_of(GELU_FORMAT_BFLOAT16), *h = gelu_format_of(GELU_FORMAT_BINARY16);
    cr_expect_eq(gelu_format_round(bf, 0x1.01p0), 0x3f80u);      /* tie, to even (1) */
    cr_expect_eq(gelu_format_round(bf, 0x1.03p0), 0x3f82u);      /* tie, to even (1 + 2^-6) */
    cr_expect_eq(gelu_format_round(bf, 0x1.fep127), 0x7f7fu);
    cr_expect_eq(gelu_format_round(bf, 0x1.fefffp127), 0x7f7fu);
    cr_expect_eq(gelu_format_round(bf, 0x1.ffp127), 0x7f80u);    /* tie with 2^128: overflow */
    cr_expect_eq(gelu_format_round(bf, -0x1p-134), 0x8000u);     /* half the smallest: to −0 */
    cr_expect_eq(gelu_format_round(bf, 0x3p-134), 0x0002u);      /* 1.5 × smallest: to even */
    cr_expect_eq(gelu_format_round(bf, 0x1.fep-127), 0x0080u);   /* top subnormal tie: up, even */
    cr_expect_eq(gelu_format_round(h, 65519.0), 0x7bffu);
    cr_expect_eq(gelu_format_round(h, 65520.0), 0x7c00u);
    cr_expect_eq(gelu_format_round(h, -0x1.0000001p-25), 0x8001u);
    cr_expect_eq(gelu_format_round(h, 0x1p-25), 0x0000u);
    cr_expect_eq(gelu_format_round(h, 0x7ffp-25), 0x0400u);      /* top subnormal tie: up, even */
    cr_expect_eq(gelu_format_round(h, 2047.5), 0x6800u);         /* 2047.5: tie to 2048 */
    cr_expect_eq(gelu_format_round(h, -INFINITY), 0xfc00u);
    cr_expect_eq(gelu_format_round(h, -NAN), 0xfe00u);
    /* widening keeps NaNs' kind: binary16's signalling 0x7d00 is binary32's 0x7fa00000 */
    float w = gelu_format_widen(h, 0x7d00);
    uint32_t wb;
    memcpy(&wb, &w, sizeof wb);
    cr_expect_eq(wb, 0x7fa00000u);
    w = gelu_format_widen(bf, 0xffa1);
    memcpy(&wb, &w, sizeof wb);
    cr_expect_eq(wb, 0xffa10000u);
    cr_expect_eq(gelu_format_widen(h, 0x0001), 0x1p-24f);
}

/* gelu_format_round against MPFR's rounding (ref_round_format, independent code) at every
 * 16-bit value, every midpoint between neighbours and the binary32 values just either side of
 * each midpoint: over all 65,536 encodings of both formats. */
Test(format, narrowing_against_mpfr)
{
    mpfr_t v;
    mpfr_init2(v, 64);
    for (int k = GELU_FORMAT_BFLOAT16; k <= GELU_FORMAT_BINARY16; k++) {
        const gelu_format *f = gelu_format_of((gelu_format_id)k);
        for (uint32_t b = 0; b < 0x10000; b++) {
            double x = f->to_double(b);
            if (isnan(x)) continue;
            cr_assert_eq(gelu_format_round(f, x), b, "%s 0x%04x", f->name, b);
            double up = f->to_double(b + 1 == 0x10000 ? b : b + 1);
            if ((b & 0x7fff) == 0x7fff || isnan(up) || isinf(x)) continue;
            double mid = 0.5 * (x + up), probes[3] = {mid, nextafter(mid, -INFINITY),
                                                      nextafter(mid, INFINITY)};
            for (int p = 0; p < 3; p++) {
                mpfr_set_d(v, probes[p], MPFR_RNDN);
                double want = ref_round_format(f, v);
                uint16_t got = gelu_format_round(f, probes[p]);
                cr_assert_eq(f->to_double(got), want, "%s: %a rounds to 0x%04x, MPFR %a", f->name,
                             probes[p], got, want);
                cr_assert_eq(signbit(f->to_double(got)), signbit(want), "%s: %a", f->name, probes[p]);
            }
        }
    }
    mpfr_clear(v);
}

/* The adapter's bit conversions against the field-based ones: widening every encoding (NaNs by
 * payload: quiet bit and fraction shifted up), narrowing at every value, midpoint and binary32
 * neighbour of a midpoint, and at 2^20 binary32 encodings drawn at random. */
Test(format, bit_conversions_match_the_fields)
{
    for (int k = GELU_FORMAT_BFLOAT16; k <= GELU_FORMAT_BINARY16; k++) {
        const gelu_format *f = gelu_format_of((gelu_format_id)k);
        for (uint32_t b = 0; b < 0x10000; b++) {
            float w = gelu_format_widen(f, (uint16_t)b);
            double d = f->to_double(b);
            if (isnan(d)) {
                uint32_t wb;
                memcpy(&wb, &w, sizeof wb);
                unsigned t = (unsigned)f->precision - 1;
                cr_assert(isnan(w) && (wb >> 31) == (b >> 15) &&
                              (wb & 0x7fffffu) == (b & ((1u << t) - 1)) << (23 - t),
                          "%s 0x%04x widens to 0x%08x", f->name, b, wb);
                continue;
            }
            cr_assert(w == d && !signbit(w) == !signbit(d), "%s 0x%04x: %a, want %a", f->name, b, (double)w, d);
            double up = f->to_double(b + 1 < 0x10000 ? b + 1 : b);
            float probes[4] = {w, (float)(0.5 * (d + up)), 0, 0};
            probes[2] = nextafterf(probes[1], -INFINITY);
            probes[3] = nextafterf(probes[1], INFINITY);
            for (int p = 0; p < 4; p++)
                cr_assert_eq(gelu_format_narrow(f, probes[p]), gelu_format_round(f, probes[p]),
                             "%s: narrowing %a", f->name, (double)probes[p]);
        }
        srand(15);
        for (int i = 0; i < 1 << 20; i++) {
            uint32_t u = (uint32_t)rand() << 16 ^ (uint32_t)rand();
            float y;
            memcpy(&y, &u, sizeof y);
            cr_assert_eq(gelu_format_narrow(f, y), gelu_format_round(f, y), "%s: narrowing 0x%08x",
                         f->name, u);
        }
    }
}
