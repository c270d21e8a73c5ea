/* Where the report's time went (see report_clock.h). */
#include "report_clock.h"

#include <time.h>
#include <unistd.h>

double report_clock_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double report_clock_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Where the job's time went: its sections in order, wall and CPU seconds each (this process's
 * CPU: an exec child's or oneDNN's own threads' time counts only where it runs in-process),
 * printed once the report is written. One job per process: a file-scope record. */
enum { CLOCK_SECTIONS = 24 };
static struct {
    size_t n;
    double wall0, cpu0, wall_start, cpu_start;
    struct {
        char name[48];
        double wall, cpu;
    } lap[CLOCK_SECTIONS];
} job_clock;

void report_clock_start(void)
{
    job_clock.n = 0;
    job_clock.wall0 = job_clock.wall_start = report_clock_wall();
    job_clock.cpu0 = job_clock.cpu_start = report_clock_cpu();
}

/* Ends the section running since the last lap (or the start) and names it. */
void report_clock_lap(const char *fmt, const char *arg)
{
    double w = report_clock_wall(), c = report_clock_cpu();
    if (job_clock.n < CLOCK_SECTIONS) {
        snprintf(job_clock.lap[job_clock.n].name, sizeof job_clock.lap[0].name, fmt, arg);
        job_clock.lap[job_clock.n].wall = w - job_clock.wall0;
        job_clock.lap[job_clock.n].cpu = c - job_clock.cpu0;
        job_clock.n++;
    }
    job_clock.wall0 = w;
    job_clock.cpu0 = c;
}

/* threads: the scan's (0: every online CPU), by which the kernels' thread seconds are divided
 * into the wall they would take alone, all threads busy. */
void report_clock_print(FILE *f, unsigned threads, double kernel_seconds)
{
    fprintf(f, "\nwhere the time went:\n%-40s %10s %10s\n", "section", "wall s", "CPU s");
    for (size_t i = 0; i < job_clock.n; i++)
        fprintf(f, "%-40s %10.1f %10.1f\n", job_clock.lap[i].name, job_clock.lap[i].wall,
               job_clock.lap[i].cpu);
    double total = report_clock_wall() - job_clock.wall_start;
    fprintf(f, "%-40s %10.1f %10.1f\n", "total", total, report_clock_cpu() - job_clock.cpu_start);
    if (kernel_seconds < 0) {
        fprintf(f, "(the binary32 scan's kernels alone: not timed with --checkpoint or mpirun)\n");
        return;
    }
    if (threads == 0) threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads == 0) threads = 1;
    double kernels = kernel_seconds / threads;
    fprintf(f, "the binary32 scan's kernels alone: %.1f thread s, %.1f s of wall on %u thread%s: the "
           "scan %.2fx that, the whole job %.2fx\n",
           kernel_seconds, kernels, threads, threads > 1 ? "s" : "",
           kernels > 0 ? job_clock.lap[0].wall / kernels : 0, kernels > 0 ? total / kernels : 0);
}
