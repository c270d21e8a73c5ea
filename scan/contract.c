/* Contract checks on a list of inputs against the MPFR oracle (see contract.h). */
#include "contract.h"
#include "kernel_call.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void contract_special_inputs(float out[CONTRACT_SPECIAL_COUNT])
{
    uint64_t bits[GELU_FORMAT_SPECIAL_COUNT];
    gelu_format_special_encodings(gelu_format_of(GELU_FORMAT_BINARY32), bits);
    /* by encoding: a signalling NaN through a double would come back quiet */
    for (size_t i = 0; i < CONTRACT_SPECIAL_COUNT; i++) out[i] = float_from_bits((uint32_t)bits[i]);
}

bool contract_same_value(float expected, float actual)
{
    if (isnan(expected)) return isnan(actual);
    return float_bits(expected) == float_bits(actual);
}

static void stats_add(contract_stats *s, const contract_point *p)
{
    if (s->count == 0 || p->ulp_error > s->max_ulp) {
        s->max_ulp = p->ulp_error;
        s->max_ulp_x = p->x;
    }
    if (s->count == 0 || p->abs_error > s->max_abs) {
        s->max_abs = p->abs_error;
        s->max_abs_x = p->x;
    }
    s->count++;
}

static void fail(contract_report *r, contract_failure f, bool grad, const contract_point *p)
{
    if (r->failure != CONTRACT_OK) return; /* keep the first */
    r->failure = f;
    r->failure_grad = grad;
    r->where = *p;
}

/* Evaluates one direction (forward or derivative) at all inputs. */
static void check_direction(const gelu_impl *impl, bool grad, const float *x, size_t n,
                            const ref_value *ref, contract_report *r)
{
    float *y = malloc((n ? n : 1) * sizeof *y);
    if (!y) abort();
    kernel_call_f32(impl, grad, GELU_FPENV_IEEE, x, y, n);
    double max_ulp = grad ? impl->contract.grad_max_ulp : impl->contract.max_ulp;
    double max_abs = grad ? impl->contract.grad_max_abs : impl->contract.max_abs;
    contract_stats *s = grad ? &r->derivative : &r->forward;
    for (size_t i = 0; i < n; i++) {
        contract_point p = {.x = x[i], .y = y[i], .ref = ref[i].cr};
        p.ulp_error = ref_ulp_error_dd(y[i], ref[i].hi, ref[i].lo);
        p.abs_error = ref_abs_error_dd(y[i], ref[i].hi, ref[i].lo);
        stats_add(s, &p);
        if (impl->contract.correctly_rounded && !contract_same_value(p.ref, p.y))
            fail(r, CONTRACT_NOT_CR, grad, &p);
        else if (!(p.ulp_error <= max_ulp)) fail(r, CONTRACT_ULP, grad, &p);
        else if (!(p.abs_error <= max_abs)) fail(r, CONTRACT_ABS, grad, &p);
    }
    free(y);
}

static void check_specials(const gelu_impl *impl, bool grad, contract_report *r)
{
    float x[CONTRACT_SPECIAL_COUNT], y[CONTRACT_SPECIAL_COUNT];
    contract_special_inputs(x);
    kernel_call_f32(impl, grad, GELU_FPENV_IEEE, x, y, CONTRACT_SPECIAL_COUNT);
    for (size_t i = 0; i < CONTRACT_SPECIAL_COUNT; i++) {
        contract_point p = {.x = x[i], .y = y[i], .ref = ref_round(impl->target, grad, x[i])};
        if (!contract_same_value(p.ref, p.y)) {
            p.ulp_error = NAN;
            p.abs_error = NAN;
            fail(r, CONTRACT_SPECIAL, grad, &p);
        }
    }
}

contract_failure contract_check(const gelu_impl *impl, const float *x, size_t n,
                                const ref_value *fwd, const ref_value *grad,
                                contract_report *report)
{
    memset(report, 0, sizeof *report);
    report->failure = CONTRACT_OK;
    if (impl->contract.specials) {
        check_specials(impl, false, report);
        if (impl->derivative) check_specials(impl, true, report);
    }
    check_direction(impl, false, x, n, fwd, report);
    if (impl->derivative) check_direction(impl, true, x, n, grad, report); /* else forward only */
    if (kernel_call_failure()) report->failure = CONTRACT_CALL; /* its outputs prove nothing */
    return report->failure;
}

void contract_describe(const gelu_impl *impl, const contract_report *r, char *buf, size_t size)
{
    const contract_point *p = &r->where;
    const char *dir = r->failure_grad ? "derivative" : "forward";
    double ulp_bound = r->failure_grad ? impl->contract.grad_max_ulp : impl->contract.max_ulp;
    double abs_bound = r->failure_grad ? impl->contract.grad_max_abs : impl->contract.max_abs;
    switch (r->failure) {
    case CONTRACT_OK:
        snprintf(buf, size, "%s: contract holds", impl->name);
        return;
    case CONTRACT_CALL:
        snprintf(buf, size, "%s", kernel_call_failure() ? kernel_call_failure() : "a broken call");
        return;
    case CONTRACT_ULP:
        snprintf(buf, size, "%s %s: ULP error %.6g > bound %g at x = %a (0x%08x): y = %a, ref = %a",
                 impl->name, dir, p->ulp_error, ulp_bound, (double)p->x, float_bits(p->x),
                 (double)p->y, (double)p->ref);
        return;
    case CONTRACT_ABS:
        snprintf(buf, size, "%s %s: abs error %.6g > bound %g at x = %a (0x%08x): y = %a, ref = %a",
                 impl->name, dir, p->abs_error, abs_bound, (double)p->x, float_bits(p->x),
                 (double)p->y, (double)p->ref);
        return;
    case CONTRACT_NOT_CR:
        snprintf(buf, size,
                 "%s %s: not correctly rounded at x = %a (0x%08x): expected 0x%08x (%a), got 0x%08x "
                 "(%a), %.6g ULP",
                 impl->name, dir, (double)p->x, float_bits(p->x), float_bits(p->ref),
                 (double)p->ref, float_bits(p->y), (double)p->y, p->ulp_error);
        return;
    case CONTRACT_SPECIAL:
        snprintf(buf, size,
                 "%s %s: special value wrong at x = %a (0x%08x): expected 0x%08x (%a), got 0x%08x (%a)",
                 impl->name, dir, (double)p->x, float_bits(p->x), float_bits(p->ref),
                 (double)p->ref, float_bits(p->y), (double)p->y);
        return;
    }
}
