/* SPDX-License-Identifier: MIT */
/*
 * bfs in prism-bench: prism_bfs on graphs instead of arrays, in TEPS as
 * Graph500 counts them. Its loop (bfs.c, the primitive table's bench_bfs)
 * builds each --graph once for every device, draws the sources, and times
 * each search alone beside the references of the same run: the naive CUDA
 * BFS (bfs_naive.h) on NVIDIA devices, a serial C queue BFS on CPU devices.
 */
#ifndef PRISM_BENCH_BFS_H
#define PRISM_BENCH_BFS_H

#include <stddef.h>

typedef enum bfs_graph_kind {
  BFS_GRAPH_RMAT = 0, /* prism_csr_rmat: scale, edge_factor */
  BFS_GRAPH_GRID = 1, /* prism_csr_grid: width, height */
  BFS_GRAPH_PATH = 2, /* prism_csr_path: n */
  BFS_GRAPH_STAR = 3, /* prism_csr_star: n */
  BFS_GRAPH_FILE = 4  /* prism_csr_load: path */
} bfs_graph_kind;

/* One --graph entry. */
typedef struct bfs_graph_spec {
  bfs_graph_kind kind;
  unsigned scale, edge_factor;
  size_t width, height;
  size_t n;
  const char *path; /* points into the entry parsed */
} bfs_graph_spec;

/* Parse a --graph entry: rmat:SCALE[:EDGEFACTOR] (SCALE 1 to 31, edge
 * factor 16 when not given), grid:W[xH] (H = W when not given), path:N,
 * star:N (sizes as 1000000 or 2^20), or else a file path. Returns 1, or 0
 * with what is wrong in msg. */
int bfs_graph_parse(const char *entry, bfs_graph_spec *spec, char *msg,
                    size_t msg_size);

#endif /* PRISM_BENCH_BFS_H */
