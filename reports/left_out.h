/* What a run leaves out, by family, and why: the rows a user might expect on the page and will
 * not find there. Families (one list, left_out.c): the frameworks not installed (their Python
 * environment is opt-in: tools/setup.sh --frameworks), the frameworks installed but not asked
 * for (--frameworks), the paths of framework rows scanned without them (ROW@PATH:
 * GELUCHECK_FRAMEWORK_PATHS), rows this CPU cannot run (the features they need and it lacks),
 * benchmark-only rows (their own thread pool), the default peers this build did not make, and
 * what a plugin says it left out. The report prints it on the console, on the page and into
 * answer.json ("left_out").
 *
 * Library code: nothing printed but to the FILE given. */
#ifndef GELUCHECK_LEFT_OUT_H
#define GELUCHECK_LEFT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gelu_impl.h"

enum { LEFT_OUT_MAX = 16 };

typedef struct {
    char family[64];   /* "frameworks not installed" */
    char rows[512];    /* the rows, comma-separated: "torch_gelu, torch_gelu_tanh, ..." */
    char why[320];     /* "PyTorch, TensorFlow, ...: their Python environment is opt-in" */
    char command[128]; /* what brings them in ("tools/setup.sh --frameworks"; "" none) */
} left_out_family;

typedef struct {
    size_t n;
    left_out_family f[LEFT_OUT_MAX];
} left_out;

/* The families left out of a run that scanned scanned[0..n) (binary32's list; the registry's
 * other formats are read from it): every family with at least one row, in left_out.c's order. */
void left_out_collect(left_out *lo, const gelu_impl *const *scanned, size_t n);

/* "left out: FAMILY: ROWS (WHY; COMMAND)" lines, one per family; "left out: nothing" when none. */
void left_out_print(FILE *f, const left_out *lo);

#endif
