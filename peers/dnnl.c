/* The oneDNN peer (plugin gelucheck_peer_dnnl.so): oneDNN's eltwise primitives
 * dnnl_eltwise_gelu_erf (dnnl_erf, target exact) and dnnl_eltwise_gelu_tanh (dnnl_tanh, target
 * tanh) through the C API of the Debian libdnnl build, forward and backward (the derivative is
 * backward with diff_dst = 1, exact since 1·g = g), through the public plugin ABI
 * (include/gelucheck/plugin.h). dnnl_erf and dnnl_tanh run single-threaded; dnnl_erf_omp and
 * dnnl_tanh_omp are the same primitives on oneDNN's own OpenMP threads (all cores), separate,
 * labelled rows for the benchmark. Execution: dnnl_eltwise.c.
 *
 * oneDNN picks its code path (JIT ISA) at run time, at most the one DNNL_MAX_CPU_ISA allows, read
 * once per process: dnnl_get_effective_cpu_isa says which, and each row reports it
 * (dispatched_isa). The contracts below are those of the path dispatched to.
 *
 * Contracts set from the exhaustive run over all 2^32 inputs (docs/accuracy.md, "Measured over all 2^32
 * inputs"), bounds set a little above the maxima. No ULP claim: the forward of gelu_erf gives 0
 * where GELU is tiny and negative (1.7e7 ULP at x ≈ −7.1) and +0 at −0; gelu_tanh's negative
 * tail flushes to 0 (1.7e7 ULP at x ≈ −8.2). −inf gives NaN: no claim on specials. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <dnnl_debug.h>

#include "dnnl_eltwise.h"
#include "gelucheck/plugin.h"

#define DNNL_KERNEL(fn, alg, grad, threaded)                                                     \
    static void fn(const float *x, float *y, size_t n)                                           \
    {                                                                                            \
        dnnl_eltwise_run(alg, grad, threaded, x, y, n);                                          \
    }
DNNL_KERNEL(erf_forward, dnnl_eltwise_gelu_erf, false, false)
DNNL_KERNEL(erf_derivative, dnnl_eltwise_gelu_erf, true, false)
DNNL_KERNEL(erf_forward_omp, dnnl_eltwise_gelu_erf, false, true)
DNNL_KERNEL(erf_derivative_omp, dnnl_eltwise_gelu_erf, true, true)
DNNL_KERNEL(tanh_forward, dnnl_eltwise_gelu_tanh, false, false)
DNNL_KERNEL(tanh_derivative, dnnl_eltwise_gelu_tanh, true, false)
DNNL_KERNEL(tanh_forward_omp, dnnl_eltwise_gelu_tanh, false, true)
DNNL_KERNEL(tanh_derivative_omp, dnnl_eltwise_gelu_tanh, true, true)

/* The same primitives on bf16 memory (rows of the bfloat16 format), single-threaded. */
#define DNNL_KERNEL_BF16(fn, alg, grad)                                                          \
    static void fn(const uint16_t *x, uint16_t *y, size_t n)                                     \
    {                                                                                            \
        dnnl_eltwise_run_bf16(alg, grad, false, x, y, n);                                        \
    }
DNNL_KERNEL_BF16(erf_forward_bf16, dnnl_eltwise_gelu_erf, false)
DNNL_KERNEL_BF16(erf_derivative_bf16, dnnl_eltwise_gelu_erf, true)
DNNL_KERNEL_BF16(tanh_forward_bf16, dnnl_eltwise_gelu_tanh, false)
DNNL_KERNEL_BF16(tanh_derivative_bf16, dnnl_eltwise_gelu_tanh, true)

/* oneDNN's names for its ISAs (dnnl_types.h, dnnl_cpu_isa_t), as DNNL_MAX_CPU_ISA spells them
 * in lower case. */
static const char *dispatched_isa(void)
{
    switch (dnnl_get_effective_cpu_isa()) {
    case dnnl_cpu_isa_sse41: return "sse41";
    case dnnl_cpu_isa_avx: return "avx";
    case dnnl_cpu_isa_avx2: return "avx2";
    case dnnl_cpu_isa_avx2_vnni: return "avx2_vnni";
    case dnnl_cpu_isa_avx512_mic: return "avx512_mic";
    case dnnl_cpu_isa_avx512_mic_4ops: return "avx512_mic_4ops";
    case dnnl_cpu_isa_avx512_core: return "avx512_core";
    case dnnl_cpu_isa_avx512_core_vnni: return "avx512_core_vnni";
    case dnnl_cpu_isa_avx512_core_bf16: return "avx512_core_bf16";
    case dnnl_cpu_isa_avx512_core_amx: return "avx512_core_amx";
    default: return "unknown";
    }
}

/* The contracts of one dispatched path: forward and derivative absolute bounds per algorithm
 * (no other claim differs between paths). */
typedef struct {
    double erf_max_abs, erf_grad_max_abs, tanh_max_abs;
} dnnl_contracts;

/* Measured per path, each under its DNNL_MAX_CPU_ISA cap in its own process (docs/frameworks.md, "oneDNN's
 * code paths": a 10^7 sample of all encodings, and every input of [1, 8] and [−8, −1], where the
 * forward maxima lie, and for gelu_erf of ±[2^-7, 2^-2], where its derivative's lies):
 *   avx2, avx512_core and avx512_core_amx (this host uncapped) give the same outputs: every
 *     column of the accuracy CSV equal. Their bounds are those set from the exhaustive run over
 *     all 2^32 inputs (avx512_core_amx; docs/accuracy.md, "Measured over all 2^32 inputs"): gelu_erf
 *     forward 3.79e-7, derivative 3.2e-7; gelu_tanh forward 5.02e-7.
 *   sse41 (every input of ±[2^-14, 8] besides the sample): gelu_erf's forward reaches 4.697e-7
 *     at x = 0x1.010a6p+2, its derivative 3.543e-7 at 0x1.82e7d6p-5, both above the wider
 *     paths' bounds; gelu_tanh's forward the same 5.019e-7 as theirs.
 * Any other path (avx, avx2_vnni, the other AVX-512 ones, a later oneDNN's) is not measured:
 * it gets the largest of the measured bounds, a claim that holds on every path measured. */
static const dnnl_contracts wide_paths = {3.8e-07, 3.21e-07, 5.03e-07};
static const dnnl_contracts sse41_path = {4.71e-07, 3.55e-07, 5.03e-07};

static dnnl_contracts contracts_for(dnnl_cpu_isa_t isa)
{
    switch (isa) {
    case dnnl_cpu_isa_avx2:
    case dnnl_cpu_isa_avx512_core:
    case dnnl_cpu_isa_avx512_core_amx: return wide_paths;
    case dnnl_cpu_isa_sse41: return sse41_path;
    default:
        return (dnnl_contracts){fmax(wide_paths.erf_max_abs, sse41_path.erf_max_abs),
                                fmax(wide_paths.erf_grad_max_abs, sse41_path.erf_grad_max_abs),
                                fmax(wide_paths.tanh_max_abs, sse41_path.tanh_max_abs)};
    }
}

/* The names users know a row by: oneDNN's algorithm for the target, and the PyTorch semantics. */
static const char *known_as(const char *target, int own_threads)
{
    bool erf = strcmp(target, "exact") == 0;
    if (own_threads)
        return erf ? "oneDNN eltwise_gelu_erf itself, on its OpenMP threads"
                   : "oneDNN eltwise_gelu_tanh itself, on its OpenMP threads";
    return erf ? "oneDNN eltwise_gelu_erf itself (PyTorch approximate='none' semantics)"
               : "oneDNN eltwise_gelu_tanh itself (PyTorch approximate='tanh' semantics)";
}

static gelucheck_impl_v1 describe(const char *name, const char *target,
                                  gelucheck_kernel_binary32 fwd, gelucheck_kernel_binary32 grad,
                                  double max_abs, double grad_max_abs, const char *origin,
                                  int own_threads)
{
    return (gelucheck_impl_v1){
        .size = sizeof(gelucheck_impl_v1), .name = name, .method = name, .target = target,
        .format = "binary32", .cpu_features = "", .forward = fwd, .derivative = grad,
        .contract = {.max_ulp = GELUCHECK_NO_CLAIM, .max_abs = max_abs,
                     .grad_max_ulp = GELUCHECK_NO_CLAIM, .grad_max_abs = grad_max_abs},
        .origin = origin, .own_threads = own_threads, .dispatched_isa = dispatched_isa,
        .family = "ml_library", .known_as = known_as(target, own_threads)};
}

/* The bfloat16 rows' contracts on one dispatched path, in bfloat16's ULPs and absolute terms. */
typedef struct {
    double erf_max_ulp, erf_max_abs, erf_grad_max_ulp, erf_grad_max_abs;
    double tanh_max_ulp, tanh_max_abs, tanh_grad_max_ulp, tanh_grad_max_abs;
    int erf_monotone, tanh_monotone;
} dnnl_contracts_bf16;

/* Measured over all 65,536 bfloat16 inputs, forward and derivative, each path under its
 * DNNL_MAX_CPU_ISA cap in its own process (docs/formats.md, "16-bit formats": `accuracy --format bfloat16
 * --impl dnnl_erf,dnnl_tanh --grad`): avx512_core_bf16 (this Zen 4 uncapped) and avx512_core
 * reach the same maxima, against the own target in bfloat16's ULPs: gelu_erf forward 254.93 ULP
 * (at x = −0x1.14p+3: GELU's negative tail flushed to 0, which in bfloat16 is at most 256 ULP
 * of a normal result) and 7.769e-3 absolute (at 0x1.62p+1, half an ULP: the format's own
 * rounding), derivative 255.21 ULP and 3.906e-3; gelu_tanh forward 255.70 ULP and 7.755e-3, its
 * derivative NaN from x = 0x1.acp+43 on (no claim). Neither is monotone (9 and 7 breaks) nor
 * claims specials (−inf gives NaN). Bounds a little above. avx2 and sse41 have no bf16 eltwise
 * (the rows are left out there); any other path (a later oneDNN's, AMX) is not measured and
 * gets these, the largest measured. */
static dnnl_contracts_bf16 contracts_bf16_for(dnnl_cpu_isa_t isa)
{
    (void)isa; /* the same on every path measured */
    const double none = GELUCHECK_NO_CLAIM;
    return (dnnl_contracts_bf16){.erf_max_ulp = 255, .erf_max_abs = 7.77e-3,
                                 .erf_grad_max_ulp = 255.3, .erf_grad_max_abs = 3.91e-3,
                                 .tanh_max_ulp = 255.8, .tanh_max_abs = 7.76e-3,
                                 .tanh_grad_max_ulp = none, .tanh_grad_max_abs = none,
                                 .erf_monotone = 0, .tanh_monotone = 0};
}

/* What the peer leaves out in this process and why: the bfloat16 rows where oneDNN has no bf16
 * eltwise, and binary16 rows always. */
static char left_out_text[600];

/* The first of the primitives (both algorithms, both directions) on memory of `type` that
 * oneDNN cannot create on its path in this process, as "has no eltwise gelu_erf forward on bf16
 * memory on its path avx2 (dnnl_unimplemented)" into why; 0 when it has them all. */
static int probe(dnnl_data_type_t type, const char *type_name, char *why, size_t size)
{
    static const struct {
        dnnl_alg_kind_t alg;
        const char *name;
    } algs[] = {{dnnl_eltwise_gelu_erf, "gelu_erf"}, {dnnl_eltwise_gelu_tanh, "gelu_tanh"}};
    for (size_t a = 0; a < 2; a++)
        for (int grad = 0; grad < 2; grad++) {
            dnnl_status_t st = dnnl_eltwise_probe(algs[a].alg, grad, type);
            if (st == dnnl_success) continue;
            snprintf(why, size, "has no eltwise %s %s on %s memory on its path %s (dnnl_%s)",
                     algs[a].name, grad ? "backward" : "forward", type_name, dispatched_isa(),
                     dnnl_status2str(st));
            return -1;
        }
    return 0;
}

/* Probes bf16 and f16 into left_out_text; whether the bfloat16 rows can be made. */
static bool probe_bf16(void)
{
    const dnnl_version_t *v = dnnl_version();
    char bf16[200], f16[200];
    bool has_bf16 = probe(dnnl_bf16, "bf16", bf16, sizeof bf16) == 0;
    /* binary16: no rows on any path (none measured: oneDNN 2.6.3 has no f16 eltwise on this
     * Zen 4's paths); the probe says whether that still holds */
    if (probe(dnnl_f16, "f16", f16, sizeof f16) == 0)
        snprintf(f16, sizeof f16, "has f16 eltwise on its path %s, not measured",
                 dispatched_isa());
    if (has_bf16)
        snprintf(left_out_text, sizeof left_out_text, "dnnl_erf, dnnl_tanh in binary16: oneDNN "
                 "%d.%d.%d %s", v->major, v->minor, v->patch, f16);
    else
        snprintf(left_out_text, sizeof left_out_text, "dnnl_erf, dnnl_tanh in bfloat16: oneDNN "
                 "%d.%d.%d %s; in binary16: it %s", v->major, v->minor, v->patch, bf16, f16);
    return has_bf16;
}

GELUCHECK_PLUGIN_EXPORT const char *gelucheck_plugin_left_out_v1(void) { return left_out_text; }

static gelucheck_impl_v1 describe_bf16(const char *name, const char *target,
                                       gelucheck_kernel_u16 fwd, gelucheck_kernel_u16 grad,
                                       double max_ulp, double max_abs, double grad_max_ulp,
                                       double grad_max_abs, int monotone, const char *origin)
{
    return (gelucheck_impl_v1){
        .size = sizeof(gelucheck_impl_v1), .name = name, .method = name, .target = target,
        .format = "bfloat16", .cpu_features = "", .forward_u16 = fwd, .derivative_u16 = grad,
        .contract = {.max_ulp = max_ulp, .max_abs = max_abs, .grad_max_ulp = grad_max_ulp,
                     .grad_max_abs = grad_max_abs, .monotone = monotone},
        .origin = origin, .dispatched_isa = dispatched_isa, .family = "ml_library",
        .known_as = known_as(target, 0)};
}

GELUCHECK_PLUGIN_EXPORT const gelucheck_plugin_info_v1 *gelucheck_plugin_v1(void)
{
    static gelucheck_impl_v1 impls[6];
    static gelucheck_plugin_info_v1 info = {GELUCHECK_PLUGIN_ABI, 4, impls};
    const dnnl_contracts c = contracts_for(dnnl_get_effective_cpu_isa());
    impls[0] = describe("dnnl_erf", "exact", erf_forward, erf_derivative, c.erf_max_abs,
                        c.erf_grad_max_abs,
                        "peer: oneDNN eltwise dnnl_eltwise_gelu_erf, single-threaded", 0);
    impls[1] = describe("dnnl_tanh", "tanh", tanh_forward, tanh_derivative, c.tanh_max_abs,
                        GELUCHECK_NO_CLAIM,
                        "peer: oneDNN eltwise dnnl_eltwise_gelu_tanh, single-threaded", 0);
    impls[2] = describe("dnnl_erf_omp", "exact", erf_forward_omp, erf_derivative_omp,
                        c.erf_max_abs, c.erf_grad_max_abs,
                        "peer: oneDNN eltwise dnnl_eltwise_gelu_erf on its own OpenMP threads "
                        "(all cores)", 1);
    impls[3] = describe("dnnl_tanh_omp", "tanh", tanh_forward_omp, tanh_derivative_omp,
                        c.tanh_max_abs, GELUCHECK_NO_CLAIM,
                        "peer: oneDNN eltwise dnnl_eltwise_gelu_tanh on its own OpenMP threads "
                        "(all cores)", 1);
    if (probe_bf16()) {
        const dnnl_contracts_bf16 b = contracts_bf16_for(dnnl_get_effective_cpu_isa());
        impls[4] = describe_bf16("dnnl_erf", "exact", erf_forward_bf16, erf_derivative_bf16,
                                 b.erf_max_ulp, b.erf_max_abs, b.erf_grad_max_ulp,
                                 b.erf_grad_max_abs, b.erf_monotone,
                                 "peer: oneDNN eltwise dnnl_eltwise_gelu_erf on bf16 memory, "
                                 "single-threaded");
        impls[5] = describe_bf16("dnnl_tanh", "tanh", tanh_forward_bf16, tanh_derivative_bf16,
                                 b.tanh_max_ulp, b.tanh_max_abs, b.tanh_grad_max_ulp,
                                 b.tanh_grad_max_abs, b.tanh_monotone,
                                 "peer: oneDNN eltwise dnnl_eltwise_gelu_tanh on bf16 memory, "
                                 "single-threaded");
        info.count = 6;
    }
    return &info;
}
