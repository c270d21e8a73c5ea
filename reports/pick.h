/* The picker: from measured results (results.h) and a target platform, the implementations that
 * the platform can run and that meet every constraint, fastest first.
 *
 * Platforms are the rows of one table (pick.c, platforms[]), each carrying its behaviour: the
 * machine its code is built for, what it runs (x86-64: the CPU features it offers; generic and
 * x86-64-v2 none — portable code only: none of our kernels needs SSE4/POPCNT —, x86-64-v3 AVX2 +
 * FMA, x86-64-v4 those and AVX-512 F/DQ/BW/VL, host what this CPU has; AArch64 and RISC-V: the
 * cross builds' ISAs it runs, by the `dispatched_isa` their exec child announced: armv8-a neon,
 * armv8.2-a+sve (Neoverse V1) neon and sve256, armv9-a+sve2 (Neoverse V2) neon and sve128,
 * rv64gcv rvv128) and where its speed comes from: measured (the x86-64 rows: bench.csv),
 * estimated (the Arm rows: llvm-mca's cycles per element on the CPU named, mca_estimates.h;
 * an emulator's timing means nothing) or none (rv64gcv: LLVM 16 has no RISC-V model with
 * RVV; ranked by accuracy). A build for another machine is never a candidate (an x86-64 row on
 * armv8-a, a neon row on x86-64-v3), nor a portable cross build (its dispatched_isa,
 * "portable", names no machine). Peers that dispatch inside their library (oneDNN, GSL)
 * need no feature; one whose results name the code path it dispatched to (oneDNN's dispatched_isa) is
 * judged for a platform only by figures measured on the path that platform's CPUs take (pick.c,
 * dispatch_paths), otherwise it fails with the cap to measure under. Implementations with no accuracy rows (the threaded dnnl_*_omp benchmark rows, and
 * the ReLU baseline) are never picked, nor those that are not GELUs (no row against exact GELU).
 *
 * Results are one format's (results_load_format): a 16-bit pick judges
 * 16-bit rows, with that format's speed figures or none.
 *
 * Order: implementations meeting every constraint by their speed (measured ns/element at the
 * chosen size, or estimated cycles/element), ties
 * by smaller max ULP against exact GELU, then by the larger fraction correctly rounded, then by
 * name; then the others by the number of
 * constraints they fail, then the same keys; last those of another target than the one asked for
 * (or no GELU at all), so that the closest to a tanh need are tanh implementations. Library code: nothing printed. */
#ifndef GELUCHECK_PICK_H
#define GELUCHECK_PICK_H

#include <stdbool.h>

#include "mca_estimates.h"
#include "results.h"

/* The platforms: the indices of the table's rows, in its order. */
typedef enum {
    PICK_GENERIC,
    PICK_X86_64_V2,
    PICK_X86_64_V3,
    PICK_X86_64_V4,
    PICK_HOST,
    PICK_ARMV8_A,
    PICK_ARMV8_2_A_SVE,
    PICK_ARMV9_A_SVE2,
    PICK_RV64GCV,
    PICK_PLATFORM_COUNT
} pick_platform;

/* The machines code is built for. */
typedef enum { PICK_ARCH_X86_64, PICK_ARCH_AARCH64, PICK_ARCH_RISCV64 } pick_arch;

/* Where a platform's speed figures come from. */
typedef enum {
    PICK_SPEED_MEASURED,  /* bench.csv, at the size asked */
    PICK_SPEED_ESTIMATED, /* llvm-mca's cycles per element on mca_cpu (mca_estimates.h) */
    PICK_SPEED_NONE       /* no figure: ranked by accuracy */
} pick_speed;

/* A platform's row: its name, the CPUs it stands for, the machine, what it runs (features for
 * x86-64, host_features: this CPU's; isas: the cross builds' ISAs, space-separated, by the
 * dispatched_isa their children announce) and its speed's source. */
typedef struct {
    const char *name, *what;
    pick_arch arch;
    unsigned features;
    bool host_features;
    const char *isas;
    pick_speed speed;
    const char *mca_cpu;   /* PICK_SPEED_ESTIMATED: the estimates' cpu ("neoverse-v1") */
    const char *why_speed; /* PICK_SPEED_NONE: why there is no figure */
} pick_platform_row;

const pick_platform_row *pick_platform_at(pick_platform p);
/* PICK_PLATFORM_COUNT for an unknown name. */
pick_platform pick_platform_from_name(const char *name);
const char *pick_platform_name(pick_platform p);
/* The names, separated by sep, into buf ("generic, x86-64-v2, ..."). */
const char *pick_platform_names(const char *sep, char *buf, size_t size);
/* The CPU_FEATURE_* bits the platform offers (host: cpu_features(); none off x86-64). */
unsigned pick_platform_features(pick_platform p);
/* What the platform runs in words, into buf: "avx2,fma", "none", "AArch64 builds: neon sve256". */
const char *pick_platform_runs(pick_platform p, char *buf, size_t size);
/* The machine r was built for: a cross build's by its dispatched_isa (neon, sve256: AArch64;
 * rvv128: RISC-V), this host's (x86-64 here) for every other row (its builds and peers). *known false for
 * a cross build's portable row ("portable" names no machine). */
pick_arch pick_row_arch(const results_row *r, bool *known);
const char *pick_arch_name(pick_arch a);
/* Whether s has a row the platform could run (x86-64 platforms: always; the others: a row of one
 * of their ISAs): the answer's matrix includes a cross platform only then. */
bool pick_platform_has_rows(const results_set *s, pick_platform p);
/* How the platform's speed is known, in words, into buf: "measured (bench.csv, size l2)",
 * "estimated (llvm-mca, model NeoverseN2, for neoverse-v1): cycles/element" (the model the
 * estimates name for its CPU; e may be NULL: no model named), "not estimated: ...". */
const char *pick_speed_text(pick_platform p, const mca_estimates *e, const char *size, char *buf,
                            size_t size_buf);

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
    /* The estimates a platform of estimated speed ranks by (not a constraint: where the speed
     * figures come from, as size is); NULL: none loaded, its rows fail "no estimate". */
    const mca_estimates *estimates;
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
    double ns;     /* at the chosen size; INFINITY when not measured (and off x86-64) */
    double cost;   /* what it is ranked by: ns, or the estimated cycles/element on a platform of
                    * estimated speed; INFINITY: no figure */
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
/* pick_rank on a platform row of the caller's (a test's planted one). */
int pick_rank_on(const results_set *s, const pick_platform_row *p, const pick_constraints *c,
                 pick_candidate *out, size_t *n);

#endif
