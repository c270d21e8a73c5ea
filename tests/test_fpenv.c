/* Floating-point environments (--fpenv): the scan runs the kernels with MXCSR's FTZ and DAZ set
 * and judges them against the environment's reference (docs/DESIGN.md, "Floating-point
 * environments"):
 *   - a kernel correct under IEEE (cr, proven correctly rounded) gives other outputs under
 *     ftz,daz near zero, and is found without error there, where the expected values are zeros;
 *   - a planted kernel that bypasses the environment (a nonzero subnormal output at a negative
 *     subnormal input) is caught at that input, and a wrong sign of zero is counted;
 *   - the flags are set in the kernels' calls only: the calling thread's MXCSR is the same after
 *     the scan, every kernel call saw them, and the reference's values (whose doubles go
 *     subnormal past the thresholds) are those of an IEEE scan where the rules change nothing. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy_csv.h"
#include "fpenv_cover.h"
#include "gelu_fpenv.h"
#include "partial.h"
#include "reference.h"
#include "scan.h"

extern const gelu_impl gelu_impl_cr;

static scan_result *scan_range(const gelu_impl *m, float lo, float hi, gelu_fpenv e)
{
    const gelu_impl *impls[] = {m};
    scan_config cfg = {.impls = impls, .nimpls = 1, .grad = true, .threads = 2, .shard_n = 1,
                       .domain = {.kind = DOMAIN_RANGE, .lo = lo, .hi = hi}, .fpenv = e};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    return r;
}

static void skip_unless_supported(void)
{
    if (!gelu_fpenv_supported(GELU_FPENV_FTZ_DAZ)) {
        cr_log_info("no MXCSR (not x86-64): FTZ/DAZ not tested");
        cr_skip_test();
    }
}

/* The inputs the rules touch, in small ranges (a scan of [−2^-120, 2^-120], 1.2·10^8 inputs, took
 * 150 s): subnormals around 0 (DAZ), the normal x whose GELU is subnormal, then 2^-126 (FTZ,
 * x86's window at 0x1.fffffep-126 included), each sign, and the inputs across the smallest
 * normal. */
static const float RANGES[][2] = {
    {-0x1p-135f, 0x1p-135f},
    {0x1.fffp-126f, 0x1.001p-125f},
    {-0x1.001p-125f, -0x1.fffp-126f},
    {-0x1.001p-126f, -0x1.ffcp-127f},
    {0x1.ffcp-127f, 0x1.001p-126f},
};
enum { NRANGES = sizeof RANGES / sizeof *RANGES };

Test(fpenv, cr_is_correct_under_ftz_daz_where_its_outputs_flush, .timeout = 240)
{
    skip_unless_supported();
    /* the kernel's outputs do change under the flags (the test is not vacuous) */
    const float xs[] = {0x1p-140f, -0x1p-140f, 0x1p-126f, 0x1.fffffep-126f};
    float ieee[4], flushed[4];
    gelu_impl_cr.forward(xs, ieee, 4);
    unsigned saved = gelu_fpenv_enter(GELU_FPENV_FTZ_DAZ);
    gelu_impl_cr.forward(xs, flushed, 4);
    gelu_fpenv_leave(saved);
    for (int i = 0; i < 4; i++) {
        cr_expect(ieee[i] != 0, "IEEE's GELU(%a) = %a is not zero", (double)xs[i], (double)ieee[i]);
        cr_expect_eq(flushed[i], 0.0f, "ftz,daz: GELU(%a) = %a", (double)xs[i], (double)flushed[i]);
        cr_expect_eq(signbit(flushed[i]) != 0, xs[i] < 0, "the zero's sign at %a", (double)xs[i]);
    }
    /* each bit alone too: under daz only, a subnormal input's expected value is f(±0) (the
     * kernel's output is ±0, not flushed: the rule, not FTZ's, makes it right) */
    for (int env = GELU_FPENV_FTZ; env <= GELU_FPENV_FTZ_DAZ; env++)
    for (int k = 0; k < NRANGES; k++) {
        scan_result *r = scan_range(&gelu_impl_cr, RANGES[k][0], RANGES[k][1], (gelu_fpenv)env);
        cr_expect_eq(r->fpenv, (gelu_fpenv)env);
        for (int d = 0; d < DIR_COUNT; d++) {
            const error_metrics *e = &r->metrics[0].err[REF_OWN][d];
            cr_expect_eq(e->correctly_rounded, e->count, "%s [%a, %a] direction %d: %llu of %llu",
                         gelu_fpenv_name((gelu_fpenv)env), (double)RANGES[k][0], (double)RANGES[k][1], d,
                         (unsigned long long)e->correctly_rounded, (unsigned long long)e->count);
            cr_expect_leq(e->max_ulp.value, 0.5, "direction %d: max %g ULP at %a", d,
                          e->max_ulp.value, (double)float_from_bits(e->max_ulp.bits));
        }
        char why[512];
        cr_expect_eq(scan_contract_violations(r, 0, why, sizeof why), 0, "%s", why);
        scan_result_free(r);
    }
}

/* Under DAZ a subnormal input's reference is f(±0), exact as at ±0 itself: a correct output's
 * error there is exactly 0, decided without MPFR, and no maximum is left "not decided among near
 * ties past the MPFR budget" (the near-tie lists took every such input for a tie within 10^-3
 * ULP of 0, and gave up on the derivatives' 1/2: scan_internal.h's ref_at_zero). */
Test(fpenv, daz_subnormal_inputs_have_exact_references, .timeout = 240)
{
    skip_unless_supported();
    const gelu_impl *rows[] = {gelu_impl_find("erfc_f64"), &gelu_impl_cr};
    for (int env = GELU_FPENV_DAZ; env <= GELU_FPENV_FTZ_DAZ; env++)
        for (int i = 0; i < 2; i++) {
            cr_assert_not_null(rows[i]);
            scan_result *r = scan_range(rows[i], -0x1p-140f, 0x1p-140f, (gelu_fpenv)env);
            for (int k = 0; k < REF_KINDS; k++)
                for (int d = 0; d < DIR_COUNT; d++) {
                    const error_metrics *e = &r->metrics[0].err[k][d];
                    const char *what = gelu_fpenv_name((gelu_fpenv)env);
                    cr_expect_eq(e->max_ulp.value, 0.0, "%s %s, direction %d: max %g ULP",
                                 rows[i]->name, what, d, e->max_ulp.value);
                    for (int q = 0; q < ERR_KINDS; q++)
                        cr_expect_eq(e->near[q].dropped, -INFINITY,
                                     "%s %s, reference %d, direction %d: maximum %d not decided "
                                     "(at most %g)", rows[i]->name, what, k, d, q, e->near[q].dropped);
                    for (int q = 0; q < X_KINDS; q++)
                        for (int b = 0; b < X_BUCKETS; b++)
                            cr_expect_eq(e->x_near[q][b].dropped, -INFINITY,
                                         "%s %s, reference %d, direction %d: bucket %d's maximum "
                                         "%d not decided", rows[i]->name, what, k, d, b, q);
                }
            scan_result_free(r);
        }
}

/* The same outputs judged against IEEE's reference are wrong: the adjustment is what makes them
 * right. (A kernel that sets the flags itself, scanned as IEEE.) */
static void cr_forward_flushed(const float *x, float *y, size_t n)
{
    unsigned saved = gelu_fpenv_enter(GELU_FPENV_FTZ_DAZ);
    gelu_impl_cr.forward(x, y, n);
    gelu_fpenv_leave(saved);
}

Test(fpenv, the_flushed_outputs_are_errors_against_ieee, .timeout = 240)
{
    skip_unless_supported();
    gelu_impl m = gelu_impl_cr;
    m.name = "cr_flushing_itself";
    m.forward = cr_forward_flushed;
    scan_result *r = scan_range(&m, RANGES[0][0], RANGES[0][1], GELU_FPENV_IEEE);
    const error_metrics *e = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
    /* every nonzero subnormal input but −2^-149 (whose GELU rounds to −0 in IEEE too) */
    cr_expect_eq(e->count - e->correctly_rounded, 2 * (1u << 14) - 1, "%llu",
                 (unsigned long long)(e->count - e->correctly_rounded));
    cr_expect_gt(e->max_ulp.value, 0x1p12, "%g", e->max_ulp.value);
    scan_result_free(r);
    /* and the inputs whose GELU is subnormal */
    r = scan_range(&m, RANGES[1][0], RANGES[1][1], GELU_FPENV_IEEE);
    e = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
    cr_expect_gt(e->max_ulp.value, 0x1p22, "%g", e->max_ulp.value);
    scan_result_free(r);
}

/* A kernel that bypasses the environment at one negative subnormal input (integer operations:
 * its result there is x/2 truncated, a nonzero subnormal), and one that gives +0 for −0 at
 * another. */
static const float bypass_x = -0x1.8p-137f, wrong_zero_x = -0x1p-140f;

static void cr_forward_bypass(const float *x, float *y, size_t n)
{
    gelu_impl_cr.forward(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (float_bits(x[i]) == float_bits(bypass_x))
            y[i] = float_from_bits(0x80000000u | (float_bits(x[i]) & 0x7fffffffu) >> 1);
}

static void cr_forward_wrong_zero(const float *x, float *y, size_t n)
{
    gelu_impl_cr.forward(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (float_bits(x[i]) == float_bits(wrong_zero_x)) y[i] = 0.0f;
}

Test(fpenv, a_subnormal_output_under_ftz_daz_is_located, .timeout = 240)
{
    skip_unless_supported();
    gelu_impl m = gelu_impl_cr;
    m.name = "bypass";
    m.forward = cr_forward_bypass;
    scan_result *r = scan_range(&m, RANGES[0][0], RANGES[0][1], GELU_FPENV_FTZ_DAZ);
    const error_metrics *e = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
    cr_expect_eq(e->count - e->correctly_rounded, 1);
    cr_expect_eq(e->max_ulp.bits, float_bits(bypass_x), "at %a", (double)float_from_bits(e->max_ulp.bits));
    /* |x/2| in ULPs of the subnormal range (expected: −0) */
    double want = fabs((double)bypass_x) / 2 * 0x1p149;
    cr_expect(fabs(e->max_ulp.value - want) <= 1, "%g ULP, want %g", e->max_ulp.value, want);
    char why[512];
    cr_expect_gt(scan_contract_violations(r, 0, why, sizeof why), 0);
    cr_expect(strstr(why, "0x80001800") != NULL, "the message names the input: %s", why);
    scan_result_free(r);
}

Test(fpenv, a_wrong_sign_of_zero_under_ftz_daz_is_counted, .timeout = 240)
{
    skip_unless_supported();
    gelu_impl m = gelu_impl_cr;
    m.name = "wrong_zero";
    m.forward = cr_forward_wrong_zero;
    scan_result *r = scan_range(&m, RANGES[0][0], RANGES[0][1], GELU_FPENV_FTZ_DAZ);
    const error_metrics *e = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
    /* +0 for −0: the real error is 0 (no ULP to locate it by), the encoding is wrong */
    cr_expect_eq(e->count - e->correctly_rounded, 1);
    char why[512];
    cr_expect_gt(scan_contract_violations(r, 0, why, sizeof why), 0);
    cr_expect(strstr(why, "1 of") != NULL && strstr(why, "not correctly rounded") != NULL, "%s", why);
    scan_result_free(r);
}

/* ---- the flags in the kernels' calls only */

static atomic_uint calls, calls_without_flags;

static void cr_forward_watching(const float *x, float *y, size_t n)
{
    atomic_fetch_add(&calls, 1);
    if (gelu_fpenv_current() != GELU_FPENV_FTZ_DAZ) atomic_fetch_add(&calls_without_flags, 1);
    gelu_impl_cr.forward(x, y, n);
}

Test(fpenv, flags_set_in_every_kernel_call_and_restored_after, .timeout = 240)
{
    skip_unless_supported();
    gelu_impl m = gelu_impl_cr;
    m.name = "watching";
    m.forward = cr_forward_watching;
    gelu_fpenv before = gelu_fpenv_current();
    cr_assert_eq(before, GELU_FPENV_IEEE, "the test starts in IEEE's environment");
    scan_result *r = scan_range(&m, RANGES[0][0], RANGES[0][1], GELU_FPENV_FTZ_DAZ);
    cr_expect_gt(atomic_load(&calls), 0u);
    cr_expect_eq(atomic_load(&calls_without_flags), 0u, "%u of %u calls without FTZ/DAZ",
                 atomic_load(&calls_without_flags), atomic_load(&calls));
    cr_expect_eq(gelu_fpenv_current(), GELU_FPENV_IEEE, "MXCSR restored in the calling thread");
    /* the reference in this thread: IEEE's, GELU(2^-140) = 2^-141 */
    cr_expect_eq(ref_round(GELU_TARGET_EXACT, false, 0x1p-140f), 0x1p-141f);
    scan_result_free(r);
}

/* The CSV without its fpenv column. */
static char *csv_without_fpenv(const scan_result *r)
{
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    accuracy_csv_write(r, f);
    fclose(f);
    for (char *p = strstr(buf, ",ieee,"); p; p = strstr(p + 1, ",ieee,")) memmove(p, p + 5, strlen(p + 5) + 1);
    for (char *p = strstr(buf, ",ftz+daz,"); p; p = strstr(p + 1, ",ftz+daz,"))
        memmove(p, p + 8, strlen(p + 8) + 1);
    return buf;
}

/* Past the thresholds the references' doubles are subnormal (lo = ±2^-1074 marks a side, the
 * tails' values below 2^-1022): computed under the flags they would be zeros, and the errors'
 * bits would change. None of the rules applies there (normal inputs, results 0 or normal), so
 * the scan under ftz,daz is IEEE's to the last bit. */
Test(fpenv, the_reference_is_ieees_where_the_rules_change_nothing, .timeout = 240)
{
    skip_unless_supported();
    const float ranges[][2] = {{-0x1.02p4f, -0x1p4f}, {0x1p4f, 0x1.02p4f}, {-40.5f, -40.0f}};
    for (size_t k = 0; k < sizeof ranges / sizeof *ranges; k++) {
        scan_result *a = scan_range(&gelu_impl_cr, ranges[k][0], ranges[k][1], GELU_FPENV_IEEE);
        scan_result *b = scan_range(&gelu_impl_cr, ranges[k][0], ranges[k][1], GELU_FPENV_FTZ_DAZ);
        char *ca = csv_without_fpenv(a), *cb = csv_without_fpenv(b);
        cr_expect_str_eq(ca, cb, "[%a, %a]", (double)ranges[k][0], (double)ranges[k][1]);
        cr_expect(memcmp(a->metrics, b->metrics, sizeof *a->metrics) == 0, "the metrics' bytes [%a, %a]",
                  (double)ranges[k][0], (double)ranges[k][1]);
        free(ca);
        free(cb);
        scan_result_free(a);
        scan_result_free(b);
    }
}

/* Parts of an ftz,daz run and of an IEEE one do not merge, and a partial file keeps its key. */
Test(fpenv, parts_of_other_environments_do_not_merge, .timeout = 240)
{
    skip_unless_supported();
    scan_result *a = scan_range(&gelu_impl_cr, 1.0f, 1.001f, GELU_FPENV_IEEE);
    scan_result *b = scan_range(&gelu_impl_cr, 1.0f, 1.001f, GELU_FPENV_FTZ_DAZ);
    char *buf;
    size_t size;
    FILE *f = open_memstream(&buf, &size);
    cr_assert_eq(partial_write(b, f), 0);
    fclose(f);
    cr_expect(strstr(buf, "\nfpenv=ftz+daz\n") != NULL);
    scan_result back = {0};
    char err[256];
    cr_expect_eq(partial_parse(&back, (const unsigned char *)buf, size, err, sizeof err), 0, "%s", err);
    cr_expect_eq(back.fpenv, GELU_FPENV_FTZ_DAZ);
    scan_result_release(&back);
    free(buf);
    b->shard_n = a->shard_n = 2;
    b->shard_k = 1;
    const char *error = NULL;
    cr_expect_neq(scan_result_merge(a, b, &error), 0);
    cr_expect(error && strstr(error, "ftz+daz") && strstr(error, "ieee"), "%s", error ? error : "");
    scan_result_free(a);
    scan_result_free(b);
}

/* ---- the report's ftz,daz section covers every input where the reference changes
 * (fpenv_cover.h). The boundaries come from MPFR (ref_round), bisected on encodings, not from
 * the cover's own table: per target and direction, in the negative tail the first input whose
 * correctly rounded value is subnormal (where FTZ first flushes) and the last that is not 0 (past
 * it both environments expect 0); at tiny |x| the largest input of each sign whose forward value
 * is subnormal. */

/* Whether x lies in one of the cover's spans (binary32 order: −0 before +0). */
static bool in_cover(float x)
{
    for (size_t i = 0; i < fpenv_cover_span_count(); i++) {
        const fpenv_cover_span *s = fpenv_cover_span_at(i);
        bool after_lo = x > s->lo || (x == s->lo && (!signbit(x) || signbit(s->lo)));
        bool before_hi = x < s->hi || (x == s->hi && (signbit(x) || !signbit(s->hi)));
        if (after_lo && before_hi) return true;
    }
    return false;
}

static bool cr_subnormal_or_zero(gelu_target t, bool grad, float x)
{
    return fabsf(ref_round(t, grad, x)) < 0x1p-126f;
}

static bool cr_zero(gelu_target t, bool grad, float x) { return ref_round(t, grad, x) == 0.0f; }

static bool cr_normal(gelu_target t, bool grad, float x) { return !cr_subnormal_or_zero(t, grad, x); }

/* Encodings a < b of one sign, pred false at a and true at b (and monotone between): the first
 * encoding where it holds. */
static uint32_t first_true(uint32_t a, uint32_t b, bool (*pred)(gelu_target, bool, float),
                           gelu_target t, bool grad)
{
    while (b - a > 1) {
        uint32_t m = a + (b - a) / 2;
        if (pred(t, grad, float_from_bits(m))) b = m;
        else a = m;
    }
    return b;
}

Test(fpenv, the_report_covers_where_the_reference_changes, .timeout = 240)
{
    uint32_t tail_start = float_bits(-9.0f), tail_end = float_bits(-200.0f);
    int checked = 0;
    for (int t = 0; t < GELU_TARGET_COUNT; t++)
        for (int g = 0; g < 2; g++) {
            if (cr_subnormal_or_zero((gelu_target)t, g, -9.0f)) continue; /* ReLU's 0 from −0 on */
            cr_assert(cr_zero((gelu_target)t, g, -200.0f), "%s: not 0 at −200", gelu_target_name((gelu_target)t));
            float first = float_from_bits(first_true(tail_start, tail_end, cr_subnormal_or_zero, (gelu_target)t, g));
            float zero = float_from_bits(first_true(tail_start, tail_end, cr_zero, (gelu_target)t, g));
            float last = float_from_bits(float_bits(zero) - 1); /* the last nonzero */
            cr_expect(in_cover(first), "%s %s: the first subnormal value's input %a is not covered",
                      gelu_target_name((gelu_target)t), g ? "derivative" : "forward", (double)first);
            cr_expect(in_cover(last), "%s %s: the last nonzero value's input %a is not covered",
                      gelu_target_name((gelu_target)t), g ? "derivative" : "forward", (double)last);
            checked++;
            if (g) continue;
            for (int k = 0; k < 2; k++) {
                uint32_t sign = k ? 0x80000000u : 0;
                /* at tiny |x| the forward ≈ x/2 (0 for ReLU's negative side: nothing to flush) */
                uint32_t big = sign | float_bits(0x1p-120f);
                if (cr_subnormal_or_zero((gelu_target)t, false, float_from_bits(big))) continue;
                float largest = float_from_bits(first_true(sign | 1u, big, cr_normal, (gelu_target)t, false) - 1);
                cr_expect(in_cover(largest), "%s: the largest-magnitude input with a subnormal value, %a, is not covered",
                          gelu_target_name((gelu_target)t), (double)largest);
            }
        }
    cr_expect_geq(checked, 6, "the GELU targets' tails were checked");
}

/* The scanned list holds each span's ends and the inputs just inside them, the quick one too,
 * ascending and distinct as a DOMAIN_LIST must be, with the count it describes. */
static bool listed(const uint32_t *list, uint64_t n, float x)
{
    uint32_t b = float_bits(x);
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t m = lo + (hi - lo) / 2;
        if (list[m] < b) lo = m + 1;
        else hi = m;
    }
    return lo < n && list[lo] == b;
}

Test(fpenv, the_cover_lists_each_span_from_end_to_end, .timeout = 240)
{
    for (int quick = 1; quick >= 0; quick--) {
        fpenv_cover_config c = fpenv_cover_default(quick);
        uint32_t *list;
        uint64_t n, spans = 0;
        cr_assert_eq(fpenv_cover_build(&c, &list, &n), 0);
        for (uint64_t i = 1; i < n; i++)
            if (list[i] <= list[i - 1]) cr_assert_fail("not ascending at %llu", (unsigned long long)i);
        for (size_t i = 0; i < fpenv_cover_span_count(); i++) {
            const fpenv_cover_span *s = fpenv_cover_span_at(i);
            spans += fpenv_cover_span_inputs(&c, i);
            cr_expect(listed(list, n, s->lo) && listed(list, n, s->hi), "span %zu's ends", i);
            if (quick) continue;
            float in_lo = nextafterf(s->lo, s->hi), in_hi = nextafterf(s->hi, s->lo);
            cr_expect(listed(list, n, in_lo) && listed(list, n, in_hi),
                      "just inside span %zu: %a and %a", i, (double)in_lo, (double)in_hi);
        }
        cr_expect(n > spans && n <= spans + c.sample, "%llu inputs: the spans' %llu and the draws",
                  (unsigned long long)n, (unsigned long long)spans);
        char what[1024];
        cr_expect(strstr(fpenv_cover_describe(&c, n, what, sizeof what), "distinct inputs in all"), "%s", what);
        free(list);
    }
}
