/* Every registered implementation held to its declared contract against MPFR on 10^5 seeded
 * inputs over [−20, 20] (half uniform in value, half uniform in encoding), forward and
 * derivative, and its special-value claim checked both ways: a claim of right specials must hold
 * at every special input, and an implementation that gets them all right must claim it. And the
 * SIMD builds of each vf_* algorithm give the bits of its plain build. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <pthread.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "contract.h"
#include "criteria.h"
#include "sample.h"

enum { SAMPLE_N = 100000 };
static const uint64_t SAMPLE_SEED = 20261129;

static float xs[SAMPLE_N];
static ref_value *refs[GELU_TARGET_COUNT][2]; /* [target][grad] */

typedef struct {
    gelu_target t;
    bool grad;
} fill_job;

static void *fill(void *arg)
{
    fill_job *j = arg;
    ref_eval_values(j->t, j->grad, xs, SAMPLE_N, refs[j->t][j->grad]);
    ref_thread_done();
    return NULL;
}

/* The reference of each target used by some implementation, computed once, two at a time. */
static void setup_refs(void)
{
    char err[2000]; /* the default peers (GSL, SLEEF, oneDNN) too, as every command loads them */
    cr_assert_eq(plugins_load_default_peers(err, sizeof err), 0, "%s", err);
    sample_range(SAMPLE_SEED, -20.0f, 20.0f, xs, SAMPLE_N);
    bool used[GELU_TARGET_COUNT] = {false};
    for (size_t i = 0; i < gelu_impl_count(); i++)
        used[gelu_impl_at(i)->target] = true;
    fill_job jobs[2 * GELU_TARGET_COUNT];
    size_t njobs = 0;
    for (int t = 0; t < GELU_TARGET_COUNT; t++) {
        if (!used[t]) continue;
        for (int g = 0; g < 2; g++) {
            refs[t][g] = malloc(SAMPLE_N * sizeof(ref_value));
            jobs[njobs++] = (fill_job){(gelu_target)t, g};
        }
    }
    for (size_t k = 0; k < njobs; k += 2) {
        pthread_t th;
        bool pair = k + 1 < njobs;
        if (pair) pthread_create(&th, NULL, fill, &jobs[k + 1]);
        fill(&jobs[k]);
        if (pair) pthread_join(th, NULL);
    }
}

/* How many sample points fail the peers' published criteria (scan/criteria.h), against the
 * implementation's own target; informational (--verbose), not part of any contract. */
static void log_criteria(const gelu_impl *m, const ref_value *ref)
{
    static float y[SAMPLE_N];
    size_t benchdnn_fail = 0, xnnpack_fail = 0, xnnpack_n = 0;
    m->forward(xs, y, SAMPLE_N);
    for (size_t k = 0; k < SAMPLE_N; k++) {
        benchdnn_fail += criterion_benchdnn_gelu_erf(xs[k], y[k], ref[k].hi, ref[k].lo) == CRITERION_FAIL;
        criterion_result x = criterion_xnnpack_gelu(xs[k], y[k], ref[k].hi, ref[k].lo);
        xnnpack_n += x != CRITERION_NOT_APPLICABLE;
        xnnpack_fail += x == CRITERION_FAIL;
    }
    cr_log_info("%s: benchdnn gelu_erf rule fails at %zu of %d points; XNNPACK GELU rule fails at "
                "%zu of %zu points in [-10, 10]", m->name, benchdnn_fail, SAMPLE_N, xnnpack_fail,
                xnnpack_n);
}

Test(impls, contracts_on_seeded_sample, .init = setup_refs, .timeout = 600)
{
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        if (!gelu_impl_available(m)) {
            /* info, not warn: Criterion 2.4 exits 1 once anything is logged as a warning */
            cr_log_info("%s: skipped, needs CPU features this machine lacks", m->name);
            continue;
        }
        contract_report r;
        contract_check(m, xs, SAMPLE_N, refs[m->target][0], refs[m->target][1], &r);
        cr_log_info("%s: forward max %.4g ULP at %a, max abs %.4g at %a; derivative max %.4g ULP "
                    "at %a, max abs %.4g at %a", m->name, r.forward.max_ulp,
                    (double)r.forward.max_ulp_x, r.forward.max_abs, (double)r.forward.max_abs_x,
                    r.derivative.max_ulp, (double)r.derivative.max_ulp_x, r.derivative.max_abs,
                    (double)r.derivative.max_abs_x);
        log_criteria(m, refs[m->target][0]);
        char msg[512];
        contract_describe(m, &r, msg, sizeof msg);
        cr_expect(r.failure == CONTRACT_OK, "%s", msg);
    }
}

/* Whether every special input gives the target's value, by encoding, forward and derivative. */
static bool specials_right(const gelu_impl *m, char *why, size_t size)
{
    float x[CONTRACT_SPECIAL_COUNT], y[CONTRACT_SPECIAL_COUNT];
    contract_special_inputs(x);
    for (int g = 0; g < 2; g++) {
        (g ? m->derivative : m->forward)(x, y, CONTRACT_SPECIAL_COUNT);
        for (size_t i = 0; i < CONTRACT_SPECIAL_COUNT; i++) {
            float want = ref_round(m->target, g, x[i]);
            if (!contract_same_value(want, y[i])) {
                snprintf(why, size, "%s at x = %a (0x%08x): expected 0x%08x, got 0x%08x",
                         g ? "derivative" : "forward", (double)x[i], float_bits(x[i]),
                         float_bits(want), float_bits(y[i]));
                return false;
            }
        }
    }
    return true;
}

Test(impls, special_values_by_encoding)
{
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        if (!gelu_impl_available(m)) continue;
        char why[256] = "";
        bool right = specials_right(m, why, sizeof why);
        if (m->contract.specials)
            cr_expect(right, "%s claims right special values, but %s", m->name, why);
        else
            cr_expect(!right, "%s gets every special value right but does not claim it", m->name);
        if (!right) cr_log_info("%s: first wrong special: %s", m->name, why);
    }
}

/* Each descriptor's method and ISA agree with its name (method, or method_<isa> for a build that
 * is not portable) and its CPU features are its ISA's: the registry's one grammar, which the
 * generated vf builds follow and the hand-written peers must too. */
Test(impls, name_method_and_isa_agree)
{
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        if (gelu_impl_source(m)) continue; /* added at run time: no method, any features */
        cr_assert_not_null(m->method, "%s has no method", m->name);
        char want[96];
        if (m->isa == GELU_ISA_PORTABLE)
            snprintf(want, sizeof want, "%s", m->method);
        else
            snprintf(want, sizeof want, "%s_%s", m->method, gelu_isa_name(m->isa));
        cr_expect_str_eq(m->name, want, "%s: method %s, ISA %s make the name %s", m->name,
                         m->method, gelu_isa_name(m->isa), want);
        cr_expect_eq(m->features, gelu_isa_features(m->isa),
                     "%s: features 0x%x, its ISA %s needs 0x%x", m->name, m->features,
                     gelu_isa_name(m->isa), gelu_isa_features(m->isa));
        cr_expect_eq(gelu_impl_build(m->method, m->isa), m, "%s: not the only %s build for %s",
                     m->name, m->method, gelu_isa_name(m->isa));
    }
}

/* The SIMD builds of one algorithm (name_avx2, name_avx512, …) against its plain build (name):
 * the vf_* algorithms run the same operations in the same order on every ISA, so the bits must
 * agree (NaN: any NaN). Inputs: every 4093rd encoding (all signs and binades), the specials,
 * the 2^12 encodings on each side of ±0, where subnormal ties and the pieces at 0 meet, and the
 * 2^18 from −14.375 down, where the AVX-512 tail's results turn −0 by selection instead of by
 * rounding (gelu_tail.h: forward from x ≈ −14.38, derivative from x ≈ −14.57). */
enum { STRIDE = 4093, NEAR_ZERO = 4096, TAIL_EDGE = 1 << 18 };

static size_t isa_inputs(float **out)
{
    size_t n = ((size_t)1 << 32) / STRIDE + 1 + CONTRACT_SPECIAL_COUNT + 4 * NEAR_ZERO + TAIL_EDGE;
    float *x = malloc(n * sizeof *x);
    size_t k = 0;
    for (uint64_t b = 0; b < ((uint64_t)1 << 32); b += STRIDE) x[k++] = float_from_bits((uint32_t)b);
    contract_special_inputs(x + k);
    k += CONTRACT_SPECIAL_COUNT;
    for (uint32_t b = 0; b < 2 * NEAR_ZERO; b++) {
        x[k++] = float_from_bits(b);
        x[k++] = float_from_bits(0x80000000u | b);
    }
    for (uint32_t b = 0; b < TAIL_EDGE; b++) x[k++] = float_from_bits(float_bits(-14.375f) + b);
    *out = x;
    return k;
}

/* The first input where the two kernels' bits differ (NaN matches NaN), or n. */
static size_t first_mismatch(gelu_kernel a, gelu_kernel b, const float *x, size_t n, float *ya,
                             float *yb)
{
    a(x, ya, n);
    b(x, yb, n);
    for (size_t k = 0; k < n; k++)
        if (!(isnan(ya[k]) && isnan(yb[k])) && float_bits(ya[k]) != float_bits(yb[k])) return k;
    return n;
}

/* Expects the forward and derivative kernels of m to give the bits of the other pair's (named
 * `other`) on x[0..n), reporting the first input where they differ. */
static void expect_same_bits(const gelu_impl *m, gelu_kernel fwd, gelu_kernel der, const char *other,
                             gelu_kernel other_fwd, gelu_kernel other_der, const float *x, size_t n,
                             float *ya, float *yb)
{
    for (int g = 0; g < 2; g++) {
        size_t k = first_mismatch(g ? der : fwd, g ? other_der : other_fwd, x, n, ya, yb);
        cr_expect(k == n, "%s %s differs from %s at x = %a (0x%08x): 0x%08x vs 0x%08x", m->name,
                  g ? "derivative" : "forward", other, k < n ? (double)x[k] : 0.0,
                  k < n ? float_bits(x[k]) : 0u, k < n ? float_bits(ya[k]) : 0u,
                  k < n ? float_bits(yb[k]) : 0u);
    }
}

/* The portable build of m's method when m is another ISA's build of it, else NULL. */
static const gelu_impl *plain_build(const gelu_impl *m)
{
    return !m->method || m->isa == GELU_ISA_PORTABLE ? NULL
                                                     : gelu_impl_build(m->method, GELU_ISA_PORTABLE);
}

Test(impls, simd_builds_match_the_plain_build)
{
    float *x;
    size_t n = isa_inputs(&x);
    float *ya = malloc(n * sizeof *ya), *yb = malloc(n * sizeof *yb);
    size_t pairs = 0;
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i), *plain = plain_build(m);
        if (!plain || !gelu_impl_available(m)) continue;
        pairs++;
        expect_same_bits(m, m->forward, m->derivative, plain->name, plain->forward,
                         plain->derivative, x, n, ya, yb);
    }
    /* none on a compiler or CPU without AVX2 (-Davx2=disabled): nothing to compare then */
    cr_log_info("%zu SIMD builds compared with their plain builds on %zu inputs", pairs, n);
    free(x), free(ya), free(yb);
}

/* The plain builds that run FMA instructions on this CPU (vf_array.h) against their portable
 * kernels (libm's fmaf): the same bits on the same inputs. */
Test(impls, fma_builds_match_the_portable_kernels)
{
    float *x;
    size_t n = isa_inputs(&x);
    float *ya = malloc(n * sizeof *ya), *yb = malloc(n * sizeof *yb);
    size_t pairs = 0;
    for (size_t i = 0; i < gelu_impl_count(); i++) {
        const gelu_impl *m = gelu_impl_at(i);
        if (!m->forward_nofma) continue;
        cr_assert(m->derivative_nofma, "%s has a portable forward but no portable derivative", m->name);
        pairs++;
        expect_same_bits(m, m->forward, m->derivative, "its portable kernels", m->forward_nofma,
                         m->derivative_nofma, x, n, ya, yb);
    }
    /* none on a compiler without -mfma: nothing to compare then */
    cr_log_info("%zu plain builds compared with their portable kernels on %zu inputs", pairs, n);
    free(x), free(ya), free(yb);
}

/* The comparison catches a single planted difference, at its input. */
static gelu_kernel planted_base;
static uint32_t planted_at;
static void planted_one_bit(const float *x, float *y, size_t n)
{
    planted_base(x, y, n);
    for (size_t k = 0; k < n; k++)
        if (float_bits(x[k]) == planted_at) y[k] = float_from_bits(float_bits(y[k]) ^ 1u);
}

Test(impls, simd_comparison_catches_one_flipped_bit)
{
    const gelu_impl *m = gelu_impl_find("pw_accurate");
    cr_assert(m);
    float *x;
    size_t n = isa_inputs(&x);
    float *ya = malloc(n * sizeof *ya), *yb = malloc(n * sizeof *yb);
    planted_base = m->forward;
    planted_at = 0x80000001u; /* −2^-149, among the near-zero inputs */
    size_t k = first_mismatch(planted_one_bit, m->forward, x, n, ya, yb);
    cr_assert(k < n, "the flipped bit was not found");
    cr_expect_eq(float_bits(x[k]), planted_at, "found at 0x%08x instead", float_bits(x[k]));
    free(x), free(ya), free(yb);
}

/* pw_precise and pw_tanh at the ends of their pieces and regions, where a fit not pinned to the
 * ends or a piece index one off would show: the 24 floats either side of each end where the
 * piece index floor(x·scale + offset) changes, and of bottom, top and ±2^-125. Forward and
 * derivative within the contract, the forward monotone along each run of 48 (non-increasing
 * below x_min, non-decreasing above). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-const-variable"
#include "pw_precise_coeffs.h"
#include "pw_tanh_coeffs.h"
#pragma GCC diagnostic pop

enum { PW_SIDE = 24, PW_RUN = 2 * PW_SIDE, PW_ENDS = 31 + 4 };

/* One method's pieces: its target, the index's scale and offset, its span, f's minimum and
 * the method's three x86 builds. */
typedef struct {
    gelu_target target;
    float scale, offset, bottom, top;
    double xmin;
    const char *names[3];
} pw_pieces_case;

static size_t pw_pieces_inputs(const pw_pieces_case *c, float *x)
{
    double ends[PW_ENDS];
    size_t e = 0;
    for (int i = 1; i < 32; i++) ends[e++] = (i - (double)c->offset) / c->scale;
    ends[e++] = c->bottom, ends[e++] = c->top;
    ends[e++] = 0x1p-125, ends[e++] = -0x1p-125;
    size_t k = 0;
    for (size_t j = 0; j < e; j++) {
        float v = (float)ends[j];
        for (int s = 0; s < PW_SIDE; s++) v = nextafterf(v, -INFINITY);
        for (int s = 0; s < PW_RUN; s++, v = nextafterf(v, INFINITY)) x[k++] = v;
    }
    return k;
}

/* The first input of x[0..n) (runs of PW_RUN) where the forward y moves the wrong way for a
 * function with its minimum at xmin, or n. */
static size_t pw_first_unmonotone(const float *x, const float *y, size_t n, double xmin)
{
    for (size_t k = 0; k < n; k++) {
        if (k % PW_RUN == 0) continue;
        bool up = x[k - 1] >= xmin;
        if (up ? y[k] < y[k - 1] : y[k] > y[k - 1]) return k;
    }
    return n;
}

static gelu_kernel pw_planted_base;
static float pw_planted_x;
static void pw_planted_two_ulps(const float *x, float *y, size_t n)
{
    pw_planted_base(x, y, n);
    for (size_t k = 0; k < n; k++)
        if (x[k] == pw_planted_x) y[k] = nextafterf(nextafterf(y[k], INFINITY), INFINITY);
}

static void pw_pieces_check(const pw_pieces_case *c)
{
    float x[PW_ENDS * PW_RUN], y[PW_ENDS * PW_RUN];
    size_t n = pw_pieces_inputs(c, x);
    ref_value *fwd = malloc(n * sizeof *fwd), *grad = malloc(n * sizeof *grad);
    ref_eval_values(c->target, false, x, n, fwd);
    ref_eval_values(c->target, true, x, n, grad);
    for (size_t i = 0; i < sizeof c->names / sizeof *c->names; i++) {
        const gelu_impl *m = gelu_impl_find(c->names[i]);
        cr_assert(m, "%s is not registered", c->names[i]);
        if (!gelu_impl_available(m)) continue;
        contract_report r;
        char msg[512];
        contract_check(m, x, n, fwd, grad, &r);
        contract_describe(m, &r, msg, sizeof msg);
        cr_expect(r.failure == CONTRACT_OK, "%s", msg);
        m->forward(x, y, n);
        size_t k = pw_first_unmonotone(x, y, n, c->xmin);
        cr_expect(k == n, "%s not monotone at %a: %a after %a", m->name, k < n ? (double)x[k] : 0.0,
                  k < n ? (double)y[k] : 0.0, k < n ? (double)y[k - 1] : 0.0);
    }
    /* planted: two ULPs up at the first float above the end between pieces 20 and 21, x > x_min */
    const gelu_impl *m = gelu_impl_find(c->names[0]);
    gelu_impl planted = *m;
    pw_planted_base = m->forward;
    pw_planted_x = x[20 * PW_RUN + PW_SIDE + 1];
    planted.forward = pw_planted_two_ulps;
    contract_report r;
    cr_expect_eq(contract_check(&planted, x, n, fwd, grad, &r), CONTRACT_ULP);
    cr_expect_eq(r.where.x, pw_planted_x, "caught at %a, planted at %a", (double)r.where.x,
                 (double)pw_planted_x);
    planted.forward(x, y, n);
    size_t k = pw_first_unmonotone(x, y, n, c->xmin);
    cr_expect(k < n && x[k - 1] == pw_planted_x, "the planted step was not found by the monotone check");
    free(fwd), free(grad);
}

Test(impls, pw_precise_at_its_pieces_ends, .timeout = 120)
{
    pw_pieces_case c = {GELU_TARGET_EXACT, pw_precise_scale, pw_precise_offset, pw_precise_bottom,
                        pw_precise_top, -0.751791524693564457457904164, /* GELU's minimum */
                        {"pw_precise", "pw_precise_avx2", "pw_precise_avx512"}};
    pw_pieces_check(&c);
}

Test(impls, pw_tanh_at_its_pieces_ends, .timeout = 120)
{
    pw_pieces_case c = {GELU_TARGET_TANH, pw_tanh_scale, pw_tanh_offset, pw_tanh_bottom, pw_tanh_top,
                        -0.752461422071016258487954443, /* the tanh form's minimum */
                        {"pw_tanh", "pw_tanh_avx2", "pw_tanh_avx512"}};
    pw_pieces_check(&c);
}
