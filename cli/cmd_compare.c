/* gelucheck compare OLD_DIR NEW_DIR: what changed between two result sets (reports/compare.h),
 * the gate a kernel change runs against its baseline: exit 1 when accuracy got worse or a
 * contract that held now fails. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "cli.h"
#include "compare.h"

static void print_help(void)
{
    printf("usage: gelucheck compare OLD NEW [--impl A,B,...] [--csv FILE]\n\n"
           "Compares two result sets, each a report directory (manifest.json, accuracy.csv,\n"
           "bench.csv), a directory of accuracy and bench runs written there (accuracy.csv with\n"
           "its accuracy.csv.manifest.json, bench.csv), or an accuracy CSV file with its\n"
           "FILE.manifest.json. Per implementation, every error figure of accuracy.csv: max ULP,\n"
           "max abs and the mean ULP over normal(0,1) inputs, against its own target and\n"
           "against exact GELU, forward and derivative; correctly rounded inputs; monotonicity\n"
           "violations; special values; the contract's verdict; and speed per size (only on the\n"
           "same CPU model): each round's ratio to the baseline ReLU (bench.csv's ratio_rounds),\n"
           "the new run's divided by the shift common to its rows; a change when the exact\n"
           "Mann-Whitney rank test gives p < 0.01 and the medians differ by at least 5%% and by\n"
           "3 robust standard deviations of the run's rows (rows with their own thread pool and\n"
           "the ReLU and SiLU yardsticks not judged); without ratio_rounds, when the two runs'\n"
           "interquartile ranges of ns/element do not overlap. Prints every change, accuracy\n"
           "regressions first, worst first (by the factor the figure grew), and a summary.\n\n"
           "  --impl A,B   compare these implementations only\n"
           "  --csv FILE   also write the changes, in that order: impl,metric,old,new,change\n\n"
           "Both manifests must have the same schema version and both sets the same scanned\n"
           "domain (number of inputs). Exit status: 0 no accuracy regression, 1 accuracy got\n"
           "worse or a contract that held now fails (or FILE cannot be written), 2 bad usage or\n"
           "inputs that cannot be compared (the file is named).\n");
}

/* The CSV, whole or not at all. 0, or −1 with the reason in err. */
static int write_csv(const char *path, const compare_result *c, char *err, size_t errsize)
{
    atomic_file a;
    if (atomic_file_open(&a, path, err, errsize) != 0) return -1;
    if (compare_csv_write(a.f, c) != 0) {
        snprintf(err, errsize, "cannot write '%s'", path);
        atomic_file_abort(&a);
        return -1;
    }
    return atomic_file_commit(&a, err, errsize);
}

/* In compare's order: regressions first, worst first. */
static void print_changes(const compare_result *c)
{
    for (size_t i = 0; i < c->n; i++) {
        const compare_change *ch = &c->changes[i];
        printf("  %-8s %-22s %-44s %s -> %s", compare_kind_name(ch->kind), ch->impl, ch->metric,
               ch->old_value, ch->new_value);
        if (compare_kind_is_regression(ch->kind) && isinf(ch->severity)) printf("  (from 0)");
        else if (compare_kind_is_regression(ch->kind) && ch->kind == CHANGE_WORSE)
            printf("  (x%.4g)", ch->severity);
        printf("\n");
    }
}

int cmd_compare(int argc, char **argv)
{
    const char *dirs[2] = {NULL, NULL}, *csv = NULL, *v;
    char **only = NULL;
    size_t ndirs = 0, nonly = 0;
    int got, st;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            print_help();
            return EXIT_OK;
        }
        if ((got = option_value("compare", argc, argv, &i, "--csv", &v))) {
            if (got < 0) return EXIT_USAGE;
            csv = v;
        } else if ((got = option_value("compare", argc, argv, &i, "--impl", &v))) {
            if (got < 0) return EXIT_USAGE;
            free(only);
            if ((st = split_list("compare", "--impl", v, &only, &nonly)) != EXIT_OK) return st;
        } else if (argv[i][0] == '-' && argv[i][1] == '-')
            return usage_error("compare", "unexpected argument '%s'", argv[i]);
        else if (ndirs == 2) {
            free(only);
            return usage_error("compare", "unexpected argument '%s': two result sets only",
                               argv[i]);
        } else
            dirs[ndirs++] = argv[i];
    }
    if (ndirs < 2) {
        free(only);
        return usage_error("compare", "needs OLD and NEW (directories or accuracy CSV files)");
    }

    compare_sets *cs = malloc(sizeof *cs);
    char err[1024];
    if (!cs) {
        fprintf(stderr, "gelucheck compare: out of memory\n");
        free(only);
        return EXIT_CHECK_FAILED;
    }
    st = compare_sets_load_only(cs, dirs[0], dirs[1], (const char *const *)only, nonly, err,
                                sizeof err);
    for (size_t k = 0; st == 0 && k < nonly; k++)
        if (!results_find(&cs->sets[0], only[k]) && !results_find(&cs->sets[1], only[k])) {
            free(cs);
            st = usage_error("compare", "--impl '%s': in neither result set", only[k]);
            free(only);
            return st;
        }
    free(only);
    if (st != 0) {
        fprintf(stderr, "gelucheck compare: %s\n", err);
        free(cs);
        return EXIT_USAGE;
    }
    printf("old: %s (commit %s, %s)\nnew: %s (commit %s, %s)\n", dirs[0], cs->manifest[0].commit,
           cs->manifest[0].created, dirs[1], cs->manifest[1].commit, cs->manifest[1].created);
    if (!cs->same_cpu)
        printf("different CPU models ('%s' and '%s'): speed is not compared\n",
               cs->manifest[0].cpu_model, cs->manifest[1].cpu_model);
    const compare_result *c = &cs->result;
    print_changes(c);
    printf("%zu implementations compared: %zu regression%s (%zu worse, %zu contracts broken), "
           "%zu better, %zu fixed, %zu slower, %zu faster, %zu added, %zu removed%s\n",
           c->compared, c->regressions, c->regressions == 1 ? "" : "s", c->count[CHANGE_WORSE],
           c->count[CHANGE_BROKEN], c->count[CHANGE_BETTER], c->count[CHANGE_FIXED],
           c->count[CHANGE_SLOWER], c->count[CHANGE_FASTER], c->count[CHANGE_ADDED],
           c->count[CHANGE_REMOVED], c->speed_compared ? "" : "; speed not compared");
    if (c->speed_not_judged[0] || c->speed_not_judged[1])
        printf("speed not judged: rows with their own thread pool %zu (their time follows the "
               "machine's other load), yardsticks that are not GELUs (ReLU, SiLU) %zu\n",
               c->speed_not_judged[0], c->speed_not_judged[1]);
    st = c->regressions ? EXIT_CHECK_FAILED : EXIT_OK;
    if (csv && write_csv(csv, c, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck compare: %s\n", err);
        st = EXIT_CHECK_FAILED;
    }
    free(cs);
    return st;
}

const gelucheck_command command_compare = {"compare", cmd_compare,
                                         "what changed between two result sets; fails on an accuracy regression",
                                         NULL, false};
