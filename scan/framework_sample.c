/* The frameworks' paths' sample (see framework_sample.h). */
#include "framework_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "float_bits.h"

/* The fixed inputs, 319 of them, chosen where the frameworks' GELUs were seen to change (the
 * measurements of docs/frameworks.md) and where any kernel changes its regime:
 *   - every multiple of 1/16 in [−8, 8] (257: GRID_*), the core where the erf and tanh forms,
 *     their polynomial pieces and GELU's minimum lie;
 *   - the encodings a scan must hold apart (special_bits, 8): ±inf, a quiet NaN, −0, the
 *     smallest and largest subnormals of both signs;
 *   - the 54 values of named[], each with its reason below: the normal range's ends, the
 *     derivative overflow of the tanh forms at 2^63 and 2^64, the inputs where the batch paths
 *     of PyTorch, TensorFlow and JAX were found to depend on the batch, the inputs of the
 *     frameworks' largest errors, the thresholds in the negative tail where they flush to −0 or
 *     turn positive, the wider tail, GELU's minimum (exact and tanh form), tiny inputs where
 *     GELU(x) ≈ x/2, and 2^24 and PyTorch's first +inf. */
#define GRID_LO (-8.0f)
#define GRID_STEP 0.0625f
enum { GRID_N = 257, NSPECIAL = 8, NNAMED = 54 };

static const uint32_t special_bits[NSPECIAL] = {
    0xff800000u, 0x7f800000u, 0x7fc00000u, 0x80000000u, /* −inf, +inf, NaN, −0 */
    0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, /* ±2^-149, ±the largest subnormal */
};

static const float named[NNAMED] = {
    /* the normal range's ends, 2^127 (PyTorch's batch path overflows from there) */
    0x1p-126f, -0x1p-126f, 0x1.fffffep+127f, -0x1.fffffep+127f, 0x1p+127f, -0x1p+127f,
    /* the tanh forms' derivatives overflow from |x| ≈ 2^63 */
    0x1p+63f, -0x1p+63f, 0x1p+64f, -0x1p+64f,
    /* batch-dependent outputs (torch_gelu, torch_gelu_tanh, tf_gelu, jax_gelu_tanh; PyTorch's
     * scalar x/2) */
    0x1.cb4b4ap-23f, -0x1.cb4b4ap-1f, -0x1.cb4b4ap+0f, 0x1.4b4b4ap+63f, 0x1.eb4b4ap-25f,
    /* the largest errors over all 2^32 inputs and under the ISA caps */
    0x1.38e61p+2f, 0x1.44cd02p+2f, 0x1.621b4p-5f, 0x1.2d7f06p+2f, 0x1.1aae6ap+2f,
    0x1.62e052p+0f, 0x1.1dcf8ep+2f, 0x1.63ce2p+0f, 0x1.1dc43p+2f, 0x1.82e7d6p-5f,
    /* the negative tail: first −0 of torch_gelu, ort_gelu; a monotonicity break; TensorFlow's
     * and JAX's flush and their 2^24-ULP maximum; ort_gelu_tanh's first positive result and one
     * more; tf_gelu_tanh's largest break */
    -0x1.5f17eap+2f, -0x1.62b98p+2f, -0x1.62b9d4p+2f, -0x1.a0190ap+3f, -0x1.a2fd3ap+3f,
    -0x1.40002p+2f, -0x1.436a8ep+2f, -0x1.33e6a4p+2f,
    /* the wider tail */
    10.0f, -10.0f, 12.0f, -12.0f, 16.0f, -16.0f, 24.0f, -24.0f, 32.0f, -32.0f, 40.0f, -40.0f,
    /* GELU's minimum x_min: exact form, tanh form */
    -0x1.80ead2p-1f, -0x1.8142ap-1f,
    /* tiny inputs, GELU(x) ≈ x/2 */
    0x1p-8f, -0x1p-8f, 0x1p-16f, -0x1p-16f,
    /* 2^24, and torch_gelu's first +inf found in a batch */
    0x1p+24f, -0x1p+24f, 0x1.0017c8p+127f,
};

const uint32_t *framework_sample_fixed(void)
{
    static uint32_t fixed[FRAMEWORK_SAMPLE_FIXED];
    static int made;
    if (!made) {
        size_t n = 0;
        for (int k = 0; k < GRID_N; k++) fixed[n++] = float_bits(GRID_LO + (float)k * GRID_STEP);
        for (int k = 0; k < NSPECIAL; k++) fixed[n++] = special_bits[k];
        for (int k = 0; k < NNAMED; k++) fixed[n++] = float_bits(named[k]);
        made = 1;
    }
    return fixed;
}

_Static_assert(GRID_N + NSPECIAL + NNAMED == FRAMEWORK_SAMPLE_FIXED, "319 fixed inputs");

/* A seeded 64-bit hash (splitmix64's finaliser) of v. */
static uint64_t mix(uint64_t v)
{
    v += 0x9e3779b97f4a7c15u;
    v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9u;
    v = (v ^ (v >> 27)) * 0x94d049bb133111ebu;
    return v ^ (v >> 31);
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int framework_sample_build(uint32_t **list, uint64_t *n)
{
    enum { K = FRAMEWORK_SAMPLE_PER_BINADE, MANT = 1 << 23 };
    size_t room = (size_t)FRAMEWORK_SAMPLE_BINADES * K + FRAMEWORK_SAMPLE_FIXED;
    uint32_t *out = malloc(room * sizeof *out);
    *list = NULL;
    *n = 0;
    if (!out) return -1;
    size_t m = 0;
    for (uint32_t sign = 0; sign < 2; sign++)
        for (uint32_t e = 0; e < 255; e++) {
            uint32_t base = sign << 31 | e << 23;
            out[m++] = base;              /* the binade's first encoding */
            out[m++] = base | (MANT - 1); /* and its last */
            /* one draw in each of the K − 2 cells of (0, 2^23 − 1) */
            for (uint32_t j = 0; j < K - 2; j++) {
                uint32_t lo = 1 + (uint32_t)((uint64_t)j * (MANT - 2) / (K - 2));
                uint32_t hi = 1 + (uint32_t)((uint64_t)(j + 1) * (MANT - 2) / (K - 2));
                uint64_t h = mix((uint64_t)FRAMEWORK_SAMPLE_SEED << 40 ^ (uint64_t)base ^ j);
                out[m++] = base | (lo + (uint32_t)(h % (hi - lo)));
            }
        }
    memcpy(out + m, framework_sample_fixed(), FRAMEWORK_SAMPLE_FIXED * sizeof *out);
    m += FRAMEWORK_SAMPLE_FIXED;
    qsort(out, m, sizeof *out, compare_u32);
    size_t d = 0;
    for (size_t i = 0; i < m; i++)
        if (d == 0 || out[d - 1] != out[i]) out[d++] = out[i];
    *list = out;
    *n = d;
    return 0;
}

const char *framework_sample_describe(uint64_t n, char *buf, size_t size)
{
    snprintf(buf, size,
             "%llu distinct binary32 inputs: %d in each of the %d finite binades (both signs, "
             "the subnormals one; its ends and a draw in each of %d equal cells, seed %d) plus "
             "%d fixed inputs (every multiple of 1/16 in [-8, 8], the special values and the "
             "inputs where the frameworks were seen to differ: scan/framework_sample.c)",
             (unsigned long long)n, FRAMEWORK_SAMPLE_PER_BINADE, FRAMEWORK_SAMPLE_BINADES,
             FRAMEWORK_SAMPLE_PER_BINADE - 2, FRAMEWORK_SAMPLE_SEED, FRAMEWORK_SAMPLE_FIXED);
    return buf;
}
