/* gelucheck merge: partial results of a sharded accuracy run → the same table, CSV and gate as
 * the unsharded run. Every partial is checked (format, header fields, checksum, invariants;
 * scan/partial.h) and so is the merged result, before anything is printed or written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy_output.h"
#include "input_file.h"
#include "cli.h"
#include "partial.h"
#include "refine.h"

static void print_help(void)
{
    printf("usage: gelucheck merge [--csv FILE] [--ranges-csv FILE] PARTIAL...\n\n"
           "Merges the partial results written by 'gelucheck accuracy --shard K/N --partial FILE'\n"
           "(every K from 1 to N exactly once) and prints and writes exactly what the unsharded\n"
           "run would. A partial that is damaged (checksum), inconsistent, from another build or\n"
           "from another run is refused (exit 2, naming the file and the field). Exit status\n"
           "as for 'gelucheck accuracy'.\n");
}

/* "2/5, 4/5" into buf: the shards not given (the first few). */
static void missing_shards(const unsigned char *got, unsigned n, char *buf, size_t size)
{
    size_t used = 0;
    unsigned listed = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < n && used < size; k++) {
        if (got[k]) continue;
        int w = listed == 8 ? snprintf(buf + used, size - used, ", ...")
                            : snprintf(buf + used, size - used, "%s%u/%u", listed ? ", " : "", k + 1, n);
        if (w < 0) break;
        used += (size_t)w;
        if (++listed > 8) break;
    }
}

static int read_partial(const char *path, scan_result *r)
{
    FILE *f = input_open(path);
    if (!f) return usage_error("merge", "cannot read '%s': %s", path, input_strerror(errno));
    char why[768];
    int rc = partial_read(r, f, why, sizeof why);
    fclose(f);
    if (rc != 0) return usage_error("merge", "'%s': %s", path, why);
    return EXIT_OK;
}

/* What differs between two parts that are not of the same run (the header field, each file's
 * value), both files named: either may be the one edited or mistaken. */
static int not_same_run(const char *first, const scan_result *a, const char *other,
                        const scan_result *b, const char *error)
{
    char va[160] = "", vb[160] = "";
    const char *what = NULL;
    size_t n = a->nimpls < b->nimpls ? a->nimpls : b->nimpls, i = 0;
    while (i < n && a->impls[i] == b->impls[i]) i++;
    if (a->grad != b->grad) {
        what = "--grad";
        snprintf(va, sizeof va, "%s", a->grad ? "on" : "off");
        snprintf(vb, sizeof vb, "%s", b->grad ? "on" : "off");
    } else if (i < n || a->nimpls != b->nimpls) {
        what = "the implementations";
        snprintf(va, sizeof va, "%zu rows, row %zu '%s'", a->nimpls, i + 1, i < a->nimpls ? a->impls[i]->name : "-");
        snprintf(vb, sizeof vb, "%zu rows, row %zu '%s'", b->nimpls, i + 1, i < b->nimpls ? b->impls[i]->name : "-");
    } else {
        partial_domain_text(&a->domain, va, sizeof va);
        partial_domain_text(&b->domain, vb, sizeof vb);
        if (strcmp(va, vb) != 0) what = "the domain";
    }
    if (!what) return usage_error("merge", "'%s' and '%s': %s", first, other, error);
    return usage_error("merge", "'%s' and '%s' are not parts of the same run: %s is '%s' in '%s', "
                       "'%s' in '%s'", first, other, what, va, first, vb, other);
}

static int merge_files(const char **paths, size_t npaths, scan_result *acc, scan_result *part)
{
    unsigned char *got = NULL;
    int st = read_partial(paths[0], acc);
    if (st == EXIT_OK && !(got = calloc(acc->shard_n, 1))) {
        fprintf(stderr, "gelucheck merge: out of memory\n");
        st = EXIT_CHECK_FAILED;
    }
    if (st == EXIT_OK) got[acc->shard_k] = 1;
    for (size_t i = 1; i < npaths && st == EXIT_OK; i++) {
        const char *error;
        if ((st = read_partial(paths[i], part)) != EXIT_OK) break;
        if (part->shard_n != acc->shard_n)
            st = usage_error("merge", "'%s': shard %u/%u, but '%s' is a shard of %u", paths[i],
                             part->shard_k + 1, part->shard_n, paths[0], acc->shard_n);
        else if (got[part->shard_k]++)
            st = usage_error("merge", "'%s': shard %u/%u given twice", paths[i], part->shard_k + 1,
                             part->shard_n);
        else if (scan_result_merge(acc, part, &error) != 0)
            st = not_same_run(paths[0], acc, paths[i], part, error);
    }
    if (st == EXIT_OK) {
        char missing[256];
        missing_shards(got, acc->shard_n, missing, sizeof missing);
        if (missing[0])
            st = usage_error("merge", "shard%s %s missing: every shard K/%u is needed once",
                             strchr(missing, ',') ? "s" : "", missing, acc->shard_n);
    }
    char why[512];
    if (st == EXIT_OK && scan_result_check(acc, true, why, sizeof why) != 0)
        st = usage_error("merge", "the merged result is inconsistent: %s", why);
    free(got);
    return st;
}

int cmd_merge(int argc, char **argv)
{
    accuracy_files files = {NULL, NULL, NULL};
    const char **paths = calloc((size_t)argc, sizeof *paths);
    size_t npaths = 0;
    if (!paths) {
        fprintf(stderr, "gelucheck merge: out of memory\n");
        return EXIT_CHECK_FAILED;
    }
    int st = EXIT_OK;
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
    if (st == EXIT_OK && accuracy_files_probe("merge", &files) != 0) st = EXIT_CHECK_FAILED;
    scan_result *acc = NULL, *part = NULL;
    if (st == EXIT_OK && (!(acc = calloc(1, sizeof *acc)) || !(part = calloc(1, sizeof *part)))) {
        fprintf(stderr, "gelucheck merge: out of memory\n");
        st = EXIT_CHECK_FAILED;
    }
    if (st == EXIT_OK) st = merge_files(paths, npaths, acc, part);
    if (st == EXIT_OK) {
        scan_refine_maxima(acc);
        st = accuracy_output("merge", acc, &files);
    }
    scan_result_free(acc);
    scan_result_free(part);
    free(paths);
    return st;
}

const gelucheck_command command_merge = {"merge", cmd_merge,
                                         "merge the partial results of a sharded accuracy run",
                                         NULL, false};
