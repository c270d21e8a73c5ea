/* Every kernel call of a scan, judged (kernel_call.h). */
#define _GNU_SOURCE
#include "kernel_call.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fp_state.h"

enum { OUT_ALIGN = 64, CANARY = 0xa5 };

/* ---- per-thread scratch: the kernel's copy of the inputs, its outputs before the guard page */

typedef struct {
    unsigned char *in;   /* OUT_ALIGN-aligned, in_cap bytes */
    size_t in_cap;
    unsigned char *map;  /* out_cap bytes, then one PROT_NONE page */
    size_t out_cap, page;
} scratch;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *p)
{
    scratch *s = p;
    if (!s) return;
    free(s->in);
    if (s->map) munmap(s->map, s->out_cap + s->page);
    free(s);
}

static void scratch_key_make(void) { pthread_key_create(&scratch_key, scratch_free); }

/* This thread's scratch for calls of `bytes` bytes of inputs and outputs; NULL when memory is
 * short (the call then runs unguarded on the caller's buffers). */
static scratch *scratch_get(size_t bytes)
{
    pthread_once(&scratch_once, scratch_key_make);
    scratch *s = pthread_getspecific(scratch_key);
    if (!s) {
        if (!(s = calloc(1, sizeof *s))) return NULL;
        s->page = (size_t)sysconf(_SC_PAGESIZE);
        pthread_setspecific(scratch_key, s);
    }
    if (s->in_cap < bytes) {
        free(s->in);
        s->in_cap = 0;
        if (posix_memalign((void **)&s->in, OUT_ALIGN, bytes) != 0) return s->in = NULL, NULL;
        s->in_cap = bytes;
    }
    /* the outputs start OUT_ALIGN-aligned: room for them and up to OUT_ALIGN − 1 canary bytes */
    size_t need = (bytes + OUT_ALIGN - 1) / OUT_ALIGN * OUT_ALIGN;
    if (s->out_cap < need) {
        if (s->map) munmap(s->map, s->out_cap + s->page);
        s->map = NULL;
        s->out_cap = 0;
        size_t cap = (need + s->page - 1) / s->page * s->page;
        void *m = mmap(NULL, cap + s->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return NULL;
        if (mprotect((unsigned char *)m + cap, s->page, PROT_NONE) != 0) {
            munmap(m, cap + s->page);
            return NULL;
        }
        s->map = m;
        s->out_cap = cap;
    }
    return s;
}

/* ---- the first violation */

static pthread_mutex_t failure_lock = PTHREAD_MUTEX_INITIALIZER;
static char failure[1200];
static bool failed;

const char *kernel_call_failure(void)
{
    pthread_mutex_lock(&failure_lock);
    const char *f = failed ? failure : NULL;
    pthread_mutex_unlock(&failure_lock);
    return f;
}

const char *kernel_calls_failure(const gelu_impl *const *impls, size_t n)
{
    const char *f = kernel_call_failure();
    for (size_t i = 0; !f && i < n; i++)
        if (impls[i]->call_failure) f = impls[i]->call_failure();
    return f;
}

/* The call, for the message: "a forward call of N inputs from x = 0x... (encoding)". */
typedef struct {
    const gelu_impl *impl;
    int grad;
    size_t n, es; /* inputs, and bytes a value */
    const void *x;
} call_info;

static uint64_t encoding_at(const call_info *c, const void *p, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)p + i * c->es, c->es); /* little-endian: the low bytes */
    return v;
}

static void record(const call_info *c, const char *what)
{
    pthread_mutex_lock(&failure_lock);
    if (!failed) {
        const char *src = gelu_impl_source(c->impl);
        snprintf(failure, sizeof failure,
                 "implementation '%s' (%s) broke the kernel contract in a %s call of %zu inputs "
                 "from x = 0x%0*llx (encoding): %s",
                 c->impl->name, src ? src : "built in", c->grad ? "derivative" : "forward", c->n,
                 (int)(2 * c->es), (unsigned long long)(c->n ? encoding_at(c, c->x, 0) : 0), what);
        failed = true;
    }
    pthread_mutex_unlock(&failure_lock);
}

/* ---- the judged call */

typedef void (*invoke_fn)(const call_info *c, const void *x, void *y, void *ctx);

static void judged(const call_info *c, gelu_fpenv env, void *y, invoke_fn invoke, void *ctx)
{
    size_t bytes = c->n * c->es;
    /* a kernel in another process sees a copy of x and writes y only through the protocol */
    scratch *s = bytes && !c->impl->other_process ? scratch_get(bytes) : NULL;
    unsigned char *yk = NULL, *guard = NULL;
    if (s) {
        guard = s->map + s->out_cap;
        yk = guard - (bytes + OUT_ALIGN - 1) / OUT_ALIGN * OUT_ALIGN;
        memcpy(s->in, c->x, bytes);
        memset(yk + bytes, CANARY, (size_t)(guard - yk) - bytes);
    }
    fp_state was = fp_state_read();
    unsigned saved = gelu_fpenv_enter(env);
    fp_state began = fp_state_read();
    invoke(c, s ? s->in : c->x, s ? (void *)yk : y, ctx);
    fp_state left = fp_state_read();
    gelu_fpenv_leave(saved);
    fp_state_restore(was);
    char what[600];
    if (fp_state_changed(began, left)) {
        char diff[400];
        fp_state_difference(began, left, diff, sizeof diff);
        snprintf(what, sizeof what, "it left %s; restored before any other row ran", diff);
        record(c, what);
    }
    if (!s) return;
    if (memcmp(s->in, c->x, bytes) != 0) {
        size_t i = 0;
        while (memcmp(s->in + i * c->es, (const unsigned char *)c->x + i * c->es, c->es) == 0) i++;
        snprintf(what, sizeof what, "it wrote into its input (const): x[%zu] was 0x%0*llx, the call "
                 "left 0x%0*llx (it is judged at the inputs the scan gave it)", i, (int)(2 * c->es),
                 (unsigned long long)encoding_at(c, c->x, i), (int)(2 * c->es),
                 (unsigned long long)encoding_at(c, s->in, i));
        record(c, what);
    }
    for (unsigned char *p = yk + bytes; p < guard; p++)
        if (*p != CANARY) {
            snprintf(what, sizeof what, "it wrote past its %zu outputs (byte %zu after y[%zu])",
                     c->n, (size_t)(p - (yk + bytes)), c->n - 1);
            record(c, what);
            break;
        }
    memcpy(y, yk, bytes);
}

static void invoke_f32(const call_info *c, const void *x, void *y, void *ctx)
{
    (void)ctx;
    (c->grad ? c->impl->derivative : c->impl->forward)(x, y, c->n);
}

void kernel_call_f32(const gelu_impl *impl, int grad, gelu_fpenv env, const float *x, float *y,
                     size_t n)
{
    call_info c = {impl, grad, n, sizeof *x, x};
    judged(&c, env, y, invoke_f32, NULL);
}

typedef struct {
    float *wx, *wy;
} widen_scratch;

static void invoke_u16(const call_info *c, const void *x, void *y, void *ctx)
{
    widen_scratch *w = ctx;
    gelu_impl_run_u16(c->impl, c->grad != 0, x, y, c->n, w->wx, w->wy);
}

void kernel_call_u16(const gelu_impl *impl, int grad, const uint16_t *x, uint16_t *y, size_t n,
                     float *wx, float *wy)
{
    call_info c = {impl, grad, n, sizeof *x, x};
    widen_scratch w = {wx, wy};
    judged(&c, GELU_FPENV_IEEE, y, invoke_u16, &w);
}

static void invoke_f64(const call_info *c, const void *x, void *y, void *ctx)
{
    (void)ctx;
    (c->grad ? c->impl->derivative_f64 : c->impl->forward_f64)(x, y, c->n);
}

void kernel_call_f64(const gelu_impl *impl, int grad, const double *x, double *y, size_t n)
{
    call_info c = {impl, grad, n, sizeof *x, x};
    judged(&c, GELU_FPENV_IEEE, y, invoke_f64, NULL);
}
