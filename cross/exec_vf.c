/* The exec child (docs/protocol.md, version 2) of a cross build: serves one of this machine's
 * builds of our vf methods — the portable one or a vector one (cr_neon, ...) — or of the plain C
 * implementations (erfc_libm: this machine's libm), to a host gelucheck, which computes the
 * references and judges it as any exec row (docs/aarch64.md); and, for checking them, the
 * accurate paths of cr_tanh and cr_sigmoid alone (exec_vf_accurate.c). A name the host has already
 * (cr, erfc_libm) needs another, --name:
 *
 *   exec_vf IMPL [--name N] [--wrong-at HEX]   serve IMPL (over shared memory when offered)
 *   exec_vf --list                             the rows it serves, one a line: NAME ISA FAMILY
 *   exec_vf --self-check N                     each vector build against its portable twin
 *
 * An SVE build (sve128, sve256, sve512: impls/vf_sve.h) runs only where the vector length is
 * its own: under qemu-aarch64, -cpu max,sve-max-vq=N gives N·128 bits; an RVV build (rvv128,
 * rvv256: impls/vf_rvv.h) where VLEN is at least its own: qemu-riscv64 -cpu rv64,v=true,vlen=N.
 * Serving one elsewhere is refused (exit 2) and --self-check skips it, saying so.
 *
 *   --name N         announce the name N (default: IMPL)
 *   --wrong-at HEX   planted defect, for the tests: the forward output at the input with that
 *                    binary32 encoding gets its sign flipped
 *
 * --self-check compares, forward and derivative, N inputs spread over the 2^32 encodings (a
 * stride, plus the special values) between every build and its method's portable build, by
 * encoding (any NaN equals any NaN); exit 1 naming the first difference. Exit 2: bad usage. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gelu_impl.h"

/* exec_vf_accurate.c: cr_tanh's and cr_sigmoid's accurate paths alone, rows for checking them */
#define EXEC_VF_CHECK_ROWS GELU_IMPL(cr_tanh_accurate_path) GELU_IMPL(cr_sigmoid_accurate_path)
#define GELU_IMPL(name) extern const gelu_impl gelu_impl_##name;
#include "exec_vf_plain.inc"
#include "exec_vf_peers.inc"
#include "vf_registry.inc"
EXEC_VF_CHECK_ROWS
#undef GELU_IMPL
static const gelu_impl *const impls[] = {
#define GELU_IMPL(name) &gelu_impl_##name,
#include "exec_vf_plain.inc"
#include "exec_vf_peers.inc"
#include "vf_registry.inc"
EXEC_VF_CHECK_ROWS
#undef GELU_IMPL
};
enum { IMPL_COUNT = sizeof impls / sizeof impls[0] };

static const char *const target_names[] = {
#define TARGET_NAME(id, name, is_gelu) name,
    GELU_TARGETS(TARGET_NAME)
#undef TARGET_NAME
};
static const char *const family_keys[] = {
#define FAMILY_KEY(id, key, text) key,
    GELU_FAMILIES(FAMILY_KEY)
#undef FAMILY_KEY
};
static const char *const isa_names[] = {
#define ISA_NAME(id, name, features) name,
    GELU_ISA_LIST(ISA_NAME)
#undef ISA_NAME
};

/* The ISAs built for a vector length, one row each: the prefix of their names (the digits after
 * it are the bits, "sve256"), whether the CPU's length must be exactly that (SVE's fixed-length
 * builds) or at least that (RVV's: vf_rvv.h uses only its first lanes), and how qemu-user sets
 * the length. */
static const struct {
    const char *prefix, *extension, *emulated;
    bool at_least;
} vector_isas[] = {
    {"sve", "SVE", "qemu-aarch64 -cpu max,sve-max-vq=N: N·128 bits", false},
    {"rvv", "V", "qemu-riscv64 -cpu rv64,v=true,vlen=N", true},
};

#if defined(__aarch64__)
#ifndef PR_SVE_GET_VL
#define PR_SVE_GET_VL 51 /* linux/prctl.h */
#endif
#define VF_HWCAP_SVE (1ul << 22) /* AT_HWCAP's SVE bit on AArch64 (asm/hwcap.h) */
/* This CPU's SVE vector length in bits; 0 without SVE. */
static long cpu_vector_bits(void)
{
    return getauxval(AT_HWCAP) & VF_HWCAP_SVE ? (prctl(PR_SVE_GET_VL) & 0xffff) * 8 : 0;
}
#elif defined(__riscv)
static sigjmp_buf no_vector;
static void on_sigill(int sig)
{
    (void)sig;
    siglongjmp(no_vector, 1);
}
/* This CPU's VLEN in bits: CSR vlenb (0xc22) read, which traps without V (qemu 7.2 does not
 * announce V in AT_HWCAP); 0 without V. */
static long cpu_vector_bits(void)
{
    struct sigaction trap = {.sa_handler = on_sigill}, old;
    volatile long vlenb = 0;
    sigemptyset(&trap.sa_mask);
    sigaction(SIGILL, &trap, &old);
    if (!sigsetjmp(no_vector, 1)) {
        long b;
        __asm__ volatile("csrr %0, 0xc22" : "=r"(b));
        vlenb = b;
    }
    sigaction(SIGILL, &old, NULL);
    return vlenb * 8;
}
#else
static long cpu_vector_bits(void) { return 0; }
#endif

/* Whether this CPU runs the build: one for a vector length needs its row's extension with that
 * length, or at least it; else why not, into why, and how to emulate it, into how. */
static bool runs_here(const gelu_impl *impl, char *why, size_t size, const char **how)
{
    const char *isa = isa_names[impl->isa];
    for (size_t r = 0; r < sizeof vector_isas / sizeof vector_isas[0]; r++) {
        size_t len = strlen(vector_isas[r].prefix);
        if (strncmp(isa, vector_isas[r].prefix, len) != 0) continue;
        long bits = strtol(isa + len, NULL, 10), vl = cpu_vector_bits();
        const char *ext = vector_isas[r].extension;
        *how = vector_isas[r].emulated;
        if (vl == bits || (vector_isas[r].at_least && vl > bits)) return true;
        if (vl)
            snprintf(why, size, "%s needs %s vectors of %s%ld bits; this CPU's are %ld", impl->name, ext,
                     vector_isas[r].at_least ? "at least " : "", bits, vl);
        else
            snprintf(why, size, "%s needs %s; this CPU has none", impl->name, ext);
        return false;
    }
    return true;
}

static const gelu_impl *find(const char *name)
{
    for (int i = 0; i < IMPL_COUNT; i++)
        if (strcmp(impls[i]->name, name) == 0) return impls[i];
    return NULL;
}

static int read_full(void *buf, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t k = read(STDIN_FILENO, (char *)buf + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        got += (size_t)k;
    }
    return 0;
}

static int write_full(const void *buf, size_t n)
{
    for (size_t put = 0; put < n;) {
        ssize_t k = write(STDOUT_FILENO, (const char *)buf + put, n - put);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        put += (size_t)k;
    }
    return 0;
}

static uint32_t bits(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* Every build against its method's portable build over n inputs; 0 when all agree. */
static int self_check(uint64_t n)
{
    enum { BATCH = 4096 };
    static const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                        0x7fc00000u, 0x00000001u, 0x80000001u, 0x7f7fffffu};
    static float x[BATCH], want[BATCH], got[BATCH];
    uint64_t stride = n ? ((uint64_t)1 << 32) / n : 1, checked = 0;
    int builds = 0, skipped = 0;
    char why[128], first_skip[128] = "";
    for (int k = 0; k < IMPL_COUNT; k++) {
        const gelu_impl *v = impls[k], *plain = find(v->method);
        /* a library's builds (SLEEF's, cross/peer_sleef.c) have no portable twin: the gate
         * judges them */
        if (v->isa == GELU_ISA_PORTABLE || v->family != GELU_FAMILY_OURS) continue;
        const char *how;
        if (!runs_here(v, why, sizeof why, &how)) {
            if (!skipped++) snprintf(first_skip, sizeof first_skip, "%s", why);
            continue;
        }
        if (!plain) {
            fprintf(stderr, "exec_vf: %s: no portable build of %s\n", v->name, v->method);
            return 1;
        }
        builds++;
        for (int dir = 0; dir < 2; dir++) {
            gelu_kernel fv = dir ? v->derivative : v->forward, fp = dir ? plain->derivative : plain->forward;
            for (uint64_t at = 0; at < n + 8; at += BATCH) {
                size_t m = 0;
                for (; m < BATCH && at + m < n + 8; m++) {
                    uint32_t b = at + m < 8 ? specials[at + m] : (uint32_t)((at + m - 8) * stride + 12345u);
                    memcpy(&x[m], &b, sizeof b);
                }
                fv(x, got, m);
                fp(x, want, m);
                for (size_t i = 0; i < m; i++) {
                    if (bits(got[i]) == bits(want[i]) || (isnan(got[i]) && isnan(want[i]))) continue;
                    fprintf(stderr, "exec_vf: %s %s differs from %s at x = %a (0x%08x): %a, %a\n",
                            v->name, dir ? "derivative" : "forward", plain->name, x[i], bits(x[i]),
                            got[i], want[i]);
                    return 1;
                }
                checked += m;
            }
        }
    }
    printf("exec_vf: %d vector builds bit-identical to their portable builds at %llu inputs "
           "(forward and derivative)\n", builds, (unsigned long long)checked / (2u * (builds ? builds : 1)));
    if (skipped) printf("exec_vf: %d builds skipped, the first: %s\n", skipped, first_skip);
    return builds ? 0 : 1;
}

/* The region gelucheck offered (GELUCHECK_EXEC_SHM), mapped; NULL when none. */
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

static int serve(const gelu_impl *impl, const char *name, long long wrong)
{
    size_t region_size = 0;
    unsigned char *region = map_region(&region_size);
    const gelu_contract *c = &impl->contract;
    char head[1024];
    int len = snprintf(head, sizeof head,
                       "gelucheck-exec 2\nname %s\ntarget %s\nformat binary32\nderivative yes\n"
                       "timing yes\ncontract max_ulp=%a max_abs=%a grad_max_ulp=%a grad_max_abs=%a "
                       "monotone=%s specials=%s\norigin %s built for %s (cross/exec_vf.c)\n"
                       "dispatched_isa %s\ntransport %s\nend\n",
                       name, target_names[impl->target], c->correctly_rounded ? 0.5 : c->max_ulp,
                       c->max_abs, c->correctly_rounded ? 0.5 : c->grad_max_ulp, c->grad_max_abs,
                       c->monotone ? "yes" : "no", c->specials ? "yes" : "no", impl->method,
                       isa_names[impl->isa],
                       impl->dispatched_isa ? impl->dispatched_isa() : isa_names[impl->isa],
                       region ? "shm" : "pipe");
    if (len < 0 || (size_t)len >= sizeof head || write_full(head, (size_t)len) != 0) return 4;
    const size_t req_bytes = region ? 32 : 16, rep_bytes = region ? 32 : 24;
    static float *x, *y; /* the pipes' buffers (static: reachable until exit) */
    for (;;) {
        unsigned char req[32];
        if (read_full(req, req_bytes) != 0) return 0; /* end of input: shut down */
        uint32_t op;
        uint64_t count, in_at = 0, out_at = 0;
        memcpy(&op, req + 4, 4);
        memcpy(&count, req + 8, 8);
        if (memcmp(req, region ? "GXSQ" : "GXRQ", 4) != 0 || op > 2) return 5;
        if (op == 0) return 0;
        if (region) {
            memcpy(&in_at, req + 16, 8);
            memcpy(&out_at, req + 24, 8);
            if (in_at % 4 || out_at % 4 || in_at > region_size || count > (region_size - in_at) / 4 ||
                out_at > region_size || count > (region_size - out_at) / 4)
                return 7;
            x = (float *)(region + in_at);
            y = (float *)(region + out_at);
        } else {
            if (count > (uint64_t)1 << 24) return 6;
            x = realloc(x, count * 4 + 4);
            y = realloc(y, count * 4 + 4);
            if (!x || !y || read_full(x, count * 4) != 0) return 6;
        }
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        (op == 2 ? impl->derivative : impl->forward)(x, y, count);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (wrong >= 0 && op == 1)
            for (uint64_t i = 0; i < count; i++)
                if (bits(x[i]) == (uint32_t)wrong) y[i] = -y[i];
        uint64_t ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)(t1.tv_nsec - t0.tv_nsec);
        unsigned char rep[32] = {0};
        memcpy(rep, region ? "GXSP" : "GXRP", 4);
        memcpy(rep + 8, &count, 8);
        ns += !ns;
        memcpy(rep + 16, &ns, 8);
        memcpy(rep + 24, &out_at, 8);
        if (write_full(rep, rep_bytes) != 0 || (!region && write_full(y, count * 4) != 0)) return 4;
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < IMPL_COUNT; i++)
            printf("%s %s %s\n", impls[i]->name, isa_names[impls[i]->isa], family_keys[impls[i]->family]);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--self-check") == 0) {
        char *end;
        unsigned long long n = strtoull(argv[2], &end, 0);
        if (*end || n == 0 || n > (1ull << 32)) {
            fprintf(stderr, "exec_vf: --self-check takes a count of inputs in 1..2^32, not '%s'\n", argv[2]);
            return 2;
        }
        return self_check(n);
    }
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: exec_vf IMPL [--name N] [--wrong-at HEX] | --list | --self-check N\n");
        return 2;
    }
    const gelu_impl *impl = find(argv[1]);
    if (!impl) {
        fprintf(stderr, "exec_vf: no build '%s' here (exec_vf --list names them)\n", argv[1]);
        return 2;
    }
    char why[128];
    const char *how = "";
    if (!runs_here(impl, why, sizeof why, &how)) {
        fprintf(stderr, "exec_vf: %s (%s)\n", why, how);
        return 2;
    }
    const char *name = impl->name;
    long long wrong = -1;
    for (int i = 2; i < argc; i++) {
        char *end = NULL;
        if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) name = argv[++i];
        else if (strcmp(argv[i], "--wrong-at") == 0 && i + 1 < argc) {
            wrong = strtoll(argv[++i], &end, 16);
            if (*end || wrong < 0 || wrong > 0xffffffffll) {
                fprintf(stderr, "exec_vf: --wrong-at takes a binary32 encoding in hex, not '%s'\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "exec_vf: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    return serve(impl, name, wrong);
}
