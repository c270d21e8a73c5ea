/* HTML pieces of the report page: escaped text, a numeric cell that sorts by its full value,
 * gnuplot's SVG inlined as a figure, the label of an implementation's CPU needs. Used by the
 * page's files (html_report.h) and by the columns' summary cells (accuracy_columns.h). */
#ifndef GELUCHECK_HTML_TEXT_H
#define GELUCHECK_HTML_TEXT_H

#include <stdio.h>

#include "plots.h"

/* s escaped for HTML text and attribute values (NULL: nothing). */
void html_text(FILE *f, const char *s);
/* A numeric cell's opening tag; data-v holds the number in full for sorting. */
void html_open_num(FILE *f, double v);
/* Copies gnuplot's SVG into an HTML page: from the <svg> element on, without namespace
 * declarations (not needed inline in HTML5) and with xlink:href as plain href. */
void html_inline_svg(FILE *f, const char *svg);
/* A plot of format `format` as a figure: its title, its SVG inline, its caption and files. */
void html_plot_figure(FILE *f, plot_kind k, gelu_format_id format, const char *svg);
/* "AVX-512", "AVX2" or "portable": the widest ISA of CPU_FEATURE_* bits. */
const char *html_isa_label(unsigned features);

#endif
