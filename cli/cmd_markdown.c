/* gelucheck markdown [--format LIST] [DIR]: the README's tables, in Markdown, from a report
 * directory's files (reports/markdown.h): binary32's accuracy table from accuracy.csv, the
 * 16-bit formats' table from accuracy_<format>.csv, so that the README's figures are generated
 * from a run, never retyped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exec_frameworks.h"
#include "gelu_cr16.h"
#include "markdown.h"
#include "results.h"

enum { MAX_FORMATS = 4 };

static void print_help(void)
{
    printf("usage: gelucheck markdown [--format binary32 | binary64 | F[,F...]] [DIR]\n\n"
           "Prints the README's accuracy table in Markdown from DIR/accuracy.csv (default\n"
           "report/, as 'gelucheck report' or 'gelucheck accuracy --csv DIR/accuracy.csv' writes\n"
           "it): per scanned implementation its target, max ULP against its own target with the\n"
           "first input reaching it, against exact GELU, max abs error, correctly rounded %%,\n"
           "monotonicity breaks, wrong special values (forward/derivative), the derivative's max\n"
           "ULP and abs error, and oneDNN benchdnn / XNNPACK failures against exact GELU.\n\n"
           "  --format F[,F...]  bfloat16 and/or binary16 instead: the README's 16-bit table from\n"
           "                 DIR/accuracy_F.csv (as 'gelucheck report' or 'gelucheck accuracy\n"
           "                 --format F --grad --csv DIR/accuracy_F.csv' writes it): per\n"
           "                 implementation the inputs whose result is not the correctly rounded\n"
           "                 value of its own target in F, forward and derivative, a column pair\n"
           "                 per format in the list's order; implementations with equal figures\n"
           "                 share a row. --format binary32 (the default) is the table above.\n"
           "                 --format binary64 (alone): the same table of binary64's own\n"
           "                 implementations from DIR/accuracy_binary64.csv, whose inputs are a\n"
           "                 SAMPLE: its header says so and how many.\n\n"
           "Exit status: 0 printed, 1 standard output could not be written, 2 bad usage or a\n"
           "missing or bad accuracy file (the file, line and column named).\n");
}

/* The formats of --format's list into ids (room for MAX_FORMATS); 0 or an exit status. */
/* Natives of a 16-bit format: the format's own implementations, and the framework rows whose
 * client serves it (a 16-bit run starts those natively, main.c; the others run widened). */
static bool native16(const char *name, gelu_format_id format)
{
    const exec_framework *fw = exec_framework_find(name);
    return gelu_impl_find_in(name, format) != NULL || (fw && exec_framework_serves(fw, format));
}

static int parse_formats(const char *list, gelu_format_id *ids, size_t *n)
{
    char fmt_names[256]; /* the formats' names, for a message */
    char **items;
    size_t count;
    int st = split_list("markdown", "--format", list, &items, &count);
    *n = 0;
    for (size_t k = 0; k < count && st == EXIT_OK; k++) {
        const gelu_format *f = gelu_format_find(items[k]);
        if (!f)
            st = usage_error("markdown", "unknown --format '%s': %s", items[k],
                             gelu_format_names(", ", " or ", false, fmt_names, sizeof fmt_names));
        else if (count > 1 && f->id == GELU_FORMAT_BINARY32)
            st = usage_error("markdown", "--format binary32 is a table of its own: give it alone");
        else if (count > 1 && f->id == GELU_FORMAT_BINARY64) /* its rows are not the widened ones */
            st = usage_error("markdown", "--format binary64 is a table of its own (a sample, its "
                             "own implementations): give it alone");
        else if (*n == MAX_FORMATS)
            st = usage_error("markdown", "--format: more than %d formats", MAX_FORMATS);
        else
            ids[(*n)++] = f->id; /* split_list refused a name given twice */
    }
    free(items);
    return st;
}

int cmd_markdown(int argc, char **argv)
{
    const char *dir = NULL, *v;
    gelu_format_id ids[MAX_FORMATS] = {GELU_FORMAT_BINARY32};
    size_t nformats = 1;
    bool have_format = false;
    int got, st;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            print_help();
            return EXIT_OK;
        }
        if ((got = option_value("markdown", argc, argv, &i, "--format", &v))) {
            if (got < 0) return EXIT_USAGE;
            if (have_format) return usage_error("markdown", "option --format is given twice");
            have_format = true;
            if ((st = parse_formats(v, ids, &nformats)) != EXIT_OK) return st;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage_error("markdown", "unexpected argument '%s'", argv[i]);
        if (dir) return usage_error("markdown", "unexpected argument '%s': one directory only", argv[i]);
        dir = argv[i];
    }
    if (!dir) dir = "report";
    results_set *sets[MAX_FORMATS] = {NULL};
    st = EXIT_OK;
    for (size_t k = 0; k < nformats && st == EXIT_OK; k++) {
        char path[4096], name[64], err[1024];
        results_file_name(name, sizeof name, "accuracy", ids[k]);
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
            st = usage_error("markdown", "directory name too long: '%.40s...'", dir);
        else if (!(sets[k] = malloc(sizeof *sets[k]))) {
            fprintf(stderr, "gelucheck markdown: out of memory\n");
            st = EXIT_CHECK_FAILED;
        } else if (results_load_format(sets[k], path, NULL, ids[k], false, err, sizeof err) != 0) {
            fprintf(stderr, "gelucheck markdown: %s\n", err);
            st = EXIT_USAGE;
        }
    }
    if (st == EXIT_OK) {
        if (ids[0] == GELU_FORMAT_BINARY32) markdown_accuracy_table(stdout, sets[0]);
        else markdown_formats_table(stdout, (const results_set *const *)sets, nformats, native16);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "gelucheck markdown: cannot write standard output\n");
            st = EXIT_CHECK_FAILED;
        }
    }
    for (size_t k = 0; k < nformats; k++) free(sets[k]);
    return st;
}
