/* The picker (see pick.h). */
#include "pick.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gelu_impl.h"

#define V3_FEATURES (CPU_FEATURE_AVX2 | CPU_FEATURE_FMA)
#define V4_FEATURES                                                                            \
    (V3_FEATURES | CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512DQ | CPU_FEATURE_AVX512BW |         \
     CPU_FEATURE_AVX512VL)

/* This CPU's machine: the host row's. */
#if defined(__aarch64__)
#define HOST_ARCH PICK_ARCH_AARCH64
#elif defined(__riscv)
#define HOST_ARCH PICK_ARCH_RISCV64
#else
#define HOST_ARCH PICK_ARCH_X86_64
#endif

/* The platforms, in pick_platform's order. The Arm rows' CPUs are those whose llvm-mca estimates
 * they rank by: Neoverse N1 for armv8-a (NEON only), V1 for armv8.2-a+sve (SVE at 256 bits),
 * V2 for armv9-a+sve2 (SVE2 at 128 bits: the sve128 builds, SVE code, run there). */
static const pick_platform_row platforms[PICK_PLATFORM_COUNT] = {
    [PICK_GENERIC] = {"generic", "any x86-64 CPU", PICK_ARCH_X86_64, 0, false, NULL,
                      PICK_SPEED_MEASURED, NULL, NULL},
    [PICK_X86_64_V2] = {"x86-64-v2", "x86-64 with SSE4.2 and POPCNT", PICK_ARCH_X86_64, 0, false,
                        NULL, PICK_SPEED_MEASURED, NULL, NULL},
    [PICK_X86_64_V3] = {"x86-64-v3", "x86-64 with AVX2 and FMA (Haswell on)", PICK_ARCH_X86_64,
                        V3_FEATURES, false, NULL, PICK_SPEED_MEASURED, NULL, NULL},
    [PICK_X86_64_V4] = {"x86-64-v4", "x86-64 with AVX-512 F/DQ/BW/VL (Skylake-SP on)",
                        PICK_ARCH_X86_64, V4_FEATURES, false, NULL, PICK_SPEED_MEASURED, NULL,
                        NULL},
    [PICK_HOST] = {"host", "this CPU", HOST_ARCH, 0, true, NULL, PICK_SPEED_MEASURED, NULL, NULL},
    [PICK_ARMV8_A] = {"armv8-a", "AArch64 with NEON (Neoverse N1)", PICK_ARCH_AARCH64, 0, false,
                      "neon", PICK_SPEED_ESTIMATED, "neoverse-n1", NULL},
    [PICK_ARMV8_2_A_SVE] = {"armv8.2-a+sve", "AArch64 with 256-bit SVE (Neoverse V1)",
                            PICK_ARCH_AARCH64, 0, false, "neon sve256", PICK_SPEED_ESTIMATED,
                            "neoverse-v1", NULL},
    [PICK_ARMV9_A_SVE2] = {"armv9-a+sve2", "AArch64 with 128-bit SVE2 (Neoverse V2)",
                           PICK_ARCH_AARCH64, 0, false, "neon sve128", PICK_SPEED_ESTIMATED,
                           "neoverse-v2", NULL},
    [PICK_RV64GCV] = {"rv64gcv", "RISC-V with the V extension, VLEN 128", PICK_ARCH_RISCV64, 0,
                      false, "rvv128", PICK_SPEED_NONE, NULL,
                      "not estimated: LLVM 16 has no RISC-V scheduling model with RVV"},
};

/* The ISAs of cross builds (their exec child's dispatched_isa) and the machine of each. */
static const struct {
    const char *isa;
    pick_arch arch;
} cross_isas[] = {
    {"neon", PICK_ARCH_AARCH64},    {"sve128", PICK_ARCH_AARCH64}, {"sve256", PICK_ARCH_AARCH64},
    {"sve512", PICK_ARCH_AARCH64},  {"rvv128", PICK_ARCH_RISCV64}, {"rvv256", PICK_ARCH_RISCV64},
};

static const char *const arch_names[] = {
    [PICK_ARCH_X86_64] = "x86-64", [PICK_ARCH_AARCH64] = "AArch64", [PICK_ARCH_RISCV64] = "RISC-V"};

const pick_platform_row *pick_platform_at(pick_platform p)
{
    return p < PICK_PLATFORM_COUNT ? &platforms[p] : NULL;
}

pick_platform pick_platform_from_name(const char *name)
{
    for (int p = 0; p < PICK_PLATFORM_COUNT; p++)
        if (strcmp(platforms[p].name, name) == 0) return (pick_platform)p;
    return PICK_PLATFORM_COUNT;
}

const char *pick_platform_name(pick_platform p)
{
    return p < PICK_PLATFORM_COUNT ? platforms[p].name : "?";
}

const char *pick_platform_names(const char *sep, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int p = 0; p < PICK_PLATFORM_COUNT && used < size; p++) {
        int w = snprintf(buf + used, size - used, "%s%s", p ? sep : "", platforms[p].name);
        if (w > 0) used += (size_t)w;
    }
    return buf;
}

const char *pick_arch_name(pick_arch a) { return arch_names[a]; }

static unsigned row_features(const pick_platform_row *p)
{
    return p->host_features ? cpu_features() : p->features;
}

unsigned pick_platform_features(pick_platform p)
{
    return p < PICK_PLATFORM_COUNT ? row_features(&platforms[p]) : 0;
}

/* Whether word is one of the space-separated words of list. */
static bool in_words(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *at = list; n && at && (at = strstr(at, word)); at += n)
        if ((at == list || at[-1] == ' ') && (at[n] == '\0' || at[n] == ' ')) return true;
    return false;
}

static const char *row_runs(const pick_platform_row *p, char *buf, size_t size)
{
    if (p->isas) snprintf(buf, size, "%s builds: %s", arch_names[p->arch], p->isas);
    else cpu_features_string(row_features(p), buf, size);
    return buf;
}

const char *pick_platform_runs(pick_platform p, char *buf, size_t size)
{
    if (p >= PICK_PLATFORM_COUNT) return snprintf(buf, size, "?"), buf;
    return row_runs(&platforms[p], buf, size);
}

pick_arch pick_row_arch(const results_row *r, bool *known)
{
    *known = true;
    for (size_t i = 0; i < sizeof cross_isas / sizeof cross_isas[0]; i++)
        if (strcmp(r->dispatched_isa, cross_isas[i].isa) == 0) return cross_isas[i].arch;
    /* a cross build's portable row announces "portable"; this host's rows announce nothing */
    *known = strcmp(r->dispatched_isa, "portable") != 0;
    return HOST_ARCH;
}

bool pick_platform_has_rows(const results_set *s, pick_platform p)
{
    if (p >= PICK_PLATFORM_COUNT) return false;
    if (!platforms[p].isas) return true;
    for (size_t i = 0; i < s->n; i++)
        if (in_words(platforms[p].isas, s->rows[i].dispatched_isa)) return true;
    return false;
}

static const char *row_speed_text(const pick_platform_row *p, const mca_estimates *e,
                                  const char *size, char *buf, size_t n)
{
    switch (p->speed) {
    case PICK_SPEED_MEASURED:
        if (size) snprintf(buf, n, "measured (median ns/element at size %s)", size);
        else snprintf(buf, n, "not measured in this format: ranked by accuracy");
        break;
    case PICK_SPEED_ESTIMATED: {
        const char *model = mca_estimates_model(e, p->mca_cpu);
        if (model)
            snprintf(buf, n, "estimated (llvm-mca, model %s, for %s): cycles/element", model,
                     p->mca_cpu);
        else if (e)
            snprintf(buf, n, "estimated (llvm-mca for %s), but %s has no estimate for it",
                     p->mca_cpu, e->path);
        else
            snprintf(buf, n, "estimated (llvm-mca for %s): cycles/element", p->mca_cpu);
        break;
    }
    case PICK_SPEED_NONE: snprintf(buf, n, "%s: ranked by accuracy", p->why_speed); break;
    }
    return buf;
}

const char *pick_speed_text(pick_platform p, const mca_estimates *e, const char *size, char *buf,
                            size_t size_buf)
{
    if (p >= PICK_PLATFORM_COUNT) return snprintf(buf, size_buf, "?"), buf;
    return row_speed_text(&platforms[p], e, size, buf, size_buf);
}

pick_constraints pick_no_constraints(const char *size)
{
    return (pick_constraints){.max_ulp = INFINITY,
                              .max_abs = INFINITY,
                              .grad_max_ulp = INFINITY,
                              .size = size,
                              .own_max_ulp = INFINITY};
}

/* 4e-7: the absolute error frameworks' GELU kernels reach against exact GELU (oneDNN's
 * dnnl_erf 3.8e-7, SLEEF's erff form 4.49e-7 in the README's exhaustive table) and the order
 * of a few binary32 ULP at GELU's largest values below 4, where frameworks test it. */
/* Fields: max_ulp, max_abs, grad_max_ulp, monotone, target, size, own_max_ulp, CR, contract,
 * estimates (set by the caller, as the size). */
static const pick_need needs[] = {
    {"Exact GELU, ≤ 1 ULP, monotone",
     "max ULP against exact GELU ≤ 1, no monotonicity violation",
     {1, INFINITY, INFINITY, true, NULL, "l2", INFINITY, false, false, NULL}},
    {"Exact GELU within 4e-7",
     "max absolute error against exact GELU ≤ 4e-7 (the frameworks' tolerance class)",
     {INFINITY, 4e-7, INFINITY, false, NULL, "l2", INFINITY, false, false, NULL}},
    {"The tanh form, ≤ 2 ULP of its formula, monotone",
     "PyTorch approximate='tanh': max ULP against the tanh formula ≤ 2, no monotonicity "
     "violation",
     {INFINITY, INFINITY, INFINITY, true, "tanh", "l2", 2, false, false, NULL}},
    {"Correctly rounded exact GELU", "every scanned input correctly rounded against exact GELU",
     {INFINITY, INFINITY, INFINITY, false, NULL, "l2", INFINITY, true, false, NULL}},
};

size_t pick_need_count(void) { return sizeof needs / sizeof needs[0]; }
const pick_need *pick_need_at(size_t i) { return i < pick_need_count() ? &needs[i] : NULL; }

/* Records one failed constraint; the first one's text is kept. */
static void fail(pick_candidate *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(pick_candidate *c, const char *fmt, ...)
{
    if (c->failed++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, sizeof c->why, fmt, ap);
        va_end(ap);
    }
}

/* A measured maximum against a bound (NaN, i.e. not measured, fails). */
static void check_bound(pick_candidate *c, const results_error *e, double value, double bound,
                        const char *what)
{
    if (isinf(bound) && bound > 0) return;
    if (!e->present)
        fail(c, "%s not measured", what);
    else if (!(value <= bound))
        fail(c, "%s %.4g > %g", what, value, bound);
}

/* The code paths a peer may dispatch to at run time, in its library's words, for the rows of
 * `peer` (a name, or every name starting with it when it ends in '_'): oneDNN's dnnl_cpu_isa_t
 * names (as peers/dnnl.c reports them; torch_gelu runs the oneDNN bundled with PyTorch, and
 * peers/torch_gelu.py reports that oneDNN's path) and ATen's CPU capabilities (torch_gelu_tanh:
 * torch.backends.cpu.get_cpu_capability() in lower case); the x86-64 levels whose CPUs take that
 * path (lo to hi), and the cap that makes the library take it on a wider CPU: one row per path.
 *
 * oneDNN 2.6's eltwise kernels for the AVX-512 paths beyond avx512_core (vnni, bf16, amx) are
 * avx512_core's (README, "Peers dispatched at run time": the same results under
 * DNNL_MAX_CPU_ISA=AVX512_CORE and uncapped on an AMX CPU), so those paths count as v4's too.
 * SSE4.1 is the least oneDNN runs on; a generic x86-64 CPU may lack it, so no oneDNN path is
 * generic's. ATen's DEFAULT kernels are built for the baseline, so generic and v2 CPUs take
 * them; avx2 needs AVX2 and FMA (v3), avx512 AVX-512 F, BW, VL and DQ (v4). JAX's rows name the
 * ISA XLA compiles for (peers/jax_gelu.py: xla_<isa>, at most --xla_cpu_max_isa): sse4_2 and avx
 * give the same outputs (no FMA: a v2 CPU's, with AVX or not), avx2 (v3) and avx512 (v4) the
 * same as each other but are counted apart, like oneDNN's; whether jaxlib itself runs on a CPU
 * without AVX is not judged here. */
static const struct {
    const char *peer, *isa;
    pick_platform lo, hi;
    const char *cap;
} dispatch_paths[] = {
    {"dnnl_", "sse41", PICK_X86_64_V2, PICK_X86_64_V2, "DNNL_MAX_CPU_ISA=SSE41"},
    {"dnnl_", "avx2", PICK_X86_64_V3, PICK_X86_64_V3, "DNNL_MAX_CPU_ISA=AVX2"},
    {"dnnl_", "avx512_core", PICK_X86_64_V4, PICK_X86_64_V4, "DNNL_MAX_CPU_ISA=AVX512_CORE"},
    {"dnnl_", "avx512_core_vnni", PICK_X86_64_V4, PICK_X86_64_V4, "DNNL_MAX_CPU_ISA=AVX512_CORE"},
    {"dnnl_", "avx512_core_bf16", PICK_X86_64_V4, PICK_X86_64_V4, "DNNL_MAX_CPU_ISA=AVX512_CORE"},
    {"dnnl_", "avx512_core_amx", PICK_X86_64_V4, PICK_X86_64_V4, "DNNL_MAX_CPU_ISA=AVX512_CORE"},
    {"torch_gelu", "sse41", PICK_X86_64_V2, PICK_X86_64_V2, "ONEDNN_MAX_CPU_ISA=SSE41"},
    {"torch_gelu", "avx2", PICK_X86_64_V3, PICK_X86_64_V3, "ONEDNN_MAX_CPU_ISA=AVX2"},
    {"torch_gelu", "avx512_core", PICK_X86_64_V4, PICK_X86_64_V4, "ONEDNN_MAX_CPU_ISA=AVX512_CORE"},
    {"torch_gelu", "avx512_core_vnni", PICK_X86_64_V4, PICK_X86_64_V4, "ONEDNN_MAX_CPU_ISA=AVX512_CORE"},
    {"torch_gelu", "avx512_core_bf16", PICK_X86_64_V4, PICK_X86_64_V4, "ONEDNN_MAX_CPU_ISA=AVX512_CORE"},
    {"torch_gelu", "avx512_core_amx", PICK_X86_64_V4, PICK_X86_64_V4, "ONEDNN_MAX_CPU_ISA=AVX512_CORE"},
    {"torch_gelu_tanh", "default", PICK_GENERIC, PICK_X86_64_V2, "ATEN_CPU_CAPABILITY=default"},
    {"torch_gelu_tanh", "avx2", PICK_X86_64_V3, PICK_X86_64_V3, "ATEN_CPU_CAPABILITY=avx2"},
    {"torch_gelu_tanh", "avx512", PICK_X86_64_V4, PICK_X86_64_V4, "ATEN_CPU_CAPABILITY=avx512"},
    {"jax_", "xla_sse4_2", PICK_X86_64_V2, PICK_X86_64_V2, "XLA_FLAGS=--xla_cpu_max_isa=SSE4_2"},
    {"jax_", "xla_avx", PICK_X86_64_V2, PICK_X86_64_V2, "XLA_FLAGS=--xla_cpu_max_isa=SSE4_2"},
    {"jax_", "xla_avx2", PICK_X86_64_V3, PICK_X86_64_V3, "XLA_FLAGS=--xla_cpu_max_isa=AVX2"},
    {"jax_", "xla_avx512", PICK_X86_64_V4, PICK_X86_64_V4, "XLA_FLAGS=--xla_cpu_max_isa=AVX512"},
};
enum { NPATHS = sizeof dispatch_paths / sizeof dispatch_paths[0] };

static bool of_peer(int i, const char *name)
{
    const char *p = dispatch_paths[i].peer;
    size_t n = strlen(p), len = strcspn(name, "@"); /* a framework row's path: its row's */
    return p[n - 1] == '_' ? strncmp(name, p, n) == 0 : len == n && strncmp(name, p, n) == 0;
}

static int path_of(const char *name, const char *isa)
{
    for (int i = 0; i < NPATHS; i++)
        if (of_peer(i, name) && strcmp(dispatch_paths[i].isa, isa) == 0) return i;
    return -1;
}

static bool same_levels(int a, int b)
{
    return dispatch_paths[a].lo == dispatch_paths[b].lo && dispatch_paths[a].hi == dispatch_paths[b].hi;
}

/* A peer that dispatches at run time: its figures hold for the path it took when measured, so
 * they judge it for a platform only when that platform's CPUs take the same path (host: the path
 * the peer takes in this process). Otherwise it fails, saying how to measure the right path. */
static void judge_dispatched(pick_candidate *c, pick_platform p)
{
    const results_row *r = c->row;
    int measured = path_of(r->name, r->dispatched_isa);
    if (p == PICK_HOST) {
        const gelu_impl *m = gelu_impl_find(r->name);
        const char *now = m && m->dispatched_isa ? m->dispatched_isa() : NULL;
        int here = now ? path_of(r->name, now) : -1;
        if (!now)
            fail(c, "measured on its %s path; which path this host takes is unknown (peer not "
                 "loaded)", r->dispatched_isa);
        else if (strcmp(now, r->dispatched_isa) != 0 &&
                 !(measured >= 0 && here >= 0 && same_levels(measured, here)))
            fail(c, "measured on its %s path; here it takes %s: measure it in this setting",
                 r->dispatched_isa, now);
        return;
    }
    int want = -1;
    for (int i = 0; i < NPATHS && want < 0; i++)
        if (of_peer(i, r->name) && dispatch_paths[i].lo <= p && p <= dispatch_paths[i].hi) want = i;
    if (want < 0)
        fail(c, "measured on its %s path; which path %s CPUs take is unknown: cannot judge it",
             r->dispatched_isa, pick_platform_name(p));
    else if (measured < 0 || !same_levels(measured, want))
        fail(c, "measured on its %s path, not %s's %s: measure it under %s", r->dispatched_isa,
             pick_platform_name(p), dispatch_paths[want].isa, dispatch_paths[want].cap);
}

/* Whether the platform runs r: a build for its machine (by the row's arch), of an ISA it runs
 * (x86-64: the CPU features r needs; the others: r's cross ISA), and a dispatching peer on the
 * path the platform's CPUs take. */
static void judge_runs(pick_candidate *c, const pick_platform_row *p)
{
    const results_row *r = c->row;
    bool known;
    pick_arch arch = pick_row_arch(r, &known);
    char feat[128];
    if (!known) {
        fail(c, "a cross build's portable row: which machine it was built for is unknown");
        return;
    }
    if (arch != p->arch) {
        fail(c, "a build for %s, which %s (%s) does not run", arch_names[arch], p->name,
             arch_names[p->arch]);
        return;
    }
    if (p->isas) {
        if (!in_words(p->isas, r->dispatched_isa))
            fail(c, "a %s build, which %s does not run (%s)", r->dispatched_isa, p->name,
                 row_runs(p, feat, sizeof feat));
        return;
    }
    unsigned missing = r->features & ~row_features(p);
    if (missing)
        fail(c, "needs %s, which %s lacks", cpu_features_string(missing, feat, sizeof feat), p->name);
    if (r->dispatched_isa[0]) judge_dispatched(c, pick_platform_from_name(p->name));
}

/* The figure c is ranked by on p: measured ns at the size, or the estimate; a platform of
 * estimated speed in another format than binary32 (the estimates are binary32 kernels') and one
 * with no speed rank by accuracy (INFINITY for all). */
static void judge_speed(pick_candidate *c, const pick_platform_row *p, const pick_constraints *k,
                        gelu_format_id format)
{
    const results_speed *sp = k->size ? results_speed_at(c->row, k->size) : NULL;
    c->ns = p->speed == PICK_SPEED_MEASURED && sp ? sp->ns : INFINITY;
    c->cost = c->ns;
    if (p->speed == PICK_SPEED_MEASURED && k->size && !sp)
        fail(c, "not benchmarked at size %s", k->size);
    if (p->speed != PICK_SPEED_ESTIMATED || format != GELU_FORMAT_BINARY32) return;
    const mca_estimate *e = mca_estimates_find(k->estimates, c->row->name, p->mca_cpu);
    if (e) c->cost = e->cycles;
    else if (k->estimates)
        fail(c, "no llvm-mca estimate of %s for %s in %s", c->row->name, p->mca_cpu,
             k->estimates->path);
    else
        fail(c, "no llvm-mca estimates loaded");
}

static void judge(pick_candidate *c, const pick_platform_row *p, const pick_constraints *k,
                  gelu_format_id format)
{
    const results_row *r = c->row;
    judge_runs(c, p);
    if (!r->scanned)
        fail(c, "no accuracy measurement (a benchmark-only row)");
    else if (!r->exact[0].present) {
        fail(c, "not a GELU (target %s)", r->target);
        c->off_target = true;
    }
    if (k->target && strcmp(k->target, r->target) != 0) {
        fail(c, "target %s, not %s", r->target, k->target);
        c->off_target = true;
    }
    check_bound(c, &r->exact[0], r->exact[0].max_ulp, k->max_ulp, "max ULP vs exact GELU");
    check_bound(c, &r->exact[0], r->exact[0].max_abs, k->max_abs, "max abs error vs exact GELU");
    check_bound(c, &r->exact[1], r->exact[1].max_ulp, k->grad_max_ulp,
                "derivative max ULP vs exact GELU'");
    check_bound(c, &r->own[0], r->own[0].max_ulp, k->own_max_ulp, "max ULP vs own target");
    if (k->correctly_rounded) {
        if (!r->exact[0].present)
            fail(c, "correct rounding vs exact GELU not measured");
        else if (!results_all_correctly_rounded(&r->exact[0]))
            fail(c, "%.4f%% correctly rounded vs exact GELU", 100 * r->exact[0].cr_fraction);
        else if (!r->exact[1].present)
            fail(c, "correct rounding of the derivative not measured");
        else if (!results_all_correctly_rounded(&r->exact[1]))
            fail(c, "derivative %.4f%% correctly rounded vs exact GELU'", 100 * r->exact[1].cr_fraction);
    }
    if (k->monotone && r->mono_violations != 0) {
        if (r->mono_violations < 0)
            fail(c, "monotonicity not measured");
        else
            fail(c, "%ld monotonicity violations", r->mono_violations);
    }
    if (k->contract_kept && strcmp(r->contract, "pass") != 0)
        fail(c, r->contract[0] ? "breaks its own contract" : "its contract not judged");
    judge_speed(c, p, k, format);
}

/* Of the target asked for first, then meeting more constraints, then faster, then more accurate
 * (max ULP, then the fraction correctly rounded), then by name. */
static int compare(const void *a, const void *b)
{
    const pick_candidate *x = a, *y = b;
    if (x->off_target != y->off_target) return x->off_target ? 1 : -1;
    if (x->failed != y->failed) return x->failed < y->failed ? -1 : 1;
    if (x->cost != y->cost) return x->cost < y->cost ? -1 : 1;
    double ux = x->row->exact[0].present ? x->row->exact[0].max_ulp : INFINITY;
    double uy = y->row->exact[0].present ? y->row->exact[0].max_ulp : INFINITY;
    if (ux != uy && !(isnan(ux) || isnan(uy))) return ux < uy ? -1 : 1;
    /* at the same max ULP (0.5 for a widened cr and cr_bfloat16), more correctly rounded */
    double cx = x->row->exact[0].present ? x->row->exact[0].cr_fraction : -1;
    double cy = y->row->exact[0].present ? y->row->exact[0].cr_fraction : -1;
    if (cx != cy) return cx > cy ? -1 : 1;
    return strcmp(x->row->name, y->row->name);
}

/* The row whose path `name` is ("torch_gelu@size1": the row "torch_gelu"), NULL when name is no
 * path or its row is not in s. */
static const results_row *row_of_path(const results_set *s, const char *name)
{
    const char *at = strchr(name, '@');
    for (size_t i = 0; at && i < s->n; i++)
        if (strncmp(s->rows[i].name, name, (size_t)(at - name)) == 0 &&
            s->rows[i].name[at - name] == '\0')
            return &s->rows[i];
    return NULL;
}

/* Whether candidate a judged worse than b: more constraints failed, then a larger max ULP
 * against exact GELU (forward). */
static bool judged_worse(const pick_candidate *a, const pick_candidate *b)
{
    if (a->failed != b->failed) return a->failed > b->failed;
    double ua = a->row->exact[0].present ? a->row->exact[0].max_ulp : -1;
    double ub = b->row->exact[0].present ? b->row->exact[0].max_ulp : -1;
    return ua > ub;
}

/* A framework row with paths in s (ROW@PATH, peers/framework_paths.py) is judged by its worst
 * path, the batch path (the row itself) among them: k takes that path's verdict, its speed
 * staying the row's, and names it (worst_path). */
static void judge_worst_path(pick_candidate *k, const results_set *s, const pick_platform_row *p,
                             const pick_constraints *c)
{
    pick_candidate worst = *k;
    for (size_t j = 0; j < s->n; j++) {
        if (row_of_path(s, s->rows[j].name) != k->row) continue;
        pick_candidate t = {.row = &s->rows[j]};
        judge(&t, p, c, s->format);
        k->npaths++;
        if (judged_worse(&t, &worst)) worst = t;
    }
    if (!k->npaths) return;
    snprintf(k->worst_path, sizeof k->worst_path, "%s",
             worst.row == k->row ? "the batch path" : strchr(worst.row->name, '@') + 1);
    if (worst.row != k->row) {
        k->failed = worst.failed;
        if (worst.failed) snprintf(k->why, sizeof k->why, "path %.40s: %.110s", k->worst_path, worst.why);
    }
}

int pick_rank_on(const results_set *s, const pick_platform_row *p, const pick_constraints *c,
                 pick_candidate *out, size_t *n)
{
    int fits = 0;
    *n = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (strcmp(s->rows[i].name, s->baseline) == 0) continue; /* the yardstick */
        if (row_of_path(s, s->rows[i].name)) continue;          /* judged with its row */
        pick_candidate *k = &out[(*n)++];
        memset(k, 0, sizeof *k);
        k->row = &s->rows[i];
        judge(k, p, c, s->format);
        judge_worst_path(k, s, p, c);
        fits += k->failed == 0;
    }
    qsort(out, *n, sizeof *out, compare);
    return fits;
}

int pick_rank(const results_set *s, pick_platform p, const pick_constraints *c, pick_candidate *out,
              size_t *n)
{
    if (p >= PICK_PLATFORM_COUNT) {
        *n = 0;
        return 0;
    }
    return pick_rank_on(s, &platforms[p], c, out, n);
}

bool pick_constrains(const pick_constraints *c)
{
    return !isinf(c->max_ulp) || !isinf(c->max_abs) || !isinf(c->grad_max_ulp) || c->monotone ||
           c->target || !isinf(c->own_max_ulp) || c->correctly_rounded || c->contract_kept;
}

/* Appends ", " and the formatted text to buf[size] at *used. */
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
    if (*used >= size) return;
    if (*used) *used += (size_t)snprintf(buf + *used, size - *used, ", ");
    if (*used >= size) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    if (w > 0) *used += (size_t)w;
}

const char *pick_constraints_describe(const pick_constraints *c, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    if (c->target) append(buf, size, &used, "target %s", c->target);
    if (!isinf(c->max_ulp)) append(buf, size, &used, "max ULP vs exact GELU <= %g", c->max_ulp);
    if (!isinf(c->max_abs)) append(buf, size, &used, "max abs error vs exact GELU <= %g", c->max_abs);
    if (!isinf(c->own_max_ulp)) append(buf, size, &used, "max ULP vs own target <= %g", c->own_max_ulp);
    if (!isinf(c->grad_max_ulp))
        append(buf, size, &used, "derivative max ULP vs exact GELU' <= %g", c->grad_max_ulp);
    if (c->monotone) append(buf, size, &used, "monotone");
    if (c->correctly_rounded) append(buf, size, &used, "correctly rounded, forward and derivative");
    if (c->contract_kept) append(buf, size, &used, "its own contract kept");
    if (used == 0) snprintf(buf, size, "no constraint");
    return buf;
}

static int popcount(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

const results_row *pick_platform_relu(const results_set *s, pick_platform p, const char *size)
{
    const results_row *best = NULL;
    if (p >= PICK_PLATFORM_COUNT || platforms[p].speed != PICK_SPEED_MEASURED) return NULL;
    unsigned offered = pick_platform_features(p);
    for (size_t i = 0; size && i < s->n; i++) {
        const results_row *r = &s->rows[i];
        if (strcmp(r->target, "relu") != 0 || (r->features & ~offered) || r->dispatched_isa[0] ||
            !results_speed_at(r, size))
            continue;
        int a = popcount(r->features), b = best ? popcount(best->features) : -1;
        bool baseline = strcmp(r->name, s->baseline) == 0;
        if (a > b || (a == b && (baseline || (strcmp(best->name, s->baseline) != 0 &&
                                             strcmp(r->name, best->name) < 0))))
            best = r;
    }
    return best;
}

double pick_times_relu(const results_set *s, const results_row *r, pick_platform p, const char *size)
{
    const results_row *relu = pick_platform_relu(s, p, size);
    const results_speed *a = size ? results_speed_at(r, size) : NULL;
    const results_speed *b = relu ? results_speed_at(relu, size) : NULL;
    if (!a || !b) return NAN;
    if (strcmp(relu->name, s->baseline) == 0) return a->ratio;
    return a->ns / b->ns;
}

const char *pick_cap_for(const results_row *r, pick_platform p)
{
    if (!r->dispatched_isa[0] || p == PICK_HOST) return NULL;
    int measured = path_of(r->name, r->dispatched_isa), want = -1;
    for (int i = 0; i < NPATHS && want < 0; i++)
        if (of_peer(i, r->name) && dispatch_paths[i].lo <= p && p <= dispatch_paths[i].hi) want = i;
    if (want < 0 || (measured >= 0 && same_levels(measured, want))) return NULL;
    return dispatch_paths[want].cap;
}
