/* The accuracy CSV files written from a scan result (columns documented in docs/report-files.md):
 * accuracy: one row per implementation × reference (own target | exact GELU) × direction
 * (forward | derivative); ranges: one row per implementation × reference × direction × input
 * range with the ULP histogram; ulp_by_x: the largest ULP and absolute error per x bucket
 * (metrics.h), the rows the report's plots read; implementations: one row per implementation of
 * the run, what it is and where it comes from (impl, target, derivative yes/no, source
 * "built-in" or the plugin file / exec command, origin, batch_independent yes/no/empty), the
 * untrusted texts quoted as RFC 4180 says (a field with a comma, a quote or a line break in
 * double quotes, its quotes doubled). Nothing in them depends on time or thread count. */
#ifndef GELUCHECK_ACCURACY_CSV_H
#define GELUCHECK_ACCURACY_CSV_H

#include <stdio.h>

#include "scan.h"

void accuracy_csv_write(const scan_result *r, FILE *f);
void ranges_csv_write(const scan_result *r, FILE *f);
void ulp_by_x_csv_write(const scan_result *r, FILE *f);
void implementations_csv_write(const scan_result *r, FILE *f);
/* s as one CSV field (RFC 4180 quoting when needed). */
void csv_field(FILE *f, const char *s);

#endif
