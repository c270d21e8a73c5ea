/* The frameworks' GELUs registered by default (exec_frameworks.h). */
#include "exec_frameworks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
 * tensors of that type). Versions pinned in tools/frameworks.txt. ONNX Runtime's CPU provider
 * has no bfloat16 kernel for these operators (peers/onnxruntime_gelu.py). */
#define B16 "bfloat16 binary16"
static const exec_framework rows[] = {
    {"torch_gelu", "PyTorch", "torch", "torch_gelu.py", "--approximate none", "exact", true, B16},
    {"torch_gelu_tanh", "PyTorch", "torch", "torch_gelu.py", "--approximate tanh", "tanh", true, B16},
    {"tf_gelu", "TensorFlow", "tensorflow-cpu", "tensorflow_gelu.py", "", "exact", true, B16},
    {"tf_gelu_tanh", "TensorFlow", "tensorflow-cpu", "tensorflow_gelu.py", "--approximate", "tanh", true, B16},
    {"jax_gelu", "JAX", "jax", "jax_gelu.py", "", "exact", true, B16},
    {"jax_gelu_tanh", "JAX", "jax", "jax_gelu.py", "--approximate", "tanh", true, B16},
    {"ort_gelu", "ONNX Runtime", "onnxruntime", "onnxruntime_gelu.py", "--op gelu", "exact", false, "binary16"},
    {"ort_gelu_tanh", "ONNX Runtime", "onnxruntime", "onnxruntime_gelu.py", "--op gelu_tanh", "tanh", false, "binary16"},
    {"ort_ms_gelu", "ONNX Runtime", "onnxruntime", "onnxruntime_gelu.py", "--op ms_gelu", "exact", false, "binary16"},
    {"ort_ms_fastgelu", "ONNX Runtime", "onnxruntime", "onnxruntime_gelu.py", "--op ms_fastgelu", "tanh", false, "binary16"},
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
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (cache && *cache) snprintf(buf, size, "%s/gelucheck/venv/bin/python", cache);
    else snprintf(buf, size, "%s/.cache/gelucheck/venv/bin/python", home ? home : "");
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
    char version[32], py[1024], client[1024], spec[4096];
    exec_frameworks_python(py, sizeof py);
    if (!exec_framework_version(f, version, sizeof version)) {
        snprintf(err, errsize, "%s: %s (pip package %s) is not installed in %s's environment "
                 "(tools/setup.sh --frameworks installs it)", f->name, f->framework, f->package, py);
        return -1;
    }
    snprintf(spec, sizeof spec, "%s=", f->name);
    sh_quote(spec, sizeof spec, py);
    strncat(spec, " ", sizeof spec - strlen(spec) - 1);
    sh_quote(spec, sizeof spec, client_path(f, client, sizeof client));
    if (f->args[0]) {
        strncat(spec, " ", sizeof spec - strlen(spec) - 1);
        strncat(spec, f->args, sizeof spec - strlen(spec) - 1);
    }
    if (!b32) {
        strncat(spec, " --format ", sizeof spec - strlen(spec) - 1);
        strncat(spec, gelu_format_of(format)->name, sizeof spec - strlen(spec) - 1);
    }
    return exec_impls_add(spec, timeout_s, err, errsize, note, notesize);
}
