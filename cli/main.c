/* gelucheck: verifies GELU implementations against MPFR and measures their cost.
 * The entry point dispatches to a subcommand, removes unfinished output files when a signal
 * ends the run, and checks that standard output was written (a full disk or a closed pipe
 * exits 1 with a message, never 0). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "chunked_scan.h"
#include "cli.h"
#include "ranks.h"

/* Options a command takes more than once (their values add up); any other option given twice
 * is an error rather than the last one silently winning. */
static const char *const impl_repeats[] = {"--impl", NULL};

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const char *const *repeatable;
    bool ranks; /* shares its scan between MPI ranks (others run on rank 0 alone) */
} commands[] = {
    {"list", cmd_list, "list the implementations, their targets, CPU needs and contracts", NULL, false},
    {"eval", cmd_eval, "evaluate one implementation at given inputs against the MPFR reference", NULL, false},
    {"accuracy", cmd_accuracy, "scan implementations over all 2^32 inputs (or a range/sample): the gate",
     impl_repeats, true},
    {"merge", cmd_merge, "merge the partial results of a sharded accuracy run", NULL, false},
    {"moons", cmd_moons, "train a small MLP on make_moons with each activation, over seeds",
     impl_repeats, false},
    {"bench", cmd_bench, "time every implementation against ReLU, side by side in one run",
     impl_repeats, false},
    {"report", cmd_report, "the main job: scan + benchmark, then CSV, plots and index.html", NULL,
     true},
    {"pick", cmd_pick, "the fastest implementation a platform runs that meets constraints", NULL, false},
    {"compare", cmd_compare, "what changed between two result sets; fails on an accuracy regression",
     NULL, false},
    {"markdown", cmd_markdown, "the README's accuracy table in Markdown from a report's accuracy.csv",
     NULL, false},
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

/* Removes the temporary output files of this run (a report's staging directory goes with the
 * next run), then dies of the signal as it would have without the handler. */
static void on_fatal_signal(int sig)
{
    atomic_file_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signal_handlers(void)
{
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(signals[i], &sa, NULL);
    }
}

/* The command's status, or 1 when what it printed did not reach standard output. */
static int check_stdout(int status)
{
    errno = 0;
    bool failed = ferror(stdout) != 0;
    if (fflush(stdout) != 0) failed = true;
    int e = errno;
    if (fclose(stdout) != 0 && !failed) {
        failed = true;
        e = errno;
    }
    if (!failed) return status;
    fprintf(stderr, "gelucheck: cannot write standard output: %s\n",
            e ? strerror(e) : "a write failed");
    return status == EXIT_OK ? EXIT_CHECK_FAILED : status;
}

static int dispatch(int argc, char **argv)
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
        if (strcmp(argv[1], commands[i].name) == 0) {
            if (ranks_rank() != 0 && !commands[i].ranks) return EXIT_RANK_WORKER;
            int st = reject_repeated_options(commands[i].name, argc - 1, argv + 1,
                                             commands[i].repeatable);
            return st != EXIT_OK ? st : commands[i].run(argc - 1, argv + 1);
        }
    fprintf(stderr, "gelucheck: unknown command '%s'\nTry 'gelucheck --help'.\n", argv[1]);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    install_signal_handlers();
    if (ranks_start(&argc, &argv) != 0) return EXIT_USAGE;
    cli_set_command(argc, argv);
    if (ranks_rank() != 0) { /* a worker rank: rank 0 prints and writes everything */
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
            close(devnull);
        }
        int st = dispatch(argc, argv);
        return ranks_finish(st == EXIT_RANK_WORKER ? EXIT_OK : st);
    }
    return ranks_finish(check_stdout(dispatch(argc, argv)));
}
