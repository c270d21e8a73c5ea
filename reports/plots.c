/* The report's gnuplot scripts and their runner (see plots.h). */
#include "plots.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gelu_impl.h"
#include "known_names.h"

/* One row per plot kind: its stem, title and caption on binary32's page, its caption in a 16-bit
 * format's section and in binary64's, whose accuracy is sampled (NULL: not drawn there);
 * binary32: drawn on binary32's page. */
static const struct {
    const char *name, *title, *caption, *format_caption, *sampled_caption;
    bool binary32;
} plots[PLOT_COUNT] = {
    {"pareto", "What accuracy costs",
     "Every GELU as a point: median ns/element in the benchmark (log) against its max ULP error "
     "against exact GELU (log; above 2^34 drawn at 2^34), shaped and coloured by family. The "
     "dashed line is 2^24 ULP, the error of a negative tail flushed to zero; the staircase joins "
     "the Pareto front, the implementations nothing beats on both, labelled where the labels do "
     "not overlap.",
     "Every GELU of the format as a point: median ns/element in the format's benchmark (log; "
     "arrays of the format's encodings, the binary32 kernels widened) against its max ULP error "
     "in the format against exact GELU (log; above 2^(precision+10) drawn there), shaped and "
     "coloured by family; the dashed line is 2^precision ULP (bfloat16 2^8, binary16 2^11), the "
     "error of a negative tail flushed to zero; the staircase joins the Pareto front, its points "
     "labelled where the labels do not overlap.",
     "Every binary64 GELU as a point: median ns/element in the binary64 benchmark (log; arrays "
     "of doubles) against its max ULP error against exact GELU over the SAMPLE (sampled: a "
     "bigger sample can only raise a point; log, above 2^63 drawn there), shaped and coloured by "
     "family; the dashed line is 2^53 ULP, the error of a negative tail flushed to zero; the "
     "staircase joins the Pareto front, its points labelled where the labels do not overlap.",
     true},
    {"ulp_by_x", "ULP error against x",
     "The largest ULP error against the implementation's own target in each 1/8 of x over "
     "[-16, 16], one panel per family on a shared log scale (zero drawn at 2^-10); dotted lines "
     "at x = -3 and 3 part the negative tail, the core and the positive side. ISA builds whose "
     "figures in accuracy.csv are all equal are drawn once (named \"+avx2\" etc.).",
     "The largest ULP error in the format against the implementation's own target in each 1/8 "
     "of x over [-16, 16] (forward), one panel per family on a shared log scale (zero drawn at "
     "2^-10): 0.5 is correctly rounded, 1 a missed rounding. ISA builds whose figures are all "
     "equal are drawn once.",
     "The largest binary64 ULP error against the implementation's own target over the SAMPLE's "
     "inputs in each 1/8 of x over [-16, 16] (forward; sampled: a bucket's maximum is over the "
     "draws that fell in it, not every double there), one panel per family on a shared log "
     "scale (zero drawn at 2^-10, above 2^57 clipped). ISA builds whose figures are all equal are "
     "drawn once.",
     true},
    {"abs_by_x", "Absolute error against x",
     "The largest absolute error against exact GELU in each 1/8 of x, one panel per family on a "
     "shared log scale (below 2^-40 drawn at 2^-40): for the tanh and sigmoid forms this is the "
     "model's distance from GELU, not a rounding error. ISA twins drawn once, as above.",
     NULL, NULL, true},
    {"ulp_hist", "ULP histogram",
     "The fraction of scanned inputs in each ULP-error bucket against the own target (log "
     "scale), one panel per family: mass at 0 and <=0.5 is correctly rounded or nearly so.",
     NULL, NULL, true},
    {"cost", "Cost against ReLU",
     "Time per element divided by the ReLU baseline's in the same benchmark round (log scale), "
     "at the smallest and the largest measured size; rows with a thread pool of their own "
     "(dnnl_*_omp) are left out, their time being no one thread's (the tables have them).",
     NULL, NULL, true},
    {"not_cr", "Inputs not correctly rounded",
     NULL,
     "The share of the format's inputs whose result is not the correctly rounded value of the "
     "implementation's own target, forward and derivative (log scale; no bar: none), per "
     "implementation: for a widened one, what rounding binary32's result once more costs. ISA "
     "builds whose figures are all equal are drawn once.",
     NULL, false},
};

bool plot_drawn(plot_kind k, gelu_format_id f)
{
    return f == GELU_FORMAT_BINARY32 ? plots[k].binary32 : plot_caption(k, f) != NULL;
}

const char *plot_stem(plot_kind k, gelu_format_id f, char *buf, size_t size)
{
    if (f == GELU_FORMAT_BINARY32) snprintf(buf, size, "%s", plots[k].name);
    else snprintf(buf, size, "%s_%s", gelu_format_of(f)->name, plots[k].name);
    return buf;
}

const char *plot_title(plot_kind k) { return plots[k].title; }
const char *plot_caption(plot_kind k, gelu_format_id f)
{
    return f == GELU_FORMAT_BINARY32   ? plots[k].caption
           : gelu_format_sampled(gelu_format_of(f)) ? plots[k].sampled_caption
                                       : plots[k].format_caption;
}

/* Okabe–Ito, most distinct first (yellow, weak on white, last). */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#000000", "#F0E442"};
enum { PALETTE = sizeof palette / sizeof palette[0] };

static void preamble(FILE *f, plot_kind k, gelu_format_id format, int width, int height)
{
    char stem[64];
    plot_stem(k, format, stem, sizeof stem);
    fprintf(f,
            "# Generated by gelucheck report; redraw with: gnuplot %s.gp\n"
            "set terminal svg size %d,%d dynamic enhanced font 'sans,11'\n"
            "set output '%s.svg'\n"
            "set key noenhanced\n"
            "set grid\n",
            stem, width, height, stem);
    for (int i = 0; i < PALETTE; i++)
        fprintf(f, "set linetype %d lc rgb '%s' lw 1.5\n", i + 1, palette[i]);
    fprintf(f, "set linetype cycle %d\n", PALETTE);
}

static bool is_gelu(const results_row *r) { return r->scanned && r->exact[0].present; }

static bool same_error(const results_error *a, const results_error *b)
{
    return a->present == b->present && a->max_ulp == b->max_ulp && a->max_abs == b->max_abs &&
           a->correctly_rounded == b->correctly_rounded &&
           strcmp(a->max_ulp_x, b->max_ulp_x) == 0 && strcmp(a->max_abs_x, b->max_abs_x) == 0;
}

/* Two builds of one algorithm whose every figure read back from accuracy.csv is equal. */
static bool isa_twins(const results_row *a, const results_row *b)
{
    if (strcmp(impl_method(a->name), impl_method(b->name)) != 0 ||
        a->mono_violations != b->mono_violations)
        return false;
    for (int d = 0; d < 2; d++)
        if (!same_error(&a->own[d], &b->own[d]) || !same_error(&a->exact[d], &b->exact[d]))
            return false;
    return memcmp(a->hist, b->hist, sizeof a->hist) == 0;
}

/* The series of one family: the GELUs drawn (an ISA twin of an earlier one is not) and the
 * title of each ("pw_fast +avx2 +avx512" when its twins are merged into it). */
typedef struct {
    size_t row[RESULTS_MAX_ROWS];
    char title[RESULTS_MAX_ROWS][160];
    size_t n;
} family_series;

static void family_series_of(const results_set *s, gelu_family fam, family_series *out)
{
    out->n = 0;
    for (size_t i = 0; i < s->n; i++) {
        const results_row *r = &s->rows[i];
        if (!is_gelu(r) || impl_family_of(r->name) != fam) continue;
        size_t k = 0;
        while (k < out->n && !isa_twins(&s->rows[out->row[k]], r)) k++;
        if (k == out->n) {
            out->row[out->n] = i;
            snprintf(out->title[out->n++], sizeof out->title[0], "%s", r->name);
        } else {
            const gelu_impl *m = gelu_impl_find(r->name); /* registered: its method matched */
            char *t = out->title[k];
            size_t used = strlen(t);
            snprintf(t + used, sizeof out->title[0] - used, " +%s",
                     m ? gelu_isa_name(m->isa) : r->name);
        }
    }
}

/* One panel per family with members: rows and columns for `set multiplot layout`. */
static int panel_count(const results_set *s)
{
    int n = 0;
    for (int fam = 0; fam < GELU_FAMILY_COUNT; fam++) {
        family_series fs;
        family_series_of(s, (gelu_family)fam, &fs);
        n += fs.n > 0;
    }
    return n;
}

static void multiplot_open(FILE *f, int panels)
{
    int cols = panels > 1 ? 2 : 1, rows = (panels + cols - 1) / cols;
    fprintf(f, "set multiplot layout %d,%d\n", rows > 0 ? rows : 1, cols);
}

/* x against the per-bucket maximum in column col of ulp_by_x.csv for reference ref, small
 * multiples with the input ranges marked. floor_log2 and ceil_log2: the shared y range (values
 * below the floor, zero included, are drawn at it: a log scale has no 0). */
static void by_x(FILE *f, const results_set *s, const char *ref, int col, const char *ylabel,
                 int floor_log2, int ceil_log2)
{
    fprintf(f,
            "set datafile separator ','\n"
            "set logscale y 2\n"
            "set format y '2^{%%L}'\n"
            "set ytics 2**8\n"
            "set xrange [-16:16]\n"
            "set yrange [2.0**%d:2.0**%d]\n"
            "set xtics 4\n"
            "set xlabel 'x'\n"
            "set ylabel '%s'\n"
            "set key top right font ',9' samplen 2 spacing 0.9 opaque\n"
            "set arrow 1 from -3, graph 0 to -3, graph 1 nohead dt 3 lc rgb '#777777'\n"
            "set arrow 2 from 3, graph 0 to 3, graph 1 nohead dt 3 lc rgb '#777777'\n"
            "set label 1 'tail' at -9.5, graph 0.06 center textcolor rgb '#555555'\n"
            "set label 2 'core' at 0, graph 0.06 center textcolor rgb '#555555'\n"
            "set label 3 'positive' at 9.5, graph 0.06 center textcolor rgb '#555555'\n"
            "floor = 2.0**%d\n",
            floor_log2, ceil_log2, ylabel, floor_log2);
    char data[64];
    results_file_name(data, sizeof data, "ulp_by_x", s->format);
    multiplot_open(f, panel_count(s));
    for (int fam = 0; fam < GELU_FAMILY_COUNT; fam++) {
        family_series fs;
        family_series_of(s, (gelu_family)fam, &fs);
        if (fs.n == 0) continue;
        fprintf(f, "set title '%s' noenhanced\nplot \\\n", impl_family_name((gelu_family)fam));
        for (size_t i = 0; i < fs.n; i++)
            fprintf(f,
                    "  '%s' using ((strcol(1) eq '%s' && strcol(2) eq '%s' && "
                    "strcol(3) eq 'forward') ? ($4 + $5) / 2 : NaN):(column(%d) > floor ? "
                    "column(%d) : floor) with steps lt %zu dt %zu title '%s'%s\n",
                    data, s->rows[fs.row[i]].name, ref, col, col, i % PALETTE + 1, i / PALETTE + 1,
                    fs.title[i], i + 1 < fs.n ? ", \\" : "");
    }
    fprintf(f, "unset multiplot\n");
}

static void histogram(FILE *f, const results_set *s)
{
    fprintf(f, "$hist << EOD\n");
    for (int b = 0; b < HIST_BUCKETS; b++) {
        fprintf(f, "%d \"%s\"", b, hist_bucket_name(b));
        for (size_t i = 0; i < s->n; i++) {
            const results_row *r = &s->rows[i];
            if (!is_gelu(r)) continue;
            uint64_t total = 0;
            for (int k = 0; k < HIST_BUCKETS; k++) total += r->hist[k];
            fprintf(f, " %.6g", total ? (double)r->hist[b] / (double)total : 0.0);
        }
        fprintf(f, "\n");
    }
    fprintf(f,
            "EOD\n"
            "set logscale y\n"
            "set format y '10^{%%L}'\n"
            "set yrange [1e-7:1]\n"
            "set xtics rotate by -45 font ',8'\n"
            "set ylabel 'fraction of inputs'\n"
            "set key top right font ',9' samplen 2 spacing 0.9 opaque\n");
    multiplot_open(f, panel_count(s));
    for (int fam = 0; fam < GELU_FAMILY_COUNT; fam++) {
        family_series fs;
        family_series_of(s, (gelu_family)fam, &fs);
        if (fs.n == 0) continue;
        fprintf(f, "set title '%s' noenhanced\nplot \\\n", impl_family_name((gelu_family)fam));
        for (size_t i = 0; i < fs.n; i++) {
            size_t column = 3; /* the row's column in $hist: GELUs in order after 2 */
            for (size_t j = 0; j < fs.row[i]; j++) column += is_gelu(&s->rows[j]);
            fprintf(f,
                    "  $hist using 1:(column(%zu) > 0 ? column(%zu) : NaN):xtic(2) with "
                    "linespoints lt %zu dt %zu pt %zu ps 0.6 title '%s'%s\n",
                    column, column, i % PALETTE + 1, i / PALETTE + 1, i + 1, fs.title[i],
                    i + 1 < fs.n ? ", \\" : "");
        }
    }
    fprintf(f, "unset multiplot\n");
}

const char *plot_pareto_size(const results_set *s)
{
    for (size_t i = 0; i < s->nsizes; i++)
        if (strcmp(s->sizes[i], "l2") == 0) return "l2";
    return s->nsizes ? s->sizes[s->nsizes - 1] : "";
}

/* The point of row r at size: false when it has none. */
static bool pareto_point(const results_row *r, const char *size, double *ns, double *ulp)
{
    const results_speed *sp = results_speed_at(r, size);
    if (!is_gelu(r) || !sp || !(sp->ns > 0) || isnan(r->exact[0].max_ulp)) return false;
    *ns = sp->ns;
    *ulp = r->exact[0].max_ulp;
    return true;
}

size_t plot_pareto_front(const results_set *s, const char *size, size_t *idx)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        double ni, ui, nj, uj;
        if (!pareto_point(&s->rows[i], size, &ni, &ui)) continue;
        bool beaten = false;
        for (size_t j = 0; j < s->n && !beaten; j++)
            if (j != i && pareto_point(&s->rows[j], size, &nj, &uj))
                beaten = nj <= ni && uj <= ui && (nj < ni || uj < ui || j < i);
        if (!beaten) idx[n++] = i;
    }
    for (size_t i = 1; i < n; i++) /* by ns/element: insertion sort of a handful */
        for (size_t j = i; j > 0 && results_speed_at(&s->rows[idx[j]], size)->ns <
                                        results_speed_at(&s->rows[idx[j - 1]], size)->ns;
             j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    return n;
}

/* The Pareto plot's ceiling: 2^10 above a flushed tail's error, 2^precision ULP (binary32: 2^34). */
enum { PARETO_CEIL_ABOVE_FLUSH = 10 };

/* Where the Pareto plot's labels fall, in pixels of its 640x400 SVG: its plot area (less the
 * margins, tics and key below), a label's box at font 9 (its height, its width per character
 * and its padding) and its offset from its point (offset 0.6,0.7 characters). */
enum { PARETO_AREA_W = 470, PARETO_AREA_H = 265, LABEL_H = 14, LABEL_CHAR_W = 6, LABEL_PAD = 10,
       LABEL_DX = 6, LABEL_DY = 8 };

size_t plot_pareto_labels(const results_set *s, const char *size, const size_t *front, size_t n,
                          bool *keep)
{
    const double top = ldexp(1, gelu_format_of(s->format)->precision + PARETO_CEIL_ABOVE_FLUSH);
    double lo = INFINITY, hi = -INFINITY, ns, ulp;
    for (size_t i = 0; i < s->n; i++)
        if (pareto_point(&s->rows[i], size, &ns, &ulp) && ns > 0) {
            lo = fmin(lo, log10(ns));
            hi = fmax(hi, log10(ns));
        }
    /* gnuplot's autoscale of a log axis: whole decades around the points */
    double x0 = floor(lo), x1 = fmax(ceil(hi), x0 + 1), y0 = -3, y1 = log2(top) + 1;
    double box[RESULTS_MAX_ROWS][4]; /* left, right, bottom, top of the kept labels */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        keep[i] = false;
        if (!pareto_point(&s->rows[front[i]], size, &ns, &ulp) || !(ns > 0)) continue;
        double px = (log10(ns) - x0) / (x1 - x0) * PARETO_AREA_W,
               py = (log2(fmin(fmax(ulp, 0.125), top)) - y0) / (y1 - y0) * PARETO_AREA_H;
        double b[4] = {px + LABEL_DX,
                       px + LABEL_DX + LABEL_PAD + LABEL_CHAR_W * (double)strlen(s->rows[front[i]].name),
                       py + LABEL_DY, py + LABEL_DY + LABEL_H};
        bool clear = true;
        for (size_t k = 0; k < kept && clear; k++)
            clear = b[1] <= box[k][0] || box[k][1] <= b[0] || b[3] <= box[k][2] || box[k][3] <= b[2];
        if (!clear) continue;
        memcpy(box[kept++], b, sizeof b);
        keep[i] = true;
    }
    return kept;
}

static void pareto(FILE *f, const results_set *s)
{
    static const int point_type[] = {[GELU_FAMILY_OURS] = 7,         /* ● */
                                     [GELU_FAMILY_LIBM_GSL] = 5,     /* ■ */
                                     [GELU_FAMILY_SIMD_LIBRARY] = 9, /* ▲ */
                                     [GELU_FAMILY_ML_LIBRARY] = 11,  /* ▼ */
                                     [GELU_FAMILY_FRAMEWORK] = 13};  /* ◆ */
    _Static_assert(sizeof point_type / sizeof *point_type == GELU_FAMILY_COUNT,
                   "a point type per family");
    const char *size = plot_pareto_size(s);
    const int flush_log2 = gelu_format_of(s->format)->precision,
              ceil_log2 = flush_log2 + PARETO_CEIL_ABOVE_FLUSH;
    const double ceil = ldexp(1, ceil_log2);
    fprintf(f, "$points << EOD\n");
    for (size_t i = 0; i < s->n; i++) {
        double ns, ulp;
        if (pareto_point(&s->rows[i], size, &ns, &ulp))
            fprintf(f, "%s %.6g %.6g %d\n", s->rows[i].name, ns, ulp < ceil ? ulp : ceil,
                    (int)impl_family_of(s->rows[i].name));
    }
    fprintf(f, "EOD\n$front << EOD\n");
    size_t idx[RESULTS_MAX_ROWS], n = plot_pareto_front(s, size, idx);
    bool keep[RESULTS_MAX_ROWS];
    plot_pareto_labels(s, size, idx, n, keep);
    for (int labels = 0; labels < 2; labels++) {
        if (labels) fprintf(f, "EOD\n$labels << EOD\n"); /* the front's labels that do not overlap */
        for (size_t i = 0; i < n; i++) {
            double ns = 0, ulp = 0;
            if (labels && !keep[i]) continue;
            pareto_point(&s->rows[idx[i]], size, &ns, &ulp);
            fprintf(f, "%s %.6g %.6g\n", s->rows[idx[i]].name, ns, ulp < ceil ? ulp : ceil);
        }
    }
    fprintf(f,
            "EOD\n"
            "set logscale x 10\n"
            "set logscale y 2\n"
            "set format y '2^{%%L}'\n"
            "set yrange [0.125:2.0**%d]\n"
            "set ytics 2**%d\n"
            "set style textbox opaque noborder margins 1,1\n"
            "set xlabel 'median ns/element at size %s (log)'\n"
            "set ylabel 'max ULP error vs exact GELU (log)'\n"
            /* height: room between the key and the x label, whose boxes touched */
            "set key below horizontal font ',9' samplen 1 height 0.6\n"
            "set arrow 1 from graph 0, first 2.0**%d to graph 1, first 2.0**%d nohead dt 2 "
            "lc rgb '#555555'\n"
            "set label 1 '2^{%d}: the negative tail flushed to zero' at graph 0.98, first "
            "2.0**%g right font ',9' textcolor rgb '#555555'\n"
            "plot \\\n"
            "  $front using 2:3 with steps lc rgb '#999999' lw 2 title 'Pareto front', \\\n",
            ceil_log2 + 1, ceil_log2 > 40 ? 8 : 4, /* binary64's 2^64: a tick every 2^8, not 17 */
            size, flush_log2, flush_log2, flush_log2, flush_log2 + 1.5);
    for (int fam = 0; fam < GELU_FAMILY_COUNT; fam++)
        fprintf(f,
                "  $points using ($4 == %d ? $2 : NaN):3:1 with labels hypertext point lt %d "
                "pt %d ps 1.2 title '%s', \\\n",
                fam, fam + 1, point_type[fam], impl_family_name((gelu_family)fam));
    fprintf(f, "  $labels using 2:3:1 with labels boxed left offset 0.6,0.7 font ',9' noenhanced "
               "notitle\n");
}

/* Clustered bars, the key top left (the cost and not_cr plots). */
static const char bars[] = "set key top left\n"
                           "set style data histograms\n"
                           "set style histogram clustered gap 1\n"
                           "set style fill solid 0.8 border -1\n";

static void cost(FILE *f, const results_set *s)
{
    const char *first = s->nsizes ? s->sizes[0] : "",
               *last = s->nsizes ? s->sizes[s->nsizes - 1] : "";
    fprintf(f, "$cost << EOD\n");
    for (size_t i = 0; i < s->n; i++) {
        const results_speed *a = results_speed_at(&s->rows[i], first);
        const results_speed *b = results_speed_at(&s->rows[i], last);
        const gelu_impl *m = gelu_impl_find_in(s->rows[i].name, s->format);
        if (m && m->own_threads) continue; /* benchmark-only: apart from the single-thread axis */
        if (a && b) fprintf(f, "%s %.6g %.6g\n", s->rows[i].name, a->ratio, b->ratio);
    }
    fprintf(f,
            "EOD\n%s"
            "set logscale y\n"
            "set yrange [0.1:*]\n"
            "set xtics rotate by -45 noenhanced font ',9'\n"
            "set ylabel 'time / ReLU time (same round)'\n"
            "plot $cost using 2:xtic(1) lt 1 title 'size %s', '' using 3 lt 5 title 'size %s'\n",
            bars, first, last);
}

/* The share of inputs not correctly rounded, "NaN" when none (a log scale has no 0: no bar) or
 * not measured. */
static void not_cr_share(FILE *f, const results_error *e)
{
    long long wrong = results_not_correctly_rounded(e);
    if (wrong > 0) fprintf(f, " %.6g", (double)wrong / (double)e->inputs);
    else fputs(" NaN", f);
}

/* Bars per implementation (ISA twins once, family by family): forward and derivative. */
static void not_cr(FILE *f, const results_set *s)
{
    fprintf(f, "$share << EOD\n");
    for (int fam = 0; fam < GELU_FAMILY_COUNT; fam++) {
        family_series fs;
        family_series_of(s, (gelu_family)fam, &fs);
        for (size_t i = 0; i < fs.n; i++) {
            const results_row *r = &s->rows[fs.row[i]];
            fprintf(f, "\"%s\"", fs.title[i]);
            not_cr_share(f, &r->own[0]);
            not_cr_share(f, &r->own[1]);
            fputc('\n', f);
        }
    }
    fprintf(f,
            "EOD\n%s"
            "set logscale y 10\n"
            "set format y '10^{%%L}'\n"
            "set yrange [1e-6:1]\n"
            "set xtics rotate by -45 noenhanced font ',9'\n"
            "set ylabel 'share of the %s inputs not correctly rounded'\n"
            "plot $share using 2:xtic(1) lt 1 title 'forward', '' using 3 lt 2 title "
            "'derivative'\n",
            bars, gelu_format_of(s->format)->name);
}

/* The ULP-by-x plot's ceiling, log2: 2^26 for binary32 and the narrower formats (their flushed
 * tails, 2^24 and less, below it), 2^(precision + 4) for a wider one (binary64: 2^57, above
 * the 2^53 of a cancelling 1 + tanh). */
static int ulp_by_x_ceil(gelu_format_id format)
{
    const gelu_format *f = gelu_format_of(format);
    return f->storage_bits > 32 ? f->precision + 4 : 26;
}

int plot_script_write(FILE *f, plot_kind k, const results_set *s)
{
    gelu_format_id format = s->format;
    switch (k) {
    case PLOT_PARETO:
        preamble(f, k, format, 640, 400);
        pareto(f, s);
        break;
    case PLOT_ULP_BY_X:
        preamble(f, k, format, 960, 640);
        by_x(f, s, "own", 6, "max ULP error vs own target", -10, ulp_by_x_ceil(format));
        break;
    case PLOT_ABS_BY_X:
        preamble(f, k, format, 960, 640);
        by_x(f, s, "exact", 7, "max abs error vs exact GELU", -40, 0);
        break;
    case PLOT_ULP_HIST:
        preamble(f, k, format, 960, 640);
        histogram(f, s);
        break;
    case PLOT_COST:
        preamble(f, k, format, 960, 480);
        cost(f, s);
        break;
    case PLOT_NOT_CR:
        preamble(f, k, format, 960, 480);
        not_cr(f, s);
        break;
    default: return -1;
    }
    return ferror(f) ? -1 : 0;
}

int plot_run(const char *dir, const char *stem)
{
    char script[128], log[128], svg[2200];
    snprintf(script, sizeof script, "%s.gp", stem);
    snprintf(log, sizeof log, "%s.log", stem);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = chdir(dir) == 0 ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666) : -1;
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0) return -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return 1;
    snprintf(svg, sizeof svg, "%s/%s.svg", dir, stem);
    struct stat st;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 && stat(svg, &st) == 0 && st.st_size > 0
               ? 0
               : -1;
}
