/* gelucheck report: the main job. The command line's part: its options and help, the binary32
 * scan (chunked with a checkpoint, or shared between MPI ranks), the scan's table and verdicts,
 * and the printing; the rest of the job — the files, the other formats, the page, published at
 * once so that an interrupted run leaves the previous report as it was — is reports/report_job.h's.
 * The report's files are reports/report_files.h's list. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accuracy_output.h"
#include "chunked_scan.h"
#include "cli.h"
#include "compare.h"
#include "framework_paths_scan.h"
#include "ranks.h"
#include "refine.h"
#include "report_clock.h"
#include "report_files.h"
#include "report_job.h"
#include "report_stage.h"
#include "scan_f64.h"

#define DEFAULT_DIR "report"

/* The report's formats after binary32 scanned over every input ("bfloat16, binary16, ..."). */
static const char *small_formats(void)
{
    static char buf[256];
    gelu_format_id ids[REPORT_FORMATS];
    size_t n = report_formats(ids), len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const gelu_format *f = gelu_format_of(ids[i]);
        if (ids[i] == GELU_FORMAT_BINARY32 || gelu_format_sampled(f)) continue;
        len += (size_t)snprintf(buf + len, len < sizeof buf ? sizeof buf - len : 0, "%s%s",
                                len ? ", " : "", f->name);
    }
    return buf;
}

static void print_help(void)
{
    printf(
        "usage: gelucheck report [--out DIR] [--quick] [--threads N] [--baseline OLD_DIR]\n"
        "                        [--checkpoint DIR] [--json FILE]\n"
        "       gelucheck report --list-outputs\n\n"
        "The main job: scans every implementation this CPU runs over all 2^32 binary32 inputs,\n"
        "forward and derivative, against the MPFR reference; benchmarks them against ReLU;\n"
        "runs the make_moons experiment over them (as 'gelucheck moons'). Then, for each\n"
        "small format F (%s), every input of F, the same implementations\n"
        "widened and F's own (as 'accuracy --format F --grad'), and F's benchmark ('bench --format F').\n"
        "Then binary64, its accuracy by sampling only: %d draws (seed 1) and binary64's hard\n"
        "inputs, every binary64 implementation forward and derivative (as 'accuracy --format\n"
        "binary64 --grad'), then its benchmark ('bench --format binary64', against a binary64\n"
        "ReLU); its section of the page says the accuracy is sampled.\n"
        "Then ftz,daz: the in-process implementations (exec children left out: MXCSR does not\n"
        "reach their process) with MXCSR's FTZ and DAZ set, forward and derivative, over the\n"
        "inputs where that can change a result (as 'accuracy --fpenv ftz,daz --cover full\n"
        "--grad': every input of [-112, -9] and of [-2^-125, 2^-125], and 1,000,000 draws;\n"
        "--quick: 'cover quick'); the claims are IEEE's, so this section does not change the\n"
        "exit status.\n"
        "The frameworks' paths a run starts (GELUCHECK_FRAMEWORK_PATHS with --frameworks:\n"
        "ROW@PATH rows) are not in the scan of all inputs: they and their rows are scanned on\n"
        "the paths' sample (as 'accuracy --cover paths --grad') and natively in each 16-bit\n"
        "format their client serves, every input (docs/frameworks.md, \"Paths\").\n"
        "Last it names what the run left out and why (frameworks not installed, with the\n"
        "command that installs them, or not asked for: --frameworks; rows this CPU cannot run;\n"
        "benchmark-only rows): on the console, the page and answer.json's \"left_out\".\n"
        "It writes the files below into DIR (default %s/), index.html one self-contained page\n"
        "with a section per format. Every file appears at once at the end: an interrupted run\n"
        "leaves the previous report intact.\n\n"
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
        "                resumes the scan where it stopped (as 'accuracy --checkpoint')\n"
        "  --json FILE   also write the answer (answer.json's content) to FILE, with its\n"
        "                manifest beside it, as 'pick --json' does\n"
        "  --list-outputs  the files below as a Markdown table (file, when written, what it\n"
        "                holds), and nothing else\n\n"
        "Files:\n",
        small_formats(), SCAN_F64_DEFAULT_SAMPLE, DEFAULT_DIR, REPORT_QUICK_SAMPLE,
        REPORT_QUICK_F64_SAMPLE);
    report_files_help(stdout, 80);
    printf(
        "\nMPI: 'mpirun -n R gelucheck report ...' shares the scan between R processes; rank 0\n"
        "alone then benchmarks (the other ranks wait, idle) and writes the report.\n\n"
        "The full run takes about an hour of CPU time, most of it the scan on every thread\n"
        "(docs/measurements/ has records of runs). Progress goes to stderr (on a terminal a\n"
        "bar, else a line a minute during the scan); the scan's table and the benchmark's\n"
        "to stdout, and last a table of where the time went (wall and CPU seconds per\n"
        "section: each format's scan, benchmark and plots, make_moons, ftz,daz) with the\n"
        "binary32 scan's kernels alone (their thread seconds from the scan's own timing, not\n"
        "with --checkpoint or mpirun) and the scan's and the whole job's ratio to them.\n"
        "Exit status: 0 report written and every contract met, 1 report written but a\n"
        "contract is broken (see its table) or accuracy regressed against the baseline, or\n"
        "the report could not be written, 2 bad usage or a baseline that cannot be compared.\n");
}

typedef struct {
    const char *out, *baseline, *checkpoint, *json;
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
            if (*v == '\0') { /* as every output named "" (--csv ""): cannot be written, exit 1 */
                fprintf(stderr, "gelucheck report: cannot write the report directory '': the name "
                        "is empty\n");
                return EXIT_CHECK_FAILED;
            }
            a->out = v;
        } else if ((got = option_value("report", argc, argv, &i, "--baseline", &v))) {
            if (got < 0) return EXIT_USAGE;
            a->baseline = v;
        } else if ((got = option_value("report", argc, argv, &i, "--checkpoint", &v))) {
            if (got < 0) return EXIT_USAGE;
            if (*v == '\0') return usage_error("report", "--checkpoint needs a directory name");
            a->checkpoint = v;
        } else if ((got = option_value("report", argc, argv, &i, "--json", &v))) {
            if (got < 0) return EXIT_USAGE;
            a->json = v;
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

/* The binary32 scan's kernels alone (scan_profile: thread seconds in the implementations'
 * kernels, both directions), for the time table; negative when not timed (mpirun, or a
 * --checkpoint, where this process may scan only part of the inputs). */
static double scan_kernel_seconds = -1;

/* The scan (chunked with a checkpoint or MPI ranks): EXIT_OK, EXIT_RANK_WORKER on a worker
 * rank, or an exit status after a message. */
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
                      ? (scan_domain){.kind = DOMAIN_SAMPLE, .n = REPORT_QUICK_SAMPLE, .seed = REPORT_QUICK_SEED}
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

/* make_moons's progress on a terminal (ctx: the run's start, report_clock_wall). */
static void moons_progress_line(void *ctx, size_t done, size_t total)
{
    fprintf(stderr, "\rmake_moons: %zu/%zu runs, %.0f s", done, total,
            report_clock_wall() - *(const double *)ctx);
    if (done == total) fputc('\n', stderr);
}

/* ---- what the job asks of the command line (report_job.h's hooks) */

/* The benchmark of a format through its own command (binary32: 'bench', another format:
 * 'bench --format F'), its table on stdout. */
static int bench_hook(void *ctx, const char *csv, gelu_format_id format, bool quick)
{
    (void)ctx;
    char path[2200], fmt[32];
    snprintf(path, sizeof path, "%s", csv);
    snprintf(fmt, sizeof fmt, "%s", gelu_format_of(format)->name);
    char *argv[7] = {"bench", "--csv", path}; /* + --format F, --quick, NULL */
    int argc = 3;
    if (format != GELU_FORMAT_BINARY32) {
        argv[argc++] = "--format";
        argv[argc++] = fmt;
    }
    if (quick) argv[argc++] = "--quick";
    argv[argc] = NULL;
    printf("\n");
    fflush(stdout);
    return cmd_bench(argc, argv) == EXIT_OK ? 0 : -1;
}

/* A scan's progress on stderr (accuracy's), its state the job's for one scan at a time. */
static void scan_progress_hook(void *ctx, scan_config *cfg)
{
    scan_progress_state *p = ctx;
    scan_progress_start(p);
    cfg->progress = accuracy_progress;
    cfg->progress_ctx = p;
}

static void say_hook(void *ctx, const char *text)
{
    (void)ctx;
    fputs(text, stdout);
}

static void error_hook(void *ctx, const char *text)
{
    (void)ctx;
    fprintf(stderr, "gelucheck report: %s\n", text);
}

/* The exit status of what the baseline's comparison found. */
static int baseline_exit(int found)
{
    switch (found) {
    case REPORT_BASELINE_OK: return EXIT_OK;
    case REPORT_BASELINE_REGRESSED: return EXIT_CHECK_FAILED;
    case REPORT_BASELINE_UNREADABLE: return EXIT_USAGE;
    }
    return EXIT_CHECK_FAILED; /* not one of report_job.h's */
}

/* "report written: DIR/index.html (with ...)": the other files of report_files.h's list. */
static void print_written(const char *dir, bool compared)
{
    char name[64];
    printf("\nreport written: %s/%s (with", dir,
           report_file_name(REPORT_FILE_PAGE, GELU_FORMAT_BINARY32, name, sizeof name));
    const char *sep = " ";
    for (int k = 0; k < REPORT_FILE_COUNT; k++) {
        const report_file *f = report_file_at((report_file_id)k);
        if (k == REPORT_FILE_PAGE || (f->when == REPORT_FILE_BASELINE && !compared)) continue;
        printf("%s%s", sep, f->name);
        sep = ", ";
    }
    printf("; F:");
    gelu_format_id ids[REPORT_FORMATS];
    for (size_t k = 0, n = report_formats(ids); k < n; k++)
        printf("%s%s", k ? ", " : " ", gelu_format_of(ids[k])->name);
    printf(")\n");
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

/* A directory where the report would publish one of its files (DIR/manifest.json, a
 * directory): the publication would fail after the whole run, so it is refused before any work
 * (exit 1, as for any output that cannot be written). Its path into buf; NULL when none. */
static const char *file_taken_by_directory(const char *dir, char *buf, size_t size)
{
    gelu_format_id ids[REPORT_FORMATS];
    size_t nf = report_formats(ids);
    for (int id = 0; id < REPORT_FILE_COUNT; id++) {
        bool per_format = report_file_at((report_file_id)id)->when == REPORT_FILE_PER_FORMAT;
        for (size_t k = 0; k < (per_format ? nf : 1); k++) {
            char name[128];
            struct stat st;
            report_file_name((report_file_id)id, per_format ? ids[k] : GELU_FORMAT_BINARY32, name,
                             sizeof name);
            if (strchr(name, '*')) continue; /* a pattern: the plots, named as drawn */
            snprintf(buf, size, "%s/%s", dir, name);
            if (lstat(buf, &st) == 0 && S_ISDIR(st.st_mode)) return buf;
        }
    }
    return NULL;
}

/* The baseline's accuracy.csv (and bench.csv, when there) read as the comparison will read
 * them, before any work: a bad file is refused then, not after the run. */
static int check_baseline_files(const char *dir, char *why, size_t size)
{
    char acc[4096], bench[4096];
    snprintf(acc, sizeof acc, "%s/accuracy.csv", dir);
    snprintf(bench, sizeof bench, "%s/bench.csv", dir);
    results_set *set = malloc(sizeof *set);
    if (!set) return snprintf(why, size, "out of memory"), EXIT_CHECK_FAILED;
    int rc = results_load(set, acc, access(bench, R_OK) == 0 ? bench : NULL, why, size);
    free(set);
    return rc == 0 ? EXIT_OK : EXIT_USAGE;
}

/* The answer as data (--json), written whole with its manifest beside it. */
static int write_answer(FILE *f, void *ctx) { return answer_write_json(f, ctx); }

int cmd_report(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i])) {
            print_help();
            return EXIT_OK;
        }
    if (argc == 2 && strcmp(argv[1], "--list-outputs") == 0) {
        report_files_markdown(stdout);
        return EXIT_OK;
    }
    report_args a = {.out = DEFAULT_DIR};
    int st = parse_args(argc, argv, &a);
    if (st != EXIT_OK) return st;
    if (ranks_rank() != 0) { /* a worker rank scans its share and leaves the rest to rank 0 */
        report_impls impls = {calloc(gelu_impl_count(), sizeof *impls.list), 0};
        const gelu_impl **paths = calloc(gelu_impl_count() + 1, sizeof *paths);
        scan_result *r = calloc(1, sizeof *r);
        if (impls.list) impls.n = accuracy_default_impls("report", impls.list);
        if (impls.list && paths) framework_paths_split(impls.list, &impls.n, paths);
        st = r && impls.list && paths ? run_scan(&a, &impls, r) : EXIT_CHECK_FAILED;
        scan_result_free(r);
        free(impls.list);
        free(paths);
        return st;
    }
    if (a.json && (st = probe_output("report", a.json)) != EXIT_OK) return st;
    run_manifest old;
    char why[1024];
    if (a.baseline && compare_check_dir(a.baseline, &old, why, sizeof why) != 0)
        return usage_error("report", "bad --baseline: %s", why);
    if (a.baseline && (st = check_baseline_files(a.baseline, why, sizeof why)) != EXIT_OK)
        return usage_error("report", "bad --baseline: %s", why);
    char taken[2400];
    if (file_taken_by_directory(a.out, taken, sizeof taken)) {
        fprintf(stderr, "gelucheck report: cannot write the report directory '%s': '%s' is a "
                "directory, where the report puts a file; nothing was run\n", a.out, taken);
        return EXIT_CHECK_FAILED;
    }
    report_stage stage;
    if (report_stage_open(&stage, a.out) != 0) {
        char why[600];
        fprintf(stderr, "gelucheck report: cannot write the report directory '%s': %s\n", a.out,
                explain_dir_error(a.out, errno, why, sizeof why));
        return EXIT_CHECK_FAILED;
    }
    report_impls impls = {calloc(gelu_impl_count(), sizeof *impls.list), 0};
    report_impls paths = {calloc(gelu_impl_count() + 1, sizeof *paths.list), 0};
    scan_result *r = calloc(1, sizeof *r);
    if (impls.list) impls.n = accuracy_default_impls("report", impls.list);
    /* the frameworks' paths are scanned on their own sample (framework_paths_scan.h) */
    if (impls.list && paths.list) paths.n = framework_paths_split(impls.list, &impls.n, paths.list);
    report_clock_start();
    st = r && impls.list && paths.list ? run_scan(&a, &impls, r) : EXIT_CHECK_FAILED;
    report_clock_lap("%s", a.quick ? "binary32: scan (--quick sample)" : "binary32: scan (all 2^32 inputs)");
    if (st != EXIT_OK) {
        if (!r || !impls.list) fprintf(stderr, "gelucheck report: out of memory\n");
        scan_result_free(r);
        free(impls.list);
        free(paths.list);
        report_stage_abort(&stage);
        return st;
    }
    if ((st = exec_failure_status("report")) != EXIT_OK) {
        scan_result_free(r);
        free(impls.list);
        free(paths.list);
        report_stage_abort(&stage);
        return st;
    }
    scan_refine_maxima(r);
    accuracy_files none = {NULL, NULL, NULL};
    st = accuracy_output("report", r, &none); /* the table and the contract verdicts */
    scan_progress_state progress;
    static answer answer_made; /* answer.json's, printed last */
    report_job job = {.answer = &answer_made, .quick = a.quick, .threads = a.threads, .baseline = a.baseline,
                      .command = a.command, .impls = impls, .paths = paths, .bench = bench_hook,
                      .scan_progress = scan_progress_hook,
                      .moons_progress = isatty(STDERR_FILENO) ? moons_progress_line : NULL,
                      .say = say_hook, .error = error_hook, .ctx = &progress};
    int baseline = REPORT_BASELINE_OK;
    bool paths_broken = false; /* a framework path's broken contract: exit 1, as a row's */
    job.paths_broken = &paths_broken;
    if (report_job_write(&job, &stage, r, &baseline) != 0) {
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
        int baseline_status = baseline_exit(baseline);
        print_written(a.out, a.baseline && baseline != REPORT_BASELINE_UNREADABLE);
        if (baseline_status == EXIT_USAGE || (baseline_status && st == EXIT_OK))
            st = baseline_status;
        if (paths_broken && st == EXIT_OK) st = EXIT_CHECK_FAILED;
        report_clock_lap("%s", "page, publishing");
        report_clock_print(stdout, (unsigned)a.threads, scan_kernel_seconds);
        answer_print_matrix(stdout, &answer_made);
        if (answer_made.left_out_known) left_out_print(stdout, &answer_made.left_out);
        if (a.json && write_output("report", a.json, write_answer, &answer_made) != EXIT_OK)
            st = EXIT_CHECK_FAILED;
    }
    scan_result_free(r);
    free(impls.list);
    free(paths.list);
    return st;
}

const gelucheck_command command_report = {"report", cmd_report,
                                         "the main job: scan + benchmark, then CSV, plots and index.html",
                                         NULL, true};
