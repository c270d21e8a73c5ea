/* The picker: from measured results (results.h) and a target platform, the implementations that
 * the platform can run and that meet every constraint, fastest first.
 *
 * Platforms and the CPU features they allow: generic and x86-64-v2 none (portable code only: none
 * of our kernels needs SSE4/POPCNT), x86-64-v3 AVX2 + FMA, x86-64-v4 those and AVX-512
 * F/DQ/BW/VL, host what this CPU has. Peers that dispatch inside their library (oneDNN, GSL)
 * need none; one whose results name the code path it dispatched to (oneDNN's dispatched_isa) is
 * judged for a platform only by figures measured on the path that platform's CPUs take (pick.c,
 * dispatch_paths), otherwise it fails with the cap to measure under. Implementations with no accuracy rows (the threaded dnnl_*_omp benchmark rows, and
 * the ReLU baseline) are never picked, nor those that are not GELUs (no row against exact GELU).
 *
 * Results are one format's (results_load_format): a 16-bit pick judges
 * 16-bit rows, with that format's speed figures or none.
 *
 * Order: implementations meeting every constraint by measured ns/element at the chosen size, ties
 * by smaller max ULP against exact GELU, then by the larger fraction correctly rounded, then by
 * name; then the others by the number of
 * constraints they fail, then the same keys; last those of another target than the one asked for
 * (or no GELU at all), so that the closest to a tanh need are tanh implementations. Library code: nothing printed. */
#ifndef GELUCHECK_PICK_H
#define GELUCHECK_PICK_H

#include <stdbool.h>

#include "results.h"

typedef enum {
    PICK_GENERIC,
    PICK_X86_64_V2,
    PICK_X86_64_V3,
    PICK_X86_64_V4,
    PICK_HOST,
    PICK_PLATFORM_COUNT
} pick_platform;

/* PICK_PLATFORM_COUNT for an unknown name. The names, in the enum's order: generic, x86-64-v2,
 * x86-64-v3, x86-64-v4, host. */
pick_platform pick_platform_from_name(const char *name);
const char *pick_platform_name(pick_platform p);
/* The CPU_FEATURE_* bits the platform offers (host: cpu_features()). */
unsigned pick_platform_features(pick_platform p);

typedef struct {
    double max_ulp;         /* forward, against exact GELU; INFINITY: no constraint */
    double max_abs;         /* forward, against exact GELU; INFINITY: none */
    double grad_max_ulp;    /* derivative, against exact GELU's derivative; INFINITY: none */
    bool monotone;          /* no monotonicity violation measured */
    const char *target;     /* exact | tanh | sigmoid; NULL: any */
    const char *size;       /* the benchmark size ranked by (l1, l2, dram or N); NULL: no
                             * speed figures (a 16-bit format never benchmarked): speed is not
                             * judged and the order is the accuracy keys' */
    double own_max_ulp;     /* forward, against the implementation's own target; INFINITY: none */
    bool correctly_rounded; /* every scanned input correctly rounded against exact GELU */
    bool contract_kept;     /* the accuracy file's verdict on its own contract is pass */
} pick_constraints;

/* No constraint at all, ranked at size. */
pick_constraints pick_no_constraints(const char *size);

/* The common needs the report answers first, one list: a title, what it asks in one line, and
 * its constraints (ranked at size l2, measured by both the full and the quick benchmark). */
typedef struct {
    const char *title, *asks;
    pick_constraints c;
} pick_need;

size_t pick_need_count(void);
const pick_need *pick_need_at(size_t i);
/* The need pick judges by when none is given (no constraint at all would let a kernel 10^7 ULP
 * off in the tail be "the fastest meeting every constraint"): the list's first, exact GELU
 * within 1 ULP and monotone. */
enum { PICK_DEFAULT_NEED = 0 };
/* Whether c constrains anything (the size it ranks at aside). */
bool pick_constrains(const pick_constraints *c);
/* c in words ("max ULP vs exact GELU <= 1, monotone"), into buf; "no constraint" when none. */
const char *pick_constraints_describe(const pick_constraints *c, char *buf, size_t size);

/* For a row of a peer that dispatches at run time (dispatched_isa set): the cap under which its
 * library takes platform p's code path ("DNNL_MAX_CPU_ISA=AVX2"), when the figures it carries
 * were measured on another path; NULL when they hold for p already, when no path of p is known,
 * and for the host (measured in this setting) and every other row. */
const char *pick_cap_for(const results_row *r, pick_platform p);

/* The platform's ReLU, the yardstick of its ×ReLU: of the ReLU rows (target relu) benchmarked
 * at size that the platform runs, the one needing the most CPU features (relu_avx512f on
 * x86-64-v4, relu_avx2 on v3, the portable relu on v2 and generic: the widest build, as the
 * benchmark's own baseline is chosen for this CPU); ties to the benchmark's baseline, then by
 * name. NULL when none was benchmarked there. */
const results_row *pick_platform_relu(const results_set *s, pick_platform p, const char *size);
/* r's cost at size in units of the platform's ReLU: the benchmark's own ratio (a median over
 * rounds of per-round ratios) when that ReLU is the benchmark's baseline, else the ratio of the
 * two medians (ns/element) measured in the same run; NaN when either was not measured. */
double pick_times_relu(const results_set *s, const results_row *r, pick_platform p, const char *size);

typedef struct {
    const results_row *row;
    int failed;    /* constraints failed (the platform counts as one) */
    char why[160]; /* the first failed constraint, "" when none */
    double ns;     /* at the chosen size; INFINITY when not measured */
    bool off_target; /* not a GELU, or not the target asked for: ranked after all others */
    /* A framework row whose paths (ROW@PATH rows) are in the results: judged by the worst of
     * them and the row itself (most constraints failed, then the largest max ULP against exact
     * GELU), named here ("size1", "the batch path"); "" and 0 for any other row. The paths are
     * no candidates of their own. */
    char worst_path[48];
    int npaths;
} pick_candidate;

/* Fills out[0..*n) (room for RESULTS_MAX_ROWS) with every candidate in the order above. Returns
 * the number meeting every constraint (they come first). */
int pick_rank(const results_set *s, pick_platform p, const pick_constraints *c, pick_candidate *out,
              size_t *n);

#endif
