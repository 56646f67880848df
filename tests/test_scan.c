/* SPDX-License-Identifier: MIT */
/* prism_scan against the serial reference on the shared vectors. */
#include "harness.h"
#include "ref_scan.h"
#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

/* Bytes past the n elements that must stay poisoned. */
#define GUARD_BYTES 64

/* Large sizes take only these patterns, to bound the run time. */
static int pattern_at_size(vec_pattern p, size_t n) {
  return n <= 65537 || p == VEC_RANDOM || p == VEC_SMALL || p == VEC_SPECIAL;
}

static void check_guard(const unsigned char *bytes, size_t from,
                        const char *what) {
  for (size_t i = 0; i < GUARD_BYTES; i++)
    cr_assert_eq(bytes[from + i], HARNESS_POISON,
                 "%s: byte %zu past the end was written", what, i);
}

static void check_scan(prism_context *ctx, prism_type type, prism_op op,
                       prism_scan_kind kind, vec_pattern pattern, size_t n,
                       int in_place) {
  size_t size = prism_type_size(type), bytes = n * size;
  void *host = harness_malloc(bytes), *want = harness_malloc(bytes);
  int float_sum = op == PRISM_SUM && (type == PRISM_F32 || type == PRISM_F64);
  double *tol = float_sum ? harness_malloc(n * sizeof *tol) : NULL;
  vec_fill(type, pattern, n, host, n);
  ref_scan(type, op, kind, host, want, n, tol);

  prism_buffer *in = harness_poisoned(ctx, bytes + GUARD_BYTES);
  if (bytes)
    HARNESS_OK(ctx, prism_buffer_write(in, 0, host, bytes));
  prism_buffer *out =
      in_place ? in : harness_poisoned(ctx, bytes + GUARD_BYTES);
  HARNESS_OK(ctx, prism_scan(ctx, type, op, kind, in, out, n));
  unsigned char *got = harness_download(out);

  char what[160], msg[256];
  snprintf(what, sizeof what, "scan %s %s %s, %s, n = %zu%s",
           prism_type_name(type), prism_op_name(op),
           kind == PRISM_INCLUSIVE ? "inclusive" : "exclusive",
           vec_pattern_name(pattern), n, in_place ? ", in place" : "");
  size_t bad = ref_compare(type, op, got, want, tol, n, msg, sizeof msg);
  cr_assert_eq(bad, n, "%s: %s", what, msg);
  check_guard(got, bytes, what);
  if (!in_place) {
    /* The input is untouched. */
    unsigned char *in_after = harness_download(in);
    cr_assert(memcmp(in_after, host, bytes) == 0, "%s: input modified", what);
    free(in_after);
    prism_buffer_destroy(out);
  }
  prism_buffer_destroy(in);
  free(got);
  free(tol);
  free(want);
  free(host);
}

static void scan_suite(prism_type type, prism_op op, prism_scan_kind kind) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  for (size_t s = 0; s < vec_sizes_count; s++)
    for (int p = 0; p < VEC_PATTERN_COUNT; p++)
      if (vec_pattern_applies(p, type) && pattern_at_size(p, vec_sizes[s]))
        check_scan(ctx, type, op, kind, p, vec_sizes[s], 0);
  /* In place, at every size with one pattern. */
  for (size_t s = 0; s < vec_sizes_count; s++)
    check_scan(ctx, type, op, kind, VEC_RANDOM, vec_sizes[s], 1);
  prism_context_destroy(ctx);
}

#define SCAN_TEST(T, O, K)                                                     \
  Test(scan, T##_##O##_##K) {                                                  \
    scan_suite(PRISM_##T, PRISM_##O, PRISM_##K);                               \
  }
#define SCAN_TESTS_FOR_TYPE(T)                                                 \
  SCAN_TEST(T, SUM, INCLUSIVE)                                                 \
  SCAN_TEST(T, SUM, EXCLUSIVE)                                                 \
  SCAN_TEST(T, MIN, INCLUSIVE)                                                 \
  SCAN_TEST(T, MIN, EXCLUSIVE)                                                 \
  SCAN_TEST(T, MAX, INCLUSIVE)                                                 \
  SCAN_TEST(T, MAX, EXCLUSIVE)

SCAN_TESTS_FOR_TYPE(I32)
SCAN_TESTS_FOR_TYPE(U32)
SCAN_TESTS_FOR_TYPE(F32)
SCAN_TESTS_FOR_TYPE(I64)
SCAN_TESTS_FOR_TYPE(U64)
SCAN_TESTS_FOR_TYPE(F64)

/* 2^22 + 7 and 2^24 + 1: every type, sums both ways, min and max inclusive. */
static void scan_large(prism_type type) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  for (size_t s = 0; s < vec_large_sizes_count; s++) {
    size_t n = vec_large_sizes[s];
    vec_pattern p =
        type == PRISM_F32 || type == PRISM_F64 ? VEC_RANDOM : VEC_EXTREME;
    check_scan(ctx, type, PRISM_SUM, PRISM_INCLUSIVE, p, n, 0);
    check_scan(ctx, type, PRISM_SUM, PRISM_EXCLUSIVE, VEC_SMALL, n, 1);
    check_scan(ctx, type, PRISM_MIN, PRISM_INCLUSIVE, VEC_DESCENDING, n, 0);
    check_scan(ctx, type, PRISM_MAX, PRISM_EXCLUSIVE, VEC_RANDOM, n, 0);
  }
  prism_context_destroy(ctx);
}

Test(scan, large_I32) {
  scan_large(PRISM_I32);
}
Test(scan, large_U32) {
  scan_large(PRISM_U32);
}
Test(scan, large_F32) {
  scan_large(PRISM_F32);
}
Test(scan, large_I64) {
  scan_large(PRISM_I64);
}
Test(scan, large_U64) {
  scan_large(PRISM_U64);
}
Test(scan, large_F64) {
  scan_large(PRISM_F64);
}

/* n smaller than the buffers: nothing past n is written. */
Test(scan, writes_only_n) {
  prism_context *ctx = harness_context();
  const size_t cap = 10000, n = 4099;
  int32_t *host = harness_malloc(cap * 4);
  vec_fill(PRISM_I32, VEC_SMALL, 7, host, cap);
  prism_buffer *in = harness_upload(ctx, host, cap * 4);
  prism_buffer *out = harness_poisoned(ctx, cap * 4);
  HARNESS_OK(
      ctx, prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_EXCLUSIVE, in, out, n));
  unsigned char *got = harness_download(out);
  for (size_t i = n * 4; i < cap * 4; i++)
    cr_assert_eq(got[i], HARNESS_POISON, "byte %zu past n was written", i);
  free(got);
  free(host);
  prism_context_destroy(ctx);
}
