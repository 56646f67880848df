/* SPDX-License-Identifier: MIT */
/* Every backend and OpenCL platform present gives the same answers: each
 * is compared with the first one opened, on the shared vectors. Skipped
 * (exit 77) where fewer than two are present. */
#include "harness.h"
#include "ref_scan.h"
#include "vectors.h"

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

Test(cross, sort_pairs_f32) {
  compare_exact("sort pairs f32", run_sort_pairs, PRISM_F32);
}
Test(cross, histogram_u32) {
  compare_exact("histogram u32", run_histogram, PRISM_U32);
}
Test(cross, partition_u32) {
  compare_exact("partition_if u32", run_partition, PRISM_U32);
}
