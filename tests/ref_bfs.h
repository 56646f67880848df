/* SPDX-License-Identifier: MIT */
/*
 * Serial reference for BFS: a plain queue BFS over a host CSR, a
 * Graph500-style validator of a (levels, parents) pair, and the named
 * small graphs the BFS tests run on.
 */
#ifndef PRISM_TESTS_REF_BFS_H
#define PRISM_TESTS_REF_BFS_H

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
 * Graph500-style validation of a BFS from source. Returns 1 when:
 * - levels equals the serial BFS exactly (-1 where unreached), and, when
 *   parents is not NULL,
 * - parents[source] = source; every unreached vertex has parent -1; every
 *   other reached v has a parent p in range with levels[p] =
 *   levels[v] - 1 and an edge p -> v in g.
 * Otherwise returns 0 and writes the first problem (lowest vertex) to msg
 * (msg_size bytes, may be 0). Any values are safe: nothing is indexed
 * before it is range-checked. O(num_vertices + num_edges).
 */
int ref_bfs_validate(const prism_csr *g, size_t source, const int32_t *levels,
                     const int32_t *parents, char *msg, size_t msg_size);

/** 1 when result has the serial BFS's levels, reached and reached_edges,
 * else 0 with the first difference in msg. */
int ref_bfs_check_result(const prism_csr *g, size_t source,
                         const prism_bfs_result *result, char *msg,
                         size_t msg_size);

/** How many graphs ref_graph_case builds. */
#define REF_GRAPH_CASES 11

/**
 * Build test graph i (0 <= i < REF_GRAPH_CASES) into *out (release with
 * prism_csr_free) and name it in *name (may be NULL). Every case is meant
 * to be searched from vertex 0, and may be from any other:
 *   one_vertex, source_without_edges (vertex 0 isolated, the rest a path),
 *   self_loops, duplicate_edges, disconnected (three components and
 *   isolated vertices), star (3000 vertices, hub 0), long_path (2500
 *   vertices), grid (61 x 37), rmat (scale 10, edge factor 16),
 *   directed (a small directed graph: from 0, vertices 4 and 6 are
 *   unreachable though the undirected graph would reach them), and
 *   directed_rmat (scale 11, each directed edge of an RMAT graph kept or
 *   dropped by a hash: reachability differs from the undirected graph).
 * Returns 1, or 0 with *out zeroed when i is out of range (so
 * `for (i = 0; ref_graph_case(i, &g, &name); i++)` visits all) or a
 * generator failed.
 */
int ref_graph_case(int i, prism_csr *out, const char **name);

#endif
