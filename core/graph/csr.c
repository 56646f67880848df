/* SPDX-License-Identifier: MIT */
/* Host CSR: the checks every graph and matrix passes, allocation and
 * release. */
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

void prism_csr_matrix_free(prism_csr_matrix *matrix) {
  if (!matrix)
    return;
  prism_csr_free(&matrix->csr);
  free(matrix->values);
  free(matrix->ids);
  memset(matrix, 0, sizeof *matrix);
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

/* The structure checks shared by graphs and matrices; a message names the
 * arrays through p ("csr->" or "matrix->csr."). */
static prism_status check_offsets(prism_context *ctx, const prism_csr *csr,
                                  const char *fn, const char *p) {
  const uint64_t *off = csr->row_offsets;
  size_t n = csr->num_vertices, m = csr->num_edges;
  if (off[0] != 0)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: %srow_offsets[0] = %llu; must be 0", fn, p,
                       (unsigned long long)off[0]);
  for (size_t v = 1; v <= n; v++) {
    if (off[v] < off[v - 1])
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: %srow_offsets[%zu] = %llu is less than "
                         "row_offsets[%zu] = %llu; offsets never decrease",
                         fn, p, v, (unsigned long long)off[v], v - 1,
                         (unsigned long long)off[v - 1]);
    if (off[v] > m)
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: %srow_offsets[%zu] = %llu is more than "
                         "%snum_edges = %zu",
                         fn, p, v, (unsigned long long)off[v], p, m);
  }
  if (off[n] != m)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: %srow_offsets[%zu] = %llu (the last offset) "
                       "must equal %snum_edges = %zu",
                       fn, p, n, (unsigned long long)off[n], p, m);
  return PRISM_OK;
}

static prism_status check_arrays(prism_context *ctx, const prism_csr *csr,
                                 const char *fn, const char *p) {
  size_t n = csr->num_vertices, m = csr->num_edges;
  if (!csr->row_offsets)
    return prism__fail(ctx, PRISM_NULL_POINTER,
                       "%s: %srow_offsets is NULL; it needs "
                       "%snum_vertices + 1 = %zu entries",
                       fn, p, p, n + 1);
  if (!csr->col_indices && m > 0)
    return prism__fail(ctx, PRISM_NULL_POINTER,
                       "%s: %scol_indices is NULL but %snum_edges = %zu", fn, p,
                       p, m);
  return PRISM_OK;
}

/* The first entry whose column is not below bound (one flat pass: it
 * vectorises); num_edges when there is none. */
static size_t first_column_at_or_above(const prism_csr *csr, size_t bound) {
  const uint32_t *col = csr->col_indices;
  size_t e = 0, m = csr->num_edges;
  while (e < m && col[e] < bound)
    e++;
  return e;
}

prism_status prism__csr_check(prism_context *ctx, const prism_csr *csr,
                              const char *fn) {
  if (!csr)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: csr is NULL", fn);
  size_t n = csr->num_vertices;
  if (n > PRISM__CSR_MAX_VERTICES)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: csr->num_vertices = %zu; must be below 2^32 "
                       "(column indices are 32-bit)",
                       fn, n);
  prism_status st = check_arrays(ctx, csr, fn, "csr->");
  if (st == PRISM_OK)
    st = check_offsets(ctx, csr, fn, "csr->");
  if (st != PRISM_OK)
    return st;
  size_t e = first_column_at_or_above(csr, n);
  if (e < csr->num_edges)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: csr->col_indices[%zu] = %lu (an edge of vertex "
                       "%zu) is not below csr->num_vertices = %zu",
                       fn, e, (unsigned long)csr->col_indices[e],
                       row_of_edge(csr, e), n);
  return PRISM_OK;
}

prism_status prism_csr_validate(const prism_csr *csr) {
  return prism__csr_check(NULL, csr, "prism_csr_validate");
}

prism_status prism__csr_matrix_check(prism_context *ctx,
                                     const prism_csr_matrix *m,
                                     const char *fn) {
  static const char p[] = "matrix->csr.";
  if (!m)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: matrix is NULL", fn);
  const prism_csr *csr = &m->csr;
  if (csr->num_vertices > PRISM__CSR_MAX_VERTICES)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: %snum_vertices = %zu (the rows); must be below "
                       "2^32",
                       fn, p, csr->num_vertices);
  if (m->num_cols > PRISM__CSR_MAX_VERTICES)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: matrix->num_cols = %zu; must be below 2^32 "
                       "(column indices are 32-bit)",
                       fn, m->num_cols);
  if (m->value_type != PRISM_F32 && m->value_type != PRISM_F64)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: matrix->value_type = %d (%s); must be PRISM_F32 "
                       "or PRISM_F64",
                       fn, (int)m->value_type, prism_type_name(m->value_type));
  prism_status st = check_arrays(ctx, csr, fn, p);
  if (st != PRISM_OK)
    return st;
  if (!m->values && csr->num_edges > 0)
    return prism__fail(ctx, PRISM_NULL_POINTER,
                       "%s: matrix->values is NULL but %snum_edges = %zu", fn,
                       p, csr->num_edges);
  if ((st = check_offsets(ctx, csr, fn, p)) != PRISM_OK)
    return st;
  size_t e = first_column_at_or_above(csr, m->num_cols);
  if (e < csr->num_edges)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: %scol_indices[%zu] = %lu (row %zu): not below "
                       "num_cols = %zu",
                       fn, p, e, (unsigned long)csr->col_indices[e],
                       row_of_edge(csr, e), m->num_cols);
  return PRISM_OK;
}

prism_status prism_csr_matrix_validate(const prism_csr_matrix *matrix) {
  return prism__csr_matrix_check(NULL, matrix, "prism_csr_matrix_validate");
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
