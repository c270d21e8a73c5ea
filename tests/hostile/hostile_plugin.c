/* A hostile plugin for tests/hostile/run.sh: one row, `hx`, erfc_f64's kernels
 * (impls/erfc_f64_kernels.h) behind the public ABI, claiming erfc_f64's contract; the
 * environment variable GELUCHECK_HOSTILE plants one misbehaviour at a time, each at the call
 * holding x = 3.0 (0x40400000) unless said otherwise:
 *
 *   (unset)        correct: the row holds its contract
 *   scribble       returns GELU(1.0001·x) and stores 1.0001·x into its const input (S2)
 *   scribble_after correct outputs, then garbage written into its input (S2, the converse)
 *   round          leaves the rounding mode upward after every call (M2)
 *   ftz            leaves MXCSR's FTZ and DAZ set after every call (M2)
 *   ftz_grad       the same after derivative calls only
 *   abort          abort() (S4)
 *   segv           a write through a null pointer
 *   sigkill        SIGKILL to its own process
 *   overrun        writes 4 floats past y[n] (S3)
 *   hang           never returns (S5)
 *   exit           _exit(0) (M3)
 *   rows20         describes 20 rows hx, hx_1 .. hx_19 (M10: the plugin's own limit is 64)
 *   torch_name     its row is named torch_gelu, a framework row's name (C10)
 *   load_abort     abort() while being loaded (a constructor)
 *   load_mark      appends the loading process's name (/proc/self/comm) to the file
 *                  GELUCHECK_HOSTILE_MARK names: which processes ran the plugin's code
 *   describe_segv  a write through a null pointer in gelucheck_plugin_v1
 *   describe_hang  gelucheck_plugin_v1 never returns
 *   describe_exit  _exit(0) in gelucheck_plugin_v1
 *
 * Built twice (tests/meson.build): HOSTILE_WRONG_AT_3 makes the build whose forward output at
 * x = 3 is one ULP high, a kernel that breaks its 0.502 ULP claim there and nowhere else (S1:
 * a checkpoint of the good build must not resume with it). */
#include <fenv.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xmmintrin.h>

#include "gelucheck/plugin.h"

#define ERFC_F64(z) erfc(z)
#include "erfc_f64_kernels.h"

static const char *planted(void)
{
    const char *c = getenv("GELUCHECK_HOSTILE");
    return c ? c : "";
}

static int is(const char *c) { return strcmp(planted(), c) == 0; }

static int holds_3(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] == 3.0f) return 1;
    return 0;
}

static void misbehave_before(const float *x, float *y, size_t n)
{
    if (!holds_3(x, n)) return;
    if (is("abort")) abort();
    if (is("segv")) *(volatile float *)(uintptr_t)0 = 1.0f;
    if (is("sigkill")) kill(getpid(), SIGKILL);
    if (is("exit")) _exit(0);
    if (is("hang"))
        for (;;) pause();
    if (is("overrun"))
        for (size_t k = 0; k < 4; k++) y[n + k] = 1.0f;
}

static void misbehave_after(float *x, size_t n, int grad)
{
    if (is("round")) fesetround(FE_UPWARD);
    if (is("ftz") || (grad && is("ftz_grad"))) _mm_setcsr(_mm_getcsr() | 0x8040); /* FTZ (bit 15), DAZ (bit 6) */
    if (is("scribble_after"))
        for (size_t i = 0; i < n; i++) x[i] = 0x1p100f;
}

static void forward(const float *x, float *y, size_t n)
{
    misbehave_before(x, y, n);
    float *w = (float *)x; /* the hostile cast: the ABI's input is const */
    if (is("scribble"))
        for (size_t i = 0; i < n; i++) w[i] = x[i] * 1.0001f;
    erfc_f64_forward(x, y, n);
#ifdef HOSTILE_WRONG_AT_3
    for (size_t i = 0; i < n; i++)
        if (x[i] == 3.0f) y[i] = nextafterf(y[i], INFINITY);
#endif
    misbehave_after(w, n, 0);
}

static void derivative(const float *x, float *y, size_t n)
{
    erfc_f64_derivative(x, y, n);
    misbehave_after((float *)x, n, 1);
}

__attribute__((constructor)) static void on_load(void)
{
    if (is("load_abort")) abort();
    const char *mark = getenv("GELUCHECK_HOSTILE_MARK");
    if (is("load_mark") && mark) {
        char comm[64] = "?";
        FILE *c = fopen("/proc/self/comm", "r");
        if (c) {
            if (!fgets(comm, sizeof comm, c)) snprintf(comm, sizeof comm, "?\n");
            fclose(c);
        }
        FILE *f = fopen(mark, "a");
        if (f) {
            fputs(comm, f);
            fclose(f);
        }
    }
}

static gelucheck_impl_v1 impls[20];
static char names[20][16];
static gelucheck_plugin_info_v1 info;

GELUCHECK_PLUGIN_EXPORT const gelucheck_plugin_info_v1 *gelucheck_plugin_v1(void)
{
    if (is("describe_segv")) *(volatile int *)(uintptr_t)0 = 1;
    if (is("describe_hang"))
        for (;;) pause();
    if (is("describe_exit")) _exit(0);
    size_t count = is("rows20") ? 20 : 1;
    for (size_t i = 0; i < count; i++) {
        if (i == 0) snprintf(names[i], sizeof names[i], is("torch_name") ? "torch_gelu" : "hx");
        else snprintf(names[i], sizeof names[i], "hx_%zu", i);
        impls[i] = (gelucheck_impl_v1){
            .size = sizeof(gelucheck_impl_v1),
            .name = names[i],
            .target = "exact",
            .format = "binary32",
            .cpu_features = "",
            .forward = forward,
            .derivative = derivative,
            .contract = {.max_ulp = 0.502, .max_abs = 2.39e-07, .grad_max_ulp = 0.578,
                         .grad_max_abs = 5.98e-08, .monotone = 1},
            .origin = "tests/hostile/hostile_plugin.c",
        };
    }
    info = (gelucheck_plugin_info_v1){GELUCHECK_PLUGIN_ABI, (uint32_t)count, impls};
    return &info;
}
