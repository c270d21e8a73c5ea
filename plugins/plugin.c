/* Shared-library plugins (plugin.h, include/gelucheck/plugin.h). */
#define _GNU_SOURCE
#include "plugin.h"
#include "gelu_f64.h"
#include "plugin_check.h"
#include "plugin_describe.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "exec_impl.h"
#include "gelu_cr16.h"
#include "gelu_impl.h"
#include "gelucheck/plugin.h"
#include "gelucheck_config.h" /* GELUCHECK_PEERS, where they are */
#include "input_file.h"
#include "sha256.h"
#include "sig_text.h"

typedef struct {
    gelu_impl impl;
    gelucheck_kernel_binary32 forward, derivative; /* the plugin's own */
    gelucheck_kernel_u16 forward16, derivative16;  /* those of a 16-bit row */
    gelucheck_kernel_binary64 forward64, derivative64; /* those of a binary64 row */
    char *source;
    char *path;  /* the plugin's file, as given */
    int hosted;  /* its handle when its kernels run in their own process (exec_hosted_add), else -1 */
    char sha256[SHA256_HEX]; /* of the plugin's file, read just before it was loaded */
    char crash_text[600]; /* "plugin 'PATH', implementation 'NAME'", made when loaded */
    const char *isa_text; /* dispatched_isa's answer, when its host described the row */
} slot;

static slot slots[PLUGIN_IMPLS_MAX];
static size_t nslots;
/* What each plugin says it left out (gelucheck_plugin_left_out_v1), with its source. */
static struct {
    char *text, *source;
} left_out[PLUGIN_IMPLS_MAX];
static size_t nleft_out;
static void (*crash_hook)(void);

/* A plugin kernel call in flight: the slot, the direction, the call's first input, when it
 * began. Each thread that calls plugin kernels takes an entry of `calls` (the watchdog reads
 * them all), or, past WATCHED_THREADS, one of its own that no watchdog sees. */
typedef struct {
    _Atomic(const slot *) s;
    _Atomic uint64_t start_ns; /* CLOCK_MONOTONIC; 0: not in a call */
    int grad;
    uint32_t x0;
    int digits; /* of x0 in hex: 8 (binary32), 4 (16-bit encodings) */
    size_t n;
} plugin_call;

enum { WATCHED_THREADS = 1024 };
static plugin_call calls[WATCHED_THREADS];
static _Atomic unsigned ncalls;
static _Thread_local plugin_call *mine, unwatched;
static _Atomic int reporting; /* a report is being written: the process ends with it */
static double call_timeout_s = 60;

void plugins_set_crash_hook(void (*hook)(void)) { crash_hook = hook; }
void plugins_set_call_timeout(double seconds) { call_timeout_s = seconds; }

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static _Noreturn void exit_now(int status)
{
    syscall(SYS_exit_group, status);
    for (;;) pause();
}

/* Ends the process for what the kernel of call c did (async-signal-safe): "gelucheck: plugin
 * 'PATH', implementation 'NAME', WHAT[NUMBER WHAT2] in a forward call of ...", the CLI's
 * temporaries removed, exit 1. Once: a second report (another thread, the hook's own exit)
 * waits for the first to end the process. */
static _Noreturn void report_and_exit(const plugin_call *c, const char *what, long number, const char *what2)
{
    if (atomic_exchange(&reporting, 1)) {
        for (;;) pause();
    }
    const slot *s = atomic_load(&c->s);
    char msg[1200];
    size_t k = sig_put(msg, 0, sizeof msg, "gelucheck: ");
    k = sig_put(msg, k, sizeof msg, s->crash_text);
    k = sig_put(msg, k, sizeof msg, " ");
    k = sig_put(msg, k, sizeof msg, what);
    if (what2) {
        if (number < 0) k = sig_put(msg, k, sizeof msg, "-");
        k = sig_put_dec(msg, k, sizeof msg, (uint64_t)(number < 0 ? -number : number));
        k = sig_put(msg, k, sizeof msg, what2);
    }
    k = sig_put(msg, k, sizeof msg, c->grad ? " in a derivative call of " : " in a forward call of ");
    k = sig_put_dec(msg, k, sizeof msg, c->n);
    k = sig_put(msg, k, sizeof msg, " inputs from x = 0x");
    k = sig_put_hex(msg, k, sizeof msg, c->x0, c->digits);
    k = sig_put(msg, k, sizeof msg, " (encoding); no output was replaced\n");
    ssize_t w = write(STDERR_FILENO, msg, k);
    (void)w;
    if (crash_hook) crash_hook();
    exit_now(1);
}

static const plugin_call *in_flight(void)
{
    return mine && atomic_load(&mine->start_ns) ? mine : NULL;
}

/* A crash inside a plugin kernel (a wild access, an abort, a failed assert): say which, exit 1.
 * A crash elsewhere takes its default course. */
static void on_crash(int sig)
{
    const plugin_call *c = in_flight();
    if (!c) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    const char *name = sig == SIGABRT ? ": SIGABRT, an abort() or a failed assert)" : ")";
    report_and_exit(c, "crashed (signal ", sig, name);
}

/* A kernel that ends the process: _exit (this definition, exported from the executable,
 * precedes the C library's for the plugins: plugins/meson.build), or exit (the handler
 * registered at the first load). Elsewhere, _exit is the C library's. */
void _exit(int status)
{
    const plugin_call *c = in_flight();
    if (c && !atomic_load(&reporting)) report_and_exit(c, "called _exit(", status, ")");
    exit_now(status);
}

static void on_exit_in_kernel(void)
{
    const plugin_call *c = in_flight();
    if (c && !atomic_load(&reporting)) report_and_exit(c, "called exit()", 0, NULL);
}

/* The watchdog: a kernel call running longer than the timeout (plugins_set_call_timeout) ends
 * the process, named. */
static void *watchdog(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec tick = {0, 100000000L};
        nanosleep(&tick, NULL);
        uint64_t now = now_ns(), limit = (uint64_t)(call_timeout_s * 1e9);
        unsigned n = atomic_load(&ncalls);
        for (unsigned i = 0; i < n && i < WATCHED_THREADS; i++) {
            uint64_t t0 = atomic_load(&calls[i].start_ns);
            if (t0 && now > t0 && now - t0 > limit)
                report_and_exit(&calls[i], "has not returned within ", (long)call_timeout_s,
                                " s (--exec-timeout)");
        }
    }
    return NULL;
}

static plugin_call *begin(const slot *s, int grad, uint32_t x0, int digits, size_t n)
{
    if (!mine) {
        unsigned i = atomic_fetch_add(&ncalls, 1);
        mine = i < WATCHED_THREADS ? &calls[i] : &unwatched;
    }
    atomic_store(&mine->s, s);
    mine->grad = grad;
    mine->x0 = x0;
    mine->digits = digits;
    mine->n = n;
    atomic_store(&mine->start_ns, now_ns());
    return mine;
}

static void call(size_t k, int grad, const float *x, float *y, size_t n)
{
    const slot *s = &slots[k];
    if (s->hosted >= 0) {
        exec_hosted_run(s->hosted, grad != 0, x, y, n);
        return;
    }
    uint32_t x0 = 0;
    if (n) memcpy(&x0, x, 4);
    plugin_call *c = begin(s, grad, x0, 8, n);
    (grad ? s->derivative : s->forward)(x, y, n);
    atomic_store(&c->start_ns, 0);
}

static void call16(size_t k, int grad, const uint16_t *x, uint16_t *y, size_t n)
{
    const slot *s = &slots[k];
    if (s->hosted >= 0) {
        exec_hosted_run(s->hosted, grad != 0, x, y, n);
        return;
    }
    plugin_call *c = begin(s, grad, n ? x[0] : 0, 4, n);
    (grad ? s->derivative16 : s->forward16)(x, y, n);
    atomic_store(&c->start_ns, 0);
}

static void call64(size_t k, int grad, const double *x, double *y, size_t n)
{
    const slot *s = &slots[k];
    if (s->hosted >= 0) {
        exec_hosted_run(s->hosted, grad != 0, x, y, n);
        return;
    }
    (grad ? s->derivative64 : s->forward64)(x, y, n); /* in-process: called directly */
}

#define SLOT_KERNELS(id, k)                                                                        \
    static void forward_##id(const float *x, float *y, size_t n) { call(k, 0, x, y, n); }         \
    static void derivative_##id(const float *x, float *y, size_t n) { call(k, 1, x, y, n); }      \
    static void forward16_##id(const uint16_t *x, uint16_t *y, size_t n) { call16(k, 0, x, y, n); } \
    static void derivative16_##id(const uint16_t *x, uint16_t *y, size_t n) { call16(k, 1, x, y, n); } \
    static uint64_t own_time_##id(void) { return exec_hosted_time_ns(slots[k].hosted); }       \
    static const char *isa_##id(void) { return slots[k].isa_text; }                             \
    static void forward64_##id(const double *x, double *y, size_t n) { call64(k, 0, x, y, n); }   \
    static void derivative64_##id(const double *x, double *y, size_t n) { call64(k, 1, x, y, n); }
/* ten slots t0 .. t9, numbered 10·t .. 10·t + 9 */
#define SLOTS10(t)                                                                                 \
    SLOT_KERNELS(t##0, t * 10 + 0) SLOT_KERNELS(t##1, t * 10 + 1) SLOT_KERNELS(t##2, t * 10 + 2)  \
    SLOT_KERNELS(t##3, t * 10 + 3) SLOT_KERNELS(t##4, t * 10 + 4) SLOT_KERNELS(t##5, t * 10 + 5)  \
    SLOT_KERNELS(t##6, t * 10 + 6) SLOT_KERNELS(t##7, t * 10 + 7) SLOT_KERNELS(t##8, t * 10 + 8)  \
    SLOT_KERNELS(t##9, t * 10 + 9)
#define PAIRS10(f, d, t)                                                                           \
    {f##t##0, d##t##0}, {f##t##1, d##t##1}, {f##t##2, d##t##2}, {f##t##3, d##t##3},               \
    {f##t##4, d##t##4}, {f##t##5, d##t##5}, {f##t##6, d##t##6}, {f##t##7, d##t##7},               \
    {f##t##8, d##t##8}, {f##t##9, d##t##9}
#define TIMES10(t)                                                                                 \
    own_time_##t##0, own_time_##t##1, own_time_##t##2, own_time_##t##3, own_time_##t##4,          \
    own_time_##t##5, own_time_##t##6, own_time_##t##7, own_time_##t##8, own_time_##t##9
#define ISAS10(t)                                                                                  \
    isa_##t##0, isa_##t##1, isa_##t##2, isa_##t##3, isa_##t##4, isa_##t##5, isa_##t##6,           \
    isa_##t##7, isa_##t##8, isa_##t##9
#define ALL_SLOTS(X, ...)                                                                          \
    X(__VA_ARGS__ 0), X(__VA_ARGS__ 1), X(__VA_ARGS__ 2), X(__VA_ARGS__ 3), X(__VA_ARGS__ 4),     \
    X(__VA_ARGS__ 5), X(__VA_ARGS__ 6), X(__VA_ARGS__ 7), X(__VA_ARGS__ 8), X(__VA_ARGS__ 9),     \
    X(__VA_ARGS__ 10), X(__VA_ARGS__ 11)
SLOTS10(0) SLOTS10(1) SLOTS10(2) SLOTS10(3) SLOTS10(4) SLOTS10(5) SLOTS10(6) SLOTS10(7)
SLOTS10(8) SLOTS10(9) SLOTS10(10) SLOTS10(11)
_Static_assert(PLUGIN_IMPLS_MAX == 120, "twelve SLOTS10 rows above and below");
static const gelu_kernel slot_kernels[PLUGIN_IMPLS_MAX][2] = {
    ALL_SLOTS(PAIRS10, forward_, derivative_,)};
static const gelu_kernel_u16 slot_kernels16[PLUGIN_IMPLS_MAX][2] = {
    ALL_SLOTS(PAIRS10, forward16_, derivative16_,)};
static const gelu_kernel_f64 slot_kernels64[PLUGIN_IMPLS_MAX][2] = {
    ALL_SLOTS(PAIRS10, forward64_, derivative64_,)};
/* a hosted row's kernel time, as its children reported it */
static uint64_t (*const slot_times[PLUGIN_IMPLS_MAX])(void) = {ALL_SLOTS(TIMES10, )};
/* a row described by its host: dispatched_isa's answer there */
static const char *(*const slot_isas[PLUGIN_IMPLS_MAX])(void) = {ALL_SLOTS(ISAS10, )};
_Static_assert((int)PLUGIN_IMPLS_MAX <= (int)EXEC_HOSTED_MAX, "a hosted row for every plugin row");

static int host_path(char *buf, size_t size);

/* The descriptions read in the plugins' own processes (plugin_describe.c): their strings are
 * the rows' for the run. */
static plugin_description *described[PLUGIN_IMPLS_MAX];
static size_t ndescribed;

/* The plugin's description from its host (own_process), so that none of its code runs here;
 * NULL with err. */
static const gelucheck_plugin_info_v1 *describe_elsewhere(const char *path, double timeout_s,
                                                          plugin_description **pd, char *err,
                                                          size_t errsize)
{
    char host[PATH_MAX];
    *pd = NULL;
    if (host_path(host, sizeof host) != 0 || access(host, X_OK) != 0) {
        snprintf(err, errsize, "cannot load plugin '%s' in its own process: no program '%s' (%s; "
                 "installed beside gelucheck; GELUCHECK_PLUGIN_HOST names another; --in-process "
                 "runs plugins in gelucheck's process)", path, host, strerror(errno));
        return NULL;
    }
    plugin_description *d = calloc(1, sizeof *d);
    if (!d || ndescribed == PLUGIN_IMPLS_MAX) {
        free(d);
        snprintf(err, errsize, "plugin '%s': out of memory", path);
        return NULL;
    }
    if (plugin_describe(host, path, timeout_s, d, err, errsize) != 0) {
        free(d);
        return NULL;
    }
    described[ndescribed++] = d;
    *pd = d;
    return &d->info;
}

/* Loads the plugin at path; its implementations' source is "<kind> 'PATH'". own_process: its
 * description is read by its host (plugin_describe.c). */
static int load(const char *path, const char *kind, bool own_process, double timeout_s, char *err,
                size_t errsize)
{
    char sha[SHA256_HEX];
    if (sha256_file(path, sha) != 0) {
        snprintf(err, errsize, "cannot load plugin '%s': %s", path, input_strerror(errno));
        return -1;
    }
    plugin_description *pd = NULL;
    const gelucheck_plugin_info_v1 *p = NULL;
    const char *left_text = NULL;
    void *h = NULL;
    if (own_process && !describe_elsewhere(path, timeout_s, &pd, err, errsize)) return -1;
    if (pd) {
        p = &pd->info;
        left_text = pd->left_out;
    } else {
        if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
            const char *e = dlerror();
            snprintf(err, errsize, "cannot load plugin '%s': %s", path, e ? e : "dlopen failed");
            return -1;
        }
        const gelucheck_plugin_info_v1 *(*entry)(void);
        *(void **)&entry = dlsym(h, "gelucheck_plugin_v1");
        if (!entry) {
            snprintf(err, errsize, "plugin '%s' has no gelucheck_plugin_v1 function: not a "
                     "gelucheck plugin (see include/gelucheck/plugin.h)", path);
            dlclose(h);
            return -1;
        }
        p = entry();
        if (!p) {
            snprintf(err, errsize, "plugin '%s': gelucheck_plugin_v1() returned NULL", path);
            dlclose(h);
            return -1;
        }
        const char *(*left)(void);
        *(void **)&left = dlsym(h, "gelucheck_plugin_left_out_v1");
        left_text = left ? left() : NULL;
    }
    if (p->abi != GELUCHECK_PLUGIN_ABI || p->count == 0 || p->count > 64 || !p->impls) {
        if (p->abi != GELUCHECK_PLUGIN_ABI)
            snprintf(err, errsize, "plugin '%s' is built for plugin ABI %u; this gelucheck speaks %d",
                     path, p->abi, GELUCHECK_PLUGIN_ABI);
        else
            snprintf(err, errsize, "plugin '%s' describes %u implementations (1 to 64, with a list)",
                     path, p->count);
        if (h) dlclose(h);
        return -1;
    }
    if (nslots + p->count > PLUGIN_IMPLS_MAX) {
        size_t peers_rows = 0;
        for (size_t k = 0; k < nslots; k++) peers_rows += strncmp(slots[k].source, "default peer ", 13) == 0;
        snprintf(err, errsize, "plugin '%s': its %u implementations and the %zu loaded before it "
                 "(%zu of the default peers: GELUCHECK_NO_DEFAULT_PEERS=1 runs without them) are "
                 "more than %d in all", path, p->count, nslots, peers_rows, PLUGIN_IMPLS_MAX);
        if (h) dlclose(h);
        return -1;
    }
    /* every description checked before any is added: a bad plugin adds nothing */
    for (uint32_t i = 0; i < p->count; i++) {
        char why[300];
        unsigned features;
        gelu_target target;
        if (plugin_check_impl(&p->impls[i], &features, &target, why, sizeof why) != 0) {
            snprintf(err, errsize, "plugin '%s', implementation %u: %s", path, i + 1, why);
            if (h) dlclose(h);
            return -1;
        }
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(p->impls[j].name, p->impls[i].name) == 0 &&
                strcmp(p->impls[j].format, p->impls[i].format) == 0) {
                snprintf(err, errsize, "plugin '%s' names two implementations '%s'", path,
                         p->impls[i].name);
                if (h) dlclose(h);
                return -1;
            }
    }
    if (nslots == 0) { /* the crash report, the exit handler and the watchdog, once */
        static const int crashes[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_crash;
        sigemptyset(&sa.sa_mask);
        for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
            sigaction(crashes[i], &sa, NULL);
        atexit(on_exit_in_kernel);
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &attr, watchdog, NULL) != 0) {
            pthread_attr_destroy(&attr);
            snprintf(err, errsize, "plugin '%s': cannot start the kernel calls' watchdog thread",
                     path);
            if (h) dlclose(h);
            return -1;
        }
        pthread_attr_destroy(&attr);
    }
    for (uint32_t i = 0; i < p->count; i++) {
        const gelucheck_impl_v1 *d = &p->impls[i];
        slot *s = &slots[nslots];
        unsigned features;
        gelu_target target;
        char why[300];
        plugin_check_impl(d, &features, &target, why, sizeof why);
        size_t n = strlen(kind) + strlen(path) + 4;
        char *origin = strdup(d->origin ? d->origin : "");
        const char *known = HAS_FIELD(d, known_as) ? d->known_as : NULL;
        char *known_as = known ? strdup(known) : NULL;
        if (!origin || (known && !known_as) || !(s->source = malloc(n))) {
            free(origin);
            free(known_as);
            snprintf(err, errsize, "out of memory");
            return -1;
        }
        snprintf(s->source, n, "%s '%s'", kind, path);
        s->path = strdup(path);
        s->hosted = -1;
        if (!s->path) {
            free(origin);
            free(known_as);
            free(s->source);
            snprintf(err, errsize, "out of memory");
            return -1;
        }
        snprintf(s->crash_text, sizeof s->crash_text, "%s '%.400s', implementation '%s',", kind,
                 path, d->name);
        memcpy(s->sha256, sha, sizeof sha);
        s->forward = d->forward;
        s->derivative = d->derivative;
        s->impl = (gelu_impl){
            .name = d->name,
            .target = target,
            .features = features,
            .forward = slot_kernels[nslots][0],
            .derivative = d->derivative ? slot_kernels[nslots][1] : NULL, /* NULL: forward only */
            .contract = {.max_ulp = d->contract.max_ulp, .max_abs = d->contract.max_abs,
                         .monotone = d->contract.monotone != 0,
                         .specials = d->contract.specials != 0,
                         .grad_max_ulp = d->contract.grad_max_ulp,
                         .grad_max_abs = d->contract.grad_max_abs,
                         .correctly_rounded = d->contract.correctly_rounded != 0},
            .origin = origin,
            .family = HAS_FIELD(d, family) && d->family ? gelu_family_from_key(d->family)
                                                       : GELU_FAMILY_OURS,
            .known_as = known_as,
            .own_threads = d->own_threads != 0,
            .method = HAS_FIELD(d, method) ? d->method : NULL,
            .isa = plugin_isa_of(d),
            .dispatched_isa = pd && pd->dispatched_isa[i] ? slot_isas[nslots]
                              : HAS_FIELD(d, dispatched_isa) ? d->dispatched_isa : NULL,
        };
        s->isa_text = pd ? pd->dispatched_isa[i] : NULL;
        const gelu_format_id format = plugin_format_of(d);
        const bool is16 = gelu_format_small(gelu_format_of(format));
        if (gelu_format_sampled(gelu_format_of(format))) { /* the binary64 list (impls/gelu_f64.h), direct */
            s->impl.format = GELU_FORMAT_BINARY64;
            s->impl.forward = s->impl.derivative = NULL;
            s->forward64 = d->forward_binary64;
            s->derivative64 = d->derivative_binary64;
            s->impl.forward_f64 = d->forward_binary64;
            s->impl.derivative_f64 = d->derivative_binary64;
        } else if (is16) { /* the format's natives (impls/gelu_cr16.h), behind the trampolines */
            s->forward16 = d->forward_u16;
            s->derivative16 = d->derivative_u16;
            s->impl.format = format;
            s->impl.forward = s->impl.derivative = NULL;
            s->impl.forward_u16 = slot_kernels16[nslots][0];
            s->impl.derivative_u16 = d->derivative_u16 ? slot_kernels16[nslots][1] : NULL;
        }
        exec_sanitize_text(origin);
        if (known_as) exec_sanitize_text(known_as);
        if (gelu_impl_add(&s->impl, s->source, err, errsize) != 0) {
            free(origin);
            free(known_as);
            free(s->source);
            free(s->path);
            return -1;
        }
        nslots++;
    }
    const char *text = left_text;
    if (text && *text && nleft_out < PLUGIN_IMPLS_MAX) {
        size_t n = strlen(kind) + strlen(path) + 4;
        char *copy = strndup(text, 600), *source = malloc(n);
        if (!copy || !source) {
            free(copy);
            free(source);
            snprintf(err, errsize, "out of memory");
            return -1;
        }
        exec_sanitize_text(copy);
        snprintf(source, n, "%s '%s'", kind, path);
        left_out[nleft_out].text = copy;
        left_out[nleft_out++].source = source;
    }
    return 0; /* the library stays loaded until the process ends */
}

const char *plugins_left_out(size_t i, const char **source)
{
    if (i >= nleft_out) return NULL;
    *source = left_out[i].source;
    return left_out[i].text;
}

int plugins_load(const char *path, bool own_process, double timeout_s, char *err, size_t errsize)
{
    return load(path, "plugin", own_process, timeout_s, err, errsize);
}

/* ---- the default peers (peers/meson.build): GELUCHECK_PEERS lists those this build made */

static const char peer_kind[] = "default peer";
static struct {
    char name[16];
    char path[PATH_MAX + 64];
    bool loaded;
} peers[8];
static size_t npeers;

/* The directory of the default peers into dir: GELUCHECK_PEERS_DIR when set, the build tree's
 * peers/ for an executable of the build tree, else the install's: GELUCHECK_PEERS_FROM_BINDIR,
 * relative to the executable's directory unless absolute. −1 when the executable's path is
 * unknown. */
static int peers_dir(char *dir, size_t size)
{
    const char *forced = getenv("GELUCHECK_PEERS_DIR");
    if (forced && *forced) return snprintf(dir, size, "%s", forced) < (int)size ? 0 : -1;
    char exe[PATH_MAX], root[PATH_MAX];
    if (!realpath("/proc/self/exe", exe)) return -1;
    size_t n = strlen(exe);
    if (realpath(GELUCHECK_BUILD_ROOT, root) && strncmp(exe, root, strlen(root)) == 0 &&
        exe[strlen(root)] == '/')
        return snprintf(dir, size, "%s/peers", root) < (int)size ? 0 : -1;
    while (n > 0 && exe[n - 1] != '/') n--;
    exe[n > 1 ? n - 1 : n] = '\0'; /* the executable's directory */
    const char *rel = GELUCHECK_PEERS_FROM_BINDIR;
    int w = rel[0] == '/' ? snprintf(dir, size, "%s", rel) : snprintf(dir, size, "%s/%s", exe, rel);
    return w >= 0 && (size_t)w < size ? 0 : -1;
}

int plugins_load_default_peers(char *err, size_t errsize)
{
    const char *off = getenv("GELUCHECK_NO_DEFAULT_PEERS");
    if ((off && *off && strcmp(off, "0") != 0) || npeers > 0) return 0;
    char dir[PATH_MAX];
    if (peers_dir(dir, sizeof dir) != 0) {
        snprintf(err, errsize, "cannot find the default peers' directory (/proc/self/exe "
                 "unreadable); GELUCHECK_NO_DEFAULT_PEERS=1 runs without them");
        return -1;
    }
    const char *list = GELUCHECK_PEERS;
    while (*list && npeers < sizeof peers / sizeof peers[0]) {
        size_t len = strcspn(list, ",");
        char name[sizeof peers[0].name];
        snprintf(name, sizeof name, "%.*s", (int)len, list);
        list += len + (list[len] == ',');
        char *path = peers[npeers].path;
        memcpy(peers[npeers].name, name, sizeof name);
        snprintf(path, sizeof peers[npeers].path, "%s/gelucheck_peer_%s.so", dir, name);
        npeers++;
        if (access(path, F_OK) != 0 && errno == ENOENT) continue; /* listed as not found */
        char why[1600];
        if (load(path, peer_kind, false, 0, why, sizeof why) != 0) {
            snprintf(err, errsize, "%s (a default peer; GELUCHECK_NO_DEFAULT_PEERS=1 runs without "
                     "them)", why);
            return -1;
        }
        peers[npeers - 1].loaded = true;
    }
    return 0;
}

size_t plugins_default_peer_count(void) { return npeers; }

const char *plugins_default_peer(size_t i, const char **path, bool *loaded)
{
    if (i >= npeers) return NULL;
    *path = peers[i].path;
    *loaded = peers[i].loaded;
    return peers[i].name;
}

/* ---- plugin rows in their own processes (gelucheck-plugin-host, plugin_host.c) */

/* The host program into buf: GELUCHECK_PLUGIN_HOST when set, the build tree's for an
 * executable of the build tree, else the one beside the executable (both are installed in
 * bindir). −1 when the executable's path is unknown. */
static int host_path(char *buf, size_t size)
{
    const char *forced = getenv("GELUCHECK_PLUGIN_HOST");
    if (forced && *forced) return snprintf(buf, size, "%s", forced) < (int)size ? 0 : -1;
    char exe[PATH_MAX], root[PATH_MAX];
    if (!realpath("/proc/self/exe", exe)) return -1;
    if (realpath(GELUCHECK_BUILD_ROOT, root) && strncmp(exe, root, strlen(root)) == 0 &&
        exe[strlen(root)] == '/')
        return snprintf(buf, size, "%s/plugins/gelucheck-plugin-host", root) < (int)size ? 0 : -1;
    size_t n = strlen(exe);
    while (n > 0 && exe[n - 1] != '/') n--;
    exe[n] = '\0'; /* the executable's directory, with its '/' */
    return snprintf(buf, size, "%sgelucheck-plugin-host", exe) < (int)size ? 0 : -1;
}

/* s as one word of /bin/sh: 'single quoted', a quote inside as '\''. */
static size_t shell_word(char *buf, size_t at, size_t size, const char *s)
{
    at = sig_put(buf, at, size, "'");
    for (; *s; s++) at = sig_put(buf, at, size, *s == '\'' ? "'\\''" : (char[2]){*s, 0});
    return sig_put(buf, at, size, "' ");
}

int plugins_isolate(double timeout_s, char *err, size_t errsize)
{
    char host[PATH_MAX];
    bool found = false;
    for (size_t k = 0; k < nslots; k++) {
        slot *s = &slots[k];
        if (plugins_is_default_peer(&s->impl) || s->hosted >= 0) continue; /* the peers run here */
        if (!found) {
            if (host_path(host, sizeof host) != 0 || access(host, X_OK) != 0) {
                snprintf(err, errsize, "cannot run plugin '%s' in its own process: no program "
                         "'%s' (%s; installed beside gelucheck; GELUCHECK_PLUGIN_HOST names "
                         "another; --in-process runs plugins in gelucheck's process)", s->path,
                         host, strerror(errno));
                return -1;
            }
            found = true;
        }
        char cmd[3 * PATH_MAX], label[PATH_MAX + 200];
        size_t at = sig_put(cmd, 0, sizeof cmd, "exec ");
        at = shell_word(cmd, at, sizeof cmd, host);
        at = shell_word(cmd, at, sizeof cmd, s->path);
        at = shell_word(cmd, at, sizeof cmd, s->impl.name);
        at = shell_word(cmd, at, sizeof cmd, gelu_format_of(s->impl.format)->name);
        cmd[at - 1] = '\0'; /* the last word's space */
        snprintf(label, sizeof label, "plugin '%s', implementation '%s' (in its own process)",
                 s->path, s->impl.name);
        int h = exec_hosted_add(cmd, label, &s->impl, timeout_s, err, errsize);
        if (h < 0) return -1;
        s->hosted = h;
        if (s->impl.forward_f64) { /* binary64's kernels are called directly in-process */
            s->impl.forward_f64 = slot_kernels64[k][0];
            s->impl.derivative_f64 = s->impl.derivative_f64 ? slot_kernels64[k][1] : NULL;
        }
        s->impl.batch_inputs = EXEC_BATCH_INPUTS;
        s->impl.other_process = true;
        s->impl.call_failure = exec_impls_failure;
        s->impl.own_time_ns = slot_times[k];
    }
    return 0;
}

const char *plugins_sha256(const gelu_impl *impl)
{
    for (size_t k = 0; k < nslots; k++)
        if (impl == &slots[k].impl) return slots[k].sha256;
    return NULL;
}

bool plugins_is_default_peer(const gelu_impl *impl)
{
    const char *src = gelu_impl_source(impl);
    return src && strncmp(src, peer_kind, strlen(peer_kind)) == 0 && src[strlen(peer_kind)] == ' ';
}
