/* gelucheck accuracy: the scan over a domain, the table, the CSV files and the contract gate. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "accuracy_output.h"
#include "atomic_file.h"
#include "chunked_scan.h"
#include "cli.h"
#include "partial.h"
#include "ranks.h"
#include "refine.h"
#include "scan_small.h"
#include "gelu_cr16.h"
#include "gelu_f64.h"
#include "scan_f64.h"
#include "fpenv_cover.h"
#include "framework_sample.h"

static void print_help(void)
{
    printf(
        "usage: gelucheck accuracy [--impl A,B,...]\n"
        "                          [--range LO:HI | --sample N [--seed S] | --cover full|quick|paths]\n"
        "                          [--grad] [--csv FILE] [--ranges-csv FILE] [--threads N]\n"
        "                          [--shard K/N --partial FILE] [--checkpoint DIR] [--profile]\n"
        "                          [--format F] [--fpenv ieee|ftz|daz|ftz,daz]\n");
    char fmt_names[256];
    printf("F: %s\n\n", gelu_format_names("|", "|", false, fmt_names, sizeof fmt_names));
    printf(
        "Scans implementations against the correctly rounded MPFR reference (a fast double\n"
        "enclosure, MPFR where it cannot decide) and prints, per implementation, against its\n"
        "own target and against exact GELU: max ULP error with the first input reaching it,\n"
        "mean ULP, correctly rounded fraction, max abs error, monotonicity violations, wrong\n"
        "derivative signs and failed special values.\n\n"
        "Domain (default: all 2^32 binary32 encodings):\n"
        "  --range LO:HI     every float in [LO, HI] (decimal or hex floats)\n"
        "  --sample N        N encodings drawn uniformly from all 2^32, --seed S (default 1)\n"
        "  --cover full      the inputs where --fpenv ftz/daz can change a result (the report's\n"
        "                    ftz,daz section): every input of [-0x1.cp+6, -0x1.2p+3] and of\n"
        "                    [-0x1p-125, 0x1p-125] and 1,000,000 draws over all encodings\n"
        "                    (seed 1); 'quick': one input in 61 of those spans (and their ends)\n"
        "                    and 100,000 draws. 'paths': the frameworks' paths' sample\n"
        "                    (docs/frameworks.md, \"Paths\"): 2,057 inputs in each of the 510\n"
        "                    finite binades and 319 fixed inputs. Not with --shard,\n"
        "                    --checkpoint or mpirun\n\n"
        "Options:\n"
        "  --impl A,B,...    implementations (default: every one this CPU can run, except\n"
        "                    threaded benchmark rows such as dnnl_erf_omp)\n"
        "  --grad            the derivatives too (gradient metrics and sign check)\n"
        "  --csv FILE        the accuracy CSV (columns: docs/report-files.md)\n"
        "  --ranges-csv FILE ULP histograms per input range\n"
        "  --threads N       worker threads (default: all online CPUs); results do not depend\n"
        "                    on it\n"
        "  --shard K/N       scan only part K (1..N) of N (consecutive encodings); with\n"
        "                    --partial FILE write the partial result, for 'gelucheck merge';\n"
        "                    without, print and gate that part alone (a CI rotation)\n"
        "  --checkpoint DIR  keep the finished chunks of the scan (up to 256) in DIR as they\n"
        "                    come; the same command with the same DIR again scans only what is\n"
        "                    missing, with the result of an uninterrupted run (a DIR of another\n"
        "                    run, build or command is refused)\n"
        "  --profile         print where the scan's time went: per implementation its kernels\n"
        "                    and the metrics of its outputs, per direction; the references\n"
        "                    (fast path, MPFR fallbacks); in thread seconds and ns per input.\n"
        "                    A row whose outputs equal an earlier row's (a SIMD build of the\n"
        "                    same method) shares its metrics: their time is that row's\n"
        "                    while they agree. Past the upper threshold the correctly\n"
        "                    rounded values' errors are computed for the first row that\n"
        "                    differs from them in a block: in that row's metrics\n"
        );
    printf( /* two strings: one would pass C's 4,095-character minimum */
        "  --format F        the number format (default binary32). A small one (16 bits or\n"
        "                    fewer: bfloat16, binary16, e4m3, e5m2): all its encodings against\n"
        "                    MPFR rounded to F; a binary32 implementation runs widened (x ->\n"
        "                    binary32 -> its kernel -> round to nearest even to F), a native\n"
        "                    one (cr_F, the format's correctly rounded GELU; an\n"
        "                    exec child of format F, such as a framework row, which then runs\n"
        "                    the framework's GELU on F tensors where its client serves F) as\n"
        "                    is; prints, per implementation, the share of inputs whose result\n"
        "                    is not the correctly rounded one. Not with --range, --sample,\n"
        "                    --shard, --checkpoint or --profile.\n"
        "                    binary64: sampled, never exhaustive: --sample N draws (default\n"
        "                    1600000; --seed S) plus binary64's hard inputs (underflow\n"
        "                    thresholds, x_min's neighbours, subnormal midpoints, where f\n"
        "                    rounds to x, specials), against MPFR rounded to binary64; the\n"
        "                    binary64 implementations (erfc_libm, tanh_libm, sigmoid, and\n"
        "                    the peers' binary64 rows); no progress display. Not with\n"
        "                    --range, --shard, --checkpoint or --profile\n"
        "  --fpenv E         the floating-point environment the kernels run in (default ieee):\n"
        "                    ftz, daz or ftz,daz set MXCSR's flush-to-zero / denormals-are-zero\n"
        "                    bits in each scan thread around the kernel calls only (the\n"
        "                    references are computed in IEEE's), as frameworks run (TensorFlow\n"
        "                    sets both). The reference then means: under daz a subnormal input\n"
        "                    is read as the zero of its sign (expected: f(+-0)); under ftz a\n"
        "                    correctly rounded result that is subnormal is expected as the zero\n"
        "                    of its sign, exactly (an output equal to it: 0 ULP, correctly\n"
        "                    rounded). Files and messages write ftz,daz as ftz+daz (a CSV\n"
        "                    field). binary32 only (not 16-bit formats, not binary64). An exec\n"
        "                    child is asked for E and refused by name unless its handshake\n"
        "                    lists E (docs/protocol.md, 'fpenv'; list shows what each lists)\n\n"
        "MPI: 'mpirun -n R gelucheck accuracy ...' shares the scan between R processes (chunks\n"
        "handed out as ranks ask); rank 0 prints and writes exactly what one process would.\n\n"
        "Progress goes to stderr: a bar on a terminal, else a line a minute. Exit status: 0 every implementation\n"
        "meets its declared contract, 1 one does not (the gate) or a file cannot be written,\n"
        "2 bad usage.\n");
}

typedef struct {
    const gelu_impl **impls; /* room for the registry: each at most once */
    size_t nimpls;
    scan_domain domain;
    bool grad, have_range, have_sample, have_seed, profile;
    uint64_t threads, shard_k, shard_n;
    const char *partial, *checkpoint;
    accuracy_files files;
    const gelu_format *format; /* binary32 unless --format */
    const char **impl_lists;   /* each --impl's value (room for argc), read once the format is */
    size_t nimpl_lists;        /* known, in order */
    const char *not_16;        /* an option a 16-bit run refuses, when given */
    gelu_fpenv fpenv;          /* --fpenv, IEEE by default */
    const char *not_64;        /* an option a binary64 run refuses, when given */
    const char *cover;         /* --cover full|quick, NULL without */
    uint32_t *cover_list;      /* its inputs (fpenv_cover.h), freed by cmd_accuracy */
} accuracy_args;

/* A,B,C → implementations; unavailable ones are skipped with a note. */
static int parse_impls(const char *list, accuracy_args *a)
{
    char **names;
    size_t n;
    int status = split_list("accuracy", "--impl", list, &names, &n);
    for (size_t k = 0; k < n && status == EXIT_OK; k++) {
        const char *name = names[k];
        const gelu_impl *m = gelu_impl_find(name);
        bool twice = false;
        for (size_t j = 0; m && j < a->nimpls; j++) twice |= a->impls[j] == m;
        if (!m) status = usage_error("accuracy", "unknown implementation '%s' (see 'gelucheck list')", name);
        else if (twice) status = usage_error("accuracy", "--impl '%s' is given twice", name);
        else if (!gelu_impl_available(m))
            fprintf(stderr, "gelucheck accuracy: skipping '%s': this CPU lacks its features\n", name);
        else a->impls[a->nimpls++] = m;
    }
    free(names);
    if (status == EXIT_OK && a->nimpls == 0)
        status = usage_error("accuracy", "no implementation of '%s' can run on this CPU", list);
    return status;
}

static int parse_range(const char *s, scan_domain *d)
{
    const char *colon = strchr(s, ':');
    const char *why = "expected LO:HI";
    if (!colon) return usage_error("accuracy", "bad --range '%s': %s", s, why);
    char *lo = strndup(s, (size_t)(colon - s));
    if (!lo) {
        fprintf(stderr, "gelucheck accuracy: out of memory\n");
        return EXIT_CHECK_FAILED;
    }
    bool ok = parse_float(lo, &d->lo, &why);
    free(lo);
    if (!ok) return usage_error("accuracy", "bad --range '%s': LO: %s", s, why);
    if (!parse_float(colon + 1, &d->hi, &why))
        return usage_error("accuracy", "bad --range '%s': HI: %s", s, why);
    if (d->lo != d->lo || d->hi != d->hi || d->lo > d->hi)
        return usage_error("accuracy", "bad --range '%s': needs LO <= HI, not NaN", s);
    d->kind = DOMAIN_RANGE;
    if (scan_domain_size(d) == 0) /* 0:-0: -0 comes before +0 in the scan's order */
        return usage_error("accuracy", "bad --range '%s': empty (LO %g is +0 and HI is -0, which "
                           "comes before it; write -0:0 for both zeros)", s, (double)d->lo);
    return EXIT_OK;
}

static int parse_shard(const char *s, accuracy_args *a)
{
    char k[32];
    const char *slash = strchr(s, '/');
    if (!slash || (size_t)(slash - s) >= sizeof k) return usage_error("accuracy", "bad --shard '%s': expected K/N", s);
    memcpy(k, s, (size_t)(slash - s));
    k[slash - s] = '\0';
    if (!parse_u64(slash + 1, 1, 1u << 20, &a->shard_n) || !parse_u64(k, 1, a->shard_n, &a->shard_k))
        return usage_error("accuracy", "bad --shard '%s': expected K/N with 1 <= K <= N", s);
    return EXIT_OK;
}

static int parse_args(int argc, char **argv, accuracy_args *a)
{
    char fmt_names[256]; /* the formats' names, for a message */
    const char *v;
    int got, st = EXIT_OK;
    for (int i = 1; i < argc && st == EXIT_OK; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--grad") == 0) a->grad = true;
        else if (strcmp(arg, "--profile") == 0) a->profile = true;
        else if ((got = option_value("accuracy", argc, argv, &i, "--impl", &v)))
            st = got < 0 ? EXIT_USAGE : (a->impl_lists[a->nimpl_lists++] = v, EXIT_OK);
        else if ((got = option_value("accuracy", argc, argv, &i, "--format", &v))) {
            if (got < 0) st = EXIT_USAGE;
            else if (!(a->format = gelu_format_find(v)))
                st = usage_error("accuracy", "unknown --format '%s': %s", v,
                                 gelu_format_names(", ", " or ", false, fmt_names, sizeof fmt_names));
        } else if ((got = option_value("accuracy", argc, argv, &i, "--fpenv", &v))) {
            st = got < 0 ? EXIT_USAGE : parse_fpenv("accuracy", v, &a->fpenv);
        } else if ((got = option_value("accuracy", argc, argv, &i, "--cover", &v))) {
            if (got < 0) st = EXIT_USAGE;
            else if (strcmp(v, "full") != 0 && strcmp(v, "quick") != 0 && strcmp(v, "paths") != 0)
                st = usage_error("accuracy", "bad --cover '%s': full, quick or paths", v);
            else a->cover = v;
        } else if ((got = option_value("accuracy", argc, argv, &i, "--range", &v))) {
            st = got < 0 ? EXIT_USAGE : parse_range(v, &a->domain);
            a->have_range = true;
        } else if ((got = option_value("accuracy", argc, argv, &i, "--sample", &v))) {
            if (got < 0) st = EXIT_USAGE;
            else if (!parse_u64(v, 1, UINT64_C(1) << 32, &a->domain.n))
                st = usage_error("accuracy", "bad --sample '%s': a count from 1 to 2^32", v);
            a->have_sample = true;
        } else if ((got = option_value("accuracy", argc, argv, &i, "--seed", &v))) {
            a->have_seed = true;
            if (got < 0) st = EXIT_USAGE;
            else if (!parse_u64(v, 0, UINT64_MAX, &a->domain.seed))
                st = usage_error("accuracy", "bad --seed '%s': a non-negative integer", v);
        } else if ((got = option_value("accuracy", argc, argv, &i, "--threads", &v))) {
            if (got < 0) st = EXIT_USAGE;
            else if (!parse_u64(v, 1, 1024, &a->threads))
                st = usage_error("accuracy", "bad --threads '%s': 1 to 1024", v);
        } else if ((got = option_value("accuracy", argc, argv, &i, "--shard", &v)))
            st = got < 0 ? EXIT_USAGE : parse_shard(v, a);
        else if ((got = option_value("accuracy", argc, argv, &i, "--partial", &v)))
            st = got < 0 ? EXIT_USAGE : (a->partial = v, EXIT_OK);
        else if ((got = option_value("accuracy", argc, argv, &i, "--checkpoint", &v)))
            st = got < 0 ? EXIT_USAGE : (a->checkpoint = v, EXIT_OK);
        else if ((got = option_value("accuracy", argc, argv, &i, "--csv", &v)))
            st = got < 0 ? EXIT_USAGE : (a->files.csv = v, EXIT_OK);
        else if ((got = option_value("accuracy", argc, argv, &i, "--ranges-csv", &v)))
            st = got < 0 ? EXIT_USAGE : (a->files.ranges_csv = v, EXIT_OK);
        else st = usage_error("accuracy", "unexpected argument '%s'", arg);
        static const char *const whole_domain[] = {"--range", "--sample", "--seed", "--shard",
                                                   "--partial", "--checkpoint", "--profile",
                                                   "--cover"};
        for (size_t k = 0; k < sizeof whole_domain / sizeof *whole_domain; k++)
            if (strcmp(arg, whole_domain[k]) == 0) {
                a->not_16 = whole_domain[k];
                if (k == 0 || k >= 3) a->not_64 = whole_domain[k]; /* not --sample, --seed */
            }
    }
    if (st != EXIT_OK) return st;
    if (!a->format) a->format = gelu_format_of(GELU_FORMAT_BINARY32);
    if (gelu_format_small(a->format) && a->not_16)
        return usage_error("accuracy", "--format %s scans all 65,536 encodings: %s does not apply",
                           a->format->name, a->not_16);
    if (gelu_format_small(a->format) && a->fpenv != GELU_FPENV_IEEE)
        return usage_error("accuracy", "--fpenv %s: the %s scan runs in IEEE's environment only "
                           "(--fpenv applies to binary32)", gelu_fpenv_name(a->fpenv), a->format->name);
    if (gelu_format_small(a->format)) return EXIT_OK; /* its --impl: parse_impls16 */
    if (gelu_format_sampled(a->format)) {
        if (a->fpenv != GELU_FPENV_IEEE)
            return usage_error("accuracy", "--fpenv %s: the binary64 scan runs in IEEE's environment "
                               "only (--fpenv applies to binary32)", gelu_fpenv_name(a->fpenv));
        /* sampled (scan_f64.h): --sample and --seed are its own, the rest of the domain's
         * options do not apply; its --impl: parse_impls64 */
        if (a->not_64)
            return usage_error("accuracy", "--format binary64 scans a sample: %s does not apply",
                               a->not_64);
        return EXIT_OK;
    }
    for (size_t k = 0; k < a->nimpl_lists && st == EXIT_OK; k++) st = parse_impls(a->impl_lists[k], a);
    if (st != EXIT_OK) return st;
    if (a->have_seed && !a->have_sample)
        return usage_error("accuracy", "--seed seeds --sample's draws: give --sample N with it");
    const char *const out_names[] = {"--csv", "--ranges-csv", "--partial"};
    const char *const outs[] = {a->files.csv, a->files.ranges_csv, a->partial};
    if ((st = distinct_outputs("accuracy", out_names, outs, 3)) != EXIT_OK) return st;
    if (a->have_range && a->have_sample) return usage_error("accuracy", "--range and --sample exclude each other");
    if (a->cover && (a->have_range || a->have_sample))
        return usage_error("accuracy", "--cover and --%s exclude each other",
                           a->have_range ? "range" : "sample");
    if (a->cover && (a->shard_n || a->checkpoint || ranks_active()))
        return usage_error("accuracy", "--cover scans in one process: not with %s",
                           a->shard_n ? "--shard" : a->checkpoint ? "--checkpoint" : "mpirun");
    if (a->have_sample) a->domain.kind = DOMAIN_SAMPLE;
    if (a->checkpoint && !*a->checkpoint)
        return usage_error("accuracy", "--checkpoint needs a directory name");
    if (a->profile && ranks_active())
        return usage_error("accuracy", "--profile times one process: run it without mpirun");
    if (a->partial && a->shard_n == 0)
        return usage_error("accuracy", "--partial FILE needs --shard K/N (the part it holds)");
    if (a->partial && (a->files.csv || a->files.ranges_csv))
        return usage_error("accuracy", "a shard writes --partial only; 'gelucheck merge' writes the CSV");
    return EXIT_OK;
}

static int write_partial(const scan_result *r, const char *path)
{
    atomic_file f;
    char err[512];
    int rc = atomic_file_open(&f, path, err, sizeof err);
    if (rc == 0 && partial_write(r, f.f) != 0) {
        snprintf(err, sizeof err, "cannot write '%s': %s", path, strerror(errno));
        atomic_file_abort(&f);
        rc = -1;
    } else if (rc == 0) {
        rc = atomic_file_commit(&f, err, sizeof err);
    }
    if (rc != 0) {
        fprintf(stderr, "gelucheck accuracy: %s\n", err);
        return EXIT_CHECK_FAILED;
    }
    if (write_manifest_beside("accuracy", path) != EXIT_OK) return EXIT_CHECK_FAILED;
    printf("wrote shard %u/%u (%llu inputs) to %s\n", r->shard_k + 1, r->shard_n,
           (unsigned long long)r->inputs, path);
    return EXIT_OK;
}

static int run_accuracy(int argc, char **argv, accuracy_args *ap);
static int run_accuracy16(accuracy_args *a);
static int run_accuracy64(accuracy_args *a);

int cmd_accuracy(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i])) {
            print_help();
            return EXIT_OK;
        }
    accuracy_args a = {.domain = {.kind = DOMAIN_ALL, .seed = 1}};
    a.impls = calloc(gelu_impl_count(), sizeof *a.impls);
    a.impl_lists = calloc((size_t)argc, sizeof *a.impl_lists);
    if (!a.impls || !a.impl_lists) {
        fprintf(stderr, "gelucheck accuracy: out of memory\n");
        free(a.impls);
        free(a.impl_lists);
        return EXIT_CHECK_FAILED;
    }
    int st = run_accuracy(argc, argv, &a);
    free(a.cover_list);
    free(a.impl_lists);
    free(a.impls);
    return st;
}

/* cmd_accuracy with a.impls allocated. */
static int run_accuracy(int argc, char **argv, accuracy_args *ap)
{
    accuracy_args a = *ap;
    int st = parse_args(argc, argv, &a);
    if (st != EXIT_OK) return st;
    if (gelu_format_small(a.format)) return run_accuracy16(&a);
    if (gelu_format_sampled(a.format)) return run_accuracy64(&a);
    if (a.nimpls == 0) a.nimpls = accuracy_default_impls("accuracy", a.impls);
    if ((st = fpenv_check_impls("accuracy", a.fpenv, a.impls, a.nimpls)) != EXIT_OK) return st;
    bool paths = a.cover && strcmp(a.cover, "paths") == 0;
    if (a.cover) {
        fpenv_cover_config c = fpenv_cover_default(strcmp(a.cover, "quick") == 0);
        if ((paths ? framework_sample_build(&ap->cover_list, &a.domain.n)
                   : fpenv_cover_build(&c, &ap->cover_list, &a.domain.n)) != 0) {
            fprintf(stderr, "gelucheck accuracy: out of memory\n");
            return EXIT_CHECK_FAILED;
        }
        a.domain.kind = DOMAIN_LIST;
        a.domain.list = ap->cover_list;
    }
    if (a.shard_n) { /* parts are whole blocks: a small domain has empty parts */
        uint64_t blocks = (scan_domain_size(&a.domain) + SCAN_BLOCK - 1) / SCAN_BLOCK;
        if (blocks * a.shard_k / a.shard_n == blocks * (a.shard_k - 1) / a.shard_n)
            return usage_error("accuracy", "--shard %llu/%llu holds no input: the domain has %llu "
                               "block%s of %d inputs", (unsigned long long)a.shard_k,
                               (unsigned long long)a.shard_n, (unsigned long long)blocks,
                               blocks == 1 ? "" : "s", SCAN_BLOCK);
    }
    a.files.partial = a.partial;
    if (accuracy_files_probe("accuracy", &a.files) != 0) return EXIT_CHECK_FAILED;
    if (a.cover) { /* what is scanned, once the files are known to be writable */
        fpenv_cover_config c = fpenv_cover_default(strcmp(a.cover, "quick") == 0);
        char what[1024];
        printf("covering %s\n", paths ? framework_sample_describe(a.domain.n, what, sizeof what)
                                      : fpenv_cover_describe(&c, a.domain.n, what, sizeof what));
    }
    scan_progress_state progress;
    scan_progress_start(&progress);
    struct timespec start = progress.start, end;
    scan_config cfg = {
        .impls = a.impls, .nimpls = a.nimpls, .domain = a.domain, .grad = a.grad,
        .threads = (unsigned)a.threads, .shard_k = a.shard_n ? (unsigned)a.shard_k - 1 : 0,
        .shard_n = a.shard_n ? (unsigned)a.shard_n : 1,
        .progress = accuracy_progress, .progress_ctx = &progress, .fpenv = a.fpenv,
    };
    scan_profile *profile = a.profile ? calloc(1, sizeof *profile) : NULL;
    if (a.profile && !profile) {
        fprintf(stderr, "gelucheck accuracy: out of memory\n");
        return EXIT_CHECK_FAILED;
    }
    cfg.profile = profile;
    scan_result *r = calloc(1, sizeof *r);
    st = r ? chunked_scan("accuracy", &cfg, a.checkpoint, r) : EXIT_CHECK_FAILED;
    if (!r) fprintf(stderr, "gelucheck accuracy: out of memory\n");
    if (st != EXIT_OK) {
        scan_result_free(r);
        if (profile) scan_profile_release(profile);
        free(profile);
        return st;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double wall = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
    unsigned threads = a.threads ? (unsigned)a.threads : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t blocks = (r->inputs + SCAN_BLOCK - 1) / SCAN_BLOCK; /* scan_run's cap */
    if (threads > blocks) threads = blocks ? (unsigned)blocks : 1;
    if ((st = exec_failure_status("accuracy")) != EXIT_OK) {
        scan_result_free(r);
        if (profile) scan_profile_release(profile);
        free(profile);
        return st;
    }
    if (!a.partial) scan_refine_maxima(r); /* a shard's maxima are refined once merged */
    if (!a.partial && r->shard_n > 1)
        printf("part %u/%u of the domain: %llu inputs (the gate below covers only these)\n",
               r->shard_k + 1, r->shard_n, (unsigned long long)r->inputs);
    st = a.partial ? write_partial(r, a.partial) : accuracy_output("accuracy", r, &a.files);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("wall %.1f s, %u thread%s, %.3g inputs/s/thread, peak memory %.1f MiB\n", wall, threads,
           threads > 1 ? "s" : "", (double)r->inputs / wall / threads, (double)ru.ru_maxrss / 1024);
    if (profile) print_scan_profile(r, profile, wall, threads);
    if (profile) scan_profile_release(profile);
    free(profile);
    scan_result_free(r);
    return st;
}

/* ---- 16-bit formats: every encoding, scan_small.h */

/* The implementations of a 16-bit run: the native ones of the format by name, else binary32 ones
 * of the registry widened (views in views[], room for the registry and the natives). */
static int parse_impls16(const accuracy_args *a, const char *impl_list, gelu_impl *views,
                         const gelu_impl **list, size_t *n)
{
    char **names;
    size_t count;
    int status = split_list("accuracy", "--impl", impl_list, &names, &count);
    for (size_t k = 0; k < count && status == EXIT_OK; k++) {
        const gelu_impl *m = gelu_impl_lookup_in(names[k], a->format->id, &views[*n]);
        bool twice = false;
        for (size_t j = 0; m && j < *n; j++) twice |= strcmp(list[j]->name, names[k]) == 0;
        if (!m)
            status = usage_error("accuracy", "unknown implementation '%s' for --format %s (see "
                                 "'gelucheck list')", names[k], a->format->name);
        else if (twice) status = usage_error("accuracy", "--impl '%s' is given twice", names[k]);
        else if (!gelu_impl_available(m))
            fprintf(stderr, "gelucheck accuracy: skipping '%s': this CPU lacks its features\n", names[k]);
        else list[(*n)++] = m;
    }
    free(names);
    if (status == EXIT_OK && *n == 0)
        status = usage_error("accuracy", "no implementation of '%s' can run on this CPU", impl_list);
    return status;
}

/* Per implementation, the inputs whose result is not the correctly rounded value of its own
 * target in the format: for a widened one, what "binary32 result, then round to nearest even"
 * costs (its binary32 error included). */
static void print_not_cr_shares(const scan_result *r, const gelu_format *f)
{
    printf("\nnot correctly rounded in %s (own target, of %llu inputs; widened: binary32 kernel, "
           "then round to nearest even):\n", f->name, (unsigned long long)r->inputs);
    for (size_t i = 0; i < r->nimpls; i++) {
        printf("  %-24s %-8s", r->impls[i]->name, gelu_impl_is_widened(r->impls[i]) ? "widened" : "native");
        for (int d = 0; d < (r->grad ? DIR_COUNT : 1); d++) {
            const error_metrics *e = &r->metrics[i].err[REF_OWN][d];
            if (d >= scan_directions(r->impls[i], r->grad)) {
                printf("  derivative    n/a (forward only)");
                continue;
            }
            uint64_t wrong = e->count - e->correctly_rounded;
            printf("  %s %6llu (%.4f%%)", d == DIR_FORWARD ? "forward" : "derivative",
                   (unsigned long long)wrong, 100.0 * (double)wrong / (double)e->count);
        }
        printf("\n");
    }
}

static int run_accuracy16(accuracy_args *a)
{
    size_t room = gelu_impl_count() + gelu_impl_count_in(a->format->id), n = 0;
    gelu_impl *views = calloc(room, sizeof *views);
    const gelu_impl **list = calloc(room, sizeof *list);
    scan_result *r = calloc(1, sizeof *r);
    int st = views && list && r ? EXIT_OK : EXIT_CHECK_FAILED;
    if (st != EXIT_OK) fprintf(stderr, "gelucheck accuracy: out of memory\n");
    for (size_t k = 0; k < a->nimpl_lists && st == EXIT_OK; k++)
        st = parse_impls16(a, a->impl_lists[k], views, list, &n);
    if (st == EXIT_OK && a->nimpl_lists == 0) { /* every binary32 default widened, the natives */
        size_t nb = accuracy_default_impls("accuracy", a->impls);
        for (size_t i = 0; i < nb; i++) {
            if (gelu_impl_find_in(a->impls[i]->name, a->format->id)) continue; /* its native */
            views[n] = gelu_impl_widened(a->impls[i], a->format->id);
            list[n] = &views[n];
            n++;
        }
        for (size_t i = 0; i < gelu_impl_count_in(a->format->id); i++)
            list[n++] = gelu_impl_at_in(a->format->id, i);
    }
    if (st == EXIT_OK && accuracy_files_probe("accuracy", &a->files) != 0) st = EXIT_CHECK_FAILED;
    if (st == EXIT_OK) {
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        scan_small_config cfg = {.format = a->format->id, .impls = list, .nimpls = n,
                                 .grad = a->grad, .threads = (unsigned)a->threads};
        const char *err = NULL;
        if (scan_small_run(&cfg, r, &err) != 0) {
            fprintf(stderr, "gelucheck accuracy: %s\n", err);
            st = EXIT_CHECK_FAILED;
        } else if ((st = exec_failure_status("accuracy")) == EXIT_OK) {
            clock_gettime(CLOCK_MONOTONIC, &end);
            printf("format %s: all %llu encodings\n", a->format->name, (unsigned long long)r->inputs);
            st = accuracy_output("accuracy", r, &a->files);
            print_not_cr_shares(r, a->format);
            if (gelu_cr16_unresolved())
                printf("the cr_ natives of the small formats: %lu input%s undecided by both paths (results not "
                       "proven)\n", gelu_cr16_unresolved(), gelu_cr16_unresolved() > 1 ? "s" : "");
            printf("wall %.1f s\n", (double)(end.tv_sec - start.tv_sec) +
                                        1e-9 * (double)(end.tv_nsec - start.tv_nsec));
        }
    }
    scan_result_free(r);
    free(list);
    free(views);
    return st;
}

/* ---- binary64: a sample, scan_f64.h */

/* The binary64 implementations named in list (all of them when there is no list). */
static int parse_impls64(const accuracy_args *a, const gelu_impl **list, size_t *n)
{
    int status = EXIT_OK;
    for (size_t k = 0; k < a->nimpl_lists && status == EXIT_OK; k++) {
        char **names;
        size_t count;
        status = split_list("accuracy", "--impl", a->impl_lists[k], &names, &count);
        for (size_t j = 0; j < count && status == EXIT_OK; j++) {
            const gelu_impl *m = gelu_impl_find_in(names[j], GELU_FORMAT_BINARY64);
            bool twice = false;
            for (size_t i = 0; m && i < *n; i++) twice |= list[i] == m;
            if (!m)
                status = usage_error("accuracy", "unknown implementation '%s' for --format binary64 "
                                     "(see 'gelucheck list')", names[j]);
            else if (twice) status = usage_error("accuracy", "--impl '%s' is given twice", names[j]);
            else if (!gelu_impl_available(m))
                fprintf(stderr, "gelucheck accuracy: skipping '%s': this CPU lacks its features\n",
                        names[j]);
            else list[(*n)++] = m;
        }
        free(names);
    }
    for (size_t i = 0; a->nimpl_lists == 0 && i < gelu_impl_count_in(GELU_FORMAT_BINARY64); i++)
        if (gelu_impl_available(gelu_impl_at_in(GELU_FORMAT_BINARY64, i))) list[(*n)++] = gelu_impl_at_in(GELU_FORMAT_BINARY64, i);
    if (status == EXIT_OK && *n == 0)
        status = usage_error("accuracy", "no binary64 implementation can run on this CPU");
    return status;
}

static int run_accuracy64(accuracy_args *a)
{
    const gelu_impl **list = calloc(gelu_impl_count_in(GELU_FORMAT_BINARY64) + 1, sizeof *list);
    scan_result *r = calloc(1, sizeof *r);
    size_t n = 0;
    int st = list && r ? EXIT_OK : EXIT_CHECK_FAILED;
    if (st != EXIT_OK) fprintf(stderr, "gelucheck accuracy: out of memory\n");
    if (st == EXIT_OK) st = parse_impls64(a, list, &n);
    if (st == EXIT_OK && accuracy_files_probe("accuracy", &a->files) != 0) st = EXIT_CHECK_FAILED;
    if (st == EXIT_OK) {
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        scan_f64_config cfg = {.impls = list, .nimpls = n, .grad = a->grad,
                               .n = a->have_sample ? a->domain.n : SCAN_F64_DEFAULT_SAMPLE,
                               .seed = a->domain.seed, .threads = (unsigned)a->threads};
        const char *err = NULL;
        if (scan_f64_run(&cfg, r, &err) != 0) {
            fprintf(stderr, "gelucheck accuracy: %s\n", err);
            st = EXIT_CHECK_FAILED;
        } else {
            clock_gettime(CLOCK_MONOTONIC, &end);
            printf("format binary64: SAMPLED, not exhaustive: %llu inputs (%llu draws, seed %llu, "
                   "and binary64's hard inputs), every figure below over these only\n",
                   (unsigned long long)r->inputs, (unsigned long long)cfg.n,
                   (unsigned long long)cfg.seed);
            st = accuracy_output("accuracy", r, &a->files);
            printf("wall %.1f s\n", (double)(end.tv_sec - start.tv_sec) +
                                        1e-9 * (double)(end.tv_nsec - start.tv_nsec));
        }
    }
    scan_result_free(r);
    free(list);
    return st;
}

const gelucheck_command command_accuracy = {"accuracy", cmd_accuracy,
                                         "scan implementations over all 2^32 inputs (or a range/sample): the gate",
                                         impl_repeats, true};
