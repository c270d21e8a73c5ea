/* The report's plots: gnuplot scripts written beside the CSV files they read (ulp_by_x.csv) or
 * with their data inline (Pareto, histogram, cost), run by gnuplot into SVG. Colours are the
 * Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008: told apart with every common
 * colour-vision deficiency), a series' look repeats only after 8 (dash types change then);
 * the per-x and histogram plots are small multiples, one panel per family (known_names.h) on a
 * shared y axis, with ISA builds drawn once when all their figures in accuracy.csv are equal. The scripts stay in the
 * report directory, so `cd DIR && gnuplot NAME.gp` redraws a plot. */
#ifndef GELUCHECK_PLOTS_H
#define GELUCHECK_PLOTS_H

#include <stdio.h>

#include "results.h"

typedef enum {
    PLOT_PARETO,   /* max ULP vs exact GELU against ns/element, the Pareto front labelled */
    PLOT_ULP_BY_X, /* max ULP error vs own target per x bucket, log scale */
    PLOT_ABS_BY_X, /* max absolute error vs exact GELU per x bucket, log scale */
    PLOT_ULP_HIST, /* fraction of inputs per ULP bucket, vs own target */
    PLOT_COST,     /* ×ReLU per implementation at the smallest and largest measured sizes */
    PLOT_COUNT
} plot_kind;

/* "pareto", "ulp_by_x", "abs_by_x", "ulp_hist", "cost": the files are NAME.gp and NAME.svg. */
const char *plot_name(plot_kind k);
/* A title and a one-sentence caption for the report. */
const char *plot_title(plot_kind k);
const char *plot_caption(plot_kind k);

/* The Pareto front of accuracy against cost: the GELUs (rows with a forward row against exact
 * GELU and a speed at size) that no other row beats on both max ULP against exact GELU and
 * ns/element at size (equal on both: the first listed stays). Fills idx (room for s->n) with
 * their row indices by increasing ns/element; returns their number. */
size_t plot_pareto_front(const results_set *s, const char *size, size_t *idx);
/* The size the Pareto plot uses: l2 when measured, else the largest measured; "" when none. */
const char *plot_pareto_size(const results_set *s);

/* Writes the gnuplot script of plot k for the results; 0 or −1. */
int plot_script_write(FILE *f, plot_kind k, const results_set *s);

/* Runs `gnuplot NAME.gp` in directory dir (stdout and stderr to NAME.log there). Returns 0 when
 * NAME.svg was made, 1 when gnuplot is not on PATH, −1 when it failed. */
int plot_run(const char *dir, plot_kind k);

#endif
