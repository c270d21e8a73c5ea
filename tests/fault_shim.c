/* An LD_PRELOAD shim that makes chosen file operations fail, for the fault-injection tests
 * (tests/test_outputs.sh, the publish test). Each variable names a file by its last path
 * component; the operation fails for that file and for its temporary files (".NAME.tmp.*"):
 *
 *   GELUCHECK_FAIL_RENAME=NAME   rename() onto NAME fails with EPERM (as on an immutable file)
 *   GELUCHECK_FAIL_WRITE=NAME    fflush() and fclose() of a stream on NAME fail with ENOSPC
 *                                (the stream is still closed): a full disk
 *   GELUCHECK_FAIL_CREATE=NAME   mkstemp() and fopen(…, "w") of NAME fail with EACCES
 *   GELUCHECK_KILL_AFTER=PREFIX:N  the process SIGKILLs itself right after its N-th successful
 *                                rename() onto a file whose name starts with PREFIX (a run killed
 *                                after exactly N chunk files, whatever the machine's speed)
 *
 * Test-only code; not part of gelucheck. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The next definition of a function (libc's): POSIX's way to store dlsym's result in a
 * function pointer. */
#define NEXT(fn, name) (*(void **)(&(fn)) = dlsym(RTLD_NEXT, name))

static int matches(const char *var, const char *path)
{
    const char *name = getenv(var);
    if (!name || !*name || !path) return 0;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t n = strlen(name);
    if (strcmp(base, name) == 0) return 1;
    return base[0] == '.' && strncmp(base + 1, name, n) == 0 && strncmp(base + 1 + n, ".tmp.", 5) == 0;
}

/* The path of the stream's file, from /proc/self/fd. */
static int stream_matches(const char *var, FILE *f)
{
    if (!getenv(var) || !f) return 0;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fileno(f));
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n < 0) return 0;
    path[n] = '\0';
    return matches(var, path);
}

int rename(const char *from, const char *to)
{
    int (*real)(const char *, const char *);
    NEXT(real, "rename");
    if (matches("GELUCHECK_FAIL_RENAME", to)) {
        errno = EPERM;
        return -1;
    }
    int rc = real(from, to);
    const char *kill_after = getenv("GELUCHECK_KILL_AFTER"), *colon;
    if (rc == 0 && kill_after && (colon = strchr(kill_after, ':'))) {
        static atomic_long renamed;
        const char *slash = strrchr(to, '/'), *base = slash ? slash + 1 : to;
        if (strncmp(base, kill_after, (size_t)(colon - kill_after)) == 0 &&
            atomic_fetch_add(&renamed, 1) + 1 == atol(colon + 1))
            raise(SIGKILL);
    }
    return rc;
}

int fflush(FILE *f)
{
    int (*real)(FILE *);
    NEXT(real, "fflush");
    if (stream_matches("GELUCHECK_FAIL_WRITE", f)) {
        errno = ENOSPC;
        return EOF;
    }
    return real(f);
}

int fclose(FILE *f)
{
    int (*real)(FILE *);
    NEXT(real, "fclose");
    int fail = stream_matches("GELUCHECK_FAIL_WRITE", f);
    int rc = real(f);
    if (fail) {
        errno = ENOSPC;
        return EOF;
    }
    return rc;
}

int mkstemp(char *tmpl)
{
    int (*real)(char *);
    NEXT(real, "mkstemp");
    if (matches("GELUCHECK_FAIL_CREATE", tmpl)) {
        errno = EACCES;
        return -1;
    }
    return real(tmpl);
}

FILE *fopen(const char *path, const char *mode)
{
    FILE *(*real)(const char *, const char *);
    NEXT(real, "fopen");
    if (mode[0] == 'w' && matches("GELUCHECK_FAIL_CREATE", path)) {
        errno = EACCES;
        return NULL;
    }
    return real(path, mode);
}
