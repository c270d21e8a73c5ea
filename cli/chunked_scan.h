/* A scan run as chunks, for `--checkpoint DIR` and for MPI ranks (ranks.h).
 *
 * The run's part (shard k of n; the whole domain is shard 0 of 1) is cut into C chunks, chunk j
 * being shard k·C + j of n·C: since ⌊B·(k·C + j)/(n·C)⌋ is ⌊B·k/n⌋ at j = 0, the chunks tile the
 * part exactly, and the merged chunks are the part's result bit for bit (the scan's results do
 * not depend on the shard split; scan/partial.h carries a chunk between processes and runs).
 * C = min(CHUNKS_MAX, blocks of the part), fixed by the domain alone so that a rerun finds the
 * same chunks.
 *
 * With a checkpoint directory every finished chunk is written there as a partial file
 * (chunk-J-of-C.partial, atomically), beside checkpoint.id, which names the command, the
 * gelucheck build, every option that changes the result and the code of every row scanned
 * (plugins/code_id.h: a plugin file's SHA-256, an exec child's command and handshake, this
 * executable's build id), so a kernel swapped under the same name is refused by name; a rerun with the same command and
 * directory reads the chunks present and scans only the others. A directory holding another
 * run's id, a chunk file that fails its checks, or a non-empty directory without an id is
 * refused (exit 2) with the file and the reason. */
#ifndef GELUCHECK_CHUNKED_SCAN_H
#define GELUCHECK_CHUNKED_SCAN_H

#include "scan.h"

enum { CHUNKS_MAX = 256 };
/* chunked_scan's status on an MPI worker rank whose share is done: print and write nothing. */
enum { EXIT_RANK_WORKER = -1 };

/* Runs cfg's scan into *r (chunked when `checkpoint` is set or MPI ranks are active; plain
 * scan_run otherwise). cfg->progress, when set, sees the blocks still to scan. Returns EXIT_OK,
 * EXIT_RANK_WORKER, or an exit status after a message on stderr. */
int chunked_scan(const char *cmd, const scan_config *cfg, const char *checkpoint, scan_result *r);

#endif
