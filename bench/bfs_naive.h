/* SPDX-License-Identifier: MIT */
/*
 * The naive top-down BFS on CUDA: the baseline prism's BFS is measured
 * against on NVIDIA devices. It is the textbook GPU BFS, written as a
 * first GPU port would be: one thread per frontier vertex walks its
 * neighbours, atomicCAS on a neighbour's level claims it, atomicAdd on the
 * next queue's size gives it a slot; one kernel launch per level, and one
 * host round trip per level (cudaMemcpy of the next queue's size) to learn
 * whether to go on. The CSR is uploaded once; a search includes what it
 * needs to start (levels set to -1, the source queued). Built only with
 * CUDA (PRISM_BENCH_HAVE_CUDA).
 */
#ifndef PRISM_BENCH_BFS_NAIVE_H
#define PRISM_BENCH_BFS_NAIVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bfs_naive bfs_naive;

typedef enum bfs_naive_status {
  BFS_NAIVE_OK = 0,
  BFS_NAIVE_SKIPPED = 1, /* no device, does not fit: msg says why */
  BFS_NAIVE_FAILED = 2   /* a CUDA call failed: msg says which */
} bfs_naive_status;

/* Upload a CSR of num_vertices (< 2^32) vertices to CUDA device `device`,
 * with room for the levels and two frontier queues; *name gets the
 * device's name. */
bfs_naive_status bfs_naive_create(int device, size_t num_vertices,
                                  const uint64_t *row_offsets, size_t num_edges,
                                  const uint32_t *col_indices, bfs_naive **out,
                                  char *name, size_t name_size, char *msg,
                                  size_t msg_size);

/* One search from source, start to end: it returns when the search is
 * done (its last step is the host's read of an empty queue size). */
bfs_naive_status bfs_naive_run(bfs_naive *b, uint32_t source, char *msg,
                               size_t msg_size);

/* The last search's levels (num_vertices int32, -1 where unreached). */
bfs_naive_status bfs_naive_levels(bfs_naive *b, int32_t *levels, char *msg,
                                  size_t msg_size);

/* Release the device memory. Accepts NULL. */
void bfs_naive_destroy(bfs_naive *b);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_BENCH_BFS_NAIVE_H */
