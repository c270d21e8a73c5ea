/* gelucheck's subcommands and the argument helpers they share. Each subcommand returns the
 * process exit status: 0 success, 1 a check failed (gates), 2 bad usage. */
#ifndef GELUCHECK_CLI_H
#define GELUCHECK_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gelu_fpenv.h"
#include "gelu_impl.h"

enum { EXIT_OK = 0, EXIT_CHECK_FAILED = 1, EXIT_USAGE = 2 };

int cmd_list(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_accuracy(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_moons(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_pick(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_markdown(int argc, char **argv);

/* EXIT_OK, or EXIT_CHECK_FAILED after printing why, when an exec child failed while kernels
 * ran (its outputs are NaN then: nothing computed from them may be printed or written). */
int exec_failure_status(const char *cmd);

/* Prints "gelucheck CMD: <message>" and a hint to run --help on stderr; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* True when argv[i] is `--help` or `-h`. */
bool is_help(const char *arg);
/* gelucheck --version (version.c): version, commit, compiler, flags, library versions. */
void print_version(FILE *f);

/* Matches argv[*i] against a long option `name` taking a value, as `--name VALUE` or
 * `--name=VALUE`. Returns 1 and sets *value (advancing *i past a separate value), 0 when argv[*i]
 * is another argument, -1 when the value is missing (message printed). */
int option_value(const char *cmd, int argc, char **argv, int *i, const char *name,
                 const char **value);

/* Parses a binary32 from decimal or C99 hex-float text (inf and nan accepted); the whole string
 * must be consumed. Values that overflow binary32 or underflow to zero are errors. On error
 * returns false and sets *why to a short reason. */
bool parse_float(const char *s, float *out, const char **why);

/* Parses a decimal integer in [min, max]; the whole string must be consumed. On error returns
 * false and sets *why to a short reason. */
bool parse_count(const char *s, unsigned long min, unsigned long max, unsigned long *out,
                 const char **why);

/* parse_count for a uint64_t, without the reason. */
bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Splits the value of option `opt` at commas into *items (one malloc'd block: free(*items))
 * and *n. An empty list, an empty element (",,", a leading or trailing comma) or an element
 * given twice is a usage error naming the list. EXIT_OK, EXIT_USAGE, or EXIT_CHECK_FAILED
 * (out of memory, message printed). */
int split_list(const char *cmd, const char *opt, const char *list, char ***items, size_t *n);

/* An option given twice that is not in `repeatable` (NULL-terminated) is a usage error:
 * EXIT_USAGE with a message, else EXIT_OK. Arguments after "--" are not options. */
int reject_repeated_options(const char *cmd, int argc, char **argv, const char *const *repeatable);

/* --fpenv's value (gelu_fpenv.h's names) into *e: EXIT_OK, or a usage error naming the value
 * (also when this machine cannot set it). */
int parse_fpenv(const char *cmd, const char *value, gelu_fpenv *e);
/* The implementations [0, n) may run in environment e: a usage error naming the first exec
 * child that cannot (its handshake's `fpenv` line does not list e: another process, which this
 * one's MXCSR does not reach, asked for e by the protocol), else EXIT_OK, every exec child then
 * asked for e (exec_impls_use_fpenv). */
int fpenv_check_impls(const char *cmd, gelu_fpenv e, const gelu_impl *const *impls, size_t n);

/* Output files (reports/atomic_file.h): probe_output checks a path before the work (a message
 * and EXIT_CHECK_FAILED when it cannot be written, else EXIT_OK); write_output writes it whole
 * with writer(f, ctx) (0 or −1 with errno), with the same statuses. */
int probe_output(const char *cmd, const char *path);
int write_output(const char *cmd, const char *path, int (*writer)(FILE *f, void *ctx), void *ctx);
/* Every output file but "-", a device or a FIFO gets its run manifest beside it,
 * PATH.manifest.json (reports/manifest.h): probe_output probes that path too, write_output
 * writes it after the file; write_manifest_beside does it for files written otherwise. */
int write_manifest_beside(const char *cmd, const char *path);
/* The command line the manifests record (main sets it). */
void cli_set_command(int argc, char **argv);

#endif
