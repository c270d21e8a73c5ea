/* The files of a report directory, one list: per file its name (a format's files name it F:
 * accuracy_F.csv), when it is written and what it holds. The report's pipeline names its files
 * from it (report_file_name), and it is what `report --help`, the page's "Files" section and
 * `report --list-outputs` (a Markdown table, for the docs) print. A new file is one row. */
#ifndef GELUCHECK_REPORT_FILES_H
#define GELUCHECK_REPORT_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "gelu_format.h"

typedef enum {
    REPORT_FILE_PAGE,
    REPORT_FILE_ACCURACY,
    REPORT_FILE_RANGES,
    REPORT_FILE_ULP_BY_X,
    REPORT_FILE_IMPLEMENTATIONS,
    REPORT_FILE_BENCH,
    REPORT_FILE_MOONS,
    REPORT_FILE_MANIFEST,
    REPORT_FILE_ANSWER,
    REPORT_FILE_CAPPED,
    REPORT_FILE_PLOTS,
    REPORT_FILE_ACCURACY_F,
    REPORT_FILE_ULP_BY_X_F,
    REPORT_FILE_BENCH_F,
    REPORT_FILE_FTZ_DAZ,
    REPORT_FILE_PATHS,
    REPORT_FILE_COMPARE,
    REPORT_FILE_COUNT
} report_file_id;

typedef enum {
    REPORT_FILE_ALWAYS,     /* every report */
    REPORT_FILE_PER_FORMAT, /* one per format of report_formats, F in its name */
    REPORT_FILE_BASELINE,   /* with --baseline only */
} report_file_when;

typedef struct {
    const char *name;  /* the file's name, F standing for a format's name; or a pattern (*.svg) */
    report_file_when when;
    const char *holds; /* what it holds: one or two sentences, `code` in backquotes */
} report_file;

/* The formats of the report's sections after binary32's, in order: each has its per-format
 * files. */
enum { REPORT_FORMATS = GELU_FORMAT_COUNT }; /* room for every built-in row */
/* The rows marked in_report, in the table's order, into ids; their count. */
size_t report_formats(gelu_format_id ids[REPORT_FORMATS]);

const report_file *report_file_at(report_file_id id);

/* File id's name in a report directory for format f (binary32's own files: f is
 * GELU_FORMAT_BINARY32; a per-format file: F replaced by f's name), into buf. */
const char *report_file_name(report_file_id id, gelu_format_id f, char *buf, size_t size);

/* The list for `report --help`: a line per file, its text wrapped under its name (width
 * columns), `code` marks dropped. */
void report_files_help(FILE *f, int width);
/* The page's "Files" section (an <h2> and a list), `code` as <code>, text escaped. */
void report_files_html(FILE *f);
/* `report --list-outputs`: a Markdown table, file | written | what it holds. */
void report_files_markdown(FILE *f);

#endif
