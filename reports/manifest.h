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
 *    "run": {"command": "gelucheck accuracy ...", "created": "<UTC time, ISO 8601>"}}
 * A library this build left out has the version "absent". Keys a reader does not know are
 * ignored (a later minor addition); a missing known key is an error. Changing the meaning or
 * removing a key bumps MANIFEST_SCHEMA.
 *
 * Library code: errors are returned (text in err), nothing is printed. */
#ifndef GELUCHECK_MANIFEST_H
#define GELUCHECK_MANIFEST_H

#include <stddef.h>
#include <stdio.h>

enum { MANIFEST_SCHEMA = 1, MANIFEST_VALUE = 1024 };
#define MANIFEST_FILE "manifest.json" /* its name inside a result directory */

/* Every field is a NUL-terminated string (schema excepted); see manifest_field_* for the list. */
typedef struct {
    int schema;
    char version[64], commit[64];
    char compiler[256], flags[MANIFEST_VALUE];
    char cpu_model[256], cpu_features[256];
    char glibc[64], mpfr[64], gmp[64], gsl[64], sleef[64], dnnl[64];
    char command[MANIFEST_VALUE], created[32];
} run_manifest;

/* This build on this machine, for a run started by `command` (argv joined; may be ""). */
void manifest_collect(run_manifest *m, const char *command);

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
