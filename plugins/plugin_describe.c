/* A plugin's description read in a process of its own (plugin_describe.h). */
#define _GNU_SOURCE
#include "plugin_describe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plugin_fields.h"

/* The most a description may take: 64 rows of every field at its longest, escaped. */
enum { DESCRIPTION_MAX = 64 * 24 * 3 * PLUGIN_TEXT_MAX };

/* Where a plugin's kernel was set: its rows run in their own processes, never through these. */
static void hosted_only(void)
{
    fprintf(stderr, "gelucheck: internal error: a plugin kernel described by its host was called "
                    "in gelucheck's process\n");
    abort();
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One field's line value into row d (the field's kind says how); −1 with why. */
static int field_set(plugin_description *pd, size_t row, const plugin_field *pf, char *value,
                     char *why, size_t size)
{
    unsigned char *at = (unsigned char *)&pd->rows[row] + pf->offset;
    char *end;
    switch (pf->kind) {
    case PLUGIN_FIELD_TEXT:
    case PLUGIN_FIELD_CALL: {
        if (plugin_text_unescape(value) != 0)
            return snprintf(why, size, "a malformed %%XX escape in %s", pf->key), -1;
        if (strlen(value) > PLUGIN_TEXT_MAX) /* what plugin_text_put would cut */
            return snprintf(why, size, "%s longer than %d bytes", pf->key, PLUGIN_TEXT_MAX), -1;
        char *copy = strdup(value);
        if (!copy) return snprintf(why, size, "out of memory"), -1;
        if (pf->kind == PLUGIN_FIELD_CALL) pd->dispatched_isa[row] = copy;
        else memcpy(at, &copy, sizeof copy);
        return 0;
    }
    case PLUGIN_FIELD_KERNEL: {
        if (strcmp(value, "1") != 0) return snprintf(why, size, "%s is not 1", pf->key), -1;
        void (*k)(void) = hosted_only;
        memcpy(at, &k, sizeof k);
        return 0;
    }
    case PLUGIN_FIELD_DOUBLE: {
        errno = 0;
        double v = strtod(value, &end);
        if (*value == '\0' || *end != '\0')
            return snprintf(why, size, "%s '%.40s' is not a number", pf->key, value), -1;
        memcpy(at, &v, sizeof v);
        return 0;
    }
    case PLUGIN_FIELD_INT: {
        errno = 0;
        long v = strtol(value, &end, 10);
        if (*value == '\0' || *end != '\0' || errno || v < INT_MIN || v > INT_MAX)
            return snprintf(why, size, "%s '%.40s' is not an int", pf->key, value), -1;
        int i = (int)v;
        memcpy(at, &i, sizeof i);
        return 0;
    }
    }
    return snprintf(why, size, "field %s of an unknown kind", pf->key), -1;
}

static int number(const char *value, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(value, &end, 10);
    if (*value == '\0' || *end != '\0' || errno || v > UINT32_MAX || *value == '-') return -1;
    *out = (uint32_t)v;
    return 0;
}

static int parse(char *text, plugin_description *d, char *err, size_t errsize)
{
    memset(d, 0, sizeof *d);
    size_t nrows = 0, line = 0;
    bool in_row = false, done = false, head = false, row_started = false;
    bool seen[64] = {false};
    char why[300];
    for (char *save, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        if (done) return snprintf(err, errsize, "line %zu: text after 'done'", line), -1;
        char *value = strchr(l, ' ');
        if (value) *value++ = '\0';
        else value = l + strlen(l); /* "", writable: the unescaping writes its end */
        if (!head) {
            if (strcmp(l, "gelucheck-plugin-description") != 0 || strcmp(value, "1") != 0)
                return snprintf(err, errsize, "line 1 is not 'gelucheck-plugin-description 1'"), -1;
            head = true;
        } else if (strcmp(l, "error") == 0) {
            if (plugin_text_unescape(value) != 0) value = "(a malformed message)";
            return snprintf(err, errsize, "%s", value), 1;
        } else if (!in_row && strcmp(l, "abi") == 0) {
            if (number(value, &d->info.abi) != 0)
                return snprintf(err, errsize, "line %zu: abi '%.20s'", line, value), -1;
        } else if (!in_row && strcmp(l, "count") == 0) {
            if (number(value, &d->info.count) != 0)
                return snprintf(err, errsize, "line %zu: count '%.20s'", line, value), -1;
        } else if (!in_row && strcmp(l, "row") == 0) {
            if (nrows == 64) return snprintf(err, errsize, "line %zu: more than 64 rows", line), -1;
            in_row = true;
            row_started = false;
            memset(seen, 0, sizeof seen);
        } else if (in_row && strcmp(l, "size") == 0) {
            uint32_t size;
            if (row_started) /* a second size would leave fields set beyond the row's size */
                return snprintf(err, errsize, "line %zu: size given twice or after a field", line), -1;
            row_started = true;
            if (number(value, &size) != 0)
                return snprintf(err, errsize, "line %zu: size '%.20s'", line, value), -1;
            d->rows[nrows].size = size < sizeof(gelucheck_impl_v1) ? size : sizeof(gelucheck_impl_v1);
        } else if (in_row && strcmp(l, "end") == 0) {
            in_row = false;
            nrows++;
        } else if (in_row) {
            size_t k = 0;
            while (k < plugin_field_count && strcmp(plugin_fields[k].key, l) != 0) k++;
            if (k == plugin_field_count)
                return snprintf(err, errsize, "line %zu: unknown field '%.40s'", line, l), -1;
            const plugin_field *pf = &plugin_fields[k];
            if (seen[k] || d->rows[nrows].size < pf->offset + pf->size)
                return snprintf(err, errsize, "line %zu: field %s given twice or beyond the row's "
                                "size", line, pf->key), -1;
            seen[k] = true;
            row_started = true;
            if (field_set(d, nrows, pf, value, why, sizeof why) != 0)
                return snprintf(err, errsize, "line %zu: %s", line, why), -1;
        } else if (strcmp(l, "left_out") == 0) {
            if (d->left_out || plugin_text_unescape(value) != 0 || !(d->left_out = strdup(value)))
                return snprintf(err, errsize, "line %zu: left_out", line), -1;
        } else if (strcmp(l, "done") == 0) {
            done = true;
        } else {
            return snprintf(err, errsize, "line %zu: unexpected '%.40s'", line, l), -1;
        }
    }
    if (!done) return snprintf(err, errsize, "it ends after %zu lines, before 'done'", line), -1;
    if (nrows && nrows != (d->info.count < 64 ? d->info.count : 64))
        return snprintf(err, errsize, "%zu rows for a count of %u", nrows, d->info.count), -1;
    d->info.impls = nrows ? d->rows : NULL;
    return 0;
}

void plugin_description_free(plugin_description *d)
{
    for (size_t r = 0; r < 64; r++) {
        for (size_t k = 0; k < plugin_field_count; k++)
            if (plugin_fields[k].kind == PLUGIN_FIELD_TEXT) {
                char *p;
                memcpy(&p, (unsigned char *)&d->rows[r] + plugin_fields[k].offset, sizeof p);
                free(p);
            }
        free((char *)d->dispatched_isa[r]);
    }
    free((char *)d->left_out);
    memset(d, 0, sizeof *d);
}

int plugin_description_parse(char *text, plugin_description *d, char *err, size_t errsize)
{
    int rc = parse(text, d, err, errsize);
    if (rc != 0) plugin_description_free(d); /* what a refused text allocated */
    return rc;
}

/* The host's output (at most DESCRIPTION_MAX bytes) until its end or the deadline: 0, 1 for a
 * timeout, −1 for too much or a read error. */
static int read_until_end(int fd, double deadline, char **text, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) return -1;
    for (;;) {
        double left = deadline - now_s();
        if (left <= 0) return free(buf), 1;
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return free(buf), -1;
        if (r == 0) continue;
        if (n == cap) {
            if (cap >= DESCRIPTION_MAX) return free(buf), -1;
            char *more = realloc(buf, 2 * cap + 1);
            if (!more) return free(buf), -1;
            buf = more;
            cap *= 2;
        }
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return free(buf), -1;
        if (k == 0) break;
        n += (size_t)k;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* The host's exit status (waiting until the deadline, then killing its group): 0 and *status,
 * or 1 for a timeout. */
static int reap(pid_t pid, double deadline, int *status)
{
    for (;;) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid) return 0;
        if (w < 0 && errno != EINTR) return *status = 0, 0;
        if (now_s() >= deadline) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
            return 1;
        }
        nanosleep(&(struct timespec){0, 2000000}, NULL);
    }
}

int plugin_describe(const char *host, const char *path, double timeout_s, plugin_description *d,
                    char *err, size_t errsize)
{
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0)
        return snprintf(err, errsize, "cannot load plugin '%s' in its own process: pipe: %s", path,
                        strerror(errno)), -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) { /* its own process group: a timeout kills whatever the plugin started */
        setpgid(0, 0);
        dup2(out[1], STDOUT_FILENO);
        signal(SIGPIPE, SIG_DFL);
        execl(host, host, "--describe", path, (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    if (pid < 0) {
        close(out[0]);
        return snprintf(err, errsize, "cannot load plugin '%s' in its own process: fork: %s", path,
                        strerror(errno)), -1;
    }
    setpgid(pid, pid);
    double deadline = now_s() + timeout_s;
    char *text = NULL;
    size_t len = 0;
    int got = read_until_end(out[0], deadline, &text, &len);
    close(out[0]);
    int status = 0;
    int late = reap(pid, got == 0 ? deadline : now_s(), &status);
    const char *intro = "plugin '%s': its description, read in its own process (%s --describe)";
    char why[600], perr[300] = "";
    int rc = -1;
    if (got == 1 || late)
        snprintf(why, sizeof why, "did not end within %g s (--exec-timeout): a plugin that hangs "
                 "while loading or in gelucheck_plugin_v1", timeout_s);
    else if (got < 0)
        snprintf(why, sizeof why, "could not be read (more than %d bytes, or a read error)",
                 DESCRIPTION_MAX);
    else if (WIFSIGNALED(status))
        snprintf(why, sizeof why, "failed: the host was killed by signal %d (%s) while loading the "
                 "plugin or in gelucheck_plugin_v1", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (strlen(text) != len)
        snprintf(why, sizeof why, "is malformed: a NUL byte at byte %zu", strlen(text));
    else if ((rc = plugin_description_parse(text, d, perr, sizeof perr)) == 1) {
        snprintf(err, errsize, "%s", perr); /* the host's refusal, in the loader's words */
        free(text);
        return -1;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        rc = -1;
        snprintf(why, sizeof why, "failed: the host exited with status %d%s%s%s",
                 WEXITSTATUS(status), WEXITSTATUS(status) == 127 ? " (not started)" : "",
                 perr[0] ? ": " : "", perr);
    } else if (rc != 0 && strstr(perr, "before 'done'")) { /* an exit in the plugin's code */
        snprintf(why, sizeof why, "failed: the host exited with status 0 before its description "
                 "was complete (%s): a plugin that ends the process while loading or in "
                 "gelucheck_plugin_v1", perr);
    } else if (rc != 0) {
        snprintf(why, sizeof why, "is malformed: %s", perr);
    }
    free(text);
    if (rc == 0) return 0;
    char head[PATH_MAX + 200];
    snprintf(head, sizeof head, intro, path, host);
    snprintf(err, errsize, "%s %s", head, why);
    return -1;
}
