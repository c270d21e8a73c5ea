/* The floating-point state a kernel call must leave as it found it: x86-64's MXCSR (rounding,
 * flush-to-zero, denormals-are-zero, exception masks) and the x87 control word. Read, restored,
 * and a change told in words, for every judged call: in this process (scan/kernel_call.c) and in
 * a plugin's own process (plugins/plugin_host.c). Elsewhere than x86-64 the state is empty. */
#ifndef GELUCHECK_FP_STATE_H
#define GELUCHECK_FP_STATE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    unsigned mxcsr;
    unsigned short x87;
} fp_state;

fp_state fp_state_read(void);
void fp_state_restore(fp_state s);
/* Whether now differs from was in anything but MXCSR's exception flags (bits 0-5: sticky status
 * a kernel may set, not state it changes). */
bool fp_state_changed(fp_state was, fp_state now);
/* The change in words: "MXCSR 0x9fc0 (the call began with 0x1f80: flush-to-zero set,
 * denormals-are-zero set)", "the x87 control word 0x0b7f (it began 0x037f: x87 rounding
 * upward)". */
void fp_state_difference(fp_state was, fp_state now, char *buf, size_t size);

#endif
