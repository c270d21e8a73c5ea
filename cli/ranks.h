/* MPI ranks: `mpirun -n N gelucheck accuracy|report ...` shares one scan between N processes.
 *
 * MPI is initialised only when the process was started by an MPI launcher for more than one
 * rank (Open MPI's OMPI_COMM_WORLD_SIZE, PMI's PMI_SIZE, Slurm's SLURM_NTASKS under PMIx): a
 * plain run stays a plain process, and a build without MPI (-Dmpi=disabled, or no Open MPI)
 * refuses to run as several ranks rather than run the same scan N times.
 *
 * The protocol (cli/chunked_scan.c is its one user): rank 0 scans chunks of the domain itself
 * and hands the others chunk numbers on request (REQ → CHUNK, −1 when none is left), serving
 * requests from its progress callback, which scan_run calls about 5 times a second; a worker
 * keeps each finished chunk as the bytes of a partial file (scan/partial.h) and sends them when
 * told that none is left (RESULT…, END), or sends FAIL with a status and a message. Rank 0
 * merges, writes every output alone, and finally sends every worker the run's exit status
 * (STATUS), which the worker exits with. Every wait polls with short sleeps: a blocking MPI
 * receive spins a core that the other ranks' threads need (and that the benchmark of `report`,
 * run by rank 0 alone while the workers wait, must have to itself). */
#ifndef GELUCHECK_RANKS_H
#define GELUCHECK_RANKS_H

#include <stdbool.h>
#include <stddef.h>

/* Called first in main. Returns 0, or −1 after a message (MPI launcher but no MPI in this
 * build, or MPI failed to start). */
int ranks_start(int *argc, char ***argv);
/* Whether this process is one of several ranks, and which. */
bool ranks_active(void);
int ranks_rank(void);
int ranks_size(void);
/* Ends MPI: rank 0 sends `status` to every worker; a worker waits for rank 0's status and
 * returns it (a worker's own `status` is used only when rank 0 is gone). */
int ranks_finish(int status);

/* ---- worker side */
/* Asks rank 0 for a chunk: its number, −1 when none is left, −2 when rank 0 has already ended
 * the run (its status is kept for ranks_finish). */
long ranks_request_chunk(void);
int ranks_send_result(const void *bytes, size_t len);
void ranks_send_fail(int status, const char *message);
void ranks_send_end(void);

/* ---- rank 0 side */
typedef struct {
    /* The next chunk for worker w (1..size-1), or −1 when none is left. */
    long (*dispense)(void *ctx, int worker);
    /* A worker's finished chunk (the bytes of a partial); 0, or −1 to stop handing out chunks
     * (the callback keeps the reason). */
    int (*result)(void *ctx, int worker, const unsigned char *bytes, size_t len);
    void (*fail)(void *ctx, int worker, int status, const char *message);
    void *ctx;
} ranks_server;

/* Answers every chunk request pending now; never waits. */
void ranks_serve(const ranks_server *s);
/* Serves until every worker has sent END (results and failures go to the callbacks). */
void ranks_gather(const ranks_server *s);

#endif
