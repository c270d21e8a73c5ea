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

#include "html_page.h"

/* Writes the page; 0, or −1 when the stream fails. */
int html_report_write(FILE *f, const html_report *h);

#endif
