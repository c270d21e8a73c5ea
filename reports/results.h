/* Measured results read back from a report directory's CSV files (accuracy.csv from the scan,
 * bench.csv from the benchmark), one summary row per implementation: what the HTML summary table
 * and the picker read, so that both judge by measurements, never by an implementation's claims.
 *
 * Columns are found by their header names (docs/report-files.md: "Report files"); unknown columns are ignored,
 * a missing required one is an error. Only the first distribution of bench.csv is kept per size.
 * Library code: errors are returned as text, nothing is printed. */
#ifndef GELUCHECK_RESULTS_H
#define GELUCHECK_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results_row.h"

/* Reads the files (bench_path may be NULL), checking every row and value: known columns, the
 * field count of every line, numbers finite where they must be (an error "inf" only where a
 * maximum can be), counts, references, directions, distributions, sizes the benchmark names,
 * one row per key, histograms that sum to the inputs. With known_only, every implementation
 * (and the baseline) must be one of this build's, with its target and CPU features.
 * Returns 0; −1 when a file cannot be read, −2 when its content is bad; with a message naming
 * the file (the line and the column) in err. */
int results_load_checked(results_set *s, const char *accuracy_path, const char *bench_path,
                         bool known_only, char *err, size_t errsize);
/* results_load_checked for the rows of one format (a 16-bit scan's accuracy_<format>.csv, a
 * bench --format run's CSV). Column `format` (binary32 where a file lacks it): every accuracy
 * row must be of that format; bench rows of other formats are checked for a known format name
 * and skipped (s->nsizes stays 0 when none is of it). With known_only, a 16-bit row's name is
 * the format's native implementation of that name or a binary32 one (run widened). */
int results_load_format(results_set *s, const char *accuracy_path, const char *bench_path,
                        gelu_format_id format, bool known_only, char *err, size_t errsize);
/* results_load_checked without known_only (fixtures of made-up implementations). */
int results_load(results_set *s, const char *accuracy_path, const char *bench_path, char *err,
                 size_t errsize);

/* "avx2+fma" or "avx2,fma" → CPU_FEATURE_* bits; "none" or "" → 0. Returns −1 for an unknown
 * feature name. */
int results_parse_features(const char *text, unsigned *bits);

#endif
