/* SPDX-License-Identifier: MIT */
/* Host CSR: the checks every graph passes, allocation and release. */
#include "csr.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

void prism_csr_free(prism_csr *csr) {
  if (!csr)
    return;
  free(csr->row_offsets);
  free(csr->col_indices);
  memset(csr, 0, sizeof *csr);
}

/* The vertex whose edge range holds edge e: the last v with
 * row_offsets[v] <= e (offsets already checked). */
static size_t row_of_edge(const prism_csr *csr, size_t e) {
  size_t lo = 0, hi = csr->num_vertices; /* answer in [lo, hi) */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (csr->row_offsets[mid] <= e)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static prism_status check_offsets(prism_context *ctx, const prism_csr *csr,
                                  const char *fn) {
  const uint64_t *off = csr->row_offsets;
  size_t n = csr->num_vertices, m = csr->num_edges;
  if (off[0] != 0)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: csr->row_offsets[0] = %llu; must be 0", fn,
                       (unsigned long long)off[0]);
  for (size_t v = 1; v <= n; v++) {
    if (off[v] < off[v - 1])
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: csr->row_offsets[%zu] = %llu is less than "
                         "row_offsets[%zu] = %llu; offsets never decrease",
                         fn, v, (unsigned long long)off[v], v - 1,
                         (unsigned long long)off[v - 1]);
    if (off[v] > m)
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: csr->row_offsets[%zu] = %llu is more than "
                         "csr->num_edges = %zu",
                         fn, v, (unsigned long long)off[v], m);
  }
  if (off[n] != m)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: csr->row_offsets[%zu] = %llu (the last offset) "
                       "must equal csr->num_edges = %zu",
                       fn, n, (unsigned long long)off[n], m);
  return PRISM_OK;
}

prism_status prism__csr_check(prism_context *ctx, const prism_csr *csr,
                              const char *fn) {
  if (!csr)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: csr is NULL", fn);
  size_t n = csr->num_vertices, m = csr->num_edges;
  if (n > PRISM__CSR_MAX_VERTICES)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: csr->num_vertices = %zu; must be below 2^32 "
                       "(column indices are 32-bit)",
                       fn, n);
  if (!csr->row_offsets)
    return prism__fail(ctx, PRISM_NULL_POINTER,
                       "%s: csr->row_offsets is NULL; it needs "
                       "csr->num_vertices + 1 = %zu entries",
                       fn, n + 1);
  if (!csr->col_indices && m > 0)
    return prism__fail(ctx, PRISM_NULL_POINTER,
                       "%s: csr->col_indices is NULL but csr->num_edges = %zu",
                       fn, m);
  prism_status st = check_offsets(ctx, csr, fn);
  if (st != PRISM_OK)
    return st;
  /* One flat pass (it vectorises); the row is found only for the message. */
  const uint32_t *col = csr->col_indices;
  size_t e = 0;
  while (e < m && col[e] < n)
    e++;
  if (e < m)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: csr->col_indices[%zu] = %lu (an edge of vertex "
                       "%zu) is not below csr->num_vertices = %zu",
                       fn, e, (unsigned long)col[e], row_of_edge(csr, e), n);
  return PRISM_OK;
}

prism_status prism_csr_validate(const prism_csr *csr) {
  return prism__csr_check(NULL, csr, "prism_csr_validate");
}

prism_status prism__csr_alloc(size_t n, size_t m, int directed, const char *fn,
                              prism_csr *out) {
  memset(out, 0, sizeof *out);
  if (n >= SIZE_MAX / sizeof(uint64_t) || m > SIZE_MAX / sizeof(uint32_t))
    return prism__fail(NULL, PRISM_OUT_OF_MEMORY,
                       "%s: %zu vertices and %zu edges do not fit in memory",
                       fn, n, m);
  uint64_t *offsets = malloc((n + 1) * sizeof *offsets);
  uint32_t *cols = malloc((m ? m : 1) * sizeof *cols);
  if (!offsets || !cols) {
    free(offsets);
    free(cols);
    return prism__fail(NULL, PRISM_OUT_OF_MEMORY,
                       "%s: cannot allocate a CSR of %zu vertices and %zu "
                       "edges (%zu bytes)",
                       fn, n, m, (n + 1) * sizeof *offsets + m * sizeof *cols);
  }
  out->num_vertices = n;
  out->num_edges = m;
  out->row_offsets = offsets;
  out->col_indices = cols;
  out->directed = directed;
  return PRISM_OK;
}
