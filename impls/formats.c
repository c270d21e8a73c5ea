/* The format table (see gelu_format.h): one descriptor per registered format, the special
 * encodings derived from a descriptor's fields, the 16-bit formats' values and rounding from a
 * double from the fields alone (precision, emin, emax), and their widening to and narrowing from
 * binary32 on the bits of each (the widened adapter's conversions, checked against the former in
 * tests/test_format.c). */
#include "gelu_format.h"
#include "float_bits.h"
#include "format16_bits.h"

#include <math.h>
#include <string.h>

/* A 16-bit format's fields: t fraction bits, exponent bias emax, the exponent field's all-ones. */
static unsigned fraction_bits(const gelu_format *f) { return (unsigned)f->precision - 1; }
static uint16_t exponent_all_ones(const gelu_format *f)
{
    return (uint16_t)(((1u << (f->storage_bits - (unsigned)f->precision)) - 1) << fraction_bits(f));
}

/* The value of a 16-bit encoding: ±2^(e−bias)·1.f, ±2^emin·0.f for a zero exponent field. */
static double format16_to_double(const gelu_format *f, uint64_t bits)
{
    unsigned t = fraction_bits(f);
    uint16_t b = (uint16_t)bits, inf = exponent_all_ones(f);
    double s = b & 0x8000u ? -1.0 : 1.0;
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
    uint16_t sign = d >> 63 ? 0x8000u : 0, inf = exponent_all_ones(f);
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

float gelu_format_widen(const gelu_format *f, uint16_t bits)
{
    return f->id == GELU_FORMAT_BFLOAT16 ? bfloat16_widen(bits) : binary16_widen(bits);
}

uint16_t gelu_format_narrow(const gelu_format *f, float y)
{
    return f->id == GELU_FORMAT_BFLOAT16 ? bfloat16_narrow(y) : binary16_narrow(y);
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

static const gelu_format formats[GELU_FORMAT_COUNT] = {
    [GELU_FORMAT_BINARY32] = {.id = GELU_FORMAT_BINARY32, .name = "binary32", .storage_bits = 32,
                              .precision = 24, .emin = -126, .emax = 127,
                              .to_double = binary32_to_double,
                              .from_double = binary32_from_double},
    /* binary32's upper half: its exponent range, 8 bits of precision */
    [GELU_FORMAT_BFLOAT16] = {.id = GELU_FORMAT_BFLOAT16, .name = "bfloat16", .storage_bits = 16,
                              .precision = 8, .emin = -126, .emax = 127,
                              .to_double = bfloat16_to_double,
                              .from_double = bfloat16_from_double},
    /* IEEE 754-2019 table 3.5 */
    [GELU_FORMAT_BINARY16] = {.id = GELU_FORMAT_BINARY16, .name = "binary16", .storage_bits = 16,
                              .precision = 11, .emin = -14, .emax = 15,
                              .to_double = binary16_to_double,
                              .from_double = binary16_from_double},
    /* IEEE 754-2019 table 3.5: sampled only (gelu_format_encodings is 0) */
    [GELU_FORMAT_BINARY64] = {.id = GELU_FORMAT_BINARY64, .name = "binary64", .storage_bits = 64,
                              .precision = 53, .emin = -1022, .emax = 1023,
                              .to_double = binary64_to_double,
                              .from_double = binary64_from_double},
};

const gelu_format *gelu_format_of(gelu_format_id f) { return &formats[f]; }

const gelu_format *gelu_format_find(const char *name)
{
    for (int f = 0; f < GELU_FORMAT_COUNT; f++)
        if (strcmp(formats[f].name, name) == 0) return &formats[f];
    return NULL;
}

uint64_t gelu_format_encodings(const gelu_format *f)
{
    return f->storage_bits < 64 ? UINT64_C(1) << f->storage_bits : 0;
}

void gelu_format_special_encodings(const gelu_format *f, uint64_t out[GELU_FORMAT_SPECIAL_COUNT])
{
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
