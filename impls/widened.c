/* The widened adapter: a binary32 implementation run in a 16-bit format as frameworks run it,
 * x16 → binary32 (exact) → the binary32 kernel → round to nearest even to the format
 * (gelu_format_widen, gelu_format_narrow). A double rounding: the binary32 result is already
 * rounded, and where it lands on a midpoint of the format (or is its binary32 neighbour across
 * one) the format's rounding of it need not be that of the exact value; `gelucheck accuracy
 * --format` measures how often per implementation. The conversions are the portable ones of
 * format16_bits.h, or the same bits by instructions chosen at run time: in binary16, AVX-512
 * FP16's around an AVX-512 build (unless GELUCHECK_NO_FP16=1; verified bit for bit on Intel Sapphire Rapids)
 * and F16C's around the other vector builds; AVX-512 BF16's in bfloat16 around an AVX-512 build
 * (unless GELUCHECK_NO_BF16=1). */
#include "format16_bits.h"
#include "gelu_impl.h"
#include "gelucheck_config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

gelu_impl gelu_impl_widened(const gelu_impl *b32, gelu_format_id format)
{
    gelu_impl w = *b32;
    w.format = format;
    w.forward_u16 = w.derivative_u16 = NULL; /* binary32 kernels, run widened */
    w.forward_nofma = w.derivative_nofma = NULL;
    /* Only monotonicity carries over: widening is exact and increasing, rounding is monotone.
     * Bounds in ULPs are the format's now, and the binary32 specials claim does not hold in
     * the format (the x/2 of an odd subnormal that binary32 keeps is a 16-bit tie, rounded to
     * even, where GELU(x) > x/2 rounds up). */
    w.contract = (gelu_contract){.max_ulp = INFINITY, .max_abs = INFINITY,
                                 .monotone = b32->contract.monotone, .grad_max_ulp = INFINITY,
                                 .grad_max_abs = INFINITY};
    return w;
}

bool gelu_impl_is_widened(const gelu_impl *m)
{
    return gelu_format_small(gelu_format_of(m->format)) && !m->forward_u16 && m->forward;
}

/* The CPU's features, asked once (any thread may ask: the same answer). */
static unsigned cpu_features_once(void)
{
    static unsigned features = ~0u; /* not asked yet: no CPU has every bit */
    unsigned f = __atomic_load_n(&features, __ATOMIC_RELAXED);
    if (f == ~0u) {
        f = cpu_features();
        __atomic_store_n(&features, f, __ATOMIC_RELAXED);
    }
    return f;
}

/* Whether the environment variable `name` is set to anything but "" or "0", read once per name
 * (the first NAMES names asked; the same answer for any thread). */
static bool env_refuses(const char *name)
{
    enum { NAMES = 8 };
    static const char *names[NAMES];
    static int answers[NAMES];
    for (int i = 0; i < NAMES; i++) {
        const char *seen = __atomic_load_n(&names[i], __ATOMIC_ACQUIRE);
        if (seen == name) return __atomic_load_n(&answers[i], __ATOMIC_RELAXED);
        if (!seen) {
            const char *v = getenv(name);
            int r = v && *v && strcmp(v, "0") != 0;
            const char *none = NULL;
            __atomic_store_n(&answers[i], r, __ATOMIC_RELAXED);
            /* another thread may have taken slot i for another name: then keep looking */
            if (__atomic_compare_exchange_n(&names[i], &none, name, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                return r;
            if (none == name) return r;
        }
    }
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* Why fast path p cannot be taken in this process for any kernel: "" when it can (for the
 * kernels whose build it suits), else the reason. */
static const char *fast_path_unusable(const gelu_format_fast_path *p)
{
    if (!p->widen || !p->narrow) return "not built";
    if (p->refuse_env && env_refuses(p->refuse_env)) return "refused by the environment";
    if ((cpu_features_once() & p->cpu_features) != p->cpu_features) return "not on this CPU";
    return "";
}

/* The fast path of m's format taken around m's kernels, or NULL for the row's portable loops. */
static const gelu_format_fast_path *fast_path_for(const gelu_impl *m)
{
    const gelu_format *f = gelu_format_of(m->format);
    for (size_t i = 0; i < f->nfast_paths; i++) {
        const gelu_format_fast_path *p = &f->fast_paths[i];
        if ((gelu_isa_features(m->isa) & p->build_features) != p->build_features) continue;
        if (p->vector_builds_only && m->isa == GELU_ISA_PORTABLE) continue;
        if (!*fast_path_unusable(p)) return p;
    }
    return NULL;
}

static bool bf16_refused(void) { return env_refuses("GELUCHECK_NO_BF16"); }
static bool fp16_refused(void) { return env_refuses("GELUCHECK_NO_FP16"); }

/* What binary16's avx512_fp16 path needs of the CPU: the instructions, and the masked moves,
 * loads and stores of 16-bit lanes format16_avx512fp16.c makes around them. */
#define FP16_CPU_FEATURES \
    (CPU_FEATURE_AVX512FP16 | CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512BW | CPU_FEATURE_AVX512VL)

/* "<the path> (no avx512_fp16 path: <why>)", one literal per case: no buffer shared by threads */
#define F16C_PATH "f16c (vcvtph2ps, vcvtps2ph) around the vector builds, portable around the others"
#define NO_FP16(f16c, why)                                                                         \
    ((f16c) ? F16C_PATH " (no avx512_fp16 path: " why ")"                                          \
            : "portable (no f16c; no avx512_fp16 path: " why ")")

const char *gelu_widened_binary16_path(void)
{
    bool f16c = GELUCHECK_HAVE_AVX2 && (cpu_features_once() & CPU_FEATURE_F16C);
    if (!GELUCHECK_HAVE_AVX512FP16) return NO_FP16(f16c, "built without -mavx512fp16");
    if (fp16_refused()) return NO_FP16(f16c, "GELUCHECK_NO_FP16 set");
    if ((cpu_features_once() & FP16_CPU_FEATURES) != FP16_CPU_FEATURES)
        return NO_FP16(f16c, "this CPU has no avx512_fp16");
    return f16c ? "avx512_fp16 (vcvtph2psx, vcvtps2phx) around the AVX-512 builds, f16c "
                  "(vcvtph2ps, vcvtps2ph) around the AVX2 ones, portable around the others"
                : "avx512_fp16 (vcvtph2psx, vcvtps2phx) around the AVX-512 builds, portable "
                  "around the others";
}

/* What bfloat16's avx512_bf16 path needs of the CPU: the instruction, and the masked moves and stores
 * of 16-bit lanes format16_avx512bf16.c makes around it. */
#define BF16_CPU_FEATURES \
    (CPU_FEATURE_AVX512BF16 | CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512BW | CPU_FEATURE_AVX512VL)

const char *gelu_widened_fields_path(void)
{
    return "portable (conversions from the format's fields; no instructions for it)";
}

const char *gelu_widened_bfloat16_path(void)
{
    if (!GELUCHECK_HAVE_AVX512BF16) return "portable (built without -mavx512bf16)";
    if (bf16_refused()) return "portable (GELUCHECK_NO_BF16 set)";
    if ((cpu_features_once() & BF16_CPU_FEATURES) != BF16_CPU_FEATURES)
        return "portable (this CPU has no avx512_bf16)";
    return "avx512_bf16 (vcvtneps2bf16) around the AVX-512 builds, portable around the others";
}

void gelu_impl_run_u16(const gelu_impl *m, bool grad, const uint16_t *x, uint16_t *y, size_t n,
                       float *wx, float *wy)
{
    if (!gelu_impl_is_widened(m)) {
        (grad ? m->derivative_u16 : m->forward_u16)(x, y, n);
        return;
    }
    gelu_kernel k = grad ? m->derivative : m->forward;
    const gelu_format_fast_path *p = fast_path_for(m);
    const gelu_format *f = gelu_format_of(m->format);
    if (p) p->widen(x, wx, n);
    else f->widen_array(f, x, wx, n);
    k(wx, wy, n);
    if (p) p->narrow(wy, y, n);
    else f->narrow_array(f, wy, y, n);
}

void gelu_impl_run_u16_tiled(const gelu_impl *m, bool grad, const uint16_t *x, uint16_t *y,
                             size_t n, float *wx, float *wy, size_t tile)
{
    if (!gelu_impl_is_widened(m) || n <= tile) {
        gelu_impl_run_u16(m, grad, x, y, n, wx, wy);
        return;
    }
    for (size_t i = 0; i < n; i += tile)
        gelu_impl_run_u16(m, grad, x + i, y + i, n - i < tile ? n - i : tile, wx, wy);
}
