/* The report's job once its binary32 scan is done (the scan itself, chunked or shared between
 * MPI ranks, is the command line's): that scan's files, the benchmark, make_moons, the plots, the
 * other formats' scans (report_formats: bfloat16 and binary16 every input, binary64 sampled),
 * their benchmarks and plots, the ftz,daz scan, the baseline's comparison, then index.html, all
 * into a staging directory (report_stage.h) that the caller publishes at once. Its files and
 * their names are report_files.h's. What it asks of its caller comes through report_job's hooks:
 * a format's benchmark, a scan's progress, and its messages (the caller prints them). */
#ifndef GELUCHECK_REPORT_JOB_H
#define GELUCHECK_REPORT_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "answer.h"
#include "gelu_format.h"
#include "gelu_impl.h"
#include "report_stage.h"
#include "scan.h"

/* --quick: the binary32 scan's sample (distinct encodings of REPORT_QUICK_SAMPLE draws, seed
 * REPORT_QUICK_SEED) and binary64's draws. */
enum { REPORT_QUICK_SAMPLE = 1000000, REPORT_QUICK_SEED = 1, REPORT_QUICK_F64_SAMPLE = 20000 };

typedef struct {
    const gelu_impl **list; /* what the scan and make_moons run (room for the registry) */
    size_t n;
} report_impls;

/* What the comparison with a baseline found (report_job_write's *baseline_status). */
enum { REPORT_BASELINE_OK = 0, REPORT_BASELINE_REGRESSED, REPORT_BASELINE_UNREADABLE };

typedef struct {
    bool quick;
    uint64_t threads;      /* 0: every online CPU */
    const char *baseline;  /* an earlier report's directory, NULL: none */
    const char *command;   /* the command as the manifest records it */
    report_impls impls;
    /* The frameworks' paths (ROW@PATH rows, not in impls): scanned on their own sample and in
     * the 16-bit formats natively (framework_paths_scan.h); n 0: none. */
    report_impls paths;
    answer *answer;        /* where the job leaves answer.json's answer (NULL: not kept) */
    /* Set when a framework path broke its contract in the paths' scans (NULL: not told): the
     * report's exit status counts it as a broken contract of the main scan's. */
    bool *paths_broken;
    /* The benchmark of format f into the file csv (as 'bench --csv CSV [--format F] [--quick]'):
     * 0, or −1 after a message. */
    int (*bench)(void *ctx, const char *csv, gelu_format_id f, bool quick);
    /* Sets cfg's progress for a scan about to run (NULL: no progress shown). */
    void (*scan_progress)(void *ctx, scan_config *cfg);
    /* make_moons's progress (moons_experiment_run's; its ctx the run's start, report_clock_wall;
     * NULL: none). */
    void (*moons_progress)(void *ctx, size_t done, size_t total);
    /* A note of progress for standard output (its text whole, line breaks included), and what
     * went wrong (one line, without "gelucheck report: " or the line break). */
    void (*say)(void *ctx, const char *text);
    void (*error)(void *ctx, const char *text);
    void *ctx;
} report_job;

/* Writes the report of the binary32 scan r (its maxima refined) into st: 0, or −1 after a
 * message (job->error). *baseline_status: REPORT_BASELINE_*. The sections are lapped on the
 * report's clock (report_clock.h). */
int report_job_write(const report_job *job, report_stage *st, const scan_result *r,
                     int *baseline_status);

#endif
