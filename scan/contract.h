/* Holding an implementation to its declared contract on a list of inputs (a seeded sample, or
 * any list a test builds), against the MPFR oracle: forward and derivative errors against the
 * implementation's own target, and the special values compared by encoding.
 *
 * The exhaustive scan reuses the same per-point rules (contract_point_ok) so that a sample and
 * a full run judge an output the same way. */
#ifndef GELUCHECK_CONTRACT_H
#define GELUCHECK_CONTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "float_bits.h" /* float_bits, float_from_bits: used by contract.c and its includers */
#include "gelu_impl.h"
#include "reference.h"

typedef enum {
    CONTRACT_OK,
    CONTRACT_ULP,     /* ULP error above the declared bound */
    CONTRACT_ABS,     /* absolute error above the declared bound */
    CONTRACT_SPECIAL, /* a special input whose output differs by encoding */
    CONTRACT_NOT_CR,  /* claimed correctly rounded, the encoding differs from the reference's */
    /* a kernel call broke the call's contract (scan/kernel_call.h: it wrote into its input or
     * past its outputs, or left the FP state changed), this check's or an earlier one's:
     * kernel_call_failure() names the row and the call */
    CONTRACT_CALL,
} contract_failure;

/* One evaluated point. */
typedef struct {
    float x, y, ref;  /* input, output, correctly rounded target value */
    double ulp_error; /* real-valued, against the exact value */
    double abs_error;
} contract_point;

/* Largest error seen and the first input (in list order) that reaches it. */
typedef struct {
    double max_ulp, max_abs;
    float max_ulp_x, max_abs_x;
    size_t count;
} contract_stats;

typedef struct {
    contract_stats forward, derivative;
    contract_failure failure; /* the first failure found, CONTRACT_OK if none */
    bool failure_grad;        /* in the derivative */
    contract_point where;     /* the failing point */
} contract_report;

/* The special inputs every implementation is held to: binary32's special encodings
 * (gelu_format_special_encodings: ±0, ±inf, quiet and signalling NaN of both signs, ±FLT_MAX,
 * ±FLT_MIN, ±smallest subnormal). */
enum { CONTRACT_SPECIAL_COUNT = GELU_FORMAT_SPECIAL_COUNT };
void contract_special_inputs(float out[CONTRACT_SPECIAL_COUNT]);

/* Same encoding, except that any NaN matches any NaN (payloads are not part of the contract). */
bool contract_same_value(float expected, float actual);

/* Checks forward and derivative of `impl` at the n inputs against the reference values of its
 * target (fwd[i], grad[i] for x[i]; see ref_eval_values), and its special values when the
 * contract claims them, every kernel call judged (kernel_call_f32, IEEE's environment). Returns
 * the failure kind (also in report->failure); CONTRACT_CALL whenever a kernel call of this
 * process broke the call's contract. */
contract_failure contract_check(const gelu_impl *impl, const float *x, size_t n,
                                const ref_value *fwd, const ref_value *grad,
                                contract_report *report);

/* "erf_naive derivative: ULP error 1.2e+07 > bound 4 at x = -0x1.4p+3 (0xc1200000):
 *  y = ..., ref = ..." into buf. */
void contract_describe(const gelu_impl *impl, const contract_report *report, char *buf,
                       size_t size);

#endif
