/* The descriptor every implementation under test exposes, and the registry that lists them.
 *
 * An implementation is a pair of array kernels, forward y = f(x) and derivative y = f'(x), for
 * binary32, plus what it claims: which real function it approximates (its target), which CPU
 * features it needs, and its accuracy contract. The contract is a set of measured figures (see
 * each implementation's first comment for the command that measured them); the checks in scan/
 * hold every implementation to it.
 *
 * Nothing here knows about the reference: impls/ depends on libm and the compiler only. */
#ifndef GELUCHECK_GELU_IMPL_H
#define GELUCHECK_GELU_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gelu_format.h"
#include "gelu_fpenv.h"

/* The real functions an implementation approximates, one line each: the enum's suffix, the
 * name, and whether it is a GELU (it then gets a row against exact GELU and a place among the
 * report's GELUs). This is the targets' identity, which implementations, the benchmark and the
 * experiments need without MPFR; their mathematics (reference, enclosure, thresholds) is the
 * table in reference/targets.c, one row per line here (docs/DESIGN.md, "Targets"). */
#define GELU_TARGETS(X)                                                                            \
    X(EXACT, "exact", true)     /* x·Φ(x) */                                                      \
    X(TANH, "tanh", true)       /* ½·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) */                    \
    X(SIGMOID, "sigmoid", true) /* x·σ(1.702·x) */                                                \
    X(SILU, "silu", false)      /* x·σ(x): SiLU/Swish, a comparison activation, not a GELU */     \
    X(RELU, "relu", false)      /* max(x, 0): the benchmark baseline, not a GELU */

typedef enum {
#define GELU_TARGET_ENUM(id, name, is_gelu) GELU_TARGET_##id,
    GELU_TARGETS(GELU_TARGET_ENUM)
#undef GELU_TARGET_ENUM
    GELU_TARGET_COUNT
} gelu_target;

/* CPU features, as bits; an implementation lists those it needs. */
enum {
    CPU_FEATURE_AVX2 = 1u << 0,
    CPU_FEATURE_FMA = 1u << 1,
    CPU_FEATURE_AVX512F = 1u << 2,
    CPU_FEATURE_AVX512DQ = 1u << 3,
    CPU_FEATURE_AVX512BW = 1u << 4,
    CPU_FEATURE_AVX512VL = 1u << 5,
    CPU_FEATURE_F16C = 1u << 6, /* binary16 conversions (the widened adapter's, impls/widened.c) */
    /* vcvtneps2bf16, vcvtne2ps2bf16, vdpbf16ps (cpuid leaf 7 subleaf 1, EAX bit 5): the widened
     * adapter's bfloat16 narrowing around AVX-512 builds (impls/widened.c) */
    CPU_FEATURE_AVX512BF16 = 1u << 7,
    /* the AVX-512 FP16 instructions (cpuid leaf 7 subleaf 0, EDX bit 23): the widened adapter's
     * binary16 conversions around AVX-512 builds (impls/widened.c) */
    CPU_FEATURE_AVX512FP16 = 1u << 8,
    CPU_FEATURE_COUNT = 9
};

/* The instruction sets a kernel is built for, and the CPU features each build needs: one row
 * per ISA, X(ID, name, features). The name is the registry name's suffix (method_name; none for
 * PORTABLE, which runs on any x86-64 CPU and elsewhere) and the key of the ISA's static library
 * in meson.build (isa_args); avx512f is AVX-512F alone (ReLU, SLEEF), avx512 our kernels' F, DQ,
 * BW and VL. GELU_ISA_FEATURES_<ID> is the features as a constant, for static descriptors. */
#define GELU_ISA_LIST(X)                                                                        \
    X(PORTABLE, "portable", 0u)                                                                 \
    X(AVX2, "avx2", CPU_FEATURE_AVX2 | CPU_FEATURE_FMA)                                         \
    X(AVX512F, "avx512f", CPU_FEATURE_AVX512F | CPU_FEATURE_AVX2 | CPU_FEATURE_FMA)             \
    X(AVX512, "avx512",                                                                         \
      CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512DQ | CPU_FEATURE_AVX512BW |                     \
          CPU_FEATURE_AVX512VL | CPU_FEATURE_FMA)                                                 \
    GELU_ISA_AARCH64(X) GELU_ISA_RISCV64(X)
/* AArch64's, only in an AArch64 build (the cross build of cross/meson.build, docs/aarch64.md):
 * NEON (Advanced SIMD), part of every AArch64 CPU, and SVE built for one fixed vector length
 * each (impls/vf_sve.h). No feature bits yet: the exec child checks SVE and its vector length
 * before it serves an SVE build (cross/exec_vf.c). */
#if defined(__aarch64__)
#define GELU_ISA_AARCH64(X)                                                                     \
    X(NEON, "neon", 0u) X(SVE128, "sve128", 0u) X(SVE256, "sve256", 0u) X(SVE512, "sve512", 0u)
#else
#define GELU_ISA_AARCH64(X)
#endif
/* RISC-V's, only in a riscv64 build (the same cross build): RVV 1.0 built for a minimum vector
 * length each (impls/vf_rvv.h), run where VLEN is at least that; no feature bits either (the
 * exec child checks V and VLEN). */
#if defined(__riscv) && __riscv_xlen == 64
#define GELU_ISA_RISCV64(X) X(RVV128, "rvv128", 0u) X(RVV256, "rvv256", 0u)
#else
#define GELU_ISA_RISCV64(X)
#endif

typedef enum {
#define GELU_ISA_ID(id, name, features) GELU_ISA_##id,
    GELU_ISA_LIST(GELU_ISA_ID)
#undef GELU_ISA_ID
    GELU_ISA_COUNT
} gelu_isa;

enum {
#define GELU_ISA_FEATURES(id, name, features) GELU_ISA_FEATURES_##id = (features),
    GELU_ISA_LIST(GELU_ISA_FEATURES)
#undef GELU_ISA_FEATURES
};

/* Where an implementation comes from: this project's kernels, plain formulas over the C library
 * or GSL, SIMD math libraries (SLEEF), ML kernel libraries (oneDNN), frameworks (PyTorch,
 * TensorFlow, JAX, ONNX Runtime); GELU_FAMILY_OURS is also every row that does not say (a
 * user's plugin or exec child). */
#define GELU_FAMILIES(X)                                                                        \
    X(OURS, "ours", "ours") X(LIBM_GSL, "libm_gsl", "libm + GSL")                               \
    X(SIMD_LIBRARY, "simd_library", "SIMD libraries")                                         \
    X(ML_LIBRARY, "ml_library", "ML kernel libraries") X(FRAMEWORK, "framework", "frameworks")
typedef enum {
#define GELU_FAMILY_ENUM(id, key, text) GELU_FAMILY_##id,
    GELU_FAMILIES(GELU_FAMILY_ENUM)
#undef GELU_FAMILY_ENUM
    GELU_FAMILY_COUNT
} gelu_family;

/* The family whose key ("libm_gsl") is key; GELU_FAMILY_COUNT for none. */
gelu_family gelu_family_from_key(const char *key);
/* The family's text for people ("libm + GSL"). */
const char *gelu_family_text(gelu_family f);

/* Shared texts of known_as: exact GELU computed some other way than PyTorch's erf form. */
#define GELU_KNOWN_AS_EXACT                                                                     \
    "the function of PyTorch approximate='none', HF hidden_act gelu, oneDNN eltwise_gelu_erf"
#define GELU_KNOWN_AS_THROUGH_ERFC                                                              \
    GELU_KNOWN_AS_EXACT " (computed through erfc: no cancellation for x < 0)"

/* Array kernels, y[i] = f(x[i]) for i < n, in their format's storage type: the kernel's type
 * carries the format (gelu_format.h). gelu_kernel is binary32's. */
typedef void (*gelu_kernel)(const float *x, float *y, size_t n);
typedef void (*gelu_kernel_u16)(const uint16_t *x, uint16_t *y, size_t n); /* bfloat16, binary16 */
typedef void (*gelu_kernel_f64)(const double *x, double *y, size_t n);     /* binary64 */

/* What an implementation claims. A bound of INFINITY means "no claim". Forward bounds are against
 * the implementation's own target; gradient bounds against that target's derivative; maxima are
 * over finite inputs (±inf and NaN are the special values). The values in impls/ were set from
 * `gelucheck accuracy --grad` over all 2^32 inputs (docs/accuracy.md: "Measured over all 2^32 inputs"),
 * just above the measured maxima, and the exhaustive gate holds them. */
typedef struct {
    double max_ulp;      /* max real-valued ULP error, forward */
    double max_abs;      /* max absolute error, forward */
    bool monotone;       /* non-increasing below x_min, non-decreasing above */
    bool specials;       /* ±0, ±inf, NaN give the target's values, compared by encoding */
    double grad_max_ulp; /* max ULP error of the derivative */
    double grad_max_abs; /* max absolute error of the derivative */
    /* Forward and derivative give the correctly rounded binary32 value at every input, judged
     * by encoding (any NaN for NaN): exact, unlike a max_ulp of 0.5, which the scan's enclosure
     * knows only to ~10^-3 ULP. */
    bool correctly_rounded;
} gelu_contract;

typedef struct {
    const char *name;   /* the registry name: gelu_f32_<name> is the C symbol prefix */
    /* The algorithm, shared by its ISA builds (name = method, or method_<isa name> for a build
     * that is not PORTABLE), and the ISA this build is for; features are that ISA's. Built-in
     * implementations only: one added at run time (gelu_impl_add) has method NULL. */
    const char *method;
    gelu_isa isa;
    gelu_target target; /* what it approximates */
    unsigned features;  /* CPU_FEATURE_* bits it needs */
    /* The format its kernels read and write (binary32, 0, unless set), and so which kernel pair
     * is set: forward/derivative for binary32, the _u16 pair for the 16-bit formats (arrays of
     * encodings), the _f64 pair for binary64; the other pairs are NULL. */
    gelu_format_id format;
    gelu_kernel forward;
    gelu_kernel derivative;
    gelu_kernel_u16 forward_u16, derivative_u16;
    gelu_kernel_f64 forward_f64, derivative_f64;
    /* The portable kernels of a plain build whose forward/derivative run FMA instructions on a
     * CPU that has them (same bits: vf_array.h); NULL for every other implementation. */
    gelu_kernel forward_nofma, derivative_nofma;
    gelu_contract contract;
    const char *origin; /* one line: where the method comes from */
    /* Who wrote the kernel (the report's plot families). */
    gelu_family family;
    /* The names users know it by in the frameworks (PyTorch's `approximate`, Hugging Face's
     * `hidden_act`, oneDNN's algorithms); "same formula as" where only the formula is shared.
     * NULL: its target's (reference/targets.c). */
    const char *known_as;
    /* Runs on a thread pool of its own (a threaded row of a peer for the benchmark): the
     * default scan leaves it out, as its kernels are those of its single-threaded twin and its
     * pool would fight the scan's threads for the cores. */
    bool own_threads;
    /* A peer whose library picks its code path at run time (oneDNN): the path picked in this
     * process ("avx512_core"), which its results and contract are for; NULL otherwise. */
    const char *(*dispatched_isa)(void);
    /* The inputs per kernel call it would rather take (an exec child: each call crosses a pipe
     * and a framework's dispatch), 0 for any: the scan then hands it that many consecutive
     * inputs of the domain at once, several blocks per call. Its outputs must not depend on the
     * batching (the exec probe checks). */
    size_t batch_inputs;
    /* Its kernels run in another process (an exec child; a plugin's row in its host), on their
     * own copy of the inputs and their own FP state, each call judged there (docs/protocol.md):
     * the scan hands them its buffers without the copies and canaries an in-process kernel's
     * calls get (scan/kernel_call.c). */
    bool other_process;
    /* The failure of one of its calls so far (an exec child that died, hung or answered
     * garbage: exec_impls_failure), NULL while there is none; NULL for a row whose calls cannot
     * fail. Once a row's call has failed its outputs mean nothing and the run fails: the scan
     * stops handing out work. */
    const char *(*call_failure)(void);
    /* Whether its outputs depend on how inputs are batched, when probed (an exec child: the
     * same inputs in one request and one by one): "" when they did not, else the first
     * difference found (input, both outputs); NULL when not probed (the built-in kernels and
     * plugins: C array kernels, element by element). */
    const char *batch_dependence;
    /* A kernel timed where it runs (an exec child's replies carry its own time for each call,
     * pipe excluded): the nanoseconds its calls from every thread have spent in the kernel so
     * far, as measured there; the benchmark times it by these (its rows marked "timed inside
     * the child"). NULL: the caller times the call. */
    uint64_t (*own_time_ns)(void);
    /* 1 + the floating-point environment (gelu_fpenv.h) its kernels run in when the run's is
     * IEEE's: an exec child that cannot run in IEEE's (TensorFlow's and JAX's clients: their
     * frameworks set FTZ and DAZ in their threads, no switch). 0: the run's, as every other. */
    int fixed_fpenv;
} gelu_impl;

/* The environment m's kernels run in when the run's is `run`: the run's, or in an IEEE run the
 * one an exec child always runs in (fixed_fpenv). What accuracy.csv's and bench.csv's fpenv
 * columns say. */
static inline gelu_fpenv gelu_impl_fpenv(const gelu_impl *m, gelu_fpenv run)
{
    return run == GELU_FPENV_IEEE && m->fixed_fpenv ? (gelu_fpenv)(m->fixed_fpenv - 1) : run;
}

/* The registry: one list of every implementation of every format, the built-in ones (binary32's
 * in the order of impls/registry.inc, then the other formats' natives) and those added at run
 * time (gelu_impl_add); consumers take the rows of one format. */
size_t gelu_impl_count_in(gelu_format_id f);
const gelu_impl *gelu_impl_at_in(gelu_format_id f, size_t i);
/* NULL when no implementation of format f has that name. */
const gelu_impl *gelu_impl_find_in(const char *name, gelu_format_id f);
/* The binary32 rows, which most consumers run: gelu_impl_*_in(GELU_FORMAT_BINARY32, ...). */
static inline size_t gelu_impl_count(void) { return gelu_impl_count_in(GELU_FORMAT_BINARY32); }
static inline const gelu_impl *gelu_impl_at(size_t i)
{
    return gelu_impl_at_in(GELU_FORMAT_BINARY32, i);
}
static inline const gelu_impl *gelu_impl_find(const char *name)
{
    return gelu_impl_find_in(name, GELU_FORMAT_BINARY32);
}
/* Adds an implementation made at run time (an exec child, a plugin, a peer) of any format
 * (impl->format), after the built-in ones, `source` naming where it comes from ("exec child
 * 'COMMAND'"); both strings must outlive the run. Before any scan starts. 0, or −1 with err (a
 * name taken in that format: both sources named; too many; an unregistered format). */
int gelu_impl_add(const gelu_impl *impl, const char *source, char *err, size_t errsize);
/* Where a run-time implementation comes from; NULL for a built-in one. */
const char *gelu_impl_source(const gelu_impl *impl);
/* `name` in format `format`: its implementation of that format; in a small format, else the
 * binary32 implementation of that name widened into *view (gelu_impl_widened); NULL when
 * neither exists. */
const gelu_impl *gelu_impl_lookup_in(const char *name, gelu_format_id format, gelu_impl *view);

/* An ISA's name ("portable", "avx2", …; "?" out of range) and the CPU features it needs. */
const char *gelu_isa_name(gelu_isa isa);
unsigned gelu_isa_features(gelu_isa isa);
/* The build of `method` for `isa`; NULL when the registry has none. */
const gelu_impl *gelu_impl_build(const char *method, gelu_isa isa);

const char *gelu_target_name(gelu_target t);
/* GELU_TARGET_COUNT when the name is unknown. */
gelu_target gelu_target_from_name(const char *name);
/* Whether the target is a GELU (GELU_TARGETS' third column). */
bool gelu_target_is_gelu(gelu_target t);
/* The targets' names as "exact, tanh or sigmoid" (only the GELUs with gelu_only) into buf. */
const char *gelu_target_list(bool gelu_only, char *buf, size_t size);

/* The optional peers this build left out because their library was not found when it was
 * configured (or disabled with -Ddnnl / -Dsleef), as "oneDNN (dnnl_*), SLEEF (sleef_*)"; "" when
 * none. */
const char *gelu_absent_peers(void);

/* The widened adapter (impls/widened.c): binary32 implementation b32 run in the 16-bit format
 * `format` as frameworks run it (widen, the binary32 kernel, round to nearest even). The view
 * keeps b32's name, target, features and binary32 kernels, has no 16-bit kernels (which marks
 * it widened) and claims only monotonicity (when b32 does). */
gelu_impl gelu_impl_widened(const gelu_impl *b32, gelu_format_id format);
/* Whether a 16-bit descriptor is such a view. */
bool gelu_impl_is_widened(const gelu_impl *m);
/* y = m's forward (grad: derivative) at the 16-bit encodings x[0..n), for a descriptor of a
 * 16-bit format: its own kernels, or widened through wx[], wy[] (n floats each; unused for a
 * native one). */
void gelu_impl_run_u16(const gelu_impl *m, bool grad, const uint16_t *x, uint16_t *y, size_t n,
                       float *wx, float *wy);
/* The same, a widened m `tile` elements at a time through wx[], wy[] (tile floats each, tile >=
 * 1: widen a tile, its kernel, narrow it back), a native m at once: the same bits as one call,
 * with scratch that stays in cache however long x is (bench's 16-bit runs). */
void gelu_impl_run_u16_tiled(const gelu_impl *m, bool grad, const uint16_t *x, uint16_t *y,
                             size_t n, float *wx, float *wy, size_t tile);
/* The path of the widened adapter's bfloat16 conversions in this process, for list, bench and
 * the report: "avx512_bf16 (vcvtneps2bf16) around the AVX-512 builds, ..." or "portable (why)"
 * (not built, GELUCHECK_NO_BF16 set, the CPU lacks it). The bits are the same either way. */
const char *gelu_widened_bfloat16_path(void);
/* binary16's: "avx512_fp16 (vcvtph2psx, vcvtps2phx) around the AVX-512 builds, f16c ... around
 * the AVX2 ones, ..." or the F16C / portable path with why there is no avx512_fp16 one (not
 * built, GELUCHECK_NO_FP16 set, the CPU lacks it). The bits are the same either way
 * (tests/test_format.c; the avx512_fp16 path verified bit for bit on Intel Sapphire Rapids). */
const char *gelu_widened_binary16_path(void);
/* A format's with no instructions of its own: "portable (...)". */
const char *gelu_widened_fields_path(void);

/* The CPU features this machine has (CPU_FEATURE_* bits). */
unsigned cpu_features(void);
/* "avx2,fma" style list of the bits in `features` into buf; "none" when empty. */
const char *cpu_features_string(unsigned features, char *buf, size_t size);
/* True when this CPU has every feature the implementation needs. */
bool gelu_impl_available(const gelu_impl *impl);

#endif
