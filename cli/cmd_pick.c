/* gelucheck pick: the fastest implementation a platform can run that meets the user's accuracy
 * constraints, judged on measured results (a report directory), never on claims. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer.h"
#include "cli.h"
#include "exec_cross.h"
#include "framework_paths_scan.h"
#include "gelu_cr16.h"
#include "gelu_f64.h"
#include "gelu_impl.h"
#include "manifest.h"
#include "pick.h"

#define DEFAULT_RESULTS "report"
#define DEFAULT_SIZE "l2"
enum { CLOSEST_LISTED = 3 };

static void print_help(void)
{
    char names[256];
    printf("usage: gelucheck pick --platform %s|all\n", pick_platform_names("|", names, sizeof names));
    printf(
           "                      [--need K | [--max-ulp U] [--max-abs A] [--monotone] [--grad-max-ulp G]\n"
           "                      [--own-max-ulp U] [--correctly-rounded] [--contract-kept]\n"
           "                      [--target exact|tanh|sigmoid]] [--size l1|l2|dram|N]\n"
           "                      [--results DIR] [--json FILE] [--estimates FILE]\n"
           "                      [--format F]\n");
    char fmt_names[256];
    printf("F: %s\n\n", gelu_format_names("|", "|", false, fmt_names, sizeof fmt_names));
    printf(
           "Chooses, from measured results, the fastest implementation that the platform can run\n"
           "and that meets every constraint; prints it with its measured figures and the\n"
           "runners-up, each with the first constraint it fails. Without a need (no --need,\n"
           "no constraint) it judges by the default need, need 1 below, and says so: never by\n"
           "no constraint at all. The needs (the report's):\n");
    for (size_t i = 0; i < pick_need_count(); i++)
        printf("  %zu. %s%s: %s\n", i + 1, pick_need_at(i)->title,
               i == PICK_DEFAULT_NEED ? " (the default)" : "", pick_need_at(i)->asks);
    printf("\n  --platform P      the platforms, what they run and where their speed comes from:\n");
    for (int p = 0; p < PICK_PLATFORM_COUNT; p++) {
        char runs[128], speed[160];
        printf("                    %s: %s (%s); speed %s\n", pick_platform_name((pick_platform)p),
               pick_platform_at((pick_platform)p)->what, pick_platform_runs((pick_platform)p, runs, sizeof runs),
               pick_speed_text((pick_platform)p, NULL, "S", speed, sizeof speed));
    }
    printf("                    AArch64 and RISC-V rows are the cross builds' exec children\n"
           "                    scanned under qemu (docs/platforms.md), told by the\n"
           "                    dispatched_isa they announce; an x86-64 row never runs there.\n"
           "                    all: the matrix, every platform (a cross one only when the\n"
           "                    results have its builds' rows) x the need given (without one:\n"
           "                    every need above), each cell the choice, its figures, the\n"
           "                    runner-up\n"
           "  --need K          need K of the list above (not with the constraints below)\n"
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
           "  --estimates FILE  the llvm-mca estimates the Arm platforms rank by (default\n"
           "                    %s)\n"
           "  --json FILE       also write the answer as data (docs/answer-json.md; the\n"
           "                    platforms and needs judged), as report writes answer.json\n"
           "  --results DIR     a report directory: accuracy.csv and bench.csv (default %s/);\n"
           "                    what is missing is measured first (report --quick for both,\n"
           "                    accuracy --grad --sample 1000000 or bench --quick for one);\n"
           "                    accuracy_paths.csv too where there is one: a framework row\n"
           "                    judged by its worst path\n"
           "  --format F        choose within format F (default binary32): bfloat16, binary16\n"
           "                    and binary64 read DIR/accuracy_F.csv (written by report, or by\n"
           "                    accuracy --format F --grad when missing; ULPs are F's) and speed\n"
           "                    only from F's benchmark rows (DIR/bench_F.csv, else\n"
           "                    DIR/bench.csv's rows of format F); without any, ranked by\n"
           "                    accuracy, never by binary32 speed. binary64's accuracy is a\n"
           "                    sample's (the output says how many inputs): its maxima are not\n"
           "                    bounds, and --correctly-rounded means every sampled input\n\n"
           "Ties in speed go to the smaller max ULP against exact GELU, then to the larger\n"
           "fraction correctly rounded, then to the name. xReLU is against the platform's own\n"
           "ReLU build (relu_avx512f on x86-64-v4, relu_avx2 on v3, relu on v2 and generic).\n"
           "Figures over part of the format's inputs (a sample or a range) are marked SAMPLED\n"
           "with the number of inputs: their maxima are not bounds.\n"
           "Exit status: 0 a choice, 1 nothing fits (the closest are listed) or results cannot\n"
           "be read, 2 bad usage.\n",
           DEFAULT_SIZE, mca_estimates_default_path(), DEFAULT_RESULTS);
}

typedef struct {
    pick_platform platform;
    bool all_platforms;
    int need; /* a need of the list (0-based), −1: none named */
    pick_constraints c;
    const char *results, *json, *estimates;
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
            a->all_platforms = strcmp(v, "all") == 0;
            have_platform = true;
            char names[256];
            if (a->platform == PICK_PLATFORM_COUNT && !a->all_platforms)
                st = usage_error("pick", "bad --platform '%s': %s or all", v,
                                 pick_platform_names(", ", names, sizeof names));
        } else if ((got = option_value("pick", argc, argv, &i, "--need", &v))) {
            uint64_t k;
            if (got < 0) return EXIT_USAGE;
            if (!parse_u64(v, 1, pick_need_count(), &k))
                st = usage_error("pick", "bad --need '%s': 1 to %zu (pick --help lists them)", v,
                                 pick_need_count());
            a->need = (int)k - 1;
        } else if ((got = option_value("pick", argc, argv, &i, "--estimates", &v))) {
            st = got < 0 ? EXIT_USAGE : (a->estimates = v, EXIT_OK);
        } else if ((got = option_value("pick", argc, argv, &i, "--json", &v))) {
            st = got < 0 ? EXIT_USAGE : (a->json = v, EXIT_OK);
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
    if (st == EXIT_OK && a->need >= 0 && pick_constrains(&a->c))
        st = usage_error("pick", "--need %d and constraints: give one or the other", a->need + 1);
    return st;
}

static void print_figures(const results_set *s, const pick_candidate *k, pick_platform p,
                          const char *size, const gelu_format *format,
                          const mca_estimates *estimates)
{
    const results_row *r = k->row;
    char feat[128], inputs[96];
    uint64_t encodings = gelu_format_encodings(format);
    if (encodings && r->inputs == encodings)
        snprintf(inputs, sizeof inputs, "all %llu inputs", (unsigned long long)r->inputs);
    else if (encodings)
        snprintf(inputs, sizeof inputs, "SAMPLED: %llu of %llu inputs", (unsigned long long)r->inputs,
                 (unsigned long long)encodings);
    else
        snprintf(inputs, sizeof inputs, "SAMPLED: %llu inputs", (unsigned long long)r->inputs);
    const pick_platform_row *row = pick_platform_at(p);
    if (row->isas) printf("  %s: target %s, a %s build\n", r->name, r->target, r->dispatched_isa);
    else printf("  %s: target %s, needs %s\n", r->name, r->target,
                cpu_features_string(r->features, feat, sizeof feat));
    if (r->exact[0].present)
        printf("  forward vs exact GELU: max %.4g ULP at x = %s, max abs error %.3g at x = %s, "
               "%.4f%% correctly rounded (%s%s%s)\n",
               r->exact[0].max_ulp, r->exact[0].max_ulp_x, r->exact[0].max_abs,
               r->exact[0].max_abs_x, 100 * r->exact[0].cr_fraction, inputs,
               format->id == GELU_FORMAT_BINARY32 ? "" : "; ULPs of ",
               format->id == GELU_FORMAT_BINARY32 ? "" : format->name);
    if (r->exact[1].present)
        printf("  derivative vs exact GELU': max %.4g ULP at x = %s\n", r->exact[1].max_ulp,
               r->exact[1].max_ulp_x);
    if (r->mono_violations >= 0) printf("  monotonicity violations: %ld\n", r->mono_violations);
    if (row->speed == PICK_SPEED_ESTIMATED && !isinf(k->cost))
        printf("  speed: %.4g cycles/element ESTIMATED on %s by llvm-mca (model %s), not "
               "measured\n", k->cost, row->mca_cpu, mca_estimates_model(estimates, row->mca_cpu));
    if (row->speed != PICK_SPEED_MEASURED) return;
    const results_speed *sp = size ? results_speed_at(r, size) : NULL;
    const results_row *relu = pick_platform_relu(s, p, size);
    if (sp && relu)
        printf("  speed at %s: %.4g ns/element, %.3g x %s (%s's ReLU)\n", size, sp->ns,
               pick_times_relu(s, r, p, size), relu->name, pick_platform_name(p));
    else if (sp)
        printf("  speed at %s: %.4g ns/element (no ReLU %s runs was benchmarked)\n", size, sp->ns,
               pick_platform_name(p));
}

static void print_candidate_line(const pick_candidate *k, bool by_speed, const char *unit)
{
    char cost[32];
    snprintf(cost, sizeof cost, isinf(k->cost) ? "-" : "%.4g", k->cost);
    printf("  %-24s %10s %s  %s", k->row->name, cost, unit,
           k->failed ? k->why
                     : by_speed ? "meets every constraint; slower"
                                : "meets every constraint; larger max ULP or later name");
    if (k->npaths) printf(" (judged by its worst of %d paths: %s)", k->npaths + 1, k->worst_path);
    printf("\n");
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
 * full run's other file is kept). A broken contract is still a result. need_bench false (a
 * platform whose speed is not measured): no benchmark is run, bench "" when DIR has none. */
static int ensure_results(const char *dir, bool need_bench, char *acc, char *bench, size_t size)
{
    snprintf(acc, size, "%s/accuracy.csv", dir);
    snprintf(bench, size, "%s/bench.csv", dir);
    bool have_acc = access(acc, R_OK) == 0, have_bench = access(bench, R_OK) == 0;
    if (!have_bench && !need_bench) bench[0] = '\0', have_bench = true;
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

/* Whether this process has an implementation of that name (in any format's list). */
static bool loaded(const char *name)
{
    for (int f = 0; f < GELU_FORMAT_COUNT; f++)
        if (gelu_impl_find_in(name, (gelu_format_id)f)) return true;
    return false;
}

/* Starts the rows of the --cross builds (exec_cross.h) that the results file acc names (its
 * first column) and this process lacks, so that results scanned with `--cross DIR` are read
 * with the same option. EXIT_OK, or the status after the message (a child that failed). */
static int start_cross_rows(const char *acc)
{
    FILE *f = fopen(acc, "r");
    char line[4096], err[2000];
    int st = EXIT_OK;
    while (f && st == EXIT_OK && fgets(line, sizeof line, f)) {
        line[strcspn(line, ",\n")] = '\0';
        if (loaded(line) || !exec_cross_lists(line)) continue;
        int rc = exec_cross_add(line, 60, err, sizeof err);
        if (rc != 0) {
            fprintf(stderr, "gelucheck pick: %s\n", err);
            st = rc == -2 ? EXIT_CHECK_FAILED : EXIT_USAGE;
        }
    }
    if (f) fclose(f);
    return st;
}

/* A plugin loaded here from the path the results' manifest names but with another SHA-256 is
 * noted. */
static void check_plugins(const char *dir, const run_manifest *m, const run_manifest *me)
{
    for (size_t i = 0; i < m->plugins.n; i++) {
        const char *now = manifest_map_get(&me->plugins, m->plugins.pair[i].key);
        if (now && strcmp(now, m->plugins.pair[i].value) != 0)
            fprintf(stderr, "gelucheck pick: note: the results in %s/ were measured with plugin "
                            "'%s' of SHA-256 %s; the file loaded now has %s\n",
                    dir, m->plugins.pair[i].key, m->plugins.pair[i].value, now);
    }
}

/* The results name an implementation this process lacks (err, from results_load_format, names
 * it): when the manifest says it came from a plugin or an exec child, a usage error saying
 * exactly what to pass; else the error as it is. */
static int unknown_impl_error(const char *dir, const run_manifest *m, const char *err)
{
    for (size_t i = 0; i < m->sources.n; i++) {
        const char *name = m->sources.pair[i].key;
        char quoted[MANIFEST_KEY + 4], pass[2 * MANIFEST_VALUE + 64], what[MANIFEST_VALUE + 128];
        snprintf(quoted, sizeof quoted, "'%s'", name);
        if (loaded(name) || !strstr(err, quoted) ||
            manifest_reload_hint(m, name, pass, sizeof pass, what, sizeof what) != 0)
            continue;
        return usage_error("pick", "%s: the results in %s/ name '%s', of %s, which is not "
                           "loaded: pass %s", err, dir, name, what, pass);
    }
    return usage_error("pick", "%s", err);
}

/* The results' manifest (DIR/manifest.json, written by report): a schema this gelucheck does
 * not read is refused; results of another build or CPU are said to be so. The CPU they were
 * measured on into where (this one's when the results have no manifest). */
static int check_manifest(const char *dir, const char *acc, run_manifest *where)
{
    char path[4200], err[1024];
    run_manifest *me = malloc(sizeof *me);
    if (!me) {
        fprintf(stderr, "gelucheck pick: out of memory\n");
        return EXIT_CHECK_FAILED;
    }
    manifest_collect(me, "");
    *where = *me;
    snprintf(path, sizeof path, "%s/%s", dir, MANIFEST_FILE);
    if (access(path, F_OK) != 0) /* not a report: the manifest beside the accuracy file */
        snprintf(path, sizeof path, "%s.manifest.json", acc);
    if (access(path, F_OK) != 0) {
        fprintf(stderr, "gelucheck pick: note: %s/ has no %s: which build measured these results "
                        "is not known\n", dir, MANIFEST_FILE);
        free(me);
        return EXIT_OK;
    }
    run_manifest *m = where;
    int rc = manifest_read(path, m, err, sizeof err), st = EXIT_OK;
    if (rc == MANIFEST_EIO) {
        fprintf(stderr, "gelucheck pick: %s\n", err);
        st = EXIT_CHECK_FAILED;
    } else if (rc != MANIFEST_OK) {
        st = usage_error("pick", "%s", err);
    } else {
        if (strcmp(m->version, me->version) != 0 || strcmp(m->commit, me->commit) != 0)
            fprintf(stderr, "gelucheck pick: note: the results in %s/ were measured by gelucheck %s "
                            "(commit %s); this is gelucheck %s (commit %s)\n",
                    dir, m->version, m->commit, me->version, me->commit);
        if (strcmp(m->cpu_model, me->cpu_model) != 0 || strcmp(m->cpu_features, me->cpu_features) != 0)
            fprintf(stderr, "gelucheck pick: note: the results in %s/ were measured on '%s' (%s); "
                            "this CPU is '%s' (%s)\n",
                    dir, m->cpu_model, m->cpu_features, me->cpu_model, me->cpu_features);
        check_plugins(dir, m, me);
    }
    free(me);
    return st;
}

static bool any_estimated(const pick_platform *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (pick_platform_at(p[i])->speed == PICK_SPEED_ESTIMATED) return true;
    return false;
}

/* The llvm-mca estimates (path, or the default file) into *e and c, for the platforms of
 * estimated speed; a file that cannot be read or is bad is an error (exit 1). */
static int load_estimates(const char *path, mca_estimates **e, pick_constraints *c)
{
    char err[1024];
    if (!path) path = mca_estimates_default_path();
    if (!(*e = malloc(sizeof **e))) {
        fprintf(stderr, "gelucheck pick: out of memory\n");
        return EXIT_CHECK_FAILED;
    }
    if (mca_estimates_load(path, *e, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck pick: %s\n", err);
        return EXIT_CHECK_FAILED;
    }
    c->estimates = *e;
    return EXIT_OK;
}

/* The answer as data (--json), written whole with its manifest beside it. */
static int write_answer(FILE *f, void *ctx) { return answer_write_json(f, ctx); }

/* The needs judged: the one named by --need, the constraints given, or without either the
 * default one (--platform all: every need of the list); into needs (room for the list), their
 * count; *default_need the index of the default among them, or −1. */
static size_t needs_judged(const pick_args *a, pick_need *needs, int *default_need)
{
    *default_need = -1;
    if (pick_constrains(&a->c)) {
        static char asks[256];
        needs[0] = (pick_need){"the constraints given",
                               pick_constraints_describe(&a->c, asks, sizeof asks), a->c};
        return 1;
    }
    size_t n = 0;
    for (size_t i = 0; i < pick_need_count(); i++)
        if ((a->need >= 0 && (size_t)a->need == i) ||
            (a->need < 0 && (a->all_platforms || i == PICK_DEFAULT_NEED))) {
            if (i == PICK_DEFAULT_NEED) *default_need = (int)n;
            needs[n] = *pick_need_at(i);
            needs[n].c.estimates = a->c.estimates;
            needs[n++].c.size = a->c.size;
        }
    return n;
}

/* One platform's pick, printed: the choice with its figures and the runners-up, or the closest. */
static int print_pick(const pick_args *a, const results_set *s, const pick_need *need,
                      const char *acc, const char *bench, pick_candidate *k)
{
    size_t n;
    bool b32 = a->format->id == GELU_FORMAT_BINARY32;
    const pick_constraints *c = &need->c;
    int fits = pick_rank(s, a->platform, c, k, &n);
    char feat[128], speed[192];
    const pick_platform_row *row = pick_platform_at(a->platform);
    pick_platform_runs(a->platform, feat, sizeof feat);
    if (row->speed != PICK_SPEED_MEASURED)
        printf("platform %s (%s, %s); speed %s; results from %s/\n", row->name, row->what, feat,
               pick_speed_text(a->platform, c->estimates, c->size, speed, sizeof speed), a->results);
    else if (b32)
        printf("platform %s (%s); ranked by median ns/element at size %s; results from %s/\n",
               pick_platform_name(a->platform), feat, c->size, a->results);
    else if (c->size)
        printf("format %s; platform %s (%s); ranked by median ns/element at size %s (%s's %s "
               "rows); accuracy from %s\n",
               a->format->name, pick_platform_name(a->platform), feat, c->size, bench,
               a->format->name, acc);
    else
        printf("format %s; platform %s (%s); accuracy from %s; no %s speed figures in %s/ "
               "(gelucheck bench --format %s --csv %s/bench_%s.csv measures them): ranked by "
               "constraints met, then max ULP against exact GELU, not by speed\n",
               a->format->name, pick_platform_name(a->platform), feat, acc, a->format->name,
               a->results, a->format->name, a->results, a->format->name);
    uint64_t encodings = gelu_format_encodings(a->format);
    if (s->n && (encodings == 0 || s->rows[0].inputs < encodings))
        printf("accuracy SAMPLED, not exhaustive: %llu inputs per implementation of %s's 2^%u "
               "(%s); a sample's maxima, not bounds\n",
               (unsigned long long)s->rows[0].inputs, a->format->name, a->format->storage_bits, acc);
    if (!pick_platform_has_rows(s, a->platform))
        printf("no row of %s's builds in %s/: scan them as exec rows under qemu "
               "(docs/platforms.md) and pick again\n", row->name, a->results);
    bool by_speed = row->speed == PICK_SPEED_MEASURED ? c->size != NULL
                  : row->speed == PICK_SPEED_ESTIMATED && b32;
    const char *unit = row->speed == PICK_SPEED_ESTIMATED ? "cyc/elem (est.)" : "ns/elem";
    if (fits > 0) {
        printf("choice: %s, the %s of the %d implementation%s meeting every constraint\n",
               k[0].row->name,
               !by_speed ? "most accurate"
               : row->speed == PICK_SPEED_ESTIMATED ? "fastest by the llvm-mca estimate"
                                                     : "fastest",
               fits, fits > 1 ? "s" : "");
        if (k[0].npaths)
            printf("  judged by its worst of %d paths: %s\n", k[0].npaths + 1, k[0].worst_path);
        print_figures(s, &k[0], a->platform, c->size, a->format, c->estimates);
        printf("runners-up:\n");
        for (size_t i = 1; i < n; i++) print_candidate_line(&k[i], by_speed, unit);
        return EXIT_OK;
    }
    printf("nothing fits; the closest:\n");
    for (size_t i = 0; i < n && i < CLOSEST_LISTED; i++) print_candidate_line(&k[i], by_speed, unit);
    return EXIT_CHECK_FAILED;
}

int cmd_pick(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i])) {
            print_help();
            return EXIT_OK;
        }
    pick_args a = {.c = pick_no_constraints(DEFAULT_SIZE), .results = DEFAULT_RESULTS, .need = -1};
    int st = parse_args(argc, argv, &a);
    if (st != EXIT_OK) return st;
    if (!a.format) a.format = gelu_format_of(GELU_FORMAT_BINARY32);
    if (a.json && (st = probe_output("pick", a.json)) != EXIT_OK) return st;
    bool b32 = a.format->id == GELU_FORMAT_BINARY32;
    char acc[4096], bench[4096], err[512];
    bool need_bench = a.all_platforms || pick_platform_at(a.platform)->speed == PICK_SPEED_MEASURED;
    st = b32 ? ensure_results(a.results, need_bench, acc, bench, sizeof acc)
             : ensure_results_format(a.results, a.format, acc, bench, sizeof acc);
    if (st == EXIT_OK) st = start_cross_rows(acc);
    if (st != EXIT_OK) return st;
    run_manifest *where = malloc(sizeof *where);
    results_set *s = malloc(sizeof *s);
    pick_candidate *k = malloc(RESULTS_MAX_ROWS * sizeof *k);
    answer *ans = malloc(sizeof *ans);
    if (!where || !s || !k || !ans) {
        fprintf(stderr, "gelucheck pick: out of memory\n");
        st = EXIT_CHECK_FAILED;
    } else
        st = check_manifest(a.results, acc, where);
    int rc = st == EXIT_OK ? results_load_format(s, acc, bench[0] ? bench : NULL, a.format->id,
                                                 true, err, sizeof err)
                           : 0;
    if (rc != 0) {
        if (rc == -2) st = unknown_impl_error(a.results, where, err); /* a bad results file */
        else fprintf(stderr, "gelucheck pick: %s\n", err), st = EXIT_CHECK_FAILED;
    }
    char paths[4200]; /* the frameworks' paths of a report, scanned apart: judged with their rows */
    snprintf(paths, sizeof paths, "%s/%s", a.results, FRAMEWORK_PATHS_FILE);
    if (st == EXIT_OK && b32 && framework_paths_merge(s, paths, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck pick: %s\n", err);
        st = EXIT_CHECK_FAILED;
    }
    pick_platform platforms[PICK_PLATFORM_COUNT];
    size_t nplatforms = 0;
    for (int p = 0; st == EXIT_OK && p < PICK_PLATFORM_COUNT; p++)
        if ((a.all_platforms && pick_platform_has_rows(s, (pick_platform)p)) || p == (int)a.platform)
            platforms[nplatforms++] = (pick_platform)p;
    mca_estimates *est = NULL;
    if (st == EXIT_OK && b32 && any_estimated(platforms, nplatforms))
        st = load_estimates(a.estimates, &est, &a.c);
    pick_need needs[ANSWER_MAX_NEEDS];
    int default_need = -1;
    size_t nneeds = 0;
    if (st == EXIT_OK) {
        if (!b32 && s->nsizes == 0) a.c.size = NULL; /* no speed of this format: never binary32's */
        nneeds = needs_judged(&a, needs, &default_need);
        if (default_need >= 0 && !a.all_platforms)
            printf("no need given: judging by the default need, \"%s\" (%s); --need K or "
                   "constraints ask another ('gelucheck pick --help' lists the needs)\n",
                   needs[0].title, needs[0].asks);
    }
    bool built = st == EXIT_OK && (a.all_platforms || a.json);
    if (built &&
        answer_build(ans, s, NULL, needs, nneeds, default_need, platforms, nplatforms, a.c.size,
                     where->cpu_model, where->cpu_features, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck pick: %s\n", err);
        st = EXIT_CHECK_FAILED;
        built = false;
    }
    if (st == EXIT_OK && a.all_platforms) {
        answer_print_matrix(stdout, ans);
        bool any = false; /* exit 0 when some cell has a choice */
        for (size_t i = 0; i < nneeds; i++)
            for (size_t j = 0; j < nplatforms; j++) any |= ans->cells[i][j].fits > 0;
        st = any ? EXIT_OK : EXIT_CHECK_FAILED;
    } else if (st == EXIT_OK) {
        st = print_pick(&a, s, &needs[0], acc, bench, k);
    }
    if (built && a.json) {
        int w = write_output("pick", a.json, write_answer, ans);
        if (w != EXIT_OK) st = w;
    }
    free(where);
    free(s);
    free(k);
    free(ans);
    free(est);
    return st;
}

const gelucheck_command command_pick = {"pick", cmd_pick,
                                         "the fastest implementation a platform runs that meets constraints",
                                         NULL, false};
