/* The frameworks' GELUs registered by default (exec_frameworks.h). */
#include "exec_frameworks.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec_handshake.h"
#include "exec_impl.h"
#include "gelu_cr16.h"
#include "gelu_impl.h"

#ifndef GELUCHECK_PEERS_DIR
#error "GELUCHECK_PEERS_DIR: the source tree's peers/"
#endif
#ifndef GELUCHECK_PEERS_INSTALLED
#error "GELUCHECK_PEERS_INSTALLED: where meson install puts peers/"
#endif

/* The one list of the frameworks' rows: name, framework, package, client, arguments, target,
 * derivative, the 16-bit formats its client also serves (--format F: the framework's GELU on
 * tensors of that type), the names users know it by. Versions pinned in tools/frameworks.txt. ONNX Runtime's CPU provider
 * has no bfloat16 kernel for these operators (peers/onnxruntime_gelu.py). */
#define B16 "bfloat16 binary16"
static const exec_framework rows[] = {
    {"torch_gelu", "PyTorch", "torch", "torch_gelu.py", "--approximate none", "exact", true, B16,
     "PyTorch torch.nn.functional.gelu(approximate='none') itself, nn.GELU()"},
    {"torch_gelu_tanh", "PyTorch", "torch", "torch_gelu.py", "--approximate tanh", "tanh", true, B16,
     "PyTorch torch.nn.functional.gelu(approximate='tanh') itself"},
    {"tf_gelu", "TensorFlow", "tensorflow-cpu", "tensorflow_gelu.py", "", "exact", true, B16,
     "TensorFlow tf.nn.gelu(approximate=False) itself"},
    {"tf_gelu_tanh", "TensorFlow", "tensorflow-cpu", "tensorflow_gelu.py", "--approximate", "tanh", true, B16,
     "TensorFlow tf.nn.gelu(approximate=True) itself"},
    {"jax_gelu", "JAX", "jax", "jax_gelu.py", "", "exact", true, B16,
     "JAX jax.nn.gelu(approximate=False) itself (jitted, XLA CPU)"},
    {"jax_gelu_tanh", "JAX", "jax", "jax_gelu.py", "--approximate", "tanh", true, B16,
     "JAX jax.nn.gelu(approximate=True) itself, its default (jitted, XLA CPU)"},
    {"ort_gelu", "ONNX Runtime", "onnxruntime", "onnxruntime_gelu.py", "--op gelu", "exact", false, "binary16",
     "ONNX operator Gelu (opset 20, approximate='none') in ONNX Runtime"},
    {"ort_gelu_tanh", "ONNX Runtime", "onnxruntime", "onnxruntime_gelu.py", "--op gelu_tanh", "tanh", false, "binary16",
     "ONNX operator Gelu (opset 20, approximate='tanh') in ONNX Runtime"},
    {"ort_ms_gelu", "ONNX Runtime", "onnxruntime", "onnxruntime_gelu.py", "--op ms_gelu", "exact", false, "binary16",
     "ONNX Runtime contrib operator com.microsoft.Gelu"},
    {"ort_ms_fastgelu", "ONNX Runtime", "onnxruntime", "onnxruntime_gelu.py", "--op ms_fastgelu", "tanh", false, "binary16",
     "ONNX Runtime contrib operator com.microsoft.FastGelu (tanh form)"},
};
#undef B16
enum { ROWS = sizeof rows / sizeof rows[0] };

size_t exec_framework_count(void) { return ROWS; }
const exec_framework *exec_framework_at(size_t i) { return i < ROWS ? &rows[i] : NULL; }

const exec_framework *exec_framework_find(const char *name)
{
    for (size_t i = 0; i < ROWS; i++)
        if (strcmp(rows[i].name, name) == 0) return &rows[i];
    return NULL;
}

const char *exec_frameworks_python(char *buf, size_t size)
{
    /* The XDG base directory rules: XDG_CACHE_HOME when it is an absolute path (a relative one
     * is ignored), else HOME/.cache, HOME from the password database when unset or relative;
     * "" when no home is known (nothing is installed there then). */
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (cache && cache[0] == '/') {
        snprintf(buf, size, "%s/gelucheck/venv/bin/python", cache);
        return buf;
    }
    if (!home || home[0] != '/') {
        const struct passwd *pw = getpwuid(getuid());
        home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
    }
    if (home) snprintf(buf, size, "%s/.cache/gelucheck/venv/bin/python", home);
    else if (size) buf[0] = '\0';
    return buf;
}

/* s in single quotes for /bin/sh (each ' as '\''), appended to buf. */
static void sh_quote(char *buf, size_t size, const char *s)
{
    size_t k = strlen(buf);
    if (k + 1 < size) buf[k++] = '\'';
    for (; *s && k + 5 < size; s++) {
        if (*s == '\'') {
            memcpy(buf + k, "'\\''", 4);
            k += 4;
        } else {
            buf[k++] = *s;
        }
    }
    if (k + 1 < size) buf[k++] = '\'';
    buf[k] = '\0';
}

/* The packages' versions, read once: "-" for an absent one; all absent without the
 * environment. */
static char versions[ROWS][32];
static bool versions_read;

static void read_versions(void)
{
    versions_read = true;
    for (size_t i = 0; i < ROWS; i++) snprintf(versions[i], sizeof versions[i], "-");
    char py[1024], cmd[4096] = "";
    exec_frameworks_python(py, sizeof py);
    if (access(py, X_OK) != 0) return;
    sh_quote(cmd, sizeof cmd, py);
    /* importlib.metadata reads the installed distributions' metadata: no framework imported */
    strncat(cmd, " -c 'import sys\nfrom importlib.metadata import version, PackageNotFoundError\n"
                 "for p in sys.argv[1:]:\n    try: print(version(p))\n"
                 "    except PackageNotFoundError: print(\"-\")'",
            sizeof cmd - strlen(cmd) - 1);
    for (size_t i = 0; i < ROWS; i++) {
        strncat(cmd, " ", sizeof cmd - strlen(cmd) - 1);
        sh_quote(cmd, sizeof cmd, rows[i].package);
    }
    strncat(cmd, " 2>/dev/null", sizeof cmd - strlen(cmd) - 1);
    fflush(NULL);
    FILE *p = popen(cmd, "r");
    if (!p) return;
    char line[64];
    for (size_t i = 0; i < ROWS && fgets(line, sizeof line, p); i++) {
        line[strcspn(line, "\n")] = '\0';
        bool ok = line[0] != '\0';
        for (const char *c = line; *c; c++) /* a version: [0-9A-Za-z.+!-] */
            ok &= (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                  *c == '.' || *c == '+' || *c == '!' || *c == '-';
        snprintf(versions[i], sizeof versions[i], "%.31s", ok ? line : "-");
    }
    if (pclose(p) != 0)
        for (size_t i = 0; i < ROWS; i++) snprintf(versions[i], sizeof versions[i], "-");
}

const char *exec_framework_version(const exec_framework *f, char *buf, size_t size)
{
    if (!versions_read) read_versions();
    const char *v = versions[f - rows];
    if (strcmp(v, "-") == 0) return NULL;
    snprintf(buf, size, "%s", v);
    return buf;
}

/* The client's path: in the source tree's peers/ when this gelucheck runs from its build, else
 * where meson install put it. */
static const char *client_path(const exec_framework *f, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", GELUCHECK_PEERS_DIR, f->client);
    if (access(buf, R_OK) != 0) snprintf(buf, size, "%s/%s", GELUCHECK_PEERS_INSTALLED, f->client);
    return buf;
}

bool exec_framework_serves(const exec_framework *f, gelu_format_id format)
{
    if (format == GELU_FORMAT_BINARY32) return true;
    const char *name = gelu_format_of(format)->name, *at = strstr(f->formats16, name);
    size_t n = strlen(name);
    return at && (at == f->formats16 || at[-1] == ' ') && (at[n] == '\0' || at[n] == ' ');
}

/* ---- the paths (peers/framework_paths.py): variants of a row, selected by
 * GELUCHECK_FRAMEWORK_PATHS */

enum { PATHS_MAX = 96, PATH_NAME_MAX = 32, PATH_WHAT_MAX = 256 };
typedef struct {
    char name[PATH_NAME_MAX], what[PATH_WHAT_MAX];
    uint32_t cut; /* a size path's tensor size (its listing's third field), 0 for another path */
} row_path;

/* The client's command for row f ("'PY' 'CLIENT' ARGS") into cmd. */
static void client_command(const exec_framework *f, char *cmd, size_t size)
{
    char py[1024], client[1024];
    cmd[0] = '\0';
    sh_quote(cmd, size, exec_frameworks_python(py, sizeof py));
    strncat(cmd, " ", size - strlen(cmd) - 1);
    sh_quote(cmd, size, client_path(f, client, sizeof client));
    if (f->args[0]) {
        strncat(cmd, " ", size - strlen(cmd) - 1);
        strncat(cmd, f->args, size - strlen(cmd) - 1);
    }
}

/* The paths row f's client lists (--list-paths: NAME<TAB>what lines, a size path's with
 * <TAB>SIZE, answered before it imports its framework) into paths; their count, or −1 with err. */
static int list_paths(const exec_framework *f, gelu_format_id format, row_path *paths, size_t max,
                      char *err, size_t errsize)
{
    char cmd[4096];
    client_command(f, cmd, sizeof cmd);
    if (format != GELU_FORMAT_BINARY32)
        snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " --format %s", gelu_format_of(format)->name);
    strncat(cmd, " --list-paths", sizeof cmd - strlen(cmd) - 1);
    fflush(NULL);
    FILE *p = popen(cmd, "r");
    if (!p) return snprintf(err, errsize, "%s: cannot run %s --list-paths", f->name, f->client), -1;
    char line[PATH_NAME_MAX + PATH_WHAT_MAX + 8];
    size_t n = 0;
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        size_t k = strcspn(line, "\t");
        if (n == max || k == 0 || k >= PATH_NAME_MAX || line[k] != '\t') continue;
        char *what = line + k + 1, *size = strchr(what, '\t'), *end = NULL;
        if (size) *size++ = '\0';
        unsigned long cut = size ? strtoul(size, &end, 10) : 0;
        if (size && (end == size || *end || cut == 0 || cut > EXEC_CUT_MAX)) continue;
        snprintf(paths[n].name, PATH_NAME_MAX, "%.*s", (int)k, line);
        snprintf(paths[n].what, PATH_WHAT_MAX, "%s", what);
        paths[n].cut = (uint32_t)cut;
        n++;
    }
    if (pclose(p) != 0 || n == 0)
        return snprintf(err, errsize, "%s: %s --list-paths failed or listed nothing", f->name,
                        f->client), -1;
    return (int)n;
}

/* Whether path p is among the words of GELUCHECK_FRAMEWORK_PATHS (sel): "all" every path,
 * "sizes" every size path, else the path's own name. */
static bool path_selected(const char *sel, const row_path *p)
{
    char words[1024];
    snprintf(words, sizeof words, "%s", sel);
    for (char *save, *w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save))
        if (strcmp(w, "all") == 0 || strcmp(w, p->name) == 0 || (strcmp(w, "sizes") == 0 && p->cut))
            return true;
    return false;
}

static int paths_check(char *err, size_t errsize)
{
    const char *sel = getenv("GELUCHECK_FRAMEWORK_PATHS");
    if (!sel || !*sel) return 0;
    static row_path paths[PATHS_MAX];
    char words[1024], known[2048] = "", version[32];
    snprintf(words, sizeof words, "%s", sel);
    for (char *save, *w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        bool found = strcmp(w, "all") == 0 || strcmp(w, "sizes") == 0;
        for (size_t i = 0; !found && i < ROWS; i++) {
            if (!exec_framework_version(&rows[i], version, sizeof version)) continue;
            int n = list_paths(&rows[i], GELU_FORMAT_BINARY32, paths, PATHS_MAX, err, errsize);
            if (n < 0) return -1;
            for (int k = 0; k < n && !found; k++) found = strcmp(paths[k].name, w) == 0;
            /* a 16-bit dtype's sizes go further (size34 to size65) */
            gelu_format_id f16 = exec_framework_serves(&rows[i], GELU_FORMAT_BINARY16)
                                     ? GELU_FORMAT_BINARY16 : GELU_FORMAT_BINARY32;
            static row_path paths16[PATHS_MAX];
            int n16 = found || f16 == GELU_FORMAT_BINARY32 ? 0
                      : list_paths(&rows[i], f16, paths16, PATHS_MAX, err, errsize);
            if (n16 < 0) return -1;
            for (int k = 0; k < n16 && !found; k++) found = strcmp(paths16[k].name, w) == 0;
            for (int k = 0; k < n; k++)
                if (!strstr(known, paths[k].name) && !paths[k].cut &&
                    strlen(known) + strlen(paths[k].name) + 3 < sizeof known)
                    snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                             known[0] ? ", " : "", paths[k].name);
        }
        if (!found)
            return snprintf(err, errsize, "GELUCHECK_FRAMEWORK_PATHS: '%s' is no installed framework "
                            "row's path (all, sizes, size1 to size33 (size65 in 16-bit dtypes), %s)", w,
                            known[0] ? known : "no framework installed"), -1;
    }
    return 0;
}

int exec_framework_paths_check(char *err, size_t errsize)
{
    static int checked = 1; /* 1: not yet; else paths_check's result, its message kept */
    static char why[600];
    if (checked == 1) checked = paths_check(why, sizeof why);
    if (checked != 0) snprintf(err, errsize, "%s", why);
    return checked;
}

/* Starts the paths of row f that sel selects (path_selected), each named NAME@PATH: a size path
 * as a cut of the row's child when the row runs (exec_impls_add_cut: no process of its own),
 * another an exec child of its own (its client with --path PATH). 0, −1 with err when sel names
 * one path and the client does not list it, or as exec_impls_add and exec_impls_add_cut. */
static int add_paths(const exec_framework *f, const char *sel, gelu_format_id format,
                     double timeout_s, char *err, size_t errsize, char *note, size_t notesize)
{
    if (!sel || !*sel) return 0;
    static row_path paths[PATHS_MAX];
    static char known_as[EXEC_IMPLS_MAX][PATH_WHAT_MAX + 160]; /* the registry keeps pointers */
    static size_t nknown;
    int n = list_paths(f, format, paths, PATHS_MAX, err, errsize);
    if (n < 0) return -1;
    bool one_path = strchr(sel, ',') == NULL && strcmp(sel, "all") != 0 && strcmp(sel, "sizes") != 0;
    int listed = 0;
    for (int k = 0; k < n; k++) listed += path_selected(sel, &paths[k]);
    if (one_path && !listed)
        return snprintf(err, errsize, "%s@%s: %s lists no path '%s'", f->name, sel, f->client, sel), -1;
    for (int k = 0; k < n; k++) {
        char name[EXEC_NAME_MAX + 8], spec[4096];
        snprintf(name, sizeof name, "%s@%.31s", f->name, paths[k].name);
        if (!path_selected(sel, &paths[k]) || gelu_impl_find_in(name, format)) continue;
        if (nknown == EXEC_IMPLS_MAX)
            return snprintf(err, errsize, "%s: more framework paths than exec implementations "
                            "(%d)", name, EXEC_IMPLS_MAX), -1;
        snprintf(known_as[nknown], sizeof known_as[0], "%s; path %s", f->known_as, paths[k].what);
        const gelu_impl *row = gelu_impl_find_in(f->name, format);
        if (paths[k].cut && row) {
            if (exec_impls_add_cut(row, paths[k].cut, name, known_as[nknown++], err, errsize) != 0)
                return -1;
            continue;
        }
        snprintf(spec, sizeof spec, "%s=", name);
        client_command(f, spec + strlen(spec), sizeof spec - strlen(spec));
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), " --path %.31s%s%s", paths[k].name,
                 format == GELU_FORMAT_BINARY32 ? "" : " --format ",
                 format == GELU_FORMAT_BINARY32 ? "" : gelu_format_of(format)->name);
        char one[600];
        int rc = exec_impls_add(spec, GELU_FAMILY_FRAMEWORK, known_as[nknown++], timeout_s, err,
                                errsize, one, sizeof one);
        if (rc != 0) return rc;
        if (one[0] && strlen(note) + strlen(one) + 3 < notesize)
            snprintf(note + strlen(note), notesize - strlen(note), "%s%s", note[0] ? "\n" : "", one);
    }
    return 0;
}

int exec_framework_add(const exec_framework *f, gelu_format_id format, double timeout_s,
                       char *err, size_t errsize, char *note, size_t notesize)
{
    note[0] = '\0';
    bool b32 = format == GELU_FORMAT_BINARY32;
    if (!exec_framework_serves(f, format)) {
        snprintf(err, errsize, "%s: its client serves no %s (16-bit formats: %s)", f->name,
                 gelu_format_of(format)->name, f->formats16[0] ? f->formats16 : "none");
        return -1;
    }
    if (b32 ? gelu_impl_find(f->name) != NULL : gelu_impl_find_in(f->name, format) != NULL) return 0;
    char version[32], py[1024], spec[4096];
    exec_frameworks_python(py, sizeof py);
    if (!exec_framework_version(f, version, sizeof version)) {
        snprintf(err, errsize, "%s: %s (pip package %s) is not installed in %s's environment "
                 "(tools/setup.sh --frameworks installs it)", f->name, f->framework, f->package, py);
        return -1;
    }
    if (exec_framework_paths_check(err, errsize) != 0) return -1;
    snprintf(spec, sizeof spec, "%s=", f->name);
    client_command(f, spec + strlen(spec), sizeof spec - strlen(spec));
    if (!b32) {
        strncat(spec, " --format ", sizeof spec - strlen(spec) - 1);
        strncat(spec, gelu_format_of(format)->name, sizeof spec - strlen(spec) - 1);
    }
    int rc = exec_impls_add(spec, GELU_FAMILY_FRAMEWORK, f->known_as, timeout_s, err, errsize, note,
                            notesize);
    return rc != 0 ? rc : add_paths(f, getenv("GELUCHECK_FRAMEWORK_PATHS"), format, timeout_s,
                                    err, errsize, note, notesize);
}

int exec_framework_add_path(const char *name, gelu_format_id format, double timeout_s, char *err,
                            size_t errsize, char *note, size_t notesize)
{
    char row[EXEC_NAME_MAX + 1];
    const char *at = strchr(name, '@');
    snprintf(row, sizeof row, "%.*s", at ? (int)(at - name) : 0, name);
    const exec_framework *f = at ? exec_framework_find(row) : NULL;
    note[0] = '\0';
    if (!f) return 1;
    if (format != GELU_FORMAT_BINARY32 && !exec_framework_serves(f, format))
        format = GELU_FORMAT_BINARY32; /* widened, as its row */
    char version[32];
    if (!exec_framework_version(f, version, sizeof version))
        return exec_framework_add(f, format, timeout_s, err, errsize, note, notesize); /* says so */
    return add_paths(f, at + 1, format, timeout_s, err, errsize, note, notesize);
}
