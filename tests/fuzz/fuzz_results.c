/* libFuzzer target: the results CSV reader that pick uses (reports/results.c, checked against
 * this build's implementations). The input is accuracy.csv, or accuracy.csv and bench.csv
 * separated by a line "--". */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    fwrite(data, 1, size, f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static results_set s;
    static char acc[64], bench[64];
    if (!acc[0]) {
        snprintf(acc, sizeof acc, "/tmp/fuzz-results-%ld-a.csv", (long)getpid());
        snprintf(bench, sizeof bench, "/tmp/fuzz-results-%ld-b.csv", (long)getpid());
    }
    const uint8_t *sep = memmem(data, size, "\n--\n", 4);
    size_t alen = sep ? (size_t)(sep - data) + 1 : size;
    put(acc, data, alen);
    if (sep) put(bench, sep + 4, size - alen - 3);
    char err[512];
    results_load_checked(&s, acc, sep ? bench : NULL, true, err, sizeof err);
    results_load_checked(&s, acc, sep ? bench : NULL, false, err, sizeof err);
    unlink(acc);
    unlink(bench);
    return 0;
}
