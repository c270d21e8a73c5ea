/* The report's framework section: per framework with rows in the run, one table of its rows and
 * their paths (ROW@PATH: the same GELU called another way, peers/framework_paths.py) × their
 * verdicts, each path's outputs compared bit for bit with its row's (the batch path: the scan's
 * requests as one tensor) at every input of the paths' scan (framework_paths_scan.h).
 *
 * Library code: nothing printed but to the FILE given. */
#ifndef GELUCHECK_FRAMEWORK_SECTION_H
#define GELUCHECK_FRAMEWORK_SECTION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gelu_impl.h"
#include "results_row.h"

enum { FRAMEWORK_PATHS_MAX = 1024 };

typedef struct {
    char path[RESULTS_NAME], row[RESULTS_NAME]; /* "torch_gelu@size1", "torch_gelu" */
    long differ[2]; /* [direction] outputs whose encoding is not the row's; −1: not compared */
} framework_path_diff;

typedef struct {
    size_t n;
    uint64_t inputs; /* the scan's inputs, every one compared */
    framework_path_diff d[FRAMEWORK_PATHS_MAX];
} framework_diffs;

/* One scan of the frameworks' paths (framework_paths_scan.h): its format, its rows and paths read
 * back, their outputs against their rows', what it covered. */
enum { FRAMEWORK_SECTIONS_MAX = 4 };
typedef struct {
    gelu_format_id format;
    results_set *results;
    framework_diffs diffs;
    char covered[600];
} framework_paths_section;

typedef struct {
    framework_paths_section s[FRAMEWORK_SECTIONS_MAX]; /* binary32's first */
    size_t n;
    char note[600]; /* what was left out of them ("" when nothing) */
} framework_paths_out;

/* The section: per framework a table of its rows and paths for each of paths' scans; without
 * any (paths NULL or empty), the framework rows of s, the page's binary32 results (their batch
 * paths). Nothing when neither has a framework row. */
void framework_section_html(FILE *f, const results_set *s, const framework_paths_out *paths);

#endif
