/* The scan engine: every implementation of a run evaluated over a domain of binary32 inputs in
 * blocks of consecutive encodings, each block's reference computed once (fast enclosure, MPFR
 * fallback) and shared by all implementations, threads over blocks, and mergeable results:
 * identical to the last bit whatever the thread count or sharding.
 *
 * Per implementation, against its own target and (for GELU targets) against exact GELU, forward
 * and with `grad` derivative: error metrics (metrics.h); monotonicity of the forward on both
 * branches (consecutive inputs of the domain, block seams included, the pair straddling the
 * target's x_min exempt); the derivative's sign against the branch; and, in shard 0 only,
 * special values by encoding and the derivative's consistency with the forward (central
 * differences, GSL) on a fixed sample. */
#ifndef GELUCHECK_SCAN_H
#define GELUCHECK_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "contract.h"
#include "gelu_fpenv.h"
#include "gelu_impl.h"
#include "metrics.h"

/* SCAN_GROUP_MAX: the most blocks handed to an implementation's kernel in one call (one that
 * asks for batches, gelu_impl.batch_inputs: 2^20 inputs, 4 MiB a buffer). */
enum { SCAN_BLOCK = 4096, CONSISTENCY_POINTS = 2048, SCAN_GROUP_MAX = 256 };

typedef enum { DOMAIN_ALL, DOMAIN_RANGE, DOMAIN_SAMPLE, DOMAIN_LIST } domain_kind;

typedef struct {
    domain_kind kind;
    float lo, hi;  /* DOMAIN_RANGE: inclusive, lo ≤ hi */
    uint64_t n;    /* DOMAIN_SAMPLE: requested count (distinct encodings are kept) */
    uint64_t seed; /* DOMAIN_SAMPLE */
    /* DOMAIN_LIST: n distinct encodings, ascending as encodings (the order DOMAIN_SAMPLE scans
     * in), the caller's, alive until the run and every reader of its result are done (a union
     * of ranges and a sample: scan/fpenv_cover.h). In-process runs only: no partial file or
     * checkpoint can name it. */
    const uint32_t *list;
} scan_domain;

typedef struct {
    float x, expected, actual;
} special_failure;

/* Computed once per run (in shard 0). */
typedef struct {
    size_t nspecial_failed[DIR_COUNT];
    special_failure special_failed[DIR_COUNT][CONTRACT_SPECIAL_COUNT];
    double consistency_max_rel; /* |central difference − derivative| / max(|derivative|, 1e-2) */
    float consistency_x;
} impl_extras;

/* A run's result. Its per-implementation arrays (impls, metrics, extras: nimpls each) are
 * allocated per run (scan_result_alloc, by scan_run and partial_parse); a result starts zeroed
 * (calloc) and ends with scan_result_release. */
typedef struct {
    size_t nimpls;
    const gelu_impl **impls;
    bool grad;
    scan_domain domain;
    unsigned shard_k, shard_n;
    gelu_fpenv fpenv; /* the environment the kernels ran in, the references' meaning */
    uint64_t inputs;   /* inputs scanned */
    uint64_t refs[GELU_TARGET_COUNT][DIR_COUNT];      /* reference values computed */
    uint64_t fallbacks[GELU_TARGET_COUNT][DIR_COUNT]; /* of which MPFR decided */
    impl_metrics *metrics;
    bool has_extras;
    impl_extras *extras;
    /* A binary64 sample (scan_f64.h): the encoding of the input at each position of the domain,
     * `inputs` of them, owned by the result; NULL for the other formats. The metrics keep
     * binary32 encodings beside their positions (arg_max.bits, mono and sign lists), which
     * cannot hold a double: a binary64 input is read back from its position here
     * (scan_result_input). */
    uint64_t *x64;
} scan_result;

/* Allocates r's arrays for nimpls implementations, zeroed, after releasing those r held (r is
 * zeroed or was allocated before); the other fields are left as they are. 0, or −1 when out of
 * memory (r then holds none). */
int scan_result_alloc(scan_result *r, size_t nimpls);
/* The input at domain position seq whose binary32 encoding the metrics kept as bits (an
 * arg_max, a monotonicity or sign list entry): a binary64 sample's from r->x64, else the bits'
 * value. scan_result_input_text writes it as "%a (0x%08x)" (binary64: 16 hex digits) into buf. */
double scan_result_input(const scan_result *r, uint64_t seq, uint32_t bits);
const char *scan_result_input_text(const scan_result *r, uint64_t seq, uint32_t bits, char *buf,
                                   size_t size);
/* Frees r's arrays (r stays usable: zero implementations). */
void scan_result_release(scan_result *r);
/* dst (zeroed or allocated before) becomes a copy of src with arrays of its own. 0, or −1 out
 * of memory. */
int scan_result_copy(scan_result *dst, const scan_result *src);
/* scan_result_release, then free(r); NULL is allowed. */
void scan_result_free(scan_result *r);

typedef void (*scan_progress_fn)(uint64_t done, uint64_t total, void *ctx);

/* Where a scan's time goes (--profile): thread seconds (summed over the worker threads) spent in
 * each implementation's kernels and in the metrics of its outputs, per direction, and in the
 * references per target and direction (the fast enclosure; of it, the MPFR fallbacks). Timing is
 * taken per block and only when asked for; results never depend on it. */
typedef struct {
    size_t nimpls;                /* the rows of kernel and metrics, allocated by scan_run */
    double (*kernel)[DIR_COUNT];  /* [nimpls][DIR_COUNT] */
    double (*metrics)[DIR_COUNT];
    double reference[GELU_TARGET_COUNT][DIR_COUNT];
    double fallback[GELU_TARGET_COUNT][DIR_COUNT];
    double inputs; /* preparing each block's inputs (domain, ranges, runs) */
} scan_profile;

typedef struct {
    const gelu_impl *const *impls;
    size_t nimpls;
    scan_domain domain;
    bool grad;
    unsigned threads;         /* 0: all online CPUs */
    unsigned shard_k, shard_n; /* scan part k (0-based) of n; n = 1 for all */
    scan_progress_fn progress; /* called from the calling thread, about 5 times a second */
    void *progress_ctx;
    scan_profile *profile;     /* NULL, or zeroed by the caller: filled with the run's times
                                * (release with scan_profile_release) */
    /* The floating-point environment the kernels run in (gelu_fpenv.h; 0: IEEE): each worker
     * sets it around its kernel calls only, as do the special values' and the consistency
     * check's calls in the calling thread, and restores its MXCSR after each; the references
     * are computed in IEEE's and adjusted to the environment's meaning (docs/DESIGN.md,
     * "Floating-point environments"). Implementations in other processes (exec children) do
     * not see it: the caller refuses them. */
    gelu_fpenv fpenv;
    /* Rows compared output by output (the report's framework paths against their batch paths):
     * same_as[i] is the index of the row whose outputs row i's are compared with at every
     * scanned input, or −1; differ[i][d] (the caller's, zeroed here) receives how many of row
     * i's outputs in direction d have another encoding than that row's (directions both rows
     * scan). Both NULL: nothing compared. */
    const int *same_as;
    uint64_t (*differ)[DIR_COUNT];
} scan_config;

void scan_profile_release(scan_profile *p);

/* Runs the scan into *result (zeroed or allocated before; its arrays are allocated here, any
 * number of implementations). Returns 0, or −1 with *error set to a static message (bad
 * configuration, out of memory). */
int scan_run(const scan_config *cfg, scan_result *result, const char **error);

/* Number of inputs of a domain (distinct encodings for a sample). */
uint64_t scan_domain_size(const scan_domain *d);

/* The positions [*first, *end) of the domain's inputs that shard k (0-based) of n scans.
 * −1 for a bad shard or an empty domain. */
int scan_shard_span(const scan_domain *d, unsigned k, unsigned n, uint64_t *first, uint64_t *end);

/* The directions scanned for an implementation: 2 (forward, derivative) with grad when it has a
 * derivative kernel, else 1 (a forward-only implementation, such as an inference runtime's
 * GELU: its derivative has no metrics, no sign check, no specials, no consistency, no claim
 * judged). */
int scan_directions(const gelu_impl *impl, bool grad);

/* Whether the implementation gets a row against exact GELU (GELU targets only). */
bool scan_has_exact_row(const gelu_impl *impl);

/* Adds src (another shard of the same run) into dst. Returns −1 with *error when the two are
 * not parts of the same run; that each shard comes once is the caller's to check. */
int scan_result_merge(scan_result *dst, const scan_result *src, const char **error);

/* The contract gate: the number of claims of implementation i the result breaks, the first
 * described into buf. Claims not covered by the run (derivative without grad, specials without
 * extras) are not judged. */
int scan_contract_violations(const scan_result *r, size_t i, char *buf, size_t size);

/* Partial results (sharding) are written and read by partial.h. */

#endif
