/* HTML pieces of the report page (see html_text.h). */
#include "html_text.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "gelu_impl.h"

void html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

/* A numeric cell's opening tag; data-v holds the number in full for sorting. */
void html_open_num(FILE *f, double v)
{
    fputs("<td", f);
    if (!isnan(v)) {
        if (isinf(v))
            fprintf(f, " data-v=\"%sInfinity\"", v < 0 ? "-" : "");
        else
            fprintf(f, " data-v=\"%.17g\"", v);
    }
    fputs(">", f);
}

void html_inline_svg(FILE *f, const char *svg)
{
    const char *p = strstr(svg, "<svg");
    if (!p) return;
    while (*p) {
        if (isspace((unsigned char)p[0]) && strncmp(p + 1, "xmlns", 5) == 0) {
            const char *q = strchr(p + 6, '"'); /* skip ` xmlns[:x]="…"` */
            q = q ? strchr(q + 1, '"') : NULL;
            if (q) {
                p = q + 1;
                continue;
            }
        }
        if (strncmp(p, "xlink:href", 10) == 0) {
            fputs("href", f);
            p += 10;
            continue;
        }
        fputc(*p++, f);
    }
    fputc('\n', f);
}

/* "AVX-512", "AVX2" or "portable": the widest ISA a row needs (its full list on hover). */
const char *html_isa_label(unsigned features)
{
    if (features & (CPU_FEATURE_AVX512F | CPU_FEATURE_AVX512DQ | CPU_FEATURE_AVX512BW |
                    CPU_FEATURE_AVX512VL))
        return "AVX-512";
    return features & CPU_FEATURE_AVX2 ? "AVX2" : "portable";
}

/* A plot as a figure: its title (a heading under binary32's Plots or a format's section), the
 * SVG inline, its caption and files. */
void html_plot_figure(FILE *f, plot_kind k, gelu_format_id format, const char *svg)
{
    char stem[64];
    const char *h = format == GELU_FORMAT_BINARY32 ? "h3" : "h4"; /* under the format's h3 */
    plot_stem(k, format, stem, sizeof stem);
    fprintf(f, "<figure id=\"%s\">\n<%s>", stem, h);
    html_text(f, plot_title(k));
    fprintf(f, "</%s>\n", h);
    html_inline_svg(f, svg);
    fputs("<figcaption>", f);
    html_text(f, plot_caption(k, format));
    fprintf(f, " (<code>%s.svg</code>, drawn by <code>%s.gp</code>)</figcaption>\n</figure>\n",
            stem, stem);
}
