/* SPDX-License-Identifier: MIT */
/* More than 2^31 elements: 64-bit offsets everywhere they are needed
 * (reduce, scan, transpose, SpMV). Needs about 17 GB of device memory (as
 * much on the host for the SpMV matrix) and allocations past 4 GB, so it
 * runs only with PRISM_TEST_LARGE=1 (on a GPU); otherwise each test is
 * skipped and says so. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

static const size_t n = (1ull << 31) + 123;

static prism_context *large_context(void) {
  const char *flag = getenv("PRISM_TEST_LARGE");
  if (!flag || flag[0] != '1')
    cr_skip_test("needs ~17 GB of device memory: set PRISM_TEST_LARGE=1");
  return harness_context();
}

/* A buffer of n u32 ones, or a skip when the device cannot hold it. */
static prism_buffer *ones(prism_context *ctx) {
  prism_buffer *b = NULL;
  prism_status st = prism_buffer_create(ctx, n * 4, &b);
  if (st == PRISM_OUT_OF_MEMORY)
    cr_skip_test("device memory too small: %s", prism_context_last_error(ctx));
  cr_assert_eq(st, PRISM_OK, "%s", prism_context_last_error(ctx));
  const uint32_t one = 1;
  HARNESS_OK(ctx, prism_buffer_fill(b, 0, &one, 4, n * 4));
  return b;
}

Test(large, reduce_past_2_31) {
  prism_context *ctx = large_context();
  prism_buffer *b = ones(ctx);
  uint32_t sum = 0;
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_U32, PRISM_SUM, b, n, &sum));
  cr_assert_eq(sum, (uint32_t)n, "sum of ones: %u", sum);
  /* A maximum placed past 2^31 is found. */
  const uint32_t big = 77;
  HARNESS_OK(ctx, prism_buffer_write(b, (n - 5) * 4, &big, 4));
  uint32_t max = 0;
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_U32, PRISM_MAX, b, n, &max));
  cr_assert_eq(max, 77);
  prism_context_destroy(ctx);
}

Test(large, scan_past_2_31_in_place) {
  prism_context *ctx = large_context();
  prism_buffer *b = ones(ctx);
  HARNESS_OK(ctx,
             prism_scan(ctx, PRISM_U32, PRISM_SUM, PRISM_INCLUSIVE, b, b, n));
  const size_t chunk = 1u << 24;
  uint32_t *host = harness_malloc(chunk * 4);
  for (size_t at = 0; at < n; at += chunk) {
    size_t m = n - at < chunk ? n - at : chunk;
    HARNESS_OK(ctx, prism_buffer_read(b, at * 4, host, m * 4));
    for (size_t i = 0; i < m; i++)
      if (host[i] != (uint32_t)(at + i + 1))
        cr_assert_fail("element %zu: got %u, want %u", at + i, host[i],
                       (uint32_t)(at + i + 1));
  }
  free(host);
  prism_context_destroy(ctx);
}

/* A transpose of more than 2^31 elements of 1 or 2 bytes: in[r][c] =
 * (r * 7 + c * 13) truncated, so out[c][r] can be checked in stretches
 * without a second copy on the host. Sides that are multiples of 4 take
 * the packed path, odd ones the element path. */
static void transpose_past_2_31(size_t size, size_t rows, size_t cols) {
  prism_context *ctx = large_context();
  const size_t count = rows * cols, bytes = count * size;
  cr_assert_gt(count, (size_t)1 << 31, "the shape must pass 2^31 elements");
  prism_buffer *in = NULL, *out = NULL;
  prism_status st = prism_buffer_create(ctx, bytes, &in);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, bytes, &out);
  if (st == PRISM_OUT_OF_MEMORY)
    cr_skip_test("device memory too small: %s", prism_context_last_error(ctx));
  cr_assert_eq(st, PRISM_OK, "%s", prism_context_last_error(ctx));
  const size_t chunk_rows = ((size_t)1 << 26) / (cols * size) + 1;
  unsigned char *host = harness_malloc(chunk_rows * cols * size);
  for (size_t r0 = 0; r0 < rows; r0 += chunk_rows) {
    const size_t m = rows - r0 < chunk_rows ? rows - r0 : chunk_rows;
    for (size_t r = 0; r < m; r++)
      for (size_t c = 0; c < cols; c++) {
        const uint32_t v = (uint32_t)((r0 + r) * 7 + c * 13);
        memcpy(host + (r * cols + c) * size, &v, size); /* little-endian */
      }
    HARNESS_OK(ctx,
               prism_buffer_write(in, r0 * cols * size, host, m * cols * size));
  }
  free(host);
  HARNESS_OK(ctx, prism_transpose(ctx, size, in, out, rows, cols, 1));
  const size_t chunk_cols = ((size_t)1 << 26) / (rows * size) + 1;
  host = harness_malloc(chunk_cols * rows * size);
  for (size_t c0 = 0; c0 < cols; c0 += chunk_cols) {
    const size_t m = cols - c0 < chunk_cols ? cols - c0 : chunk_cols;
    HARNESS_OK(ctx,
               prism_buffer_read(out, c0 * rows * size, host, m * rows * size));
    for (size_t c = 0; c < m; c++)
      for (size_t r = 0; r < rows; r++) {
        const uint32_t v = (uint32_t)(r * 7 + (c0 + c) * 13);
        if (memcmp(host + (c * rows + r) * size, &v, size) != 0)
          cr_assert_fail("%zu x %zu of %zu-byte elements: out[%zu][%zu] is "
                         "not in[%zu][%zu]",
                         rows, cols, size, c0 + c, r, r, c0 + c);
      }
  }
  free(host);
  prism_buffer_destroy(in);
  prism_buffer_destroy(out);
  prism_context_destroy(ctx);
}

Test(large, transpose_past_2_31_elements) {
  transpose_past_2_31(1, 46341, 46349); /* odd sides: element by element */
}

Test(large, transpose_past_2_31_packed) {
  transpose_past_2_31(1, 46344, 46348); /* 4 x 4 blocks of bytes */
  transpose_past_2_31(2, 46346, 46342); /* 2 x 2 blocks of 2-byte elements */
}

/* column j of row i in spmv_past_2_31 */
static uint32_t large_col(size_t i, size_t j, size_t cols) {
  return (uint32_t)((i + j * 977) % cols);
}

/* SpMV over more than 2^31 entries: rows of 1024 and a last row of 2^20
 * (split over many tiles, the splits past 2^31), values 1, x[c] = c % 3,
 * so every y[i] is an exact integer whatever the order of the sum. */
static void spmv_past_2_31(size_t rows, size_t row_len, size_t last_len) {
  prism_context *ctx = large_context();
  const size_t cols = ((size_t)1 << 20) + 7;
  const size_t entries = (rows - 1) * row_len + last_len;
  prism_csr_matrix m = {0};
  m.csr.num_vertices = rows;
  m.csr.num_edges = entries;
  m.csr.directed = 1;
  m.num_cols = cols;
  m.value_type = PRISM_F32;
  m.csr.row_offsets = harness_malloc((rows + 1) * sizeof(uint64_t));
  m.csr.col_indices = malloc(entries * sizeof(uint32_t));
  m.values = malloc(entries * sizeof(float));
  if (!m.csr.col_indices || !m.values)
    cr_skip_test("host memory too small for %zu entries", entries);
  float *values = m.values;
  for (size_t i = 0, z = 0; i < rows; i++) {
    m.csr.row_offsets[i] = z;
    const size_t len = i + 1 < rows ? row_len : last_len;
    for (size_t j = 0; j < len; j++, z++) {
      m.csr.col_indices[z] = large_col(i, j, cols);
      values[z] = 1.0f;
    }
  }
  m.csr.row_offsets[rows] = entries;
  prism_matrix *a = NULL;
  prism_status st = prism_matrix_create(ctx, &m, &a);
  free(m.csr.col_indices);
  free(m.values);
  m.csr.col_indices = NULL;
  m.values = NULL;
  free(m.csr.row_offsets);
  if (st == PRISM_OUT_OF_MEMORY)
    cr_skip_test("device memory too small: %s", prism_context_last_error(ctx));
  cr_assert_eq(st, PRISM_OK, "%s", prism_context_last_error(ctx));
  float *x = harness_malloc(cols * sizeof(float));
  for (size_t c = 0; c < cols; c++)
    x[c] = (float)(c % 3);
  prism_buffer *xb = NULL, *yb = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, cols * sizeof(float), &xb));
  HARNESS_OK(ctx, prism_buffer_create(ctx, rows * sizeof(float), &yb));
  HARNESS_OK(ctx, prism_buffer_write(xb, 0, x, cols * sizeof(float)));
  HARNESS_OK(ctx, prism_spmv(ctx, 1.0, a, xb, 0.0, yb));
  float *y = harness_download(yb);
  for (size_t i = 0; i < rows; i++) {
    const size_t len = i + 1 < rows ? row_len : last_len;
    uint64_t want = 0;
    for (size_t j = 0; j < len; j++)
      want += large_col(i, j, cols) % 3;
    if (y[i] != (float)want)
      cr_assert_fail("%zu entries: y[%zu] = %.9g, want %llu", entries, i,
                     (double)y[i], (unsigned long long)want);
  }
  free(y);
  free(x);
  prism_buffer_destroy(xb);
  prism_buffer_destroy(yb);
  prism_matrix_destroy(a);
  prism_context_destroy(ctx);
}

Test(large, spmv_past_2_31_entries) {
  spmv_past_2_31(((size_t)1 << 21) + 1, 1024, (size_t)1 << 20);
}
