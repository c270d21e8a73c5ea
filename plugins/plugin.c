/* Shared-library plugins (plugin.h, include/gelucheck/plugin.h). */
#define _GNU_SOURCE
#include "plugin.h"

#include <dlfcn.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"
#include "gelu_impl.h"
#include "gelucheck/plugin.h"

typedef struct {
    gelu_impl impl;
    gelucheck_kernel_binary32 forward, derivative; /* the plugin's own */
    char *source;
    char crash_text[600]; /* "plugin 'PATH', implementation 'NAME'", made when loaded */
} slot;

static slot slots[PLUGIN_IMPLS_MAX];
static size_t nslots;
static void (*crash_hook)(void);

/* What this thread runs inside a plugin: the slot, the direction, the call's first input. */
static _Thread_local const slot *running;
static _Thread_local int running_grad;
static _Thread_local uint32_t running_x0;
static _Thread_local size_t running_n;

void plugins_set_crash_hook(void (*hook)(void)) { crash_hook = hook; }

static size_t put(char *buf, size_t at, size_t size, const char *s)
{
    while (*s && at + 1 < size) buf[at++] = *s++;
    return at;
}

static size_t put_hex(char *buf, size_t at, size_t size, uint64_t v, int digits)
{
    for (int i = digits - 1; i >= 0 && at + 1 < size; i--) buf[at++] = "0123456789abcdef"[(v >> (4 * i)) & 15];
    return at;
}

static size_t put_dec(char *buf, size_t at, size_t size, uint64_t v)
{
    char t[24];
    int k = 0;
    do t[k++] = (char)('0' + v % 10); while ((v /= 10) && k < 24);
    while (k > 0 && at + 1 < size) buf[at++] = t[--k];
    return at;
}

/* A crash inside a plugin kernel: say which (async-signal-safe formatting), let the CLI remove
 * its temporaries, exit 1. A crash elsewhere takes its default course. */
static void on_crash(int sig)
{
    const slot *s = running;
    if (!s) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    char msg[1024];
    size_t k = put(msg, 0, sizeof msg, "gelucheck: ");
    k = put(msg, k, sizeof msg, s->crash_text);
    k = put(msg, k, sizeof msg, " crashed (signal ");
    k = put_dec(msg, k, sizeof msg, (uint64_t)sig);
    k = put(msg, k, sizeof msg, running_grad ? ") in a derivative call of " : ") in a forward call of ");
    k = put_dec(msg, k, sizeof msg, running_n);
    k = put(msg, k, sizeof msg, " inputs from x = 0x");
    k = put_hex(msg, k, sizeof msg, running_x0, 8);
    k = put(msg, k, sizeof msg, " (encoding); no output was replaced\n");
    ssize_t w = write(STDERR_FILENO, msg, k);
    (void)w;
    if (crash_hook) crash_hook();
    _exit(1);
}

static void call(size_t k, int grad, const float *x, float *y, size_t n)
{
    const slot *s = &slots[k];
    running = s;
    running_grad = grad;
    running_n = n;
    if (n) memcpy(&running_x0, x, 4);
    (grad ? s->derivative : s->forward)(x, y, n);
    running = NULL;
}

#define SLOT_KERNELS(k)                                                                            \
    static void forward_##k(const float *x, float *y, size_t n) { call(k, 0, x, y, n); }          \
    static void derivative_##k(const float *x, float *y, size_t n) { call(k, 1, x, y, n); }
#define SLOT_PAIR(k) {forward_##k, derivative_##k}
SLOT_KERNELS(0) SLOT_KERNELS(1) SLOT_KERNELS(2) SLOT_KERNELS(3) SLOT_KERNELS(4) SLOT_KERNELS(5)
SLOT_KERNELS(6) SLOT_KERNELS(7) SLOT_KERNELS(8) SLOT_KERNELS(9) SLOT_KERNELS(10)
SLOT_KERNELS(11) SLOT_KERNELS(12) SLOT_KERNELS(13) SLOT_KERNELS(14) SLOT_KERNELS(15)
SLOT_KERNELS(16) SLOT_KERNELS(17) SLOT_KERNELS(18) SLOT_KERNELS(19) SLOT_KERNELS(20)
SLOT_KERNELS(21) SLOT_KERNELS(22) SLOT_KERNELS(23) SLOT_KERNELS(24) SLOT_KERNELS(25)
SLOT_KERNELS(26) SLOT_KERNELS(27) SLOT_KERNELS(28) SLOT_KERNELS(29) SLOT_KERNELS(30)
SLOT_KERNELS(31)
static const gelu_kernel slot_kernels[PLUGIN_IMPLS_MAX][2] = {
    SLOT_PAIR(0),  SLOT_PAIR(1),  SLOT_PAIR(2),  SLOT_PAIR(3),  SLOT_PAIR(4),  SLOT_PAIR(5),
    SLOT_PAIR(6),  SLOT_PAIR(7),  SLOT_PAIR(8),  SLOT_PAIR(9),  SLOT_PAIR(10), SLOT_PAIR(11),
    SLOT_PAIR(12), SLOT_PAIR(13), SLOT_PAIR(14), SLOT_PAIR(15), SLOT_PAIR(16), SLOT_PAIR(17),
    SLOT_PAIR(18), SLOT_PAIR(19), SLOT_PAIR(20), SLOT_PAIR(21), SLOT_PAIR(22), SLOT_PAIR(23),
    SLOT_PAIR(24), SLOT_PAIR(25), SLOT_PAIR(26), SLOT_PAIR(27), SLOT_PAIR(28), SLOT_PAIR(29),
    SLOT_PAIR(30), SLOT_PAIR(31)};

/* "avx2,fma" → CPU_FEATURE_* bits; −1 with the unknown word in bad. */
static int parse_features(const char *s, unsigned *out, char *bad, size_t size)
{
    static const struct {
        const char *name;
        unsigned bit;
    } known[] = {{"avx2", CPU_FEATURE_AVX2},         {"fma", CPU_FEATURE_FMA},
                 {"avx512f", CPU_FEATURE_AVX512F},   {"avx512dq", CPU_FEATURE_AVX512DQ},
                 {"avx512bw", CPU_FEATURE_AVX512BW}, {"avx512vl", CPU_FEATURE_AVX512VL}};
    *out = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        size_t i = 0;
        while (i < sizeof known / sizeof known[0] &&
               !(strlen(known[i].name) == len && strncmp(known[i].name, s, len) == 0))
            i++;
        if (i == sizeof known / sizeof known[0]) {
            snprintf(bad, size, "%.*s", (int)(len > 40 ? 40 : len), s);
            return -1;
        }
        *out |= known[i].bit;
        s += len + (s[len] == ',');
    }
    return 0;
}

static bool bound_ok(double b) { return !isnan(b) && b >= 0; }

/* Checks one description; the field at fault into why. */
static int check_impl(const gelucheck_impl_v1 *d, unsigned *features, gelu_target *target,
                      char *why, size_t size)
{
    char bad[64], names[256];
    if (d->size < sizeof(gelucheck_impl_v1))
        return snprintf(why, size, "size %u is smaller than version 1's %zu", d->size,
                        sizeof(gelucheck_impl_v1)), -1;
    if (!d->name || !exec_name_ok(d->name))
        return snprintf(why, size, "name %s%.60s%s is not 1 to 48 of A-Z a-z 0-9 _ starting with a "
                        "letter", d->name ? "'" : "", d->name ? d->name : "(none)", d->name ? "'" : ""), -1;
    if (!d->target || (*target = gelu_target_from_name(d->target)) == GELU_TARGET_COUNT)
        return snprintf(why, size, "target '%.40s' is not %s", d->target ? d->target : "(none)",
                        gelu_target_list(false, names, sizeof names)), -1;
    /* a registered format (impls/gelu_format.h) whose kernels this ABI carries: binary32's */
    const gelu_format *f = d->format ? gelu_format_find(d->format) : NULL;
    if (!f || f->id != GELU_FORMAT_BINARY32)
        return snprintf(why, size, "format '%.40s' is not one this gelucheck scans (binary32)",
                        d->format ? d->format : "(none)"), -1;
    if (parse_features(d->cpu_features ? d->cpu_features : "", features, bad, sizeof bad) != 0)
        return snprintf(why, size, "cpu_features: '%s' is not one of avx2, fma, avx512f, avx512dq, "
                        "avx512bw, avx512vl", bad), -1;
    if (!d->forward) return snprintf(why, size, "no forward kernel"), -1;
    const gelucheck_contract_v1 *c = &d->contract;
    const double b[4] = {c->max_ulp, c->max_abs, c->grad_max_ulp, c->grad_max_abs};
    static const char *const bn[4] = {"max_ulp", "max_abs", "grad_max_ulp", "grad_max_abs"};
    for (int i = 0; i < 4; i++)
        if (!bound_ok(b[i]))
            return snprintf(why, size, "contract.%s is %g (a bound is >= 0; GELUCHECK_NO_CLAIM for "
                            "none)", bn[i], b[i]), -1;
    return 0;
}

int plugins_load(const char *path, char *err, size_t errsize)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(err, errsize, "cannot load plugin '%s': %s", path, e ? e : "dlopen failed");
        return -1;
    }
    const gelucheck_plugin_info_v1 *(*entry)(void);
    *(void **)&entry = dlsym(h, "gelucheck_plugin_v1");
    if (!entry) {
        snprintf(err, errsize, "plugin '%s' has no gelucheck_plugin_v1 function: not a gelucheck "
                 "plugin (see include/gelucheck/plugin.h)", path);
        dlclose(h);
        return -1;
    }
    const gelucheck_plugin_info_v1 *p = entry();
    if (!p || p->abi != GELUCHECK_PLUGIN_ABI || p->count == 0 || p->count > 64 || !p->impls) {
        if (!p)
            snprintf(err, errsize, "plugin '%s': gelucheck_plugin_v1() returned NULL", path);
        else if (p->abi != GELUCHECK_PLUGIN_ABI)
            snprintf(err, errsize, "plugin '%s' is built for plugin ABI %u; this gelucheck speaks %d",
                     path, p->abi, GELUCHECK_PLUGIN_ABI);
        else
            snprintf(err, errsize, "plugin '%s' describes %u implementations (1 to 64, with a list)",
                     path, p->count);
        dlclose(h);
        return -1;
    }
    if (nslots + p->count > PLUGIN_IMPLS_MAX) {
        snprintf(err, errsize, "plugin '%s': more than %d plugin implementations in all", path,
                 PLUGIN_IMPLS_MAX);
        dlclose(h);
        return -1;
    }
    /* every description checked before any is added: a bad plugin adds nothing */
    for (uint32_t i = 0; i < p->count; i++) {
        char why[300];
        unsigned features;
        gelu_target target;
        if (check_impl(&p->impls[i], &features, &target, why, sizeof why) != 0) {
            snprintf(err, errsize, "plugin '%s', implementation %u: %s", path, i + 1, why);
            dlclose(h);
            return -1;
        }
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(p->impls[j].name, p->impls[i].name) == 0) {
                snprintf(err, errsize, "plugin '%s' names two implementations '%s'", path,
                         p->impls[i].name);
                dlclose(h);
                return -1;
            }
    }
    if (nslots == 0) { /* the crash report, once */
        static const int crashes[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_crash;
        sigemptyset(&sa.sa_mask);
        for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
            sigaction(crashes[i], &sa, NULL);
    }
    for (uint32_t i = 0; i < p->count; i++) {
        const gelucheck_impl_v1 *d = &p->impls[i];
        slot *s = &slots[nslots];
        unsigned features;
        gelu_target target;
        char why[300];
        check_impl(d, &features, &target, why, sizeof why);
        size_t n = strlen(path) + 16;
        char *origin = strdup(d->origin ? d->origin : "");
        if (!origin || !(s->source = malloc(n))) {
            free(origin);
            snprintf(err, errsize, "out of memory");
            return -1;
        }
        snprintf(s->source, n, "plugin '%s'", path);
        snprintf(s->crash_text, sizeof s->crash_text, "plugin '%.400s', implementation '%s',",
                 path, d->name);
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
            .own_threads = d->own_threads != 0,
        };
        exec_sanitize_text(origin);
        if (gelu_impl_add(&s->impl, s->source, err, errsize) != 0) {
            free(origin);
            free(s->source);
            return -1;
        }
        nslots++;
    }
    return 0; /* the library stays loaded until the process ends */
}
