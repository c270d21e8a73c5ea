/* gelucheck-plugin-host PLUGIN.so NAME FORMAT: one row of a plugin (include/gelucheck/plugin.h)
 * in a process of its own, served over the exec protocol (docs/protocol.md, version 2: shared
 * memory when offered, else the pipes). gelucheck starts one per row and scan thread unless
 * told --in-process (plugins/plugin.c, plugins_isolate); the row's description is gelucheck's
 * own reading of the plugin, this process only runs the kernels.
 *
 * Each kernel call is judged here, where it runs:
 *   - its inputs are mapped read-only for the call: a write into them faults, and is answered as
 *     an error naming the input it hit ("it wrote into its input (const)");
 *   - its outputs end at a PROT_NONE guard page, with a canary between the last output and the
 *     next 64-byte boundary: a write past them is answered as an error naming where;
 *   - MXCSR and the x87 control word are compared with those the call began with (util/
 *     fp_state.h): a change is answered as an error naming it;
 *   - a call of exit() or _exit() in the kernel is answered as an error naming it (this
 *     executable exports _exit: meson.build), and any other end (a crash, SIGKILL) is the
 *     child's death, which gelucheck names with its signal or status.
 * After such an answer the process ends with status 1.
 * gelucheck then stops the run with exit 1 and the message (exec.c, exec_impl.c). The plugin's
 * standard output is this process's standard error: the protocol has the pipe to itself.
 * Exit status 2 (before the handshake) for a plugin or row that cannot be served, with the reason
 * on standard error.
 *
 * gelucheck-plugin-host --describe PLUGIN.so: the plugin's description as text (plugin_fields.h),
 * read by gelucheck, which never loads the plugin's code into its own process (plugin_describe.c). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fp_state.h"
#include "sig_text.h"
#include "gelu_fpenv.h"
#include "gelucheck/plugin.h"
#include "plugin_fields.h"

/* EXEC_MAX_COUNT (exec_handshake.h): the most inputs a request carries */
enum { MAX_COUNT = 1 << 24, OUT_ALIGN = 64, CANARY = 0xa5, MESSAGE_MAX = 4096 };

#define HAS_FIELD(d, field) ((d)->size >= offsetof(gelucheck_impl_v1, field) + sizeof((d)->field))

static int proto_in = -1, proto_out = -1; /* the protocol's pipes, moved off 0 and 1 */
static bool shm;
static size_t page;

/* The call in flight, for the signal handler and the exit hooks. */
static volatile sig_atomic_t in_call;
static unsigned char *in_lo, *in_hi;    /* the inputs' pages, read-only during the call */
static const unsigned char *x_at;       /* x[0] */
static unsigned char *guard;            /* the call's outputs' guard page */
static size_t call_n, call_es;

static _Noreturn void exit_now(int status)
{
    syscall(SYS_exit_group, status);
    for (;;) pause();
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, c + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return got == 0 && k == 0 ? 1 : -1; /* 1: the end, before any byte */
        got += (size_t)k;
    }
    return 0;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* A reply with an error status and msg (async-signal-safe). */
static void reply_error(const char *msg)
{
    unsigned char head[32] = {0};
    size_t len = strlen(msg), frame = shm ? 32 : 24;
    if (len > MESSAGE_MAX) len = MESSAGE_MAX;
    memcpy(head, shm ? "GXSP" : "GXRP", 4);
    put_u32(head + 4, 1);
    put_u64(head + 8, len);
    write_all(proto_out, head, frame);
    write_all(proto_out, msg, len);
}

/* A fault in the kernel: on its read-only inputs or its outputs' guard page, answered as what it
 * is; any other takes its default course (the child dies of it, gelucheck names the signal). */
static void on_fault(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    unsigned char *a = si->si_addr;
    char msg[300];
    size_t k = 0;
    bool fault = si->si_code > 0; /* the kernel's report of an access, not a raise() or kill */
    if (fault && in_call && a >= in_lo && a < in_hi) {
        k = sig_put(msg, k, sizeof msg, "the kernel wrote into its input (const)");
        if (a >= x_at && (size_t)(a - x_at) / call_es < call_n) {
            k = sig_put(msg, k, sizeof msg, " at x[");
            k = sig_put_dec(msg, k, sizeof msg, (uint64_t)(a - x_at) / call_es);
            k = sig_put(msg, k, sizeof msg, "]");
        }
        k = sig_put(msg, k, sizeof msg, " (mapped read-only in its own process)");
    } else if (fault && in_call && a >= guard && a < guard + page) {
        k = sig_put(msg, k, sizeof msg, "the kernel wrote past its ");
        k = sig_put_dec(msg, k, sizeof msg, call_n);
        k = sig_put(msg, k, sizeof msg, " outputs, into the guard page after y[");
        k = sig_put_dec(msg, k, sizeof msg, call_n ? call_n - 1 : 0);
        k = sig_put(msg, k, sizeof msg, "]");
    } else { /* pending until the handler returns, then the default: the process dies of it */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    msg[k] = '\0';
    reply_error(msg);
    exit_now(1);
}

/* A kernel that ends the process: _exit (this definition, exported, precedes the C library's
 * for the plugin) or exit (the atexit hook). */
void _exit(int status)
{
    if (in_call) {
        char msg[80];
        size_t k = sig_put(msg, 0, sizeof msg, "the kernel called _exit(");
        if (status < 0) k = sig_put(msg, k, sizeof msg, "-");
        k = sig_put_dec(msg, k, sizeof msg, (uint64_t)(status < 0 ? -(int64_t)status : status));
        k = sig_put(msg, k, sizeof msg, ")");
        msg[k] = '\0';
        reply_error(msg);
        exit_now(1);
    }
    exit_now(status);
}

static void on_exit_in_call(void)
{
    if (!in_call) return;
    reply_error("the kernel called exit()");
    exit_now(1);
}

static _Noreturn void refuse(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "gelucheck-plugin-host: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n");
    exit(2);
}

/* The row named name in format fmt of the plugin at path. */
static const gelucheck_impl_v1 *find_row(const char *path, const char *name, const char *fmt)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) refuse("cannot load plugin '%s': %s", path, dlerror());
    const gelucheck_plugin_info_v1 *(*entry)(void);
    *(void **)&entry = dlsym(h, "gelucheck_plugin_v1");
    if (!entry) refuse("plugin '%s' has no gelucheck_plugin_v1 function%s", path, "");
    const gelucheck_plugin_info_v1 *p = entry();
    if (!p || p->abi != GELUCHECK_PLUGIN_ABI || !p->impls)
        refuse("plugin '%s' gives no description of ABI 1%s", path, "");
    for (uint32_t i = 0; i < p->count && i < 64; i++) {
        const gelucheck_impl_v1 *d = &p->impls[i];
        if (d->name && d->format && strcmp(d->name, name) == 0 && strcmp(d->format, fmt) == 0)
            return d;
    }
    refuse("plugin '%s' has no row '%s' in that format", path, name);
}

/* --describe: the plugin's description as text (plugin_fields.h) on the standard output, which
 * is moved off descriptor 1 first (the plugin's own output goes to standard error). A plugin
 * that cannot be read is an "error" line naming why, exit 2; a fault or a hang in the plugin's
 * code is the process's end, which gelucheck names (plugin_describe.c). */
static int describe(const char *path)
{
    int fd = fcntl(1, F_DUPFD_CLOEXEC, 10);
    int null = open("/dev/null", O_RDONLY);
    if (fd < 0 || null < 0 || dup2(null, 0) < 0 || dup2(2, 1) < 0)
        refuse("cannot set up its descriptors: %s%s", strerror(errno), "");
    close(null);
    FILE *out = fdopen(fd, "w");
    if (!out) refuse("cannot set up its output: %s%s", strerror(errno), "");
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const gelucheck_plugin_info_v1 *(*entry)(void) = NULL;
    if (h) *(void **)&entry = dlsym(h, "gelucheck_plugin_v1");
    const gelucheck_plugin_info_v1 *p = entry ? entry() : NULL;
    if (!p) {
        const char *e = h ? NULL : dlerror();
        fprintf(out, "gelucheck-plugin-description %d\nerror ", PLUGIN_DESCRIPTION_VERSION);
        if (!h) fprintf(out, "cannot load plugin '"), plugin_text_put(out, path),
                fprintf(out, "': "), plugin_text_put(out, e ? e : "dlopen failed");
        else if (!entry) fprintf(out, "plugin '"), plugin_text_put(out, path),
                fprintf(out, "' has no gelucheck_plugin_v1 function: not a gelucheck plugin "
                             "(see include/gelucheck/plugin.h)");
        else fprintf(out, "plugin '"), plugin_text_put(out, path),
                fprintf(out, "': gelucheck_plugin_v1() returned NULL");
        fprintf(out, "\n");
        fclose(out);
        return 2;
    }
    const char *(*left)(void);
    *(void **)&left = dlsym(h, "gelucheck_plugin_left_out_v1");
    int rc = plugin_description_write(out, p, left ? left() : NULL);
    return fclose(out) == 0 && rc == 0 ? 0 : 3;
}

typedef void (*kernel32)(const float *, float *, size_t);
typedef void (*kernel16)(const uint16_t *, uint16_t *, size_t);
typedef void (*kernel64)(const double *, double *, size_t);

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--describe") == 0) return describe(argv[2]);
    if (argc != 4)
        refuse("usage: gelucheck-plugin-host PLUGIN.so NAME FORMAT | --describe PLUGIN.so%s%s "
               "(started by gelucheck)", "", "");
    page = (size_t)sysconf(_SC_PAGESIZE);
    /* the protocol's pipes above the standard streams; the plugin's stdout is our stderr */
    proto_in = fcntl(0, F_DUPFD_CLOEXEC, 10);
    proto_out = fcntl(1, F_DUPFD_CLOEXEC, 10);
    int null = open("/dev/null", O_RDONLY);
    if (proto_in < 0 || proto_out < 0 || null < 0 || dup2(null, 0) < 0 || dup2(2, 1) < 0)
        refuse("cannot set up its descriptors: %s%s", strerror(errno), "");
    close(null);
    const char *path = argv[1], *name = argv[2], *fmt = argv[3];
    const gelucheck_impl_v1 *d = find_row(path, name, fmt);
    /* the row's kernels of its format, by its storage size: binary32's, binary64's, the 16-bit
     * formats' (the pairs the ABI appended, when the row's size covers them) */
    kernel32 f32[2] = {NULL, NULL};
    kernel64 f64[2] = {NULL, NULL};
    kernel16 f16[2] = {NULL, NULL};
    size_t es = 2;
    if (strcmp(fmt, "binary32") == 0) {
        es = 4;
        f32[0] = d->forward;
        f32[1] = d->derivative;
    } else if (strcmp(fmt, "binary64") == 0) {
        es = 8;
        if (HAS_FIELD(d, derivative_binary64)) {
            f64[0] = d->forward_binary64;
            f64[1] = d->derivative_binary64;
        }
    } else if (HAS_FIELD(d, derivative_u16)) {
        f16[0] = d->forward_u16;
        f16[1] = d->derivative_u16;
    }
    const bool has_forward = f32[0] || f64[0] || f16[0];
    const bool has_derivative = f32[1] || f64[1] || f16[1];
    if (!has_forward) refuse("row '%s' has no forward kernel of format %s", name, fmt);
    /* the buffers hold MAX_COUNT values of 4 bytes: half as many of 8 */
    const uint64_t most = es == 8 ? MAX_COUNT / 2 : MAX_COUNT;

    gelu_fpenv asked = GELU_FPENV_IEEE;
    const char *fe = getenv("GELUCHECK_EXEC_FPENV");
    if (fe && !gelu_fpenv_parse(fe, &asked)) refuse("unknown GELUCHECK_EXEC_FPENV '%s'%s", fe, "");

    unsigned char *region = NULL;
    size_t region_size = 0;
    const char *shm_fd = getenv("GELUCHECK_EXEC_SHM");
    if (shm_fd) {
        int fd = atoi(shm_fd);
        struct stat st;
        if (fstat(fd, &st) == 0 && st.st_size > 0) {
            void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (m != MAP_FAILED) {
                region = m;
                region_size = (size_t)st.st_size;
                shm = true;
            }
        }
    }
    /* the outputs when they do not fit in the region (below): up to MAX_COUNT values, then a
     * guard page; the inputs over the pipes */
    size_t cap = ((size_t)MAX_COUNT * 4 + OUT_ALIGN + page - 1) / page * page;
    unsigned char *outmap = mmap(NULL, cap + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *inbuf = shm ? NULL : mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (outmap == MAP_FAILED || inbuf == MAP_FAILED || mprotect(outmap + cap, page, PROT_NONE) != 0)
        refuse("cannot map its buffers: %s%s", strerror(errno), "");
    unsigned char *const own_guard = outmap + cap;

    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    atexit(on_exit_in_call);

    char hs[512];
    int hn = snprintf(hs, sizeof hs,
                      "gelucheck-exec 2\nname %s\ntarget %s\nformat %s\nderivative %s\ntiming yes\n"
                      "transport %s\nfpenv ieee ftz daz ftz+daz\nend\n",
                      name, d->target, fmt, has_derivative ? "yes" : "no", shm ? "shm" : "pipe");
    if (hn < 0 || (size_t)hn >= sizeof hs || write_all(proto_out, hs, (size_t)hn) != 0) return 2;

    for (;;) {
        unsigned char req[32];
        size_t frame = shm ? 32 : 16;
        int r = read_all(proto_in, req, frame);
        if (r != 0) return r == 1 ? 0 : 3; /* the end of the input: shut down */
        if (memcmp(req, shm ? "GXSQ" : "GXRQ", 4) != 0) {
            reply_error("gelucheck-plugin-host: a request with another magic");
            return 3;
        }
        uint32_t op = req[4] | (uint32_t)req[5] << 8 | (uint32_t)req[6] << 16 | (uint32_t)req[7] << 24;
        uint64_t n = get_u64(req + 8);
        if (op == 0) return 0;
        if ((op != 1 && op != 2) || n > most || (op == 2 && !has_derivative)) {
            reply_error(op == 2 && !has_derivative ? "gelucheck-plugin-host: no derivative kernel"
                                                   : "gelucheck-plugin-host: a bad request");
            continue;
        }
        size_t bytes = (size_t)n * es;
        unsigned char *x;
        uint64_t out_at = 0;
        if (shm) {
            uint64_t in_at = get_u64(req + 16);
            out_at = get_u64(req + 24);
            if (in_at % es || out_at % es || in_at > region_size || bytes > region_size - in_at ||
                out_at > region_size || bytes > region_size - out_at) {
                reply_error("gelucheck-plugin-host: a request outside the shared region");
                continue;
            }
            x = region + in_at;
        } else {
            x = inbuf;
            if (read_all(proto_in, x, bytes) != 0) return 3;
        }
        /* The outputs: in the region, after the inputs' pages, ending at a page mapped PROT_NONE
         * for the call (the reply says where: no copy; glibc's memcpy into a region two
         * processes take turns on costs ~1 ns/input, docs/plugins.md), or, when that does not
         * fit, in our own buffer before its guard page, copied into the region after the call. */
        size_t span = (bytes + OUT_ALIGN - 1) / OUT_ALIGN * OUT_ALIGN;
        bool in_region = false;
        guard = own_guard;
        if (shm) {
            size_t from = ((size_t)(x - region) + bytes + page - 1) / page * page;
            size_t end = (from + span + page - 1) / page * page;
            if (end + page <= region_size && mprotect(region + end, page, PROT_NONE) == 0) {
                guard = region + end;
                in_region = true;
            }
        }
        unsigned char *y = guard - span;
        memset(y + bytes, CANARY, span - bytes);
        in_lo = (unsigned char *)((uintptr_t)x / page * page);
        in_hi = (unsigned char *)(((uintptr_t)x + bytes + page - 1) / page * page);
        x_at = x;
        call_n = (size_t)n;
        call_es = es;
        bool guarded = bytes == 0 || mprotect(in_lo, (size_t)(in_hi - in_lo), PROT_READ) == 0;
        fp_state was = fp_state_read();
        unsigned saved = gelu_fpenv_enter(asked);
        fp_state began = fp_state_read();
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        in_call = 1;
        switch (es) {
        case 4: f32[op - 1]((const float *)x, (float *)y, (size_t)n); break;
        case 8: f64[op - 1]((const double *)x, (double *)y, (size_t)n); break;
        case 2: f16[op - 1]((const uint16_t *)x, (uint16_t *)y, (size_t)n); break;
        }
        in_call = 0;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        fp_state left = fp_state_read();
        gelu_fpenv_leave(saved);
        fp_state_restore(was);
        if ((bytes && mprotect(in_lo, (size_t)(in_hi - in_lo), PROT_READ | PROT_WRITE) != 0) ||
            (in_region && mprotect(guard, page, PROT_READ | PROT_WRITE) != 0)) {
            reply_error("gelucheck-plugin-host: cannot make its inputs writable again");
            return 3;
        }
        char msg[600];
        if (!guarded) {
            reply_error("gelucheck-plugin-host: cannot map its inputs read-only");
            continue;
        }
        if (fp_state_changed(began, left)) {
            char diff[400];
            fp_state_difference(began, left, diff, sizeof diff);
            snprintf(msg, sizeof msg, "the kernel left %s", diff);
            reply_error(msg);
            return 1;
        }
        size_t over = 0;
        while (y + bytes + over < guard && y[bytes + over] == CANARY) over++;
        if (y + bytes + over < guard) {
            snprintf(msg, sizeof msg, "the kernel wrote past its %llu outputs (byte %zu after y[%llu])",
                     (unsigned long long)n, over, (unsigned long long)(n ? n - 1 : 0));
            reply_error(msg);
            return 1;
        }
        uint64_t ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec -
                      (uint64_t)t0.tv_nsec;
        unsigned char rep[32] = {0};
        memcpy(rep, shm ? "GXSP" : "GXRP", 4);
        put_u64(rep + 8, n);
        put_u64(rep + 16, ns);
        if (shm) {
            if (!in_region) memcpy(region + out_at, y, bytes);
            put_u64(rep + 24, in_region ? (uint64_t)(y - region) : out_at);
            if (write_all(proto_out, rep, 32) != 0) return 3;
        } else if (write_all(proto_out, rep, 24) != 0 || write_all(proto_out, y, bytes) != 0) {
            return 3;
        }
    }
}
