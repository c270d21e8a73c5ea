/* The benchmark's inputs and bookkeeping, never its timings (a shared, noisy machine): seeded
 * inputs are reproducible and in range, and a run fills one result per implementation, the
 * baseline first with ratio 1, whatever the thread count. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <xmmintrin.h> /* _mm_getcsr: MXCSR, where --fpenv acts (impls/fpenv.c) */
#endif

#include "bench.h"
#include "tsc.h"
#include "gelu_f64.h"
#include "gelucheck_config.h"

enum { N = 100000 };

Test(bench, inputs_reproducible_and_in_range)
{
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    bench_fill_inputs(BENCH_DIST_UNIFORM, 7, a, N);
    bench_fill_inputs(BENCH_DIST_UNIFORM, 7, b, N);
    cr_expect(memcmp(a, b, N * sizeof *a) == 0, "same seed, different inputs");
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < N; i++) {
        lo = fmin(lo, a[i]);
        hi = fmax(hi, a[i]);
    }
    cr_expect(lo >= -10.0 && hi <= 10.0 && lo < -9.9 && hi > 9.9, "uniform range [%g, %g]", lo, hi);
    bench_fill_inputs(BENCH_DIST_NORMAL, 7, a, N);
    double sum = 0, sq = 0;
    for (size_t i = 0; i < N; i++) {
        sum += a[i];
        sq += (double)a[i] * a[i];
    }
    cr_expect(fabs(sum / N) < 0.02 && fabs(sq / N - 1.0) < 0.02, "normal mean %g, variance %g",
              sum / N, sq / N);
    free(a);
    free(b);
}

Test(bench, dist_names_round_trip)
{
    for (int d = 0; d < BENCH_DIST_COUNT; d++)
        cr_expect_eq(bench_dist_from_name(bench_dist_name((bench_dist)d)), (bench_dist)d);
    cr_expect_eq(bench_dist_from_name("gamma"), BENCH_DIST_COUNT);
}

/* The baseline is found through the descriptors' method and ISA (no names built): on this CPU it
 * must be the ReLU build docs/implementations.md names for it, by the CPU's own features. */
Test(bench, baseline_is_the_widest_relu_this_cpu_runs)
{
    unsigned f = cpu_features();
    const char *want = (f & CPU_FEATURE_AVX512F) && GELUCHECK_HAVE_AVX512F ? "relu_avx512f"
                       : (f & CPU_FEATURE_AVX2) && GELUCHECK_HAVE_AVX2  ? "relu_avx2"
                                                                          : "relu";
    const gelu_impl *baseline = bench_default_baseline();
    cr_assert_not_null(baseline);
    cr_expect_str_eq(baseline->name, want);
}

Test(bench, one_result_per_implementation_any_threads)
{
    const gelu_impl *baseline = bench_default_baseline();
    cr_assert_not_null(baseline);
    const gelu_impl *impls[] = {gelu_impl_find("erfc_f64"), gelu_impl_find("relu")};
    for (unsigned threads = 1; threads <= 3; threads++) {
        bench_config cfg = {.n = 1001, .dist = BENCH_DIST_NORMAL, .seed = 1, .threads = threads,
                            .rounds = 3, .sample_seconds = 1e-4};
        bench_result r[3];
        cr_assert_eq(bench_run(&cfg, baseline, impls, 2, r), 0);
        cr_expect_eq(r[0].impl, baseline);
        cr_expect_eq(r[0].ratio_median, 1.0, "baseline ratio %g", r[0].ratio_median);
        for (int k = 0; k < 3; k++) {
            cr_expect_eq(r[k].impl, k ? impls[k - 1] : baseline);
            cr_expect(r[k].calls >= 1 && r[k].ns_median > 0 && r[k].ns_q1 <= r[k].ns_median &&
                          r[k].ns_median <= r[k].ns_q3,
                      "%s with %u threads: calls %zu, ns %g [%g, %g]", r[k].impl->name, threads,
                      r[k].calls, r[k].ns_median, r[k].ns_q1, r[k].ns_q3);
        }
    }
}

/* A 16-bit run: bytes per element follow the format; the kernels get the format's encodings of
 * the seeded inputs (a native kernel planted here checks them against bench_fill_inputs rounded
 * to bfloat16), the baseline and the binary32 implementations run widened. */
static size_t bf16_calls, bf16_bad_inputs;
static uint16_t bf16_want[1001];

static void bf16_recorder(const uint16_t *x, uint16_t *y, size_t n)
{
    bf16_calls++;
    for (size_t i = 0; i < n; i++) {
        bf16_bad_inputs += x[i] != bf16_want[i];
        y[i] = x[i];
    }
}

Test(bench, sixteen_bit_runs_on_the_formats_encodings)
{
    cr_expect_eq(bench_bytes_per_element(GELU_FORMAT_BINARY32), 8u);
    cr_expect_eq(bench_bytes_per_element(GELU_FORMAT_BFLOAT16), 4u);
    cr_expect_eq(bench_bytes_per_element(GELU_FORMAT_BINARY16), 4u);
    const gelu_format *bf = gelu_format_of(GELU_FORMAT_BFLOAT16);
    float x[1001];
    bench_fill_inputs(BENCH_DIST_NORMAL, 1, x, 1001);
    for (size_t i = 0; i < 1001; i++) bf16_want[i] = gelu_format_narrow(bf, x[i]);
    gelu_impl native = {.name = "recorder", .format = GELU_FORMAT_BFLOAT16,
                        .forward_u16 = bf16_recorder, .derivative_u16 = bf16_recorder};
    gelu_impl base = gelu_impl_widened(bench_default_baseline(), GELU_FORMAT_BFLOAT16);
    gelu_impl erfc = gelu_impl_widened(gelu_impl_find("erfc_f64"), GELU_FORMAT_BFLOAT16);
    const gelu_impl *impls[] = {&erfc, &native};
    bench_config cfg = {.n = 1001, .dist = BENCH_DIST_NORMAL, .seed = 1, .threads = 1,
                        .rounds = 3, .sample_seconds = 1e-4, .format = GELU_FORMAT_BFLOAT16};
    bench_result r[3];
    cr_assert_eq(bench_run(&cfg, &base, impls, 2, r), 0);
    cr_expect_gt(bf16_calls, 0u);
    cr_expect_eq(bf16_bad_inputs, 0u, "%zu inputs not the bfloat16 encodings of the samples",
                 bf16_bad_inputs);
    for (int k = 0; k < 3; k++) cr_expect(r[k].calls >= 1 && r[k].ns_median > 0, "%s", r[k].impl->name);
}

/* A binary64 run: 16 bytes per element; the named sizes keep their bytes (half binary32's
 * elements; the 16-bit formats keep binary32's counts); the baseline is binary64's own ReLU, the
 * widest this CPU runs, a row of the binary64 list; the kernels get the seeded inputs widened to
 * double, exactly (a kernel planted here checks them against bench_fill_inputs). */
static size_t f64_calls, f64_bad_inputs;
static double f64_want[1001];

static void f64_recorder(const double *x, double *y, size_t n)
{
    f64_calls++;
    for (size_t i = 0; i < n; i++) {
        f64_bad_inputs += x[i] != f64_want[i];
        y[i] = x[i];
    }
}

Test(bench, binary64_runs_on_doubles_against_its_own_relu)
{
    cr_expect_eq(bench_bytes_per_element(GELU_FORMAT_BINARY64), 16u);
    static const struct {
        const char *label;
        size_t b32, b16, b64;
    } sizes[] = {{"l1", 1024, 1024, 512},
                 {"l2", 131072, 131072, 65536},
                 {"dram", (size_t)64 << 20, (size_t)64 << 20, (size_t)32 << 20},
                 {"4096", 0, 0, 0}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        cr_expect_eq(bench_named_size_elements(sizes[i].label, GELU_FORMAT_BINARY32), sizes[i].b32, "%s", sizes[i].label);
        cr_expect_eq(bench_named_size_elements(sizes[i].label, GELU_FORMAT_BINARY16), sizes[i].b16, "%s", sizes[i].label);
        cr_expect_eq(bench_named_size_elements(sizes[i].label, GELU_FORMAT_BINARY64), sizes[i].b64, "%s", sizes[i].label);
    }
    const gelu_impl *base = bench_baseline_of(GELU_FORMAT_BINARY64);
    cr_assert_not_null(base);
    cr_expect_eq(base->format, GELU_FORMAT_BINARY64);
    cr_expect_eq(base->target, GELU_TARGET_RELU);
    cr_expect_not_null(base->forward_f64);
    cr_expect_eq(gelu_impl_find_in(base->name, GELU_FORMAT_BINARY64), base, "%s is not a row of the binary64 list", base->name);
    cr_expect_str_eq(base->name, bench_default_baseline()->name); /* the same ISA as binary32's */
    float x[1001];
    bench_fill_inputs(BENCH_DIST_NORMAL, 1, x, 1001);
    for (size_t i = 0; i < 1001; i++) f64_want[i] = x[i];
    gelu_impl recorder = {.name = "recorder", .format = GELU_FORMAT_BINARY64,
                          .forward_f64 = f64_recorder, .derivative_f64 = f64_recorder};
    const gelu_impl *impls[] = {gelu_impl_find_in("erfc_libm", GELU_FORMAT_BINARY64), &recorder};
    bench_config cfg = {.n = 1001, .dist = BENCH_DIST_NORMAL, .seed = 1, .threads = 1,
                        .rounds = 3, .sample_seconds = 1e-4, .format = GELU_FORMAT_BINARY64};
    bench_result r[3];
    cr_assert_eq(bench_run(&cfg, base, impls, 2, r), 0);
    cr_expect_gt(f64_calls, 0u);
    cr_expect_eq(f64_bad_inputs, 0u, "%zu inputs not the samples widened to double", f64_bad_inputs);
    cr_expect_eq(r[0].ratio_median, 1.0);
    for (int k = 0; k < 3; k++) {
        cr_expect_eq(r[k].impl, k ? impls[k - 1] : base);
        cr_expect(r[k].calls >= 1 && r[k].ns_median > 0, "%s", r[k].impl->name);
    }
}

#if defined(__x86_64__)
/* --fpenv reaches the kernels in every format's path: a kernel of each storage type (binary32,
 * bfloat16, binary64) records MXCSR's FTZ (bit 15) and DAZ (bit 6) bits as it runs under
 * GELU_FPENV_FTZ_DAZ, and finds them set; the caller's MXCSR is as before. */
static unsigned mxcsr_seen[3];

static unsigned ftz_daz_now(void) { return _mm_getcsr() & 0x8040u; }
static void csr32(const float *x, float *y, size_t n) { mxcsr_seen[0] |= ftz_daz_now(); memcpy(y, x, n * sizeof *x); }
static void csr16(const uint16_t *x, uint16_t *y, size_t n) { mxcsr_seen[1] |= ftz_daz_now(); memcpy(y, x, n * sizeof *x); }
static void csr64(const double *x, double *y, size_t n) { mxcsr_seen[2] |= ftz_daz_now(); memcpy(y, x, n * sizeof *x); }

Test(bench, fpenv_reaches_every_formats_kernels)
{
    unsigned before = _mm_getcsr();
    memset(mxcsr_seen, 0, sizeof mxcsr_seen);
    gelu_impl k32 = {.name = "csr32", .forward = csr32, .derivative = csr32};
    gelu_impl k16 = {.name = "csr16", .format = GELU_FORMAT_BFLOAT16, .forward_u16 = csr16,
                     .derivative_u16 = csr16};
    gelu_impl k64 = {.name = "csr64", .format = GELU_FORMAT_BINARY64, .forward_f64 = csr64,
                     .derivative_f64 = csr64};
    const gelu_impl *kernels[] = {&k32, &k16, &k64};
    const gelu_format_id formats[] = {GELU_FORMAT_BINARY32, GELU_FORMAT_BFLOAT16, GELU_FORMAT_BINARY64};
    for (int k = 0; k < 3; k++) {
        bench_config cfg = {.n = 64, .dist = BENCH_DIST_NORMAL, .seed = 1, .threads = 1, .rounds = 1,
                            .sample_seconds = 1e-5, .format = formats[k], .fpenv = GELU_FPENV_FTZ_DAZ};
        bench_result r[2];
        cr_assert_eq(bench_run(&cfg, kernels[k], kernels + k, 1, r), 0);
        cr_expect_eq(mxcsr_seen[k], 0x8040u, "%s: MXCSR's FTZ/DAZ bits in the kernel: %#x",
                     gelu_format_of(formats[k])->name, mxcsr_seen[k]);
    }
    cr_expect_eq(_mm_getcsr() & 0xffc0u, before & 0xffc0u, "MXCSR's controls not restored"); /* not its flags */
}
#endif

/* A windowed run (the dram size's): call k of the run, warm-up and calibration included, works
 * on window k mod 4 of the buffer (n/4 elements; split among the threads inside it), and
 * ns/element is per element of a call. The kernel records where it was called and keeps a clock
 * of its own (own_time_ns, as an exec child's) that advances 1000 ns per element: the result
 * must be 1000 ns/element (divided by the threads, whose time runs side by side), not the 250
 * of dividing by the whole buffer. */
#include <pthread.h>
enum { WIN_MAX = 256 };
static pthread_mutex_t win_lock = PTHREAD_MUTEX_INITIALIZER;
static const float *win_x[WIN_MAX];
static size_t win_n[WIN_MAX], win_calls;
static uint64_t win_clock;

static void win_kernel(const float *x, float *y, size_t n)
{
    pthread_mutex_lock(&win_lock);
    if (win_calls < WIN_MAX) win_x[win_calls] = x, win_n[win_calls] = n;
    win_calls++;
    win_clock += 1000 * (uint64_t)n;
    pthread_mutex_unlock(&win_lock);
    memcpy(y, x, n * sizeof *x);
}

static uint64_t win_time(void)
{
    pthread_mutex_lock(&win_lock);
    uint64_t t = win_clock;
    pthread_mutex_unlock(&win_lock);
    return t;
}

Test(bench, windowed_calls_go_round_the_buffer)
{
    gelu_impl k = {.name = "win", .forward = win_kernel, .derivative = win_kernel, .own_time_ns = win_time};
    const gelu_impl *impls[] = {&k};
    for (unsigned threads = 1; threads <= 2; threads++) {
        win_calls = 0;
        bench_config cfg = {.n = 4003, .windows = 4, .dist = BENCH_DIST_NORMAL, .seed = 1,
                            .threads = threads, .rounds = 5, .sample_seconds = 1e-4};
        cr_expect_eq(bench_call_elements(&cfg), 1000);
        bench_result r[2];
        cr_assert_eq(bench_run(&cfg, &k, impls, 1, r), 0);
        cr_assert(win_calls >= 12 * threads && win_calls <= WIN_MAX, "%zu calls", win_calls);
        const float *base = win_x[0];
        for (size_t i = 1; i < win_calls; i++) base = win_x[i] < base ? win_x[i] : base;
        bool windows_seen[4] = {false};
        for (size_t i = 0; i < win_calls; i++) {
            size_t off = (size_t)(win_x[i] - base), w = off / 1000;
            cr_assert(w < 4 && off % 1000 == (threads == 1 ? 0 : off % 1000 < 500 ? 0 : 500) &&
                          win_n[i] == 1000 / threads,
                      "%u threads, call %zu: offset %zu, %zu elements", threads, i, off, win_n[i]);
            windows_seen[w] = true;
            if (threads == 1) /* one call per sample: the run's calls in order */
                cr_assert_eq(w, i % 4, "call %zu on window %zu", i, w);
        }
        for (int w = 0; w < 4; w++) cr_expect(windows_seen[w], "%u threads: window %d never used", threads, w);
        for (int j = 0; j < 2; j++)
            cr_expect(fabs(r[j].ns_median - 1000.0 / threads) < 1e-6, /* the threads' time shared */
                      "%u threads: %g ns/element, not %g", threads, r[j].ns_median, 1000.0 / threads);
    }
    cr_expect_eq(bench_named_size_windows("dram"), 4);
    cr_expect_eq(bench_named_size_windows("l2"), 1);
    cr_expect_eq(bench_named_size_windows("4096"), 1);
}

/* Reference cycles: the frequency the benchmark uses agrees with the TSC's rate over a
 * CLOCK_MONOTONIC interval, a planted wrong one (5% off) does not, and the conversion of a
 * spin's nanoseconds gives back its TSC ticks (at a planted wrong frequency, it does not). */
static double spin_ns(uint64_t ticks, uint64_t *spun)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    uint64_t c0 = tsc_now(), c1;
    do c1 = tsc_now();
    while (c1 - c0 < ticks);
    clock_gettime(CLOCK_MONOTONIC, &b);
    *spun = c1 - c0;
    return (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
}

Test(bench, reference_cycles_from_the_tsc_frequency)
{
    tsc_frequency f = tsc_frequency_get();
#if defined(__x86_64__) || defined(__i386__)
    cr_assert(f.source != TSC_NONE && f.hz > 1e8, "x86 without a TSC frequency (%g Hz)", f.hz);
    cr_expect(tsc_check_hz(f.hz, 0.02, 0.02), "%s frequency %g Hz disagrees with a measurement",
              tsc_source_name(f.source), f.hz);
    if (tsc_hz_cpuid() > 0 && f.source == TSC_CPUID_15H)
        cr_expect(f.hz == tsc_hz_cpuid(), "leaf 0x15 gives %g Hz, the benchmark uses %g", tsc_hz_cpuid(), f.hz);
    cr_expect(!tsc_check_hz(f.hz * 1.05, 0.02, 0.02), "a frequency 5%% too high passed the check");
    cr_expect(!tsc_check_hz(f.hz * 0.95, 0.02, 0.02), "a frequency 5%% too low passed the check");
    /* 20 ms of ticks as 1000 "elements": the cycles per element times 1000 are the ticks */
    uint64_t spun;
    double ns = spin_ns((uint64_t)(f.hz * 0.02), &spun);
    double cycles = 1000 * tsc_cycles_per_element(ns / 1000, f.hz);
    cr_expect(fabs(cycles / (double)spun - 1) < 0.02, "%.0f reference cycles from %.0f ns at %g Hz, "
              "the TSC counted %" PRIu64, cycles, ns, f.hz, spun);
    double planted = 1000 * tsc_cycles_per_element(ns / 1000, f.hz * 1.1);
    cr_expect(fabs(planted / (double)spun - 1) > 0.05, "a frequency 10%% off gave %.0f cycles for %" PRIu64
              " ticks: not caught", planted, spun);
#else
    cr_expect(f.source == TSC_NONE && isnan(tsc_cycles_per_element(1.0, f.hz)),
              "no TSC, yet a frequency of %g Hz", f.hz);
#endif
}

/* A kernel slower in the rounds than when calibrated (planted: fast until the rounds start, i.e.
 * until the baseline runs again after its calibration, then 20 µs a call) gets its calls cut
 * after the first long sample, so that the run does not last rounds × that sample: calibrated
 * on the fast kernel (a copy of 4096 floats) its samples hold hundreds of calls, at the slow
 * speed about
 * 1.2 × sample_seconds / 20 µs = 12. */
static size_t base_calls, base_calls_when_calibrated;
static bool calibrating_started;

static void counting_baseline(const float *x, float *y, size_t n)
{
    base_calls++;
    memcpy(y, x, n * sizeof *y);
}

static void slower_in_the_rounds(const float *x, float *y, size_t n)
{
    if (!calibrating_started) calibrating_started = true, base_calls_when_calibrated = base_calls;
    if (base_calls > base_calls_when_calibrated) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        do clock_gettime(CLOCK_MONOTONIC, &b);
        while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 20e3);
    }
    memcpy(y, x, n * sizeof *y);
}

Test(bench, a_kernel_slower_in_the_rounds_gets_fewer_calls)
{
    gelu_impl base = {.name = "counting_relu", .target = GELU_TARGET_RELU,
                      .forward = counting_baseline, .derivative = counting_baseline};
    gelu_impl slow = {.name = "slower_in_the_rounds", .target = GELU_TARGET_EXACT,
                      .forward = slower_in_the_rounds, .derivative = slower_in_the_rounds};
    const gelu_impl *impls[] = {&slow};
    bench_config cfg = {.n = 4096, .dist = BENCH_DIST_NORMAL, .seed = 1, .threads = 1,
                        .rounds = 5, .sample_seconds = 2e-4};
    bench_result r[2];
    cr_assert_eq(bench_run(&cfg, &base, impls, 1, r), 0);
    cr_expect(calibrating_started && base_calls > base_calls_when_calibrated, "the plant is live");
    cr_expect_leq(r[1].calls, 100u, "calls per sample after the slow round: %zu", r[1].calls);
    cr_expect_geq(r[1].ns_median, 20e3 / 4096, "the slow speed measured: %g ns/element",
                  r[1].ns_median);
}
