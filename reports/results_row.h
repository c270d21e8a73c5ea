/* The measured results of a report directory as read back (results.h reads them): per
 * implementation one summary row (its errors per reference and direction, its speeds per size),
 * a set of rows of one format, and what is asked of them (a row by name, a speed at a size, the
 * inputs not correctly rounded); the names of a format's files. What the HTML summary's cells
 * (accuracy_columns.h), the picker and the comparison read. */
#ifndef GELUCHECK_RESULTS_ROW_H
#define GELUCHECK_RESULTS_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "gelu_format.h"
#include "metrics.h"

enum { RESULTS_MAX_ROWS = 1024, RESULTS_MAX_SIZES = 8, RESULTS_NAME = 64, RESULTS_X = 40 };
/* Columns kept as written for the HTML summary (accuracy_columns.h: html_as_written). */
enum { RESULTS_TEXT_COLUMNS = 8 };

/* One reference × direction row of accuracy.csv. */
typedef struct {
    bool present;
    double max_ulp, max_abs, cr_fraction;
    double normal_mean_ulp; /* mean ULP error weighted by normal(0,1) inputs; NaN without the column */
    long long correctly_rounded; /* inputs correctly rounded; −1 when the file lacks the column */
    uint64_t inputs;             /* inputs scanned */
    char max_ulp_x[RESULTS_X], max_abs_x[RESULTS_X]; /* hex floats as written; "" when none */
} results_error;

typedef struct {
    char size[24];    /* l1, l2, dram or N */
    double ns, ratio; /* median ns/element and ×baseline */
    double q1, q3;    /* ns/element's quartiles over rounds; NaN when the file lacks them */
    bool timed_inside; /* timed by an exec child's own clock (bench.csv's timed: child) */
    unsigned nrounds;  /* ×baseline of each round (column ratio_rounds); 0 without it */
    double rounds[BENCH_KEPT_ROUNDS];
} results_speed;

typedef struct {
    char name[RESULTS_NAME], target[16];
    unsigned features;              /* CPU_FEATURE_* bits it needs */
    bool scanned;                   /* has rows in accuracy.csv */
    uint64_t inputs;                /* inputs scanned */
    results_error own[2], exact[2]; /* [direction]: forward, derivative */
    long mono_violations;           /* −1: not measured */
    long specials_failed[2];        /* −1: not measured */
    long benchdnn_failed, xnnpack_failed,
        xnnpack_checked;         /* own target, forward; −1: not measured */
    long exact_benchdnn_failed, exact_xnnpack_failed; /* exact GELU, forward; −1: not measured */
    char contract[8];            /* pass | fail */
    /* The code path a run-time dispatching peer took when measured (column dispatched_isa,
     * e.g. oneDNN's "avx512_core"); "" for the others and in files without the column. */
    char dispatched_isa[32];
    uint64_t hist[HIST_BUCKETS]; /* own target, forward: inputs per ULP bucket */
    /* [reference][direction][slot]: the fields of the columns shown as written (a number, ""
     * when empty or not read), by accuracy_column_text_slot. */
    char text[2][2][RESULTS_TEXT_COLUMNS][RESULTS_X];
    size_t nspeeds;
    results_speed speed[RESULTS_MAX_SIZES];
    unsigned csv_rows; /* the accuracy rows read: bit 2·reference + direction */
} results_row;

typedef struct {
    size_t n;
    results_row rows[RESULTS_MAX_ROWS]; /* accuracy.csv's order, then bench-only rows */
    char baseline[RESULTS_NAME];        /* bench.csv's baseline ("" without bench.csv) */
    char sizes[RESULTS_MAX_SIZES][24];  /* bench sizes in the order measured */
    size_t nsizes;
    gelu_format_id format;              /* the format whose rows were read */
} results_set;

/* A report directory's file of format f's results: "STEM.csv" for binary32, "STEM_F.csv" for
 * another format (accuracy_bfloat16.csv, bench_binary16.csv, ulp_by_x_bfloat16.csv), into buf. */
const char *results_file_name(char *buf, size_t size, const char *stem, gelu_format_id f);
/* A report directory's ftz,daz scan (binary32, fpenv ftz+daz: the report's section "ftz,daz"). */
#define RESULTS_FTZ_DAZ_FILE "accuracy_ftz_daz.csv"

/* The row's speed at a size label, NULL when not measured there. */
const results_speed *results_speed_at(const results_row *r, const char *size);
const results_row *results_find(const results_set *s, const char *name);

/* The scanned inputs whose result is not correctly rounded (inputs − correctly_rounded); −1
 * when not measured (no row, or a file without the column). */
long long results_not_correctly_rounded(const results_error *e);

/* Every scanned input correctly rounded (by the count, not the rounded fraction: 1 − 2^-32
 * prints as 1). */
bool results_all_correctly_rounded(const results_error *e);

#endif
