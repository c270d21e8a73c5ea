/* Partial result files (scan/partial.h): a shard reads back to the same bits; every header
 * field is range-checked (an edited shard index, an unknown or missing key, another format,
 * another contract); a flipped bit anywhere is refused; counters that break an invariant are
 * refused with the invariant named, even when their checksum is right (the near-tie lists'
 * too: a tampered list is refused). */
#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "partial.h"
#include "scan.h"

extern const gelu_impl gelu_impl_erfc_f64, gelu_impl_tanh_libm;

/* 3 blocks and a bit around x = 1, in 3 shards */
static const float LO = 0x1p0f, HI = 0x1.018p0f;

static scan_result *run_shard(unsigned k, unsigned n)
{
    const gelu_impl *impls[] = {&gelu_impl_erfc_f64, &gelu_impl_tanh_libm};
    scan_config cfg = {.impls = impls, .nimpls = 2, .grad = true, .threads = 1, .shard_k = k,
                       .shard_n = n, .domain = {.kind = DOMAIN_RANGE, .lo = LO, .hi = HI}};
    scan_result *r = calloc(1, sizeof *r);
    const char *error = NULL;
    cr_assert_eq(scan_run(&cfg, r, &error), 0, "%s", error ? error : "");
    return r;
}

typedef struct {
    char *buf;
    size_t len;
} bytes;

static bytes to_bytes(const scan_result *r)
{
    bytes b = {NULL, 0};
    FILE *f = open_memstream(&b.buf, &b.len);
    cr_assert_eq(partial_write(r, f), 0);
    fclose(f);
    return b;
}

static int parse(const bytes *b, scan_result *r, char *err)
{
    int rc = partial_parse(r, (const unsigned char *)b->buf, b->len, err, 512);
    if (rc == 0) rc = scan_result_check(r, false, err, 512);
    return rc;
}

/* Replaces the first `from` by `to` in the header and writes a right checksum (zlib's), as a
 * hand edit that knows the format would. */
static bytes edit(const bytes *b, const char *from, const char *to)
{
    char *at = memmem(b->buf, b->len, from, strlen(from));
    cr_assert_not_null(at, "'%s' not in the file", from);
    bytes e;
    e.len = b->len - strlen(from) + strlen(to);
    e.buf = malloc(e.len + 1);
    size_t pre = (size_t)(at - b->buf);
    memcpy(e.buf, b->buf, pre);
    memcpy(e.buf + pre, to, strlen(to));
    memcpy(e.buf + pre + strlen(to), at + strlen(from), b->len - pre - strlen(from));
    size_t body = e.len - 15; /* "crc32=xxxxxxxx\n" */
    char line[16];
    snprintf(line, sizeof line, "crc32=%08lx", crc32(crc32(0, Z_NULL, 0), (const Bytef *)e.buf, (uInt)body));
    memcpy(e.buf + body, line, 14);
    return e;
}

Test(partial, reads_back_the_same_bits)
{
    scan_result *r = run_shard(1, 3), *back = calloc(1, sizeof *back);
    bytes b = to_bytes(r);
    char err[512];
    cr_assert_eq(parse(&b, back, err), 0, "%s", err);
    cr_expect_eq(back->shard_k, 1);
    cr_expect_eq(back->shard_n, 3);
    cr_expect_eq(back->inputs, r->inputs);
    cr_expect_eq(memcmp(back->metrics, r->metrics, 2 * sizeof r->metrics[0]), 0);
    cr_expect_eq(memcmp(back->refs, r->refs, sizeof r->refs), 0);
    cr_expect_eq(strncmp(b.buf, "gelucheck-partial 2\n", 20), 0);
    free(b.buf);
    scan_result_free(r);
    scan_result_free(back);
}

Test(partial, every_header_field_is_range_checked)
{
    scan_result *r = run_shard(1, 3), *back = calloc(1, sizeof *back);
    bytes b = to_bytes(r);
    static const struct {
        const char *from, *to, *err;
    } cases[] = {
        {"shard=2/3", "shard=5/3", "key 'shard': '5/3' is not K/N with 1 <= K <= N <= 2^20"},
        {"shard=2/3", "shard=99999999/3", "key 'shard': '99999999/3' is not K/N"},
        {"shard=2/3", "shard=0/0", "key 'shard': '0/0' is not K/N"},
        {"shard=2/3", "shard=1/3", "key 'extras': 0, but shard 1/3 has them"},
        {"shard=2/3", "shard=3/3", "inputs, but this shard of this domain has"},
        {"shard=2/3", "shard=2/4", "inputs, but this shard of this domain has"},
        {"inputs=", "inputs=1", "inputs, but this shard of this domain has"},
        {"inputs=", "inputs=-", "key 'inputs': '-"},
        {"grad=1", "grad=2", "key 'grad': '2' is not an integer from 0 to 1"},
        {"grad=1", "grad=01", "key 'grad': '01' is not an integer"},
        {"grad=1\n", "", "key 'grad' is missing"},
        {"grad=1", "grad=1\ncheckpoint.block=7", "unknown key 'checkpoint.block'"},
        {"grad=1", "grad=1\ngrad=1", "key 'grad' appears twice"},
        {"grad=1", "Grad=1", "header line 5: bad character in the key"},
        {"grad=1", "grad 1", "header line 5 is not KEY=VALUE"},
        {"grad=1", "grad=1\x01", "header line 5: non-printable byte in the value"},
        {"domain=range 0x3f800000", "domain=range 0x7fc00000", "key 'domain': 'range 0x7fc00000"},
        {"domain=range 0x3f800000", "domain=range 0x3f900000", "is not a range LO <= HI"},
        {"domain=range", "domain=ranges", "key 'domain': 'ranges"},
        {"impls=2", "impls=100000", "key 'impls': '100000' is not an integer from 1 to "}, /* the registry's size */
        {"impls=2", "impls=1", "unknown key 'impl.2.name'"},
        {"impls=2", "impls=3", "key 'impl.3.name' is missing"},
        {"impl.2.name=tanh_libm", "impl.2.name=made_up", "key 'impl.2.name': 'made_up' is not an implementation of this build"},
        {"impl.2.name=tanh_libm", "impl.2.name=erfc_f64", "key 'impl.2.name': 'erfc_f64' is listed twice"},
        {"impl.2.target=tanh", "impl.2.target=exact", "key 'impl.2.target': 'exact', but tanh_libm's target in this build is 'tanh'"},
        {"monotone=0", "monotone=1", "key 'impl.2.contract': "},
        {"data.bytes=", "data.bytes=1", "where key 'data.bytes' says 1"},
        {"data.bytes=", "data.bytes=99999999999", "key 'data.bytes': '99999999999"},
        {"gelucheck.commit=", "gelucheck.commit=x", "key 'gelucheck.commit': 'x"},
        {"x86_64-le", "x86_64-be", "key 'data.layout': 'x86_64-be refs"},
        {"gelucheck-partial 2", "gelucheck-partial 1", "partial format '1', this gelucheck reads format 2"},
        {"gelucheck-partial 2", "gelucheck-partia 2", "not a gelucheck partial result"},
        {"\nend\n", "\nend \n", "header line longer than 1024 bytes"},
        /* a file from before the near-tie entries kept their outputs (refine would take a
         * zero output's error), and one from before the x buckets' lists (their maxima would
         * be the enclosure's) */
        {"near=32 2048 outputs buckets=2 256", "near=32 2048", "key 'near': '32 2048', but"},
        {"near=32 2048 outputs buckets=2 256", "near=32 2048 outputs",
         "key 'near': '32 2048 outputs', but this gelucheck has '32 2048 outputs buckets=2 256'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bytes e = edit(&b, cases[i].from, cases[i].to);
        char err[512] = "";
        cr_expect_eq(parse(&e, back, err), -1, "case %zu (%s) accepted", i, cases[i].to);
        cr_expect_neq(strstr(err, cases[i].err), NULL, "case %zu: '%s' lacks '%s'", i, err, cases[i].err);
        free(e.buf);
    }
    free(b.buf);
    scan_result_free(r);
    scan_result_free(back);
}

Test(partial, every_flipped_bit_is_refused)
{
    scan_result *r = run_shard(0, 3), *back = calloc(1, sizeof *back);
    bytes b = to_bytes(r);
    char *end = memmem(b.buf, b.len, "\nend\n", 5);
    size_t header = (size_t)(end - b.buf) + 5, tested = 0;
    for (size_t bit = 0; bit < 8 * b.len; bit += bit < 8 * header || bit >= 8 * (b.len - 15) ? 1 : 7) {
        b.buf[bit / 8] ^= (char)(1u << (bit % 8));
        char err[512] = "";
        int rc = parse(&b, back, err);
        b.buf[bit / 8] ^= (char)(1u << (bit % 8));
        cr_assert_eq(rc, -1, "bit %zu of %zu flipped: accepted", bit, 8 * b.len);
        if (bit >= 8 * header && bit < 8 * (b.len - 15))
            cr_assert_neq(strstr(err, "checksum mismatch"), NULL, "bit %zu: %s", bit, err);
        tested++;
    }
    cr_expect_gt(tested, 10000);
    for (size_t len = 0; len < b.len; len += len < header + 64 ? 1 : 997) { /* truncated */
        char err[512] = "";
        bytes t = {b.buf, len};
        cr_assert_eq(parse(&t, back, err), -1, "the first %zu bytes accepted", len);
    }
    free(b.buf);
    scan_result_free(r);
    scan_result_free(back);
}

/* Counters edited with a right checksum: refused by the invariants. */
Test(partial, broken_invariants_are_refused_with_a_right_checksum)
{
    scan_result *r = run_shard(0, 3), *back = calloc(1, sizeof *back), *orig = calloc(1, sizeof *orig);
    cr_assert_eq(scan_result_copy(orig, r), 0);
    static const char *const why[] = {
        "erfc_f64 forward vs own target: the ULP histogram holds",
        "erfc_f64 forward vs own target: 16385 inputs counted where the run has 16384",
        "a count (finite, correctly rounded, criteria) exceeds",
        "tanh_libm derivative vs own target max ULP: maximum nan",
        "tanh_libm forward vs exact max abs: maximum",
        "tanh_libm monotonicity: 3 violations with 11 listed",
        "erfc_f64: 15 special values failed",
        "MPFR fallbacks of",
        "the ULP sum exceeds its cap",
        /* the near-tie lists (scan/near.h) */
        "forward vs own target near ties of the max ULP: an entry's bounds are not an interval",
        "forward vs own target near ties of the max abs: an entry's input is not the one at its position",
        "near ties of the max rel: more entries than the list holds",
        "near ties of the max ULP: an unused entry is not zero",
        "near ties of the max abs: an entry outside the shard's inputs",
        "the normal-weighted sums exceed their bounds",
        /* the x buckets' lists */
        "near ties of x bucket 135's max ULP: an entry's input is in another bucket",
        "near ties of x bucket 136's max abs: entries without a floor, or a floor without entries",
        "near ties of x bucket 136's max ULP: an entry outside the shard's inputs",
        "near ties of x bucket 137's max abs: entries in a bucket without a maximum",
    };
    int xb = x_bucket_of(1.0f); /* 136: [1, 1.125), where shard 1 of 3 lies */
    for (int c = 0; c < 19; c++) {
        cr_assert_eq(scan_result_copy(r, orig), 0);
        error_metrics *e = &r->metrics[0].err[REF_OWN][DIR_FORWARD];
        switch (c) {
        case 0: e->hist[RANGE_CORE][3]++; break;
        case 1: e->count++; break;
        case 2: e->correctly_rounded = e->count + 1; break;
        case 3: r->metrics[1].err[REF_OWN][DIR_DERIVATIVE].max_ulp.value = NAN; break;
        case 4: r->metrics[1].err[REF_EXACT][DIR_FORWARD].max_abs.seq = r->inputs + 5; break;
        case 5: r->metrics[1].mono.violations = 3; r->metrics[1].mono.nlisted = 11; break;
        case 6: r->extras[0].nspecial_failed[0] = 15; break;
        case 7: r->fallbacks[0][0] = r->refs[0][0] + 1; break;
        case 8: e->ulp_sum_hi = UINT64_MAX; break;
        case 9: e->near[ERR_ULP].e[0].lower = e->near[ERR_ULP].e[0].upper * 2 + 1; break;
        case 10: e->near[ERR_ABS].e[0].bits ^= 1; break;
        case 11: e->near[ERR_REL].n = NEAR_MAX + 1; break;
        case 12: e->near[ERR_ULP].e[NEAR_MAX - 1].seq = 7; break;
        case 13: e->near[ERR_ABS].e[0].seq = r->inputs + 1; break;
        case 14: e->dist[DIST_NORMAL].weight = (u128)1 << 91; break;
        case 15: e->x_near[ERR_ULP][xb - 1] = e->x_near[ERR_ULP][xb]; e->x_max_ulp[xb - 1] = 0; break;
        case 16: e->x_near[ERR_ABS][xb].n = 0; memset(e->x_near[ERR_ABS][xb].e, 0, sizeof e->x_near[0][0].e); break;
        case 17: e->x_near[ERR_ULP][xb].e[0].seq = r->inputs + 1; break;
        case 18: e->x_near[ERR_ABS][xb + 1] = e->x_near[ERR_ABS][xb]; break;
        }
        bytes b = to_bytes(r);
        char err[512] = "";
        cr_expect_eq(parse(&b, back, err), -1, "case %d accepted", c);
        cr_expect_neq(strstr(err, why[c]), NULL, "case %d: '%s' lacks '%s'", c, err, why[c]);
        free(b.buf);
    }
    scan_result_free(r);
    scan_result_free(back);
    scan_result_free(orig);
}

Test(partial, merged_shards_must_cover_the_domain)
{
    scan_result *a = run_shard(0, 3), *b = run_shard(1, 3);
    const char *error = NULL;
    char err[512] = "";
    cr_assert_eq(scan_result_merge(a, b, &error), 0);
    cr_expect_eq(scan_result_check(a, true, err, sizeof err), -1);
    cr_expect_neq(strstr(err, "inputs, but the whole of this domain has"), NULL, "%s", err);
    scan_result *c = run_shard(2, 3);
    cr_assert_eq(scan_result_merge(a, c, &error), 0);
    cr_expect_eq(scan_result_check(a, true, err, sizeof err), 0, "%s", err);
    scan_result_free(a);
    scan_result_free(b);
    scan_result_free(c);
}
