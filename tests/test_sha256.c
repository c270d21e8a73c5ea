/* SHA-256 (util/sha256.h) against FIPS 180-4's examples (the one-block, two-block and
 * million-'a' messages, as published in its appendix of examples), fed whole and in uneven
 * pieces, and against a file's digest; one flipped bit gives another digest. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"

Test(sha256, fips_examples)
{
    char hex[65];
    sha256_hex("", 0, hex);
    cr_expect_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha256_hex("abc", 3, hex);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(two, strlen(two), hex);
    cr_expect_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    sha256_ctx c;
    char chunk[997];
    memset(chunk, 'a', sizeof chunk);
    sha256_init(&c);
    for (size_t left = 1000000; left > 0;) { /* uneven pieces across block boundaries */
        size_t n = left < sizeof chunk ? left : sizeof chunk;
        sha256_update(&c, chunk, n);
        left -= n;
    }
    sha256_final_hex(&c, hex);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    char abc[] = "abc";
    abc[1] ^= 1; /* one bit */
    sha256_hex(abc, 3, hex);
    cr_expect_str_neq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(sha256, a_file_and_a_missing_one)
{
    char path[] = "/tmp/gelucheck_sha256_XXXXXX", hex[65];
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "abc", 3), 3);
    close(fd);
    cr_assert_eq(sha256_file(path, hex), 0);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    unlink(path);
    cr_expect_neq(sha256_file(path, hex), 0, "a missing file has no digest");
}
