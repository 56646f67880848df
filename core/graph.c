/* SPDX-License-Identifier: MIT */
/*
 * Device graphs: a host CSR is validated (prism_csr_validate's rules) and
 * copied into buffers of the context. A directed graph also gets its
 * transpose, built here on the host by a counting sort of the edges by
 * destination: bottom-up BFS steps walk in-edges.
 */
#include "check.h"
#include "graph/csr.h"
#include "error.h"
#include "graph.h"
#include "handles.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char create_fn[] = "prism_graph_create";

/* The transpose of csr: in-edges by destination, each row listing its
 * sources in ascending order (the sources are visited in order). 0, or -1
 * when host memory runs out. */
static int transpose(const prism_csr *csr, uint64_t **out_offsets,
                     uint32_t **out_cols) {
  const size_t n = csr->num_vertices, m = csr->num_edges;
  uint64_t *offsets = calloc(n + 1, sizeof *offsets);
  uint32_t *cols = malloc(m ? m * sizeof *cols : sizeof *cols);
  if (!offsets || !cols) {
    free(offsets);
    free(cols);
    return -1;
  }
  for (size_t e = 0; e < m; e++)
    offsets[csr->col_indices[e] + 1]++;
  for (size_t v = 0; v < n; v++)
    offsets[v + 1] += offsets[v];
  /* offsets[v] serves as row v's cursor, then is shifted back. */
  for (size_t u = 0; u < n; u++)
    for (uint64_t e = csr->row_offsets[u]; e < csr->row_offsets[u + 1]; e++)
      cols[offsets[csr->col_indices[e]]++] = (uint32_t)u;
  memmove(offsets + 1, offsets, n * sizeof *offsets);
  offsets[0] = 0;
  *out_offsets = offsets;
  *out_cols = cols;
  return 0;
}

/* A buffer of ctx holding bytes from host (at least 4 bytes, so an empty
 * array still has a handle). */
static prism_status upload(prism_context *ctx, const void *host, size_t bytes,
                           prism_buffer **out) {
  prism_status st = prism_buffer_create(ctx, bytes ? bytes : 4, out);
  if (st == PRISM_OK && bytes)
    st = prism_buffer_write(*out, 0, host, bytes);
  return st;
}

/* prism_csr_validate's rules (the message names the first bad position),
 * and at least one vertex. */
static prism_status check_csr(prism_context *ctx, const prism_csr *csr) {
  prism_status st = prism__csr_check(ctx, csr, create_fn);
  if (st != PRISM_OK)
    return st;
  if (csr->num_vertices == 0)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: csr->num_vertices is 0; a graph needs at least "
                       "one vertex",
                       create_fn);
  if (csr->num_edges > SIZE_MAX / sizeof(uint32_t))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: csr->num_edges = %zu overflows the address space",
                       create_fn, csr->num_edges);
  return PRISM_OK;
}

static prism_status upload_graph(prism_context *ctx, const prism_csr *csr,
                                 prism_graph *g) {
  const size_t n = csr->num_vertices, m = csr->num_edges;
  prism_status st =
      upload(ctx, csr->row_offsets, (n + 1) * sizeof(uint64_t), &g->offsets);
  if (st == PRISM_OK)
    st = upload(ctx, csr->col_indices, m * sizeof(uint32_t), &g->cols);
  if (st != PRISM_OK || !csr->directed)
    return st;
  uint64_t *in_offsets = NULL;
  uint32_t *in_cols = NULL;
  if (transpose(csr, &in_offsets, &in_cols) != 0)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY,
                       "%s: out of host memory for the transpose of a "
                       "directed graph (%zu vertices, %zu edges)",
                       create_fn, n, m);
  st = upload(ctx, in_offsets, (n + 1) * sizeof(uint64_t), &g->in_offsets);
  if (st == PRISM_OK)
    st = upload(ctx, in_cols, m * sizeof(uint32_t), &g->in_cols);
  free(in_offsets);
  free(in_cols);
  return st;
}

static void link_graph(prism_context *ctx, prism_graph *g) {
  g->next = ctx->graphs;
  if (ctx->graphs)
    ctx->graphs->prev = g;
  ctx->graphs = g;
}

static void unlink_graph(prism_graph *g) {
  if (g->prev)
    g->prev->next = g->next;
  else
    g->ctx->graphs = g->next;
  if (g->next)
    g->next->prev = g->prev;
}

/* The graph's buffers and the graph (its context entered). */
static void release(prism_graph *g) {
  prism_buffer_destroy(g->offsets);
  prism_buffer_destroy(g->cols);
  prism_buffer_destroy(g->in_offsets);
  prism_buffer_destroy(g->in_cols);
  free(g);
}

static prism_status create(prism_context *ctx, const prism_csr *csr,
                           prism_graph **out) {
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: out is NULL", create_fn);
  *out = NULL;
  prism_status st = check_csr(ctx, csr);
  if (st != PRISM_OK)
    return st;
  prism_graph *g = calloc(1, sizeof *g);
  if (!g)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "%s: out of host memory",
                       create_fn);
  g->ctx = ctx;
  g->n = csr->num_vertices;
  g->m = csr->num_edges;
  g->directed = csr->directed != 0;
  if ((st = upload_graph(ctx, csr, g)) != PRISM_OK ||
      (st = prism__handle_add(ctx, g, PRISM__HANDLE_GRAPH, create_fn)) !=
          PRISM_OK) {
    release(g);
    return st;
  }
  link_graph(ctx, g);
  *out = g;
  return PRISM_OK;
}

prism_status prism_graph_create(prism_context *ctx, const prism_csr *csr,
                                prism_graph **out) {
  PRISM__ENTER(ctx, create_fn);
  return prism__leave(ctx, create(ctx, csr, out));
}

void prism_graph_destroy(prism_graph *graph) {
  prism_context *ctx = prism__enter_destroy(graph, PRISM__HANDLE_GRAPH);
  if (!ctx)
    return;
  unlink_graph(graph);
  release(graph);
  prism__leave(ctx, PRISM_OK);
}

void prism__graphs_release_all(prism_context *ctx) {
  while (ctx->graphs) {
    prism_graph *g = ctx->graphs;
    ctx->graphs = g->next;
    prism__handle_remove(g);
    release(g);
  }
}

/* A field of a live graph, read while the registry holds it. */
static size_t graph_size(const prism_graph *graph, int edges) {
  prism__handle_lock();
  size_t v = 0;
  if (prism__handle_live_locked(graph, PRISM__HANDLE_GRAPH))
    v = edges ? graph->m : graph->n;
  prism__handle_unlock();
  return v;
}

size_t prism_graph_vertices(const prism_graph *graph) {
  return graph_size(graph, 0);
}

size_t prism_graph_edges(const prism_graph *graph) {
  return graph_size(graph, 1);
}
