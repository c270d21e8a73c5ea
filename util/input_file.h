/* Input files opened as regular files only: a FIFO, a device or a socket given where a file is
 * read (a report directory's CSV, a manifest, a checkpoint chunk, a plugin) could be read
 * forever or block the open itself; a directory is not a file. */
#ifndef GELUCHECK_INPUT_FILE_H
#define GELUCHECK_INPUT_FILE_H

#include <stdio.h>

/* The regular file at path, open for reading (binary); NULL with errno: EISDIR for a
 * directory, EINVAL for anything else that is not a regular file (not opened for reading:
 * the open does not wait for a FIFO's writer), or the open's. */
FILE *input_open(const char *path);
/* strerror(e), but EINVAL (from input_open) as "not a regular file (a FIFO, a device or a
 * socket)". */
const char *input_strerror(int e);

#endif
