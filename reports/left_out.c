/* What a run leaves out, by family (see left_out.h). */
#include "left_out.h"

#include <string.h>

#include "exec_frameworks.h"
#include "gelu_format.h"
#include "plugin.h"

/* A row's name appended to a family's list (once: a name in two formats is one row here). */
static void add_row(left_out_family *e, const char *name)
{
    size_t n = strlen(name), k = strlen(e->rows);
    for (const char *at = strstr(e->rows, name); at; at = strstr(at + 1, name))
        if ((at == e->rows || (at - e->rows >= 2 && at[-2] == ',')) && (at[n] == '\0' || at[n] == ','))
            return;
    if (k + n + 3 < sizeof e->rows)
        snprintf(e->rows + k, sizeof e->rows - k, "%s%s", k ? ", " : "", name);
}

/* "…: A, B" + ", C" unless C is there already ("…: " + "A" for the first). */
static void add_word(char *list, size_t size, const char *word)
{
    if (strstr(list, word)) return;
    size_t k = strlen(list);
    bool first = k < 2 || strcmp(list + k - 2, ": ") == 0;
    snprintf(list + k, size - k, "%s%s", first ? "" : ", ", word);
}

static left_out_family *family(left_out *lo, const char *name)
{
    for (size_t i = 0; i < lo->n; i++)
        if (strcmp(lo->f[i].family, name) == 0) return &lo->f[i];
    if (lo->n == LEFT_OUT_MAX) return NULL;
    left_out_family *e = &lo->f[lo->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->family, sizeof e->family, "%s", name);
    return e;
}

static bool scanned_has(const gelu_impl *const *scanned, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(scanned[i]->name, name) == 0) return true;
    return false;
}

/* The frameworks' rows: not installed (with what installs them) or installed and not started. */
static void frameworks(left_out *lo, const gelu_impl *const *scanned, size_t n)
{
    char version[32], py[1024];
    exec_frameworks_python(py, sizeof py);
    for (size_t k = 0; k < exec_framework_count(); k++) {
        const exec_framework *fw = exec_framework_at(k);
        if (scanned_has(scanned, n, fw->name)) { /* its paths: any scanned? */
            bool path = false;
            for (size_t i = 0; i < n; i++)
                path |= strncmp(scanned[i]->name, fw->name, strlen(fw->name)) == 0 &&
                        scanned[i]->name[strlen(fw->name)] == '@';
            left_out_family *e = path ? NULL : family(lo, "framework paths not asked for");
            if (!e) continue;
            char rows[96];
            snprintf(rows, sizeof rows, "%s@*", fw->name);
            add_row(e, rows);
            snprintf(e->why, sizeof e->why, "only the batch path of these rows was scanned: the "
                     "same GELU on other tensor sizes, threads, compiled or fused may give other "
                     "bits (docs/frameworks.md, \"Paths\")");
            snprintf(e->command, sizeof e->command, "GELUCHECK_FRAMEWORK_PATHS=all");
            continue;
        }
        bool installed = exec_framework_version(fw, version, sizeof version) != NULL;
        left_out_family *e = family(lo, installed ? "frameworks not asked for"
                                                  : "frameworks not installed");
        if (!e) return;
        add_row(e, fw->name);
        if (installed) {
            snprintf(e->command, sizeof e->command, "gelucheck report --frameworks");
            if (!e->why[0]) snprintf(e->why, sizeof e->why, "installed, but a framework row runs "
                                     "only when asked for (its import costs seconds): ");
        } else {
            snprintf(e->command, sizeof e->command, "tools/setup.sh --frameworks");
            if (!e->why[0]) snprintf(e->why, sizeof e->why, "not installed in %.200s's "
                                     "environment (opt-in, ~6 GB): ", py);
        }
        add_word(e->why, sizeof e->why, fw->framework);
    }
}

/* The registry's rows the run did not take: those this CPU cannot run (binary32's and every
 * other format's), and benchmark-only ones (binary32's with their own thread pool). */
static void registry(left_out *lo, const gelu_impl *const *scanned, size_t n)
{
    for (int fmt = 0; fmt < gelu_format_count(); fmt++)
        for (size_t i = 0; i < gelu_impl_count_in((gelu_format_id)fmt); i++) {
            const gelu_impl *m = gelu_impl_at_in((gelu_format_id)fmt, i);
            left_out_family *e = NULL;
            if (!gelu_impl_available(m)) {
                char need[128];
                if (!(e = family(lo, "rows this CPU cannot run"))) return;
                snprintf(e->why, sizeof e->why, "they need CPU features this CPU lacks (it has "
                         "%.200s)", cpu_features_string(cpu_features(), need, sizeof need));
            } else if (fmt == GELU_FORMAT_BINARY32 && m->own_threads && !scanned_has(scanned, n, m->name)) {
                if (!(e = family(lo, "benchmark-only rows"))) return;
                snprintf(e->why, sizeof e->why, "their own thread pool: benchmarked, not scanned "
                         "(the kernels of their single-threaded twins are)");
            }
            if (e) add_row(e, m->name);
        }
}

/* The default peers this build did not make or cannot find, and what the plugins left out. */
static void plugins(left_out *lo)
{
    for (size_t i = 0; i < plugins_default_peer_count(); i++) {
        const char *path;
        bool loaded;
        const char *name = plugins_default_peer(i, &path, &loaded);
        left_out_family *e;
        if (loaded || !(e = family(lo, "default peers not found"))) continue;
        add_row(e, name);
        snprintf(e->why, sizeof e->why, "their plugin file is not where this build puts it "
                 "(gelucheck list names the path)");
    }
    const char *source, *text;
    for (size_t i = 0; (text = plugins_left_out(i, &source)); i++) {
        /* "ROWS in FORMAT: why" (the plugin's one line), said by SOURCE */
        left_out_family *e = family(lo, "rows a plugin left out");
        if (!e) return;
        size_t colon = strcspn(text, ":"), k = strlen(e->rows);
        snprintf(e->rows + k, sizeof e->rows - k, "%s%.*s", k ? "; " : "", (int)colon, text);
        k = strlen(e->why);
        snprintf(e->why + k, sizeof e->why - k, "%s%s%s", k ? "; " : "", source,
                 text[colon] ? text + colon : "");
    }
}

void left_out_collect(left_out *lo, const gelu_impl *const *scanned, size_t n)
{
    memset(lo, 0, sizeof *lo);
    frameworks(lo, scanned, n);
    registry(lo, scanned, n);
    plugins(lo);
}

void left_out_print(FILE *f, const left_out *lo)
{
    if (lo->n == 0) fputs("left out: nothing\n", f);
    for (size_t i = 0; i < lo->n; i++) {
        const left_out_family *e = &lo->f[i];
        fprintf(f, "left out: %s: %s (%s%s%s)\n", e->family, e->rows, e->why,
                e->command[0] ? "; " : "", e->command);
    }
}
