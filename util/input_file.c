/* Input files opened as regular files only (input_file.h). */
#define _GNU_SOURCE
#include "input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *input_open(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return NULL;
    struct stat st;
    int e = 0;
    if (fstat(fd, &st) != 0) e = errno;
    else if (S_ISDIR(st.st_mode)) e = EISDIR;
    else if (!S_ISREG(st.st_mode)) e = EINVAL;
    else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) e = errno;
    FILE *f = e ? NULL : fdopen(fd, "rb");
    if (!f) {
        if (!e) e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

const char *input_strerror(int e)
{
    return e == EINVAL ? "not a regular file (a FIFO, a device or a socket)" : strerror(e);
}
