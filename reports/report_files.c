/* The files of a report directory (see report_files.h). */
#include "report_files.h"

#include <stdbool.h>
#include <string.h>

#include "html_text.h"
#include "answer.h"
#include "manifest.h"
#include "results_row.h"

size_t report_formats(gelu_format_id ids[REPORT_FORMATS])
{
    size_t n = 0;
    for (int f = 0; f < GELU_FORMAT_COUNT; f++)
        if (gelu_format_of((gelu_format_id)f)->in_report) ids[n++] = (gelu_format_id)f;
    return n;
}

static const report_file files[REPORT_FILE_COUNT] = {
    [REPORT_FILE_PAGE] = {"index.html", REPORT_FILE_ALWAYS,
     "the page, self-contained: the answer per need, the summary tables, the broken contracts, "
     "the plots, the make_moons experiment, each format's section, how to read it and how it "
     "was made."},
    [REPORT_FILE_ACCURACY] = {"accuracy.csv", REPORT_FILE_ALWAYS,
     "one row per implementation, reference (own target, exact GELU) and direction (forward, "
     "derivative), with every figure of the page and the ULP histogram (as `gelucheck accuracy "
     "--csv`)."},
    [REPORT_FILE_RANGES] = {"ranges.csv", REPORT_FILE_ALWAYS,
     "the ULP histograms per input range (negative tail, core, positive side, tiny, NaN)."},
    [REPORT_FILE_ULP_BY_X] = {"ulp_by_x.csv", REPORT_FILE_ALWAYS,
     "the largest ULP and absolute error per 1/8 of x, the plots' data."},
    [REPORT_FILE_IMPLEMENTATIONS] = {"implementations.csv", REPORT_FILE_ALWAYS,
     "what each implementation is and where it comes from: target, derivative, source (built "
     "in, a plugin file, an exec command), origin, whether its outputs were found independent "
     "of the batching."},
    [REPORT_FILE_BENCH] = {"bench.csv", REPORT_FILE_ALWAYS,
     "the benchmark, per size (as `gelucheck bench --csv`; `timed`: `child` for an exec child "
     "timed by its own clock)."},
    [REPORT_FILE_MOONS] = {"moons.csv", REPORT_FILE_ALWAYS,
     "the make_moons experiment, one row per seed and implementation (as `gelucheck moons "
     "--csv`)."},
    [REPORT_FILE_MANIFEST] = {MANIFEST_FILE, REPORT_FILE_ALWAYS,
     "what produced the report: gelucheck's version and commit, the compiler and its flags, the "
     "CPU, the libraries' versions, the command."},
    [REPORT_FILE_ANSWER] = {ANSWER_FILE, REPORT_FILE_ALWAYS,
     "the answer as data: per need and platform (x86-64-v2, v3, v4, the host, ...) the choice, "
     "its figures, the runner-up (schema: docs/answer-json.md; `gelucheck markdown --answer` "
     "renders it)."},
    [REPORT_FILE_CAPPED] = {"accuracy_cap_*.csv, bench_cap_*.csv", REPORT_FILE_ALWAYS,
     "the rows of peers that choose their code path at run time (oneDNN, ...), measured again "
     "under each cap a platform needs (`cap_DNNL_MAX_CPU_ISA_AVX2`: x86-64-v3's path); none "
     "when no row dispatches."},
    [REPORT_FILE_PLOTS] = {"*.svg, *.gp", REPORT_FILE_ALWAYS,
     "the plots (`pareto`, `ulp_by_x`, `not_cr`; a format's prefixed `F_`): the SVG drawn by "
     "gnuplot from the `.gp` script beside it."},
    [REPORT_FILE_ACCURACY_F] = {"accuracy_F.csv", REPORT_FILE_PER_FORMAT,
     "format F's scan, with `accuracy.csv`'s columns: a 16-bit format's every input, the "
     "report's implementations widened and the format's own; binary64's a sample and its hard "
     "inputs (as `gelucheck accuracy --format F --grad --csv`)."},
    [REPORT_FILE_ULP_BY_X_F] = {"ulp_by_x_F.csv", REPORT_FILE_PER_FORMAT,
     "format F's `ulp_by_x.csv`, ULPs in the format (binary64: the sample's maxima per "
     "bucket)."},
    [REPORT_FILE_BENCH_F] = {"bench_F.csv", REPORT_FILE_PER_FORMAT,
     "format F's benchmark (as `gelucheck bench --format F --csv`), with `bench.csv`'s "
     "columns."},
    [REPORT_FILE_FTZ_DAZ] = {RESULTS_FTZ_DAZ_FILE, REPORT_FILE_ALWAYS,
     "the scan with MXCSR's FTZ and DAZ set, over the inputs they can change (section ftz,daz), "
     "with `accuracy.csv`'s columns (`fpenv` ftz+daz)."},
    [REPORT_FILE_PATHS] = {"accuracy_paths*.csv", REPORT_FILE_ALWAYS,
     "the frameworks' paths (`ROW@PATH`, with `GELUCHECK_FRAMEWORK_PATHS`) and their rows, "
     "with `accuracy.csv`'s columns: `accuracy_paths.csv` on the paths' sample (2^20 inputs "
     "over every binade and 319 fixed ones), `accuracy_paths_F.csv` every encoding of a 16-bit "
     "format F, the framework's GELU on tensors of F; none without paths."},
    [REPORT_FILE_COMPARE] = {"compare.csv", REPORT_FILE_BASELINE,
     "what changed since the baseline (as `gelucheck compare OLD_DIR DIR`)."},
};

const report_file *report_file_at(report_file_id id)
{
    return id < REPORT_FILE_COUNT ? &files[id] : NULL;
}

const char *report_file_name(report_file_id id, gelu_format_id f, char *buf, size_t size)
{
    const char *name = files[id].name, *F = strchr(name, 'F');
    if (files[id].when != REPORT_FILE_PER_FORMAT || !F)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "%.*s%s%s", (int)(F - name), name, gelu_format_of(f)->name, F + 1);
    return buf;
}

static const char *when_text(report_file_when w)
{
    switch (w) {
    case REPORT_FILE_ALWAYS: return "always";
    case REPORT_FILE_PER_FORMAT: return "per format F";
    case REPORT_FILE_BASELINE: return "with --baseline";
    }
    return "?";
}

/* "bfloat16, binary16, ...": report_formats' names. */
static const char *formats_text(char *buf, size_t size)
{
    gelu_format_id ids[REPORT_FORMATS];
    size_t used = 0, n = report_formats(ids);
    buf[0] = '\0';
    for (size_t k = 0; k < n && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", k ? ", " : "",
                                 gelu_format_of(ids[k])->name);
    return buf;
}

/* text without its `code` marks, wrapped at width columns under an indent of `indent`, the
 * first line starting at column `at`. */
static void wrapped(FILE *f, const char *text, int at, int indent, int width)
{
    int col = at;
    const char *p = text;
    while (*p) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        int len = 0;
        for (size_t i = 0; i < n; i++) len += p[i] != '`';
        if (col > indent && col + 1 + len > width) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent || (col == indent && col != at)) {
            fputc(' ', f);
            col++;
        }
        for (size_t i = 0; i < n; i++)
            if (p[i] != '`') fputc(p[i], f);
        col += len;
        p += n;
    }
    fputc('\n', f);
}

void report_files_help(FILE *f, int width)
{
    enum { NAME = 23 }; /* the text's column: the longest name, 20, and three spaces */
    char fmts[128];
    for (size_t k = 0; k < REPORT_FILE_COUNT; k++) {
        const report_file *r = &files[k];
        int at = fprintf(f, "  %-*s ", NAME - 3, r->name);
        if (at > NAME) {
            fprintf(f, "\n%*s", NAME, "");
            at = NAME;
        }
        char text[640];
        snprintf(text, sizeof text, "%s%s", r->when == REPORT_FILE_BASELINE ? "(with --baseline) " : "",
                 r->holds);
        wrapped(f, text, at, NAME, width);
    }
    fprintf(f, "  (F: %s)\n", formats_text(fmts, sizeof fmts));
}

/* text with `code` as <code>, the rest escaped. */
static void html_marked(FILE *f, const char *text)
{
    char part[640];
    bool code = false;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "`");
        snprintf(part, sizeof part, "%.*s", (int)n, p);
        if (code) fputs("<code>", f);
        html_text(f, part);
        if (code) fputs("</code>", f);
        p += n;
        if (*p == '`') {
            code = !code;
            p++;
        }
    }
}

void report_files_html(FILE *f)
{
    fputs("<h2>Files</h2>\n<ul>\n", f);
    for (size_t k = 0; k < REPORT_FILE_COUNT; k++) {
        const report_file *r = &files[k];
        char name[128];
        fputs("<li>", f);
        gelu_format_id ids[REPORT_FORMATS];
        size_t n = r->when == REPORT_FILE_PER_FORMAT ? report_formats(ids) : 1;
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ", <code>" : "<code>", f);
            gelu_format_id fmt = r->when == REPORT_FILE_PER_FORMAT ? ids[i] : GELU_FORMAT_BINARY32;
            html_text(f, report_file_name((report_file_id)k, fmt, name, sizeof name));
            fputs("</code>", f);
        }
        fputs(r->when == REPORT_FILE_BASELINE ? " (with <code>--baseline</code>): " : ": ", f);
        html_marked(f, r->holds);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

void report_files_markdown(FILE *f)
{
    char fmts[128];
    fprintf(f, "| file | written | what it holds |\n|---|---|---|\n");
    for (size_t k = 0; k < REPORT_FILE_COUNT; k++)
        fprintf(f, "| `%s` | %s | %s |\n", files[k].name, when_text(files[k].when), files[k].holds);
    fprintf(f, "\nF: %s.\n", formats_text(fmts, sizeof fmts));
}
