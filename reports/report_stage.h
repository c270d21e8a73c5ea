/* A report directory written all at once: every file is first written into a private staging
 * directory inside it (DIR/.staging-PID-XXXXXX, marked by a file REPORT_STAGE_MARK that only
 * this code writes), and only when all of them are complete are they renamed into DIR, one
 * rename each. Each file it replaces, and each file a previous report owned that this one does
 * not publish (report_stage_own: a plot not drawn this time), is first kept in the staging
 * directory; if any rename fails, every step is undone, so DIR holds the previous report
 * whole, or the new one whole. A run interrupted before publishing leaves the previous report
 * untouched; a failure removes the staging directory, and the next run removes those of runs
 * that were killed (their process is gone) — only real directories carrying the mark, never
 * through a symbolic link, and only the files in them. Library code: errors are returned
 * (errno set), nothing printed. */
#ifndef GELUCHECK_REPORT_STAGE_H
#define GELUCHECK_REPORT_STAGE_H

#include <stdio.h>

/* binary32 20 files (answer.json among them), the capped runs 2 each (capped.h: up to 8), each
 * other format 9 */
enum { REPORT_STAGE_MAX_FILES = 96 };
#define REPORT_STAGE_MARK ".gelucheck-stage"

typedef struct {
    char dir[2048], stage[2100];
    char names[REPORT_STAGE_MAX_FILES][64]; /* the files to publish, in order */
    size_t n;
    char owned[REPORT_STAGE_MAX_FILES][64]; /* names removed from DIR when not published */
    size_t nowned;
} report_stage;

/* Creates DIR when it does not exist (its parent must), then the staging directory. 0 or −1. */
int report_stage_open(report_stage *s, const char *dir);
/* The staged path of `name` into buf, registering it for publication (a file that a writer
 * outside this API, such as the benchmark's CSV, creates there). NULL when the list is full. */
const char *report_stage_path(report_stage *s, const char *name, char *buf, size_t size);
/* Writes `name` in the staging directory with writer(f, ctx) (0 or −1) and registers it.
 * 0, or −1 when the writer or the file system fails. */
int report_stage_write(report_stage *s, const char *name, int (*writer)(FILE *f, void *ctx),
                       void *ctx);
/* Declares `name` part of every report: when this run does not publish it, a file of that
 * name in DIR (the previous run's) is removed at publication. 0, or −1 when the list is full. */
int report_stage_own(report_stage *s, const char *name);
/* Renames every registered file into DIR and removes owned files not published, all or
 * nothing; then removes the staging directory (and any file in it not registered). 0, or −1
 * with errno (DIR as it was before). */
int report_stage_commit(report_stage *s);
/* Removes the staging directory and everything in it. */
void report_stage_abort(report_stage *s);
/* For a signal handler (async-signal-safe): removes the staging directory of the report being
 * written, when one is and its publication has not started (a run killed by SIGINT or SIGTERM
 * leaves nothing; one killed while publishing leaves it to the next run, as SIGKILL does). */
void report_stage_remove_on_signal(void);

#endif
