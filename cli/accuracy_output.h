/* What `accuracy` and `merge` print and write from a scan result: the table on stdout, the CSV
 * files (atomically), and the gate's exit status. */
#ifndef GELUCHECK_ACCURACY_OUTPUT_H
#define GELUCHECK_ACCURACY_OUTPUT_H

#include <stdbool.h>
#include <time.h>

#include "scan.h"

typedef struct {
    const char *csv, *ranges_csv; /* NULL: not written */
    const char *partial;          /* accuracy --partial (probed only: cmd_accuracy writes it) */
} accuracy_files;

/* Prints the table and the gate's findings, writes the files; returns EXIT_OK, EXIT_CHECK_FAILED
 * when a contract is broken, or EXIT_USAGE... never: file errors are reported as
 * EXIT_CHECK_FAILED after a message naming the file. */
int accuracy_output(const char *cmd, const scan_result *r, const accuracy_files *files);

/* Checks every output path before a long run (atomic_file_probe) so that a bad path fails at
 * once. Returns 0 or prints a message and returns -1. */
int accuracy_files_probe(const char *cmd, const accuracy_files *files);

/* The implementations a scan runs by default into out (room for gelu_impl_count()): every one this
 * CPU runs except those with their own thread pool (a note on stderr names them). */
size_t accuracy_default_impls(const char *cmd, const gelu_impl **out);

/* The --profile table on stdout: thread seconds per implementation (kernels and metrics, per
 * direction), per reference (fast path and MPFR fallbacks), and the shares of the total. */
void print_scan_profile(const scan_result *r, const scan_profile *p, double wall, unsigned threads);

/* The scan's progress on stderr: on a terminal a bar with elapsed time and ETA, redrawn; else
 * (a CI log, a file) a plain line once a minute, none for runs under a minute. */
typedef struct {
    struct timespec start; /* CLOCK_MONOTONIC: the run's start, also its wall time */
    bool log_lines;        /* stderr is not a terminal */
    double next_line;      /* seconds from start of the next plain line */
} scan_progress_state;

void scan_progress_start(scan_progress_state *p);
/* A scan_progress_fn; ctx is a scan_progress_state started by scan_progress_start. */
void accuracy_progress(uint64_t done, uint64_t total, void *ctx);

#endif
