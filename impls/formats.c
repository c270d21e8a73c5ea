/* The format table (see gelu_format.h): one descriptor per registered format, the special
 * encodings derived from a descriptor's fields, the 16-bit formats' values and rounding from a
 * double from the fields alone (precision, emin, emax), and their widening to and narrowing from
 * binary32 on the bits of each (the widened adapter's conversions, checked against the former in
 * tests/test_format.c). */
#include "gelu_format.h"

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
    uint16_t sign = signbit(v) ? 0x8000u : 0, inf = exponent_all_ones(f);
    double a = fabs(v);
    if (isnan(v)) return sign | inf | (uint16_t)(1u << (t - 1));
    /* From the largest finite (2 − 2^-t)·2^emax on, to the midpoint with 2^(emax+1), a tie that
     * goes to even, the infinity: overflow. */
    if (a >= ldexp(2.0 - ldexp(1.0, -(int)t - 1), f->emax)) return sign | inf;
    /* The quantum of a's binade, never below the smallest subnormal's 2^(emin−t); a/q is exact
     * (a power of two apart) and rint rounds it to nearest even. */
    if (a == 0) return sign;
    int e = ilogb(a);
    int qe = (e < f->emin ? f->emin : e) - (int)t;
    double m = rint(ldexp(a, -qe)); /* 2^t ≤ m ≤ 2^(t+1) for a normal binade, < 2^t below */
    /* m·2^qe as fields: m < 2^t is a subnormal (or zero) fraction; otherwise the exponent field
     * of qe + t, m = 2^(t+1) (rounded up to the next binade) carried into it by the addition. */
    uint32_t mi = (uint32_t)m;
    if (e < f->emin) return sign | (uint16_t)mi; /* mi = 2^t is the smallest normal's encoding */
    uint32_t field = (uint32_t)(qe + (int)t + f->emax);
    return sign | (uint16_t)((field << t) + (mi - (1u << t)));
}

float gelu_format_widen(const gelu_format *f, uint16_t bits)
{
    uint32_t w, sign = (uint32_t)(bits & 0x8000u) << 16;
    if (f->id == GELU_FORMAT_BFLOAT16) {
        w = (uint32_t)bits << 16; /* binary32's upper half */
    } else { /* binary16: 5 exponent bits (bias 15), 10 fraction bits */
        uint32_t e = bits & 0x7c00u, m = bits & 0x3ffu;
        if (e == 0x7c00u) w = sign | 0x7f800000u | m << 13; /* inf, NaN (payload kept) */
        else if (e == 0) {                                   /* ±m·2^-24, exact in binary32 */
            float v = (float)m * 0x1p-24f;
            memcpy(&w, &v, sizeof w);
            w |= sign;
        } else w = sign | (((uint32_t)(bits & 0x7fffu) << 13) + ((127u - 15u) << 23));
    }
    float x;
    memcpy(&x, &w, sizeof x);
    return x;
}

uint16_t gelu_format_narrow(const gelu_format *f, float y)
{
    uint32_t u;
    memcpy(&u, &y, sizeof u);
    uint16_t sign = (uint16_t)(u >> 16 & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (f->id == GELU_FORMAT_BFLOAT16) {
        if (a > 0x7f800000u) return sign | 0x7fc0u;
        /* the lower half rounds the upper: + 0x7fff, + 1 more when the kept part is odd (a tie
         * to even); carries run into the exponent (to the next binade, to inf past the largest) */
        return (uint16_t)((u + 0x7fffu + (u >> 16 & 1u)) >> 16);
    }
    if (a > 0x7f800000u) return sign | 0x7e00u;
    if (a >= 0x477ff000u) return sign | 0x7c00u; /* 65520, the tie of 65504 and 2^16: inf */
    if (a >= 0x38800000u) {                      /* 2^-14: binary16's normals */
        uint32_t r = a - ((127u - 15u) << 23);   /* rebias the exponent */
        return sign | (uint16_t)((r + 0xfffu + (r >> 13 & 1u)) >> 13);
    }
    float m = rintf(fabsf(y) * 0x1p24f); /* subnormal: a multiple of 2^-24, exact scaling */
    return sign | (uint16_t)m;           /* 1024 is the smallest normal's encoding */
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
