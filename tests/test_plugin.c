/* A plugin for tests/test_plugin_cli.sh: erfc_f64's very kernels (impls/erfc_f64_kernels.h)
 * behind the public ABI, so its results must equal the built-in erfc_f64's bit for bit; the
 * environment variable GELUCHECK_TEST_PLUGIN_CASE plants one defect at a time:
 *
 *   wrong        forward at x = 1.5 has its sign flipped (the gate must name 0x1.8p+0)
 *   nonmono      forward at x = 2.0 is 8 ULPs low, below its predecessor's (a monotonicity
 *                break at 2; the error bounds are lifted to 100 so that only that claim breaks)
 *   negnan       forward at −inf is NaN while the contract claims specials
 *   overflow     forward is +inf from x = 2^127 on (where GELU is finite)
 *   crash        forward at x = 3.0 dies of SIGSEGV (raised: a real wild load is undefined
 *                behaviour, which the sanitize build stops before the signal)
 *   abi2         the ABI version is 2
 *   null         the entry returns NULL
 *   hostile      the name is "<script>" (and the origin holds commas, quotes, a newline, ESC)
 *   hostile_origin  a good name, the origin hostile: markup, commas, quotes, a newline, ESC
 *   forward_only the derivative kernel is NULL (an inference kernel)
 *   twice        two implementations with one name
 *   clash        the name is erfc_f64 (built in)
 *   nancontract  contract.max_ulp is NaN
 *   noforward    no forward kernel
 *   badtarget    target "erf"
 *   badfeature   cpu_features "avx1024"
 *   badformat    format "binary8"
 *   small        the description's size is 8
 *   firstsize    the size of ABI 1's first layout, with a bad method past it (must load)
 *   badmethod    method "1x"
 *   badfamily    family "vendor"
 *   badisa       isa "avx1024"
 *   isafeatures  isa "avx2" without its CPU features
 *   dispatched   a dispatched_isa function naming "test_path" (accuracy.csv must carry it)
 * and a second description, format "binary64" (the ABI's appended binary64 kernels), named as
 * the first (a list of its own): erfc_libm's double kernels, so its rows must be erfc_libm's:
 *   f64          that row alone added
 *   f64wrong     its forward at the largest double has its sign flipped (the binary64 gate must
 *                name 0x7fefffffffffffff, a hard input of every sample)
 *   f64crash     its forward at any x in (2, 4) dies of SIGSEGV (in its own process: named)
 *   f64both      binary32 kernels too (refused)
 *   f64none      no forward_binary64 (refused)
 *   f64clash     named erfc_libm, a built-in binary64 row (refused)
 *   f64u16       that row with 16-bit kernels too (refused)
 * and a third, format "bfloat16" (the ABI's appended 16-bit kernels), named as the first:
 * erfc_f64's binary32 kernels between bfloat16's exact widening and a rounding to nearest even
 * (impls/format16_bits.h, as gelucheck's widened adapter rounds), so its rows must be those of
 * erfc_f64 run widened in bfloat16:
 *   bf16         that row alone added
 *   bf16wrong    its forward at x = 1.5 (0x3fc0) one encoding low, 1.17 ULP off against a claim
 *                of 0.501 (the gate must name 0x1.8p+0)
 *   bf16crash    its forward at x = 3.0 (0x4040) dies of SIGSEGV
 *   bf16none     no forward_u16 (refused)
 *   bf16old      its size that of the layout before the 16-bit kernels (refused: no kernel)
 *   bf16both     binary32 kernels too (refused)
 *   bf16f64      binary64 kernels too (refused)
 *   bf16clash    named cr_bfloat16, a built-in bfloat16 row (refused)
 *   b32u16       the binary32 row with 16-bit kernels (refused)
 *   b64size      the binary32 row with the size of the layout before the 16-bit kernels and a
 *                16-bit kernel past it (must load: not read)
 *   leftout      gelucheck_plugin_left_out_v1 says "plug_erfc_f64 in binary16: planted reason"
 *                (list must show it) */
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gelucheck/plugin.h"

#define ERFC_F64(z) erfc(z)
#include "erfc_f64_kernels.h"
#include "format16_bits.h"

static const char *planted(void)
{
    const char *c = getenv("GELUCHECK_TEST_PLUGIN_CASE");
    return c ? c : "";
}

static void forward(const float *x, float *y, size_t n)
{
    erfc_f64_forward(x, y, n);
    const char *c = planted();
    for (size_t i = 0; i < n; i++) {
        if (strcmp(c, "wrong") == 0 && x[i] == 1.5f) y[i] = -y[i];
        if (strcmp(c, "nonmono") == 0 && x[i] == 2.0f) /* 8 ULPs down: below its predecessor's */
            for (int k = 0; k < 8; k++) y[i] = nextafterf(y[i], 0);
        if (strcmp(c, "negnan") == 0 && isinf(x[i]) && x[i] < 0) y[i] = NAN;
        if (strcmp(c, "overflow") == 0 && x[i] >= 0x1p127f) y[i] = INFINITY;
        if (strcmp(c, "crash") == 0 && x[i] == 3.0f) raise(SIGSEGV); /* as a wild load would */
    }
}

static const char *test_path(void) { return "test_path"; }

static void forward64(const double *x, double *y, size_t n)
{
    gelu_f64_erfc_forward(x, y, n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(planted(), "f64wrong") == 0 && x[i] == 0x1.fffffffffffffp+1023) y[i] = -y[i];
        else if (strcmp(planted(), "f64crash") == 0 && x[i] > 2 && x[i] < 4) raise(SIGSEGV);
}

/* erfc_f64's kernel on bfloat16 encodings: widened exactly, rounded to nearest even. */
static void bf16_run(void (*kernel)(const float *, float *, size_t), bool grad, const uint16_t *x,
                     uint16_t *y, size_t n)
{
    float wx[256], wy[256];
    for (size_t done = 0; done < n; done += 256) {
        size_t m = n - done < 256 ? n - done : 256;
        for (size_t i = 0; i < m; i++) wx[i] = bfloat16_widen(x[done + i]);
        kernel(wx, wy, m);
        for (size_t i = 0; i < m; i++) {
            y[done + i] = bfloat16_narrow(wy[i]);
            if (!grad && strcmp(planted(), "bf16wrong") == 0 && x[done + i] == 0x3fc0)
                y[done + i]--; /* GELU(1.5) = 1.39979… rounds to 1.3984375; 1.390625 is 1.17 ULP off */
            if (!grad && strcmp(planted(), "bf16crash") == 0 && x[done + i] == 0x4040)
                raise(SIGSEGV);
        }
    }
}

static void forward16(const uint16_t *x, uint16_t *y, size_t n)
{
    bf16_run(erfc_f64_forward, false, x, y, n);
}

static void derivative16(const uint16_t *x, uint16_t *y, size_t n)
{
    bf16_run(erfc_f64_derivative, true, x, y, n);
}

GELUCHECK_PLUGIN_EXPORT const char *gelucheck_plugin_left_out_v1(void)
{
    return strcmp(planted(), "leftout") == 0 ? "plug_erfc_f64 in binary16: planted reason" : NULL;
}

static gelucheck_impl_v1 impls[3];
static gelucheck_plugin_info_v1 info;

GELUCHECK_PLUGIN_EXPORT const gelucheck_plugin_info_v1 *gelucheck_plugin_v1(void)
{
    const char *c = planted();
    impls[0] = (gelucheck_impl_v1){
        .size = sizeof(gelucheck_impl_v1),
        .name = "plug_erfc_f64",
        .target = "exact",
        .format = "binary32",
        .cpu_features = "",
        .forward = forward,
        .derivative = erfc_f64_derivative,
        /* erfc_f64's contract, with specials claimed for the "negnan" case only */
        .contract = {.max_ulp = 0.502, .max_abs = 2.39e-07, .grad_max_ulp = 0.578,
                     .grad_max_abs = 5.98e-08, .monotone = 1,
                     .specials = strcmp(c, "negnan") == 0},
        .origin = "erfc_f64's kernels through the plugin ABI (tests/test_plugin.c)",
    };
    impls[1] = impls[0];
    info = (gelucheck_plugin_info_v1){GELUCHECK_PLUGIN_ABI, 1, impls};
    if (strcmp(c, "nonmono") == 0) impls[0].contract.max_ulp = impls[0].contract.max_abs = 100;
    if (strcmp(c, "abi2") == 0) info.abi = 2;
    if (strcmp(c, "null") == 0) return NULL;
    if (strcmp(c, "hostile") == 0) {
        impls[0].name = "<script>";
        impls[0].origin = "a, \"quoted\"\norigin \x1b[31mred";
    }
    if (strcmp(c, "hostile_origin") == 0)
        impls[0].origin = "<script>alert(1)</script> & a, \"quoted\"\norigin \x1b[31mred";
    if (strcmp(c, "forward_only") == 0) impls[0].derivative = NULL;
    if (strcmp(c, "twice") == 0) info.count = 2;
    if (strcmp(c, "clash") == 0) impls[0].name = "erfc_f64";
    if (strcmp(c, "nancontract") == 0) impls[0].contract.max_ulp = NAN;
    if (strcmp(c, "noforward") == 0) impls[0].forward = NULL;
    if (strcmp(c, "badtarget") == 0) impls[0].target = "erf";
    if (strcmp(c, "badfeature") == 0) impls[0].cpu_features = "avx2,avx1024";
    if (strcmp(c, "badformat") == 0) impls[0].format = "binary8";
    if (strcmp(c, "small") == 0) impls[0].size = 8;
    if (strcmp(c, "badfamily") == 0) impls[0].family = "vendor";
    /* the fields appended to ABI 1 */
    if (strcmp(c, "firstsize") == 0) { /* a plugin of the first layout: method not read */
        impls[0].size = GELUCHECK_IMPL_V1_FIRST_SIZE;
        impls[0].method = "not read!";
    }
    if (strcmp(c, "badmethod") == 0) impls[0].method = "1x";
    if (strcmp(c, "badisa") == 0) impls[0].isa = "avx1024";
    if (strcmp(c, "isafeatures") == 0) impls[0].isa = "avx2";
    if (strcmp(c, "dispatched") == 0) impls[0].dispatched_isa = test_path;
    if (strncmp(c, "f64", 3) == 0) { /* erfc_libm's binary64 row, contract included */
        info.count = 2;
        impls[1] = (gelucheck_impl_v1){
            .size = sizeof(gelucheck_impl_v1), .name = "plug_erfc_f64", .target = "exact",
            .format = "binary64", .cpu_features = "", .forward_binary64 = forward64,
            .derivative_binary64 = gelu_f64_erfc_derivative,
            .contract = {.max_ulp = 1270, .max_abs = 1.33e-15, .grad_max_ulp = GELUCHECK_NO_CLAIM,
                         .grad_max_abs = 2.7e-16},
            .origin = "erfc_libm's binary64 kernels through the plugin ABI (tests/test_plugin.c)"};
    }
    if (strcmp(c, "f64both") == 0) impls[1].forward = forward;
    if (strcmp(c, "f64none") == 0) impls[1].forward_binary64 = NULL;
    if (strcmp(c, "f64clash") == 0) impls[1].name = "erfc_libm";
    if (strcmp(c, "f64u16") == 0) impls[1].forward_u16 = forward16;
    if (strcmp(c, "b32u16") == 0) impls[0].derivative_u16 = derivative16;
    if (strcmp(c, "b64size") == 0) {
        impls[0].size = GELUCHECK_IMPL_V1_BINARY64_SIZE;
        impls[0].forward_u16 = forward16; /* past its size: not read */
    }
    if (strncmp(c, "bf16", 4) == 0) { /* erfc_f64 widened to bfloat16, as gelucheck measures it */
        info.count = 2;
        impls[1] = (gelucheck_impl_v1){
            .size = sizeof(gelucheck_impl_v1), .name = "plug_erfc_f64", .target = "exact",
            .format = "bfloat16", .cpu_features = "", .forward_u16 = forward16,
            .derivative_u16 = derivative16,
            /* `accuracy --format bfloat16 --impl erfc_f64 --grad`: max ULP 0.5 forward, 0.49992
             * derivative, monotone */
            .contract = {.max_ulp = 0.501, .max_abs = GELUCHECK_NO_CLAIM, .grad_max_ulp = 0.5,
                         .grad_max_abs = GELUCHECK_NO_CLAIM, .monotone = 1},
            .origin = "erfc_f64's kernels in bfloat16 through the plugin ABI (tests/test_plugin.c)"};
    }
    if (strcmp(c, "bf16none") == 0) impls[1].forward_u16 = NULL;
    if (strcmp(c, "bf16old") == 0) impls[1].size = GELUCHECK_IMPL_V1_BINARY64_SIZE;
    if (strcmp(c, "bf16both") == 0) impls[1].forward = forward;
    if (strcmp(c, "bf16f64") == 0) impls[1].forward_binary64 = forward64;
    if (strcmp(c, "bf16clash") == 0) impls[1].name = "cr_bfloat16";
    return &info;
}
