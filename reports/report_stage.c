/* A report directory written all at once (see report_stage.h). */
#include "report_stage.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void remove_stage(report_stage *s);

/* Staging directories of runs that were killed (their process is gone) are removed. */
static void remove_stale_stages(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        long pid;
        if (sscanf(e->d_name, ".staging-%ld-", &pid) != 1 || pid <= 0) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        report_stage stale;
        snprintf(stale.stage, sizeof stale.stage, "%s/%s", dir, e->d_name);
        remove_stage(&stale);
    }
    if (d) closedir(d);
}

int report_stage_open(report_stage *s, const char *dir)
{
    memset(s, 0, sizeof *s);
    if (strlen(dir) >= sizeof s->dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) return -1;
    remove_stale_stages(dir);
    snprintf(s->stage, sizeof s->stage, "%s/.staging-%ld-XXXXXX", dir, (long)getpid());
    return mkdtemp(s->stage) ? 0 : -1;
}

const char *report_stage_path(report_stage *s, const char *name, char *buf, size_t size)
{
    size_t i = 0;
    while (i < s->n && strcmp(s->names[i], name) != 0) i++;
    if (i == s->n) {
        if (s->n == REPORT_STAGE_MAX_FILES || strlen(name) >= sizeof s->names[0]) return NULL;
        snprintf(s->names[s->n++], sizeof s->names[0], "%s", name);
    }
    snprintf(buf, size, "%s/%s", s->stage, name);
    return buf;
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

/* Removes every file in the staging directory, then the directory. */
static void remove_stage(report_stage *s)
{
    DIR *d = opendir(s->stage);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char path[2400];
            snprintf(path, sizeof path, "%s/%s", s->stage, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(s->stage);
}

int report_stage_commit(report_stage *s)
{
    int rc = 0;
    for (size_t i = 0; i < s->n && rc == 0; i++) { /* all there before the first rename */
        char path[2200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", s->stage, s->names[i]);
        rc = stat(path, &st);
        if (rc == 0) chmod(path, 0644); /* a report is for reading: mkstemp made some 0600 */
    }
    for (size_t i = 0; i < s->n && rc == 0; i++) {
        char from[2200], to[2200];
        snprintf(from, sizeof from, "%s/%s", s->stage, s->names[i]);
        snprintf(to, sizeof to, "%s/%s", s->dir, s->names[i]);
        rc = rename(from, to);
    }
    int saved = errno;
    remove_stage(s);
    errno = saved;
    return rc;
}

void report_stage_abort(report_stage *s) { remove_stage(s); }
