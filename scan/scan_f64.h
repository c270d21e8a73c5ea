/* The sampled scan of binary64: a seeded sample of double inputs plus binary64's own hard inputs,
 * each judged against the MPFR oracle rounded to binary64 (ref_eval_format: a Ziv loop from 128
 * bits, mpfr_subnormalize with binary64's exponent range; no enclosure: a double enclosure cannot
 * decide a binary64 rounding), into a scan_result with the binary32 scan's metrics (metrics.h),
 * so that the same table, CSV and gate come out. Separate from the binary32 scan's engine
 * (scan_internal.h).
 *
 * The metrics keep binary32 encodings beside each maximum's position; a double does not fit, so
 * the result carries the sample's encodings by position (scan_result.x64) and every reader of an
 * input goes through scan_result_input. Errors are MPFR's at every point (ULP, absolute,
 * relative against the 128-bit exact value): no hi + lo tables, whose lo would underflow below
 * binary64's subnormals exactly where GELU(x) ≈ x/2 is decided.
 *
 * The sample (scan_f64_sample), sorted by encoding (+0 … +NaN, −0 … −NaN, as binary32's domain
 * order) and deduplicated: N draws, draw i from a counter-based generator of (seed, i) so that it
 * does not depend on threads; draws by i mod 4: 0 and 1 uniform in value on [−10, 10] (the
 * core, where activations lie), 2 uniform in encoding over |x| < 64 (every binade down to the
 * subnormals), 3 uniform over all finite encodings (overflow of x², x³ in the kernels). Plus,
 * always, the hard inputs (scan_f64_hard_inputs).
 *
 * Per implementation, own target and exact GELU, forward and (grad) derivative: error metrics;
 * monotonicity over consecutive sample points (distance in binary64 steps); the derivative's
 * sign; special values by encoding (counts). Not measured: the weighted means (a sample point
 * has no interval), the peers' binary32 criteria, the derivative's consistency. */
#ifndef GELUCHECK_SCAN_F64_H
#define GELUCHECK_SCAN_F64_H

#include "scan.h"

/* The default sample: about a minute of MPFR on 2 threads for the built-in rows and peers with
 * --grad (docs/formats.md, "binary64"). */
#define SCAN_F64_DEFAULT_SAMPLE 1600000

typedef struct {
    const gelu_impl *const *impls; /* binary64 ones (forward_f64 set) */
    size_t nimpls;
    bool grad;
    uint64_t n;    /* draws */
    uint64_t seed;
    unsigned threads; /* 0: all online CPUs */
} scan_f64_config;

/* binary64's hard inputs, as encodings, into out (room for SCAN_F64_HARD_MAX); returns the count.
 * For each GELU target (exact, tanh, sigmoid): x_min rounded and its 3 neighbours each side; per
 * direction, around the last input (from −1 down) whose correctly rounded value is not −0, and
 * around the last whose magnitude is at least 2^-1022 (found by bisection on encodings with
 * MPFR), and around the first input from 1 up where the forward rounds to x (the derivative to
 * 1): each boundary with 2 neighbours each side. The subnormal midpoints near 0 (odd x whose x/2
 * is a tie between subnormals: GELU's x²/√(2π) term decides) and the format's special
 * encodings, both signs. Computed once per process (MPFR, ~10^3 evaluations). */
enum { SCAN_F64_HARD_MAX = 512 };
size_t scan_f64_hard_inputs(uint64_t *out);

/* The sample: the n draws and the hard inputs, sorted by encoding, distinct, into a malloc'd
 * array (*out, *count). 0, or −1 out of memory. */
int scan_f64_sample(uint64_t n, uint64_t seed, uint64_t **out, uint64_t *count);

/* Runs the scan into *result (zeroed or allocated before): domain DOMAIN_SAMPLE (n, seed), its
 * inputs in result->x64. 0, or −1 with *error set to a static message. */
int scan_f64_run(const scan_f64_config *cfg, scan_result *result, const char **error);

#endif
