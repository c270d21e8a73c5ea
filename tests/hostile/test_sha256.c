/* util/sha256.c against FIPS 180-4's examples (and a file read in pieces). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"

Test(sha256, fips_examples)
{
    char hex[SHA256_HEX];
    sha256_hex("abc", 3, hex);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(two, strlen(two), hex);
    cr_expect_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    sha256_hex("", 0, hex);
    cr_expect_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

Test(sha256, a_million_a_in_pieces_and_as_a_file)
{
    char hex[SHA256_HEX], path[] = "/tmp/gelucheck-sha256-XXXXXX";
    static char a[1000000];
    memset(a, 'a', sizeof a);
    sha256_ctx c;
    sha256_init(&c);
    for (size_t done = 0; done < sizeof a; done += 777) /* pieces across block boundaries */
        sha256_update(&c, a + done, sizeof a - done < 777 ? sizeof a - done : 777);
    sha256_final_hex(&c, hex);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert(write(fd, a, sizeof a) == (ssize_t)sizeof a);
    close(fd);
    cr_assert(sha256_file(path, hex) == 0);
    unlink(path);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    cr_expect(sha256_file("/nonexistent/gelucheck", hex) == -1);
}
