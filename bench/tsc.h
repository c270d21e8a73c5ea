/* The time-stamp counter's frequency, so that the benchmark can give reference cycles per
 * element beside nanoseconds: ns × (TSC ticks per ns). Reference cycles tick at the TSC's
 * constant rate, not the core clock's (which turbo and power states move), so they read alike
 * across runs of one CPU model and scale a time to the CPU's nominal clock: a ratio of two
 * CPU models' figures in reference cycles is what each would take at its nominal frequency.
 *
 * The frequency comes from CPUID leaf 0x15 (crystal Hz × EBX/EAX) where the CPU reports the
 * crystal, else from calibration: the TSC read around a CLOCK_MONOTONIC interval. Either way it
 * is checked against such a measurement (tsc_check_hz) before use. Library code: no printing. */
#ifndef GELUCHECK_TSC_H
#define GELUCHECK_TSC_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    TSC_NONE,       /* no TSC on this CPU (not x86), or none that held still: no cycles */
    TSC_CPUID_15H,  /* CPUID leaf 0x15, confirmed by a measurement */
    TSC_CALIBRATED, /* measured against CLOCK_MONOTONIC (leaf 0x15 absent, or disagreeing) */
} tsc_source;

typedef struct {
    double hz; /* ticks per second; 0 with TSC_NONE */
    tsc_source source;
} tsc_frequency;

/* "CPUID leaf 0x15", "calibrated against CLOCK_MONOTONIC", "none". */
const char *tsc_source_name(tsc_source s);

/* The TSC now (0 where there is none). */
uint64_t tsc_now(void);

/* Leaf 0x15's frequency, or 0 when the CPU does not report its crystal. */
double tsc_hz_cpuid(void);

/* Ticks per second over `seconds` of CLOCK_MONOTONIC (spinning); 0 without a TSC. */
double tsc_hz_measure(double seconds);

/* Whether `hz` agrees within `tolerance` (relative) with the TSC's rate measured over
 * `seconds`: the check a frequency passes before its cycles are printed. */
bool tsc_check_hz(double hz, double seconds, double tolerance);

/* The frequency the benchmark uses: leaf 0x15's when it passes tsc_check_hz (1%, over 20 ms),
 * else a measurement of 50 ms; TSC_NONE without a TSC. */
tsc_frequency tsc_frequency_get(void);

/* Reference cycles per element from nanoseconds per element at `hz`; NaN when hz is 0. */
double tsc_cycles_per_element(double ns_per_element, double hz);

#endif
