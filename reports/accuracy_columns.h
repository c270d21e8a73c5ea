/* The columns of accuracy results, one list: per column its name (accuracy.csv's header), the
 * writer of its CSV field, its width and header in the console table (0: not shown there), the
 * console text when it differs from the CSV's, and its HTML summary cell (NULL: none). The CSV
 * writer (accuracy_csv.c) writes every column in this order, then the ULP histogram's
 * (metrics.h's buckets); the console table (cli) and the HTML summary (html_report.c) pick
 * columns by name. A new column is one row of the table in accuracy_columns.c. */
#ifndef GELUCHECK_ACCURACY_COLUMNS_H
#define GELUCHECK_ACCURACY_COLUMNS_H

#include <stddef.h>
#include <stdio.h>

#include "results_row.h"
#include "scan.h"

/* One row of accuracy.csv: implementation i of a scan result against reference kind ref
 * (REF_OWN, REF_EXACT), direction dir (DIR_FORWARD, DIR_DERIVATIVE). */
typedef struct {
    const scan_result *r;
    size_t i;
    int ref, dir;
} accuracy_row;

/* A field's text into buf ("" for no value). */
typedef void (*accuracy_field)(const accuracy_row *row, char *buf, size_t size);
struct accuracy_column;
/* A cell of the HTML summary (one row per implementation) from the results read back, for the
 * reference kind and direction the summary asks. */
typedef void (*accuracy_html_cell)(FILE *f, const struct accuracy_column *c, const results_row *r,
                                   int ref, int dir);

typedef struct accuracy_column {
    const char *name;              /* accuracy.csv's header */
    accuracy_field csv;            /* the CSV field */
    int console_width;             /* printf width (negative: left-aligned); 0: not in the console */
    const char *console_header;    /* the console's header (NULL: the name) */
    accuracy_field console;        /* the console's text (NULL: the CSV's) */
    accuracy_html_cell html;       /* the HTML summary cell (NULL: not in the summary) */
} accuracy_column;

size_t accuracy_column_count(void);
const accuracy_column *accuracy_column_at(size_t k);
/* NULL when no column has that name. */
const accuracy_column *accuracy_column_find(const char *name);

/* The HTML cell that shows a numeric field as written ("–" when empty): results.c keeps the text
 * of such columns (results_row.text), so a new column shown this way is its row here and its
 * entry in the summary's list (html_report.c), nothing else. */
void html_as_written(FILE *f, const accuracy_column *c, const results_row *r, int ref, int dir);
/* The column's slot in results_row.text: its rank among the columns shown as written; −1 for
 * the others. */
int accuracy_column_text_slot(const accuracy_column *c);

/* "own", "exact"; "forward", "derivative": the reference and direction columns' values. */
const char *accuracy_ref_name(int ref);
const char *accuracy_dir_name(int dir);

/* Calls fn(row, arg) for every row of accuracy.csv, in its order: per implementation, own target
 * then exact GELU (for the implementations that have that row), forward then derivative (with
 * the derivative scanned). */
void accuracy_each_row(const scan_result *r, void (*fn)(const accuracy_row *row, void *arg),
                       void *arg);

#endif
