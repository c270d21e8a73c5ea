/* Two result sets compared, implementation by implementation: what changed in accuracy (every
 * error figure of the column table: against the own target and against exact GELU, forward and
 * derivative, max ULP, max abs and the mean ULP over normal(0,1) inputs; the correctly rounded
 * count; monotonicity violations; special values), in the declared contract's verdict, and in
 * speed per benchmark size: by the rank test of speed_change.h on the rounds' ×baseline ratios
 * when both runs wrote them (bench.csv's ratio_rounds), the new run's divided by the shift
 * common to all its rows at that size and judged against the floor of the rows' own spread
 * (rows with their own thread pool not judged: their time follows the machine's other load;
 * nor the yardsticks whose target is not a GELU),
 * else a change only when the two runs' interquartile
 * ranges [q1, q3] of ns/element do not overlap.
 *
 * Accuracy figures are deterministic (the same build on the same domain gives the same bits), so
 * any increase of an error, decrease of the correctly rounded count or newly broken contract is
 * a regression; the two sets must have scanned the same number of inputs (the same domain),
 * else they are not comparable. Changes are ordered regressions first, worst first (the factor
 * by which the figure grew: new/old for an error or a count of failures, the inputs not
 * correctly rounded new/old for the correctly rounded count; a contract newly broken and a
 * failure count from 0 count as infinitely worse), then the rest in the old set's row order.
 * Library code: nothing printed. */
#ifndef GELUCHECK_COMPARE_H
#define GELUCHECK_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "manifest.h"
#include "results.h"

typedef enum {
    CHANGE_WORSE,   /* accuracy got worse: a regression */
    CHANGE_BROKEN,  /* the declared contract held and now fails: a regression */
    CHANGE_BETTER,  /* accuracy improved */
    CHANGE_FIXED,   /* the contract failed and now holds */
    CHANGE_SLOWER,  /* beyond both runs' interquartile spread */
    CHANGE_FASTER,
    CHANGE_ADDED,   /* only in the new set */
    CHANGE_REMOVED, /* only in the old set */
    CHANGE_KIND_COUNT
} compare_kind;

/* "worse", "broken", "better", "fixed", "slower", "faster", "added", "removed". */
const char *compare_kind_name(compare_kind k);
/* Worse and broken: what makes `gelucheck compare` fail. */
bool compare_kind_is_regression(compare_kind k);

typedef struct {
    char impl[RESULTS_NAME];
    char metric[48]; /* "max ULP vs own target", "ns/element at l2", "contract", … */
    char old_value[64], new_value[64];
    compare_kind kind;
    double severity; /* a regression's factor (ordering); 0 for the others */
} compare_change;

enum { COMPARE_MAX_CHANGES = 1024 };

typedef struct {
    compare_change changes[COMPARE_MAX_CHANGES]; /* in the old set's row order, then added */
    size_t n;
    size_t compared;        /* implementations in both sets */
    size_t regressions;     /* changes that are regressions */
    size_t count[CHANGE_KIND_COUNT];
    bool speed_compared;    /* both sets have benchmark rows at a common size */
    /* rows timed in both whose speed is not judged (compare.c): [0] with their own thread
     * pool, [1] yardsticks (targets that are not GELUs: ReLU, SiLU), the baseline aside */
    size_t speed_not_judged[2];
} compare_result;

/* Compares old against new. Returns 0, or −1 with err saying why the sets are not comparable
 * (different numbers of scanned inputs: another domain). */
int compare_results(const results_set *old_set, const results_set *new_set, bool speed,
                    compare_result *out, char *err, size_t errsize);
/* compare_results for the implementations named in only[0..nonly) alone (all when nonly is 0). */
int compare_results_only(const results_set *old_set, const results_set *new_set, bool speed,
                         const char *const *only, size_t nonly, compare_result *out, char *err,
                         size_t errsize);

/* Two result sets read and compared. Each is a report directory (manifest.json, accuracy.csv,
 * bench.csv), a directory of accuracy and bench runs (accuracy.csv with its
 * accuracy.csv.manifest.json, bench.csv), or an accuracy CSV file with FILE.manifest.json beside
 * it; speed is compared when both have bench.csv and their manifests name the same CPU model. */
typedef struct {
    run_manifest manifest[2]; /* old, new */
    results_set sets[2];
    bool same_cpu;
    compare_result result;
} compare_sets;

/* Checks that dir (a directory or an accuracy CSV, as above) is a result set this gelucheck can
 * compare (its manifest readable, of a known schema; its accuracy CSV readable). 0, or −1 with
 * err naming the file. */
int compare_check_dir(const char *dir, run_manifest *m, char *err, size_t errsize);

/* Reads and compares (cs is large: allocate it). 0, or −1 with err naming the file, or both
 * manifests' schema versions when they differ, or why the sets are not comparable. */
int compare_sets_load(compare_sets *cs, const char *old_dir, const char *new_dir, char *err,
                      size_t errsize);
/* compare_sets_load for the implementations in only[0..nonly) alone (all when 0). */
int compare_sets_load_only(compare_sets *cs, const char *old_dir, const char *new_dir,
                           const char *const *only, size_t nonly, char *err, size_t errsize);

/* CSV: impl,metric,old,new,change (one row per change). 0, or −1 on a write error. */
int compare_csv_write(FILE *f, const compare_result *c);

#endif
