/* Every registered implementation held to its declared contract against MPFR on 10^5 seeded
 * inputs over [−20, 20] (half uniform in value, half uniform in encoding), forward and
 * derivative, and its special-value claim checked both ways: a claim of right specials must hold
 * at every special input, and an implementation that gets them all right must claim it. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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
            cr_log_warn("%s: skipped, needs CPU features this machine lacks", m->name);
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
