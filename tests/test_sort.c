/* SPDX-License-Identifier: MIT */
/* prism_sort_keys and prism_sort_pairs against a stable comparison sort on
 * the shared vectors: every key type, both orders, bit ranges, values of 4
 * and 8 bytes (the original index, which proves stability), in place. */
#include "harness.h"
#include "ref_sort.h"
#include "ref_value.h"
#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

#define GUARD_BYTES 64

/* Key patterns beyond the shared ones: keys that differ only in their top
 * or only in their bottom bits, and few distinct keys. */
typedef enum key_pattern {
  KEYS_SHARED, /* a vec_pattern */
  KEYS_TOP_BITS,
  KEYS_BOTTOM_BITS,
  KEYS_FEW
} key_pattern;

typedef struct sort_case {
  prism_type type;
  size_t value_size; /* 0: keys only */
  int descending;
  unsigned begin_bit, end_bit;
  int in_place;
} sort_case;

static void fill_keys(prism_type type, key_pattern kp, vec_pattern vp,
                      uint64_t seed, void *keys, size_t n) {
  size_t size = prism_type_size(type);
  vec_fill(type, kp == KEYS_SHARED ? vp : VEC_RANDOM, seed, keys, n);
  if (kp == KEYS_SHARED)
    return;
  for (size_t i = 0; i < n; i++) {
    uint64_t bits = 0;
    memcpy(&bits, (char *)keys + i * size, size);
    unsigned width = (unsigned)size * 8;
    if (kp == KEYS_TOP_BITS)
      bits = (bits >> (width - 3)) << (width - 3);
    else if (kp == KEYS_BOTTOM_BITS)
      bits &= 0x7;
    else
      bits = (bits % 5) * 0x01010101u;
    memcpy((char *)keys + i * size, &bits, size);
  }
}

static const char *pattern_name(key_pattern kp, vec_pattern vp) {
  static const char *const names[] = {"", "top-bits", "bottom-bits", "few"};
  return kp == KEYS_SHARED ? vec_pattern_name(vp) : names[kp];
}

static prism_buffer *device_copy(prism_context *ctx, const void *host,
                                 size_t bytes) {
  prism_buffer *buf = harness_poisoned(ctx, bytes + GUARD_BYTES);
  if (bytes)
    HARNESS_OK(ctx, prism_buffer_write(buf, 0, host, bytes));
  return buf;
}

static void check_guard(const unsigned char *bytes, size_t from,
                        const char *what) {
  for (size_t i = 0; i < GUARD_BYTES; i++)
    cr_assert_eq(bytes[from + i], HARNESS_POISON,
                 "%s: byte %zu past the end was written", what, i);
}

static void check_sort(prism_context *ctx, const sort_case *c, key_pattern kp,
                       vec_pattern vp, size_t n) {
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  unsigned char *keys = harness_malloc(n * ks), *values = NULL;
  size_t *perm = harness_malloc(n * sizeof *perm);
  fill_keys(c->type, kp, vp, n * 31 + 7, keys, n);
  ref_sort_order(c->type, keys, n, c->descending, c->begin_bit, c->end_bit,
                 perm);
  if (vs) {
    values = harness_malloc(n * vs);
    for (size_t i = 0; i < n; i++) {
      uint64_t v = i;
      memcpy(values + i * vs, &v, vs); /* little-endian: low bytes */
    }
  }
  prism_sort_options options;
  prism_sort_options_init(&options, c->type);
  options.order = c->descending ? PRISM_DESCENDING : PRISM_ASCENDING;
  options.begin_bit = c->begin_bit;
  options.end_bit = c->end_bit;

  prism_buffer *kin = device_copy(ctx, keys, n * ks);
  prism_buffer *kout =
      c->in_place ? kin : harness_poisoned(ctx, n * ks + GUARD_BYTES);
  prism_buffer *vin = NULL, *vout = NULL;
  if (vs) {
    vin = device_copy(ctx, values, n * vs);
    vout = c->in_place ? vin : harness_poisoned(ctx, n * vs + GUARD_BYTES);
    HARNESS_OK(ctx, prism_sort_pairs(ctx, c->type, kin, kout, vin, vout, vs, n,
                                     &options));
  } else {
    HARNESS_OK(ctx, prism_sort_keys(ctx, c->type, kin, kout, n, &options));
  }

  char what[200];
  snprintf(what, sizeof what, "sort %s %s%s, bits [%u, %u), %s, n = %zu%s",
           prism_type_name(c->type), c->descending ? "descending" : "ascending",
           vs == 4   ? ", 4-byte values"
           : vs == 8 ? ", 8-byte values"
                     : "",
           c->begin_bit, c->end_bit, pattern_name(kp, vp), n,
           c->in_place ? ", in place" : "");
  unsigned char *got = harness_download(kout);
  for (size_t i = 0; i < n; i++)
    if (memcmp(got + i * ks, keys + perm[i] * ks, ks) != 0) {
      char a[64], b[64];
      ref_format(c->type, got + i * ks, a, sizeof a);
      ref_format(c->type, keys + perm[i] * ks, b, sizeof b);
      cr_assert_fail("%s: key %zu is %s, want %s (input %zu)", what, i, a, b,
                     perm[i]);
    }
  check_guard(got, n * ks, what);
  free(got);
  if (vs) {
    got = harness_download(vout);
    for (size_t i = 0; i < n; i++) {
      uint64_t v = 0;
      memcpy(&v, got + i * vs, vs);
      cr_assert_eq(v, (uint64_t)perm[i],
                   "%s: value %zu is %llu, want %zu (unstable?)", what, i,
                   (unsigned long long)v, perm[i]);
    }
    check_guard(got, n * vs, what);
    free(got);
  }
  if (!c->in_place) {
    unsigned char *after = harness_download(kin);
    cr_assert(memcmp(after, keys, n * ks) == 0, "%s: keys_in modified", what);
    free(after);
    prism_buffer_destroy(kout);
    prism_buffer_destroy(vout);
  }
  prism_buffer_destroy(kin);
  prism_buffer_destroy(vin);
  free(values);
  free(perm);
  free(keys);
}

/* Every size and pattern for one case; large sizes take random keys only. */
static void sort_suite(prism_type type, size_t value_size, int descending) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  unsigned bits = (unsigned)prism_type_size(type) * 8;
  sort_case c = {type, value_size, descending, 0, bits, 0};
  const size_t max_n = harness_max_n();
  for (size_t s = 0; s < vec_sizes_count; s++) {
    size_t n = vec_sizes[s];
    if (n > max_n)
      continue;
    for (int vp = 0; vp < VEC_PATTERN_COUNT; vp++)
      if (vec_pattern_applies(vp, type) &&
          (n <= 65537 || vp == VEC_RANDOM || vp == VEC_SPECIAL))
        check_sort(ctx, &c, KEYS_SHARED, vp, n);
    if (n <= 65537)
      for (int kp = KEYS_TOP_BITS; kp <= KEYS_FEW; kp++)
        check_sort(ctx, &c, kp, VEC_RANDOM, n);
  }
  /* Bit ranges: low, middle, top, one bit; random and few-distinct keys. */
  const unsigned ranges[][2] = {
      {0, 8}, {5, bits / 2 + 3}, {bits - 4, bits}, {bits - 1, bits}, {7, 8}};
  static const size_t range_sizes[] = {1, 1000, 4097, 65537, 300001};
  for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
    for (size_t s = 0; s < sizeof range_sizes / sizeof range_sizes[0]; s++) {
      if (range_sizes[s] > max_n)
        continue;
      c.begin_bit = ranges[r][0];
      c.end_bit = ranges[r][1];
      check_sort(ctx, &c, KEYS_SHARED, VEC_RANDOM, range_sizes[s]);
      check_sort(ctx, &c, KEYS_FEW, VEC_RANDOM, range_sizes[s]);
    }
  /* In place, full width. */
  c.begin_bit = 0;
  c.end_bit = bits;
  c.in_place = 1;
  static const size_t in_place_sizes[] = {1, 2, 1000, 4097, 65537, 1000003};
  for (size_t s = 0; s < sizeof in_place_sizes / sizeof in_place_sizes[0]; s++)
    if (in_place_sizes[s] <= max_n)
      check_sort(ctx, &c, KEYS_SHARED, VEC_RANDOM, in_place_sizes[s]);
  prism_context_destroy(ctx);
}

#define SORT_TEST(T, NAME, VS, DESC)                                           \
  Test(sort, T##_##NAME) {                                                     \
    sort_suite(PRISM_##T, VS, DESC);                                           \
  }
#define SORT_TESTS_FOR_TYPE(T)                                                 \
  SORT_TEST(T, keys_ascending, 0, 0)                                           \
  SORT_TEST(T, keys_descending, 0, 1)                                          \
  SORT_TEST(T, pairs4_ascending, 4, 0)                                         \
  SORT_TEST(T, pairs8_descending, 8, 1)

SORT_TESTS_FOR_TYPE(U32)
SORT_TESTS_FOR_TYPE(I32)
SORT_TESTS_FOR_TYPE(F32)
SORT_TESTS_FOR_TYPE(U64)
SORT_TESTS_FOR_TYPE(I64)
SORT_TESTS_FOR_TYPE(F64)

/* 2^24 + 1 keys: u32 and f32 keys, pairs. */
static void sort_large(prism_type type, size_t value_size) {
  prism_context *ctx = harness_context();
  harness_require_type(ctx, type);
  unsigned bits = (unsigned)prism_type_size(type) * 8;
  sort_case c = {type, value_size, 0, 0, bits, 0};
  check_sort(ctx, &c, KEYS_SHARED, type == PRISM_F32 ? VEC_SPECIAL : VEC_RANDOM,
             (1u << 24) + 1);
  prism_context_destroy(ctx);
}

Test(sort, large_U32_keys) {
  sort_large(PRISM_U32, 0);
}
Test(sort, large_F32_pairs) {
  sort_large(PRISM_F32, 4);
}
Test(sort, large_U64_pairs) {
  sort_large(PRISM_U64, 8);
}

/* NaNs of both signs, infinities, zeros of both signs and denormals land
 * in IEEE-754 total order. */
Test(sort, float_total_order) {
  prism_context *ctx = harness_context();
  const float nan = __builtin_nanf(""), inf = __builtin_inff();
  const float in[] = {1.0f, -nan, 0.0f,  inf,    -0.0f,
                      nan,  -inf, -1.0f, 1e-42f, -1e-42f};
  const float want[] = {-nan, -inf,   -1.0f, -1e-42f, -0.0f,
                        0.0f, 1e-42f, 1.0f,  inf,     nan};
  const size_t n = sizeof in / sizeof in[0];
  prism_buffer *b = harness_upload(ctx, in, sizeof in);
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_F32, b, b, n, NULL));
  float got[sizeof in / sizeof in[0]];
  HARNESS_OK(ctx, prism_buffer_read(b, 0, got, sizeof got));
  cr_assert(memcmp(got, want, sizeof got) == 0,
            "float keys are not in total order");
  prism_context_destroy(ctx);
}

/* Bad input: status and message, nothing written, context usable. */
Test(sort, bad_input) {
  prism_context *ctx = harness_context(), *other = harness_context();
  prism_buffer *k = harness_poisoned(ctx, 400), *v = harness_poisoned(ctx, 400);
  prism_buffer *small = harness_poisoned(ctx, 16);
  prism_buffer *foreign = harness_poisoned(other, 400);
  prism_sort_options o;
  prism_sort_options_init(&o, PRISM_U32);
  cr_assert_eq(o.end_bit, 32);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "type",
                 prism_sort_keys(ctx, (prism_type)42, k, k, 10, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "value_size",
                 prism_sort_pairs(ctx, PRISM_U32, k, k, v, v, 3, 10, NULL));
  o.begin_bit = 8;
  o.end_bit = 8;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "begin_bit",
                 prism_sort_keys(ctx, PRISM_U32, k, k, 10, &o));
  o.begin_bit = 0;
  o.end_bit = 33;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "end_bit",
                 prism_sort_keys(ctx, PRISM_U32, k, k, 10, &o));
  prism_sort_options_init(&o, PRISM_U32);
  o.order = (prism_order)7;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "order",
                 prism_sort_keys(ctx, PRISM_U32, k, k, 10, &o));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "keys_out",
                 prism_sort_keys(ctx, PRISM_U32, k, small, 10, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "keys_in",
                 prism_sort_keys(ctx, PRISM_U64, small, k, 10, NULL));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "values_out",
                 prism_sort_pairs(ctx, PRISM_U32, k, k, v, small, 8, 10, NULL));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "keys_in",
                 prism_sort_keys(ctx, PRISM_U32, foreign, k, 10, NULL));
  HARNESS_EXPECT(
      ctx, PRISM_CONTEXT_MISMATCH, "values_in",
      prism_sort_pairs(ctx, PRISM_U32, k, k, foreign, v, 4, 10, NULL));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "keys_in and values_in",
                 prism_sort_pairs(ctx, PRISM_U32, k, k, k, v, 4, 10, NULL));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "values_in",
                 prism_sort_pairs(ctx, PRISM_U32, k, k, NULL, v, 4, 10, NULL));
  if (!prism_context_supports(ctx, PRISM_F64))
    HARNESS_EXPECT(ctx, PRISM_UNSUPPORTED, "f64",
                   prism_sort_keys(ctx, PRISM_F64, k, k, 10, NULL));
  /* Nothing was written by the failed calls. */
  unsigned char *bytes = harness_download(small);
  for (size_t i = 0; i < 16; i++)
    cr_assert_eq(bytes[i], HARNESS_POISON, "byte %zu written", i);
  free(bytes);
  /* n = 0 is a no-op; the context still sorts. */
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, small, small, 0, NULL));
  const uint32_t in[4] = {3, 1, 2, 0};
  uint32_t out[4];
  HARNESS_OK(ctx, prism_buffer_write(small, 0, in, sizeof in));
  HARNESS_OK(ctx, prism_sort_keys(ctx, PRISM_U32, small, small, 4, NULL));
  HARNESS_OK(ctx, prism_buffer_read(small, 0, out, sizeof out));
  cr_assert(out[0] == 0 && out[1] == 1 && out[2] == 2 && out[3] == 3);
  prism_context_destroy(other);
  prism_context_destroy(ctx);
}
