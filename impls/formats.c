/* The format table (see gelu_format.h): one descriptor per registered format, and the special
 * encodings derived from a descriptor's fields. */
#include "gelu_format.h"

#include <math.h>
#include <string.h>

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
