/* Files that appear whole or not at all: written to a temporary file beside the target, then
 * renamed over it. An interrupted run leaves the previous file intact. */
#ifndef GELUCHECK_ATOMIC_FILE_H
#define GELUCHECK_ATOMIC_FILE_H

#include <stdio.h>

typedef struct {
    FILE *f;
    char *path, *tmp;
} atomic_file;

/* 0, or −1 with errno set (the directory does not exist, is not writable, …). */
int atomic_file_open(atomic_file *a, const char *path);
/* Flushes, closes and renames into place; 0, or −1 (the temporary file is removed). */
int atomic_file_commit(atomic_file *a);
/* Closes and removes the temporary file. */
void atomic_file_abort(atomic_file *a);

#endif
