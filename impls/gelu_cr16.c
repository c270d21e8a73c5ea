/* cr_bfloat16, cr_binary16: GELU(x) = x·Φ(x) and its derivative Φ(x) + x·φ(x), correctly rounded
 * to bfloat16 and to binary16 (round to nearest even, gradual underflow, signed zeros) for every
 * one of their 65,536 inputs, arrays of encodings in and out.
 *
 * Proof by enumeration: `gelucheck accuracy --format bfloat16 --impl cr_bfloat16 --grad` and
 * the same for binary16 (tests/meson.build, the cr16 gate of the quick suite): forward and
 * derivative correctly rounded at every input, monotone, exact specials.
 *
 * Method: a table per format and direction (65,536 encodings × 2 bytes = 128 KiB), one load per
 * element, built at the first call in the process from the scalar path below, which is what the
 * gate proves through it (the table holds the path's result at every encoding: test_format.c).
 * Why a table: the scalar path costs ~100 ns per element; a vector build of it would cost at
 * least what cr's AVX2 build costs widened — 3.5× the widened pw_fast_avx2 at L2 in one run,
 * against the goal of 1.2× — while the lookup costs 0.15–0.2× the widened pw_fast_avx2 (docs/formats.md, Cost,
 * has the runs). Built at first use rather than at build time: 2.2 to
 * 3.1 ms of CPU per table (a one-off timing of each first call, load average 10 on 2 cores), paid only for the tables a process uses, and no 512 KiB of generated source.
 *
 * The scalar path: cr.h's binary64 fast path (its relative error bound ε = 2^-43 holds for any
 * binary32 input, so for these formats' values, which are binary32 values), rounded once,
 * straight from binary64 to the format, with cr.h's rounding test: y·(1 − ε) and y·(1 + ε)
 * round to the same encoding, which is then the correctly rounded value. Not "cr's binary32
 * result, then round": that result is already rounded, and rounding it again to 8 or 11 bits
 * errs wherever it lands on a midpoint of the format — GELU(x) ≈ x/2 of an odd subnormal x is
 * one, kept exactly by binary32 and rounded to even by the narrowing, where GELU(x) > x/2 must
 * round up (the widened `cr` row shows how often). Where the test fails, cr.h's x87 path,
 * rounded the same way with its own bound. Over all inputs of both formats, forward and
 * derivative, the test fails only at +inf (forward: its bounds are inf ∓ inf), which keeps the
 * fast path's +inf: no finite input reaches the x87 path (counted with a print in that
 * branch), which stays as the fallback the proof would need for a change of the fast path.
 * Inputs neither path decides are counted (gelu_cr16_unresolved, printed by `accuracy
 * --format`): none. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>

#include "vf_scalar.h"
/* cr.h's binary32 array kernels and accurate paths are not used here */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "cr.h"
#pragma GCC diagnostic pop

#include "gelu_cr16.h"

/* The rounding test's verdict into *r: true when y ∓ err round to the same value, then y + err's
 * encoding. err has y's sign (y·ε), so that y + err keeps the sign of a zero y (−0 + −0 = −0),
 * as cr.h's test does. */
static bool cr16_round_test(const gelu_format *f, double y, double err, uint16_t *r)
{
    uint16_t lo = (uint16_t)f->from_double(y - err), hi = (uint16_t)f->from_double(y + err);
    uint16_t magnitude = (uint16_t)((1u << (f->storage_bits - 1)) - 1);
    *r = hi;
    return lo == hi || ((lo | hi) & magnitude) == 0; /* y = −0: y − err is +0, the same value */
}

/* x87 path for one input: the value as long double with cr.h's bound, carried to binary64 with
 * one more rounding (2^-53 relative, added to the bound), then the test. */
static bool cr16_accurate(const gelu_format *f, bool grad, double x, uint16_t *r)
{
    long double u = fabsl((long double)x), y, err;
    if (!grad) {
        long double w = u * (erfcl(u * cr_inv_sqrt2_l) * 0.5L);
        y = x < 0 ? -w : (long double)x - w;
        err = fabsl(w) * cr_eps_l + fabsl(y) * 0x1p-63L;
    } else {
        long double cdf = erfcl(u * cr_inv_sqrt2_l) * 0.5L, upfd = u * cr_inv_sqrt2pi_l * expl(u * u * -0.5L);
        y = x < 0 ? cdf - upfd : 1.0L - (cdf - upfd);
        err = (cdf + upfd) * cr_eps_l + fabsl(y) * 0x1p-63L;
    }
    return cr16_round_test(f, (double)y, (double)copysignl(err + fabsl(y) * 0x1p-52L, y), r);
}

static unsigned long cr16_unresolved; /* inputs neither path decided (gelu_cr16.h) */

/* Inlined into each clone of the scalar paths below, so that the clone built for FMA runs cr.h's fma()
 * as the instruction. */
static inline __attribute__((always_inline)) uint16_t cr16_one(const gelu_format *f, bool grad,
                                                                uint16_t b)
{
    double x = gelu_format_widen(f, b), y = grad ? cr_derivative_d(x) : cr_forward_d(x);
    uint16_t r;
    if (isnan(x)) return b | (uint16_t)(1u << (f->precision - 2)); /* the input, quieted */
    if (cr16_round_test(f, y, y * cr_eps, &r)) return r;
    /* beyond |x| = 15 the fast path is exact enough (cr.h); the x87 path wants finite x */
    if (!isfinite(x) || cr16_accurate(f, grad, x, &r)) return r;
    __atomic_fetch_add(&cr16_unresolved, 1, __ATOMIC_RELAXED);
    return r;
}

unsigned long gelu_cr16_unresolved(void) { return __atomic_load_n(&cr16_unresolved, __ATOMIC_RELAXED); }

/* Two clones of each scalar path, chosen once at load time (GCC's target_clones, an ifunc;
 * flatten inlines cr.h into each): one with FMA instructions, one for any x86-64 CPU, whose fma()
 * is libm's. Both round each fma once: the same bits (the cr16 gates scan the tables this CPU's
 * clone built). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CR16_CLONES __attribute__((target_clones("fma", "default"), flatten))
#else
#define CR16_CLONES
#endif
/* The scalar path over an array: the proven computation, from which the tables are built. */
#define CR16_PATH(name, format_id, grad)                                                        \
    CR16_CLONES static void name##_path(const uint16_t *x, uint16_t *y, size_t n)               \
    {                                                                                           \
        const gelu_format *f = gelu_format_of(format_id);                                       \
        for (size_t i = 0; i < n; i++) y[i] = cr16_one(f, grad, x[i]);                          \
    }
CR16_PATH(cr_bfloat16_forward, GELU_FORMAT_BFLOAT16, false)
CR16_PATH(cr_bfloat16_derivative, GELU_FORMAT_BFLOAT16, true)
CR16_PATH(cr_binary16_forward, GELU_FORMAT_BINARY16, false)
CR16_PATH(cr_binary16_derivative, GELU_FORMAT_BINARY16, true)
CR16_PATH(cr_e4m3_forward, GELU_FORMAT_E4M3, false)
CR16_PATH(cr_e4m3_derivative, GELU_FORMAT_E4M3, true)
CR16_PATH(cr_e5m2_forward, GELU_FORMAT_E5M2, false)
CR16_PATH(cr_e5m2_derivative, GELU_FORMAT_E5M2, true)

/* The scalar paths per format, [grad], for gelu_cr16_path. */
static const struct {
    gelu_format_id format;
    gelu_kernel_u16 path[2];
} cr16_paths[] = {
    {GELU_FORMAT_BFLOAT16, {cr_bfloat16_forward_path, cr_bfloat16_derivative_path}},
    {GELU_FORMAT_BINARY16, {cr_binary16_forward_path, cr_binary16_derivative_path}},
    {GELU_FORMAT_E4M3, {cr_e4m3_forward_path, cr_e4m3_derivative_path}},
    {GELU_FORMAT_E5M2, {cr_e5m2_forward_path, cr_e5m2_derivative_path}},
};

int gelu_cr16_path(gelu_format_id format, bool grad, const uint16_t *x, uint16_t *y, size_t n)
{
    for (size_t i = 0; i < sizeof cr16_paths / sizeof *cr16_paths; i++)
        if (cr16_paths[i].format == format) {
            cr16_paths[i].path[grad](x, y, n);
            return 0;
        }
    return -1;
}

enum { CR16_ENCODINGS = 1 << 16 };

/* table[b] = path(b) for every encoding b of format f, by chunks of consecutive encodings. */
static void cr16_build(gelu_format_id f, gelu_kernel_u16 path, uint16_t *table)
{
    enum { CHUNK = 256 };
    uint16_t x[CHUNK];
    uint32_t n = (uint32_t)gelu_format_encodings(gelu_format_of(f));
    for (uint32_t b0 = 0; b0 < n; b0 += CHUNK) {
        for (uint32_t j = 0; j < CHUNK; j++) x[j] = (uint16_t)(b0 + j);
        path(x, table + b0, CHUNK);
    }
}

/* The kernels: one lookup per element in the table of their format and direction (65,536
 * encodings × 2 bytes = 128 KiB for the 16-bit formats, 256 entries for the 8-bit ones), built
 * from the scalar path by the first call in the process (pthread_once: a call from any thread
 * waits for it, and then sees the whole table). */
#define CR16_KERNEL(name, format_id)                                                            \
    static uint16_t name##_table[CR16_ENCODINGS];                                               \
    static pthread_once_t name##_once = PTHREAD_ONCE_INIT;                                      \
    static void name##_build(void) { cr16_build(format_id, name##_path, name##_table); }        \
    static void name(const uint16_t *x, uint16_t *y, size_t n)                                  \
    {                                                                                           \
        (void)pthread_once(&name##_once, name##_build);                                         \
        for (size_t i = 0; i < n; i++) y[i] = name##_table[x[i]];                               \
    }
CR16_KERNEL(cr_bfloat16_forward, GELU_FORMAT_BFLOAT16)
CR16_KERNEL(cr_bfloat16_derivative, GELU_FORMAT_BFLOAT16)
CR16_KERNEL(cr_binary16_forward, GELU_FORMAT_BINARY16)
CR16_KERNEL(cr_binary16_derivative, GELU_FORMAT_BINARY16)
CR16_KERNEL(cr_e4m3_forward, GELU_FORMAT_E4M3)
CR16_KERNEL(cr_e4m3_derivative, GELU_FORMAT_E4M3)
CR16_KERNEL(cr_e5m2_forward, GELU_FORMAT_E5M2)
CR16_KERNEL(cr_e5m2_derivative, GELU_FORMAT_E5M2)

#define CR16_IMPL(impl_name, format_id)                                                         \
    const gelu_impl gelu_impl_##impl_name = {                                                   \
        .name = #impl_name,                                                                     \
        .method = #impl_name,                                                                   \
        .isa = GELU_ISA_PORTABLE,                                                               \
        .target = GELU_TARGET_EXACT,                                                            \
        .format = format_id,                                                                    \
        .forward_u16 = impl_name##_forward,                                                     \
        .derivative_u16 = impl_name##_derivative,                                               \
        .contract = {.max_ulp = INFINITY, .max_abs = INFINITY, .monotone = true,                \
                     .specials = true, .grad_max_ulp = INFINITY, .grad_max_abs = INFINITY,      \
                     .correctly_rounded = true},                                                \
        .origin = "x·Φ(x) correctly rounded: a table of all the format's results, built at first " \
                  "use from cr's binary64 fast path rounded once to the format, rounding "      \
                  "test, x87 path",                                                             \
    }
CR16_IMPL(cr_bfloat16, GELU_FORMAT_BFLOAT16);
CR16_IMPL(cr_binary16, GELU_FORMAT_BINARY16);
CR16_IMPL(cr_e4m3, GELU_FORMAT_E4M3);
CR16_IMPL(cr_e5m2, GELU_FORMAT_E5M2);

/* The natives of the small formats, in table order: the registry's rows of those formats. */
const gelu_impl *const gelu_cr16_builtins[] = {&gelu_impl_cr_bfloat16, &gelu_impl_cr_binary16,
                                               &gelu_impl_cr_e4m3, &gelu_impl_cr_e5m2};
const size_t gelu_cr16_builtin_count = sizeof gelu_cr16_builtins / sizeof *gelu_cr16_builtins;
