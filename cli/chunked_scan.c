/* A scan run as chunks: checkpoint directories and MPI ranks (chunked_scan.h). */
#include "chunked_scan.h"
#include "input_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cli.h"
#include "code_id.h"
#include "gelucheck_config.h"
#include "gelucheck_version.h"
#include "partial.h"
#include "ranks.h"

enum { ID_MAX = 1 << 16 };

typedef struct {
    const char *cmd;
    const scan_config *cfg;
    const char *dir;        /* checkpoint directory or NULL */
    unsigned k, n, chunks;  /* the part (0-based k of n) and its chunk count */
    unsigned long next;     /* the next chunk to hand out */
    scan_result *acc, *part;
    bool acc_set;
    int status;             /* first failure (EXIT_OK while none) */
    char message[1024];
    /* progress (rank 0): blocks still to scan when the run began, and those finished since */
    uint64_t total_blocks, done_blocks;
    long *worker_chunk;     /* per rank, the chunk it works on (−1: none) */
    unsigned long *rank_chunks; /* per rank, the chunks handed to it */
    unsigned char *present; /* per chunk, whether the checkpoint held it when the run began */
} chunk_run;

static void fail(chunk_run *s, int status, const char *fmt, ...)
{
    if (s->status != EXIT_OK) return;
    s->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->message, sizeof s->message, fmt, ap);
    va_end(ap);
}

static uint64_t chunk_blocks(const chunk_run *s, unsigned long j)
{
    uint64_t first, end;
    if (scan_shard_span(&s->cfg->domain, s->k * s->chunks + (unsigned)j, s->n * s->chunks, &first,
                        &end) != 0)
        return 0;
    return (end - first + SCAN_BLOCK - 1) / SCAN_BLOCK;
}

static void chunk_path(const chunk_run *s, unsigned long j, char *buf, size_t size)
{
    snprintf(buf, size, "%s/chunk-%lu-of-%u.partial", s->dir, j + 1, s->chunks);
}

static bool chunk_present(const chunk_run *s, unsigned long j)
{
    char path[4200];
    chunk_path(s, j, path, sizeof path);
    return access(path, F_OK) == 0;
}

/* ---- the checkpoint's identity */

/* What makes two runs the same: the command, the build, every option that changes the
 * result, and the code of every row (code_id.h: a plugin's file, an exec child's command and
 * handshake, this executable's build id), one line "code.NAME=ID" each, so that a resume with
 * another kernel under the same name is refused naming the row. −1 with the reason in buf when
 * a row's identity cannot be had, −2 when buf is too small. */
static int id_text(const chunk_run *s, char *buf, size_t size)
{
    char domain[128];
    partial_domain_text(&s->cfg->domain, domain, sizeof domain);
    int w = snprintf(buf, size,
                     "gelucheck-checkpoint 1\ncommand=%s\ngelucheck.version=%s\n"
                     "gelucheck.commit=%s\ndomain=%s\ngrad=%d\nshard=%u/%u\nchunks=%u\nimpls=",
                     s->cmd, GELUCHECK_VERSION, GELUCHECK_COMMIT, domain, s->cfg->grad ? 1 : 0,
                     s->k + 1, s->n, s->chunks);
    for (size_t i = 0; i < s->cfg->nimpls && w >= 0 && (size_t)w < size; i++)
        w += snprintf(buf + w, size - (size_t)w, "%s%s", i ? "," : "", s->cfg->impls[i]->name);
    if (w >= 0 && (size_t)w < size) w += snprintf(buf + w, size - (size_t)w, "\n");
    if (s->cfg->fpenv != GELU_FPENV_IEEE && w >= 0 && (size_t)w < size) /* (IEEE's ids as before) */
        w += snprintf(buf + w, size - (size_t)w, "fpenv=%s\n", gelu_fpenv_name(s->cfg->fpenv));
    for (size_t i = 0; i < s->cfg->nimpls && w >= 0 && (size_t)w < size; i++) {
        char code[400];
        if (impl_code_id(s->cfg->impls[i], code, sizeof code) != 0) {
            snprintf(buf, size, "%s", code);
            return -1;
        }
        w += snprintf(buf + w, size - (size_t)w, "code.%s=%s\n", s->cfg->impls[i]->name, code);
    }
    return w < 0 || (size_t)w >= size ? -2 : 0;
}

/* The first line where two ids differ, as "KEY: 'A' here, 'B' in the checkpoint". */
static void id_difference(const char *want, const char *have, char *buf, size_t size)
{
    if (!*have) {
        snprintf(buf, size, "its checkpoint.id is empty");
        return;
    }
    for (;;) {
        size_t lw = strcspn(want, "\n"), lh = strcspn(have, "\n");
        if (lw != lh || memcmp(want, have, lw) != 0) {
            size_t key = strcspn(want, "=\n");
            if (key >= lw || !memchr(have, '=', lh)) { /* not a KEY=VALUE line on both sides */
                snprintf(buf, size, "its checkpoint.id has '%.*s' where this run's has '%.*s'",
                         (int)(lh > 200 ? 200 : lh), have, (int)(lw > 200 ? 200 : lw), want);
                return;
            }
            const char *hv = memchr(have, '=', lh);
            const char *wv = want[key] == '=' ? want + key + 1 : want + key;
            hv = hv ? hv + 1 : have;
            int a = (int)(lw - (size_t)(wv - want)), b = (int)(lh - (size_t)(hv - have));
            snprintf(buf, size, "%.*s is '%.*s' for this run but '%.*s' in the checkpoint",
                     (int)key, want, a > 200 ? 200 : a, wv, b > 200 ? 200 : b, hv);
            return;
        }
        if (!want[lw] || !have[lh]) break;
        want += lw + 1;
        have += lh + 1;
    }
    snprintf(buf, size, "its checkpoint.id differs from this run's");
}

static bool dir_is_empty(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return false;
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = false;
    closedir(d);
    return empty;
}

/* Removes the hidden temporaries of chunk files that a killed run left (atomic_file names
 * them .NAME.tmp.XXXXXX); never follows a link. */
static void remove_stale_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, ".chunk-", 7) == 0 && strstr(e->d_name, ".partial.tmp."))
            unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
}

/* Creates the directory and its id, or checks that they are this run's. */
static void checkpoint_open(chunk_run *s)
{
    struct stat st;
    if (stat(s->dir, &st) != 0) {
        if (errno != ENOENT || mkdir(s->dir, 0777) != 0) {
            fail(s, EXIT_CHECK_FAILED, "cannot create the checkpoint directory '%s': %s", s->dir,
                 strerror(errno));
            return;
        }
    } else if (!S_ISDIR(st.st_mode)) {
        fail(s, EXIT_USAGE, "--checkpoint '%s' is not a directory", s->dir);
        return;
    }
    char *want = malloc(ID_MAX), *have = malloc(ID_MAX + 1);
    char path[4200];
    snprintf(path, sizeof path, "%s/checkpoint.id", s->dir);
    int idst = want ? id_text(s, want, ID_MAX) : -2;
    if (idst == -1) {
        fail(s, EXIT_CHECK_FAILED, "%s", want);
    } else if (!have || idst != 0) {
        fail(s, EXIT_CHECK_FAILED, "out of memory");
    } else {
        FILE *f = input_open(path);
        if (f) {
            size_t len = fread(have, 1, ID_MAX, f);
            have[len] = '\0';
            bool bad = ferror(f) != 0;
            fclose(f);
            char why[600];
            if (bad)
                fail(s, EXIT_CHECK_FAILED, "cannot read '%s'", path);
            else if (strcmp(want, have) == 0)
                remove_stale_temporaries(s->dir);
            else {
                id_difference(want, have, why, sizeof why);
                fail(s, EXIT_USAGE,
                     "checkpoint '%s' belongs to another run: %s; give another directory or "
                     "remove this one",
                     s->dir, why);
            }
        } else if (errno != ENOENT) {
            fail(s, EXIT_CHECK_FAILED, "cannot read '%s': %s", path, strerror(errno));
        } else if (!dir_is_empty(s->dir)) {
            fail(s, EXIT_USAGE,
                 "--checkpoint '%s' is a directory with files but no checkpoint.id: not a "
                 "checkpoint of gelucheck (give an empty or new directory)",
                 s->dir);
        } else {
            atomic_file a;
            char err[4400];
            if (atomic_file_open(&a, path, err, sizeof err) != 0) {
                fail(s, EXIT_CHECK_FAILED, "%s", err);
            } else if (fputs(want, a.f) < 0) {
                fail(s, EXIT_CHECK_FAILED, "cannot write '%s': %s", path, strerror(errno));
                atomic_file_abort(&a);
            } else if (atomic_file_commit(&a, err, sizeof err) != 0) {
                fail(s, EXIT_CHECK_FAILED, "%s", err);
            }
        }
    }
    free(want);
    free(have);
}

/* ---- one chunk */

static void chunk_progress(uint64_t done, uint64_t total, void *ctx);

static int write_chunk(chunk_run *s, const scan_result *r, const char *path)
{
    atomic_file a;
    char err[4400];
    if (atomic_file_open(&a, path, err, sizeof err) != 0) {
        fail(s, EXIT_CHECK_FAILED, "%s", err);
        return -1;
    }
    if (partial_write(r, a.f) != 0) {
        fail(s, EXIT_CHECK_FAILED, "cannot write '%s': %s", path, strerror(errno));
        atomic_file_abort(&a);
        return -1;
    }
    if (atomic_file_commit(&a, err, sizeof err) != 0) {
        fail(s, EXIT_CHECK_FAILED, "%s", err);
        return -1;
    }
    return 0;
}

/* Chunk j into *out: read from the checkpoint when there, else scanned (and written there). */
static int run_chunk(chunk_run *s, unsigned long j, scan_result *out)
{
    unsigned shard_k = s->k * s->chunks + (unsigned)j, shard_n = s->n * s->chunks;
    char path[4200];
    if (s->dir) {
        chunk_path(s, j, path, sizeof path);
        FILE *f = input_open(path);
        if (f) {
            char why[768];
            int rc = partial_read(out, f, why, sizeof why);
            fclose(f);
            if (rc != 0) {
                fail(s, EXIT_USAGE, "checkpoint chunk '%s': %s (remove it to scan that chunk again)",
                     path, why);
                return -1;
            }
            if (out->shard_k != shard_k || out->shard_n != shard_n) {
                fail(s, EXIT_USAGE, "checkpoint chunk '%s' holds shard %u/%u, not %u/%u", path,
                     out->shard_k + 1, out->shard_n, shard_k + 1, shard_n);
                return -1;
            }
            return 0;
        }
        if (errno != ENOENT) {
            fail(s, EXIT_CHECK_FAILED, "cannot read '%s': %s", path, strerror(errno));
            return -1;
        }
    }
    scan_config c = *s->cfg;
    c.shard_k = shard_k;
    c.shard_n = shard_n;
    c.progress = ranks_rank() == 0 && s->cfg->progress ? chunk_progress : NULL;
    c.progress_ctx = s;
    const char *error = NULL;
    if (scan_run(&c, out, &error) != 0) {
        fail(s, EXIT_CHECK_FAILED, "%s", error);
        return -1;
    }
    if (s->dir && write_chunk(s, out, path) != 0) return -1;
    if (ranks_rank() == 0) s->done_blocks += chunk_blocks(s, j);
    return 0;
}

/* Adds a finished chunk (in s->part, or the first one in s->acc) to the run's result. */
static void fold(chunk_run *s)
{
    const char *error;
    if (!s->acc_set)
        s->acc_set = true;
    else if (scan_result_merge(s->acc, s->part, &error) != 0)
        fail(s, EXIT_CHECK_FAILED, "merging a chunk: %s", error);
}

/* ---- rank 0: handing out chunks, gathering the workers' results */

static long dispense(void *ctx, int worker)
{
    chunk_run *s = ctx;
    if (s->worker_chunk && worker > 0) { /* a worker asking again has finished its chunk */
        long prev = s->worker_chunk[worker];
        if (prev >= 0 && !s->present[prev]) s->done_blocks += chunk_blocks(s, (unsigned long)prev);
        s->worker_chunk[worker] = -1;
    }
    if (s->status != EXIT_OK || s->next >= s->chunks) return -1;
    long j = (long)s->next++;
    if (s->worker_chunk) s->worker_chunk[worker] = j;
    if (s->rank_chunks) s->rank_chunks[worker]++;
    return j;
}

static int gather_result(void *ctx, int worker, const unsigned char *bytes, size_t len)
{
    chunk_run *s = ctx;
    char why[768];
    scan_result *into = s->acc_set ? s->part : s->acc;
    if (partial_parse(into, bytes, len, why, sizeof why) != 0) {
        fail(s, EXIT_CHECK_FAILED, "rank %d sent a result that does not parse: %s", worker, why);
        return -1;
    }
    fold(s);
    return s->status == EXIT_OK ? 0 : -1;
}

static void gather_fail(void *ctx, int worker, int status, const char *message)
{
    chunk_run *s = ctx;
    fail(s, status == EXIT_USAGE ? EXIT_USAGE : EXIT_CHECK_FAILED, "rank %d: %s", worker, message);
}

static void chunk_progress(uint64_t done, uint64_t total, void *ctx)
{
    chunk_run *s = ctx;
    (void)total;
    ranks_server srv = {dispense, gather_result, gather_fail, s};
    ranks_serve(&srv);
    uint64_t all = s->done_blocks + done;
    if (all > s->total_blocks) all = s->total_blocks;
    s->cfg->progress(all, s->total_blocks, s->cfg->progress_ctx);
}

/* ---- the run */

static int worker(chunk_run *s)
{
    /* This rank's chunks merge into s->acc, sent as one partial: merging is order-free. */
    for (;;) {
        long j = ranks_request_chunk();
        if (j == -2) return EXIT_RANK_WORKER; /* rank 0 has ended the run */
        if (j < 0) break;
        if (run_chunk(s, (unsigned long)j, s->acc_set ? s->part : s->acc) != 0) break;
        fold(s);
        if (s->status != EXIT_OK) break;
    }
    if (s->status != EXIT_OK) {
        ranks_send_fail(s->status, s->message);
    } else if (s->acc_set) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f || partial_write(s->acc, f) != 0 || fclose(f) != 0)
            ranks_send_fail(EXIT_CHECK_FAILED, "cannot serialise this rank's result");
        else
            ranks_send_result(buf, len);
        free(buf);
    }
    ranks_send_end();
    return EXIT_RANK_WORKER;
}

int chunked_scan(const char *cmd, const scan_config *cfg, const char *checkpoint, scan_result *r)
{
    if (!checkpoint && !ranks_active()) {
        const char *error = NULL;
        if (scan_run(cfg, r, &error) == 0) return EXIT_OK;
        fprintf(stderr, "gelucheck %s: %s; nothing was written\n", cmd, error);
        return EXIT_CHECK_FAILED;
    }
    chunk_run s = {.cmd = cmd, .cfg = cfg, .dir = checkpoint, .k = cfg->shard_k,
                   .n = cfg->shard_n, .acc = r, .status = EXIT_OK};
    uint64_t first, end;
    if (scan_shard_span(&cfg->domain, s.k, s.n, &first, &end) != 0 || end == first) {
        fprintf(stderr, "gelucheck %s: the domain (or this part of it) is empty\n", cmd);
        return EXIT_USAGE;
    }
    uint64_t blocks = (end - first + SCAN_BLOCK - 1) / SCAN_BLOCK;
    s.chunks = blocks < CHUNKS_MAX ? (unsigned)blocks : CHUNKS_MAX;
    if (!(s.part = calloc(1, sizeof *s.part))) {
        fprintf(stderr, "gelucheck %s: out of memory\n", cmd);
        return EXIT_CHECK_FAILED;
    }
    if (ranks_rank() != 0) {
        int st = worker(&s);
        scan_result_free(s.part);
        return st;
    }
    if (checkpoint) checkpoint_open(&s);
    if (!(s.present = calloc(s.chunks, 1))) fail(&s, EXIT_CHECK_FAILED, "out of memory");
    for (unsigned long j = 0; s.present && j < s.chunks; j++) {
        s.present[j] = checkpoint && chunk_present(&s, j);
        if (!s.present[j]) s.total_blocks += chunk_blocks(&s, j);
    }
    if (ranks_active() && (!(s.worker_chunk = malloc((size_t)ranks_size() * sizeof(long))) ||
                           !(s.rank_chunks = calloc((size_t)ranks_size(), sizeof(unsigned long)))))
        fail(&s, EXIT_CHECK_FAILED, "out of memory");
    for (int w = 0; s.worker_chunk && w < ranks_size(); w++) s.worker_chunk[w] = -1;
    for (unsigned long j = 0; checkpoint && s.present && s.status == EXIT_OK && j < s.chunks; j++)
        if (s.present[j]) { /* every chunk found is checked before the run says it resumes */
            scan_result *check = calloc(1, sizeof *check);
            if (!check) fail(&s, EXIT_CHECK_FAILED, "out of memory");
            else run_chunk(&s, j, check);
            scan_result_free(check);
        }
    if (checkpoint && s.status == EXIT_OK && s.total_blocks < blocks)
        fprintf(stderr, "gelucheck %s: resuming from '%s': %llu of %llu blocks already scanned\n",
                cmd, checkpoint, (unsigned long long)(blocks - s.total_blocks),
                (unsigned long long)blocks);
    while (s.status == EXIT_OK) {
        long j = dispense(&s, 0);
        if (j < 0) break;
        if (run_chunk(&s, (unsigned long)j, s.acc_set ? s.part : s.acc) != 0) break;
        fold(&s);
    }
    ranks_server srv = {dispense, gather_result, gather_fail, &s};
    ranks_gather(&srv);
    if (cfg->progress && s.status == EXIT_OK)
        cfg->progress(s.total_blocks, s.total_blocks, cfg->progress_ctx);
    if (s.rank_chunks && s.status == EXIT_OK) {
        fprintf(stderr, "gelucheck %s: %d MPI ranks shared %u chunks:", cmd, ranks_size(), s.chunks);
        for (int w = 0; w < ranks_size(); w++)
            fprintf(stderr, " rank %d took %lu%s", w, s.rank_chunks[w], w + 1 < ranks_size() ? "," : "\n");
    }
    char why[512];
    if (s.status == EXIT_OK) {
        r->shard_k = s.k;
        r->shard_n = s.n;
        if (scan_result_check(r, s.n == 1, why, sizeof why) != 0)
            fail(&s, EXIT_CHECK_FAILED, "the merged chunks are inconsistent: %s", why);
    }
    free(s.worker_chunk);
    free(s.rank_chunks);
    free(s.present);
    scan_result_free(s.part);
    if (s.status != EXIT_OK) fprintf(stderr, "gelucheck %s: %s\n", cmd, s.message);
    return s.status;
}
