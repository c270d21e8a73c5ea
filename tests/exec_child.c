/* A child of the exec protocol (docs/protocol.md) serving one built-in implementation, for
 * tests/test_exec.c: the same kernel through the protocol and called directly must give the
 * same bits. It speaks version 2 and takes the shared-memory region when gelucheck offers one
 * (GELUCHECK_EXEC_SHM), else the pipes. Options choose the transport and plant what a broken
 * child does:
 *
 *   exec_child IMPL [--name N] [--protocol 1] [--transport pipe|shm|WORD] [--in-place]
 *              [--wrong-at HEX] [--die-after K] [--hang-after K] [--garbage-after K]
 *              [--short-after K] [--error-after K] [--count-off-after K] [--handshake FILE] ...
 *
 *   --protocol 1         a version 1 child: no transport line, pipes (a child from before shm)
 *   --transport T        announce 'transport T' whatever was offered (a wrong claim included)
 *   --in-place           over shared memory, write the outputs over the inputs (the reply
 *                        says where they are: the host must read them there)
 *
 *   --wrong-at HEX       the forward output at the input with that encoding gets its sign flipped
 * (the *-after counts are of requests of more than 1,024 inputs: gelucheck's batching probe
 * sends fewer, scans more)
 *   --die-after K        after K replies, exit with status 3 (at the next request)
 *   --hang-after K       after K replies, read the next request and never answer
 *   --garbage-after K    after K replies, answer with a wrong magic
 *   --short-after K      after K replies, write half a reply and exit 0
 *   --error-after K      after K replies, answer with status 5 and a message
 *   --count-off-after K  after K replies, answer with one output fewer
 *   --segv-after K       after K replies, die of SIGSEGV
 * over shared memory only:
 *   --count-over-after K    after K replies, answer a count larger than the region holds
 *   --offset-out-after K    after K replies, answer that the outputs start at the region's end
 *   --die-midway-after K    after K replies, write half the outputs into the region, exit 3
 *   --pipe-reply-after K    after K replies, answer as over the pipes: 'GXRP', outputs after it
 *   --trailing-after K      after K replies, write the outputs on the pipe after a valid frame
 *   --alone-differs      a request of one input gets its output's last bit flipped
 *   --cuts               declare 'cuts yes'; in a request cut into tensors of N > 0 (op bits 8
 *                        to 31), the output at each tensor's last position (k mod N = N − 1)
 *                        gets its last bit flipped: a tail that differs from the batch
 *   --format binary64    serve the binary64 row IMPL (impls/gelu_f64.h): 8-byte values
 *   --format F           serve IMPL in 16-bit format F (bfloat16, binary16): 2-byte encodings
 *                        in and out, IMPL a native of F (cr_bfloat16: declared max_ulp=0.5, the
 *                        protocol's way to claim correct rounding) or a binary32 one widened;
 *                        --wrong-at HEX is then a 16-bit encoding whose forward output gets its
 *                        last bit flipped (1 ULP off)
 *   --isa WORD           declare 'dispatched_isa WORD' 
 *   --no-derivative      declare 'derivative no'
 *   --handshake FILE     send FILE's bytes as the handshake instead of the real one
 *   --fpenv "LIST"       declare 'fpenv LIST' (ieee, ftz, daz, ftz+daz) and run the kernel calls
 *                        with MXCSR's FTZ/DAZ set as GELUCHECK_EXEC_FPENV asks (impls/fpenv.c's
 *                        bits, around each call only), or, asked for one it does not list, in the
 *                        first it lists (a fixed environment)
 *   --fpenv-unset        planted: declare the list but run every call in IEEE's environment */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gelu_cr16.h"
#include "gelu_fpenv.h"
#include "gelu_impl.h"

static int read_full(void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(STDIN_FILENO, (char *)buf + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        got += (size_t)k;
    }
    return 0;
}

static void write_full(const void *buf, size_t n)
{
    size_t put = 0;
    while (put < n) {
        ssize_t k = write(STDOUT_FILENO, (const char *)buf + put, n - put);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) exit(4);
        put += (size_t)k;
    }
}

static void put_u32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

static long option(int argc, char **argv, const char *name, long none)
{
    for (int i = 2; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) return strtol(argv[i + 1], NULL, 0);
    return none;
}

static const char *option_s(int argc, char **argv, const char *name)
{
    for (int i = 2; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) return argv[i + 1];
    return NULL;
}

/* Over shared memory: the region gelucheck offered (GELUCHECK_EXEC_SHM), mapped; NULL when none. */
static unsigned char *map_region(size_t *size)
{
    const char *fd = getenv("GELUCHECK_EXEC_SHM");
    struct stat st;
    if (!fd || fstat(atoi(fd), &st) != 0) return NULL;
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, atoi(fd), 0);
    if (m == MAP_FAILED) return NULL;
    *size = (size_t)st.st_size;
    return m;
}

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    const char *fmt_name = option_s(argc, argv, "--format");
    const gelu_format *fmt = gelu_format_find(fmt_name ? fmt_name : "binary32");
    if (!fmt) return 2;
    bool f16 = gelu_format_small(fmt), f64 = fmt->storage_bits == 64;
    gelu_impl view;
    const gelu_impl *impl = f16   ? gelu_impl_lookup_in(argv[1], fmt->id, &view)
                            : f64 ? gelu_impl_find_in(argv[1], fmt->id)
                                  : gelu_impl_find(argv[1]);
    if (!impl) return 2;
    const size_t es = fmt->storage_bits / 8; /* bytes a value: 2, 4 or 8 */
    const char *isa = option_s(argc, argv, "--isa");
    const char *name = option_s(argc, argv, "--name");
    const char *hs = option_s(argc, argv, "--handshake");
    const char *transport = option_s(argc, argv, "--transport");
    if (!transport) transport = getenv("GELUCHECK_EXEC_SHM") ? "shm" : "pipe";
    long version = option(argc, argv, "--protocol", 2);
    long wrong = option(argc, argv, "--wrong-at", -1), die = option(argc, argv, "--die-after", -1),
         hang = option(argc, argv, "--hang-after", -1),
         garbage = option(argc, argv, "--garbage-after", -1),
         shortr = option(argc, argv, "--short-after", -1),
         error = option(argc, argv, "--error-after", -1),
         countoff = option(argc, argv, "--count-off-after", -1),
         segv = option(argc, argv, "--segv-after", -1),
         countover = option(argc, argv, "--count-over-after", -1),
         offsetout = option(argc, argv, "--offset-out-after", -1),
         midway = option(argc, argv, "--die-midway-after", -1),
         pipereply = option(argc, argv, "--pipe-reply-after", -1),
         trailing = option(argc, argv, "--trailing-after", -1);
    bool no_derivative = false, alone_differs = false, in_place = false, cuts = false;
    for (int i = 2; i < argc; i++) {
        cuts |= strcmp(argv[i], "--cuts") == 0;
        no_derivative |= strcmp(argv[i], "--no-derivative") == 0;
        alone_differs |= strcmp(argv[i], "--alone-differs") == 0;
        in_place |= strcmp(argv[i], "--in-place") == 0;
    }
    bool shm = version >= 2 && strcmp(transport, "shm") == 0;
    /* the environment asked for, where this process runs it (see --fpenv above) */
    const char *fpenvs = option_s(argc, argv, "--fpenv");
    gelu_fpenv asked = GELU_FPENV_IEEE, runs_in = GELU_FPENV_IEEE;
    const char *asked_name = getenv("GELUCHECK_EXEC_FPENV");
    if (asked_name && !gelu_fpenv_parse(asked_name, &asked)) return 2;
    if (fpenvs) {
        char list[128], *save;
        snprintf(list, sizeof list, "%s", fpenvs);
        bool listed = false, first = true;
        for (char *w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            gelu_fpenv e;
            if (!gelu_fpenv_parse(w, &e)) return 2;
            if (first) runs_in = e;
            first = false;
            listed |= e == asked;
        }
        if (listed) runs_in = asked;
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--fpenv-unset") == 0) runs_in = GELU_FPENV_IEEE;
    }
    if (hs) {
        FILE *f = fopen(hs, "rb");
        if (!f) return 2;
        char buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        write_full(buf, n);
    } else {
        char head[1400], line[64] = "", isa_line[64] = "", fpenv_line[160] = "";
        if (fpenvs) snprintf(fpenv_line, sizeof fpenv_line, "fpenv %s\n", fpenvs);
        if (version >= 2) snprintf(line, sizeof line, "transport %s\n", transport);
        if (isa) snprintf(isa_line, sizeof isa_line, "dispatched_isa %s\n", isa);
        bool has_derivative = f16   ? impl->derivative_u16 || impl->derivative
                              : f64 ? impl->derivative_f64 != NULL
                                    : impl->derivative != NULL;
        double max_ulp = impl->contract.correctly_rounded ? 0.5 : impl->contract.max_ulp;
        int n = snprintf(head, sizeof head,
                         "gelucheck-exec %ld\nname %s\ntarget %s\nformat %s\nderivative %s\n"
                         "timing yes\ncontract max_ulp=%a monotone=%s\norigin %s (exec_child)\n%s%s%s%send\n",
                         version, name ? name : impl->name, gelu_target_name(impl->target),
                         fmt->name, has_derivative && !no_derivative ? "yes" : "no", max_ulp,
                         impl->contract.monotone ? "yes" : "no", impl->name, isa_line, fpenv_line,
                         cuts ? "cuts yes\n" : "", line);
        write_full(head, (size_t)n);
    }
    size_t region_size = 0;
    unsigned char *region = shm ? map_region(&region_size) : NULL;
    const size_t req_bytes = shm ? 32 : 16, rep_bytes = shm ? 32 : 24;
    /* static: reachable until exit (no leak report under LeakSanitizer); x, y hold 4-byte or
     * (f16) 2-byte values; wx, wy the widened adapter's binary32 room */
    static float *x, *y, *wx, *wy;
    for (long replies = 0;;) {
        unsigned char req[32];
        if (read_full(req, req_bytes) != 0) return 0; /* end of input: shut down */
        uint32_t op;
        uint64_t count, in_at = 0, out_at = 0;
        memcpy(&op, req + 4, 4);
        memcpy(&count, req + 8, 8);
        if (shm) {
            memcpy(&in_at, req + 16, 8);
            memcpy(&out_at, req + 24, 8);
        }
        if (memcmp(req, shm ? "GXSQ" : "GXRQ", 4) != 0) return 5;
        if (op == 0) return 0;
        uint32_t cut = op >> 8; /* a tensor size (docs/protocol.md, "Cuts"), 0 for one tensor */
        op &= 0xff;
        if (cut && !cuts) return 8;
        if (count > 1024) replies++; /* this request's number among the counted ones, from 1 */
        long r = count > 1024 ? replies - 1 : -2;
        if (r == die) return 3;
        if (r == segv) raise(SIGSEGV);
        if (shm) { /* the inputs and the outputs in the region, where the request says */
            if (!region || in_at > region_size || count > (region_size - in_at) / es ||
                out_at > region_size || count > (region_size - out_at) / es)
                return 7;
            x = (float *)(region + in_at);
            y = (float *)(region + (in_place ? in_at : out_at));
            out_at = in_place ? in_at : out_at;
        } else {
            x = realloc(x, count * es + 4);
            y = realloc(y, count * es + 4);
            if (!x || !y || read_full(x, count * es) != 0) return 6;
        }
        if (f16) {
            wx = realloc(wx, count * sizeof *wx + 4);
            wy = realloc(wy, count * sizeof *wy + 4);
            if (!wx || !wy) return 6;
        }
        if (r == hang) pause();
        unsigned char rep[32 + 4096] = {0};
        memcpy(rep, r == garbage ? "JUNK" : shm ? "GXSP" : "GXRP", 4);
        if (r == error) {
            const char *msg = "planted failure\n\x1b[31m in the child";
            put_u32(rep + 4, 5);
            put_u64(rep + 8, strlen(msg));
            put_u64(rep + 16, 0);
            write_full(rep, rep_bytes);
            write_full(msg, strlen(msg));
            continue;
        }
        if (r == midway) { /* the region half-written, then gone */
            if (f16) gelu_impl_run_u16(impl, false, (uint16_t *)x, (uint16_t *)y, count / 2, wx, wy);
            else if (f64) impl->forward_f64((const double *)x, (double *)y, count / 2);
            else impl->forward(x, y, count / 2);
            return 3;
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        unsigned saved = gelu_fpenv_enter(runs_in); /* around the kernel call only */
        if (f16) gelu_impl_run_u16(impl, op == 2, (uint16_t *)x, (uint16_t *)y, count, wx, wy);
        else if (f64) (op == 2 ? impl->derivative_f64 : impl->forward_f64)((const double *)x, (double *)y, count);
        else (op == 2 ? impl->derivative : impl->forward)(x, y, count);
        gelu_fpenv_leave(saved);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (alone_differs && count == 1) /* the last bit of the (little-endian) output */
            ((unsigned char *)y)[0] ^= 1;
        for (uint64_t k = cut ? cut - 1 : count; k < count; k += cut) /* each tensor's last */
            ((unsigned char *)y)[k * es] ^= 1;
        if (wrong >= 0 && op == 1)
            for (uint64_t i = 0; i < count; i++) {
                /* (in place, x[i] is the output: not with --in-place) */
                if (f16 && ((uint16_t *)x)[i] == (uint16_t)wrong) {
                    ((uint16_t *)y)[i] ^= 1; /* the next or previous encoding: 1 ULP off */
                    continue;
                }
                uint32_t b;
                if (f16 || f64) continue; /* --wrong-at: binary32 and 16-bit children */
                memcpy(&b, &x[i], 4);
                if (b == (uint32_t)wrong) y[i] = -y[i];
            }
        uint64_t ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)(t1.tv_nsec - t0.tv_nsec);
        uint64_t out = r == countoff && count ? count - 1 : count;
        if (r == countover) out = region_size / es + 1;
        put_u32(rep + 4, 0);
        put_u64(rep + 8, out);
        put_u64(rep + 16, ns ? ns : 1);
        put_u64(rep + 24, r == offsetout ? region_size : out_at);
        if (r == shortr) {
            write_full(rep, shm ? rep_bytes / 2 : rep_bytes);
            if (!shm) write_full(y, out * es / 2);
            return 0;
        }
        if (r == pipereply) { /* the pipe transport's reply, outputs and all */
            memcpy(rep, "GXRP", 4);
            write_full(rep, 24);
            write_full(y, count * es);
            continue;
        }
        if (r == trailing) { /* a valid frame with the outputs behind it, in one write */
            size_t k = count < 1000 ? count : 1000; /* frame and all within PIPE_BUF: one piece */
            memcpy(rep + rep_bytes, y, k * es);
            write_full(rep, rep_bytes + k * es);
            continue;
        }
        write_full(rep, rep_bytes);
        if (!shm) write_full(y, out * es);
    }
}
