/* SPDX-License-Identifier: MIT */
/*
 * prism_matrix_create and prism_spmv against the reference
 * (reference/ref_spmv.h: long double sums, prism.h's tolerance): random
 * matrices with uniform, power-law (RMAT) and single-huge-row spreads,
 * rows that span one tile, many tiles (the long fix-up) and tile
 * boundaries, empty rows and matrices, 1x1, one entry per row, tall and
 * wide shapes, NaN and infinities in x, every alpha / beta kind (beta = 0
 * over a y of NaN), views, the same bits on a second run; then bad input.
 */
#include "harness.h"
#include "ref_spmv.h"
#include "vectors.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

static const prism_type value_types[] = {PRISM_F32, PRISM_F64};

/* Bytes past y's rows that must stay untouched. */
#define GUARD_BYTES 64

/* A host matrix of rows x cols with row lengths from len(i) (columns and
 * values random from seed; values in [-1, 1)). */
typedef size_t (*row_length_fn)(size_t row, size_t rows, uint64_t *state);

static void matrix_alloc(prism_csr_matrix *m, size_t rows, size_t cols,
                         size_t entries, prism_type type) {
  memset(m, 0, sizeof *m);
  m->csr.num_vertices = rows;
  m->csr.num_edges = entries;
  m->csr.row_offsets = harness_malloc((rows + 1) * sizeof(uint64_t));
  m->csr.col_indices = harness_malloc((entries ? entries : 1) * 4);
  m->num_cols = cols;
  m->value_type = type;
  m->values = harness_malloc((entries ? entries : 1) * prism_type_size(type));
}

static void matrix_release(prism_csr_matrix *m) {
  free(m->csr.row_offsets);
  free(m->csr.col_indices);
  free(m->values);
  memset(m, 0, sizeof *m);
}

static double unit(uint64_t *state) {
  return (double)(vec_next(state) >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

static void set_value(prism_csr_matrix *m, size_t z, double v) {
  if (m->value_type == PRISM_F64)
    ((double *)m->values)[z] = v;
  else
    ((float *)m->values)[z] = (float)v;
}

static void fill_random(prism_csr_matrix *m, uint64_t seed) {
  uint64_t state = seed;
  for (size_t z = 0; z < m->csr.num_edges; z++) {
    m->csr.col_indices[z] =
        m->num_cols ? (uint32_t)(vec_next(&state) % m->num_cols) : 0;
    set_value(m, z, unit(&state));
  }
}

static void make_matrix(prism_csr_matrix *m, size_t rows, size_t cols,
                        row_length_fn len, prism_type type, uint64_t seed) {
  uint64_t state = seed;
  size_t *lens = harness_malloc((rows ? rows : 1) * sizeof *lens);
  size_t entries = 0;
  for (size_t i = 0; i < rows; i++) {
    lens[i] = cols ? len(i, rows, &state) : 0;
    entries += lens[i];
  }
  matrix_alloc(m, rows, cols, entries, type);
  m->csr.row_offsets[0] = 0;
  for (size_t i = 0; i < rows; i++)
    m->csr.row_offsets[i + 1] = m->csr.row_offsets[i] + lens[i];
  free(lens);
  fill_random(m, seed ^ 0x9e3779b97f4a7c15ull);
}

/* The structure of a prism_csr (a generated graph) with random values. */
static void matrix_from_csr(prism_csr_matrix *m, const prism_csr *g,
                            prism_type type, uint64_t seed) {
  matrix_alloc(m, g->num_vertices, g->num_vertices, g->num_edges, type);
  memcpy(m->csr.row_offsets, g->row_offsets,
         (g->num_vertices + 1) * sizeof(uint64_t));
  memcpy(m->csr.col_indices, g->col_indices, g->num_edges * 4);
  uint64_t state = seed;
  for (size_t z = 0; z < g->num_edges; z++)
    set_value(m, z, unit(&state));
}

static size_t len_uniform(size_t row, size_t rows, uint64_t *s) {
  (void)row, (void)rows;
  return (size_t)(vec_next(s) % 17);
}
static size_t len_one(size_t row, size_t rows, uint64_t *s) {
  (void)row, (void)rows, (void)s;
  return 1;
}
static size_t len_zero(size_t row, size_t rows, uint64_t *s) {
  (void)row, (void)rows, (void)s;
  return 0;
}
/* Mostly empty rows, now and then a long one. */
static size_t len_sparse_rows(size_t row, size_t rows, uint64_t *s) {
  (void)row, (void)rows;
  uint64_t r = vec_next(s) % 100;
  return r < 90 ? 0 : r < 99 ? 3 : 700;
}
/* Row 0 holds 10^6 entries (about 500 tiles: a long fix-up), the rest
 * 0 to 3. */
static size_t len_huge_row(size_t row, size_t rows, uint64_t *s) {
  (void)rows;
  return row == 0 ? 1000000 : (size_t)(vec_next(s) % 4);
}
/* A row of 1000 entries and one of 40000 in the middle, the others 2:
 * splits short and long. */
static size_t len_two_long(size_t row, size_t rows, uint64_t *s) {
  (void)s;
  return row == rows / 3 ? 1000 : row == rows / 2 ? 40000 : 2;
}
/* Row lengths around the tile sizes of both backends (1536, 2048 merge
 * items and the CPU policy's), so tile boundaries fall everywhere in and
 * between rows. */
static size_t len_tile_edges(size_t row, size_t rows, uint64_t *s) {
  (void)rows, (void)s;
  static const size_t lens[] = {1535, 1536, 1537, 2047, 2048, 2049,
                                0,    1,    4095, 4097, 8191, 8193};
  return lens[row % (sizeof lens / sizeof lens[0])];
}

/* x: n values from seed in [-1, 1), with special values when asked:
 * NaN at every 97th position, +inf every 89th, -inf every 83rd. */
static void *make_x(prism_type type, size_t n, uint64_t seed, int special) {
  const size_t size = prism_type_size(type);
  unsigned char *x = harness_malloc((n ? n : 1) * size);
  uint64_t state = seed;
  for (size_t i = 0; i < n; i++) {
    double v = unit(&state);
    if (special && i % 97 == 5)
      v = NAN;
    else if (special && i % 89 == 7)
      v = INFINITY;
    else if (special && i % 83 == 11)
      v = -INFINITY;
    if (type == PRISM_F64)
      ((double *)x)[i] = v;
    else
      ((float *)x)[i] = (float)v;
  }
  return x;
}

typedef struct coeffs {
  double alpha, beta;
} coeffs;

static const coeffs all_coeffs[] = {{1, 0},    {0, 0}, {2.5, 0}, {1, 1},
                                    {-0.5, 2}, {0, 1}, {1, -1},  {3, 0.25}};

/* One multiply on the device against the reference: y starts as y0 (or
 * NaN everywhere when beta is 0, which must not be read), nothing past
 * rows elements of y is written, and a second run gives the same bits.
 * x and y sit at x_at / y_at elements into larger buffers (views) when
 * those are not 0. */
static void check_spmv(prism_context *ctx, const prism_csr_matrix *m,
                       prism_matrix *a, const void *x, coeffs c, size_t x_at,
                       size_t y_at, const char *name) {
  const prism_type type = m->value_type;
  const size_t size = prism_type_size(type), rows = m->csr.num_vertices;
  const size_t cols = m->num_cols;
  const int beta_zero = type == PRISM_F64 ? c.beta == 0 : (float)c.beta == 0.0f;
  void *y0 = make_x(type, rows, 77 + rows, 0);
  if (beta_zero) {
    unsigned char *p = y0;
    for (size_t i = 0; i < rows; i++) {
      if (type == PRISM_F64)
        ((double *)p)[i] = NAN;
      else
        ((float *)p)[i] = NAN;
    }
  }
  double *ref = harness_malloc((rows ? rows : 1) * sizeof *ref);
  double *tol = harness_malloc((rows ? rows : 1) * sizeof *tol);
  ref_spmv(m, c.alpha, x, c.beta, y0, ref, tol);

  prism_buffer *xbuf = harness_poisoned(ctx, (x_at + cols) * size + 8);
  prism_buffer *ybuf =
      harness_poisoned(ctx, (y_at + rows) * size + GUARD_BYTES);
  if (cols)
    HARNESS_OK(ctx, prism_buffer_write(xbuf, x_at * size, x, cols * size));
  if (rows)
    HARNESS_OK(ctx, prism_buffer_write(ybuf, y_at * size, y0, rows * size));
  prism_buffer *xv = xbuf, *yv = ybuf;
  if (x_at)
    HARNESS_OK(ctx, prism_buffer_view(xbuf, x_at * size, cols * size, &xv));
  if (y_at)
    HARNESS_OK(ctx, prism_buffer_view(ybuf, y_at * size, rows * size, &yv));

  prism_status st = prism_spmv(ctx, c.alpha, a, xv, c.beta, yv);
  cr_assert_eq(st, PRISM_OK, "%s %s alpha %g beta %g: %s: %s", name,
               prism_type_name(type), c.alpha, c.beta, prism_status_name(st),
               prism_context_last_error(ctx));
  unsigned char *got = harness_download(ybuf);
  size_t bad = ref_check_spmv(type, rows, got + y_at * size, ref, tol);
  if (bad != (size_t)-1) {
    double g = type == PRISM_F64 ? ((double *)(got + y_at * size))[bad]
                                 : ((float *)(got + y_at * size))[bad];
    cr_assert_fail("%s %s (%zu x %zu, %zu entries) alpha %g beta %g: row %zu "
                   "(%llu entries) = %.17g, reference %.17g, tolerance %g",
                   name, prism_type_name(type), rows, cols, m->csr.num_edges,
                   c.alpha, c.beta, bad,
                   (unsigned long long)(m->csr.row_offsets[bad + 1] -
                                        m->csr.row_offsets[bad]),
                   g, ref[bad], tol[bad]);
  }
  for (size_t b = 0; b < y_at * size; b++)
    cr_assert_eq(got[b], HARNESS_POISON, "%s: byte %zu before y written", name,
                 b);
  for (size_t b = (y_at + rows) * size; b < (y_at + rows) * size + GUARD_BYTES;
       b++)
    cr_assert_eq(got[b], HARNESS_POISON, "%s: byte %zu past y written", name,
                 b);

  /* The same bits again, from the same y0. */
  if (rows) {
    HARNESS_OK(ctx, prism_buffer_write(ybuf, y_at * size, y0, rows * size));
    HARNESS_OK(ctx, prism_spmv(ctx, c.alpha, a, xv, c.beta, yv));
    unsigned char *again = harness_download(ybuf);
    cr_assert(memcmp(again + y_at * size, got + y_at * size, rows * size) == 0,
              "%s %s alpha %g beta %g: a second run gave other bits", name,
              prism_type_name(type), c.alpha, c.beta);
    free(again);
  }
  if (xv != xbuf)
    prism_buffer_destroy(xv);
  if (yv != ybuf)
    prism_buffer_destroy(yv);
  prism_buffer_destroy(xbuf);
  prism_buffer_destroy(ybuf);
  free(got);
  free(ref);
  free(tol);
  free(y0);
}

/* Create the device matrix and run every coefficient pair (or the first
 * `coeff_count`), x plain and, when special, with NaN and infinities. */
static void run_matrix(prism_context *ctx, const prism_csr_matrix *m,
                       size_t coeff_count, int special, const char *name) {
  prism_matrix *a = NULL;
  HARNESS_OK(ctx, prism_matrix_create(ctx, m, &a));
  cr_assert_eq(prism_matrix_rows(a), m->csr.num_vertices);
  cr_assert_eq(prism_matrix_cols(a), m->num_cols);
  cr_assert_eq(prism_matrix_entries(a), m->csr.num_edges);
  cr_assert_eq(prism_matrix_type(a), m->value_type);
  void *x = make_x(m->value_type, m->num_cols, 5 + m->num_cols, 0);
  const size_t count = sizeof all_coeffs / sizeof all_coeffs[0];
  for (size_t i = 0; i < count && i < coeff_count; i++)
    check_spmv(ctx, m, a, x, all_coeffs[i], 0, 0, name);
  if (special) {
    void *xs = make_x(m->value_type, m->num_cols, 9, 1);
    check_spmv(ctx, m, a, xs, all_coeffs[0], 0, 0, name);
    check_spmv(ctx, m, a, xs, all_coeffs[4], 0, 0, name);
    free(xs);
  }
  /* Views: x and y at odd element offsets into larger buffers. */
  check_spmv(ctx, m, a, x, all_coeffs[4], 3, 5, name);
  free(x);
  prism_matrix_destroy(a);
}

static void run_shape(size_t rows, size_t cols, row_length_fn len,
                      size_t coeff_count, int special, const char *name) {
  prism_context *ctx = harness_context();
  for (size_t t = 0; t < 2; t++) {
    if (!prism_context_supports(ctx, value_types[t]))
      continue;
    prism_csr_matrix m;
    make_matrix(&m, rows, cols, len, value_types[t], 1234 + rows + cols);
    run_matrix(ctx, &m, coeff_count, special, name);
    matrix_release(&m);
  }
  prism_context_destroy(ctx);
}

#define ALL_COEFFS 100

Test(spmv, uniform) {
  run_shape(1, 1, len_one, ALL_COEFFS, 0, "1x1");
  run_shape(1000, 1000, len_uniform, ALL_COEFFS, 1, "uniform 1000");
  run_shape(100003, 70001, len_uniform, 3, 1, "uniform 100003 x 70001");
}

Test(spmv, one_entry_per_row) {
  run_shape(50000, 50000, len_one, ALL_COEFFS, 0, "one entry per row");
}

Test(spmv, empty) {
  run_shape(0, 0, len_zero, ALL_COEFFS, 0, "0 x 0");
  run_shape(0, 7, len_zero, 2, 0, "0 x 7");
  run_shape(9, 0, len_zero, ALL_COEFFS, 0, "9 x 0");
  run_shape(5000, 300, len_zero, ALL_COEFFS, 0, "no entries");
  run_shape(200000, 5000, len_sparse_rows, 3, 1, "mostly empty rows");
}

Test(spmv, tall_and_wide) {
  run_shape(300000, 3, len_uniform, 3, 1, "tall 300000 x 3");
  run_shape(3, 300000, len_tile_edges, 3, 1, "wide 3 x 300000");
  run_shape(2, 2000000, len_huge_row, 2, 0, "wide, one huge row");
}

Test(spmv, tile_boundaries) {
  run_shape(600, 9000, len_tile_edges, 3, 0, "rows around tile sizes");
}

Test(spmv, huge_row) {
  run_shape(300000, 100000, len_huge_row, 3, 1, "one huge row");
  run_shape(20000, 20000, len_two_long, 3, 0, "two long rows");
}

Test(spmv, power_law) {
  prism_context *ctx = harness_context();
  prism_csr g;
  HARNESS_OK(NULL, prism_csr_rmat(14, 16, 42, &g));
  for (size_t t = 0; t < 2; t++) {
    if (!prism_context_supports(ctx, value_types[t]))
      continue;
    prism_csr_matrix m;
    matrix_from_csr(&m, &g, value_types[t], 3);
    run_matrix(ctx, &m, 3, 1, "rmat 14");
    matrix_release(&m);
  }
  prism_csr_free(&g);
  prism_context_destroy(ctx);
}

/* A 2-D 5-point Laplacian: exact on small integers, so every backend must
 * give the same bits as the serial loop. */
Test(spmv, laplacian_exact) {
  prism_context *ctx = harness_context();
  const size_t side = 300, rows = side * side;
  for (size_t t = 0; t < 2; t++) {
    const prism_type type = value_types[t];
    if (!prism_context_supports(ctx, type))
      continue;
    prism_csr_matrix m;
    matrix_alloc(&m, rows, rows, 5 * rows, type);
    size_t z = 0;
    m.csr.row_offsets[0] = 0;
    for (size_t i = 0; i < rows; i++) {
      const size_t r = i / side, c = i % side;
      const long nb[5] = {r > 0 ? (long)(i - side) : -1,
                          c > 0 ? (long)i - 1 : -1, (long)i,
                          c + 1 < side ? (long)i + 1 : -1,
                          r + 1 < side ? (long)(i + side) : -1};
      for (int k = 0; k < 5; k++) {
        if (nb[k] < 0)
          continue;
        m.csr.col_indices[z] = (uint32_t)nb[k];
        set_value(&m, z++, k == 2 ? 4.0 : -1.0);
      }
      m.csr.row_offsets[i + 1] = z;
    }
    m.csr.num_edges = z;
    const size_t size = prism_type_size(type);
    unsigned char *x = harness_malloc(rows * size);
    uint64_t state = 11;
    for (size_t i = 0; i < rows; i++) {
      double v = (double)(vec_next(&state) % 201) - 100;
      if (type == PRISM_F64)
        ((double *)x)[i] = v;
      else
        ((float *)x)[i] = (float)v;
    }
    unsigned char *want = harness_malloc(rows * size);
    ref_serial_spmv(&m, 1, x, 0, want);
    prism_matrix *a = NULL;
    HARNESS_OK(ctx, prism_matrix_create(ctx, &m, &a));
    prism_buffer *xb = harness_upload(ctx, x, rows * size);
    prism_buffer *yb = harness_poisoned(ctx, rows * size);
    HARNESS_OK(ctx, prism_spmv(ctx, 1, a, xb, 0, yb));
    unsigned char *got = harness_download(yb);
    cr_assert(memcmp(got, want, rows * size) == 0,
              "laplacian %s: not the serial loop's bits",
              prism_type_name(type));
    free(got);
    free(want);
    free(x);
    prism_buffer_destroy(xb);
    prism_buffer_destroy(yb);
    prism_matrix_destroy(a);
    matrix_release(&m);
  }
  prism_context_destroy(ctx);
}

/* prism_matrix_destroy and the accessors on dead and NULL handles; a
 * matrix left on a context is released with it. */
Test(spmv, lifetime) {
  prism_context *ctx = harness_context();
  prism_csr_matrix m;
  make_matrix(&m, 10, 10, len_uniform, PRISM_F32, 1);
  prism_matrix *a = NULL, *left = NULL;
  HARNESS_OK(ctx, prism_matrix_create(ctx, &m, &a));
  HARNESS_OK(ctx, prism_matrix_create(ctx, &m, &left));
  prism_matrix_destroy(a);
  prism_matrix_destroy(a);
  prism_matrix_destroy(NULL);
  cr_assert_eq(prism_matrix_rows(a), 0);
  cr_assert_eq(prism_matrix_cols(NULL), 0);
  cr_assert_eq(prism_matrix_entries(a), 0);
  cr_assert_eq(prism_matrix_rows(left), 10);
  matrix_release(&m);
  prism_context_destroy(ctx);
  cr_assert_eq(prism_matrix_rows(left), 0);
}

Test(spmv, bad_input) {
  prism_context *ctx = harness_context();
  prism_csr_matrix m;
  make_matrix(&m, 100, 50, len_uniform, PRISM_F32, 2);
  prism_matrix *a = NULL;
  const char *fn = "prism_matrix_create";

  /* Creation. */
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_matrix_create(ctx, &m, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, fn,
                 prism_matrix_create(ctx, NULL, &a));
  cr_assert_null(a);
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_matrix_create(NULL, &m, &a));
  m.value_type = PRISM_I32;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "value_type",
                 prism_matrix_create(ctx, &m, &a));
  m.value_type = PRISM_F32;
  uint32_t saved = m.csr.col_indices[7];
  m.csr.col_indices[7] = 50;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "col_indices[7]",
                 prism_matrix_create(ctx, &m, &a));
  m.csr.col_indices[7] = saved;
  const uint64_t saved_offset = m.csr.row_offsets[3];
  m.csr.row_offsets[3] = m.csr.row_offsets[4] + 1;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "row_offsets[4]",
                 prism_matrix_create(ctx, &m, &a));
  m.csr.row_offsets[3] = saved_offset;
  void *values = m.values;
  m.values = NULL;
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "values",
                 prism_matrix_create(ctx, &m, &a));
  m.values = values;
  cr_assert_null(a);
  harness_assert_alive(ctx, "refused matrices");

  HARNESS_OK(ctx, prism_matrix_create(ctx, &m, &a));
  const size_t size = 4;
  prism_buffer *x = harness_poisoned(ctx, 50 * size);
  prism_buffer *y = harness_poisoned(ctx, 100 * size);
  prism_buffer *small = harness_poisoned(ctx, 49 * size);
  prism_buffer *big = harness_poisoned(ctx, 200 * size);

  /* Multiplies. */
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "a",
                 prism_spmv(ctx, 1, NULL, x, 0, y));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "x",
                 prism_spmv(ctx, 1, a, NULL, 0, y));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "y",
                 prism_spmv(ctx, 1, a, x, 0, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_spmv(NULL, 1, a, x, 0, y));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "x holds",
                 prism_spmv(ctx, 1, a, small, 0, y));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "y holds",
                 prism_spmv(ctx, 1, a, x, 0, small));
  /* x and y in one buffer: apart is fine, overlapping refused. */
  prism_buffer *xv = NULL, *yv = NULL, *yo = NULL;
  HARNESS_OK(ctx, prism_buffer_view(big, 0, 50 * size, &xv));
  HARNESS_OK(ctx, prism_buffer_view(big, 50 * size, 100 * size, &yv));
  HARNESS_OK(ctx, prism_buffer_view(big, 40 * size, 100 * size, &yo));
  HARNESS_OK(ctx, prism_spmv(ctx, 1, a, xv, 0, yv));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "x and y",
                 prism_spmv(ctx, 1, a, xv, 0, yo));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "x and y",
                 prism_spmv(ctx, 1, a, big, 0, big));
  /* A view that does not start on an element. */
  prism_buffer *odd = NULL;
  HARNESS_OK(ctx, prism_buffer_view(big, 2, 100 * size, &odd));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "y",
                 prism_spmv(ctx, 1, a, x, 0, odd));

  /* A matrix of another context, and a destroyed one. */
  prism_context *other = harness_context();
  prism_matrix *foreign = NULL;
  HARNESS_OK(other, prism_matrix_create(other, &m, &foreign));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "a",
                 prism_spmv(ctx, 1, foreign, x, 0, y));
  prism_buffer *other_x = harness_poisoned(other, 50 * size);
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "x belongs",
                 prism_spmv(ctx, 1, a, other_x, 0, y));
  prism_matrix_destroy(foreign);
  HARNESS_EXPECT(other, PRISM_INVALID_ARGUMENT, "not a live prism matrix",
                 prism_spmv(other, 1, foreign, other_x, 0, y));
  prism_buffer_destroy(other_x);
  prism_context_destroy(other);

  /* y untouched by every refusal. */
  float *yh = harness_download(y);
  const unsigned char *yb = (const unsigned char *)yh;
  for (size_t b = 0; b < 100 * size; b++)
    cr_assert_eq(yb[b], HARNESS_POISON, "y byte %zu written by a refusal", b);
  free(yh);
  harness_assert_alive(ctx, "refused multiplies");

  prism_buffer_destroy(odd);
  prism_buffer_destroy(xv);
  prism_buffer_destroy(yv);
  prism_buffer_destroy(yo);
  prism_buffer_destroy(x);
  prism_buffer_destroy(y);
  prism_buffer_destroy(small);
  prism_buffer_destroy(big);
  prism_matrix_destroy(a);
  matrix_release(&m);
  prism_context_destroy(ctx);
}
