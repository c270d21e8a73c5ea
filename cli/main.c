/* gelucheck: verifies GELU implementations against MPFR and measures their cost.
 * The entry point dispatches to a subcommand, removes unfinished output files when a signal
 * ends the run, and checks that standard output was written (a full disk or a closed pipe
 * exits 1 with a message, never 0). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "chunked_scan.h"
#include "cli.h"
#include "exec_frameworks.h"
#include "exec_impl.h"
#include "gelu_cr16.h"
#include "plugin.h"
#include "ranks.h"

/* Options a command takes more than once (their values add up); any other option given twice
 * is an error rather than the last one silently winning. */
static const char *const impl_repeats[] = {"--impl", NULL};

/* The subcommands, one list: main's dispatch, `gelucheck --help` and `gelucheck --list-commands`
 * (one name a line: what the tests loop over) read it. */
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

/* The format a command's --format F (or --format=F) names when it is one 16-bit format;
 * binary32 otherwise (absent, binary32, a list: the command judges its value). */
static gelu_format_id requested_format(int argc, char **argv)
{
    const char *v = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) v = argv[++i];
        else if (strncmp(argv[i], "--format=", 9) == 0) v = argv[i] + 9;
    }
    const gelu_format *f = v ? gelu_format_find(v) : NULL;
    return f && gelu_format_small(f) ? f->id : GELU_FORMAT_BINARY32;
}

/* Starts one row in `format`, or, a 16-bit format its client does not serve, in binary32 (the
 * command then runs it widened, as any binary32 implementation), saying so. */
static int start_row(const exec_framework *f, gelu_format_id format, double timeout)
{
    char err[2000], note[600];
    if (!exec_framework_serves(f, format)) {
        fprintf(stderr, "gelucheck: note: %s serves no %s tensors: its binary32 GELU runs "
                "widened\n", f->framework, gelu_format_of(format)->name);
        format = GELU_FORMAT_BINARY32;
    }
    if (exec_framework_add(f, format, timeout, err, sizeof err, note, sizeof note) != 0) {
        fprintf(stderr, "gelucheck: %s\n", err);
        return EXIT_USAGE;
    }
    if (note[0]) fprintf(stderr, "gelucheck: note: %s\n", note);
    return EXIT_OK;
}

/* Starts the frameworks' rows (exec_frameworks.h) the command needs: every installed one with
 * --frameworks, and those its --impl values name (NAME, NAME,NAME or --impl=…) that no --exec
 * gave; in the command's 16-bit --format when it has one (the framework's GELU on tensors of
 * that type, where its client serves it). EXIT_OK, or EXIT_USAGE after the message (a named row
 * not installed, a child that failed). */
static int start_frameworks(int argc, char **argv, bool all, double timeout)
{
    char version[32];
    gelu_format_id format = requested_format(argc, argv);
    for (size_t k = 0; all && k < exec_framework_count(); k++) {
        const exec_framework *f = exec_framework_at(k);
        if (!exec_framework_version(f, version, sizeof version)) continue;
        if (start_row(f, format, timeout) != EXIT_OK) return EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) {
        const char *v = NULL;
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "--impl") == 0 && i + 1 < argc) v = argv[++i];
        else if (strncmp(argv[i], "--impl=", 7) == 0) v = argv[i] + 7;
        if (!v) continue;
        char names[1024];
        snprintf(names, sizeof names, "%s", v);
        for (char *save, *n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
            const exec_framework *f = exec_framework_find(n);
            if (!f || gelu_impl_find(n) || gelu_impl_find_in(n, format)) continue;
            if (start_row(f, format, timeout) != EXIT_OK) return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* The default peers (GSL, SLEEF, oneDNN: peers/; none with GELUCHECK_NO_DEFAULT_PEERS=1) are
 * loaded first. Options of every command, taken out of argv before the command sees it:
 * --plugin FILE.so (repeatable; also GELUCHECK_PLUGINS=FILE:FILE..., loaded before them),
 * --exec NAME=COMMAND (repeatable: each child becomes an implementation), --exec-timeout
 * SECONDS and --frameworks (every installed framework row); a framework row an --impl names is
 * started too. */
static int global_options(int *argc, char **argv)
{
    bool frameworks = false;
    double timeout = 60;
    int kept = 2;
    const char *specs[EXEC_IMPLS_MAX + 1];
    int nspecs = 0;
    char err[2000];
    if (plugins_load_default_peers(err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck: %s\n", err);
        return EXIT_USAGE;
    }
    const char *env = getenv("GELUCHECK_PLUGINS");
    if (env && *env) {
        char *list = strdup(env);
        for (char *save, *f = list ? strtok_r(list, ":", &save) : NULL; f;
             f = strtok_r(NULL, ":", &save))
            if (plugins_load(f, err, sizeof err) != 0) {
                fprintf(stderr, "gelucheck: GELUCHECK_PLUGINS: %s\n", err);
                free(list);
                return EXIT_USAGE;
            }
        free(list);
    }
    for (int i = 2; i < *argc; i++) {
        const char *a = argv[i], *v = NULL;
        bool is_exec = strcmp(a, "--exec") == 0, is_timeout = strcmp(a, "--exec-timeout") == 0;
        bool is_plugin = strcmp(a, "--plugin") == 0;
        if (strcmp(a, "--") == 0) { /* the rest are operands */
            while (i < *argc) argv[kept++] = argv[i++];
            break;
        }
        if (strcmp(a, "--frameworks") == 0) {
            frameworks = true;
            continue;
        }
        if (is_exec || is_timeout || is_plugin) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "gelucheck: option %s needs a value\n", a);
                return EXIT_USAGE;
            }
            v = argv[++i];
        } else if (strncmp(a, "--exec=", 7) == 0) {
            is_exec = true;
            v = a + 7;
        } else if (strncmp(a, "--exec-timeout=", 15) == 0) {
            is_timeout = true;
            v = a + 15;
        } else if (strncmp(a, "--plugin=", 9) == 0) {
            is_plugin = true;
            v = a + 9;
        }
        if (is_plugin) {
            if (plugins_load(v, err, sizeof err) != 0) {
                fprintf(stderr, "gelucheck: %s\n", err);
                return EXIT_USAGE;
            }
        } else if (is_exec) {
            if (nspecs == EXEC_IMPLS_MAX) {
                fprintf(stderr, "gelucheck: at most %d --exec options\n", EXEC_IMPLS_MAX);
                return EXIT_USAGE;
            }
            specs[nspecs++] = v;
        } else if (is_timeout) {
            char *end;
            timeout = strtod(v, &end);
            if (*v == '\0' || *end != '\0' || !(timeout > 0 && timeout <= 86400)) {
                fprintf(stderr, "gelucheck: bad --exec-timeout '%s': seconds, more than 0 and at "
                                "most 86400\n", v);
                return EXIT_USAGE;
            }
        } else {
            argv[kept++] = argv[i];
        }
    }
    if (*argc > 1) *argc = kept;
    argv[*argc] = NULL;
    for (int k = 0; k < nspecs; k++) {
        char note[600];
        if (exec_impls_add(specs[k], timeout, err, sizeof err, note, sizeof note) != 0) {
            fprintf(stderr, "gelucheck: %s\n", err);
            return EXIT_USAGE;
        }
        if (note[0]) fprintf(stderr, "gelucheck: note: %s\n", note);
    }
    return start_frameworks(*argc, argv, frameworks, timeout);
}

static void print_help(FILE *f)
{
    fprintf(f, "usage: gelucheck COMMAND [ARGS]\n\n"
               "Verifies binary32 GELU implementations against correctly rounded MPFR references.\n\n"
               "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nEvery command also takes --plugin FILE.so (repeatable; also GELUCHECK_PLUGINS=\n"
               "FILE:FILE...): the implementations of a shared library built against\n"
               "include/gelucheck/plugin.h; and --exec NAME=COMMAND (repeatable): COMMAND, run by\n"
               "/bin/sh -c, is an implementation named NAME speaking the exec protocol\n"
               "(docs/protocol.md) on its standard input and output; --exec-timeout S bounds\n"
               "each of its answers (default 60 s). The frameworks' GELUs (PyTorch, TensorFlow,\n"
               "JAX, ONNX Runtime: 'gelucheck list') start when an --impl names them, or all\n"
               "installed ones with --frameworks.\n"
               "\nRun 'gelucheck COMMAND --help' for a command's options, 'gelucheck --version'\n"
               "for this build's version, commit, compiler and libraries.\n"
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
    if (strcmp(argv[1], "--list-commands") == 0 && argc == 2) { /* for scripts: not in --help */
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) printf("%s\n", commands[i].name);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        print_version(stdout);
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
    plugins_set_crash_hook(atomic_file_remove_temporaries);
    if (ranks_start(&argc, &argv) != 0) return EXIT_USAGE;
    cli_set_command(argc, argv);
    int gst = global_options(&argc, argv);
    if (gst != EXIT_OK) {
        exec_impls_stop();
        return ranks_finish(gst);
    }
    if (ranks_rank() != 0) { /* a worker rank: rank 0 prints and writes everything */
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
            close(devnull);
        }
        int st = dispatch(argc, argv);
        exec_impls_stop();
        return ranks_finish(st == EXIT_RANK_WORKER ? EXIT_OK : st);
    }
    int st = dispatch(argc, argv);
    exec_impls_stop();
    return ranks_finish(check_stdout(st));
}
