/* Exec children as implementations (`--exec NAME=COMMAND`, docs/protocol.md): each becomes a
 * registry entry (gelu_impl_add) whose kernels send their inputs to a child and read the
 * outputs back, like any other implementation to the scan, the gate, eval and the reports.
 *
 * A kernel has no way to fail, so a child's failure during a run is recorded (the first one,
 * naming the child and the request) and the kernel's outputs are NaN from then on; every command
 * that runs kernels asks exec_impls_failure() before it prints a verdict or writes a file, and
 * exits 1 with the message instead. Threads: each calling thread gets a child of its own (started
 * on first use, up to EXEC_CHILDREN_MAX per implementation), so that a 2-thread scan keeps two
 * children busy. */
#ifndef GELUCHECK_EXEC_IMPL_H
#define GELUCHECK_EXEC_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gelu_fpenv.h"
#include "gelu_impl.h"

/* EXEC_BATCH_INPUTS: the inputs per request the scan sends (16 blocks): over the pipes the
 * protocol's CPU cost per input is lowest from 2^14 to 2^16 inputs a request; over shared memory
 * 2^16 is within the 2 ns/input goal (0.9–1.3 ns; 0.6–0.9 at 2^18): tests/test_exec.c's
 * overhead_per_input (docs/plugins.md, "The exec protocol's cost"). EXEC_IMPLS_MAX: room for
 * the frameworks' rows with their paths (exec_frameworks.h). */
enum { EXEC_IMPLS_MAX = 2000, EXEC_CHILDREN_MAX = 64, EXEC_BATCH_INPUTS = 1 << 16 };
/* EXEC_HOSTED_MAX: hosted rows (below), as many as plugin.h's PLUGIN_IMPLS_MAX */
enum { EXEC_HOSTED_MAX = 120 };

/* Starts "NAME=COMMAND"'s child, checks its handshake (its name must be NAME; "COMMAND" alone,
 * with no '=' before its first space: the handshake's name is taken) and adds it to
 * the registry (with no derivative kernel when it declares 'derivative no': forward only). 0,
 * −1 with err (bad spec, the child failed to start or declared a bad handshake, a name taken),
 * or −2 with err when the child failed answering the batching probe's requests (exit 1, as a
 * failure during a scan). Then probes whether the child's
 * outputs depend on how inputs are batched: the same 1,024 inputs, spread over the binades of
 * both signs, in one request against requests of 1, 13 and 1,000 inputs (sizes and offsets
 * that move vector tails), each direction it has. When they do, note (not an error: the child's
 * property, which the scan's figures then carry for its batches) names the first such input
 * and both outputs; else "". The finding is the registry entry's batch_dependence. Its
 * family and known_as (gelu_impl.h) are the caller's: a framework's row says so. */
int exec_impls_add(const char *spec, gelu_family family, const char *known_as, double timeout_s,
                   char *err, size_t errsize, char *note, size_t notesize);
/* Adds `name`, row (an exec child's entry whose handshake says 'cuts yes') computed as tensors
 * of `cut` elements: its requests go to row's children asking for that size (docs/protocol.md,
 * "Cuts": a framework's size path served by its row's child, no process of its own); its
 * handshake, contract and kernels' format are row's, its origin row's with the size, its
 * known_as the caller's (NULL: row's; the registry keeps the pointer). 0, or −1 with err (not
 * such a row, a size out of 1 .. EXEC_CUT_MAX, no room, a name taken). */
int exec_impls_add_cut(const gelu_impl *row, uint32_t cut, const char *name, const char *known_as,
                       char *err, size_t errsize);
/* Stops impl's idle children (a cut's: its row's), so that a run that has done with it holds
 * no process for it; later calls start new ones. Nothing for another implementation. */
void exec_impls_release(const gelu_impl *impl);
/* Whether impl is an exec child's registry entry (its kernels run in another process, which
 * this process's floating-point environment does not reach: the child is asked for it). */
bool exec_impls_owns(const gelu_impl *impl);
/* Whether impl (when an exec child's entry; true for any other) runs its kernels in floating-
 * point environment `asked` (its handshake's `fpenv` line lists it; IEEE's: always, a child that
 * lists no IEEE then running in the first one it lists, gelu_impl.fixed_fpenv). false with the
 * reason in why (what the child's handshake lists). */
bool exec_impls_fpenv_ok(const gelu_impl *impl, gelu_fpenv asked, char *why, size_t size);
/* The environments an exec child's entry runs in when asked ("ieee ftz+daz": its `fpenv` line,
 * the first it listed first; "ieee" without one) into buf; NULL for any other implementation. */
const char *exec_impls_fpenv_list(const gelu_impl *impl, char *buf, size_t size);
/* From now on every child is started asked for environment `asked` (GELUCHECK_EXEC_FPENV):
 * idle children that would run in another are stopped (the ones of the batching probe, asked
 * for IEEE's). Before the kernels run, after exec_impls_fpenv_ok. */
void exec_impls_use_fpenv(gelu_fpenv asked);
/* The SHA-256 (hex) of an exec child's command line and handshake (code_id.h); NULL for any
 * other implementation. */
const char *exec_impls_sha256(const gelu_impl *impl);
/* The first failure of a child while kernels ran; NULL when none. */
const char *exec_impls_failure(void);
/* Stops every child. */
void exec_impls_stop(void);

/* A hosted row: an implementation whose registry entry is another module's (a plugin's row,
 * plugins/plugin.c) and whose kernels run in children of COMMAND speaking the exec protocol
 * (gelucheck-plugin-host). Starts one child and checks that its handshake declares row's name,
 * target, format and derivative; its children then live as --exec's do (one per calling
 * thread, the timeout, the floating-point environment asked, exec_impls_stop), and a failure
 * is exec_impls_failure's, told as "LABEL: ...". The handle (>= 0), or -1 with err. */
int exec_hosted_add(const char *command, const char *label, const gelu_impl *row,
                    double timeout_s, char *err, size_t errsize);
/* y[i] = the row's forward (grad: derivative) at x[i], in its format's storage (binary32, or a
 * 16-bit format's encodings); NaN outputs after a failure (exec_impls_failure says it). */
void exec_hosted_run(int handle, bool grad, const void *x, void *y, size_t n);
/* The kernel time the row's children reported, summed (its own_time_ns). */
uint64_t exec_hosted_time_ns(int handle);

#endif
