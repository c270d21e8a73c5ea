/* oneDNN eltwise execution with cached primitives (see dnnl_eltwise.h). */
#include "dnnl_eltwise.h"

#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static dnnl_engine_t engine;
static dnnl_status_t engine_status = dnnl_runtime_error;
static pthread_once_t engine_once = PTHREAD_ONCE_INIT;
static pthread_key_t stream_key;

static void destroy_stream(void *s) { dnnl_stream_destroy(s); }

static void create_engine(void)
{
    engine_status = dnnl_engine_create(&engine, dnnl_cpu, 0);
    if (engine_status == dnnl_success && pthread_key_create(&stream_key, destroy_stream) != 0)
        engine_status = dnnl_runtime_error;
}

/* The calling thread's stream, NULL on error. */
static dnnl_stream_t thread_stream(void)
{
    pthread_once(&engine_once, create_engine);
    if (engine_status != dnnl_success) return NULL;
    dnnl_stream_t s = pthread_getspecific(stream_key);
    if (!s) {
        if (dnnl_stream_create(&s, engine, dnnl_stream_default_flags) != dnnl_success) return NULL;
        pthread_setspecific(stream_key, s);
    }
    return s;
}

/* Primitives by (alg, grad, data type, n). Entries are never evicted, so a primitive found here stays valid
 * while other threads execute it; past the capacity, primitives are created per call. */
enum { CACHE_CAPACITY = 64 };
typedef struct {
    dnnl_alg_kind_t alg;
    bool grad;
    dnnl_data_type_t type;
    size_t n;
    dnnl_primitive_t prim;
} cache_entry;
static cache_entry cache[CACHE_CAPACITY];
static size_t cache_used;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static dnnl_status_t create_primitive(dnnl_alg_kind_t alg, bool grad, const dnnl_memory_desc_t *md,
                                      dnnl_primitive_t *prim)
{
    dnnl_eltwise_desc_t fwd_d, bwd_d;
    dnnl_primitive_desc_t fwd_pd = NULL, bwd_pd = NULL;
    dnnl_status_t st = dnnl_eltwise_forward_desc_init(
        &fwd_d, grad ? dnnl_forward_training : dnnl_forward_inference, alg, md, 0.0f, 0.0f);
    if (st == dnnl_success) st = dnnl_primitive_desc_create(&fwd_pd, &fwd_d, NULL, engine, NULL);
    if (st == dnnl_success && grad) {
        st = dnnl_eltwise_backward_desc_init(&bwd_d, alg, md, md, 0.0f, 0.0f);
        if (st == dnnl_success) st = dnnl_primitive_desc_create(&bwd_pd, &bwd_d, NULL, engine, fwd_pd);
    }
    if (st == dnnl_success) st = dnnl_primitive_create(prim, grad ? bwd_pd : fwd_pd);
    if (bwd_pd) dnnl_primitive_desc_destroy(bwd_pd);
    if (fwd_pd) dnnl_primitive_desc_destroy(fwd_pd);
    return st;
}

/* The cached primitive, or a new one with *owned set when the cache is full. */
static dnnl_status_t find_primitive(dnnl_alg_kind_t alg, bool grad, dnnl_data_type_t type,
                                    size_t n, const dnnl_memory_desc_t *md,
                                    dnnl_primitive_t *prim, bool *owned)
{
    dnnl_status_t st = dnnl_success;
    *owned = false;
    pthread_mutex_lock(&cache_lock);
    for (size_t i = 0; i < cache_used; i++) {
        if (cache[i].alg == alg && cache[i].grad == grad && cache[i].type == type &&
            cache[i].n == n) {
            *prim = cache[i].prim;
            pthread_mutex_unlock(&cache_lock);
            return dnnl_success;
        }
    }
    st = create_primitive(alg, grad, md, prim);
    if (st == dnnl_success && cache_used < CACHE_CAPACITY)
        cache[cache_used++] = (cache_entry){alg, grad, type, n, *prim};
    else if (st == dnnl_success)
        *owned = true;
    pthread_mutex_unlock(&cache_lock);
    return st;
}

static dnnl_status_t execute(dnnl_primitive_t prim, dnnl_stream_t stream, bool grad,
                             const dnnl_memory_desc_t *md, const void *x, void *y, void *ones)
{
    dnnl_memory_t src = NULL, dst = NULL, diff_dst = NULL;
    dnnl_status_t st = dnnl_memory_create(&src, md, engine, (void *)x);
    if (st == dnnl_success) st = dnnl_memory_create(&dst, md, engine, y);
    if (st == dnnl_success && grad) st = dnnl_memory_create(&diff_dst, md, engine, ones);
    if (st == dnnl_success) {
        dnnl_exec_arg_t fwd_args[] = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
        dnnl_exec_arg_t bwd_args[] = {
            {DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_DIFF_SRC, dst}};
        st = grad ? dnnl_primitive_execute(prim, stream, 3, bwd_args)
                  : dnnl_primitive_execute(prim, stream, 2, fwd_args);
    }
    if (st == dnnl_success) st = dnnl_stream_wait(stream);
    if (diff_dst) dnnl_memory_destroy(diff_dst);
    if (dst) dnnl_memory_destroy(dst);
    if (src) dnnl_memory_destroy(src);
    return st;
}

/* The run of dnnl_eltwise_run and dnnl_eltwise_run_bf16 on elements of `size` bytes of
 * `type`; one is the encoding of 1 in it; nan fills y on error. */
static void run(dnnl_alg_kind_t alg, bool grad, bool threaded, dnnl_data_type_t type, size_t size,
                const void *one, const void *nan, const void *x, void *y, size_t n)
{
    if (n == 0) return;
    dnnl_status_t st = dnnl_runtime_error;
    dnnl_stream_t stream = thread_stream();
    unsigned char *ones = NULL;
    if (grad && (ones = malloc(n * size)))
        for (size_t i = 0; i < n; i++) memcpy(ones + i * size, one, size);
    if (stream && (!grad || ones)) {
        dnnl_memory_desc_t md;
        dnnl_dims_t dims = {(dnnl_dim_t)n};
        dnnl_primitive_t prim;
        bool owned = false;
        st = dnnl_memory_desc_init_by_tag(&md, 1, dims, type, dnnl_a);
        if (st == dnnl_success) st = find_primitive(alg, grad, type, n, &md, &prim, &owned);
        if (st == dnnl_success) {
            int saved = omp_get_max_threads();
            if (!threaded) omp_set_num_threads(1);
            st = execute(prim, stream, grad, &md, x, y, ones);
            if (!threaded) omp_set_num_threads(saved);
        }
        if (owned) dnnl_primitive_destroy(prim);
    }
    free(ones);
    if (st != dnnl_success)
        for (size_t i = 0; i < n; i++) memcpy((unsigned char *)y + i * size, nan, size);
}

void dnnl_eltwise_run(dnnl_alg_kind_t alg, bool grad, bool threaded, const float *x, float *y,
                      size_t n)
{
    const float one = 1.0f, nan = NAN;
    run(alg, grad, threaded, dnnl_f32, sizeof *x, &one, &nan, x, y, n);
}

void dnnl_eltwise_run_bf16(dnnl_alg_kind_t alg, bool grad, bool threaded, const uint16_t *x,
                           uint16_t *y, size_t n)
{
    const uint16_t one = 0x3f80, nan = 0x7fc0; /* bfloat16's 1 and quiet NaN */
    run(alg, grad, threaded, dnnl_bf16, sizeof *x, &one, &nan, x, y, n);
}

dnnl_status_t dnnl_eltwise_probe(dnnl_alg_kind_t alg, bool grad, dnnl_data_type_t type)
{
    pthread_once(&engine_once, create_engine);
    if (engine_status != dnnl_success) return engine_status;
    dnnl_memory_desc_t md;
    dnnl_dims_t dims = {64};
    dnnl_primitive_t prim;
    dnnl_status_t st = dnnl_memory_desc_init_by_tag(&md, 1, dims, type, dnnl_a);
    if (st == dnnl_success) st = create_primitive(alg, grad, &md, &prim);
    if (st == dnnl_success) dnnl_primitive_destroy(prim);
    return st;
}
