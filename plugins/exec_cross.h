/* Cross builds as implementations (`--cross DIR`, docs/aarch64.md): the exec child of a cross
 * build directory (DIR/cross/exec_vf, made by `meson setup --cross-file cross/<machine>.ini DIR`)
 * lists the rows it serves — our vf methods' builds for that machine (cr_neon, pw_tanh_sve256,
 * ...) and the libraries' builds there (sleef_erf_u10_advsimd, dnnl_erf_aarch64) —, and each
 * row an --impl names starts as an exec row under the machine's emulator, with the CPU its ISA
 * needs (one list of machines and ISAs, exec_cross.c: SVE-256's row runs with 256-bit vectors).
 * The machine is read from the child's ELF header, never guessed from the directory's name. */
#ifndef GELUCHECK_EXEC_CROSS_H
#define GELUCHECK_EXEC_CROSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "gelu_impl.h"

enum { EXEC_CROSS_DIRS_MAX = 4, EXEC_CROSS_ROWS_MAX = 256 };

/* Reads DIR's child: its machine (ELF), its rows (`exec_vf --list` under the emulator, given
 * timeout_s seconds). 0, or −1 with err (no child there, not a machine of the list, the emulator
 * missing, no listing in time, a bad listing). */
int exec_cross_open(const char *dir, double timeout_s, char *err, size_t errsize);
/* Whether an opened cross build lists row `name` (a row sharing a built-in row's name, such as
 * the plain erfc_libm on the machine's libm, is named NAME_MACHINE here: erfc_libm_aarch64). */
bool exec_cross_lists(const char *name);
/* Starts row `name` of the cross build listing it as an exec row (exec_impl.h), family as the
 * child lists it. 0; −1 with err (not listed, the child failed to start); −2 with err when it
 * failed answering the batching probe's requests. */
int exec_cross_add(const char *name, double timeout_s, char *err, size_t errsize);
/* The opened builds' rows for `gelucheck list`: a section per build (its directory, machine and
 * emulator), a line per row (name, ISA, family, and whether it is started). */
void exec_cross_print(FILE *f);

#endif
