/* The exec protocol's host (plugins/exec.c) against tests/exec_child.c:
 * - through the protocol a built-in kernel gives the bits it gives when called, whatever the
 *   batching (sizes 1 to 65,536 at shifting offsets) and the transport (a version 1 child, pipes,
 *   shared memory, shared memory with the outputs written over the inputs);
 * - a planted wrong output comes back at its input and nowhere else;
 * - every way a child can break (exit, kill, hang, garbage, short or miscounted reply, an error
 *   status, a bad handshake; over shared memory also outputs outside the region, a death with
 *   the region half-written, a reply over the pipe) fails the call with a message naming the
 *   child and what happened, over both transports, and later calls fail at once;
 * - the protocol's overhead per input with the ReLU kernel, in CPU time (printed, not asserted). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

#include "exec.h"
#include "gelu_impl.h"

#ifndef GELUCHECK_EXEC_CHILD
#error "GELUCHECK_EXEC_CHILD: the path of tests/exec_child"
#endif

static exec_child *start(const char *args, double timeout, char *err, size_t size)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s", GELUCHECK_EXEC_CHILD, args);
    return exec_start(cmd, timeout, err, size);
}

/* The transports a child can take, as exec_child's options, and whether it is shared memory */
static const struct {
    const char *args;
    bool shm;
} transports[] = {{"--protocol 1", false}, {"--transport pipe", false}, {"", true},
                  {"--in-place", true}};
enum { TRANSPORTS = sizeof transports / sizeof transports[0] };

static uint32_t bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static float from_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* Every 4093rd encoding and the 2^13 around each zero: ~1.06e6 inputs. */
static size_t inputs(float **out)
{
    size_t n = 0, cap = (1u << 20) + (1u << 15);
    float *x = malloc(cap * sizeof *x);
    for (uint64_t b = 0; b < (UINT64_C(1) << 32); b += 4093) x[n++] = from_bits((uint32_t)b);
    for (uint32_t k = 0; k < 4096; k++) {
        x[n++] = from_bits(k);
        x[n++] = from_bits(0x80000000u | k);
    }
    *out = x;
    return n;
}

Test(exec, same_bits_as_the_kernel_whatever_the_batching_and_transport)
{
    char err[1200];
    const char *names[] = {"erfc_f64", "pw_accurate", "tanh"};
    float *x;
    size_t n = inputs(&x);
    float *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    for (size_t k = 0; k < 3 * TRANSPORTS; k++) {
        const gelu_impl *impl = gelu_impl_find(names[k / TRANSPORTS]);
        cr_assert(impl);
        char args[128];
        snprintf(args, sizeof args, "%s %s", impl->name, transports[k % TRANSPORTS].args);
        exec_child *c = start(args, 30, err, sizeof err);
        cr_assert(c, "%s", err);
        cr_expect_str_eq(exec_info(c)->name, impl->name);
        cr_expect_eq(exec_info(c)->target, impl->target);
        cr_expect(exec_info(c)->derivative);
        cr_assert_eq(exec_info(c)->shared_memory, transports[k % TRANSPORTS].shm, "%s", args);
        for (int grad = 0; grad < 2; grad++) {
            (grad ? impl->derivative : impl->forward)(x, want, n);
            memset(got, 0xa5, n * sizeof *got);
            /* batch sizes cycle through 1, 7, 4096, 65536 and 3333 at moving offsets */
            static const size_t sizes[] = {1, 7, 4096, 65536, 3333};
            for (size_t at = 0, s = k; at < n; s++) {
                size_t m = sizes[s % 5] < n - at ? sizes[s % 5] : n - at;
                cr_assert_eq(exec_eval(c, grad, x + at, got + at, m, NULL, err, sizeof err), 0,
                             "%s", err);
                at += m;
            }
            for (size_t i = 0; i < n; i++)
                if (bits(got[i]) != bits(want[i]))
                    cr_assert_fail("%s %s at %a: %a through the protocol, %a called", args,
                                   grad ? "derivative" : "forward", (double)x[i],
                                   (double)got[i], (double)want[i]);
        }
        exec_stop(c);
    }
    free(x);
    free(want);
    free(got);
}

Test(exec, a_planted_wrong_output_comes_back_at_its_input)
{
    char err[1200];
    float *x;
    size_t n = inputs(&x);
    float *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    exec_child *c = start("erfc_f64 --wrong-at 0x3fc00000", 30, err, sizeof err); /* 1.5 */
    cr_assert(c, "%s", err);
    x[12345] = 1.5f;
    gelu_impl_find("erfc_f64")->forward(x, want, n);
    cr_assert_eq(exec_eval(c, false, x, got, n, NULL, err, sizeof err), 0, "%s", err);
    size_t differ = 0;
    for (size_t i = 0; i < n; i++)
        if (bits(got[i]) != bits(want[i])) {
            differ++;
            cr_expect_eq(bits(x[i]), 0x3fc00000u, "a difference at %a", (double)x[i]);
        }
    cr_expect_geq(differ, 1);
    exec_stop(c);
    free(x);
    free(want);
    free(got);
}

/* The child (exec_child's options: the fault, then the transport's) breaks at its second
 * request: the first call works, the second fails with every needle in its message (and over
 * shared memory leaves the outputs as they were), the third fails at once with the same
 * message. */
static void breaks_over(const char *fault, bool shm, double timeout, const char *needle1,
                        const char *needle2)
{
    char err[1200], again[1200], args[256];
    snprintf(args, sizeof args, "%s%s", fault, shm ? "" : " --transport pipe");
    float x[4096], y[4096];
    for (int i = 0; i < 4096; i++) x[i] = (float)i / 256 - 8;
    exec_child *c = start(args, timeout, err, sizeof err);
    cr_assert(c, "%s", err);
    cr_assert_eq(exec_info(c)->shared_memory, shm, "%s", args);
    cr_assert_eq(exec_eval(c, false, x, y, 4096, NULL, err, sizeof err), 0, "%s", err);
    memset(y, 0xa5, sizeof y);
    cr_assert_eq(exec_eval(c, false, x, y, 4096, NULL, err, sizeof err), -1, "%s: no failure", args);
    for (int i = 0; shm && i < 4096; i++)
        cr_assert_eq(bits(y[i]), 0xa5a5a5a5u, "%s: output %d written by a failed call", args, i);
    cr_expect(strstr(err, "exec child 'erfc_f64'"), "%s: %s", args, err);
    cr_expect(strstr(err, "forward request of 4096 inputs from x = -0x1p+3"), "%s: %s", args, err);
    cr_expect(strstr(err, needle1), "%s: '%s' not in: %s", args, needle1, err);
    if (needle2) cr_expect(strstr(err, needle2), "%s: '%s' not in: %s", args, needle2, err);
    cr_expect_eq(exec_eval(c, false, x, y, 4096, NULL, again, sizeof again), -1);
    cr_expect_str_eq(again, err);
    exec_stop(c);
}

/* The same fault over both transports, with the same needles */
static void breaks(const char *fault, double timeout, const char *needle1, const char *needle2)
{
    breaks_over(fault, false, timeout, needle1, needle2);
    breaks_over(fault, true, timeout, needle1, needle2);
}

Test(exec, a_child_that_exits) { breaks("erfc_f64 --die-after 1", 10, "exited with status 3", NULL); }
Test(exec, a_child_that_hangs)
{
    breaks("erfc_f64 --hang-after 1", 0.5, "no answer within 0.5 s", "still running: killed");
}
Test(exec, a_child_that_writes_garbage)
{
    breaks("erfc_f64 --garbage-after 1", 10, "the reply starts with 4a 55 4e 4b, not 'GX", NULL);
}
Test(exec, a_child_that_writes_short)
{
    breaks_over("erfc_f64 --short-after 1", false, 10, "output ended after 8192 of 16384 bytes",
                "exited with status 0");
    breaks_over("erfc_f64 --short-after 1", true, 10, "output ended after 16 of 24 bytes",
                "exited with status 0");
}
Test(exec, a_child_that_miscounts) { breaks("erfc_f64 --count-off-after 1", 10, "holds 4095 outputs", NULL); }
Test(exec, a_child_that_reports_an_error)
{
    /* its message's newline and escape are shown escaped, not passed to the terminal */
    breaks("erfc_f64 --error-after 1", 10, "error 5: planted failure\\x0a\\x1b[31m in the child", NULL);
}
Test(exec, a_child_killed_by_a_signal)
{
    /* the child itself, or the shell that ran it and reported its death */
    breaks("erfc_f64 --segv-after 1", 10, "killed by signal", NULL); /* 11; 6 under ASan */
}

/* Shared memory's own faults: outputs said to lie outside the region (a count too large, an
 * offset at its end), a death with the region half-written, a reply over the pipe (the
 * transport claimed, not used), outputs on the pipe after a valid frame. */
Test(exec, a_child_that_answers_outside_the_region)
{
    breaks_over("erfc_f64 --count-over-after 1", true, 10,
                "the reply puts 33554433 outputs at byte 16384, outside the shared region of "
                "134217728 bytes", NULL);
    breaks_over("erfc_f64 --offset-out-after 1", true, 10,
                "the reply puts 4096 outputs at byte 134217728, outside the shared region", NULL);
}
Test(exec, a_child_that_dies_with_the_region_half_written)
{
    breaks_over("erfc_f64 --die-midway-after 1", true, 10, "output ended after 0 of 24 bytes",
                "exited with status 3");
}
Test(exec, a_child_that_claims_shared_memory_and_answers_over_the_pipe)
{
    breaks_over("erfc_f64 --pipe-reply-after 1", true, 10,
                "a pipe reply ('GXRP'), though it announced 'transport shm'", NULL);
    breaks_over("erfc_f64 --trailing-after 1", true, 10,
                "4000 bytes on the pipe after the reply", NULL);
}

/* A child of version 1 (from before shared memory) is offered the region and keeps the pipes;
 * a child that claims shared memory where none was offered is refused. */
Test(exec, transports_negotiated)
{
    char err[1200], cmd[1024];
    exec_child *c = start("erfc_f64 --protocol 1", 10, err, sizeof err);
    cr_assert(c, "%s", err);
    cr_expect_eq(exec_info(c)->version, 1);
    cr_expect_not(exec_info(c)->shared_memory);
    exec_stop(c);
    snprintf(cmd, sizeof cmd, "'%s' erfc_f64", GELUCHECK_EXEC_CHILD);
    c = exec_start_transport(cmd, 10, false, err, sizeof err); /* not offered: it takes pipes */
    cr_assert(c, "%s", err);
    cr_expect_eq(exec_info(c)->version, 2);
    cr_expect_not(exec_info(c)->shared_memory);
    exec_stop(c);
    snprintf(cmd, sizeof cmd, "'%s' erfc_f64 --transport shm", GELUCHECK_EXEC_CHILD);
    c = exec_start_transport(cmd, 10, false, err, sizeof err);
    cr_expect_null(c);
    cr_expect(strstr(err, "exec child 'erfc_f64'") &&
              strstr(err, "handshake line 9: 'transport shm', but no shared memory was offered"),
              "%s", err);
    if (c) exec_stop(c);
}

Test(exec, derivative_asked_of_a_child_without_one)
{
    char err[1200];
    float x[4] = {1, 2, 3, 4}, y[4];
    exec_child *c = start("erfc_f64 --no-derivative", 10, err, sizeof err);
    cr_assert(c, "%s", err);
    cr_expect_not(exec_info(c)->derivative);
    cr_expect_eq(exec_eval(c, true, x, y, 4, NULL, err, sizeof err), -1);
    cr_expect(strstr(err, "it declared 'derivative no'"), "%s", err);
    exec_stop(c);
}

/* A request cut into tensors (docs/protocol.md, "Cuts") reaches the child with its size: the
 * child plants a flipped last bit at each tensor's last position, so the outputs differ from
 * the uncut request's exactly there, over every transport, both directions; a child that
 * declared no cuts is never sent one. */
Test(exec, a_cut_reaches_the_child_with_its_size)
{
    enum { N = 1000 };
    static float x[N], whole[N], cut[N];
    for (int i = 0; i < N; i++) x[i] = -6.0f + 12.0f * (float)i / N;
    char err[1200], args[128];
    for (int t = 0; t < TRANSPORTS; t++) {
        snprintf(args, sizeof args, "erfc_f64 --cuts %s", transports[t].args);
        exec_child *c = start(args, 10, err, sizeof err);
        cr_assert(c, "%s", err);
        cr_expect(exec_info(c)->cuts);
        static const uint32_t sizes[] = {1, 3, 16, 999, 5000};
        for (int grad = 0; grad < 2; grad++)
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                cr_assert_eq(exec_eval_any(c, grad, x, whole, N, NULL, err, sizeof err), 0, "%s", err);
                cr_assert_eq(exec_eval_cut(c, grad, sizes[k], x, cut, N, NULL, err, sizeof err), 0,
                             "%s", err);
                for (int i = 0; i < N; i++) {
                    uint32_t a, b;
                    memcpy(&a, &whole[i], 4);
                    memcpy(&b, &cut[i], 4);
                    cr_assert_eq(a ^ b, (uint32_t)i % sizes[k] == sizes[k] - 1 ? 1u : 0u,
                                 "%s, size %u, grad %d, input %d", args, sizes[k], grad, i);
                }
            }
        exec_stop(c);
    }
    exec_child *c = start("erfc_f64", 10, err, sizeof err);
    cr_assert(c, "%s", err);
    cr_expect_not(exec_info(c)->cuts);
    cr_expect_eq(exec_eval_cut(c, false, 3, x, cut, N, NULL, err, sizeof err), -1);
    cr_expect(strstr(err, "forward request of 1000 inputs from x = -0x1.8p+2 in tensors of 3, but "
                          "it declared no 'cuts yes'"), "%s", err);
    exec_stop(c);
}

/* A handshake from a file: refused with the needle in the message. */
static void bad_handshake(const char *text, const char *needle)
{
    char path[] = "/tmp/gelucheck_hs_XXXXXX", args[128], err[1200];
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    snprintf(args, sizeof args, "erfc_f64 --handshake %s", path);
    exec_child *c = start(args, 2, err, sizeof err);
    unlink(path);
    cr_expect_null(c, "accepted: %s", text);
    if (c) exec_stop(c);
    cr_expect(strstr(err, needle), "'%s' not in: %s", needle, err);
}

#define HS_OK "name g\ntarget exact\nformat binary32\n"

Test(exec, bad_handshakes)
{
    bad_handshake("gelucheck-exec 3\n" HS_OK "end\n",
                  "is 'gelucheck-exec 3', not 'gelucheck-exec 1' or 'gelucheck-exec 2'");
    bad_handshake("gelucheck-exec 1\n" HS_OK "transport shm\nend\n",
                  "line 5: 'transport' in a version 1 handshake");
    bad_handshake("gelucheck-exec 2\n" HS_OK "transport carrier-pigeon\nend\n",
                  "bad transport 'carrier-pigeon' (pipe or shm)");
    bad_handshake("gelucheck-exec 2\n" HS_OK "transport pipe\ntransport shm\nend\n",
                  "'transport' given twice");
    bad_handshake("gelucheck-exec 1\nname <script>alert(1)</script>\ntarget exact\nend\n",
                  "bad name '<script>alert(1)</script>'");
    bad_handshake("gelucheck-exec 1\nname a,b\"c\ntarget exact\nend\n", "bad name 'a,b\"c'");
    bad_handshake("gelucheck-exec 1\nname \x1b[2Jx\nend\n", "bad name '\\x1b[2Jx'");
    bad_handshake("gelucheck-exec 1\n" HS_OK "colour red\nend\n", "line 5: 'colour red' is not");
    bad_handshake("gelucheck-exec 1\n" HS_OK "name h\nend\n", "'name' given twice");
    bad_handshake("gelucheck-exec 1\nname g\nformat binary32\nend\n", "no 'target' line");
    bad_handshake("gelucheck-exec 1\nname g\ntarget erf\nformat binary32\nend\n", "bad target 'erf'");
    bad_handshake("gelucheck-exec 1\n" HS_OK "contract max_ulp=nan\nend\n",
                  "contract: max_ulp='nan' is not a bound");
    bad_handshake("gelucheck-exec 1\n" HS_OK "contract max_ulp=-1\nend\n", "max_ulp='-1'");
    bad_handshake("gelucheck-exec 1\n" HS_OK "derivative maybe\nend\n", "bad derivative 'maybe'");
    bad_handshake("gelucheck-exec 1\n" HS_OK "cuts some\nend\n", "bad cuts 'some'");
    bad_handshake("gelucheck-exec 1\n" HS_OK, "handshake: no answer within 2 s");
}

Test(exec, a_command_that_is_not_a_child)
{
    char err[1200];
    exec_child *c = exec_start("exit 7", 5, err, sizeof err);
    cr_expect_null(c);
    cr_expect(strstr(err, "exited with status 7"), "%s", err);
    c = exec_start("/nonexistent/gelu", 5, err, sizeof err);
    cr_expect_null(c);
    cr_expect(strstr(err, "exited with status 127"), "%s", err);
}

static double cpu_ns(int who)
{
    struct rusage u;
    getrusage(who, &u);
    return 1e9 * ((double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec) +
           1e3 * ((double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_usec);
}

static double thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

/* The protocol's cost per input, with ReLU (whose kernel time is small), over each transport:
 * the CPU time (user + sys) of both processes — this one, and the child, reaped at the end, its
 * start and stop included — less the kernel's CPU time, per input, for each request size; 2^25
 * inputs per size, from an array of 2^20 (as the scan's buffers are not: it reuses one group's).
 * The kernel's time is the same kernel's CPU time on the same batches in this process (the
 * child's own report is wall time, which a loaded machine inflates). CPU time, not wall time:
 * the machine is shared. Printed, not asserted. */
Test(exec, overhead_per_input)
{
    char err[1200];
    size_t n = 1u << 20;
    const uint64_t per_size = UINT64_C(1) << 25;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) x[i] = (float)i;
    const gelu_impl *relu = gelu_impl_find("relu");
    cr_assert(relu);
    static const char *const kinds[] = {"pipe", "shm"};
    for (size_t batch = 4096; batch <= (1u << 18); batch *= 4) {
        double k0 = thread_cpu_ns();
        for (uint64_t total = 0; total < per_size;)
            for (size_t at = 0; at + batch <= n; at += batch, total += batch)
                relu->forward(x + at, y + at, batch);
        double kernel = thread_cpu_ns() - k0;
        for (int t = 0; t < 2; t++) {
            char args[64];
            snprintf(args, sizeof args, "relu --transport %s", kinds[t]);
            double host0 = cpu_ns(RUSAGE_SELF), child0 = cpu_ns(RUSAGE_CHILDREN);
            exec_child *c = start(args, 10, err, sizeof err);
            cr_assert(c, "%s", err);
            cr_assert_eq(exec_info(c)->shared_memory, t == 1);
            uint64_t reported = 0, ns;
            for (uint64_t total = 0; total < per_size;)
                for (size_t at = 0; at + batch <= n; at += batch, total += batch) {
                    cr_assert_eq(exec_eval(c, false, x + at, y + at, batch, &ns, err, sizeof err), 0);
                    reported += ns;
                }
            exec_stop(c);
            double host = cpu_ns(RUSAGE_SELF) - host0, child = cpu_ns(RUSAGE_CHILDREN) - child0;
            double in = (double)per_size;
            printf("exec protocol over %-4s, requests of %7zu: %.2f CPU ns/input (host %.2f, child "
                   "%.2f; the kernel's CPU %.2f, the child's clock of it %.2f)\n", kinds[t],
                   batch, (host + child - kernel) / in, host / in, child / in, kernel / in,
                   (double)reported / in);
        }
    }
    free(x);
    free(y);
}
