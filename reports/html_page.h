/* What the report page is made of (html_report.h writes it): how the run was made, the results
 * read back and the plots of each format's section, the make_moons experiment, the baseline's
 * changes, the broken contracts, the ftz,daz section. */
#ifndef GELUCHECK_HTML_PAGE_H
#define GELUCHECK_HTML_PAGE_H

#include <stdio.h>

#include "answer.h"
#include "compare.h"
#include "framework_section.h"
#include "moons.h"
#include "plots.h"
#include "results.h"
#include "scan.h"

typedef struct {
    const char *cpu, *cpu_features, *compiler, *flags, *date, *commit, *command;
    const char *scan; /* what was scanned: "all 2^32 encodings, forward and derivative" */
    const char *bench; /* how the benchmark ran */
} report_meta;

/* The make_moons experiment as the report ran it. */
typedef struct {
    const moons_experiment *experiment; /* run */
    const moons_summary *summary;       /* one per implementation, in experiment->impls order */
    const char *run;                    /* how: "the default run", "the quick run" */
} html_moons;

/* Another format's section (bfloat16, binary16, binary64): its results read back
 * (accuracy_F.csv with bench_F.csv, results_load_format) and its plots. */
typedef struct {
    const results_set *results;
    const char *svg[PLOT_COUNT]; /* gnuplot's SVG text of the plots drawn for it; NULL: none */
    const char *plots_note;      /* why plots are missing, or NULL */
} html_format;

typedef struct {
    const results_set *results;
    const report_meta *meta;
    const char *svg[PLOT_COUNT]; /* gnuplot's SVG text; NULL when not drawn */
    const char *plots_note;      /* why plots are missing, or NULL */
    const char *const *broken;   /* one line per implementation breaking its contract */
    size_t nbroken;
    const html_moons *moons;     /* NULL: the section says the experiment was not run */
    const compare_sets *baseline; /* report --baseline: what changed since; NULL: no section */
    const char *baseline_dir;     /* the baseline's directory, NULL without --baseline */
    const char *baseline_note;    /* why the baseline could not be compared, or NULL */
    /* The other formats' sections, one per format (a table and plots each); none: the section
     * says why (formats_note). */
    const html_format *formats;
    size_t nformats;
    const char *formats_note;
    /* binary64's section: its results read back (accuracy_binary64.csv, bench_binary64.csv) and
     * plots, and what was sampled ("400,141 inputs: ..."); NULL: the section says it was not
     * run. */
    const html_format *f64;
    const char *f64_sampled;
    /* The ftz,daz section: its results read back (accuracy_ftz_daz.csv), what the scan covered
     * (fpenv_cover_describe) and the implementations left out (exec children, "" for none);
     * NULL results: the section says it was not run. Compared with `results`, IEEE's. */
    const results_set *ftz_daz;
    const char *ftz_daz_covered, *ftz_daz_left_out;
    /* The answer's matrix, every platform × need (answer.h), at the page's top; NULL: the
     * host's choices alone. */
    const answer *answer;
    /* The frameworks' paths' scans (framework_paths_scan.h); NULL or none: the section shows
     * the framework rows of `results` alone. */
    const framework_paths_out *framework_paths;
} html_report;

#endif
