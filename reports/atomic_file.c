/* Atomic file replacement (see atomic_file.h). */
#include "atomic_file.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int atomic_file_open(atomic_file *a, const char *path)
{
    a->f = NULL;
    a->path = strdup(path);
    a->tmp = malloc(strlen(path) + 16);
    if (!a->path || !a->tmp) goto fail;
    strcpy(a->tmp, path);
    strcat(a->tmp, ".tmp.XXXXXX");
    int fd = mkstemp(a->tmp);
    if (fd < 0) goto fail;
    a->f = fdopen(fd, "w");
    if (!a->f) {
        close(fd);
        unlink(a->tmp);
        goto fail;
    }
    return 0;
fail:
    free(a->path);
    free(a->tmp);
    a->path = a->tmp = NULL;
    return -1;
}

int atomic_file_commit(atomic_file *a)
{
    int rc = 0;
    if (fflush(a->f) != 0 || ferror(a->f) || fsync(fileno(a->f)) != 0) rc = -1;
    if (fclose(a->f) != 0) rc = -1;
    if (rc == 0 && rename(a->tmp, a->path) != 0) rc = -1;
    if (rc != 0) unlink(a->tmp);
    free(a->path);
    free(a->tmp);
    return rc;
}

void atomic_file_abort(atomic_file *a)
{
    fclose(a->f);
    unlink(a->tmp);
    free(a->path);
    free(a->tmp);
}
