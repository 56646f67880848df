/* SPDX-License-Identifier: MIT */
/* Serial BFS, its Graph500-style validator, and the named test graphs. */
#include "ref_bfs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ref_bfs(const prism_csr *g, size_t source, int32_t *levels,
             prism_bfs_result *r) {
  size_t n = g->num_vertices;
  for (size_t v = 0; v < n; v++)
    levels[v] = -1;
  if (r)
    memset(r, 0, sizeof *r);
  if (source >= n)
    return;
  uint32_t *queue = malloc(n * sizeof *queue);
  if (!queue)
    abort();
  size_t head = 0, tail = 0, edges = 0;
  int32_t deepest = 0;
  queue[tail++] = (uint32_t)source;
  levels[source] = 0;
  while (head < tail) {
    uint32_t u = queue[head++];
    uint64_t begin = g->row_offsets[u], end = g->row_offsets[u + 1];
    edges += (size_t)(end - begin);
    deepest = levels[u];
    for (uint64_t e = begin; e < end; e++) {
      uint32_t v = g->col_indices[e];
      if (levels[v] < 0) {
        levels[v] = levels[u] + 1;
        queue[tail++] = v;
      }
    }
  }
  free(queue);
  if (r) {
    r->levels = (size_t)deepest + 1;
    r->reached = tail;
    r->reached_edges = edges;
  }
}

static int say(char *msg, size_t size, const char *fmt, ...) {
  if (size > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, size, fmt, ap);
    va_end(ap);
  }
  return 0;
}

/* found[v] = 1 when parents[v] = u for some edge u -> v of a reached u. */
static unsigned char *parent_edges(const prism_csr *g, const int32_t *ref,
                                   const int32_t *parents) {
  unsigned char *found = calloc(g->num_vertices + 1, 1);
  if (!found)
    abort();
  for (size_t u = 0; u < g->num_vertices; u++) {
    if (ref[u] < 0)
      continue;
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col_indices[e];
      if (parents[v] >= 0 && (size_t)parents[v] == u)
        found[v] = 1;
    }
  }
  return found;
}

static int check_parent(const prism_csr *g, size_t source, size_t v,
                        const int32_t *ref, const int32_t *parents,
                        const unsigned char *found, char *msg, size_t size) {
  size_t n = g->num_vertices;
  int32_t p = parents[v];
  if (v == source)
    return (size_t)p == source && p >= 0
               ? 1
               : say(msg, size,
                     "parents[%zu] = %d; the source's parent is "
                     "itself",
                     v, p);
  if (ref[v] < 0)
    return p == -1 ? 1
                   : say(msg, size,
                         "parents[%zu] = %d for an unreached vertex; "
                         "expected -1",
                         v, p);
  if (p < 0 || (size_t)p >= n)
    return say(msg, size,
               "parents[%zu] = %d is not a vertex (vertex %zu is at level "
               "%d)",
               v, p, v, ref[v]);
  if (ref[p] != ref[v] - 1)
    return say(msg, size,
               "parents[%zu] = %d is at level %d; expected level %d (one "
               "above vertex %zu)",
               v, p, ref[p], ref[v] - 1, v);
  if (!found[v])
    return say(msg, size,
               "parents[%zu] = %d but the graph has no edge %d -> "
               "%zu",
               v, p, p, v);
  return 1;
}

int ref_bfs_validate(const prism_csr *g, size_t source, const int32_t *levels,
                     const int32_t *parents, char *msg, size_t msg_size) {
  size_t n = g->num_vertices;
  if (source >= n)
    return say(msg, msg_size, "source %zu is not a vertex (%zu vertices)",
               source, n);
  int32_t *ref = malloc((n ? n : 1) * sizeof *ref);
  if (!ref)
    abort();
  ref_bfs(g, source, ref, NULL);
  int ok = 1;
  for (size_t v = 0; v < n && ok; v++)
    if (levels[v] != ref[v])
      ok = say(msg, msg_size, "levels[%zu] = %d; the serial BFS gives %d", v,
               levels[v], ref[v]);
  if (ok && parents) {
    unsigned char *found = parent_edges(g, ref, parents);
    for (size_t v = 0; v < n && ok; v++)
      ok = check_parent(g, source, v, ref, parents, found, msg, msg_size);
    free(found);
  }
  free(ref);
  return ok;
}

int ref_bfs_check_result(const prism_csr *g, size_t source,
                         const prism_bfs_result *result, char *msg,
                         size_t msg_size) {
  int32_t *levels =
      malloc((g->num_vertices ? g->num_vertices : 1) * sizeof *levels);
  if (!levels)
    abort();
  prism_bfs_result want;
  ref_bfs(g, source, levels, &want);
  free(levels);
  if (result->levels != want.levels)
    return say(msg, msg_size, "result.levels = %zu; the serial BFS gives %zu",
               result->levels, want.levels);
  if (result->reached != want.reached)
    return say(msg, msg_size, "result.reached = %zu; the serial BFS gives %zu",
               result->reached, want.reached);
  if (result->reached_edges != want.reached_edges)
    return say(msg, msg_size,
               "result.reached_edges = %zu; the serial BFS gives %zu",
               result->reached_edges, want.reached_edges);
  return 1;
}

/* ---- Test graphs --------------------------------------------------------- */

typedef struct edge {
  uint32_t u, v;
} edge;

/* A CSR from an edge list (each undirected edge also reversed, a self loop
 * once), rows in list order; arrays malloc'd for prism_csr_free. */
static int from_edges(size_t n, int directed, const edge *edges, size_t count,
                      prism_csr *out) {
  size_t m = 0;
  for (size_t i = 0; i < count; i++)
    m += directed || edges[i].u == edges[i].v ? 1 : 2;
  out->num_vertices = n;
  out->num_edges = m;
  out->directed = directed;
  out->row_offsets = calloc(n + 1, sizeof *out->row_offsets);
  out->col_indices = malloc((m ? m : 1) * sizeof *out->col_indices);
  if (!out->row_offsets || !out->col_indices)
    abort();
  for (size_t i = 0; i < count; i++) {
    out->row_offsets[edges[i].u + 1]++;
    if (!directed && edges[i].u != edges[i].v)
      out->row_offsets[edges[i].v + 1]++;
  }
  for (size_t v = 0; v < n; v++)
    out->row_offsets[v + 1] += out->row_offsets[v];
  uint64_t *fill = malloc((n ? n : 1) * sizeof *fill);
  if (!fill)
    abort();
  memcpy(fill, out->row_offsets, n * sizeof *fill);
  for (size_t i = 0; i < count; i++) {
    out->col_indices[fill[edges[i].u]++] = edges[i].v;
    if (!directed && edges[i].u != edges[i].v)
      out->col_indices[fill[edges[i].v]++] = edges[i].u;
  }
  free(fill);
  return 1;
}

#define EDGES(list) list, sizeof list / sizeof list[0]

static int case_source_without_edges(prism_csr *out) {
  static const edge e[] = {{1, 2}, {2, 3}, {3, 4}, {4, 5}};
  return from_edges(6, 0, EDGES(e), out);
}

static int case_self_loops(prism_csr *out) {
  static const edge e[] = {{0, 0}, {0, 1}, {1, 1}, {1, 2},
                           {2, 2}, {3, 3}, {2, 4}, {4, 4}};
  return from_edges(5, 0, EDGES(e), out);
}

static int case_duplicate_edges(prism_csr *out) {
  static const edge e[] = {{0, 1}, {0, 1}, {1, 0}, {1, 2}, {1, 2},
                           {0, 2}, {2, 3}, {3, 2}, {3, 3}, {3, 3}};
  return from_edges(4, 0, EDGES(e), out);
}

/* 0..9 a cycle with a chord, 10..29 a dense block, 30..34 a path, 35..39
 * isolated. */
static int case_disconnected(prism_csr *out) {
  edge e[10 + 20 * 19 / 2 + 4 + 1];
  size_t k = 0;
  for (uint32_t i = 0; i < 10; i++)
    e[k++] = (edge){i, (i + 1) % 10};
  for (uint32_t i = 10; i < 30; i++)
    for (uint32_t j = i + 1; j < 30; j++)
      e[k++] = (edge){j, i};
  for (uint32_t i = 30; i < 34; i++)
    e[k++] = (edge){i, i + 1};
  e[k++] = (edge){2, 7};
  return from_edges(40, 0, e, k, out);
}

/* From 0: 0 -> 1 -> 2 -> 0 cycle, 2 -> 3 -> 5 -> 7 -> 3; 4 -> 0 and
 * 6 -> 5 point in, so 4 and 6 are not reached. */
static int case_directed(prism_csr *out) {
  static const edge e[] = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {4, 0},
                           {3, 5}, {6, 5}, {5, 7}, {7, 3}, {7, 7}};
  return from_edges(8, 1, EDGES(e), out);
}

/* Keep directed edge u -> v of an undirected RMAT graph when a hash of
 * (u, v) is odd: u -> v and v -> u are kept independently. */
static int case_directed_rmat(prism_csr *out) {
  prism_csr g;
  if (prism_csr_rmat(11, 8, 7, &g) != PRISM_OK)
    return 0;
  size_t m = 0;
  for (size_t u = 0; u < g.num_vertices; u++) {
    uint64_t begin = g.row_offsets[u], end = g.row_offsets[u + 1];
    g.row_offsets[u] = m;
    for (uint64_t e = begin; e < end; e++) {
      uint32_t v = g.col_indices[e];
      uint64_t h = ((uint64_t)u * 0x9E3779B97F4A7C15ull) ^ (v * 0xBF58476Du);
      if ((h >> 29) & 1)
        g.col_indices[m++] = v;
    }
  }
  g.row_offsets[g.num_vertices] = m;
  g.num_edges = m;
  g.directed = 1;
  *out = g;
  return 1;
}

int ref_graph_case(int i, prism_csr *out, const char **name) {
  static const char *const names[REF_GRAPH_CASES] = {
      "one_vertex",   "source_without_edges",
      "self_loops",   "duplicate_edges",
      "disconnected", "star",
      "long_path",    "grid",
      "rmat",         "directed",
      "directed_rmat"};
  memset(out, 0, sizeof *out);
  if (name)
    *name = i >= 0 && i < REF_GRAPH_CASES ? names[i] : NULL;
  int ok;
  switch (i) {
  case 0:
    ok = from_edges(1, 0, NULL, 0, out);
    break;
  case 1:
    ok = case_source_without_edges(out);
    break;
  case 2:
    ok = case_self_loops(out);
    break;
  case 3:
    ok = case_duplicate_edges(out);
    break;
  case 4:
    ok = case_disconnected(out);
    break;
  case 5:
    ok = prism_csr_star(3000, out) == PRISM_OK;
    break;
  case 6:
    ok = prism_csr_path(2500, out) == PRISM_OK;
    break;
  case 7:
    ok = prism_csr_grid(61, 37, out) == PRISM_OK;
    break;
  case 8:
    ok = prism_csr_rmat(10, 16, 1, out) == PRISM_OK;
    break;
  case 9:
    ok = case_directed(out);
    break;
  case 10:
    ok = case_directed_rmat(out);
    break;
  default:
    ok = 0;
  }
  if (!ok)
    memset(out, 0, sizeof *out);
  return ok;
}
