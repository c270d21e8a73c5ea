/* A plugin's description read in a process of its own: gelucheck-plugin-host --describe
 * (plugin_host.c) loads the plugin and writes its description as text (plugin_fields.h); this
 * side parses it into the ABI's structures, so that gelucheck checks and registers a plugin's
 * rows without running any of its code — a plugin whose loading, gelucheck_plugin_v1 or
 * dispatched_isa crashes, aborts, exits or hangs is named, and gelucheck lives on. Library
 * code: errors as text. */
#ifndef GELUCHECK_PLUGIN_DESCRIBE_H
#define GELUCHECK_PLUGIN_DESCRIBE_H

#include <stddef.h>

#include "gelucheck/plugin.h"

typedef struct {
    gelucheck_plugin_info_v1 info; /* info.impls: rows, or NULL when the plugin gave none */
    gelucheck_impl_v1 rows[64];
    /* A row's kernels are placeholders that must never be called (the rows run in their own
     * processes), set where the plugin's were set; its dispatched_isa is NULL and its answer
     * is here (NULL: the plugin has no dispatched_isa). */
    const char *dispatched_isa[64];
    const char *left_out; /* gelucheck_plugin_left_out_v1's answer, NULL when none */
} plugin_description;

/* Runs `host --describe path` (at most timeout_s seconds) and parses what it writes into *d
 * (strings allocated for the run). 0, or −1 with err naming the plugin and why: its refusal
 * (not loadable, no entry point, NULL), the host's end (a signal, an exit status: "while
 * loading it or in gelucheck_plugin_v1"), a timeout, or a malformed description. */
int plugin_describe(const char *host, const char *path, double timeout_s, plugin_description *d,
                    char *err, size_t errsize);

/* Parses a description's text (NUL-terminated, modified) into *d; 0, −1 with the line at fault
 * in err, or 1 when it is the host's refusal (err: its message). On −1 and 1 *d holds nothing
 * allocated. */
int plugin_description_parse(char *text, plugin_description *d, char *err, size_t errsize);
/* Frees d's strings (gelucheck keeps a plugin's for the run; tests and the fuzzer do not). */
void plugin_description_free(plugin_description *d);

#endif
