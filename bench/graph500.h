/* SPDX-License-Identifier: MIT */
/*
 * Graph500's counting rules for the bfs row: which vertices a search may
 * start from, and how many edges a search traverses (the E of TEPS).
 */
#ifndef PRISM_BENCH_GRAPH500_H
#define PRISM_BENCH_GRAPH500_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/* A graph as Graph500 counts it. */
typedef struct graph500_graph {
  prism_csr csr;
  /* The vertices with self loops, one entry per loop: a search's edge
   * count needs the loops in the component it reached. */
  uint32_t *loops;
  size_t loop_count;
  size_t edges; /* the whole graph's input edges */
} graph500_graph;

/* The self loops and the whole graph's edge count of g->csr; 0 when out of
 * memory. */
int graph500_count_edges(graph500_graph *g);

/* Release the loops and the CSR. */
void graph500_free(graph500_graph *g);

/* Edges of a search as Graph500 counts TEPS: the input edges in the
 * component reached, each undirected edge once, self loops and duplicate
 * edges included (Graph500 keeps both and counts every input edge). The
 * CSR lists an undirected edge u -- v in both rows and a self loop once, so
 * reached_edges (the reached vertices' out-degrees) counts the edges twice
 * and the loops once: (reached_edges + loops) / 2. A directed graph (an
 * edge list loaded without --symmetrize; not Graph500's case) counts each
 * out-edge of a reached vertex once: every one of them is looked at.
 * levels: the search's, -1 where unreached. */
size_t graph500_search_edges(const graph500_graph *g, size_t reached_edges,
                             const int32_t *levels);

/* Up to want distinct sources, drawn from seed among the vertices with
 * out-edges (Graph500 draws its search keys among the vertices with
 * edges). Returns how many, or -1 when out of memory. */
int graph500_draw_sources(const prism_csr *g, int want, uint64_t seed,
                          uint32_t *sources);

#endif /* PRISM_BENCH_GRAPH500_H */
