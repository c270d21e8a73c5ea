/* The frameworks' GELUs, registered by default: one row per implementation a framework's
 * Python client in peers/ serves over the exec protocol (docs/protocol.md), run by the Python
 * of the frameworks' virtual environment that `tools/setup.sh --frameworks` makes
 * (${XDG_CACHE_HOME:-$HOME/.cache}/gelucheck/venv, outside the clone).
 *
 * A row costs nothing until it is used: `list` shows every row with the installed version of
 * its package (one Python run reads them all, without importing any framework), or "not
 * installed" when the environment or the package is absent — not an error. A row is started (an
 * exec child, exec_impl.h) when a command names it (--impl NAME) or with --frameworks (every
 * installed row); the child's handshake then gives its contract and origin, and the batching
 * probe its batch independence. Library code: nothing printed. */
#ifndef GELUCHECK_EXEC_FRAMEWORKS_H
#define GELUCHECK_EXEC_FRAMEWORKS_H

#include <stdbool.h>
#include <stddef.h>

#include "gelu_format.h"

typedef struct {
    const char *name;      /* the implementation's name, as its client declares it */
    const char *framework; /* "PyTorch" */
    const char *package;   /* the pip distribution whose version is shown: "torch" */
    const char *client;    /* the client in peers/: "torch_gelu.py" */
    const char *args;      /* the client's arguments for this row */
    const char *target;    /* what its outputs approximate */
    bool derivative;       /* false: forward only (inference) */
    /* The 16-bit formats its client also serves natively, space-separated ("bfloat16
     * binary16"; "" none): started with --format F, the framework's GELU on tensors of that
     * type, an implementation of that format of the same name (gelu_cr16.h's list). */
    const char *formats16;
    const char *known_as; /* the framework's own name for it (the report's known_as) */
} exec_framework;

size_t exec_framework_count(void);
const exec_framework *exec_framework_at(size_t i);
/* NULL when no row has that name. */
const exec_framework *exec_framework_find(const char *name);

/* The environment's Python ("…/gelucheck/venv/bin/python") into buf. */
const char *exec_frameworks_python(char *buf, size_t size);
/* The installed version of the row's package into buf ("2.15.0"); NULL when the environment or
 * the package is absent (the versions are read once per process). */
const char *exec_framework_version(const exec_framework *f, char *buf, size_t size);

/* Whether the row's client serves `format` (binary32: every row). */
bool exec_framework_serves(const exec_framework *f, gelu_format_id format);
/* GELUCHECK_FRAMEWORK_PATHS (a row's paths, peers/framework_paths.py: "all", "sizes", or path
 * names, comma-separated; unset or empty: none) checked once against the installed clients'
 * lists: 0, or −1 with err naming a word no client lists. */
int exec_framework_paths_check(char *err, size_t errsize);
/* Starts the row's client in `format` as an exec child (exec_impls_add; a 16-bit format: the
 * client's --format F, the child joining that format's list), unless an implementation of that
 * name and format is there already; then the row's paths GELUCHECK_FRAMEWORK_PATHS selects,
 * each named NAME@PATH: a size path a cut of the row's child (exec_impls_add_cut), another a
 * child of its own (its client with --path PATH). 0, or −1 with err (a format it
 * does not serve; not installed: what to run; a bad path selection; the child failed); note as
 * exec_impls_add's (the paths' notes on lines of their own). */
int exec_framework_add(const exec_framework *f, gelu_format_id format, double timeout_s,
                       char *err, size_t errsize, char *note, size_t notesize);
/* Starts path PATH of a row named "ROW@PATH" (the row's client with --path PATH, in `format`
 * where it serves it, else binary32), whatever GELUCHECK_FRAMEWORK_PATHS says. 1 when name is no
 * framework row's path (no '@', or ROW no row), else as exec_framework_add. */
int exec_framework_add_path(const char *name, gelu_format_id format, double timeout_s, char *err,
                            size_t errsize, char *note, size_t notesize);

#endif
