/* Partial result files (a shard of a sharded accuracy run, read back by `gelucheck merge`):
 * a self-describing, versioned text header, the result's counters as bytes, and a checksum.
 *
 *   gelucheck-partial 2                      format line: the format's version
 *   gelucheck.version=0.1.0                  key=value lines, one key each, in any order
 *   gelucheck.commit=<commit>
 *   domain=all | range 0x3f800000 0x40000000 | sample 1000000 1   (range: encodings; sample: n seed)
 *   grad=0|1
 *   shard=1/3                                1-based, as on the command line
 *   fpenv=ftz+daz                            the kernels' environment (gelu_fpenv.h); absent: ieee
 *   inputs=1431655765
 *   extras=0|1                               special values and consistency (shard 1 only)
 *   impls=2
 *   impl.1.name=erfc_f64                     impl.1 .. impl.N
 *   impl.1.target=exact
 *   impl.1.contract=max_ulp=0x1p+0 max_abs=... monotone=1 specials=1 grad_max_ulp=... grad_max_abs=...
 *   near=32 2048 outputs buckets=2 256       near-tie lists: capacity, MPFR budget (near.h),
 *                                            then the x buckets' lists' capacity and budget
 *   dist=normal(0,1) uniform[-10,10) weight=2^-70 ulp=2^-27   weighted sums (metrics.h)
 *   data.layout=x86_64-le refs=160 row=8512 metrics=192 extras=368
 *   data.bytes=44672
 *   end
 *   <data.bytes bytes: refs, fallbacks, the metrics' rows (each up to its x buckets' lists) and
 *    the rest per implementation, extras[impls] as this build lays them out, then every x
 *    bucket's list as only what it holds (partial.c)>
 *   crc32=HEX8                               zlib's CRC-32 of every byte before this line
 *
 * Reading checks, in order: the format line; every key's syntax and range (unknown and missing
 * keys are errors); the implementations and their contracts against this build; the data's
 * size; the checksum; then the counters' invariants (scan_result_check). A file that fails any
 * of them is refused with the key (or invariant) named.
 *
 * Extending the format (plugins, number formats, checkpoints): add keys under a new prefix
 * (`plugin.1.sha256=…`, `format=binary32`, `checkpoint.next_block=…`) and read them in
 * partial.c beside the others. A reader refuses keys it does not know, so an older gelucheck
 * never merges a file whose meaning it cannot see; bump PARTIAL_FORMAT when an existing key
 * changes meaning or the data's layout changes in a way data.layout does not show. A
 * checkpoint (counters of a shard's first blocks only) needs its key to name the blocks it
 * covers, and scan_result_check to take that span instead of the whole shard's (the inputs,
 * and every argmax position, are checked against the span).
 *
 * Library code: errors are returned as text, nothing printed. */
#ifndef GELUCHECK_PARTIAL_H
#define GELUCHECK_PARTIAL_H

#include <stddef.h>
#include <stdio.h>

#include "scan.h"

enum { PARTIAL_FORMAT = 2 };

/* The domain as the header's domain= value ("all", "range 0xLO 0xHI", "sample N SEED"). */
void partial_domain_text(const scan_domain *d, char *buf, size_t size);

/* Writes r to f. 0, or −1 on a write error (errno set). */
int partial_write(const scan_result *r, FILE *f);

/* Parses a whole partial file held in buf[0..len). 0, or −1 with err naming the key or
 * invariant at fault. */
int partial_parse(scan_result *r, const unsigned char *buf, size_t len, char *err,
                  size_t errsize);
/* Reads the file at f (at most the size a partial listing every implementation of this build
 * can have) and parses it. 0, or −1 with err. Both allocate r's arrays (r zeroed or allocated
 * before; scan_result_release after). */
int partial_read(scan_result *r, FILE *f, char *err, size_t errsize);

/* The invariants of a result (one shard, or shards merged): every row counts the inputs it
 * should (histograms sum to them), counts and argmax positions stay within the shard's inputs,
 * maxima are not NaN, lists are within their bounds. 0, or −1 with the first violation in err.
 * With `whole`, the result must also cover the whole domain. */
int scan_result_check(const scan_result *r, bool whole, char *err, size_t errsize);

/* The message fmt into err (errsize bytes); returns -1: the readers' and checks' failure path. */
int partial_fail(char *err, size_t errsize, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
