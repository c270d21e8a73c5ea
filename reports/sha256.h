/* SHA-256 (FIPS 180-4) of a byte stream or a file: the fingerprint the run manifest records for
 * each plugin it loaded (manifest.h) and the checkpoint code for its files. Checked against
 * FIPS 180-4's examples and sha256sum (tests/test_sha256.c). Library code: errors as text. */
#ifndef GELUCHECK_SHA256_H
#define GELUCHECK_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t bytes;        /* fed so far */
    unsigned char block[64];
    size_t used;           /* bytes of block filled */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
void sha256_final(sha256_ctx *c, uint8_t digest[32]);

/* The digest of data[0..n) as 64 lower-case hex digits and a NUL into hex. */
void sha256_hex(const void *data, size_t n, char hex[65]);
/* The digest of the file at path, likewise. 0, or −1 with err naming the file. */
int sha256_file_hex(const char *path, char hex[65], char *err, size_t errsize);

#endif
