/* The report's plots: gnuplot scripts written beside the CSV files they read (ulp_by_x.csv,
 * ulp_by_x_<format>.csv) or
 * with their data inline (Pareto, histogram, cost), run by gnuplot into SVG. Colours are the
 * Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008: told apart with every common
 * colour-vision deficiency), a series' look repeats only after 8 (dash types change then);
 * the per-x and histogram plots are small multiples, one panel per family (known_names.h) on a
 * shared y axis, with ISA builds drawn once when all their figures in accuracy.csv are equal. The scripts stay in the
 * report directory, so `cd DIR && gnuplot NAME.gp` redraws a plot. */
#ifndef GELUCHECK_PLOTS_H
#define GELUCHECK_PLOTS_H

#include <stdbool.h>
#include <stdio.h>

#include "results_row.h"

typedef enum {
    PLOT_PARETO,   /* max ULP vs exact GELU against ns/element, the Pareto front labelled */
    PLOT_ULP_BY_X, /* max ULP error vs own target per x bucket, log scale */
    PLOT_ABS_BY_X, /* max absolute error vs exact GELU per x bucket, log scale */
    PLOT_ULP_HIST, /* fraction of inputs per ULP bucket, vs own target */
    PLOT_COST,     /* ×ReLU per implementation at the smallest and largest measured sizes */
    PLOT_NOT_CR,   /* share of inputs not correctly rounded per implementation, both directions */
    PLOT_COUNT
} plot_kind;

/* Whether the report draws plot k for results of format f: binary32's plots are the page's
 * own; the other formats' sections (a results_set per format) draw the Pareto plot, the ULP
 * error by x and the share not correctly rounded (what double rounding costs per method). */
bool plot_drawn(plot_kind k, gelu_format_id f);
/* The files' stem, NAME.gp and NAME.svg: binary32's "pareto", "ulp_by_x", "abs_by_x",
 * "ulp_hist", "cost"; another format's prefixed with its name, "bfloat16_pareto". */
const char *plot_stem(plot_kind k, gelu_format_id f, char *buf, size_t size);
/* A title and a one-sentence caption for the report (the caption of format f's plot). */
const char *plot_title(plot_kind k);
const char *plot_caption(plot_kind k, gelu_format_id f);

/* The Pareto front of accuracy against cost: the GELUs (rows with a forward row against exact
 * GELU and a speed at size) that no other row beats on both max ULP against exact GELU and
 * ns/element at size (equal on both: the first listed stays). Fills idx (room for s->n) with
 * their row indices by increasing ns/element; returns their number. */
size_t plot_pareto_front(const results_set *s, const char *size, size_t *idx);
/* The size the Pareto plot uses: l2 when measured, else the largest measured; "" when none. */
const char *plot_pareto_size(const results_set *s);

/* Writes the gnuplot script of plot k for the results (of s->format: its file names, its ULPs);
 * 0 or −1. */
int plot_script_write(FILE *f, plot_kind k, const results_set *s);

/* Runs `gnuplot STEM.gp` in directory dir (stdout and stderr to STEM.log there). Returns 0 when
 * STEM.svg was made, 1 when gnuplot is not on PATH, −1 when it failed. */
int plot_run(const char *dir, const char *stem);

#endif
