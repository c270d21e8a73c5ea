/* The scan's domains (scan.h's scan_domain) read by position: every binary32 encoding in
 * order of value (an ordinal per encoding), a range of them, a sample (n encodings drawn
 * uniformly with GSL's MT19937, sorted by encoding, duplicates removed) or a caller's list; a
 * shard's span of positions; and which rows a scan gives an implementation. */
#include "scan_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sample.h"

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* All: every encoding of the format. Sample: n encodings drawn uniformly (GSL MT19937), sorted
 * by encoding, duplicates removed. */
int domain_open(const scan_domain *d, domain_view *v)
{
    memset(v, 0, sizeof *v);
    v->d = *d;
    switch (d->kind) {
    case DOMAIN_ALL: v->size = gelu_format_encodings(gelu_format_of(SCAN_FORMAT)); return 0;
    case DOMAIN_LIST:
        if (d->n == 0 || !d->list) return -1;
        v->list = d->list; /* borrowed: v->sample stays NULL, so nothing is freed */
        v->size = d->n;
        return 0;
    case DOMAIN_RANGE:
        v->first_ordinal = ordinal(d->lo);
        v->size = (uint64_t)(ordinal(d->hi) - v->first_ordinal + 1);
        return 0;
    case DOMAIN_SAMPLE: {
        if (d->n == 0) return -1;
        /* The last sample drawn is kept (one entry, copied out): a chunked run (checkpoints,
         * MPI) opens the same domain once per chunk, and drawing and sorting it each time cost
         * more than scanning a chunk. */
        static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
        static uint32_t *cached;
        static uint64_t cached_n, cached_seed, cached_size;
        pthread_mutex_lock(&cache_lock);
        if (cached && cached_n == d->n && cached_seed == d->seed) {
            v->sample = malloc(cached_size * sizeof *v->sample);
            if (v->sample) memcpy(v->sample, cached, cached_size * sizeof *v->sample);
            v->size = cached_size;
            v->list = v->sample;
            pthread_mutex_unlock(&cache_lock);
            return v->sample ? 0 : -1;
        }
        pthread_mutex_unlock(&cache_lock);
        float *x = malloc(d->n * sizeof *x);
        v->sample = malloc(d->n * sizeof *v->sample);
        if (!x || !v->sample) {
            free(x);
            free(v->sample);
            return -1;
        }
        sample_encodings(d->seed, x, d->n);
        for (uint64_t i = 0; i < d->n; i++) v->sample[i] = float_bits(x[i]);
        free(x);
        qsort(v->sample, d->n, sizeof *v->sample, compare_u32);
        uint64_t k = 0;
        for (uint64_t i = 0; i < d->n; i++)
            if (k == 0 || v->sample[i] != v->sample[k - 1]) v->sample[k++] = v->sample[i];
        v->size = k;
        v->list = v->sample;
        uint32_t *copy = malloc(k * sizeof *copy);
        if (copy) {
            memcpy(copy, v->sample, k * sizeof *copy);
            pthread_mutex_lock(&cache_lock);
            free(cached);
            cached = copy;
            cached_n = d->n;
            cached_seed = d->seed;
            cached_size = k;
            pthread_mutex_unlock(&cache_lock);
        }
        return 0;
    }
    }
    return -1;
}

float domain_input(const domain_view *v, uint64_t i)
{
    switch (v->d.kind) {
    case DOMAIN_ALL: return float_from_bits((uint32_t)i);
    case DOMAIN_RANGE: return from_ordinal(v->first_ordinal + (int64_t)i);
    default: return float_from_bits(v->list[i]);
    }
}

void domain_inputs(const domain_view *v, uint64_t i, size_t n, float *x)
{
    switch (v->d.kind) { /* domain_input's, the kind taken once: loops the compiler vectorizes */
    case DOMAIN_ALL:
        for (size_t j = 0; j < n; j++) x[j] = float_from_bits((uint32_t)(i + j));
        return;
    case DOMAIN_RANGE:
        for (size_t j = 0; j < n; j++) x[j] = from_ordinal(v->first_ordinal + (int64_t)(i + j));
        return;
    default:
        for (size_t j = 0; j < n; j++) x[j] = float_from_bits(v->list[i + j]);
    }
}

uint64_t scan_domain_size(const scan_domain *d)
{
    domain_view v;
    if (domain_open(d, &v) != 0) return 0;
    free(v.sample);
    return v.size;
}

int scan_shard_span(const scan_domain *d, unsigned k, unsigned n, uint64_t *first, uint64_t *end)
{
    uint64_t size = scan_domain_size(d);
    if (n == 0 || k >= n || size == 0) return -1;
    /* the same split as scan_run: shard k takes blocks [blocks·k/n, blocks·(k+1)/n) */
    uint64_t blocks = (size + SCAN_BLOCK - 1) / SCAN_BLOCK;
    uint64_t b0 = blocks * k / n, b1 = blocks * (k + 1) / n;
    *first = b0 * SCAN_BLOCK < size ? b0 * SCAN_BLOCK : size;
    *end = b1 * SCAN_BLOCK < size ? b1 * SCAN_BLOCK : size;
    return 0;
}

bool scan_has_exact_row(const gelu_impl *impl)
{
    return gelu_target_is_gelu(impl->target);
}
