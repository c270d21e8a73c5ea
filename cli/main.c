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
#include "commands.h"
#include "exec_cross.h"
#include "exec_frameworks.h"
#include "exec_impl.h"
#include "gelu_cr16.h"
#include "plugin.h"
#include "ranks.h"
#include "report_stage.h"

const char *const impl_repeats[] = {"--impl", NULL};

/* The subcommands, one row each (cli.h), in cli/meson.build's order. */
#define COMMAND_DECLARE(name) extern const gelucheck_command command_##name;
GELUCHECK_COMMANDS(COMMAND_DECLARE)
#undef COMMAND_DECLARE
static const gelucheck_command *const commands[] = {
#define COMMAND_ROW(name) &command_##name,
    GELUCHECK_COMMANDS(COMMAND_ROW)
#undef COMMAND_ROW
};

/* The format rows (impls/formats.c) as a Markdown table: what `--format` takes and how each
 * is scanned (docs/formats.md holds this output, checked by tools/check_docs.sh). */
static void print_formats(FILE *f)
{
    fputs("| format | bits | precision | exponents | infinities | scanned | in `report` |\n"
          "|---|---:|---:|---|---|---|---|\n", f);
    for (int k = 0; k < gelu_format_count(); k++) {
        const gelu_format *r = gelu_format_of((gelu_format_id)k);
        uint64_t n = gelu_format_encodings(r);
        char scanned[64];
        if (gelu_format_sampled(r)) snprintf(scanned, sizeof scanned, "a sample");
        else snprintf(scanned, sizeof scanned, "all %llu encodings", (unsigned long long)n);
        fprintf(f, "| `%s` | %u | %d | %d to %d | %s | %s | %s |\n", r->name, r->storage_bits,
                r->precision, r->emin, r->emax, r->no_infinity ? "no" : "yes", scanned,
                k == GELU_FORMAT_BINARY32 || r->in_report ? "yes" : "no");
    }
}


/* The value of a command's --format F (or --format=F), NULL when absent. */
static const char *format_value(int argc, char **argv)
{
    const char *v = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) v = argv[++i];
        else if (strncmp(argv[i], "--format=", 9) == 0) v = argv[i] + 9;
    }
    return v;
}

/* The format a command's --format F names when it is one 16-bit format; binary32 otherwise
 * (absent, binary32, a list: the command judges its value). */
static gelu_format_id requested_format(int argc, char **argv)
{
    const char *v = format_value(argc, argv);
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
    int rc = exec_framework_add(f, format, timeout, err, sizeof err, note, sizeof note);
    if (rc != 0) {
        fprintf(stderr, "gelucheck: %s\n", err);
        return rc == -2 ? EXIT_CHECK_FAILED : EXIT_USAGE; /* -2: it failed answering requests */
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
    int st;
    gelu_format_id format = requested_format(argc, argv);
    const char *v = format_value(argc, argv);
    const gelu_format *asked = v ? gelu_format_find(v) : NULL;
    if (all && asked && asked->id != format) { /* refused before any framework starts */
        fprintf(stderr, "gelucheck: --frameworks --format %s: the frameworks' rows run in binary32 "
                "or a 16-bit format, not %s\n", v, v);
        return EXIT_USAGE;
    }
    for (size_t k = 0; all && k < exec_framework_count(); k++) {
        const exec_framework *f = exec_framework_at(k);
        if (!exec_framework_version(f, version, sizeof version)) continue;
        if ((st = start_row(f, format, timeout)) != EXIT_OK) return st;
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
            char err[2000], note[2000];
            int rc = gelu_impl_find(n) || gelu_impl_find_in(n, format)
                         ? 1 : exec_framework_add_path(n, format, timeout, err, sizeof err, note, sizeof note);
            if (rc != 1) { /* ROW@PATH: a framework row's path (exec_frameworks.h) */
                if (rc != 0) fprintf(stderr, "gelucheck: %s\n", err);
                if (rc != 0) return rc == -2 ? EXIT_CHECK_FAILED : EXIT_USAGE;
                if (note[0]) fprintf(stderr, "gelucheck: note: %s\n", note);
                continue;
            }
            const exec_framework *f = exec_framework_find(n);
            if (!f || gelu_impl_find(n) || gelu_impl_find_in(n, format)) continue;
            if ((st = start_row(f, format, timeout)) != EXIT_OK) return st;
        }
    }
    return EXIT_OK;
}

/* Starts the rows of the --cross builds (exec_cross.h) that the command's --impl values name
 * and no --exec gave. EXIT_OK, or the status after the message (a child that failed). */
static int start_cross(int argc, char **argv, double timeout)
{
    for (int i = 2; i < argc; i++) {
        const char *v = NULL;
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "--impl") == 0 && i + 1 < argc) v = argv[++i];
        else if (strncmp(argv[i], "--impl=", 7) == 0) v = argv[i] + 7;
        char names[1024];
        snprintf(names, sizeof names, "%s", v ? v : "");
        for (char *save, *n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
            char err[2000];
            if (gelu_impl_find(n) || !exec_cross_lists(n)) continue;
            int rc = exec_cross_add(n, timeout, err, sizeof err);
            if (rc != 0) {
                fprintf(stderr, "gelucheck: %s\n", err);
                return rc == -2 ? EXIT_CHECK_FAILED : EXIT_USAGE;
            }
        }
    }
    return EXIT_OK;
}

/* The default peers (GSL, SLEEF, oneDNN: peers/; none with GELUCHECK_NO_DEFAULT_PEERS=1) are
 * loaded first. Options of every command, taken out of argv before the command sees it:
 * --plugin FILE.so (repeatable; also GELUCHECK_PLUGINS=FILE:FILE..., loaded before them),
 * whose kernels run in processes of their own unless --in-process (plugins_isolate),
 * --exec [NAME=]COMMAND (repeatable: each child becomes an implementation), --exec-timeout
 * SECONDS and --frameworks (every installed framework row); a framework row an --impl names is
 * started too. */
static bool frameworks_given;
/* the plugins to load (global_options): file-scope, so that its early returns leave them
 * reachable */
static const char **plugin;
static char *env_list;
/* the --cross directories (global_options), file-scope for the same reason */
static const char **cross;

bool cli_frameworks_given(void) { return frameworks_given; }

static int global_options(int *argc, char **argv)
{
    bool frameworks = false, in_process = false;
    double timeout = 60;
    int kept = 2, timeout_given = 0;
    const char *specs[EXEC_IMPLS_MAX + 1];
    cross = calloc((size_t)*argc, sizeof *cross); /* --cross DIRs, opened below */
    int ncross = 0;
    if (!cross) {
        fprintf(stderr, "gelucheck: out of memory\n");
        return EXIT_USAGE;
    }
    int nspecs = 0;
    char err[2000];
    if (plugins_load_default_peers(err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck: %s\n", err);
        return EXIT_USAGE;
    }
    /* the plugins, loaded once --in-process and --exec-timeout are known: GELUCHECK_PLUGINS's,
     * then the options' (plugin[k] from the variable when k < nenv) */
    const char *env = getenv("GELUCHECK_PLUGINS");
    env_list = env && *env ? strdup(env) : NULL;
    plugin = calloc((size_t)*argc + (env_list ? strlen(env_list) : 0) + 1, sizeof *plugin);
    size_t nplugins = 0, nenv = 0;
    if (!plugin || (env && *env && !env_list)) {
        fprintf(stderr, "gelucheck: out of memory\n");
        return EXIT_USAGE;
    }
    for (char *save, *f = env_list ? strtok_r(env_list, ":", &save) : NULL; f;
         f = strtok_r(NULL, ":", &save))
        plugin[nplugins++] = f;
    nenv = nplugins;
    for (int i = 2; i < *argc; i++) {
        const char *a = argv[i], *v = NULL;
        bool is_exec = strcmp(a, "--exec") == 0, is_timeout = strcmp(a, "--exec-timeout") == 0;
        bool is_plugin = strcmp(a, "--plugin") == 0, is_cross = strcmp(a, "--cross") == 0;
        if (strcmp(a, "--") == 0) { /* the rest are operands */
            while (i < *argc) argv[kept++] = argv[i++];
            break;
        }
        if (strcmp(a, "--frameworks") == 0) {
            frameworks = frameworks_given = true;
            continue;
        }
        if (strcmp(a, "--in-process") == 0) {
            in_process = true;
            continue;
        }
        if (is_exec || is_timeout || is_plugin || is_cross) {
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
        } else if (strncmp(a, "--cross=", 8) == 0) {
            is_cross = true;
            v = a + 8;
        }
        if (is_cross) {
            cross[ncross++] = v;
        } else if (is_plugin) {
            plugin[nplugins++] = v;
        } else if (is_exec) {
            if (nspecs == EXEC_IMPLS_MAX) {
                fprintf(stderr, "gelucheck: at most %d --exec options\n", EXEC_IMPLS_MAX);
                return EXIT_USAGE;
            }
            specs[nspecs++] = v;
        } else if (is_timeout) {
            if (timeout_given++) {
                fprintf(stderr, "gelucheck: option --exec-timeout is given twice (it takes one value)\n");
                return EXIT_USAGE;
            }
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
    plugins_set_call_timeout(timeout); /* each plugin kernel call, as each exec answer */
    for (size_t k = 0; k < nplugins; k++)
        if (plugins_load(plugin[k], !in_process, timeout, err, sizeof err) != 0) {
            fprintf(stderr, "gelucheck: %s%s\n", k < nenv ? "GELUCHECK_PLUGINS: " : "", err);
            return EXIT_USAGE;
        }
    free(plugin); /* the plugins keep copies of their paths */
    free(env_list);
    plugin = NULL;
    env_list = NULL;
    if (!in_process && plugins_isolate(timeout, err, sizeof err) != 0) {
        fprintf(stderr, "gelucheck: %s\n", err);
        return EXIT_USAGE;
    }
    for (int k = 0; k < nspecs; k++) {
        char note[600];
        int rc = exec_impls_add(specs[k], GELU_FAMILY_OURS, NULL, timeout, err, sizeof err, note,
                                sizeof note);
        if (rc != 0) {
            fprintf(stderr, "gelucheck: %s\n", err);
            return rc == -2 ? EXIT_CHECK_FAILED : EXIT_USAGE; /* -2: it failed answering requests */
        }
        if (note[0]) fprintf(stderr, "gelucheck: note: %s\n", note);
    }
    for (int k = 0; k < ncross; k++) /* once --exec-timeout is known: it bounds their listing */
        if (exec_cross_open(cross[k], timeout, err, sizeof err) != 0) {
            fprintf(stderr, "gelucheck: %s\n", err);
            return EXIT_USAGE;
        }
    free(cross);
    cross = NULL;
    int st = start_cross(*argc, argv, timeout);
    return st != EXIT_OK ? st : start_frameworks(*argc, argv, frameworks, timeout);
}

static void print_help(FILE *f)
{
    fprintf(f, "usage: gelucheck COMMAND [ARGS]\n\n"
               "Verifies binary32 GELU implementations against correctly rounded MPFR references.\n\n"
               "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "\nEvery command also takes --plugin FILE.so (repeatable; also GELUCHECK_PLUGINS=\n"
               "FILE:FILE...): the implementations of a shared library built against\n"
               "include/gelucheck/plugin.h, loaded and run in processes of their own\n"
               "(gelucheck-plugin-host): a plugin that crashes, hangs or exits while loaded is\n"
               "named, exit 2; a kernel that crashes, hangs, exits, writes into its input or\n"
               "past its outputs or leaves the FP state changed is named, exit 1;\n"
               "--in-process runs them in gelucheck's process instead (unsafe: a kernel that\n"
               "kills it or corrupts its memory is not contained; docs/plugins.md). And\n"
               "--exec [NAME=]COMMAND (repeatable): COMMAND, run by /bin/sh -c, is an\n"
               "implementation speaking the exec protocol (docs/protocol.md) on its standard\n"
               "input and output, named NAME or, without NAME=, by its handshake;\n"
               "--exec-timeout S bounds each of its answers, and each plugin kernel call\n"
               "and each plugin's loading (default 60 s). --cross DIR (repeatable): a cross\n"
               "build directory (docs/aarch64.md); each row its exec child lists (gelucheck\n"
               "list --cross DIR, within --exec-timeout) starts under qemu-user when an --impl\n"
               "names it.\n"
               "The frameworks' GELUs (PyTorch, TensorFlow,\n"
               "JAX, ONNX Runtime: 'gelucheck list') start when an --impl names them, or all\n"
               "installed ones with --frameworks.\n"
               "\nRun 'gelucheck COMMAND --help' for a command's options, 'gelucheck --version'\n"
               "for this build's version, commit, compiler and libraries.\n"
               "Exit status: 0 success, 1 a checked contract failed, 2 bad usage.\n");
}

/* Removes the temporary output files of this run and a report's staging directory, then dies
 * of the signal as it would have without the handler. */
static void remove_unfinished_outputs(void)
{
    atomic_file_remove_temporaries();
    report_stage_remove_on_signal();
}

static void on_fatal_signal(int sig)
{
    remove_unfinished_outputs();
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
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) printf("%s\n", commands[i]->name);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--list-formats") == 0 && argc == 2) { /* for the docs: not in --help */
        print_formats(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        print_version(stdout);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i]->name) == 0) {
            if (ranks_rank() != 0 && !commands[i]->ranks) return EXIT_RANK_WORKER;
            int st = reject_repeated_options(commands[i]->name, argc - 1, argv + 1,
                                             commands[i]->repeatable);
            return st != EXIT_OK ? st : commands[i]->run(argc - 1, argv + 1);
        }
    fprintf(stderr, "gelucheck: unknown command '%s'\nTry 'gelucheck --help'.\n", argv[1]);
    return EXIT_USAGE;
}

/* Descriptors 0, 1 and 2 closed when the process starts would be taken by the first files
 * opened (an output CSV on descriptor 1 would receive the console table): each closed one is
 * /dev/null, once, before anything is opened. */
static void claim_standard_descriptors(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (got >= 0 && got != fd) close(got); /* only the lowest free number is taken */
        }
}

int main(int argc, char **argv)
{
    claim_standard_descriptors();
    /* A write past the file size limit (ulimit -f) fails with EFBIG, handled as a full disk
     * (exit 1, temporaries removed), instead of killing the process with SIGXFSZ. */
    signal(SIGXFSZ, SIG_IGN);
    install_signal_handlers();
    plugins_set_crash_hook(remove_unfinished_outputs);
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
