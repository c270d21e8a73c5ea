/* The README's accuracy table as Markdown, from measured results read back (results.h): one row
 * per scanned implementation, in accuracy.csv's order. Generated, never retyped:
 * `gelucheck markdown DIR` prints it for a report directory. */
#ifndef GELUCHECK_MARKDOWN_H
#define GELUCHECK_MARKDOWN_H

#include <stdio.h>

#include "results.h"

void markdown_accuracy_table(FILE *f, const results_set *s);

#endif
