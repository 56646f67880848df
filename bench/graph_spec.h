/* SPDX-License-Identifier: MIT */
/*
 * The bfs row's --graph entries: an RMAT, grid, path or star graph that
 * prism's generators build, or a graph file that prism_csr_load reads.
 */
#ifndef PRISM_BENCH_GRAPH_SPEC_H
#define PRISM_BENCH_GRAPH_SPEC_H

#include "prism.h"

#include <stddef.h>

struct bench_options; /* options.h */

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

/* The len characters at s as a count from 1 to max, written 1000000 or
 * 2^20 (the sizes of --graph entries; matrix_spec.c reads its own with
 * it). Returns 1, or 0 when they are not such a count. */
int graph_spec_parse_count(const char *s, size_t len, unsigned long long max,
                           unsigned long long *out);

/* The rows' name of the graph: the entry with its defaults spelt out. */
void bfs_graph_name(const bfs_graph_spec *spec, char *buf, size_t size);

/* Generate the graph (RMAT from opt's seed), or load the file (through a
 * decompressed copy if it is gzip'd; symmetrized with opt's
 * --symmetrize); msg gets the reason for a failure. */
prism_status bfs_graph_build(const bfs_graph_spec *spec,
                             const struct bench_options *opt, prism_csr *csr,
                             char *msg, size_t msg_size);

#endif /* PRISM_BENCH_GRAPH_SPEC_H */
