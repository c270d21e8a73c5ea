/* Static speed estimates: cycles per element of our vf builds' forward kernels on a CPU model,
 * by llvm-mca (tools/mca_estimate.py writes them to data/mca_estimates.csv, docs/platforms.md
 * says how and how well they track measured speed on x86). What pick ranks by on a platform
 * whose code nothing here can time (pick.h: armv8-a, armv8.2-a+sve, armv9-a+sve2).
 *
 * The file: lines starting with '#' are comments; then a header naming the columns (at least
 * impl, cpu, model, rthroughput_cycles_per_element; others are ignored); then one row per
 * implementation × cpu, each line ended by a newline (a last line without one is a truncated
 * file). Library code: errors are returned as text, nothing is printed. */
#ifndef GELUCHECK_MCA_ESTIMATES_H
#define GELUCHECK_MCA_ESTIMATES_H

#include <stddef.h>

enum { MCA_ESTIMATES_MAX = 512, MCA_NAME = 64 };

typedef struct {
    char impl[MCA_NAME], cpu[32], model[32]; /* "cr_neon", llvm-mca's -mcpu, the model it used */
    double cycles;                           /* per element: block reciprocal throughput / lanes */
} mca_estimate;

typedef struct {
    size_t n;
    mca_estimate rows[MCA_ESTIMATES_MAX];
    char path[512]; /* the file read, for messages */
} mca_estimates;

/* Reads path into e. 0; −1 when the file cannot be read, −2 when its content is bad (err names
 * the file, the line and what is wrong: a missing column, a field count, a number that is not a
 * positive finite one, a truncated last line, no row at all, a cpu given two models). */
int mca_estimates_load(const char *path, mca_estimates *e, char *err, size_t errsize);
/* The estimate of impl on cpu, NULL when there is none. */
const mca_estimate *mca_estimates_find(const mca_estimates *e, const char *impl, const char *cpu);
/* The model llvm-mca used for cpu (the file's), NULL when the file has no row of cpu. */
const char *mca_estimates_model(const mca_estimates *e, const char *cpu);
/* The file pick reads by default: the source tree's data/mca_estimates.csv when it exists, else
 * where meson install puts it. */
const char *mca_estimates_default_path(void);

#endif
