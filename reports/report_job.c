/* The report's job after its binary32 scan (see report_job.h). */
#include "report_job.h"
#include "input_file.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accuracy_csv.h"
#include "answer.h"
#include "bench.h"
#include "capped.h"
#include "compare.h"
#include "exec_impl.h"
#include "fpenv_cover.h"
#include "framework_paths_scan.h"
#include "gelu_cr16.h"
#include "gelu_f64.h"
#include "gelucheck_config.h"
#include "gelucheck_version.h"
#include "html_report.h"
#include "manifest.h"
#include "moons.h"
#include "refine.h"
#include "report_clock.h"
#include "report_files.h"
#include "scan_f64.h"
#include "scan_small.h"

static void report_say(const report_job *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report_say(const report_job *a, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    a->say(a->ctx, text);
}

static void report_error(const report_job *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report_error(const report_job *a, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    a->error(a->ctx, text);
}

/* ---- writers for report_stage_write */

typedef struct {
    const scan_result *r;
    void (*write)(const scan_result *, FILE *);
} csv_job;

static int write_csv(FILE *f, void *ctx)
{
    const csv_job *j = ctx;
    j->write(j->r, f);
    return 0;
}

typedef struct {
    plot_kind kind;
    const results_set *s;
} plot_job;

static int write_plot_script(FILE *f, void *ctx)
{
    const plot_job *j = ctx;
    return plot_script_write(f, j->kind, j->s);
}

static int write_html(FILE *f, void *ctx) { return html_report_write(f, ctx); }

static int write_manifest(FILE *f, void *ctx) { return manifest_write(f, ctx); }

static int write_answer(FILE *f, void *ctx) { return answer_write_json(f, ctx); }

/* The full job's capped runs (capped.h) scan a sample of 2^24 inputs: every input under each cap
 * would add about 380 s of CPU per cap (oneDNN's two rows, estimated from 4 of 256 shards), a
 * quarter of the job; the answer marks their figures as sampled. */
enum { CAPPED_FULL_SAMPLE = 1 << 24 };

static int write_compare_csv(FILE *f, void *ctx) { return compare_csv_write(f, ctx); }

static int write_moons_csv(FILE *f, void *ctx)
{
    return moons_csv_write(ctx, f) == MOONS_OK ? 0 : -1;
}

/* The benchmark of a format through the caller's (binary32: as 'bench', another format: as
 * 'bench --format F'), its CSV (bench.csv, bench_F.csv) into the staging directory. */
static int run_bench(const report_job *a, report_stage *st, gelu_format_id format)
{
    char csv[2200], name[64];
    results_file_name(name, sizeof name, "bench", format);
    if (!report_stage_path(st, name, csv, sizeof csv)) return -1;
    return a->bench(a->ctx, csv, format, a->quick);
}

/* The make_moons experiment over the scanned implementations (the default or the quick
 * configuration), summarised into sum (one per implementation, allocated); then moons.csv
 * into the staging directory. 0, or −1 after a message (e freed). */
static int run_moons(const report_job *a, const report_impls *impls, report_stage *st,
                     moons_experiment *e, moons_summary **sum)
{
    moons_config c;
    if (a->quick) moons_config_quick(&c);
    else moons_config_default(&c);
    int r = moons_experiment_init(e, &c, impls->list, impls->n);
    if (r == MOONS_BAD_CONFIG) {
        report_error(a, "make_moons cannot run: no available implementation "
                        "of the exact GELU to serve as reference");
        return -1;
    }
    double t0 = report_clock_wall();
    if (r == MOONS_OK)
        r = moons_experiment_run(e, (unsigned)a->threads,
                                 a->moons_progress, &t0);
    *sum = r == MOONS_OK ? calloc(e->n_impls, sizeof **sum) : NULL;
    if (!*sum) r = MOONS_NO_MEMORY;
    for (size_t i = 0; r == MOONS_OK && i < e->n_impls; i++)
        r = moons_summarise(e, i, &(*sum)[i]);
    if (r != MOONS_OK) {
        report_error(a, "make_moons: out of memory");
        free(*sum);
        moons_experiment_free(e);
        return -1;
    }
    report_say(a, "\nmake_moons (%s): %zu runs (%zu implementations, %zu seeds of %zu epochs) in "
                  "%.1f s; the tables are in index.html\n",
                  a->quick ? "--quick" : "default", e->n_impls * c.n_seeds, e->n_impls, c.n_seeds,
                  c.epochs, report_clock_wall() - t0);
    char name[64];
    if (report_stage_write(st, report_file_name(REPORT_FILE_MOONS, GELU_FORMAT_BINARY32, name, sizeof name),
                           write_moons_csv, e) != 0) {
        free(*sum);
        moons_experiment_free(e);
        return -1;
    }
    return 0;
}

/* Reads a whole file (NULL on failure). */
static char *slurp(const char *path)
{
    FILE *f = input_open(path);
    if (!f) return NULL;
    char *buf = NULL;
    size_t size = 0, used = 0;
    for (;;) {
        if (used + 4096 + 1 > size) {
            char *grown = realloc(buf, size = 2 * size + 8192);
            if (!grown) break;
            buf = grown;
        }
        size_t got = fread(buf + used, 1, size - used - 1, f);
        used += got;
        if (got == 0) break;
    }
    fclose(f);
    if (buf) buf[used] = '\0';
    return buf;
}

/* Writes the scripts and draws the plots of the results' format; svg[k] gets each drawn plot's
 * text. Returns the note for the page when plots are missing, else NULL. */
static const char *draw_plots(report_stage *st, const results_set *s, char *svg[PLOT_COUNT])
{
    static const char no_gnuplot[] =
        "gnuplot is not installed (tools/setup.sh installs gnuplot-nox): no plots; the .gp "
        "scripts are in the report directory";
    const char *note = NULL;
    for (int k = 0; k < PLOT_COUNT; k++) {
        if (!plot_drawn((plot_kind)k, s->format)) continue;
        char stem[64], name[80], path[2200];
        plot_job job = {(plot_kind)k, s};
        plot_stem((plot_kind)k, s->format, stem, sizeof stem);
        snprintf(name, sizeof name, "%s.gp", stem);
        if (report_stage_write(st, name, write_plot_script, &job) != 0)
            return "a plot script could not be written";
        int rc = note == no_gnuplot ? 1 : plot_run(st->stage, stem);
        snprintf(name, sizeof name, "%s.svg", stem);
        if (report_stage_own(st, name) != 0) return "too many report files";
        if (rc == 0 && report_stage_path(st, name, path, sizeof path)) svg[k] = slurp(path);
        if (rc == 1)
            note = no_gnuplot;
        else if (!svg[k])
            note = "gnuplot failed on some plots (their .gp scripts are in the report directory)";
    }
    return note;
}

static void describe(const report_job *a, const scan_result *r, char *scan, size_t size)
{
    if (a->quick)
        snprintf(scan, size,
                 "a seeded sample of %llu distinct binary32 encodings (of %d drawn, seed %d), "
                 "forward and derivative",
                 (unsigned long long)r->inputs, REPORT_QUICK_SAMPLE, REPORT_QUICK_SEED);
    else
        snprintf(scan, size, "all 2^32 binary32 encodings (%llu), forward and derivative",
                 (unsigned long long)r->inputs);
}

/* The baseline compared with the staged results (manifest, accuracy.csv, bench.csv), its
 * compare.csv staged; *status REPORT_BASELINE_REGRESSED on a regression,
 * REPORT_BASELINE_UNREADABLE when the sets cannot be compared (then *note says why and the
 * result is NULL). −1 when compare.csv cannot be written. */
static int run_compare(const report_job *a, report_stage *st, compare_sets **out, char *note,
                       size_t notesize, int *status)
{
    *out = NULL;
    if (!a->baseline) return 0;
    compare_sets *cs = malloc(sizeof *cs);
    if (!cs) return -1;
    if (compare_sets_load(cs, a->baseline, st->stage, note, notesize) != 0) {
        report_error(a, "--baseline: %s", note);
        free(cs);
        *status = REPORT_BASELINE_UNREADABLE;
        return 0;
    }
    char name[64];
    if (report_stage_write(st, report_file_name(REPORT_FILE_COMPARE, GELU_FORMAT_BINARY32, name, sizeof name),
                           write_compare_csv, &cs->result) != 0) {
        free(cs);
        return -1;
    }
    report_say(a, "\nagainst the baseline %s/: %zu regression%s (see index.html and compare.csv)\n",
                  a->baseline, cs->result.regressions, cs->result.regressions == 1 ? "" : "s");
    if (cs->result.regressions) *status = REPORT_BASELINE_REGRESSED;
    *out = cs;
    return 0;
}

/* What the 16-bit formats' sections are made of: per format its results read back and its
 * plots, in report_formats' order (binary64's section is run_binary64's). */
typedef struct {
    results_set *results[REPORT_FORMATS];
    char *svg[REPORT_FORMATS][PLOT_COUNT];
    html_format sections[REPORT_FORMATS];
    size_t n;
} report_formats_out;

static void report_formats_free(report_formats_out *o)
{
    for (size_t k = 0; k < REPORT_FORMATS; k++) {
        free(o->results[k]);
        for (int p = 0; p < PLOT_COUNT; p++) free(o->svg[k][p]);
    }
}

/* A 16-bit format's scan: every input, the report's implementations widened and the format's
 * natives (scan_small.h), into accuracy_F.csv and ulp_by_x_F.csv; the frameworks' paths
 * started in F are the paths scan's (accuracy_paths_F.csv), not scanned again here. 0, or −1
 * after a message. */
static int scan_format16(const report_job *a, const report_impls *impls, report_stage *st,
                         gelu_format_id id)
{
    size_t room = impls->n + gelu_impl_count_in(id);
    gelu_impl *views = calloc(room, sizeof *views);
    const gelu_impl **list = calloc(room, sizeof *list);
    scan_result *r = calloc(1, sizeof *r);
    const char *err = "out of memory";
    int rc = -1;
    if (views && list && r) {
        size_t m = 0;
        for (size_t i = 0; i < impls->n; i++) {
            if (gelu_impl_find_in(impls->list[i]->name, id)) continue; /* its native stands in */
            views[m] = gelu_impl_widened(impls->list[i], id);
            list[m] = &views[m];
            m++;
        }
        for (size_t i = 0; i < gelu_impl_count_in(id); i++)
            if (!framework_is_path(gelu_impl_at_in(id, i))) list[m++] = gelu_impl_at_in(id, i);
        scan_small_config cfg = {.format = id, .impls = list, .nimpls = m, .grad = true,
                                 .threads = (unsigned)a->threads};
        rc = scan_small_run(&cfg, r, &err) == 0 ? 0 : -1;
    }
    if (rc != 0) report_error(a, "the %s scan: %s", gelu_format_of(id)->name, err);
    csv_job jobs[] = {{r, accuracy_csv_write}, {r, ulp_by_x_csv_write}};
    const char *stems[] = {"accuracy", "ulp_by_x"};
    for (size_t j = 0; rc == 0 && j < sizeof jobs / sizeof jobs[0]; j++) {
        char name[64];
        results_file_name(name, sizeof name, stems[j], id);
        if (report_stage_write(st, name, write_csv, &jobs[j]) != 0) rc = -1;
    }
    if (r) scan_result_free(r);
    free(list);
    free(views);
    return rc;
}

/* The small formats of report_formats (binary64 is sampled: run_binary64): per format its
 * scan, its benchmark (bench_F.csv), its results read back from those files as the page's
 * binary32 table is, and its plots, into out. 0, or −1 after a message. */
static int run_formats(const report_job *a, const report_impls *impls, report_stage *st,
                       report_formats_out *out)
{
    gelu_format_id ids[REPORT_FORMATS];
    for (size_t k = 0, n = report_formats(ids); k < n; k++) {
        gelu_format_id id = ids[k];
        if (!gelu_format_small(gelu_format_of(id))) continue; /* sampled: run_binary64 */
        char accn[64], benchn[64], acc[2200], bench[2200], err[512];
        results_file_name(accn, sizeof accn, "accuracy", id);
        results_file_name(benchn, sizeof benchn, "bench", id);
        if (scan_format16(a, impls, st, id) != 0) return -1;
        report_clock_lap("%s: scan", gelu_format_of(id)->name);
        if (run_bench(a, st, id) != 0) return -1;
        report_clock_lap("%s: benchmark", gelu_format_of(id)->name);
        results_set *s = out->results[out->n] = malloc(sizeof *s);
        if (!s || results_load_format(s, report_stage_path(st, accn, acc, sizeof acc),
                                      report_stage_path(st, benchn, bench, sizeof bench), id, true,
                                      err, sizeof err) != 0) {
            report_error(a, "%s", s ? err : "out of memory");
            return -1;
        }
        html_format *sec = &out->sections[out->n];
        sec->results = s;
        sec->plots_note = draw_plots(st, s, out->svg[out->n]);
        for (int p = 0; p < PLOT_COUNT; p++) sec->svg[p] = out->svg[out->n][p];
        out->n++;
        report_clock_lap("%s: read back, plots", gelu_format_of(id)->name);
    }
    return 0;
}

/* What the ftz,daz section is made of: its results read back, what was covered, the
 * implementations left out (exec children: "" when none), the scan's CPU seconds. */
typedef struct {
    results_set *results;
    char covered[1024], left_out[512];
    double cpu_seconds;
} report_ftz_daz;

/* The report's in-process implementations (exec children are refused under FTZ/DAZ: their
 * kernels run in another process, which this one's MXCSR does not reach) into list, the names of
 * those left out into left_out. A plugin's rows run in gelucheck-plugin-host are in: their
 * children are asked for the section's environment (run_ftz_daz). */
static size_t in_process_impls(const report_impls *impls, const gelu_impl **list, char *left_out,
                               size_t size)
{
    size_t n = 0, used = 0;
    left_out[0] = '\0';
    for (size_t i = 0; i < impls->n; i++)
        if (!exec_impls_owns(impls->list[i])) list[n++] = impls->list[i];
        else if (used < size)
            used += (size_t)snprintf(left_out + used, size - used, "%s%s", used ? ", " : "",
                                     impls->list[i]->name);
    return n;
}

/* The ftz,daz section: the in-process implementations, forward and derivative, with MXCSR's FTZ
 * and DAZ set, over the inputs where that can change a result (fpenv_cover.h; --quick: a thinned
 * version), into accuracy_ftz_daz.csv, read back into out as the other sections' files are.
 * 0, or −1 after a message. */
static int run_ftz_daz(const report_job *a, const report_impls *impls, report_stage *st,
                       report_ftz_daz *out)
{
    const gelu_impl **list = calloc(impls->n + 1, sizeof *list);
    scan_result *r = calloc(1, sizeof *r);
    fpenv_cover_config cover = fpenv_cover_default(a->quick);
    uint32_t *inputs = NULL;
    uint64_t ninputs = 0;
    const char *err = "out of memory";
    int rc = list && r && fpenv_cover_build(&cover, &inputs, &ninputs) == 0 ? 0 : -1;
    size_t n = rc == 0 ? in_process_impls(impls, list, out->left_out, sizeof out->left_out) : 0;
    double t0 = report_clock_cpu();
    scan_config cfg = {.impls = list, .nimpls = n, .grad = true,
                       .domain = {.kind = DOMAIN_LIST, .list = inputs, .n = ninputs},
                       .threads = (unsigned)a->threads, .shard_n = 1, .fpenv = GELU_FPENV_FTZ_DAZ};
    if (a->scan_progress) a->scan_progress(a->ctx, &cfg);
    if (rc == 0 && n == 0) rc = -1, err = "no in-process implementation to scan";
    exec_impls_use_fpenv(GELU_FPENV_FTZ_DAZ); /* the children of plugins' rows run in it */
    if (rc == 0 && (rc = scan_run(&cfg, r, &err)) == 0)
        scan_refine_maxima(r);
    exec_impls_use_fpenv(GELU_FPENV_IEEE);
    if (rc == 0) {
        out->cpu_seconds = report_clock_cpu() - t0;
        fpenv_cover_describe(&cover, r->inputs, out->covered, sizeof out->covered);
        report_say(a, "\nftz,daz: %llu inputs, %zu implementations, forward and derivative, in %.1f s "
                      "of CPU; the table is in index.html\n",
                      (unsigned long long)r->inputs, n, out->cpu_seconds);
        csv_job job = {r, accuracy_csv_write};
        if (report_stage_write(st, RESULTS_FTZ_DAZ_FILE, write_csv, &job) != 0) rc = -1, err = NULL;
    }
    char acc[2200], why[512];
    results_set *s = NULL;
    if (rc == 0 && (!(s = malloc(sizeof *s)) ||
                    results_load_format(s, report_stage_path(st, RESULTS_FTZ_DAZ_FILE, acc, sizeof acc),
                                        NULL, GELU_FORMAT_BINARY32, true, why, sizeof why) != 0)) {
        err = s ? why : "out of memory";
        rc = -1;
    }
    if (rc != 0 && err) report_error(a, "the ftz,daz scan: %s", err);
    if (rc != 0) free(s);
    else out->results = s;
    scan_result_free(r);
    free(inputs);
    free(list);
    return rc;
}

/* binary64's section: its results read back, its plots, what was sampled. */
typedef struct {
    results_set *results;
    char *svg[PLOT_COUNT];
    html_format section;
    char sampled[160];
} report_f64_out;

static void report_f64_free(report_f64_out *o)
{
    free(o->results);
    for (int p = 0; p < PLOT_COUNT; p++) free(o->svg[p]);
}

/* binary64's section (scan_f64.h): every binary64 implementation this CPU runs, forward and
 * derivative, on the default sample (--quick: REPORT_QUICK_F64_SAMPLE draws), into
 * accuracy_binary64.csv and ulp_by_x_binary64.csv (the sample's maxima per x bucket); then its
 * benchmark (bench_binary64.csv); read back as the other formats' are, with its plots and what
 * was sampled, into *out. 0, or −1 after a message. */
static int run_binary64(const report_job *a, report_stage *st, report_f64_out *out)
{
    const gelu_impl **list = calloc(gelu_impl_count_in(GELU_FORMAT_BINARY64) + 1, sizeof *list);
    scan_result *r = calloc(1, sizeof *r);
    size_t n = 0;
    const char *err = "out of memory";
    char name[64], byx[64], benchn[64];
    results_file_name(name, sizeof name, "accuracy", GELU_FORMAT_BINARY64);
    results_file_name(byx, sizeof byx, "ulp_by_x", GELU_FORMAT_BINARY64);
    results_file_name(benchn, sizeof benchn, "bench", GELU_FORMAT_BINARY64);
    int rc = list && r ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < gelu_impl_count_in(GELU_FORMAT_BINARY64); i++)
        if (gelu_impl_available(gelu_impl_at_in(GELU_FORMAT_BINARY64, i)))
            list[n++] = gelu_impl_at_in(GELU_FORMAT_BINARY64, i);
    scan_f64_config cfg = {.impls = list, .nimpls = n, .grad = true, .seed = 1,
                           .n = a->quick ? REPORT_QUICK_F64_SAMPLE : SCAN_F64_DEFAULT_SAMPLE,
                           .threads = (unsigned)a->threads};
    if (rc == 0 && (rc = scan_f64_run(&cfg, r, &err)) == 0) {
        csv_job acc_job = {r, accuracy_csv_write}, byx_job = {r, ulp_by_x_csv_write};
        snprintf(out->sampled, sizeof out->sampled,
                 "%llu inputs (%llu draws, seed 1, and binary64's hard inputs)",
                 (unsigned long long)r->inputs, (unsigned long long)cfg.n);
        if (report_stage_write(st, name, write_csv, &acc_job) != 0 ||
            report_stage_write(st, byx, write_csv, &byx_job) != 0)
            rc = -1, err = NULL;
    }
    if (rc != 0 && err) report_error(a, "the binary64 scan: %s", err);
    scan_result_free(r);
    free(list);
    if (rc != 0) return -1;
    report_clock_lap("%s: scan (sampled)", "binary64");
    if (run_bench(a, st, GELU_FORMAT_BINARY64) != 0) return -1;
    report_clock_lap("%s: benchmark", "binary64");
    char acc[2200], bench[2200], why[512];
    results_set *s = out->results = malloc(sizeof *s);
    if (!s || results_load_format(s, report_stage_path(st, name, acc, sizeof acc),
                                  report_stage_path(st, benchn, bench, sizeof bench),
                                  GELU_FORMAT_BINARY64, true, why, sizeof why) != 0) {
        report_error(a, "%s", s ? why : "out of memory");
        return -1;
    }
    out->section.results = s;
    out->section.plots_note = draw_plots(st, s, out->svg);
    for (int p = 0; p < PLOT_COUNT; p++) out->section.svg[p] = out->svg[p];
    report_clock_lap("%s: read back, plots", "binary64");
    return 0;
}

/* s with the paths' rows of the paths' binary32 scan added (pick judges a framework row by its
 * worst path); NULL when there is none or no memory (then s alone is judged). */
static results_set *with_paths(const results_set *s, const framework_paths_out *p)
{
    if (!p->n || !p->s[0].results) return NULL;
    results_set *m = malloc(sizeof *m);
    if (!m) return NULL;
    *m = *s;
    const results_set *ps = p->s[0].results;
    for (size_t i = 0; i < ps->n && m->n < RESULTS_MAX_ROWS; i++)
        if (strchr(ps->rows[i].name, '@')) m->rows[m->n++] = ps->rows[i];
    return m;
}

static int write_report(const report_job *a, const report_impls *impls, report_stage *st,
                        const scan_result *r, int *baseline_status)
{
    csv_job jobs[] = {{r, accuracy_csv_write}, {r, ranges_csv_write}, {r, ulp_by_x_csv_write},
                      {r, implementations_csv_write}};
    const report_file_id ids[] = {REPORT_FILE_ACCURACY, REPORT_FILE_RANGES, REPORT_FILE_ULP_BY_X,
                                  REPORT_FILE_IMPLEMENTATIONS};
    char name[64];
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++)
        if (report_stage_write(st, report_file_name(ids[i], GELU_FORMAT_BINARY32, name, sizeof name),
                               write_csv, &jobs[i]) != 0)
            return -1;
    static run_manifest manifest; /* large; its reproduce line goes on the page */
    manifest_collect(&manifest, a->command);
    if (report_stage_write(st, report_file_name(REPORT_FILE_MANIFEST, GELU_FORMAT_BINARY32, name, sizeof name),
                           write_manifest, &manifest) != 0)
        return -1;
    report_clock_lap("%s: table and files", "binary32");
    if (run_bench(a, st, GELU_FORMAT_BINARY32) != 0) return -1;
    report_clock_lap("%s: benchmark", "binary32");
    moons_experiment e;
    moons_summary *sum;
    if (run_moons(a, impls, st, &e, &sum) != 0) return -1;
    report_clock_lap("%s", "make_moons");
    html_moons moons = {&e, sum, a->quick ? "The quick run" : "The default run"};
    char acc[2200], bench[2200], err[512];
    results_set *s = malloc(sizeof *s);
    if (!s || results_load_checked(s, report_stage_path(st, "accuracy.csv", acc, sizeof acc),
                                   report_stage_path(st, "bench.csv", bench, sizeof bench), true,
                                   err, sizeof err) != 0) {
        report_error(a, "%s", s ? err : "out of memory");
        free(s);
        free(sum);
        moons_experiment_free(&e);
        return -1;
    }
    compare_sets *baseline;
    char baseline_note[1024] = "";
    if (run_compare(a, st, &baseline, baseline_note, sizeof baseline_note, baseline_status) != 0) {
        free(s);
        free(sum);
        moons_experiment_free(&e);
        return -1;
    }
    char *svg[PLOT_COUNT] = {NULL};
    const char *note = draw_plots(st, s, svg);
    char cpu[256], feat[128], date[64], scan[256], benchdesc[640], flags[512];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    describe(a, r, scan, sizeof scan);
    snprintf(flags, sizeof flags, "%s; %s", GELUCHECK_CFLAGS, GELUCHECK_ISA_CFLAGS);
    snprintf(benchdesc, sizeof benchdesc,
             "gelucheck bench%s: forward kernels on normal(0,1) inputs, "
             "one thread, sizes as in the table; widened bfloat16 conversions: %s; widened "
             "binary16 conversions: %s",
             a->quick ? " --quick" : "", gelu_widened_bfloat16_path(),
             gelu_widened_binary16_path());
    report_meta meta = {bench_cpu_model(cpu, sizeof cpu),
                        cpu_features_string(cpu_features(), feat, sizeof feat),
                        GELUCHECK_COMPILER,
                        flags,
                        date,
                        GELUCHECK_COMMIT,
                        manifest.reproduce,
                        scan,
                        benchdesc};
    enum { WHY_SIZE = 512 };
    char *why = malloc(r->nimpls * WHY_SIZE);
    const char **broken = malloc(r->nimpls * sizeof *broken);
    report_clock_lap("%s: read back, plots, baseline", "binary32");
    static framework_paths_out fpaths; /* large */
    if (framework_paths_scan(a->paths.list, a->paths.n, (unsigned)a->threads, st, &fpaths, err,
                             sizeof err) != 0) {
        report_error(a, "the frameworks' paths: %s", err);
        framework_paths_out_free(&fpaths);
        free(why);
        free(broken);
        for (int k = 0; k < PLOT_COUNT; k++) free(svg[k]);
        free(baseline);
        free(s);
        free(sum);
        moons_experiment_free(&e);
        return -1;
    }
    if (a->paths.n) {
        report_say(a, "\nthe frameworks' paths: %zu, on %s and natively in %zu 16-bit format%s; "
                      "the tables are in index.html\n",
                   a->paths.n, fpaths.n ? fpaths.s[0].covered : "nothing", fpaths.n ? fpaths.n - 1 : 0,
                   fpaths.n == 2 ? "" : "s");
        for (size_t k = 0; k < fpaths.n; k++) /* the paths' verdicts (accuracy.csv's are the rows') */
            for (size_t i = 0; fpaths.s[k].results && i < fpaths.s[k].results->n; i++)
                if (strcmp(fpaths.s[k].results->rows[i].contract, "fail") == 0)
                    report_say(a, "CONTRACT BROKEN (%s, the frameworks' paths' scan): %s\n",
                               gelu_format_of(fpaths.s[k].format)->name,
                               fpaths.s[k].results->rows[i].name);
        if (a->paths_broken && framework_paths_broken(&fpaths)) *a->paths_broken = true;
        report_clock_lap("%s", "frameworks' paths");
    }
    results_set *judged = with_paths(s, &fpaths);
    static capped_runs capped; /* the dispatching peers' rows under each platform's cap */
    static answer answer_here; /* answer.json's */
    answer *ans = a->answer ? a->answer : &answer_here;
    capped_plan(s, &capped);
    if (capped_measure(&capped, st, a->quick ? REPORT_QUICK_SAMPLE : CAPPED_FULL_SAMPLE, a->quick,
                       (unsigned)a->threads, err, sizeof err) != 0)
        report_error(a, "%s: those rows are judged on the path taken here", err);
    int built = answer_build_all(ans, judged ? judged : s, &capped, "l2", cpu, feat, err, sizeof err);
    free(judged);
    if (built == 0) { /* what the run left out, named beside the answer */
        const gelu_impl **all = malloc((impls->n + a->paths.n + 1) * sizeof *all);
        if (all) {
            memcpy(all, impls->list, impls->n * sizeof *all);
            if (a->paths.n) memcpy(all + impls->n, a->paths.list, a->paths.n * sizeof *all);
        }
        left_out_collect(&ans->left_out, all ? all : impls->list, all ? impls->n + a->paths.n : impls->n);
        ans->left_out_known = all != NULL;
        free(all);
        framework_paths_answer(&fpaths, ans);
    }
    if (built != 0) {
        report_error(a, "the answer: %s", err);
        free(why), why = NULL;
    } else if (report_stage_write(st, report_file_name(REPORT_FILE_ANSWER, GELU_FORMAT_BINARY32, name, sizeof name),
                                  write_answer, ans) != 0)
        free(why), why = NULL;
    capped_free(&capped);
    report_clock_lap("%s", "answer: capped runs, answer.json");
    if (!why || !broken) {
        framework_paths_out_free(&fpaths);
        free(why);
        free(broken);
        for (int k = 0; k < PLOT_COUNT; k++) free(svg[k]);
        return -1;
    }
    report_formats_out *formats = calloc(1, sizeof *formats);
    report_ftz_daz *ftz = calloc(1, sizeof *ftz);
    report_f64_out *f64 = calloc(1, sizeof *f64);
    if (!formats || !f64 || !ftz || run_formats(a, impls, st, formats) != 0 ||
        run_binary64(a, st, f64) != 0 || run_ftz_daz(a, impls, st, ftz) != 0 ||
        (report_clock_lap("%s", "ftz,daz"), 0)) {
        framework_paths_out_free(&fpaths);
        if (formats) report_formats_free(formats);
        if (f64) report_f64_free(f64);
        free(formats);
        if (ftz) free(ftz->results);
        free(ftz);
        free(f64);
        free(why);
        free(broken);
        for (int k = 0; k < PLOT_COUNT; k++) free(svg[k]);
        return -1;
    }
    html_report h = {s,        &meta,       {NULL},     note,
                     broken,   0,           &moons,     baseline,
                     a->baseline, baseline_note[0] ? baseline_note : NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    for (int k = 0; k < PLOT_COUNT; k++) h.svg[k] = svg[k];
    h.answer = ans;
    h.formats = formats->sections;
    h.nformats = formats->n;
    h.f64 = &f64->section;
    h.f64_sampled = f64->sampled;
    h.ftz_daz = ftz->results;
    h.ftz_daz_covered = ftz->covered;
    h.ftz_daz_left_out = ftz->left_out;
    h.framework_paths = &fpaths;
    for (size_t i = 0; i < r->nimpls; i++)
        if (scan_contract_violations(r, i, why + h.nbroken * WHY_SIZE, WHY_SIZE)) {
            broken[h.nbroken] = why + h.nbroken * WHY_SIZE;
            h.nbroken++;
        }
    int rc = report_stage_write(st, report_file_name(REPORT_FILE_PAGE, GELU_FORMAT_BINARY32, name, sizeof name),
                                write_html, &h); /* manifest.json is staged */
    framework_paths_out_free(&fpaths);
    report_formats_free(formats);
    free(formats);
    report_f64_free(f64);
    free(f64);
    free(ftz->results);
    free(ftz);
    for (int k = 0; k < PLOT_COUNT; k++) free(svg[k]);
    free(why);
    free(broken);
    free(baseline);
    free(s);
    free(sum);
    moons_experiment_free(&e);
    if (note) report_error(a, "%s", note);
    return rc;
}

int report_job_write(const report_job *job, report_stage *st, const scan_result *r,
                     int *baseline_status)
{
    return write_report(job, &job->impls, st, r, baseline_status);
}
