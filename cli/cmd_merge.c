/* gelucheck merge: partial results of a sharded accuracy run → the same table, CSV and gate as
 * the unsharded run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy_output.h"
#include "cli.h"

static void print_help(void)
{
    printf("usage: gelucheck merge [--csv FILE] [--ranges-csv FILE] PARTIAL...\n\n"
           "Merges the partial results written by 'gelucheck accuracy --shard K/N --partial FILE'\n"
           "(every K from 1 to N exactly once) and prints and writes exactly what the unsharded\n"
           "run would. Exit status as for 'gelucheck accuracy'.\n");
}

int cmd_merge(int argc, char **argv)
{
    accuracy_files files = {NULL, NULL};
    const char **paths = calloc((size_t)argc, sizeof *paths);
    size_t npaths = 0;
    int st = paths ? EXIT_OK : EXIT_CHECK_FAILED;
    for (int i = 1; i < argc && st == EXIT_OK; i++) {
        const char *v;
        int got;
        if (is_help(argv[i])) {
            print_help();
            free(paths);
            return EXIT_OK;
        } else if ((got = option_value("merge", argc, argv, &i, "--csv", &v))) {
            if (got < 0) st = EXIT_USAGE;
            else files.csv = v;
        } else if ((got = option_value("merge", argc, argv, &i, "--ranges-csv", &v))) {
            if (got < 0) st = EXIT_USAGE;
            else files.ranges_csv = v;
        } else if (strncmp(argv[i], "--", 2) == 0) {
            st = usage_error("merge", "unknown option '%s'", argv[i]);
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (st == EXIT_OK && npaths == 0) st = usage_error("merge", "no partial result files given");
    scan_result *acc = NULL, *part = NULL;
    if (st == EXIT_OK && (!(acc = malloc(sizeof *acc)) || !(part = malloc(sizeof *part))))
        st = EXIT_CHECK_FAILED;
    uint64_t seen = 0;
    unsigned char *got = NULL;
    for (size_t i = 0; i < npaths && st == EXIT_OK; i++) {
        FILE *f = fopen(paths[i], "rb");
        const char *error = strerror(errno);
        scan_result *r = i ? part : acc;
        if (!f || scan_result_read(r, f, &error) != 0)
            st = usage_error("merge", "'%s': %s", paths[i], error);
        if (f) fclose(f);
        if (st == EXIT_OK && !got && !(got = calloc(r->shard_n, 1))) st = EXIT_CHECK_FAILED;
        if (st == EXIT_OK && r->shard_n == acc->shard_n && got[r->shard_k]++)
            st = usage_error("merge", "'%s': shard %u/%u given twice", paths[i], r->shard_k + 1, r->shard_n);
        if (st == EXIT_OK && i && scan_result_merge(acc, part, &error) != 0)
            st = usage_error("merge", "'%s': %s", paths[i], error);
        if (st == EXIT_OK) seen++;
    }
    free(got);
    if (st == EXIT_OK && seen != acc->shard_n)
        st = usage_error("merge", "%llu of %u shards given: every shard K/N is needed once",
                         (unsigned long long)seen, acc->shard_n);
    if (st == EXIT_OK && accuracy_files_probe("merge", &files) != 0) st = EXIT_CHECK_FAILED;
    if (st == EXIT_OK) st = accuracy_output("merge", acc, &files);
    free(acc);
    free(part);
    free(paths);
    return st;
}
