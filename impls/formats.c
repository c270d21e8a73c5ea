/* The format table (see gelu_format.h): one descriptor per registered format, the special
 * encodings derived from a descriptor's fields, the 16-bit formats' values and rounding from a
 * double from the fields alone (precision, emin, emax), and their widening to and narrowing from
 * binary32 on the bits of each (the widened adapter's conversions, checked against the former in
 * tests/test_format.c). */
#include "gelu_format.h"
#include "float_bits.h"
#include "format16_bits.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gelu_impl.h"
#include "gelucheck_config.h"

/* A small format's fields: t fraction bits, exponent bias emax, the exponent field's all-ones. */
static unsigned fraction_bits(const gelu_format *f) { return (unsigned)f->precision - 1; }
static uint16_t exponent_all_ones(const gelu_format *f)
{
    return (uint16_t)(((1u << (f->storage_bits - (unsigned)f->precision)) - 1) << fraction_bits(f));
}

/* The value of a small format's encoding: ±2^(e−bias)·1.f, ±2^emin·0.f for a zero exponent field. */
static double format16_to_double(const gelu_format *f, uint64_t bits)
{
    unsigned t = fraction_bits(f);
    uint16_t b = (uint16_t)bits, inf = exponent_all_ones(f);
    double s = b >> (f->storage_bits - 1) & 1u ? -1.0 : 1.0;
    unsigned field = (b & inf) >> t, frac = b & ((1u << t) - 1);
    if ((b & inf) == inf) return frac ? copysign(NAN, s) : s * INFINITY;
    if (field == 0) return s * ldexp(frac, f->emin - (int)t);
    return s * ldexp((double)(frac | 1u << t), (int)field - f->emax - (int)t);
}

uint16_t gelu_format_round(const gelu_format *f, double v)
{
    unsigned t = fraction_bits(f);
    uint64_t d;
    memcpy(&d, &v, sizeof d);
    uint16_t sign = d >> 63 ? (uint16_t)(1u << (f->storage_bits - 1)) : 0;
    uint16_t inf = exponent_all_ones(f);
    int E = (int)(d >> 52 & 0x7ff);
    if (E == 0x7ff) return sign | inf | (uint16_t)((d << 12) ? 1u << (t - 1) : 0); /* NaN, inf */
    /* Below 2^-1022 (zero, binary64's subnormals) is below half the smallest subnormal of both
     * formats: ±0. */
    if (E == 0) return sign;
    int e = E - 1023; /* |v| = m53·2^(e−52), m53 = 1.fraction in 53 bits */
    if (e > f->emax) return sign | inf;
    uint64_t m53 = d & 0xfffffffffffffull, one = 1;
    m53 |= one << 52;
    /* The quantum of the binade, never below the smallest subnormal's: 2^(max(e, emin) − t); m53
     * shifted right by sh = that exponent − (e − 52) and rounded to nearest even. */
    int sh = (e < f->emin ? f->emin : e) - (int)t - (e - 52);
    if (sh > 54) return sign; /* |v| < 2^-1 quantum... below half the smallest subnormal */
    uint64_t m = m53 >> sh, rem = m53 & ((one << sh) - 1), half = one << (sh - 1);
    m += rem > half || (rem == half && (m & 1));
    /* As fields: below 2^emin a subnormal fraction (m = 2^t is the smallest normal's encoding);
     * otherwise the exponent field e + emax, m = 2^(t+1) carried into it by the addition (past
     * the largest finite, into the infinity's encoding). */
    if (e < f->emin) return sign | (uint16_t)m;
    uint32_t field = (uint32_t)(e + f->emax);
    return sign | (uint16_t)((field << t) + (uint32_t)(m - (one << t)));
}

/* The generic conversions, from the fields: a small format's values are binary32 values when
 * precision <= 24 and its range lies within binary32's (gelu_format_add checks). */
double gelu_format_to_double_fields(const gelu_format *f, uint64_t bits)
{
    return format16_to_double(f, bits);
}

float gelu_format_widen_fields(const gelu_format *f, uint16_t bits)
{
    unsigned t = fraction_bits(f);
    uint16_t inf = exponent_all_ones(f), sign_bit = (uint16_t)(1u << (f->storage_bits - 1));
    if ((bits & inf) == inf && (bits & ((1u << t) - 1))) { /* a NaN: its payload shifted up */
        uint32_t w = (bits & sign_bit ? 0x80000000u : 0) | 0x7f800000u |
                     (uint32_t)(bits & ((1u << t) - 1)) << (23 - t);
        return format16_float(w);
    }
    return (float)format16_to_double(f, bits); /* exact: a binary32 value */
}

uint16_t gelu_format_narrow_fields(const gelu_format *f, float y)
{
    return gelu_format_round(f, y); /* y is exactly a double: one rounding */
}

void gelu_format_widen_array_fields(const gelu_format *f, const uint16_t *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = gelu_format_widen_fields(f, x[i]);
}

void gelu_format_narrow_array_fields(const gelu_format *f, const float *y, uint16_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = gelu_format_narrow_fields(f, y[i]);
}

/* bfloat16's and binary16's own conversions (format16_bits.h, on the bits), the loops inline. */
static float bfloat16_widen_row(const gelu_format *f, uint16_t b) { (void)f; return bfloat16_widen(b); }
static uint16_t bfloat16_narrow_row(const gelu_format *f, float y) { (void)f; return bfloat16_narrow(y); }
static void bfloat16_widen_loop(const gelu_format *f, const uint16_t *x, float *y, size_t n)
{
    (void)f;
    for (size_t i = 0; i < n; i++) y[i] = bfloat16_widen(x[i]);
}
static void bfloat16_narrow_loop(const gelu_format *f, const float *y, uint16_t *x, size_t n)
{
    (void)f;
    for (size_t i = 0; i < n; i++) x[i] = bfloat16_narrow(y[i]);
}
static float binary16_widen_row(const gelu_format *f, uint16_t b) { (void)f; return binary16_widen(b); }
static uint16_t binary16_narrow_row(const gelu_format *f, float y) { (void)f; return binary16_narrow(y); }
static void binary16_widen_loop(const gelu_format *f, const uint16_t *x, float *y, size_t n)
{
    (void)f;
    for (size_t i = 0; i < n; i++) y[i] = binary16_widen(x[i]);
}
static void binary16_narrow_loop(const gelu_format *f, const float *y, uint16_t *x, size_t n)
{
    (void)f;
    for (size_t i = 0; i < n; i++) x[i] = binary16_narrow(y[i]);
}

static double bfloat16_to_double(uint64_t bits)
{
    return format16_to_double(gelu_format_of(GELU_FORMAT_BFLOAT16), bits);
}
static uint64_t bfloat16_from_double(double v)
{
    return gelu_format_round(gelu_format_of(GELU_FORMAT_BFLOAT16), v);
}
static double binary16_to_double(uint64_t bits)
{
    return format16_to_double(gelu_format_of(GELU_FORMAT_BINARY16), bits);
}
static uint64_t binary16_from_double(double v)
{
    return gelu_format_round(gelu_format_of(GELU_FORMAT_BINARY16), v);
}

/* The instructions that convert bfloat16 and binary16 arrays (format16_bits.h; the same bits as
 * the portable loops, tests/test_format.c), NULL where this build has none. AVX-512's around the
 * AVX-512 builds only (an avx2 row stays an AVX2 program, the portable row portable), with the
 * masked 16-bit moves, loads and stores their files make; F16C's around every vector build. */
#define AVX512_16BIT (CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512BW | CPU_FEATURE_AVX512VL)
#if GELUCHECK_HAVE_AVX512BF16
#define BF16_ARRAYS bfloat16_widen_avx512bf16, bfloat16_narrow_avx512bf16
#else
#define BF16_ARRAYS NULL, NULL
#endif
#if GELUCHECK_HAVE_AVX512FP16
#define FP16_ARRAYS binary16_widen_avx512fp16, binary16_narrow_avx512fp16
#else
#define FP16_ARRAYS NULL, NULL
#endif
#if GELUCHECK_HAVE_AVX2
#define F16C_ARRAYS binary16_widen_f16c, binary16_narrow_f16c
#else
#define F16C_ARRAYS NULL, NULL
#endif
static const gelu_format_fast_path bfloat16_fast[] = {
    {"avx512_bf16 (vcvtneps2bf16)", CPU_FEATURE_AVX512F, CPU_FEATURE_AVX512BF16 | AVX512_16BIT,
     false, "GELUCHECK_NO_BF16", BF16_ARRAYS},
};
static const gelu_format_fast_path binary16_fast[] = {
    {"avx512_fp16 (vcvtph2psx, vcvtps2phx)", CPU_FEATURE_AVX512F,
     CPU_FEATURE_AVX512FP16 | AVX512_16BIT, false, "GELUCHECK_NO_FP16", FP16_ARRAYS},
    {"f16c (vcvtph2ps, vcvtps2ph)", 0, CPU_FEATURE_F16C, true, NULL, F16C_ARRAYS},
};

/* e5m2 (OFP8): IEEE-style, from its fields. */
static double e5m2_to_double(uint64_t bits)
{
    return format16_to_double(gelu_format_of(GELU_FORMAT_E5M2), bits);
}
static uint64_t e5m2_from_double(double v)
{
    return gelu_format_round(gelu_format_of(GELU_FORMAT_E5M2), v);
}

/* e4m3 (OFP8, "E4M3FN"): the IEEE-style reading of its fields for every encoding but the NaNs
 * 0x7f and 0xff (the all-ones exponent holds normals, 256 to 448). Rounding to nearest even,
 * and past the largest finite to NaN, not to 448: a value above 464 (the midpoint of 448 and
 * 480, the next step, which is the NaN encoding) is a NaN, 464 itself goes to the even 448 —
 * the conversion PyTorch's float8_e4m3fn makes (its c10::Float8_e4m3fn from float: NaN at
 * and above 480, its rounding the same below); the OCP specification leaves saturation to
 * the implementation. */
enum { E4M3_NAN = 0x7f, E4M3_SIGN = 0x80 };
static double e4m3_to_double(uint64_t bits)
{
    if ((bits & 0x7f) == E4M3_NAN) return copysign(NAN, bits & E4M3_SIGN ? -1.0 : 1.0);
    /* the all-ones exponent read as a normal: a row with emax 8 and no infinity */
    unsigned field = bits >> 3 & 15, frac = bits & 7;
    double m = field ? ldexp(8 + frac, (int)field - 7 - 3) : ldexp(frac, -9);
    return bits & E4M3_SIGN ? -m : m;
}
static uint64_t e4m3_from_double(double v)
{
    /* below 2^8 the IEEE-style format of e4m3's fields (exponent bias 7: emax 7), whose
     * "infinity" encoding 0x78 is e4m3's 256, where a carry takes it */
    static const gelu_format below_256 = {.storage_bits = 8, .precision = 4, .emin = -6, .emax = 7};
    uint16_t sign = signbit(v) ? E4M3_SIGN : 0;
    double a = fabs(v);
    if (isnan(v) || a > 464.0) return sign | E4M3_NAN;
    if (a < 256.0) return gelu_format_round(&below_256, v);
    /* [256, 464]: steps of 32 from 0x78, ties to even (464 -> 448, 0x7e) */
    return sign | (uint16_t)(0x78 + (long)nearbyint(a / 32.0) - 8);
}
static float e4m3_widen(const gelu_format *f, uint16_t b)
{
    (void)f;
    return (float)e4m3_to_double(b); /* exact; its NaN is the quiet NaN of its sign */
}
static uint16_t e4m3_narrow(const gelu_format *f, float y)
{
    (void)f;
    return (uint16_t)e4m3_from_double(y);
}
static void e4m3_widen_loop(const gelu_format *f, const uint16_t *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = e4m3_widen(f, x[i]);
}
static void e4m3_narrow_loop(const gelu_format *f, const float *y, uint16_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) x[i] = e4m3_narrow(f, y[i]);
}
/* Its specials in gelu_format_special_encodings' order: no infinity and one NaN per sign, so
 * the slots of ±inf and of the quiet and signalling NaNs all hold ±NaN. */
static void e4m3_specials(const gelu_format *f, uint64_t *out)
{
    (void)f;
    const uint64_t v[GELU_FORMAT_SPECIAL_COUNT / 2] = {0, E4M3_NAN, E4M3_NAN, E4M3_NAN, 0x7e,
                                                      0x08, 0x01};
    for (size_t i = 0; i < GELU_FORMAT_SPECIAL_COUNT / 2; i++) {
        out[2 * i] = v[i];
        out[2 * i + 1] = v[i] | E4M3_SIGN;
    }
}

static double binary32_to_double(uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

static uint64_t binary32_from_double(double v)
{
    float x = (float)v; /* exact for a binary32 value; a NaN stays a NaN of v's sign */
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    if (isnan(v)) b = (b & 0x80000000u) | 0x7fc00000u;
    return b;
}

/* binary64: the encoding is the double's; a NaN's encoding is the quiet NaN of its sign */
static double binary64_to_double(uint64_t bits) { return double_from_bits(bits); }

static uint64_t binary64_from_double(double v)
{
    uint64_t b = double_bits(v);
    return isnan(v) ? (b & UINT64_C(0x8000000000000000)) | UINT64_C(0x7ff8000000000000) : b;
}

/* The rows: the built-in formats, then room for those added at run time (gelu_format_add). */
enum { GELU_FORMAT_ADDED_MAX = 4 };
static gelu_format formats[GELU_FORMAT_COUNT + GELU_FORMAT_ADDED_MAX] = {
    [GELU_FORMAT_BINARY32] = {.id = GELU_FORMAT_BINARY32, .name = "binary32", .storage_bits = 32,
                              .precision = 24, .emin = -126, .emax = 127,
                              .to_double = binary32_to_double,
                              .from_double = binary32_from_double},
    /* binary32's upper half: its exponent range, 8 bits of precision */
    [GELU_FORMAT_BFLOAT16] = {.id = GELU_FORMAT_BFLOAT16, .name = "bfloat16", .storage_bits = 16,
                              .precision = 8, .emin = -126, .emax = 127,
                              .to_double = bfloat16_to_double,
                              .from_double = bfloat16_from_double,
                              .widen = bfloat16_widen_row, .narrow = bfloat16_narrow_row,
                              .widen_array = bfloat16_widen_loop,
                              .narrow_array = bfloat16_narrow_loop,
                              .fast_paths = bfloat16_fast,
                              .nfast_paths = sizeof bfloat16_fast / sizeof *bfloat16_fast,
                              .conversions_path = gelu_widened_bfloat16_path,
                              .in_report = true},
    /* IEEE 754-2019 table 3.5 */
    [GELU_FORMAT_BINARY16] = {.id = GELU_FORMAT_BINARY16, .name = "binary16", .storage_bits = 16,
                              .precision = 11, .emin = -14, .emax = 15,
                              .to_double = binary16_to_double,
                              .from_double = binary16_from_double,
                              .widen = binary16_widen_row, .narrow = binary16_narrow_row,
                              .widen_array = binary16_widen_loop,
                              .narrow_array = binary16_narrow_loop,
                              .fast_paths = binary16_fast,
                              .nfast_paths = sizeof binary16_fast / sizeof *binary16_fast,
                              .conversions_path = gelu_widened_binary16_path,
                              .in_report = true},
    /* IEEE 754-2019 table 3.5: sampled only (gelu_format_encodings is 0) */
    [GELU_FORMAT_BINARY64] = {.id = GELU_FORMAT_BINARY64, .name = "binary64", .storage_bits = 64,
                              .precision = 53, .emin = -1022, .emax = 1023,
                              .to_double = binary64_to_double,
                              .from_double = binary64_from_double, .in_report = true},
    /* OFP8 E4M3 (see e4m3_to_double) */
    [GELU_FORMAT_E4M3] = {.id = GELU_FORMAT_E4M3, .name = "e4m3", .storage_bits = 8,
                          .precision = 4, .emin = -6, .emax = 8, .no_infinity = true,
                          .to_double = e4m3_to_double,
                          .from_double = e4m3_from_double, .widen = e4m3_widen,
                          .narrow = e4m3_narrow, .widen_array = e4m3_widen_loop,
                          .narrow_array = e4m3_narrow_loop, .special_encodings = e4m3_specials,
                          .conversions_path = gelu_widened_fields_path, .in_report = true},
    /* OFP8 E5M2: binary16's exponent range, 3 bits of precision */
    [GELU_FORMAT_E5M2] = {.id = GELU_FORMAT_E5M2, .name = "e5m2", .storage_bits = 8,
                          .precision = 3, .emin = -14, .emax = 15, .to_double = e5m2_to_double,
                          .from_double = e5m2_from_double, .widen = gelu_format_widen_fields,
                          .narrow = gelu_format_narrow_fields,
                          .widen_array = gelu_format_widen_array_fields,
                          .narrow_array = gelu_format_narrow_array_fields,
                          .conversions_path = gelu_widened_fields_path, .in_report = true},
};

static int nformats = GELU_FORMAT_COUNT;

const gelu_format *gelu_format_of(gelu_format_id f) { return &formats[f]; }

int gelu_format_count(void) { return nformats; }

int gelu_format_add(const gelu_format *row, char *err, size_t errsize)
{
    int t = row->precision - 1, ebits = (int)row->storage_bits - row->precision;
    if (gelu_format_find(row->name)) {
        snprintf(err, errsize, "format '%s': a format of that name exists", row->name);
        return -1;
    }
    if (nformats == GELU_FORMAT_COUNT + GELU_FORMAT_ADDED_MAX) {
        snprintf(err, errsize, "format '%s': more than %d formats added", row->name,
                 GELU_FORMAT_ADDED_MAX);
        return -1;
    }
    /* a small IEEE-style format within binary32: exponent field of ebits bits (bias emax) */
    if (row->storage_bits > 16 || row->no_infinity || t < 2 || t > 23 || ebits < 2 || ebits > 8 ||
        row->emax != (1 << (ebits - 1)) - 1 || row->emin != 1 - row->emax ||
        row->emin - t < -149 || !row->widen || !row->narrow || !row->widen_array ||
        !row->narrow_array || !row->to_double || !row->from_double) {
        snprintf(err, errsize, "format '%s': not a small IEEE-style format within binary32 "
                 "with its conversions set (%u bits, precision %d, emin %d, emax %d)",
                 row->name, row->storage_bits, row->precision, row->emin, row->emax);
        return -1;
    }
    formats[nformats] = *row;
    formats[nformats].id = (gelu_format_id)nformats;
    if (!row->conversions_path) formats[nformats].conversions_path = gelu_widened_fields_path;
    return nformats++;
}

const char *gelu_format_names(const char *sep, const char *last, bool small_only, char *buf,
                              size_t size)
{
    size_t used = 0;
    int n = 0, k = 0;
    for (int f = 0; f < nformats; f++) n += !small_only || f == 0 || gelu_format_small(&formats[f]);
    buf[0] = '\0';
    for (int f = 0; f < nformats && used < size; f++) {
        if (small_only && f != 0 && !gelu_format_small(&formats[f])) continue;
        k++;
        used += (size_t)snprintf(buf + used, size - used, "%s%s", k == 1 ? "" : k == n ? last : sep,
                                 formats[f].name);
    }
    return buf;
}

const gelu_format *gelu_format_find(const char *name)
{
    for (int f = 0; f < nformats; f++)
        if (strcmp(formats[f].name, name) == 0) return &formats[f];
    return NULL;
}

uint64_t gelu_format_encodings(const gelu_format *f)
{
    return f->storage_bits < 64 ? UINT64_C(1) << f->storage_bits : 0;
}

void gelu_format_special_encodings(const gelu_format *f, uint64_t out[GELU_FORMAT_SPECIAL_COUNT])
{
    if (f->special_encodings) {
        f->special_encodings(f, out);
        return;
    }
    unsigned t = (unsigned)f->precision - 1; /* fraction bits */
    uint64_t sign = UINT64_C(1) << (f->storage_bits - 1);
    uint64_t inf = (sign - 1) & ~((UINT64_C(1) << t) - 1); /* exponent field all ones */
    uint64_t min_normal = UINT64_C(1) << t;
    uint64_t v[GELU_FORMAT_SPECIAL_COUNT / 2] = {
        0,                           /* zero */
        inf,                         /* infinity */
        inf | UINT64_C(1) << (t - 1), /* quiet NaN: the fraction's top bit */
        inf | UINT64_C(1) << (t - 2), /* signalling NaN: the next bit alone (never zero) */
        inf - 1,                     /* the largest finite */
        min_normal,                  /* the smallest normal */
        1,                           /* the smallest subnormal */
    };
    for (size_t i = 0; i < GELU_FORMAT_SPECIAL_COUNT / 2; i++) {
        out[2 * i] = v[i];
        out[2 * i + 1] = v[i] | sign;
    }
}
