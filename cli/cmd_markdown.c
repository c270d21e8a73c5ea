/* gelucheck markdown [DIR]: the README's accuracy table, in Markdown, from the accuracy.csv of a
 * report directory (reports/markdown.h), so that the README's figures are generated from a run,
 * never retyped. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "markdown.h"
#include "results.h"

static void print_help(void)
{
    printf("usage: gelucheck markdown [DIR]\n\n"
           "Prints the README's accuracy table in Markdown from DIR/accuracy.csv (default\n"
           "report/, as 'gelucheck report' or 'gelucheck accuracy --csv DIR/accuracy.csv' writes\n"
           "it): per scanned implementation its target, max ULP against its own target with the\n"
           "first input reaching it, against exact GELU, max abs error, correctly rounded %%,\n"
           "monotonicity breaks, wrong special values (forward/derivative), the derivative's max\n"
           "ULP and abs error, and oneDNN benchdnn / XNNPACK failures against exact GELU.\n\n"
           "Exit status: 0 printed, 1 standard output could not be written, 2 bad usage or a\n"
           "missing or bad accuracy.csv (the file, line and column named).\n");
}

int cmd_markdown(int argc, char **argv)
{
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            print_help();
            return EXIT_OK;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage_error("markdown", "unexpected argument '%s'", argv[i]);
        if (dir) return usage_error("markdown", "unexpected argument '%s': one directory only", argv[i]);
        dir = argv[i];
    }
    if (!dir) dir = "report";
    char path[4096], err[1024];
    if ((size_t)snprintf(path, sizeof path, "%s/accuracy.csv", dir) >= sizeof path)
        return usage_error("markdown", "directory name too long: '%.40s...'", dir);
    results_set *s = malloc(sizeof *s);
    if (!s) {
        fprintf(stderr, "gelucheck markdown: out of memory\n");
        return EXIT_CHECK_FAILED;
    }
    if (results_load(s, path, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck markdown: %s\n", err);
        free(s);
        return EXIT_USAGE;
    }
    markdown_accuracy_table(stdout, s);
    free(s);
    return EXIT_OK;
}
