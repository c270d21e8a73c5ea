/* Planted defects: implementations visible only to this test, each a registered one with a
 * single defect, must be rejected by the contract check at exactly the defective input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "sample.h"

extern const gelu_impl gelu_impl_erfc_f64, gelu_impl_erf_naive, gelu_impl_relu, gelu_impl_cr;

enum { N = 2000, PLANT_AT = 777 };

static const float bad_x = 1.5f;        /* where the forward is wrong by 4 ULP */
static const float bad_grad_x = -0.5f;  /* where the derivative is off by 2^-16 */

static void forward_wrong_at_one_input(const float *x, float *y, size_t n)
{
    gelu_impl_erfc_f64.forward(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (x[i] == bad_x) y[i] = nextafterf(nextafterf(nextafterf(nextafterf(y[i], 9), 9), 9), 9);
}

static void derivative_wrong_at_one_input(const float *x, float *y, size_t n)
{
    gelu_impl_erf_naive.derivative(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (x[i] == bad_grad_x) y[i] += 0x1p-16f;
}

static const float bad_cr_x = -0x1.8p-1f; /* near x_min: the derivative one ULP off */

static void cr_derivative_one_ulp_off(const float *x, float *y, size_t n)
{
    gelu_impl_cr.derivative(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (x[i] == bad_cr_x) y[i] = nextafterf(y[i], INFINITY);
}

static void relu_nan_at_minus_inf(const float *x, float *y, size_t n)
{
    gelu_impl_relu.forward(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (isinf(x[i]) && x[i] < 0) y[i] = NAN;
}

/* Correct outputs, then its (const) input overwritten: judged at the scan's copy, caught. */
static void forward_scribbles_on_its_input(const float *x, float *y, size_t n)
{
    gelu_impl_erfc_f64.forward(x, y, n);
    for (size_t i = 0; i < n; i++) ((float *)x)[i] = 0x1p100f;
}

/* Correct outputs, then flush-to-zero left set (x86-64's MXCSR bit 15). */
static void forward_leaves_ftz_set(const float *x, float *y, size_t n)
{
    gelu_impl_erfc_f64.forward(x, y, n);
#if defined(__x86_64__)
    unsigned m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    m |= 0x8000;
    __asm__ volatile("ldmxcsr %0" : : "m"(m));
#endif
}

/* The sample with the defective input planted at PLANT_AT, and the references it needs. */
static float xs[N];
static ref_value fwd[N], grad[N];

static void prepare(gelu_target t, float planted)
{
    sample_range(42, -8.0f, 8.0f, xs, N);
    xs[PLANT_AT] = planted;
    ref_eval_values(t, false, xs, N, fwd);
    ref_eval_values(t, true, xs, N, grad);
}

Test(planted, value_wrong_at_one_input_is_located)
{
    gelu_impl bad = gelu_impl_erfc_f64;
    bad.name = "planted_forward";
    bad.forward = forward_wrong_at_one_input;
    prepare(bad.target, bad_x);
    contract_report r;
    cr_assert_eq(contract_check(&bad, xs, N, fwd, grad, &r), CONTRACT_ULP);
    cr_expect(!r.failure_grad);
    cr_expect_eq(float_bits(r.where.x), float_bits(bad_x), "located at %a", (double)r.where.x);
    cr_expect(r.where.ulp_error > 3.5 && r.where.ulp_error < 4.5, "%g ULP", r.where.ulp_error);
    char msg[512];
    contract_describe(&bad, &r, msg, sizeof msg);
    cr_expect(strstr(msg, "0x3fc00000") != NULL, "message names the input: %s", msg);
    /* The same sample without the defect passes: the failure is the plant, not the sample. */
    cr_expect_eq(contract_check(&gelu_impl_erfc_f64, xs, N, fwd, grad, &r), CONTRACT_OK);
}

Test(planted, derivative_off_at_one_input_is_located)
{
    gelu_impl bad = gelu_impl_erf_naive;
    bad.name = "planted_derivative";
    bad.derivative = derivative_wrong_at_one_input;
    prepare(bad.target, bad_grad_x);
    contract_report r;
    cr_assert_eq(contract_check(&bad, xs, N, fwd, grad, &r), CONTRACT_ABS);
    cr_expect(r.failure_grad);
    cr_expect_eq(float_bits(r.where.x), float_bits(bad_grad_x));
    cr_expect_eq(contract_check(&gelu_impl_erf_naive, xs, N, fwd, grad, &r), CONTRACT_OK);
}

Test(planted, nan_for_minus_inf_is_located)
{
    gelu_impl bad = gelu_impl_relu;
    bad.name = "planted_special";
    bad.forward = relu_nan_at_minus_inf;
    prepare(bad.target, 1.0f);
    contract_report r;
    cr_assert_eq(contract_check(&bad, xs, N, fwd, grad, &r), CONTRACT_SPECIAL);
    cr_expect(!r.failure_grad);
    cr_expect_eq(float_bits(r.where.x), 0xff800000u);
    cr_expect(isnan(r.where.y));
    cr_expect_eq(contract_check(&gelu_impl_relu, xs, N, fwd, grad, &r), CONTRACT_OK);
}

Test(planted, not_correctly_rounded_at_one_input_is_located)
{
    gelu_impl bad = gelu_impl_cr;
    bad.name = "planted_cr";
    bad.derivative = cr_derivative_one_ulp_off;
    prepare(bad.target, bad_cr_x);
    contract_report r;
    cr_assert_eq(contract_check(&bad, xs, N, fwd, grad, &r), CONTRACT_NOT_CR);
    cr_expect(r.failure_grad);
    cr_expect_eq(float_bits(r.where.x), float_bits(bad_cr_x));
    char msg[512];
    contract_describe(&bad, &r, msg, sizeof msg);
    cr_expect(strstr(msg, "not correctly rounded at x = -0x1.8p-1 (0xbf400000)") != NULL, "%s", msg);
    cr_expect_eq(contract_check(&gelu_impl_cr, xs, N, fwd, grad, &r), CONTRACT_OK);
}

/* Each call of contract_check is judged (scan/kernel_call.h): a kernel writing into its input
 * or leaving the FP state changed fails the check naming it, though its outputs are right. */
Test(planted, a_kernel_writing_into_its_input_fails_the_check)
{
    gelu_impl bad = gelu_impl_erfc_f64;
    bad.name = "planted_scribble";
    bad.forward = forward_scribbles_on_its_input;
    prepare(bad.target, 1.0f);
    float before = xs[0];
    contract_report r;
    cr_assert_eq(contract_check(&bad, xs, N, fwd, grad, &r), CONTRACT_CALL);
    cr_expect_eq(float_bits(xs[0]), float_bits(before), "the caller's inputs untouched");
    char msg[1300];
    contract_describe(&bad, &r, msg, sizeof msg);
    cr_expect(strstr(msg, "implementation 'planted_scribble' (built in) broke the kernel contract "
                          "in a forward call of 2000 inputs") != NULL, "%s", msg);
    cr_expect(strstr(msg, "it wrote into its input (const): x[0] was 0x") != NULL, "%s", msg);
}

#if defined(__x86_64__)
Test(planted, a_kernel_leaving_ftz_set_fails_the_check)
{
    gelu_impl bad = gelu_impl_erfc_f64;
    bad.name = "planted_ftz";
    bad.forward = forward_leaves_ftz_set;
    prepare(bad.target, 1.0f);
    contract_report r;
    cr_assert_eq(contract_check(&bad, xs, N, fwd, grad, &r), CONTRACT_CALL);
    char msg[1300];
    contract_describe(&bad, &r, msg, sizeof msg);
    cr_expect(strstr(msg, "'planted_ftz'") != NULL && strstr(msg, "flush-to-zero set") != NULL, "%s", msg);
    unsigned m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    cr_expect_eq(m & 0x8000u, 0u, "restored after the call");
}
#endif
