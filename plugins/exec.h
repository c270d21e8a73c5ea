/* The exec protocol's host side (docs/protocol.md): an implementation that is a child process,
 * started with /bin/sh -c COMMAND, declared by a text handshake, fed inputs and read back in
 * binary requests and replies: over its pipes, or (protocol version 2, `transport shm`) through a
 * shared-memory region the host offers, the pipes then carrying only small frames.
 *
 * Every way a child can misbehave — exit, be killed, close its output, write a short or
 * malformed reply, answer with an error, hang past the timeout — ends the call with −1, the
 * child stopped, and a message naming the child (name and command), what went wrong (exit
 * status or signal, bytes expected and received, the timeout) and the request. Writes to a dead
 * child give that message, never a SIGPIPE. Library code: nothing printed.
 *
 * One call at a time per child (a mutex serialises callers); a scan with several threads runs
 * one child per thread for throughput. */
#ifndef GELUCHECK_EXEC_H
#define GELUCHECK_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec_handshake.h"
#include "gelu_fpenv.h"
#include "gelu_impl.h"

typedef struct exec_child exec_child;

/* Starts COMMAND and reads its handshake (at most timeout_s seconds). NULL with the reason in
 * err (the child stopped). exec_start offers the child a shared-memory region (when the kernel
 * can make one: memfd_create); exec_start_transport(..., false, ...) offers none (a child that
 * then announces `transport shm` is refused). */
exec_child *exec_start(const char *command, double timeout_s, char *err, size_t errsize);
exec_child *exec_start_transport(const char *command, double timeout_s, bool offer_shm, char *err,
                                 size_t errsize);
/* The same, the child asked to run its kernels in floating-point environment `asked` (the
 * variable GELUCHECK_EXEC_FPENV names it; the others ask for IEEE's): a child whose `fpenv` line
 * does not list it is refused (NULL, err naming the child, what was asked and what it lists),
 * except that one asked for IEEE's runs in the first environment it lists (exec_fpenv_runs_in). */
exec_child *exec_start_env(const char *command, double timeout_s, bool offer_shm, gelu_fpenv asked,
                           char *err, size_t errsize);
const exec_handshake *exec_info(const exec_child *c);
/* y[i] = f(x[i]) (grad: f'(x[i])) for i < n, from the child; *kernel_ns (when not NULL) gets
 * the child's own time for the call, 0 when it does not time. 0, or −1 with err: the child is
 * stopped then, and every later call fails at once with the same message. Over shared memory y
 * is written only from a reply found valid: a failed call leaves it as it was. */
int exec_eval(exec_child *c, bool grad, const float *x, float *y, size_t n, uint64_t *kernel_ns,
              char *err, size_t errsize);
/* The same for a child of a 16-bit format (bfloat16, binary16): encodings in and out. Each of
 * the two refuses (−1, the child stopped) a child of the other storage size. */
int exec_eval_u16(exec_child *c, bool grad, const uint16_t *x, uint16_t *y, size_t n,
                  uint64_t *kernel_ns, char *err, size_t errsize);
/* The same in the child's own format, whatever it is: values of its storage size (2, 4 or 8
 * bytes; binary64: at most EXEC_MAX_COUNT / 2 a request). */
int exec_eval_any(exec_child *c, bool grad, const void *x, void *y, size_t n, uint64_t *kernel_ns,
                  char *err, size_t errsize);
/* The same, the child asked to compute the inputs as tensors of `cut` elements, one call each,
 * input k at position k mod cut (docs/protocol.md, "Cuts"); 0: as one tensor (exec_eval_any).
 * A cut to a child whose handshake has no 'cuts yes', or over EXEC_CUT_MAX: −1, the child
 * stopped. */
int exec_eval_cut(exec_child *c, bool grad, uint32_t cut, const void *x, void *y, size_t n,
                  uint64_t *kernel_ns, char *err, size_t errsize);
/* Asks the child to end (shutdown request, end of its input), waits a short grace, kills it if
 * it is still there, and frees c. */
void exec_stop(exec_child *c);

/* Untrusted one-line text (an origin) made safe for a terminal, a CSV or a page: every control
 * byte (below 0x20, 0x7f) becomes '?'; in place. */
void exec_sanitize_text(char *s);

/* Whether a name is one the protocol allows ([A-Za-z][A-Za-z0-9_]{0,47}). */
bool exec_name_ok(const char *name);

#endif
