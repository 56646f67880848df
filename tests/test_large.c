/* SPDX-License-Identifier: MIT */
/* More than 2^31 elements: 64-bit offsets everywhere they are needed
 * (reduce, scan, pair sort, select, histogram, gather, transpose, SpMV).
 * Needs up to about 35 GB of device memory (the pair sort in place with
 * its scratch; 17 GB on the host while the SpMV matrix is made) and
 * allocations past 4 GB, so it runs only with PRISM_TEST_LARGE=1 (on a
 * GPU); otherwise each test is skipped and says so. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

static const size_t n = (1ull << 31) + 123;

static prism_context *large_context(void) {
  const char *flag = getenv("PRISM_TEST_LARGE");
  if (!flag || flag[0] != '1')
    cr_skip_test("needs ~35 GB of device memory: set PRISM_TEST_LARGE=1");
  return harness_context();
}

/* st of a call that takes much device memory: a skip when the device ran
 * out, a failure for any other error. */
static void large_ok(prism_context *ctx, prism_status st) {
  if (st == PRISM_OUT_OF_MEMORY)
    cr_skip_test("device memory too small: %s", prism_context_last_error(ctx));
  cr_assert_eq(st, PRISM_OK, "%s", prism_context_last_error(ctx));
}

/* A buffer of bytes, or a skip when the device cannot hold it. */
static prism_buffer *large_buffer(prism_context *ctx, size_t bytes) {
  prism_buffer *b = NULL;
  large_ok(ctx, prism_buffer_create(ctx, bytes, &b));
  return b;
}

/* A buffer of n u32 ones, or a skip when the device cannot hold it. */
static prism_buffer *ones(prism_context *ctx) {
  prism_buffer *b = large_buffer(ctx, n * 4);
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
  prism_buffer *in = large_buffer(ctx, bytes), *out = large_buffer(ctx, bytes);
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
  large_ok(ctx, st);
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

/* ---- Sort, select, histogram, gather ------------------------------------
 */

/* Element i of the u32 inputs below: a hash of i, every value likely. */
static uint32_t large_key(size_t i) {
  uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15ull;
  x ^= x >> 29;
  return (uint32_t)(x * 0xbf58476d1ce4e5b9ull >> 32);
}

/* Stretches of 2^24 elements for the host side of each check. */
#define STRETCH ((size_t)1 << 24)

/* A buffer of count u32 elements, element i f(i) (or i when f is NULL);
 * a skip when the device cannot hold it. */
static prism_buffer *u32_buffer(prism_context *ctx, size_t count,
                                uint32_t (*f)(size_t)) {
  prism_buffer *b = large_buffer(ctx, count * 4);
  uint32_t *host = harness_malloc(STRETCH * 4);
  for (size_t at = 0; at < count; at += STRETCH) {
    const size_t m = count - at < STRETCH ? count - at : STRETCH;
    for (size_t i = 0; i < m; i++)
      host[i] = f ? f(at + i) : (uint32_t)(at + i);
    HARNESS_OK(ctx, prism_buffer_write(b, at * 4, host, m * 4));
  }
  free(host);
  return b;
}

/* Pairs (large_key(i), i) sorted in place: keys in order, each value once,
 * its key the one it came with, equal keys in value order (stable). */
Test(large, sort_pairs_past_2_31_in_place) {
  prism_context *ctx = large_context();
  prism_buffer *keys = u32_buffer(ctx, n, large_key);
  prism_buffer *values = u32_buffer(ctx, n, NULL);
  HARNESS_OK(ctx, prism_sort_pairs(ctx, PRISM_U32, keys, keys, values, values,
                                   4, n, NULL));
  uint8_t *seen = calloc(n / 8 + 1, 1);
  cr_assert(seen != NULL, "host memory for %zu bits", n);
  uint32_t *k = harness_malloc(STRETCH * 4), *v = harness_malloc(STRETCH * 4);
  uint32_t last_key = 0, last_value = 0;
  for (size_t at = 0; at < n; at += STRETCH) {
    const size_t m = n - at < STRETCH ? n - at : STRETCH;
    HARNESS_OK(ctx, prism_buffer_read(keys, at * 4, k, m * 4));
    HARNESS_OK(ctx, prism_buffer_read(values, at * 4, v, m * 4));
    for (size_t i = 0; i < m; i++) {
      const size_t pos = at + i, from = v[i];
      if (from >= n || (seen[from / 8] >> (from % 8) & 1) ||
          k[i] != large_key(from))
        cr_assert_fail("position %zu: key %u with value %zu (lost, repeated "
                       "or not its key)",
                       pos, k[i], from);
      seen[from / 8] |= (uint8_t)(1u << (from % 8));
      if (pos > 0 &&
          (k[i] < last_key || (k[i] == last_key && v[i] < last_value)))
        cr_assert_fail("position %zu: (%u, %u) after (%u, %u)", pos, k[i], v[i],
                       last_key, last_value);
      last_key = k[i];
      last_value = v[i];
    }
  }
  free(k);
  free(v);
  free(seen);
  prism_buffer_destroy(keys);
  prism_buffer_destroy(values);
  prism_context_destroy(ctx);
}

/* select_if keeps the keys below 2^31 (about half), in order; the count
 * reaches the host. */
Test(large, select_if_past_2_31) {
  prism_context *ctx = large_context();
  prism_buffer *in = u32_buffer(ctx, n, large_key);
  prism_buffer *out = large_buffer(ctx, n * 4);
  prism_predicate below = {.compare = PRISM_LESS};
  below.a.u32 = 1u << 31;
  size_t count = 0;
  HARNESS_OK(ctx,
             prism_select_if(ctx, PRISM_U32, in, &below, out, n, NULL, &count));
  uint32_t *got = harness_malloc(STRETCH * 4);
  size_t kept = 0, have = 0, at = 0;
  for (size_t i = 0; i < n; i++) {
    const uint32_t x = large_key(i);
    if (x >= 1u << 31)
      continue;
    if (kept == at + have) { /* the next stretch of out */
      at = kept;
      have = count - at < STRETCH ? count - at : STRETCH;
      cr_assert_gt(have, 0, "more kept than the count %zu", count);
      HARNESS_OK(ctx, prism_buffer_read(out, at * 4, got, have * 4));
    }
    if (got[kept - at] != x)
      cr_assert_fail("out[%zu] = %u, want in[%zu] = %u", kept, got[kept - at],
                     i, x);
    kept++;
  }
  cr_assert_eq(count, kept, "count %zu, want %zu", count, kept);
  free(got);
  prism_buffer_destroy(in);
  prism_buffer_destroy(out);
  prism_context_destroy(ctx);
}

static uint32_t large_byte(size_t i) {
  return large_key(i) & 0xff;
}

/* 256 bins over n bytes (u64 counters): every bin's count exact. */
Test(large, histogram_past_2_31) {
  prism_context *ctx = large_context();
  prism_buffer *samples = large_buffer(ctx, n), *counts = NULL;
  uint64_t want[256] = {0};
  uint8_t *host = harness_malloc(STRETCH);
  for (size_t at = 0; at < n; at += STRETCH) {
    const size_t m = n - at < STRETCH ? n - at : STRETCH;
    for (size_t i = 0; i < m; i++) {
      host[i] = (uint8_t)large_byte(at + i);
      want[host[i]]++;
    }
    HARNESS_OK(ctx, prism_buffer_write(samples, at, host, m));
  }
  free(host);
  HARNESS_OK(ctx, prism_buffer_create(ctx, 256 * 8, &counts));
  HARNESS_OK(ctx, prism_histogram_even(ctx, PRISM_U8, samples, n, 256, 0, 256,
                                       PRISM_U64, counts));
  uint64_t *got = harness_download(counts);
  for (int b = 0; b < 256; b++)
    cr_assert_eq(got[b], want[b], "bin %d: %llu, want %llu", b,
                 (unsigned long long)got[b], (unsigned long long)want[b]);
  free(got);
  prism_buffer_destroy(samples);
  prism_buffer_destroy(counts);
  prism_context_destroy(ctx);
}

/* Gather from past 2^31 with u64 indices: the last elements, the first,
 * and hashes across the whole range. */
Test(large, gather_past_2_31) {
  prism_context *ctx = large_context();
  prism_buffer *in = u32_buffer(ctx, n, large_key);
  const size_t m = (size_t)1 << 20;
  uint64_t *idx = harness_malloc(m * 8);
  for (size_t i = 0; i < m; i++)
    idx[i] = i < 1024
                 ? n - 1 - i
                 : (i < 2048 ? i - 1024 : large_key(i) * (uint64_t)n >> 32);
  prism_buffer *indices = NULL, *out = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, m * 8, &indices));
  HARNESS_OK(ctx, prism_buffer_create(ctx, m * 4, &out));
  HARNESS_OK(ctx, prism_buffer_write(indices, 0, idx, m * 8));
  size_t first_bad = 0;
  HARNESS_OK(ctx, prism_gather(ctx, 4, in, n, PRISM_U64, indices, out, m, 1,
                               &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX, "first bad index %zu", first_bad);
  uint32_t *got = harness_download(out);
  for (size_t i = 0; i < m; i++)
    if (got[i] != large_key((size_t)idx[i]))
      cr_assert_fail("out[%zu] = %u, want in[%llu] = %u", i, got[i],
                     (unsigned long long)idx[i], large_key((size_t)idx[i]));
  free(got);
  free(idx);
  prism_buffer_destroy(in);
  prism_buffer_destroy(indices);
  prism_buffer_destroy(out);
  prism_context_destroy(ctx);
}
