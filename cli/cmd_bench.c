/* gelucheck bench: the forward cost of every implementation against ReLU, side by side in one
 * run (bench/), printed as a table per size and distribution and optionally written as CSV. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "bench.h"
#include "tsc.h"
#include "cli.h"
#include "gelucheck_config.h"
#include "gelu_cr16.h"
#include "gelu_f64.h"

enum {
    MAX_SIZES = 16,
    MAX_THREADS = 256,
    DEFAULT_SEED = 20261129,
};
#define MAX_ELEMENTS ((size_t)1 << 30) /* 4 GiB of input: beyond that, memory, not a benchmark */

typedef struct {
    char label[24];
    size_t n;
} bench_size;


typedef struct {
    const gelu_impl **impls; /* measured after the baseline */
    size_t count;
    bench_size sizes[MAX_SIZES];
    size_t nsizes;
    bool dists[BENCH_DIST_COUNT];
    uint64_t seed;
    unsigned threads;
    bool quick;
    const char *csv;
    const gelu_format *format; /* binary32 unless --format */
    gelu_impl *views;          /* a 16-bit run's widened descriptors (room for every row) */
    gelu_fpenv fpenv;          /* --fpenv, IEEE by default */
} bench_options;

static void print_help(void)
{
    printf("usage: gelucheck bench [--impl NAME[,NAME...]] [--size l1|l2|dram|N[,...]]\n"
           "                       [--threads N] [--dist normal|uniform[,...]] [--seed N]\n"
           "                       [--csv FILE] [--quick]\n"
           "                       [--format F] [--fpenv ieee|ftz|daz|ftz,daz]\n");
    char fmt_names[256];
    printf("F: %s\n\n", gelu_format_names("|", "|", false, fmt_names, sizeof fmt_names));
    printf(
           "Times the forward kernel of each implementation against a ReLU baseline (the widest\n"
           "ReLU this CPU runs, in the format), interleaved in one run on the same input buffer:\n"
           "after a warm-up, each round times the baseline, then every implementation. Prints,\n"
           "per size, the median ns/element, the same in reference cycles (refcyc/el: ns x the\n"
           "time-stamp counter's frequency, from CPUID leaf 0x15 or measured against\n"
           "CLOCK_MONOTONIC; the TSC's constant rate, not core cycles), the interquartile\n"
           "spread, elements/s, GB/s (4 bytes read + 4 written per element in binary32; the\n"
           "format's size otherwise) and xReLU, the median over rounds of time / baseline time;\n"
           "then a summary.\n\n"
           "Options:\n"
           "  --impl LIST     implementations to time (default: every one this CPU runs); repeatable\n"
           "  --size LIST     l1 (1024 elements, 4 KiB), l2 (131072, 512 KiB), dram (64 Mi, 256 MiB)\n"
           "                  or N elements (1 to 2^30); default l1,l2,dram (with --quick: l1,l2).\n"
           "                  dram's calls each take the next quarter of its buffer (16 Mi\n"
           "                  elements, last touched 3 calls before: out of cache), so that its\n"
           "                  calls last a quarter of a whole buffer's; N: every call on all N.\n"
           "                  With --format binary64 the named sizes keep their bytes: half the\n"
           "                  elements (512, 65536, 32 Mi)\n"
           "  --threads N     split each call over N threads (default 1; 1 to %d)\n"
           "  --dist LIST     input distribution: normal (0,1) or uniform [-10,10] (default normal)\n"
           "  --seed N        seed of GSL's MT19937 for the inputs (default %d)\n"
           "  --csv FILE      also write the results as CSV to FILE (replaced only when complete)\n"
           "  --quick         9 rounds instead of 31 (of 0.5 ms samples; buffers of 16 Mi elements and\n"
           "                  more: 5 rounds of one call either way), and no dram size unless --size\n"
           "                  asks for it\n"
           "  --format F      a small format (bfloat16, binary16, e4m3, e5m2): arrays of F's\n"
           "                  encodings in uint16_t elements (2 bytes read + 2 written per\n"
           "                  element); binary32 implementations run widened\n"
           "                  (x -> binary32 -> kernel -> round to nearest even, as frameworks\n"
           "                  do: 8192 elements at a time per thread, so the binary32 copies\n"
           "                  stay in cache), the baseline ReLU too; the format's natives\n"
           "                  (cr_F) as they are; the\n"
           "                  CSV's format column says F. The conversions around an AVX-512\n"
           "                  build are AVX-512 BF16's in bfloat16 where the CPU has it (the\n"
           "                  header says; GELUCHECK_NO_BF16=1: the portable ones, same bits),\n"
           "                  AVX-512 FP16's in binary16 where the CPU has it (else F16C's, as\n"
           "                  around an AVX2 build; GELUCHECK_NO_FP16=1: F16C's, same bits).\n"
           "                  binary64: arrays of doubles (8 bytes read + 8 written per element),\n"
           "                  the binary64 implementations ('gelucheck list': GELU's forms in\n"
           "                  double, the peers' double kernels) against a binary64 ReLU; an\n"
           "                  --impl name is looked up among them\n"
           "  --fpenv E       run every kernel, the baseline too, with MXCSR's FTZ and/or DAZ set\n"
           "                  (default ieee), as frameworks do; the CSV's fpenv column says E\n"
           "                  (ftz,daz written ftz+daz). An exec child is asked for E,\n"
           "                  refused unless its handshake lists E\n\n"
           "The default run takes about half a minute on an idle 2-core machine, --quick a few seconds.\n"
           "Rows dnnl_*_omp run on oneDNN's own OpenMP threads (all cores) whatever --threads is.\n"
           "Exit status: 0 done, 1 out of memory or threads or the CSV not written, 2 bad usage.\n",
           MAX_THREADS, DEFAULT_SEED);
}

/* Calls fn on each comma-separated token of `list` (the value of option `opt`) until one fails;
 * 0 or the failing exit status. */
static int for_each_token(bench_options *o, const char *opt, const char *list,
                          int (*fn)(bench_options *, const char *))
{
    char **items;
    size_t n;
    int status = split_list("bench", opt, list, &items, &n);
    for (size_t k = 0; k < n && status == 0; k++) status = fn(o, items[k]);
    free(items);
    return status;
}

/* A native implementation of any small format named name, or NULL (checked against --format
 * once every option is read). */
static const gelu_impl *native16(const char *name)
{
    for (int f = 0; f < gelu_format_count(); f++) {
        const gelu_format *fmt = gelu_format_of((gelu_format_id)f);
        const gelu_impl *m = gelu_format_small(fmt) ? gelu_impl_find_in(name, fmt->id) : NULL;
        if (m) return m;
    }
    return NULL;
}

static int add_impl(bench_options *o, const char *name)
{
    const gelu_impl *m = gelu_impl_find(name);
    if (!m) m = native16(name);
    if (!m) m = gelu_impl_find_in(name, GELU_FORMAT_BINARY64); /* a binary64 row of that name only: --format binary64 */
    if (!m) return usage_error("bench", "unknown implementation '%s' (see 'gelucheck list')", name);
    for (size_t i = 0; i < o->count; i++)
        if (o->impls[i] == m) return usage_error("bench", "--impl '%s' is given twice", name);
    o->impls[o->count++] = m;
    return 0;
}

static int add_size(bench_options *o, const char *tok)
{
    /* a named size's elements depend on --format, set once every option is read */
    bench_size s = {.n = bench_named_size_elements(tok, GELU_FORMAT_BINARY32)};
    bool named = s.n != 0;
    uint64_t n;
    if (s.n == 0 && parse_u64(tok, 1, MAX_ELEMENTS, &n)) s.n = (size_t)n;
    if (s.n == 0)
        return usage_error("bench", "bad --size '%s': l1, l2, dram or a number of elements from "
                           "1 to %zu", tok, MAX_ELEMENTS);
    if (o->nsizes == MAX_SIZES) return usage_error("bench", "more than %d sizes", MAX_SIZES);
    if (named) snprintf(s.label, sizeof s.label, "%s", tok);
    else snprintf(s.label, sizeof s.label, "%zu", s.n); /* "0…016" → "16": at most 10 digits */
    o->sizes[o->nsizes++] = s;
    return 0;
}

static int add_dist(bench_options *o, const char *tok)
{
    bench_dist d = bench_dist_from_name(tok);
    if (d == BENCH_DIST_COUNT) return usage_error("bench", "bad --dist '%s': normal or uniform", tok);
    o->dists[d] = true;
    return 0;
}

/* One option with a value: 1 handled (status in *status), 0 not this option. */
static int parse_valued(bench_options *o, int argc, char **argv, int *i, int *status)
{
    char fmt_names[256]; /* the formats' names, for a message */
    const char *v;
    int got;
    uint64_t n;
    if ((got = option_value("bench", argc, argv, i, "--impl", &v))) {
        *status = got < 0 ? EXIT_USAGE : for_each_token(o, "--impl", v, add_impl);
    } else if ((got = option_value("bench", argc, argv, i, "--size", &v))) {
        *status = got < 0 ? EXIT_USAGE : for_each_token(o, "--size", v, add_size);
    } else if ((got = option_value("bench", argc, argv, i, "--dist", &v))) {
        *status = got < 0 ? EXIT_USAGE : for_each_token(o, "--dist", v, add_dist);
    } else if ((got = option_value("bench", argc, argv, i, "--threads", &v))) {
        if (got < 0) *status = EXIT_USAGE;
        else if (!parse_u64(v, 1, MAX_THREADS, &n))
            *status = usage_error("bench", "bad --threads '%s': a whole number from 1 to %d", v,
                                  MAX_THREADS);
        else o->threads = (unsigned)n;
    } else if ((got = option_value("bench", argc, argv, i, "--seed", &v))) {
        if (got < 0) *status = EXIT_USAGE;
        else if (!parse_u64(v, 0, UINT64_MAX, &n))
            *status = usage_error("bench", "bad --seed '%s': a whole number from 0 to %" PRIu64, v,
                                  UINT64_MAX);
        else o->seed = n;
    } else if ((got = option_value("bench", argc, argv, i, "--csv", &v))) {
        if (got < 0) *status = EXIT_USAGE;
        else o->csv = v;
    } else if ((got = option_value("bench", argc, argv, i, "--fpenv", &v))) {
        gelu_fpenv e = GELU_FPENV_IEEE;
        *status = got < 0 ? EXIT_USAGE : parse_fpenv("bench", v, &e);
        o->fpenv = e;
    } else if ((got = option_value("bench", argc, argv, i, "--format", &v))) {
        if (got < 0) *status = EXIT_USAGE;
        else if (!(o->format = gelu_format_find(v)))
            *status = usage_error("bench", "unknown --format '%s': %s", v,
                                 gelu_format_names(", ", " or ", false, fmt_names, sizeof fmt_names));
    } else {
        return 0;
    }
    return 1;
}

/* Defaults for what the arguments left unset. */
static void complete_options(bench_options *o, const gelu_impl *baseline)
{
    const char *label;
    if (o->nsizes == 0)
        for (size_t i = 0; (label = bench_named_size(i)); i++) {
            if (o->quick && strcmp(label, "dram") == 0) continue;
            snprintf(o->sizes[o->nsizes++].label, sizeof o->sizes[0].label, "%s", label);
        }
    for (size_t s = 0; s < o->nsizes; s++) { /* a named size's elements in the format */
        size_t n = bench_named_size_elements(o->sizes[s].label, o->format->id);
        if (n) o->sizes[s].n = n;
    }
    bool any_dist = false;
    for (int d = 0; d < BENCH_DIST_COUNT; d++) any_dist |= o->dists[d];
    if (!any_dist) o->dists[BENCH_DIST_NORMAL] = true;
    if (o->count == 0 && gelu_format_sampled(o->format)) {
        for (size_t i = 0; i < gelu_impl_count_in(o->format->id); i++) /* its own rows */
            o->impls[o->count++] = gelu_impl_at_in(o->format->id, i);
    } else if (o->count == 0) {
        for (size_t i = 0; i < gelu_impl_count(); i++) /* a 16-bit native stands in for its name */
            if (!gelu_format_small(o->format) || !gelu_impl_find_in(gelu_impl_at(i)->name, o->format->id))
                o->impls[o->count++] = gelu_impl_at(i);
        for (size_t i = 0; gelu_format_small(o->format) && i < gelu_impl_count_in(o->format->id);
             i++) /* a small --format's natives */
            o->impls[o->count++] = gelu_impl_at_in(o->format->id, i);
    }
    /* The baseline is row 0 already; implementations this CPU lacks are noted and left out. */
    size_t kept = 0;
    for (size_t i = 0; i < o->count; i++) {
        const gelu_impl *m = o->impls[i];
        if (m == baseline) continue;
        if (!gelu_impl_available(m)) {
            char feat[128];
            fprintf(stderr, "gelucheck bench: skipping %s: needs %s, which this CPU lacks\n",
                    m->name, cpu_features_string(m->features & ~cpu_features(), feat, sizeof feat));
            continue;
        }
        o->impls[kept++] = m;
    }
    o->count = kept;
}

static int parse_options(bench_options *o, int argc, char **argv)
{
    int status = EXIT_OK;
    for (int i = 1; i < argc && status == EXIT_OK; i++) {
        if (is_help(argv[i])) {
            print_help();
            return -1;
        }
        if (strcmp(argv[i], "--quick") == 0) o->quick = true;
        else if (!parse_valued(o, argc, argv, &i, &status))
            status = usage_error("bench", "unexpected argument '%s'", argv[i]);
    }
    if (status != EXIT_OK) return status;
    if (!o->format) o->format = gelu_format_of(GELU_FORMAT_BINARY32);
    for (size_t i = 0; i < o->count && gelu_format_sampled(o->format); i++) {
        const gelu_impl *m = gelu_impl_find_in(o->impls[i]->name, o->format->id); /* the format's row of the name */
        if (!m)
            return usage_error("bench", "'%s' has no %s implementation (the %s rows: "
                               "'gelucheck list')", o->impls[i]->name, o->format->name,
                               o->format->name);
        o->impls[i] = m;
    }
    for (size_t i = 0; i < o->count; i++) { /* a name with a native in the format means it */
        const gelu_impl *native = o->impls[i]->format == GELU_FORMAT_BINARY32
                                      ? gelu_impl_find_in(o->impls[i]->name, o->format->id) : NULL;
        if (native) o->impls[i] = native;
    }
    for (size_t i = 0; i < o->count; i++)
        if (o->impls[i]->format != GELU_FORMAT_BINARY32 && o->impls[i]->format != o->format->id)
            return usage_error("bench", "'%s' is a %s implementation: give --format %s",
                               o->impls[i]->name, gelu_format_of(o->impls[i]->format)->name,
                               gelu_format_of(o->impls[i]->format)->name);
    return status;
}

/* A 16-bit run: every binary32 row (the baseline last, in views[count]) widened to the format. */
static const gelu_impl *widen_options(bench_options *o, const gelu_impl *baseline)
{
    for (size_t i = 0; i < o->count; i++)
        if (o->impls[i]->format == GELU_FORMAT_BINARY32) {
            o->views[i] = gelu_impl_widened(o->impls[i], o->format->id);
            o->impls[i] = &o->views[i];
        }
    o->views[o->count] = gelu_impl_widened(baseline, o->format->id);
    return &o->views[o->count];
}

/* One measured (size, distribution). */
typedef struct {
    bench_config cfg;
    const char *size;      /* the --size token: l1, l2, dram or N */
    const char *label;     /* size/dist */
    bench_result *results; /* baseline, then the implementations */
    double tsc_hz;         /* the TSC's ticks per second (0: none): reference cycles */
} bench_run_record;

static void print_header(const bench_options *o, const gelu_impl *baseline, tsc_frequency tsc)
{
    char cpu[256], feat[128];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("gelucheck bench: forward cost against ReLU, measured side by side in one run\n"
           "cpu:       %s (%s; %ld cores online)\n"
           "compiler:  %s\n"
           "flags:     %s; %s\n"
           "threads:   %u (dnnl_*_omp rows: oneDNN's own OpenMP threads, all cores)\n"
           "inputs:    GSL mt19937, seed %" PRIu64 "\n"
           "baseline:  %s; xReLU = median over rounds of (time / baseline time, same round)\n",
           bench_cpu_model(cpu, sizeof cpu), cpu_features_string(cpu_features(), feat, sizeof feat),
           cores, GELUCHECK_COMPILER, GELUCHECK_CFLAGS, GELUCHECK_ISA_CFLAGS, o->threads, o->seed,
           baseline->name);
    if (*gelu_absent_peers())
        printf("not built: %s (library absent or disabled at configure time)\n", gelu_absent_peers());
    if (tsc.source != TSC_NONE)
        printf("ref cyc:   reference cycles per element = ns/element x the TSC's %.6g GHz (%s):\n"
               "           the TSC's constant rate, not core cycles (turbo and power states move "
               "those)\n",
               tsc.hz * 1e-9, tsc_source_name(tsc.source));
    else
        printf("ref cyc:   none (no time-stamp counter on this CPU)\n");
    if (o->fpenv != GELU_FPENV_IEEE)
        printf("fpenv:     %s (MXCSR set around every kernel's calls, the baseline's too)\n",
               gelu_fpenv_name(o->fpenv));
    if (o->format->widen)
        printf("format:    %s, %u bytes per element (read + written); binary32 implementations "
               "and the baseline widened (x -> binary32 -> kernel -> round to nearest even)\n"
               "           %s conversions: %s\n",
               o->format->name, bench_bytes_per_element(o->format->id), o->format->name,
               o->format->conversions_path());
    if (gelu_format_sampled(o->format))
        printf("format:    binary64, %u bytes per element (read + written): the binary64 "
               "implementations and ReLU on arrays of doubles (the draws widened from binary32); "
               "named sizes keep their bytes\n",
               bench_bytes_per_element(o->format->id));
}

static void print_run(const bench_run_record *run, size_t count)
{
    const bench_config *c = &run->cfg;
    unsigned bytes = bench_bytes_per_element(c->format);
    printf("\n%s: %zu elements (%.6g KiB of input), %s, %u rounds", run->label, c->n,
           (double)c->n * bytes / 2 / 1024, bench_dist_describe(c->dist), c->rounds);
    if (c->windows > 1)
        printf("; each call on 1/%zu of them in turn (%zu elements, out of cache: touched %zu "
               "calls before)", c->windows, bench_call_elements(c), c->windows - 1);
    printf("\n");
    printf("%-24s %-8s %10s %10s %8s %10s %8s %8s\n", "impl", "target", "ns/elem", "refcyc/el",
           "IQR", "Melem/s", "GB/s", "xReLU");
    bool inside = false;
    for (size_t k = 0; k < count; k++) {
        const bench_result *r = &run->results[k];
        char name[64];
        snprintf(name, sizeof name, "%s%s", r->impl->name, r->timed_inside ? " *" : "");
        inside |= r->timed_inside;
        printf("%-24s %-8s %10.4g %10.4g %7.1f%% %10.4g %8.3g %8.3g\n", name,
               gelu_target_name(r->impl->target), r->ns_median,
               tsc_cycles_per_element(r->ns_median, run->tsc_hz), 100.0 * (r->ns_q3 - r->ns_q1) / r->ns_median, 1e3 / r->ns_median,
               bytes / r->ns_median, r->ratio_median);
    }
    if (inside)
        printf("* timed inside the child: its own clock around the kernel call (the pipe and the\n"
               "  protocol excluded), not this process's\n");
}

/* Per implementation: ns/element and xReLU at every measured size, side by side. */
static void print_summary(const bench_run_record *runs, size_t nruns, size_t count)
{
    printf("\nsummary: ns/element (xReLU)\n%-24s", "impl");
    for (size_t r = 0; r < nruns; r++) printf(" %20s", runs[r].label);
    printf("\n");
    for (size_t k = 0; k < count; k++) {
        printf("%-24s", runs[0].results[k].impl->name);
        for (size_t r = 0; r < nruns; r++) {
            char cell[40];
            snprintf(cell, sizeof cell, "%.4g (%.3g)", runs[r].results[k].ns_median,
                     runs[r].results[k].ratio_median);
            printf(" %20s", cell);
        }
        printf("\n");
    }
}

/* bench.csv, one list of columns: per column its header name and its field for one row (a
 * run's result). Readers find columns by name (reports/results.c), so a new column is a row
 * here, appended; a reader of older files treats a missing one as its default. */
typedef struct {
    const bench_run_record *run;
    const bench_result *x;
} bench_csv_row;
typedef void (*bench_csv_field)(FILE *f, const bench_csv_row *w);

static void csv_size(FILE *f, const bench_csv_row *w) { fputs(w->run->size, f); }
static void csv_n(FILE *f, const bench_csv_row *w) { fprintf(f, "%zu", w->run->cfg.n); }
static void csv_dist(FILE *f, const bench_csv_row *w) { fputs(bench_dist_name(w->run->cfg.dist), f); }
static void csv_seed(FILE *f, const bench_csv_row *w) { fprintf(f, "%" PRIu64, w->run->cfg.seed); }
static void csv_threads(FILE *f, const bench_csv_row *w) { fprintf(f, "%u", w->run->cfg.threads); }
static void csv_rounds(FILE *f, const bench_csv_row *w) { fprintf(f, "%u", w->run->cfg.rounds); }
static void csv_calls(FILE *f, const bench_csv_row *w) { fprintf(f, "%zu", w->x->calls); }
static void csv_impl(FILE *f, const bench_csv_row *w) { fputs(w->x->impl->name, f); }
static void csv_target(FILE *f, const bench_csv_row *w) { fputs(gelu_target_name(w->x->impl->target), f); }
static void csv_features(FILE *f, const bench_csv_row *w)
{
    char feat[128];
    cpu_features_string(w->x->impl->features, feat, sizeof feat);
    for (char *p = feat; (p = strchr(p, ','));) *p = '+'; /* one CSV field */
    fputs(feat, f);
}
static void csv_ns_median(FILE *f, const bench_csv_row *w) { fprintf(f, "%.6g", w->x->ns_median); }
static void csv_ns_q1(FILE *f, const bench_csv_row *w) { fprintf(f, "%.6g", w->x->ns_q1); }
static void csv_ns_q3(FILE *f, const bench_csv_row *w) { fprintf(f, "%.6g", w->x->ns_q3); }
static void csv_elements_per_s(FILE *f, const bench_csv_row *w) { fprintf(f, "%.6g", 1e9 / w->x->ns_median); }
/* The format's bytes per element (8 in binary32, 4 in a 16-bit format). */
static void csv_gb_per_s(FILE *f, const bench_csv_row *w)
{
    fprintf(f, "%.6g", bench_bytes_per_element(w->run->cfg.format) / w->x->ns_median);
}
/* reference (TSC) cycles per element at the run's TSC frequency; empty without a TSC */
static void csv_ref_cycles(FILE *f, const bench_csv_row *w)
{
    if (w->run->tsc_hz > 0) fprintf(f, "%.6g", tsc_cycles_per_element(w->x->ns_median, w->run->tsc_hz));
}
static void csv_tsc_hz(FILE *f, const bench_csv_row *w)
{
    if (w->run->tsc_hz > 0) fprintf(f, "%.6g", w->run->tsc_hz);
}
static void csv_ratio(FILE *f, const bench_csv_row *w) { fprintf(f, "%.6g", w->x->ratio_median); }
static void csv_baseline(FILE *f, const bench_csv_row *w) { fputs(w->run->results[0].impl->name, f); }
static void csv_timed(FILE *f, const bench_csv_row *w) { fputs(w->x->timed_inside ? "child" : "host", f); }
/* each round's ratio, in round order, ';' between (one CSV field) */
static void csv_ratio_rounds(FILE *f, const bench_csv_row *w)
{
    for (unsigned r = 0; r < w->x->nratios; r++) fprintf(f, "%s%.6g", r ? ";" : "", w->x->ratios[r]);
}
static void csv_format(FILE *f, const bench_csv_row *w) { fputs(gelu_format_of(w->run->cfg.format)->name, f); }
/* the run's, or the one an exec child always runs in (gelu_impl_fpenv) */
static void csv_fpenv(FILE *f, const bench_csv_row *w)
{
    fputs(gelu_fpenv_name(gelu_impl_fpenv(w->x->impl, w->run->cfg.fpenv)), f);
}

static const struct {
    const char *name;
    bench_csv_field field;
} csv_columns[] = {
    {"size", csv_size},
    {"n", csv_n},
    {"dist", csv_dist},
    {"seed", csv_seed},
    {"threads", csv_threads},
    {"rounds", csv_rounds},
    {"calls", csv_calls},
    {"impl", csv_impl},
    {"target", csv_target},
    {"features", csv_features},
    {"ns_per_element_median", csv_ns_median},
    {"ns_per_element_q1", csv_ns_q1},
    {"ns_per_element_q3", csv_ns_q3},
    {"elements_per_s", csv_elements_per_s},
    {"gb_per_s", csv_gb_per_s},
    {"ratio_to_baseline", csv_ratio},
    {"baseline", csv_baseline},
    {"timed", csv_timed},   /* absent in older files: host */
    {"format", csv_format}, /* absent in older files: binary32 */
    {"fpenv", csv_fpenv},   /* absent in older files: ieee */
    {"ratio_rounds", csv_ratio_rounds}, /* absent in older files: speed compared by quartiles */
    {"ref_cycles_per_element_median", csv_ref_cycles}, /* absent in older files, and empty: no TSC */
    {"tsc_hz", csv_tsc_hz},
};
enum { CSV_COLUMNS = sizeof csv_columns / sizeof csv_columns[0] };

static bool write_csv(FILE *f, const bench_run_record *runs, size_t nruns, size_t count)
{
    for (size_t k = 0; k < CSV_COLUMNS; k++) fprintf(f, "%s%s", k ? "," : "", csv_columns[k].name);
    fputc('\n', f);
    for (size_t r = 0; r < nruns; r++)
        for (size_t i = 0; i < count; i++) {
            bench_csv_row w = {&runs[r], &runs[r].results[i]};
            for (size_t k = 0; k < CSV_COLUMNS; k++) {
                if (k) fputc(',', f);
                csv_columns[k].field(f, &w);
            }
            fputc('\n', f);
        }
    return fflush(f) == 0 && !ferror(f);
}

/* Rounds and sample length. Short samples (0.5 ms, after bench.c's pause) mostly escape
 * preemption on a shared machine, so their median is the unpreempted speed; DRAM-sized calls
 * last tens of ms each, so fewer rounds of one call. */
static bench_config config_for(const bench_options *o, const bench_size *size, bench_dist d)
{
    size_t n = size->n;
    bool big = n >= BENCH_BIG_N;
    return (bench_config){
        .n = n, .windows = bench_named_size_windows(size->label), .dist = d, .seed = o->seed, .threads = o->threads,
        .rounds = big ? 5 : o->quick ? 9 : 31, .sample_seconds = 5e-4, .format = o->format->id, .fpenv = o->fpenv,
    };
}

static int run_all(const bench_options *o, const gelu_impl *baseline, tsc_frequency tsc, FILE *csv)
{
    size_t nruns = 0, total = o->count + 1;
    bench_run_record runs[MAX_SIZES * BENCH_DIST_COUNT];
    char labels[MAX_SIZES * BENCH_DIST_COUNT][48];
    int status = EXIT_OK;
    for (int d = 0; d < BENCH_DIST_COUNT && status == EXIT_OK; d++) {
        if (!o->dists[d]) continue;
        for (size_t s = 0; s < o->nsizes && status == EXIT_OK; s++) {
            bench_run_record *run = &runs[nruns];
            snprintf(labels[nruns], sizeof labels[0], "%s/%s", o->sizes[s].label,
                     bench_dist_name((bench_dist)d));
            run->label = labels[nruns];
            run->size = o->sizes[s].label;
            run->cfg = config_for(o, &o->sizes[s], (bench_dist)d);
            run->tsc_hz = tsc.hz;
            run->results = malloc(total * sizeof *run->results);
            if (!run->results || bench_run(&run->cfg, baseline, o->impls, o->count, run->results)) {
                fprintf(stderr, "gelucheck bench: out of memory or threads at %s (%zu elements)\n",
                        run->label, run->cfg.n);
                free(run->results);
                status = EXIT_CHECK_FAILED;
                break;
            }
            if ((status = exec_failure_status("bench")) != EXIT_OK) {
                free(run->results);
                break;
            }
            print_run(run, total);
            fflush(stdout);
            nruns++;
        }
    }
    if (status == EXIT_OK) print_summary(runs, nruns, total);
    if (status == EXIT_OK && csv && !write_csv(csv, runs, nruns, total)) {
        fprintf(stderr, "gelucheck bench: writing --csv %s failed: %s\n", o->csv, strerror(errno));
        status = EXIT_CHECK_FAILED;
    }
    for (size_t r = 0; r < nruns; r++) free(runs[r].results);
    return status;
}

int cmd_bench(int argc, char **argv)
{
    bench_options o = {.seed = DEFAULT_SEED, .threads = 1};
    size_t room = 1;
    for (int f = 0; f < gelu_format_count(); f++) room += gelu_impl_count_in((gelu_format_id)f);
    o.impls = malloc(room * sizeof *o.impls);
    o.views = malloc(room * sizeof *o.views);
    if (!o.impls || !o.views) {
        free(o.impls);
        free(o.views);
        return EXIT_CHECK_FAILED;
    }
    int status = parse_options(&o, argc, argv);
    const gelu_impl *baseline = status == EXIT_OK ? bench_baseline_of(o.format->id) : NULL;
    if (status == EXIT_OK && !baseline) {
        fprintf(stderr, "gelucheck bench: no ReLU baseline registered\n");
        status = EXIT_CHECK_FAILED;
    }
    /* The CSV goes to a hidden temporary file beside FILE (removed on a signal), renamed over
     * it only when complete; a path that cannot be written fails before the measurements. */
    atomic_file csv = {0};
    bool have_csv = false;
    if (status == EXIT_OK && o.csv) {
        char err[512];
        if ((status = probe_output("bench", o.csv)) != EXIT_OK) {
            /* message printed */
        } else if (atomic_file_open(&csv, o.csv, err, sizeof err) != 0) {
            fprintf(stderr, "gelucheck bench: %s\n", err);
            status = EXIT_CHECK_FAILED;
        } else {
            have_csv = true;
        }
    }
    if (status == EXIT_OK) {
        complete_options(&o, baseline);
        status = fpenv_check_impls("bench", o.fpenv, o.impls, o.count);
    }
    if (status == EXIT_OK) {
        if (gelu_format_small(o.format)) baseline = widen_options(&o, baseline);
        tsc_frequency tsc = tsc_frequency_get();
        print_header(&o, baseline, tsc);
        status = run_all(&o, baseline, tsc, have_csv ? csv.f : NULL);
    }
    if (have_csv && status == EXIT_OK) {
        char err[512];
        if (atomic_file_commit(&csv, err, sizeof err) != 0) {
            fprintf(stderr, "gelucheck bench: %s (the previous file is intact)\n", err);
            status = EXIT_CHECK_FAILED;
        } else {
            status = write_manifest_beside("bench", o.csv);
        }
    } else if (have_csv) {
        atomic_file_abort(&csv);
    }
    free(o.impls);
    free(o.views);
    return status < 0 ? EXIT_OK : status;
}

const gelucheck_command command_bench = {"bench", cmd_bench,
                                         "time every implementation against ReLU, side by side in one run",
                                         impl_repeats, false};
