/* The accuracy CSV files written from a scan result (columns documented in the README):
 * accuracy: one row per implementation × reference (own target | exact GELU) × direction
 * (forward | derivative); ranges: one row per implementation × reference × direction × input
 * range with the ULP histogram; ulp_by_x: the largest ULP and absolute error per x bucket
 * (metrics.h), the rows the report's plots read. Nothing in them depends on time or thread count. */
#ifndef GELUCHECK_ACCURACY_CSV_H
#define GELUCHECK_ACCURACY_CSV_H

#include <stdio.h>

#include "scan.h"

void accuracy_csv_write(const scan_result *r, FILE *f);
void ranges_csv_write(const scan_result *r, FILE *f);
void ulp_by_x_csv_write(const scan_result *r, FILE *f);

#endif
