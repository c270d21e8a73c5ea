/* Two result sets compared, implementation by implementation: what changed in accuracy (max ULP
 * against the own target and against exact GELU, max abs against exact GELU, the correctly
 * rounded count, the gradient's max ULP, monotonicity violations, special values), in the
 * declared contract's verdict, and in speed (median ns/element per benchmark size, counted as a
 * change only when the two runs' interquartile ranges [q1, q3] do not overlap: a difference
 * within either run's own spread is noise).
 *
 * Accuracy figures are deterministic (the same build on the same domain gives the same bits), so
 * any increase of an error, decrease of the correctly rounded count or newly broken contract is
 * a regression; the two sets must have scanned the same number of inputs (the same domain),
 * else they are not comparable. Library code: nothing printed. */
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
    char old_value[48], new_value[48];
    compare_kind kind;
} compare_change;

enum { COMPARE_MAX_CHANGES = 1024 };

typedef struct {
    compare_change changes[COMPARE_MAX_CHANGES]; /* in the old set's row order, then added */
    size_t n;
    size_t compared;        /* implementations in both sets */
    size_t regressions;     /* changes that are regressions */
    size_t count[CHANGE_KIND_COUNT];
    bool speed_compared;    /* both sets have benchmark rows at a common size */
} compare_result;

/* Compares old against new. Returns 0, or −1 with err saying why the sets are not comparable
 * (different numbers of scanned inputs: another domain). */
int compare_results(const results_set *old_set, const results_set *new_set, bool speed,
                    compare_result *out, char *err, size_t errsize);

/* Two result directories read and compared: each holds manifest.json (MANIFEST_FILE) and
 * accuracy.csv, and bench.csv for speed (compared when both have it and their manifests name the
 * same CPU model). */
typedef struct {
    run_manifest manifest[2]; /* old, new */
    results_set sets[2];
    bool same_cpu;
    compare_result result;
} compare_sets;

/* Checks that dir is a result set this gelucheck can compare (its manifest readable, of a known
 * schema; accuracy.csv readable). 0, or −1 with err naming the file. */
int compare_check_dir(const char *dir, run_manifest *m, char *err, size_t errsize);

/* Reads and compares (cs is large: allocate it). 0, or −1 with err naming the file, or both
 * manifests' schema versions when they differ, or why the sets are not comparable. */
int compare_sets_load(compare_sets *cs, const char *old_dir, const char *new_dir, char *err,
                      size_t errsize);

/* CSV: impl,metric,old,new,change (one row per change). 0, or −1 on a write error. */
int compare_csv_write(FILE *f, const compare_result *c);

#endif
