/* gelucheck pick: the fastest implementation a platform can run that meets the user's accuracy
 * constraints, judged on measured results (a report directory), never on claims. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gelu_impl.h"
#include "manifest.h"
#include "pick.h"

#define DEFAULT_RESULTS "report"
#define DEFAULT_SIZE "l2"
enum { CLOSEST_LISTED = 3 };

static void print_help(void)
{
    printf("usage: gelucheck pick --platform generic|x86-64-v2|x86-64-v3|x86-64-v4|host\n"
           "                      [--max-ulp U] [--max-abs A] [--monotone] [--grad-max-ulp G]\n"
           "                      [--own-max-ulp U] [--correctly-rounded] [--contract-kept]\n"
           "                      [--target exact|tanh|sigmoid] [--size l1|l2|dram|N]\n"
           "                      [--results DIR]\n"
           "                      [--format F]\n");
    char fmt_names[256];
    printf("F: %s\n\n", gelu_format_names("|", "|", false, fmt_names, sizeof fmt_names));
    printf(
           "Chooses, from measured results, the fastest implementation that the platform can run\n"
           "and that meets every constraint; prints it with its measured figures and the\n"
           "runners-up, each with the first constraint it fails.\n\n"
           "  --platform P      generic and x86-64-v2: portable code; x86-64-v3: AVX2+FMA;\n"
           "                    x86-64-v4: AVX-512 F/DQ/BW/VL too; host: this CPU's features\n"
           "  --max-ulp U       forward max ULP error against exact GELU <= U\n"
           "  --max-abs A       forward max absolute error against exact GELU <= A\n"
           "  --monotone        no monotonicity violation measured\n"
           "  --grad-max-ulp G  derivative max ULP error against exact GELU's derivative <= G\n"
           "  --own-max-ulp U   forward max ULP error against the implementation's own target\n"
           "                    formula <= U (with --target tanh: how well it computes tanh GELU)\n"
           "  --correctly-rounded  every scanned input correctly rounded against exact GELU,\n"
           "                    forward and derivative\n"
           "  --contract-kept   its own claimed contract kept (the accuracy file's verdict)\n"
           "  --target T        only implementations of that target formula\n"
           "  --size S          rank by median ns/element at benchmark size S (default %s)\n"
           "  --results DIR     a report directory: accuracy.csv and bench.csv (default %s/);\n"
           "                    what is missing is measured first (report --quick for both,\n"
           "                    accuracy --grad --sample 1000000 or bench --quick for one)\n"
           "  --format F        choose within format F (default binary32): bfloat16, binary16\n"
           "                    and binary64 read DIR/accuracy_F.csv (written by report, or by\n"
           "                    accuracy --format F --grad when missing; ULPs are F's) and speed\n"
           "                    only from F's benchmark rows (DIR/bench_F.csv, else\n"
           "                    DIR/bench.csv's rows of format F); without any, ranked by\n"
           "                    accuracy, never by binary32 speed. binary64's accuracy is a\n"
           "                    sample's (the output says how many inputs): its maxima are not\n"
           "                    bounds, and --correctly-rounded means every sampled input\n\n"
           "Ties in speed go to the smaller max ULP against exact GELU, then to the larger\n"
           "fraction correctly rounded, then to the name.\n"
           "Exit status: 0 a choice, 1 nothing fits (the closest are listed) or results cannot\n"
           "be read, 2 bad usage.\n",
           DEFAULT_SIZE, DEFAULT_RESULTS);
}

typedef struct {
    pick_platform platform;
    pick_constraints c;
    const char *results;
    const gelu_format *format;
} pick_args;

static int parse_bound(const char *opt, const char *v, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (*v == '\0' || *end != '\0' || errno == ERANGE || !(d >= 0) || isinf(d))
        return usage_error("pick", "bad %s '%s': a non-negative number", opt, v);
    *out = d;
    return EXIT_OK;
}

static int parse_args(int argc, char **argv, pick_args *a)
{
    char fmt_names[256]; /* the formats' names, for a message */
    const char *v;
    int got, st = EXIT_OK;
    bool have_platform = false;
    for (int i = 1; i < argc && st == EXIT_OK; i++) {
        if (strcmp(argv[i], "--monotone") == 0)
            a->c.monotone = true;
        else if (strcmp(argv[i], "--correctly-rounded") == 0)
            a->c.correctly_rounded = true;
        else if (strcmp(argv[i], "--contract-kept") == 0)
            a->c.contract_kept = true;
        else if ((got = option_value("pick", argc, argv, &i, "--platform", &v))) {
            if (got < 0) return EXIT_USAGE;
            a->platform = pick_platform_from_name(v);
            have_platform = true;
            if (a->platform == PICK_PLATFORM_COUNT)
                st = usage_error("pick",
                                 "bad --platform '%s': generic, x86-64-v2, x86-64-v3, "
                                 "x86-64-v4 or host",
                                 v);
        } else if ((got = option_value("pick", argc, argv, &i, "--max-ulp", &v)))
            st = got < 0 ? EXIT_USAGE : parse_bound("--max-ulp", v, &a->c.max_ulp);
        else if ((got = option_value("pick", argc, argv, &i, "--max-abs", &v)))
            st = got < 0 ? EXIT_USAGE : parse_bound("--max-abs", v, &a->c.max_abs);
        else if ((got = option_value("pick", argc, argv, &i, "--grad-max-ulp", &v)))
            st = got < 0 ? EXIT_USAGE : parse_bound("--grad-max-ulp", v, &a->c.grad_max_ulp);
        else if ((got = option_value("pick", argc, argv, &i, "--own-max-ulp", &v)))
            st = got < 0 ? EXIT_USAGE : parse_bound("--own-max-ulp", v, &a->c.own_max_ulp);
        else if ((got = option_value("pick", argc, argv, &i, "--target", &v))) {
            if (got < 0) return EXIT_USAGE;
            char names[256];
            if (!gelu_target_is_gelu(gelu_target_from_name(v)))
                st = usage_error("pick", "bad --target '%s': %s", v,
                                 gelu_target_list(true, names, sizeof names));
            a->c.target = v;
        } else if ((got = option_value("pick", argc, argv, &i, "--size", &v))) {
            uint64_t n;
            if (got < 0) return EXIT_USAGE;
            if (strcmp(v, "l1") && strcmp(v, "l2") && strcmp(v, "dram") &&
                !parse_u64(v, 1, UINT64_MAX, &n))
                st =
                    usage_error("pick", "bad --size '%s': l1, l2, dram or a number of elements", v);
            a->c.size = v;
        } else if ((got = option_value("pick", argc, argv, &i, "--format", &v))) {
            if (got < 0) return EXIT_USAGE;
            if (!(a->format = gelu_format_find(v)))
                st = usage_error("pick", "unknown --format '%s': %s", v,
                                 gelu_format_names(", ", " or ", false, fmt_names, sizeof fmt_names));
        } else if ((got = option_value("pick", argc, argv, &i, "--results", &v)))
            st = got < 0 ? EXIT_USAGE : (a->results = v, EXIT_OK);
        else
            st = usage_error("pick", "unexpected argument '%s'", argv[i]);
    }
    if (st == EXIT_OK && !have_platform) st = usage_error("pick", "missing --platform");
    return st;
}

static void print_figures(const pick_candidate *k, const char *size, const gelu_format *format)
{
    const results_row *r = k->row;
    char feat[128];
    printf("  %s: target %s, needs %s\n", r->name, r->target,
           cpu_features_string(r->features, feat, sizeof feat));
    if (r->exact[0].present)
        printf("  forward vs exact GELU: max %.4g ULP at x = %s, max abs error %.3g at x = %s, "
               "%.4f%% correctly rounded (%llu inputs%s%s)\n",
               r->exact[0].max_ulp, r->exact[0].max_ulp_x, r->exact[0].max_abs,
               r->exact[0].max_abs_x, 100 * r->exact[0].cr_fraction, (unsigned long long)r->inputs,
               format->id == GELU_FORMAT_BINARY32   ? ""
               : format->id == GELU_FORMAT_BINARY64 ? ", SAMPLED; ULPs of "
                                                    : "; ULPs of ",
               format->id == GELU_FORMAT_BINARY32 ? "" : format->name);
    if (r->exact[1].present)
        printf("  derivative vs exact GELU': max %.4g ULP at x = %s\n", r->exact[1].max_ulp,
               r->exact[1].max_ulp_x);
    if (r->mono_violations >= 0) printf("  monotonicity violations: %ld\n", r->mono_violations);
    const results_speed *sp = size ? results_speed_at(r, size) : NULL;
    if (sp) printf("  speed at %s: %.4g ns/element, %.3g x ReLU\n", size, sp->ns, sp->ratio);
}

static void print_candidate_line(const pick_candidate *k, bool by_speed)
{
    char ns[32];
    snprintf(ns, sizeof ns, isinf(k->ns) ? "-" : "%.4g", k->ns);
    printf("  %-24s %10s ns/elem  %s\n", k->row->name, ns,
           k->failed ? k->why
                     : by_speed ? "meets every constraint; slower"
                                : "meets every constraint; larger max ULP or later name");
}

/* Runs a command with its stdout sent to stderr (stdout is the pick); its exit status. */
static int run_quietly(int (*cmd)(int, char **), int argc, char **argv)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    if (saved >= 0) dup2(STDERR_FILENO, STDOUT_FILENO);
    int st = cmd(argc, argv);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    return st;
}

/* Another format's files: DIR/accuracy_F.csv (scanned when missing: forward and derivative,
 * every input of a 16-bit format, seconds of CPU; binary64's default sample, about a minute)
 * and F's speed figures, DIR/bench_F.csv or else DIR/bench.csv (its rows of format F are read;
 * "" when neither exists: never measured here). */
static int ensure_results_format(const char *dir, const gelu_format *f, char *acc, char *bench,
                            size_t size)
{
    char name[64];
    snprintf(acc, size, "%s/%s", dir, results_file_name(name, sizeof name, "accuracy", f->id));
    snprintf(bench, size, "%s/%s", dir, results_file_name(name, sizeof name, "bench", f->id));
    if (access(bench, R_OK) != 0) snprintf(bench, size, "%s/bench.csv", dir);
    if (access(bench, R_OK) != 0) bench[0] = '\0';
    if (access(acc, R_OK) == 0) return EXIT_OK;
    char format[16];
    snprintf(format, sizeof format, "%s", f->name);
    char *accuracy[] = {"accuracy", "--format", format, "--grad", "--csv", acc, NULL};
    fprintf(stderr, "gelucheck pick: no %s: running 'gelucheck accuracy --format %s --grad --csv "
                    "%s'\n", acc, f->name, acc);
    int st = run_quietly(cmd_accuracy, 6, accuracy);
    return st == EXIT_OK || (st == EXIT_CHECK_FAILED && access(acc, R_OK) == 0) ? EXIT_OK
                                                                                 : EXIT_CHECK_FAILED;
}

/* Measures what DIR lacks: both files by the quick report, one by its own quick command (a
 * full run's other file is kept). A broken contract is still a result. */
static int ensure_results(const char *dir, char *acc, char *bench, size_t size)
{
    snprintf(acc, size, "%s/accuracy.csv", dir);
    snprintf(bench, size, "%s/bench.csv", dir);
    bool have_acc = access(acc, R_OK) == 0, have_bench = access(bench, R_OK) == 0;
    if (have_acc && have_bench) return EXIT_OK;
    char *report[] = {"report", "--quick", "--out", (char *)dir, NULL};
    char *accuracy[] = {"accuracy", "--grad", "--sample", "1000000", "--csv", acc, NULL};
    char *quick_bench[] = {"bench", "--quick", "--csv", bench, NULL};
    int st;
    if (!have_acc && !have_bench) {
        fprintf(stderr, "gelucheck pick: no results in %s/: running 'gelucheck report --quick "
                        "--out %s'\n", dir, dir);
        st = run_quietly(cmd_report, 4, report);
    } else if (!have_acc) {
        fprintf(stderr, "gelucheck pick: no %s: running 'gelucheck accuracy --grad --sample "
                        "1000000 --csv %s'\n", acc, acc);
        st = run_quietly(cmd_accuracy, 6, accuracy);
    } else {
        fprintf(stderr, "gelucheck pick: no %s: running 'gelucheck bench --quick --csv %s'\n",
                bench, bench);
        st = run_quietly(cmd_bench, 4, quick_bench);
    }
    return st == EXIT_OK || (st == EXIT_CHECK_FAILED && access(acc, R_OK) == 0 &&
                             access(bench, R_OK) == 0)
               ? EXIT_OK
               : EXIT_CHECK_FAILED;
}

/* The results' manifest (DIR/manifest.json, written by report): a schema this gelucheck does
 * not read is refused; results of another build or CPU are said to be so. */
static int check_manifest(const char *dir, const char *acc)
{
    char path[4200], err[1024];
    snprintf(path, sizeof path, "%s/%s", dir, MANIFEST_FILE);
    if (access(path, F_OK) != 0) /* not a report: the manifest beside the accuracy file */
        snprintf(path, sizeof path, "%s.manifest.json", acc);
    if (access(path, F_OK) != 0) {
        fprintf(stderr, "gelucheck pick: note: %s/ has no %s: which build measured these results "
                        "is not known\n", dir, MANIFEST_FILE);
        return EXIT_OK;
    }
    run_manifest m, me;
    int rc = manifest_read(path, &m, err, sizeof err);
    if (rc == MANIFEST_EIO) {
        fprintf(stderr, "gelucheck pick: %s\n", err);
        return EXIT_CHECK_FAILED;
    }
    if (rc != MANIFEST_OK) return usage_error("pick", "%s", err);
    manifest_collect(&me, "");
    if (strcmp(m.version, me.version) != 0 || strcmp(m.commit, me.commit) != 0)
        fprintf(stderr, "gelucheck pick: note: the results in %s/ were measured by gelucheck %s "
                        "(commit %s); this is gelucheck %s (commit %s)\n",
                dir, m.version, m.commit, me.version, me.commit);
    if (strcmp(m.cpu_model, me.cpu_model) != 0 || strcmp(m.cpu_features, me.cpu_features) != 0)
        fprintf(stderr, "gelucheck pick: note: the results in %s/ were measured on '%s' (%s); "
                        "this CPU is '%s' (%s)\n",
                dir, m.cpu_model, m.cpu_features, me.cpu_model, me.cpu_features);
    return EXIT_OK;
}

int cmd_pick(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i])) {
            print_help();
            return EXIT_OK;
        }
    pick_args a = {.c = pick_no_constraints(DEFAULT_SIZE), .results = DEFAULT_RESULTS};
    int st = parse_args(argc, argv, &a);
    if (st != EXIT_OK) return st;
    if (!a.format) a.format = gelu_format_of(GELU_FORMAT_BINARY32);
    bool b32 = a.format->id == GELU_FORMAT_BINARY32;
    char acc[4096], bench[4096], err[512];
    st = b32 ? ensure_results(a.results, acc, bench, sizeof acc)
             : ensure_results_format(a.results, a.format, acc, bench, sizeof acc);
    if (st != EXIT_OK) return st;
    if ((st = check_manifest(a.results, acc)) != EXIT_OK) return st;
    results_set *s = malloc(sizeof *s);
    pick_candidate *k = malloc(RESULTS_MAX_ROWS * sizeof *k);
    int rc = s && k ? results_load_format(s, acc, bench[0] ? bench : NULL, a.format->id, true, err,
                                          sizeof err)
                    : -1;
    if (rc != 0) {
        if (rc == -2) st = usage_error("pick", "%s", err); /* a bad results file */
        else fprintf(stderr, "gelucheck pick: %s\n", s && k ? err : "out of memory");
        free(s);
        free(k);
        return rc == -2 ? st : EXIT_CHECK_FAILED;
    }
    size_t n;
    if (!b32 && s->nsizes == 0) a.c.size = NULL; /* no speed of this format: never binary32's */
    int fits = pick_rank(s, a.platform, &a.c, k, &n);
    char feat[128];
    cpu_features_string(pick_platform_features(a.platform), feat, sizeof feat);
    if (b32)
        printf("platform %s (%s); ranked by median ns/element at size %s; results from %s/\n",
               pick_platform_name(a.platform), feat, a.c.size, a.results);
    else if (a.c.size)
        printf("format %s; platform %s (%s); ranked by median ns/element at size %s (%s's %s "
               "rows); accuracy from %s\n",
               a.format->name, pick_platform_name(a.platform), feat, a.c.size, bench,
               a.format->name, acc);
    else
        printf("format %s; platform %s (%s); accuracy from %s; no %s speed figures in %s/ "
               "(gelucheck bench --format %s --csv %s/bench_%s.csv measures them): ranked by "
               "constraints met, then max ULP against exact GELU, not by speed\n",
               a.format->name, pick_platform_name(a.platform), feat, acc, a.format->name,
               a.results, a.format->name, a.results, a.format->name);
    if (a.format->id == GELU_FORMAT_BINARY64 && s->n)
        printf("accuracy SAMPLED, not exhaustive: %llu inputs per implementation (%s); a sample's "
               "maxima, not bounds\n", (unsigned long long)s->rows[0].inputs, acc);
    if (fits > 0) {
        printf("choice: %s, the %s of the %d implementation%s meeting every constraint\n",
               k[0].row->name, a.c.size ? "fastest" : "most accurate", fits, fits > 1 ? "s" : "");
        print_figures(&k[0], a.c.size, a.format);
        printf("runners-up:\n");
        for (size_t i = 1; i < n; i++) print_candidate_line(&k[i], a.c.size != NULL);
        st = EXIT_OK;
    } else {
        printf("nothing fits; the closest:\n");
        for (size_t i = 0; i < n && i < CLOSEST_LISTED; i++) print_candidate_line(&k[i], a.c.size != NULL);
        st = EXIT_CHECK_FAILED;
    }
    free(s);
    free(k);
    return st;
}
