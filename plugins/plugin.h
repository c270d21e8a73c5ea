/* Shared-library plugins (include/gelucheck/plugin.h) loaded into the registry: `--plugin
 * FILE.so` and GELUCHECK_PLUGINS. Each described implementation is checked field by field and
 * added (gelu_impl_add); its kernels run behind a thin wrapper that remembers, per thread, which
 * plugin kernel is running and on which inputs, so that a kernel that crashes (SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL; SIGABRT: an abort or a failed assert; a write past its outputs reaching the
 * scan's guard page), calls _exit or exit, or runs past the call timeout (a watchdog thread) is
 * reported as such (the plugin, the implementation, the call) before the process ends with
 * status 1 — output files are written atomically, so the user's previous outputs survive. The
 * plugin runs in this process: a kernel that kills it (SIGKILL, a raw exit system call) or
 * corrupts its memory cannot be contained — unless the plugin is loaded for its own processes
 * (plugins_load's own_process, plugins_isolate: the default), where none of its code runs
 * here. Library code: errors as text. */
#ifndef GELUCHECK_PLUGIN_LOADER_H
#define GELUCHECK_PLUGIN_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "gelu_impl.h"

/* Rows of every plugin loaded, the default peers' included: room for a plugin's 64 (the ABI's
 * limit) beside the peers and others. */
enum { PLUGIN_IMPLS_MAX = 120 };

/* Loads the plugin at path and adds its implementations. own_process: none of its code runs in
 * this process — its description is read by gelucheck-plugin-host --describe (plugin_describe.h,
 * at most timeout_s seconds) and its rows are to be run there (plugins_isolate). 0, or −1 with
 * err naming the file and the field at fault (or how its description failed). */
int plugins_load(const char *path, bool own_process, double timeout_s, char *err, size_t errsize);
/* Loads the default peers, the plugins of peers/ this build made (GSL, SLEEF, oneDNN; their
 * implementations follow the built-in ones, in that order): from the build tree's peers/ when
 * the executable is in the build tree, else from the install's libdir/gelucheck, or from
 * GELUCHECK_PEERS_DIR when that is set (a relocated install; tests). A peer whose
 * file is absent is skipped (plugins_default_peer says so); one that cannot be loaded is an
 * error naming it. Nothing when GELUCHECK_NO_DEFAULT_PEERS is set (other than "" or "0") or
 * when already done. 0, or −1 with err. */
int plugins_load_default_peers(char *err, size_t errsize);
/* The default peers looked for, in order: name ("gsl"), with its file and whether it loaded;
 * NULL past the end. */
size_t plugins_default_peer_count(void);
const char *plugins_default_peer(size_t i, const char **path, bool *loaded);
/* What the i-th plugin that said so left out in this process, in its words
 * (gelucheck_plugin_left_out_v1), and *source its "plugin 'PATH'" or "default peer 'PATH'";
 * NULL past the end. */
const char *plugins_left_out(size_t i, const char **source);
/* The SHA-256 (hex) of the file a plugin's implementation was loaded from; NULL for any other
 * implementation. */
const char *plugins_sha256(const gelu_impl *impl);
/* Whether an implementation comes from a default peer. */
bool plugins_is_default_peer(const gelu_impl *impl);
/* Bounds every plugin kernel call (default 60 s; --exec-timeout): a call running longer ends
 * the process with status 1, naming the plugin, the implementation and the call. */
void plugins_set_call_timeout(double seconds);
/* Runs the kernels of every plugin row loaded so far, of every format — not the default
 * peers' — in processes of their own: children of
 * gelucheck-plugin-host (plugin_host.c) speaking the exec protocol (exec_impl.h's hosted rows),
 * each row's registry entry unchanged but for its kernels (2^16 inputs a call, the child's own
 * kernel time for bench). A kernel that crashes, aborts, exits, hangs past timeout_s, writes
 * into its inputs or past its outputs, or leaves the floating-point state changed then ends
 * its row's calls with a failure (exec_impls_failure) naming the plugin, the row and the
 * request; this process lives on. 0, or −1 with err (the host program missing, or a child
 * that did not start). */
int plugins_isolate(double timeout_s, char *err, size_t errsize);
/* Called by the crash report before the process exits (the CLI removes its temporary files);
 * must be async-signal-safe. */
void plugins_set_crash_hook(void (*hook)(void));

#endif
