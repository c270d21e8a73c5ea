/* The maxima of a scan result recomputed with MPFR at their inputs: the scan finds each
 * maximum (ULP, absolute and relative error, per implementation, reference and direction) with
 * the fast double enclosure, which gives an error only to about 10^-3 ULP, so the last printed
 * digits of a maximum could be wrong. This post-pass evaluates the implementation once more at
 * the maximum's input and takes the error against the MPFR value (reference.h), so that every
 * digit printed and every verdict of the gate comes from MPFR. A few MPFR evaluations per
 * implementation; never in the scan's loop.
 *
 * Not covered: another input whose error is within the enclosure's tolerance of the maximum
 * could be the true maximum; the scan keeps only the first input reaching the largest value
 * it saw, so such near-ties are not recomputed. */
#ifndef GELUCHECK_REFINE_H
#define GELUCHECK_REFINE_H

#include "scan.h"

/* Replaces every maximum of r by its MPFR value (idempotent). */
void scan_refine_maxima(scan_result *r);

#endif
