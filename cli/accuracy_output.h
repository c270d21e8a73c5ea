/* What `accuracy` and `merge` print and write from a scan result: the table on stdout, the CSV
 * files (atomically), and the gate's exit status. */
#ifndef GELUCHECK_ACCURACY_OUTPUT_H
#define GELUCHECK_ACCURACY_OUTPUT_H

#include "scan.h"

typedef struct {
    const char *csv, *ranges_csv; /* NULL: not written */
} accuracy_files;

/* Prints the table and the gate's findings, writes the files; returns EXIT_OK, EXIT_CHECK_FAILED
 * when a contract is broken, or EXIT_USAGE... never: file errors are reported as
 * EXIT_CHECK_FAILED after a message naming the file. */
int accuracy_output(const char *cmd, const scan_result *r, const accuracy_files *files);

/* Opens every output file before a long run so that a bad path fails at once; the files are
 * then discarded. Returns 0 or prints a message and returns -1. */
int accuracy_files_probe(const char *cmd, const accuracy_files *files);

#endif
