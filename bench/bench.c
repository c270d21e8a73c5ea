/* The benchmark harness (see bench.h). */
#include "bench.h"
#include "gelu_f64.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

static const char *const dist_names[BENCH_DIST_COUNT] = {"normal", "uniform"};
static const char *const dist_descriptions[BENCH_DIST_COUNT] = {"normal(0,1)", "uniform[-10,10]"};

const char *bench_dist_name(bench_dist d) { return d < BENCH_DIST_COUNT ? dist_names[d] : "?"; }

const char *bench_dist_describe(bench_dist d)
{
    return d < BENCH_DIST_COUNT ? dist_descriptions[d] : "?";
}

bench_dist bench_dist_from_name(const char *name)
{
    for (int d = 0; d < BENCH_DIST_COUNT; d++)
        if (strcmp(dist_names[d], name) == 0) return (bench_dist)d;
    return BENCH_DIST_COUNT;
}

void bench_fill_inputs(bench_dist d, uint64_t seed, float *x, size_t n)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)seed);
    for (size_t i = 0; i < n; i++)
        x[i] = d == BENCH_DIST_NORMAL ? (float)gsl_ran_gaussian_ziggurat(r, 1.0)
                                      : (float)gsl_ran_flat(r, -10.0, 10.0);
    gsl_rng_free(r);
}

/* binary64's build of method for isa (its list has no look-up by build: few rows). */
static const gelu_impl *build_in(gelu_format_id f, const char *method, gelu_isa isa)
{
    for (size_t i = 0; i < gelu_impl_count_in(f); i++) {
        const gelu_impl *m = gelu_impl_at_in(f, i);
        if (m->method && strcmp(m->method, method) == 0 && m->isa == isa) return m;
    }
    return NULL;
}

const gelu_impl *bench_baseline_of(gelu_format_id f)
{
    for (int isa = GELU_ISA_COUNT - 1; isa >= 0; isa--) { /* the ISA list goes narrow to wide */
        /* a sampled format's kernels are its own (binary64's ReLU); the others run binary32's */
        const gelu_impl *m = gelu_format_sampled(gelu_format_of(f)) ? build_in(f, "relu", (gelu_isa)isa)
                                                                      : gelu_impl_build("relu", (gelu_isa)isa);
        if (m && gelu_impl_available(m)) return m;
    }
    return NULL;
}

const gelu_impl *bench_default_baseline(void) { return bench_baseline_of(GELU_FORMAT_BINARY32); }

const char *bench_cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return buf;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon) continue;
        colon += 1 + (colon[1] == ' ');
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(buf, size, "%s", colon);
        break;
    }
    fclose(f);
    return buf;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The workers of a multi-threaded measurement: thread t runs `calls` calls on its slice
 * [t·n/T, (t+1)·n/T) between the start and done barriers. Thread 0 is the caller. */
typedef struct {
    pthread_barrier_t start, done;
    unsigned threads;
    const float *x;
    float *y;
    size_t n, calls;   /* n: elements per call */
    /* A windowed run (bench_config.windows > 1): the buffers hold `windows` times n elements and
     * call number k of the run (counted from its first warm-up call) works on window k mod
     * windows; `first` is the number of the sample's first call. */
    size_t windows, first;
    bool after_threads; /* the last sample's kernel leaves threads running (time_sample) */
    gelu_kernel kernel;
    /* a 16-bit run: encodings in and out; a widened implementation's binary32 scratch, per
     * thread t the BENCH_WIDEN_TILE floats at wx + t * BENCH_WIDEN_TILE (and wy's) */
    const uint16_t *x16;
    uint16_t *y16;
    float *wx, *wy;
    const gelu_impl *impl16;
    /* a binary64 run: doubles in and out */
    const double *x64;
    double *y64;
    gelu_kernel_f64 kernel64;
    gelu_fpenv fpenv;
    bool quit;
} pool;

typedef struct {
    pool *p;
    unsigned t;
} worker_arg;

/* The offset of call c of the current sample's window in the buffers. */
static size_t window_of(const pool *p, size_t c)
{
    return p->windows > 1 ? (p->first + c) % p->windows * p->n : 0;
}

static void run_slice(const pool *p, unsigned t)
{
    size_t lo = p->n * t / p->threads, hi = p->n * (t + 1) / p->threads;
    unsigned saved = p->fpenv ? gelu_fpenv_enter(p->fpenv) : 0; /* two instructions a sample */
    for (size_t c = 0; c < p->calls; c++) {
        size_t o = window_of(p, c) + lo;
        if (p->x16) /* a widened one converts tile by tile in the thread's scratch (bench.h) */
            gelu_impl_run_u16_tiled(p->impl16, false, p->x16 + o, p->y16 + o, hi - lo,
                                    p->wx + t * BENCH_WIDEN_TILE, p->wy + t * BENCH_WIDEN_TILE,
                                    BENCH_WIDEN_TILE);
        else if (p->x64)
            p->kernel64(p->x64 + o, p->y64 + o, hi - lo);
        else
            p->kernel(p->x + o, p->y + o, hi - lo);
    }
    if (p->fpenv) gelu_fpenv_leave(saved);
}

static void *worker(void *arg)
{
    worker_arg *w = arg;
    for (;;) {
        pthread_barrier_wait(&w->p->start);
        if (w->p->quit) return NULL;
        run_slice(w->p, w->t);
        pthread_barrier_wait(&w->p->done);
    }
}

/* Untimed pause before each sample. A short sleep starts the sample on a fresh time slice (a
 * task waking from sleep is seldom preempted at once), so that its 0.5 ms mostly escape
 * preemption on a shared machine. After a kernel with threads of its own it is longer: a
 * library's worker threads (oneDNN's OpenMP team; a framework's intra-op pool in an exec child)
 * keep spinning for a while after their call, and would otherwise slow the next measurement
 * (seen: the baseline after dnnl_*_omp ran 40% slower at DRAM size). 2 ms before every one of
 * a run's thousands of samples would be half the wall time of a --quick report's small-format
 * benchmarks. */
static const struct timespec settle = {0, 2000000}, fresh_slice = {0, 100000}; /* 2, 0.1 ms */

static bool leaves_threads_running(const gelu_impl *impl)
{
    return impl->own_threads || impl->own_time_ns != NULL;
}

/* Seconds for `calls` calls of the implementation's forward over the whole buffer, all threads
 * together: by this process's clock, or for a kernel timed where it runs (own_time_ns) by the
 * time it reports, summed over the threads' calls and divided by the threads. */
static double time_sample(pool *p, const gelu_impl *impl, size_t calls)
{
    nanosleep(p->after_threads ? &settle : &fresh_slice, NULL);
    p->after_threads = leaves_threads_running(impl);
    p->kernel = impl->forward;
    p->kernel64 = impl->forward_f64;
    p->impl16 = impl;
    p->calls = calls;
    uint64_t own0 = impl->own_time_ns ? impl->own_time_ns() : 0;
    double t0 = now_seconds();
    if (p->threads > 1) pthread_barrier_wait(&p->start);
    run_slice(p, 0);
    if (p->threads > 1) pthread_barrier_wait(&p->done);
    double t = now_seconds() - t0;
    if (impl->own_time_ns) t = 1e-9 * (double)(impl->own_time_ns() - own0) / (double)p->threads;
    p->first += calls;
    return t;
}

/* Warm-up (untimed call: caches, page faults, lazily created state) and the number of calls
 * that makes a sample last at least `seconds`. */
static size_t calibrate(pool *p, const gelu_impl *kernel, double seconds)
{
    /* The warm-up is not a measurement: it may include lazy set-up (oneDNN compiles its kernel
     * on the first call of a shape). At DRAM sizes (BENCH_BIG_N elements and more) a warm-up of
     * twice the sample length settles it: one call, as a second trial call would find — that
     * call cost a seventh of the DRAM size's time (5 rounds), the bulk of a default run's. */
    double warm = time_sample(p, kernel, 1);
    if (p->n * p->windows >= BENCH_BIG_N && warm >= 2 * seconds) return 1;
    size_t calls = 1;
    double t;
    while ((t = time_sample(p, kernel, calls)) < seconds && calls < ((size_t)1 << 40)) {
        double grow = t > 0 ? 1.2 * seconds / t : 16.0;
        calls = (size_t)((double)calls * (grow < 2.0 ? 2.0 : grow > 1e6 ? 1e6 : grow));
    }
    return calls;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile (0 ≤ q ≤ 1) of v[0..n), by linear interpolation; sorts v. */
static double quantile(double *v, size_t n, double q)
{
    qsort(v, n, sizeof *v, compare_double);
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    return i + 1 < n ? v[i] + (pos - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

static int start_pool(pool *p, pthread_t *tids, worker_arg *args)
{
    if (p->threads == 1) return 0;
    pthread_barrier_init(&p->start, NULL, p->threads);
    pthread_barrier_init(&p->done, NULL, p->threads);
    for (unsigned t = 1; t < p->threads; t++) {
        args[t] = (worker_arg){p, t};
        if (pthread_create(&tids[t], NULL, worker, &args[t]) != 0) {
            /* The workers already started wait at a barrier that needs all `threads`: they can
             * only be left blocked (the caller reports the error and the process ends). */
            p->threads = 1;
            return -1;
        }
    }
    return 0;
}

static void stop_pool(pool *p, pthread_t *tids, unsigned started)
{
    if (started <= 1) return;
    p->quit = true;
    pthread_barrier_wait(&p->start);
    for (unsigned t = 1; t < started; t++)
        pthread_join(tids[t], NULL);
    pthread_barrier_destroy(&p->start);
    pthread_barrier_destroy(&p->done);
}

/* The rounds, after the buffers and threads are ready. times[k·rounds + r] = seconds per call of
 * kernel k (0 = baseline) in round r. */
static void measure(pool *p, const bench_config *cfg, const gelu_impl *const *all, size_t count,
                    bench_result *results, double *times)
{
    for (size_t k = 0; k < count; k++) {
        results[k].impl = all[k];
        results[k].calls = calibrate(p, all[k], cfg->sample_seconds);
        results[k].timed_inside = all[k]->own_time_ns != NULL;
    }
    for (unsigned r = 0; r < cfg->rounds; r++)
        for (size_t k = 0; k < count; k++) {
            size_t calls = results[k].calls;
            double t = time_sample(p, all[k], calls);
            times[k * cfg->rounds + r] = t / (double)calls;
            /* A kernel slower in the rounds than when calibrated (a thread pool that was warm
             * then, another load now) would make every round as long: its later samples get
             * the calls that last about sample_seconds at the speed just measured. */
            if (t > BENCH_LONG_SAMPLE * cfg->sample_seconds && calls > 1) {
                double fit = 1.2 * cfg->sample_seconds / (t / (double)calls);
                results[k].calls = fit < 1 ? 1 : fit < (double)calls ? (size_t)fit : calls;
            }
        }
}

/* tmp: room for `rounds` doubles. */
static void summarize(const bench_config *cfg, size_t count, bench_result *results,
                      const double *times, double *tmp)
{
    unsigned R = cfg->rounds;
    for (size_t k = 0; k < count; k++) {
        for (unsigned r = 0; r < R; r++)
            tmp[r] = times[k * R + r] / times[r];
        results[k].nratios = R < BENCH_KEPT_ROUNDS ? R : BENCH_KEPT_ROUNDS;
        memcpy(results[k].ratios, tmp, results[k].nratios * sizeof *tmp); /* before sorting */
        results[k].ratio_median = quantile(tmp, R, 0.5);
        for (unsigned r = 0; r < R; r++)
            tmp[r] = 1e9 * times[k * R + r] / (double)bench_call_elements(cfg);
        results[k].ns_q1 = quantile(tmp, R, 0.25);
        results[k].ns_median = quantile(tmp, R, 0.5);
        results[k].ns_q3 = quantile(tmp, R, 0.75);
    }
}

unsigned bench_bytes_per_element(gelu_format_id f)
{
    const gelu_format *fmt = gelu_format_of(f); /* small formats: in uint16_t elements */
    return 2 * (gelu_format_small(fmt) ? (unsigned)sizeof(uint16_t) : fmt->storage_bits / 8);
}

static const struct {
    const char *label;
    size_t n32;      /* elements of binary32 */
    size_t windows;  /* bench_config.windows */
} named_sizes[] = {
    {"l1", 1024, 1},
    {"l2", 131072, 1},
    {"dram", (size_t)64 << 20, 4},
};

size_t bench_named_size_windows(const char *label)
{
    for (size_t i = 0; i < sizeof named_sizes / sizeof named_sizes[0]; i++)
        if (strcmp(label, named_sizes[i].label) == 0) return named_sizes[i].windows;
    return 1;
}

const char *bench_named_size(size_t i)
{
    return i < sizeof named_sizes / sizeof named_sizes[0] ? named_sizes[i].label : NULL;
}

size_t bench_named_size_elements(const char *label, gelu_format_id f)
{
    unsigned bits = gelu_format_of(f)->storage_bits;
    for (size_t i = 0; i < sizeof named_sizes / sizeof named_sizes[0]; i++)
        if (strcmp(label, named_sizes[i].label) == 0)
            return bits <= 32 ? named_sizes[i].n32 : named_sizes[i].n32 / (bits / 32);
    return 0;
}


size_t bench_call_elements(const bench_config *cfg)
{
    return cfg->windows > 1 ? cfg->n / cfg->windows : cfg->n;
}

int bench_run(const bench_config *cfg, const gelu_impl *baseline, const gelu_impl *const *impls,
              size_t count, bench_result *results)
{
    size_t total = count + 1;
    bool f16 = gelu_format_small(gelu_format_of(cfg->format));
    const gelu_impl **all = malloc(total * sizeof *all);
    double *times = malloc(total * cfg->rounds * sizeof *times);
    double *tmp = malloc(cfg->rounds * sizeof *tmp);
    float *x = malloc(cfg->n * sizeof *x), *y = malloc(cfg->n * sizeof *y);
    uint16_t *x16 = f16 ? malloc(cfg->n * sizeof *x16) : NULL, *y16 = f16 ? malloc(cfg->n * sizeof *y16) : NULL;
    size_t tile_floats = (size_t)cfg->threads * BENCH_WIDEN_TILE; /* per thread, a tile in and out */
    float *wx = f16 ? aligned_alloc(64, tile_floats * sizeof *wx) : NULL;
    float *wy = f16 ? aligned_alloc(64, tile_floats * sizeof *wy) : NULL;
    pthread_t *tids = malloc(cfg->threads * sizeof *tids);
    worker_arg *args = malloc(cfg->threads * sizeof *args);
    int status = -1;
    size_t windows = cfg->windows > 1 ? cfg->windows : 1, per_call = bench_call_elements(cfg);
    pool p = {.threads = cfg->threads, .x = x, .y = y, .n = per_call, .windows = windows,
              .fpenv = cfg->fpenv};
    bool f64 = gelu_format_sampled(gelu_format_of(cfg->format));
    double *x64 = f64 ? malloc(cfg->n * sizeof *x64) : NULL, *y64 = f64 ? malloc(cfg->n * sizeof *y64) : NULL;
    if (all && times && tmp && x && y && tids && args && (!f16 || (x16 && y16 && wx && wy)) && (!f64 || (x64 && y64))) {
        all[0] = baseline;
        memcpy(all + 1, impls, count * sizeof *impls);
        bench_fill_inputs(cfg->dist, cfg->seed, x, cfg->n);
        memset(y, 0, cfg->n * sizeof *y); /* touch every page before timing */
        if (f16) { /* the encodings, and the widened implementations' tiles */
            const gelu_format *f = gelu_format_of(cfg->format);
            for (size_t i = 0; i < cfg->n; i++) x16[i] = gelu_format_narrow(f, x[i]);
            memset(y16, 0, cfg->n * sizeof *y16);
            memset(wx, 0, tile_floats * sizeof *wx);
            memset(wy, 0, tile_floats * sizeof *wy);
            p = (pool){.threads = cfg->threads, .n = per_call, .windows = windows, .x16 = x16,
                       .y16 = y16, .wx = wx, .wy = wy, .fpenv = cfg->fpenv};
        }
        if (f64) { /* the binary32 draws widened (exactly) */
            for (size_t i = 0; i < cfg->n; i++) x64[i] = x[i];
            memset(y64, 0, cfg->n * sizeof *y64);
            p = (pool){.threads = cfg->threads, .n = per_call, .windows = windows, .x64 = x64,
                       .y64 = y64, .fpenv = cfg->fpenv};
        }
        status = start_pool(&p, tids, args);
        if (status == 0) {
            measure(&p, cfg, all, total, results, times);
            summarize(cfg, total, results, times, tmp);
        }
        stop_pool(&p, tids, p.threads);
    }
    free(args);
    free(tids);
    free(y64);
    free(x64);
    free(wy);
    free(wx);
    free(y16);
    free(x16);
    free(y);
    free(x);
    free(tmp);
    free(times);
    free(all);
    return status;
}
