/* The README's tables as Markdown, from measured results read back (results.h). Generated, never
 * retyped: `gelucheck markdown DIR` prints binary32's for a report directory,
 * `gelucheck markdown --format bfloat16,binary16 DIR` the 16-bit formats'. */
#ifndef GELUCHECK_MARKDOWN_H
#define GELUCHECK_MARKDOWN_H

#include <stdbool.h>
#include <stdio.h>

#include "results.h"

/* binary32's accuracy table: one row per scanned implementation, in accuracy.csv's order. */
void markdown_accuracy_table(FILE *f, const results_set *s);

/* The other formats' table (one results_set per format, n of them, each one format's rows):
 * per implementation the inputs whose result is not the correctly rounded value of its own
 * target in each format, forward and derivative, "count (share%)"; "–" where not measured (a
 * format's native is measured in that format only). Implementations in the order first met;
 * those whose cells and target are all equal share a row (names in that order); a row native
 * in every format it was measured in is marked "(native)", one native in some of them only
 * "(native in bfloat16)" (oneDNN's bf16 rows: binary16 runs them widened), a target other than
 * exact GELU named. native(name, format) says
 * which rows are natives of a format (the 16-bit list's, and the framework rows whose client
 * serves that format: the caller's knowledge, cli/cmd_markdown.c). */
/* binary64 (alone: its rows are its own, not the widened ones): the header says it is a sample,
 * with its size. */
void markdown_formats_table(FILE *f, const results_set *const *sets, size_t n,
                            bool (*native)(const char *name, gelu_format_id format));

#endif
