/* Capped runs of the dispatching peers' rows (see capped.h). */
#include "capped.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static capped_run *run_of(capped_runs *c, const char *cap)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->runs[i].cap, cap) == 0) return &c->runs[i];
    if (c->n == CAPPED_MAX) return NULL;
    capped_run *r = &c->runs[c->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->cap, sizeof r->cap, "%s", cap);
    char tag[64]; /* the cap as a file name: DNNL_MAX_CPU_ISA=AVX2 -> DNNL_MAX_CPU_ISA_AVX2 */
    size_t k = 0;
    for (const char *p = cap; *p && k + 1 < sizeof tag; p++)
        tag[k++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ? *p : '_';
    tag[k] = '\0';
    snprintf(r->accuracy, sizeof r->accuracy, "accuracy_cap_%s.csv", tag);
    snprintf(r->bench, sizeof r->bench, "bench_cap_%s.csv", tag);
    return r;
}

void capped_plan(const results_set *s, capped_runs *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < s->n; i++) {
        const results_row *r = &s->rows[i];
        if (!r->scanned) continue;
        for (int p = 0; p < PICK_PLATFORM_COUNT; p++) {
            const char *cap = pick_cap_for(r, (pick_platform)p);
            capped_run *run = cap ? run_of(c, cap) : NULL;
            if (!run) continue;
            char item[RESULTS_NAME + 2];
            snprintf(item, sizeof item, ",%s,", r->name);
            char list[sizeof run->impls + 2];
            snprintf(list, sizeof list, ",%s,", run->impls);
            if (strstr(list, item)) continue;
            size_t used = strlen(run->impls);
            snprintf(run->impls + used, sizeof run->impls - used, "%s%s", used ? "," : "", r->name);
        }
    }
}

/* Runs this executable with argv and the cap in its environment, its standard output
 * discarded, the frameworks' paths not selected (GELUCHECK_FRAMEWORK_PATHS unset: a capped run
 * measures its rows' batch paths, and a path that cannot start under the cap — torch.compile's
 * C++ under ATEN_CPU_CAPABILITY=default — would fail it). Its exit status, or −1 when it could
 * not be started or was killed. */
static int run_child(const char *cap, char *const argv[])
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO);
        char var[64];
        snprintf(var, sizeof var, "%s", cap);
        char *eq = strchr(var, '=');
        if (eq) {
            *eq = '\0';
            setenv(var, eq + 1, 1);
        }
        unsetenv("GELUCHECK_FRAMEWORK_PATHS");
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int capped_measure(capped_runs *c, report_stage *st, unsigned long sample, bool quick,
                   unsigned threads, char *err, size_t errsize)
{
    for (size_t i = 0; i < c->n; i++) {
        capped_run *r = &c->runs[i];
        char acc[2200], bench[2200], n[32], t[32];
        /* in the staging directory, registered for publication once both are written */
        snprintf(acc, sizeof acc, "%s/%s", st->stage, r->accuracy);
        snprintf(bench, sizeof bench, "%s/%s", st->stage, r->bench);
        snprintf(n, sizeof n, "%lu", sample);
        snprintf(t, sizeof t, "%u", threads);
        char *scan[16] = {"gelucheck", "accuracy", "--impl", r->impls, "--grad", "--csv", acc};
        int k = 7;
        if (sample) scan[k++] = "--sample", scan[k++] = n, scan[k++] = "--seed", scan[k++] = "1";
        if (threads) scan[k++] = "--threads", scan[k++] = t;
        scan[k] = NULL;
        char *time_it[8] = {"gelucheck", "bench", "--impl", r->impls, "--csv", bench,
                            quick ? "--quick" : NULL, NULL};
        double t0 = now();
        int a = run_child(r->cap, scan);
        int b = a == 0 || a == 1 ? run_child(r->cap, time_it) : -1; /* 1: a contract broken */
        r->seconds = now() - t0;
        if ((a != 0 && a != 1) || b != 0) {
            snprintf(err, errsize, "the run under %s of %s failed (%s, status %d)", r->cap,
                     r->impls, a != 0 && a != 1 ? "accuracy" : "bench", a != 0 && a != 1 ? a : b);
            return -1;
        }
        char why[512];
        if (!report_stage_path(st, r->accuracy, acc, sizeof acc) ||
            !report_stage_path(st, r->bench, bench, sizeof bench)) {
            snprintf(err, errsize, "%s: too many report files", r->cap);
            return -1;
        }
        if (!(r->results = malloc(sizeof *r->results)) ||
            results_load_checked(r->results, acc, bench, true, why, sizeof why) != 0) {
            snprintf(err, errsize, "the run under %s: %s", r->cap, r->results ? why : "out of memory");
            free(r->results);
            r->results = NULL;
            return -1;
        }
    }
    return 0;
}

void capped_free(capped_runs *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->runs[i].results);
        c->runs[i].results = NULL;
    }
}

results_set *capped_for_platform(const results_set *s, const capped_runs *c, pick_platform p)
{
    results_set *out = malloc(sizeof *out);
    if (!out) return NULL;
    *out = *s;
    for (size_t i = 0; c && i < out->n; i++) {
        const char *cap = pick_cap_for(&s->rows[i], p);
        for (size_t k = 0; cap && k < c->n; k++) {
            const results_row *m = c->runs[k].results && strcmp(c->runs[k].cap, cap) == 0
                                       ? results_find(c->runs[k].results, s->rows[i].name)
                                       : NULL;
            if (m && m->scanned) out->rows[i] = *m;
        }
    }
    return out;
}

const char *capped_measured_under(const results_set *s, const results_row *row, pick_platform p)
{
    const results_row *base = results_find(s, row->name);
    const char *cap = base ? pick_cap_for(base, p) : NULL;
    return cap && strcmp(base->dispatched_isa, row->dispatched_isa) != 0 ? cap : "";
}
