/* The scan's hottest loops in three builds, chosen once at load time (GCC's target_clones, an
 * ifunc): for x86-64-v4 (AVX-512) and v3 (AVX2), where the compiler vectorizes them, and any
 * x86-64. The same operations in each (IEEE binary64, no contraction into FMA: ISO C mode and
 * -ffp-contract=off, scan/meson.build; maxima as integer maxima, metrics.h's max_key): the same
 * bits (tests/clones.sh runs the three). Not under clang (its builds take the portable code). */
#ifndef GELUCHECK_CLONES_H
#define GELUCHECK_CLONES_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SCAN_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define SCAN_CLONES
#endif

#endif
