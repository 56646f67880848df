/* SPDX-License-Identifier: MIT */
/* More than 2^31 elements: 64-bit offsets everywhere they are needed. Needs
 * about 9 GB of device memory, so it runs only with PRISM_TEST_LARGE=1 (on
 * a GPU); otherwise each test is skipped and says so. */
#include "harness.h"

#include <stdlib.h>

int harness_needs_backend = 1;

static const size_t n = (1ull << 31) + 123;

static prism_context *large_context(void) {
  const char *flag = getenv("PRISM_TEST_LARGE");
  if (!flag || flag[0] != '1')
    cr_skip_test("needs ~9 GB of device memory: set PRISM_TEST_LARGE=1");
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
