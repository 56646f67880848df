/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: prism_csr_validate on a CSR decoded from the bytes, against
 * a plain reference check, then for a valid CSR a save and load round
 * trip: the same arrays when it is directed, the same graph when it is
 * undirected and symmetric.
 *
 * Input: byte 0 the vertex count n, byte 1 flags, byte 2 the edge count
 * (or, with cumulative offsets, its distance from row_offsets[n]); then
 * n + 1 offset bytes and the column bytes (missing bytes read as 0). The
 * arrays are allocated to their exact sizes, so that a check reading past
 * them is caught by AddressSanitizer.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "fuzz_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  FLAG_DIRECTED = 1,
  FLAG_CUMULATIVE = 2, /* offsets are sums of the bytes: never decreasing */
  FLAG_COLS_MOD = 4,   /* columns are bytes mod n + 1: mostly valid */
  FLAG_NULL_COLS = 8,
  FLAG_NULL_OFFSETS = 16
};

typedef struct bytes {
  const uint8_t *p;
  size_t left;
} bytes;

static uint8_t next_byte(bytes *b) {
  if (b->left == 0)
    return 0;
  b->left--;
  return *b->p++;
}

/* What prism_csr_validate must answer, worked out plainly. */
static prism_status reference_check(const prism_csr *g) {
  if (!g->row_offsets || (!g->col_indices && g->num_edges > 0))
    return PRISM_NULL_POINTER;
  if (g->row_offsets[0] != 0 || g->row_offsets[g->num_vertices] != g->num_edges)
    return PRISM_INVALID_ARGUMENT;
  for (size_t v = 1; v <= g->num_vertices; v++)
    if (g->row_offsets[v] < g->row_offsets[v - 1] ||
        g->row_offsets[v] > g->num_edges)
      return PRISM_INVALID_ARGUMENT;
  for (size_t e = 0; e < g->num_edges; e++)
    if (g->col_indices[e] >= g->num_vertices)
      return PRISM_INVALID_ARGUMENT;
  return PRISM_OK;
}

static void decode(const uint8_t *data, size_t size, prism_csr *g, int *flags) {
  bytes b = {data, size};
  size_t n = next_byte(&b);
  *flags = next_byte(&b);
  uint8_t m_byte = next_byte(&b);
  uint64_t *off = malloc((n + 1) * sizeof *off);
  FUZZ_CHECK(off, "malloc");
  for (size_t v = 0; v <= n; v++) {
    uint8_t x = next_byte(&b);
    off[v] = *flags & FLAG_CUMULATIVE ? (v ? off[v - 1] + x : 0) : x;
  }
  size_t m = m_byte;
  if (*flags & FLAG_CUMULATIVE) /* off[n], or one more or less */
    m = m_byte % 3 == 0 || (m_byte % 3 == 2 && off[n] == 0) ? (size_t)off[n]
        : m_byte % 3 == 1                                   ? (size_t)off[n] + 1
                          : (size_t)off[n] - 1;
  uint32_t *col = malloc(m ? m * sizeof *col : 1);
  FUZZ_CHECK(col, "malloc");
  for (size_t e = 0; e < m; e++) {
    uint8_t x = next_byte(&b);
    col[e] = *flags & FLAG_COLS_MOD ? x % (uint32_t)(n + 1) : x;
  }
  if (*flags & FLAG_NULL_COLS) {
    free(col);
    col = NULL;
  }
  if (*flags & FLAG_NULL_OFFSETS) {
    free(off);
    off = NULL;
  }
  g->num_vertices = n;
  g->num_edges = m;
  g->row_offsets = off;
  g->col_indices = col;
  g->directed = *flags & FLAG_DIRECTED;
}

/* An undirected CSR saves when its lower entries, doubled less the self
 * loops, are all its edges (the save's cheap check); a symmetric one does
 * and loads back as itself. */
static void check_undirected_save(const prism_csr *g) {
  if (fuzz_is_symmetric(g)) {
    fuzz_check_round_trip(g);
    return;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  FUZZ_CHECK(f, "open_memstream");
  prism_status st = prism__csr_write_matrix_market(g, f, "memory");
  fclose(f);
  free(text);
  FUZZ_CHECK(st == PRISM_OK || st == PRISM_INVALID_ARGUMENT, "save: %s",
             prism_last_error());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  prism_csr g;
  int flags;
  decode(data, size, &g, &flags);
  prism_status want = reference_check(&g);
  prism_status got = prism_csr_validate(&g);
  FUZZ_CHECK(got == want, "validate says %s, the reference %s (%s)",
             prism_status_name(got), prism_status_name(want),
             prism_last_error());
  FUZZ_CHECK(got == PRISM_OK || strncmp(prism_last_error(),
                                        "prism_csr_validate: csr", 23) == 0,
             "message '%s'", prism_last_error());
  if (got == PRISM_OK && g.directed)
    fuzz_check_round_trip(&g);
  else if (got == PRISM_OK)
    check_undirected_save(&g);
  free(g.row_offsets);
  free(g.col_indices);
  return 0;
}
