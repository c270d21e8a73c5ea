/* The report's scans of the frameworks' paths (ROW@PATH: the same GELU called another way,
 * peers/framework_paths.py; docs/frameworks.md, "Paths"). The report's binary32 scan covers
 * every one of the 2^32 inputs, which a path cannot afford (a size-1 path makes one framework
 * call per input): the paths and their rows are scanned again, together, on the paths' sample
 * (scan/framework_sample.h: ≥ 2^20 inputs over every binade and 319 fixed ones) into
 * accuracy_paths.csv; and, per 16-bit format of the report the row's client serves, the rows
 * and the paths started natively in it (the framework's GELU on tensors of that dtype) over all
 * 65,536 encodings into accuracy_paths_F.csv. Each path's outputs are compared by encoding with
 * its row's (framework_diffs). Library code: errors returned as text. */
#ifndef GELUCHECK_FRAMEWORK_PATHS_SCAN_H
#define GELUCHECK_FRAMEWORK_PATHS_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "answer.h"
#include "framework_section.h"
#include "gelu_impl.h"
#include "report_stage.h"
#include "results_row.h"

/* The paths' scans' files: binary32's, and a 16-bit format F's accuracy_paths_F.csv. */
#define FRAMEWORK_PATHS_FILE "accuracy_paths.csv"

/* Whether m is a framework row's path: "ROW@PATH" with ROW a framework row. */
bool framework_is_path(const gelu_impl *m);

/* Moves the paths of list[0..*n) into paths (room *n), keeping the order of the rest; the
 * number moved. */
size_t framework_paths_split(const gelu_impl **list, size_t *n, const gelu_impl **paths);

/* Runs the scans of paths[0..n) (binary32 rows' paths; their rows joined) with `threads`
 * threads, their files staged in st, read back into out->sections (binary32 first). 0 (nothing
 * done when n is 0); −1 with err. A 16-bit format whose paths cannot start is left out, said in
 * out->note. */
int framework_paths_scan(const gelu_impl *const *paths, size_t n, unsigned threads,
                         report_stage *st, framework_paths_out *out, char *err, size_t errsize);

void framework_paths_out_free(framework_paths_out *out);
/* Whether a row or path of any of out's scans broke its contract. */
bool framework_paths_broken(const framework_paths_out *out);

/* The rows of path (a report's accuracy_paths.csv) named ROW@PATH whose ROW is in s, appended to
 * s, so that pick judges a row by its worst path as the report did. 0 (nothing when the file is
 * absent); −1 with err when it cannot be read, −2 when its content is bad. */
int framework_paths_merge(results_set *s, const char *path, char *err, size_t errsize);

/* What the answer says of the paths (answer.h, answer_framework_paths): per row with paths in
 * out, how many, which differ from the row — other figures (contract verdict, maxima of the
 * errors, monotonicity) in any scan, or outputs of other encodings where compared
 * (framework_diffs) —, and the worst path of binary32's scan.
 * Nothing (framework_paths_known false) when out has no scan. */
void framework_paths_answer(const framework_paths_out *out, answer *a);

#endif
