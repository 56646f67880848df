/* SPDX-License-Identifier: MIT */
/*
 * BFS: a plain queue BFS over a host CSR (the reference, and the serial C
 * search prism-bench times) and Graph500-style checks of a (levels,
 * parents) pair and of what prism_bfs reports.
 */
#ifndef PRISM_REFERENCE_BFS_H
#define PRISM_REFERENCE_BFS_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/**
 * Breadth-first search from source over out-edges (an undirected CSR
 * lists each edge both ways): levels[v] = distance from source in edges,
 * -1 where unreached (levels holds num_vertices entries). r, when not
 * NULL, gets what prism_bfs reports: levels = 1 + the largest level,
 * reached = vertices reached (the source included), reached_edges = the
 * sum of the reached vertices' out-degrees. A source >= num_vertices
 * reaches nothing (all -1, r zeroed).
 */
void ref_bfs(const prism_csr *g, size_t source, int32_t *levels,
             prism_bfs_result *r);

/**
 * The search itself, with no allocation (what prism-bench times, levels
 * set up included, as prism's searches include theirs): source must be a
 * vertex; queue holds num_vertices entries. Returns the vertices reached,
 * which are queue[0 .. reached) in visiting order.
 */
size_t ref_bfs_queue(const prism_csr *g, uint32_t source, int32_t *levels,
                     uint32_t *queue);

/** What prism_bfs reports, from a search by ref_bfs_queue. */
prism_bfs_result ref_bfs_queue_result(const prism_csr *g, const int32_t *levels,
                                      const uint32_t *queue, size_t reached);

/** 1 when got equals want's n levels, else 0 with the first difference
 * (lowest vertex) in msg. */
int ref_bfs_check_levels(const int32_t *want, const int32_t *got, size_t n,
                         char *msg, size_t msg_size);

/**
 * Graph500's check of a BFS tree, given right levels (the serial BFS's):
 * parents[source] = source; every unreached vertex has parent -1; every
 * other reached v has a parent p in range with levels[p] = levels[v] - 1
 * and an edge p -> v in g. 1, or 0 with the first problem (lowest vertex)
 * in msg. found: num_vertices bytes of scratch, or NULL to allocate them.
 * Any parents are safe: nothing is indexed before it is range-checked.
 * O(num_vertices + num_edges): the edges are found by one pass over the
 * reached rows, so a hub that parents most of the graph costs its degree
 * once.
 */
int ref_bfs_check_parents(const prism_csr *g, size_t source,
                          const int32_t *levels, const int32_t *parents,
                          unsigned char *found, char *msg, size_t msg_size);

/** 1 when got has want's levels, reached and reached_edges, else 0 with
 * the first difference in msg. */
int ref_bfs_compare_result(const prism_bfs_result *want,
                           const prism_bfs_result *got, char *msg,
                           size_t msg_size);

/**
 * Graph500-style validation of a BFS from source. Returns 1 when levels
 * equals the serial BFS exactly (-1 where unreached) and, when parents is
 * not NULL, ref_bfs_check_parents passes. Otherwise returns 0 and writes
 * the first problem (lowest vertex) to msg (msg_size bytes, may be 0). Any
 * values are safe. O(num_vertices + num_edges).
 */
int ref_bfs_validate(const prism_csr *g, size_t source, const int32_t *levels,
                     const int32_t *parents, char *msg, size_t msg_size);

/** 1 when result has the serial BFS's levels, reached and reached_edges,
 * else 0 with the first difference in msg. */
int ref_bfs_check_result(const prism_csr *g, size_t source,
                         const prism_bfs_result *result, char *msg,
                         size_t msg_size);

#endif /* PRISM_REFERENCE_BFS_H */
