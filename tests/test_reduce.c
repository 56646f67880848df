/* SPDX-License-Identifier: MIT */
/* prism_reduce against the serial reference on the shared vectors. */
#include "harness.h"
#include "ref_scan.h"
#include "vectors.h"

#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

static void check_reduce(prism_context *ctx, prism_type type, prism_op op,
                         vec_pattern pattern, size_t n) {
  size_t size = prism_type_size(type);
  void *host = harness_malloc(n * size);
  vec_fill(type, pattern, n + 11, host, n);
  double want[1], got[1]; /* room for any one element */
  ref_reduce(type, op, host, n, want);
  double tol = ref_sum_tolerance(type, host, n);

  prism_buffer *in = harness_upload(ctx, host, n * size);
  HARNESS_OK(ctx, prism_reduce(ctx, type, op, in, n, got));
  char msg[256];
  size_t bad = ref_compare(type, op, got, want, &tol, 1, msg, sizeof msg);
  cr_assert_eq(bad, 1, "reduce %s %s, %s, n = %zu: %s", prism_type_name(type),
               prism_op_name(op), vec_pattern_name(pattern), n, msg);
  /* The device result has the same bits, and only its element is
   * written. */
  prism_buffer *out = harness_poisoned(ctx, 3 * size);
  HARNESS_OK(ctx, prism_reduce_to_buffer(ctx, type, op, in, n, out));
  unsigned char *dev = harness_download(out);
  cr_assert(memcmp(dev, got, size) == 0,
            "reduce_to_buffer %s %s, %s, n = %zu differs from prism_reduce",
            prism_type_name(type), prism_op_name(op), vec_pattern_name(pattern),
            n);
  for (size_t i = size; i < 3 * size; i++)
    cr_assert_eq(dev[i], HARNESS_POISON, "byte %zu past the result written", i);
  free(dev);
  prism_buffer_destroy(out);
  prism_buffer_destroy(in);
  free(host);
}

static void reduce_suite(prism_type type, prism_op op) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  for (size_t s = 0; s < vec_sizes_count; s++)
    for (int p = 0; p < VEC_PATTERN_COUNT; p++)
      if (vec_pattern_applies(p, type))
        check_reduce(ctx, type, op, p, vec_sizes[s]);
  for (size_t s = 0; s < vec_large_sizes_count; s++) {
    check_reduce(ctx, type, op, VEC_RANDOM, vec_large_sizes[s]);
    check_reduce(ctx, type, op, VEC_EXTREME, vec_large_sizes[s]);
  }
  prism_context_destroy(ctx);
}

#define REDUCE_TEST(T, O)                                                      \
  Test(reduce, T##_##O) {                                                      \
    reduce_suite(PRISM_##T, PRISM_##O);                                        \
  }
#define REDUCE_TESTS_FOR_TYPE(T)                                               \
  REDUCE_TEST(T, SUM)                                                          \
  REDUCE_TEST(T, MIN)                                                          \
  REDUCE_TEST(T, MAX)

REDUCE_TESTS_FOR_TYPE(I32)
REDUCE_TESTS_FOR_TYPE(U32)
REDUCE_TESTS_FOR_TYPE(F32)
REDUCE_TESTS_FOR_TYPE(I64)
REDUCE_TESTS_FOR_TYPE(U64)
REDUCE_TESTS_FOR_TYPE(F64)

/* The identity comes back for n = 0, even from an empty buffer. */
Test(reduce, empty_gives_identity) {
  prism_context *ctx = harness_context();
  prism_buffer *empty = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, 0, &empty));
  int32_t i32 = 5;
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_I32, PRISM_MIN, empty, 0, &i32));
  cr_assert_eq(i32, INT32_MAX);
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_I32, PRISM_SUM, empty, 0, &i32));
  cr_assert_eq(i32, 0);
  float f32 = 0;
  HARNESS_OK(ctx, prism_reduce(ctx, PRISM_F32, PRISM_MAX, empty, 0, &f32));
  cr_assert(f32 < -3.4e38f, "max of nothing is -inf, got %g", (double)f32);
  /* And in a device buffer. */
  prism_buffer *out = harness_poisoned(ctx, 8);
  HARNESS_OK(ctx,
             prism_reduce_to_buffer(ctx, PRISM_U64, PRISM_MIN, empty, 0, out));
  uint64_t u64 = 0;
  HARNESS_OK(ctx, prism_buffer_read(out, 0, &u64, sizeof u64));
  cr_assert_eq(u64, UINT64_MAX);
  prism_buffer_destroy(out);
  prism_buffer_destroy(empty);
  prism_context_destroy(ctx);
}
