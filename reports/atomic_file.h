/* Output files that appear whole or not at all, without harming what the path names.
 *
 * - A regular file (or a path that does not exist yet) is written to a hidden temporary file
 *   beside it (.NAME.tmp.XXXXXX) and renamed over it when complete: an interrupted or failing
 *   run leaves the previous file intact. The new file gets the old file's permissions, or
 *   0666 less the umask when it is new.
 * - A symbolic link is followed (to any depth): the file it leads to is replaced as above and
 *   the link survives.
 * - A character device or a FIFO (directly or through links) is written in place, never
 *   replaced; a directory, a socket or a block device is refused.
 * - "-" is standard output.
 * Library code: errors are returned as text ("cannot write 'PATH': why"), nothing printed. */
#ifndef GELUCHECK_ATOMIC_FILE_H
#define GELUCHECK_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

typedef enum { ATOMIC_REPLACE, ATOMIC_IN_PLACE, ATOMIC_STDOUT } atomic_kind;

typedef struct {
    FILE *f;
    atomic_kind kind;
    char *path; /* the file written: the link's final target */
    char *tmp;  /* ATOMIC_REPLACE: the temporary file */
    int slot;   /* in the list of temporaries removed on a signal; −1 when none */
} atomic_file;

/* Checks, before the work that produces the data, that path can be written: creates and
 * removes the temporary file beside it (or checks that a device or FIFO is writable, without
 * opening it). 0, or −1 with the reason in err. */
int atomic_file_probe(const char *path, char *err, size_t errsize);
/* 0, or −1 with the reason in err (nothing left behind). */
int atomic_file_open(atomic_file *a, const char *path, char *err, size_t errsize);
/* Flushes, closes and renames into place (or only flushes standard output). 0, or −1 with the
 * reason in err; the temporary file is removed either way. */
int atomic_file_commit(atomic_file *a, char *err, size_t errsize);
/* Closes and removes the temporary file (standard output is left open). */
void atomic_file_abort(atomic_file *a);

/* Removes every temporary file still open (async-signal-safe: for a signal handler). */
void atomic_file_remove_temporaries(void);

#endif
