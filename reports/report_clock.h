/* Where the report's time went: one clock for the job, its sections lapped in order (wall and
 * this process's CPU seconds each: an exec child's or oneDNN's own threads' time counts only
 * where it runs in-process), printed as a table once the report is written. One job per
 * process: the clock is a file-scope record. */
#ifndef GELUCHECK_REPORT_CLOCK_H
#define GELUCHECK_REPORT_CLOCK_H

#include <stdio.h>

/* Seconds of CLOCK_MONOTONIC, and of this process's CPU. */
double report_clock_wall(void);
double report_clock_cpu(void);

void report_clock_start(void);
/* Ends the section running since the last lap (or the start) and names it (fmt with arg). */
void report_clock_lap(const char *fmt, const char *arg);
/* The table into f. threads: the scan's (0: every online CPU), by which the binary32 scan's
 * kernels' thread seconds (kernel_seconds; negative: not timed) are divided into the wall they
 * would take alone, all threads busy. */
void report_clock_print(FILE *f, unsigned threads, double kernel_seconds);

#endif
