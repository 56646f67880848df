/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: prism_csr_matrix_load, and prism_csr_load with the same
 * options. The first byte picks the options as fuzz_options does, the
 * second the matrix options (fuzz/README.md: bit 0 drop_self_loops, bit 1
 * merge_duplicates, bit 2 relabel, bit 3 f64, bits 4-5 the format: AUTO,
 * MATRIX_MARKET, EDGE_LIST, AUTO; '@' is the defaults); the rest is the
 * file.
 *
 * The graph load keeps every load's promises (fuzz_check_load). The
 * matrix is valid, within the limits, has what each option promises, and
 * agrees with the graph: a square matrix has the graph's arrays; the
 * matrix load fails where the graph load does, with the same message
 * after the function's name, except where only a matrix may fail (a value
 * too large for its type) or only a graph (a matrix that is not square).
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include "fuzz_graph.h"

#include <stdlib.h>
#include <string.h>

static const char matrix_head[] = "prism_csr_matrix_load: fuzz: line ";
static const char graph_fn[] = "prism_csr_load";
static const char matrix_fn[] = "prism_csr_matrix_load";

static prism_status load_matrix(const uint8_t *data, size_t size,
                                const prism_load_options *o, prism_type type,
                                prism_csr_matrix *out) {
  static char none[1];
  FILE *f = fmemopen(size ? (void *)data : none, size, "r");
  FUZZ_CHECK(f, "fmemopen of %zu bytes", size);
  prism_status st = prism__csr_matrix_load_stream(f, "fuzz", o, type, out);
  fclose(f);
  return st;
}

static void check_matrix(const prism_csr_matrix *m, size_t size,
                         const prism_load_options *o, prism_type type) {
  const prism_csr *g = &m->csr;
  size_t max_vertices = o->max_vertices < PRISM__CSR_MAX_VERTICES
                            ? o->max_vertices
                            : PRISM__CSR_MAX_VERTICES;
  FUZZ_CHECK(prism_csr_matrix_validate(m) == PRISM_OK, "%s",
             prism_last_error());
  FUZZ_CHECK(m->value_type == type, "value type %d", (int)m->value_type);
  FUZZ_CHECK(g->num_vertices <= max_vertices && m->num_cols <= max_vertices,
             "%zu x %zu, limit %zu", g->num_vertices, m->num_cols,
             max_vertices);
  FUZZ_CHECK(g->num_vertices <= PRISM__FREE_VERTICES +
                                    PRISM__VERTICES_PER_BYTE * (uint64_t)size,
             "%zu rows from %zu bytes", g->num_vertices, size);
  FUZZ_CHECK(g->num_edges <= o->max_edges, "%zu entries, limit %zu",
             g->num_edges, o->max_edges);
  for (size_t u = 0; u < g->num_vertices; u++)
    for (uint64_t e = g->row_offsets[u]; e < g->row_offsets[u + 1]; e++) {
      uint32_t v = g->col_indices[e];
      FUZZ_CHECK(!o->drop_self_loops || v != u, "self loop %zu kept", u);
      FUZZ_CHECK(!o->merge_duplicates || e == g->row_offsets[u] ||
                     g->col_indices[e - 1] < v,
                 "row %zu not strictly increasing after merging", u);
    }
  if (!o->relabel) {
    FUZZ_CHECK(!m->ids, "ids without relabel");
    return;
  }
  FUZZ_CHECK(m->ids && m->num_cols == g->num_vertices,
             "relabelled: ids %p, %zu x %zu", (void *)m->ids, g->num_vertices,
             m->num_cols);
  for (size_t k = 1; k < g->num_vertices; k++)
    FUZZ_CHECK(m->ids[k - 1] < m->ids[k], "ids not increasing at %zu", k);
}

static void check_failed(prism_status st, const prism_csr_matrix *m) {
  const char *msg = prism_last_error();
  FUZZ_CHECK(st == PRISM_INVALID_ARGUMENT || st == PRISM_UNSUPPORTED,
             "status %s: %s", prism_status_name(st), msg);
  FUZZ_CHECK(!m->csr.num_vertices && !m->csr.num_edges && !m->csr.row_offsets &&
                 !m->csr.col_indices && !m->num_cols && !m->values && !m->ids &&
                 !m->value_type,
             "*out not zeroed on failure");
  FUZZ_CHECK(strncmp(msg, matrix_head, sizeof matrix_head - 1) == 0,
             "message '%s'", msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const prism_graph_format formats[] = {
      PRISM_GRAPH_AUTO, PRISM_GRAPH_MATRIX_MARKET, PRISM_GRAPH_EDGE_LIST,
      PRISM_GRAPH_AUTO};
  if (size < 2)
    return 0;
  prism_load_options o;
  fuzz_options(data[0], formats[(data[1] >> 4) & 3], &o);
  o.drop_self_loops = data[1] & 1;
  o.merge_duplicates = (data[1] >> 1) & 1;
  o.relabel = (data[1] >> 2) & 1;
  prism_type type = (data[1] >> 3) & 1 ? PRISM_F64 : PRISM_F32;
  data += 2;
  size -= 2;

  /* The graph's promises, then its message and arrays to compare with. */
  fuzz_check_load(data, size, &o);
  prism_csr g;
  prism_status graph_st = fuzz_load(data, size, &o, &g);
  char graph_msg[1024];
  snprintf(graph_msg, sizeof graph_msg, "%s", prism_last_error());

  prism_csr_matrix m;
  memset(&m, 0x5A, sizeof m);
  prism_status st = load_matrix(data, size, &o, type, &m);
  if (st != PRISM_OK) {
    check_failed(st, &m);
    const char *msg = prism_last_error();
    /* Only a matrix converts values; a graph stops at a size line that is
     * not square, where a matrix reads on. */
    int matrix_only = strstr(msg, "too large for f") != NULL;
    int graph_only = graph_st != PRISM_OK && strstr(graph_msg, "for a graph");
    FUZZ_CHECK(
        matrix_only || graph_only ||
            (st == graph_st && strcmp(msg + strlen(matrix_fn),
                                      graph_msg + strlen(graph_fn)) == 0),
        "matrix: %s\ngraph: %s", msg, graph_msg);
    prism_csr_free(&g);
    return 0;
  }
  check_matrix(&m, size, &o, type);
  if (m.num_cols != m.csr.num_vertices)
    FUZZ_CHECK(graph_st != PRISM_OK && strstr(graph_msg, "for a graph"),
               "a %zu x %zu matrix, graph: %s", m.csr.num_vertices, m.num_cols,
               graph_msg);
  else
    FUZZ_CHECK(graph_st == PRISM_OK && fuzz_same_graph(&g, &m.csr, 1),
               "the matrix's structure is not the graph's (graph: %s)",
               graph_st == PRISM_OK ? "loads" : graph_msg);
  prism_csr_free(&g);
  prism_csr_matrix_free(&m);
  FUZZ_CHECK(!m.csr.row_offsets && !m.values && !m.ids, "free zeroes");
  prism_csr_matrix_free(&m); /* twice is fine */
  return 0;
}
