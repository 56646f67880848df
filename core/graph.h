/*
 * The device graph object, private to core: the CSR (and, for a directed
 * graph, its transpose) in buffers of the graph's context.
 */
#ifndef PRISM_CORE_GRAPH_H
#define PRISM_CORE_GRAPH_H

#include "context.h"

/* Distinguishes a live graph from freed or foreign memory in checks. */
#define PRISM__GRAPH_MAGIC 0x67726170u /* "grap" */

struct prism_graph_s {
  unsigned magic;
  prism_context *ctx;
  size_t n, m;
  int directed;
  prism_buffer *offsets;    /* n + 1 uint64 */
  prism_buffer *cols;       /* m uint32 (at least 4 bytes when m = 0) */
  prism_buffer *in_offsets; /* directed: the transpose's; else NULL */
  prism_buffer *in_cols;
};

#endif /* PRISM_CORE_GRAPH_H */
