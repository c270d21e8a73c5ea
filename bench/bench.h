/* The benchmark harness: the cost of each implementation's forward kernel against a ReLU
 * baseline, measured side by side in one run on the same input buffer.
 *
 * One measurement at a size n: the inputs are drawn once from a seeded distribution (GSL's
 * MT19937); every implementation is warmed up and calibrated (enough calls per timed sample to
 * last `sample_seconds`); then `rounds` rounds run, each timing the baseline and then every
 * implementation in order, so slow drifts of a shared machine hit all of them alike. Reported
 * per implementation: the median and quartiles of ns/element over the rounds and the median over
 * rounds of its time divided by the baseline's time in the same round.
 *
 * With threads > 1 the buffer is split into that many contiguous slices, one per thread, and a
 * sample runs from a common start (barrier) until the last thread is done. Library code: no
 * printing, no exiting; errors are returned. */
#ifndef GELUCHECK_BENCH_H
#define GELUCHECK_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "gelu_fpenv.h"
#include "gelu_impl.h"

typedef enum {
    BENCH_DIST_NORMAL,  /* normal(0, 1) */
    BENCH_DIST_UNIFORM, /* uniform on [−10, 10] */
    BENCH_DIST_COUNT
} bench_dist;

/* "normal" / "uniform"; bench_dist_from_name gives BENCH_DIST_COUNT for an unknown name. */
const char *bench_dist_name(bench_dist d);
bench_dist bench_dist_from_name(const char *name);
/* "normal(0,1)" / "uniform[-10,10]". */
const char *bench_dist_describe(bench_dist d);

/* Buffer sizes from which a call is long (DRAM): fewer rounds (the CLI's), and one call per
 * sample once the warm-up call has lasted twice the sample length (bench.c's calibration). */
#define BENCH_BIG_N ((size_t)16 << 20)

/* A widened implementation in a 16-bit run converts in tiles of this many elements per thread
 * (32 KiB of binary32 in, 32 out: in L2 on the CPUs we run on), a call on more tile by tile, as
 * a framework's widened kernel converts in registers or small blocks, so that its conversions do not
 * stream two binary32 copies of a DRAM-sized array through memory. */
#define BENCH_WIDEN_TILE ((size_t)8192)
/* A timed sample longer than this many times sample_seconds (its kernel slower in the rounds
 * than when calibrated) makes the following samples of that kernel shorter: calls cut to last
 * about sample_seconds at the speed measured. */
#define BENCH_LONG_SAMPLE 8.0

/* Rounds whose ×baseline ratios a result keeps, in round order (bench.csv's ratio_rounds). */
enum { BENCH_KEPT_ROUNDS = 32 };

typedef struct {
    size_t n;              /* elements of the buffers; per call, all threads together, unless
                            * `windows` says otherwise */
    /* 0 or 1: every call works on the whole buffer. k > 1: each call works on one of k equal
     * windows of it (n / k elements; the rest of n unused), the run's calls going round them in
     * turn, warm-up and calibration calls included: a window's data was last touched k - 1 calls
     * earlier, whose traffic (in and out, (k - 1)·n/k elements' worth each) has pushed it out of
     * the caches when that exceeds them. ns/element is per element of a call. */
    size_t windows;
    bench_dist dist;
    uint64_t seed;
    unsigned threads;      /* ≥ 1 */
    unsigned rounds;       /* interleaved rounds, ≥ 1 */
    double sample_seconds; /* a timed sample repeats the call until it lasts at least this */
    /* binary32 (0, the default), or a 16-bit format: the buffers are arrays of its encodings
     * (the inputs drawn in binary32 and rounded to it) and every implementation, the baseline
     * included, is a descriptor of that format, native or widened (gelu_impl_run_u16); or
     * binary64: arrays of doubles (the binary32 draws widened, exactly) and every
     * implementation, the baseline included, a row of the binary64 list (forward_f64). */
    gelu_format_id format;
    /* The floating-point environment the kernels run in (gelu_fpenv.h; 0: IEEE): set by each
     * thread around its share of a sample's calls, baseline included, and restored after. */
    gelu_fpenv fpenv;
} bench_config;

typedef struct {
    const gelu_impl *impl;
    size_t calls;                    /* kernel calls per timed sample (the last round's) */
    double ns_median, ns_q1, ns_q3;  /* ns per element, over the rounds */
    double ratio_median;             /* median over rounds of time / baseline time */
    /* time / baseline time in each round, in round order (the first BENCH_KEPT_ROUNDS): what
     * compare judges a speed change by (reports/compare.h) */
    unsigned nratios;
    double ratios[BENCH_KEPT_ROUNDS];
    bool timed_inside;               /* timed by the kernel's own clock (gelu_impl.own_time_ns:
                                      * an exec child's time of its kernel, pipe excluded) */
} bench_result;

/* Bytes one element moves in binary32: 4 read and 4 written. */
enum { BENCH_BYTES_PER_ELEMENT = 8 };
/* Bytes one element moves in format f: its storage read and written (8 binary32, 4 16-bit,
 * 16 binary64). */
unsigned bench_bytes_per_element(gelu_format_id f);

/* The named sizes, one list: l1 (1024 binary32 elements, 4 KiB of input: sits in L1), l2
 * (131072, 512 KiB: sits in L2), dram (64 Mi, 256 MiB: streams from DRAM; taken a quarter per
 * call, bench_named_size_windows), in this order.
 * bench_named_size gives label i (NULL past the last); bench_named_size_elements the elements
 * of `label` in format f, 0 when it is not a named size: binary32's count for binary32 and the
 * narrower 16-bit formats (their arrays only get smaller, and stay where the name says), for a
 * wider format as many as fill the same bytes (binary64: half, so that l2's 512 KiB of input
 * stay 512 KiB and sit in L2). */
const char *bench_named_size(size_t i);
size_t bench_named_size_elements(const char *label, gelu_format_id f);
/* The windows (bench_config.windows) of named size `label`: 4 for dram, whose calls then last
 * a quarter of what a whole 256 MiB buffer's would (a default run's time was mostly dram calls),
 * each on data out of cache: 3 calls' traffic since it was last touched, at least 192 MiB in
 * any format (binary32: 3 × 128 MiB), more than the last-level caches of the machines this runs
 * on. 1 for the others and for a label that is not a named size. */
size_t bench_named_size_windows(const char *label);
/* Elements per call of a run configured by cfg. */
size_t bench_call_elements(const bench_config *cfg);

/* Measures `baseline` and then impls[0..count) as described above; results[0] is the baseline,
 * results[1 + i] is impls[i]. Every implementation must be available on this CPU. Returns 0, or
 * -1 when memory or threads could not be had. */
int bench_run(const bench_config *cfg, const gelu_impl *baseline, const gelu_impl *const *impls,
              size_t count, bench_result *results);

/* n inputs from distribution d with GSL's MT19937 seeded with `seed`. */
void bench_fill_inputs(bench_dist d, uint64_t seed, float *x, size_t n);

/* The widest ReLU this CPU runs (relu_avx512f, relu_avx2, relu): the baseline, so that ReLU is
 * as vectorized as the widest GELU it is compared with; binary32's (the registry's, widened by a
 * 16-bit run). bench_baseline_of: the same for format f, from f's own list when it has one
 * (binary64's: impls/gelu_f64.h), else binary32's; NULL when none. */
const gelu_impl *bench_default_baseline(void);
const gelu_impl *bench_baseline_of(gelu_format_id f);

/* The CPU's model name from /proc/cpuinfo into buf ("unknown" when not found). */
const char *bench_cpu_model(char *buf, size_t size);

#endif
