/* gelucheck report: the main job. The exhaustive scan (forward and derivative) of every
 * implementation this CPU runs, the benchmark against ReLU, the make_moons experiment over the
 * scanned implementations, then DIR/accuracy.csv, ranges.csv, ulp_by_x.csv, implementations.csv, bench.csv,
 * moons.csv, the plots (gnuplot, SVG), then each other format's (bfloat16, binary16: every input;
 * binary64: a sample) scan, benchmark and plots, and index.html, all published at once
 * (reports/report_stage.h): an interrupted run leaves the previous report as it was. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accuracy_csv.h"
#include "answer.h"
#include "accuracy_output.h"
#include "bench.h"
#include "chunked_scan.h"
#include "cli.h"
#include "compare.h"
#include "gelucheck_config.h"
#include "gelucheck_version.h"
#include "html_report.h"
#include "manifest.h"
#include "moons.h"
#include "ranks.h"
#include "refine.h"
#include "report_stage.h"
#include "gelu_cr16.h"
#include "scan_small.h"
#include "scan_f64.h"
#include "gelu_f64.h"
#include "exec_impl.h"
#include "fpenv_cover.h"

#define DEFAULT_DIR "report"
enum { QUICK_SAMPLE = 1000000, QUICK_SEED = 1, QUICK_F64_SAMPLE = 20000 };
/* The full job's capped runs (reports/capped.h) scan a sample of 2^24 inputs: every input under
 * each cap would add about 380 s of CPU per cap (oneDNN's two rows, estimated from 4 of 256
 * shards), a quarter of the job; the answer marks their figures as sampled. */
enum { CAPPED_FULL_SAMPLE = 1 << 24 };

static void print_help(void)
{
    printf(
        "usage: gelucheck report [--out DIR] [--quick] [--threads N] [--baseline OLD_DIR]\n"
        "                        [--checkpoint DIR]\n\n"
        "The main job: scans every implementation this CPU runs over all 2^32 binary32 inputs,\n"
        "forward and derivative, against the MPFR reference; benchmarks them against ReLU;\n"
        "runs the make_moons experiment over them (as 'gelucheck moons'); and writes into DIR\n"
        "(default %s/): accuracy.csv, ranges.csv, ulp_by_x.csv, implementations.csv,\n"
        "bench.csv, moons.csv, the\n"
        "plots (*.svg, drawn by gnuplot from the *.gp scripts beside them), manifest.json\n"
        "(what produced them) and index.html, one self-contained page. Then, for bfloat16 and\n"
        "binary16 (F), every one of the 65,536 inputs of F, the same implementations widened and\n"
        "F's own (as 'accuracy --format F --grad'), and F's benchmark ('bench --format F'):\n"
        "accuracy_F.csv, ulp_by_x_F.csv, bench_F.csv, F_*.svg and a section of the page each.\n"
        "Then binary64, its accuracy by sampling only: %d draws (seed 1) and binary64's hard\n"
        "inputs, every binary64 implementation forward and derivative (as 'accuracy --format\n"
        "binary64 --grad'), then its benchmark ('bench --format binary64', against a binary64\n"
        "ReLU): accuracy_binary64.csv, ulp_by_x_binary64.csv, bench_binary64.csv, binary64_*.svg\n"
        "and a section of the page that says the accuracy is sampled.\n"
        "Then ftz,daz: the in-process implementations (exec children left out: MXCSR does not\n"
        "reach their process) with MXCSR's FTZ and DAZ set, forward and derivative, over the\n"
        "inputs where that can change a result (as 'accuracy --fpenv ftz,daz --cover full\n"
        "--grad': every input of [-112, -9] and of [-2^-125, 2^-125], and 1,000,000 draws;\n"
        "--quick: 'cover quick'): accuracy_ftz_daz.csv and a section of the page; the claims\n"
        "are IEEE's, so this section does not change the exit status.\n"
        "Every file appears at once at the end: an interrupted run leaves\n"
        "the previous report intact.\n\n"
        "  --out DIR     the report directory (created if missing; its parent must exist)\n"
        "  --quick       a seeded sample of %d binary32 encodings, 'bench --quick' and 'moons\n"
        "                --quick' (the 16-bit scans still every input, their benchmarks --quick;\n"
        "                binary64 %d draws, its benchmark --quick): about 30 s of CPU\n"
        "  --threads N   scan and make_moons threads (default: all online CPUs); results do not\n"
        "                depend on it\n"
        "  --baseline OLD_DIR  an earlier report of the same kind (quick or full): what changed\n"
        "                since (as 'gelucheck compare OLD_DIR DIR') goes into the page and\n"
        "                compare.csv; a regression makes the exit status 1\n"
        "  --checkpoint DIR  keep the scan's finished chunks in DIR; the same command again\n"
        "                resumes the scan where it stopped (as 'accuracy --checkpoint')\n\n"
        "MPI: 'mpirun -n R gelucheck report ...' shares the scan between R processes; rank 0\n"
        "alone then benchmarks (the other ranks wait, idle) and writes the report.\n\n"
        "The full run took 24.8 minutes on 2 idle Intel Sapphire Rapids cores (2026-12-03,\n"
        "the scan 21.6 of them; 93 before this round's changes)\n"
        "and 26.5 to 27.2 on 2 idle AMD Zen 4 cores; see the README's \"Measured over all\n"
        "2^32 inputs\". Progress goes to stderr (on a terminal a bar,\n"
        "else a line a minute during the scan); the scan's table and the benchmark's\n"
        "to stdout, and last a table of where the time went (wall and CPU seconds per\n"
        "section: each format's scan, benchmark and plots, make_moons, ftz,daz) with the\n"
        "binary32 scan's kernels alone (their thread seconds from the scan's own timing, not\n"
        "with --checkpoint or mpirun) and the scan's and the whole job's ratio to them.\n"
        "Exit status: 0 report written and every contract met, 1 report written but a\n"
        "contract is broken (see its table) or accuracy regressed against the baseline, or\n"
        "the report could not be written, 2 bad usage or a baseline that cannot be compared.\n",
        DEFAULT_DIR, SCAN_F64_DEFAULT_SAMPLE, QUICK_SAMPLE, QUICK_F64_SAMPLE);
}

typedef struct {
    const char *out, *baseline, *checkpoint;
    bool quick;
    uint64_t threads;
    char command[1024];
} report_args;

static int parse_args(int argc, char **argv, report_args *a)
{
    const char *v;
    int got;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            a->quick = true;
        else if ((got = option_value("report", argc, argv, &i, "--out", &v))) {
            if (got < 0) return EXIT_USAGE;
            if (*v == '\0') return usage_error("report", "empty --out");
            a->out = v;
        } else if ((got = option_value("report", argc, argv, &i, "--baseline", &v))) {
            if (got < 0) return EXIT_USAGE;
            a->baseline = v;
        } else if ((got = option_value("report", argc, argv, &i, "--checkpoint", &v))) {
            if (got < 0) return EXIT_USAGE;
            if (*v == '\0') return usage_error("report", "--checkpoint needs a directory name");
            a->checkpoint = v;
        } else if ((got = option_value("report", argc, argv, &i, "--threads", &v))) {
            if (got < 0) return EXIT_USAGE;
            if (!parse_u64(v, 1, 1024, &a->threads))
                return usage_error("report", "bad --threads '%s': 1 to 1024", v);
        } else
            return usage_error("report", "unexpected argument '%s'", argv[i]);
    }
    snprintf(a->command, sizeof a->command, "%s", cli_command()); /* the real argv */
    return EXIT_OK;
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
static answer report_answer; /* answer.json's, printed last */
static capped_runs report_capped; /* the dispatching peers' rows under each platform's cap */

static int write_compare_csv(FILE *f, void *ctx) { return compare_csv_write(f, ctx); }

static int write_moons_csv(FILE *f, void *ctx)
{
    return moons_csv_write(ctx, f) == MOONS_OK ? 0 : -1;
}

/* ---- the steps */

typedef struct {
    const gelu_impl **list; /* what the scan and make_moons run (room for the registry) */
    size_t n;
} report_impls;

/* The scan (chunked with a checkpoint or MPI ranks): EXIT_OK, EXIT_RANK_WORKER on a worker
 * rank, or an exit status after a message. */
/* The binary32 scan's kernels alone (scan_profile: thread seconds in the implementations'
 * kernels, both directions), for the time table; negative when not timed (mpirun, or a
 * --checkpoint, where this process may scan only part of the inputs). */
static double scan_kernel_seconds = -1;

static int run_scan(const report_args *a, const report_impls *impls, scan_result *r)
{
    scan_progress_state progress;
    scan_progress_start(&progress);
    scan_profile profile = {0};
    bool timed = !a->checkpoint && !ranks_active();
    scan_config cfg = {
        .impls = impls->list,
        .nimpls = impls->n,
        .grad = true,
        .domain = a->quick
                      ? (scan_domain){.kind = DOMAIN_SAMPLE, .n = QUICK_SAMPLE, .seed = QUICK_SEED}
                      : (scan_domain){.kind = DOMAIN_ALL},
        .threads = (unsigned)a->threads,
        .shard_n = 1,
        .progress = accuracy_progress,
        .progress_ctx = &progress,
        .profile = timed ? &profile : NULL, /* a few clock reads per block and implementation */
    };
    int st = chunked_scan("report", &cfg, a->checkpoint, r);
    if (timed && st == EXIT_OK) {
        scan_kernel_seconds = 0;
        for (size_t i = 0; i < profile.nimpls; i++)
            for (int d = 0; d < DIR_COUNT; d++) scan_kernel_seconds += profile.kernel[i][d];
    }
    scan_profile_release(&profile);
    return st;
}

/* The benchmark of a format through its own command (binary32: 'bench', another format:
 * 'bench --format F'), its CSV (bench.csv, bench_F.csv) into the staging directory. */
static int run_bench(const report_args *a, report_stage *st, gelu_format_id format)
{
    char csv[2200], name[64], fmt[32];
    results_file_name(name, sizeof name, "bench", format);
    if (!report_stage_path(st, name, csv, sizeof csv)) return -1;
    snprintf(fmt, sizeof fmt, "%s", gelu_format_of(format)->name);
    char *argv[7] = {"bench", "--csv", csv}; /* + --format F, --quick, NULL */
    int argc = 3;
    if (format != GELU_FORMAT_BINARY32) {
        argv[argc++] = "--format";
        argv[argc++] = fmt;
    }
    if (a->quick) argv[argc++] = "--quick";
    argv[argc] = NULL;
    printf("\n");
    fflush(stdout);
    return cmd_bench(argc, argv) == EXIT_OK ? 0 : -1;
}

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_seconds(void)
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

static void clock_start(void)
{
    job_clock.n = 0;
    job_clock.wall0 = job_clock.wall_start = monotonic_seconds();
    job_clock.cpu0 = job_clock.cpu_start = cpu_seconds();
}

/* Ends the section running since the last lap (or the start) and names it. */
static void clock_lap(const char *fmt, const char *arg)
{
    double w = monotonic_seconds(), c = cpu_seconds();
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
static void clock_print(unsigned threads, double kernel_seconds)
{
    printf("\nwhere the time went:\n%-40s %10s %10s\n", "section", "wall s", "CPU s");
    for (size_t i = 0; i < job_clock.n; i++)
        printf("%-40s %10.1f %10.1f\n", job_clock.lap[i].name, job_clock.lap[i].wall,
               job_clock.lap[i].cpu);
    double total = monotonic_seconds() - job_clock.wall_start;
    printf("%-40s %10.1f %10.1f\n", "total", total, cpu_seconds() - job_clock.cpu_start);
    if (kernel_seconds < 0) {
        printf("(the binary32 scan's kernels alone: not timed with --checkpoint or mpirun)\n");
        return;
    }
    if (threads == 0) threads = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads == 0) threads = 1;
    double kernels = kernel_seconds / threads;
    printf("the binary32 scan's kernels alone: %.1f thread s, %.1f s of wall on %u thread%s: the "
           "scan %.2fx that, the whole job %.2fx\n",
           kernel_seconds, kernels, threads, threads > 1 ? "s" : "",
           kernels > 0 ? job_clock.lap[0].wall / kernels : 0, kernels > 0 ? total / kernels : 0);
}

static void moons_progress_line(void *ctx, size_t done, size_t total)
{
    fprintf(stderr, "\rmake_moons: %zu/%zu runs, %.0f s", done, total,
            monotonic_seconds() - *(const double *)ctx);
    if (done == total) fputc('\n', stderr);
}

/* The make_moons experiment over the scanned implementations (the default or the quick
 * configuration), summarised into sum (one per implementation, allocated); then moons.csv
 * into the staging directory. 0, or −1 with a message printed (e freed). */
static int run_moons(const report_args *a, const report_impls *impls, report_stage *st,
                     moons_experiment *e, moons_summary **sum)
{
    moons_config c;
    if (a->quick) moons_config_quick(&c);
    else moons_config_default(&c);
    int r = moons_experiment_init(e, &c, impls->list, impls->n);
    if (r == MOONS_BAD_CONFIG) {
        fprintf(stderr, "gelucheck report: make_moons cannot run: no available implementation "
                        "of the exact GELU to serve as reference\n");
        return -1;
    }
    double t0 = monotonic_seconds();
    if (r == MOONS_OK)
        r = moons_experiment_run(e, (unsigned)a->threads,
                                 isatty(STDERR_FILENO) ? moons_progress_line : NULL, &t0);
    *sum = r == MOONS_OK ? calloc(e->n_impls, sizeof **sum) : NULL;
    if (!*sum) r = MOONS_NO_MEMORY;
    for (size_t i = 0; r == MOONS_OK && i < e->n_impls; i++)
        r = moons_summarise(e, i, &(*sum)[i]);
    if (r != MOONS_OK) {
        fprintf(stderr, "gelucheck report: make_moons: out of memory\n");
        free(*sum);
        moons_experiment_free(e);
        return -1;
    }
    printf("\nmake_moons (%s): %zu runs (%zu implementations, %zu seeds of %zu epochs) in "
           "%.1f s; the tables are in index.html\n",
           a->quick ? "--quick" : "default", e->n_impls * c.n_seeds, e->n_impls, c.n_seeds,
           c.epochs, monotonic_seconds() - t0);
    if (report_stage_write(st, "moons.csv", write_moons_csv, e) != 0) {
        free(*sum);
        moons_experiment_free(e);
        return -1;
    }
    return 0;
}

/* Reads a whole file (NULL on failure). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
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

static void describe(const report_args *a, const scan_result *r, char *scan, size_t size)
{
    if (a->quick)
        snprintf(scan, size,
                 "a seeded sample of %llu distinct binary32 encodings (of %d drawn, seed %d), "
                 "forward and derivative",
                 (unsigned long long)r->inputs, QUICK_SAMPLE, QUICK_SEED);
    else
        snprintf(scan, size, "all 2^32 binary32 encodings (%llu), forward and derivative",
                 (unsigned long long)r->inputs);
}

/* The baseline compared with the staged results (manifest, accuracy.csv, bench.csv), its
 * compare.csv staged; *status EXIT_CHECK_FAILED on a regression, EXIT_USAGE when the sets cannot
 * be compared (then *note says why and the result is NULL). −1 when compare.csv cannot be
 * written. */
static int run_compare(const report_args *a, report_stage *st, compare_sets **out, char *note,
                       size_t notesize, int *status)
{
    *out = NULL;
    if (!a->baseline) return 0;
    compare_sets *cs = malloc(sizeof *cs);
    if (!cs) return -1;
    if (compare_sets_load(cs, a->baseline, st->stage, note, notesize) != 0) {
        fprintf(stderr, "gelucheck report: --baseline: %s\n", note);
        free(cs);
        *status = EXIT_USAGE;
        return 0;
    }
    if (report_stage_write(st, "compare.csv", write_compare_csv, &cs->result) != 0) {
        free(cs);
        return -1;
    }
    printf("\nagainst the baseline %s/: %zu regression%s (see index.html and compare.csv)\n",
           a->baseline, cs->result.regressions, cs->result.regressions == 1 ? "" : "s");
    if (cs->result.regressions) *status = EXIT_CHECK_FAILED;
    *out = cs;
    return 0;
}

/* The report's other formats, one section each (one entry per format). */
static const gelu_format_id report_formats[] = {GELU_FORMAT_BFLOAT16, GELU_FORMAT_BINARY16};
enum { REPORT_FORMATS = sizeof report_formats / sizeof report_formats[0] };

/* What the formats' sections are made of: per format its results read back and its plots. */
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
 * natives (scan_small.h), into accuracy_F.csv and ulp_by_x_F.csv. 0, or −1 after a message. */
static int scan_format16(const report_args *a, const report_impls *impls, report_stage *st,
                         gelu_format_id id)
{
    size_t room = impls->n + gelu_impl16_count();
    gelu_impl *views = calloc(room, sizeof *views);
    const gelu_impl **list = calloc(room, sizeof *list);
    scan_result *r = calloc(1, sizeof *r);
    const char *err = "out of memory";
    int rc = -1;
    if (views && list && r) {
        size_t m = 0;
        for (size_t i = 0; i < impls->n; i++) {
            if (gelu_impl16_find(impls->list[i]->name, id)) continue; /* its native stands in */
            views[m] = gelu_impl_widened(impls->list[i], id);
            list[m] = &views[m];
            m++;
        }
        for (size_t i = 0; i < gelu_impl16_count(); i++)
            if (gelu_impl16_at(i)->format == id) list[m++] = gelu_impl16_at(i);
        scan_small_config cfg = {.format = id, .impls = list, .nimpls = m, .grad = true,
                                 .threads = (unsigned)a->threads};
        rc = scan_small_run(&cfg, r, &err) == 0 ? 0 : -1;
    }
    if (rc != 0) fprintf(stderr, "gelucheck report: the %s scan: %s\n", gelu_format_of(id)->name, err);
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

/* The other formats (report_formats): per format its scan, its benchmark (bench_F.csv), its
 * results read back from those files as the page's binary32 table is, and its plots, into out.
 * 0, or −1 after a message. */
static int run_formats(const report_args *a, const report_impls *impls, report_stage *st,
                       report_formats_out *out)
{
    for (size_t k = 0; k < REPORT_FORMATS; k++) {
        gelu_format_id id = report_formats[k];
        char accn[64], benchn[64], acc[2200], bench[2200], err[512];
        results_file_name(accn, sizeof accn, "accuracy", id);
        results_file_name(benchn, sizeof benchn, "bench", id);
        if (scan_format16(a, impls, st, id) != 0) return -1;
        clock_lap("%s: scan", gelu_format_of(id)->name);
        if (run_bench(a, st, id) != 0) return -1;
        clock_lap("%s: benchmark", gelu_format_of(id)->name);
        results_set *s = out->results[k] = malloc(sizeof *s);
        if (!s || results_load_format(s, report_stage_path(st, accn, acc, sizeof acc),
                                      report_stage_path(st, benchn, bench, sizeof bench), id, true,
                                      err, sizeof err) != 0) {
            fprintf(stderr, "gelucheck report: %s\n", s ? err : "out of memory");
            return -1;
        }
        html_format *sec = &out->sections[k];
        sec->results = s;
        sec->plots_note = draw_plots(st, s, out->svg[k]);
        for (int p = 0; p < PLOT_COUNT; p++) sec->svg[p] = out->svg[k][p];
        out->n++;
        clock_lap("%s: read back, plots", gelu_format_of(id)->name);
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
 * those left out into left_out. */
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
static int run_ftz_daz(const report_args *a, const report_impls *impls, report_stage *st,
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
    double t0 = cpu_seconds();
    scan_progress_state progress;
    scan_progress_start(&progress);
    scan_config cfg = {.impls = list, .nimpls = n, .grad = true,
                       .domain = {.kind = DOMAIN_LIST, .list = inputs, .n = ninputs},
                       .threads = (unsigned)a->threads, .shard_n = 1, .fpenv = GELU_FPENV_FTZ_DAZ,
                       .progress = accuracy_progress, .progress_ctx = &progress};
    if (rc == 0 && n == 0) rc = -1, err = "no in-process implementation to scan";
    if (rc == 0 && (rc = scan_run(&cfg, r, &err)) == 0) {
        scan_refine_maxima(r);
        out->cpu_seconds = cpu_seconds() - t0;
        fpenv_cover_describe(&cover, r->inputs, out->covered, sizeof out->covered);
        printf("\nftz,daz: %llu inputs, %zu implementations, forward and derivative, in %.1f s "
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
    if (rc != 0 && err) fprintf(stderr, "gelucheck report: the ftz,daz scan: %s\n", err);
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
 * derivative, on the default sample (--quick: QUICK_F64_SAMPLE draws), into
 * accuracy_binary64.csv and ulp_by_x_binary64.csv (the sample's maxima per x bucket); then its
 * benchmark (bench_binary64.csv); read back as the other formats' are, with its plots and what
 * was sampled, into *out. 0, or −1 after a message. */
static int run_binary64(const report_args *a, report_stage *st, report_f64_out *out)
{
    const gelu_impl **list = calloc(gelu_impl64_count() + 1, sizeof *list);
    scan_result *r = calloc(1, sizeof *r);
    size_t n = 0;
    const char *err = "out of memory";
    char name[64], byx[64], benchn[64];
    results_file_name(name, sizeof name, "accuracy", GELU_FORMAT_BINARY64);
    results_file_name(byx, sizeof byx, "ulp_by_x", GELU_FORMAT_BINARY64);
    results_file_name(benchn, sizeof benchn, "bench", GELU_FORMAT_BINARY64);
    int rc = list && r ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < gelu_impl64_count(); i++)
        if (gelu_impl_available(gelu_impl64_at(i))) list[n++] = gelu_impl64_at(i);
    scan_f64_config cfg = {.impls = list, .nimpls = n, .grad = true, .seed = 1,
                           .n = a->quick ? QUICK_F64_SAMPLE : SCAN_F64_DEFAULT_SAMPLE,
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
    if (rc != 0 && err) fprintf(stderr, "gelucheck report: the binary64 scan: %s\n", err);
    scan_result_free(r);
    free(list);
    if (rc != 0) return -1;
    clock_lap("%s: scan (sampled)", "binary64");
    if (run_bench(a, st, GELU_FORMAT_BINARY64) != 0) return -1;
    clock_lap("%s: benchmark", "binary64");
    char acc[2200], bench[2200], why[512];
    results_set *s = out->results = malloc(sizeof *s);
    if (!s || results_load_format(s, report_stage_path(st, name, acc, sizeof acc),
                                  report_stage_path(st, benchn, bench, sizeof bench),
                                  GELU_FORMAT_BINARY64, true, why, sizeof why) != 0) {
        fprintf(stderr, "gelucheck report: %s\n", s ? why : "out of memory");
        return -1;
    }
    out->section.results = s;
    out->section.plots_note = draw_plots(st, s, out->svg);
    for (int p = 0; p < PLOT_COUNT; p++) out->section.svg[p] = out->svg[p];
    clock_lap("%s: read back, plots", "binary64");
    return 0;
}

static int write_report(const report_args *a, const report_impls *impls, report_stage *st,
                        const scan_result *r, int *baseline_status)
{
    csv_job jobs[] = {{r, accuracy_csv_write}, {r, ranges_csv_write}, {r, ulp_by_x_csv_write},
                      {r, implementations_csv_write}};
    const char *names[] = {"accuracy.csv", "ranges.csv", "ulp_by_x.csv", "implementations.csv"};
    for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++)
        if (report_stage_write(st, names[i], write_csv, &jobs[i]) != 0) return -1;
    static run_manifest manifest; /* large; its reproduce line goes on the page */
    manifest_collect(&manifest, a->command);
    if (report_stage_write(st, MANIFEST_FILE, write_manifest, &manifest) != 0) return -1;
    clock_lap("%s: table and files", "binary32");
    if (run_bench(a, st, GELU_FORMAT_BINARY32) != 0) return -1;
    clock_lap("%s: benchmark", "binary32");
    moons_experiment e;
    moons_summary *sum;
    if (run_moons(a, impls, st, &e, &sum) != 0) return -1;
    clock_lap("%s", "make_moons");
    html_moons moons = {&e, sum, a->quick ? "The quick run" : "The default run"};
    char acc[2200], bench[2200], err[512];
    results_set *s = malloc(sizeof *s);
    if (!s || results_load_checked(s, report_stage_path(st, "accuracy.csv", acc, sizeof acc),
                                   report_stage_path(st, "bench.csv", bench, sizeof bench), true,
                                   err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck report: %s\n", s ? err : "out of memory");
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
    capped_plan(s, &report_capped);
    if (capped_measure(&report_capped, st, a->quick ? QUICK_SAMPLE : CAPPED_FULL_SAMPLE, a->quick,
                       (unsigned)a->threads, err, sizeof err) != 0)
        fprintf(stderr, "gelucheck report: %s: those rows are judged on the path taken here\n", err);
    if (answer_build_all(&report_answer, s, &report_capped, "l2", cpu, feat, err, sizeof err) != 0 ||
        report_stage_write(st, ANSWER_FILE, write_answer, &report_answer) != 0)
        free(why), why = NULL;
    if (!why || !broken) {
        free(why);
        free(broken);
        for (int k = 0; k < PLOT_COUNT; k++) free(svg[k]);
        return -1;
    }
    clock_lap("%s: read back, plots, baseline", "binary32");
    report_formats_out *formats = calloc(1, sizeof *formats);
    report_ftz_daz *ftz = calloc(1, sizeof *ftz);
    report_f64_out *f64 = calloc(1, sizeof *f64);
    if (!formats || !f64 || !ftz || run_formats(a, impls, st, formats) != 0 ||
        run_binary64(a, st, f64) != 0 || run_ftz_daz(a, impls, st, ftz) != 0 ||
        (clock_lap("%s", "ftz,daz"), 0)) {
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
                     a->baseline, baseline_note[0] ? baseline_note : NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL};
    for (int k = 0; k < PLOT_COUNT; k++) h.svg[k] = svg[k];
    h.formats = formats->sections;
    h.nformats = formats->n;
    h.f64 = &f64->section;
    h.f64_sampled = f64->sampled;
    h.ftz_daz = ftz->results;
    h.ftz_daz_covered = ftz->covered;
    h.ftz_daz_left_out = ftz->left_out;
    for (size_t i = 0; i < r->nimpls; i++)
        if (scan_contract_violations(r, i, why + h.nbroken * WHY_SIZE, WHY_SIZE)) {
            broken[h.nbroken] = why + h.nbroken * WHY_SIZE;
            h.nbroken++;
        }
    int rc = report_stage_write(st, "index.html", write_html, &h); /* manifest.json is staged */
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
    if (note) fprintf(stderr, "gelucheck report: %s\n", note);
    return rc;
}

/* Why a report directory could not be made: errno's text, made precise where it misleads
 * (ENOENT for a parent that exists but takes no new directories, such as /proc). */
static const char *explain_dir_error(const char *dir, int e, char *buf, size_t size)
{
    char parent[2100];
    const char *slash = strrchr(dir, '/');
    snprintf(parent, sizeof parent, "%.*s", slash ? (slash == dir ? 1 : (int)(slash - dir)) : 1,
             slash ? dir : ".");
    struct stat st;
    if (e == ENOENT && stat(parent, &st) != 0)
        snprintf(buf, size, "its parent directory '%.300s' does not exist", parent);
    else if (e == ENOENT)
        snprintf(buf, size, "'%.200s' exists but the file system there does not allow creating '%.200s' (%s)",
                 parent, slash ? slash + 1 : dir, strerror(e));
    else if (e == ENOTDIR)
        snprintf(buf, size, "it, or a directory on its path, is not a directory");
    else
        snprintf(buf, size, "%s", strerror(e));
    return buf;
}

int cmd_report(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i])) {
            print_help();
            return EXIT_OK;
        }
    report_args a = {.out = DEFAULT_DIR};
    int st = parse_args(argc, argv, &a);
    if (st != EXIT_OK) return st;
    if (ranks_rank() != 0) { /* a worker rank scans its share and leaves the rest to rank 0 */
        report_impls impls = {calloc(gelu_impl_count(), sizeof *impls.list), 0};
        scan_result *r = calloc(1, sizeof *r);
        if (impls.list) impls.n = accuracy_default_impls("report", impls.list);
        st = r && impls.list ? run_scan(&a, &impls, r) : EXIT_CHECK_FAILED;
        scan_result_free(r);
        free(impls.list);
        return st;
    }
    run_manifest old;
    char why[1024];
    if (a.baseline && compare_check_dir(a.baseline, &old, why, sizeof why) != 0)
        return usage_error("report", "bad --baseline: %s", why);
    report_stage stage;
    if (report_stage_open(&stage, a.out) != 0) {
        char why[600];
        fprintf(stderr, "gelucheck report: cannot write the report directory '%s': %s\n", a.out,
                explain_dir_error(a.out, errno, why, sizeof why));
        return EXIT_CHECK_FAILED;
    }
    report_impls impls = {calloc(gelu_impl_count(), sizeof *impls.list), 0};
    scan_result *r = calloc(1, sizeof *r);
    if (impls.list) impls.n = accuracy_default_impls("report", impls.list);
    clock_start();
    st = r && impls.list ? run_scan(&a, &impls, r) : EXIT_CHECK_FAILED;
    clock_lap("%s", a.quick ? "binary32: scan (--quick sample)" : "binary32: scan (all 2^32 inputs)");
    if (st != EXIT_OK) {
        if (!r || !impls.list) fprintf(stderr, "gelucheck report: out of memory\n");
        scan_result_free(r);
        free(impls.list);
        report_stage_abort(&stage);
        return st;
    }
    if ((st = exec_failure_status("report")) != EXIT_OK) {
        scan_result_free(r);
        free(impls.list);
        report_stage_abort(&stage);
        return st;
    }
    scan_refine_maxima(r);
    accuracy_files none = {NULL, NULL, NULL};
    st = accuracy_output("report", r, &none); /* the table and the contract verdicts */
    int baseline_status = EXIT_OK;
    if (write_report(&a, &impls, &stage, r, &baseline_status) != 0) {
        fprintf(stderr, "gelucheck report: the report was not written (%s); %s/ is as it was\n",
                errno ? strerror(errno) : "see above", a.out);
        report_stage_abort(&stage);
        st = EXIT_CHECK_FAILED;
    } else if (report_stage_commit(&stage) != 0) {
        fprintf(stderr,
                "gelucheck report: cannot publish into %s/: %s; every file put in place was put "
                "back: %s/ holds the previous report, unchanged\n",
                a.out, strerror(errno), a.out);
        st = EXIT_CHECK_FAILED;
    } else {
        printf("\nreport written: %s/index.html (with accuracy.csv, ranges.csv, ulp_by_x.csv, "
               "implementations.csv, "
               "bench.csv, moons.csv, manifest.json, accuracy_F.csv, ulp_by_x_F.csv and "
               "bench_F.csv for F = bfloat16, binary16, binary64 (sampled), " RESULTS_FTZ_DAZ_FILE "%s)\n",
               a.out, a.baseline && baseline_status != EXIT_USAGE ? ", compare.csv" : "");
        if (baseline_status == EXIT_USAGE || (baseline_status && st == EXIT_OK))
            st = baseline_status;
        clock_lap("%s", "page, publishing");
        clock_print((unsigned)a.threads, scan_kernel_seconds);
        answer_print_matrix(stdout, &report_answer);
    }
    scan_result_free(r);
    free(impls.list);
    return st;
}
