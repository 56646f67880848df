/* SPDX-License-Identifier: MIT */
/* Bad input: every misuse gets its status and a message naming the argument,
 * nothing is written outside the caller's buffers, and the context keeps
 * working afterwards. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

Test(api, null_context) {
  int32_t r;
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_reduce(NULL, PRISM_I32, PRISM_SUM, NULL, 1, &r));
  HARNESS_EXPECT(
      NULL, PRISM_NULL_POINTER, "ctx",
      prism_scan(NULL, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, NULL, NULL, 1));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx", prism_context_finish(NULL));
  prism_buffer *b = NULL;
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_buffer_create(NULL, 4, &b));
  prism_context_destroy(NULL);
  prism_buffer_destroy(NULL);
  cr_assert_eq(prism_buffer_size(NULL), 0);
  cr_assert_null(prism_buffer_context(NULL));
}

Test(api, null_buffers_and_pointers) {
  prism_context *ctx = harness_context();
  prism_buffer *b = harness_poisoned(ctx, 64);
  int32_t r;
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "in",
                 prism_reduce(ctx, PRISM_I32, PRISM_SUM, NULL, 4, &r));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "result",
                 prism_reduce(ctx, PRISM_I32, PRISM_SUM, b, 4, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_NULL_POINTER, "in",
      prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, NULL, b, 4));
  HARNESS_EXPECT(
      ctx, PRISM_NULL_POINTER, "out",
      prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, b, NULL, 4));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_buffer_create(ctx, 4, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "dst",
                 prism_buffer_write(NULL, 0, &r, 4));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "src",
                 prism_buffer_write(b, 0, NULL, 4));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "dst",
                 prism_buffer_read(b, 0, NULL, 4));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "pattern",
                 prism_buffer_fill(b, 0, NULL, 4, 8));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "src",
                 prism_buffer_copy(b, 0, NULL, 0, 4));
  harness_assert_alive(ctx, "an error");
  prism_context_destroy(ctx);
}

Test(api, buffers_too_small) {
  prism_context *ctx = harness_context();
  prism_buffer *small = harness_poisoned(ctx, 40); /* 10 x i32, 5 x i64 */
  prism_buffer *big = harness_poisoned(ctx, 400);
  int64_t r;
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "in",
                 prism_reduce(ctx, PRISM_I32, PRISM_SUM, small, 11, &r));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "in",
                 prism_reduce(ctx, PRISM_I64, PRISM_MAX, small, 6, &r));
  HARNESS_EXPECT(
      ctx, PRISM_BUFFER_TOO_SMALL, "out",
      prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_EXCLUSIVE, big, small, 11));
  HARNESS_EXPECT(
      ctx, PRISM_BUFFER_TOO_SMALL, "in",
      prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_EXCLUSIVE, small, big, 11));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "n",
                 prism_scan(ctx, PRISM_I64, PRISM_SUM, PRISM_EXCLUSIVE, small,
                            big, SIZE_MAX / 4));
  char host[64];
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "dst",
                 prism_buffer_write(small, 36, host, 8));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "src",
                 prism_buffer_read(small, 41, host, 0));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "src",
                 prism_buffer_read(small, SIZE_MAX, host, 2));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "buf",
                 prism_buffer_fill(small, 32, host, 4, 12));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "dst",
                 prism_buffer_copy(small, 0, big, 0, 44));
  /* Nothing was written: the small buffer is still all poison. */
  unsigned char *after = harness_download(small);
  for (size_t i = 0; i < 40; i++)
    cr_assert_eq(after[i], HARNESS_POISON, "byte %zu written", i);
  free(after);
  harness_assert_alive(ctx, "an error");
  prism_context_destroy(ctx);
}

Test(api, buffer_of_another_context) {
  prism_context *a = harness_context(), *b = harness_context();
  prism_buffer *in_a = harness_poisoned(a, 64),
               *out_b = harness_poisoned(b, 64);
  int32_t r;
  HARNESS_EXPECT(b, PRISM_CONTEXT_MISMATCH, "in",
                 prism_reduce(b, PRISM_I32, PRISM_SUM, in_a, 4, &r));
  HARNESS_EXPECT(
      a, PRISM_CONTEXT_MISMATCH, "out",
      prism_scan(a, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, in_a, out_b, 4));
  HARNESS_EXPECT(a, PRISM_CONTEXT_MISMATCH, "src",
                 prism_buffer_copy(in_a, 0, out_b, 0, 4));
  harness_assert_alive(a, "an error");
  harness_assert_alive(b, "an error");
  prism_context_destroy(b);
  prism_context_destroy(a);
}

Test(api, bad_type_op_kind) {
  prism_context *ctx = harness_context();
  prism_buffer *b = harness_poisoned(ctx, 64);
  int64_t r;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "type",
                 prism_reduce(ctx, (prism_type)17, PRISM_SUM, b, 4, &r));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "op",
                 prism_reduce(ctx, PRISM_I32, (prism_op)9, b, 4, &r));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "kind",
      prism_scan(ctx, PRISM_I32, PRISM_SUM, (prism_scan_kind)3, b, b, 4));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "type",
      prism_scan(ctx, (prism_type)-1, PRISM_SUM, PRISM_INCLUSIVE, b, b, 4));
  if (!prism_context_supports(ctx, PRISM_F64))
    HARNESS_EXPECT(ctx, PRISM_UNSUPPORTED, "f64",
                   prism_reduce(ctx, PRISM_F64, PRISM_SUM, b, 4, &r));
  harness_assert_alive(ctx, "an error");
  prism_context_destroy(ctx);
}

Test(api, buffer_argument_rules) {
  prism_context *ctx = harness_context();
  prism_buffer *b = harness_poisoned(ctx, 64);
  uint64_t pattern = 0x0102030405060708ull;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "pattern_size",
                 prism_buffer_fill(b, 0, &pattern, 3, 12));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "multiples",
                 prism_buffer_fill(b, 2, &pattern, 4, 8));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "overlap",
                 prism_buffer_copy(b, 0, b, 8, 16));
  /* Valid calls still do the right thing. */
  HARNESS_OK(ctx, prism_buffer_fill(b, 8, &pattern, 8, 16));
  HARNESS_OK(ctx, prism_buffer_copy(b, 40, b, 8, 16));
  unsigned char *got = harness_download(b);
  for (size_t i = 0; i < 64; i++) {
    int filled = (i >= 8 && i < 24) || (i >= 40 && i < 56);
    unsigned char want =
        filled ? ((const unsigned char *)&pattern)[i % 8] : HARNESS_POISON;
    cr_assert_eq(got[i], want, "byte %zu", i);
  }
  free(got);
  /* Zero-byte operations are no-ops; empty buffers are fine. */
  prism_buffer *empty = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, 0, &empty));
  cr_assert_eq(prism_buffer_size(empty), 0);
  HARNESS_OK(ctx, prism_buffer_write(empty, 0, NULL, 0));
  HARNESS_OK(ctx, prism_buffer_copy(b, 0, empty, 0, 0));
  HARNESS_OK(ctx, prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_INCLUSIVE, empty,
                             empty, 0));
  cr_assert_eq(prism_buffer_context(b), ctx);
  prism_buffer_destroy(empty);
  harness_assert_alive(ctx, "an error");
  /* Buffers left at destroy are released with the context. */
  prism_context_destroy(ctx);
}

Test(api, out_of_memory_is_reported) {
  prism_context *ctx = harness_context();
  prism_buffer *b = NULL;
  prism_status st = prism_buffer_create(ctx, SIZE_MAX / 2, &b);
  cr_assert_neq(st, PRISM_OK, "a 2^63-byte buffer cannot exist");
  cr_assert_null(b);
  cr_assert_gt(strlen(prism_context_last_error(ctx)), 0);
  harness_assert_alive(ctx, "an error");
  prism_context_destroy(ctx);
}

static int sorted_u32(prism_buffer *b, size_t n) {
  uint32_t *got = harness_download(b);
  int ok = 1;
  for (size_t i = 1; i < n && ok; i++)
    ok = got[i - 1] <= got[i];
  free(got);
  return ok;
}

/* The pool grows with the need, is released on request, and a limit turns
 * a larger need into PRISM_OUT_OF_MEMORY without harming the context. */
Test(api, scratch_pool_control) {
  enum { N = 1 << 16 };
  prism_context *ctx = harness_context();
  uint32_t *host = harness_malloc(N * sizeof *host);
  for (uint32_t i = 0; i < N; i++)
    host[i] = (i * 2654435761u) >> 7;
  prism_buffer *keys = harness_upload(ctx, host, N * sizeof *host);
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, keys, keys, N, NULL));
  size_t grown = prism_context_scratch_size(ctx);
  cr_assert_gt(grown, 0, "an in-place sort uses the pool");
  HARNESS_OK(ctx, prism_context_release_scratch(ctx));
  cr_assert_eq(prism_context_scratch_size(ctx), 0);
  cr_assert(sorted_u32(keys, N), "the sort before the release finished");

  HARNESS_OK(ctx, prism_buffer_write(keys, 0, host, N * sizeof *host));
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, keys, keys, N, NULL));
  cr_assert(sorted_u32(keys, N), "sorts again after a release");
  cr_assert_gt(prism_context_scratch_size(ctx), 0);

  /* A limit below the pool releases it; a need above it is refused. */
  HARNESS_OK(ctx, prism_context_set_scratch_limit(ctx, 1024));
  cr_assert_eq(prism_context_scratch_size(ctx), 0);
  HARNESS_OK(ctx, prism_buffer_write(keys, 0, host, N * sizeof *host));
  HARNESS_EXPECT(ctx, PRISM_OUT_OF_MEMORY, "scratch limit of 1024 bytes",
                 prism_sort_keys(ctx, PRISM_U32, keys, keys, N, NULL));
  cr_assert_leq(prism_context_scratch_size(ctx), 1024);
  harness_assert_alive(ctx, "an error");
  HARNESS_OK(ctx, prism_context_set_scratch_limit(ctx, SIZE_MAX));
  HARNESS_OK(ctx, prism_buffer_write(keys, 0, host, N * sizeof *host));
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, keys, keys, N, NULL));
  cr_assert(sorted_u32(keys, N), "sorts once the limit is lifted");

  cr_assert_eq(prism_context_scratch_size(NULL), 0);
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_context_set_scratch_limit(NULL, 0));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_context_release_scratch(NULL));
  prism_buffer_destroy(keys);
  free(host);
  prism_context_destroy(ctx);
}

Test(api, context_reports_device) {
  prism_context *ctx = harness_context();
  cr_assert_gt(strlen(prism_context_device_name(ctx)), 0);
  cr_assert_gt(strlen(prism_context_platform_name(ctx)), 0);
  cr_assert(prism_context_supports(ctx, PRISM_I32));
  cr_assert(prism_context_supports(ctx, PRISM_I64));
  cr_assert(!prism_context_supports(ctx, (prism_type)99));
  prism_backend kind = prism_context_backend(ctx);
  cr_assert(kind == PRISM_BACKEND_CUDA || kind == PRISM_BACKEND_OPENCL);
  const char *policy = prism_context_policy(ctx);
  if (kind == PRISM_BACKEND_CUDA)
    cr_assert_str_eq(policy, "cuda");
  else
    cr_assert(strcmp(policy, "gpu") == 0 || strcmp(policy, "cpu") == 0,
              "policy '%s'", policy);
  cr_assert_str_eq(prism_context_policy(NULL), "");
  HARNESS_OK(ctx, prism_context_finish(ctx));
  prism_context_destroy(ctx);
}
