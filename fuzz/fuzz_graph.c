/* SPDX-License-Identifier: MIT */
/* The checks the fuzz targets share (fuzz_graph.h says what each
 * promises). */
#define _POSIX_C_SOURCE 200809L /* fmemopen, open_memstream */
#include "fuzz_graph.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_fail(const char *file, int line, const char *what, const char *fmt,
               ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%d: fuzz check failed: %s: ", file, line, what);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  abort();
}

void fuzz_options(uint8_t byte, prism_graph_format format,
                  prism_load_options *o) {
  static const size_t max_vertices[] = {0, (size_t)1 << 20, 100, 1};
  static const size_t max_edges[] = {0, 1000, 10, 0};
  prism_load_options_init(o);
  o->format = format;
  o->symmetrize = byte & 1;
  o->index_base = (byte >> 1) & 1;
  if ((byte >> 2) & 3)
    o->max_vertices = max_vertices[(byte >> 2) & 3];
  if ((byte >> 4) & 3)
    o->max_edges = max_edges[(byte >> 4) & 3];
}

prism_status fuzz_load(const uint8_t *data, size_t size,
                       const prism_load_options *o, prism_csr *out) {
  /* fmemopen wants a buffer, even for no bytes. */
  static char none[1];
  FILE *f = fmemopen(size ? (void *)data : none, size, "r");
  FUZZ_CHECK(f, "fmemopen of %zu bytes", size);
  prism_status st = prism__csr_load_stream(f, "fuzz", o, out);
  fclose(f);
  return st;
}

typedef struct edge {
  uint32_t u, v;
} edge;

static int cmp_edge(const void *a, const void *b) {
  const edge *x = a, *y = b;
  if (x->u != y->u)
    return x->u < y->u ? -1 : 1;
  return (x->v > y->v) - (x->v < y->v);
}

/* g's edges (reversed on request), sorted; NULL for none. */
static edge *sorted_edges(const prism_csr *g, int reversed) {
  edge *e = malloc((g->num_edges ? g->num_edges : 1) * sizeof *e);
  FUZZ_CHECK(e, "malloc");
  for (size_t u = 0; u < g->num_vertices; u++)
    for (uint64_t k = g->row_offsets[u]; k < g->row_offsets[u + 1]; k++) {
      uint32_t v = g->col_indices[k];
      e[k].u = reversed ? v : (uint32_t)u;
      e[k].v = reversed ? (uint32_t)u : v;
    }
  qsort(e, g->num_edges, sizeof *e, cmp_edge);
  return e;
}

int fuzz_is_symmetric(const prism_csr *g) {
  edge *a = sorted_edges(g, 0), *b = sorted_edges(g, 1);
  int same = memcmp(a, b, g->num_edges * sizeof *a) == 0;
  free(a);
  free(b);
  return same;
}

int fuzz_same_graph(const prism_csr *a, const prism_csr *b, int same_order) {
  if (a->num_vertices != b->num_vertices || a->num_edges != b->num_edges ||
      !a->directed != !b->directed)
    return 0;
  if (same_order)
    return memcmp(a->row_offsets, b->row_offsets,
                  (a->num_vertices + 1) * sizeof *a->row_offsets) == 0 &&
           (a->num_edges == 0 || /* col_indices may then be NULL */
            memcmp(a->col_indices, b->col_indices,
                   a->num_edges * sizeof *a->col_indices) == 0);
  /* Sorted edge lists compare rows as multisets and the offsets too. */
  edge *x = sorted_edges(a, 0), *y = sorted_edges(b, 0);
  int same = memcmp(x, y, a->num_edges * sizeof *x) == 0;
  free(x);
  free(y);
  return same;
}

void fuzz_check_round_trip(const prism_csr *g) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  FUZZ_CHECK(f, "open_memstream");
  prism_status st = prism__csr_write_matrix_market(g, f, "memory");
  FUZZ_CHECK(fclose(f) == 0, "closing the memory stream");
  FUZZ_CHECK(st == PRISM_OK, "save: %s", prism_last_error());
  prism_load_options o;
  prism_load_options_init(&o);
  o.format = PRISM_GRAPH_MATRIX_MARKET;
  prism_csr back;
  st = fuzz_load((const uint8_t *)text, len, &o, &back);
  FUZZ_CHECK(st == PRISM_OK, "load of the saved file: %s\n%.*s",
             prism_last_error(), (int)(len < 2000 ? len : 2000), text);
  FUZZ_CHECK(fuzz_same_graph(&back, g, g->directed),
             "the saved file loads as another graph:\n%.*s",
             (int)(len < 2000 ? len : 2000), text);
  prism_csr_free(&back);
  free(text);
}

/* The vertex rule (core/graph/csr.h), for a file of `bytes` bytes. */
static uint64_t vertex_bound(size_t bytes) {
  return PRISM__FREE_VERTICES + PRISM__VERTICES_PER_BYTE * (uint64_t)bytes;
}

static void check_loaded(const prism_csr *g, size_t size,
                         const prism_load_options *o) {
  size_t max_vertices = o->max_vertices < PRISM__CSR_MAX_VERTICES
                            ? o->max_vertices
                            : PRISM__CSR_MAX_VERTICES;
  FUZZ_CHECK(prism_csr_validate(g) == PRISM_OK, "%s", prism_last_error());
  FUZZ_CHECK(g->num_vertices <= max_vertices, "%zu vertices, limit %zu",
             g->num_vertices, max_vertices);
  FUZZ_CHECK(g->num_vertices <= vertex_bound(size),
             "%zu vertices from %zu bytes", g->num_vertices, size);
  FUZZ_CHECK(g->num_edges <= o->max_edges, "%zu edges, limit %zu", g->num_edges,
             o->max_edges);
  FUZZ_CHECK(g->directed || fuzz_is_symmetric(g), "undirected, not symmetric");
  fuzz_check_round_trip(g);
}

/* A failure names a line of the file: at most one past its last line,
 * which may lack its newline. */
static void check_failed(const uint8_t *data, size_t size, prism_status st,
                         const prism_csr *g) {
  static const char head[] = "prism_csr_load: fuzz: line ";
  const char *msg = prism_last_error();
  FUZZ_CHECK(st == PRISM_INVALID_ARGUMENT || st == PRISM_UNSUPPORTED,
             "status %s: %s", prism_status_name(st), msg);
  FUZZ_CHECK(!g->num_vertices && !g->num_edges && !g->row_offsets &&
                 !g->col_indices,
             "*out not zeroed on failure");
  FUZZ_CHECK(strncmp(msg, head, sizeof head - 1) == 0, "message '%s'", msg);
  unsigned long long line = strtoull(msg + sizeof head - 1, NULL, 10),
                     lines = 1;
  for (size_t i = 0; i < size; i++)
    lines += data[i] == '\n';
  FUZZ_CHECK(line >= 1 && line <= lines + 1, "line %llu of %llu: %s", line,
             lines, msg);
}

/* A file that loads loads the same with a newline more at its end. */
static void check_newline_appended(const uint8_t *data, size_t size,
                                   const prism_load_options *o,
                                   const prism_csr *g) {
  uint8_t *longer = malloc(size + 1);
  FUZZ_CHECK(longer, "malloc");
  memcpy(longer, data, size);
  longer[size] = '\n';
  prism_csr h;
  prism_status st = fuzz_load(longer, size + 1, o, &h);
  FUZZ_CHECK(st == PRISM_OK, "loads, but not with a newline more: %s",
             prism_last_error());
  FUZZ_CHECK(fuzz_same_graph(g, &h, 1), "a newline more changes the graph");
  prism_csr_free(&h);
  free(longer);
}

/* The same input with each NUL as '!': the same status and graph. */
static void check_nul_is_plain(const uint8_t *data, size_t size,
                               const prism_load_options *o, prism_status st,
                               const prism_csr *g) {
  if (!memchr(data, 0, size))
    return;
  uint8_t *copy = malloc(size);
  FUZZ_CHECK(copy, "malloc");
  for (size_t i = 0; i < size; i++)
    copy[i] = data[i] ? data[i] : '!';
  prism_csr h;
  prism_status st2 = fuzz_load(copy, size, o, &h);
  FUZZ_CHECK(st2 == st, "NUL gives %s, '!' gives %s (%s)",
             prism_status_name(st), prism_status_name(st2), prism_last_error());
  FUZZ_CHECK(st != PRISM_OK || fuzz_same_graph(g, &h, 1),
             "NUL and '!' load as different graphs");
  prism_csr_free(&h);
  free(copy);
}

prism_status fuzz_check_load(const uint8_t *data, size_t size,
                             const prism_load_options *o) {
  prism_csr g;
  memset(&g, 0x5A, sizeof g);
  prism_status st = fuzz_load(data, size, o, &g);
  if (st == PRISM_OK) {
    check_loaded(&g, size, o);
    check_newline_appended(data, size, o, &g);
  } else {
    check_failed(data, size, st, &g);
  }
  check_nul_is_plain(data, size, o, st, &g);
  prism_csr_free(&g);
  return st;
}
