/* SPDX-License-Identifier: MIT */
/*
 * The device graph object, private to core: the CSR (and, for a directed
 * graph, its transpose) in buffers of the graph's context.
 */
#ifndef PRISM_CORE_GRAPH_H
#define PRISM_CORE_GRAPH_H

#include "context.h"

struct prism_graph_s {
  prism_context *ctx;
  prism_graph *prev, *next; /* the context's live graphs */
  size_t n, m;
  int directed;
  prism_buffer *offsets;    /* n + 1 uint64 */
  prism_buffer *cols;       /* m uint32 (at least 4 bytes when m = 0) */
  prism_buffer *in_offsets; /* directed: the transpose's; else NULL */
  prism_buffer *in_cols;
};

#endif /* PRISM_CORE_GRAPH_H */
