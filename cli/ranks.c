/* MPI ranks (ranks.h): start, the chunk protocol's messages, and the end. Without MPI in the
 * build every rank function sees one process, and a launch as several ranks is refused. */
#include "ranks.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gelucheck_config.h"

/* How many ranks the launcher says this process is one of (1 when not launched by one). */
static long launcher_size(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
                                       "SLURM_NTASKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v) continue;
        char *end;
        long n = strtol(v, &end, 10);
        /* SLURM_NTASKS alone does not mean an MPI launch: srun sets PMIX_RANK or PMI_RANK too. */
        if (i == 3 && !getenv("PMIX_RANK") && !getenv("PMI_RANK")) continue;
        if (*end == '\0' && n >= 1) return n;
    }
    return 1;
}

#if GELUCHECK_HAVE_MPI
#include <mpi.h>

enum { TAG_REQ = 1, TAG_CHUNK, TAG_RESULT, TAG_FAIL, TAG_END, TAG_STATUS };

static bool active;
static int my_rank, n_ranks;
static bool have_status;
static int rank0_status;

static void nap(void)
{
    struct timespec ts = {0, 2000000}; /* 2 ms */
    nanosleep(&ts, NULL);
}

int ranks_start(int *argc, char ***argv)
{
    if (launcher_size() <= 1) return 0;
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "gelucheck: MPI did not start\n");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks);
    active = true;
    return 0;
}

bool ranks_active(void) { return active && n_ranks > 1; }
int ranks_rank(void) { return active ? my_rank : 0; }
int ranks_size(void) { return active ? n_ranks : 1; }

/* Waits for a message of `tag` from `src` (polling); true when it came, false when rank 0's
 * STATUS came first (a worker's wait ends with the run). */
static bool wait_for(int src, int tag, MPI_Status *st)
{
    for (;;) {
        int got;
        MPI_Iprobe(src, tag, MPI_COMM_WORLD, &got, st);
        if (got) return true;
        if (my_rank != 0 && tag != TAG_STATUS) {
            MPI_Iprobe(0, TAG_STATUS, MPI_COMM_WORLD, &got, MPI_STATUS_IGNORE);
            if (got) {
                MPI_Recv(&rank0_status, 1, MPI_INT, 0, TAG_STATUS, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                have_status = true;
                return false;
            }
        }
        nap();
    }
}

/* Sends without spinning a core while the receiver is busy (large messages wait for it). */
static void send_polling(const void *buf, int count, MPI_Datatype type, int dest, int tag)
{
    MPI_Request req;
    MPI_Isend(buf, count, type, dest, tag, MPI_COMM_WORLD, &req);
    for (;;) {
        int done;
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done) return;
        nap();
    }
}

int ranks_finish(int status)
{
    if (!active) return status;
    if (my_rank == 0) {
        for (int w = 1; w < n_ranks; w++)
            MPI_Send(&status, 1, MPI_INT, w, TAG_STATUS, MPI_COMM_WORLD);
    } else {
        MPI_Status st;
        if (!have_status && wait_for(0, TAG_STATUS, &st)) {
            MPI_Recv(&rank0_status, 1, MPI_INT, 0, TAG_STATUS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            have_status = true;
        }
        status = rank0_status;
    }
    MPI_Finalize();
    active = false;
    return status;
}

long ranks_request_chunk(void)
{
    if (have_status) return -2;
    int dummy = 0;
    MPI_Send(&dummy, 1, MPI_INT, 0, TAG_REQ, MPI_COMM_WORLD);
    MPI_Status st;
    if (!wait_for(0, TAG_CHUNK, &st)) return -2;
    int64_t j;
    MPI_Recv(&j, 1, MPI_INT64_T, 0, TAG_CHUNK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return (long)j;
}

int ranks_send_result(const void *bytes, size_t len)
{
    if (len > INT32_MAX) return -1;
    send_polling(bytes, (int)len, MPI_BYTE, 0, TAG_RESULT);
    return 0;
}

void ranks_send_fail(int status, const char *message)
{
    size_t n = strlen(message);
    if (n > 4000) n = 4000;
    unsigned char buf[4 + 4001];
    memcpy(buf, &status, 4);
    memcpy(buf + 4, message, n);
    buf[4 + n] = '\0';
    send_polling(buf, (int)(n + 5), MPI_BYTE, 0, TAG_FAIL);
}

void ranks_send_end(void)
{
    int dummy = 0;
    send_polling(&dummy, 1, MPI_INT, 0, TAG_END);
}

static void answer_request(const ranks_server *s, int worker)
{
    int dummy;
    MPI_Recv(&dummy, 1, MPI_INT, worker, TAG_REQ, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int64_t j = s->dispense(s->ctx, worker);
    MPI_Send(&j, 1, MPI_INT64_T, worker, TAG_CHUNK, MPI_COMM_WORLD);
}

void ranks_serve(const ranks_server *s)
{
    if (!ranks_active()) return;
    for (;;) {
        int got;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_REQ, MPI_COMM_WORLD, &got, &st);
        if (!got) return;
        answer_request(s, st.MPI_SOURCE);
    }
}

void ranks_gather(const ranks_server *s)
{
    if (!ranks_active()) return;
    int ended = 0;
    while (ended < n_ranks - 1) {
        MPI_Status st;
        wait_for(MPI_ANY_SOURCE, MPI_ANY_TAG, &st);
        int w = st.MPI_SOURCE, len;
        MPI_Get_count(&st, MPI_BYTE, &len);
        if (st.MPI_TAG == TAG_REQ) {
            answer_request(s, w);
        } else if (st.MPI_TAG == TAG_RESULT || st.MPI_TAG == TAG_FAIL) {
            unsigned char *buf = malloc(len > 0 ? (size_t)len : 1);
            if (!buf) {
                MPI_Recv(NULL, 0, MPI_BYTE, w, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                s->fail(s->ctx, w, 1, "out of memory receiving a worker's result");
                continue;
            }
            MPI_Recv(buf, len, MPI_BYTE, w, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (st.MPI_TAG == TAG_RESULT) {
                s->result(s->ctx, w, buf, (size_t)len);
            } else {
                int status;
                memcpy(&status, buf, 4);
                buf[len - 1] = '\0';
                s->fail(s->ctx, w, status, (const char *)buf + 4);
            }
            free(buf);
        } else if (st.MPI_TAG == TAG_END) {
            int dummy;
            MPI_Recv(&dummy, 1, MPI_INT, w, TAG_END, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ended++;
        } else { /* nothing else is sent to rank 0: drop it */
            MPI_Recv(NULL, 0, MPI_BYTE, w, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
}

#else /* no MPI in this build */

int ranks_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    long n = launcher_size();
    if (n <= 1) return 0;
    fprintf(stderr, "gelucheck: started as one of %ld MPI ranks, but this gelucheck was built "
                    "without MPI (install libopenmpi-dev and reconfigure with -Dmpi=enabled); "
                    "refusing to run the same work %ld times\n", n, n);
    return -1;
}
bool ranks_active(void) { return false; }
int ranks_rank(void) { return 0; }
int ranks_size(void) { return 1; }
int ranks_finish(int status) { return status; }
long ranks_request_chunk(void) { return -1; }
int ranks_send_result(const void *bytes, size_t len)
{
    (void)bytes;
    (void)len;
    return -1;
}
void ranks_send_fail(int status, const char *message)
{
    (void)status;
    (void)message;
}
void ranks_send_end(void) {}
void ranks_serve(const ranks_server *s) { (void)s; }
void ranks_gather(const ranks_server *s) { (void)s; }

#endif
