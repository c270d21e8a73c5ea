/* Capped runs: the rows of peers that dispatch at run time (oneDNN, PyTorch, JAX: results_row's
 * dispatched_isa), measured again in child processes of gelucheck under the cap that makes
 * their library take each platform's code path (pick_cap_for: DNNL_MAX_CPU_ISA=AVX2 for
 * x86-64-v3, ...), so that one report answers for every platform with figures of the path
 * that platform's CPUs take, measured on this CPU. Each cap is one accuracy run (the report's
 * domain) and one benchmark run of the rows that need it, written beside the report's files as
 * accuracy_cap_<VAR>_<VALUE>.csv and bench_cap_<VAR>_<VALUE>.csv. Library code: errors as
 * text; the children's standard output is discarded, their standard error is the caller's. */
#ifndef GELUCHECK_CAPPED_H
#define GELUCHECK_CAPPED_H

#include <stdbool.h>

#include "pick.h"
#include "report_stage.h"
#include "results.h"

enum { CAPPED_MAX = 8 };

typedef struct {
    char cap[64];          /* "DNNL_MAX_CPU_ISA=AVX2" */
    char impls[512];       /* the rows that need it: "dnnl_erf,dnnl_tanh" */
    char accuracy[96], bench[96]; /* their file names in the report directory */
    results_set *results;  /* read back; NULL until measured */
    double seconds;        /* wall time of its two runs */
} capped_run;

typedef struct {
    size_t n;
    capped_run runs[CAPPED_MAX];
} capped_runs;

/* The runs s needs: every cap some scanned row of s needs for some platform, with those rows,
 * in the order first met. */
void capped_plan(const results_set *s, capped_runs *c);
/* Measures each run: `gelucheck accuracy --impl LIST --grad [--sample N --seed 1] --threads T
 * --csv ACC` and `gelucheck bench --impl LIST [--quick] --csv BENCH`, this executable
 * (/proc/self/exe) with the cap set in its environment, the files staged in st; then reads
 * them back. sample: the accuracy run's sample size, 0 for every input. 0, or −1 with err
 * naming the run that failed (the runs before it stay measured). */
int capped_measure(capped_runs *c, report_stage *st, unsigned long sample, bool quick,
                   unsigned threads, char *err, size_t errsize);
void capped_free(capped_runs *c);

/* The results for platform p: s with each row that needs a cap for p replaced by that cap's
 * measurement of it (when there is one). A copy to free; NULL when out of memory. */
results_set *capped_for_platform(const results_set *s, const capped_runs *c, pick_platform p);
/* The cap under which s_p's row of that name (from capped_for_platform) was measured for p, ""
 * when it is the main run's. */
const char *capped_measured_under(const results_set *s, const results_row *row, pick_platform p);

#endif
