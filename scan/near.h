/* Near ties of a maximum: the inputs whose true error could be a row's maximum.
 *
 * The scan computes each error against the fast reference, whose value lies within a known
 * bound of the exact one (1e-3 ULP wherever the enclosure decides, fast.h; see
 * near_tolerance.h for the regions with other bounds). So each input has an interval [lower,
 * upper] that holds its true error. The floor is the largest lower bound over the inputs seen:
 * the true maximum is at least that, so only inputs whose upper bound reaches the floor can be
 * the maximum. An input is dropped when another one is certainly above it (its lower bound
 * exceeds this one's upper bound) or certainly at least as large and earlier in the domain (the
 * maximum's input is the first one reaching it). What is left is the list: every input that
 * could be the maximum or its first input, sorted by upper bound (descending), then position.
 *
 * Order independence: without overflow, the list is a function of the set of inputs alone
 * (the floor is a maximum; dropping is a relation between two inputs, transitive, and a
 * dropper always stays or is itself dropped by a third input that drops the same ones), so
 * lists merged in any order, from threads, blocks or shards, are the same bits.
 *
 * Bounded: NEAR_MAX entries. When an input arrives at a full list, every entry is resolved: its
 * error evaluated with MPFR (the resolver), so its interval becomes one point; the best resolved
 * entry then drops every other resolved one, and the list has room again. The count of resolved
 * entries is kept (`resolved`, shown by --profile); after an overflow the list's bits (not the
 * maximum refine.c takes from it) may depend on the order of the merges. The MPFR work is
 * bounded too: past NEAR_BUDGET resolved entries, a full list drops its last entry (the lowest
 * upper bound) instead and keeps the largest upper bound it dropped (`dropped`): the maximum is
 * then known only to lie below that, which refine.h reports and the gate takes into account
 * (a region where every error is below the fast reference's tolerance, such as a --range of
 * inputs whose outputs are all correctly rounded and far from a midpoint). */
#ifndef GELUCHECK_NEAR_H
#define GELUCHECK_NEAR_H

#include <stdbool.h>
#include <stdint.h>

enum { NEAR_MAX = 32, NEAR_BUDGET = 2048 };

/* The lists of the x buckets' maxima (metrics.h's error by x): one per bucket, row and kind
 * (ULP, absolute), each as above with room for NEAR_BUCKET_MAX entries and NEAR_BUCKET_BUDGET
 * MPFR resolutions. Most buckets hold one input clearly above the others (the list's one
 * entry) or none; two entries are room for a near tie without a resolution. */
enum { NEAR_BUCKET_MAX = 2, NEAR_BUCKET_BUDGET = 256 };

typedef struct {
    double lower, upper; /* the true error lies in [lower, upper]; equal when exact */
    uint64_t seq;        /* position in the domain */
    uint32_t bits;       /* the input's encoding */
    uint32_t out;        /* the encoding of the output the scan judged there: what the error is
                          * of (a kernel whose output depends on the call's batch gives another
                          * one alone, so it is never evaluated again) */
} near_entry;

typedef struct {
    double floor;      /* the largest lower bound seen; −inf for none */
    double dropped;    /* the largest upper bound of an entry dropped past the budget, when it
                        * reaches the floor; −inf for none */
    uint32_t n;        /* entries in use */
    uint32_t resolved; /* entries resolved with MPFR because the list was full */
    near_entry e[NEAR_MAX];
} near_list;

/* A bucket's list: near_list's fields, room for NEAR_BUCKET_MAX entries. */
typedef struct {
    double floor, dropped;
    uint32_t n, resolved;
    near_entry e[NEAR_BUCKET_MAX];
} near_bucket;

/* The exact error of output `out` at the input with encoding bits (MPFR), for one row and kind
 * of error. */
typedef struct {
    double (*exact)(const void *ctx, uint32_t bits, uint32_t out);
    const void *ctx;
} near_resolver;

void near_init(near_list *l);

/* Adds an input whose output (encoding out) has a true error in [lower, upper]. */
void near_add(near_list *l, double lower, double upper, uint64_t seq, uint32_t bits, uint32_t out,
              const near_resolver *r);

/* Adds every input of src (another part of the same row) into dst. */
void near_merge(near_list *dst, const near_list *src, const near_resolver *r);

/* Raises l's floor to `lower` (when above it), a lower bound of the true error of an input of
 * the same row seen elsewhere (another part, whose list is merged with this one): entries that
 * cannot reach it go. */
void near_raise_floor(near_list *l, double lower);

/* Whether an input whose upper bound is `upper`, later in the domain than every entry, would
 * be dropped at once (the scan's test to skip a run of inputs). */
bool near_rejects(const near_list *l, double upper);

/* Resolves every entry with MPFR and leaves the one best entry: the largest error, the first
 * input on a tie. 0, or −1 when the list is empty. */
int near_resolve_all(near_list *l, const near_resolver *r);

/* The list's invariants (bounds ordered, sorted, none dropping another, at most NEAR_MAX):
 * NULL, or what is wrong. */
const char *near_check(const near_list *l);

/* The same operations on a bucket's list (near_bucket: NEAR_BUCKET_MAX entries, a budget of
 * NEAR_BUCKET_BUDGET resolutions). */
void near_bucket_init(near_bucket *l);
void near_bucket_add(near_bucket *l, double lower, double upper, uint64_t seq, uint32_t bits,
                     uint32_t out, const near_resolver *r);
void near_bucket_merge(near_bucket *dst, const near_bucket *src, const near_resolver *r);
void near_bucket_raise_floor(near_bucket *l, double lower);
bool near_bucket_rejects(const near_bucket *l, double upper);
int near_bucket_resolve_all(near_bucket *l, const near_resolver *r);
const char *near_bucket_check(const near_bucket *l);

#endif
