/* Atomic output files that never replace a device, a FIFO or a symbolic link (see
 * atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the temporaries a signal handler removes */

enum { MAX_TEMPORARIES = 32 };
static char *volatile temporaries[MAX_TEMPORARIES];

static int remember(char *tmp)
{
    for (int i = 0; i < MAX_TEMPORARIES; i++)
        if (!temporaries[i]) {
            temporaries[i] = tmp;
            return i;
        }
    return -1; /* more than 32 at once: removed on failure, not on a signal */
}

static void forget(int slot)
{
    if (slot >= 0) temporaries[slot] = NULL;
}

void atomic_file_remove_temporaries(void)
{
    for (int i = 0; i < MAX_TEMPORARIES; i++) {
        char *p = temporaries[i];
        if (p) unlink(p);
    }
}

/* ---- paths */

static int fail(char *err, size_t errsize, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errsize, const char *path, const char *fmt, ...)
{
    int saved = errno;
    int n = snprintf(err, errsize, "cannot write '%.*s%s': ", 200, path, strlen(path) > 200 ? "..." : "");
    if (n > 0 && (size_t)n < errsize) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errsize - (size_t)n, fmt, ap);
        va_end(ap);
    }
    errno = saved ? saved : EIO;
    return -1;
}

/* dir of path ("." when none) and base into malloc'd strings. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    size_t n = (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/* The path a chain of symbolic links leads to (malloc'd); the last element may not exist. */
static char *resolve(const char *path, char *err, size_t errsize)
{
    char *p = strdup(path);
    for (int hops = 0; p; hops++) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode)) return p;
        if (hops == 40) {
            errno = ELOOP;
            fail(err, errsize, path, "more than 40 symbolic links");
            free(p);
            return NULL;
        }
        char target[PATH_MAX];
        ssize_t n = readlink(p, target, sizeof target - 1);
        if (n < 0) {
            fail(err, errsize, path, "cannot read the link '%s': %s", p, strerror(errno));
            free(p);
            return NULL;
        }
        target[n] = '\0';
        char *next;
        if (target[0] == '/') {
            next = strdup(target);
        } else {
            char *d = dir_of(p);
            next = d ? malloc(strlen(d) + 1 + (size_t)n + 1) : NULL;
            if (next) sprintf(next, "%s/%s", d, target);
            free(d);
        }
        free(p);
        p = next;
    }
    errno = ENOMEM;
    fail(err, errsize, path, "out of memory");
    return NULL;
}

static mode_t umask_now(void)
{
    mode_t m = umask(022); /* reading the umask sets it: put it back at once */
    umask(m);
    return m;
}

/* What the final target is: 0 (absent or regular: replace), 1 (device or FIFO: in place), or
 * −1 with err (refused). *mode: the mode a replacement gets. */
static int classify(const char *path, const char *target, mode_t *mode, char *err, size_t errsize)
{
    struct stat st;
    *mode = 0666 & ~umask_now();
    if (stat(target, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            char *d = dir_of(target);
            struct stat ds;
            int ok = d && stat(d, &ds) == 0 && S_ISDIR(ds.st_mode);
            int e = errno;
            if (!ok) {
                errno = e;
                fail(err, errsize, path, "the directory '%s' does not exist", d ? d : "?");
            }
            free(d);
            return ok ? 0 : -1;
        }
        return fail(err, errsize, path, "%s", strerror(errno));
    }
    if (S_ISREG(st.st_mode)) {
        *mode = st.st_mode & 07777;
        return 0;
    }
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        if (access(target, W_OK) != 0) return fail(err, errsize, path, "%s", strerror(errno));
        return 1;
    }
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return fail(err, errsize, path, "%s",
                S_ISDIR(st.st_mode)    ? "it is a directory"
                : S_ISSOCK(st.st_mode) ? "it is a socket"
                : S_ISBLK(st.st_mode)  ? "it is a block device (refusing to write over it)"
                                       : "not a regular file, device or FIFO");
}

/* The hidden temporary file beside target, created with mode. */
static int make_temporary(atomic_file *a, const char *path, mode_t mode, char *err, size_t errsize)
{
    char *d = dir_of(a->path);
    const char *slash = strrchr(a->path, '/');
    const char *base = slash ? slash + 1 : a->path;
    size_t blen = strlen(base) > 200 ? 200 : strlen(base); /* NAME_MAX 255 with the suffix */
    a->tmp = d ? malloc(strlen(d) + blen + 32) : NULL;
    if (!a->tmp) {
        free(d);
        errno = ENOMEM;
        return fail(err, errsize, path, "out of memory");
    }
    sprintf(a->tmp, "%s/.%.*s.tmp.XXXXXX", d, (int)blen, base);
    free(d);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        int e = errno;
        char *dd = dir_of(a->path);
        errno = e;
        fail(err, errsize, path, "cannot create a file in '%s': %s", dd ? dd : "?", strerror(e));
        free(dd);
        free(a->tmp);
        a->tmp = NULL;
        return -1;
    }
    a->slot = remember(a->tmp);
    if (fchmod(fd, mode) != 0 || !(a->f = fdopen(fd, "w"))) {
        fail(err, errsize, path, "%s", strerror(errno));
        close(fd);
        forget(a->slot);
        unlink(a->tmp);
        free(a->tmp);
        a->tmp = NULL;
        return -1;
    }
    return 0;
}

static int prepare(atomic_file *a, const char *path, bool open_it, char *err, size_t errsize)
{
    memset(a, 0, sizeof *a);
    a->slot = -1;
    if (path[0] == '\0') {
        errno = ENOENT;
        return fail(err, errsize, path, "the file name is empty");
    }
    if (strcmp(path, "-") == 0) {
        a->kind = ATOMIC_STDOUT;
        a->f = stdout;
        return 0;
    }
    if (strlen(path) >= PATH_MAX) {
        errno = ENAMETOOLONG;
        return fail(err, errsize, path, "the name is longer than %d bytes", PATH_MAX - 1);
    }
    if (!(a->path = resolve(path, err, errsize))) return -1;
    mode_t mode;
    int c = classify(path, a->path, &mode, err, errsize);
    if (c < 0) goto fail;
    if (c == 1) {
        a->kind = ATOMIC_IN_PLACE;
        if (open_it && !(a->f = fopen(a->path, "w"))) {
            fail(err, errsize, path, "%s", strerror(errno));
            goto fail;
        }
        return 0;
    }
    a->kind = ATOMIC_REPLACE;
    if (make_temporary(a, path, mode, err, errsize) == 0) return 0;
fail:
    free(a->path);
    a->path = NULL;
    return -1;
}

int atomic_file_probe(const char *path, char *err, size_t errsize)
{
    atomic_file a;
    if (prepare(&a, path, false, err, errsize) != 0) return -1;
    atomic_file_abort(&a);
    return 0;
}

int atomic_file_open(atomic_file *a, const char *path, char *err, size_t errsize)
{
    return prepare(a, path, true, err, errsize);
}

int atomic_file_commit(atomic_file *a, char *err, size_t errsize)
{
    const char *name = a->kind == ATOMIC_STDOUT ? "-" : a->path;
    int rc = 0;
    if (fflush(a->f) != 0 || ferror(a->f)) rc = fail(err, errsize, name, "%s", strerror(errno));
    if (a->kind == ATOMIC_REPLACE && rc == 0 && fsync(fileno(a->f)) != 0)
        rc = fail(err, errsize, name, "%s", strerror(errno));
    if (a->kind != ATOMIC_STDOUT && fclose(a->f) != 0 && rc == 0)
        rc = fail(err, errsize, name, "%s", strerror(errno));
    if (a->kind == ATOMIC_REPLACE) {
        if (rc == 0 && rename(a->tmp, a->path) != 0)
            rc = fail(err, errsize, name, "cannot rename the finished file into place: %s", strerror(errno));
        forget(a->slot);
        if (rc != 0) unlink(a->tmp);
    }
    free(a->path);
    free(a->tmp);
    return rc;
}

void atomic_file_abort(atomic_file *a)
{
    if (a->f && a->kind != ATOMIC_STDOUT) fclose(a->f);
    if (a->tmp) {
        forget(a->slot);
        unlink(a->tmp);
    }
    free(a->path);
    free(a->tmp);
}
