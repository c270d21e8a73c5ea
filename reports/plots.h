/* The report's plots: gnuplot scripts written beside the CSV files they read (ulp_by_x.csv) or
 * with their data inline (histogram, cost), run by gnuplot into SVG. The scripts stay in the
 * report directory, so `cd DIR && gnuplot NAME.gp` redraws a plot. */
#ifndef GELUCHECK_PLOTS_H
#define GELUCHECK_PLOTS_H

#include <stdio.h>

#include "results.h"

typedef enum {
    PLOT_ULP_BY_X, /* max ULP error vs own target per x bucket, log scale */
    PLOT_ABS_BY_X, /* max absolute error vs exact GELU per x bucket, log scale */
    PLOT_ULP_HIST, /* fraction of inputs per ULP bucket, vs own target */
    PLOT_COST,     /* ×ReLU per implementation at the smallest and largest measured sizes */
    PLOT_COUNT
} plot_kind;

/* "ulp_by_x", "abs_by_x", "ulp_hist", "cost": the files are NAME.gp and NAME.svg. */
const char *plot_name(plot_kind k);
/* A title and a one-sentence caption for the report. */
const char *plot_title(plot_kind k);
const char *plot_caption(plot_kind k);

/* Writes the gnuplot script of plot k for the results; 0 or −1. */
int plot_script_write(FILE *f, plot_kind k, const results_set *s);

/* Runs `gnuplot NAME.gp` in directory dir (stdout and stderr to NAME.log there). Returns 0 when
 * NAME.svg was made, 1 when gnuplot is not on PATH, −1 when it failed. */
int plot_run(const char *dir, plot_kind k);

#endif
