/* libFuzzer target: command-line parsing. The input is split at NUL bytes into arguments
 * (at most 12) and given to the shared helpers (cli/args.c: numbers, lists, repeated options)
 * and to `gelucheck eval`, the command whose whole run is cheap. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX_ARGS = 12 };
    char *copy = malloc(size + 1), *argv[MAX_ARGS + 2];
    if (!copy) return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    int argc = 0;
    argv[argc++] = "eval";
    for (char *p = copy; p <= copy + size && argc <= MAX_ARGS; p += strlen(p) + 1) argv[argc++] = p;
    argv[argc] = NULL;
    static const char *const repeatable[] = {"--impl", NULL};
    reject_repeated_options("eval", argc, argv, repeatable);
    for (int i = 1; i < argc; i++) {
        float x;
        unsigned long n;
        uint64_t u;
        const char *why;
        char **items;
        size_t k;
        parse_float(argv[i], &x, &why);
        parse_count(argv[i], 1, 1000, &n, &why);
        parse_u64(argv[i], 0, UINT64_MAX, &u);
        if (split_list("eval", "--list", argv[i], &items, &k) == EXIT_OK) free(items);
    }
    cmd_eval(argc, argv);
    free(copy);
    return 0;
}
