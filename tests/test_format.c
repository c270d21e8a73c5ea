/* The format descriptor (impls/gelu_format.h) and what is threaded through it: the registered
 * descriptors against IEEE 754's parameters, the special encodings derived from a descriptor
 * (binary32's against its literal list, and bfloat16's and binary16's from descriptors written
 * here, the registered rows held to them), the 16-bit rounding and widening against values
 * known by hand and against MPFR, the reference's rounding to a format and its
 * ULP function per format against values known by hand, the binary32 specialisation of the
 * ULP function against the general one, and the checks' planted failures: an inconsistent
 * descriptor, a descriptor whose kernels are not its format's, a scan of another format; and the
 * widened adapter's F16C conversions for binary16 against its portable ones, bit for bit, with
 * the bare instructions planted (they differ at NaNs); and its AVX-512 BF16 conversions for
 * bfloat16 the same way, with each of the narrowing's fix-ups left out in turn (binary32
 * subnormals, NaNs) planted, and all 2^32 narrowings on request (GELUCHECK_BF16_EXHAUSTIVE=1:
 * 6.4 s of CPU, 11.2 s on the shared machine, over the quick tier's budget of 10 s); and its
 * AVX-512 FP16 conversions for binary16 the same way under MXCSR's defaults and FTZ+DAZ (skipped
 * with a message on CPUs without avx512_fp16), the comparison itself
 * shown to catch planted copies of the portable conversions on any CPU. */
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

/* The widened adapter's F16C conversions for binary16 (impls/format16_f16c.c) against the
 * portable ones (format16_bits.h), by bits. Skipped (logged) where the build or the CPU has no
 * F16C. */
typedef void (*widen_array)(const uint16_t *x, float *y, size_t n);
typedef void (*narrow_array)(const float *y, uint16_t *x, size_t n);

/* The first encoding that `widen`, run under the floating-point environment e (MXCSR's FTZ/DAZ,
 * set around its calls only), widens otherwise than `portable` (binary16_widen, bfloat16_widen),
 * or −1; x and y start one element in (unaligned) and n = 65,536 is not the last call's length
 * (a 7-element tail); y is filled with a NaN pattern first, so that an element left unwritten
 * differs. */
static long first_widen_difference_in(gelu_fpenv e, widen_array widen, float (*portable)(uint16_t))
{
    static uint16_t x[1 + 0x10000];
    static float y[1 + 0x10000];
    for (uint32_t b = 0; b < 0x10000; b++) x[1 + b] = (uint16_t)b;
    memset(y, 0xff, sizeof y);
    unsigned saved = gelu_fpenv_enter(e);
    widen(x + 1, y + 1, 0x10000 - 7);
    widen(x + 1 + 0x10000 - 7, y + 1 + 0x10000 - 7, 7);
    gelu_fpenv_leave(saved);
    for (uint32_t b = 0; b < 0x10000; b++) {
        float want = portable((uint16_t)b);
        if (memcmp(&want, &y[1 + b], sizeof want) != 0) return (long)b;
    }
    return -1;
}

static long first_widen_difference(widen_array widen, float (*portable)(uint16_t))
{
    return first_widen_difference_in(GELU_FPENV_IEEE, widen, portable);
}

/* The first i where `narrow`, run under e, gives other bits than `portable` (binary16_narrow,
 * bfloat16_narrow) at y[i], or −1. */
static long first_narrow_difference_in(gelu_fpenv e, narrow_array narrow,
                                       uint16_t (*portable)(float), const float *y, size_t n)
{
    uint16_t *got = malloc(n * sizeof *got);
    cr_assert_not_null(got);
    memset(got, 0xff, n * sizeof *got);
    unsigned saved = gelu_fpenv_enter(e);
    narrow(y, got, n);
    gelu_fpenv_leave(saved);
    long first = -1;
    for (size_t i = 0; i < n && first < 0; i++)
        if (got[i] != portable(y[i])) first = (long)i;
    free(got);
    return first;
}

static long first_narrow_difference(narrow_array narrow, uint16_t (*portable)(float),
                                    const float *y, size_t n)
{
    return first_narrow_difference_in(GELU_FPENV_IEEE, narrow, portable, y, n);
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Every binary32 NaN payload class, both signs, quiet and signalling: payloads in the 13 bits
 * the narrowing drops only, in the 10 it keeps only, both, all ones. */
static size_t nan_probes(float *y)
{
    static const uint32_t payloads[] = {0x1, 0x1000, 0x1fff, 0x2000, 0x100000, 0x3fe000,
                                        0x3fffff, 0x2001};
    size_t n = 0;
    for (uint32_t sign = 0; sign <= 1; sign++)
        for (uint32_t quiet = 0; quiet <= 1; quiet++)
            for (size_t p = 0; p < sizeof payloads / sizeof *payloads; p++)
                y[n++] = float_of(sign << 31 | 0x7f800000u | quiet << 22 | payloads[p]);
    return n;
}

/* What a kernel can give, in this order: every binary16 value widened, every midpoint of
 * neighbours and the binary32 values either side of it (ties and their neighbours, the subnormal
 * range, 65504's neighbourhood up to the overflow threshold 65520), then binary32 subnormals, the
 * values around the overflow threshold, ±FLT_MAX and ±inf, NaNs of every payload class, then
 * 2^20 random binary32 encodings. Returns the count; y has room for 2^21. */
static size_t narrow_probes(float *y)
{
    size_t n = 0;
    for (uint32_t b = 0; b < 0x10000; b++) {
        float w = binary16_widen((uint16_t)b);
        y[n++] = w;
        if ((b & 0x7fff) >= 0x7c00) continue; /* inf, NaN */
        float up = (b & 0x7fff) == 0x7bff ? (b & 0x8000 ? -65536.0f : 65536.0f)
                                          : binary16_widen((uint16_t)(b + 1));
        float mid = (float)(0.5 * ((double)w + (double)up));
        y[n++] = mid;
        y[n++] = nextafterf(mid, -INFINITY);
        y[n++] = nextafterf(mid, INFINITY);
    }
    static const uint32_t edges[] = {0x00000001, 0x00000002, 0x003fffff, 0x00400000, 0x007fffff,
                                     0x00800000, 0x33000000, 0x33000001, 0x477fefff, 0x477ff000,
                                     0x477ff001, 0x7f7fffff, 0x7f800000};
    for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) {
        y[n++] = float_of(edges[e]);
        y[n++] = float_of(edges[e] | 0x80000000u);
    }
    n += nan_probes(y + n);
    srand(16);
    for (int i = 0; i < 1 << 20; i++) y[n++] = float_of((uint32_t)rand() << 16 ^ (uint32_t)rand());
    return n;
}

#if GELUCHECK_HAVE_AVX2 && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
/* Planted: the bare instructions, without the NaN lanes rebuilt. */
__attribute__((target("avx,f16c"))) static void widen_bare(const uint16_t *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = _cvtsh_ss(x[i]);
}
__attribute__((target("avx,f16c"))) static void narrow_bare(const float *y, uint16_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = _cvtss_sh(y[i], _MM_FROUND_TO_NEAREST_INT);
}
#endif

Test(format, f16c_conversions_are_the_portable_ones)
{
#if GELUCHECK_HAVE_AVX2 && (defined(__x86_64__) || defined(__i386__))
    if (!(cpu_features() & CPU_FEATURE_F16C)) {
        cr_log_info("this CPU has no F16C: its conversions not tested");
        return;
    }
    long b = first_widen_difference(binary16_widen_f16c, binary16_widen);
    cr_expect_eq(b, -1, "binary16 0x%04lx widens to other bits with F16C", b);
    float *y = malloc(((size_t)1 << 21) * sizeof *y);
    cr_assert_not_null(y);
    size_t n = narrow_probes(y);
    long i = first_narrow_difference(binary16_narrow_f16c, binary16_narrow, y, n);
    uint32_t u = 0;
    if (i >= 0) memcpy(&u, &y[i], sizeof u);
    cr_expect_eq(i, -1, "binary32 0x%08x (%a, probe %ld) narrows to other bits with F16C", u,
                 i < 0 ? 0.0 : (double)y[i], i);
    /* the same at an unaligned start and with a tail */
    cr_expect_eq(first_narrow_difference(binary16_narrow_f16c, binary16_narrow, y + 1, n - 1), -1);
    /* planted: the bare instructions are caught at the first NaN that differs — widening the
     * first signalling NaN (which the instruction quiets), narrowing the first NaN probe (whose
     * payload's top bits it keeps) */
    cr_expect_eq(first_widen_difference(widen_bare, binary16_widen), 0x7c01);
    long first_nan = 0;
    while (!isnan(y[first_nan])) first_nan++; /* 0x7c01 widened: 0x7f802000 */
    cr_expect_eq(first_narrow_difference(narrow_bare, binary16_narrow, y, n), first_nan);
    free(y);
#else
    cr_log_info("built without AVX2: no F16C conversions to test");
#endif
}

/* The widened adapter's AVX-512 BF16 conversions for bfloat16 (impls/format16_avx512bf16.c)
 * against the portable ones (format16_bits.h), by bits. Skipped (logged) where the build or the
 * CPU has no AVX-512 BF16. */

/* Around every bfloat16 value's encoding b (as binary32: b << 16), finite and not the largest
 * in magnitude's upper neighbour: b itself, the midpoint to the next encoding away from zero
 * (b << 16 | 0x8000, exact in binary32: bfloat16 has 8 bits) and the binary32 values either side
 * of it; the largest finite's midpoint is the overflow threshold 0x7f7f8000. Then ±0's
 * neighbours, ±inf, ±FLT_MAX, NaNs of every payload class and 2^24 random encodings. Returns
 * the count; y has room for 2^25. */
static size_t bf16_narrow_probes(float *y)
{
    size_t n = 0;
    for (uint32_t b = 0; b < 0x10000; b++) {
        y[n++] = float_of(b << 16);
        if ((b & 0x7fff) >= 0x7f80) continue; /* inf, NaN */
        uint32_t mid = b << 16 | 0x8000;
        y[n++] = float_of(mid);
        y[n++] = float_of(mid - 1);
        y[n++] = float_of(mid + 1);
    }
    static const uint32_t edges[] = {0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x7f800000};
    for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) {
        y[n++] = float_of(edges[e]);
        y[n++] = float_of(edges[e] | 0x80000000u);
    }
    n += nan_probes(y + n);
    srand(17);
    for (int i = 0; i < 1 << 24; i++) y[n++] = float_of((uint32_t)rand() << 16 ^ (uint32_t)rand());
    return n;
}

/* The first binary32 encoding in [lo, lo + count) that `narrow`, run under e, narrows otherwise
 * than `portable`, or −1; in calls of 65,535 values (a 15-value tail each). */
static int64_t first_range_difference_in(gelu_fpenv e, narrow_array narrow,
                                         uint16_t (*portable)(float), uint64_t lo, uint64_t count)
{
    enum { CALL = 65535 };
    static float y[CALL];
    static uint16_t got[CALL];
    for (uint64_t done = 0; done < count;) {
        size_t n = count - done < CALL ? (size_t)(count - done) : CALL;
        for (size_t i = 0; i < n; i++) y[i] = float_of((uint32_t)(lo + done + i));
        memset(got, 0xff, n * sizeof *got);
        unsigned saved = gelu_fpenv_enter(e);
        narrow(y, got, n);
        gelu_fpenv_leave(saved);
        for (size_t i = 0; i < n; i++)
            if (got[i] != portable(y[i])) return (int64_t)(lo + done + i);
        done += n;
    }
    return -1;
}

static int64_t first_bf16_range_difference(narrow_array narrow, uint64_t lo, uint64_t count)
{
    return first_range_difference_in(GELU_FPENV_IEEE, narrow, bfloat16_narrow, lo, count);
}

#if GELUCHECK_HAVE_AVX512BF16 && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define BF16_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

/* Planted: vcvtneps2bf16 with only some of the fix-ups, 16 lanes at a time (masked tail): the
 * subnormal lanes redone by the portable sum, the NaN lanes given the quiet NaN of their sign. */
BF16_TARGET static void narrow_bf16_partly_fixed(const float *y, uint16_t *x, size_t n,
                                                  bool subnormals, bool nans)
{
    for (size_t i = 0; i < n; i += 16) {
        __mmask16 k = n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1);
        __m512 v = _mm512_maskz_loadu_ps(k, y + i);
        __m256i r = (__m256i)_mm512_cvtneps_pbh(v);
        uint16_t lanes[16];
        _mm256_storeu_si256((__m256i *)lanes, r);
        for (size_t j = 0; j < 16 && i + j < n; j++) {
            uint32_t u;
            memcpy(&u, &y[i + j], sizeof u);
            uint32_t a = u & 0x7fffffffu;
            if (subnormals && a != 0 && a < 0x00800000u) lanes[j] = bfloat16_narrow(y[i + j]);
            if (nans && a > 0x7f800000u) lanes[j] = (uint16_t)((lanes[j] & 0x8000u) | 0x7fc0u);
        }
        _mm256_mask_storeu_epi16(x + i, k, _mm256_loadu_si256((const __m256i *)lanes));
    }
}
static void narrow_bf16_no_subnormal_fixup(const float *y, uint16_t *x, size_t n)
{
    narrow_bf16_partly_fixed(y, x, n, false, true);
}
static void narrow_bf16_no_nan_fixup(const float *y, uint16_t *x, size_t n)
{
    narrow_bf16_partly_fixed(y, x, n, true, false);
}
static void narrow_bf16_both_fixups(const float *y, uint16_t *x, size_t n)
{
    narrow_bf16_partly_fixed(y, x, n, true, true);
}

static bool cpu_has_bf16(void)
{
    unsigned need = CPU_FEATURE_AVX512BF16 | CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512BW |
                    CPU_FEATURE_AVX512VL;
    return (cpu_features() & need) == need;
}
#endif

Test(format, avx512bf16_conversions_are_the_portable_ones)
{
#if GELUCHECK_HAVE_AVX512BF16 && (defined(__x86_64__) || defined(__i386__))
    if (!cpu_has_bf16()) {
        cr_log_info("this CPU has no avx512_bf16: its bfloat16 conversions not tested");
        return;
    }
    long b = first_widen_difference(bfloat16_widen_avx512bf16, bfloat16_widen);
    cr_expect_eq(b, -1, "bfloat16 0x%04lx widens to other bits with AVX-512", b);
    float *y = malloc(((size_t)1 << 25) * sizeof *y);
    cr_assert_not_null(y);
    size_t n = bf16_narrow_probes(y);
    long i = first_narrow_difference(bfloat16_narrow_avx512bf16, bfloat16_narrow, y, n);
    uint32_t u = 0;
    if (i >= 0) memcpy(&u, &y[i], sizeof u);
    cr_expect_eq(i, -1, "binary32 0x%08x (%a, probe %ld) narrows to other bits with AVX-512 BF16",
                 u, i < 0 ? 0.0 : (double)y[i], i);
    /* the same at an unaligned start and with a tail */
    cr_expect_eq(first_narrow_difference(bfloat16_narrow_avx512bf16, bfloat16_narrow, y + 1, n - 1),
                 -1);
    /* every binary32 subnormal and every NaN, both signs */
    static const uint32_t range[][2] = {{0x00000001, 0x007fffff}, {0x80000001, 0x007fffff},
                                        {0x7f800001, 0x007fffff}, {0xff800001, 0x007fffff}};
    for (size_t r = 0; r < 4; r++) {
        int64_t d = first_bf16_range_difference(bfloat16_narrow_avx512bf16, range[r][0], range[r][1]);
        cr_expect_eq(d, -1, "binary32 0x%08llx narrows to other bits with AVX-512 BF16",
                     (unsigned long long)d);
    }
    free(y);
#else
    cr_log_info("built without -mavx512bf16: no avx512_bf16 conversions to test");
#endif
}

/* Planted: without the subnormal fix-up the instruction's zero for a binary32 subnormal is
 * caught at the first one that rounds to a bfloat16 subnormal, 0x00008001 (2^-149 · 0x8001,
 * above the midpoint 0x8000 of 0 and 2^-133), probe 3 (0's midpoint's upper neighbour); without
 * the NaN fix-up, at the first NaN whose payload reaches the upper half, 0x7f810000 (the
 * instruction gives 0x7fc1, the portable narrowing 0x7fc0). With both it is the real thing. */
Test(format, avx512bf16_planted_fixups_are_caught)
{
#if GELUCHECK_HAVE_AVX512BF16 && (defined(__x86_64__) || defined(__i386__))
    if (!cpu_has_bf16()) {
        cr_log_info("this CPU has no avx512_bf16: its planted fix-ups not tested");
        return;
    }
    float *y = malloc(((size_t)1 << 25) * sizeof *y);
    cr_assert_not_null(y);
    size_t n = bf16_narrow_probes(y);
    cr_expect_eq(first_narrow_difference(narrow_bf16_no_subnormal_fixup, bfloat16_narrow, y, n), 3);
    cr_expect_eq(first_bf16_range_difference(narrow_bf16_no_subnormal_fixup, 1, 0x7fffff), 0x8001);
    cr_expect_eq(first_bf16_range_difference(narrow_bf16_no_subnormal_fixup, 0x80000001, 0x7fffff),
                 0x80008001);
    cr_expect_eq(first_bf16_range_difference(narrow_bf16_no_nan_fixup, 0x7f800001, 0x7fffff),
                 0x7f810000);
    cr_expect_eq(first_narrow_difference(narrow_bf16_both_fixups, bfloat16_narrow, y, n), -1);
    free(y);
#else
    cr_log_info("built without -mavx512bf16: no avx512_bf16 conversions to test");
#endif
}

/* All 2^32 narrowings (GELUCHECK_BF16_EXHAUSTIVE=1; logged and skipped without it). */
Test(format, avx512bf16_narrowing_exhaustive)
{
#if GELUCHECK_HAVE_AVX512BF16 && (defined(__x86_64__) || defined(__i386__))
    const char *on = getenv("GELUCHECK_BF16_EXHAUSTIVE");
    if (!on || strcmp(on, "1") != 0) {
        cr_log_info("GELUCHECK_BF16_EXHAUSTIVE=1 compares all 2^32 avx512_bf16 narrowings");
        return;
    }
    if (!cpu_has_bf16()) {
        cr_log_info("this CPU has no avx512_bf16: its bfloat16 conversions not tested");
        return;
    }
    int64_t d = first_bf16_range_difference(bfloat16_narrow_avx512bf16, 0, (uint64_t)1 << 32);
    cr_expect_eq(d, -1, "binary32 0x%08llx narrows to other bits with AVX-512 BF16",
                 (unsigned long long)d);
#else
    cr_log_info("built without -mavx512bf16: no avx512_bf16 conversions to test");
#endif
}

/* The widened adapter's AVX-512 FP16 conversions for binary16 (impls/format16_avx512fp16.c)
 * against the portable ones (format16_bits.h), by bits, under MXCSR's defaults and under FTZ+DAZ.
 * Where the CPU or the build lacks it (AMD Zen 4) the tests are skipped with a message, and the comparison itself is shown to bite on
 * planted copies of the portable conversions, which run anywhere. */

/* Where a pair of binary16 array conversions first gives other bits than the portable ones: the
 * environment it ran under, the stage (below; −1: nowhere) and the index in it (an encoding for
 * stages 0 and 3, a probe's index for 1 and 2). */
typedef struct {
    gelu_fpenv env;
    int stage;
    int64_t at;
} binary16_difference;

static const char *const binary16_stages[] = {
    "widening every encoding", "narrowing the probes", "narrowing the probes from y + 1",
    "narrowing every binary32 subnormal and NaN"};

/* Each stage under IEEE, then under FTZ+DAZ (where MXCSR exists): every binary16 encoding widened
 * (a 7-element tail), narrow_probes' n values y[] (every value, midpoint and midpoint's
 * neighbour, binary32 subnormals, the overflow threshold, NaNs of every payload class, 2^20
 * random encodings), the same from y + 1 (unaligned, another tail), then, when `ranges`, every
 * binary32 subnormal and every NaN of both signs (2^25 narrowings per environment: the planted
 * test leaves them out, as its plants differ earlier and they cost minutes sanitized). */
static binary16_difference first_binary16_difference(widen_array widen, narrow_array narrow,
                                                     const float *y, size_t n, bool ranges)
{
    static const uint32_t range[][2] = {{0x00000001, 0x007fffff}, {0x80000001, 0x007fffff},
                                        {0x7f800001, 0x007fffff}, {0xff800001, 0x007fffff}};
    static const gelu_fpenv envs[] = {GELU_FPENV_IEEE, GELU_FPENV_FTZ_DAZ};
    for (size_t k = 0; k < 2 && gelu_fpenv_supported(envs[k]); k++) {
        gelu_fpenv e = envs[k];
        long d = first_widen_difference_in(e, widen, binary16_widen);
        if (d >= 0) return (binary16_difference){e, 0, d};
        if ((d = first_narrow_difference_in(e, narrow, binary16_narrow, y, n)) >= 0)
            return (binary16_difference){e, 1, d};
        if ((d = first_narrow_difference_in(e, narrow, binary16_narrow, y + 1, n - 1)) >= 0)
            return (binary16_difference){e, 2, d};
        for (size_t r = 0; ranges && r < 4; r++) {
            int64_t i = first_range_difference_in(e, narrow, binary16_narrow, range[r][0], range[r][1]);
            if (i >= 0) return (binary16_difference){e, 3, i};
        }
    }
    return (binary16_difference){GELU_FPENV_IEEE, -1, -1};
}

/* The difference d as a sentence: the input's bits and value, the portable result and that of
 * the conversions under test, recomputed on that input alone under d's environment. */
static const char *binary16_difference_text(binary16_difference d, widen_array widen,
                                            narrow_array narrow, const float *y, char *buf,
                                            size_t size)
{
    if (d.stage < 0) return "none";
    unsigned saved = gelu_fpenv_enter(d.env);
    if (d.stage == 0) {
        uint16_t x = (uint16_t)d.at;
        float got = float_of(0xffffffffu);
        widen(&x, &got, 1);
        gelu_fpenv_leave(saved);
        float want = binary16_widen(x);
        snprintf(buf, size, "%s (%s): binary16 0x%04x widens to 0x%08x (%a), not 0x%08x (%a)",
                 binary16_stages[0], gelu_fpenv_name(d.env), x, float_bits(got), (double)got,
                 float_bits(want), (double)want);
        return buf;
    }
    float v = d.stage == 3 ? float_of((uint32_t)d.at) : y[d.at + (d.stage == 2)];
    uint16_t got = 0xffff;
    narrow(&v, &got, 1);
    gelu_fpenv_leave(saved);
    snprintf(buf, size, "%s (%s), at %lld: binary32 0x%08x (%a) narrows to 0x%04x, not 0x%04x",
             binary16_stages[d.stage], gelu_fpenv_name(d.env), (long long)d.at, float_bits(v),
             (double)v, got, binary16_narrow(v));
    return buf;
}

/* Planted: copies of the portable conversions with one defect each, of the kinds an instruction
 * path can have — a NaN's payload kept by the narrowing (vcvtps2ph's), a signalling NaN quieted
 * by the widening (vcvtph2ps's), ties rounded away from zero, the last partial step of 16 lanes
 * left out, binary16 subnormals read as zero under DAZ, binary16 subnormal results flushed to zero
 * under FTZ — and the portable conversions themselves, which must pass. */
static uint16_t narrow_keeping_nan_payload(float v)
{
    uint32_t u = float_bits(v);
    bool nan = (u & 0x7fffffffu) > 0x7f800000u;
    return nan ? (uint16_t)((u >> 16 & 0x8000u) | 0x7e00u | (u >> 13 & 0x3ffu)) : binary16_narrow(v);
}
static float widen_quieting(uint16_t b)
{
    bool snan = (b & 0x7fffu) > 0x7c00u && !(b & 0x200u);
    return binary16_widen(snan ? (uint16_t)(b | 0x200u) : b);
}
static uint16_t narrow_ties_away(float v)
{
    uint16_t r = binary16_narrow(v), up = (uint16_t)(r + 1); /* up: the next magnitude */
    if (!isfinite(v) || (r & 0x7fffu) >= 0x7bffu) return r;
    double a = fabs((double)v), lo = fabs((double)binary16_widen(r));
    double hi = fabs((double)binary16_widen(up));
    return a > lo && a - lo == hi - a ? up : r;
}
/* An array conversion of a scalar one. */
#define WIDEN_ARRAY(name, widen1)                                                                  \
    static void name(const uint16_t *x, float *y, size_t n)                                       \
    {                                                                                             \
        for (size_t i = 0; i < n; i++) y[i] = widen1(x[i]);                                      \
    }
#define NARROW_ARRAY(name, narrow1)                                                                \
    static void name(const float *y, uint16_t *x, size_t n)                                       \
    {                                                                                             \
        for (size_t i = 0; i < n; i++) x[i] = narrow1(y[i]);                                     \
    }
WIDEN_ARRAY(portable_widen, binary16_widen)
NARROW_ARRAY(portable_narrow, binary16_narrow)
NARROW_ARRAY(nan_payload_narrow, narrow_keeping_nan_payload)
WIDEN_ARRAY(quieting_widen, widen_quieting)
NARROW_ARRAY(ties_away_narrow, narrow_ties_away)
/* wrong at one binary32 subnormal the probes lack, 0x00000003: only the ranges see it */
static uint16_t narrow_wrong_at_3(float v)
{
    return float_bits(v) == 3 ? 0x0001 : binary16_narrow(v);
}
NARROW_ARRAY(wrong_at_3_narrow, narrow_wrong_at_3)
static void tailless_widen(const uint16_t *x, float *y, size_t n)
{
    portable_widen(x, y, n - n % 16);
}
static void tailless_narrow(const float *y, uint16_t *x, size_t n)
{
    portable_narrow(y, x, n - n % 16);
}
static void daz_widen(const uint16_t *x, float *y, size_t n)
{
    bool daz = gelu_fpenv_current() & GELU_FPENV_DAZ;
    for (size_t i = 0; i < n; i++)
        y[i] = binary16_widen(daz && (x[i] & 0x7c00u) == 0 ? (uint16_t)(x[i] & 0x8000u) : x[i]);
}
static void ftz_narrow(const float *y, uint16_t *x, size_t n)
{
    bool ftz = gelu_fpenv_current() & GELU_FPENV_FTZ;
    for (size_t i = 0; i < n; i++) {
        uint16_t r = binary16_narrow(y[i]);
        x[i] = ftz && (r & 0x7c00u) == 0 ? (uint16_t)(r & 0x8000u) : r;
    }
}

/* Each plant is caught where it first differs: the NaN payload at the first NaN probe, the
 * quieting at the first signalling NaN 0x7c01, ties away at probe 1 (2^-25, the midpoint of 0 and
 * 2^-24), the left-out tail at the first element past the last full step (0xfff0 in the
 * widening's first call of 65,529 = 16 · 4095 + 9 encodings, n − n mod 16 in the narrowing's),
 * DAZ at the first subnormal 0x0001 and FTZ at probe 3 (2^-25's upper neighbour, which rounds to
 * 2^-24) — both in the FTZ+DAZ pass only —, and a wrong subnormal the probes lack (0x00000003)
 * in the ranges, the one plant run with them. */
Test(format, binary16_comparison_catches_planted_conversions)
{
    float *y = malloc(((size_t)1 << 21) * sizeof *y);
    cr_assert_not_null(y);
    size_t n = narrow_probes(y);
    long first_nan = 0;
    while (!isnan(y[first_nan])) first_nan++;
    bool fpenv = gelu_fpenv_supported(GELU_FPENV_FTZ_DAZ);
    struct {
        const char *what;
        widen_array widen;
        narrow_array narrow;
        binary16_difference want;
        bool ranges;
    } plants[] = {
        {"the portable conversions", portable_widen, portable_narrow, {GELU_FPENV_IEEE, -1, -1},
         false},
        {"a NaN's payload kept", portable_widen, nan_payload_narrow,
         {GELU_FPENV_IEEE, 1, first_nan}, false},
        {"signalling NaNs quieted", quieting_widen, portable_narrow, {GELU_FPENV_IEEE, 0, 0x7c01},
         false},
        {"ties away from zero", portable_widen, ties_away_narrow, {GELU_FPENV_IEEE, 1, 1}, false},
        {"the widening's tail left out", tailless_widen, portable_narrow,
         {GELU_FPENV_IEEE, 0, 0xfff0}, false},
        {"the narrowing's tail left out", portable_widen, tailless_narrow,
         n % 16 ? (binary16_difference){GELU_FPENV_IEEE, 1, (int64_t)(n - n % 16)}
                : (binary16_difference){GELU_FPENV_IEEE, 2, (int64_t)(n - 1 - (n - 1) % 16)},
         false},
        {"subnormals read as zero under DAZ", daz_widen, portable_narrow,
         fpenv ? (binary16_difference){GELU_FPENV_FTZ_DAZ, 0, 1}
               : (binary16_difference){GELU_FPENV_IEEE, -1, -1}, false},
        {"subnormal results flushed under FTZ", portable_widen, ftz_narrow,
         fpenv ? (binary16_difference){GELU_FPENV_FTZ_DAZ, 1, 3}
               : (binary16_difference){GELU_FPENV_IEEE, -1, -1}, false},
        {"one subnormal the probes lack", portable_widen, wrong_at_3_narrow,
         {GELU_FPENV_IEEE, 3, 3}, true},
    };
    for (size_t p = 0; p < sizeof plants / sizeof *plants; p++) {
        binary16_difference d =
            first_binary16_difference(plants[p].widen, plants[p].narrow, y, n, plants[p].ranges);
        char text[256];
        binary16_difference_text(d, plants[p].widen, plants[p].narrow, y, text, sizeof text);
        cr_expect(d.stage == plants[p].want.stage && d.at == plants[p].want.at &&
                      (d.stage < 0 || d.env == plants[p].want.env),
                  "%s: found %s (stage %d, at %lld), not stage %d at %lld", plants[p].what, text,
                  d.stage, (long long)d.at, plants[p].want.stage, (long long)plants[p].want.at);
    }
    free(y);
}

#if GELUCHECK_HAVE_AVX512FP16 && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
/* Plain AVX-512 for the vectors; the FP16 instructions themselves by inline assembly, as clang
 * 14's immintrin.h declares their intrinsics only in files built with -mavx512fp16. */
#define FP16_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))

static bool cpu_has_fp16(void)
{
    unsigned need = CPU_FEATURE_AVX512FP16 | CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512BW |
                    CPU_FEATURE_AVX512VL;
    return (cpu_features() & need) == need;
}

/* Planted: the bare instructions, one element at a time, without the NaN lanes rebuilt. */
FP16_TARGET static void widen_bare_fp16(const uint16_t *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        __m128i h = _mm_cvtsi32_si128(x[i]);
        __m128 w;
        __asm__("vcvtph2psx %1, %0" : "=v"(w) : "v"(h));
        y[i] = _mm_cvtss_f32(w);
    }
}
FP16_TARGET static void narrow_bare_fp16(const float *y, uint16_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        __m512 v = _mm512_set1_ps(y[i]);
        __m256i h;
        __asm__("vcvtps2phx %{rn-sae%}, %1, %0" : "=v"(h) : "v"(v));
        x[i] = (uint16_t)_mm_extract_epi16(_mm256_castsi256_si128(h), 0);
    }
}
#endif

Test(format, avx512fp16_conversions_are_the_portable_ones)
{
#if GELUCHECK_HAVE_AVX512FP16 && (defined(__x86_64__) || defined(__i386__))
    if (!cpu_has_fp16()) {
        cr_log_info("this CPU has no avx512_fp16: its binary16 conversions not tested (no CPU "
                    "with it has run them yet)");
        return;
    }
    float *y = malloc(((size_t)1 << 21) * sizeof *y);
    cr_assert_not_null(y);
    size_t n = narrow_probes(y);
    binary16_difference d =
        first_binary16_difference(binary16_widen_avx512fp16, binary16_narrow_avx512fp16, y, n, true);
    char text[256];
    cr_expect_eq(d.stage, -1, "AVX-512 FP16 against the portable conversions: %s",
                 binary16_difference_text(d, binary16_widen_avx512fp16, binary16_narrow_avx512fp16,
                                          y, text, sizeof text));
    /* planted: the bare instructions are caught at the first NaN that differs, as F16C's are
     * (the SDM's conversions: a signalling NaN quieted, a narrowed NaN's payload kept) */
    cr_expect_eq(first_widen_difference(widen_bare_fp16, binary16_widen), 0x7c01);
    long first_nan = 0;
    while (!isnan(y[first_nan])) first_nan++;
    cr_expect_eq(first_narrow_difference(narrow_bare_fp16, binary16_narrow, y, n), first_nan);
    free(y);
#else
    cr_log_info("built without -mavx512fp16: no avx512_fp16 conversions to test");
#endif
}

/* All 2^32 narrowings, under IEEE and FTZ+DAZ (GELUCHECK_FP16_EXHAUSTIVE=1; logged and skipped
 * without it). */
Test(format, avx512fp16_narrowing_exhaustive)
{
#if GELUCHECK_HAVE_AVX512FP16 && (defined(__x86_64__) || defined(__i386__))
    const char *on = getenv("GELUCHECK_FP16_EXHAUSTIVE");
    if (!on || strcmp(on, "1") != 0) {
        cr_log_info("GELUCHECK_FP16_EXHAUSTIVE=1 compares all 2^32 avx512_fp16 narrowings");
        return;
    }
    if (!cpu_has_fp16()) {
        cr_log_info("this CPU has no avx512_fp16: its binary16 conversions not tested");
        return;
    }
    static const gelu_fpenv envs[] = {GELU_FPENV_IEEE, GELU_FPENV_FTZ_DAZ};
    for (size_t k = 0; k < 2 && gelu_fpenv_supported(envs[k]); k++) {
        int64_t d = first_range_difference_in(envs[k], binary16_narrow_avx512fp16, binary16_narrow,
                                              0, (uint64_t)1 << 32);
        cr_expect_eq(d, -1, "binary32 0x%08llx narrows to other bits with AVX-512 FP16 (%s)",
                     (unsigned long long)d, gelu_fpenv_name(envs[k]));
    }
#else
    cr_log_info("built without -mavx512fp16: no avx512_fp16 conversions to test");
#endif
}

/* gelu_impl_run_u16_tiled (bench's 16-bit runs) gives one call's bits at every encoding, with a
 * tile that divides nothing (the last tile short) and a tile of one, both directions, in both
 * formats, for a widened row and a native one. */
Test(format, tiled_widened_calls_give_one_calls_bits)
{
    enum { N = 65536, TILE = 1000 };
    uint16_t *x = malloc(N * sizeof *x), *once = malloc(N * sizeof *once), *tiled = malloc(N * sizeof *tiled);
    float *wx = malloc(N * sizeof *wx), *wy = malloc(N * sizeof *wy);
    cr_assert(x && once && tiled && wx && wy);
    for (size_t i = 0; i < N; i++) x[i] = (uint16_t)i;
    const gelu_format_id ids[] = {GELU_FORMAT_BFLOAT16, GELU_FORMAT_BINARY16};
    const char *natives[] = {"cr_bfloat16", "cr_binary16"};
    for (size_t f = 0; f < 2; f++) {
        gelu_impl w = gelu_impl_widened(gelu_impl_find("erf_naive"), ids[f]);
        const gelu_impl *rows[] = {&w, gelu_impl_find_in(natives[f], ids[f])};
        cr_assert_not_null(rows[1]);
        for (size_t r = 0; r < 2; r++)
            for (int grad = 0; grad < 2; grad++)
                for (size_t tile = 1; tile <= TILE; tile += TILE - 1) {
                    gelu_impl_run_u16(rows[r], grad, x, once, N, wx, wy);
                    memset(tiled, 0xa5, N * sizeof *tiled);
                    gelu_impl_run_u16_tiled(rows[r], grad, x, tiled, N, wx, wy, tile);
                    size_t i = 0;
                    while (i < N && once[i] == tiled[i]) i++;
                    cr_expect_eq(i, N, "%s %s in %s, tiles of %zu: encoding 0x%04zx gives 0x%04x, one call 0x%04x",
                                 rows[r]->name, grad ? "derivative" : "forward", gelu_format_of(ids[f])->name,
                                 tile, i, i < N ? tiled[i] : 0, i < N ? once[i] : 0);
                }
    }
    free(x), free(once), free(tiled), free(wx), free(wy);
}
