/* SHA-256 (FIPS 180-4) of bytes and of files: the identity of code a run depends on (a
 * plugin's .so, an exec child's command and handshake) and of files a manifest names.
 * Library code: errors returned, nothing printed. */
#ifndef GELUCHECK_SHA256_H
#define GELUCHECK_SHA256_H

#include <stddef.h>
#include <stdint.h>

enum { SHA256_BYTES = 32, SHA256_HEX = 2 * SHA256_BYTES + 1 /* with the '\0' */ };

typedef struct {
    uint32_t h[8];
    uint64_t length;           /* bytes hashed so far */
    unsigned char block[64];   /* the block being filled */
    size_t used;               /* bytes of it filled */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
/* The digest as 64 lowercase hex digits and a '\0' into hex (SHA256_HEX bytes). */
void sha256_final_hex(sha256_ctx *c, char hex[SHA256_HEX]);
/* The digest of n bytes at data, in hex. */
void sha256_hex(const void *data, size_t n, char hex[SHA256_HEX]);
/* The digest of the regular file at path (its bytes as read now), in hex. 0, or −1 with errno
 * set (EISDIR for a directory, EINVAL for anything else that is not a regular file: a FIFO or a
 * device, which could be read forever). */
int sha256_file(const char *path, char hex[SHA256_HEX]);
/* The same for an open descriptor, read from its current offset to its end. */
int sha256_fd(int fd, char hex[SHA256_HEX]);

#endif
