/* SPDX-License-Identifier: MIT */
/* Graph500's counting rules (graph500.h). */
#include "graph500.h"

#include "input.h"

#include <stdlib.h>

/* The sources' stream, apart from the RMAT generator's of the same seed. */
#define SOURCE_SALT 0xB5F0C3AE1D2C4B97ull

int graph500_count_edges(graph500_graph *g) {
  const prism_csr *c = &g->csr;
  size_t count = 0;
  for (size_t u = 0; u < c->num_vertices; u++) {
    for (uint64_t e = c->row_offsets[u]; e < c->row_offsets[u + 1]; e++)
      count += c->col_indices[e] == u;
  }
  g->loops = malloc(count ? count * sizeof *g->loops : 1);
  if (!g->loops)
    return 0;
  for (size_t u = 0; u < c->num_vertices; u++) {
    for (uint64_t e = c->row_offsets[u]; e < c->row_offsets[u + 1]; e++) {
      if (c->col_indices[e] == u)
        g->loops[g->loop_count++] = (uint32_t)u;
    }
  }
  g->edges = c->directed ? c->num_edges : (c->num_edges + count) / 2;
  return 1;
}

void graph500_free(graph500_graph *g) {
  free(g->loops);
  g->loops = NULL;
  g->loop_count = 0;
  prism_csr_free(&g->csr);
}

size_t graph500_search_edges(const graph500_graph *g, size_t reached_edges,
                             const int32_t *levels) {
  if (g->csr.directed)
    return reached_edges;
  size_t loops = 0;
  for (size_t i = 0; i < g->loop_count; i++)
    loops += levels[g->loops[i]] >= 0;
  return (reached_edges + loops) / 2;
}

int graph500_draw_sources(const prism_csr *g, int want, uint64_t seed,
                          uint32_t *sources) {
  uint32_t *candidates = malloc(g->num_vertices * sizeof *candidates);
  size_t count = 0;
  if (!candidates)
    return -1;
  for (size_t v = 0; v < g->num_vertices; v++) {
    if (g->row_offsets[v + 1] > g->row_offsets[v])
      candidates[count++] = (uint32_t)v;
  }
  int k = (size_t)want < count ? want : (int)count;
  uint64_t state = seed ^ SOURCE_SALT;
  for (int i = 0; i < k; i++) { /* a partial Fisher-Yates shuffle */
    size_t j = (size_t)i + (size_t)(input_random(&state) % (count - (size_t)i));
    uint32_t t = candidates[i];
    candidates[i] = candidates[j];
    candidates[j] = t;
    sources[i] = candidates[i];
  }
  free(candidates);
  return k;
}
