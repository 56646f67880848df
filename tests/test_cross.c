/* SPDX-License-Identifier: MIT */
/* Every backend and OpenCL platform present gives the same answers: each
 * is compared with the first one opened, on the shared vectors. Skipped
 * (exit 77) where fewer than two are present. */
#include "harness.h"
#include "ref_scan.h"
#include "ref_spmv.h"
#include "vectors.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 2;

static const size_t sizes[] = {1, 1000, 4097, 65537, 1000003, (1u << 24) + 1};

static void *run_scan(prism_context *ctx, prism_type type, prism_op op,
                      prism_scan_kind kind, const void *host, size_t n) {
  size_t bytes = n * prism_type_size(type);
  prism_buffer *in = harness_upload(ctx, host, bytes);
  prism_buffer *out = harness_poisoned(ctx, bytes);
  HARNESS_OK(ctx, prism_scan(ctx, type, op, kind, in, out, n));
  void *got = harness_download(out);
  prism_buffer_destroy(out);
  prism_buffer_destroy(in);
  return got;
}

static void compare_all(prism_type type, prism_op op) {
  prism_context *ctx[HARNESS_MAX_CONTEXTS];
  int count = harness_open_all(ctx, HARNESS_MAX_CONTEXTS);
  cr_assert_geq(count, 2);
  size_t size = prism_type_size(type);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    size_t n = sizes[s];
    void *host = harness_malloc(n * size);
    vec_fill(type,
             type == PRISM_F32 || type == PRISM_F64 ? VEC_SPECIAL : VEC_RANDOM,
             n, host, n);
    if (op == PRISM_SUM && (type == PRISM_F32 || type == PRISM_F64))
      vec_fill(type, VEC_RANDOM, n, host, n);
    double *tol = harness_malloc(n * sizeof *tol);
    void *want = harness_malloc(n * size);
    ref_scan(type, op, PRISM_INCLUSIVE, host, want, n, tol);
    /* Twice the reference tolerance: each side may be off by one bound. */
    for (size_t i = 0; i < n; i++)
      tol[i] *= 2;
    void *first = NULL;
    int first_i = -1;
    for (int c = 0; c < count; c++) {
      if (!prism_context_supports(ctx[c], type))
        continue;
      void *got = run_scan(ctx[c], type, op, PRISM_INCLUSIVE, host, n);
      if (!first) {
        first = got;
        first_i = c;
        continue;
      }
      char msg[256];
      size_t bad = ref_compare(type, op, got, first, tol, n, msg, sizeof msg);
      cr_assert_eq(bad, n, "scan %s %s n = %zu: %s/%s vs %s/%s: %s",
                   prism_type_name(type), prism_op_name(op), n,
                   prism_context_platform_name(ctx[c]),
                   prism_context_device_name(ctx[c]),
                   prism_context_platform_name(ctx[first_i]),
                   prism_context_device_name(ctx[first_i]), msg);
      unsigned char r0[8], r1[8];
      HARNESS_OK(ctx[c],
                 prism_reduce(ctx[c], type, op,
                              harness_upload(ctx[c], host, n * size), n, r0));
      HARNESS_OK(ctx[first_i],
                 prism_reduce(ctx[first_i], type, op,
                              harness_upload(ctx[first_i], host, n * size), n,
                              r1));
      double sc = 2 * ref_sum_tolerance(type, host, n);
      bad = ref_compare(type, op, r0, r1, &sc, 1, msg, sizeof msg);
      cr_assert_eq(bad, 1, "reduce %s %s n = %zu differs between %s and %s: %s",
                   prism_type_name(type), prism_op_name(op), n,
                   prism_context_platform_name(ctx[c]),
                   prism_context_platform_name(ctx[first_i]), msg);
      free(got);
    }
    free(first);
    free(want);
    free(tol);
    free(host);
  }
  for (int c = 0; c < count; c++)
    prism_context_destroy(ctx[c]);
}

#define CROSS_TEST(T, O)                                                       \
  Test(cross, T##_##O) {                                                       \
    compare_all(PRISM_##T, PRISM_##O);                                         \
  }
#define CROSS_TESTS_FOR_TYPE(T)                                                \
  CROSS_TEST(T, SUM)                                                           \
  CROSS_TEST(T, MIN)                                                           \
  CROSS_TEST(T, MAX)

CROSS_TESTS_FOR_TYPE(I32)
CROSS_TESTS_FOR_TYPE(U32)
CROSS_TESTS_FOR_TYPE(F32)
CROSS_TESTS_FOR_TYPE(I64)
CROSS_TESTS_FOR_TYPE(U64)
CROSS_TESTS_FOR_TYPE(F64)

/* ---- Primitives with exact outputs: every context gives the same bytes -- */

/* One primitive's output for the shared input, as host bytes (malloc'd);
 * *bytes is its size. */
typedef void *(*exact_run)(prism_context *ctx, const void *host, size_t n,
                           size_t *bytes);

static void compare_exact(const char *what, exact_run run, prism_type type) {
  prism_context *ctx[HARNESS_MAX_CONTEXTS];
  int count = harness_open_all(ctx, HARNESS_MAX_CONTEXTS);
  cr_assert_geq(count, 2);
  size_t size = prism_type_size(type);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    size_t n = sizes[s];
    void *host = harness_malloc(n * size);
    vec_fill(type, VEC_RANDOM, n, host, n);
    void *first = NULL;
    size_t first_bytes = 0;
    int first_i = -1;
    for (int c = 0; c < count; c++) {
      if (!prism_context_supports(ctx[c], type))
        continue;
      size_t bytes = 0;
      void *got = run(ctx[c], host, n, &bytes);
      if (!first) {
        first = got;
        first_bytes = bytes;
        first_i = c;
        continue;
      }
      cr_assert(bytes == first_bytes && memcmp(got, first, bytes) == 0,
                "%s n = %zu: %s/%s differs from %s/%s", what, n,
                prism_context_platform_name(ctx[c]),
                prism_context_device_name(ctx[c]),
                prism_context_platform_name(ctx[first_i]),
                prism_context_device_name(ctx[first_i]));
      free(got);
    }
    free(first);
    free(host);
  }
  for (int c = 0; c < count; c++)
    prism_context_destroy(ctx[c]);
}

/* Stable sort of f32 keys with their input index as value: keys then
 * values. */
static void *run_sort_pairs(prism_context *ctx, const void *host, size_t n,
                            size_t *bytes) {
  uint32_t *index = harness_malloc(n * sizeof *index);
  for (size_t i = 0; i < n; i++)
    index[i] = (uint32_t)i;
  prism_buffer *keys = harness_upload(ctx, host, n * 4);
  prism_buffer *values = harness_upload(ctx, index, n * 4);
  HARNESS_OK(ctx, prism_sort_pairs(ctx, PRISM_F32, keys, keys, values, values,
                                   4, n, NULL));
  unsigned char *out = harness_malloc(2 * n * 4);
  HARNESS_OK(ctx, prism_buffer_read(keys, 0, out, n * 4));
  HARNESS_OK(ctx, prism_buffer_read(values, 0, out + n * 4, n * 4));
  prism_buffer_destroy(values);
  prism_buffer_destroy(keys);
  free(index);
  *bytes = 2 * n * 4;
  return out;
}

/* 1000 even bins over the u32 range. */
static void *run_histogram(prism_context *ctx, const void *host, size_t n,
                           size_t *bytes) {
  const size_t bins = 1000;
  prism_buffer *in = harness_upload(ctx, host, n * 4);
  prism_buffer *counts = harness_poisoned(ctx, bins * 4);
  HARNESS_OK(ctx, prism_histogram_even(ctx, PRISM_U32, in, n, bins, 0,
                                       4294967296.0, PRISM_U32, counts));
  void *out = harness_download(counts);
  prism_buffer_destroy(counts);
  prism_buffer_destroy(in);
  *bytes = bins * 4;
  return out;
}

/* Partition of u32 by x < 2^31: the count, then every element. */
static void *run_partition(prism_context *ctx, const void *host, size_t n,
                           size_t *bytes) {
  prism_predicate p;
  memset(&p, 0, sizeof p);
  p.compare = PRISM_LESS;
  p.a.u32 = 1u << 31;
  prism_buffer *in = harness_upload(ctx, host, n * 4);
  prism_buffer *out = harness_poisoned(ctx, n * 4);
  size_t kept = 0;
  HARNESS_OK(ctx,
             prism_partition_if(ctx, PRISM_U32, in, &p, out, n, NULL, &kept));
  unsigned char *result = harness_malloc(8 + n * 4);
  uint64_t k = kept;
  memcpy(result, &k, 8);
  HARNESS_OK(ctx, prism_buffer_read(out, 0, result + 8, n * 4));
  prism_buffer_destroy(out);
  prism_buffer_destroy(in);
  *bytes = 8 + n * 4;
  return result;
}

/* Segmented sort of f32 keys with their input index as value, in
 * segments of mixed lengths (tiny to a tenth of the array, empty ones
 * among them; the last keys uncovered): keys then values. */
static void *run_segmented_sort_pairs(prism_context *ctx, const void *host,
                                      size_t n, size_t *bytes) {
  uint32_t *index = harness_malloc(n * sizeof *index);
  /* No two empty segments in a row: at most 2 * n + 1 segments. */
  uint64_t *offsets = harness_malloc((2 * n + 2) * sizeof *offsets);
  for (size_t i = 0; i < n; i++)
    index[i] = (uint32_t)i;
  size_t count = 0, at = 0, end = n - n / 50;
  uint64_t state = n;
  offsets[0] = 0;
  while (at < end) {
    uint64_t r = vec_next(&state);
    size_t len = r % 97 == 0 ? (size_t)(r >> 8) % (n / 10 + 1) : r % 40;
    if (len == 0 && count && offsets[count] == offsets[count - 1])
      len = 1;
    at = len > end - at ? end : at + len;
    offsets[++count] = at;
  }
  prism_buffer *keys = harness_upload(ctx, host, n * 4);
  prism_buffer *values = harness_upload(ctx, index, n * 4);
  prism_buffer *dev_offsets =
      harness_upload(ctx, offsets, (count + 1) * sizeof *offsets);
  HARNESS_OK(ctx, prism_segmented_sort_pairs(ctx, PRISM_F32, keys, keys, values,
                                             values, 4, n, PRISM_U64,
                                             dev_offsets, count, NULL, NULL));
  unsigned char *out = harness_malloc(2 * n * 4);
  HARNESS_OK(ctx, prism_buffer_read(keys, 0, out, n * 4));
  HARNESS_OK(ctx, prism_buffer_read(values, 0, out + n * 4, n * 4));
  prism_buffer_destroy(dev_offsets);
  prism_buffer_destroy(values);
  prism_buffer_destroy(keys);
  free(offsets);
  free(index);
  *bytes = 2 * n * 4;
  return out;
}

/* Top-k of f32 keys with their column indices (u32), sorted: the
 * largest min(n, 1000) of one row of all n keys, then the smallest 13 of
 * each row of 97 (the first n - n % 97 keys): keys then indices of each. */
static void *run_topk(prism_context *ctx, const void *host, size_t n,
                      size_t *bytes) {
  const size_t k1 = n < 1000 ? n : 1000, rows = n / 97, k2 = 13;
  const size_t outs = k1 + rows * k2;
  prism_buffer *keys = harness_upload(ctx, host, n * 4);
  prism_buffer *keys_out = harness_poisoned(ctx, outs * 4);
  prism_buffer *index_out = harness_poisoned(ctx, outs * 4);
  prism_buffer *k_one = NULL, *i_one = NULL, *k_rows = NULL, *i_rows = NULL;
  HARNESS_OK(ctx, prism_buffer_view(keys_out, 0, k1 * 4, &k_one));
  HARNESS_OK(ctx, prism_buffer_view(index_out, 0, k1 * 4, &i_one));
  HARNESS_OK(ctx, prism_topk(ctx, PRISM_F32, keys, NULL, 1, n, k1, k_one, i_one,
                             4, NULL));
  if (rows) {
    prism_topk_options up;
    prism_topk_options_init(&up);
    up.order = PRISM_ASCENDING;
    HARNESS_OK(ctx,
               prism_buffer_view(keys_out, k1 * 4, rows * k2 * 4, &k_rows));
    HARNESS_OK(ctx,
               prism_buffer_view(index_out, k1 * 4, rows * k2 * 4, &i_rows));
    HARNESS_OK(ctx, prism_topk(ctx, PRISM_F32, keys, NULL, rows, 97, k2, k_rows,
                               i_rows, 4, &up));
  }
  unsigned char *out = harness_malloc(2 * outs * 4);
  HARNESS_OK(ctx, prism_buffer_read(keys_out, 0, out, outs * 4));
  HARNESS_OK(ctx, prism_buffer_read(index_out, 0, out + outs * 4, outs * 4));
  prism_buffer_destroy(i_rows);
  prism_buffer_destroy(k_rows);
  prism_buffer_destroy(i_one);
  prism_buffer_destroy(k_one);
  prism_buffer_destroy(index_out);
  prism_buffer_destroy(keys_out);
  prism_buffer_destroy(keys);
  *bytes = 2 * outs * 4;
  return out;
}

Test(cross, sort_pairs_f32) {
  compare_exact("sort pairs f32", run_sort_pairs, PRISM_F32);
}
Test(cross, segmented_sort_pairs_f32) {
  compare_exact("segmented sort pairs f32", run_segmented_sort_pairs,
                PRISM_F32);
}
Test(cross, topk_f32) {
  compare_exact("topk f32 with indices", run_topk, PRISM_F32);
}
Test(cross, histogram_u32) {
  compare_exact("histogram u32", run_histogram, PRISM_U32);
}
Test(cross, partition_u32) {
  compare_exact("partition_if u32", run_partition, PRISM_U32);
}

/* Transpose of 4-byte elements as rows x cols with cols = min(n, 1021):
 * bit for bit everywhere. */
static void *run_transpose(prism_context *ctx, const void *host, size_t n,
                           size_t *bytes) {
  const size_t cols = n < 1021 ? n : 1021, rows = n / cols;
  prism_buffer *in = harness_upload(ctx, host, rows * cols * 4);
  prism_buffer *out = harness_poisoned(ctx, rows * cols * 4);
  HARNESS_OK(ctx, prism_transpose(ctx, 4, in, out, rows, cols, 1));
  void *result = harness_download(out);
  prism_buffer_destroy(out);
  prism_buffer_destroy(in);
  *bytes = rows * cols * 4;
  return result;
}

/* f32 stencils over the input read as a grid (prism.h fixes the sum, so
 * every backend gives the same bits): a 2-D 5 x 5 box with clamped
 * borders, then a 3-D 7-point star with periodic ones, the second applied
 * twice. The inputs are the shared random u32 vectors scaled to [0, 1). */
static void *run_stencils(prism_context *ctx, const void *host, size_t n,
                          size_t *bytes) {
  float *grid = harness_malloc(n * 4);
  for (size_t i = 0; i < n; i++)
    grid[i] = (float)(((const uint32_t *)host)[i] >> 8) / 16777216.0f;
  const size_t nx = n < 1021 ? n : 1021, ny = n / nx;
  const size_t side3 = ny < 3 ? 1 : 3, nz3 = n / (nx * side3);
  float box[25], star[27] = {0};
  for (int i = 0; i < 25; i++)
    box[i] = (float)(i % 7) * 0.125f - 0.375f;
  const int axes[7] = {4, 10, 12, 13, 14, 16, 22};
  for (int i = 0; i < 7; i++)
    star[axes[i]] = i == 3 ? -6.0f : 1.0f;
  prism_stencil_desc d2, d3;
  prism_stencil_desc_init(&d2);
  d2.nx = nx, d2.ny = ny, d2.radius = 2, d2.border = PRISM_BORDER_CLAMP;
  prism_stencil_desc_init(&d3);
  d3.dims = 3, d3.nx = nx, d3.ny = side3, d3.nz = nz3;
  d3.border = PRISM_BORDER_PERIODIC;
  const size_t p2 = nx * ny, p3 = d3.nx * d3.ny * d3.nz;
  prism_stencil *s2, *s3;
  HARNESS_OK(ctx, prism_stencil_create(ctx, &d2, box, &s2));
  HARNESS_OK(ctx, prism_stencil_create(ctx, &d3, star, &s3));
  prism_buffer *in = harness_upload(ctx, grid, n * 4);
  prism_buffer *o2 = harness_poisoned(ctx, p2 * 4);
  prism_buffer *o3 = harness_poisoned(ctx, p3 * 4);
  HARNESS_OK(ctx, prism_stencil_apply(ctx, s2, in, o2, 1));
  HARNESS_OK(ctx, prism_stencil_apply(ctx, s3, in, o3, 2));
  unsigned char *result = harness_malloc((p2 + p3) * 4);
  HARNESS_OK(ctx, prism_buffer_read(o2, 0, result, p2 * 4));
  HARNESS_OK(ctx, prism_buffer_read(o3, 0, result + p2 * 4, p3 * 4));
  prism_buffer_destroy(o3);
  prism_buffer_destroy(o2);
  prism_buffer_destroy(in);
  prism_stencil_destroy(s3);
  prism_stencil_destroy(s2);
  free(grid);
  *bytes = (p2 + p3) * 4;
  return result;
}

Test(cross, transpose_u32) {
  compare_exact("transpose 4-byte", run_transpose, PRISM_U32);
}
Test(cross, stencils_f32) {
  compare_exact("stencils f32", run_stencils, PRISM_U32);
}

/* ---- SpMV: every context within the reference's tolerance of the first -- */

/* A rows x rows matrix of row lengths 0 .. 40 (one row in 97 with 5000)
 * and values in [-1, 1), the same on every context. */
static void spmv_matrix(prism_csr_matrix *m, size_t rows, prism_type type) {
  uint64_t state = 12345;
  memset(m, 0, sizeof *m);
  m->csr.num_vertices = rows;
  m->num_cols = rows;
  m->value_type = type;
  m->csr.row_offsets = harness_malloc((rows + 1) * sizeof(uint64_t));
  size_t entries = 0;
  m->csr.row_offsets[0] = 0;
  for (size_t i = 0; i < rows; i++) {
    entries += i % 97 == 13 ? 5000 : (i * 7919) % 41;
    m->csr.row_offsets[i + 1] = entries;
  }
  m->csr.num_edges = entries;
  m->csr.col_indices = harness_malloc((entries ? entries : 1) * 4);
  m->values = harness_malloc((entries ? entries : 1) * 8);
  for (size_t e = 0; e < entries; e++) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    m->csr.col_indices[e] = (uint32_t)((state >> 33) % rows);
    const double v = (double)(state >> 11) / 9007199254740992.0 * 2 - 1;
    if (type == PRISM_F64)
      ((double *)m->values)[e] = v;
    else
      ((float *)m->values)[e] = (float)v;
  }
}

static void compare_spmv(prism_type type) {
  prism_context *ctx[HARNESS_MAX_CONTEXTS];
  int count = harness_open_all(ctx, HARNESS_MAX_CONTEXTS);
  cr_assert_geq(count, 2);
  const size_t size = prism_type_size(type);
  const size_t row_counts[] = {1, 1000, 65537};
  for (size_t s = 0; s < sizeof row_counts / sizeof row_counts[0]; s++) {
    const size_t rows = row_counts[s];
    prism_csr_matrix m;
    spmv_matrix(&m, rows, type);
    void *x = harness_malloc(rows * size);
    vec_fill(type, VEC_RANDOM, rows, x, rows);
    double *ref = harness_malloc(rows * sizeof *ref);
    double *tol = harness_malloc(rows * sizeof *tol);
    ref_spmv(&m, 1.0, x, 0.0, NULL, ref, tol);
    for (size_t i = 0; i < rows; i++)
      tol[i] *= 2; /* each side may be off by one bound */
    void *first = NULL;
    int first_i = -1;
    for (int c = 0; c < count; c++) {
      if (!prism_context_supports(ctx[c], type))
        continue;
      prism_matrix *a;
      HARNESS_OK(ctx[c], prism_matrix_create(ctx[c], &m, &a));
      prism_buffer *bx = harness_upload(ctx[c], x, rows * size);
      prism_buffer *by = harness_poisoned(ctx[c], rows * size);
      HARNESS_OK(ctx[c], prism_spmv(ctx[c], 1.0, a, bx, 0.0, by));
      void *got = harness_download(by);
      prism_buffer_destroy(by);
      prism_buffer_destroy(bx);
      prism_matrix_destroy(a);
      size_t bad = ref_check_spmv(type, rows, got, ref, tol);
      cr_assert_eq(bad, (size_t)-1, "spmv %s rows = %zu: %s/%s off at row %zu",
                   prism_type_name(type), rows,
                   prism_context_platform_name(ctx[c]),
                   prism_context_device_name(ctx[c]), bad);
      if (!first) {
        first = got;
        first_i = c;
        continue;
      }
      /* Against the first context: the first's values as the reference,
       * the same bound. */
      double *as_ref = harness_malloc(rows * sizeof *as_ref);
      for (size_t i = 0; i < rows; i++)
        as_ref[i] =
            type == PRISM_F64 ? ((double *)first)[i] : ((float *)first)[i];
      bad = ref_check_spmv(type, rows, got, as_ref, tol);
      cr_assert_eq(bad, (size_t)-1,
                   "spmv %s rows = %zu: %s/%s and %s/%s differ at row %zu",
                   prism_type_name(type), rows,
                   prism_context_platform_name(ctx[c]),
                   prism_context_device_name(ctx[c]),
                   prism_context_platform_name(ctx[first_i]),
                   prism_context_device_name(ctx[first_i]), bad);
      free(as_ref);
      free(got);
    }
    free(first);
    free(tol);
    free(ref);
    free(x);
    free(m.values);
    free(m.csr.col_indices);
    free(m.csr.row_offsets);
  }
  for (int c = 0; c < count; c++)
    prism_context_destroy(ctx[c]);
}

Test(cross, spmv_f32) {
  compare_spmv(PRISM_F32);
}
Test(cross, spmv_f64) {
  compare_spmv(PRISM_F64);
}
