/* Shared-library plugins (include/gelucheck/plugin.h) loaded into the registry: `--plugin
 * FILE.so` and GELUCHECK_PLUGINS. Each described implementation is checked field by field and
 * added (gelu_impl_add); its kernels run behind a thin wrapper that remembers, per thread, which
 * plugin kernel is running and on which inputs, so that a crash inside one is reported as such
 * (the plugin, the implementation, the call) before the process ends with status 1 — output
 * files are written atomically, so the user's previous outputs survive. Library code: errors as
 * text. */
#ifndef GELUCHECK_PLUGIN_LOADER_H
#define GELUCHECK_PLUGIN_LOADER_H

#include <stddef.h>

enum { PLUGIN_IMPLS_MAX = 32 };

/* Loads the plugin at path and adds its implementations. 0, or −1 with err naming the file
 * and the field at fault. */
int plugins_load(const char *path, char *err, size_t errsize);
/* Called by the crash report before the process exits (the CLI removes its temporary files);
 * must be async-signal-safe. */
void plugins_set_crash_hook(void (*hook)(void));

#endif
