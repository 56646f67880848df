/* SPDX-License-Identifier: MIT */
/* The serial BFS and its Graph500-style checks (see ref_bfs.h). */
#include "ref_bfs.h"

#include "ref_internal.h"

#include <stdlib.h>
#include <string.h>

size_t ref_bfs_queue(const prism_csr *g, uint32_t source, int32_t *levels,
                     uint32_t *queue) {
  const uint64_t *rows = g->row_offsets;
  const uint32_t *cols = g->col_indices;
  for (size_t v = 0; v < g->num_vertices; v++)
    levels[v] = -1;
  levels[source] = 0;
  queue[0] = source;
  size_t head = 0, tail = 1;
  while (head < tail) {
    uint32_t u = queue[head++];
    int32_t next = levels[u] + 1;
    for (uint64_t e = rows[u], end = rows[u + 1]; e < end; e++) {
      uint32_t v = cols[e];
      if (levels[v] < 0) {
        levels[v] = next;
        queue[tail++] = v;
      }
    }
  }
  return tail;
}

prism_bfs_result ref_bfs_queue_result(const prism_csr *g, const int32_t *levels,
                                      const uint32_t *queue, size_t reached) {
  prism_bfs_result r;
  memset(&r, 0, sizeof r);
  if (reached == 0)
    return r;
  r.reached = reached;
  r.levels = (size_t)levels[queue[reached - 1]] + 1;
  for (size_t i = 0; i < reached; i++)
    r.reached_edges += g->row_offsets[queue[i] + 1] - g->row_offsets[queue[i]];
  return r;
}

void ref_bfs(const prism_csr *g, size_t source, int32_t *levels,
             prism_bfs_result *r) {
  size_t n = g->num_vertices;
  if (source >= n) {
    for (size_t v = 0; v < n; v++)
      levels[v] = -1;
    if (r)
      memset(r, 0, sizeof *r);
    return;
  }
  uint32_t *queue = malloc(n * sizeof *queue);
  if (!queue)
    abort();
  size_t reached = ref_bfs_queue(g, (uint32_t)source, levels, queue);
  if (r)
    *r = ref_bfs_queue_result(g, levels, queue, reached);
  free(queue);
}

/* ---- Checks -------------------------------------------------------------- */

int ref_bfs_check_levels(const int32_t *want, const int32_t *got, size_t n,
                         char *msg, size_t msg_size) {
  if (memcmp(want, got, n * sizeof *want) == 0)
    return 1;
  size_t v = 0;
  while (want[v] == got[v])
    v++;
  return ref__say(msg, msg_size, "levels[%zu] = %d; the serial BFS gives %d", v,
                  (int)got[v], (int)want[v]);
}

/* found[v] = 1 when parents[v] = u for some edge u -> v of a reached u. */
static void parent_edges(const prism_csr *g, const int32_t *levels,
                         const int32_t *parents, unsigned char *found) {
  memset(found, 0, g->num_vertices);
  for (size_t u = 0; u < g->num_vertices; u++) {
    if (levels[u] < 0)
      continue;
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col_indices[e];
      if (parents[v] >= 0 && (size_t)parents[v] == u)
        found[v] = 1;
    }
  }
}

static int check_parent(const prism_csr *g, size_t source, size_t v,
                        const int32_t *levels, const int32_t *parents,
                        const unsigned char *found, char *msg, size_t size) {
  size_t n = g->num_vertices;
  int32_t p = parents[v];
  if (v == source)
    return (size_t)p == source && p >= 0
               ? 1
               : ref__say(msg, size,
                          "parents[%zu] = %d; the source's parent is itself", v,
                          p);
  if (levels[v] < 0)
    return p == -1 ? 1
                   : ref__say(msg, size,
                              "parents[%zu] = %d for an unreached vertex; "
                              "expected -1",
                              v, p);
  if (p < 0 || (size_t)p >= n)
    return ref__say(msg, size,
                    "parents[%zu] = %d is not a vertex (vertex %zu is at "
                    "level %d)",
                    v, p, v, levels[v]);
  if (levels[p] != levels[v] - 1)
    return ref__say(msg, size,
                    "parents[%zu] = %d is at level %d; expected level %d (one "
                    "above vertex %zu)",
                    v, p, levels[p], levels[v] - 1, v);
  if (!found[v])
    return ref__say(msg, size,
                    "parents[%zu] = %d but the graph has no edge %d -> %zu", v,
                    p, p, v);
  return 1;
}

int ref_bfs_check_parents(const prism_csr *g, size_t source,
                          const int32_t *levels, const int32_t *parents,
                          unsigned char *found, char *msg, size_t msg_size) {
  size_t n = g->num_vertices;
  unsigned char *own = found ? NULL : malloc(n ? n : 1);
  if (!found && !own)
    abort();
  if (own)
    found = own;
  parent_edges(g, levels, parents, found);
  int ok = 1;
  for (size_t v = 0; v < n && ok; v++)
    ok = check_parent(g, source, v, levels, parents, found, msg, msg_size);
  free(own);
  return ok;
}

int ref_bfs_compare_result(const prism_bfs_result *want,
                           const prism_bfs_result *got, char *msg,
                           size_t msg_size) {
  if (got->levels != want->levels)
    return ref__say(msg, msg_size,
                    "result.levels = %zu; the serial BFS gives %zu",
                    got->levels, want->levels);
  if (got->reached != want->reached)
    return ref__say(msg, msg_size,
                    "result.reached = %zu; the serial BFS gives %zu",
                    got->reached, want->reached);
  if (got->reached_edges != want->reached_edges)
    return ref__say(msg, msg_size,
                    "result.reached_edges = %zu; the serial BFS gives %zu",
                    got->reached_edges, want->reached_edges);
  return 1;
}

int ref_bfs_validate(const prism_csr *g, size_t source, const int32_t *levels,
                     const int32_t *parents, char *msg, size_t msg_size) {
  size_t n = g->num_vertices;
  if (source >= n)
    return ref__say(msg, msg_size, "source %zu is not a vertex (%zu vertices)",
                    source, n);
  int32_t *ref = malloc((n ? n : 1) * sizeof *ref);
  if (!ref)
    abort();
  ref_bfs(g, source, ref, NULL);
  int ok = ref_bfs_check_levels(ref, levels, n, msg, msg_size);
  if (ok && parents)
    ok = ref_bfs_check_parents(g, source, ref, parents, NULL, msg, msg_size);
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
  return ref_bfs_compare_result(&want, result, msg, msg_size);
}
