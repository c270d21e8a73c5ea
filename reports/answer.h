/* The answer as data: for every platform row of pick (pick.h) × every need, the choice (the
 * fastest implementation meeting the need that the platform runs), its figures, the runner-up;
 * where nothing meets it, the closest and what it fails. Built from measured results, written as
 * answer.json (docs/answer-json.md: the schema), read back, and shown as a text matrix (pick
 * --platform all, the end of report) and a Markdown table (markdown --answer, the README's).
 *
 * Library code: nothing printed but to the FILE given; errors returned as text. */
#ifndef GELUCHECK_ANSWER_H
#define GELUCHECK_ANSWER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "capped.h"
#include "left_out.h"
#include "pick.h"
#include "results.h"

enum { ANSWER_SCHEMA = 1, ANSWER_MAX_NEEDS = 8 };
#define ANSWER_FILE "answer.json" /* its name in a report directory */

/* An implementation's figures in a cell; NaN: not measured (ns, x_relu: not benchmarked at the
 * size, or no ReLU of the platform benchmarked), −1 for the count. */
typedef struct {
    bool present;
    char name[RESULTS_NAME], target[16];
    double ns, x_relu;                /* median ns/element at the size; × the platform's ReLU */
    double est_cycles; /* estimated cycles/element on a platform of estimated speed; NaN: none */
    double max_ulp, max_abs, mean_ulp_normal, cr_fraction; /* forward, against exact GELU */
    double own_max_ulp, grad_max_ulp; /* forward vs its own target; derivative vs exact GELU' */
    long mono_violations;
    uint64_t inputs; /* the inputs its accuracy figures cover */
    char measured_under[64]; /* the cap of a capped run (capped.h) it was measured under; "" */
} answer_figures;

typedef struct {
    int fits;                          /* implementations meeting the need on the platform */
    answer_figures choice, runner_up;  /* present when fits ≥ 1, ≥ 2 */
    char closest[RESULTS_NAME], why[160]; /* fits == 0: the closest and its first failure ("" none) */
} answer_cell;

typedef struct {
    char title[128], asks[256];
    bool is_default; /* the need pick judges by when given none */
} answer_need;

typedef struct {
    pick_platform id;
    char features[128];      /* the CPU features it offers ("none") */
    char relu[RESULTS_NAME]; /* its ReLU, the yardstick of x_relu ("" when none measured) */
    char speed[160];         /* where its speed comes from (pick_speed_text); "" when not known */
} answer_platform;

/* A framework row whose paths were scanned (framework_paths_scan.h): how many, how many differ
 * from the row (the batch path) — other figures (verdict, error maxima, monotonicity), or
 * outputs of other encodings where compared, in any format scanned —, which (comma-separated), and its worst path (a broken
 * contract first, then the largest max ULP against exact GELU, binary32's scan; "the batch
 * path" when none is worse than the row). */
enum { ANSWER_FRAMEWORK_ROWS = 16 };
typedef struct {
    char row[RESULTS_NAME], worst_path[48], differing[256];
    int paths, differ;
} answer_framework_paths;

typedef struct {
    int schema;
    char format[16], size[24];         /* the format's figures; the benchmark size ranked by */
    char cpu_model[256], cpu_features[256]; /* where measured (the results' manifest, else here) */
    uint64_t inputs, encodings;        /* inputs the accuracy covers; the format's (0: binary64) */
    bool all_inputs;                   /* inputs == encodings: every input, not a sample */
    size_t nneeds, nplatforms, ncapped;
    struct {
        char cap[64], impls[512];
        double seconds;
    } capped[CAPPED_MAX]; /* the capped runs measured, their rows and wall time */
    answer_need needs[ANSWER_MAX_NEEDS];
    answer_platform platforms[PICK_PLATFORM_COUNT];
    answer_cell cells[ANSWER_MAX_NEEDS][PICK_PLATFORM_COUNT]; /* [need][platform index] */
    /* The row families the run left out and why (left_out.h): known to the report that ran,
     * not to pick reading its files (left_out_known false: answer.json's "left_out" null). */
    bool left_out_known;
    left_out left_out;
    /* The framework rows whose paths the run scanned (answer.json's "framework_paths"; not
     * known: null, pick's answer or a run with no path). */
    bool framework_paths_known;
    size_t nframework_paths;
    answer_framework_paths framework_paths[ANSWER_FRAMEWORK_ROWS];
} answer;

/* The answer for needs[0..nneeds) × platforms[0..nplatforms) from s, ranked at size (NULL: no
 * speed figures, ranked by accuracy); a platform's cells from s with the rows capped runs
 * measured for it in their place (capped may be NULL: none). default_need: the index among
 * needs of the default one, or −1. 0, or −1 with err (too many needs, out of memory). */
int answer_build(answer *a, const results_set *s, const capped_runs *capped,
                 const pick_need *needs, size_t nneeds, int default_need,
                 const pick_platform *platforms, size_t nplatforms, const char *size,
                 const char *cpu_model, const char *cpu_features, char *err, size_t errsize);

/* answer_build for every need of pick's list (the default marked) × every platform that s has
 * rows for (pick_platform_has_rows: the cross platforms only with their builds' rows): the
 * report's answer.json. */
int answer_build_all(answer *a, const results_set *s, const capped_runs *capped, const char *size,
                     const char *cpu_model, const char *cpu_features, char *err, size_t errsize);

/* answer.json's text. 0, or −1 on a write error. */
int answer_write_json(FILE *f, const answer *a);
/* Reads answer.json back, checking the schema version and every field it needs. 0; −1 when
 * the file cannot be read, −2 when it is not an answer of this schema (err names the file and
 * the field). */
int answer_read_json(const char *path, answer *a, char *err, size_t errsize);

/* The matrix as text: per need, a line per platform (choice and figures, runner-up). */
void answer_print_matrix(FILE *f, const answer *a);
/* The matrix as a Markdown table, need × platform (x86-64-v2, x86-64-v3, x86-64-v4, host; "–"
 * for one the answer lacks), then a line saying what was measured where. */
void answer_markdown(FILE *f, const answer *a);
/* The framework rows whose paths differ from them: "The GELU you get depends on how you call
 * it", a line per row (how many paths differ, which, the worst); a line saying none does when
 * the paths scanned all agree; nothing when none were scanned. answer_markdown ends with it. */
void answer_paths_markdown(FILE *f, const answer *a);

/* The matrix as an HTML table (the page's answer): a row per need, a column per platform of the
 * Markdown table, each cell the choice, its speed and accuracy, the runner-up. */
void answer_html(FILE *f, const answer *a);

/* Whether the figures cover every input of the format ("all 2^32 inputs") or a part, in words
 * ("1000000 of 2^32 inputs: a SAMPLE, its maxima not bounds"), into buf. */
const char *answer_coverage(const answer *a, char *buf, size_t size);

#endif
