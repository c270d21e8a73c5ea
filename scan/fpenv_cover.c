/* The inputs the report's ftz,daz section scans (fpenv_cover.h). */
#include "fpenv_cover.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "float_bits.h"
#include "sample.h"

/* Each span holds what was measured and what the reference says (docs/DESIGN.md,
 * "Floating-point environments"): every default implementation run both ways over every 257th
 * encoding differed only at x in [−0x1.62e304p+6, −0x1.40094ap+3] and at |x| ≤ 0x1.fffep-126;
 * the correctly rounded values of the targets (MPFR) are subnormal only at x in
 * [−0x1.b2a426p+6, −0x1.43386cp+3] (the tanh form's forward first, SiLU's forward last) and at
 * |x| < 2^-125 (tests/test_fpenv.c bisects for these). */
static const fpenv_cover_span spans[] = {
    /* −0x1.cp+6 = −112: past SiLU's last nonzero value, −108.66; −9 = −0x1.2p+3: above −10.0,
     * where the tanh form's factor 1 + tanh(z) (exp(2z) < 2^-126) first flushed */
    {-0x1.cp+6f, -0x1.2p+3f,
     "the negative tail, where a value, a derivative or a factor of one goes subnormal"},
    /* |x| ≤ 2^-125: the subnormal inputs (DAZ) and the x whose GELU ≈ x/2 is subnormal or
     * rounds up to 2^-126 from below (FTZ, x86's window: the largest is 0x1.fffffep-126); at
     * ±2^-125 every target's value is ±2^-126 or more in magnitude after rounding to 24 bits */
    {-0x1p-125f, 0x1p-125f, "the subnormal inputs and those whose value is subnormal"},
};
enum { NSPANS = sizeof spans / sizeof spans[0] };

size_t fpenv_cover_span_count(void) { return NSPANS; }

const fpenv_cover_span *fpenv_cover_span_at(size_t i) { return i < NSPANS ? &spans[i] : NULL; }

fpenv_cover_config fpenv_cover_default(int quick)
{
    return quick ? (fpenv_cover_config){.stride = 61, .sample = 100000, .seed = 1}
                 : (fpenv_cover_config){.stride = 1, .sample = 1000000, .seed = 1};
}

/* A span's part of one sign as encodings [a, b], ascending as encodings. */
typedef struct {
    uint32_t a, b;
} enc_interval;

/* Span s's encodings, one interval per sign it touches (−0 and +0 both in a span across 0). */
static size_t span_intervals(const fpenv_cover_span *s, enc_interval out[2])
{
    uint32_t lo = float_bits(s->lo), hi = float_bits(s->hi);
    bool neg_lo = lo >> 31, neg_hi = hi >> 31;
    if (neg_lo && neg_hi) { /* both negative: |hi| ≤ |lo| */
        out[0] = (enc_interval){hi, lo};
        return 1;
    }
    if (!neg_lo && !neg_hi) {
        out[0] = (enc_interval){lo, hi};
        return 1;
    }
    out[0] = (enc_interval){0, hi};          /* +0 .. hi */
    out[1] = (enc_interval){0x80000000u, lo}; /* −0 .. lo */
    return 2;
}

static uint64_t interval_inputs(enc_interval v, uint32_t stride)
{
    uint64_t len = (uint64_t)v.b - v.a; /* the last input is taken besides the stride's */
    return len / stride + 1 + (len % stride != 0);
}

uint64_t fpenv_cover_span_inputs(const fpenv_cover_config *c, size_t i)
{
    enc_interval v[2];
    uint64_t n = 0;
    size_t k = span_intervals(&spans[i], v);
    for (size_t j = 0; j < k; j++) n += interval_inputs(v[j], c->stride);
    return n;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int compare_interval(const void *a, const void *b)
{
    return compare_u32(&((const enc_interval *)a)->a, &((const enc_interval *)b)->a);
}

int fpenv_cover_build(const fpenv_cover_config *c, uint32_t **list, uint64_t *n)
{
    *list = NULL;
    *n = 0;
    if (c->stride == 0) return -1;
    enc_interval v[2 * NSPANS];
    size_t nv = 0;
    uint64_t room = c->sample;
    for (size_t i = 0; i < NSPANS; i++) {
        nv += span_intervals(&spans[i], v + nv);
        room += fpenv_cover_span_inputs(c, i);
    }
    qsort(v, nv, sizeof *v, compare_interval); /* disjoint: the spans do not overlap */
    float *drawn = malloc((c->sample ? c->sample : 1) * sizeof *drawn);
    uint32_t *sample = malloc((c->sample ? c->sample : 1) * sizeof *sample);
    uint32_t *out = malloc(room * sizeof *out);
    if (!drawn || !sample || !out) {
        free(drawn);
        free(sample);
        free(out);
        return -1;
    }
    sample_encodings(c->seed, drawn, c->sample);
    for (uint64_t i = 0; i < c->sample; i++) sample[i] = float_bits(drawn[i]);
    free(drawn);
    qsort(sample, c->sample, sizeof *sample, compare_u32);
    /* merge the spans' encodings (ascending, interval by interval) with the sorted sample */
    uint64_t m = 0, s = 0;
#define PUT(e)                                                                                     \
    do {                                                                                           \
        uint32_t e_ = (e);                                                                         \
        if (m == 0 || out[m - 1] != e_) out[m++] = e_;                                             \
    } while (0)
    for (size_t k = 0; k < nv; k++) {
        for (uint64_t e = v[k].a;; e += c->stride) {
            uint32_t x = e < v[k].b ? (uint32_t)e : v[k].b;
            while (s < c->sample && sample[s] < x) PUT(sample[s++]);
            PUT(x);
            if (x == v[k].b) break;
        }
    }
    while (s < c->sample) PUT(sample[s++]);
#undef PUT
    free(sample);
    *list = out;
    *n = m;
    return 0;
}

static const char *with_commas(uint64_t v, char *buf, size_t size)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), o = 0;
    for (int i = 0; i < len && (size_t)o + 2 < size; i++) {
        if (i && (len - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *fpenv_cover_describe(const fpenv_cover_config *c, uint64_t total, char *buf, size_t size)
{
    size_t used = 0;
    char a[32], b[32], stride[48];
    if (c->stride == 1) snprintf(stride, sizeof stride, "every input");
    else snprintf(stride, sizeof stride, "one input in %u (and the ends)", (unsigned)c->stride);
    buf[0] = '\0';
    for (size_t i = 0; i < NSPANS && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s of [%a, %a] (%s): %s; ", stride,
                                 (double)spans[i].lo, (double)spans[i].hi, spans[i].why,
                                 with_commas(fpenv_cover_span_inputs(c, i), a, sizeof a));
    if (used < size)
        snprintf(buf + used, size - used, "and %s draws over all 2^32 encodings (seed %llu): %s "
                 "distinct inputs in all",
                 with_commas(c->sample, a, sizeof a), (unsigned long long)c->seed,
                 with_commas(total, b, sizeof b));
    return buf;
}
