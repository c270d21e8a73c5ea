/* Exec children as registry entries (exec_impl.h). */
#include "exec_impl.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "gelu_cr16.h"
#include "gelu_impl.h"
#include "sha256.h"

typedef struct slot {
    gelu_impl impl;
    exec_handshake info;
    char *command, *source;
    char sha256[SHA256_HEX]; /* of the command line and the handshake: the row's identity */
    double timeout_s;
    gelu_fpenv asked; /* the floating-point environment its children are asked for (exec_start_env) */
    pthread_mutex_t lock;
    exec_child *idle[EXEC_CHILDREN_MAX]; /* started children not in use */
    char batch_note[600];                /* the batching probe's finding, "" for none */
    size_t nidle, nchildren;
    char *label; /* a hosted row's: its failures are told as "LABEL: ..."; NULL for --exec's */
    /* A cut of another slot's row (exec_impls_add_cut): its requests go to base's children,
     * asking for tensors of `cut` elements; NULL and 0 for a row with children of its own. */
    struct slot *base;
    uint32_t cut;
    char cut_name[EXEC_NAME_MAX + 16], *cut_origin;
} slot;

static slot slots[EXEC_IMPLS_MAX];
static size_t nslots;
/* Per slot: the kernel time its children reported, summed over their replies (own_time_ns) */
static _Atomic uint64_t reported_ns[EXEC_IMPLS_MAX];
/* The hosted rows (exec_hosted_add): not registry entries of their own */
static slot hosted[EXEC_HOSTED_MAX];
static size_t nhosted;
static _Atomic uint64_t hosted_ns[EXEC_HOSTED_MAX];

static pthread_mutex_t failure_lock = PTHREAD_MUTEX_INITIALIZER;
static bool failed;
static char failure[1600];

static void record_failure(const char *msg)
{
    pthread_mutex_lock(&failure_lock);
    if (!failed) {
        snprintf(failure, sizeof failure, "%s", msg);
        failed = true;
    }
    pthread_mutex_unlock(&failure_lock);
}

bool exec_impls_owns(const gelu_impl *impl)
{
    for (size_t k = 0; k < nslots; k++)
        if (impl == &slots[k].impl) return true;
    return false;
}

const char *exec_impls_failure(void)
{
    pthread_mutex_lock(&failure_lock);
    const char *f = failed ? failure : NULL;
    pthread_mutex_unlock(&failure_lock);
    return f;
}

/* Records a slot's failure, a hosted row's prefixed by its label. */
static void slot_failure(const slot *s, const char *msg)
{
    if (!s->label) {
        record_failure(msg);
        return;
    }
    char both[1600];
    snprintf(both, sizeof both, "%s: %s", s->label, msg);
    record_failure(both);
}

/* An idle child of the slot, or a new one (checked to be the same implementation); NULL after
 * recording why. */
static exec_child *take(slot *s)
{
    pthread_mutex_lock(&s->lock);
    exec_child *c = s->nidle ? s->idle[--s->nidle] : NULL;
    bool may_start = !c && s->nchildren < EXEC_CHILDREN_MAX;
    if (may_start) s->nchildren++;
    pthread_mutex_unlock(&s->lock);
    if (c || !may_start) {
        if (!c) slot_failure(s, "more exec children at once than the limit");
        return c;
    }
    char err[1400];
    c = exec_start_env(s->command, s->timeout_s, true, s->asked, err, sizeof err);
    if (!c) {
        slot_failure(s, err);
        return NULL;
    }
    const exec_handshake *h = exec_info(c);
    if (strcmp(h->name, s->info.name) != 0 || h->target != s->info.target ||
        h->derivative != s->info.derivative || h->format_id != s->info.format_id ||
        h->fpenvs != s->info.fpenvs || h->fpenv_first != s->info.fpenv_first ||
        strcmp(h->sha256, s->info.sha256) != 0) {
        snprintf(err, sizeof err, "exec child '%s' (%s): a second instance declared another "
                 "implementation (name '%s'%s)", s->info.name, s->command, h->name,
                 strcmp(h->name, s->info.name) == 0 ? ", another handshake" : "");
        exec_stop(c);
        slot_failure(s, err);
        return NULL;
    }
    return c;
}

static void give_back(slot *s, exec_child *c)
{
    pthread_mutex_lock(&s->lock);
    s->idle[s->nidle++] = c;
    pthread_mutex_unlock(&s->lock);
}

/* One request of x[0..n) in the child's format: floats for binary32, encodings for a 16-bit
 * format. */
static int eval_any(exec_child *c, bool grad, const void *x, void *y, size_t n, uint64_t *ns,
                    char *err, size_t errsize)
{
    return exec_eval_any(c, grad, x, y, n, ns, err, errsize);
}

/* s's requests: to its children, or a cut's to its base's, asking for its tensor size. */
static void run_slot(slot *s, _Atomic uint64_t *reported, bool grad, const void *x, void *y,
                     size_t n)
{
    slot *from = s->base ? s->base : s;
    exec_child *c = exec_impls_failure() ? NULL : take(from);
    char err[1400];
    uint64_t ns;
    if (c && exec_eval_cut(c, grad, s->cut, x, y, n, &ns, err, sizeof err) == 0) {
        atomic_fetch_add(reported, ns);
        give_back(from, c);
        return;
    }
    if (c) {
        slot_failure(s, err);
        give_back(from, c); /* stopped already: every later call fails at once */
    }
    const gelu_format *f = gelu_format_of(s->info.format_id); /* NaNs of its format */
    uint64_t nan = f->from_double(NAN); /* little-endian: its low bytes are the value */
    for (size_t i = 0; i < n; i++) memcpy((char *)y + i * (f->storage_bits / 8), &nan, f->storage_bits / 8);
}

static void run(size_t k, bool grad, const void *x, void *y, size_t n)
{
    run_slot(&slots[k], &reported_ns[k], grad, x, y, n);
}

/* The kernels: C function pointers carry no context, so each slot has its own pairs (binary32,
 * 16-bit: the slot's format sets which the registry entry gets), its time and its path. */
#define SLOT_KERNELS(k)                                                                            \
    static void forward_##k(const float *x, float *y, size_t n) { run(k, false, x, y, n); }       \
    static void derivative_##k(const float *x, float *y, size_t n) { run(k, true, x, y, n); }     \
    static void forward16_##k(const uint16_t *x, uint16_t *y, size_t n) { run(k, false, x, y, n); } \
    static void derivative16_##k(const uint16_t *x, uint16_t *y, size_t n) { run(k, true, x, y, n); } \
    static uint64_t own_time_##k(void) { return atomic_load(&reported_ns[k]); }                   \
    static void forward64_##k(const double *x, double *y, size_t n) { run(k, false, x, y, n); }   \
    static void derivative64_##k(const double *x, double *y, size_t n) { run(k, true, x, y, n); } \
    static const char *isa_##k(void) { return slots[k].info.dispatched_isa; }
/* X(0) X(1) ... X(1999): every slot (EXEC_IMPLS_MAX); a table's X ends its item with a comma */
#define SLOTS10(X, t) X(t##0) X(t##1) X(t##2) X(t##3) X(t##4) X(t##5) X(t##6) X(t##7) X(t##8) X(t##9)
#define SLOTS100(X, h)                                                                             \
    SLOTS10(X, h##0) SLOTS10(X, h##1) SLOTS10(X, h##2) SLOTS10(X, h##3) SLOTS10(X, h##4)          \
    SLOTS10(X, h##5) SLOTS10(X, h##6) SLOTS10(X, h##7) SLOTS10(X, h##8) SLOTS10(X, h##9)
#define ALL_SLOTS(X)                                                                               \
    X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) SLOTS10(X, 1) SLOTS10(X, 2) SLOTS10(X, 3)    \
    SLOTS10(X, 4) SLOTS10(X, 5) SLOTS10(X, 6) SLOTS10(X, 7) SLOTS10(X, 8) SLOTS10(X, 9)           \
    SLOTS100(X, 1) SLOTS100(X, 2) SLOTS100(X, 3) SLOTS100(X, 4) SLOTS100(X, 5) SLOTS100(X, 6)    \
    SLOTS100(X, 7) SLOTS100(X, 8) SLOTS100(X, 9) SLOTS100(X, 10) SLOTS100(X, 11)                  \
    SLOTS100(X, 12) SLOTS100(X, 13) SLOTS100(X, 14) SLOTS100(X, 15) SLOTS100(X, 16)              \
    SLOTS100(X, 17) SLOTS100(X, 18) SLOTS100(X, 19)
ALL_SLOTS(SLOT_KERNELS)
_Static_assert(EXEC_IMPLS_MAX == 2000, "ALL_SLOTS lists 2,000 slots");
#define SLOT_PAIR(k) {forward_##k, derivative_##k},
#define SLOT_PAIR16(k) {forward16_##k, derivative16_##k},
#define SLOT_PAIR64(k) {forward64_##k, derivative64_##k},
#define SLOT_ISA(k) isa_##k,
#define SLOT_TIME(k) own_time_##k,
static const gelu_kernel slot_kernels[EXEC_IMPLS_MAX][2] = {ALL_SLOTS(SLOT_PAIR)};
static const gelu_kernel_u16 slot_kernels16[EXEC_IMPLS_MAX][2] = {ALL_SLOTS(SLOT_PAIR16)};
static const gelu_kernel_f64 slot_kernels64[EXEC_IMPLS_MAX][2] = {ALL_SLOTS(SLOT_PAIR64)};
static const char *(*const slot_isas[EXEC_IMPLS_MAX])(void) = {ALL_SLOTS(SLOT_ISA)};
static uint64_t (*const slot_times[EXEC_IMPLS_MAX])(void) = {ALL_SLOTS(SLOT_TIME)};

/* The batching probe (see exec_impl.h): the N inputs in one request against the same inputs in
 * requests of each size of `sizes` (the last one shorter: vector tails and unaligned starts
 * move). In binary32 every 2^22th encoding, in a 16-bit format every 2^6th (both: off the
 * binades' edges). 0, or −1 with err when the child failed. */
static int probe_batching(exec_child *c, const char *name, char *err, size_t errsize, char *note,
                          size_t notesize)
{
    enum { N = 1024 };
    static const size_t sizes[] = {1, 13, 1000};
    static uint64_t x[N], whole[N], part[N]; /* room for any storage */
    const gelu_format *f = gelu_format_of(exec_info(c)->format_id);
    size_t es = f->storage_bits / 8;
    for (uint32_t i = 0; i < N; i++) { /* every sign and binade's part of the encodings */
        uint64_t bits = (uint64_t)(i << 22 | 0x25a5a5u) << 32 | 0x9e3779b9u;
        bits >>= 64 - f->storage_bits;
        memcpy((char *)x + i * es, &bits, es);
    }
    note[0] = '\0';
    for (int grad = 0; grad < (exec_info(c)->derivative ? 2 : 1) && !note[0]; grad++) {
        if (eval_any(c, grad, x, whole, N, NULL, err, errsize) != 0) return -1;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && !note[0]; k++) {
            for (size_t at = 0; at < N; at += sizes[k]) {
                size_t n = N - at < sizes[k] ? N - at : sizes[k];
                if (eval_any(c, grad, (const char *)x + at * es, (char *)part + at * es, n, NULL,
                             err, errsize) != 0)
                    return -1;
            }
            for (size_t i = 0; i < N; i++) {
                uint64_t a = 0, w = 0, in_bits = 0;
                memcpy(&a, (const char *)part + i * es, es);
                memcpy(&w, (const char *)whole + i * es, es);
                memcpy(&in_bits, (const char *)x + i * es, es);
                double va = f->to_double(a), vw = f->to_double(w), vx = f->to_double(in_bits);
                if (a == w || (isnan(va) && isnan(vw))) continue;
                char in[64];
                if (sizes[k] == 1) snprintf(in, sizeof in, "alone");
                else snprintf(in, sizeof in, "in a batch of %zu from position %zu",
                              N - i / sizes[k] * sizes[k] < sizes[k] ? N - i / sizes[k] * sizes[k] : sizes[k],
                              i % sizes[k]);
                snprintf(note, notesize, "exec child '%s' gives other outputs for the same input "
                         "in other batches: %s at x = %a is %a in a batch of %d and %a %s; the "
                         "scan's figures are those of its batches (%d inputs a request)", name,
                         grad ? "derivative" : "forward", vx, vw, N, va, in, EXEC_BATCH_INPUTS);
                break;
            }
        }
    }
    return 0;
}

/* Slot k's kernels of m's format (its storage size: 4, 8 or 2 bytes a value) into m;
 * derivative false: forward only (NULL derivatives). */
static void set_kernels(gelu_impl *m, size_t k, bool derivative)
{
    switch (gelu_format_of(m->format)->storage_bits) {
    case 32:
        m->forward = slot_kernels[k][0];
        m->derivative = derivative ? slot_kernels[k][1] : NULL;
        return;
    case 64:
        m->forward_f64 = slot_kernels64[k][0];
        m->derivative_f64 = derivative ? slot_kernels64[k][1] : NULL;
        return;
    case 16:
        m->forward_u16 = slot_kernels16[k][0];
        m->derivative_u16 = derivative ? slot_kernels16[k][1] : NULL;
        return;
    }
    abort(); /* the handshake takes formats of these sizes only */
}

int exec_impls_add(const char *spec, gelu_family family, const char *known_as, double timeout_s,
                   char *err, size_t errsize, char *note, size_t notesize)
{
    int rc = -1;
    note[0] = '\0';
    /* NAME= is the part before the first '=' when no space comes before it; else the whole
     * spec is the command and the child's handshake names it */
    const char *eq = strchr(spec, '=');
    if (eq && memchr(spec, ' ', (size_t)(eq - spec))) eq = NULL;
    const char *command = eq ? eq + 1 : spec;
    if (eq == spec || !command[0] || !spec[strspn(spec, " ")]) {
        snprintf(err, errsize, "--exec '%s': expected [NAME=]COMMAND", spec);
        return -1;
    }
    char name[EXEC_NAME_MAX + 2] = "";
    size_t len = eq ? (size_t)(eq - spec) : 0;
    if (eq) snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), spec);
    if (eq && (len > EXEC_NAME_MAX || !exec_name_ok(name))) {
        snprintf(err, errsize, "--exec '%.*s': a name is 1 to 48 of A-Z a-z 0-9 _, starting with "
                 "a letter", (int)(len > 60 ? 60 : len), spec);
        return -1;
    }
    if (nslots == EXEC_IMPLS_MAX) {
        snprintf(err, errsize, "--exec %s: at most %d exec implementations", name, EXEC_IMPLS_MAX);
        return -1;
    }
    slot *s = &slots[nslots];
    memset(s, 0, sizeof *s);
    s->timeout_s = timeout_s;
    s->command = strdup(command);
    size_t srclen = strlen(command) + 32;
    s->source = malloc(srclen);
    if (!s->command || !s->source) {
        free(s->command);
        free(s->source);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    snprintf(s->source, srclen, "exec child '%s'", command);
    pthread_mutex_init(&s->lock, NULL);
    exec_child *c = exec_start(s->command, timeout_s, err, errsize);
    if (!c) { /* before its handshake the child has no name but the one --exec gave it */
        static const char unnamed[] = "exec child '?'";
        if (strncmp(err, unnamed, sizeof unnamed - 1) == 0) {
            char *rest = strdup(err + sizeof unnamed - 1);
            if (rest) snprintf(err, errsize, "exec child '%s'%s", name, rest);
            free(rest);
        }
        goto fail;
    }
    s->info = *exec_info(c);
    if (!eq) snprintf(name, sizeof name, "%s", s->info.name); /* the handshake's (checked there) */
    {
        sha256_ctx id;
        sha256_init(&id);
        sha256_update(&id, s->command, strlen(s->command) + 1); /* with its '\0' as a separator */
        sha256_update(&id, s->info.sha256, strlen(s->info.sha256));
        sha256_final_hex(&id, s->sha256);
    }
    if (strcmp(s->info.name, name) != 0) {
        snprintf(err, errsize, "--exec %s: the child calls itself '%s' (the names must agree)", name,
                 s->info.name);
        exec_stop(c);
        goto fail;
    }
    if (probe_batching(c, name, err, errsize, note, notesize) != 0) {
        exec_stop(c);
        rc = -2; /* the child failed while answering: as a failure in the scan */
        goto fail;
    }
    s->idle[s->nidle++] = c;
    s->nchildren = 1;
    s->impl = (gelu_impl){
        .name = s->info.name,
        .target = s->info.target,
        .features = 0,
        .format = s->info.format_id,
        .contract = s->info.contract,
        .origin = s->info.origin,
        .family = family,
        .known_as = known_as,
        .dispatched_isa = s->info.dispatched_isa[0] ? slot_isas[nslots] : NULL,
        .batch_inputs = EXEC_BATCH_INPUTS,
        .other_process = true,
        .call_failure = exec_impls_failure,
        .batch_dependence = s->batch_note,
        .own_time_ns = s->info.timing ? slot_times[nslots] : NULL, /* it times its kernel */
        /* asked for IEEE's, it runs in another (a framework that always flushes): said by list
         * and accuracy.csv's fpenv column */
        .fixed_fpenv = s->info.fpenv != GELU_FPENV_IEEE ? 1 + (int)s->info.fpenv : 0,
    };
    set_kernels(&s->impl, nslots, s->info.derivative);
    snprintf(s->batch_note, sizeof s->batch_note, "%s", note);
    if (gelu_impl_add(&s->impl, s->source, err, errsize) != 0) {
        exec_stop(c);
        s->nidle = 0;
        goto fail;
    }
    nslots++;
    return 0;
fail:
    pthread_mutex_destroy(&s->lock);
    free(s->command);
    free(s->source);
    return rc;
}

int exec_impls_add_cut(const gelu_impl *row, uint32_t cut, const char *name, const char *known_as,
                       char *err, size_t errsize)
{
    slot *b = NULL;
    for (size_t k = 0; k < nslots && !b; k++)
        if (row == &slots[k].impl && !slots[k].base) b = &slots[k];
    if (!b || !b->info.cuts || cut == 0 || cut > EXEC_CUT_MAX)
        return snprintf(err, errsize, "%s: no cut of %u elements (%s)", name, cut,
                        !b ? "not an exec child's row" : !b->info.cuts ? "its handshake has no "
                        "'cuts yes'" : "a size from 1 to 2^24 - 1"), -1;
    if (nslots == EXEC_IMPLS_MAX)
        return snprintf(err, errsize, "%s: at most %d exec implementations", name, EXEC_IMPLS_MAX), -1;
    slot *s = &slots[nslots];
    memset(s, 0, sizeof *s);
    size_t olen = strlen(b->info.origin) + 64;
    if (!(s->cut_origin = malloc(olen))) return snprintf(err, errsize, "out of memory"), -1;
    snprintf(s->cut_origin, olen, "%s; in tensors of %u element%s", b->info.origin, cut,
             cut == 1 ? "" : "s");
    snprintf(s->cut_name, sizeof s->cut_name, "%s", name);
    s->info = b->info;
    s->base = b;
    s->cut = cut;
    s->timeout_s = b->timeout_s;
    pthread_mutex_init(&s->lock, NULL);
    {
        sha256_ctx id; /* the row's identity and the size */
        char size[16];
        snprintf(size, sizeof size, "%u", cut);
        sha256_init(&id);
        sha256_update(&id, b->sha256, strlen(b->sha256) + 1);
        sha256_update(&id, size, strlen(size));
        sha256_final_hex(&id, s->sha256);
    }
    s->impl = b->impl;
    s->impl.name = s->cut_name;
    s->impl.origin = s->cut_origin;
    if (known_as) s->impl.known_as = known_as;
    s->impl.batch_dependence = s->batch_note; /* "": the cut is the batching */
    s->impl.dispatched_isa = b->impl.dispatched_isa ? slot_isas[nslots] : NULL;
    s->impl.own_time_ns = b->impl.own_time_ns ? slot_times[nslots] : NULL;
    set_kernels(&s->impl, nslots, b->info.derivative);
    if (gelu_impl_add(&s->impl, b->source, err, errsize) != 0) {
        pthread_mutex_destroy(&s->lock);
        free(s->cut_origin);
        return -1;
    }
    nslots++;
    return 0;
}

void exec_impls_release(const gelu_impl *impl)
{
    for (size_t k = 0; k < nslots; k++) {
        slot *s = &slots[k];
        if (impl != &s->impl) continue;
        if (s->base) s = s->base;
        pthread_mutex_lock(&s->lock);
        for (size_t i = 0; i < s->nidle; i++) exec_stop(s->idle[i]);
        s->nchildren -= s->nidle;
        s->nidle = 0;
        pthread_mutex_unlock(&s->lock);
    }
}

static slot *slot_of(const gelu_impl *impl)
{
    for (size_t k = 0; k < nslots; k++)
        if (impl == &slots[k].impl) return &slots[k];
    return NULL;
}

const char *exec_impls_sha256(const gelu_impl *impl)
{
    const slot *s = slot_of(impl);
    return s ? s->sha256 : NULL;
}

bool exec_impls_fpenv_ok(const gelu_impl *impl, gelu_fpenv asked, char *why, size_t size)
{
    const slot *s = slot_of(impl);
    gelu_fpenv runs_in;
    return !s || exec_fpenv_runs_in(&s->info, asked, &runs_in, why, size);
}

const char *exec_impls_fpenv_list(const gelu_impl *impl, char *buf, size_t size)
{
    const slot *s = slot_of(impl);
    if (!s || !size) return NULL;
    buf[0] = '\0';
    size_t k = 0; /* the first listed first: where it runs when asked for IEEE's and not listing it */
    for (int i = -1; i < GELU_FPENV_COUNT; i++) {
        gelu_fpenv e = i < 0 ? s->info.fpenv_first : (gelu_fpenv)i;
        if ((i < 0 || e != s->info.fpenv_first) && (s->info.fpenvs & (1u << e)) && k < size)
            k += (size_t)snprintf(buf + k, size - k, "%s%s", k ? " " : "", gelu_fpenv_name(e));
    }
    return buf;
}

/* The k-th of every slot, --exec's then the hosted rows'. */
static slot *any_slot(size_t k) { return k < nslots ? &slots[k] : &hosted[k - nslots]; }

void exec_impls_use_fpenv(gelu_fpenv asked)
{
    for (size_t k = 0; k < nslots + nhosted; k++) {
        slot *s = any_slot(k);
        gelu_fpenv now, then;
        if (!exec_fpenv_runs_in(&s->info, s->asked, &now, NULL, 0) ||
            !exec_fpenv_runs_in(&s->info, asked, &then, NULL, 0) || now != then) {
            pthread_mutex_lock(&s->lock); /* its idle children run elsewhere: new ones instead */
            for (size_t i = 0; i < s->nidle; i++) exec_stop(s->idle[i]);
            s->nchildren -= s->nidle;
            s->nidle = 0;
            pthread_mutex_unlock(&s->lock);
        }
        s->asked = asked;
    }
}

void exec_impls_stop(void)
{
    for (size_t k = 0; k < nslots + nhosted; k++) {
        slot *s = any_slot(k);
        pthread_mutex_lock(&s->lock);
        for (size_t i = 0; i < s->nidle; i++) exec_stop(s->idle[i]);
        s->nidle = 0;
        pthread_mutex_unlock(&s->lock);
    }
}

int exec_hosted_add(const char *command, const char *label, const gelu_impl *row,
                    double timeout_s, char *err, size_t errsize)
{
    if (nhosted == EXEC_HOSTED_MAX) {
        snprintf(err, errsize, "%s: more than %d rows in their own processes", label,
                 EXEC_HOSTED_MAX);
        return -1;
    }
    slot *s = &hosted[nhosted];
    memset(s, 0, sizeof *s);
    s->timeout_s = timeout_s;
    s->command = strdup(command);
    s->label = strdup(label);
    if (!s->command || !s->label) {
        free(s->command);
        free(s->label);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    pthread_mutex_init(&s->lock, NULL);
    char why[1400];
    exec_child *c = exec_start(s->command, timeout_s, why, sizeof why);
    if (c) {
        s->info = *exec_info(c);
        bool derivative = row->derivative || row->derivative_u16 || row->derivative_f64;
        if (strcmp(s->info.name, row->name) != 0 || s->info.target != row->target ||
            s->info.format_id != row->format || s->info.derivative != derivative) {
            snprintf(why, sizeof why, "its host declared another row (name '%s', format %s)",
                     s->info.name, s->info.format);
            exec_stop(c);
            c = NULL;
        }
    }
    if (!c) {
        snprintf(err, errsize, "%s: %s", label, why);
        pthread_mutex_destroy(&s->lock);
        free(s->command);
        free(s->label);
        return -1;
    }
    s->idle[s->nidle++] = c;
    s->nchildren = 1;
    return (int)nhosted++;
}

void exec_hosted_run(int handle, bool grad, const void *x, void *y, size_t n)
{
    run_slot(&hosted[handle], &hosted_ns[handle], grad, x, y, n);
}

uint64_t exec_hosted_time_ns(int handle) { return atomic_load(&hosted_ns[handle]); }
