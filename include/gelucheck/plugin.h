/* gelucheck's plugin ABI, version 1: a shared library that gives gelucheck implementations of
 * GELU (or of the other targets) to verify, with `gelucheck COMMAND --plugin FILE.so` or
 * GELUCHECK_PLUGINS=FILE.so:FILE2.so.
 *
 * The library exports one function, gelucheck_plugin_v1, returning a description of its
 * implementations. gelucheck calls it once after loading the library; what it returns (and
 * every string and function it points to) must stay valid until the process ends. Everything
 * is plain C: names and choices are strings, so that nothing depends on gelucheck's internal
 * numbering, and each implementation's description starts with its own size, so that later
 * versions can append fields that an older plugin simply does not have.
 *
 *   #include <gelucheck/plugin.h>
 *   static void my_forward(const float *x, float *y, size_t n) { ... }
 *   static void my_derivative(const float *x, float *y, size_t n) { ... }
 *   static const gelucheck_impl_v1 impls[] = {{
 *       .size = sizeof(gelucheck_impl_v1), .name = "my_gelu", .target = "exact",
 *       .format = "binary32", .cpu_features = "avx2,fma",
 *       .forward = my_forward, .derivative = my_derivative,
 *       .contract = {.max_ulp = 2, .max_abs = GELUCHECK_NO_CLAIM,
 *                    .grad_max_ulp = GELUCHECK_NO_CLAIM, .grad_max_abs = GELUCHECK_NO_CLAIM,
 *                    .monotone = 1},
 *       .origin = "mylib 1.2 my_gelu, AVX2"}};
 *   GELUCHECK_PLUGIN_EXPORT const gelucheck_plugin_info_v1 *gelucheck_plugin_v1(void)
 *   {
 *       static const gelucheck_plugin_info_v1 p = {GELUCHECK_PLUGIN_ABI, 1, impls};
 *       return &p;
 *   }
 *
 * gelucheck refuses (exit 2, naming the file and the field) a plugin whose ABI version is not
 * one it knows, and any description that is malformed: no name or a name outside
 * [A-Za-z][A-Za-z0-9_]{0,47}, a name taken by another implementation of its format, an unknown
 * target, format, CPU feature or ISA, no forward kernel of its format (or a kernel of another
 * format), a contract bound that is NaN or negative. A row of a 16-bit format (bfloat16,
 * binary16) has its kernels in forward_u16 and derivative_u16, appended below.
 *
 * A library that dispatches on the CPU at run time chooses its contract for the path it
 * dispatched to when gelucheck_plugin_v1 is called (peers/dnnl.c), and says which path that
 * was through dispatched_isa. */
#ifndef GELUCHECK_PLUGIN_H
#define GELUCHECK_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define GELUCHECK_PLUGIN_ABI 1
/* A bound that claims nothing. */
#define GELUCHECK_NO_CLAIM (__builtin_inf())
#define GELUCHECK_PLUGIN_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = f(x[i]) for i < n, binary32 arrays (the format "binary32"); n can be anything from 1
 * to 2^24, x and y do not overlap. Called from several threads at once: keep no state. */
typedef void (*gelucheck_kernel_binary32)(const float *x, float *y, size_t n);
/* The same on binary64 arrays (the format "binary64"). */
typedef void (*gelucheck_kernel_binary64)(const double *x, double *y, size_t n);
/* The same on arrays of 16-bit encodings (the formats "bfloat16" and "binary16": C has no
 * portable type for either, so a kernel reads and writes their bits; it rounds its results to
 * the format itself). */
typedef void (*gelucheck_kernel_u16)(const uint16_t *x, uint16_t *y, size_t n);

/* What an implementation claims; gelucheck's gate holds it to every claim. */
typedef struct {
    double max_ulp;      /* forward, against the target, in ULPs (GELUCHECK_NO_CLAIM: none) */
    double max_abs;      /* forward, absolute */
    double grad_max_ulp; /* derivative, in ULPs */
    double grad_max_abs; /* derivative, absolute */
    int monotone;        /* 1: non-increasing below the target's minimum, non-decreasing above */
    int specials;        /* 1: ±0, ±inf and NaN give the target's values, by encoding */
    int correctly_rounded; /* 1: every output, forward and derivative, correctly rounded */
} gelucheck_contract_v1;

typedef struct {
    uint32_t size;            /* sizeof(gelucheck_impl_v1) as the plugin was compiled */
    const char *name;         /* [A-Za-z][A-Za-z0-9_]{0,47}, unique among all implementations */
    const char *target;       /* "exact", "tanh", "sigmoid", "silu" or "relu" */
    const char *format;       /* "binary32", "binary64" (kernels: forward_binary64 below),
                                 "bfloat16" or "binary16" (kernels: forward_u16 below) */
    const char *cpu_features; /* what the kernels need: "" or a list of avx2, fma, avx512f,
                                 avx512dq, avx512bw, avx512vl, comma-separated */
    gelucheck_kernel_binary32 forward; /* binary32's; NULL for a binary64 row */
    /* NULL: forward only (an inference kernel): scanned forward, its derivative "n/a" in every
     * output, left out of make_moons; the grad_* claims are then not judged */
    gelucheck_kernel_binary32 derivative;
    gelucheck_contract_v1 contract;
    const char *origin; /* one line: where the kernel comes from (library, version) */
    int own_threads;    /* 1: the kernels run a thread pool of their own (left out of scans) */
    /* Appended in gelucheck 0.2 (still ABI 1): read only when size covers them, so a plugin
     * compiled against the first layout (size GELUCHECK_IMPL_V1_FIRST_SIZE) loads as before,
     * with these NULL. */
    const char *method; /* the algorithm its ISA builds share, e.g. "sleef_erf_u10" for
                           "sleef_erf_u10_avx2"; NULL: none (the report groups builds by it) */
    const char *isa;    /* which build of the method: "portable", "avx2", "avx512f" or "avx512"
                           (gelucheck's build names; cpu_features must include that ISA's);
                           NULL: portable */
    /* For kernels whose library picks its code path at run time (oneDNN): the path it picked
     * in this process, in the library's words ("avx512_core"), recorded beside every result
     * (list, accuracy CSV, report) because the figures hold for that path only; NULL: the
     * kernels have one path. Called after gelucheck_plugin_v1, from one thread at a time. */
    const char *(*dispatched_isa)(void);
    /* Appended after those (still ABI 1, read only when size covers them): the kernels of
     * a row whose format is "binary64" (forward and derivative then NULL; derivative_binary64
     * NULL: forward only). gelucheck scans binary64 rows by sampling (`accuracy --format
     * binary64`), in a list of their own: a binary64 row may share its name with a binary32
     * row, not with another binary64 one. In its own process (the default) a crash is named as
     * for the other formats; with --in-process they are called directly (a crash is not). */
    gelucheck_kernel_binary64 forward_binary64;
    gelucheck_kernel_binary64 derivative_binary64;
    /* Appended after those (still ABI 1, read only when size covers them): the kernels of a
     * row whose format is "bfloat16" or "binary16" (forward, derivative and the binary64 pair
     * then NULL; derivative_u16 NULL: forward only). gelucheck scans such a row over all 65,536
     * encodings of its format (`accuracy --format bfloat16`), in the format's list of native
     * implementations: it may share its name with a row of another format (the 16-bit row is
     * then the one run in its format, not the binary32 one widened), not with another row of
     * its format. Its contract's ULPs are the format's. */
    gelucheck_kernel_u16 forward_u16;
    gelucheck_kernel_u16 derivative_u16;
    /* Appended after those (still ABI 1, read only when size covers them), for the report:
     * who wrote the kernels, "ours", "libm_gsl", "simd_library", "ml_library" (a library of
     * ML kernels, such as oneDNN) or "framework" (NULL: "ours";
     * another value is refused), and the names users know it by in the frameworks, one line
     * (NULL: its target's). */
    const char *family;
    const char *known_as;
} gelucheck_impl_v1;

/* The size of gelucheck_impl_v1 before the fields from `method` on were appended. */
#define GELUCHECK_IMPL_V1_FIRST_SIZE (offsetof(gelucheck_impl_v1, method))
/* Its size before the 16-bit kernels were appended (a plugin with binary64 kernels, built
 * before them). */
#define GELUCHECK_IMPL_V1_BINARY64_SIZE (offsetof(gelucheck_impl_v1, forward_u16))

typedef struct {
    uint32_t abi;   /* GELUCHECK_PLUGIN_ABI */
    uint32_t count; /* 1 to 64 */
    const gelucheck_impl_v1 *impls;
} gelucheck_plugin_info_v1;

/* The one symbol a plugin exports. */
GELUCHECK_PLUGIN_EXPORT const gelucheck_plugin_info_v1 *gelucheck_plugin_v1(void);

/* Optional, looked up after gelucheck_plugin_v1 has been called: one line saying which rows the
 * plugin left out in this process and why ("dnnl_erf, dnnl_tanh in bfloat16: ..."), shown by
 * `gelucheck list` under the formats concerned; NULL or "" when none. A plugin without it
 * loads as before. */
GELUCHECK_PLUGIN_EXPORT const char *gelucheck_plugin_left_out_v1(void);

#ifdef __cplusplus
}
#endif

#endif
