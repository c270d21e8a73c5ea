/* The exec protocol's host side (exec.h, docs/protocol.md). */
#define _GNU_SOURCE
#include "exec.h"
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* REQ_BYTES, REPLY_BYTES: the pipe transport's frames before their payload; the shared-memory
 * frames are 16 bytes longer (request: the inputs' and outputs' offsets) and 8 (reply: the
 * outputs' offset). SHM_ALIGN: where the host puts the outputs after the inputs. */
enum {
    HANDSHAKE_LINES = 64,
    REQ_BYTES = 16,
    REPLY_BYTES = 24,
    SHM_REQ_BYTES = REQ_BYTES + 16,
    SHM_REPLY_BYTES = REPLY_BYTES + 8,
    SHM_ALIGN = 64,
    MESSAGE_MAX = 4096
};
static const char shm_env[] = "GELUCHECK_EXEC_SHM";
static const char fpenv_env[] = "GELUCHECK_EXEC_FPENV";

extern char **environ;

struct exec_child {
    pid_t pid;
    int to_child, from_child; /* our ends of the pipes */
    int shm_fd;               /* the offered region until the handshake, else −1 */
    unsigned char *shm;       /* the region mapped, when the child took it; else NULL */
    double timeout_s;
    char *command;
    exec_handshake info;
    pthread_mutex_t lock;
    bool failed;
    char failure[1400];
    char inbuf[EXEC_LINE_MAX + 2]; /* handshake reading */
    size_t inlen;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

bool exec_name_ok(const char *name)
{
    size_t n = strlen(name), at = 0; /* at: the position of a path's '@' (framework rows) */
    if (n == 0 || n > EXEC_NAME_MAX) return false;
    if (!((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z'))) return false;
    for (size_t i = 1; i < n; i++) {
        char ch = name[i];
        if (ch == '@' && !at && i + 1 < n) at = i;
        else if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                   ch == '_'))
            return false;
    }
    return true;
}

void exec_sanitize_text(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = '?';
}

/* Stops the child for good: end of its input, a short grace, SIGKILL; then what became of it
 * ("exited with status 3", "killed by signal 9", "still running: killed") into buf. */
static void reap(exec_child *c, char *buf, size_t size)
{
    if (c->to_child >= 0) close(c->to_child);
    c->to_child = -1;
    if (c->from_child >= 0) close(c->from_child);
    c->from_child = -1;
    if (c->pid <= 0) {
        snprintf(buf, size, "already stopped");
        return;
    }
    int st;
    pid_t got = 0;
    for (int i = 0; i < 20 && (got = waitpid(c->pid, &st, WNOHANG)) == 0; i++) {
        struct timespec ts = {0, 10000000}; /* 10 ms, 200 ms in all */
        nanosleep(&ts, NULL);
    }
    bool killed = false;
    if (got == 0) { /* the whole group: the shell and what it started */
        kill(-c->pid, SIGKILL);
        got = waitpid(c->pid, &st, 0);
        killed = true;
    }
    c->pid = -1;
    if (got < 0) snprintf(buf, size, "lost (%s)", strerror(errno));
    else if (killed) snprintf(buf, size, "still running: killed");
    else if (WIFEXITED(st) && WEXITSTATUS(st) > 128 && WEXITSTATUS(st) < 128 + NSIG)
        snprintf(buf, size, "exited with status %d (the shell's way of saying: killed by signal %d, %s)",
                 WEXITSTATUS(st), WEXITSTATUS(st) - 128, strsignal(WEXITSTATUS(st) - 128));
    else if (WIFEXITED(st)) snprintf(buf, size, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st)) snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else snprintf(buf, size, "ended");
}

/* Records the failure (the child stopped, its fate appended) and returns −1. */
static int child_fail(exec_child *c, char *err, size_t errsize, const char *fmt, ...)
{
    if (!c->failed) {
        char what[600], fate[128], cmd[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        reap(c, fate, sizeof fate);
        exec_printable(c->command, cmd, sizeof cmd);
        snprintf(c->failure, sizeof c->failure, "exec child '%s' (%s): %s; the child %s",
                 c->info.name[0] ? c->info.name : "?", cmd, what, fate);
        c->failed = true;
    }
    snprintf(err, errsize, "%s", c->failure);
    return -1;
}

/* Reads exactly n bytes before the deadline: 0, or −1 with why ("end of output after K of N
 * bytes", "timed out after S s", a read error). */
static int read_full(exec_child *c, void *buf, size_t n, double deadline, char *why, size_t size)
{
    size_t got = 0;
    while (got < n) {
        double left = deadline - now_s();
        if (left <= 0) {
            snprintf(why, size, "no answer within %.3g s (%zu of %zu bytes read)", c->timeout_s,
                     got, n);
            return -1;
        }
        struct pollfd p = {c->from_child, POLLIN, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            snprintf(why, size, "poll: %s", strerror(errno));
            return -1;
        }
        if (r == 0) continue;
        ssize_t k = read(c->from_child, (char *)buf + got, n - got);
        if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (k < 0) {
            snprintf(why, size, "read: %s", strerror(errno));
            return -1;
        }
        if (k == 0) {
            snprintf(why, size, "its output ended after %zu of %zu bytes", got, n);
            return -1;
        }
        got += (size_t)k;
    }
    return 0;
}

/* Writes n bytes before the deadline without raising SIGPIPE (blocked in this thread, and a
 * pending one consumed). */
static int write_full(exec_child *c, const void *buf, size_t n, double deadline, char *why,
                      size_t size)
{
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    size_t put = 0;
    int rc = 0;
    while (put < n) {
        double left = deadline - now_s();
        if (left <= 0) {
            snprintf(why, size, "it read no input for %.3g s (%zu of %zu bytes written)",
                     c->timeout_s, put, n);
            rc = -1;
            break;
        }
        struct pollfd p = {c->to_child, POLLOUT, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) continue;
        ssize_t k = write(c->to_child, (const char *)buf + put, n - put);
        if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (k < 0) {
            if (errno == EPIPE)
                snprintf(why, size, "it closed its input (%zu of %zu bytes written)", put, n);
            else
                snprintf(why, size, "write: %s", strerror(errno));
            rc = -1;
            break;
        }
        put += (size_t)k;
    }
    struct timespec zero = {0, 0};
    while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE) {
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* ---- the handshake */

/* The next line (without its \n) into line; 0, or −1 with why. */
static int read_line(exec_child *c, char *line, double deadline, char *why, size_t size)
{
    for (;;) {
        char *nl = memchr(c->inbuf, '\n', c->inlen);
        if (nl) {
            size_t n = (size_t)(nl - c->inbuf);
            memcpy(line, c->inbuf, n);
            line[n] = '\0';
            memmove(c->inbuf, nl + 1, c->inlen - n - 1);
            c->inlen -= n + 1;
            return 0;
        }
        if (c->inlen > EXEC_LINE_MAX) {
            snprintf(why, size, "a handshake line longer than %d bytes", EXEC_LINE_MAX);
            return -1;
        }
        /* one byte at a time past what is buffered: the handshake must not swallow a reply */
        if (read_full(c, c->inbuf + c->inlen, 1, deadline, why, size) != 0) return -1;
        c->inlen++;
    }
}

static int handshake(exec_child *c, char *err, size_t errsize)
{
    double deadline = now_s() + c->timeout_s;
    char line[EXEC_LINE_MAX + 2], why[600];
    exec_handshake *h = &c->info;
    h->target = GELU_TARGET_COUNT;
    h->contract = (gelu_contract){.max_ulp = INFINITY, .max_abs = INFINITY,
                                  .grad_max_ulp = INFINITY, .grad_max_abs = INFINITY};
    unsigned seen = 0;
    /* the last one, transport, from version 2 on */
    static const char *const keys[] = {"name", "target", "format", "derivative", "timing",
                                       "contract", "origin", "transport", "dispatched_isa",
                                       "fpenv", "cuts"};
    const size_t nkeys = sizeof keys / sizeof keys[0];
    sha256_ctx lines; /* every line as sent, for h->sha256 */
    sha256_init(&lines);
    for (int n = 0;; n++) {
        if (n == HANDSHAKE_LINES)
            return child_fail(c, err, errsize, "handshake: no 'end' within %d lines", n);
        if (read_line(c, line, deadline, why, sizeof why) != 0)
            return child_fail(c, err, errsize, "handshake: %s", why);
        sha256_update(&lines, line, strlen(line));
        sha256_update(&lines, "\n", 1);
        if (n == 0) {
            if (strcmp(line, "gelucheck-exec 1") == 0) h->version = 1;
            else if (strcmp(line, "gelucheck-exec 2") == 0) h->version = 2;
            else {
                char shown[120];
                exec_printable(line, shown, sizeof shown); /* untrusted: escapes made visible */
                return child_fail(c, err, errsize, "handshake: the first line is '%.80s', not "
                                  "'gelucheck-exec 1' or 'gelucheck-exec 2'", shown);
            }
            continue;
        }
        if (strcmp(line, "end") == 0) break;
        char *sp = strchr(line, ' ');
        size_t klen = sp ? (size_t)(sp - line) : strlen(line);
        size_t i = 0;
        while (i < nkeys && !(strlen(keys[i]) == klen && strncmp(line, keys[i], klen) == 0)) i++;
        if (i == nkeys || !sp) {
            char shown[120];
            exec_printable(line, shown, sizeof shown);
            return child_fail(c, err, errsize, "handshake line %d: '%.80s' is not 'KEY VALUE' "
                                               "with a key of docs/protocol.md", n + 1, shown);
        }
        if (i == 7 && h->version < 2)
            return child_fail(c, err, errsize, "handshake line %d: 'transport' in a version 1 "
                              "handshake (it needs 'gelucheck-exec 2')", n + 1);
        if (seen & (1u << i))
            return child_fail(c, err, errsize, "handshake line %d: '%s' given twice", n + 1, keys[i]);
        seen |= 1u << i;
        char *v = sp + 1;
        bool bad = false;
        switch (i) {
        case 0:
            bad = !exec_name_ok(v);
            if (!bad) snprintf(h->name, sizeof h->name, "%s", v);
            break;
        case 1:
            h->target = gelu_target_from_name(v);
            bad = h->target == GELU_TARGET_COUNT;
            break;
        case 2: {
            /* a registered format (values of 2, 4 or 8 bytes on the wire) */
            const gelu_format *f = gelu_format_find(v);
            bad = !f;
            if (!bad) {
                snprintf(h->format, sizeof h->format, "%s", v);
                h->format_id = f->id;
            }
            break;
        }
        case 3: bad = exec_parse_bool(v, &h->derivative) != 0; break;
        case 4: bad = exec_parse_bool(v, &h->timing) != 0; break;
        case 5:
            if (exec_parse_contract(v, &h->contract, why, sizeof why) != 0)
                return child_fail(c, err, errsize, "handshake line %d: %s", n + 1, why);
            break;
        case 6:
            snprintf(h->origin, sizeof h->origin, "%s", v);
            exec_sanitize_text(h->origin);
            break;
        case 9:
            if (exec_parse_fpenvs(v, h, why, sizeof why) != 0)
                return child_fail(c, err, errsize, "handshake line %d: %s", n + 1, why);
            break;
        case 8:
            bad = !exec_isa_word_ok(v);
            if (!bad) snprintf(h->dispatched_isa, sizeof h->dispatched_isa, "%s", v);
            break;
        case 10: bad = exec_parse_bool(v, &h->cuts) != 0; break;
        case 7:
            h->shared_memory = strcmp(v, "shm") == 0;
            bad = !h->shared_memory && strcmp(v, "pipe") != 0;
            if (h->shared_memory && c->shm_fd < 0)
                return child_fail(c, err, errsize, "handshake line %d: 'transport shm', but no "
                                  "shared memory was offered (%s unset)", n + 1, shm_env);
            break;
        default: abort(); /* i < nkeys: every key has its case */
        }
        if (bad) {
            char shown[120], names[256], why[300], formats[300];
            exec_printable(v, shown, sizeof shown);
            snprintf(why, sizeof why, " (%s)", gelu_target_list(false, names, sizeof names));
            snprintf(formats, sizeof formats, " (%s)",
                     gelu_format_names(", ", " or ", false, names, sizeof names));
            return child_fail(c, err, errsize, "handshake line %d: bad %s '%s'%s", n + 1, keys[i],
                              shown,
                              i == 0   ? " (1 to 48 of A-Z a-z 0-9 _, starting with a letter)"
                              : i == 1 ? why
                              : i == 2 ? formats
                              : i == 7 ? " (pipe or shm)"
                              : i == 8 ? " (1 to 31 of a-z 0-9 _)"
                                       : " (yes or no)");
        }
    }
    for (size_t i = 0; i < 3; i++)
        if (!(seen & (1u << i)))
            return child_fail(c, err, errsize, "handshake: no '%s' line before 'end'", keys[i]);
    sha256_final_hex(&lines, h->sha256);
    if (!(seen & (1u << 9))) { /* no fpenv line: IEEE's alone, as before there were any */
        h->fpenvs = 1u << GELU_FPENV_IEEE;
        h->fpenv_first = GELU_FPENV_IEEE;
    }
    return 0;
}

/* The region offered to a child: a sealed memfd of EXEC_SHM_BYTES (its size fixed: a child
 * cannot shrink it under the host's mapping), close-on-exec (the fork's child moves it to
 * EXEC_SHM_FD), at 3 or above (0 to 2 are the child's standard streams). −1 when the kernel
 * makes none: the child is then offered nothing and talks over the pipes. */
static int offer_region(void)
{
    int fd = memfd_create("gelucheck-exec", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    if (fd < 3) {
        int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        close(fd);
        if ((fd = high) < 0) return -1;
    }
    if (ftruncate(fd, (off_t)EXEC_SHM_BYTES) != 0 ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Whether environ's entry e sets variable name. */
static bool sets(const char *e, const char *name, size_t len)
{
    return strncmp(e, name, len) == 0 && e[len] == '=';
}

/* gelucheck's environment for the child: without any GELUCHECK_EXEC_SHM or GELUCHECK_EXEC_FPENV
 * it inherited, with entry (GELUCHECK_EXEC_SHM=3, written there) when a region is offered and
 * fpenv_entry (GELUCHECK_EXEC_FPENV=NAME, written there). Made before the fork (malloc is not
 * safe in the fork of a threaded process). NULL when out of memory. */
static char **child_environ(bool offered, char *entry, size_t size, gelu_fpenv asked,
                            char *fpenv_entry, size_t fpenv_size)
{
    snprintf(entry, size, "%s=%d", shm_env, EXEC_SHM_FD);
    snprintf(fpenv_entry, fpenv_size, "%s=%s", fpenv_env, gelu_fpenv_name(asked));
    size_t n = 0;
    while (environ && environ[n]) n++;
    char **env = malloc((n + 3) * sizeof *env);
    if (!env) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!sets(environ[i], shm_env, sizeof shm_env - 1) &&
            !sets(environ[i], fpenv_env, sizeof fpenv_env - 1))
            env[k++] = environ[i];
    if (offered) env[k++] = entry;
    env[k++] = fpenv_entry;
    env[k] = NULL;
    return env;
}

exec_child *exec_start(const char *command, double timeout_s, char *err, size_t errsize)
{
    return exec_start_transport(command, timeout_s, true, err, errsize);
}

exec_child *exec_start_transport(const char *command, double timeout_s, bool offer_shm, char *err,
                                 size_t errsize)
{
    return exec_start_env(command, timeout_s, offer_shm, GELU_FPENV_IEEE, err, errsize);
}

exec_child *exec_start_env(const char *command, double timeout_s, bool offer_shm, gelu_fpenv asked,
                           char *err, size_t errsize)
{
    exec_child *c = calloc(1, sizeof *c);
    if (!c || !(c->command = strdup(command))) {
        free(c);
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    c->timeout_s = timeout_s;
    c->to_child = c->from_child = -1;
    c->shm_fd = offer_shm ? offer_region() : -1;
    pthread_mutex_init(&c->lock, NULL);
    char entry[sizeof shm_env + 16], fpenv_entry[sizeof fpenv_env + 16];
    char **env = child_environ(c->shm_fd >= 0, entry, sizeof entry, asked, fpenv_entry,
                               sizeof fpenv_entry);
    int in[2], out[2];
    if (!env) {
        snprintf(err, errsize, "cannot start '%s': out of memory", command);
        exec_stop(c);
        return NULL;
    }
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "cannot start '%s': pipe: %s", command, strerror(errno));
        free(env);
        exec_stop(c);
        return NULL;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "cannot start '%s': pipe: %s", command, strerror(errno));
        close(in[0]);
        close(in[1]);
        free(env);
        exec_stop(c);
        return NULL;
    }
    fflush(NULL);
    c->pid = fork();
    if (c->pid == 0) { /* the child: its own process group, pipes on 0 and 1, the region on 3 */
        setpgid(0, 0);
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        if (c->shm_fd == EXEC_SHM_FD) fcntl(EXEC_SHM_FD, F_SETFD, 0);
        else if (c->shm_fd >= 0) dup2(c->shm_fd, EXEC_SHM_FD); /* the copy is inherited */
        signal(SIGPIPE, SIG_DFL);
        execle("/bin/sh", "sh", "-c", command, (char *)NULL, env);
        _exit(127);
    }
    free(env);
    if (c->pid > 0) setpgid(c->pid, c->pid); /* both sides: no race with the exec */
    close(in[0]);
    close(out[1]);
    c->to_child = in[1];
    c->from_child = out[0];
    /* 1 MiB pipes (best effort): a batch of 2^16 binary32 inputs crosses in one write */
    fcntl(c->to_child, F_SETPIPE_SZ, 1 << 20);
    fcntl(c->from_child, F_SETPIPE_SZ, 1 << 20);
    if (c->pid < 0) {
        snprintf(err, errsize, "cannot start '%s': fork: %s", command, strerror(errno));
        exec_stop(c);
        return NULL;
    }
    fcntl(c->to_child, F_SETFL, O_NONBLOCK);
    if (handshake(c, err, errsize) != 0) {
        exec_stop(c);
        return NULL;
    }
    char why[300];
    if (!exec_fpenv_runs_in(&c->info, asked, &c->info.fpenv, why, sizeof why)) {
        child_fail(c, err, errsize, "it cannot run its kernels in floating-point environment %s "
                   "(--fpenv): %s", gelu_fpenv_name(asked), why);
        exec_stop(c);
        return NULL;
    }
    if (c->info.shared_memory) {
        void *m = mmap(NULL, EXEC_SHM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, c->shm_fd, 0);
        if (m == MAP_FAILED) {
            child_fail(c, err, errsize, "cannot map the shared region: %s", strerror(errno));
            exec_stop(c);
            return NULL;
        }
        c->shm = m;
    }
    if (c->shm_fd >= 0) close(c->shm_fd); /* the mapping, if any, keeps the region */
    c->shm_fd = -1;
    return c;
}

const exec_handshake *exec_info(const exec_child *c) { return &c->info; }

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--) v = v << 8 | p[i];
    return v;
}
static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Copies n bytes (values of 4 or 2 bytes) between the caller's arrays and the region, 64 bytes
 * at a time. Not memcpy: glibc's memcpy takes `rep movsb` from 2 KiB to 512 KiB on this Zen 3,
 * and between two processes taking turns on a region that cost ~2 ns/input (host CPU, in + out)
 * at 2^16 binary32 inputs a request where 16-byte loads and stores cost ~0.7 (a two-process
 * ping-pong under load; docs/plugins.md "The exec protocol's cost"). The empty asm keeps the compiler
 * from turning the loop back into a memmove call. */
static void copy_bytes(void *restrict dst, const void *restrict src, size_t n)
{
    size_t i = 0;
    unsigned char *d = dst;
    const unsigned char *s = src;
#ifdef __SSE2__
    for (; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i)),
                b = _mm_loadu_si128((const __m128i *)(s + i + 16)),
                c = _mm_loadu_si128((const __m128i *)(s + i + 32)),
                e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_storeu_si128((__m128i *)(d + i), a);
        _mm_storeu_si128((__m128i *)(d + i + 16), b);
        _mm_storeu_si128((__m128i *)(d + i + 32), c);
        _mm_storeu_si128((__m128i *)(d + i + 48), e);
        __asm__ volatile("" ::: "memory");
    }
#endif
    memcpy(d + i, s + i, n - i);
}

/* A reply with an error status: its message (count bytes on the pipe) into the failure. */
static int reply_error(exec_child *c, const char *req, uint32_t status, uint64_t count,
                       double deadline, char *err, size_t errsize)
{
    char msg[MESSAGE_MAX + 1], shown[400], why[300];
    if (count > MESSAGE_MAX)
        return child_fail(c, err, errsize, "%s: error %u with a message of %llu bytes (at most %d)",
                          req, status, (unsigned long long)count, MESSAGE_MAX);
    if (read_full(c, msg, (size_t)count, deadline, why, sizeof why) != 0)
        return child_fail(c, err, errsize, "%s: error %u, then %s", req, status, why);
    msg[count] = '\0';
    exec_printable(msg, shown, sizeof shown);
    return child_fail(c, err, errsize, "%s: error %u: %s", req, status, shown);
}

/* Over the pipes the inputs follow the request and the outputs the reply. Over shared memory
 * the inputs are copied to the region's start, the request names where the outputs are wanted
 * (after the inputs, SHM_ALIGN-aligned), and the reply where the child put them: y is written
 * only once the reply has proved valid. */
static int eval_locked(exec_child *c, bool grad, uint32_t cut, const void *x, void *y, size_t es,
                       size_t n, uint64_t *kernel_ns, char *err, size_t errsize)
{
    if (c->failed) {
        snprintf(err, errsize, "%s", c->failure);
        return -1;
    }
    const char *op = grad ? "derivative" : "forward";
    const gelu_format *f = gelu_format_of(c->info.format_id);
    char req[128];
    if (es == 4) {
        float x0 = 0;
        if (n) memcpy(&x0, x, 4);
        snprintf(req, sizeof req, "%s request of %zu inputs from x = %a", op, n, (double)x0);
    } else if (es == 8) {
        double x0 = 0;
        if (n) memcpy(&x0, x, 8);
        snprintf(req, sizeof req, "%s request of %zu inputs from x = %a", op, n, x0);
    } else {
        uint16_t x0 = 0;
        if (n) memcpy(&x0, x, 2);
        snprintf(req, sizeof req, "%s request of %zu inputs from x = %a (%s 0x%04x)", op, n,
                 gelu_format_small(f) ? f->to_double(x0) : 0.0, f->name, x0);
    }
    if (es * 8 != f->storage_bits)
        return child_fail(c, err, errsize, "a %s in %d-byte values, but it declared 'format %s'",
                          req, (int)es, f->name);
    if (cut) {
        size_t used = strlen(req);
        snprintf(req + used, sizeof req - used, " in tensors of %u", cut);
    }
    if (grad && !c->info.derivative)
        return child_fail(c, err, errsize, "a %s, but it declared 'derivative no'", req);
    if (cut && (!c->info.cuts || cut > EXEC_CUT_MAX))
        return child_fail(c, err, errsize, "a %s, but it declared no 'cuts yes' (or the size is "
                          "over %d)", req, EXEC_CUT_MAX);
    /* the region holds EXEC_MAX_COUNT binary32 inputs and outputs: half as many binary64 */
    const size_t most = es > 4 ? EXEC_MAX_COUNT / 2 : EXEC_MAX_COUNT;
    if (n > most) return child_fail(c, err, errsize, "a %s: more than %zu inputs", req, most);
    if (n == 0) return 0;
    double deadline = now_s() + c->timeout_s;
    bool shm = c->shm != NULL;
    size_t bytes = n * es;
    unsigned char head[SHM_REQ_BYTES];
    memcpy(head, shm ? "GXSQ" : "GXRQ", 4);
    put_u32(head + 4, (grad ? 2u : 1u) | cut << 8); /* docs/protocol.md, "Cuts" */
    put_u64(head + 8, n);
    char why[300];
    /* x86-64 is little-endian: the values are the protocol's bytes as they are */
    if (shm) {
        copy_bytes(c->shm, x, bytes);
        put_u64(head + 16, 0);
        put_u64(head + 24, (bytes + SHM_ALIGN - 1) / SHM_ALIGN * SHM_ALIGN);
        if (write_full(c, head, SHM_REQ_BYTES, deadline, why, sizeof why) != 0)
            return child_fail(c, err, errsize, "%s: %s", req, why);
    } else if (write_full(c, head, REQ_BYTES, deadline, why, sizeof why) != 0 ||
               write_full(c, x, bytes, deadline, why, sizeof why) != 0) {
        return child_fail(c, err, errsize, "%s: %s", req, why);
    }
    if (read_full(c, head, REPLY_BYTES, deadline, why, sizeof why) != 0)
        return child_fail(c, err, errsize, "%s: %s", req, why);
    const char *magic = shm ? "GXSP" : "GXRP";
    if (shm && memcmp(head, "GXRP", 4) == 0)
        return child_fail(c, err, errsize, "%s: a pipe reply ('GXRP'), though it announced "
                          "'transport shm' (replies are 'GXSP' frames)", req);
    if (memcmp(head, magic, 4) != 0)
        return child_fail(c, err, errsize, "%s: the reply starts with %02x %02x %02x %02x, not '%s'",
                          req, head[0], head[1], head[2], head[3], magic);
    if (shm && read_full(c, head + REPLY_BYTES, SHM_REPLY_BYTES - REPLY_BYTES, deadline, why,
                         sizeof why) != 0)
        return child_fail(c, err, errsize, "%s: %s", req, why);
    uint32_t status = get_u32(head + 4);
    uint64_t count = get_u64(head + 8), ns = get_u64(head + 16);
    if (status != 0) return reply_error(c, req, status, count, deadline, err, errsize);
    if (!shm) {
        if (count != n)
            return child_fail(c, err, errsize, "%s: the reply holds %llu outputs", req,
                              (unsigned long long)count);
        if (read_full(c, y, bytes, deadline, why, sizeof why) != 0)
            return child_fail(c, err, errsize, "%s: %s", req, why);
    } else {
        uint64_t at = get_u64(head + REPLY_BYTES);
        if (at % es != 0 || at > EXEC_SHM_BYTES || count > (EXEC_SHM_BYTES - at) / es)
            return child_fail(c, err, errsize, "%s: the reply puts %llu outputs at byte %llu, "
                              "outside the shared region of %zu bytes (or not %zu-byte aligned)",
                              req, (unsigned long long)count, (unsigned long long)at,
                              EXEC_SHM_BYTES, es);
        if (count != n)
            return child_fail(c, err, errsize, "%s: the reply holds %llu outputs", req,
                              (unsigned long long)count);
        int pending = 0; /* a frame is all a reply over shared memory writes on the pipe */
        if (ioctl(c->from_child, FIONREAD, &pending) == 0 && pending > 0)
            return child_fail(c, err, errsize, "%s: %d bytes on the pipe after the reply (over "
                              "shared memory a reply is its frame alone)", req, pending);
        copy_bytes(y, c->shm + at, bytes);
    }
    if (kernel_ns) *kernel_ns = c->info.timing ? ns : 0;
    return 0;
}

int exec_eval(exec_child *c, bool grad, const float *x, float *y, size_t n, uint64_t *kernel_ns,
              char *err, size_t errsize)
{
    pthread_mutex_lock(&c->lock);
    int rc = eval_locked(c, grad, 0, x, y, sizeof *x, n, kernel_ns, err, errsize);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

int exec_eval_u16(exec_child *c, bool grad, const uint16_t *x, uint16_t *y, size_t n,
                  uint64_t *kernel_ns, char *err, size_t errsize)
{
    pthread_mutex_lock(&c->lock);
    int rc = eval_locked(c, grad, 0, x, y, sizeof *x, n, kernel_ns, err, errsize);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

int exec_eval_any(exec_child *c, bool grad, const void *x, void *y, size_t n, uint64_t *kernel_ns,
                  char *err, size_t errsize)
{
    return exec_eval_cut(c, grad, 0, x, y, n, kernel_ns, err, errsize);
}

int exec_eval_cut(exec_child *c, bool grad, uint32_t cut, const void *x, void *y, size_t n,
                  uint64_t *kernel_ns, char *err, size_t errsize)
{
    size_t es = gelu_format_of(c->info.format_id)->storage_bits / 8;
    pthread_mutex_lock(&c->lock);
    int rc = eval_locked(c, grad, cut, x, y, es, n, kernel_ns, err, errsize);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

void exec_stop(exec_child *c)
{
    if (!c) return;
    if (!c->failed && c->to_child >= 0) {
        unsigned char head[SHM_REQ_BYTES] = {0}; /* op 0, count 0 (offsets 0) */
        char why[200];
        memcpy(head, c->shm ? "GXSQ" : "GXRQ", 4);
        write_full(c, head, c->shm ? SHM_REQ_BYTES : REQ_BYTES, now_s() + 1, why, sizeof why);
    }
    char fate[128];
    if (c->pid > 0 || c->to_child >= 0 || c->from_child >= 0) reap(c, fate, sizeof fate);
    if (c->shm) munmap(c->shm, EXEC_SHM_BYTES);
    if (c->shm_fd >= 0) close(c->shm_fd);
    pthread_mutex_destroy(&c->lock);
    free(c->command);
    free(c);
}
