/* The run manifest: a small JSON file beside every result set (accuracy and bench CSVs, a report
 * directory, partials) that says what produced it — the manifest's schema version, gelucheck's
 * version and commit, compiler and flags, the CPU's model and features, and the versions of every
 * library that produced a number (glibc, MPFR, GMP, GSL, SLEEF, oneDNN). Readers (pick, compare)
 * refuse a manifest whose schema they do not know.
 *
 * The file (schema 1; every value a string except "schema"):
 *   {"schema": 1,
 *    "gelucheck": {"version": "0.1.0", "commit": "<git describe>"},
 *    "build": {"compiler": "gcc 12.2.0", "flags": "..."},
 *    "cpu": {"model": "...", "features": "avx2,fma,..."},
 *    "libraries": {"glibc": "2.36", "mpfr": "4.2.0", "gmp": "6.2.1", "gsl": "2.7.1",
 *                  "sleef": "3.5.1", "dnnl": "3.0.0"},
 *    "run": {"command": "build/cli/gelucheck accuracy ...", "created": "<UTC time, ISO 8601>",
 *            "directory": "/home/u/gelucheck", "fpenv": "ieee",
 *            "environment": {"DNNL_MAX_CPU_ISA": "AVX2"},
 *            "reproduce": "cd /home/u/gelucheck && DNNL_MAX_CPU_ISA=AVX2 build/cli/gelucheck ..."},
 *    "plugins": {"mine/libv1.so": "9f86d0...(SHA-256, 64 hex digits)"},
 *    "exec": {"my_child": "python3 child.py"},
 *    "sources": {"my_tanh_gelu": "plugin 'mine/libv1.so'", "my_child": "exec child '...'"}}
 * run.command is the real argv, each word quoted for sh where it needs it; run.environment the
 * variables set that change results (manifest.c, `result_variables`: the libraries' ISA caps,
 * GELUCHECK_*, OMP_NUM_THREADS, ...); run.fpenv MXCSR's FTZ and DAZ as the process holds them
 * when the manifest is made (a plugin built with -ffast-math sets them on load); run.reproduce
 * the line that reruns it: the directory, the variables, the command. plugins: every plugin
 * loaded (default peers too), by path as given, with its file's SHA-256; exec: every exec child
 * by name, with its command; sources: the implementations that came from them, with where from.
 * A library this build left out has the version "absent". Keys a reader does not know are
 * ignored (a later minor addition); a missing known key is an error, but for those added after
 * the first files (directory, fpenv, environment, reproduce, plugins, exec, sources), "" or
 * empty when absent. Changing the meaning or removing a key bumps MANIFEST_SCHEMA.
 *
 * Library code: errors are returned (text in err), nothing is printed. */
#ifndef GELUCHECK_MANIFEST_H
#define GELUCHECK_MANIFEST_H

#include <stddef.h>
#include <stdio.h>

enum { MANIFEST_SCHEMA = 1, MANIFEST_VALUE = 1024, MANIFEST_KEY = 256, MANIFEST_MAP_MAX = 48 };
#define MANIFEST_FILE "manifest.json" /* its name inside a result directory */

/* An object of strings ("plugins", "run.environment", ...): its members in order. */
typedef struct {
    size_t n;
    struct {
        char key[MANIFEST_KEY], value[MANIFEST_VALUE];
    } pair[MANIFEST_MAP_MAX];
} manifest_map;

/* Every field is a NUL-terminated string (schema excepted); see manifest_field_* for the list. */
typedef struct {
    int schema;
    char version[64], commit[64];
    char compiler[256], flags[MANIFEST_VALUE];
    char cpu_model[256], cpu_features[256];
    char glibc[64], mpfr[64], gmp[64], gsl[64], sleef[64], dnnl[64];
    char command[MANIFEST_VALUE], created[32];
    char directory[MANIFEST_VALUE], fpenv[16], reproduce[2 * MANIFEST_VALUE];
    manifest_map environment, plugins, exec, sources;
} run_manifest;

/* This build on this machine, for a run started by `command` (the argv as manifest_command
 * quotes it; may be ""): with the variables, plugins and exec children of this process. */
void manifest_collect(run_manifest *m, const char *command);
/* argv[0..argc) as one line for sh: each word as it is when it holds only characters sh takes
 * literally, else in single quotes (a quote inside as '\''), into buf. */
const char *manifest_command(char *buf, size_t size, int argc, char *const *argv);
/* The value of key in map, NULL when absent. */
const char *manifest_map_get(const manifest_map *map, const char *key);
/* For an implementation the results name that this process lacks: what to pass to load it
 * again, from m's sources ("--plugin 'mine/libv1.so'", "--exec 'name=python3 c.py'"), and in
 * `what` where it came from with the plugin's SHA-256. 0, or −1 when m does not say where the
 * implementation came from. */
int manifest_reload_hint(const run_manifest *m, const char *impl, char *pass, size_t passsize,
                         char *what, size_t whatsize);

/* The JSON text to f. 0, or −1 on a write error (errno set). */
int manifest_write(FILE *f, const run_manifest *m);
/* Writes path atomically (a temporary file renamed over it). 0, or −1 with errno set. */
int manifest_write_file(const char *path, const run_manifest *m);

/* Results of the readers. */
enum { MANIFEST_OK = 0, MANIFEST_EIO = -1, MANIFEST_EFORMAT = -2, MANIFEST_ESCHEMA = -3 };
/* Parses text[0..len) (need not be NUL-terminated). On MANIFEST_ESCHEMA, m->schema holds the
 * schema found; err names both versions. */
int manifest_parse(const char *text, size_t len, run_manifest *m, char *err, size_t errsize);
/* Reads and parses the file at path; err names the file. */
int manifest_read(const char *path, run_manifest *m, char *err, size_t errsize);

/* The fields, for comparing two manifests: their number, each one's JSON path
 * ("libraries.mpfr") and value in m. The schema is not among them. */
size_t manifest_field_count(void);
const char *manifest_field_name(size_t i);
const char *manifest_field_value(const run_manifest *m, size_t i);

#endif
