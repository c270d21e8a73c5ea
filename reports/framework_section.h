/* The report's framework section: per framework with rows in the run, one table of its rows and
 * their paths (ROW@PATH: the same GELU called another way, peers/framework_paths.py) × their
 * verdicts, each path's outputs compared bit for bit with its row's (the batch path: the scan's
 * requests as one tensor) on a sample, FRAMEWORK_DIFF_SAMPLE inputs drawn over all encodings.
 *
 * Library code: nothing printed but to the FILE given. */
#ifndef GELUCHECK_FRAMEWORK_SECTION_H
#define GELUCHECK_FRAMEWORK_SECTION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gelu_impl.h"
#include "results_row.h"

/* One request's worth of inputs (the exec batch): a size-1 path of TensorFlow, the slowest,
 * takes about half a minute per direction for it. */
enum { FRAMEWORK_DIFF_SAMPLE = 1 << 16, FRAMEWORK_DIFF_SEED = 1, FRAMEWORK_PATHS_MAX = 64 };

typedef struct {
    char path[RESULTS_NAME], row[RESULTS_NAME]; /* "torch_gelu@size1", "torch_gelu" */
    long differ[2]; /* [direction] outputs whose encoding is not the row's; −1: not compared */
} framework_path_diff;

typedef struct {
    size_t n;
    uint64_t inputs; /* the sample's inputs */
    framework_path_diff d[FRAMEWORK_PATHS_MAX];
} framework_diffs;

/* Every path among impls[0..n) whose row is registered, against that row, on the sample. 0, or
 * −1 when out of memory. The kernels run here: exec children answer (their failure is
 * exec_impls_failure's). */
int framework_diffs_measure(framework_diffs *out, const gelu_impl *const *impls, size_t n);

/* The section: nothing when s has no framework row. diffs may be NULL (not measured). */
void framework_section_html(FILE *f, const results_set *s, const framework_diffs *diffs);

#endif
