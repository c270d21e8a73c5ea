/* gelucheck compare OLD_DIR NEW_DIR: what changed between two result sets (reports/compare.h),
 * the gate a kernel change runs against its baseline: exit 1 when accuracy got worse or a
 * contract that held now fails. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "cli.h"
#include "compare.h"

static void print_help(void)
{
    printf("usage: gelucheck compare OLD_DIR NEW_DIR [--csv FILE]\n\n"
           "Compares two result sets, each a directory with manifest.json and accuracy.csv\n"
           "(bench.csv too for speed): a report directory, or accuracy and bench runs written\n"
           "there. Per implementation: max ULP against its own target and against exact GELU,\n"
           "max abs error, correctly rounded inputs, gradient max ULP, monotonicity violations,\n"
           "special values, the contract's verdict, and median ns/element per size, where a\n"
           "change counts only when the two runs' interquartile ranges do not overlap (and only\n"
           "on the same CPU model). Prints every change and a summary.\n\n"
           "  --csv FILE   also write the changes: impl,metric,old,new,change\n\n"
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

static void print_changes(const compare_result *c)
{
    for (int pass = 0; pass < 2; pass++) /* regressions first */
        for (size_t i = 0; i < c->n; i++) {
            const compare_change *ch = &c->changes[i];
            if (compare_kind_is_regression(ch->kind) != (pass == 0)) continue;
            printf("  %-8s %-26s %-30s %s -> %s\n", compare_kind_name(ch->kind), ch->impl,
                   ch->metric, ch->old_value, ch->new_value);
        }
}

int cmd_compare(int argc, char **argv)
{
    const char *dirs[2] = {NULL, NULL}, *csv = NULL, *v;
    size_t ndirs = 0;
    int got;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            print_help();
            return EXIT_OK;
        }
        if ((got = option_value("compare", argc, argv, &i, "--csv", &v))) {
            if (got < 0) return EXIT_USAGE;
            csv = v;
        } else if (argv[i][0] == '-' && argv[i][1] == '-')
            return usage_error("compare", "unexpected argument '%s'", argv[i]);
        else if (ndirs == 2)
            return usage_error("compare", "unexpected argument '%s': two directories only",
                               argv[i]);
        else
            dirs[ndirs++] = argv[i];
    }
    if (ndirs < 2) return usage_error("compare", "needs OLD_DIR and NEW_DIR");

    compare_sets *cs = malloc(sizeof *cs);
    char err[1024];
    if (!cs) {
        fprintf(stderr, "gelucheck compare: out of memory\n");
        return EXIT_CHECK_FAILED;
    }
    if (compare_sets_load(cs, dirs[0], dirs[1], err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck compare: %s\n", err);
        free(cs);
        return EXIT_USAGE;
    }
    printf("old: %s/ (commit %s, %s)\nnew: %s/ (commit %s, %s)\n", dirs[0], cs->manifest[0].commit,
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
    int st = c->regressions ? EXIT_CHECK_FAILED : EXIT_OK;
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
