/* SPDX-License-Identifier: MIT */
/*
 * Device sparse matrices and SpMV. A host matrix is validated
 * (prism_csr_matrix_validate's rules) and copied into buffers of the
 * context, and prism_spmv's work partition is planned here, once, for the
 * backend's tile size (core/backend.h, prism__spmv_args): each tile's
 * starting point on the merge path of row ends and entries, found by a
 * binary search, and the rows that tiles split, found by one walk over the
 * tiles. A call then checks its vectors and launches: nothing is searched,
 * allocated or waited for.
 */
#include "check.h"
#include "error.h"
#include "graph/csr.h"
#include "handles.h"
#include "matrix.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char create_fn[] = "prism_matrix_create";

/* The row ends consumed at merge-path diagonal d (0 <= d <= rows +
 * entries): the number of rows i whose end comes before item d, that is
 * with row_offsets[i + 1] + i < d. */
static size_t path_rows(const uint64_t *offsets, size_t rows, size_t entries,
                        size_t d) {
  size_t lo = d > entries ? d - entries : 0, hi = d < rows ? d : rows;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (offsets[mid + 1] + mid < d)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

typedef struct plan {
  size_t tiles, splits, long_splits;
  uint64_t *coords; /* 2 (tiles + 1) */
  uint64_t *split;  /* 3 splits */
} plan;

static void plan_free(plan *p) {
  free(p->coords);
  free(p->split);
}

/* Append the split (row, first, last) to s at *k. */
static void put_split(uint64_t *s, size_t *k, uint64_t row, uint64_t first,
                      uint64_t last) {
  s[3 * *k] = row;
  s[3 * *k + 1] = first;
  s[3 * *k + 2] = last;
  ++*k;
}

/* The tiles and split rows of a matrix for tile_items per tile; -1 when
 * host memory runs out. rows >= 1. */
static int make_plan(const prism_csr *csr, size_t tile_items, plan *p) {
  const size_t rows = csr->num_vertices, entries = csr->num_edges;
  const uint64_t *off = csr->row_offsets;
  const size_t items = rows + entries;
  memset(p, 0, sizeof *p);
  p->tiles = (items + tile_items - 1) / tile_items;
  p->coords = malloc(2 * (p->tiles + 1) * sizeof *p->coords);
  if (!p->coords)
    return -1;
  for (size_t t = 0; t <= p->tiles; t++) {
    size_t d = t < p->tiles ? t * tile_items : items;
    size_t r = path_rows(off, rows, entries, d);
    p->coords[2 * t] = r;
    p->coords[2 * t + 1] = d - r;
  }
  /* A row is split when a tile boundary falls after its first entry and
   * before its end: at boundary t, row r = coords[2t] with row_offsets[r] <
   * coords[2t + 1]. Count them, then list the long ones first. */
  size_t count = 0;
  for (int pass = 0; pass < 3; pass++) {
    size_t k_long = 0, k_short = 0;
    for (size_t t = 1; t < p->tiles; t++) {
      uint64_t r = p->coords[2 * t];
      if (r >= rows || off[r] >= p->coords[2 * t + 1])
        continue;
      size_t u = t; /* the tile that ends row r */
      while (p->coords[2 * (u + 1)] == r)
        u++;
      uint64_t first = 2 * (t - 1) + 1, last = 2 * (uint64_t)u;
      int is_long = last - first + 1 > PRISM__SPMV_SHORT_SPLIT;
      if (pass == 0)
        count++, k_long += (size_t)is_long;
      else if (pass == 1 && is_long)
        put_split(p->split, &k_long, r, first, last);
      else if (pass == 2 && !is_long) {
        size_t k = p->long_splits + k_short;
        put_split(p->split, &k, r, first, last);
        k_short++;
      }
      t = u; /* boundaries t + 1 .. u are inside row r */
    }
    if (pass == 0) {
      p->splits = count;
      p->long_splits = k_long;
      p->split = malloc((count ? 3 * count : 3) * sizeof *p->split);
      if (!p->split)
        return -1;
    }
  }
  return 0;
}

/* A buffer of ctx holding bytes from host (at least 8 bytes, so an empty
 * array still has a handle). */
static prism_status upload(prism_context *ctx, const void *host, size_t bytes,
                           prism_buffer **out) {
  prism_status st = prism_buffer_create(ctx, bytes ? bytes : 8, out);
  if (st == PRISM_OK && bytes)
    st = prism_buffer_write(*out, 0, host, bytes);
  return st;
}

static void link_matrix(prism_context *ctx, prism_matrix *m) {
  m->next = ctx->matrices;
  if (ctx->matrices)
    ctx->matrices->prev = m;
  ctx->matrices = m;
}

static void unlink_matrix(prism_matrix *m) {
  if (m->prev)
    m->prev->next = m->next;
  else
    m->ctx->matrices = m->next;
  if (m->next)
    m->next->prev = m->prev;
}

/* The matrix's buffers and the matrix (its context entered). */
static void release(prism_matrix *m) {
  prism_buffer_destroy(m->offsets);
  prism_buffer_destroy(m->cols_buf);
  prism_buffer_destroy(m->values);
  prism_buffer_destroy(m->coords);
  prism_buffer_destroy(m->partials);
  prism_buffer_destroy(m->split_rows);
  free(m);
}

static prism_status upload_matrix(prism_context *ctx,
                                  const prism_csr_matrix *host,
                                  prism_matrix *m) {
  const size_t size = prism_type_size(m->type);
  /* The offsets' low 32 bits (core/backend.h): all a tile needs. */
  uint32_t *low = malloc((m->rows + 1) * sizeof *low);
  if (!low)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY,
                       "%s: out of host memory for the row offsets (%zu rows)",
                       create_fn, m->rows);
  for (size_t i = 0; i <= m->rows; i++)
    low[i] = (uint32_t)host->csr.row_offsets[i];
  prism_status st = upload(ctx, low, (m->rows + 1) * sizeof *low, &m->offsets);
  free(low);
  if (st == PRISM_OK)
    st = upload(ctx, host->csr.col_indices, m->entries * sizeof(uint32_t),
                &m->cols_buf);
  if (st == PRISM_OK)
    st = upload(ctx, host->values, m->entries * size, &m->values);
  if (st != PRISM_OK || m->rows == 0)
    return st;
  plan p;
  if (make_plan(&host->csr, m->tile_items, &p) != 0) {
    plan_free(&p);
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY,
                       "%s: out of host memory for the work partition (%zu "
                       "rows, %zu entries)",
                       create_fn, m->rows, m->entries);
  }
  /* Flag the tiles whose first row began in an earlier one. */
  const uint64_t *off = host->csr.row_offsets;
  for (size_t t = 0; t < p.tiles; t++) {
    const uint64_t r = p.coords[2 * t];
    if (r < m->rows && off[r] < p.coords[2 * t + 1])
      p.coords[2 * t] |= PRISM__SPMV_HEAD_SPLIT;
  }
  m->tiles = p.tiles;
  m->splits = p.splits;
  m->long_splits = p.long_splits;
  st = upload(ctx, p.coords, 2 * (p.tiles + 1) * sizeof(uint64_t), &m->coords);
  if (st == PRISM_OK)
    st = upload(ctx, p.split, 3 * p.splits * sizeof(uint64_t), &m->split_rows);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, 2 * p.tiles * size, &m->partials);
  plan_free(&p);
  return st;
}

static prism_status create(prism_context *ctx, const prism_csr_matrix *host,
                           prism_matrix **out) {
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: out is NULL", create_fn);
  *out = NULL;
  prism_status st = prism__csr_matrix_check(ctx, host, create_fn);
  if (st != PRISM_OK)
    return st;
  if ((st = prism__check_type(ctx, host->value_type, create_fn)) != PRISM_OK)
    return st;
  const size_t size = prism_type_size(host->value_type);
  if (host->csr.num_edges > SIZE_MAX / size)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: matrix->csr.num_edges = %zu overflows the address "
                       "space",
                       create_fn, host->csr.num_edges);
  if (!ctx->backend->spmv || !ctx->backend->spmv_tile_items)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: SpMV is not implemented by the %s backend",
                       create_fn, ctx->backend->name);
  prism_matrix *m = calloc(1, sizeof *m);
  if (!m)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "%s: out of host memory",
                       create_fn);
  m->ctx = ctx;
  m->rows = host->csr.num_vertices;
  m->cols = host->num_cols;
  m->entries = host->csr.num_edges;
  m->type = host->value_type;
  m->tile_items = ctx->backend->spmv_tile_items(ctx, m->type);
  if (m->tile_items == 0)
    m->tile_items = 1;
  if ((st = upload_matrix(ctx, host, m)) != PRISM_OK ||
      (st = prism__handle_add(ctx, m, PRISM__HANDLE_MATRIX, create_fn)) !=
          PRISM_OK) {
    release(m);
    return st;
  }
  link_matrix(ctx, m);
  *out = m;
  return PRISM_OK;
}

prism_status prism_matrix_create(prism_context *ctx,
                                 const prism_csr_matrix *matrix,
                                 prism_matrix **out) {
  PRISM__ENTER(ctx, create_fn);
  return prism__leave(ctx, create(ctx, matrix, out));
}

void prism_matrix_destroy(prism_matrix *matrix) {
  prism_context *ctx = prism__enter_destroy(matrix, PRISM__HANDLE_MATRIX);
  if (!ctx)
    return;
  unlink_matrix(matrix);
  release(matrix);
  prism__leave(ctx, PRISM_OK);
}

void prism__matrices_release_all(prism_context *ctx) {
  while (ctx->matrices) {
    prism_matrix *m = ctx->matrices;
    ctx->matrices = m->next;
    prism__handle_remove(m);
    release(m);
  }
}

typedef enum matrix_field { ROWS, COLS, ENTRIES, TYPE } matrix_field;

/* A field of a live matrix, read while the registry holds it. */
static size_t matrix_field_of(const prism_matrix *matrix, matrix_field f) {
  prism__handle_lock();
  size_t v = f == TYPE ? (size_t)PRISM_F32 : 0;
  if (prism__handle_live_locked(matrix, PRISM__HANDLE_MATRIX))
    v = f == ROWS      ? matrix->rows
        : f == COLS    ? matrix->cols
        : f == ENTRIES ? matrix->entries
                       : (size_t)matrix->type;
  prism__handle_unlock();
  return v;
}

size_t prism_matrix_rows(const prism_matrix *matrix) {
  return matrix_field_of(matrix, ROWS);
}

size_t prism_matrix_cols(const prism_matrix *matrix) {
  return matrix_field_of(matrix, COLS);
}

size_t prism_matrix_entries(const prism_matrix *matrix) {
  return matrix_field_of(matrix, ENTRIES);
}

prism_type prism_matrix_type(const prism_matrix *matrix) {
  return (prism_type)matrix_field_of(matrix, TYPE);
}

static prism_status spmv(prism_context *ctx, double alpha,
                         const prism_matrix *a, const prism_buffer *x,
                         double beta, prism_buffer *y) {
  static const char fn[] = "prism_spmv";
  if (!a)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: a is NULL", fn);
  prism_context *owner = prism__handle_context(a, PRISM__HANDLE_MATRIX);
  if (!owner)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: a is not a live prism matrix (destroyed, or never "
                       "created)",
                       fn);
  if (owner != ctx)
    return prism__fail(ctx, PRISM_CONTEXT_MISMATCH,
                       "%s: a belongs to another context", fn);
  const size_t size = prism_type_size(a->type);
  const size_t x_bytes = a->cols * size, y_bytes = a->rows * size;
  prism_status st;
  if ((st = prism__check_view(ctx, x, size, x_bytes, fn, "x")) != PRISM_OK ||
      (st = prism__check_view(ctx, y, size, y_bytes, fn, "y")) != PRISM_OK ||
      (st = prism__check_apart(ctx, fn, x, 0, x_bytes, "x", y, 0, y_bytes,
                               "y")) != PRISM_OK)
    return st;
  if (a->rows == 0)
    return PRISM_OK;
  prism__spmv_args args = {.type = a->type,
                           .rows = a->rows,
                           .cols = a->cols,
                           .entries = a->entries,
                           .row_offsets = prism__mem_of(a->offsets),
                           .col_indices = prism__mem_of(a->cols_buf),
                           .values = prism__mem_of(a->values),
                           .tile_items = a->tile_items,
                           .tiles = a->tiles,
                           .coords = prism__mem_of(a->coords),
                           .partials = prism__mem_of(a->partials),
                           .splits = a->splits,
                           .long_splits = a->long_splits,
                           .split_rows = prism__mem_of(a->split_rows),
                           .x = prism__mem_of(x),
                           .y = prism__mem_of(y),
                           .alpha = alpha,
                           .beta = beta};
  return ctx->backend->spmv(ctx, &args);
}

prism_status prism_spmv(prism_context *ctx, double alpha, const prism_matrix *a,
                        const prism_buffer *x, double beta, prism_buffer *y) {
  PRISM__ENTER(ctx, "prism_spmv");
  return prism__leave(ctx, spmv(ctx, alpha, a, x, beta, y));
}
