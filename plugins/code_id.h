/* The identity of the code behind a registry row, for what must not survive a change of it
 * (a checkpoint: cli/chunked_scan.c's checkpoint.id):
 *
 *   plugin-sha256:HEX   a plugin's row (default peers too): SHA-256 of its .so as loaded
 *   exec-sha256:HEX     an exec child's row: SHA-256 of its command line and its handshake
 *   build-id:HEX        a built-in row: this executable's GNU build-id note
 *   exe-sha256:HEX      a built-in row, when the executable carries no build-id note
 *
 * Library code: errors returned. */
#ifndef GELUCHECK_CODE_ID_H
#define GELUCHECK_CODE_ID_H

#include <stddef.h>

#include "gelu_impl.h"

/* The row's identity into buf. 0, or −1 with the reason in buf (the executable unreadable). */
int impl_code_id(const gelu_impl *impl, char *buf, size_t size);

#endif
