/* SPDX-License-Identifier: MIT */
/* prism_gather and prism_scatter against a serial reference: element sizes
 * 4 and 8, every index type, repeated and out-of-range indices, checked and
 * unchecked. */
#include "harness.h"
#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

static const prism_type index_types[] = {PRISM_U32, PRISM_I32, PRISM_U64,
                                         PRISM_I64};

/* Index i of an index array of the given type, as a signed 64-bit value. */
static int64_t get_index(prism_type t, const void *idx, size_t i) {
  switch (t) {
  case PRISM_U32:
    return ((const uint32_t *)idx)[i];
  case PRISM_I32:
    return ((const int32_t *)idx)[i];
  case PRISM_I64:
    return ((const int64_t *)idx)[i];
  default:
    return (int64_t)((const uint64_t *)idx)[i];
  }
}

static void set_index(prism_type t, void *idx, size_t i, int64_t v) {
  switch (t) {
  case PRISM_U32:
    ((uint32_t *)idx)[i] = (uint32_t)v;
    break;
  case PRISM_I32:
    ((int32_t *)idx)[i] = (int32_t)v;
    break;
  case PRISM_I64:
    ((int64_t *)idx)[i] = v;
    break;
  default:
    ((uint64_t *)idx)[i] = (uint64_t)v;
    break;
  }
}

/* Element j's value: distinct per position, and j can be recovered from
 * its low 32 or all 64 bits (an odd multiplier is invertible). */
#define ELEMENT_MUL 0x5bd1e995ull
#define ELEMENT_XOR 0x1234567ull

static uint64_t element(size_t j) {
  return ELEMENT_MUL * (j + 1) ^ ELEMENT_XOR;
}

/* The position whose element has these es bytes. */
static size_t element_position(uint64_t v, size_t es) {
  uint64_t inv = ELEMENT_MUL; /* Newton: each step doubles the good bits */
  for (int k = 0; k < 5; k++)
    inv *= 2 - ELEMENT_MUL * inv;
  uint64_t j1 = (v ^ ELEMENT_XOR) * inv;
  if (es == 4)
    j1 &= 0xffffffffu;
  return (size_t)(j1 - 1);
}

static void put(unsigned char *p, size_t es, size_t j, uint64_t v) {
  memcpy(p + j * es, &v, es);
}

static uint64_t get(const unsigned char *p, size_t es, size_t j) {
  uint64_t v = 0;
  memcpy(&v, p + j * es, es);
  return v;
}

/* bad_every: every bad_every-th index is out of range (0: none). */
static void check_move(prism_context *ctx, int scatter, size_t es,
                       prism_type it, size_t n, size_t bound, int unique,
                       size_t bad_every, int checked) {
  const size_t is = prism_type_size(it);
  const size_t in_count = scatter ? n : bound, out_count = scatter ? bound : n;
  unsigned char *in = harness_malloc(in_count * es);
  unsigned char *idx = harness_malloc(n * is);
  unsigned char *want = harness_malloc(out_count * es);
  memset(want, HARNESS_POISON, out_count * es);
  for (size_t j = 0; j < in_count; j++)
    put(in, es, j, element(j));
  uint64_t rng = n * 7 + bound;
  size_t first_bad_want = SIZE_MAX;
  for (size_t i = 0; i < n; i++) {
    int64_t v = unique ? (int64_t)((i * 7919) % bound)
                       : (int64_t)(vec_next(&rng) % bound);
    if (bad_every && i % bad_every == bad_every - 1) {
      int is_signed = it == PRISM_I32 || it == PRISM_I64;
      v = is_signed && (i & 2) ? -1 - (int64_t)(i % 3)
                               : (int64_t)(bound + i % 5);
      if (first_bad_want == SIZE_MAX)
        first_bad_want = i;
    }
    set_index(it, idx, i, v);
  }
  /* The reference, in order (for scatter with repeats, checked below). */
  for (size_t i = 0; i < n; i++) {
    int64_t v = get_index(it, idx, i);
    if (v < 0 || (uint64_t)v >= bound)
      continue;
    if (scatter)
      put(want, es, (size_t)v, get(in, es, i));
    else
      put(want, es, i, get(in, es, (size_t)v));
  }
  prism_buffer *din = harness_upload(ctx, in, in_count * es);
  prism_buffer *didx = harness_upload(ctx, idx, n * is);
  prism_buffer *dout = harness_poisoned(ctx, out_count * es);
  size_t first_bad = 12345;
  prism_status st = scatter ? prism_scatter(ctx, es, din, it, didx, dout,
                                            out_count, n, checked, &first_bad)
                            : prism_gather(ctx, es, din, in_count, it, didx,
                                           dout, n, checked, &first_bad);
  char what[160];
  snprintf(what, sizeof what,
           "%s %zu-byte elements, %s indices, n = %zu, "
           "bound = %zu%s%s",
           scatter ? "scatter" : "gather", es, prism_type_name(it), n, bound,
           unique ? ", unique" : ", repeated", checked ? ", checked" : "");
  if (checked && first_bad_want != SIZE_MAX) {
    cr_assert_eq(st, PRISM_INVALID_ARGUMENT, "%s: %s", what,
                 prism_context_last_error(ctx));
    cr_assert_eq(first_bad, first_bad_want, "%s: first bad %zu, want %zu", what,
                 first_bad, first_bad_want);
    char needle[64];
    snprintf(needle, sizeof needle, "indices[%zu]", first_bad_want);
    cr_assert(strstr(prism_context_last_error(ctx), needle), "%s: '%s'", what,
              prism_context_last_error(ctx));
  } else {
    cr_assert_eq(st, PRISM_OK, "%s: %s", what, prism_context_last_error(ctx));
    if (checked)
      cr_assert_eq(first_bad, SIZE_MAX, "%s", what);
  }
  unsigned char *got = harness_download(dout);
  for (size_t j = 0; j < out_count; j++) {
    uint64_t g = get(got, es, j), w = get(want, es, j);
    if (g == w)
      continue;
    /* A scatter with repeated indices may keep any of the values aimed at
     * j: the value's own position must have aimed at j. */
    int ok = 0;
    if (scatter && !unique) {
      size_t i = element_position(g, es);
      ok = i < n && get_index(it, idx, i) == (int64_t)j;
    }
    cr_assert(ok, "%s: out[%zu] = %#llx, want %#llx", what, j,
              (unsigned long long)g, (unsigned long long)w);
  }
  free(got);
  prism_buffer_destroy(dout);
  prism_buffer_destroy(didx);
  prism_buffer_destroy(din);
  free(want);
  free(idx);
  free(in);
}

static void move_suite(int scatter, size_t es) {
  prism_context *ctx = harness_context();
  static const size_t sizes[] = {1, 2, 255, 256, 257, 4097, 65537, 1000003};
  for (size_t t = 0; t < 4; t++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
      size_t n = sizes[s];
      size_t bound = n < 1000 ? n + 3 : n / 2 + 1;
      check_move(ctx, scatter, es, index_types[t], n, n, 1, 0, 0);
      if (n > 1000 && n < 100000)
        check_move(ctx, scatter, es, index_types[t], n, bound, 0, 0, 0);
      check_move(ctx, scatter, es, index_types[t], n, bound, 0, 97, 0);
      check_move(ctx, scatter, es, index_types[t], n, bound, 0, 97, 1);
      check_move(ctx, scatter, es, index_types[t], n, n, 1, 0, 1);
    }
  prism_context_destroy(ctx);
}

Test(gather_scatter, gather_4) {
  move_suite(0, 4);
}
Test(gather_scatter, gather_8) {
  move_suite(0, 8);
}
Test(gather_scatter, scatter_4) {
  move_suite(1, 4);
}
Test(gather_scatter, scatter_8) {
  move_suite(1, 8);
}

Test(gather_scatter, bad_input) {
  prism_context *ctx = harness_context(), *other = harness_context();
  prism_buffer *a = harness_poisoned(ctx, 400), *b = harness_poisoned(ctx, 400);
  prism_buffer *i = harness_poisoned(ctx, 400),
               *small = harness_poisoned(ctx, 8);
  prism_buffer *foreign = harness_poisoned(other, 400);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "element_size",
                 prism_gather(ctx, 2, a, 10, PRISM_U32, i, b, 10, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "index_type",
                 prism_gather(ctx, 4, a, 10, PRISM_F32, i, b, 10, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "same buffer",
                 prism_scatter(ctx, 4, a, PRISM_U32, i, a, 10, 10, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "indices",
                 prism_gather(ctx, 4, a, 10, PRISM_U64, small, b, 10, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "in",
                 prism_gather(ctx, 8, a, 51, PRISM_U32, i, b, 10, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "out",
                 prism_scatter(ctx, 8, a, PRISM_U32, i, b, 51, 10, 0, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_CONTEXT_MISMATCH, "indices",
      prism_gather(ctx, 4, a, 10, PRISM_U32, foreign, b, 10, 0, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_scatter(ctx, 4, a, PRISM_U32, i, NULL, 10, 10, 0, NULL));
  /* n = 0 is a no-op even when checked. */
  size_t first_bad = 7;
  HARNESS_OK(ctx,
             prism_gather(ctx, 4, a, 0, PRISM_U32, i, b, 0, 1, &first_bad));
  cr_assert_eq(first_bad, SIZE_MAX);
  prism_context_destroy(other);
  prism_context_destroy(ctx);
}
