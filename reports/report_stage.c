/* A report directory written all at once, published all or nothing (see report_stage.h). */
#define _GNU_SOURCE
#include "report_stage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---- removing staging directories: only ours (the mark), never through a link */

/* Unlinks every entry of the directory open at fd; directories (the kept old files) one level
 * deep. Never follows a symbolic link: a link is removed, not what it names. */
static void clear_dir(int fd, int depth)
{
    int fd2 = dup(fd);
    DIR *d = fd2 >= 0 ? fdopendir(fd2) : NULL;
    if (!d) {
        if (fd2 >= 0) close(fd2);
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        struct stat st;
        if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (!S_ISDIR(st.st_mode)) {
            unlinkat(fd, e->d_name, 0);
        } else if (depth > 0) {
            int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
            if (sub < 0) continue;
            clear_dir(sub, depth - 1);
            close(sub);
            unlinkat(fd, e->d_name, AT_REMOVEDIR);
        }
    }
    closedir(d);
}

/* Removes the staging directory at path when it is a real directory carrying the mark. */
static void remove_stage_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    if (fd < 0) return;
    struct stat st;
    if (fstatat(fd, REPORT_STAGE_MARK, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)) {
        clear_dir(fd, 1);
        close(fd);
        rmdir(path);
        return;
    }
    close(fd);
}

/* Staging directories of runs that were killed (their process is gone) are removed. */
static void remove_stale_stages(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        long pid;
        if (sscanf(e->d_name, ".staging-%ld-", &pid) != 1 || pid <= 0) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char path[2400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove_stage_dir(path);
    }
    if (d) closedir(d);
}

/* ---- the staging directory a signal removes: set once it is made, cleared when publishing
 * starts (its old/ then holds the previous files the undo needs) or when it is removed */

static char signal_stage[2100];
static volatile sig_atomic_t signal_stage_set;

static void signal_stage_clear(void) { signal_stage_set = 0; }

void report_stage_remove_on_signal(void)
{
    if (!signal_stage_set) return;
    signal_stage_set = 0;
    int fd = open(signal_stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    if (fd < 0) return;
    /* getdents64 (not readdir, which allocates): every entry is a file before publishing */
    _Alignas(8) char buf[4096];
    for (;;) {
        long got = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (got <= 0) break;
        for (long off = 0; off < got;) {
            unsigned short reclen;
            memcpy(&reclen, buf + off + 16, sizeof reclen); /* d_ino 8, d_off 8, d_reclen 2 */
            const char *name = buf + off + 19;              /* after d_type */
            if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) unlinkat(fd, name, 0);
            off += reclen;
        }
    }
    close(fd);
    rmdir(signal_stage);
}

int report_stage_open(report_stage *s, const char *dir)
{
    memset(s, 0, sizeof *s);
    if (dir[0] == '\0') {
        errno = ENOENT;
        return -1;
    }
    if (strlen(dir) >= sizeof s->dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) return -1;
    if (stat(dir, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    remove_stale_stages(dir);
    snprintf(s->stage, sizeof s->stage, "%s/.staging-%ld-XXXXXX", dir, (long)getpid());
    if (!mkdtemp(s->stage)) return -1;
    char mark[2200];
    snprintf(mark, sizeof mark, "%s/%s", s->stage, REPORT_STAGE_MARK);
    int fd = open(mark, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        int e = errno;
        rmdir(s->stage);
        errno = e;
        return -1;
    }
    static const char text[] = "a staging directory of gelucheck report: removed with it\n";
    bool ok = write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1);
    if (close(fd) != 0 || !ok) {
        int e = errno;
        unlink(mark);
        rmdir(s->stage);
        errno = e;
        return -1;
    }
    signal_stage_clear();
    memcpy(signal_stage, s->stage, sizeof signal_stage);
    signal_stage_set = 1;
    return 0;
}

static int add_name(char names[][64], size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(names[i], name) == 0) return 0;
    if (*n == REPORT_STAGE_MAX_FILES || strlen(name) >= 64 || strchr(name, '/') ||
        strcmp(name, REPORT_STAGE_MARK) == 0)
        return -1;
    snprintf(names[(*n)++], 64, "%s", name);
    return 0;
}

const char *report_stage_path(report_stage *s, const char *name, char *buf, size_t size)
{
    if (add_name(s->names, &s->n, name) != 0) return NULL;
    snprintf(buf, size, "%s/%s", s->stage, name);
    return buf;
}

int report_stage_own(report_stage *s, const char *name)
{
    if (add_name(s->owned, &s->nowned, name) != 0) {
        errno = ENOBUFS;
        return -1;
    }
    return 0;
}

int report_stage_write(report_stage *s, const char *name, int (*writer)(FILE *f, void *ctx),
                       void *ctx)
{
    char path[2200];
    if (!report_stage_path(s, name, path, sizeof path)) {
        errno = ENOBUFS;
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int rc = writer(f, ctx);
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) rc = -1;
    if (fclose(f) != 0) rc = -1;
    return rc;
}

/* ---- publishing, with every step undone when one fails */

typedef enum {
    STEP_REPLACED, /* a new file over an old one, the old one kept in old/ */
    STEP_ADDED,    /* a new file where there was none */
    STEP_REMOVED,  /* an owned file not published this time, moved to old/ */
} step_kind;

typedef struct {
    step_kind kind;
    const char *name;
} step;

static bool published(const report_stage *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0) return true;
    return false;
}

static void undo(const report_stage *s, const step *steps, size_t n)
{
    while (n-- > 0) {
        char cur[2200], old[2300];
        snprintf(cur, sizeof cur, "%s/%s", s->dir, steps[n].name);
        snprintf(old, sizeof old, "%s/old/%s", s->stage, steps[n].name);
        if (steps[n].kind == STEP_ADDED) unlink(cur);
        else rename(old, cur);
    }
}

/* Publishes staged file `name`, keeping the file it replaces in old/ (a hard link, so DIR
 * never lacks it; a rename where the file system has no hard links). */
static int publish_one(const report_stage *s, const char *name, step *st)
{
    char from[2200], to[2200], old[2300];
    snprintf(from, sizeof from, "%s/%s", s->stage, name);
    snprintf(to, sizeof to, "%s/%s", s->dir, name);
    snprintf(old, sizeof old, "%s/old/%s", s->stage, name);
    struct stat cur;
    st->name = name;
    st->kind = STEP_ADDED;
    if (lstat(to, &cur) == 0) {
        if (S_ISDIR(cur.st_mode)) {
            errno = EISDIR;
            return -1;
        }
        if (link(to, old) != 0 && rename(to, old) != 0) return -1;
        st->kind = STEP_REPLACED;
    }
    if (rename(from, to) != 0) {
        int e = errno;
        struct stat now;
        if (st->kind == STEP_REPLACED && lstat(to, &now) != 0) rename(old, to); /* moved away */
        errno = e;
        return -1;
    }
    return 0;
}

int report_stage_commit(report_stage *s)
{
    int rc = 0;
    signal_stage_clear();
    mode_t mask = umask(022); /* reading the umask sets it: put it back at once */
    umask(mask);
    for (size_t i = 0; i < s->n && rc == 0; i++) { /* all there before the first rename */
        char path[2200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", s->stage, s->names[i]);
        rc = lstat(path, &st);
        if (rc == 0 && !S_ISREG(st.st_mode)) {
            errno = EINVAL;
            rc = -1;
        }
        if (rc == 0) rc = chmod(path, 0666 & ~mask); /* mkstemp made some 0600 */
    }
    char old[2200];
    snprintf(old, sizeof old, "%s/old", s->stage);
    if (rc == 0) rc = mkdir(old, 0700);
    step steps[2 * REPORT_STAGE_MAX_FILES];
    size_t nsteps = 0;
    for (size_t i = 0; i < s->n && rc == 0; i++)
        if ((rc = publish_one(s, s->names[i], &steps[nsteps])) == 0) nsteps++;
    for (size_t i = 0; i < s->nowned && rc == 0; i++) {
        if (published(s, s->owned[i])) continue;
        char cur[2200], kept[2300];
        struct stat st;
        snprintf(cur, sizeof cur, "%s/%s", s->dir, s->owned[i]);
        snprintf(kept, sizeof kept, "%s/old/%s", s->stage, s->owned[i]);
        if (lstat(cur, &st) != 0 || S_ISDIR(st.st_mode)) continue;
        if ((rc = rename(cur, kept)) == 0) steps[nsteps++] = (step){STEP_REMOVED, s->owned[i]};
    }
    int saved = errno;
    if (rc != 0) undo(s, steps, nsteps);
    remove_stage_dir(s->stage);
    errno = saved;
    return rc;
}

void report_stage_abort(report_stage *s)
{
    signal_stage_clear();
    remove_stage_dir(s->stage);
}
