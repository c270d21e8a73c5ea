/* index.html: one self-contained page (inline CSS, SVG and a small sorting script; no external
 * reference, so it works offline; readable without script), written as well-formed XHTML-style
 * HTML5 so that an XML parser accepts it. First the answer: per common need (pick.h) the fastest
 * implementation meeting it on this host, ×ReLU, ×oneDNN, the runner-up, the broken contracts,
 * beside the Pareto plot; then what changed since a baseline (compare.h), the summary table (one
 * row per implementation, from results.h: measurements only, sortable), the contracts, the
 * plots, the make_moons experiment (experiments/moons.h), how to read it, how it was made, the
 * files. */
#ifndef GELUCHECK_HTML_REPORT_H
#define GELUCHECK_HTML_REPORT_H

#include <stdio.h>

#include "compare.h"
#include "moons.h"
#include "plots.h"
#include "results.h"
#include "scan.h"

/* s escaped for HTML text and attribute values (NULL: nothing). */
void html_text(FILE *f, const char *s);
/* A numeric cell's opening tag; data-v holds the number in full for sorting. */
void html_open_num(FILE *f, double v);

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
} html_report;

/* Writes the page; 0, or −1 when the stream fails. */
int html_report_write(FILE *f, const html_report *h);

/* Copies gnuplot's SVG into an HTML page: from the <svg> element on, without namespace
 * declarations (not needed inline in HTML5) and with xlink:href as plain href. */
void html_inline_svg(FILE *f, const char *svg);

#endif
