/* gelucheck: verifies GELU implementations against MPFR and measures their cost.
 * The entry point only dispatches to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"list", cmd_list, "list the implementations, their targets, CPU needs and contracts"},
    {"eval", cmd_eval, "evaluate one implementation at given inputs against the MPFR reference"},
    {"accuracy", cmd_accuracy, "scan implementations over all 2^32 inputs (or a range/sample): the gate"},
    {"merge", cmd_merge, "merge the partial results of a sharded accuracy run"},
    {"moons", cmd_moons, "train a small MLP on make_moons with each activation, over seeds"},
    {"bench", cmd_bench, "time every implementation against ReLU, side by side in one run"},
    {"report", cmd_report, "the main job: scan + benchmark, then CSV, plots and index.html"},
    {"pick", cmd_pick, "the fastest implementation a platform runs that meets constraints"},
    {"compare", cmd_compare, "what changed between two result sets; fails on an accuracy regression"},
};

static void print_help(FILE *f)
{
    fprintf(f, "usage: gelucheck COMMAND [ARGS]\n\n"
               "Verifies binary32 GELU implementations against correctly rounded MPFR references.\n\n"
               "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nRun 'gelucheck COMMAND --help' for a command's options.\n"
               "Exit status: 0 success, 1 a checked contract failed, 2 bad usage.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return EXIT_USAGE;
    }
    if (is_help(argv[1])) {
        print_help(stdout);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "gelucheck: unknown command '%s'\nTry 'gelucheck --help'.\n", argv[1]);
    return EXIT_USAGE;
}
