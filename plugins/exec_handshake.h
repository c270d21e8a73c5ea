/* An exec child's handshake (docs/protocol.md): what the child says it is — name, target, format,
 * derivative, timing, the floating-point environments it runs in, its contract, its origin —
 * and the parsers of its values (exec_handshake.c): booleans, bounds, a contract, environments,
 * ISA words; a child's text made printable. */
#ifndef GELUCHECK_EXEC_HANDSHAKE_H
#define GELUCHECK_EXEC_HANDSHAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "gelu_fpenv.h"
#include "gelu_impl.h"

/* EXEC_SHM_FD: the child's descriptor of the offered region (GELUCHECK_EXEC_SHM names it);
 * EXEC_SHM_BYTES: the region's size, a request's largest inputs and outputs (binary32) side by
 * side; its pages are allocated as they are first written. */
enum { EXEC_NAME_MAX = 48, EXEC_LINE_MAX = 4096, EXEC_MAX_COUNT = 1 << 24, EXEC_SHM_FD = 3 };
/* EXEC_CUT_MAX: the largest tensor size a request's op can carry (its bits 8 to 31) */
enum { EXEC_CUT_MAX = (1 << 24) - 1 };
#define EXEC_SHM_BYTES ((size_t)2 * EXEC_MAX_COUNT * sizeof(float))

typedef struct {
    int version; /* of the protocol: 1, or 2 (which adds `transport`) */
    bool shared_memory; /* `transport shm`: inputs and outputs through the offered region */
    char name[EXEC_NAME_MAX + 1];
    gelu_target target;
    char format[16];  /* "binary32", "bfloat16" or "binary16" */
    gelu_format_id format_id; /* the same, as an id: its storage is 4 or 2 bytes a value */
    /* The code path the child's library dispatched to (`dispatched_isa`, a word of a-z 0-9 _:
     * PyTorch's CPU capability, "avx512"), "" when it sent none. */
    char dispatched_isa[32];
    bool derivative;  /* answers derivative requests */
    bool timing;      /* replies carry the child's own kernel time */
    /* `cuts yes`: it answers requests asking for the inputs as tensors of a given size (a
     * framework's size paths served by one child: docs/protocol.md, "Cuts") */
    bool cuts;
    /* `fpenv`: the floating-point environments (gelu_fpenv.h) the child runs its kernels in when
     * asked (GELUCHECK_EXEC_FPENV), bit 1 << e each; IEEE's alone when it sends no such line.
     * fpenv_first: the first one it listed, where a child that does not list IEEE's runs when
     * asked for IEEE's (a fixed environment: TensorFlow's). fpenv: where this process runs. */
    unsigned fpenvs;
    gelu_fpenv fpenv_first, fpenv;
    bool fpenv_line; /* it sent one */
    gelu_contract contract;
    char origin[EXEC_LINE_MAX + 1]; /* untrusted text: escape it where it is written */
    char sha256[65]; /* SHA-256 (hex) of the handshake's lines as sent, each with its \n */
} exec_handshake;

/* Where a child of handshake h runs when asked for environment `asked`: true with *runs_in, or
 * false (it cannot) with the reason in why ("its handshake lists 'fpenv ieee'", "its
 * handshake has no 'fpenv' line (IEEE's only)"). */
bool exec_fpenv_runs_in(const exec_handshake *h, gelu_fpenv asked, gelu_fpenv *runs_in, char *why,
                        size_t size);

/* The parsers (for exec.c's handshake): 0, or −1 (a contract's or the environments' with the
 * reason in why). */
void exec_printable(const char *s, char *out, size_t size);
int exec_parse_bool(const char *v, bool *out);
int exec_parse_contract(char *words, gelu_contract *k, char *why, size_t size);
int exec_parse_fpenvs(char *words, exec_handshake *h, char *why, size_t size);
bool exec_isa_word_ok(const char *v);

#endif
